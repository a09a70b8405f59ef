"""Differences between two records' significance sections, each named in full.

A name says where the number lives in words a reader can act on, keyed by what it is about
rather than by list position (lists can differ in length, and a position says nothing)::

    significance[en-de][bleu].paired_bootstrap[OpenNMT].p_value
    significance[en-de][bleu].intervals[Online-B].ci
    significance[en-de][bleu].pairs.paired_ar[Online-B vs OpenNMT].p_adjusted
    significance[en-de][bleu].buckets[<=10].paired_bootstrap[OpenNMT].delta
    significance.settings.samples

Every difference is listed; nothing is capped here (the text output of ``verify`` may
abbreviate, its ``--json`` lists them all).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

#: how a test method is named in a difference
METHOD_NAMES = {"bootstrap": "paired_bootstrap", "ar": "paired_ar"}

Key = Callable[[Mapping[str, Any]], str]


def _number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def _value(path: str, old: Any, new: Any, out: list[str]) -> None:
    """Recursive comparison of plain values (dicts by key, equal-length lists by position)."""
    if old == new:
        return
    if isinstance(old, dict) and isinstance(new, dict):
        for key in [*old, *(k for k in new if k not in old)]:
            _value(f"{path}.{key}", old.get(key), new.get(key), out)
    elif isinstance(old, list) and isinstance(new, list) and len(old) == len(new):
        for i, (a, b) in enumerate(zip(old, new)):
            _value(f"{path}[{i}]", a, b, out)
    else:
        moved = f" ({new - old:+.6g})" if _number(old) and _number(new) else ""
        out.append(f"{path}: {old!r} -> {new!r}{moved}")


def _keyed(path: str, old: list[Any], new: list[Any], key: Key, out: list[str],
           inner: Callable[[str, Any, Any, list[str]], None] = _value) -> None:
    """Lists of dicts matched by ``key``: missing and added entries, then each match."""
    a = {key(x): x for x in old if isinstance(x, Mapping)}
    b = {key(x): x for x in new if isinstance(x, Mapping)}
    for k, item in a.items():
        if k not in b:
            out.append(f"{path}[{k}]: missing in the re-run")
        else:
            inner(f"{path}[{k}]", item, b[k], out)
    out.extend(f"{path}[{k}]: computed now but not recorded" for k in b if k not in a)


def _by_method(path: str, old: list[Any], new: list[Any], key: Key, out: list[str]) -> None:
    """Comparisons grouped by test method: ``<path>.paired_bootstrap[<key>]``."""
    methods = dict.fromkeys(c.get("method") for c in [*old, *new] if isinstance(c, Mapping))
    for method in methods:
        name = METHOD_NAMES.get(str(method), f"paired_{method}")
        _keyed(f"{path}{name}", [c for c in old if c.get("method") == method],
               [c for c in new if c.get("method") == method], key, out)


def _system(c: Mapping[str, Any]) -> str:
    return str(c.get("system"))


def _pair(c: Mapping[str, Any]) -> str:
    return f"{c.get('system')} vs {c.get('baseline')}"


def _bucket(path: str, old: Any, new: Any, out: list[str]) -> None:
    rest = {k: v for k, v in old.items() if k not in ("intervals", "comparisons")}
    _value(path, rest, {k: v for k, v in new.items() if k not in ("intervals", "comparisons")},
           out)
    _keyed(f"{path}.intervals", old.get("intervals") or [], new.get("intervals") or [],
           _system, out)
    _by_method(f"{path}.", old.get("comparisons") or [], new.get("comparisons") or [],
               _system, out)


def _table(path: str, old: Any, new: Any, out: list[str]) -> None:
    special = ("intervals", "comparisons", "pairs", "buckets")
    _value(path, {k: v for k, v in old.items() if k not in special},
           {k: v for k, v in new.items() if k not in special}, out)
    _keyed(f"{path}.intervals", old.get("intervals") or [], new.get("intervals") or [],
           _system, out)
    _by_method(f"{path}.", old.get("comparisons") or [], new.get("comparisons") or [],
               _system, out)
    _by_method(f"{path}.pairs.", old.get("pairs") or [], new.get("pairs") or [], _pair, out)
    a, b = old.get("buckets"), new.get("buckets")
    if isinstance(a, Mapping) and isinstance(b, Mapping):
        _value(f"{path}.buckets.bucketer", a.get("bucketer"), b.get("bucketer"), out)
        _keyed(f"{path}.buckets", a.get("results") or [], b.get("results") or [],
               lambda r: str(r.get("label")), out, _bucket)
    else:
        _value(f"{path}.buckets", a, b, out)


def significance_differences(a: Mapping[str, Any], b: Mapping[str, Any]) -> list[str]:
    """Every difference between two significance sections (see the module docstring)."""
    out: list[str] = []
    for key in [*a, *(k for k in b if k not in a)]:
        if key == "tables":
            tables_a, tables_b = a.get(key) or [], b.get(key) or []
            # the path is significance[<test set>][<metric>]: _keyed adds the outer brackets
            _keyed("significance", tables_a, tables_b,
                   lambda t: f"{t.get('test_set')}][{t.get('metric')}", out, _table)
        else:
            _value(f"significance.{key}", a.get(key), b.get(key), out)
    return out


__all__ = ["METHOD_NAMES", "significance_differences"]
