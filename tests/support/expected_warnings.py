"""Warnings evalfw gives by design that some tests cause on the way to what they check.

The suite turns every warning into an error (``filterwarnings`` in pyproject.toml). A test
that checks a warning asserts it with ``pytest.warns``; a test that only passes through one
(a config with an nltk metric on short segments, a run with few resamples to stay quick) is
marked with one of these, naming the warning it lets through and nothing else.
"""

from __future__ import annotations

import pytest

#: the nltk family's zero-order warning, word for word NLTK's (a segment or corpus without a
#: match of some order)
nltk_zero_order = pytest.mark.filterwarnings(
    r"ignore:\s*The hypothesis contains 0 counts of \d+-gram overlaps:UserWarning")

#: a significance test that cannot reach alpha with the resamples a quick test asks for
few_resamples = pytest.mark.filterwarnings("ignore::evalfw.errors.ResolutionWarning")
