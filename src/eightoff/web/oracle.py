"""The table's use of the solver: cached verdicts and solutions, run off the event loop.

* Proven verdicts and solutions live in one shared :class:`eightoff.solver.Prover`
  (thread-safe): a solution found for one position is a proof for every position along
  it, so when the player follows it the status after the move is known at once,
  without a search (also for a position equal up to the order of columns and cells);
  lost positions and winnable ones are remembered by ``(rules, position.key())``.
  The oracle itself keeps only which positions came back "unknown", and after how long.
* Winnability is monotone along a game's line: if the position after turn j is
  winnable, so is every earlier one (replay the moves); if it is lost, so is every
  later one. The status check uses that to find how many turns to undo.
* Solver work runs in lanes, each with its own worker threads (the compiled search
  releases the GIL, so lanes run side by side): hints, solutions, the status line and
  winnable-only deals. A long Double FreeCell solution never holds up a hint. Within a
  lane, work for a position on a board goes first (one-pack variants before two-pack
  ones), and work whose position is on no board when its turn comes is dropped.
  The event loop never waits for the solver.
"""

from __future__ import annotations

import asyncio
import itertools
import logging
import queue
import threading
from collections.abc import Callable, Sequence
from concurrent.futures import Future
from dataclasses import dataclass
from typing import Any, Literal, TypeVar

from eightoff.i18n import Count, Message
from eightoff.position import Move, Position
from eightoff.solver import Limits, Prover, Result, solve
from eightoff.solver.prover import Lru
from eightoff.verdict import Verdict, Word

log = logging.getLogger("eightoff.web")

Solver = Callable[[Position, Limits], Result]
T = TypeVar("T")

_VERDICT_CACHE = 200_000
_LINES = 200  # solutions followed at once (about 24,000 positions on them)


class DroppedWork(Exception):
    """Solver work dropped because its position is on no board any more."""


@dataclass
class _Job:
    fn: Callable[[], Any]
    wanted: Callable[[], bool]
    future: Future[Any]


class Lane:
    """A priority queue of solver work with its own worker threads."""

    def __init__(self, name: str, workers: int) -> None:
        self.name = name
        self._queue: queue.PriorityQueue[tuple[tuple[int, ...], int, _Job | None]] = (
            queue.PriorityQueue()
        )
        self._seq = itertools.count()
        self._threads = [
            threading.Thread(target=self._work, name=f"eightoff-{name}-{i}", daemon=True)
            for i in range(workers)
        ]
        self._closed = False
        for t in self._threads:
            t.start()

    def submit(
        self, priority: tuple[int, ...], fn: Callable[[], T], wanted: Callable[[], bool]
    ) -> Future[T]:
        future: Future[T] = Future()
        if self._closed:
            future.set_exception(DroppedWork("the table is stopping"))
            return future
        self._queue.put((priority, next(self._seq), _Job(fn, wanted, future)))
        return future

    def _work(self) -> None:
        while True:
            job = self._queue.get()[2]
            if job is None:
                return
            if not job.future.set_running_or_notify_cancel():
                continue
            if self._closed or not job.wanted():
                job.future.set_exception(DroppedWork("the position is on no board now"))
                continue
            try:
                job.future.set_result(job.fn())
            except BaseException as e:
                job.future.set_exception(e)

    def close(self) -> None:
        self._closed = True
        while True:
            try:
                job = self._queue.get_nowait()[2]
            except queue.Empty:
                break
            if job is not None:
                job.future.cancel()
        # workers first finish the job in hand (the solver's time limit bounds it)
        for _ in self._threads:
            self._queue.put(((1 << 30,), next(self._seq), None))


@dataclass(frozen=True, slots=True)
class Status:
    """What the status line shows for a game's current position."""

    verdict: Word | Literal["checking", "won"]
    undo_to_winnable: int | None
    message: Message
    """Rendered by the route in the player's language (:func:`eightoff.i18n.translate`)."""
    pending: bool
    """True while a check is still running: ask again."""


@dataclass(frozen=True, slots=True)
class Answer:
    """A solver answer for one position: its verdict and, when winnable, a solution."""

    verdict: Verdict
    moves: tuple[Move, ...]
    seconds: float

    @property
    def word(self) -> Word:
        return self.verdict.word


class Oracle:
    """Solver calls for the table, with limits, caches and worker threads."""

    def __init__(
        self,
        *,
        status_seconds: float = 3.0,
        hint_seconds: float = 10.0,
        deal_seconds: float = 1.0,
        solver: Solver = solve,
    ) -> None:
        self.status_seconds = status_seconds
        self.hint_seconds = hint_seconds
        self.deal_seconds = deal_seconds
        self._solver = solver
        self._lock = threading.Lock()
        self.prover = Prover(
            Limits(seconds=status_seconds), lines=_LINES, memory=_VERDICT_CACHE, solver=solver
        )
        """Proven verdicts and solutions (its ``stats`` count where answers came from)."""
        self._unknown: Lru[tuple[object, ...], float] = Lru(_VERDICT_CACHE)
        self._jobs: dict[int, Future[None]] = {}
        self._wanted: dict[int, Position] = {}
        self._boards: dict[int, Position] = {}
        self._closed = True
        self.start()

    def start(self) -> None:
        """Start the lanes' worker threads (again after :meth:`close`)."""
        if not self._closed:
            return
        self.hints = Lane("hint", 2)
        self.solutions = Lane("solution", 1)
        self.checks = Lane("status", 1)
        self.deals = Lane("deal", 1)
        self._jobs.clear()
        self._closed = False

    def close(self) -> None:
        self._closed = True
        for lane in (self.hints, self.solutions, self.checks, self.deals):
            lane.close()

    # ----- which positions are on a board ----------------------------------------------
    def on_board(self, game_id: int, position: Position) -> None:
        """Game ``game_id`` now shows ``position`` (the table tells after every change)."""
        with self._lock:
            self._boards[game_id] = position
            while len(self._boards) > 1024:
                self._boards.pop(next(iter(self._boards)))

    def is_on_board(self, position: Position) -> bool:
        with self._lock:
            return position in self._boards.values()

    def _priority(self, position: Position) -> tuple[int, ...]:
        return (0 if self.is_on_board(position) else 1, position.rules.decks)

    # ----- caches --------------------------------------------------------------------
    @staticmethod
    def _key(position: Position) -> tuple[object, ...]:
        return (position.rules, *position.key())

    def verdict(self, position: Position) -> Verdict | None:
        """The known verdict, or None when the position has not been checked."""
        known = self.prover.known(position)
        if known is not None:
            return Verdict(known.verdict)
        with self._lock:
            return Verdict.UNKNOWN if self._key(position) in self._unknown else None

    def _record(self, position: Position, verdict: Verdict, seconds: float = 0.0) -> None:
        if verdict is Verdict.SOLVED:
            self.prover.remember_winnable(position)
        elif verdict is Verdict.LOST:
            self.prover.remember_lost(position)
        else:
            key = self._key(position)
            with self._lock:
                self._unknown.put(key, max(seconds, self._unknown.get(key, 0.0)))
            return
        with self._lock:
            self._unknown.pop(self._key(position), None)

    def cached_solution(self, position: Position) -> tuple[Move, ...] | None:
        """A known solution from ``position`` (``()`` when it is won), else None."""
        known = self.prover.known(position)
        if known is None or known.verdict != "solved":
            return None
        if known.moves or position.is_won():
            return known.moves
        return None

    # ----- solving (worker threads) ----------------------------------------------------
    def answer(self, position: Position, seconds: float) -> Answer:
        """Blocking: a verdict for ``position`` within ``seconds`` (cached when possible).

        A cached "unknown" is retried when more time is allowed than last time."""
        if position.is_won():
            return Answer(Verdict.SOLVED, (), 0.0)
        cached = self.cached_solution(position)
        if cached is not None:
            return Answer(Verdict.SOLVED, cached, 0.0)
        if self.verdict(position) is Verdict.LOST:
            return Answer(Verdict.LOST, (), 0.0)
        with self._lock:
            tried = self._unknown.get(self._key(position))
        if tried is not None and tried >= seconds:
            return Answer(Verdict.UNKNOWN, (), 0.0)
        # a position remembered winnable without its moves is solved again for them;
        # the default state cap bounds memory
        live = self.prover.verdict(position, limits=Limits(seconds=seconds), want_moves=True)
        verdict = Verdict(live.verdict)
        if verdict is Verdict.UNKNOWN:
            self._record(position, verdict, seconds)
        return Answer(verdict, live.moves, live.seconds)

    async def _await(self, lane: Lane, position: Position, fn: Callable[[], T]) -> T:
        """Run ``fn`` on ``lane`` for ``position`` (dropped if it leaves every board)."""
        future = lane.submit(self._priority(position), fn, lambda: self.is_on_board(position))
        return await asyncio.wrap_future(future)

    async def hint(self, position: Position, seconds: float | None = None) -> Answer:
        """The solver's answer for a hint (the hints lane). DroppedWork if the position
        left every board before its turn came."""
        return await self._solve_on(self.hints, position, seconds)

    async def solution(self, position: Position, seconds: float | None = None) -> Answer:
        """The solver's answer for a solution replay (the solutions lane)."""
        return await self._solve_on(self.solutions, position, seconds)

    async def _solve_on(self, lane: Lane, position: Position, seconds: float | None) -> Answer:
        limit = self.hint_seconds if seconds is None else seconds
        cached = self.cached_solution(position)
        if cached is not None or position.is_won():
            return Answer(Verdict.SOLVED, cached or (), 0.0)
        return await self._await(lane, position, lambda: self.answer(position, limit))

    async def run_deal_search(self, fn: Callable[[], T]) -> T:
        """A winnable-only deal search (its own lane; never dropped)."""
        future = self.deals.submit((0,), fn, lambda: True)
        return await asyncio.wrap_future(future)

    # ----- the status line -------------------------------------------------------------
    def status(self, game_id: int, line: Sequence[Position]) -> Status:
        """The status of the last position of ``line`` (the game's positions, the start
        first) from the caches; starts a background check when something is missing."""
        current = line[-1]
        if current.is_won():
            return Status("won", None, Message("status.won"), False)
        v = self.verdict(current)
        if v is None and any(self.verdict(p) is Verdict.LOST for p in line[:-1]):
            v = Verdict.LOST  # reached from a lost position: lost too
            self._record(current, v)
        if v is None:
            self._schedule(game_id, line)
            return Status("checking", None, Message("status.checking"), True)
        if v is Verdict.SOLVED:
            return Status(v.word, None, Message("status.winnable"), False)
        if v is Verdict.UNKNOWN:
            return Status(
                v.word, None, Message("status.unknown", seconds=self.status_seconds), False
            )
        lost = Verdict.LOST.word
        n = len(line) - 1
        saw_unknown = False
        for k in range(1, n + 1):
            vk = self.verdict(line[n - k])
            if vk is Verdict.SOLVED:
                return Status(
                    lost, k, Message("status.undo_to_get_back", moves=Count(k, "move")), False
                )
            if vk is None:
                self._schedule(game_id, line)
                return Status(lost, None, Message("status.not_winnable_checking"), True)
            saw_unknown = saw_unknown or vk is Verdict.UNKNOWN
        if saw_unknown:
            return Status(lost, None, Message("status.not_winnable"), False)
        if n == 0:
            return Status(lost, None, Message("status.no_play_wins"), False)
        return Status(lost, None, Message("status.not_from_start"), False)

    def _schedule(self, game_id: int, line: Sequence[Position]) -> None:
        if self._closed:
            return
        snapshot = tuple(line)
        priority = self._priority(snapshot[-1])
        with self._lock:
            self._wanted[game_id] = snapshot[-1]
            job = self._jobs.get(game_id)
            if job is not None and not job.done():
                return  # the running job looks at _wanted before each solve
            self._jobs[game_id] = self.checks.submit(
                priority,
                lambda: self._check_line(game_id, snapshot),
                lambda: self._still_wanted(game_id, snapshot[-1]),
            )

    def _still_wanted(self, game_id: int, current: Position) -> bool:
        with self._lock:
            return not self._closed and self._wanted.get(game_id) == current

    def _check_line(self, game_id: int, line: tuple[Position, ...]) -> None:
        try:
            self._walk_back(game_id, line)
        except Exception:  # a bug: log it, the status line shows "unknown"
            log.exception("status check of game %s failed", game_id)
            self._record(line[-1], Verdict.UNKNOWN, self.status_seconds)
        # if the game moved on meanwhile, the client's next poll schedules a new check

    def _walk_back(self, game_id: int, line: tuple[Position, ...]) -> None:
        n = len(line) - 1
        for k in range(0, n + 1):
            if not self._still_wanted(game_id, line[-1]):
                return
            pos = line[n - k]
            v = self.verdict(pos)
            if v is None:
                v = self.answer(pos, self.status_seconds).verdict
            if v is Verdict.SOLVED:
                for earlier in line[: n - k]:
                    self._record(earlier, Verdict.SOLVED)
                return
            if v is Verdict.LOST:
                for later in line[n - k + 1 :]:
                    self._record(later, Verdict.LOST)
            elif k == 0:
                return  # current unknown: nothing more to say

    # ----- winnable-only deals -----------------------------------------------------------
    def find_winnable(
        self, make: Callable[[], tuple[int, Position]], tries: int, budget: float
    ) -> tuple[int, Position, Verdict, int]:
        """Blocking: draw deals with ``make`` until the solver proves one winnable within
        ``deal_seconds`` each; give up after ``tries`` deals or ``budget`` seconds and
        return the last one drawn with verdict UNKNOWN. Returns (number, position,
        verdict, deals tried)."""
        spent = 0.0
        number, position = make()
        for i in range(1, tries + 1):
            if i > 1:
                number, position = make()
            answer = self.answer(position, min(self.deal_seconds, max(0.05, budget - spent)))
            spent += answer.seconds
            if answer.verdict is Verdict.SOLVED:
                return number, position, Verdict.SOLVED, i
            if spent >= budget:
                return number, position, Verdict.UNKNOWN, i
        return number, position, Verdict.UNKNOWN, tries
