"""The table's status line answers from the solver's Prover: while the player follows
the last solution, every verdict after a move is final at once, without a new search."""

from __future__ import annotations

import asyncio
import threading
from concurrent.futures import ThreadPoolExecutor

import pytest

from eightoff.deals import deal
from eightoff.game import Game
from eightoff.oracle import Oracle
from eightoff.position import Position
from eightoff.solver import Limits, Result, solve
from eightoff.verdict import Verdict


class Counting:
    """The real solver, counting its calls (``real``: those not made by speculation)."""

    def __init__(self) -> None:
        self.calls = 0
        self.real = 0
        self.lock = threading.Lock()

    def __call__(self, position: Position, limits: Limits) -> Result:
        with self.lock:
            self.calls += 1
            self.real += threading.current_thread().name != "eightoff-speculate"
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
    oracle.speculate = False
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
        assert status.pending  # a check starts (it started when the move landed)
        status = oracle.wait_status(1, game.positions(), 120)
        assert not status.pending
        assert solver.calls == 2
        assert oracle.prover.stats["search"] == 2
        assert status.verdict in ("winnable", "not_winnable")
    finally:
        oracle.close()


class Speculative:
    """The real solver; the speculation thread's first search waits for ``gate``, and
    the search for ``held`` (a real request) waits for ``hold``. Records, for every
    speculative search, whether a real request was in progress when it started."""

    def __init__(self, held: Position) -> None:
        self.held = held
        self.gate = threading.Event()
        self.hold = threading.Event()
        self.speculating = threading.Event()
        self.requested = threading.Event()
        self.real_running = False
        self.speculative: list[bool] = []
        self.real = 0
        self.lock = threading.Lock()

    def __call__(self, position: Position, limits: Limits) -> Result:
        if threading.current_thread().name == "eightoff-speculate":
            with self.lock:
                self.speculative.append(self.real_running)
                first = len(self.speculative) == 1
            if first:
                self.speculating.set()
                assert self.gate.wait(60)
            return solve(position, limits)
        with self.lock:
            self.real += 1
        if position == self.held:
            with self.lock:
                self.real_running = True
            self.requested.set()
            assert self.hold.wait(60)
            try:
                return solve(position, limits)
            finally:
                with self.lock:
                    self.real_running = False
        return solve(position, limits)


@pytest.mark.parametrize(("variant", "number"), [("eightoff", 21), ("freecell", 21)])
def test_after_speculation_any_move_is_answered_from_memory(variant: str, number: int) -> None:
    solver = Counting()
    oracle = Oracle(solver=solver)
    try:
        game = Game(deal(variant, number))
        oracle.on_board(1, game.position)
        first = oracle.wait_status(1, game.positions(), 120)
        assert first.verdict == "winnable"
        assert oracle.wait_speculation(120)  # the player thought long enough
        calls, searches = solver.real, oracle.prover.stats["search"]
        assert solver.calls > calls  # the speculation searched
        start = game.position
        for move in start.legal_moves():
            after = Game(start)
            after.play(move)
            oracle.on_board(1, after.position)
            status = oracle.status(1, after.positions())
            assert not status.pending, move  # known at once
            assert status.verdict in ("winnable", "not_winnable", "won")
        assert solver.real == calls  # no search for any of them
        assert oracle.prover.stats["search"] == searches
    finally:
        oracle.close()


def test_speculation_stops_while_a_request_is_served() -> None:
    """A hint asked for while speculation searches: the running speculative search
    ends, no other starts until the hint is answered, then speculation resumes."""
    game = Game(deal("freecell", 22))
    other = deal("freecell", 23)
    solver = Speculative(held=other)
    oracle = Oracle(solver=solver)
    try:
        oracle.on_board(1, game.position)
        assert oracle.wait_status(1, game.positions(), 120).verdict == "winnable"
        assert solver.speculating.wait(60)  # its first search is running
        oracle.on_board(2, other)
        with ThreadPoolExecutor(1) as pool:
            hint = pool.submit(asyncio.run, oracle.hint(other))
            assert solver.requested.wait(60)  # the hint's search is running
            solver.gate.set()  # the speculative search ends...
            assert oracle.speculator.stopped.wait(60)  # ...and speculation stops
            assert len(solver.speculative) == 1
            solver.hold.set()
            assert hint.result(60).verdict is Verdict.SOLVED
        assert oracle.wait_speculation(120)  # resumed and finished
        assert len(solver.speculative) > 1
        assert not any(solver.speculative)  # none started while the hint ran
        for move in game.position.legal_moves():
            after = Game(game.position)
            after.play(move)
            assert oracle.prover.known(after.position) is not None, move
    finally:
        solver.gate.set()
        solver.hold.set()
        oracle.close()
