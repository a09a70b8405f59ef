"""The reporter contract: a reporter renders a run record (``record.json`` as a mapping).

Reporters see only the record, never the data or the engine, so ``evalfw show`` renders a
stored version exactly as ``evalfw run`` did, long after the inputs moved.
"""

from __future__ import annotations

from abc import abstractmethod
from collections.abc import Mapping
from typing import Any, ClassVar

from evalfw.plugin.component import Component


class Reporter(Component):
    """Renders a run record as text (one file, ``report-<name>.<extension>``)."""

    kind = "reporter"
    plural = "reporters"
    extension: ClassVar[str] = "txt"

    @abstractmethod
    def render(self, record: Mapping[str, Any]) -> str:
        """The report text."""


__all__ = ["Reporter"]
