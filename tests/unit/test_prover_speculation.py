"""Speculation (eightoff.solver.prover.Prover.speculate): once it has run from a position, the
verdict after any move from there is known without a search."""

from __future__ import annotations

import threading

import pytest

from eightoff.deals import deal
from eightoff.game import Game
from eightoff.position import Kind, Position
from eightoff.solver import Limits, Result, Unknown, solve
from eightoff.solver.prover import Prover, children
from tests.sketch import make
from tests.unit.test_solver import exhausted, replay

PASSES = (Limits(seconds=0.05), Limits(seconds=10))


class Counting:
    """The real solver, counting its calls."""

    def __init__(self) -> None:
        self.calls = 0
        self.lock = threading.Lock()

    def __call__(self, position: Position, limits: Limits) -> Result:
        with self.lock:
            self.calls += 1
        return solve(position, limits)


def midgame(variant: str, number: int, turns: int) -> Position:
    """A position some turns into a game that follows a solution."""
    game = Game(deal(variant, number))
    prover = Prover()
    for _ in range(turns):
        game.play(prover.verdict(game.position).moves[0])  # with the safe auto-moves
    return game.position


@pytest.mark.parametrize(
    ("variant", "number", "turns"),
    [("eightoff", 11, 0), ("eightoff", 12, 20), ("freecell", 11, 0), ("freecell", 12, 15)],
)
def test_after_speculation_every_move_is_answered_from_memory(
    variant: str, number: int, turns: int
) -> None:
    solver = Counting()
    prover = Prover(solver=solver)
    start = midgame(variant, number, turns)
    assert prover.verdict(start).verdict == "solved"
    done = prover.speculate(start, PASSES)
    assert done.complete and done.unsettled == 0
    assert done.children == len(children(start)) > 1
    calls = solver.calls
    for move in start.legal_moves():
        for auto_move in (True, False):  # the player's auto-move setting
            game = Game(start, auto_move=auto_move)
            game.play(move)
            answer = prover.verdict(game.position, previous=start)
            assert answer.source != "search", (move, auto_move)
            if answer.moves:  # a solution known from there wins
                assert replay(game.position, answer.moves).is_won()
    assert solver.calls == calls  # not one search more
    assert prover.stats["search"] == 1


def test_a_reversible_move_inherits_the_solution_without_a_search() -> None:
    """Eight Off's deal has four cards in cells: one that may go to a column may go
    back (deal 11: two of them)."""
    solver = Counting()
    prover = Prover(solver=solver)
    start = deal("eightoff", 11)
    assert prover.verdict(start).verdict == "solved"
    # only the children that need a search call the solver
    done = prover.speculate(start, PASSES)
    assert done.inherited > 0
    assert solver.calls == 1 + done.searched
    to_columns = [
        m
        for m in start.legal_moves()
        if m.source.kind is Kind.CELL and m.target.kind is Kind.COLUMN
    ]
    assert to_columns
    for move in to_columns:
        raw = start.apply(move)
        answer = prover.verdict(raw)
        assert answer.source == "line" and answer.verdict == "solved"
        assert replay(raw, answer.moves).is_won()


def test_after_a_lost_position_every_child_is_lost_without_a_search() -> None:
    start = make("eightoff", ["*"] * 8, cells=["*"] * 8)
    assert exhausted(start) is True
    solver = Counting()
    prover = Prover(solver=solver)
    assert prover.verdict(start).verdict == "lost"
    done = prover.speculate(start, PASSES)
    assert done.complete and done.searched == 0
    assert done.inherited == done.children > 0
    assert solver.calls == 1
    for child in children(start):
        assert prover.verdict(child.after).verdict == "lost"
        assert exhausted(child.after) is True


def test_stop_ends_speculation_before_its_next_search() -> None:
    """A request that arrives while a speculative search runs: that search finishes,
    no other starts."""
    requested = threading.Event()

    def solver(position: Position, limits: Limits) -> Result:
        requested.set()  # a real request arrives during the first search
        return solve(position, limits)

    prover = Prover(solver=solve)
    start = deal("freecell", 21)
    prover.verdict(start)
    prover._solver = solver  # speculation's searches from now on
    done = prover.speculate(start, PASSES, stop=requested.is_set)
    assert not done.complete
    assert done.searched == 1
    assert done.unsettled > 0
    assert prover.speculated["stopped"] == 1
    again = prover.speculate(start, PASSES)  # resumed later: what was settled stays
    assert again.complete and again.known >= 1


def test_a_board_left_unknown_is_searched_longer_and_its_loss_inherited() -> None:
    """A position the status check left unknown: the deeper search proves it lost, and
    every position after it is lost without a search."""
    start = make("eightoff", ["*"] * 8, cells=["*"] * 8)
    calls: list[float | None] = []

    def solver(position: Position, limits: Limits) -> Result:
        calls.append(limits.seconds)
        if limits.seconds is not None and limits.seconds < 30:
            return Unknown(1, 0.0)  # too short to decide
        return solve(position, limits)

    prover = Prover(Limits(seconds=3), solver=solver)
    assert prover.verdict(start).verdict == "unknown"
    done = prover.speculate(start, PASSES, deepen=Limits(seconds=30))
    assert done.complete
    assert calls == [3, 30]  # the check, the deeper search; no child searched
    assert prover.verdict(start).verdict == "lost"
    assert all(prover.verdict(c.after).source == "memory" for c in children(start))
