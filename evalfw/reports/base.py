"""The reporter contract: a reporter renders a run record (``record.json`` as a mapping).

Reporters see only the record, never the data or the engine, so ``evalfw show`` renders a
stored version exactly as ``evalfw run`` did, long after the inputs moved.
"""

from __future__ import annotations

from abc import abstractmethod
from collections.abc import Mapping
from typing import Any, ClassVar

from evalfw.errors import EvalfwError, PluginError
from evalfw.plugin.component import Component
from evalfw.plugin.guard import escaped


class Reporter(Component):
    """Renders a run record as text (one file, ``report-<name>.<extension>``)."""

    kind = "reporter"
    plural = "reporters"
    extension: ClassVar[str] = "txt"

    @abstractmethod
    def render(self, record: Mapping[str, Any]) -> str:
        """The report text."""

    def text(self, record: Mapping[str, Any]) -> str:
        """:meth:`render`, with a reporter's failure (an exception, an exit, something other
        than text) reported as a plugin error naming the reporter."""
        try:
            out = self.render(record)
        except (EvalfwError, KeyboardInterrupt):
            raise
        except Exception as exc:
            raise PluginError(f"reporter '{self.name}' failed: {type(exc).__name__}: {exc}; "
                              "fix it or choose another --format") from exc
        except BaseException as exc:
            raise escaped(exc, f"rendering the '{self.name}' report") from None
        if not isinstance(out, str):
            raise PluginError(f"reporter '{self.name}' returned {type(out).__name__}, not text; "
                              "a reporter's render() returns a str")
        return out


__all__ = ["Reporter"]
