"""The versioned record store, reading records back, `show`, `runs` and `verify`."""

from __future__ import annotations

import copy
import errno
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from evalfw.cli.main import main
from evalfw.errors import ConfigError, RecordError
from evalfw.records import store
from evalfw.records.document import SCHEMA_VERSION, validate_record
from evalfw.records.load import list_runs, load_record, open_run, resolve_run, versions
from evalfw.runner.verify import verify
from tests.support.runs import REPO, run, workdir  # noqa: F401  (fixture)

pytestmark = pytest.mark.parity


def visible(exp_dir: Path) -> list[str]:
    return sorted(p.name for p in exp_dir.iterdir()) if exp_dir.exists() else []


# ------------------------------------------------------------------ schema


def test_record_schema_rejects_damaged_records(workdir):
    record = run().record
    validate_record(record)
    for damage, where in [
        (lambda r: r.pop("inputs"), "'inputs' is a required property"),
        (lambda r: r["results"][0].update(score="42"), "record.results[0].score"),
        (lambda r: r["inputs"][0].update(sha256="abc"), "record.inputs[0].sha256"),
        (lambda r: r["specs"][0].pop("definition"), "'definition' is a required property"),
        (lambda r: r["environment"].update(env={"HOME": "/root"}), "Additional properties"),
    ]:
        bad = copy.deepcopy(record)
        damage(bad)
        with pytest.raises(RecordError, match="record") as info:
            validate_record(bad)
        assert where in str(info.value)
    newer = dict(record, schema_version=SCHEMA_VERSION + 1)
    with pytest.raises(RecordError, match="newer than this evalfw"):
        validate_record(newer)


def test_reading_checks_schema_and_segments_hash(workdir):
    outcome = run()
    path = outcome.path
    assert load_record(path) == outcome.record
    (path / "segments.npz").write_bytes(b"garbage")
    with pytest.raises(RecordError, match="sha256 differs"):
        open_run(str(path)).segments()
    (path / "record.json").write_text("{not json")
    with pytest.raises(RecordError, match="damaged"):
        load_record(path)


# ------------------------------------------------------------------ store


def test_versions_are_never_overwritten_and_sort_by_time(workdir, monkeypatch):
    class Frozen(store.datetime):  # every run in the same second
        @classmethod
        def now(cls, tz=None):
            return store.datetime(2030, 1, 2, 3, 4, 5, tzinfo=tz)

    monkeypatch.setattr(store, "datetime", Frozen)
    names = [run().path.name for _ in range(3)]
    assert names == ["20300102T030405Z-001", "20300102T030405Z-002", "20300102T030405Z-003"]
    assert [p.name for p in versions(workdir / "runs" / "wmt")] == names
    # a version name taken between listing and renaming: the next counter is used
    real = store._next_name
    monkeypatch.setattr(store, "_next_name", lambda d, s, calls=[]: (
        calls.append(1), "20300102T030405Z-003" if len(calls) == 1 else real(d, s))[1])
    assert run().path.name == "20300102T030405Z-004"


@pytest.mark.slow
def test_ten_concurrent_runs_give_distinct_intact_versions(workdir):
    code = ("import evalfw; r = evalfw.run('configs/wmt.yaml'); print(r['version'])")
    env = dict(os.environ, PYTHONPATH=str(REPO))
    procs = [subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, text=True, env=env) for _ in range(10)]
    outs = [p.communicate(timeout=120) for p in procs]
    assert all(p.returncode == 0 for p in procs), [e for _, e in outs]
    names = {o.strip() for o, _ in outs}
    assert len(names) == 10
    exp = workdir / "runs" / "wmt"
    assert sorted(names) == visible(exp)
    results = [json.loads((exp / n / "record.json").read_text())["results"] for n in names]
    assert all(r == results[0] for r in results)
    for n in names:
        open_run(str(exp / n)).segments()  # hashes check out


def test_interrupted_run_leaves_no_partial_version(workdir, monkeypatch):
    real = store._write

    def interrupt(path, data):
        if path.name == "record.json":
            raise KeyboardInterrupt
        real(path, data)

    monkeypatch.setattr(store, "_write", interrupt)
    with pytest.raises(KeyboardInterrupt):
        run()
    assert visible(workdir / "runs" / "wmt") == []
    monkeypatch.setattr(store, "_write", real)
    assert run().path.is_dir()


@pytest.mark.parametrize("err", [errno.ENOSPC, errno.EROFS, errno.EACCES])
def test_full_disk_or_read_only_gives_a_clear_error_and_no_record(workdir, monkeypatch, err):
    def fail(path, data):
        raise OSError(err, os.strerror(err), str(path))

    monkeypatch.setattr(store, "_write", fail)
    with pytest.raises(RecordError) as info:
        run()
    msg = str(info.value)
    assert "nothing was stored" in msg and os.strerror(err) in msg
    assert (err == errno.ENOSPC) == ("disk full" in msg)
    assert visible(workdir / "runs" / "wmt") == []


def stalled_run(statement: str) -> subprocess.Popen:
    """A subprocess running ``statement`` whose store stalls after writing its first file
    into the temporary version directory (it prints 'writing' then)."""
    code = ("import time, evalfw.records.store as s\n"
            "real = s._write\n"
            "def slow(p, d):\n"
            "    real(p, d)\n"
            "    print('writing', flush=True); time.sleep(60)\n"
            "s._write = slow\n" + statement + "\n")
    env = dict(os.environ, PYTHONPATH=str(REPO))
    proc = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, env=env)
    assert proc.stdout.readline().strip() == "writing"
    return proc


def test_sigkilled_run_is_invisible_and_cleaned_by_the_next_run(workdir):
    proc = stalled_run("import evalfw; evalfw.run('configs/wmt.yaml')")
    proc.send_signal(signal.SIGKILL)
    proc.communicate(timeout=30)
    exp = workdir / "runs" / "wmt"
    leftovers = [n for n in visible(exp) if n.startswith(".tmp-")]
    assert len(leftovers) == 1 and versions(exp) == []
    assert list_runs(workdir / "runs") == []
    new = run().path
    assert visible(exp) == [new.name]  # the stale temporary directory was removed


def test_sigint_in_a_subprocess_leaves_nothing(workdir):
    proc = stalled_run("from evalfw.cli.main import main; "
                       "raise SystemExit(main(['run', 'configs/wmt.yaml', '-q']))")
    proc.send_signal(signal.SIGINT)
    _, err = proc.communicate(timeout=30)
    assert proc.returncode == 130 and "interrupted" in err
    assert visible(workdir / "runs" / "wmt") == []


def test_experiment_dir_through_a_symlink_is_refused(workdir, tmp_path_factory):
    elsewhere = tmp_path_factory.mktemp("elsewhere")
    (workdir / "runs").mkdir()
    (workdir / "runs" / "wmt").symlink_to(elsewhere, target_is_directory=True)
    with pytest.raises(ConfigError, match="symbolic link"):
        run()
    assert list(elsewhere.iterdir()) == []


def test_stale_cleanup_spares_live_runs(tmp_path):
    live = tmp_path / f".tmp-{store.socket.gethostname()}-{os.getpid()}-abcd"
    dead = tmp_path / f".tmp-{store.socket.gethostname()}-999999999-abcd"
    live.mkdir()
    dead.mkdir()
    assert store.clean_stale(tmp_path) == [dead.name]
    assert live.exists()


# ------------------------------------------------------------------ finding runs, show, runs


def test_resolve_run_forms(workdir):
    a, b = run().path.resolve(), run().path.resolve()
    runs = workdir / "runs"
    assert resolve_run("wmt", runs) == b
    assert resolve_run(f"wmt/{a.name}", runs) == a
    assert resolve_run(str(a), runs) == a
    assert resolve_run(str(a / "record.json"), runs) == a
    with pytest.raises(RecordError, match="did you mean 'wmt'"):
        resolve_run("wmtt", runs)
    with pytest.raises(RecordError, match="has no version 'nope'"):
        resolve_run("wmt/nope", runs)


def test_show_rerenders_without_recomputing(workdir, capsys):
    outcome = run()
    table = (outcome.path / "report-table.txt").read_text()
    for f in (workdir / "configs/sample/en-de/sys").iterdir():
        f.unlink()  # the data is gone: show must not need it
    assert main(["show", "wmt", "--runs-dir", "runs"]) == 0
    assert capsys.readouterr().out == table
    assert main(["show", str(outcome.path), "--format", "latex"]) == 0
    assert capsys.readouterr().out == (outcome.path / "report-latex.tex").read_text()


def test_runs_lists_versions_with_time_hash_and_headline(workdir, capsys):
    first = run().record
    run(overrides=("metrics[0].max_order=2",))
    assert main(["runs", "--runs-dir", "runs"]) == 0
    header, *lines = capsys.readouterr().out.splitlines()
    assert header.split()[:2] == ["RUN", "CREATED"]
    assert len(lines) == 2 and lines[0].startswith(f"wmt/{first['version']}")
    assert first["config"]["resolved_sha256"][:12] in lines[0]
    assert "best Strong" in lines[0]
    assert main(["runs", "wmt", "--json", "--runs-dir", "runs"]) == 0
    entries = json.loads(capsys.readouterr().out)
    assert entries[0]["config_sha256"] != entries[1]["config_sha256"]
    assert entries[0]["headline"][0]["best_system"] == "Strong"


# ------------------------------------------------------------------ verify


def test_verify_passes_on_an_untouched_run(workdir, capsys):
    run()
    assert main(["verify", "wmt", "--runs-dir", "runs"]) == 0
    assert "all 18 results identical" in capsys.readouterr().out  # BLEU x 5, chrf; 3 systems


def test_verify_works_from_another_directory(workdir, monkeypatch):
    path = run(overrides=("seed=9",)).path.resolve()
    monkeypatch.chdir(workdir / "configs")
    verdict = verify(str(path))
    assert verdict.ok, verdict.problems


def test_verify_fails_naming_the_changed_input_and_moved_scores(workdir, capsys):
    run()
    sys_file = workdir / "configs/sample/en-de/sys/Medium.txt"
    lines = sys_file.read_text().split("\n")
    lines[0] = "Die Bibliothek öffnet werktags um neun Uhr."
    sys_file.write_text("\n".join(lines))
    assert main(["verify", "wmt", "--runs-dir", "runs"]) == 1
    out, err = capsys.readouterr()
    assert "input system configs/sample/en-de/sys/Medium.txt of test set 'en-de' changed" in out
    moved = [line for line in out.splitlines() if "en-de / Medium / sacrebleu (corpus)" in line]
    assert moved and "score 43.97749012167831 -> " in moved[0]
    assert "per-segment statistics differ in 1 segment(s), first at segment 1" in out
    assert "Strong" not in out  # untouched systems are not blamed
    assert err.startswith("evalfw: error: ") and err.count("\n") == 1


def test_verify_names_a_component_version_change(workdir, monkeypatch):
    run()
    from evalfw.metrics.bleu.components import Smoothed
    from evalfw.metrics.bleu.families import sacrebleu as sacrebleu_family

    real = sacrebleu_family.Exp.smooth

    def changed(self, counts):  # "version 2" computes the first precision differently
        s = real(self, counts)
        return Smoothed((s.precisions[0] * 0.5, *s.precisions[1:]), s.matches, s.totals)

    monkeypatch.setattr(sacrebleu_family.Exp, "version", "2")
    monkeypatch.setattr(sacrebleu_family.Exp, "smooth", changed)
    verdict = verify("wmt", Path("runs"))
    assert not verdict.ok
    assert any("smoothing exp@1 -> exp@2" in p for p in verdict.problems)
    assert any("en-de / Strong / sacrebleu (corpus): score" in p for p in verdict.problems)


def test_verify_fails_on_a_version_change_that_moves_nothing(workdir, monkeypatch):
    # a record whose definitions differ from the installed metric's is not that metric's,
    # even when every number is equal
    run()
    from evalfw.metrics.bleu.families import sacrebleu as sacrebleu_family

    monkeypatch.setattr(sacrebleu_family.Exp, "version", "2")
    verdict = verify("wmt", Path("runs"))
    assert not verdict.ok and any("exp@1 -> exp@2" in p for p in verdict.problems)
    assert not any(": score " in p for p in verdict.problems)


def test_verify_reports_a_missing_input(workdir):
    run()
    (workdir / "configs/sample/en-de/ref.B.txt").unlink()
    verdict = verify("wmt", Path("runs"))
    # nothing differs: the record cannot be verified here, and says why (exit status 2)
    assert not verdict.ok and not verdict.problems
    assert any("reference configs/sample/en-de/ref.B.txt" in p and "missing" in p
               for p in verdict.unverifiable)
    assert any(p.startswith("re-running the record's config failed")
               for p in verdict.unverifiable)


def test_timestamps_are_utc(workdir):
    record = run().record
    assert record["created"].endswith("Z")
    stamp = time.strptime(record["version"][:16], "%Y%m%dT%H%M%SZ")
    assert abs(time.mktime(stamp) - time.mktime(time.gmtime())) < 600
