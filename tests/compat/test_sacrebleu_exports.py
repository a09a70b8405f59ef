"""``evalfw.compat.sacrebleu`` exports every metric name sacreBLEU 2.6.0 exports, importable
the way sacreBLEU users import them (``sacrebleu``, ``sacrebleu.metrics``,
``sacrebleu.metrics.bleu``/``chrf``/``ter``); BLEU alone does not load numpy (checked in a
fresh interpreter)."""

from __future__ import annotations

import importlib
import json
import subprocess
import sys

import pytest

from tests.support.kernels import BLEU as BLEU_KERNEL
from tests.support.kernels import needs_kernel

sacrebleu = pytest.importorskip("sacrebleu")

METRIC_NAMES = {"BLEU", "BLEUScore", "BLEUSignature", "CHRF", "CHRFScore", "CHRFSignature",
                "TER", "TERScore", "TERSignature", "corpus_bleu", "raw_corpus_bleu",
                "sentence_bleu", "corpus_chrf", "sentence_chrf", "corpus_ter", "sentence_ter"}


def _metric_names(module: object) -> set[str]:
    """The names a sacreBLEU module exports for its metrics (not its dataset helpers)."""
    names = getattr(module, "__all__", None) or [n for n in vars(module) if not n.startswith("_")]
    return {n for n in names if n in METRIC_NAMES or n == "METRICS"}


@pytest.mark.parametrize("module", ["sacrebleu", "sacrebleu.metrics", "sacrebleu.metrics.bleu",
                                    "sacrebleu.metrics.chrf", "sacrebleu.metrics.ter"])
def test_every_metric_name_of_sacrebleu_is_there(module):
    theirs = importlib.import_module(module)
    ours = importlib.import_module(module.replace("sacrebleu", "evalfw.compat.sacrebleu", 1))
    names = _metric_names(theirs)
    assert names, f"{module} exports no metric name?"
    for name in names:
        got = getattr(ours, name)
        if name == "METRICS":
            assert sorted(got) == sorted(theirs.METRICS)
            assert [c.__name__ for c in got.values()] == list(theirs.METRICS)
        else:
            assert got.__name__ == name
    assert set(dir(ours)) >= names


def test_the_package_exports_all_sixteen_names_and_metrics():
    from evalfw.compat import sacrebleu as ours

    assert set(ours.__all__) == METRIC_NAMES | {"METRICS"}
    assert ours.__version__ == "2.6.0"
    with pytest.raises(AttributeError):
        ours.NotAName  # noqa: B018


def test_same_objects_whichever_way_they_are_imported():
    from evalfw.compat.sacrebleu import BLEU, CHRF, TER, BLEUScore
    from evalfw.compat.sacrebleu.metrics import BLEU as B
    from evalfw.compat.sacrebleu.metrics import CHRF as C
    from evalfw.compat.sacrebleu.metrics import TER as T
    from evalfw.compat.sacrebleu.metrics.bleu import BLEUScore as BS

    assert (BLEU, CHRF, TER, BLEUScore) == (B, C, T, BS)


LOADED = """
import json, sys
{code}
print(json.dumps(sorted(sys.modules)))
"""


def _loaded(code: str) -> set[str]:
    done = subprocess.run([sys.executable, "-c", LOADED.format(code=code)], capture_output=True,
                          text=True, check=True, timeout=120)
    return set(json.loads(done.stdout.splitlines()[-1]))


@needs_kernel(BLEU_KERNEL)  # without it, BLEU counts with numpy
@pytest.mark.parametrize("code", [
    "from evalfw.compat.sacrebleu import BLEU\n"
    "print(BLEU().corpus_score(['a b c'], [['a b d']]).score)",
    "from evalfw.compat.sacrebleu.metrics import BLEU\n"
    "b = BLEU(effective_order=True)\nprint(b.sentence_score('a b c', ['a b d']), b.get_signature())",
    "from evalfw.compat.sacrebleu import corpus_bleu, sentence_bleu, raw_corpus_bleu\n"
    "print(corpus_bleu(['a'], [['a']]), sentence_bleu('a', ['a']), raw_corpus_bleu(['a'], [['a']]))",
    "import evalfw.compat.sacrebleu as sacrebleu\nprint(sacrebleu.BLEU(tokenize='zh'))",
])
def test_bleu_alone_loads_no_numpy(code):
    assert "numpy" not in _loaded(code)


def test_the_probe_sees_numpy_when_it_is_loaded():
    code = ("from evalfw.compat.sacrebleu import CHRF\n"
            "CHRF(references=[['a b', 'c']]).corpus_score(['a b', 'c'], None, n_bootstrap=10)")
    assert "numpy" in _loaded(code)
