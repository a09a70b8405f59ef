"""The flat option validator agrees with jsonschema: same accepted values, same first error
message, for every built-in component and for synthetic flat schemas; and the scoring path
no longer imports jsonschema."""

from __future__ import annotations

import math
import os
import random
import subprocess
import sys

import pytest

from evalfw.host.host import PluginHost
from evalfw.plugin.options import first_error, is_flat, jsonschema_first_error

#: plain values and a few that only jsonschema handles (lists, dicts, tuples)
VALUES = [
    0, 1, 2, -1, 17, 18, 10**30, -(10**30), 0.0, 1.0, -0.0, 0.5, 2.5, -1.5, 17.0, 17.5,
    math.inf, -math.inf, math.nan, True, False, None, "", "0", "1", "sacrebleu", "nltk",
    "floor", [], [1], [10, 20], {}, {"a": 1}, (1,), [0], [1.5],
]


def _builtin_schemas() -> list[tuple[str, dict]]:
    host = PluginHost.create(autoload=False)
    out = []
    for kind, reg in host.registries.items():
        for name in reg.names():
            out.append((f"{kind}:{name}", reg.get(name).options_schema))
    return out


BUILTINS = _builtin_schemas()


def _agree(schema: dict, values: dict) -> None:
    assert first_error(schema, values) == jsonschema_first_error(schema, values), (schema, values)


@pytest.mark.parametrize(("label", "schema"), BUILTINS, ids=[b[0] for b in BUILTINS])
def test_builtin_schemas_agree_with_jsonschema(label: str, schema: dict) -> None:
    props = schema.get("properties", {})
    defaults = {k: v["default"] for k, v in props.items() if "default" in v}
    _agree(schema, defaults)
    for key in props:
        for value in VALUES:
            _agree(schema, {**defaults, key: value})
    rng = random.Random(5)
    for _ in range(50):  # several properties wrong at once: the first error must match too
        _agree(schema, {k: rng.choice(VALUES) for k in props})


def test_most_builtin_schemas_take_the_flat_path() -> None:
    # Metrics are not in the count: BLEU's options name components and are resolved by its
    # spec (evalfw.metrics.bleu.spec), not by the option validator.
    components = [(label, schema) for label, schema in BUILTINS if not label.startswith("metric:")]
    flat = [label for label, schema in components if is_flat(schema, {})]
    assert len(flat) >= len(components) - 2  # the length bucketers use arrays: jsonschema
    assert "tokenizer:13a" in flat and "counter:clipped" in flat and "reporter:table" in flat


def _random_schema(rng: random.Random) -> dict:
    props = {}
    for key in rng.sample(["a", "b", "c", "zeta", "Alpha"], rng.randint(1, 4)):
        sub: dict = {}
        keywords = ["type", "enum", "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum"]
        for kw in rng.sample(keywords, rng.randint(0, 4)):
            if kw == "type":
                names = ["integer", "number", "boolean", "string", "null"]
                sub[kw] = rng.choice(names) if rng.random() < 0.6 else rng.sample(names, 2)
            elif kw == "enum":
                sub[kw] = rng.sample([0, 1, 1.0, True, False, None, "x", 2.5, "1"], 3)
            else:
                sub[kw] = rng.choice([0, 1, -1, 0.5, 17])
        if rng.random() < 0.5:
            sub["default"] = rng.choice(VALUES[:25])
        props[key] = sub
    return {"type": "object", "properties": props, "additionalProperties": rng.random() < 0.5}


def test_random_flat_schemas_agree_with_jsonschema() -> None:
    rng = random.Random(2024)
    checked = 0
    for _ in range(300):
        schema = _random_schema(rng)
        keys = list(schema["properties"])
        for _ in range(10):
            values = {k: rng.choice(VALUES) for k in rng.sample(keys, rng.randint(0, len(keys)))}
            _agree(schema, values)
            checked += 1
    assert checked == 3000


def test_unhandled_keywords_fall_back_to_jsonschema() -> None:
    schema = {"type": "object", "properties": {"x": {"type": "string", "minLength": 2}}}
    assert not is_flat(schema, {"x": "a"})
    assert first_error(schema, {"x": "a"}) == ("x", "'a' is too short")


def test_scoring_does_not_import_jsonschema() -> None:
    code = ("import sys, evalfw; from evalfw.compat.sacrebleu import BLEU; "
            "BLEU(tokenize='zh').corpus_score(['a b'], [['a b']]); "
            "from evalfw.api import default_host; from evalfw.metrics.bleu.spec import resolve_spec; "
            "resolve_spec(default_host(), {'preset': 'nltk'}); "
            "print('jsonschema' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                         env={**os.environ, "EVALFW_DISABLE_PLUGIN_AUTOLOAD": "1"})  # built-ins
    assert out.stdout.strip() == "False"
