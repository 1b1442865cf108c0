"""The two move counts (eightoff.counts): player moves and single-card moves.

A group move stands for the fewest single-card moves that carry it out: checked here
by playing the unfolded moves through the engine, and against a breadth-first search
over the engine's single-card moves in positions where the only room is the free cells
and the empty columns."""

from __future__ import annotations

from collections import deque
from collections.abc import Sequence

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from eightoff.cards import Card
from eightoff.counts import (
    Counts,
    MoveCount,
    as_par_counts,
    count,
    group_cost,
    is_free,
    single_card_moves,
    unfold,
)
from eightoff.deals import deal
from eightoff.game import Game
from eightoff.position import Kind, Move, Place, Position
from eightoff.rules import Rules, preset
from eightoff.solver import DEFAULT_LIMITS, Solved, solve
from tests.sketch import make
from tests.unit.test_properties import rules_st

SPADE, HEART = 1, 2  # suit numbers (♣ ♠ ♥ ♦)
FILLERS = (Card.of(2, 0), Card.of(2, 1), Card.of(2, 2), Card.of(2, 3))
"""Twos, with no Ace anywhere: they take no card, and none of them can go home."""


def isolated(
    variant: str, run: int, empty_cells: int, empty_columns: int, *, onto_card: bool
) -> tuple[Position, Move]:
    """A position where a run of ``run`` cards (alternating colours for FreeCell rules,
    one suit otherwise) lies on a Two in column 1 and must go to column 2 (onto a King,
    or, led by a King, into it when empty), and the only room is ``empty_cells`` free
    cells and ``empty_columns`` empty columns; every other place holds a Two (no Ace is
    anywhere, so nothing goes home and no Two takes a card)."""
    rules = preset(variant)
    alternate = rules.build.value == "alternate"
    top = 12 if onto_card else 13
    cards = [
        Card.of(top - i, (SPADE if i % 2 == 0 else HEART) if alternate else SPADE)
        for i in range(run)
    ]
    target: tuple[Card, ...] = (Card.of(13, 3 if alternate else SPADE),) if onto_card else ()
    if onto_card and not alternate:
        cards = [Card.of(top - i, SPADE) for i in range(run)]
    fill = iter(FILLERS * 8)
    columns: list[tuple[Card, ...]] = [(next(fill), *cards), target]
    columns += [()] * empty_columns
    columns += [(next(fill),) for _ in range(rules.columns - len(columns))]
    cells = [None] * empty_cells + [next(fill) for _ in range(rules.cells - empty_cells)]
    position = Position(rules, tuple(columns), tuple(cells), (0,) * rules.foundations)
    return position, Move(Place.column(0), Place.column(1), run)


def fewest_single_moves(start: Position, goal: Position, bound: int) -> int | None:
    """Breadth-first search over the engine's legal single-card moves of the run's cards
    (the Twos stay where they are: the room is the empty cells and columns; cells are
    interchangeable, so their order is not part of a state)."""
    fillers = set(FILLERS)

    def key(p: Position) -> object:
        return p.columns, tuple(sorted(c for c in p.cells if c is not None))

    want = key(goal)
    seen = {key(start)}
    frontier: deque[tuple[Position, int]] = deque([(start, 0)])
    while frontier:
        p, n = frontier.popleft()
        if n >= bound:
            continue
        for m in p.legal_moves():
            if m.count != 1 or not m.is_useful or p.moving_card(m) in fillers:
                continue
            q = p.apply_unchecked(m)
            k = key(q)
            if k == want:
                return n + 1
            if k not in seen:
                seen.add(k)
                frontier.append((q, n + 1))
    return None


CASES = [
    (cells, columns, run)
    for cells in range(0, 4)
    for columns in range(0, 3)
    for run in range(2, min((cells + 1) << columns, 7) + 1)
    if not (cells >= 2 and columns == 2 and run >= 6)  # the same, but several seconds each
]


@pytest.mark.parametrize(("cells", "columns", "run"), CASES)
def test_a_group_stands_for_the_fewest_single_card_moves(
    cells: int, columns: int, run: int
) -> None:
    position, move = isolated("freecell", run, cells, columns, onto_card=True)
    assert position.is_legal(move)
    cost = single_card_moves(position, move)
    assert cost == group_cost(run, cells, columns)
    assert fewest_single_moves(position, position.apply(move), cost) == cost


@pytest.mark.parametrize("onto_card", [True, False])
@pytest.mark.parametrize("variant", ["freecell", "bakers-game", "eightoff", "seahaven-towers"])
def test_the_unfolded_moves_play_through_the_engine(variant: str, onto_card: bool) -> None:
    rules = preset(variant)
    for cells in range(0, min(rules.cells, 4) + 1):
        for columns in range(0, 3):
            position, _ = isolated(variant, 1, cells, columns, onto_card=onto_card)
            for run in range(2, 9):
                position, move = isolated(variant, run, cells, columns, onto_card=onto_card)
                if not position.is_legal(move):
                    # the group limit: exactly where the room cannot carry the run
                    with pytest.raises(ValueError):
                        unfold(position, move)
                    continue
                singles = unfold(position, move)
                assert len(singles) == single_card_moves(position, move)
                p = position
                for m in singles:
                    assert m.count == 1
                    p = p.apply(m)  # checked by the rules
                assert p == position.apply(move)


def test_a_run_that_is_a_whole_column_needs_no_fewer_moves() -> None:
    """The source column, emptied by the group's last card, is no help: the cards
    still parked then go straight onto the target."""
    for cells, columns, run in [(1, 1, 4), (0, 2, 4), (1, 2, 6), (2, 1, 6)]:
        position, move = isolated("freecell", run, cells, columns, onto_card=True)
        lone = (position.columns[0][1:], *position.columns[1:])
        position = Position(position.rules, lone, position.cells, position.foundations)
        cost = single_card_moves(position, move)
        assert fewest_single_moves(position, position.apply(move), cost) == cost


def test_group_costs_by_the_formula() -> None:
    assert [group_cost(k, 4, 0) for k in range(1, 6)] == [1, 3, 5, 7, 9]
    assert [group_cost(k, 1, 1) for k in range(1, 5)] == [1, 3, 5, 9]
    assert group_cost(20, 4, 2) == 2 * group_cost(10, 4, 1) + group_cost(10, 4, 1)
    with pytest.raises(ValueError, match="cannot move"):
        group_cost(6, 4, 0)


def test_where_only_kings_fill_a_space_empty_columns_are_no_room() -> None:
    position, move = isolated("eightoff", 3, 2, 2, onto_card=True)
    assert single_card_moves(position, move) == 5  # through the two cells only
    assert unfold(position, move)[0].target.kind is Kind.CELL


# ----- player moves ----------------------------------------------------------------------
def test_safe_cards_sent_home_are_free_with_auto_move_on_and_counted_with_it_off() -> None:
    start = make("eightoff", ["2S AS", "3S", "*", "*", "*", "*", "*", "*"], cells=[None] * 8)
    moves = [Move.parse("1a"), Move.parse("ah"), Move.parse("1h"), Move.parse("2h")]
    assert count(start, moves) == Counts(player=1, single_card=4)
    assert count(start, moves, auto_move=False) == Counts(player=4, single_card=4)


def test_once_the_win_is_certain_every_card_home_is_free() -> None:
    end = make(
        "freecell",
        ["KS", "KH", "", "", "", "", "", ""],
        [None] * 4,
        {"C": 13, "D": 13, "S": 12, "H": 12},
    )
    assert end.win_is_certain()
    assert all(is_free(end, m, auto_move=False) for m in end.auto_complete() or [])
    assert count(end, end.auto_complete() or [], auto_move=False).player == 0


def test_a_group_is_one_player_move() -> None:
    position, move = isolated("freecell", 5, 2, 1, onto_card=True)
    assert count(position, [move]) == Counts(player=1, single_card=group_cost(5, 2, 1))
    assert Counts(1, 9).of(MoveCount.SINGLE) == 9 and MoveCount.PLAYER.words == "player moves"


def test_a_solution_is_counted_through_the_rules() -> None:
    start = deal(preset("eightoff"), 1)
    with pytest.raises(ValueError, match="needs"):
        count(start, [Move.parse("b8"), Move.parse("12")])


# ----- random play (hypothesis) ----------------------------------------------------------
games_st = st.builds(
    lambda rules, number, auto: Game(deal(rules, number), auto_move=auto),
    rules_st,
    st.integers(1, 10**9),
    st.booleans(),
)


@settings(max_examples=60, deadline=None)
@given(game=games_st, picks=st.lists(st.integers(0, 10**6), max_size=30))
def test_a_game_counts_its_moves_and_undo_gives_them_back(game: Game, picks: list[int]) -> None:
    """Over random play: the game's counts are its moves counted by eightoff.counts; a
    player move per turn at most (with auto-move on), single-card moves at least one per
    card moved; every group unfolds into that many legal single moves; undo takes back
    exactly the turn's counts."""
    auto = game.auto_move
    history = [game.counts]
    for pick in picks:
        legal = game.position.legal_moves()
        if not legal:
            break
        move = legal[pick % len(legal)]
        if move.count > 1:
            singles = unfold(game.position, move)
            assert len(singles) == single_card_moves(game.position, move) >= 2 * move.count - 1
            p = game.position
            for m in singles:
                p = p.apply(m)
            assert p == game.position.apply(move)
        game.play(move)
        history.append(game.counts)
    moves = game.moves()
    # each turn is counted with the setting it was played with
    assert game.counts.single_card == count(game.start, moves).single_card >= len(moves)
    if auto:
        assert game.counts == count(game.start, moves)
        assert game.player_moves <= len(game.turns)
    else:
        assert game.counts == count(game.start, moves, auto_move=False)
    while game.undo() is not None:
        history.pop()
        assert game.counts == history[-1]
    assert game.counts == Counts()


# ----- a game won with auto-move off, counted as par counts it ------------------------------
def _same_moves_by_hand(game: Game) -> Game:
    """A game with auto-move off that makes exactly ``game``'s moves, one at a time (the
    cards auto-move sent home sent by hand, each a move on its counter)."""
    by_hand = Game(game.start, auto_move=False)
    for move in game.moves():
        by_hand.play(move)
    return by_hand


@settings(max_examples=60, deadline=None)
@given(
    rules=rules_st,
    number=st.integers(1, 10**9),
    picks=st.lists(st.integers(0, 10**6), max_size=30),
)
def test_the_same_moves_count_the_same_as_par_counts_them_whatever_the_setting(
    rules: Rules, number: int, picks: list[int]
) -> None:
    """Over random play: a game with auto-move on and one with it off that makes the
    same moves (sending home by hand what auto-move sent) count the same as par counts
    them, the first game's counter; the second game's counter is the higher by every
    safe card its player sent home."""
    on = Game(deal(rules, number))
    for pick in picks:
        legal = on.position.legal_moves()
        if not legal:
            break
        on.play(legal[pick % len(legal)])
    off = _same_moves_by_hand(on)
    assert off.position == on.position
    assert on.player_moves_as_par == on.player_moves == off.player_moves_as_par
    assert off.player_moves_as_par == as_par_counts(on.start, on.moves())
    home_by_hand = sum(
        is_free(p, m) and not is_free(p, m, auto_move=False)
        for p, m in _played(on.start, on.moves())
    )
    assert off.player_moves == on.player_moves + home_by_hand


def _played(start: Position, moves: Sequence[Move]) -> list[tuple[Position, Move]]:
    """Each move with the position it is made in."""
    out: list[tuple[Position, Move]] = []
    for move in moves:
        out.append((start, move))
        start = start.apply(move)
    return out


def _as_the_table_plays(start: Position, moves: Sequence[Move]) -> Game:
    """``moves`` played with auto-move on, a move and the safe cards it sends home at a
    time (a move whose auto-moves are not the solution's next moves is played alone)."""
    game = Game(start)
    i = 0
    while i < len(moves):
        turn = game.play(moves[i])
        if turn.auto != tuple(moves[i + 1 : i + 1 + len(turn.auto)]):
            game.undo()
            turn = game.play(moves[i], auto=False)
        i += 1 + len(turn.auto)
    return game


def test_a_deal_won_with_auto_move_off_is_won_in_par_count_as_with_it_on() -> None:
    """Eight Off deal 2 won with the solver's moves: with auto-move on, and again with it
    off and the same moves by hand (every safe card home a move on the counter). As par
    counts them the two wins are the same, and so is one that switched auto-move on
    halfway."""
    start = deal(preset("eightoff"), 2)
    found = solve(start, DEFAULT_LIMITS)
    assert isinstance(found, Solved)
    on = _as_the_table_plays(start, found.moves)
    assert on.moves() == list(found.moves)
    off = _same_moves_by_hand(on)
    assert on.position.is_won() and off.position.is_won()
    assert off.player_moves > on.player_moves  # the counter counted every card home
    assert off.player_moves_as_par == on.player_moves == on.player_moves_as_par
    # auto-move switched on halfway: the same figure again
    mixed = Game(start, auto_move=False)
    for n, move in enumerate(on.moves()):
        mixed.auto_move = n >= len(on.moves()) // 2
        mixed.play(move, auto=False)
    assert off.player_moves > mixed.player_moves > on.player_moves
    assert mixed.player_moves_as_par == on.player_moves
