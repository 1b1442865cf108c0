"""How the solver searches each variant: one record per family of variants in a table.

A variant's :class:`Plan` holds two :class:`Search` records, each one call of the compiled
core: ``main`` finds a verdict, ``short`` (``Limits(short=True)``) looks again for a
shorter solution.  A Search names its stages, its heuristic's :class:`Weights`, the rules
of its greedy dive (:class:`DiveRules`) and, where a variant runs several searches in
turns, its portfolio of :class:`Member` searches.  Every record crosses into the core by
field name: plan.h declares the same records as C structs, and ``_core.Setup`` refuses
a record whose fields differ from them.

Which plan a variant gets depends on the rules that shape its search, not on its name
(:func:`family`), so a house rule (more cells, say) takes the plan of the variant it
then resembles.  How each plan was chosen, and what every rule of it bought, is told in
bench/README.md ("The search plans").
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import asdict, dataclass, replace
from enum import Enum, IntEnum, IntFlag
from typing import Final

from eightoff.rules import Build, EmptyColumn, Rules

from . import _core


class Stage(IntFlag):
    """The stages of a search, run in this order, each only if the one before failed."""

    DIVE = _core.STAGE_DIVE
    """A greedy depth-first dive over purposeful steps, or the portfolio in turns
    (``dive_states`` states at most): the cheapest when it works; proves nothing."""
    BEST_FIRST = _core.STAGE_BEST_FIRST
    """A best-first search over purposeful steps (``quick_states`` at most); proves
    nothing."""
    COMPLETE = _core.STAGE_COMPLETE
    """The complete search, bounded only by the limits: the only one that can prove a
    deal lost."""


ALL_STAGES: Final = Stage.DIVE | Stage.BEST_FIRST | Stage.COMPLETE


class Method(IntEnum):
    """How a member of the portfolio searches."""

    DIVE = _core.METHOD_DIVE
    """The greedy dive."""
    BEST_FIRST = _core.METHOD_BEST_FIRST
    """Best-first over purposeful steps."""
    BEST_FIRST_NO_TARGET = _core.METHOD_BEST_FIRST_NO_TARGET
    """Best-first without the costliest digging step, moving a card onto a dug one."""
    DIVE_PARENT_DIGS_LAST = _core.METHOD_DIVE_PARENT_DIGS_LAST
    """The dive, making the digs onto a parent only once a state's other steps failed."""
    META_DFS = _core.METHOD_META_DFS
    """Depth-first over meta steps, a kind at a time in the member's ``meta_order`` (as
    Freecell Solver's soft-DFS runs its tests), each kind's children best score first."""
    META_DFS_PLAIN = _core.METHOD_META_DFS_PLAIN
    """The same, each kind's children in the order they are made."""


class Meta(IntEnum):
    """The kinds of meta step (steps.h, ``EO_META_...``), after Freecell Solver's
    meta-moves: each clears the cards above one or two places one card at a time into
    the empty cells, then into empty columns, and makes one move."""

    TOP_HOME = _core.META_TOP_HOME
    """A column's top card home (fc-solve's test 0)."""
    CELL_HOME = _core.META_CELL_HOME
    """A cell card home (test 1)."""
    CELL_PARENT = _core.META_CELL_PARENT
    """A cell card onto its parent anywhere in a column, the cards above it cleared
    (test 2)."""
    HOME = _core.META_HOME
    """A column card home, the cards above it cleared (test 3)."""
    SEG_PARENT = _core.META_SEG_PARENT
    """A run segment anywhere onto a parent anywhere in another column, the cards above
    both cleared (test 4)."""
    SEG_EMPTY = _core.META_SEG_EMPTY
    """A run segment (as much of its top as may move) into an empty column, the cards
    above it cleared (test 6)."""
    CELL_EMPTY = _core.META_CELL_EMPTY
    """A cell card into an empty column (test 7)."""
    REPARENT = _core.META_REPARENT
    """Cards of a top run that lie on a parent onto another parent anywhere, the cards
    above it cleared (test 8)."""
    COL_CELLS = _core.META_COL_CELLS
    """A whole column into the cells when no column is empty (test 9)."""


def meta_order(*groups: Meta | tuple[Meta, ...]) -> int:
    """The kinds of meta step a member tries, in order, a kind or a tuple of kinds (a
    group whose children are tried together) at a time, as the core reads them
    (``Member.meta_order``: a nibble each from the lowest, and bit 48 + i set when the
    i-th kind joins the group of the one before)."""
    kinds = [
        (g, i > 0)
        for group in groups
        for i, g in enumerate(group if isinstance(group, tuple) else (group,))
    ]
    if len(kinds) > 12:
        raise ValueError("a meta order holds at most 12 kinds")
    packed = 0
    for k, (kind, joins) in enumerate(kinds):
        packed |= (kind - Meta.HOME + 1) << (4 * k) | int(joins) << (48 + k)
    return packed


FCS_META_ORDER: Final = meta_order(*Meta)
"""Freecell Solver's order ``-to 0123456789`` (its test 5 has no kind here): the kinds as
:class:`Meta` lists them."""
SHUFFLED_META_ORDER: Final = meta_order(tuple(Meta)[:2], tuple(Meta)[2:])
"""The moves home first, then every other kind as one group (with score noise: shuffled,
as Freecell Solver's random-DFS scans run ``-to [01][23456789]``)."""


class Order(IntEnum):
    """The order in which the complete search visits states."""

    DEPTH_FIRST = _core.DEPTH_FIRST
    BEST_FIRST = _core.BEST_FIRST


class Steps(IntEnum):
    """The steps the complete search tries; either way it stays complete."""

    SINGLE = _core.STEPS_SINGLE
    """Every single move, up to symmetry."""
    DIGS = _core.STEPS_DIGS
    """Those and the digging steps (sequences of legal moves, extra edges)."""


@dataclass(frozen=True, slots=True, kw_only=True)
class Weights:
    """The heuristic's weights: a state scores the sum of each feature times its weight,
    added for those that help, subtracted for those that hinder (plan.h, eo_weights)."""

    home: int
    """+ per card home."""
    free_cells: int
    """+ per empty cell."""
    free_columns: int
    """+ per empty column."""
    next_depth: int
    """- per card above the next card of each foundation, summed."""
    unsettled: int
    """- per card above the first break of its column's bottom run."""
    per_move: int
    """- per move made from the start (best-first only; moves home not counted): more
    of it finds shorter solutions with more states."""
    blockers: int
    """- per card lying above a lower card of its suit."""
    cell_wait: int
    """- per rank between a cell card and its foundation."""
    next_exposed: int
    """+ per foundation whose next card is exposed."""
    next_min_depth: int
    """- per card above the shallowest next card of a foundation."""
    pairs: int
    """+ per column card on its natural parent (by the build rule)."""


SUIT_WEIGHTS: Final = Weights(
    home=100,
    free_cells=2,
    free_columns=5,
    next_depth=13,
    unsettled=12,
    per_move=15,
    blockers=124,
    cell_wait=4,
    next_exposed=27,
    next_min_depth=131,
    pairs=2,
)
"""Building in suit (tuned on Eight Off deals)."""
ALTERNATE_WEIGHTS: Final = Weights(
    home=100,
    free_cells=11,
    free_columns=21,
    next_depth=0,
    unsettled=11,
    per_move=18,
    blockers=108,
    cell_wait=9,
    next_exposed=31,
    next_min_depth=109,
    pairs=24,
)
"""Building in alternate colours (tuned on FreeCell deals)."""
ALTERNATE_DIVE_WEIGHTS: Final = Weights(
    home=100,
    free_cells=30,
    free_columns=11,
    next_depth=5,
    unsettled=17,
    per_move=18,
    blockers=108,
    cell_wait=20,
    next_exposed=27,
    next_min_depth=84,
    pairs=48,
)
"""Tuned for FreeCell's dives (now its first dive's, and two of its best-first searches'):
most of the gain over ALTERNATE_WEIGHTS is ``pairs``."""
ALTERNATE_GREEDY_WEIGHTS: Final = replace(ALTERNATE_WEIGHTS, per_move=40)
"""A greedier best-first search: less weight on the moves made."""
ALTERNATE_DEPTH_WEIGHTS: Final = replace(ALTERNATE_WEIGHTS, next_depth=13)
"""Double FreeCell's: also how deep the next cards lie."""
SUIT_SHORT_WEIGHTS: Final = replace(SUIT_WEIGHTS, per_move=150)
ALTERNATE_SHORT_WEIGHTS: Final = replace(ALTERNATE_WEIGHTS, per_move=150)
"""The short searches': ten times the weight on the moves made."""


@dataclass(frozen=True, slots=True, kw_only=True)
class DiveRules:
    """How the greedy dive chooses its steps, each rule a way to try fewer of them
    (plan.h, ``eo_dive_rules``: the same fields by the same names)."""

    home_stop_keeps_space: bool = False
    """The dive stops at the first step that sends a card home only if that step left as
    many empty cells and columns as before (else it scores that step with its siblings)."""
    whole_runs_to_empty: bool = False
    """The dive moves into an empty column only a column's whole top run (as much of it as
    may move), never a single card."""
    whole_runs_to_parent: bool = False
    """The dive moves a column's cards onto another column only as the column's whole top
    run (when all of it may move), never a part of it that lies on a natural parent."""
    home_moves_first: bool = False
    """The dive tries the single moves that send a card home before every other step (and
    takes the first that leads to a new state without generating the others)."""
    dig_home_first: bool = False
    """With home_moves_first, the dive tries the digging steps that send a card home right
    after the single moves home, before the other steps."""
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
class Member:
    """One search of a portfolio (plan.h, ``eo_member``)."""

    weights: Weights
    noise: int = 0
    """Depth-first: a random amount below this is added to each child's score."""
    method: Method = Method.DIVE
    meta_order: int = 0
    """(``Method.META_DFS...``) the kinds of meta step tried, in order (:func:`meta_order`)."""
    first_round: int = 0
    """The round of the turns in which it takes its first turn (0 to 20). In round k each
    member goes on until it has entered ``port_quota << k`` states, so a member that
    begins in round 1 has as many by the end of it as one that began in round 0, and a
    deal another member wins in round 0 costs nothing of it."""


@dataclass(frozen=True, slots=True, kw_only=True)
class Search:
    """One call of the compiled core (plan.h, ``eo_plan``; ``_core.Setup``)."""

    weights: Weights
    """The dive's, the best-first stage's and the complete search's."""
    stages: Stage = ALL_STAGES
    dive_states: int = 300
    """The first stage's states: the greedy dive, or the portfolio in turns."""
    quick_states: int = 20_000
    """The best-first stage's states."""
    port_quota: int = 1000
    """Each portfolio member's states in its first turn, doubling every round."""
    port_shared: bool = False
    """The portfolio's depth-first members (the dives, the searches over meta steps) enter
    their states into one set of seen states, so that each skips what another has
    entered, as Freecell Solver's soft threads share their states: a second dive goes
    where the first has not been instead of again where it failed."""
    portfolio: tuple[Member, ...] = ()
    """Searches run in turns as the first stage instead of the dive; the first to win
    gives the solution."""
    complete_order: Order = Order.BEST_FIRST
    complete_steps: Steps = Steps.SINGLE
    complete_meta: int = 0
    """Depth-first only: the complete search expands a state a group of meta steps at a
    time in this order (:func:`meta_order`), and last every step of ``complete_steps``,
    each group only once the children of those before have failed (so every state it
    enters is still expanded with every single move before it can end "lost")."""
    complete_scored: bool = True
    """Depth-first without meta steps: the complete search tries each state's children
    best score first (the weights); False: in the order they are made, unscored, which
    saves scoring each child where the order does not pay for it (a lost deal's search
    enters every state whatever the order)."""
    shorten: bool = False
    """Shorten the solution found: jump ahead to the latest state along it that one
    move reaches."""
    memory_beam: bool = True
    """Where a search stops at the memory limit, a beam search (the par search's) has a
    try for a win before the search on disk, or instead of it (``eo_beam_fallback``):
    not complete, it only adds wins."""
    dive: DiveRules = DiveRules()
    """The dive's rules (the portfolio's dives' too)."""


@dataclass(frozen=True, slots=True)
class Plan:
    """A variant's searches: ``main`` for the verdict, ``short`` for a shorter solution
    (run after a solve with ``Limits(short=True)``)."""

    main: Search
    short: Search


FREECELL_DIVE_RULES: Final = DiveRules(
    home_stop_keeps_space=True,
    whole_runs_to_empty=True,
    whole_runs_to_parent=True,
    home_moves_first=True,
    dig_home_first=True,
    cell_to_parent_first=True,
)
"""FreeCell's dive (with fewer cells too). With at most 3 cells empty it tries a cell
card onto its parent before it generates any other step (cell_to_parent_first, as Eight
Off Easy's): FreeCell 1-32000 9.7% fewer states and x0.933 CPU, held-out ranges
x0.866-0.984; with 3 cells x0.961 and x0.992, with 2 x0.998, the median deal x0.87-0.96
(bench/README, "A cell card onto its parent first")."""
SHUFFLED_META_MEMBER: Final = Member(
    ALTERNATE_DIVE_WEIGHTS,
    noise=1 << 20,
    method=Method.META_DFS_PLAIN,
    meta_order=SHUFFLED_META_ORDER,
)
"""Depth-first over the meta steps, the moves home first, the other kinds shuffled (its
seed is its place in the portfolio)."""

SHORT_STATES: Final = 30_000
"""The short search stops after this many states."""


def _short(weights: Weights) -> Search:
    """Best-first with much weight on the moves made, then shortened."""
    return Search(weights=weights, stages=Stage.BEST_FIRST, quick_states=SHORT_STATES, shorten=True)


class Family(Enum):
    """The groups of variants that share a plan, named after the variant each was tuned
    on, and the rules that put a variant in one."""

    FREECELL = "alternate colours, one pack"
    FREECELL_FEW_CELLS = "alternate colours, one pack, 1 to 3 cells"
    FREECELL_NO_CELLS = "alternate colours, one pack, no cell"
    DOUBLE_FREECELL = "alternate colours, two packs"
    EIGHT_OFF = "in suit, only Kings fill an empty column, 8 columns or fewer"
    SEAHAVEN_TOWERS = "in suit, only Kings fill an empty column, more than 8 columns"
    BAKERS_GAME = "in suit, any card fills an empty column, fewer than 8 cells"
    EIGHT_OFF_EASY = "in suit, any card fills an empty column, 8 cells or more"


def family(rules: Rules) -> Family:
    """The family whose plan searches a variant."""
    if rules.build is Build.ALTERNATE:
        if rules.foundations != 4:
            return Family.DOUBLE_FREECELL
        if rules.cells == 0:
            return Family.FREECELL_NO_CELLS
        return Family.FREECELL_FEW_CELLS if rules.cells < 4 else Family.FREECELL
    if rules.empty_column is EmptyColumn.KINGS:
        return Family.EIGHT_OFF if rules.columns <= 8 else Family.SEAHAVEN_TOWERS
    return Family.EIGHT_OFF_EASY if rules.cells >= 8 else Family.BAKERS_GAME


KINGS_ONLY_SEARCH: Final = Search(
    weights=SUIT_WEIGHTS,
    quick_states=100_000,
    complete_order=Order.DEPTH_FIRST,
    dive=DiveRules(home_digs_before_moves=True, cell_to_parent_first=True),
)
"""The main search where only Kings fill an empty column (Family.EIGHT_OFF, whose
complete search is unscored, and Family.SEAHAVEN_TOWERS): see PLANS."""

FEW_CELLS_SEARCH: Final = Search(
    weights=ALTERNATE_WEIGHTS,
    stages=Stage.DIVE | Stage.COMPLETE,
    dive_states=4_000_000,
    portfolio=(
        Member(ALTERNATE_DIVE_WEIGHTS, method=Method.DIVE_PARENT_DIGS_LAST),
        Member(ALTERNATE_DIVE_WEIGHTS, method=Method.META_DFS, meta_order=FCS_META_ORDER),
        Member(ALTERNATE_DIVE_WEIGHTS, method=Method.BEST_FIRST),
        SHUFFLED_META_MEMBER,
        SHUFFLED_META_MEMBER,
        SHUFFLED_META_MEMBER,
    ),
    complete_order=Order.DEPTH_FIRST,
    dive=FREECELL_DIVE_RULES,
)
"""The main search with 1 to 3 cells (PLANS, Family.FREECELL_FEW_CELLS)."""

PLANS: Final[dict[Family, Plan]] = {
    # Two dives and four best-first searches in turns, then the complete search: each
    # solves deals the others are slow on.  The turns may take 2 million of the default
    # 5 million states: a deal none of them has won after 200,000 is most often still
    # won by one of them, far sooner than by the complete search over single moves,
    # which keeps 3 million for the rest (issue 21; figures in bench/README).  The two
    # dives share their seen states (port_shared): 9% less CPU over five ranges.  The
    # best-first searches after the first take their first turn in later rounds
    # (first_round): the deals the members before them win by then do without them
    # (bench/README, "Two members begin later").  The second dive scores by the plain
    # weights and the first best-first search by the dives' (bench/README, "Six members
    # in turns"): the slowest deal of each of sixty 1,000-deal ranges 14-25% sooner
    # (geometric mean), p99 6-10%; the greedy best-first search, last from round 3, still
    # decides 324883, which no other member wins within 2 million states.
    Family.FREECELL: Plan(
        Search(
            weights=ALTERNATE_WEIGHTS,
            stages=Stage.DIVE | Stage.COMPLETE,
            dive_states=2_000_000,
            port_shared=True,
            portfolio=(
                Member(ALTERNATE_DIVE_WEIGHTS, method=Method.DIVE_PARENT_DIGS_LAST),
                Member(ALTERNATE_WEIGHTS, method=Method.DIVE),
                Member(ALTERNATE_DIVE_WEIGHTS, method=Method.BEST_FIRST_NO_TARGET),
                # best-first with the dive's weights: decides FreeCell 601186, the one
                # deal of PySolFC's 1-10^6 that the other members and then the complete
                # search could not decide at the default limits (issue 21; figures in
                # bench/README)
                Member(ALTERNATE_DIVE_WEIGHTS, method=Method.BEST_FIRST, first_round=1),
                Member(ALTERNATE_WEIGHTS, method=Method.BEST_FIRST, first_round=2),
                Member(ALTERNATE_GREEDY_WEIGHTS, method=Method.BEST_FIRST_NO_TARGET, first_round=3),
            ),
            dive=FREECELL_DIVE_RULES,
        ),
        _short(ALTERNATE_SHORT_WEIGHTS),
    ),
    # With 1 to 3 cells the purposeful steps and their digs reach little (a dig
    # clears at most as many cards as there are empty cells), and the wins Freecell
    # Solver finds at once come from its meta-moves.  FreeCell's dive and its best-first
    # member with the dive's weights, one depth-first search over the meta steps in
    # fc-solve's order of kinds and three over them shuffled (each its own seed: they win
    # different deals), in turns that may take 4 of the default 5 million states; then
    # the complete search depth-first (issue 21; figures in bench/README, "The search
    # plans").  Their seen states are not shared (port_shared): sharing took a quarter
    # to a third less CPU with 3 and 2 cells, but left 1-cell wins unknown (9541).
    Family.FREECELL_FEW_CELLS: Plan(FEW_CELLS_SEARCH, _short(ALTERNATE_SHORT_WEIGHTS)),
    # With no cell the same searches, but the turns take at most 1 million states: wins
    # are rare (69 of Microsoft's 32,000) and come early, and a lost deal, which most
    # are, pays for the turns before the complete search (figures in bench/README).
    Family.FREECELL_NO_CELLS: Plan(
        replace(FEW_CELLS_SEARCH, dive_states=1_000_000), _short(ALTERNATE_SHORT_WEIGHTS)
    ),
    # A dive and three best-first searches with different weights in turns, then the
    # complete search.  The best-first searches take their first turn in the second
    # round (first_round): the deals the dive wins in that round do without them, 4-7%
    # fewer states and 0.5-7% less CPU on three ranges (bench/README, "Two members
    # begin later").
    Family.DOUBLE_FREECELL: Plan(
        Search(
            weights=ALTERNATE_WEIGHTS,
            stages=Stage.DIVE | Stage.COMPLETE,
            dive_states=4_000_000,
            portfolio=(
                Member(ALTERNATE_DEPTH_WEIGHTS, method=Method.DIVE),
                Member(ALTERNATE_DEPTH_WEIGHTS, method=Method.BEST_FIRST, first_round=1),
                Member(SUIT_WEIGHTS, method=Method.BEST_FIRST, first_round=1),
                Member(ALTERNATE_GREEDY_WEIGHTS, method=Method.BEST_FIRST, first_round=1),
            ),
        ),
        _short(ALTERNATE_SHORT_WEIGHTS),
    ),
    # The dive, best-first, the complete search; the dive tries the digs home first.
    # The best-first stage may take 100,000 states, the complete search runs
    # depth-first: a lost deal's states are the same in either order and cost about a
    # quarter less depth-first, and the few won deals that best-first alone failed at
    # 20,000 it mostly wins by 100,000 (Eight Off 15792: 26,740 states in all, against
    # 130,753 with the complete search best-first and 936,184 depth-first), where a
    # lost deal's best-first stage most often runs dry much sooner (figures in
    # bench/README, "The complete search depth-first where deals are lost").  With at
    # most 3 cells empty the dive next tries a cell card onto its parent, before it
    # generates any other step (cell_to_parent_first): Eight Off 2001-10000 x0.940 CPU,
    # held-out ranges x0.883-0.985, the median deal x0.965-0.975; Seahaven Towers
    # x0.976-0.987, its median x0.944-0.959 (bench/README, "A cell card onto
    # its parent first").  Eight Off's complete search tries each state's children
    # unscored, in the order they are made (complete_scored): the deals it sees are
    # mostly lost, whose states are the same in any order, and scoring each child cost
    # them 6% (Eight Off 1-30000: 44 lost deals x0.939, 13 won x0.898; with 6 and 4
    # cells the lost x0.942 and x0.943); Seahaven Towers' won deals need the order (23
    # on 1-5000: x1.55 unscored, the slowest x2.9), so it is a family of its own, its
    # children scored (bench/README, "Blockers from a bitmask; Eight Off's complete
    # search unscored, ...").
    Family.EIGHT_OFF: Plan(
        replace(KINGS_ONLY_SEARCH, complete_scored=False), _short(SUIT_SHORT_WEIGHTS)
    ),
    Family.SEAHAVEN_TOWERS: Plan(KINGS_ONLY_SEARCH, _short(SUIT_SHORT_WEIGHTS)),
    # A longer dive that moves only whole runs into an empty column and stops at a step
    # home only if it keeps the space it had; the complete search depth-first, as Eight
    # Off's (its best-first stage never ran past 20,000 states on 1-3000).
    Family.BAKERS_GAME: Plan(
        Search(
            weights=SUIT_WEIGHTS,
            dive_states=1000,
            dive=DiveRules(home_stop_keeps_space=True, whole_runs_to_empty=True),
            complete_order=Order.DEPTH_FIRST,
        ),
        _short(SUIT_SHORT_WEIGHTS),
    ),
    # With eight cells the dive can afford to be pickier: digs home first, cell cards
    # onto their parents next, a cell card into an empty column only to be built on.
    Family.EIGHT_OFF_EASY: Plan(
        Search(
            weights=SUIT_WEIGHTS,
            dive_states=1000,
            dive=DiveRules(
                whole_runs_to_empty=True,
                cell_to_empty_needs_child=True,
                home_digs_before_moves=True,
                cell_to_parent_first=True,
            ),
        ),
        _short(SUIT_SHORT_WEIGHTS),
    ),
}


def plan_for(rules: Rules) -> Plan:
    """The plan that searches a variant (its family's)."""
    return PLANS[family(rules)]


def plans_id() -> str:
    """Which plans these are: the first 12 hex digits of the SHA-256 of every family's
    plan as the core reads it (field names and numbers, so the same on any Python).  A
    survey stores it with its solver version beside the core's build: a plan changed
    without the core (a rule of the dive, a weight) changes the states, times and
    solutions a survey records, though never a verdict."""
    text = json.dumps({f.name: asdict(p) for f, p in PLANS.items()}, sort_keys=True)
    return hashlib.sha256(text.encode()).hexdigest()[:12]
