"""Build hook for the optional compiled kernels: BLEU counting, chrF statistics, TER edits,
mteval's and intl's punctuation rules and the meta-evaluation's pair loops (everything else is
in pyproject.toml).

``optional=True``: when no C compiler is at hand the install still succeeds and evalfw computes
with numpy or pure Python instead (same numbers, slower); ``evalfw plugins`` says which one is in use.
"""

import sys

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext


class BuildKernels(build_ext):
    """setuptools' ``build_ext``, with one warning at the end that names every kernel that
    failed to compile and what computes instead (pip shows it with ``-v``; without ``-v`` the
    first ``evalfw`` command that computes says the same)."""

    def run(self):
        self.failed = []
        super().run()
        if self.failed:
            sys.stderr.write(
                "\nWARNING: evalfw's compiled kernels could not be built: "
                + ", ".join(self.failed)
                + ".\nevalfw installs and computes the same numbers without them, more "
                "slowly (Python and numpy). Install a C compiler and Python's headers, then "
                "reinstall evalfw to build them; 'evalfw plugins' lists which are compiled.\n\n")

    def build_extension(self, ext):
        try:
            super().build_extension(ext)
        except Exception:
            self.failed.append(ext.name)
            raise  # setuptools skips an optional extension that fails, with its own message


setup(
    cmdclass={"build_ext": BuildKernels},
    ext_modules=[
        Extension(
            "evalfw.metrics.bleu.counting._clipcount",
            sources=["evalfw/metrics/bleu/counting/_clipcount.c"],
            depends=["evalfw/metrics/bleu/counting/_sacrebleu_formula.h"],
            optional=True,
            extra_compile_args=["-O3", "-ffp-contract=off"],
            libraries=["m"],
        ),
        Extension(
            "evalfw.metrics.chrf._chrf",
            sources=["evalfw/metrics/chrf/_chrf.c"],
            depends=["evalfw/metrics/chrf/_chrf_count.h", "evalfw/metrics/chrf/_chrf_refs.h"],
            optional=True,
            # no fused multiply-add: sentence()'s F-score rounds every step as Python does
            extra_compile_args=["-O3", "-ffp-contract=off"],
        ),
        Extension(
            "evalfw.metrics.ter._ter",
            sources=["evalfw/metrics/ter/_ter.c"],
            optional=True,
            extra_compile_args=["-O3"],
        ),
        Extension(
            "evalfw.analysis.meta._metakernel",
            sources=["evalfw/analysis/meta/_metakernel.c"],
            optional=True,
            # no fused multiply-add: values are rounded step by step as numpy rounds them
            extra_compile_args=["-O3", "-ffp-contract=off"],
        ),
        Extension(
            "evalfw.tokenizers._mteval_rules",
            sources=["evalfw/tokenizers/_mteval_rules.c"],
            optional=True,
            extra_compile_args=["-O3"],
        ),
        Extension(
            "evalfw.tokenizers._intl_rules",
            sources=["evalfw/tokenizers/_intl_rules.c"],
            optional=True,
            extra_compile_args=["-O3"],
        ),
    ]
)
