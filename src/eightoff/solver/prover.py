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

``Prover.speculate(position, passes, stop) -> Speculation``: while the player thinks,
settle the verdict of every position one turn away (each legal move and the safe
auto-moves after it, as :meth:`eightoff.game.Game.play` makes it), so that the verdict
after the next move is a lookup. Most cost nothing:

* after a lost position every child is lost;
* a child reached by a **reversible** move (the move back is legal: a cell card played
  to a column, a card or run taken off the card it was built on) is as winnable as its
  parent, and when the parent's solution is known the child's is the move back and
  then that solution;
* a child and the same child before its safe auto-moves have the same verdict (the
  auto-moves are safe: they never cost the win), and the one before has the
  auto-moves and then the other's solution;
* a child on a known line, or equal to a remembered one, is known already.

The others are searched, in passes of growing limits (the cheap ones first), and
``stop()`` is asked before each search: the caller stops speculation the moment real
work arrives. A search already running is not interrupted (its limit bounds it). A
position whose own search hit its limit is first searched again with ``deepen``'s
longer limits: proven lost, every child is lost at once.

The memory holds bytes (:func:`canonical` keys, exact keys, indices), never tuples of
objects: the garbage collector does not track it, so a full collection does not grow
with it.

Thread-safe (one lock around the memory; the search itself runs outside it).
"""

from __future__ import annotations

import threading
import time
from collections import Counter, OrderedDict
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Final, Generic, Literal, TypeVar

from eightoff.cards import Card
from eightoff.game import Game
from eightoff.position import Kind, Move, Place, Position
from eightoff.rules import Rules

from . import Limits, Lost, Result, Solved, Verdict, check_solution, code_of, move_of, solve

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
    states: int = 0
    """States the search visited (0 when no search ran)."""


@dataclass(frozen=True, slots=True)
class Child:
    """A position one turn away: the player's move, the position right after it, and
    the position after the safe auto-moves it sets off (``raw`` when there are none)."""

    move: Move
    raw: Position
    after: Position
    auto: tuple[Move, ...]


def children(position: Position) -> list[Child]:
    """Every position one turn away (one per canonical key of ``raw``), as the table
    makes them: a legal move, then the safe auto-moves (``Game.play``)."""
    out: list[Child] = []
    seen: set[tuple[object, ...]] = set()
    for move in position.legal_moves():
        raw = position.apply_unchecked(move)
        key = raw.key()
        if key in seen:
            continue
        seen.add(key)
        game = Game(position)
        turn = game.play(move)
        out.append(Child(move, raw, game.position, turn.auto))
    return out


def _reverse(child: Child) -> Move | None:
    """The move that takes ``child.raw`` back to its parent, if it is legal."""
    if child.move.target.index is None:  # home: foundation cards stay unless retrieved
        return None
    back = _shared(Move(child.move.target, child.move.source, child.move.count))
    return back if child.raw.is_legal(back) else None


@dataclass(slots=True)
class Speculation:
    """What one :meth:`Prover.speculate` did."""

    children: int = 0
    known: int = 0
    """Children known before (on a line, remembered)."""
    inherited: int = 0
    """Settled without a search: the parent lost, or a reversible move."""
    searched: int = 0
    unsettled: int = 0
    """Children every pass left unknown (their searches hit the limit), or not
    reached when stopped."""
    left: list[tuple[Position, float | None]] = field(default_factory=list)
    """Positions left unknown, with the seconds their last search was allowed: the
    children the last pass left (after their auto-moves), and the position itself
    when deepening did not settle it."""
    complete: bool = False
    """False when ``stop()`` ended it early."""
    seconds: float = 0.0


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
    """A solution being followed: its moves, and how far its positions are entered
    (bytes and ints only, which the garbage collector does not track)."""

    moves: tuple[Move, ...]
    end: int
    end_key: bytes
    """The exact key of the position after ``moves[:end]``."""
    at: dict[bytes, int] = field(default_factory=dict)
    """Exact key of an entered position -> the index of its next move."""


# ----- keys: bytes, so that the garbage collector never walks the memory ------------------
# (hundreds of thousands of tuples holding a Rules object made every full collection
# take a few hundred milliseconds, paid by whichever request was running)
_RULES: dict[Rules, int] = {}
_RULES_BY_ID: list[Rules] = []
_RULES_LOCK = threading.Lock()
_END, _EMPTY = 0, 1  # below every card code (4…55)


def _rules_id(rules: Rules) -> int:
    rid = _RULES.get(rules)
    if rid is None:
        with _RULES_LOCK:
            rid = _RULES.setdefault(rules, len(_RULES_BY_ID))
            if rid == len(_RULES_BY_ID):
                _RULES_BY_ID.append(rules)
    return rid


def _exact(position: Position) -> bytes:
    """The position exactly (columns and cells in their order), as bytes."""
    out = bytearray(_rules_id(position.rules).to_bytes(2, "big"))
    for col in position.columns:
        out += bytes(col)
        out.append(_END)
    out += bytes(_EMPTY if c is None else c for c in position.cells)
    out += bytes(position.foundations)
    return bytes(out)


def canonical(position: Position) -> bytes:
    """The position up to the order of its columns and of its cards in cells (as
    ``Position.key()``), with its rules, as bytes: the memory's key."""
    out = bytearray(_rules_id(position.rules).to_bytes(2, "big"))
    for col in sorted(position.columns):
        out += bytes(col)
        out.append(_END)
    out += bytes(sorted(c for c in position.cells if c is not None))
    out.append(_END)
    out += bytes(position.foundations)
    return bytes(out)


def _decode(key: bytes) -> Position:
    """The position of an :func:`_exact` key."""
    rules = _RULES_BY_ID[int.from_bytes(key[:2], "big")]
    at = 2
    columns: list[tuple[Card, ...]] = []
    for _ in range(rules.columns):
        end = key.index(_END, at)
        columns.append(tuple(Card(c) for c in key[at:end]))
        at = end + 1
    cells = tuple(None if c == _EMPTY else Card(c) for c in key[at : at + rules.cells])
    foundations = tuple(key[at + rules.cells :])
    return Position(rules, tuple(columns), cells, foundations)


def _pairing(source: Sequence[object], target: Sequence[object]) -> dict[int, int]:
    """For each place of ``source``, the place of ``target`` holding the same thing,
    each target place used once (equal ones paired in order)."""
    pairs: dict[int, int] = {}
    free = list(range(len(target)))
    for i, held in enumerate(source):
        j = next(j for j in free if target[j] == held)
        free.remove(j)
        pairs[i] = j
    return pairs


def _relabel(moves: Sequence[Move], source: Position, target: Position) -> tuple[Move, ...]:
    """The moves of a solution from ``source`` made from ``target``, canonically equal
    to it (same columns and cells in another order): each column and cell renamed to
    the one of ``target`` holding the same cards (empty ones paired in order)."""
    columns = _pairing(source.columns, target.columns)
    cells = _pairing(source.cells, target.cells)

    def place(p: Place) -> Place:
        if p.index is None:
            return p
        if p.kind is Kind.COLUMN:
            return Place.column(columns[p.index])
        if p.kind is Kind.CELL:
            return Place.cell(cells[p.index])
        return p

    return tuple(_shared(Move(place(m.source), place(m.target), m.count)) for m in moves)


def _shared(move: Move) -> Move:
    """The solver's one Move object equal to ``move`` (fewer objects kept)."""
    return move_of(code_of(move))


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
        self.speculated: Counter[str] = Counter()
        """What speculation did: children ``known``, ``inherited``, ``searched``,
        ``unsettled`` (see :class:`Speculation`); ``stopped``: speculations stopped
        early."""
        # exact position on a recent solution -> (that solution, index of its next move)
        self._line: Lru[bytes, _Line] = Lru(lines * 120)
        # canonical key -> the exact key of a position on a line with that key
        self._line_keys: Lru[bytes, bytes] = Lru(lines * 120)
        self._winnable: Lru[bytes, bool] = Lru(memory)
        self._lost: Lru[bytes, bool] = Lru(memory)

    # ----- what is known --------------------------------------------------------------
    def _known(self, position: Position) -> LiveVerdict | None:
        t0 = time.perf_counter()
        if position.is_won():
            return LiveVerdict(Verdict.SOLVED, (), "won", time.perf_counter() - t0)
        with self._lock:
            exact = _exact(position)
            line = self._line.get(exact)
            if line is not None:
                i = line.at[exact]
                if line.end - i < LOOKAHEAD // 2:
                    self._enter(line, i)
                return LiveVerdict(Verdict.SOLVED, line.moves[i:], "line", time.perf_counter() - t0)
            key = canonical(position)
            twin = self._line_keys.get(key)
            line = None if twin is None else self._line.get(twin)
            if twin is not None and line is not None:
                i = line.at[twin]
                rest = _relabel(line.moves[i:], _decode(twin), position)
                return LiveVerdict(Verdict.SOLVED, rest, "line", time.perf_counter() - t0)
            if key in self._lost:
                return LiveVerdict(Verdict.LOST, (), "memory", time.perf_counter() - t0)
            if key in self._winnable:
                return LiveVerdict(Verdict.SOLVED, (), "memory", time.perf_counter() - t0)
        return None

    def known(self, position: Position) -> LiveVerdict | None:
        """The verdict if it is settled without a search, else None."""
        known = self._known(position)
        return None if known is None else self._count(known)

    def _count(self, verdict: LiveVerdict) -> LiveVerdict:
        with self._lock:
            self.stats[verdict.source] += 1
        return verdict

    def _remember_line(
        self, position: Position, moves: tuple[Move, ...], ahead: int = LOOKAHEAD
    ) -> None:
        exact = _exact(position)
        line = _Line(moves, 0, exact)
        with self._lock:
            self._put(position, line, 0, exact)
            self._enter(line, 0, ahead)

    def _enter(self, line: _Line, upto: int, ahead: int = LOOKAHEAD) -> None:
        """Enter the positions of a line up to index ``upto`` + ``ahead`` (lock held):
        the rest is entered as the game comes near, so that a long solution costs
        little up front (a speculated line enters only its start)."""
        moves = line.moves
        stop = min(len(moves), upto + ahead)
        # a turn ends after its auto-moves: never stop inside a run of home moves
        while stop < len(moves) and moves[stop].target.kind is Kind.FOUNDATION:
            stop += 1
        if stop <= line.end:
            return
        pos = _decode(line.end_key)
        for i in range(line.end, stop):
            pos = pos.apply_unchecked(moves[i])
            exact = self._put(pos, line, i + 1)
        line.end, line.end_key = stop, exact

    def _put(self, position: Position, line: _Line, i: int, exact: bytes | None = None) -> bytes:
        exact = _exact(position) if exact is None else exact
        line.at[exact] = i
        self._line.put(exact, line)
        key = canonical(position)
        self._line_keys.put(key, exact)
        self._winnable.put(key, True)
        return exact

    def remember_lost(self, position: Position) -> None:
        with self._lock:
            self._lost.put(canonical(position), True)

    def remember_winnable(self, position: Position) -> None:
        """Remember ``position`` as proven winnable (without a solution)."""
        with self._lock:
            self._winnable.put(canonical(position), True)

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
            want_moves and known.source == "memory" and known.verdict == Verdict.SOLVED
        ):
            return self._count(known)
        if previous is not None:
            with self._lock:
                lost_before = canonical(previous) in self._lost
            if lost_before:
                self.remember_lost(position)
                out = LiveVerdict(Verdict.LOST, (), "inherited", time.perf_counter() - t0)
                return self._count(out)
        result = self._solver(position, self.limits if limits is None else limits)
        self._learn(position, result)
        seconds, states = time.perf_counter() - t0, result.states
        if isinstance(result, Solved):
            out = LiveVerdict(Verdict.SOLVED, result.moves, "search", seconds, states)
        elif isinstance(result, Lost):
            out = LiveVerdict(Verdict.LOST, (), "search", seconds, states)
        else:
            out = LiveVerdict(Verdict.UNKNOWN, (), "search", seconds, states)
        return self._count(out)

    def _learn(self, position: Position, result: Result, ahead: int = LOOKAHEAD) -> None:
        """Remember what a search proved. A solution is replayed once through the
        engine (checked ``Position.apply``) before any position along it is remembered
        as winnable: a solution the rules refuse raises :class:`SolutionError` and
        nothing is remembered. (Lines made from a checked one by legal moves, a move
        back or a turn's auto-moves, need no second replay.)"""
        if isinstance(result, Solved):
            check_solution(position, result.moves)
            self._remember_line(position, result.moves, ahead)
        elif isinstance(result, Lost):
            self.remember_lost(position)

    # ----- speculation ------------------------------------------------------------------
    def speculate(
        self,
        position: Position,
        passes: Sequence[Limits],
        stop: Callable[[], bool] = lambda: False,
        *,
        deepen: Limits | None = None,
    ) -> Speculation:
        """Settle the verdicts of the positions one turn from ``position`` (see the
        module doc): without a search where one follows from what is known, else by
        searches with the limits of each pass in turn (a child a pass leaves unknown
        is tried again in the next). ``stop()`` is asked before each search; when it
        says True the speculation ends at once (``complete`` False).

        When ``position`` itself has no verdict (an earlier search hit its limit), it is
        searched again first with ``deepen``'s limits, if given: a position proven lost
        makes every later one of the game lost without a search. If it stays unknown,
        its children get the first pass only (they are most likely as hard)."""
        t0 = time.perf_counter()
        out = Speculation()
        parent = self._known(position)
        if parent is None and deepen is not None and not position.is_won():
            if stop():
                return self._done(out, t0, complete=False)
            result = self._solver(position, deepen)
            out.searched += 1
            self._learn(position, result)
            parent = self._known(position)
            if parent is None:
                out.left.append((position, deepen.seconds))
                passes = passes[:1]
        kids = children(position)
        out.children = len(kids)
        todo: list[Child] = []
        for child in kids:
            known = self._known(child.after)
            if known is not None:
                self._settle_raw(child, known)
                out.known += 1
            elif parent is not None and parent.verdict == Verdict.LOST:
                self.remember_lost(child.after)
                self.remember_lost(child.raw)
                out.inherited += 1
            elif (
                parent is not None
                and parent.verdict == Verdict.SOLVED
                and (back := _reverse(child))
            ):
                if parent.moves:
                    self._remember_line(child.raw, (back, *parent.moves), ahead=0)
                else:
                    self.remember_winnable(child.raw)
                self.remember_winnable(child.after)
                out.inherited += 1
            else:
                todo.append(child)
        for limits in passes:
            left: list[Child] = []
            for i, child in enumerate(todo):
                if stop():
                    out.unsettled = len(left) + len(todo) - i
                    return self._done(out, t0, complete=False)
                known = self._known(child.after)
                if known is not None:  # found meanwhile (a transposition)
                    self._settle_raw(child, known)
                    out.known += 1
                    continue
                result = self._solver(child.after, limits)
                out.searched += 1
                self._learn(child.after, result, ahead=0)
                if result.verdict == Verdict.UNKNOWN:
                    left.append(child)
                else:
                    self._settle_raw(child, self._known(child.after))
            todo = left
        out.unsettled = len(todo)
        if passes:
            out.left += [(child.after, passes[-1].seconds) for child in todo]
        return self._done(out, t0, complete=True)

    def _settle_raw(self, child: Child, known: LiveVerdict | None) -> None:
        """The child before its auto-moves has the verdict of the child after them."""
        if not child.auto or known is None or self._known(child.raw) is not None:
            return
        if known.verdict == Verdict.LOST:
            self.remember_lost(child.raw)
        elif known.verdict == Verdict.SOLVED:
            if known.moves or child.after.is_won():
                self._remember_line(child.raw, (*child.auto, *known.moves), ahead=0)
            else:
                self.remember_winnable(child.raw)

    def _done(self, out: Speculation, t0: float, *, complete: bool) -> Speculation:
        out.complete = complete
        out.seconds = time.perf_counter() - t0
        with self._lock:
            for name in ("known", "inherited", "searched", "unsettled"):
                self.speculated[name] += getattr(out, name)
            if not complete:
                self.speculated["stopped"] += 1
        return out
