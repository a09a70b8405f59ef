"""Loading and validating an experiment config, in the documented bootstrap order.

1. parse the YAML safely, with positions (:mod:`evalfw.config._yamlload`);
2. apply ``--set`` overrides (:mod:`evalfw.config._overrides`);
3. validate against the static JSON Schema;
4. build the plugin host with the config's ``plugin_dirs``;
5. check ``requires:`` -- before any data file is looked at;
6. check component names and options against the plugins, and let the engine resolve metrics;
7. resolve paths: globs expanded, files checked to exist (not read).
"""

from __future__ import annotations

import copy
import os
from collections.abc import Collection, Iterable, Mapping
from pathlib import Path
from typing import Any

from evalfw.checks.builtin import DEFAULT_CHECKS
from evalfw.config import _choices as choices
from evalfw.config._locate import KeyPath, Locations
from evalfw.config._overrides import Override, apply_overrides, parse_override
from evalfw.config._requires import check_requirements, parse_requirements
from evalfw.config._yamlload import parse_yaml, read_config_text
from evalfw.config.model import (
    DEFAULT_METRIC,
    ExperimentConfig,
    JudgementConfig,
    MetricConfig,
    MqmTexts,
    TestSetConfig,
    config_sha256,
    frozen,
)
from evalfw.config.paths import PathResolver, check_experiment_name
from evalfw.config.schema import check_schema, static_schema
from evalfw.errors import ConfigError, suggest
from evalfw.host.host import PluginHost
from evalfw.names import shown, unprintable
from evalfw.plugin.choices import ComponentChoice

DEFAULT_OUTPUT_DIR = "runs"
SYSTEM_GLOB_KEY = "*"


def load_config(path: str | os.PathLike[str], overrides: Iterable[str | Override] = (),
                host: PluginHost | None = None, *,
                trusted_plugin_dirs: Collection[Path] | None = None,
                ) -> tuple[ExperimentConfig, PluginHost]:
    """Read, override and validate the config at ``path``; return it and its plugin host.

    ``host``: use this plugin host instead of building one (the config's ``plugin_dirs`` are
    loaded into it). ``trusted_plugin_dirs``: when given, a ``plugin_dirs`` entry outside it is
    an error instead of code to load (``verify`` re-running a record someone else made).
    """
    shown = os.fspath(path)
    locations = Locations(shown)
    data = parse_yaml(read_config_text(Path(path), shown), locations)
    return validate_config(data, overrides=overrides, host=host, locations=locations,
                           config_path=Path(path), trusted_plugin_dirs=trusted_plugin_dirs)


def validate_config(
    data: Any,
    *,
    overrides: Iterable[str | Override] = (),
    host: PluginHost | None = None,
    locations: Locations | None = None,
    config_path: Path | None = None,
    base_dir: Path | None = None,
    trusted_plugin_dirs: Collection[Path] | None = None,
) -> tuple[ExperimentConfig, PluginHost]:
    """Validate config ``data`` (a mapping as YAML would give). Relative paths in it resolve
    against ``base_dir`` (default: the config file's directory, else the current one)."""
    loc = locations or Locations("<config>")
    ovs = tuple(o if isinstance(o, Override) else parse_override(o) for o in overrides)
    if data is None:
        raise ConfigError(f"{loc.source}: the config is empty; see `evalfw schema` for its keys")
    if not isinstance(data, Mapping):
        raise loc.error((), "the top level of a config must be a mapping (experiment:, "
                            f"test_sets:, metrics:, ...), not a {type(data).__name__}")
    data = apply_overrides(copy.deepcopy(dict(data)), ovs, loc)
    _check_printable(data, (), loc)
    check_schema(static_schema(), data, loc)
    check_experiment_name(data["experiment"])
    if base_dir is None:
        base_dir = config_path.parent if config_path is not None else Path(".")
    paths = PathResolver(loc, base_dir)

    plugin_dirs = tuple(paths.directory(d, ("plugin_dirs", i), "plugin directory")
                        for i, d in enumerate(data.get("plugin_dirs", ())))
    if trusted_plugin_dirs is not None:
        trusted = {Path(os.path.realpath(d)) for d in trusted_plugin_dirs}
        for i, d in enumerate(plugin_dirs):
            if Path(os.path.realpath(d)) not in trusted:
                raise loc.error(("plugin_dirs", i), f"the run loads plugins from {d}; verify "
                                "runs no code that a record names: if you trust that code, "
                                f"pass --plugins-dir {d}")
    requirements = parse_requirements(data.get("requires", ()), loc)
    if host is None:
        host = PluginHost.create(plugin_dirs=plugin_dirs)
    else:  # the caller's host: add the config's plugin directories it has not loaded yet
        loaded = {Path(p.path).parent.resolve() for p in host.plugins if p.path}
        for d in plugin_dirs:
            if d.resolve() not in loaded:
                host.load_plugin_dir(d)
    check_requirements(requirements, loc, host)

    for i, metric in enumerate(data["metrics"]):
        choices.check_metric(host, metric, ("metrics", i), loc)
    for i, ts in enumerate(data["test_sets"]):
        if "tokenizer" in ts:
            choices.check_tokenizer(host, ts["tokenizer"], ("test_sets", i, "tokenizer"), loc)
    reports = data.setdefault("reports", ["table"])
    choices.check_reports(host, reports, loc)
    # the default is the built-in checks that need no extra, written down and hashed: what a
    # config computes never depends on the check plugins or extras installed
    checks = data.setdefault("checks", list(DEFAULT_CHECKS))
    checks = [] if checks == "none" else checks
    choices.check_checks(host, checks, loc)
    data.setdefault("on_flag", "keep")
    # where jobs run changes no number: kept out of the hashed config, named in the record
    executor = data.pop("executor", None)
    if executor is not None:
        choices.check_executor(host, executor, loc)
    _unique(data["metrics"], "metrics", "metric", loc)
    _unique(data["test_sets"], "test_sets", "test set", loc)
    _check_drilldown_metric(data, loc)
    for m in data["metrics"]:  # what the metric would use anyway, written down and hashed
        for key, value in choices.metric_defaults(host, m).items():
            m.setdefault(key, value)
        m.setdefault("level", ["corpus"])
    metrics = tuple(_metric(m) for m in data["metrics"])

    paths.set_data_root(data.get("data_root"))
    test_sets = tuple(_test_set(ts, ("test_sets", i), paths)
                      for i, ts in enumerate(data["test_sets"]))
    choices.check_resolvable(host, metrics, test_sets, loc)
    _check_labels(data, test_sets, loc)
    bucket_labels = _bucket_labels(data.get("significance", {}), paths)

    output_dir = (paths.join(data["output_dir"], ("output_dir",)) if "output_dir" in data
                  else Path(DEFAULT_OUTPUT_DIR))
    if output_dir.exists() and not output_dir.is_dir():
        raise loc.error(("output_dir",), f"{output_dir} exists and is not a directory")
    data.setdefault("schema_version", 1)
    data.setdefault("seed", 12345)
    config = ExperimentConfig(
        path=config_path, sha256=config_sha256(data), experiment=data["experiment"],
        seed=data["seed"], output_dir=output_dir, data_root=paths.data_root,
        plugin_dirs=plugin_dirs, requires=tuple(data.get("requires", ())),
        test_sets=test_sets, metrics=metrics,
        reports=tuple(_choice(r) for r in reports),
        significance=frozen(data.get("significance", {})), overrides=ovs, raw=frozen(data),
        executor=_choice(executor) if executor is not None else None,
        system_labels=frozen(data.get("system_labels", {})),
        checks=tuple(_choice(c) for c in checks), on_flag=data["on_flag"],
        bucket_labels=bucket_labels,
        meta_evaluation=frozen(data.get("meta_evaluation", {})),
    )
    return config, host


def _check_printable(value: Any, path: KeyPath, loc: Locations) -> None:
    """Refuse a key or string of the parsed config holding a character a terminal would not
    show as itself: YAML's escapes (``"\\e]0;TITLE\\a"``, ``"\\u202e"``, ``"\\0"``) make
    them from plain text, which the check of the raw text lets through."""
    stack: list[tuple[Any, KeyPath]] = [(value, path)]
    while stack:
        item, where = stack.pop()
        if isinstance(item, str):
            bad = unprintable(item)
            if bad is not None:
                raise loc.error(where, f"{shown(item, True)} holds the character {bad} (a "
                                       "control, format or bidi character, written as an escape "
                                       "in the YAML); names, paths and options are printable "
                                       "text")
        elif isinstance(item, Mapping):
            for key, sub in item.items():
                if isinstance(key, str) and unprintable(key) is not None:
                    raise loc.error(where, f"the key {shown(key, True)} holds the character "
                                           f"{unprintable(key)}; keys are printable text")
                stack.append((sub, (*where, key)))
        elif isinstance(item, list):
            stack.extend((sub, (*where, i)) for i, sub in enumerate(item))


def _check_labels(data: Mapping[str, Any], test_sets: tuple[TestSetConfig, ...],
                  loc: Locations) -> None:
    """Display labels tell things apart as their names do: one label per metric entry, each
    of ``system_labels`` naming a system of some test set."""
    seen: dict[str, int] = {}
    for i, m in enumerate(data["metrics"]):
        shown_as = m.get("label", m["name"])
        if shown_as in seen:
            raise loc.error(("metrics", i, "label" if "label" in m else "name"), (
                f"metrics[{i}] would be shown as '{shown_as}', as metrics[{seen[shown_as]}] "
                "is; give each metric its own label"))
        seen[shown_as] = i
    systems = {s for ts in test_sets for s in ts.system_names}
    for name in data.get("system_labels", {}):
        if name not in systems:
            raise loc.error(("system_labels", name), (
                f"'{name}' is not a system of any test set{suggest(name, systems)}; "
                "system_labels names systems by their names"))


def _bucket_labels(block: Mapping[str, Any], paths: PathResolver) -> Path | None:
    """``significance.buckets.file`` (per-segment labels), resolved like a data path."""
    buckets = block.get("buckets")
    if not isinstance(buckets, Mapping) or not isinstance(buckets.get("file"), str):
        return None
    where = ("significance", "buckets", "file")
    found = paths.files(buckets["file"], where, "the bucket labels")
    if len(found) != 1:
        raise paths.loc.error(where, f"the pattern {buckets['file']!r} matches {len(found)} "
                                     "files; bucket labels come from one file")
    return found[0]


def _unique(items: list[Mapping[str, Any]], key: str, what: str, loc: Locations) -> None:
    seen: dict[str, int] = {}
    for i, item in enumerate(items):
        if item["name"] in seen:
            raise loc.error((key, i, "name"), (
                f"{what} name '{item['name']}' is used twice (also {key}[{seen[item['name']]}]); "
                f"{what} names must be unique"))
        seen[item["name"]] = i


def _check_drilldown_metric(data: Mapping[str, Any], loc: Locations) -> None:
    """``significance.drilldown_metric`` names one of the config's metrics entries."""
    name = data.get("significance", {}).get("drilldown_metric")
    names = [m["name"] for m in data["metrics"]]
    if name is not None and name not in names:
        raise loc.error(("significance", "drilldown_metric"), (
            f"'{name}' is not a metrics entry{suggest(name, names)}; choose from: "
            f"{', '.join(names)}"))


def _choice(value: Any) -> ComponentChoice:
    if isinstance(value, str):
        return ComponentChoice(value)
    return ComponentChoice(value["name"], frozen({k: v for k, v in value.items() if k != "name"}))


def _metric(metric: Mapping[str, Any]) -> MetricConfig:
    level = metric.get("level", ["corpus"])
    levels = (level,) if isinstance(level, str) else tuple(level)
    options = {k: copy.deepcopy(v) for k, v in choices.metric_options(metric).items()}
    return MetricConfig(name=metric["name"], metric=metric.get("metric", DEFAULT_METRIC),
                        levels=levels, options=frozen(options), label=metric.get("label"))


def _test_set(ts: Mapping[str, Any], path: KeyPath, paths: PathResolver) -> TestSetConfig:
    what = f"test set '{ts['name']}'"
    if "mqm" in ts:
        return _mqm_test_set(ts, path, paths, what)
    for key in ("references", "systems"):
        if key not in ts:
            raise paths.loc.error(path, f"{what} has no {key}; give references and systems "
                                        "(files), or mqm (an MQM file holding the texts)")
    source = None
    if "source" in ts:
        source = paths.files(ts["source"], (*path, "source"), f"the source of {what}")
        if len(source) != 1:
            raise paths.loc.error((*path, "source"), (
                f"the source pattern {ts['source']!r} matches {len(source)} files; "
                "a test set has one source file"))
    refs_in = ts["references"]
    ref_items: list[tuple[KeyPath, str]] = (
        [((*path, "references"), refs_in)] if isinstance(refs_in, str)
        else [((*path, "references", j), r) for j, r in enumerate(refs_in)])
    references: list[Path] = []
    for where, text in ref_items:
        for ref in paths.files(text, where, f"the references of {what}"):
            if ref in references:
                raise paths.loc.error(where, f"reference file {ref} is listed twice in {what}")
            references.append(ref)
    systems = _named_files(ts["systems"], (*path, "systems"), paths, what, "system")
    scores = []
    for name, block in ts.get("segment_scores", {}).items():
        where = (*path, "segment_scores", name, "files")
        files = _named_files(block["files"], where, paths, what, f"scores '{name}' of system")
        missing = [s for s in systems if s not in files]
        extra = [s for s in files if s not in systems]
        if missing or extra:
            raise paths.loc.error(where, (
                f"scores '{name}' must have one file per system of {what}"
                + (f"; missing: {', '.join(missing)}" if missing else "")
                + (f"; not a system: {', '.join(extra)}" if extra else "")))
        scores.append((name, block.get("column"), tuple((s, files[s]) for s in systems)))
    judgements = _judgements(ts, path, paths, what, ())
    human = _human_systems(ts, path, paths, what, list(systems))
    documents = _documents(ts, path, paths, what)
    return TestSetConfig(
        name=ts["name"], langs=ts["langs"], source=source[0] if source else None,
        references=tuple(references), systems=tuple(systems.items()),
        tokenizer=copy.deepcopy(ts.get("tokenizer")), segment_scores=tuple(scores),
        documents=documents, strata=ts.get("strata"),
        judgements=judgements, human_systems=human,
    )


def _documents(ts: Mapping[str, Any], path: KeyPath, paths: PathResolver,
               what: str) -> Path | None:
    """The test set's documents file, if it names one."""
    if "documents" in ts:
        found = paths.files(ts["documents"], (*path, "documents"), f"the documents of {what}")
        if len(found) != 1:
            raise paths.loc.error((*path, "documents"), (
                f"the pattern {ts['documents']!r} matches {len(found)} files; a test set has "
                "one documents file"))
        return found[0]
    if "strata" in ts:
        raise paths.loc.error((*path, "strata"), (
            f"strata are a column of the documents file, and {what} names none; add "
            "documents: FILE (a TSV with doc_id and this column)"))
    return None


def _one_file(text: str, where: KeyPath, paths: PathResolver, what: str) -> Path:
    found = paths.files(text, where, what)
    if len(found) != 1:
        raise paths.loc.error(where, f"{text!r} matches {len(found)} files; {what} is one file")
    return found[0]


def _mqm_test_set(ts: Mapping[str, Any], path: KeyPath, paths: PathResolver,
                  what: str) -> TestSetConfig:
    """A test set whose texts are an MQM file's (``mqm:``)."""
    from evalfw.errors import InputError
    from evalfw.io.judgements import mqm_systems

    for key in ("references", "systems", "source", "segment_scores"):
        if key in ts:
            raise paths.loc.error((*path, key), (
                f"{what} takes its texts from its MQM file (mqm); remove {key} (or mqm)"))
    block = ts["mqm"]
    where = (*path, "mqm")
    file = _one_file(block["file"], (*where, "file"), paths, f"the MQM file of {what}")
    names = block.get("names")
    try:
        found = mqm_systems(file, names)
    except InputError as exc:
        raise paths.loc.error((*where, "file"), str(exc)) from None
    reference = block["reference"]
    if reference not in found:
        raise paths.loc.error((*where, "reference"), (
            f"system '{reference}' is not in {file}{suggest(reference, list(found))}; its "
            f"systems are: {', '.join(found)}"))
    chosen = block.get("systems") or [s for s in found if s != reference]
    for k, name in enumerate(chosen):
        if name not in found or name == reference:
            why = "is the reference" if name == reference else \
                f"is not in {file}{suggest(name, list(found))}"
            raise paths.loc.error((*where, "systems", k), f"system '{name}' {why}")
    name = block.get("judgements", "mqm")
    own = JudgementConfig(name, "mqm", file, frozen({"weights": block.get("weights"),
                                                     "names": names}), False, "MQM points")
    return TestSetConfig(
        name=ts["name"], langs=ts["langs"], source=file, references=(file,),
        systems=tuple((s, file) for s in chosen), tokenizer=copy.deepcopy(ts.get("tokenizer")),
        documents=_documents(ts, path, paths, what), strata=ts.get("strata"),
        mqm=MqmTexts(file, reference, name),
        judgements=_judgements(ts, path, paths, what, (own,)),
        human_systems=_human_systems(ts, path, paths, what, chosen))


#: options of a judgements block that the reader takes, by format
_READ_OPTIONS = {"mqm": ("weights", "names"),
                 "segments": ("names", "delimiter", "header", "system", "segment", "score",
                              "missing"),
                 "systems": ("names", "delimiter", "header", "system", "score", "missing")}


def _judgements(ts: Mapping[str, Any], path: KeyPath, paths: PathResolver, what: str,
                own: tuple[JudgementConfig, ...]) -> tuple[JudgementConfig, ...]:
    out = list(own)
    for name, block in ts.get("human", {}).items():
        where = (*path, "human", name)
        if any(j.name == name for j in out):
            raise paths.loc.error(where, f"judgements '{name}' are the MQM file's of {what}; "
                                         "give these another name")
        fmt = block["format"]
        unknown = [k for k in block if k not in ("format", "file", "higher_is_better", "unit",
                                                 *_READ_OPTIONS[fmt])]
        if unknown:
            raise paths.loc.error((*where, unknown[0]), (
                f"'{unknown[0]}' is not an option of {fmt} judgements; they take: "
                f"{', '.join(('file', 'unit', *_READ_OPTIONS[fmt]))}"))
        file = _one_file(block["file"], (*where, "file"), paths, f"judgements '{name}'")
        options = {k: copy.deepcopy(block[k]) for k in _READ_OPTIONS[fmt] if k in block}
        if fmt == "mqm":
            if block.get("higher_is_better", False):
                raise paths.loc.error((*where, "higher_is_better"), (
                    "MQM points count errors: lower is better; remove higher_is_better"))
            out.append(JudgementConfig(name, fmt, file, frozen(options), False,
                                       block.get("unit", "MQM points")))
        else:
            out.append(JudgementConfig(name, fmt, file, frozen(options),
                                       bool(block.get("higher_is_better", True)),
                                       block.get("unit", "human score")))
    return tuple(out)


def _human_systems(ts: Mapping[str, Any], path: KeyPath, paths: PathResolver, what: str,
                   systems: list[str]) -> tuple[str, ...]:
    for k, name in enumerate(ts.get("human_systems", ())):
        if name not in systems:
            raise paths.loc.error((*path, "human_systems", k), (
                f"'{name}' is not a system of {what}{suggest(name, systems)}"))
    return tuple(ts.get("human_systems", ()))


def _named_files(spec: Mapping[str, str], path: KeyPath, paths: PathResolver, what: str,
                 role: str) -> dict[str, Path]:
    """Name -> file of a ``systems``-like mapping: the key ``*`` takes a glob and names the
    files by stem; any other key names one file."""
    out: dict[str, Path] = {}
    for name, text in spec.items():
        where = (*path, name)
        found = paths.files(text, where, f"{role} '{name}' of {what}")
        if name == SYSTEM_GLOB_KEY:
            named = [(p.stem, p) for p in found]  # printable: paths.files checked the names
        elif len(found) == 1:
            named = [(name, found[0])]
        else:
            raise paths.loc.error(where, (
                f"{text!r} matches {len(found)} files but names one {role.split()[0]}; use "
                f"the key '{SYSTEM_GLOB_KEY}' to name them by file stem"))
        for key, file in named:
            if key in out:
                raise paths.loc.error(where, (
                    f"{role.split()[0]} name '{key}' is used twice in {what} ({out[key]} "
                    f"and {file}); rename one file or name them explicitly"))
            out[key] = file
    return out
