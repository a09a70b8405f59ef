"""Marks for tests of the compiled kernels: a test that compares a kernel with its fallback
skips, saying why, when the kernel is not built (or ``EVALFW_NO_KERNELS=1`` hides it)."""

from __future__ import annotations

import pytest

from evalfw import kernels


def needs_kernel(module: str) -> pytest.MarkDecorator:
    """Skip unless the compiled module ``module`` is built and not hidden."""
    reason = (f"the compiled kernel {module} is not built (or EVALFW_NO_KERNELS=1): this test "
              "checks the kernel itself")
    return pytest.mark.skipif(kernels.built(module) is None, reason=reason)


def native_or_python(module: str) -> pytest.MarkDecorator:
    """Parametrize ``native`` over the kernel (skipped when not built) and the fallback."""
    return pytest.mark.parametrize("native", [
        pytest.param(True, id="kernel", marks=needs_kernel(module)),
        pytest.param(False, id="python"),
    ])


BLEU = "evalfw.metrics.bleu.counting._clipcount"
CHRF = "evalfw.metrics.chrf._chrf"
TER = "evalfw.metrics.ter._ter"
MTEVAL = "evalfw.tokenizers._mteval_rules"
INTL = "evalfw.tokenizers._intl_rules"

__all__ = ["BLEU", "CHRF", "INTL", "MTEVAL", "TER", "native_or_python",
           "needs_kernel"]
