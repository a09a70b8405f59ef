"""Shares in the meta-evaluation reports: a share that is not all or nothing never reads as
100 % or 0 %."""

from __future__ import annotations

import pytest

from evalfw.reports._meta import pct


@pytest.mark.parametrize("value,text", [
    (1.0, "100 %"), (0.0, "0 %"), (0.5, "50 %"), (0.7051282051282052, "71 %"),
    (1 - 3 / 41262, "99.99 %"), (0.9999928097494384, "99.999 %"), (0.004, "0.4 %"),
    (1e-12, "0.0000000001 %"), (None, "-"), (float("nan"), "-")])
def test_a_share_is_all_or_nothing_only_when_it_is(value: float | None, text: str) -> None:
    assert pct(value) == text
