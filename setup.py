"""Build the solver's compiled core; everything else is declared in pyproject.toml."""

from glob import glob

from Cython.Build import cythonize
from setuptools import Extension, setup

extensions = [
    Extension(
        "eightoff.solver._core",
        ["src/eightoff/solver/_core.pyx"],
        include_dirs=["src/eightoff/solver"],
        depends=sorted(glob("src/eightoff/solver/*.h")),  # the C the .pyx includes
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
    # byte strings looked up by 64-bit keys and joined (eightoff solve's output)
    Extension(
        "eightoff._join",
        ["src/eightoff/_join.pyx"],
        extra_compile_args=[__import__("os").environ.get("EO_OPT", "-O3")],
    ),
]

setup(ext_modules=cythonize(extensions, language_level=3, quiet=True))
