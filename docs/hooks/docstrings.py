"""evalfw's docstrings for mkdocstrings: a griffe extension (mkdocs.yml names it).

The docstrings are written for Python's ``help()`` and Sphinx conventions: roles such as
``:class:`evalfw.Metric```, double backquotes and ``.. code-block::`` directives. The site
renders Markdown, so each docstring is translated as griffe loads it (the same translation as
the hook reference, :func:`reference.rest_to_markdown`).
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import griffe

sys.path.insert(0, str(Path(__file__).parent))
from reference import rest_to_markdown  # noqa: E402  (beside this file, not a package)


class SphinxRoles(griffe.Extension):
    """Rewrites every loaded object's docstring from reStructuredText habits to Markdown."""

    def on_object(self, *, obj: griffe.Object, **kwargs: Any) -> None:
        if obj.docstring is not None:
            obj.docstring.value = rest_to_markdown(obj.docstring.value, fields=False)
