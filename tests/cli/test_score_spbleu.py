"""``evalfw score -tok flores200`` against the real ``sacrebleu`` command on every WMT22 system of
en-zh and en-ja, byte for byte: the score lines (one and two references, lowercased),
``--confidence`` and ``--paired-bs`` with the same seed. Both read the same model (trained
here) from ``$SACREBLEU/models``."""

from __future__ import annotations

import pytest

from tests.support.cli import evalfw, sacrebleu
from tests.support.shared_data import need_wmt22
from tests.support.spm_models import sacrebleu_home, wmt22_model

pytestmark = [pytest.mark.wmt22, pytest.mark.parity, pytest.mark.slow]
pytest.importorskip("sentencepiece")


@pytest.fixture(scope="module")
def env(tmp_path_factory):
    home = sacrebleu_home(tmp_path_factory.mktemp("sacrebleu"), wmt22_model("unigram"))
    return {"SACREBLEU": str(home), "SACREBLEU_SEED": "12345"}


def files(pair: str, refs: tuple[str, ...]) -> tuple[list[str], list[str]]:
    root = need_wmt22() / pair
    systems = sorted(str(p) for p in (root / "sys").glob("*.txt"))
    assert len(systems) == 13
    return [str(root / f"ref.{r}.txt") for r in refs], systems


def same(env: dict[str, str], refs: list[str], args: list[str]) -> str:
    ours = evalfw("score", "-r", *refs, *args, env=env)
    theirs = sacrebleu(*refs, *args, "-f", "text", env=env)
    assert ours.returncode == theirs.returncode == 0, (ours.stderr, theirs.stderr)
    assert ours.stdout == theirs.stdout
    return ours.stdout


@pytest.mark.parametrize("pair, refs, extra", [
    ("en-zh", ("A", "B"), []),
    ("en-zh", ("A",), ["-lc"]),
    ("en-ja", ("A",), ["-w", "3"]),
])
def test_scores_of_every_system(env, pair, refs, extra):
    ref_files, systems = files(pair, refs)
    out = same(env, ref_files, ["-i", *systems, "-tok", "flores200", *extra])
    assert all(system in out for system in systems)
    one = same(env, ref_files, ["-i", systems[0], "-tok", "flores200", *extra])
    assert "|tok:flores200|" in one


@pytest.mark.parametrize("pair, refs", [("en-zh", ("A", "B")), ("en-ja", ("A",))])
def test_paired_bootstrap_of_every_system(env, pair, refs):
    ref_files, systems = files(pair, refs)
    out = same(env, ref_files, ["-i", *systems, "-tok", "flores200", "--paired-bs",
                                "-pbsn", "300"])
    assert out.count("(p = ") == 12


def test_confidence_of_every_system(env):
    ref_files, systems = files("en-zh", ("A",))
    for system in systems:  # sacreBLEU takes one system at a time
        out = same(env, ref_files, ["-i", system, "-tok", "flores200", "-lc", "--confidence",
                                    "-cin", "200"])
        assert "(μ = " in out
