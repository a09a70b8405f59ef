"""Loading and validating experiment configs: results, error messages, paths, overrides."""

from __future__ import annotations

import hashlib
import importlib.metadata
import json
import shutil
from pathlib import Path

import pytest

from evalfw.config import ExperimentConfig, load_config, validate_config  # noqa: E402
from evalfw.config.model import canonical_json  # noqa: E402
from evalfw.config.paths import experiment_dir  # noqa: E402
from evalfw.errors import ConfigError, UnknownComponentError  # noqa: E402
from tests.support.config import HERE, PLUGIN_DIR, SAMPLE, make_host

VALID = (HERE / "valid.yaml").read_text("utf-8")


@pytest.fixture()
def host():  # type: ignore[no-untyped-def]
    return make_host()


@pytest.fixture()
def project(tmp_path: Path) -> Path:
    """A copy of the sample data and local plugin beside a config directory."""
    shutil.copytree(SAMPLE, tmp_path / "sample")
    shutil.copytree(PLUGIN_DIR, tmp_path / "plugins")
    return tmp_path


def at(text: str, needle: str, offset: int = 0) -> str:
    """``line:col`` of the first ``needle`` in ``text`` (plus ``offset`` columns)."""
    i = text.index(needle)
    line = text.count("\n", 0, i) + 1
    return f"{line}:{i - (text.rfind(chr(10), 0, i) + 1) + 1 + offset}"


def fails(project: Path, host, text: str, overrides=(), cls=ConfigError) -> str:  # type: ignore[no-untyped-def]
    path = project / "c.yaml"
    path.write_text(text, "utf-8")
    with pytest.raises(cls) as info:
        load_config(path, overrides, host=host)
    msg = str(info.value)
    assert "\n" not in msg
    return msg.replace(f"{project}/", "")


def test_valid_config(host) -> None:  # type: ignore[no-untyped-def]
    config, used = load_config(HERE / "valid.yaml", host=host)
    assert used is host and isinstance(config, ExperimentConfig)
    assert config.summary() == "sample-check (2 test sets, 3 metrics)"
    assert config.seed == 7 and config.requires == ("pluggy>=1",)
    assert config.data_root == HERE / "sample"
    assert config.output_dir == HERE / "../../runs-test"
    assert config.plugin_dirs == (HERE / "plugins",)
    en_de, de_en = config.test_sets
    assert en_de.source == SAMPLE / "en-de/src.txt"
    assert en_de.references == (SAMPLE / "en-de/ref.A.txt", SAMPLE / "en-de/ref.B.txt")
    assert en_de.systems == tuple((n, SAMPLE / f"en-de/sys/{n}.txt")
                                  for n in ("alpha", "beta", "gamma"))
    assert de_en.system_names == ("first", "second") and de_en.source is None
    assert (de_en.source_lang, de_en.target_lang, de_en.tokenizer) == ("de", "en", "none")
    bleu, addk, floorplus = config.metrics
    assert bleu.levels == ("corpus", "sentence") and addk.levels == ("corpus",)
    assert dict(addk.options) == {"preset": "sacrebleu", "effective_order": True,
                                  "smoothing": {"name": "add-k", "value": 2}}
    # a test set's tokenizer applies where a metric chooses none
    assert bleu.options_for(de_en)["tokenizer"] == "none"
    assert "tokenizer" not in bleu.options_for(en_de)
    assert floorplus.options_for(de_en)["tokenizer"] == "13a"
    assert [r.name for r in config.reports] == ["table", "json"]
    assert dict(config.significance) == {"baseline": "alpha", "method": "bootstrap"}


def test_raw_and_hash_are_stable_and_record_defaults(host, project) -> None:  # type: ignore[no-untyped-def]
    text = VALID.replace("reports: [table, json]\n", "").replace("seed: 7\n", "")
    (project / "c.yaml").write_text(text)
    a, _ = load_config(project / "c.yaml", host=host)
    b, _ = load_config(project / "c.yaml", host=host)
    assert a.sha256 == b.sha256
    assert a.sha256 == hashlib.sha256(canonical_json(dict(a.raw)).encode()).hexdigest()
    json.dumps(dict(a.raw))  # JSON-able
    assert a.raw["reports"] == ["table"] and a.raw["seed"] == 12345
    assert a.raw["metrics"][0]["preset"] == "sacrebleu"
    assert a.raw["test_sets"][0]["source"] == "{data_root}/en-de/src.txt"  # as written
    c, _ = load_config(project / "c.yaml", ["seed=8"], host=host)
    assert c.sha256 != a.sha256 and c.raw["seed"] == 8


def test_default_output_dir_is_runs_in_cwd(host, project) -> None:  # type: ignore[no-untyped-def]
    (project / "c.yaml").write_text(VALID.replace("output_dir: ../../runs-test\n", ""))
    config, _ = load_config(project / "c.yaml", host=host)
    assert config.output_dir == Path("runs")


def test_relative_paths_resolve_against_config_and_set_against_cwd(
        host, project, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    (project / "conf").mkdir()
    text = VALID.replace("data_root: sample", "data_root: ../sample").replace(
        "sample/de-en/", "../sample/de-en/").replace("[plugins]", "[../plugins]")
    (project / "conf/c.yaml").write_text(text)
    monkeypatch.chdir(project)
    config, _ = load_config("conf/c.yaml", host=host)
    assert config.data_root == Path("conf/../sample")
    assert config.test_sets[1].references == (Path("conf/../sample/de-en/ref.A.txt"),)
    assert all(p.is_file() for ts in config.test_sets for p in ts.references)
    config, _ = load_config("conf/c.yaml", [
        "data_root=sample", "test_sets[1].references=[sample/de-en/ref.B.txt]",
        "test_sets[1].systems.first=sample/de-en/sys/gamma.txt",
    ], host=host)
    assert config.data_root == Path("sample")
    assert config.test_sets[0].source == Path("sample/en-de/src.txt")
    assert config.test_sets[1].references == (Path("sample/de-en/ref.B.txt"),)
    assert config.test_sets[1].systems[0] == ("first", Path("sample/de-en/sys/gamma.txt"))
    # a sibling value that was not overridden still resolves against the config
    assert config.test_sets[1].systems[1] == ("second", Path("sample/de-en/sys/beta.txt"))


def test_overrides_incl_list_index_are_recorded(host) -> None:  # type: ignore[no-untyped-def]
    config, _ = load_config(HERE / "valid.yaml", [
        "metrics[2].max_order=2", "metrics[0].level=sentence",
        "metrics[1].smoothing={name: floor, value: 0.5}", "significance.samples=1000",
    ], host=host)
    assert config.metrics[2].options["max_order"] == 2
    assert config.metrics[0].levels == ("sentence",)
    assert config.metrics[1].options["smoothing"] == {"name": "floor", "value": 0.5}
    assert config.significance["samples"] == 1000
    assert [o.text for o in config.overrides][0] == "metrics[2].max_order=2"
    assert config.overrides[0].to_json() == {
        "set": "metrics[2].max_order=2", "path": "metrics[2].max_order", "value": 2}


@pytest.mark.parametrize("override, words", [
    ("metrics[5].max_order=2", "--set metrics[5].max_order=2: metrics has 3 item(s); index 5"),
    ("seed", "--set seed: expected KEY=VALUE"),
    ("metrics.0=1", "malformed key path 'metrics.0'"),
    ("seed.x=1", "--set seed.x=1: seed is not a mapping"),
    ("seed=!!python/object:os.system x", "tag '!!python/object:os.system' is not allowed"),
    ("metrics[0].max_order=x", "--set metrics[0].max_order=x: metrics[0].max_order: expected an "
                               "integer"),
    ("metrics[1].smoothing={name: add-k, valu: 3}",
     "metrics[1].smoothing.valu: unknown key 'valu' (did you mean 'value'?)"),
    ("data_root=nowhere", "check the path and data_root (nowhere, from --set data_root=nowhere)"),
    ("reports=[table, {name: json, foo: 1}]", "--set reports=[table, {name: json, foo: 1}]: "
                                              "reports[1].foo: unknown key 'foo'"),
])
def test_override_errors(host, project, override: str, words: str) -> None:  # type: ignore[no-untyped-def]
    assert words in fails(project, host, VALID, [override])


def test_schema_errors_point_at_the_place(host, project) -> None:  # type: ignore[no-untyped-def]
    text = VALID.replace("seed: 7", "sed: 7")
    assert fails(project, host, text) == (
        f"c.yaml:{at(text, 'sed')}: sed: unknown key 'sed' (did you mean 'seed'?); allowed keys: "
        "checks, data_root, executor, experiment, meta_evaluation, metrics, on_flag, output_dir, "
        "plugin_dirs, reports, requires, schema_version, seed, significance, system_labels, "
        "test_sets")
    text = VALID.replace("max_order: 3", "max_ordr: 3")
    assert fails(project, host, text).startswith(
        f"c.yaml:{at(text, 'max_ordr')}: metrics[2].max_ordr: unknown key 'max_ordr' "
        "(did you mean 'max_order'?)")
    text = VALID.replace("max_order: 3", "max_order: three")
    assert fails(project, host, text) == (
        f"c.yaml:{at(text, 'three')}: metrics[2].max_order: expected an integer, got a string "
        '"three"')
    text = VALID.replace("level: [corpus, sentence]", "level: [corpus, sentense]")
    assert fails(project, host, text).startswith(
        f"c.yaml:{at(text, 'sentense')}: metrics[0].level[1]: expected \"corpus\" or "
        "\"sentence\", got a string \"sentense\" (did you mean 'sentence'?)")
    text = VALID.replace("schema_version: 1", "schema_version: 2")
    assert "schema_version: unsupported schema_version 2" in fails(project, host, text)
    text = VALID.replace("  - name: bleu-addk\n", "  - nam: bleu-addk\n")
    assert "metrics[1]: missing required key 'name'" in fails(project, host, text)
    text = VALID.replace("langs: en-de", "langs: english")
    assert "test_sets[0].langs: expected a language pair" in fails(project, host, text)


@pytest.mark.parametrize("old, new, cls, path, words", [
    ("name: add-k", "name: add-kk", UnknownComponentError, "metrics[1].smoothing.name",
     "unknown smoothing 'add-kk' (did you mean 'add-k'?); available: add-k, "),
    ("tokenizer: 13a", "tokenizer: 13b", UnknownComponentError, "metrics[2].tokenizer",
     "unknown tokenizer '13b' (did you mean '13a'?); available: 13a, "),
    ("preset: sacrebleu", "preset: sacrebleo", UnknownComponentError, "metrics[1].preset",
     "unknown preset 'sacrebleo' (did you mean 'sacrebleu'?)"),
    ("[table, json]", "[table, jsn]", UnknownComponentError, "reports[1]",
     "unknown reporter 'jsn' (did you mean 'json'?)"),
    ("tokenizer: none", "tokenizer: nne", UnknownComponentError, "test_sets[1].tokenizer",
     "unknown tokenizer 'nne'"),
    ("value: 2}", "valu: 2}", ConfigError, "metrics[1].smoothing.valu",
     "unknown key 'valu' (did you mean 'value'?); allowed keys: value (options of smoothing "
     "'add-k')"),
    ("value: 2}", "value: -2}", ConfigError, "metrics[1].smoothing.value",
     "expected a number >= 0, got an integer -2 (options of smoothing 'add-k')"),
    ("floor: 0.25}", "floor: 0}", ConfigError, "metrics[2].smoothing.floor",
     "expected a number > 0, got an integer 0 (options of smoothing 'test-floorplus')"),
    ("floor: 0.25}", "floor: 0.25, mode: strct}", ConfigError, "metrics[2].smoothing.mode",
     "expected \"strict\" or \"lenient\", got a string \"strct\" (did you mean 'strict'?)"),
    ("smoothing: {name: add-k, value: 2}", "smoothing: {value: 2}", ConfigError,
     "metrics[1].smoothing.value", "unknown key 'value'; allowed keys: none (options of "
     "smoothing 'exp')"),  # without a name, options adjust the preset's choice (exp)
])
def test_component_errors(host, project, old, new, cls, path, words) -> None:  # type: ignore[no-untyped-def]
    text = VALID.replace(old, new)
    msg = fails(project, host, text, cls=cls)
    assert msg.startswith("c.yaml:") and f": {path}: " in msg and words in msg
    line = int(msg.split(":")[1])
    assert text.splitlines()[line - 1].find(new.split(":")[0].strip("[{")) >= 0


def test_option_adjusting_the_presets_choice(host) -> None:  # type: ignore[no-untyped-def]
    # smoothing without a name adjusts the preset's choice; here the mean's option
    config, _ = load_config(HERE / "valid.yaml", ["metrics[0].mean={effective_order: true}"],
                            host=host)
    assert config.metrics[0].options["mean"] == {"effective_order": True}


def test_engine_cross_checks_run_at_validation(host, project) -> None:  # type: ignore[no-untyped-def]
    text = VALID.replace("max_order: 3", "max_order: 3\n    weights: [0.5, 0.5]")
    msg = fails(project, host, text)
    assert msg.startswith(f"c.yaml:{at(text, 'name: floorplus')}: metrics[2]: ")
    assert "weights have 2 orders but max_order is 3" in msg


@pytest.mark.parametrize("name", ["../../x", "/etc/x", "..", ".", "a/b", "a\\b", ""])
def test_experiment_name_cannot_escape(host, project, name: str) -> None:  # type: ignore[no-untyped-def]
    text = VALID.replace("experiment: sample-check", f"experiment: {json.dumps(name)}")
    msg = fails(project, host, text)
    assert msg.startswith(f"c.yaml:{at(text, 'experiment:', 12)}: experiment: ")
    assert "one directory name" in msg or "must not be empty" in msg


def test_experiment_dir_helper(tmp_path: Path) -> None:
    out = tmp_path / "runs"
    assert experiment_dir(out, "exp") == out / "exp"
    out.mkdir()
    (tmp_path / "elsewhere").mkdir()
    (out / "linked").symlink_to(tmp_path / "elsewhere")
    with pytest.raises(ConfigError, match="is a symbolic link"):
        experiment_dir(out, "linked")
    (out / "file").write_text("x")
    with pytest.raises(ConfigError, match="exists and is not a directory"):
        experiment_dir(out, "file")
    for bad in ("..", "../x", "/abs"):
        with pytest.raises(ConfigError, match="is not allowed"):
            experiment_dir(out, bad)


@pytest.mark.parametrize("old, new, path, words", [
    ("ref.*.txt", "rf.*.txt", "test_sets[0].references[0]",
     "no file matches the pattern '{data_root}/en-de/rf.*.txt' (looked for sample/en-de/rf.*.txt) "
     "for the references of test set 'en-de'"),
    ("sys/*.txt", "sys/*.tx", 'test_sets[0].systems["*"]', "no file matches the pattern"),
    ("sample/de-en/ref.A.txt", "sample/de-en/ref.Z.txt", "test_sets[1].references[0]",
     "file sample/de-en/ref.Z.txt does not exist (the references of test set 'de-en')"),
    ("sample/de-en/ref.A.txt", "sample/de-en", "test_sets[1].references[0]",
     "sample/de-en is a directory; the references of test set 'de-en' must be a file"),
    ("{data_root}/en-de/src.txt", "{data_root}/en-de/src.tx", "test_sets[0].source",
     "file sample/en-de/src.tx does not exist (the source of test set 'en-de')"),
    ("    references:\n      - sample/de-en/ref.A.txt\n", "    references: []\n",
     "test_sets[1].references", "expected one or more reference files"),
    ("first: sample/de-en/sys/alpha.txt", "first: sample/de-en/sys/*.txt",
     "test_sets[1].systems.first", "matches 3 files but names one system; use the key '*'"),
    ("first: sample/de-en/sys/alpha.txt", "beta: sample/de-en/sys/alpha.txt\n      '*': "
     "sample/de-en/sys/*.txt", 'test_sets[1].systems["*"]', "system name 'beta' is used twice "
     "in test set 'de-en' (sample/de-en/sys/alpha.txt and sample/de-en/sys/beta.txt)"),
    ("ref.*.txt\"]", "ref.*.txt\", \"{data_root}/en-de/ref.A.txt\"]",
     "test_sets[0].references[1]", "reference file sample/en-de/ref.A.txt is listed twice"),
    ("{data_root}/en-de/src.txt", "{dataroot}/en-de/src.txt", "test_sets[0].source",
     "unknown variable '{dataroot}' in '{dataroot}/en-de/src.txt' (did you mean 'data_root'?)"),
    ("{data_root}/en-de/src.txt", "x/{data_root}/src.txt", "test_sets[0].source",
     "{data_root} may only begin a path"),
    ("data_root: sample\n", "", "test_sets[0].source", "uses {data_root} but data_root is not set"),
    ("plugin_dirs: [plugins]", "plugin_dirs: [plugin]", "plugin_dirs[0]",
     "plugin directory plugin does not exist"),
    ("- name: de-en\n", "- name: en-de\n", "test_sets[1].name",
     "test set name 'en-de' is used twice (also test_sets[0])"),
    ("name: bleu-addk", "name: bleu", "metrics[1].name", "metric name 'bleu' is used twice"),
])
def test_path_and_uniqueness_errors(host, project, old, new, path, words) -> None:  # type: ignore[no-untyped-def]
    msg = fails(project, host, VALID.replace(old, new))
    assert msg.startswith("c.yaml:") and f": {path}: " in msg and words in msg, msg


def test_globs_do_not_match_directories_and_sort(host, project) -> None:  # type: ignore[no-untyped-def]
    (project / "sample/en-de/sys/zdir.txt").mkdir()
    (project / "sample/en-de/sys/0first.txt").write_text("x\n")
    (project / "c.yaml").write_text(VALID)
    config, _ = load_config(project / "c.yaml", host=host)
    assert config.test_sets[0].system_names == ("0first", "alpha", "beta", "gamma")


def test_glob_characters_in_the_config_directory_are_literal(host, tmp_path) -> None:  # type: ignore[no-untyped-def]
    project = tmp_path / "[odd]*dir"
    shutil.copytree(SAMPLE, project / "sample")
    shutil.copytree(PLUGIN_DIR, project / "plugins")
    (project / "c.yaml").write_text(VALID)
    config, _ = load_config(project / "c.yaml", host=host)
    assert config.test_sets[0].references[0] == project / "sample/en-de/ref.A.txt"


def test_requires_satisfied_and_unsatisfied(host, project, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    real = importlib.metadata.version

    def fake(name: str) -> str:
        if name == "evalfw-smooth-floorplus":
            return "0.0.5"
        return real(name)

    monkeypatch.setattr(importlib.metadata, "version", fake)
    ok = VALID.replace('"pluggy>=1"', '"evalfw-smooth-floorplus>=0.0.1", "pluggy>=0"')
    (project / "c.yaml").write_text(ok)
    load_config(project / "c.yaml", host=host)
    text = VALID.replace('"pluggy>=1"', '"pluggy>=0", "evalfw-smooth-floorplus>=0.1"')
    msg = fails(project, host, text)
    assert msg.startswith(f"c.yaml:{at(text, 'evalfw-smooth', -1)}: requires[1]: requirement "
                          "'evalfw-smooth-floorplus>=0.1' is not satisfied: installed is "
                          "evalfw-smooth-floorplus 0.0.5")
    text = VALID.replace('"pluggy>=1"', '"evalfw-no-such-plugin>=1"')
    assert "evalfw-no-such-plugin is not installed" in fails(project, host, text)
    text = VALID.replace('"pluggy>=1"', '"pluggy>>=1"')
    assert "requires[0]: not a PEP 508 requirement: 'pluggy>>=1'" in fails(project, host, text)
    # a marker that does not apply to this environment skips the requirement
    text = VALID.replace('"pluggy>=1"', '"evalfw-no-such-plugin>=1; python_version < \'3\'"')
    (project / "c.yaml").write_text(text)
    load_config(project / "c.yaml", host=host)


def test_requires_is_checked_before_components_and_data(host, project) -> None:  # type: ignore[no-untyped-def]
    text = VALID.replace('"pluggy>=1"', '"pluggy>=999"').replace("name: add-k", "name: nope")
    shutil.rmtree(project / "sample/en-de")
    msg = fails(project, host, text)
    assert "requires[0]: requirement 'pluggy>=999' is not satisfied" in msg


def test_validate_config_mapping_and_top_level_errors(host, project) -> None:  # type: ignore[no-untyped-def]
    import yaml

    data = yaml.safe_load(VALID)
    config, _ = validate_config(data, host=host, base_dir=project)
    assert config.path is None and config.test_sets[0].references[0].is_file()
    with pytest.raises(ConfigError, match="the config is empty"):
        validate_config(None, host=host)
    msg = fails(project, host, "- 1\n- 2\n")
    assert msg == ("c.yaml:1:1: (top level): the top level of a config must be a mapping "
                   "(experiment:, test_sets:, metrics:, ...), not a list")


def test_two_plugins_claiming_one_name(host, project) -> None:  # type: ignore[no-untyped-def]
    from evalfw.errors import ComponentConflictError

    source = (project / "plugins/floorplus_test.py").read_text()
    (project / "plugins/floorplus_copy.py").write_text("# a second provider\n" + source)
    msg = fails(project, host, VALID, cls=ComponentConflictError)
    assert msg.startswith("c.yaml:") and ": metrics[2].smoothing.name: smoothing " in msg
    assert "'test-floorplus' is provided by both" in msg and "floorplus_copy" in msg


def test_plugin_that_fails_to_import_is_named(host, project) -> None:  # type: ignore[no-untyped-def]
    (project / "plugins/broken.py").write_text("raise RuntimeError('boom')\n")
    text = VALID.replace("name: add-k", "name: broken-smoothing")
    msg = fails(project, host, text, cls=UnknownComponentError)
    assert "unknown smoothing 'broken-smoothing'" in msg
    assert "plugin 'broken'" in msg and "failed to load: RuntimeError: boom" in msg
