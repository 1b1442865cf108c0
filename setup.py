"""Build the solver's compiled core; everything else is declared in pyproject.toml."""

import hashlib
import os
import shutil
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor
from glob import glob
from pathlib import Path

from Cython.Build import cythonize
from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

HERE = Path(__file__).resolve().parent
# -fno-wrapv undoes the -fwrapv that CPython's own build flags (sysconfig's CFLAGS) pass
# to every extension: CPython's C relies on signed overflow wrapping, the core does not
# (UBSan's signed-integer-overflow and shift checks pass the solver's unit tests), and
# gcc makes faster loops of it without (bench/README.md, "Compiler options").
OPT = os.environ.get("EO_OPT", "-O3 -fno-wrapv")


def source_id() -> str:
    """The compiled core's build (eightoff.solver.core_build): the first 12 hex digits of
    the SHA-256 of the sources it is compiled from (its .pyx, every header beside it and
    the copies of the search per variant, fixed_*.c, by name) and of its compile flags
    (OPT), so that the same code built in any checkout is the same build (a kept search
    goes on from another clone's, a survey stores one version) and any change to it is
    another."""
    h = hashlib.sha256(OPT.encode())
    solver = HERE / "src" / "eightoff" / "solver"
    for path in sorted([*solver.glob("*.h"), *solver.glob("fixed_*.c"), solver / "_core.pyx"]):
        h.update(b"\0" + path.name.encode() + b"\0" + path.read_bytes())
    return h.hexdigest()[:12]


extensions = [
    Extension(
        "eightoff.solver._core",
        # and the copies of the search compiled for one variant's rules (fixed.h)
        ["src/eightoff/solver/_core.pyx", *sorted(glob("src/eightoff/solver/fixed_*.c"))],
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

CORE = "eightoff.solver._core"
TRAINING = HERE / "scripts" / "pgo_train.py"


class ProfileGuided(build_ext):
    """Builds the solver's core guided by a profile of its own searches (gcc): compiled
    once instrumented, run on scripts/pgo_train.py (a few seconds), compiled again with
    the counts it left, which lay out its branches and loops for the paths the searches
    take (about 6% less CPU a deal, the same searches: bench/README.md, "Compiler
    options").  EO_PGO=0, another compiler, or any failure of the first two steps (a
    warning says which) gives the plain build."""

    def build_extensions(self) -> None:
        self.check_extensions_list(self.extensions)
        self._compile_in_parallel()
        self.force = True  # the core's second build is newer than its sources: not skipped
        core = next((e for e in self.extensions if e.name == CORE), None)
        for ext in self.extensions:
            if ext is not core:
                self.build_extension(ext)
        if core is None:
            return
        if os.environ.get("EO_PGO", "1") != "0" and self._gcc():
            try:
                self._profile(core)
            except Exception as e:  # any failure gives the plain build
                print(f"warning: the core is built without a profile: {e}", file=sys.stderr)
                core.extra_compile_args = OPT.split()
                core.extra_link_args = []
        self.build_extension(core)

    def _compile_in_parallel(self) -> None:
        """Compile an extension's C files side by side, one per CPU: the core is its
        module and a copy of the search per variant (solver/fixed.h), which one after
        the other took twice as long."""
        serial = self.compiler.compile

        def compile(sources: list[str], *args: object, **kwargs: object) -> list[str]:
            if len(sources) < 2:
                one: list[str] = serial(sources, *args, **kwargs)
                return one
            with ThreadPoolExecutor(os.cpu_count() or 1) as pool:
                parts = pool.map(lambda source: serial([source], *args, **kwargs), sources)
                objects: list[str] = [obj for part in parts for obj in part]
                return objects

        self.compiler.compile = compile

    def _gcc(self) -> bool:
        cc = getattr(self.compiler, "compiler_so", None) or ["?"]
        try:
            out = subprocess.run([cc[0], "--version"], capture_output=True, text=True).stdout
        except OSError:
            return False
        return "Free Software Foundation" in out

    def _profile(self, core: Extension) -> None:
        if not TRAINING.exists():
            raise RuntimeError(f"{TRAINING} is missing")
        profile_dir = Path(self.build_temp).resolve() / "pgo"
        shutil.rmtree(profile_dir, ignore_errors=True)
        profile_dir.mkdir(parents=True)
        generate = [f"-fprofile-generate={profile_dir}", "-fprofile-update=single"]
        core.extra_compile_args = [*OPT.split(), *generate, "-DEO_NO_CLONES"]
        core.extra_link_args = generate
        self.build_extension(core)
        with tempfile.TemporaryDirectory() as tmp:
            # the package's Python with the instrumented core in its place
            shutil.copytree(
                HERE / "src" / "eightoff",
                Path(tmp) / "eightoff",
                ignore=shutil.ignore_patterns("*.so", "*.pyd", "__pycache__"),
            )
            built = Path(self.get_ext_fullpath(CORE))
            shutil.copy2(built, Path(tmp) / "eightoff" / "solver" / built.name)
            for other in self.extensions:  # the others, built just before
                if other is not core:
                    path = Path(self.get_ext_fullpath(other.name))
                    shutil.copy2(path, Path(tmp) / Path(*other.name.split(".")[:-1]) / path.name)
            env = {**os.environ, "PYTHONPATH": tmp}
            subprocess.run([sys.executable, str(TRAINING)], env=env, check=True, timeout=600)
        if not any(profile_dir.rglob("*.gcda")):
            raise RuntimeError("the training left no profile")
        core.extra_compile_args = [
            *OPT.split(),
            f"-fprofile-use={profile_dir}",
            "-fprofile-partial-training",
            "-Wno-missing-profile",
            "-DEO_PROFILE_GUIDED=1",
        ]
        core.extra_link_args = []


setup(
    ext_modules=cythonize(extensions, language_level=3, quiet=True),
    cmdclass={"build_ext": ProfileGuided},
)
