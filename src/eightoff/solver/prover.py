"""Live verdicts along a game: answer after every move without searching again when an
earlier answer already settles it.

``Prover.verdict(position, previous=None) -> LiveVerdict``

* **On the line.** A solution is a proof for every position along it: when the player
  follows the last solution (or any recent one), the rest of it is still a proof, and
  the answer is that rest, without a search. A position that differs from one on a
  line only by the order of its columns and cells (the canonical key) gets that
  line's rest with the places relabelled.
* **Remembered.** Positions proven lost are remembered by canonical key, and so are
  positions proven winnable (every position along a solution).
* **Inherited.** Winnability can only be lost along a game, never regained: when the
  position before the move (``previous``) is known lost, so is this one.
* Otherwise the solver runs (``solve(position, limits)``) and its solution becomes a
  new line.

Thread-safe (one lock around the memory; the search itself runs outside it).
"""

from __future__ import annotations

import threading
import time
from collections import Counter, OrderedDict
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Final, Generic, Literal, TypeVar

from eightoff.position import Kind, Move, Place, Position

from . import Limits, Lost, Result, Solved, Verdict, solve

Source = Literal["won", "line", "memory", "inherited", "search"]

LIVE_LIMITS: Final = Limits(seconds=10.0)
"""The default limits of a search the Prover runs."""

LOOKAHEAD: Final = 12
"""Moves of a solution whose positions are entered ahead of the game (and on to the
end of a run of home moves: a turn's auto-moves)."""


@dataclass(frozen=True, slots=True)
class LiveVerdict:
    """A verdict for one position of a game, and where it came from."""

    verdict: Verdict
    moves: tuple[Move, ...]
    """A solution from this position when one is known (empty when the verdict came
    from memory without a line, and when lost or unknown)."""
    source: Source
    """``won``: all cards home; ``line``: the rest of a known solution; ``memory``: a
    verdict proven before for an equal position; ``inherited``: the position before
    the move was lost; ``search``: the solver ran."""
    seconds: float


K = TypeVar("K")
V = TypeVar("V")


class Lru(OrderedDict[K, V], Generic[K, V]):
    """A dict that forgets its least recently put entries beyond ``size``."""

    def __init__(self, size: int) -> None:
        super().__init__()
        self.size = size

    def put(self, key: K, value: V) -> None:
        self[key] = value
        self.move_to_end(key)
        while len(self) > self.size:
            self.popitem(last=False)


@dataclass(slots=True)
class _Line:
    """A solution being followed: its moves, and how far its positions are entered."""

    moves: tuple[Move, ...]
    end: int
    end_position: Position


def _canonical(position: Position) -> tuple[object, ...]:
    return (position.rules, *position.key())


def _relabel(moves: Sequence[Move], source: Position, target: Position) -> tuple[Move, ...]:
    """The moves of a solution from ``source`` made from ``target``, canonically equal
    to it (same columns and cells in another order): each column and cell renamed to
    the one of ``target`` holding the same cards (empty ones paired in order)."""
    columns: dict[int, int] = {}
    free = list(range(len(target.columns)))
    for i, col in enumerate(source.columns):
        j = next(j for j in free if target.columns[j] == col)
        free.remove(j)
        columns[i] = j
    cells: dict[int, int] = {}
    free = list(range(len(target.cells)))
    for i, card in enumerate(source.cells):
        j = next(j for j in free if target.cells[j] == card)
        free.remove(j)
        cells[i] = j

    def place(p: Place) -> Place:
        if p.index is None:
            return p
        if p.kind is Kind.COLUMN:
            return Place.column(columns[p.index])
        if p.kind is Kind.CELL:
            return Place.cell(cells[p.index])
        return p

    return tuple(Move(place(m.source), place(m.target), m.count) for m in moves)


class Prover:
    """Verdicts for the positions of games as they are played (see the module doc)."""

    def __init__(
        self,
        limits: Limits = LIVE_LIMITS,
        *,
        lines: int = 64,
        memory: int = 200_000,
        solver: Callable[[Position, Limits], Result] = solve,
    ) -> None:
        self.limits = limits
        self._solver = solver
        self._lock = threading.Lock()
        self.stats: Counter[Source] = Counter()
        """How many verdicts came from each source (``search``: the solver ran)."""
        # exact position on a recent solution -> (that solution, index of its next move)
        self._line: Lru[Position, tuple[_Line, int]] = Lru(lines * 120)
        # canonical key -> a position on a line with that key
        self._line_keys: Lru[tuple[object, ...], Position] = Lru(lines * 120)
        self._winnable: Lru[tuple[object, ...], bool] = Lru(memory)
        self._lost: Lru[tuple[object, ...], bool] = Lru(memory)

    # ----- what is known --------------------------------------------------------------
    def _known(self, position: Position) -> LiveVerdict | None:
        t0 = time.perf_counter()
        if position.is_won():
            return LiveVerdict("solved", (), "won", time.perf_counter() - t0)
        with self._lock:
            hit = self._line.get(position)
            if hit is not None:
                line, i = hit
                if line.end - i < LOOKAHEAD // 2:
                    self._enter(line, i)
                return LiveVerdict("solved", line.moves[i:], "line", time.perf_counter() - t0)
            key = _canonical(position)
            twin = self._line_keys.get(key)
            if twin is not None and twin in self._line:
                line, i = self._line[twin]
                rest = _relabel(line.moves[i:], twin, position)
                return LiveVerdict("solved", rest, "line", time.perf_counter() - t0)
            if key in self._lost:
                return LiveVerdict("lost", (), "memory", time.perf_counter() - t0)
            if key in self._winnable:
                return LiveVerdict("solved", (), "memory", time.perf_counter() - t0)
        return None

    def known(self, position: Position) -> LiveVerdict | None:
        """The verdict if it is settled without a search, else None."""
        known = self._known(position)
        return None if known is None else self._count(known)

    def _count(self, verdict: LiveVerdict) -> LiveVerdict:
        with self._lock:
            self.stats[verdict.source] += 1
        return verdict

    def _remember_line(self, position: Position, moves: tuple[Move, ...]) -> None:
        line = _Line(moves, 0, position)
        with self._lock:
            self._enter(line, 0)

    def _enter(self, line: _Line, upto: int) -> None:
        """Enter the positions of a line up to index ``upto`` + LOOKAHEAD (lock held):
        the rest is entered as the game comes near, so that a long solution costs
        little up front."""
        moves = line.moves
        if line.end == 0:
            self._put(line.end_position, line, 0)
        stop = min(len(moves), upto + LOOKAHEAD)
        # a turn ends after its auto-moves: never stop inside a run of home moves
        while stop < len(moves) and moves[stop].target.kind is Kind.FOUNDATION:
            stop += 1
        pos = line.end_position
        for i in range(line.end, stop):
            pos = pos.apply_unchecked(moves[i])
            self._put(pos, line, i + 1)
        if stop > line.end:
            line.end, line.end_position = stop, pos

    def _put(self, position: Position, line: _Line, i: int) -> None:
        self._line.put(position, (line, i))
        key = _canonical(position)
        self._line_keys.put(key, position)
        self._winnable.put(key, True)

    def remember_lost(self, position: Position) -> None:
        with self._lock:
            self._lost.put(_canonical(position), True)

    def remember_winnable(self, position: Position) -> None:
        """Remember ``position`` as proven winnable (without a solution)."""
        with self._lock:
            self._winnable.put(_canonical(position), True)

    # ----- the verdict ------------------------------------------------------------------
    def verdict(
        self,
        position: Position,
        previous: Position | None = None,
        limits: Limits | None = None,
        *,
        want_moves: bool = False,
    ) -> LiveVerdict:
        """The verdict for ``position``; ``previous``: the position before the move just
        made, if any (a lost one makes this one lost without a search); ``limits``: of
        the search if one runs (default: the Prover's); ``want_moves``: search again
        when the position is remembered winnable but no solution from it is known."""
        t0 = time.perf_counter()
        known = self._known(position)
        if known is not None and not (
            want_moves and known.source == "memory" and known.verdict == "solved"
        ):
            return self._count(known)
        if previous is not None:
            with self._lock:
                lost_before = _canonical(previous) in self._lost
            if lost_before:
                self.remember_lost(position)
                out = LiveVerdict("lost", (), "inherited", time.perf_counter() - t0)
                return self._count(out)
        result = self._solver(position, self.limits if limits is None else limits)
        if isinstance(result, Solved):
            self._remember_line(position, result.moves)
            out = LiveVerdict("solved", result.moves, "search", time.perf_counter() - t0)
        elif isinstance(result, Lost):
            self.remember_lost(position)
            out = LiveVerdict("lost", (), "search", time.perf_counter() - t0)
        else:
            out = LiveVerdict("unknown", (), "search", time.perf_counter() - t0)
        return self._count(out)
