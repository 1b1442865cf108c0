"""The solver: a proven verdict for a position of any variant.

``solve(position, limits) -> Solved | Lost | Unknown``

* ``Solved``: a solution, every move explicit (each card sent home is a move),
  legal from ``position`` in order, ending with every card home.
* ``Lost``: the search space was exhausted: a proof that no sequence of moves wins.
* ``Unknown``: a limit (time, states, memory) stopped the search: no verdict.

The search runs in a compiled core (``_core``, built from ``core.h`` and
``search.h``); this module converts positions and moves at its edge.

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

import time
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from typing import Final

from eightoff.position import HOME, Move, Place, Position
from eightoff.rules import Build, EmptyColumn, GroupLimit, Rules
from eightoff.verdict import Verdict as Verdict

from . import _core


@dataclass(frozen=True, slots=True)
class Limits:
    """When to give up (→ Unknown). None means no limit."""

    seconds: float | None = 60.0
    states: int | None = 5_000_000
    short: bool = False
    """Spend more effort for a shorter solution."""
    memory_mb: int | None = 1024
    """Most memory the search's tables may take, in MiB."""


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


SOLVED: Final = 1
LOST: Final = 2


def rules_tuple(rules: Rules) -> tuple[int, ...]:
    """The rules as the compiled core reads them."""
    return (
        rules.columns,
        rules.cells,
        rules.foundations,
        rules.build is Build.ALTERNATE,
        rules.empty_column is EmptyColumn.KINGS,
        rules.group_move is GroupLimit.SUPERMOVE,
        rules.foundation_retrieval,
        rules.strict_single,
        rules.cards,
    )


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
class DiveRules:
    """How the greedy dive chooses its steps (search.h, ``eo_dive_rules``: the same fields
    by the same names, each passed to the core as it is)."""

    home_stop_keeps_space: bool = False
    """The dive stops at the first step that sends a card home only if that step left as
    many empty cells and columns as before (else it scores that step with its siblings)."""
    whole_runs_to_empty: bool = False
    """The dive moves into an empty column only a column's whole top run (as much of it as
    may move), never a single card."""
    whole_runs_to_parent: bool = False
    """The dive moves a column's cards onto another column only as the column's whole top
    run (when all of it may move), never a part of it that lies on a natural parent."""
    dig_home_first: bool = False
    """The dive tries the digging steps that send a card home right after the single moves
    home, before the other steps."""
    cell_to_empty_needs_child: bool = False
    """The dive moves a cell card into an empty column only when a card that would lie on
    it is on top of a column or in a cell."""
    home_digs_before_moves: bool = False
    """The dive first tries the digs home, fewest cards first, before it generates any
    other step, and takes the first that leaves at most one empty cell or column fewer;
    should that one fail, it tries the state's other steps."""
    cell_to_parent_first: bool = False
    """With at most 3 free cells, the dive next tries (after the digs home) the moves of a
    cell card onto its parent on top of a column, before it generates any other step, and
    takes the first that leads to a new state without making or scoring its siblings."""


@dataclass(frozen=True, slots=True)
class Plan:
    """How the compiled core searches a variant (see ``_core.solve`` and search.h)."""

    weights: tuple[int, ...]
    dive_states: int = 300
    """The first stage's states: the greedy dive, or the portfolio in turns."""
    stages: int = 7
    """4 the dive (or portfolio), 1 best-first over purposeful steps, 2 the complete search."""
    quick_states: int = 20_000
    portfolio: tuple[tuple[tuple[int, ...], int, int], ...] = ()
    """(weights, noise, method) for each search run in turns: method 0 the dive, 1
    best-first, 2 best-first without the dig that moves a card onto a dug one, 3 the dive
    making the digs onto a parent only once a state's other steps have failed."""
    port_quota: int = 1000
    dive: DiveRules = DiveRules()
    """The dive's rules (the portfolio's dives too)."""


def plan_for(rules: Rules) -> Plan:
    """The search plan for a variant; tuned on deals listed in bench/README.md."""
    if rules.build is Build.ALTERNATE:
        if rules.foundations == 4:
            # FreeCell: two dives and two best-first searches, a greedy one and the
            # plain one, in turns (quotas of 1000 states, doubling), then the complete
            # search.  Each solves deals the others are slow on (FreeCell 63777: the
            # dive and the greedy one fail for millions of states, the plain one needs
            # 4,586).  The
            # greedy one leaves out the dig onto a dug card (method 2): on FreeCell
            # 1-4000 the solves' mean time fell by 9-18%, their max by half.
            # The dive takes Baker's Game's two rules (see below): on deals 1-2000 the
            # states of a solve, median / mean, 279 / 546 -> 238 / 423, CPU time x0.93 /
            # x0.81, median solution 98 -> 97 moves; checked on 2001-4000: 286 / 530 ->
            # 233 / 420, x0.92 / x0.84, 98 -> 97 moves.  Either rule alone was worse:
            # whole runs alone, 241 / 434 states but 102 moves; the stop alone, 289 / 596.
            # Its dive also moves a column's cards onto another column only as the whole
            # top run, and tries the digs that send a card home first (round 3c, search.h):
            # states 238 / 423 -> 177 / 308 on 1-2000, 233 / 420 -> 177 / 340 on 2001-4000,
            # CPU time (interleaved, best of 5) x0.86 / x0.76 and x0.88 / x0.84, median
            # solution 97 -> 95 moves on both.
            # A dive that makes the digs onto a parent only after a state's other steps
            # failed (method 3, search.h eo_expand) comes first, the plain dive after it:
            # the first solves the median deal in fewer states, but goes far astray on some
            # deals that the second solves at once (round 4, bench/README.md).  States
            # median / mean 177 / 308 -> 147 / 270 on 1-2000, 177 / 340 -> 148 / 288 on
            # 2001-4000; CPU time (interleaved, best of 5) x0.84 / x0.91 and x0.84 / x0.87;
            # median solution 95 -> 95 and 95 -> 96 moves.
            portfolio: tuple[tuple[tuple[int, ...], int, int], ...] = (
                (_core.ALTERNATE_DIVE_WEIGHTS, 0, 3),
                (_core.ALTERNATE_DIVE_WEIGHTS, 0, 0),
                (_core.ALTERNATE_GREEDY_WEIGHTS, 0, 2),
                (_core.ALTERNATE_WEIGHTS, 0, 1),
            )
            return Plan(
                _core.ALTERNATE_WEIGHTS,
                200_000,
                4 | 2,
                portfolio=portfolio,
                dive=DiveRules(
                    home_stop_keeps_space=True,
                    whole_runs_to_empty=True,
                    whole_runs_to_parent=True,
                    dig_home_first=True,
                ),
            )
        # Double FreeCell: a dive and three best-first searches with different weights in
        # turns, then the complete search.
        portfolio = (
            (_core.ALTERNATE_DEPTH_WEIGHTS, 0, 0),
            (_core.ALTERNATE_DEPTH_WEIGHTS, 0, 1),
            (_core.DEFAULT_WEIGHTS, 0, 1),
            (_core.ALTERNATE_GREEDY_WEIGHTS, 0, 1),
        )
        return Plan(_core.ALTERNATE_WEIGHTS, 4_000_000, 4 | 2, portfolio=portfolio)
    if rules.empty_column is EmptyColumn.KINGS:
        # Eight Off and Seahaven Towers: the dive tries the digs home first, as Eight Off
        # Easy's does (below).  Eight Off 1-1000: states median / mean 67 / 129 -> 51 /
        # 109, CPU time x0.86 / x0.92, median solution 83 -> 82 moves; checked on
        # 1001-2000: 68 / 106 -> 50 / 89, x0.84 / x0.93, 82 moves.  Seahaven Towers 1-500:
        # 147 / 2121 -> 123 / 2075, x0.86 / x0.98, 81 -> 81.5 moves; 1001-1400: 132 / 2112
        # -> 111 / 2096, x0.92 / x1.00.  Eight Off Easy's other rule (a cell card into an
        # empty column only with a card to lie on it) made Eight Off worse (69 / 139).
        return Plan(_core.DEFAULT_WEIGHTS, dive=DiveRules(home_digs_before_moves=True))
    # Building in suit, any card in an empty column: the dive moves into an empty column
    # only whole runs, never a single card (search.h, eo_all_steps).  Baker's Game's dive
    # also does not stop at a step home that fills a cell or a column (eo_expand): on
    # deals 1-1000 its median solve enters 195 states instead of 300, the mean 2249
    # instead of 2304.  Eight Off Easy (8 cells) takes only the first: its states, median
    # / mean, 97 / 106 -> 93 / 100 on deals 1-1000 and 95 / 104 -> 92 / 97 on 1001-2000
    # (time 0.98 / 0.95 and 0.97 / 0.93); not stopping at home steps that fill a cell
    # made it worse there (105 / 113).
    # Eight Off Easy's dive also moves a cell card into an empty column only when a card
    # that would lie on it is on top of a column or in a cell, and tries the digs home
    # before generating any other step (search.h, eo_all_steps and eo_expand): states
    # median / mean 93 / 100 -> 54.5 / 58 on deals 1-1000, 92 / 97 -> 54 / 58 on
    # 1001-2000; CPU time (both builds interleaved, best of 5) median / mean x0.82 / x0.81
    # and x0.83 / x0.82 (bench/README.md, round 3d).  Median solution 81 moves both.
    # With at most 3 free cells, its dive then tries a cell card onto its parent on a
    # column, taking the first that leads to a new state before any other step is made
    # (search.h, eo_expand; bench/README.md, round 4): states median / mean 54 / 58 ->
    # 40 / 46 on deals 1-1000 and 54 / 58 -> 40 / 45 on 1001-2000, instructions per solve
    # (median) x0.85 and x0.84, CPU time (interleaved, best of 5) median / mean x0.91 /
    # x0.92 and x0.92 / x0.94; median solution 81 -> 81 and 80 -> 81 moves.
    eight = rules.cells >= 8
    return Plan(
        _core.DEFAULT_WEIGHTS,
        dive_states=1000,
        dive=DiveRules(
            home_stop_keeps_space=not eight,
            whole_runs_to_empty=True,
            cell_to_empty_needs_child=eight,
            home_digs_before_moves=eight,
            cell_to_parent_first=eight,
        ),
    )


SHORT_STATES: Final = 30_000
"""The extra search of ``Limits(short=True)`` stops after this many states."""


@dataclass(frozen=True, slots=True)
class _Setups:
    """A variant's plan in the core's form: the main search, and the short search."""

    main: _core.Setup
    short: _core.Setup


_SETUPS: dict[int, tuple[Rules, _Setups]] = {}
"""Setups by ``id(rules)``; each entry holds its Rules, so that the id stays its own."""


def _setups(rules: Rules) -> _Setups:
    entry = _SETUPS.get(id(rules))
    if entry is not None and entry[0] is rules:
        return entry[1]
    plan = plan_for(rules)
    core_rules = rules_tuple(rules)
    alternate = rules.build is Build.ALTERNATE
    setups = _Setups(
        _core.Setup(
            core_rules,
            plan.weights,
            dive_states=plan.dive_states,
            stages=plan.stages,
            quick_states=plan.quick_states,
            portfolio=plan.portfolio,
            port_quota=plan.port_quota,
            dive=asdict(plan.dive),
        ),
        _core.Setup(
            core_rules,
            _core.ALTERNATE_SHORT_WEIGHTS if alternate else _core.SHORT_WEIGHTS,
            stages=1,
            quick_states=SHORT_STATES,
            shorten=True,
        ),
    )
    if len(_SETUPS) >= 256:  # rules made afresh again and again (with_options): start over
        _SETUPS.clear()
    _SETUPS[id(rules)] = (rules, setups)
    return setups


def _search(
    setup: _core.Setup, position: Position, states: int, seconds: float, memory: int
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
    )
    if status == _core.REPLAY_FAILED:
        index, length = moves
        at = "ends with cards left" if index >= length else f"is refused at move {index + 1}"
        raise SolutionError(
            f"the solver's solution for a position of {position.rules.name} {at} by the"
            " compiled replay: a bug in the solver, please report it"
        )
    return status, visited, moves


def solve(position: Position, limits: Limits = DEFAULT_LIMITS) -> Result:
    """Search for a win from ``position``; see the module docstring for the verdicts.

    Raises ``ValueError`` when the position does not fit its rules (wrong number of
    columns, cells or foundations, something that is not a card), and
    :class:`SolutionError` when the search's solution fails the compiled replay.

    Up to three searches run, each only if the one before failed: a greedy dive and
    then a best-first search, both over purposeful steps (fast, not complete), then
    the complete search, which alone can prove a loss.  With ``limits.short`` a
    solution is then looked for again with more weight on its length (best-first, the
    moves made count against a state, at most SHORT_STATES states), and shortened.
    """
    t0 = time.perf_counter()
    max_states = 0 if limits.states is None else max(1, limits.states)
    memory = 0 if limits.memory_mb is None else max(1, limits.memory_mb) << 20
    setups = _setups(position.rules)
    seconds = 0.0 if limits.seconds is None else max(1e-9, limits.seconds)
    status, states, moves = _search(setups.main, position, max_states, seconds, memory)
    if status == SOLVED and limits.short:
        left = None if limits.seconds is None else limits.seconds - (time.perf_counter() - t0)
        budget = SHORT_STATES if not max_states else min(SHORT_STATES, max_states - states)
        if budget > 0 and (left is None or left > 0):
            status2, states2, moves2 = _search(
                setups.short, position, budget, 0.0 if left is None else left, memory
            )
            states += states2
            if status2 == SOLVED and len(moves2) < len(moves):
                moves = moves2
    took = time.perf_counter() - t0
    if status == SOLVED:
        return Solved(moves, states, took)
    if status == LOST:
        return Lost(states, took)
    return Unknown(states, took, _core.STATUS[status])


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
        rules_tuple(position.rules), position.columns, position.cells, position.foundations, specs
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
    """Each deal's CPU time in the core (search and replay)."""
    lengths: Sequence[int]
    """Solution lengths (0 unless solved)."""
    keys: Sequence[int] | None = None
    """With ``keep_moves``: every solution's moves in order, as the replay describes them
    (``_core.solve_range``); deal i's are the ``lengths[i]`` after those before it."""

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
    max_states = 0 if limits.states is None else max(1, limits.states)
    memory = 0 if limits.memory_mb is None else max(1, limits.memory_mb) << 20
    seconds = 0.0 if limits.seconds is None else max(1e-9, limits.seconds)
    status, states, times, lengths, keys = _core.solve_range(
        _setups(rules).main,
        deal_layout(rules),
        first,
        count,
        max_states,
        seconds,
        memory,
        keep_moves,
    )
    return DealBlock(first, status, states, times, lengths, keys)


def place_of(code: int) -> Place:
    """The Place of one of the core's place codes (a foundation for 32 + f)."""
    return _place(code)


def replay_keys(position: Position, moves: Sequence[Move]) -> Sequence[int]:
    """A solution's moves as the compiled replay describes them (replay.h, eo_move_key);
    raise SolutionError if a move is illegal where it is played or cards are left."""
    rules = position.rules
    bad, keys = _core.move_keys(
        rules_tuple(rules),
        position.columns,
        position.cells,
        position.foundations,
        [code_of(m) for m in moves],
    )
    if bad != -1:
        where = f"move {bad + 1} ({moves[bad]})" if bad < len(moves) else "its end"
        raise SolutionError(
            f"a solution in {rules.name} does not replay: {where} is illegal or not won"
        )
    return keys


def moves_of_keys(keys: Sequence[int]) -> tuple[Move, ...]:
    """The Moves of a solution given as the replay's keys (replay.h, eo_move_key): a key
    whose target is a foundation is a move home."""
    home = int(_core.HOME)
    found = int(_core.FOUNDATION)
    out = []
    for k in keys:
        dst = (k >> 8) & 255
        out.append(_MOVES[(k & 255) << 16 | (home if dst >= found else dst) << 8 | (k >> 16) & 255])
    return tuple(out)


from .prover import LiveVerdict as LiveVerdict  # noqa: E402  (uses the names above)
from .prover import Prover as Prover  # noqa: E402
