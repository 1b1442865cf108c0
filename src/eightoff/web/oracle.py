"""The table's use of the solver: cached verdicts and solutions, run off the event loop.

* Verdicts are cached by ``(rules, position.key())``; solutions by the exact position
  (a solution's moves name concrete columns and cells). A solution found for one
  position is also the solution of every position along it.
* Winnability is monotone along a game's line: if the position after turn j is
  winnable, so is every earlier one (replay the moves); if it is lost, so is every
  later one. The status check uses that to find how many turns to undo.
* Background checks (the status line) and foreground requests (hints, solutions,
  winnable-only deals) each have their own single worker thread, so a long status
  check never delays a hint, and the event loop never waits for the solver.
"""

from __future__ import annotations

import asyncio
import logging
import threading
from collections import OrderedDict
from collections.abc import Callable, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass
from typing import Literal, TypeVar

from eightoff.position import Move, Position
from eightoff.solver import Limits, Result, solve

log = logging.getLogger("eightoff.web")

Verdict = Literal["winnable", "not_winnable", "unknown"]
Solver = Callable[[Position, Limits], Result]
T = TypeVar("T")
K = TypeVar("K")
V = TypeVar("V")

_VERDICT_CACHE = 200_000
_SOLUTION_CACHE = 20_000


class _Lru(OrderedDict[K, V]):
    def __init__(self, size: int) -> None:
        super().__init__()
        self.size = size

    def put(self, key: K, value: V) -> None:
        self[key] = value
        self.move_to_end(key)
        while len(self) > self.size:
            self.popitem(last=False)


@dataclass(frozen=True, slots=True)
class Status:
    """What the status line shows for a game's current position."""

    verdict: Literal["winnable", "not_winnable", "checking", "unknown", "won"]
    undo_to_winnable: int | None
    message: str
    pending: bool
    """True while a check is still running: ask again."""


@dataclass(frozen=True, slots=True)
class Answer:
    """A solver answer for one position: its verdict and, when winnable, a solution."""

    verdict: Verdict
    moves: tuple[Move, ...]
    seconds: float


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" + ("" if n == 1 else "s")


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
        self._verdicts: _Lru[tuple[object, ...], Verdict] = _Lru(_VERDICT_CACHE)
        self._unknown: _Lru[tuple[object, ...], float] = _Lru(_VERDICT_CACHE)
        self._solutions: _Lru[Position, tuple[Move, ...]] = _Lru(_SOLUTION_CACHE)
        self._background = ThreadPoolExecutor(1, thread_name_prefix="eightoff-status")
        self._foreground = ThreadPoolExecutor(1, thread_name_prefix="eightoff-solve")
        self._jobs: dict[int, Future[None]] = {}
        self._wanted: dict[int, Position] = {}
        self._closed = False

    def close(self) -> None:
        self._closed = True
        self._background.shutdown(wait=False, cancel_futures=True)
        self._foreground.shutdown(wait=False, cancel_futures=True)

    # ----- caches --------------------------------------------------------------------
    @staticmethod
    def _key(position: Position) -> tuple[object, ...]:
        return (position.rules, *position.key())

    def verdict(self, position: Position) -> Verdict | None:
        """The cached verdict, or None when the position has not been checked."""
        key = self._key(position)
        with self._lock:
            v = self._verdicts.get(key)
            if v is not None:
                return v
            return "unknown" if key in self._unknown else None

    def _record(self, position: Position, verdict: Verdict, seconds: float = 0.0) -> None:
        key = self._key(position)
        with self._lock:
            if verdict == "unknown":
                if key not in self._verdicts:
                    self._unknown.put(key, max(seconds, self._unknown.get(key, 0.0)))
                return
            self._unknown.pop(key, None)
            self._verdicts.put(key, verdict)

    def _record_solution(self, position: Position, moves: Sequence[Move]) -> None:
        pos = position
        for i, m in enumerate(moves):
            with self._lock:
                self._solutions.put(pos, tuple(moves[i:]))
            self._record(pos, "winnable")
            pos = pos.apply_unchecked(m)
        self._record(pos, "winnable")

    def cached_solution(self, position: Position) -> tuple[Move, ...] | None:
        with self._lock:
            return self._solutions.get(position)

    # ----- solving (worker threads) ----------------------------------------------------
    def answer(self, position: Position, seconds: float) -> Answer:
        """Blocking: a verdict for ``position`` within ``seconds`` (cached when possible).

        A cached "unknown" is retried when more time is allowed than last time."""
        if position.is_won():
            return Answer("winnable", (), 0.0)
        cached = self.cached_solution(position)
        if cached is not None:
            return Answer("winnable", cached, 0.0)
        key = self._key(position)
        with self._lock:
            v = self._verdicts.get(key)
            tried = self._unknown.get(key)
        if v == "not_winnable":
            return Answer("not_winnable", (), 0.0)
        if v is None and tried is not None and tried >= seconds:
            return Answer("unknown", (), 0.0)
        result = self._solver(position, Limits(seconds=seconds))  # default state cap bounds memory
        if result.verdict == "solved":
            self._record_solution(position, result.moves)
            return Answer("winnable", tuple(result.moves), result.seconds)
        if result.verdict == "lost":
            self._record(position, "not_winnable")
            return Answer("not_winnable", (), result.seconds)
        self._record(position, "unknown", seconds)
        return Answer("unknown", (), result.seconds)

    async def run(self, fn: Callable[[], T]) -> T:
        """Run a blocking solver call on the foreground worker; await its result."""
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._foreground, fn)

    async def solution(self, position: Position, seconds: float | None = None) -> Answer:
        limit = self.hint_seconds if seconds is None else seconds
        cached = self.cached_solution(position)
        if cached is not None or position.is_won():
            return Answer("winnable", cached or (), 0.0)
        return await self.run(lambda: self.answer(position, limit))

    # ----- the status line -------------------------------------------------------------
    def status(self, game_id: int, line: Sequence[Position]) -> Status:
        """The status of the last position of ``line`` (the game's positions, the start
        first) from the caches; starts a background check when something is missing."""
        current = line[-1]
        if current.is_won():
            return Status("won", None, "Won", False)
        v = self.verdict(current)
        if v is None and any(self.verdict(p) == "not_winnable" for p in line[:-1]):
            v = "not_winnable"  # reached from a lost position: lost too
            self._record(current, v)
        if v is None:
            self._schedule(game_id, line)
            return Status("checking", None, "Checking…", True)
        if v == "winnable":
            return Status("winnable", None, "Winnable", False)
        if v == "unknown":
            return Status(
                "unknown",
                None,
                f"Unknown: the solver could not decide in {self.status_seconds:g} seconds",
                False,
            )
        n = len(line) - 1
        saw_unknown = False
        for k in range(1, n + 1):
            vk = self.verdict(line[n - k])
            if vk == "winnable":
                return Status(
                    "not_winnable",
                    k,
                    f"Not winnable from here: undo {_plural(k, 'move')} to get back",
                    False,
                )
            if vk is None:
                self._schedule(game_id, line)
                return Status(
                    "not_winnable", None, "Not winnable from here (checking how far back…)", True
                )
            saw_unknown = saw_unknown or vk == "unknown"
        if saw_unknown:
            return Status("not_winnable", None, "Not winnable from here", False)
        if n == 0:
            return Status("not_winnable", None, "Not winnable from here: no play wins", False)
        return Status(
            "not_winnable", None, "Not winnable from here, nor from the start of this game", False
        )

    def _schedule(self, game_id: int, line: Sequence[Position]) -> None:
        if self._closed:
            return
        snapshot = tuple(line)
        with self._lock:
            self._wanted[game_id] = snapshot[-1]
            job = self._jobs.get(game_id)
            if job is not None and not job.done():
                return  # the running job looks at _wanted before each solve
            try:
                self._jobs[game_id] = self._background.submit(self._check_line, game_id, snapshot)
            except RuntimeError:  # shutting down
                return

    def _still_wanted(self, game_id: int, current: Position) -> bool:
        with self._lock:
            return not self._closed and self._wanted.get(game_id) == current

    def _check_line(self, game_id: int, line: tuple[Position, ...]) -> None:
        try:
            self._walk_back(game_id, line)
        except Exception:  # a bug: log it, the status line shows "unknown"
            log.exception("status check of game %s failed", game_id)
            self._record(line[-1], "unknown", self.status_seconds)
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
            if v == "winnable":
                for earlier in line[: n - k]:
                    self._record(earlier, "winnable")
                return
            if v == "not_winnable":
                for later in line[n - k + 1 :]:
                    self._record(later, "not_winnable")
            elif k == 0:
                return  # current unknown: nothing more to say

    # ----- winnable-only deals -----------------------------------------------------------
    def find_winnable(
        self, make: Callable[[], tuple[int, Position]], tries: int, budget: float
    ) -> tuple[int, Position, Verdict, int]:
        """Blocking: draw deals with ``make`` until the solver proves one winnable within
        ``deal_seconds`` each; give up after ``tries`` deals or ``budget`` seconds and
        return the last one drawn with verdict "unknown". Returns (number, position,
        verdict, deals tried)."""
        spent = 0.0
        number, position = make()
        for i in range(1, tries + 1):
            if i > 1:
                number, position = make()
            answer = self.answer(position, min(self.deal_seconds, max(0.05, budget - spent)))
            spent += answer.seconds
            if answer.verdict == "winnable":
                return number, position, "winnable", i
            if spent >= budget:
                return number, position, "unknown", i
        return number, position, "unknown", tries
