"""Par (eightoff.solver.optimal): the compiled A* against a breadth-first search written
here over the engine's own moves, on small positions of several variants and house
rules, in both counts; every par solution played through the rules; par against the
ordinary solver's solutions on whole deals."""

from __future__ import annotations

import multiprocessing
import resource
from collections import deque
from collections.abc import Callable, Iterator
from concurrent.futures import ProcessPoolExecutor
from dataclasses import replace

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from eightoff.cards import Card
from eightoff.cli.solve import par_words
from eightoff.counts import MoveCount, count
from eightoff.deals import deal
from eightoff.position import Kind, Move, Position
from eightoff.rules import PRESETS, Rules
from eightoff.solver import Limits, Solved, _core, core_rules, solve
from eightoff.solver.optimal import (
    CORE_COUNT,
    TABLE_LIMITS,
    Par,
    ParLimits,
    compact_for,
    optimal,
)

# ----- the independent search ---------------------------------------------------------


def _auto(p: Position) -> Position:
    """The table's safe auto-moves, one card at a time, as Position offers them."""
    while (m := p.safe_auto_move()) is not None:
        p = p.apply(m)
    return p


def _player_steps(p: Position) -> Iterator[Position]:
    for m in p.useful_moves():
        q = p.apply(m)
        yield q if m.source.kind is Kind.FOUNDATION else _auto(q)


def _single_steps(p: Position) -> Iterator[Position]:
    for m in p.useful_moves():
        if m.count == 1:
            yield p.apply(m)


def bfs(start: Position, which: MoveCount, cap: int = 200_000) -> int | None:
    """The fewest steps to the goal by breadth-first search over Position's legal moves
    (positions told apart by Position.key): player moves end at a certain win, with the
    auto-moves free; single-card moves end with every card home.  None: no solution."""
    steps: Callable[[Position], Iterator[Position]]
    if which is MoveCount.PLAYER:
        start = _auto(start)
        steps, goal = _player_steps, Position.win_is_certain
    else:
        steps, goal = _single_steps, Position.is_won
    if goal(start):
        return 0
    seen = {start.key()}
    frontier = deque([(start, 0)])
    while frontier:
        p, d = frontier.popleft()
        for q in steps(p):
            k = q.key()
            if k in seen:
                continue
            if goal(q):
                return d + 1
            seen.add(k)
            assert len(seen) < cap, "the test position is too large for the breadth-first search"
            frontier.append((q, d + 1))
    return None


# ----- small positions ----------------------------------------------------------------
VARIANTS = {
    "eightoff": PRESETS["eightoff"],
    "eightoff-easy": PRESETS["eightoff-easy"],
    "freecell": PRESETS["freecell"],
    "bakers-game": PRESETS["bakers-game"],
    "seahaven-towers": PRESETS["seahaven-towers"],
    "freecell+retrieval": PRESETS["freecell"].with_options(foundation_retrieval=True),
    "eightoff+strict": PRESETS["eightoff"].with_options(strict_single=True),
    "double-freecell": PRESETS["double-freecell"],
}


@st.composite
def small_positions(draw: st.DrawFn, rules: Rules, most: int = 6) -> Position:
    """A few suits' high cards left out of the foundations, dealt at random into two or
    three columns and some of the cells (the other columns empty). With two packs, each
    foundation's own (foundation f builds suit f mod 4): a suit's two foundations may
    stand at different heights, so that both copies of a card are out and only one
    foundation is ready for them."""
    # how many cards of each foundation are left out: 1 to ``most`` in all, drawn without
    # a filter (a filter on four free counts throws most draws away when ``most`` is small)
    left = [0] * rules.foundations
    for _ in range(draw(st.integers(1, most))):
        left[draw(st.sampled_from([f for f, n in enumerate(left) if n < 4]))] += 1
    cards = [Card.of(r, f & 3) for f, n in enumerate(left) for r in range(14 - n, 14)]
    cards = draw(st.permutations(cards))
    cells: list[Card | None] = [None] * rules.cells
    columns: list[list[Card]] = [[] for _ in range(rules.columns)]
    room = min(rules.cells - 1, 2)
    # most cards in two or three columns: cards of different suits above one another,
    # where deadlocks (and the bound's pairs) arise
    used = draw(st.integers(2, 3))
    for card in cards:
        place = draw(st.integers(-1, used - 1))
        if place < 0 and room > 0:
            free = [i for i, c in enumerate(cells) if c is None]
            cells[draw(st.sampled_from(free))] = card
            room -= 1
        else:
            columns[max(place, 0)].append(card)
    return Position(
        rules, tuple(tuple(c) for c in columns), tuple(cells), tuple(13 - n for n in left)
    )


def check(position: Position, par: Par, which: MoveCount) -> None:
    """The par solution is legal, wins, and counts what par says."""
    assert par.optimal, par
    p = position
    for m in par.moves:
        p = p.apply(m)
    assert p.is_won()
    assert count(position, par.moves).of(which) == par.length == par.lower_bound


@pytest.mark.parametrize("which", list(MoveCount))
@pytest.mark.parametrize("variant", list(VARIANTS))
@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_par_equals_breadth_first_search(
    variant: str, which: MoveCount, data: st.DataObject
) -> None:
    rules = VARIANTS[variant]
    # with foundation retrieval every card home may come back: fewer cards out
    position = data.draw(small_positions(rules, 3 if rules.foundation_retrieval else 6))
    expected = bfs(position, which)
    # A* alone (no first solution to stop at), and as the service runs it; and on two
    # threads, the states split between them by hash
    alone = optimal(position, which, ParLimits(seconds=None, memory_mb=256), first_solution=False)
    par = optimal(position, which, ParLimits(seconds=None, memory_mb=256))
    two = optimal(position, which, ParLimits(seconds=None, memory_mb=256, threads=2))
    for found in (alone, par, two):
        if expected is None:
            assert found.lost and not found.moves
            continue
        check(position, found, which)
        assert found.length == expected, (str(position), found.to_json())
    # and expanding partially from the start (children whose f exceeds their parent's
    # left out until the parent's turn comes at their f), on one thread and on two
    core_count = CORE_COUNT[which]
    args = (position.columns, position.cells, position.foundations, core_count)
    for threads in (1, 2):
        status, lower, _, _, steps = _core.optimal(
            core_rules(rules), *args, threads=threads, partial=1
        )
        if expected is None:
            assert status == 6 and not steps
        else:
            assert status == 1 and lower == len(steps) == expected, str(position)


def test_partial_expansion_or_compact_records_prove_par_where_the_memory_stops_a_star() -> None:
    """FreeCell 21 from its short solution: within 80 MiB, A* expanding everything stops
    at the memory limit with a lower bound below par; expanding partially from half the
    limit (the default without a time limit) proves par, storing fewer states than A*
    without a limit stores; so does A* expanding everything with its states stored by
    their compact records. The par search takes those where its memory, not its time,
    would stop it first: at the table (20 s, 512 MiB), not on the command line's 10 s in
    4 GiB on two threads."""
    position = deal("freecell", 21)
    rules = core_rules(position.rules)
    args = (position.columns, position.cells, position.foundations, _core.COUNT_PLAYER)
    short = solve(position, Limits(short=True))
    assert isinstance(short, Solved)
    upper = _player_length(position, short.moves)
    status, par, _, whole, steps = _core.optimal(rules, *args, upper, partial=0)
    assert status == 1 and len(steps) == par < upper
    status, lower, _, _, _ = _core.optimal(rules, *args, upper, 0, 0.0, 80 << 20, partial=0)
    assert status == 5 and lower < par
    compact = _core.optimal(rules, *args, upper, 0, 0.0, 80 << 20, partial=0, compact=True)
    assert compact[0] == 1 and compact[1] == len(compact[4]) == par
    assert compact_for(TABLE_LIMITS) and compact_for(replace(TABLE_LIMITS, seconds=120))
    assert not compact_for(ParLimits(seconds=10, threads=2))
    assert not compact_for(ParLimits(seconds=10, memory_mb=None))
    status, lower, _, states, steps = _core.optimal(rules, *args, upper, 0, 0.0, 80 << 20)
    assert status == 1 and lower == len(steps) == par and states < whole
    found = optimal(position, MoveCount.PLAYER, ParLimits(seconds=None, memory_mb=80))
    check(position, found, MoveCount.PLAYER)
    assert found.length == par


COMPACT_CASES = [
    ("freecell", 6, 0.0, MoveCount.PLAYER),
    ("freecell", 9, 0.4, MoveCount.SINGLE),
    ("freecell+retrieval", 14, 0.3, MoveCount.PLAYER),
    ("eightoff", 7, 0.0, MoveCount.PLAYER),
    ("bakers-game", 2, 0.0, MoveCount.PLAYER),
    ("seahaven-towers", 5, 0.0, MoveCount.PLAYER),
    ("double-freecell", 1, 0.7, MoveCount.PLAYER),
]


@pytest.mark.parametrize(("variant", "number", "share", "which"), COMPACT_CASES)
def test_states_stored_by_compact_records_make_the_same_search(
    variant: str, number: int, share: float, which: MoveCount
) -> None:
    """A* and the beam storing states by their compact records (compact.h: one pack;
    Double FreeCell keeps its canonical keys) find the same as with canonical keys, part
    way through games of several variants, house rules and both counts: the same status,
    bounds, states stored and moves."""
    position = _part_way(VARIANTS.get(variant) or PRESETS[variant], number, share)
    core = core_rules(position.rules)
    args = (position.columns, position.cells, position.foundations, CORE_COUNT[which])
    for beam in (0, 50):
        canonical = _core.optimal(core, *args, 0, beam=beam)
        assert _core.optimal(core, *args, 0, beam=beam, compact=True) == canonical
        assert canonical[0] in (1, 7)  # a solution: par, or the beam's


# ----- whole deals --------------------------------------------------------------------
def _player_length(position: Position, moves: tuple[Move, ...]) -> int:
    return count(position, moves).player


@pytest.mark.parametrize("number", [1, 2, 3, 6, 7])
def test_par_is_at_most_the_short_and_the_default_solution(number: int) -> None:
    start = deal("eightoff", number)
    par = optimal(start, MoveCount.PLAYER, ParLimits(seconds=60))
    check(start, par, MoveCount.PLAYER)
    default = solve(start, Limits())
    short = solve(start, Limits(short=True))
    assert isinstance(default, Solved) and isinstance(short, Solved)
    assert par.length is not None
    assert par.length <= _player_length(start, short.moves) <= _player_length(start, default.moves)


def test_a_stopped_search_reports_bounds_and_the_best_solution() -> None:
    start = deal("freecell", 1)
    par = optimal(start, MoveCount.PLAYER, ParLimits(seconds=None, states=2000))
    assert not par.optimal and par.reason == "state limit reached"
    assert par.length is not None and 0 < par.lower_bound < par.length
    assert str(par_words(par)) == f"par is {par.lower_bound} to {par.length} player moves"
    p = start
    for m in par.moves:
        p = p.apply(m)
    assert p.is_won() and count(start, par.moves).player == par.length


@pytest.mark.parametrize("which", list(MoveCount))
@pytest.mark.parametrize("limit", [2000, 20000])
def test_the_state_limit_is_the_whole_par_search_s(which: MoveCount, limit: int) -> None:
    """``--max-states N`` with ``--optimal`` stores about N states in all: the short solve,
    A* and the beam after it share them (each once had N of its own: 5000 asked, 15 311
    stored). A* stops at most one expansion past it."""
    for number in (1, 27):
        par = optimal(deal("freecell", number), which, ParLimits(seconds=60, states=limit))
        assert par.reason == "state limit reached"
        assert limit <= par.states <= limit + 100, (number, par.states)


def test_single_card_par_of_a_deal_moves_single_cards_only() -> None:
    start = deal("eightoff", 2)
    par = optimal(start, MoveCount.SINGLE, ParLimits(seconds=60))
    check(start, par, MoveCount.SINGLE)
    assert all(m.count == 1 for m in par.moves)
    assert par.length == len(par.moves)
    player = optimal(start, MoveCount.PLAYER, ParLimits(seconds=60))
    assert player.length is not None and par.length is not None and player.length < par.length


def test_a_won_position_has_par_zero() -> None:
    start = deal("eightoff", 1)
    won = Position(
        start.rules, tuple(() for _ in start.columns), tuple(None for _ in start.cells), (13,) * 4
    )
    for which in MoveCount:
        par = optimal(won, which)
        assert par.optimal and par.length == 0 and par.moves == ()


# ----- the deadlock bound -------------------------------------------------------------
def _root_bound(position: Position, which: MoveCount, deadlocks: int) -> int:
    """The compiled search's proven lower bound after one expansion, with the deadlock
    bound at ``deadlocks`` (1: pairs taken card by card; 2: the units matched, then
    cycles of any length)."""
    core_count = CORE_COUNT[which]
    rules = core_rules(position.rules)
    args = (position.columns, position.cells, position.foundations, core_count, 0, 1, 0.0, 0)
    return _core.optimal(rules, *args, deadlocks)[1]


def _laid_out(rules: Rules, columns: list[list[str]], foundations: tuple[int, ...]) -> Position:
    """A position of ``rules`` with these columns (bottom to top; the rest empty), empty
    cells and these foundations."""
    cols = [tuple(Card.parse(c) for c in col) for col in columns]
    cols += [()] * (rules.columns - len(cols))
    return Position(rules, tuple(cols), (None,) * rules.cells, foundations)


# positions (found by a random search) where the matching and the cycles bound more than
# the pairs taken card by card did: columns bottom to top, then the foundations by suit
STRONGER_BOUND = [
    (
        "freecell",
        MoveCount.PLAYER,
        [["QD", "QC"], ["JC", "KC"], ["QH", "KD"], ["TC", "KH", "KS"]],
        (9, 12, 11, 11),
    ),
    (
        "freecell",
        MoveCount.PLAYER,
        [["QC", "TC", "KH", "KD"], ["QS", "JC", "KC"], ["QD", "KS"]],
        (9, 11, 12, 11),
    ),
    (
        "freecell",
        MoveCount.SINGLE,
        [["QC", "KD", "JH", "JD"], ["QD", "KH"], ["QH", "KC", "TH"]],
        (11, 13, 9, 10),
    ),
    (
        "eightoff",
        MoveCount.SINGLE,
        [["KD", "JD", "KC"], ["JC", "QC", "KS"], ["QS", "QD", "KH"]],
        (10, 11, 12, 10),
    ),
    (
        "eightoff",
        MoveCount.SINGLE,
        [["QH", "KC"], ["JS", "KH"], ["QC", "QS"], ["KS", "JH"]],
        (11, 10, 10, 13),
    ),
]


@pytest.mark.parametrize(("variant", "which", "columns", "foundations"), STRONGER_BOUND)
def test_the_deadlock_bound_is_stronger_and_still_at_most_par(
    variant: str, which: MoveCount, columns: list[list[str]], foundations: tuple[int, ...]
) -> None:
    position = _laid_out(VARIANTS[variant], columns, foundations)
    expected = bfs(position, which)
    assert expected is not None
    old, new = _root_bound(position, which, 1), _root_bound(position, which, 2)
    assert old < new <= expected
    par = optimal(position, which, ParLimits(seconds=None, memory_mb=256), first_solution=False)
    check(position, par, which)
    assert par.length == expected


@pytest.mark.parametrize(("variant", "which", "columns", "foundations"), STRONGER_BOUND)
def test_weighted_a_star_proves_par_and_the_beam_is_never_shorter(
    variant: str, which: MoveCount, columns: list[list[str]], foundations: tuple[int, ...]
) -> None:
    """The two modes that give A* upper bounds: anytime weighted A* run to the end
    proves the same par; the beam finds a solution, never shorter than par (optimal()
    replays what it keeps)."""
    position = _laid_out(VARIANTS[variant], columns, foundations)
    expected = bfs(position, which)
    assert expected is not None
    core_count = CORE_COUNT[which]
    args = (position.columns, position.cells, position.foundations, core_count, 0, 0, 0.0, 0)
    status, lower, _, _, steps = _core.optimal(core_rules(position.rules), *args, weight=30)
    assert status == 1 and lower == len(steps) == expected
    status, _, upper, _, steps = _core.optimal(core_rules(position.rules), *args, beam=50)
    assert status == 7 and upper == len(steps) >= expected


# ----- the bound for cards that cannot go home for free (levels 3 to 5) ----------------
# positions (found by a random search) where the level raises the bound over the level
# below it, to exactly the breadth-first optimum: level 3, a card above a lower card of
# the other colour; level 4, the edges of the safety of a card that cannot stay in its
# place in the deadlock graph; level 5, of every card
UNSAFE_HOME = [
    ("freecell", 3, [["JC", "KD"], ["JD", "QC", "QD", "KH", "KC"]], (10, 13, 12, 10)),
    ("freecell", 3, [["JD", "KC", "QS", "JS", "QD"], ["KS", "KD"]], (12, 10, 13, 10)),
    ("freecell", 3, [["QD", "KS"], ["QS", "KH", "KD"], ["QH", "JS"]], (13, 10, 11, 11)),
    ("freecell+retrieval", 3, [["JC", "KH", "KC", "QD"], ["QC", "KD", "KS"]], (10, 12, 12, 11)),
    ("freecell", 4, [["JC", "KS"], ["QH", "QC", "KH", "KC"]], (10, 12, 11, 13)),
    ("freecell", 4, [["KD", "JC", "KS", "KC", "QC"], ["QD", "KH"]], (10, 12, 12, 11)),
    ("freecell", 4, [["QD", "KH"], ["KD", "KS"], ["JS", "KC", "QS"]], (12, 10, 12, 11)),
    ("freecell", 5, [["QH", "KH"], ["JC", "KS", "QS", "QC", "KC"]], (10, 11, 11, 13)),
    ("freecell", 5, [["KS", "QS"], ["JD", "KC", "KH", "KD", "QD"]], (12, 11, 12, 10)),
    ("freecell", 5, [["QC", "KD"], ["JD", "QD", "KH", "KC"]], (11, 13, 12, 10)),
]


@pytest.mark.parametrize(("variant", "level", "columns", "foundations"), UNSAFE_HOME)
def test_cards_that_cannot_go_home_for_free_raise_the_bound_to_at_most_par(
    variant: str, level: int, columns: list[list[str]], foundations: tuple[int, ...]
) -> None:
    position = _laid_out(VARIANTS[variant], columns, foundations)
    expected = bfs(position, MoveCount.PLAYER)
    assert expected is not None
    old, new = (_root_bound(position, MoveCount.PLAYER, v) for v in (level - 1, level))
    assert old < new <= expected
    if level == 3:
        assert old + 2 <= new
    par = optimal(position, MoveCount.PLAYER, ParLimits(seconds=None, memory_mb=256))
    check(position, par, MoveCount.PLAYER)
    assert par.length == expected


@pytest.mark.parametrize("variant", ["freecell", "supermove-freecell", "freecell+retrieval"])
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_the_bound_in_alternate_colours_is_at_most_the_breadth_first_optimum(
    variant: str, data: st.DataObject
) -> None:
    """More cards out than the test above (7), the bound at the start against the
    breadth-first optimum, player moves (the count the level-3 rule is for)."""
    rules = VARIANTS.get(variant) or PRESETS[variant]
    position = data.draw(small_positions(rules, 3 if rules.foundation_retrieval else 7))
    expected = bfs(position, MoveCount.PLAYER, cap=400_000)
    if expected is not None:
        for level in (3, 4, 5):
            assert _root_bound(position, MoveCount.PLAYER, level) <= expected


def _part_way(variant: str | Rules, number: int, share: float) -> Position:
    """The position after this share of the moves of a short solution of the deal."""
    start = deal(variant, number)
    solved = solve(start, Limits(short=True))
    assert isinstance(solved, Solved)
    position = start
    for m in solved.moves[: int(len(solved.moves) * share)]:
        position = position.apply(m)
    return position


@pytest.mark.parametrize(("number", "share"), [(6, 0.5), (9, 0.5), (14, 0.35), (15, 0.35)])
def test_the_levels_of_the_bound_prove_the_same_par_in_a_freecell_game(
    number: int, share: float
) -> None:
    """A* with the bound of level 2 (no rule for the home moves' safety) to 5 find
    the same fewest player moves from a position part way through a FreeCell game
    (both searched to the end: the longer of the two is no proof of the other)."""
    position = _part_way("freecell", number, share)
    rules = core_rules(position.rules)
    args = (position.columns, position.cells, position.foundations, _core.COUNT_PLAYER)
    lengths = []
    for level in (2, 3, 4, 5):
        status, lower, _, _, steps = _core.optimal(rules, *args, 0, 0, 0.0, 0, level)
        assert status == 1 and lower == len(steps)
        lengths.append(len(steps))
    assert len(set(lengths)) == 1


@pytest.mark.parametrize(("number", "share"), [(6, 0.5), (9, 0.5)])
def test_a_star_from_an_upper_bound_proves_the_same_par(number: int, share: float) -> None:
    """A* given an upper bound stores the states it cuts there and opens them again when
    a shorter path reaches them: from par + 2 it finds par again, and from par itself it
    proves that nothing is shorter (status 2), from a position part way through a
    FreeCell game."""
    position = _part_way("freecell", number, share)
    rules = core_rules(position.rules)
    args = (position.columns, position.cells, position.foundations, _core.COUNT_PLAYER)
    status, par, _, _, steps = _core.optimal(rules, *args, 0)
    assert status == 1 and len(steps) == par
    status, lower, _, _, steps = _core.optimal(rules, *args, par + 2)
    assert status == 1 and lower == len(steps) == par
    status, lower, upper, _, steps = _core.optimal(rules, *args, par)
    assert status == 2 and lower == upper == par and not steps


@pytest.mark.parametrize(("number", "share"), [(6, 0.5), (9, 0.5), (14, 0.35)])
def test_a_star_on_several_threads_proves_the_same_par(number: int, share: float) -> None:
    """Split among threads (each expanding its own states, their children sent to the
    thread that owns them), A* finds the same par as on one, from no upper bound and
    from par + 2, and proves that nothing is shorter than par; the service's solution
    replays."""
    position = _part_way("freecell", number, share)
    rules = core_rules(position.rules)
    args = (position.columns, position.cells, position.foundations, _core.COUNT_PLAYER)
    status, par, _, _, steps = _core.optimal(rules, *args, 0)
    assert status == 1 and len(steps) == par
    for threads in (2, 3):
        status, lower, _, _, steps = _core.optimal(rules, *args, 0, threads=threads)
        assert status == 1 and lower == len(steps) == par
        status, lower, _, _, steps = _core.optimal(rules, *args, par + 2, threads=threads)
        assert status == 1 and lower == len(steps) == par
        status, lower, upper, _, steps = _core.optimal(rules, *args, par, threads=threads)
        assert status == 2 and lower == upper == par and not steps
    found = optimal(position, MoveCount.PLAYER, ParLimits(seconds=60, threads=2))
    check(position, found, MoveCount.PLAYER)
    assert found.length == par


def test_a_star_on_several_threads_stopped_by_a_limit_reports_a_proven_bound() -> None:
    """Stopped part way (a state limit), the threads' lower bound (the least f open, in
    a message not yet taken, or of an expansion cut) is above the bound at the start and
    no more than par; it keeps the solution it was given as its best."""
    position = _part_way("freecell", 14, 0.35)
    rules = core_rules(position.rules)
    args = (position.columns, position.cells, position.foundations, _core.COUNT_PLAYER)
    status, par, _, _, _ = _core.optimal(rules, *args, 0)
    _, root, _, _, _ = _core.optimal(rules, *args, 0, 1)
    assert status == 1 and root < par
    for threads in (1, 2, 3):
        result = _core.optimal(rules, *args, par + 2, 1500, threads=threads)
        status, lower, upper, states, _ = result
        assert status == 3 and states > 1500
        assert root <= lower <= par and upper == par + 2


def _a_star_growth(
    number: int, upper: int, memory: int, threads: int, compact: bool
) -> tuple[int, int]:
    """A* alone on FreeCell `number` from `upper`, stopped by `memory` bytes: (status,
    how many bytes the process's peak RSS grew by during the search)."""
    position = deal("freecell", number)
    args = (position.columns, position.cells, position.foundations, _core.COUNT_PLAYER)
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss << 10
    status, _, _, _, _ = _core.optimal(
        core_rules(position.rules), *args, upper, 0, 0.0, memory, threads=threads, compact=compact
    )
    return status, (resource.getrusage(resource.RUSAGE_SELF).ru_maxrss << 10) - before


@pytest.mark.parametrize(("threads", "compact"), [(1, False), (2, False), (1, True)])
def test_a_star_stops_at_its_memory_limit_and_not_past_it(threads: int, compact: bool) -> None:
    """The memory limit (512 MiB at the table) is what A* may hold: it counts what its
    tables hold in memory, with the table's next doubling (old slots and new at once) as
    soon as it is near, and keeps a 32nd of the limit for what it cannot count, so the
    process never grows past the limit. At 256 MiB FreeCell 37 from 42 reaches a
    doubling about 3 seconds in: counted only once made, it grew the process by 273 MiB;
    with the doubling counted but nothing kept for what the count cannot see, by 261 MiB.
    So too with the states stored by their compact records (the table's par search).
    Run in a process of its own, so that its peak RSS is this search's."""
    context = multiprocessing.get_context("fork")
    with ProcessPoolExecutor(max_workers=1, mp_context=context) as pool:
        status, grown = pool.submit(_a_star_growth, 37, 42, 256 << 20, threads, compact).result()
    assert _core.OPTIMAL_STATUS[status] == "memory limit reached"
    assert grown <= 256 << 20, f"A* grew the process by {grown >> 20} MiB"
