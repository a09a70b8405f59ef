"""One table of limits (evalfw.limits) holds in configs and on the command line alike; weights
are checked per mean; experiment names are one visible directory name."""

from __future__ import annotations

import pytest

from evalfw.cli.main import main
from evalfw.config.schema import BOUNDED, combined_schema, static_schema
from evalfw.host.host import PluginHost
from evalfw.limits import LIMITS
from tests.cli.test_hostile_inputs import (
    HYP,
    HYP2,
    REF,
    config_text,
    evalfw_cli,
    refused,
)

SCORE = ["score", "-r", REF, "-i", HYP]


def status(argv: list[str]) -> int:
    """main()'s exit status; argparse's refusals end in SystemExit(2)."""
    try:
        return main(argv)
    except SystemExit as exc:
        return int(exc.code or 0)


def test_the_schema_takes_its_bounds_from_the_table():
    schema = static_schema()
    for path, key in BOUNDED.items():
        node = schema
        for name in path:
            node = node["properties"][name]
        assert (node["minimum"], node["maximum"]) == (LIMITS[key].low, LIMITS[key].high)
    combined = combined_schema(PluginHost.create(autoload=False))
    options = {case["if"]["properties"]["metric"].get("const", "bleu")
               if "properties" in case["if"] else "bleu": case["then"]["properties"]
               for case in combined["$defs"]["metric"]["allOf"]}
    assert options["bleu"]["max_order"]["maximum"] == LIMITS["max_order"].high
    assert options["chrf"]["char_order"]["maximum"] == LIMITS["char_order"].high


@pytest.mark.parametrize("argv, option", [
    ([*SCORE, "--max-order", "1000000000"], "--max-order"),
    ([*SCORE, "--max-order", "0"], "--max-order"),
    ([*SCORE, "-i", HYP2, "--paired-bs", "--paired-bs-n", str(10**12)], "--paired-bs-n"),
    ([*SCORE, "-i", HYP2, "--paired-ar", "--paired-ar-n", str(10**12)], "--paired-ar-n"),
    ([*SCORE, "--confidence", "--confidence-n", str(10**12)], "--confidence-n"),
    ([*SCORE, "--confidence", "--confidence-n", "0"], "--confidence-n"),
    ([*SCORE, "--confidence", "--seed", "-1"], "--seed"),
    ([*SCORE, "--confidence", "--seed", "9" * 5000], "--seed"),
    ([*SCORE, "--width", "-1"], "--width"),
    ([*SCORE, "--width", "1000"], "--width"),
    (["run", "x.yaml", "--jobs", "0"], "--jobs"),
    (["run", "x.yaml", "--jobs", "100000"], "--jobs"),
    (["compare", "a", "b", "--samples", str(10**12)], "--samples"),
    (["compare", "a", "b", "--seed", "-1"], "--seed"),
])
def test_every_bounded_option_refuses_values_out_of_range(capsys, argv, option):
    assert status(argv) == 2
    err = capsys.readouterr().err
    last = err.strip().splitlines()[-1]
    assert last.startswith("evalfw: error: argument ") and option in last, err
    assert "out of range" in last or "expected an integer" in last


def test_compare_bounds_bootstrap_samples_by_the_bootstrap_limit(capsys):
    n = LIMITS["samples"].high + 1  # a valid number of AR trials, too many resamples
    assert status(["compare", "a", "b", "--samples", str(n)]) == 2
    assert "bootstrap resamples" in capsys.readouterr().err


def test_the_sacrebleu_seed_variable_is_bounded_too():
    done = evalfw_cli(*SCORE, "--confidence", env={"SACREBLEU_SEED": "-1"})
    refused(done, "$SACREBLEU_SEED", "out of range")


@pytest.mark.parametrize("weights, word", [
    ("1,2", "sum to"), ("0,0,0,0", "sum to"), ("-0.5,0.5,0.5,0.5", ">= 0"),
    ("nan,0.5,0.25,0.25", "finite"),
])
def test_weights_without_meaning_are_refused_on_the_command_line(capsys, weights, word):
    assert status([*SCORE, f"--weights={weights}"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("evalfw: error: ") and word in err, err


@pytest.mark.parametrize("weights", ["[1, 2]", "[0, 0, 0, 0]", "[-1, 1, 0.5, 0.5]"])
def test_weights_without_meaning_are_refused_in_a_config(tmp_path, weights):
    text = config_text().replace("  - name: bleu\n", f"  - name: bleu\n    weights: {weights}\n")
    (tmp_path / "c.yaml").write_text(text, "utf-8")
    refused(evalfw_cli("validate", "c.yaml", cwd=tmp_path), "weights")


def test_the_nltk_mean_takes_any_finite_weights_as_nltk_does():
    nltk = pytest.importorskip("nltk.translate.bleu_score")
    from evalfw.api import corpus_bleu

    hyps = ["the cat sat on the mat", "a b c d"]
    refs = [["the cat sat on a mat", "a b c d e"]]
    for weights in ((1.0, 2.0), (0.0, 0.0), (-0.5, 1.5), (0.7, 0.1, 0.1)):
        ours = corpus_bleu(hyps, refs, preset="nltk", weights=weights).score
        theirs = nltk.corpus_bleu([[r.split()] for r in refs[0]], [h.split() for h in hyps],
                                  weights=weights)
        assert repr(float(ours)) == repr(float(theirs)), weights


@pytest.mark.parametrize("name", ["ok\n", ".hidden", ".cache", ".tmp-x", "a/b", "..", "",
                                  "x" * 129])
def test_experiment_names_are_one_visible_directory_name(tmp_path, name):
    import json

    text = config_text(top=f"experiment: {json.dumps(name)}\n")
    (tmp_path / "c.yaml").write_text(text, "utf-8")
    refused(evalfw_cli("validate", "c.yaml", cwd=tmp_path), "experiment")
    from evalfw.errors import ConfigError
    from evalfw.records.naming import check_experiment_name

    with pytest.raises(ConfigError, match="not allowed"):
        check_experiment_name(name)
