"""Par: the fewest moves that win a position, proven.

``optimal(position, count, limits) -> Par``

Par is the fewest moves under one of the two counts of :mod:`eightoff.counts`:

* **player moves** (the default): a move is what a player does at the table, a single
  card or a group within the limit; the cards that safe auto-move sends home after each
  move (and after the deal) are free, and so is the auto-complete once the win is
  certain.  Auto-move follows every move except one that takes a card back from a
  foundation, as at the table.
* **single-card moves**: only single cards move, every card sent home is one move.

The search (``optimal.h`` in the compiled core) is A* with an admissible bound (blocked
cards and cycles of deadlocked cards); its argument is written there.  A solution found
by the ordinary solver first (``solve`` with ``short``) gives an upper bound: A* then
only looks for shorter solutions, and when it finds none that one is par.  When a limit
stops A*, beam searches of growing width look for shorter solutions in the time kept
for them, and the result keeps the best solution known and the proven lower bound
("par is 31 to 33"); a solution as short as that bound is par.

Whatever is returned was checked here: the solution is played through the rules
(:meth:`Position.apply`) to the win and counted again by :func:`eightoff.counts.count`.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any, Final

from eightoff.counts import MoveCount, count, unfold
from eightoff.game import Game
from eightoff.position import Move, Position

from . import DEFAULT_STATES, Limits, Lost, Solved, Unknown, _core, core_rules, move_of, solve

COMMAND_LINE_MEMORY_MB: Final = 4096
"""The most memory a par search takes by default on the command line."""
TABLE_MEMORY_MB: Final = 512
"""The most memory a par search takes for the table."""


@dataclass(frozen=True, slots=True)
class ParLimits:
    """When a par search stops (None: no limit).  A stopped search still reports the
    best solution known and a proven lower bound."""

    seconds: float | None = 60.0
    states: int | None = None
    memory_mb: int | None = COMMAND_LINE_MEMORY_MB
    threads: int = 1
    """The threads A* runs on (the states split among them by hash: the same par, sooner
    on several cores; the memory limit is for all of them together)."""


TABLE_LIMITS: Final = ParLimits(seconds=20.0, memory_mb=TABLE_MEMORY_MB)


@dataclass(frozen=True, slots=True)
class Par:
    """What a par search found.

    ``moves``: the best solution known, every move explicit (each card sent home is a
    move, auto-moves and auto-complete included), legal from the position in order and
    ending with every card home; empty when none is known.  ``length``: its length in
    ``count`` (None without a solution).  ``lower_bound``: proven, no solution is shorter.
    ``optimal``: the solution is proven to be the shortest (``length == lower_bound``).
    ``lost``: proven that no solution exists at all.
    """

    count: MoveCount
    moves: tuple[Move, ...]
    length: int | None
    lower_bound: int
    optimal: bool
    lost: bool
    states: int
    seconds: float
    reason: str = ""
    """Why the search stopped before the proof ("time limit reached"), else empty."""

    @property
    def par(self) -> int | None:
        """The proven fewest moves, or None when not proven."""
        return self.length if self.optimal else None

    def to_json(self) -> dict[str, Any]:
        """The bounds for JSON readers: a lost deal has no par, so neither a solution
        proven optimal nor a lower bound (``"lost": true`` and the three null)."""
        return {
            "count": self.count.value,
            "optimal": self.optimal and not self.lost,
            "par": self.par,
            "lower_bound": None if self.lost else self.lower_bound,
            "upper_bound": self.length,
            "lost": self.lost,
            "states": self.states,
            "seconds": round(self.seconds, 6),
            "reason": self.reason or None,
        }


def stopped_by_memory(reason: str) -> bool:
    """Whether a par search's ``reason`` (:attr:`Par.reason`, as the table keeps it) says
    that the memory limit stopped it before the proof (the time limit did not)."""
    return reason == _core.OPTIMAL_STATUS[_MEMORY]


def joined_bounds(kept: tuple[int, int | None], new: tuple[int, int | None]) -> tuple[int, bool]:
    """Two searches' bounds of one start in one count, (lower bound, length of the best
    solution or None), neither proven, joined: the higher lower bound, and whether the
    kept search's solution is the one to keep (the shorter; the new one's where they
    tie: a longer search may end with a longer solution). Where that lower bound reaches
    the solution's length, the solution is par."""
    (kept_lower, kept_upper), (new_lower, new_upper) = kept, new
    keep = kept_upper is not None and (new_upper is None or kept_upper < new_upper)
    return max(kept_lower, new_lower), keep


def joined(kept: Par, new: Par) -> Par:
    """``new``, a later search of ``kept``'s start in its count, joined with it: a proven
    par or a lost deal as found (``kept``'s first); else bounds by :func:`joined_bounds`,
    proven where they meet; ``new``'s states, time and reason (the search the words
    name)."""
    if kept.optimal or kept.lost:
        return kept
    if new.optimal or new.lost:
        return new
    lower, keep = joined_bounds((kept.lower_bound, kept.length), (new.lower_bound, new.length))
    moves, length = (kept.moves, kept.length) if keep else (new.moves, new.length)
    if length is not None and lower >= length:
        return replace(new, moves=moves, length=length, lower_bound=length, optimal=True, reason="")
    return replace(new, moves=moves, length=length, lower_bound=lower)


class ParCheckError(RuntimeError):
    """A solution of the compiled search failed the engine's check (a bug, never shown
    as a result)."""


CORE_COUNT: Final = {MoveCount.PLAYER: _core.COUNT_PLAYER, MoveCount.SINGLE: _core.COUNT_SINGLE}
"""The compiled search's code of each count (``_core.optimal``'s ``count``)."""
_STOPPED: Final = (3, 4, 5)
"""The compiled search's statuses when a limit stopped it."""
_STATES: Final = 3
"""The compiled search's status when the state limit stopped it."""
_MEMORY: Final = 5
"""The compiled search's status when the memory limit stopped it."""
_BEAM_FOUND: Final = 7
"""The beam search found a solution (not proven shortest)."""
_BEAM_DRY: Final = 8
"""The beam ran dry: nothing shorter found at that width."""
_BEAM_GAP: Final = 10
"""The beam runs (after A*, where A* is stopped) when the first solution is more than
this above the bound at the start (the bound after one expansion)."""
_BEAM_SHARE: Final = 0.12
"""The share of the time left that is kept for the beam searches after A* (where A* is
stopped by a limit)."""
_BEAM_IDLE: Final = 2
"""The beam stops widening after this many widths in a row found nothing shorter, once
one width has shortened the first solution (until then it widens for all its share of
the time: narrow beams can run dry on a deal where wider ones find a far shorter
solution, FreeCell 391)."""
_FIRST_BEAM: Final = 100
"""The first beam's width (each next one four times as wide)."""
_FILL_MB_PER_SECOND: Final = 64
"""About how fast A* fills memory on one thread with states stored by their canonical
keys (FreeCell, this project's 2-core benchmark machine: 2.17 million states, 260 MiB, in
4.1 s).  Where the limits' memory is less than their time would fill, A* stores states by
their compact records instead (about two fifths of the memory a state, up to a tenth
more time): at the table (20 s, 512 MiB, one thread), not on the command line's 10 s in
4 GiB."""


def compact_for(limits: ParLimits) -> bool:
    """Whether a par search within ``limits`` stores its states by their compact
    records: where its memory limit, not its time, would stop it first."""
    if limits.memory_mb is None:
        return False
    if limits.seconds is None:
        return True
    return limits.memory_mb < limits.seconds * max(1, limits.threads) * _FILL_MB_PER_SECOND


def _length(position: Position, moves: tuple[Move, ...], which: MoveCount) -> int:
    """Play the moves through the rules to the win; their length in ``which``."""
    p = position
    for m in moves:
        p = p.apply(m)
    if not p.is_won():
        raise ParCheckError("the solution does not end with every card home")
    return count(position, moves).of(which)


def _explicit(position: Position, steps: list[Move], which: MoveCount) -> tuple[Move, ...]:
    """The compiled search's steps as a full solution: with player moves, each step is
    played as the table plays it (safe auto-moves after it), the deal's own auto-moves
    first and the auto-complete last."""
    if which is MoveCount.SINGLE:
        return tuple(steps)
    game = Game(position)
    game.auto_home()
    for move in steps:
        game.play(move)
    if not game.position.is_won():
        game.auto_complete()
    return tuple(game.moves())


def _single_moves(position: Position, moves: tuple[Move, ...]) -> tuple[Move, ...]:
    """A solution with each group move written out as the single moves it stands for."""
    out: list[Move] = []
    p = position
    for m in moves:
        for s in unfold(p, m):
            out.append(s)
            p = p.apply(s)
    return tuple(out)


def optimal(
    position: Position,
    which: MoveCount = MoveCount.PLAYER,
    limits: ParLimits = ParLimits(),
    *,
    first_solution: bool = True,
) -> Par:
    """The fewest moves that win ``position`` in the count ``which`` (see the module).
    ``first_solution``: start from the ordinary solver's short solution as an upper bound
    (without it, A* alone finds par: the tests hold it to a breadth-first search so)."""
    t0 = time.perf_counter()

    def left() -> float:
        if limits.seconds is None:
            return 0.0
        return max(1e-3, limits.seconds - (time.perf_counter() - t0))

    memory = None if limits.memory_mb is None else max(1, limits.memory_mb)
    # an upper bound first: the ordinary solver's short solution
    first: Solved | Lost | Unknown = Unknown(0, 0.0, "not asked")
    if first_solution:
        first = solve(
            position,
            Limits(
                seconds=None if limits.seconds is None else max(1e-3, limits.seconds / 4),
                states=DEFAULT_STATES if limits.states is None else limits.states,
                short=True,
                memory_mb=None if memory is None else max(1, memory // 2),
            ),
        )
    states = first.states
    best: tuple[Move, ...] = ()
    length: int | None = None
    if isinstance(first, Lost):
        return Par(which, (), None, 0, True, True, states, time.perf_counter() - t0)
    if isinstance(first, Solved):
        best = first.moves
        if which is MoveCount.SINGLE:
            best = _single_moves(position, best)
        length = _length(position, best, which)
    rules = core_rules(position.rules)
    core_memory = 0 if memory is None else memory << 20
    compact = compact_for(limits)

    def run(
        seconds: float, upper: int, beam: int = 0, max_states: int = 0, threads: int = 1
    ) -> tuple[int, int, list[Move]]:
        """One call of the compiled search: (status, lower bound, steps). The state
        limit is the whole par search's: each call may store what the calls before it
        left (at least one state: then it stops at once, "state limit reached"), and
        its states are added to ``states``."""
        nonlocal states
        if not max_states and limits.states is not None:
            max_states = max(1, limits.states - states)
        status, lower, _found, n, steps = _core.optimal(
            rules,
            position.columns,
            position.cells,
            position.foundations,
            CORE_COUNT[which],
            upper,
            max_states,
            seconds,
            core_memory,
            beam=beam,
            threads=threads,
            compact=compact,
        )
        states += n
        return status, lower, [move_of(s << 16 | d << 8 | k) for s, d, k in steps]

    def take(steps: list[Move]) -> None:
        """A solution of the compiled search, played and counted again: the best if
        shorter."""
        nonlocal best, length
        found = _explicit(position, steps, which)
        n = _length(position, found, which)
        if n != len(steps):
            raise ParCheckError(f"the par solution counts {n} moves, the search said {len(steps)}")
        if length is None or n < length:
            best, length = found, n

    timed = limits.seconds is not None
    try:
        _status, root, _steps = run(left() if timed else 0.0, 0, max_states=1)
    except ValueError as e:
        return Par(which, best, length, 0, False, False, states, time.perf_counter() - t0, str(e))
    # A* first: a proof takes what it takes whatever the upper bound (A* expands every
    # state of f below par, and a looser bound only stores more states open), so A*
    # gets the time, but for a share kept for a beam search when the first solution is
    # far above the bound at the start (FreeCell's deals, not most Eight Off ones):
    # where A* is stopped, the beam looks for shorter solutions, narrowing "par is L to
    # U" (and proving par when it finds one of A*'s lower bound).
    beam = timed and (length is None or length - root > _BEAM_GAP)
    status, lower, steps = run(
        left() * (1 - _BEAM_SHARE) if beam else left(), length or 0, threads=max(1, limits.threads)
    )
    if status in _STOPPED:
        lower = max(lower, root)
        if beam and status != _STATES:  # the state limit left the beam nothing to store
            _beam(run, take, lambda: length, time.perf_counter() + left())
    if steps:
        take(steps)
    elif status == 1:  # already won, or a certain win
        best = _explicit(position, [], which)
        length = _length(position, best, which)
    seconds = time.perf_counter() - t0
    reason = "" if status in (1, 2, 6) else _core.OPTIMAL_STATUS[status]
    if status == 6:
        return Par(which, (), None, 0, True, True, states, seconds)
    if status in (1, 2):
        assert length is not None
        return Par(which, best, length, length, True, False, states, seconds)
    bound = lower if length is None else min(lower, length)
    if length == bound:  # the beam after A* found a solution as short as A*'s bound
        reason = ""
    return Par(which, best, length, bound, length == bound, False, states, seconds, reason)


def _beam(
    run: Callable[..., tuple[int, int, list[Move]]],
    take: Callable[[list[Move]], None],
    length: Callable[[], int | None],
    until: float,
) -> None:
    """Beam searches of growing width until ``until`` (perf_counter), each for a solution
    shorter than ``length()``, each found given to ``take``; the widening stops when it
    no longer shortens the solution (_BEAM_IDLE) or a limit stops a search."""
    width, idle, shortened = _FIRST_BEAM, 0, False
    while (rest := until - time.perf_counter()) > 0.01 and (idle < _BEAM_IDLE or not shortened):
        before = length()
        b_status, _b_lower, steps = run(rest, before or 0, beam=width)
        if steps:
            take(steps)
        if b_status not in (_BEAM_FOUND, _BEAM_DRY):
            break  # a limit stopped it
        if length() != before:
            idle, shortened = 0, True
        else:
            idle += 1
        width *= 4
