"""`evalfw score` without -i reads standard input; a closed one is called closed, not a
terminal."""

from __future__ import annotations

import subprocess
import sys

from tests.support.cli import REPO, write


def test_closed_standard_input_is_called_closed(tmp_path):
    ref = write(tmp_path / "ref.txt", ["a b c"])
    done = subprocess.run(  # `<&-`: the child starts with file descriptor 0 closed
        ["bash", "-c", f'"{sys.executable}" -m evalfw score -r "{ref}" <&-'],
        capture_output=True, text=True, timeout=60, cwd=REPO)
    assert done.returncode == 2
    assert done.stderr == ("evalfw: error: no -i/--input files given and standard input is "
                           "closed; pass hypothesis files with -i or pipe them in\n")
