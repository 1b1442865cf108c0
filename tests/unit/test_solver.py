"""The solver's verdicts: solutions replayed through the engine, known losses, limits."""

from __future__ import annotations

from dataclasses import asdict, replace

import pytest

from eightoff.counts import count
from eightoff.deals import deal
from eightoff.position import HOME, Kind, Move, Place, Position
from eightoff.rules import PRESETS
from eightoff.solver import _MOVES as move_of_code
from eightoff.solver import (
    LOST,
    SOLVED,
    Limits,
    Lost,
    Solved,
    Unknown,
    _core,
    core_rules,
    plan_for,
    plans,
    solve,
)
from tests.sketch import make

# The Eight Off deals of 1-10000 that Freecell Solver 5 (`fc-solve --game eight_off`)
# finds unwinnable, and FreeCell #11982, the well-known unwinnable Microsoft deal.
LOST_EIGHTOFF = (
    465,
    644,
    2344,
    3183,
    3540,
    3827,
    4191,
    5344,
    5727,
    6611,
    6724,
    7568,
    7636,
    7999,
    8489,
    9718,
)
LOST_FREECELL = 11982


def replay(start: Position, moves: tuple[Move, ...]) -> Position:
    """Every move through the engine's checked apply; returns the final position."""
    pos = start
    for i, move in enumerate(moves):
        pos = pos.apply(move)  # raises IllegalMoveError if the solver cheated
        assert move.count == 1 or move.target.kind is Kind.COLUMN, f"move {i}: {move}"
    return pos


def assert_solution(start: Position, result: Solved | Lost | Unknown) -> None:
    assert isinstance(result, Solved), result
    assert result.verdict == "solved"
    assert replay(start, result.moves).is_won()
    # each card sent home is its own move: at least one move per card not yet home
    home_moves = sum(1 for m in result.moves if m.target.kind is Kind.FOUNDATION)
    retrievals = sum(1 for m in result.moves if m.source.kind is Kind.FOUNDATION)
    assert home_moves - retrievals == start.rules.cards - start.cards_home


@pytest.mark.parametrize("number", range(1, 41))
def test_eightoff_solutions_replay(number: int) -> None:
    start = deal("eightoff", number)
    result = solve(start)
    if number in LOST_EIGHTOFF:
        assert isinstance(result, Lost)
    else:
        assert_solution(start, result)
        assert result.states > 0 and result.seconds >= 0


@pytest.mark.parametrize(
    "variant", sorted(v for v in PRESETS if v not in ("eightoff", "double-freecell"))
)
def test_other_variants_solutions_replay(variant: str) -> None:
    """A handful of deals per variant: each solved one replays to a win; the search
    proves some Baker's Game and Seahaven deals lost, never FreeCell ones (all of
    1–1000 are winnable)."""
    solved = 0
    for number in range(1, 13):
        start = deal(variant, number)
        result = solve(start, Limits(seconds=30))
        assert not isinstance(result, Unknown), (variant, number, result)
        if isinstance(result, Solved):
            assert_solution(start, result)
            solved += 1
        else:
            assert variant in ("bakers-game", "seahaven-towers")
    assert solved >= 6


def exhausted(start: Position, limit: int = 10_000) -> bool | None:
    """The complete single-move search of the engine: every legal move from every
    position reached (positions told apart by ``key()``). True when no position reached
    is won (the start is lost), False when one is, None past ``limit`` positions."""
    seen = {start.key()}
    stack = [start]
    while stack:
        pos = stack.pop()
        if pos.is_won():
            return False
        for move in pos.legal_moves():
            after = pos.apply_unchecked(move)
            if after.key() not in seen:
                seen.add(after.key())
                stack.append(after)
                if len(seen) > limit:
                    return None
    return True


@pytest.mark.parametrize("number", [1, 2, 3, 4, 5, 6])
def test_double_freecell_deals_are_solved_within_the_default_limits(number: int) -> None:
    """Every deal of 1-1000 is (bench/README.md); a few here, replayed."""
    start = deal("double-freecell", number)
    assert_solution(start, solve(start))


def test_a_lost_two_pack_position_is_proven_lost() -> None:
    """Double FreeCell with every cell full of Kings and each column built upwards
    (Aces at the bottom): a few Queens onto Kings are all there is. The solver's
    portfolio cannot prove a loss; its complete search must, and the engine's own
    exhaustive search agrees."""
    start = make("double-freecell", ["*"] * 10, cells=["*"] * 6)
    assert start.legal_moves()
    result = solve(start)
    assert isinstance(result, Lost), result
    assert exhausted(start) is True


@pytest.mark.parametrize("number", LOST_EIGHTOFF)
def test_known_lost_eightoff_deals_are_proven_lost(number: int) -> None:
    result = solve(deal("eightoff", number))
    assert isinstance(result, Lost)
    assert result.verdict == "lost" and result.moves == ()
    assert result.states > 1
    # and their neighbours, winnable, are solved
    neighbour = deal("eightoff", number + 1)
    assert_solution(neighbour, solve(neighbour))


def test_freecell_11982_is_proven_lost() -> None:
    result = solve(deal("freecell", LOST_FREECELL))
    assert isinstance(result, Lost), result


def test_freecell_63777_is_solved() -> None:
    """Two of FreeCell's portfolio searches (the dive and the greedy best-first one)
    fail on it for millions of states; the third solves it at once."""
    start = deal("freecell", 63777)
    result = solve(start, Limits(seconds=30))
    assert_solution(start, result)
    assert result.states < 200_000


def test_freecell_5177999_is_solved_at_the_default_limits() -> None:
    """Once no member of FreeCell's portfolio won it in its share of the first 200,000
    states, and the complete search after them failed for the rest of the 5 million
    (issue 21); it is won within the portfolio's turns (by a dive: some 220,000 states,
    76,219 since the dives try a cell card onto its parent first)."""
    start = deal("freecell", 5177999)
    result = solve(start)
    assert_solution(start, result)
    assert result.states < 2_000_000


@pytest.mark.parametrize(
    "method", [plans.Method.DIVE, plans.Method.BEST_FIRST, plans.Method.BEST_FIRST_NO_TARGET]
)
def test_each_portfolio_method_alone_solves_freecell_deals(method: plans.Method) -> None:
    """A portfolio of one search of each method (the dive, best-first, best-first
    without digs onto a dug card), no complete search after it: its solutions replay,
    and it never claims a loss it cannot prove."""
    rules = PRESETS["freecell"]
    weights = (
        plans.ALTERNATE_DIVE_WEIGHTS
        if method is plans.Method.DIVE
        else plans.ALTERNATE_GREEDY_WEIGHTS
    )
    search = replace(
        plan_for(rules).main,
        weights=weights,
        dive_states=100_000,
        stages=plans.Stage.DIVE,
        portfolio=(plans.Member(weights, method=method),),
    )
    setup = _core.Setup(core_rules(rules), asdict(search))
    solved = 0
    for number in (1, 2, 3, 4, 5, LOST_FREECELL):
        start = deal(rules, number)
        status, states, moves = _core.solve(
            setup,
            start.columns,
            start.cells,
            start.foundations,
            100_000,
            30.0,
            1 << 28,
            move_of_code,
        )
        assert status != LOST and states > 0
        if status == SOLVED:
            solved += 1
            assert_solution(start, Solved(moves, states, 0.0))
    assert solved >= 4


def test_a_dead_end_is_lost_after_few_states() -> None:
    """Cells full of Kings and Queens, Aces at the bottom of columns built upwards:
    a few moves of tens onto jacks are all there is."""
    start = make("eightoff", ["*"] * 8, cells=["*"] * 8)
    assert start.legal_moves()
    result = solve(start)
    assert isinstance(result, Lost)
    assert result.states < 100


def test_won_position_needs_no_moves() -> None:
    start = make("eightoff", [""] * 8, cells=[None] * 8, home={s: 13 for s in "CSHD"})
    assert start.is_won()
    result = solve(start)
    assert isinstance(result, Solved) and result.moves == ()


def test_last_card_home_is_an_explicit_move() -> None:
    home = {"C": 13, "S": 12, "H": 13, "D": 13}
    start = make("eightoff", ["KS"] + [""] * 7, cells=[None] * 8, home=home)
    result = solve(start)
    assert isinstance(result, Solved)
    assert result.moves == (Move(Place.column(0), HOME),)


@pytest.mark.parametrize("variant", ["eightoff", "freecell", "seahaven-towers"])
@pytest.mark.parametrize("option", ["foundation_retrieval", "strict_single"])
def test_options_solutions_replay(variant: str, option: str) -> None:
    rules = PRESETS[variant].with_options(**{option: True})
    for number in (2, 5, 7):
        start = deal(rules, number)
        result = solve(start, Limits(seconds=30))
        if isinstance(result, Solved):
            assert_solution(start, result)
            if option == "strict_single":
                assert all(m.count == 1 for m in result.moves)
        else:
            assert variant == "seahaven-towers" and not isinstance(result, Unknown)


def test_tiny_state_limit_gives_unknown() -> None:
    result = solve(deal("eightoff", 1), Limits(states=3))
    assert isinstance(result, Unknown)
    assert result.verdict == "unknown" and "state" in result.reason
    assert result.moves == ()


def test_tiny_time_limit_gives_unknown() -> None:
    result = solve(deal("freecell", LOST_FREECELL), Limits(seconds=1e-9, states=None))
    assert isinstance(result, Unknown)
    assert "time" in result.reason


def test_tiny_memory_limit_gives_unknown() -> None:
    result = solve(deal("freecell", LOST_FREECELL), Limits(memory_mb=1, states=None))
    assert isinstance(result, Unknown)
    assert "memory" in result.reason


def test_solving_is_deterministic() -> None:
    start = deal("eightoff", 17)
    first, second = solve(start), solve(start)
    assert isinstance(first, Solved) and isinstance(second, Solved)
    assert first.moves == second.moves and first.states == second.states


@pytest.mark.parametrize(
    ("variant", "number"),
    [("eightoff", n) for n in (1, 2, 3, 4, 5, 6)]
    # deals whose short search alone finds a solution longer in player moves than the
    # default one (FreeCell 153: 56 against 53, 170: 52 against 47)
    + [("freecell", 153), ("freecell", 170)],
)
def test_short_mode_replays_and_is_no_longer(variant: str, number: int) -> None:
    start = deal(variant, number)
    default = solve(start)
    short = solve(start, Limits(short=True))
    assert isinstance(default, Solved)
    assert_solution(start, short)
    assert isinstance(short, Solved)
    assert count(start, short.moves).player <= count(start, default.moves).player


def test_rules_made_afresh_are_each_followed() -> None:
    """The solver prepares a variant's search once per rules object; rules made afresh
    (as ``with_options`` makes them, one object per call) are each solved under their
    own rules, however often objects come and go."""
    base = PRESETS["freecell"]
    expected = {
        strict: solve(deal(base.with_options(strict_single=strict), 5)) for strict in (False, True)
    }
    assert isinstance(expected[True], Solved) and isinstance(expected[False], Solved)
    assert all(m.count == 1 for m in expected[True].moves)
    assert any(m.count > 1 for m in expected[False].moves)
    for i in range(300):  # more objects than the solver keeps prepared at once
        strict = i % 3 == 0
        start = deal(base.with_options(strict_single=strict), 5)
        result = solve(start)
        assert isinstance(result, Solved)
        assert result.moves == expected[strict].moves, i
    assert_solution(start, result)


def test_a_position_that_does_not_fit_its_rules_is_a_value_error() -> None:
    """Not a silent "unknown": the caller learns that the position itself is wrong."""
    import dataclasses

    misfit = dataclasses.replace(deal("freecell", 1), rules=PRESETS["seahaven-towers"])
    with pytest.raises(ValueError, match="does not match its rules"):
        solve(misfit)


def test_a_solution_the_compiled_replay_refuses_raises(monkeypatch: pytest.MonkeyPatch) -> None:
    """The core checks every solution before it leaves the core (replay.h); a refused one
    is a SolutionError naming the variant and the move, never a verdict."""
    from eightoff.solver import SolutionError

    real = _core.solve

    def refused(*args: object, **kwargs: object) -> tuple[int, int, object]:
        states = real(*args, **kwargs)[1]  # type: ignore[arg-type]
        return _core.REPLAY_FAILED, states, (3, 90)

    monkeypatch.setattr(_core, "solve", refused)
    with pytest.raises(SolutionError, match=r"FreeCell.*refused at move 4"):
        solve(deal("freecell", 1))


def test_check_solution_replays_through_the_engine() -> None:
    """The Python replay the Prover runs before it remembers a line: a real solution
    passes; one with a move changed or cut short is refused, naming the move."""
    from eightoff.solver import SolutionError, check_solution

    start = deal("eightoff", 3)
    moves = solve(start).moves
    check_solution(start, moves, "Eight Off deal #3")
    with pytest.raises(SolutionError, match="Eight Off deal #3 ends with cards left"):
        check_solution(start, moves[:-1], "Eight Off deal #3")
    with pytest.raises(SolutionError, match=r"refused at move 2 \("):
        check_solution(start, (moves[0], moves[0], *moves[2:]), "Eight Off deal #3")
