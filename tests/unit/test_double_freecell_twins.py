"""Two packs: a card sent home must leave its twin a foundation to follow it.

With the ♦ foundations at Q and 10 and two K♦ out, the first K♦ sent home takes the
only Q; the other K♦ then waits for J♦ and Q♦ on the second foundation, which may lie
under it. The table's auto-move, the solver's and the par search's took such a card for
safe: a winnable position was called lost, a par was one move long, and a par solution
failed its replay.
"""

from __future__ import annotations

import json

from eightoff.boards import parse_board
from eightoff.counts import MoveCount, count
from eightoff.position import Move, Position
from eightoff.solver import Limits, Solved, solve
from eightoff.solver.optimal import ParLimits, optimal

ALL_HOME = {"C": [13, 13], "S": [13, 13], "H": [13, 13]}


def board(columns: list[list[str]], cells: list[str | None], **found: list[int]) -> Position:
    padded = columns + [[]] * (10 - len(columns))
    return parse_board(
        json.dumps(
            {
                "variant": "double-freecell",
                "columns": padded,
                "cells": cells + [None] * (6 - len(cells)),
                "foundations": {**ALL_HOME, **found},
            }
        )
    )


def wins(position: Position, moves: tuple[Move, ...]) -> bool:
    for move in moves:
        position = position.apply(move)
    return position.is_won()


# Q♦ under a K♦, J♦ under the other; every cell full: only the second K♦ sent home first
# uncovers what the second foundation needs
STUCK = board(
    [["QD", "KD"], ["JD", "KD"], ["4H", "6H"], ["4H", "6H"], ["5H", "7H"], ["5H", "7H"],
     ["QH", "JH"], ["QH", "JH"], ["KH"], ["KH"]],
    ["8H", "8H", "9H", "9H", "TH", "TH"],
    H=[3, 3], D=[12, 10],
)  # fmt: skip


def test_a_card_whose_twin_needs_its_foundation_is_not_sent_home_by_itself() -> None:
    assert not STUCK.is_safe_home(STUCK.columns[0][-1])  # K♦: the other needs the Q
    assert STUCK.safe_auto_move() is None
    # the player sends the right K♦ home (the one on J♦) and wins
    after = STUCK.apply(Move.parse("2h"))
    assert after.is_safe_home(after.columns[1][-1])  # J♦: both ♦ foundations at 10 or more


def test_the_solver_wins_what_it_called_lost() -> None:
    result = solve(STUCK, Limits(seconds=30))
    assert isinstance(result, Solved) and wins(STUCK, result.moves)


def test_par_sends_the_right_twin_home_in_both_counts() -> None:
    # K♦ in a cell, Q♦ alone, J♦ under the other K♦: 2h 2h 1h ah is four single moves
    tiny = board([["QD"], ["JD", "KD"]], ["KD"], D=[12, 10])
    single = optimal(tiny, MoveCount.SINGLE, ParLimits(seconds=30))
    player = optimal(tiny, MoveCount.PLAYER, ParLimits(seconds=30))
    assert (single.optimal, single.length) == (True, 4)
    assert (player.optimal, player.length) == (True, 1)  # K♦ home; the rest goes by itself
    for par, which in ((single, MoveCount.SINGLE), (player, MoveCount.PLAYER)):
        assert wins(tiny, par.moves) and count(tiny, par.moves).of(which) == par.length


def test_a_par_solution_with_twins_replays() -> None:
    """The compiled search and the engine sent different twins home; the par solution
    failed its replay (exit 70)."""
    twins = board(
        [[], [], [], [], [], ["QD", "KD", "KH", "QD", "KS"],
         ["JS", "QS", "KS", "KH", "KD", "JD", "TD"]],
        [],
        S=[10, 12], H=[12, 12], D=[9, 11],
    )  # fmt: skip
    par = optimal(twins, MoveCount.PLAYER, ParLimits(seconds=30))
    assert par.optimal and wins(twins, par.moves)
    assert count(twins, par.moves).player == par.length
