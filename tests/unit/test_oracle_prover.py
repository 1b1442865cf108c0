"""The table's status line answers from the solver's Prover: while the player follows
the last solution, every verdict after a move is final at once, without a new search."""

from __future__ import annotations

import threading

import pytest

from eightoff.deals import deal
from eightoff.game import Game
from eightoff.position import Position
from eightoff.solver import Limits, Result, solve
from eightoff.verdict import Verdict
from eightoff.web.oracle import Oracle


class Counting:
    """The real solver, counting its calls."""

    def __init__(self) -> None:
        self.calls = 0
        self.lock = threading.Lock()

    def __call__(self, position: Position, limits: Limits) -> Result:
        with self.lock:
            self.calls += 1
        return solve(position, limits)


@pytest.mark.parametrize(("variant", "number"), [("eightoff", 7), ("freecell", 11)])
def test_following_the_solution_needs_no_new_search(variant: str, number: int) -> None:
    solver = Counting()
    oracle = Oracle(solver=solver)
    try:
        game = Game(deal(variant, number))
        first = oracle.answer(game.position, oracle.status_seconds)
        assert first.verdict is Verdict.SOLVED and first.moves
        assert solver.calls == 1
        turns = 0
        while not game.position.is_won():
            line = oracle.cached_solution(game.position)
            assert line, f"no known solution after {turns} turns"
            game.play(line[0])  # with the table's safe auto-moves
            turns += 1
            status = oracle.status(1, game.positions())
            assert not status.pending, f"status pending after following move {turns}"
            assert status.verdict in ("winnable", "won")
        assert turns > 10
        assert solver.calls == 1
        assert oracle.prover.stats["search"] == 1
        assert oracle.prover.stats["line"] >= turns
    finally:
        oracle.close()


def test_a_move_off_the_solution_is_checked_again() -> None:
    solver = Counting()
    oracle = Oracle(solver=solver)
    try:
        game = Game(deal("eightoff", 7))
        line = oracle.answer(game.position, oracle.status_seconds).moves
        oracle.on_board(1, game.position)
        on_line = game.position.apply(line[0]).key()
        other = next(
            m for m in game.position.legal_moves() if game.position.apply(m).key() != on_line
        )
        game.play(other)
        oracle.on_board(1, game.position)
        assert oracle.prover.known(game.position) is None  # off every known line
        status = oracle.status(1, game.positions())
        assert status.pending  # a check starts
        for _ in range(1200):
            status = oracle.status(1, game.positions())
            if not status.pending:
                break
            threading.Event().wait(0.05)
        assert not status.pending
        assert solver.calls == 2
        assert oracle.prover.stats["search"] == 2
        assert status.verdict in ("winnable", "not_winnable")
    finally:
        oracle.close()
