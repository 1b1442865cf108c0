"""Build the solver's compiled core; everything else is declared in pyproject.toml."""

import hashlib
import os
from glob import glob
from pathlib import Path

from Cython.Build import cythonize
from setuptools import Extension, setup

HERE = Path(__file__).resolve().parent
# -fno-wrapv undoes the -fwrapv that CPython's own build flags (sysconfig's CFLAGS) pass
# to every extension: CPython's C relies on signed overflow wrapping, the core does not
# (UBSan's signed-integer-overflow and shift checks pass the solver's unit tests), and
# gcc makes faster loops of it without (bench/README.md, "Compiler options").
OPT = os.environ.get("EO_OPT", "-O3 -fno-wrapv")


def source_id() -> str:
    """The compiled core's build (eightoff.solver.core_build): the first 12 hex digits of
    the SHA-256 of the sources it is compiled from (its .pyx and every header beside it,
    by name) and of its compile flags (OPT), so that the same code built in any checkout is the
    same build (a kept search goes on from another clone's, a survey stores one version)
    and any change to it is another."""
    h = hashlib.sha256(OPT.encode())
    solver = HERE / "src" / "eightoff" / "solver"
    for path in sorted([*solver.glob("*.h"), solver / "_core.pyx"]):
        h.update(b"\0" + path.name.encode() + b"\0" + path.read_bytes())
    return h.hexdigest()[:12]


extensions = [
    Extension(
        "eightoff.solver._core",
        ["src/eightoff/solver/_core.pyx"],
        include_dirs=["src/eightoff/solver"],
        depends=sorted(glob("src/eightoff/solver/*.h")),  # the C the .pyx includes
        define_macros=[("EO_SOURCE_ID", f'"{source_id()}"')],
        extra_compile_args=OPT.split(),
    ),
    # the compiled copy of the deal rule for eightoff.deals (the core imports no solver)
    Extension(
        "eightoff._deals",
        ["src/eightoff/_deals.pyx"],
        include_dirs=["src/eightoff/solver"],
        depends=["src/eightoff/solver/deals.h"],
        extra_compile_args=OPT.split(),
    ),
    # byte strings looked up by 64-bit keys and joined (eightoff solve's output)
    Extension(
        "eightoff._join",
        ["src/eightoff/_join.pyx"],
        extra_compile_args=OPT.split(),
    ),
]

setup(ext_modules=cythonize(extensions, language_level=3, quiet=True))
