"""The reporter contract: a reporter renders a run record (``record.json`` as a mapping).

Reporters see only the record, never the data or the engine, so ``evalfw show`` renders a
stored version exactly as ``evalfw run`` did, long after the inputs moved.
"""

from __future__ import annotations

from abc import abstractmethod
from collections.abc import Mapping
from pathlib import Path
from typing import Any, ClassVar

from evalfw.errors import EvalfwError, PluginError
from evalfw.plugin.component import Component
from evalfw.plugin.guard import escaped


class Reporter(Component):
    """Renders a run record as text (one file, ``report-<name>.<extension>``).

    A reporter that sends a run somewhere else (a tracking server) sets ``writes_file`` to
    false and implements :meth:`publish`, which ``evalfw run`` calls once the version is
    stored, so it can send the record and the other reports as they are on disk.
    """

    kind = "reporter"
    plural = "reporters"
    extension: ClassVar[str] = "txt"
    #: whether ``evalfw run`` stores ``report-<name>.<extension>`` in the version directory
    writes_file: ClassVar[bool] = True
    #: True for a format for programs (JSON), which escapes what it must itself: it renders
    #: the record as it is; every other reporter gets the record with its strings as
    #: :func:`evalfw.names.shown` prints them (no control or bidi character reaches a
    #: terminal or a report raw)
    machine_readable: ClassVar[bool] = False

    def publish(self, version_dir: Path, record: Mapping[str, Any]) -> str | None:
        """Send the stored version somewhere; returns a note for the user (or None).
        Called by ``evalfw run`` after storing; the default sends nothing."""
        return None

    @abstractmethod
    def render(self, record: Mapping[str, Any]) -> str:
        """The report text."""

    def text(self, record: Mapping[str, Any]) -> str:
        """:meth:`render`, with a reporter's failure (an exception, an exit, something other
        than text) reported as a plugin error naming the reporter."""
        if not self.machine_readable:
            from evalfw.names import printable_data

            record = printable_data(record)
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
