"""`evalfw validate`, `evalfw schema` and the combined JSON Schema."""

from __future__ import annotations

import json
from pathlib import Path

import jsonschema
import pytest
import yaml

from evalfw.cli.main import main  # noqa: E402
from evalfw.config import combined_schema, static_schema  # noqa: E402
from evalfw.errors import ConfigError
from evalfw.host.host import PluginHost  # noqa: E402
from evalfw.metrics.bleu._options import OPTIONS_SCHEMA  # noqa: E402
from evalfw.metrics.bleu.spec import OPTION_KEYS  # noqa: E402
from tests.support.config import HERE, make_host
from tests.support.shared_data import WMT22

pytestmark = pytest.mark.wmt22

VALID = (HERE / "valid.yaml").read_text("utf-8")


@pytest.fixture()
def cli_host(monkeypatch):  # type: ignore[no-untyped-def]
    """Make the commands' PluginHost.create use the test host while built-ins are incomplete."""
    try:
        PluginHost.create(autoload=False)
        return
    except ModuleNotFoundError:
        pass

    class Shim:
        @staticmethod
        def create(**kwargs):  # type: ignore[no-untyped-def]
            host = make_host()
            for d in kwargs.get("plugin_dirs", ()):
                host.load_plugin_dir(Path(d))
            return host

    monkeypatch.setattr("evalfw.config._loader.PluginHost", Shim)
    monkeypatch.setattr("evalfw.cli.cmd_schema.PluginHost", Shim)


def test_validate_ok(cli_host, capsys) -> None:  # type: ignore[no-untyped-def]
    # the fixture loads, but its baseline 'alpha' is no system of test set de-en: run would
    # refuse it, so validate does
    assert main(["validate", str(HERE / "valid.yaml")]) == 2
    assert "significance.baseline: system 'alpha' is not in test set 'de-en'" in \
        capsys.readouterr().err
    baseline = f"test_sets[1].systems.alpha={HERE}/sample/de-en/sys/gamma.txt"
    assert main(["validate", str(HERE / "valid.yaml"), "--set", baseline]) == 0
    assert capsys.readouterr().out.splitlines()[0] == "ok: sample-check (2 test sets, 3 metrics)"
    assert main(["validate", str(HERE / "valid.yaml"), "--set", "metrics[2].max_order=2",
                 "--set", "test_sets=[{name: x, langs: en-de, references: "
                 f"[{HERE}/sample/en-de/ref.A.txt], systems: {{alpha: {HERE}/sample/en-de/src.txt}}}}]"
                 ]) == 0
    assert capsys.readouterr().out.splitlines()[0] == "ok: sample-check (1 test set, 3 metrics)"


def test_validate_error_is_one_line_with_status_2(cli_host, tmp_path, capsys) -> None:  # type: ignore[no-untyped-def]
    bad = tmp_path / "bad.yaml"
    bad.write_text("experiment: x\nseed: 1\nexperiment: y\n")
    assert main(["validate", str(bad)]) == 2
    err = capsys.readouterr().err
    assert err == (f"evalfw: error: {bad}:3:1: experiment: duplicate key 'experiment' (first "
                   "defined at line 1, column 1); YAML would silently keep only the last one, "
                   "remove one\n")
    assert main(["validate", str(HERE / "valid.yaml"), "--set", "seed=-1"]) == 2
    assert capsys.readouterr().err.startswith(
        "evalfw: error: --set seed=-1: seed: expected a number >= 0, got an integer -1")
    with pytest.raises(ConfigError, match="duplicate key 'experiment'"):
        main(["--debug", "validate", str(bad)])


def test_static_schema_is_valid_and_bleu_options_match_the_engine() -> None:
    schema = static_schema()
    jsonschema.Draft202012Validator.check_schema(schema)
    assert set(schema["$defs"]["metric"]["properties"]) == {"name", "label", "metric", "level"}
    assert set(OPTIONS_SCHEMA["properties"]) == set(OPTION_KEYS)  # every key spec resolves


def _metric_case(schema: dict, name: str) -> dict:
    """The ``then`` part of the combined schema's case for metric ``name``."""
    for case in schema["$defs"]["metric"]["allOf"]:
        if name in json.dumps(case["if"]):
            return case["then"]
    raise AssertionError(f"no case for metric {name}")


def test_combined_schema_is_valid_and_agrees_with_validation() -> None:
    host = make_host()
    host.load_plugin_dir(HERE / "plugins")
    schema = combined_schema(host)
    jsonschema.Draft202012Validator.check_schema(schema)
    validator = jsonschema.Draft202012Validator(schema)
    assert list(validator.iter_errors(yaml.safe_load(VALID))) == []
    bleu = _metric_case(schema, "bleu")["properties"]
    assert "test-floorplus" in bleu["smoothing"]["anyOf"][0]["enum"]  # a third-party component
    assert "sacrebleu" in bleu["preset"]["enum"]
    assert "bleu" in schema["$defs"]["metric"]["properties"]["metric"]["enum"]
    for old, new in [("name: add-k", "name: add-kk"), ("floor: 0.25", "floor: 0"),
                     ("floor: 0.25", "flor: 0.25"), ("tokenizer: 13a", "tokenizer: 13b"),
                     ("max_order: 3", "max_ordr: 3"),
                     ("[table, json]", "[table, jsn]"), ("seed: 7", "sed: 7")]:
        data = yaml.safe_load(VALID.replace(old, new))
        assert list(validator.iter_errors(data)), (old, new)


def test_schema_command(cli_host, capsys) -> None:  # type: ignore[no-untyped-def]
    assert main(["schema", "--plugins-dir", str(HERE / "plugins")]) == 0
    schema = json.loads(capsys.readouterr().out)
    jsonschema.Draft202012Validator.check_schema(schema)
    assert schema["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    smoothing = _metric_case(schema, "bleu")["properties"]["smoothing"]
    assert "test-floorplus" in smoothing["anyOf"][0]["enum"]
    assert main(["schema", "--static"]) == 0
    assert json.loads(capsys.readouterr().out) == static_schema()


SHARED = WMT22


def test_data_root_override_points_a_config_at_wmt22(cli_host, capsys, tmp_path) -> None:  # type: ignore[no-untyped-def]
    if not (SHARED / "en-de" / "ref.A.txt").is_file():
        pytest.skip(f"shared WMT22 data not found at {SHARED}")
    pairs = ("en-de", "de-en", "en-zh", "en-ja")
    config = {
        "schema_version": 1, "experiment": "wmt22", "data_root": "nowhere-until-overridden",
        "test_sets": [{"name": p, "langs": p, "source": "{data_root}/" + p + "/src.txt",
                       "references": ["{data_root}/" + p + "/ref.*.txt"],
                       "systems": {"*": "{data_root}/" + p + "/sys/*.txt"}} for p in pairs],
        "metrics": [{"name": "bleu"}],
    }
    path = tmp_path / "wmt.yaml"
    path.write_text(yaml.safe_dump(config))
    assert main(["validate", str(path), "--set", f"data_root={SHARED}"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0] == "ok: wmt22 (4 test sets, 1 metric)"
    assert "  checked: test set 'de-en': 1984 lines in each file (source, 2 references, " \
        "9 systems), UTF-8 text" in out
    from evalfw.config import load_config

    loaded, _ = load_config(path, [f"data_root={SHARED}"], host=make_host())
    by_name = {ts.name: ts for ts in loaded.test_sets}
    assert [p.name for p in by_name["en-de"].references] == ["ref.A.txt", "ref.B.txt"]
    assert [p.name for p in by_name["en-ja"].references] == ["ref.A.txt"]
    assert set(by_name["en-de"].system_names) == {p.stem for p in (SHARED / "en-de/sys").glob("*.txt")}
    assert main(["validate", str(path)]) == 2  # without the override the data is not there
    assert "nowhere-until-overridden" in capsys.readouterr().err
