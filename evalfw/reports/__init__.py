"""Report rendering from a run record: significance cells and legends shared by the text
reporters (:mod:`evalfw.reports._cells`), and the self-contained HTML report with inline SVG
charts (:mod:`evalfw.reports._html`, :mod:`evalfw.reports._svg`)."""
