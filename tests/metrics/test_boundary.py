"""Every value a metric plugin returns is checked where it enters evalfw, and everything its
code raises becomes one PluginError line naming the plugin, the class and the method (and the
first offending segment, where there is one)."""

from __future__ import annotations

import math
import types
from typing import Any

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import evalfw
from evalfw.errors import PluginError
from evalfw.host.host import PluginHost
from evalfw.limits import MAX_STATISTICS_COLUMNS
from evalfw.plugin import hookimpl
from tests.support.bounded import time_bound  # noqa: F401  (fixture: each test bounded)

HYPS = ["the cat sat", "a dog", "boom goes it", "fine"]
REFS = [["the cat sat down", "a dog barked", "boom went it", "fine"]]
FAST = settings(max_examples=60, deadline=None, derandomize=True,
                suppress_health_check=[HealthCheck.function_scoped_fixture,
                                       HealthCheck.too_slow])


class Returning(evalfw.Metric):
    """A metric whose methods return what the test puts in ``returns`` (by method name)."""

    name = "returning"
    returns: dict[str, Any] = {}

    def segment_statistics(self, hypotheses, references):
        if "segment_statistics" in self.returns:
            return self.returns["segment_statistics"]
        return np.ones((len(hypotheses), 2), dtype=np.int64)

    def score(self, statistics):
        return self.returns.get("score", float(statistics.sum()))

    def signature(self, nrefs):
        return self.returns.get("signature", "returning")

    def statistics_key(self):
        return self.returns.get("statistics_key", super().statistics_key())

    def definition(self):
        return self.returns.get("definition", super().definition())

    def score_rows(self, sums, last=None, segments=1):
        if "score_rows" in self.returns:
            return self.returns["score_rows"]
        return super().score_rows(sums, last, segments)

    def lengths(self, statistics):
        return self.returns.get("lengths")


def host_with(*classes: type) -> PluginHost:
    module = types.ModuleType("badplugin")
    module.evalfw_register_metrics = hookimpl(lambda: list(classes))
    return PluginHost.create(autoload=False, extra_plugins=[module])


def metric_returning(method: str, value: Any) -> evalfw.Metric:
    cls = type("Returning", (Returning,), {"returns": {method: value}, "__module__": __name__})
    return evalfw.metric("returning", host=host_with(cls))


def refused(action, method: str) -> str:
    with pytest.raises(PluginError) as err:
        action()
    text = str(err.value)
    assert "\n" not in text
    assert text.startswith(f"plugin 'badplugin': metric 'returning' ({__name__}.")
    assert f").{method} " in text and "--disable-plugin badplugin" in text
    return text


def statistics_of(metric: evalfw.Metric) -> Any:
    return metric.segment_statistics(HYPS, REFS)


# ----------------------------------------------------------------------------- statistics

n = len(HYPS)
bad_dtypes = st.sampled_from(["float32", "uint64", "int32", "int8", "bool", "complex128",
                              "float16", "<U3", "object"])
bad_statistics = st.one_of(
    hnp.arrays(bad_dtypes, st.tuples(st.just(n), st.integers(1, 4))),
    hnp.arrays(st.sampled_from(["int64", "float64"]),
               st.one_of(st.tuples(st.integers(0, 6)),
                         st.tuples(st.just(n), st.integers(1, 3), st.integers(1, 2)))),
    hnp.arrays("int64", st.tuples(st.integers(0, 8).filter(lambda r: r != n),
                                  st.integers(1, 3))),
    hnp.arrays("int64", st.tuples(st.just(n), st.just(0))),
    st.builds(lambda rows, col, bad: _poisoned(rows, col, bad), st.integers(0, n - 1),
              st.integers(0, 2), st.sampled_from([math.nan, math.inf, -math.inf])),
    st.builds(lambda a: a.tolist(), hnp.arrays("int64", (n, 2))),
    st.sampled_from([None, True, 1 + 2j, "rows", 3, b"x"]),
)


def _poisoned(row: int, column: int, value: float) -> np.ndarray:
    out = np.ones((n, 3), dtype=np.float64)
    out[row, column] = value
    return out


@FAST
@given(bad_statistics)
def test_statistics_that_are_not_finite_int64_or_float64_rows_are_refused(value):
    text = refused(lambda: statistics_of(metric_returning("segment_statistics", value)),
                   "segment_statistics")
    assert "returned" in text


@FAST
@given(hnp.arrays(st.sampled_from(["int64", "float64"]),
                  st.tuples(st.just(n), st.integers(1, 8)),
                  elements={"allow_nan": False, "allow_infinity": False, "min_value": -1e9,
                            "max_value": 1e9}))
def test_finite_int64_or_float64_rows_enter_as_a_read_only_copy(value):
    got = statistics_of(metric_returning("segment_statistics", value))
    assert got.dtype == value.dtype and got.shape == value.shape
    assert np.array_equal(got, value) and not got.flags.writeable
    assert not np.shares_memory(got, value)  # what the plugin keeps cannot change it


def test_rows_in_the_other_byte_order_enter_as_native_rows():
    rows = np.arange(n * 2, dtype=">i8").reshape(n, 2)
    got = statistics_of(metric_returning("segment_statistics", rows))
    assert got.dtype.isnative and got.dtype.name == "int64" and (got == rows).all()


def test_the_first_non_finite_segment_is_named():
    text = refused(lambda: statistics_of(metric_returning("segment_statistics",
                                                          _poisoned(2, 1, math.nan))),
                   "segment_statistics")
    assert "NaN or infinity (first at segment 3)" in text


def test_more_columns_than_the_limit_are_refused():
    wide = np.zeros((n, MAX_STATISTICS_COLUMNS + 1), dtype=np.int64)
    text = refused(lambda: statistics_of(metric_returning("segment_statistics", wide)),
                   "segment_statistics")
    assert f"{MAX_STATISTICS_COLUMNS + 1} columns" in text


# ----------------------------------------------------------------------------- scores

bad_scores = st.one_of(
    st.sampled_from([math.nan, math.inf, -math.inf, None, "12.5", True, np.float64("nan"),
                     1 + 0j, [1.0], b"1"]),
    st.integers(min_value=2**1024, max_value=2**2000),
    hnp.arrays("float64", st.integers(1, 3)),
)


@FAST
@given(bad_scores)
def test_a_score_that_is_not_a_finite_real_number_is_refused(value):
    metric = metric_returning("score", value)
    refused(lambda: metric.score(np.ones((2, 2), dtype=np.int64)), "score")
    # through every path that scores: a corpus result, sentence scores
    refused(lambda: metric.result(np.ones((2, 2), dtype=np.int64), 1), "score")


@FAST
@given(st.one_of(st.integers(-10**6, 10**6), st.floats(allow_nan=False, allow_infinity=False),
                 st.builds(np.float32, st.floats(-1e6, 1e6))))
def test_finite_real_scores_pass_as_floats(value):
    got = metric_returning("score", value).score(np.ones((2, 2), dtype=np.int64))
    assert type(got) is float and got == float(value)


@pytest.mark.parametrize("value", [np.array([1.0, math.nan]), np.array([1.0]), [1.0, "x"],
                                   np.ones((2, 1)), None])
def test_score_rows_must_be_one_finite_number_per_row(value):
    metric = metric_returning("score_rows", value)
    refused(lambda: metric.score_rows(np.ones((2, 3), dtype=np.int64)), "score_rows")


# ----------------------------------------------------------------------------- other returns

class Unhashable:
    __hash__ = None  # type: ignore[assignment]


@pytest.mark.parametrize("method, value, why", [
    ("signature", None, "not a signature"),
    ("signature", 12, "not a signature"),
    ("signature", "BLEU\nfake = 99.9", "control character U+000A"),
    ("signature", "x\u202eevil", "control character U+202E"),
    ("statistics_key", ["a", "list"], "cannot be hashed"),
    ("statistics_key", (1, Unhashable()), "cannot be hashed"),
    ("definition", {"name": "returning", "version": "1", "options": {"x": object()}},
     "not plain JSON"),
    ("definition", {"name": "returning", "version": 1, "options": {}}, "version is 1"),
    ("definition", {"name": "other", "version": "1", "options": {}}, "named 'other'"),
    ("definition", {"name": "returning", "version": "1", "options": {"x": math.nan}}, "nan"),
    ("definition", "returning@1", "not a mapping"),
])
def test_what_a_record_or_cache_keeps_is_checked(method, value, why):
    metric = metric_returning(method, value)
    text = refused(lambda: getattr(metric, method)(*([1] if method == "signature" else [])),
                   method)
    assert why in text


@pytest.mark.parametrize("lengths", [
    evalfw.SegmentLengths(np.array([1, 2]), np.array([1, 2, 3, 4])),
    evalfw.SegmentLengths(None, np.array([1.0, math.nan, 1.0, 1.0])),
    evalfw.SegmentLengths(np.array(["a"] * 4), np.ones(4)),
    (np.ones(4), np.ones(4)),
])
def test_bucket_lengths_of_the_wrong_size_or_not_finite_are_refused(lengths):
    metric = metric_returning("lengths", lengths)
    refused(lambda: metric.lengths(np.ones((4, 2), dtype=np.int64)), "lengths")


# ----------------------------------------------------------------------------- raising

class Raising(evalfw.Metric):
    """A metric whose method named ``method`` raises ``error``."""

    name = "returning"
    method = "segment_statistics"
    error: BaseException = RuntimeError("no")

    def __init__(self, **options):
        if self.method == "__init__":
            raise self.error
        super().__init__(**options)

    def segment_statistics(self, hypotheses, references):
        if self.method == "segment_statistics" and any("boom" in h for h in hypotheses):
            raise self.error
        return np.ones((len(hypotheses), 2), dtype=np.int64)

    def score(self, statistics):
        if self.method == "score":
            raise self.error
        return 1.0

    def signature(self, nrefs):
        if self.method == "signature":
            raise self.error
        return "raising"

    def prepare_references(self, references):
        if self.method == "prepare_references":
            raise self.error
        return references


def _recurse(depth: int = 0) -> int:
    return _recurse(depth + 1) + 1


@pytest.mark.parametrize("error", [RuntimeError("bad\nthing"), MemoryError(), SystemExit(3),
                                   "recursion"])
@pytest.mark.parametrize("method", ["__init__", "segment_statistics", "score", "signature",
                                    "prepare_references"])
def test_an_exception_from_plugin_code_is_one_line_naming_plugin_class_and_method(method,
                                                                                   error):
    if error == "recursion":
        try:
            _recurse()
        except RecursionError as exc:
            error = exc
    cls = type("Returning", (Raising,), {"method": method, "error": error,
                                         "__module__": __name__})
    host = host_with(cls)

    def use() -> None:
        metric = evalfw.metric("returning", host=host)
        metric.result(metric.segment_statistics(HYPS, metric.prepare_references(REFS)), 1)

    text = refused(use, "create" if method == "__init__" else method)
    assert type(error).__name__ in text
    if method == "segment_statistics" and not isinstance(error, MemoryError):
        assert "(first at segment 3)" in text  # the one segment that fails alone


def test_a_raising_higher_is_better_property_is_named():
    class Direction(Returning):
        @property
        def higher_is_better(self):
            raise RuntimeError("which way?")

    text = refused(lambda: evalfw.metric("returning", host=host_with(Direction)),
                   "higher_is_better")
    assert "RuntimeError: which way?" in text


class NanScore(Returning):
    """Pickled by reference: a module-level class."""

    returns = {"score": math.nan}


def test_a_metric_sent_to_a_worker_is_guarded_there_too():
    import pickle

    from evalfw.host.portable import make_portable

    host = host_with(NanScore)
    make_portable(host)
    metric = evalfw.metric("returning", host=host)
    # what a worker process gets: the class by reference, rebuilt from its definition there
    # (the test class lives in this module, so the rebuilding host is this test's)
    from evalfw.host import portable

    portable._hosts[()] = host
    try:
        arrived = pickle.loads(pickle.dumps(metric))
    finally:
        del portable._hosts[()]
    refused(lambda: arrived.score(np.ones((1, 2), dtype=np.int64)), "score")


def test_a_plugin_name_with_control_characters_is_shown_escaped():
    from evalfw.host.registry import PluginInfo

    assert PluginInfo("evil\u202eplugin", "entrypoint", "dist\n", "1").provider == \
        "plugin 'evil\\u202eplugin' (dist\\n 1)"
