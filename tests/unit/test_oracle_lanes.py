"""Solver work never holds up play: hints have their own lane, work for a position on a
board goes first, and work for a position on no board is dropped."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Iterator

import pytest

from eightoff.deals import deal
from eightoff.game import Game
from eightoff.oracle import DroppedWork, Oracle
from eightoff.position import Position
from eightoff.solver import Limits, Result, solve
from eightoff.verdict import Verdict
from tests.loops import run


class Gated:
    """Double FreeCell positions wait for ``gate``; the rest are solved for real."""

    def __init__(self) -> None:
        self.gate = threading.Event()
        self.started: list[Position] = []
        self.lock = threading.Lock()
        self.doubles = threading.Semaphore(0)
        """Released once for each Double FreeCell search a hint or solution worker has
        started (not the status checks that a new board starts)."""

    def __call__(self, position: Position, limits: Limits) -> Result:
        with self.lock:
            self.started.append(position)
        if position.rules.decks == 2:
            if not threading.current_thread().name.startswith("eightoff-status"):
                self.doubles.release()
            assert self.gate.wait(60)
        return solve(position, limits)


@pytest.fixture
def gated() -> Iterator[tuple[Oracle, Gated]]:
    solver = Gated()
    oracle = Oracle(hint_seconds=10, solver=solver)
    yield oracle, solver
    solver.gate.set()
    oracle.close()


def test_a_hint_is_answered_while_double_freecell_solutions_compute(
    gated: tuple[Oracle, Gated],
) -> None:
    oracle, solver = gated

    async def scenario() -> tuple[Verdict, bool]:
        doubles = [deal("double-freecell", n) for n in range(1, 5)]
        for i, p in enumerate(doubles):
            oracle.on_board(100 + i, p)
        solutions = [asyncio.ensure_future(oracle.solution(p)) for p in doubles]
        # the solutions lane's worker is inside the first of them
        assert await asyncio.to_thread(solver.doubles.acquire, True, 60)
        eight = deal("eightoff", 1)
        oracle.on_board(1, eight)
        answer = await asyncio.wait_for(oracle.hint(eight), timeout=60)
        still_running = not any(s.done() for s in solutions)
        solver.gate.set()
        await asyncio.gather(*solutions)
        return answer.verdict, still_running

    verdict, still_running = run(scenario())
    assert verdict is Verdict.SOLVED
    assert still_running  # the hint did not wait for any of them


def test_work_for_a_position_on_no_board_is_dropped(gated: tuple[Oracle, Gated]) -> None:
    oracle, solver = gated

    async def scenario() -> tuple[BaseException | None, Verdict]:
        # both hint workers busy with Double FreeCell positions
        busy = [deal("double-freecell", n) for n in (1, 2)]
        for i, p in enumerate(busy):
            oracle.on_board(10 + i, p)
        blockers = [asyncio.ensure_future(oracle.hint(p)) for p in busy]
        for _ in busy:  # both hint workers inside a search
            assert await asyncio.to_thread(solver.doubles.acquire, True, 60)
        game = Game.new("eightoff", 3)
        before = game.position
        oracle.on_board(1, before)
        queued = asyncio.ensure_future(oracle.hint(before))
        await asyncio.sleep(0)  # (a yield, no wait) the hint is queued behind them
        game.play(game.position.useful_moves()[0])  # the player moved on
        oracle.on_board(1, game.position)
        current = asyncio.ensure_future(oracle.hint(game.position))
        solver.gate.set()
        await asyncio.gather(*blockers)
        dropped: BaseException | None = None
        try:
            await queued
        except DroppedWork as e:
            dropped = e
        return dropped, (await current).verdict

    dropped, verdict = run(scenario())
    assert isinstance(dropped, DroppedWork)
    assert verdict is Verdict.SOLVED
    # the dropped position never reached the solver
    assert all(p.rules.decks == 2 or p != deal("eightoff", 3) for p in solver.started)
