"""The solver's core is built guided by a profile of its own searches (setup.py's
ProfileGuided, scripts/pgo_train.py). Should the training stop working, setup.py falls
back to the plain build with a warning that `uv sync` does not show, and every search
would be slower without a word: these tests say so instead."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from eightoff.solver import _core
from tests.compiler import built_by_gcc

ROOT = Path(__file__).resolve().parents[2]


def test_the_training_solve_runs_on_the_core() -> None:
    result = subprocess.run(
        [sys.executable, str(ROOT / "scripts" / "pgo_train.py")],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert result.returncode == 0, result.stderr[-3000:]


def test_the_core_was_built_with_its_profile() -> None:
    if os.environ.get("EO_PGO") == "0":
        pytest.skip("EO_PGO=0 asks for the plain build")
    if not built_by_gcc():
        pytest.skip("the profile-guided build is gcc's")
    assert _core.PROFILE_GUIDED, (
        "the core was built without its profile: run `EO_PGO=1 uv sync --reinstall-package "
        "eightoff -v` and look for setup.py's warning"
    )
