"""``--scheduler`` and the dask executor's options fail with one line, exit 2, in bounded time
and storing nothing, for every address evalfw cannot use: malformed ones, protocols it does
not speak, servers that are not Dask schedulers (silent, garbage, HTTP, a huge or bogus frame,
a greeting and then silence), timeouts beyond the limit, LocalClusters beyond the cores.
No cluster runs here: the servers are fake, on 127.0.0.1, started and stopped by each test.

Skipped without Dask (``pip install 'evalfw[dask]'``).
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

pytest.importorskip("distributed", reason="Dask is not installed: pip install 'evalfw[dask]'")

from evalfw.cli.main import main  # noqa: E402
from evalfw.executors import _scheduler_address as addresses  # noqa: E402
from evalfw.limits import MAX_WAIT_SECONDS, max_local_workers  # noqa: E402
from tests.support.cli import REPO, write  # noqa: E402
from tests.support.servers import GREETINGS, fake_server, free_port  # noqa: E402

CONFIG = """\
schema_version: 1
experiment: addr
output_dir: runs
test_sets:
  - name: t
    langs: de-en
    source: ref.txt
    references: [ref.txt]
    systems: {{a: a.txt, b: b.txt}}
metrics:
  - name: bleu
{executor}"""

#: every failure here is quick; under load a process may wait a few seconds for a core
SLACK = 10


@pytest.fixture
def config(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    monkeypatch.chdir(tmp_path)
    write(tmp_path / "ref.txt", ["the cat sat", "on the mat"])
    write(tmp_path / "a.txt", ["the cat sat", "on a mat"])
    write(tmp_path / "b.txt", ["a cat", "on the mat"])

    def make(executor: str = "") -> str:
        (tmp_path / "c.yaml").write_text(CONFIG.format(executor=executor), encoding="utf-8")
        return "c.yaml"

    return make


def _one_error(capsys: pytest.CaptureFixture[str]) -> str:
    """The only error line on stderr (stage lines aside)."""
    err = [line for line in capsys.readouterr().err.splitlines()
           if not line.startswith("evalfw: [")]
    assert len(err) == 1 and err[0].startswith("evalfw: error: "), err
    return err[0]


MALFORMED = {
    "tcp://[::1]:notaport": "port 'notaport' is not a number from 1 to 65535",
    "inproc://x": "the inproc:// protocol is not supported",
    "ucx://127.0.0.1:8786": "the ucx:// protocol is not supported",
    "ws://127.0.0.1:8786": "the ws:// protocol is not supported",
    "a" * 5000: "(5,000 characters)': an address is at most 300 characters",
    "tcp://127.0.0.1:99999": "port '99999' is not a number",
    "tcp://127.0.0.1:0": "port '0' is not a number",
    "tcp://[zz::1]:8786": "in brackets is not an IPv6 address",
    "tcp://::1:8786": "an IPv6 address goes in brackets",
    "tcp://127.0.0.1:8786/path": "expected HOST:PORT after the protocol",
    "tcp://user@127.0.0.1:8786": "expected HOST:PORT after the protocol",
    "tcp://bad_host!:8786": "is not a host name or IP address",
    "tcp://:8786": "is not a host name or IP address",
    "tcp://127.0.0.1:8786\n": "no spaces or control characters",
}


@pytest.mark.parametrize("address", list(MALFORMED), ids=lambda a: a[:24])
def test_a_malformed_address_is_one_line_before_anything_runs(address, config, capsys) -> None:
    started = time.monotonic()
    assert main(["run", config(), "--scheduler", address]) == 2
    line = _one_error(capsys)
    assert line.startswith("evalfw: error: --scheduler / executor.address ")
    assert MALFORMED[address] in line and len(line) < 400
    assert time.monotonic() - started < SLACK
    assert not Path("runs").exists()


def test_addresses_evalfw_accepts() -> None:
    parse = addresses.parse
    assert str(parse("tcp://10.0.0.5:8786")) == "tcp://10.0.0.5:8786"
    assert str(parse("10.0.0.5")) == "tcp://10.0.0.5:8786"  # Dask's defaults
    assert str(parse("TCP://[::1]:9000")) == "tcp://[::1]:9000"
    assert str(parse("tls://scheduler.example.org:8786")) == "tls://scheduler.example.org:8786"


@pytest.mark.parametrize("kind", ["silent", "garbage", "http", "huge-frame", "bad-frames",
                                  "closes"])
def test_a_server_that_is_not_a_scheduler_is_one_line_within_the_timeout(kind, config,
                                                                         capsys) -> None:
    with fake_server(kind) as address:
        started = time.monotonic()
        status = main(["run", config(f"executor: {{name: dask, address: '{address}', "
                                     "connect_timeout: 1}\n")])
        took = time.monotonic() - started
    assert status == 2
    line = _one_error(capsys)
    assert line.startswith(f"evalfw: error: cannot use the Dask scheduler at {address}: ")
    expected = {"silent": "no Dask scheduler answered within 1 s",
                "closes": "closed the connection"}.get(kind, "it is not a Dask scheduler")
    assert expected in line
    assert took < 1 + SLACK
    assert not Path("runs").exists()


def test_a_refused_connection_is_one_line(config, capsys) -> None:
    port = free_port()
    assert main(["run", config(), "--scheduler", f"tcp://127.0.0.1:{port}"]) == 2
    line = _one_error(capsys)
    assert f"at tcp://127.0.0.1:{port}: connection refused" in line
    assert f"dask scheduler --port {port}" in line


def test_the_probe_reads_no_more_than_a_greeting() -> None:
    # a frame announced within the bound but never sent: the deadline ends the read
    with fake_server("silent") as address:
        started = time.monotonic()
        with pytest.raises(addresses.ProbeFailed, match="within 0.5 s"):
            addresses.probe(addresses.parse(address), 0.5)
        assert time.monotonic() - started < 0.5 + SLACK
    assert addresses.greeting_problem(GREETINGS["greets-then-silent"][8:]) is None
    assert addresses.greeting_problem(b"\x01" + b"\0" * 15) is not None


@pytest.mark.parametrize("value", ["1.0e+308", "3600", str(MAX_WAIT_SECONDS + 1), ".inf",
                                   ".nan", "0", "-1"])
@pytest.mark.parametrize("key", ["connect_timeout", "worker_timeout"])
def test_timeouts_beyond_the_limit_are_refused(key, value, config, capsys) -> None:
    assert main(["run", config(f"executor: {{name: dask, {key}: {value}}}\n")]) == 2
    line = _one_error(capsys)
    assert "executor" in line and key in line
    assert not Path("runs").exists()


def test_a_local_cluster_larger_than_the_machine_is_refused(config, capsys) -> None:
    workers = max_local_workers() + 1
    assert main(["run", config(f"executor: {{name: dask, workers: {workers}}}\n")]) == 2
    line = _one_error(capsys)
    assert f"workers: {workers} worker processes" in line
    assert f"at most {max_local_workers()} here" in line


def test_tls_without_dask_tls_settings_is_one_line(config, capsys, monkeypatch) -> None:
    import dask

    monkeypatch.setitem(dask.config.config, "distributed", {
        **dask.config.config["distributed"],
        "comm": {**dask.config.config["distributed"]["comm"],
                 "tls": {"ca-file": None, "client": {"cert": None, "key": None},
                         "scheduler": {"cert": None, "key": None},
                         "worker": {"cert": None, "key": None}, "ciphers": None,
                         "min-version": 1.2, "max-version": None}}})
    with fake_server("silent") as address:
        tls = address.replace("tcp://", "tls://")
        assert main(["run", config(), "--scheduler", tls]) == 2
    line = _one_error(capsys)
    assert f"{tls}: tls:// needs Dask's TLS settings" in line


SCRIPT = """\
import sys
from evalfw.cli.main import main
from tests.support.servers import fake_server
statuses = [main(["run", "c.yaml", "--scheduler", "tcp://[::1]:notaport"])]
for kind in ("garbage", "greets-then-silent"):
    with fake_server(kind) as address:
        statuses.append(main(["run", "c.yaml", "--scheduler", address]))
print(statuses)
"""


def test_failed_connections_leave_no_traceback_at_exit(config) -> None:
    # a Dask client that failed while starting used to print a traceback from its __del__
    # seconds later (or at exit); this process fails three ways and then exits
    config()
    started = time.monotonic()
    done = subprocess.run([sys.executable, "-c", SCRIPT], capture_output=True, text=True,
                          timeout=60, env={**os.environ, "PYTHONPATH": str(REPO)})
    assert done.stdout.strip() == "[2, 2, 2]", done.stderr
    errors = [line for line in done.stderr.splitlines() if not line.startswith("evalfw: [")]
    assert len(errors) == 3 and all(e.startswith("evalfw: error: ") for e in errors), errors
    # the last server greets as a scheduler does, then never answers Dask's handshake
    assert "did not complete Dask's handshake within 5 s" in errors[2]
    assert time.monotonic() - started < 5 + 3 * SLACK
