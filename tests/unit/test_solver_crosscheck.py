"""Our verdicts against Freecell Solver's, on the same deals.

A wrong "lost" is the one mistake the solver must never make, and nothing in our own
code can catch it (a solution can be replayed, a proof of loss cannot).  So an
independent solver checks it: Freecell Solver 5 (the Debian library, through the PyPI
binding ``freecell_solver``) solving the board text of each deal.  Skipped when the
library is not installed.
"""

from __future__ import annotations

import os

import pytest

from eightoff.boards import format_fcs
from eightoff.deals import deal
from eightoff.solver import Limits, solve

FCS_GAMES = {
    "eightoff": "eight_off",
    "bakers-game": "bakers_game",
    "seahaven-towers": "seahaven_towers",
}
FCS_SOLVED, FCS_LOST = 0, 1


@pytest.fixture(scope="module")
def fc_solve() -> object:
    """The binding's solver class; it loads libfreecell-solver.so.0 when first made, so
    one is made here. Without the library the test skips (one line saying how to get
    it), except in CI, where .ci/run installs it and its absence is a failure."""
    try:
        from freecell_solver import FreecellSolver

        FreecellSolver()
        return FreecellSolver
    except (ImportError, OSError) as e:  # the binding, or libfreecell-solver.so.0
        if os.environ.get("CI"):
            raise
        pytest.skip(
            "Freecell Solver's library is not installed (apt-get install libfreecell-solver0):"
            f" {str(e).splitlines()[0]}"
        )


@pytest.mark.parametrize(
    ("variant", "deals"),
    [
        ("eightoff", range(400, 700)),
        ("bakers-game", range(1, 81)),
        ("seahaven-towers", range(1, 81)),
    ],
)
def test_verdicts_agree_with_freecell_solver(variant: str, deals: range, fc_solve: object) -> None:
    solver = fc_solve()  # type: ignore[operator]
    solver.input_cmd_line(["--game", FCS_GAMES[variant], "-l", "te"])
    lost = 0
    for number in deals:
        position = deal(variant, number)
        ours = solve(position, Limits(seconds=30))
        theirs = solver.solve_board(format_fcs(position))
        solver.recycle()
        assert ours.verdict != "unknown", (variant, number)
        if ours.verdict == "lost":
            lost += 1
            assert theirs != FCS_SOLVED, f"{variant} #{number}: we say lost, fc-solve solves it"
        else:
            assert theirs != FCS_LOST, f"{variant} #{number}: fc-solve proves it lost"
    assert lost > 0  # each range holds lost deals, so both verdicts are exercised
