"""Bounds of two par searches of one deal joined (issue 22.5, "Search longer"): a later
search never widens what an earlier one found, and where the two meet par is proven."""

from __future__ import annotations

from dataclasses import replace

import pytest

from eightoff import oracle as oracle_module
from eightoff.counts import MoveCount
from eightoff.deals import deal
from eightoff.oracle import Oracle
from eightoff.position import Move, Position
from eightoff.rules import preset
from eightoff.solver import DEFAULT_LIMITS, Solved, solve
from eightoff.solver.optimal import TABLE_LIMITS, Par, ParLimits, joined


def moves_of(position: Position) -> tuple[Move, ...]:
    found = solve(position, DEFAULT_LIMITS)
    assert isinstance(found, Solved)
    return found.moves


def bounds(lower: int, length: int | None, moves: tuple[Move, ...] = ()) -> Par:
    return Par(
        MoveCount.PLAYER, moves, length, lower, False, False, 1000, 20.0, "time limit reached"
    )


A = (Move.parse("1a"),)
B = (Move.parse("2a"), Move.parse("3b"))


def test_the_higher_lower_bound_and_the_shorter_solution_are_kept() -> None:
    kept, later = bounds(30, 40, A), replace(bounds(33, 44, B), seconds=120.0)
    both = joined(kept, later)
    assert (both.lower_bound, both.length, both.moves, both.optimal) == (33, 40, A, False)
    assert both.seconds == 120.0  # the later search's: the one the words name
    assert joined(kept, bounds(0, None)) == replace(bounds(30, 40, A), states=1000)
    tie = joined(kept, bounds(31, 40, B))
    assert (tie.lower_bound, tie.moves) == (31, B)  # the later solution where they tie


def test_where_the_bounds_meet_par_is_proven_with_the_kept_solution() -> None:
    met = joined(bounds(30, 40, A), bounds(40, 45, B))
    assert (met.optimal, met.par, met.lower_bound, met.moves, met.reason) == (
        True,
        40,
        40,
        A,
        "",
    )


def test_a_proven_par_or_a_lost_deal_is_never_joined() -> None:
    proven = replace(bounds(40, 40, A), optimal=True, reason="")
    assert joined(proven, bounds(41, 44, B)) == proven
    assert joined(bounds(30, 40, A), proven) == proven
    lost = replace(bounds(0, None), lost=True, optimal=True)
    assert joined(bounds(30, 40, A), lost) == lost


def test_the_oracles_longer_search_never_widens_the_tables_bounds(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The table's search leaves bounds 30 to 40; the longer one (six times the time)
    ends with 33 to 44 (its beam found a longer solution): the player is told 33 to 40,
    with the table search's solution, which the rules replay."""
    position = deal(preset("freecell"), 1)
    short = moves_of(position)
    answers = iter(
        [bounds(30, len(short), short), replace(bounds(33, len(short) + 4, ()), seconds=120.0)]
    )
    asked: list[ParLimits] = []

    def fake(p: Position, which: MoveCount, limits: ParLimits) -> Par:
        asked.append(limits)
        return next(answers)

    monkeypatch.setattr(oracle_module, "optimal", fake)
    oracle = Oracle(status_seconds=2.0, hint_seconds=5.0)
    try:
        assert oracle.par_search(position).result().lower_bound == 30
        found = oracle.par_search(position, longer=True).result()
        assert (found.lower_bound, found.length, found.moves) == (33, len(short), short)
        assert asked == [TABLE_LIMITS, replace(TABLE_LIMITS, seconds=120.0)]
        assert oracle.par_search(position, longer=True).result() is found  # searched once
    finally:
        oracle.close()
