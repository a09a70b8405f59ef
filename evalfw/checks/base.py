"""The check contract: a component that reads one system's outputs on a test set (with the
source, the references and the language pair) and says which segments are not translations.

A check returns one boolean per segment (``True``: flagged). It must decide each segment from
that segment's texts and the test set alone (the source, the references, the language pair),
never from other systems' outputs: adding a system to a config never changes another system's
flags, and the flags of a system are cached with its statistics. Everything a check receives
is read-only (tuples of strings).
"""

from __future__ import annotations

from abc import abstractmethod
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

from evalfw.plugin.component import Component


@dataclass(frozen=True)
class CheckInput:
    """One system's outputs on one test set, as a check sees them."""

    test_set: str
    system: str
    #: the language pair, ``en-de``: the output should be in the target language
    langs: str
    hypotheses: tuple[str, ...]
    #: the source segments (None when the test set has no source file)
    source: tuple[str, ...] | None
    #: reference streams: ``references[k][i]`` is reference k of segment i
    references: tuple[tuple[str, ...], ...]

    @property
    def source_lang(self) -> str:
        return self.langs.split("-", 1)[0].lower()

    @property
    def target_lang(self) -> str:
        parts = self.langs.split("-", 1)
        return (parts[1] if len(parts) > 1 else parts[0]).lower()

    def __len__(self) -> int:
        return len(self.hypotheses)


class Check(Component):
    """Base of every output check (see the module docstring).

    Class attributes besides a component's: ``label`` (how a summary counts the check's
    flags: ``2 empty``, ``14 wrong language``), ``needs_source`` (a test set without a source
    file skips the check, and the record says so), ``extra`` (the ``evalfw[...]`` extra that
    installs what the check needs; such a check runs only where a config names it, so a
    record never depends on what happens to be installed).
    """

    kind = "check"
    plural = "checks"
    label: ClassVar[str] = ""
    needs_source: ClassVar[bool] = False
    extra: ClassVar[str | None] = None

    @abstractmethod
    def flag(self, segments: CheckInput) -> Sequence[bool]:
        """One boolean per segment of ``segments.hypotheses``: True where the output is
        flagged."""

    @property
    def noun(self) -> str:
        """How summaries count this check's flags (``label``, else the name)."""
        return self.label or self.name

    def unavailable(self) -> str | None:
        """Why the check cannot run in this environment (a package its extra installs is
        missing), or None. Default: None."""
        return None

    @classmethod
    def implementation(cls) -> str | None:
        """The package and version that decide for the check (``py3langid 0.4.0``), recorded
        with its definition; None when the check's own code decides."""
        return None

    def definition(self) -> dict[str, Any]:
        """What the record keeps of the check: name, version, options, label (and
        implementation)."""
        out: dict[str, Any] = {"name": self.name, "version": self.version,
                               "options": dict(self.options), "label": self.noun}
        implementation = self.implementation()
        if implementation:
            out["implementation"] = implementation
        return out


__all__ = ["Check", "CheckInput"]
