"""Build hook for the optional compiled kernels: BLEU counting, chrF statistics, TER edits and
mteval's punctuation rules, sacreBLEU's bootstrap draws (everything else is in pyproject.toml).

``optional=True``: when no C compiler is at hand the install still succeeds and evalfw computes
with numpy or pure Python instead (same numbers, slower); ``evalfw plugins`` says which one is in use.
"""

from setuptools import Extension, setup

setup(
    ext_modules=[
        Extension(
            "evalfw.metrics.bleu.counting._clipcount",
            sources=["evalfw/metrics/bleu/counting/_clipcount.c"],
            optional=True,
            extra_compile_args=["-O3"],
            libraries=["m"],
        ),
        Extension(
            "evalfw.metrics.chrf._chrf",
            sources=["evalfw/metrics/chrf/_chrf.c"],
            optional=True,
            extra_compile_args=["-O3"],
        ),
        Extension(
            "evalfw.metrics.ter._ter",
            sources=["evalfw/metrics/ter/_ter.c"],
            optional=True,
            extra_compile_args=["-O3"],
        ),
        Extension(
            "evalfw.analysis._sacreboot",
            sources=["evalfw/analysis/_sacreboot.c"],
            optional=True,
            extra_compile_args=["-O3"],
        ),
        Extension(
            "evalfw.tokenizers._mteval_rules",
            sources=["evalfw/tokenizers/_mteval_rules.c"],
            optional=True,
            extra_compile_args=["-O3"],
        ),
    ]
)
