"""The command line's time limit counts a search's CPU time (``Limits.cpu_time``): a deal
given S seconds gets S seconds of work however busy the machine is, so that a survey run
beside other work stores the same verdicts as one run alone."""

from __future__ import annotations

import os
import sqlite3
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from eightoff.deals import deal
from eightoff.rules import PRESETS
from eightoff.solver import Limits, Unknown, reason_of, solve, solve_deals
from tests.cli import run_cli

RULES = PRESETS["freecell"].with_options(cells=1)
HARD = 1568
"""FreeCell with 1 cell: lost, but only after some 150 million states (minutes of CPU)."""
LIMIT = 0.4
"""Seconds of the search's CPU time."""


@pytest.fixture
def crowded() -> Iterator[None]:
    """This process and four busy programs share one core for the test: a search limited
    by the wall clock gets about a fifth of its seconds as CPU time there."""
    if not hasattr(os, "sched_setaffinity"):
        pytest.skip("needs os.sched_setaffinity (Linux)")
    before = os.sched_getaffinity(0)
    core = min(before)
    busy = [subprocess.Popen([sys.executable, "-c", "while True: pass"]) for _ in range(4)]
    try:
        for p in busy:
            os.sched_setaffinity(p.pid, {core})
        os.sched_setaffinity(0, {core})
        yield
    finally:
        os.sched_setaffinity(0, before)
        for p in busy:
            p.kill()
            p.wait()


def test_a_batch_deal_gets_its_seconds_of_cpu_on_a_crowded_core(crowded: None) -> None:
    block = solve_deals(RULES, HARD, 1, Limits(seconds=LIMIT, states=None, cpu_time=True))
    assert reason_of(block.status[0]) == "time limit reached"
    assert block.seconds[0] >= LIMIT  # the CPU seconds it worked, as a survey stores them


def test_a_position_gets_its_seconds_of_cpu_on_a_crowded_core(crowded: None) -> None:
    t0 = os.times()
    result = solve(deal(RULES, HARD), Limits(seconds=LIMIT, states=None, cpu_time=True))
    cpu = (os.times().user - t0.user) + (os.times().system - t0.system)
    assert isinstance(result, Unknown) and result.reason == "time limit reached"
    assert cpu >= LIMIT * 0.95  # os.times ticks are 1/100 s


def test_a_survey_stores_the_same_verdict_on_a_crowded_core(
    crowded: None, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``eightoff survey --time-limit S`` gives a deal S seconds of CPU: FreeCell 27 with
    1 cell is lost after about 550,000 states (about a CPU second here), and a survey on a
    core shared with four busy programs still proves it so within 3 seconds; by the wall
    clock it got a fifth of that and stored "unknown"."""
    db = tmp_path / "cells.sqlite3"
    code, _, err = run_cli(
        capsys, "survey", "27", "27", "--variant", "freecell", "--cells", "1",
        "--time-limit", "3", "--workers", "1", "--db", str(db), "--no-progress",
    )  # fmt: skip
    assert code == 0, err
    with sqlite3.connect(db) as c:
        assert c.execute("SELECT verdict FROM survey_results").fetchall() == [("lost",)]
