"""The minimum detectable difference: the true difference a two-sided test detects with 80 %
power, (z(1 - alpha/2) + z(0.8)) x se, checked against the normal quantiles and by
simulating the test it describes."""

from __future__ import annotations

import numpy as np
import pytest

from evalfw.analysis.power import detectable


def test_about_2_8_standard_errors_at_0_05():
    assert detectable(1.0, 0.05) == pytest.approx(1.959964 + 0.841621, abs=1e-6)
    assert detectable(0.5, 0.05) == pytest.approx(0.5 * 2.801585, abs=1e-6)
    # a family of 8 tested at 0.05 / 8 each needs a larger difference
    assert detectable(1.0, 0.05, tests=8) == pytest.approx(2.734369 + 0.841621, abs=1e-6)
    assert detectable(1.0, 0.01, power=0.9) == pytest.approx(2.575829 + 1.281552, abs=1e-6)


@pytest.mark.parametrize("alpha,tests", [(0.05, 1), (0.05, 8), (0.01, 1)])
def test_a_difference_of_that_size_is_detected_80_percent_of_the_time(alpha, tests):
    se = 0.7
    mdd = detectable(se, alpha, tests=tests)
    z = np.random.default_rng(1).normal(mdd, se, 40_000)
    threshold = se * -np.quantile(np.random.default_rng(2).normal(0, 1, 2_000_000),
                                  alpha / tests / 2)
    assert np.mean(np.abs(z) >= threshold) == pytest.approx(0.8, abs=0.01)
