"""A real Dask scheduler (its own process on 127.0.0.1) that lets a run down fails it with one
line in bounded time, or the run recovers with the same numbers:

- a scheduler without workers: one line saying so after ``worker_timeout``;
- its last worker killed mid-run: one line, nothing stored;
- a worker under a nanny killed mid-run: the nanny's new worker recomputes the work every
  copy of which was lost with the old one, and the numbers equal the serial run's;
- metrics from plugin files run on workers that never saw the files (the files travel with
  the metric, checked by sha256); one that cannot be imported there is one line naming it;
- ``tls://`` with Dask's TLS settings works end to end.

Skipped without Dask.
"""

from __future__ import annotations

import os
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

distributed = pytest.importorskip("distributed", reason="Dask is not installed: pip install "
                                                       "'evalfw[dask]'")

from evalfw.cli.main import main  # noqa: E402
from evalfw.errors import EvalfwError  # noqa: E402
from evalfw.executors.dask_cluster import ClusterError, DaskExecutor  # noqa: E402
from evalfw.runner.run import run_experiment  # noqa: E402
from tests.support.cli import SUPPORT, write  # noqa: E402
from tests.support.dask_processes import (  # noqa: E402
    HANG_TIMEOUT,
    RUN_TIMEOUT,
    bare_scheduler,
    same_numbers,
    stop,
    worker,
    workers_of,
)

SMALL = """\
schema_version: 1
experiment: small
output_dir: runs
seed: 3
{plugins}
test_sets:
  - name: t
    langs: de-en
    source: ref.txt
    references: [ref.txt]
    systems: {{a: a.txt, b: b.txt, c: c.txt}}
metrics:
  - name: bleu
{metrics}
significance: {{baseline: a, samples: 200}}
"""

SLACK = 15


@pytest.fixture(autouse=True)
def _bounded() -> Iterator[None]:
    import faulthandler

    faulthandler.dump_traceback_later(HANG_TIMEOUT, exit=True)
    try:
        yield
    finally:
        faulthandler.cancel_dump_traceback_later()


@pytest.fixture(scope="module")
def bare() -> Iterator[str]:
    """A scheduler for this module; each test starts (and stops) the workers it needs."""
    with bare_scheduler() as address:
        yield address


@pytest.fixture
def workdir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    write(tmp_path / "ref.txt", ["the cat sat on the mat", "a dog barks", "it rains today"])
    write(tmp_path / "a.txt", ["the cat sat on a mat", "a dog barks", "it rains"])
    write(tmp_path / "b.txt", ["a cat sat on the mat", "the dog barked", "it rains today"])
    write(tmp_path / "c.txt", ["cat on mat", "dogs bark", "today it rains"])
    return tmp_path


def _small(plugins: str = "", metrics: str = "") -> Path:
    path = Path("small.yaml")
    path.write_text(SMALL.format(plugins=plugins, metrics=metrics), encoding="utf-8")
    return path


def _serial(path: Path) -> dict:
    outcome = run_experiment(path, store=False, cache=False, jobs=1)
    return {**outcome.record, "arrays": dict(outcome.evaluation.arrays)}


def _no_workers_left(address: str) -> None:
    workers_of(address, 0, exactly=True)


def test_a_scheduler_without_workers_is_one_line(bare, workdir, capsys) -> None:
    _no_workers_left(bare)
    config = _small()
    config.write_text(config.read_text() + f"executor: {{name: dask, address: '{bare}', "
                      "worker_timeout: 1}\n", encoding="utf-8")
    started = time.monotonic()
    assert main(["run", str(config)]) == 2
    err = [line for line in capsys.readouterr().err.splitlines()
           if not line.startswith("evalfw: [")]
    assert err == [f"evalfw: error: the Dask scheduler at {bare} has no workers (none joined "
                   f"within 1 s); nothing was stored; start some (`dask worker {bare} "
                   "--nthreads 1`) or raise executor.worker_timeout"]
    assert time.monotonic() - started < 1 + SLACK
    assert not Path("runs").exists()


def test_the_last_worker_lost_mid_run_is_one_line(bare, workdir) -> None:
    config = _small()
    proc = worker(bare)
    try:
        workers_of(bare, 1)
        killed: list[int] = []

        def progress(done: int, total: int, label: str) -> None:
            if not killed:  # the first finished job: the others wait for a worker
                proc.kill()
                killed.append(done)

        started = time.monotonic()
        with pytest.raises(ClusterError) as caught:
            run_experiment(config, cache=False, progress=progress,
                           executor=DaskExecutor(address=bare, worker_timeout=2))
        assert killed and time.monotonic() - started < RUN_TIMEOUT
        message = str(caught.value)
        assert "\n" not in message
        assert message.startswith(f"the Dask scheduler at {bare} has no workers left (none "
                                  "joined within 2 s); nothing was stored")
        assert not (workdir / "runs").exists()
    finally:
        stop([proc])
        _no_workers_left(bare)


@pytest.mark.slow
def test_a_worker_killed_under_a_nanny_is_replaced_with_the_same_numbers(bare, workdir) -> None:
    config = _small()
    want = _serial(config)
    nanny = worker(bare, nanny=True)
    try:
        (pid,) = workers_of(bare, 1).values()
        killed: list[int] = []

        def progress(done: int, total: int, label: str) -> None:
            if not killed:  # the only worker, and every copy of the test set's work, lost
                os.kill(pid, 9)
                killed.append(done)

        outcome = run_experiment(config, cache=False, progress=progress,
                                 executor=DaskExecutor(address=bare))
        assert killed
        same_numbers(outcome.record, outcome.evaluation.arrays, want)
        assert outcome.path is not None
        (new,) = workers_of(bare, 1).values()
        assert new != pid  # the nanny's new worker did the rest
    finally:
        stop([nanny])
        _no_workers_left(bare)


BROKEN_ON_WORKERS = '''\
"""Imports a package only the client has (as a plugin whose dependency is not installed on
the workers would)."""
import os

if os.environ.get("EVALFW_TEST_CLIENT") != str(os.getpid()):
    import evalfw_test_missing_dependency  # noqa: F401

from tests.support.metric_plugins.unigram import UnigramF1
import evalfw


class Partial(UnigramF1):
    name = "partial-f1"


@evalfw.hookimpl
def evalfw_register_metrics():
    return [Partial]
'''


def test_metrics_from_plugin_files_run_on_workers_that_never_saw_them(
        bare, workdir, monkeypatch) -> None:
    config = _small(f"plugin_dirs: [{SUPPORT / 'metric_plugins'}]",
                    "  - {name: uni, metric: unigram-f1}\n"
                    "  - {name: err, metric: unigram-error}")
    want = _serial(config)
    (workdir / "broken").mkdir()
    (workdir / "broken" / "partial.py").write_text(BROKEN_ON_WORKERS, encoding="utf-8")
    monkeypatch.setenv("EVALFW_TEST_CLIENT", str(os.getpid()))
    proc = worker(bare)
    try:
        workers_of(bare, 1)
        with DaskExecutor(address=bare) as executor:
            outcome = run_experiment(config, store=False, cache=False, executor=executor)
            same_numbers(outcome.record, outcome.evaluation.arrays, want)
            # a plugin file the workers cannot import: one line naming the file
            broken = _small(f"plugin_dirs: [{workdir / 'broken'}]",
                            "  - {name: part, metric: partial-f1}")
            with pytest.raises(EvalfwError) as caught:
                run_experiment(broken, cache=False, executor=executor)
        message = str(caught.value)
        assert "\n" not in message
        assert message.startswith(f"plugin file {workdir / 'broken' / 'partial.py'} on ")
        assert "could not be imported: ModuleNotFoundError: No module named " \
               "'evalfw_test_missing_dependency'; every worker needs what the plugin imports" \
               in message
        assert not Path("runs").exists()
    finally:
        stop([proc])
        _no_workers_left(bare)


def _certificate(directory: Path) -> tuple[str, str]:
    """A self-signed certificate for 127.0.0.1 (it is its own authority) and its key."""
    x509 = pytest.importorskip("cryptography.x509")
    import datetime
    import ipaddress

    from cryptography.hazmat.primitives import hashes, serialization
    from cryptography.hazmat.primitives.asymmetric import ec

    key = ec.generate_private_key(ec.SECP256R1())
    name = x509.Name([x509.NameAttribute(x509.oid.NameOID.COMMON_NAME, "evalfw-test")])
    now = datetime.datetime.now(datetime.UTC)
    cert = (x509.CertificateBuilder().subject_name(name).issuer_name(name)
            .public_key(key.public_key()).serial_number(x509.random_serial_number())
            .not_valid_before(now - datetime.timedelta(minutes=5))
            .not_valid_after(now + datetime.timedelta(hours=1))
            .add_extension(x509.BasicConstraints(ca=True, path_length=None), critical=True)
            .add_extension(x509.SubjectAlternativeName(
                [x509.IPAddress(ipaddress.ip_address("127.0.0.1"))]), critical=False)
            .sign(key, hashes.SHA256()))
    cert_file, key_file = directory / "cert.pem", directory / "key.pem"
    cert_file.write_bytes(cert.public_bytes(serialization.Encoding.PEM))
    key_file.write_bytes(key.private_bytes(serialization.Encoding.PEM,
                                           serialization.PrivateFormat.PKCS8,
                                           serialization.NoEncryption()))
    return str(cert_file), str(key_file)


@pytest.mark.slow
def test_tls_with_dask_tls_settings_runs(workdir) -> None:
    import dask
    from distributed.security import Security

    cert, key = _certificate(workdir)
    tls = ("--tls-ca-file", cert, "--tls-cert", cert, "--tls-key", key)
    config = _small()
    want = _serial(config)
    settings = {"distributed.comm.tls.ca-file": cert, "distributed.comm.tls.client.cert": cert,
                "distributed.comm.tls.client.key": key}
    with bare_scheduler("--protocol", "tls", *tls) as address:
        proc = worker(address, extra=tls)
        try:
            security = Security(tls_ca_file=cert, tls_client_cert=cert, tls_client_key=key)
            workers_of(address, 1, security=security)
            with dask.config.set(settings):
                outcome = run_experiment(config, store=False, cache=False,
                                         executor=DaskExecutor(address=address))
            same_numbers(outcome.record, outcome.evaluation.arrays, want)
            assert outcome.record["executor"]["address"].startswith("tls://127.0.0.1:")
        finally:
            stop([proc])


@pytest.mark.slow
def test_sigterm_stops_the_local_cluster_and_stores_nothing(workdir) -> None:
    import signal
    import subprocess
    import sys

    from tests.support.cli import REPO

    config = _small(f"plugin_dirs: [{SUPPORT / 'worker_plugins'}]",
                    "  - {name: boom, metric: ending, action: sleep}")
    write(workdir / "b.txt", ["TRIGGER", "TRIGGER", "TRIGGER"])
    config.write_text(config.read_text() + "executor: {name: dask, workers: 1}\n", "utf-8")
    (workdir / "pids").mkdir()
    env = {**os.environ, "EVALFW_TEST_PIDS": str(workdir / "pids"), "PYTHONPATH": str(REPO)}
    proc = subprocess.Popen([sys.executable, "-m", "evalfw", "run", str(config), "--quiet",
                             "--no-cache"], cwd=workdir, env=env, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    try:
        deadline = time.monotonic() + RUN_TIMEOUT
        while not any((workdir / "pids").iterdir()):  # the worker computes (and sleeps)
            assert proc.poll() is None and time.monotonic() < deadline, proc.stderr
            time.sleep(0.1)
        (pid,) = [int(p.name) for p in (workdir / "pids").iterdir()]
        proc.send_signal(signal.SIGTERM)
        out, err = proc.communicate(timeout=RUN_TIMEOUT)
    finally:
        proc.kill()
    assert proc.returncode == 143, err
    assert err == "evalfw: terminated by SIGTERM\n"
    deadline = time.monotonic() + 10
    while Path(f"/proc/{pid}").exists() and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not Path(f"/proc/{pid}").exists()  # the LocalCluster's worker was stopped
    assert not Path("runs").exists()
