"""Build the solver's compiled core; everything else is declared in pyproject.toml."""

from Cython.Build import cythonize
from setuptools import Extension, setup

extensions = [
    Extension(
        "eightoff.solver._core",
        ["src/eightoff/solver/_core.pyx"],
        include_dirs=["src/eightoff/solver"],
        depends=[
            "src/eightoff/solver/core.h",
            "src/eightoff/solver/search.h",
            "src/eightoff/solver/players.h",
            "src/eightoff/solver/deals.h",
            "src/eightoff/solver/replay.h",
        ],
        extra_compile_args=[__import__("os").environ.get("EO_OPT", "-O3")],
    ),
    # the compiled copy of the deal rule for eightoff.deals (the core imports no solver)
    Extension(
        "eightoff._deals",
        ["src/eightoff/_deals.pyx"],
        include_dirs=["src/eightoff/solver"],
        depends=["src/eightoff/solver/deals.h"],
        extra_compile_args=[__import__("os").environ.get("EO_OPT", "-O3")],
    ),
]

setup(ext_modules=cythonize(extensions, language_level=3, quiet=True))
