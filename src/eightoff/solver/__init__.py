"""The solver: a proven verdict for a position of any variant.

``solve(position, limits) -> Solved | Lost | Unknown``

* ``Solved``: a solution, every move explicit (each card sent home is a move),
  legal from ``position`` in order, ending with every card home.
* ``Lost``: the search space was exhausted: a proof that no sequence of moves wins.
* ``Unknown``: a limit (time, states, memory, disk) stopped the search: no verdict.

The search runs in a compiled core (``_core``: core.h the rules, search.h and the
headers it includes the search); how it searches each variant is declared in
:mod:`eightoff.solver.plans`.  This module converts positions and moves at its edge.

The solver's word is checked, never taken on trust:

* every solution is replayed in the core before it is returned, against the core's
  list of legal moves (``replay.h``, held to the Python engine by the differential
  test), not against the search's own generators; a refused one raises
  :class:`SolutionError`, never an ``Unknown``;
* what is remembered along a solution as proven (the Prover's lines) is first replayed
  once through the Python engine itself (:func:`check_solution`, checked
  ``Position.apply``);
* a position that does not fit its own rules is a ``ValueError`` to the caller.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field
from typing import Final, TypeVar

from eightoff.counts import Counts, count, group_cost
from eightoff.position import HOME, Move, Place, Position
from eightoff.rules import Build, EmptyColumn, GroupLimit, Rules
from eightoff.verdict import Verdict as Verdict

from . import _core
from .kept import KeptSearch as KeptSearch
from .kept import core_build as core_build
from .kept import keep_words
from .kept import kept_searches as kept_searches
from .plans import SHORT_STATES as SHORT_STATES
from .plans import DiveRules as DiveRules
from .plans import Plan as Plan
from .plans import Search as Search
from .plans import plan_for as plan_for

DEFAULT_STATES: Final = 5_000_000
"""The states a search may store unless told otherwise (:class:`Limits`)."""


@dataclass(frozen=True, slots=True)
class Limits:
    """When to give up (→ Unknown). None means no limit."""

    seconds: float | None = 60.0
    states: int | None = DEFAULT_STATES
    short: bool = False
    """Spend more effort for a shorter solution."""
    memory_mb: int | None = 1024
    """Most memory the search's tables may take, in MiB."""
    disk_mb: int = 0
    """Where the memory ends, the complete search goes on on disk (disk.h) with at most
    this many MiB of files; 0: it does not (the search ends "memory limit reached"
    unless the beam search that has a try for a win where the memory ends finds one).
    On disk, ``memory_mb`` is the size of the sorted chunks and ``states`` counts the
    states expanded there as well."""
    disk_dir: str | None = None
    """The directory for the disk search's files (a directory of its own is made in it
    and removed); None: TMPDIR or /tmp."""
    disk_keep: bool = False
    """Where a limit or a signal stops the search on disk, keep its files, and go on
    from them when the same search of the same position runs again (a kept search:
    :mod:`eightoff.solver.kept`); a verdict removes them."""
    disk_threads: int = 1
    """The threads the search on disk expands a layer with (the layers are the same
    whatever their number; ``seconds`` with ``cpu_time`` counts the CPU time of all)."""
    cpu_time: bool = False
    """``seconds`` counts the CPU time the search takes on its thread instead of the wall
    time, so that a machine busy with other work gives the same verdicts (the command
    line's solve and survey); wall time suits a caller who waits for the answer."""


DEFAULT_LIMITS = Limits()


@dataclass(frozen=True, slots=True)
class Solved:
    moves: tuple[Move, ...]
    states: int
    seconds: float
    verdict: Verdict = field(default=Verdict.SOLVED, init=False)


@dataclass(frozen=True, slots=True)
class Lost:
    states: int
    seconds: float
    verdict: Verdict = field(default=Verdict.LOST, init=False)
    moves: tuple[Move, ...] = field(default=(), init=False)


@dataclass(frozen=True, slots=True)
class Unknown:
    states: int
    seconds: float
    reason: str = "limit reached"
    verdict: Verdict = field(default=Verdict.UNKNOWN, init=False)
    moves: tuple[Move, ...] = field(default=(), init=False)


Result = Solved | Lost | Unknown


class SolutionError(RuntimeError):
    """The solver returned a solution that the rules refuse: a bug in the compiled core,
    never a verdict. The message names the position (the deal when known) and the move."""


def check_solution(position: Position, moves: tuple[Move, ...], what: str = "") -> None:
    """Replay ``moves`` from ``position`` through the rules engine (checked
    ``Position.apply``); raise :class:`SolutionError` naming ``what`` (e.g. "FreeCell
    deal #617"; default: the position's variant) unless every move is legal in turn and
    the last leaves every card home."""
    name = what or f"a position of {position.rules.name}"
    pos = position
    for i, move in enumerate(moves):
        try:
            pos = pos.apply(move)
        except ValueError as e:
            raise SolutionError(
                f"the solver's solution for {name} is refused at move {i + 1} ({move}): {e}"
            ) from None
    if not pos.is_won():
        raise SolutionError(
            f"the solver's solution for {name} ends with cards left after {len(moves)} moves"
        )


SOLVED: Final = _core.SOLVED
LOST: Final = _core.LOST


def _group_cost_or_none(count: int, empty_cells: int, empty_columns: int) -> int | None:
    try:
        return group_cost(count, empty_cells, empty_columns)
    except ValueError:  # a group the room cannot carry: never offered
        return None


# the compiled replay counts single-card moves with eightoff.counts' own costs
_core.set_group_costs(_group_cost_or_none)


def core_rules(rules: Rules) -> dict[str, int]:
    """The rules as the compiled core reads them: core.h's ``eo_rules`` by field name."""
    return {
        "ncols": rules.columns,
        "ncells": rules.cells,
        "nfound": rules.foundations,
        "alt": rules.build is Build.ALTERNATE,
        "kings_only": rules.empty_column is EmptyColumn.KINGS,
        "supermove": rules.group_move is GroupLimit.SUPERMOVE,
        "retrieval": rules.foundation_retrieval,
        "strict": rules.strict_single,
        "total": rules.cards,
    }


def _place(code: int) -> Place:
    if code == _core.HOME:
        return HOME
    if code >= _core.FOUNDATION:
        return Place.foundation(code - _core.FOUNDATION)
    if code >= _core.CELL:
        return Place.cell(code - _core.CELL)
    return Place.column(code)


class _MoveCache(dict[int, Move]):
    """Move objects by the core's code ``src << 16 | dst << 8 | count``, made once."""

    def __missing__(self, code: int) -> Move:
        move = Move(_place(code >> 16), _place((code >> 8) & 255), code & 255)
        self[code] = move
        return move


_MOVES: Final = _MoveCache()


def move_of(code: int) -> Move:
    """The Move for one of the core's move codes."""
    return _MOVES[code]


def code_of(move: Move) -> int:
    """The core's code for a Move (inverse of :func:`move_of`)."""

    def place(p: Place) -> int:
        if p.index is None:
            return int(_core.HOME)
        base = {"column": 0, "cell": _core.CELL, "foundation": _core.FOUNDATION}[p.kind.value]
        return int(base) + p.index

    return place(move.source) << 16 | place(move.target) << 8 | move.count


@dataclass(frozen=True, slots=True)
class _Setups:
    """A variant's plan in the core's form: the main search, and the short search."""

    main: _core.Setup
    short: _core.Setup
    keep: tuple[str, str]
    """The main search's words for a kept search (kept.keep_words)."""


_K = TypeVar("_K")
_V = TypeVar("_V")


def _by_identity(cache: dict[int, tuple[_K, _V]], key: _K, make: Callable[[_K], _V]) -> _V:
    """``make(key)``, kept in ``cache`` by ``id(key)`` (each entry holds its key, so that
    the id stays its own): most calls pass the same few rules and limits, and an id
    costs less than a hash of every field.  Keys made afresh again and again
    (``with_options``) fill it: at 256 it starts over."""
    entry = cache.get(id(key))
    if entry is not None and entry[0] is key:
        return entry[1]
    value = make(key)
    if len(cache) >= 256:
        cache.clear()
    cache[id(key)] = (key, value)
    return value


def _make_setups(rules: Rules) -> _Setups:
    plan = plan_for(rules)
    fields = core_rules(rules)
    main = asdict(plan.main)
    return _Setups(
        _core.Setup(fields, main), _core.Setup(fields, asdict(plan.short)), keep_words(fields, main)
    )


_SETUPS: dict[int, tuple[Rules, _Setups]] = {}
"""Each Rules' setups (_by_identity)."""


def _setups(rules: Rules) -> _Setups:
    return _by_identity(_SETUPS, rules, _make_setups)


def _search(
    setup: _core.Setup,
    position: Position,
    states: int,
    seconds: float,
    memory: int,
    disk: int = 0,
    disk_dir: str | None = None,
    cpu_clock: bool = False,
    disk_keep: tuple[str, str] | None = None,
    disk_threads: int = 1,
) -> tuple[int, int, tuple[Move, ...]]:
    """One run of the core; a solution the compiled replay refuses raises."""
    status, visited, moves = _core.solve(
        setup,
        position.columns,
        position.cells,
        position.foundations,
        states,
        seconds,
        memory,
        _MOVES,
        disk,
        disk_dir,
        None,
        cpu_clock,
        disk_keep,
        disk_threads,
    )
    if status == _core.REPLAY_FAILED:
        index, length = moves
        at = "ends with cards left" if index >= length else f"is refused at move {index + 1}"
        raise SolutionError(
            f"the solver's solution for a position of {position.rules.name} {at} by the"
            " compiled replay: a bug in the solver, please report it"
        )
    return status, visited, moves


def _core_limits(limits: Limits) -> tuple[int, float, int]:
    """The limits as the core reads them: states, seconds, bytes (0: no limit)."""
    states = 0 if limits.states is None else max(1, limits.states)
    seconds = 0.0 if limits.seconds is None else max(1e-9, limits.seconds)
    memory = 0 if limits.memory_mb is None else max(1, limits.memory_mb) << 20
    return states, seconds, memory


def _solve_limits(limits: Limits) -> tuple[int, float, int, int, int]:
    """What ``solve`` gives the core of ``limits``: states, seconds and bytes
    (:func:`_core_limits`), the disk's bytes and the disk search's threads."""
    return (*_core_limits(limits), _core_disk(limits), max(1, limits.disk_threads))


_LIMITS: dict[int, tuple[Limits, tuple[int, float, int, int, int]]] = {}
"""Each Limits' core form (_by_identity): worked out afresh, it was a tenth of a small
solve's Python."""


def _core_disk(limits: Limits) -> int:
    """The disk limit as the core reads it: bytes (0: no search on disk)."""
    return max(0, limits.disk_mb) << 20


def available_cores() -> int:
    """The cores this process may run on (its affinity, as taskset sets it)."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # not Linux
        return max(1, os.cpu_count() or 1)


def _core_keep(limits: Limits, setups: _Setups) -> tuple[str, str] | None:
    """A kept search's words as the core reads them (None: not kept)."""
    return setups.keep if limits.disk_keep and limits.disk_mb > 0 else None


def solve(position: Position, limits: Limits = DEFAULT_LIMITS) -> Result:
    """Search for a win from ``position``; see the module docstring for the verdicts.

    Raises ``ValueError`` when the position does not fit its rules (wrong number of
    columns, cells or foundations, something that is not a card), and
    :class:`SolutionError` when the search's solution fails the compiled replay.

    Up to three searches run, each only if the one before failed: a greedy dive and
    then a best-first search, both over purposeful steps (fast, not complete), then
    the complete search, which alone can prove a loss.  With ``limits.short`` a
    solution is then looked for again with more weight on its length (best-first, the
    moves made count against a state, at most SHORT_STATES states), and shortened;
    the shorter of the two solutions in player moves is returned (in single-card moves
    where they tie), so a short solution is never longer than the default one.
    """
    t0 = time.perf_counter()
    clock = time.thread_time if limits.cpu_time else time.perf_counter  # the limit's
    c0 = clock() if limits.cpu_time else t0
    setups = _setups(position.rules)
    max_states, seconds, memory, disk, threads = _by_identity(_LIMITS, limits, _solve_limits)
    status, states, moves = _search(
        setups.main,
        position,
        max_states,
        seconds,
        memory,
        disk,
        limits.disk_dir,
        limits.cpu_time,
        _core_keep(limits, setups),
        threads,
    )
    if status == SOLVED and limits.short:
        left = None if limits.seconds is None else limits.seconds - (clock() - c0)
        budget = SHORT_STATES if not max_states else min(SHORT_STATES, max_states - states)
        if budget > 0 and (left is None or left > 0):
            status2, states2, moves2 = _search(
                setups.short,
                position,
                budget,
                0.0 if left is None else left,
                memory,
                cpu_clock=limits.cpu_time,
            )
            states += states2
            if status2 == SOLVED and _fewer_moves(position, moves2, moves):
                moves = moves2
    took = time.perf_counter() - t0
    if status == SOLVED:
        return Solved(moves, states, took)
    if status == LOST:
        return Lost(states, took)
    return Unknown(states, took, _core.STATUS[status])


def _fewer_moves(position: Position, moves: Sequence[Move], than: Sequence[Move]) -> bool:
    """Whether ``moves`` is the shorter solution from ``position``: fewer player moves,
    the count ``solve`` is shown in (:mod:`eightoff.counts`), then fewer single-card
    moves.  The short search weighs the moves as the core lists them (each card home
    one), so its solution may be the longer one in player moves (FreeCell 153: 56 against
    53)."""
    a, b = count(position, moves), count(position, than)
    return (a.player, a.single_card) < (b.player, b.single_card)


@dataclass(frozen=True, slots=True)
class Player:
    """A simulated player that the compiled core plays a deal with (the rating's
    players): it looks ``depth`` moves ahead over its ``width`` best moves and stops
    after ``max_moves``, or, when ``undo`` > 0, plays by backtracking with at most
    ``undo`` undos. ``noise`` (in percent) and ``seed`` make its mistakes."""

    seed: int
    noise: int
    depth: int = 0
    width: int = 0
    max_moves: int = 0
    undo: int = 0


def play_games(position: Position, players: Sequence[Player]) -> list[tuple[bool, int]]:
    """Each player's game from ``position``: (won, cards home)."""
    specs = [
        (_core.PLAYER_BACKTRACK, 0, 0, p.noise, p.undo, p.seed)
        if p.undo
        else (_core.PLAYER_LOOKAHEAD, p.depth, p.width, p.noise, p.max_moves, p.seed)
        for p in players
    ]
    results = _core.play(
        core_rules(position.rules), position.columns, position.cells, position.foundations, specs
    )
    return [(won, home) for won, home, _ in results]


@dataclass(frozen=True, slots=True)
class DealBlock:
    """Consecutive deals solved in one call of the compiled core (:func:`solve_deals`):
    one entry per deal in each array, deal ``first + i`` at index ``i``."""

    first: int
    status: Sequence[int]
    """1 solved (the solution replayed by the compiled rules), 2 lost, 3-5 a limit."""
    states: Sequence[int]
    seconds: Sequence[float]
    """Each deal's CPU time in the core: its dealing, search and replay (from the end of
    the deal before, so a block's times add up to its CPU time in the core)."""
    lengths: Sequence[int]
    """Solution lengths (0 unless solved)."""
    keys: Sequence[int] | None = None
    """With ``keep_moves``: every solution's moves in order, as the replay describes them
    (``_core.solve_range``); deal i's are the ``lengths[i]`` after those before it."""
    player_moves: Sequence[int] = ()
    """Each solution's length in player moves (eightoff.counts; 0 unless solved), as the
    compiled replay counts it (held to eightoff.counts by tests/unit/test_solve_output.py)."""
    single_card_moves: Sequence[int] = ()
    """Each solution's length in single-card moves (likewise)."""

    def verdicts(self) -> list[Verdict]:
        return [verdict_of(code) for code in self.status]


_VERDICTS: Final = {SOLVED: Verdict.SOLVED, LOST: Verdict.LOST}


def verdict_of(status: int) -> Verdict:
    """The verdict of one of the compiled core's statuses (1 solved, 2 lost, else a
    limit: unknown)."""
    return _VERDICTS.get(status, Verdict.UNKNOWN)


def deal_layout(rules: Rules) -> tuple[int, int, tuple[int, ...]]:
    """How the compiled core lays a numbered deal out (deals.h, eo_layout)."""
    return (rules.decks, rules.dealt_to_columns, rules.dealt_cells)


def solve_deals(
    rules: Rules, first: int, count: int, limits: Limits = DEFAULT_LIMITS, keep_moves: bool = False
) -> DealBlock:
    """Deal and solve deals ``first`` … ``first + count - 1`` in one call of the compiled
    core, with no Python between deals: the deals come from the compiled copy of the deal
    rule, each solution is replayed by the compiled rules before it counts as solved (a
    refused one has status ``_core.REPLAY_FAILED``, its length the index of the move
    refused: a bug, never a verdict).  The main search only: ``limits.short`` is for
    :func:`solve`."""
    if limits.short:
        raise ValueError("solve_deals runs the main search only; use solve() for short")
    max_states, seconds, memory = _core_limits(limits)
    setups = _setups(rules)
    status, states, times, lengths, keys, player, single = _core.solve_range(
        setups.main,
        deal_layout(rules),
        first,
        count,
        max_states,
        seconds,
        memory,
        keep_moves,
        _core_disk(limits),
        limits.disk_dir,
        limits.cpu_time,
        _core_keep(limits, setups),
        max(1, limits.disk_threads),
    )
    return DealBlock(first, status, states, times, lengths, keys, player, single)


def reason_of(status: int) -> str:
    """Why the core stopped without a verdict ("state limit reached", ...), as
    :class:`Unknown` says it."""
    return str(_core.STATUS[status])


@dataclass(frozen=True, slots=True)
class Played:
    """A solution as the compiled replay describes it for an output: each move's key
    (replay.h, eo_move_key: source, resolved target, count, the card that moves and a
    group's top card) and its length in both counts (eightoff.counts)."""

    keys: Sequence[int]
    counts: Counts


def played(position: Position, moves: Sequence[Move]) -> Played:
    """``moves`` from ``position`` described by the compiled replay (which checks them
    again): raise :class:`SolutionError` unless they replay to a win."""
    bad, keys, player, single = _core.move_keys(
        core_rules(position.rules),
        position.columns,
        position.cells,
        position.foundations,
        [code_of(m) for m in moves],
    )
    if bad >= 0:
        raise SolutionError(
            f"the solver's solution for a position of {position.rules.name} is refused at"
            f" move {bad + 1} by the compiled replay: a bug in the solver, please report it"
        )
    return Played(keys, Counts(player, single))


def place_of(code: int) -> Place:
    """The Place of one of the core's place codes (a foundation for 32 + f)."""
    return _place(code)


def moves_of_keys(keys: Sequence[int]) -> tuple[Move, ...]:
    """The Moves of a solution given as the replay's keys (replay.h, eo_move_key: what
    ``solve_deals(..., keep_moves=True)`` returns): a key whose target is a foundation is
    a move home."""
    home = int(_core.HOME)
    found = int(_core.FOUNDATION)
    out = []
    for k in keys:
        dst = (k >> 8) & 255
        out.append(_MOVES[(k & 255) << 16 | (home if dst >= found else dst) << 8 | (k >> 16) & 255])
    return tuple(out)
