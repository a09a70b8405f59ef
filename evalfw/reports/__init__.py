"""Report rendering from a run record: significance cells and legends shared by the text
reporters (:mod:`evalfw.reports.cells`), and the self-contained HTML report with inline SVG
charts (:mod:`evalfw.reports.html`, :mod:`evalfw.reports.svg`)."""
