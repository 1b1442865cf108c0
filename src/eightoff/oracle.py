"""The table's use of the solver: cached verdicts and solutions, run off the event loop.

* Proven verdicts and solutions live in one shared :class:`eightoff.solver.prover.Prover`
  (thread-safe): a solution found for one position is a proof for every position along
  it, so when the player follows it the status after the move is known at once,
  without a search (also for a position equal up to the order of columns and cells);
  lost positions and winnable ones are remembered by canonical key (rules and
  ``position.key()`` as bytes).
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
* The check starts when the move lands (:meth:`Oracle.on_board`), not when the page
  asks; :meth:`Oracle.settled_status` lets the status route wait briefly for it.
* **Speculation** (:class:`Speculator`, one background thread, the lowest priority of
  the oracle's work): once the page has been told a board's verdict, the verdicts of
  every position one turn away are settled while the player thinks
  (:meth:`eightoff.solver.prover.Prover.speculate`), so that the verdict after the
  next move is a lookup. Any real work (a status check, a hint, a solution, a deal
  search) stops it before its next search; it resumes when the work is done, if its
  position is still on a board. A board the status check left "unknown" is searched
  once more, ten times as long: proven lost, every later position of the game is
  lost without a search.
* **Par** (:meth:`Oracle.par_search`): the fewest moves of a deal, searched on a lane of
  its own (one worker) within the table's limits (:data:`TABLE_LIMITS`: 20 s, 512 MiB),
  once per position however many ask meanwhile; it holds up no other lane and no
  speculation (the compiled search releases the GIL, the event loop never waits). Where
  those limits leave bounds, the player may ask for a search :data:`LONGER` times as
  long (:attr:`Oracle.par_longer_limits`), once.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import logging
import queue
import threading
import time
from collections.abc import Callable, Sequence
from concurrent.futures import CancelledError, Future
from dataclasses import dataclass, replace
from typing import Any, Literal, TypeVar

from eightoff.counts import MoveCount
from eightoff.explain import par_unknown
from eightoff.i18n import Count, Message
from eightoff.position import Move, Position
from eightoff.solver import Limits, Result, solve
from eightoff.solver.optimal import (
    TABLE_LIMITS,
    Par,
    ParLimits,
    joined,
    optimal,
    stopped_by_memory,
)
from eightoff.solver.prover import Lru, Prover, Speculation, canonical
from eightoff.store import StoredPar
from eightoff.verdict import Verdict, Word

log = logging.getLogger("eightoff.web")

Solver = Callable[[Position, Limits], Result]
T = TypeVar("T")

_VERDICT_CACHE = 200_000
LONGER = 6
"""A par search the player asks to go on longer ("Search longer") has this many times
the table's time (two minutes for its 20 seconds), in the same memory."""
_LINES = 200  # solutions followed at once (about 24,000 positions on them)


class DroppedWork(Exception):
    """Solver work dropped because its position is on no board any more."""


def _reusable(future: Future[Any]) -> bool:
    """A par search asked for before that may answer again: not cancelled, and not
    dropped because the table was stopping (a search that failed stays failed)."""
    if future.cancelled():
        return False
    return not future.done() or not isinstance(future.exception(), DroppedWork)


def _fruitless(future: Future[Par]) -> bool:
    """A par search that ended with nothing to show: it failed, or learnt no bound."""
    if not future.done() or future.cancelled():
        return False
    if future.exception() is not None:
        return True
    found = future.result()
    return par_unknown(lost=found.lost, lower=found.lower_bound, upper=found.length)


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


class Speculator:
    """Speculation for the boards' positions on one background thread that yields to
    real work: :meth:`hold` (one per piece of real work) stops it before its next
    search, and it resumes when every hold is released."""

    def __init__(
        self,
        prover: Prover,
        passes: Sequence[Limits],
        wanted: Callable[[Position], bool],
        on_done: Callable[[Speculation], None] = lambda _: None,
        deepen: Limits | None = None,
    ) -> None:
        self._prover = prover
        self._passes = tuple(passes)
        self._deepen = deepen
        self._wanted = wanted
        self._on_done = on_done
        self._cond = threading.Condition()
        self._busy = 0
        self._todo: dict[int, Position] = {}  # game -> its board position (newest last)
        self._done: Lru[bytes, bool] = Lru(4096)  # canonical keys of finished positions
        self._closed = False
        self.idle = threading.Event()
        """Set while there is nothing to speculate."""
        self.idle.set()
        self.stopped = threading.Event()
        """Set each time real work stopped a speculation early (for tests)."""
        self._thread = threading.Thread(target=self._run, name="eightoff-speculate", daemon=True)
        self._thread.start()

    def want(self, game_id: int, position: Position) -> None:
        """Speculate from ``position``, game ``game_id``'s board (replaces the game's
        earlier board if not done yet)."""
        with self._cond:
            if self._closed or canonical(position) in self._done or position.is_won():
                return
            self._todo.pop(game_id, None)
            self._todo[game_id] = position
            self.idle.clear()
            self._cond.notify_all()

    def hold(self) -> Callable[[], None]:
        """Real work begins: speculation stops before its next search until the
        returned release is called (once)."""
        released = threading.Event()
        with self._cond:
            self._busy += 1

        def release() -> None:
            if released.is_set():
                return
            released.set()
            with self._cond:
                self._busy -= 1
                self._cond.notify_all()

        return release

    def close(self) -> None:
        with self._cond:
            self._closed = True
            self._todo.clear()
            self._cond.notify_all()
        self.idle.set()

    def _stop(self, game_id: int, position: Position) -> bool:
        with self._cond:
            newer = self._todo.get(game_id)
            return self._closed or self._busy > 0 or (newer is not None and newer != position)

    def _speculate(self, game_id: int, position: Position) -> Speculation:
        try:
            return self._prover.speculate(
                position,
                self._passes,
                lambda: self._stop(game_id, position),
                deepen=self._deepen,
            )
        except Exception:  # a bug: log it, never speculate on this position again
            log.exception("speculation from a position of game %s failed", game_id)
            return Speculation(complete=True)

    def _run(self) -> None:
        # (not at a lower OS priority: the thread holds the GIL between searches, and a
        # thread the OS seldom runs would keep the event loop waiting for it)
        while True:
            with self._cond:
                while not self._closed and (self._busy or not self._todo):
                    if not self._todo:
                        self.idle.set()
                    self._cond.wait()
                if self._closed:
                    return
                game_id = next(reversed(self._todo))
                position = self._todo[game_id]
            if not self._wanted(position):
                with self._cond:
                    if self._todo.get(game_id) == position:
                        del self._todo[game_id]
                continue
            out = self._speculate(game_id, position)
            with self._cond:
                if out.complete:
                    self._done.put(canonical(position), True)
                    if self._todo.get(game_id) == position:
                        del self._todo[game_id]
            # stopped early: the position stays in _todo and resumes after the real work
            self._on_done(out)
            if not out.complete:
                self.stopped.set()


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
        par_limits: ParLimits = TABLE_LIMITS,
    ) -> None:
        self.status_seconds = status_seconds
        self.par_limits = par_limits
        """The limits of a par search for the table (time and memory)."""
        self._pars: Lru[Position, Future[Par]] = Lru(256)
        self._longer: Lru[Position, Future[Par]] = Lru(256)  # the longer searches
        self.speculate = True
        """Settle the verdicts one turn ahead of every board while the player thinks
        (set False to turn it off)."""
        self.hint_seconds = hint_seconds
        self.deal_seconds = deal_seconds
        self._solver = solver
        self._lock = threading.Lock()
        self.prover = Prover(
            Limits(seconds=status_seconds), lines=_LINES, memory=_VERDICT_CACHE, solver=solver
        )
        """Proven verdicts and solutions (its ``stats`` count where answers came from)."""
        self._unknown: Lru[bytes, float] = Lru(_VERDICT_CACHE)
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
        self.pars = Lane("par", 1)
        self.speculator = Speculator(
            self.prover,
            # the cheap children first, then the others with the status line's limit
            (Limits(seconds=min(0.05, self.status_seconds)), Limits(seconds=self.status_seconds)),
            self.is_on_board,
            self._after_speculation,
            # a board the status check left unknown: once more, ten times as long
            deepen=Limits(seconds=10 * self.status_seconds),
        )
        self._jobs.clear()
        self._closed = False

    def close(self) -> None:
        self._closed = True
        self.speculator.close()
        for lane in (self.hints, self.solutions, self.checks, self.deals, self.pars):
            lane.close()
        with self._lock:
            self._pars = Lru(256)

    def _after_speculation(self, out: Speculation) -> None:
        # a position the status limit left unknown shows "unknown" at once when reached
        for position, seconds in out.left:
            if seconds is not None and seconds >= self.status_seconds:
                self._record(position, Verdict.UNKNOWN, seconds)

    def _submit(
        self,
        lane: Lane,
        priority: tuple[int, ...],
        fn: Callable[[], T],
        wanted: Callable[[], bool],
    ) -> Future[T]:
        """Real work on ``lane``: speculation waits until it is done."""
        release = self.speculator.hold()
        future = lane.submit(priority, fn, wanted)
        future.add_done_callback(lambda _: release())
        return future

    def wait_speculation(self, timeout: float | None = None) -> bool:
        """Blocking: wait until speculation has nothing left to do (True) or ``timeout``
        seconds pass (False)."""
        return self.speculator.idle.wait(timeout)

    # ----- which positions are on a board ----------------------------------------------
    def on_board(self, game_id: int, position: Position) -> None:
        """Game ``game_id`` now shows ``position`` (the table tells after every change).

        A new board's verdict is looked for at once (the page asks for it next)."""
        with self._lock:
            before = self._boards.get(game_id)
            self._boards[game_id] = position
            while len(self._boards) > 1024:
                self._boards.pop(next(iter(self._boards)))
        if self._closed or position.is_won():
            return
        if (
            before != position
            and self.verdict(position) is None
            and (before is None or self.verdict(before) is not Verdict.LOST)
        ):
            # (after a lost board the status route decides, with the whole game: a move
            # from a lost position is lost without a search)
            self._schedule(game_id, (position,))

    def is_on_board(self, position: Position) -> bool:
        with self._lock:
            return position in self._boards.values()

    def _priority(self, position: Position) -> tuple[int, ...]:
        return (0 if self.is_on_board(position) else 1, position.rules.decks)

    # ----- caches --------------------------------------------------------------------
    @staticmethod
    def _key(position: Position) -> bytes:
        return canonical(position)

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
        future = self._submit(
            lane, self._priority(position), fn, lambda: self.is_on_board(position)
        )
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
        future = self._submit(self.deals, (0,), fn, lambda: True)
        return await asyncio.wrap_future(future)

    # ----- par ---------------------------------------------------------------------------
    def par_search(
        self,
        position: Position,
        on_found: Callable[[Par], None] = lambda _: None,
        *,
        again: bool = False,
        longer: bool = False,
    ) -> Future[Par]:
        """The par (player moves) of ``position``, searched in the background on the par
        lane within :attr:`par_limits`: a search already asked for (running or done) is
        shared; ``again`` searches anew when the one asked for before failed or learnt
        nothing (a player's "Try again"); ``longer`` searches within
        :attr:`par_longer_limits` instead, once (a player's "Search longer"), and later
        asks share that search; what it finds joins the bounds of the search before it
        (:func:`eightoff.solver.optimal.joined`: never wider). ``on_found`` runs once, in
        the worker, with the answer before the future is set (the table stores it
        there); an exception in it is logged."""
        with self._lock:
            if longer:
                known = self._longer.get(position)
                if known is not None and _reusable(known):
                    return known
            else:
                known = self._pars.get(position)
                if known is not None and _reusable(known) and not (again and _fruitless(known)):
                    return known
            limits = self.par_longer_limits if longer else self.par_limits
            before = self._pars.get(position) if longer else None

            def run() -> Par:
                found = optimal(position, MoveCount.PLAYER, limits)
                # the table's search before it, done (and neither dropped nor failed)
                if before and _reusable(before) and before.done() and not _fruitless(before):
                    found = joined(before.result(), found)
                try:
                    on_found(found)
                except Exception:
                    log.exception("storing the par of a position failed")
                return found

            future = self.pars.submit((position.rules.decks,), run, lambda: True)
            self._pars.put(position, future)
            if longer:
                self._longer.put(position, future)
            return future

    def par_longer_running(self, position: Position) -> Future[Par] | None:
        """The longer par search of ``position`` (``par_search(..., longer=True)``) while
        it runs, else None."""
        with self._lock:
            future = self._longer.get(position)
        return future if future is not None and not future.done() else None

    def searched_longer(self, par: StoredPar) -> bool:
        """Whether a par record is from a search asked to go on longer: only such a
        search takes more than half again the table's time."""
        seconds = self.par_limits.seconds
        return seconds is not None and par.seconds > 1.5 * seconds

    def par_limits_of(self, par: StoredPar) -> ParLimits:
        """The limits of the search that found a par record (those its words name):
        :attr:`par_longer_limits` where it searched longer, else :attr:`par_limits`."""
        return self.par_longer_limits if self.searched_longer(par) else self.par_limits

    def may_search_longer(self, par: StoredPar) -> bool:
        """Whether a longer search (``par_search(..., longer=True)``) may narrow a par
        record's bounds: the table's time stopped the search that found them (a longer
        one has the same memory), and none went on longer."""
        return (
            self.par_limits.seconds is not None
            and not par.optimal
            and not par_unknown(lost=par.lost, lower=par.lower, upper=par.upper)
            and not stopped_by_memory(par.reason)
            and not self.searched_longer(par)
        )

    @property
    def par_longer_limits(self) -> ParLimits:
        """The limits of a par search the player asked to go on longer: :data:`LONGER`
        times the table's time, the same memory."""
        seconds = self.par_limits.seconds
        return replace(self.par_limits, seconds=None if seconds is None else seconds * LONGER)

    async def par(
        self, position: Position, on_found: Callable[[Par], None] = lambda _: None
    ) -> Par:
        """:meth:`par_search`, awaited (the event loop runs meanwhile)."""
        return await asyncio.wrap_future(self.par_search(position, on_found))

    # ----- the status line -------------------------------------------------------------
    def status(self, game_id: int, line: Sequence[Position]) -> Status:
        """The status of the last position of ``line`` (the game's positions, the start
        first) from the caches; starts a background check when something is missing.
        Once the verdict is known, speculation from the position begins."""
        status = self._status(game_id, line)
        if status.verdict not in ("checking", "won"):
            self._speculate_from(game_id, line[-1])
        return status

    def _status(self, game_id: int, line: Sequence[Position]) -> Status:
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
            self._jobs[game_id] = self._submit(
                self.checks,
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

    def _speculate_from(self, game_id: int, current: Position) -> None:
        """The page was told the verdict of game ``game_id``'s board ``current``: the
        player thinks, speculation from it begins (not earlier: the request that
        shows the verdict goes first)."""
        if not self.speculate:
            return
        with self._lock:
            on_board = self._boards.get(game_id) == current
        if on_board:
            self.speculator.want(game_id, current)

    async def settled_status(
        self, game_id: int, line: Sequence[Position], wait: float = 1.0
    ) -> Status:
        """:meth:`status`, waiting up to ``wait`` seconds for a check to finish before
        answering "pending" (the event loop runs meanwhile)."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + wait
        status = self.status(game_id, line)
        job: Future[None] | None = None
        while status.pending and (job := self._next_job(game_id, job)) is not None:
            left = deadline - loop.time()
            if left <= 0:
                break
            with contextlib.suppress(TimeoutError, DroppedWork, CancelledError):
                await asyncio.wait_for(asyncio.shield(asyncio.wrap_future(job)), left)
            status = self.status(game_id, line)
        return status

    def wait_status(self, game_id: int, line: Sequence[Position], wait: float = 60.0) -> Status:
        """Blocking :meth:`settled_status` (for benchmarks and tests)."""
        deadline = time.monotonic() + wait
        status = self.status(game_id, line)
        job: Future[None] | None = None
        while status.pending and (job := self._next_job(game_id, job)) is not None:
            left = deadline - time.monotonic()
            if left <= 0:
                break
            with contextlib.suppress(TimeoutError, DroppedWork, CancelledError):
                job.result(left)
            status = self.status(game_id, line)
        return status

    def _next_job(self, game_id: int, last: Future[None] | None) -> Future[None] | None:
        """The game's status check to wait for: None when there is none, or when it is
        the one waited for before and it has not finished (the wait timed out) or it
        has (nothing new started)."""
        with self._lock:
            job = self._jobs.get(game_id)
        return None if job is None or job is last else job

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
