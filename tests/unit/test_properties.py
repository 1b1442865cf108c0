"""Invariants over random deals of every variant and random legal play (hypothesis)."""

from __future__ import annotations

from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from eightoff.cards import deck
from eightoff.deals import deal
from eightoff.game import Game
from eightoff.position import HOME, IllegalMoveError, Kind, Move, Place, Position
from eightoff.rules import PRESETS, Rules

rules_st = st.builds(
    lambda variant, retrieval, strict: PRESETS[variant].with_options(
        foundation_retrieval=retrieval, strict_single=strict
    ),
    st.sampled_from(list(PRESETS)),
    st.booleans(),
    st.booleans(),
)


def place_st(rules: Rules, as_source: bool) -> st.SearchStrategy[Place]:
    options = [
        st.integers(-1, rules.columns).map(Place.column),
        st.integers(-1, rules.cells).map(Place.cell),
        st.integers(-1, rules.foundations).map(Place.foundation),
    ]
    if not as_source:
        options.append(st.just(HOME))
    return st.one_of(options)


def any_move(rules: Rules) -> st.SearchStrategy[Move]:
    return st.builds(Move, place_st(rules, True), place_st(rules, False), st.integers(-1, 14))


def assert_cards_are_the_deck(position: Position) -> None:
    assert Counter(position.all_cards()) == Counter(deck(position.rules.decks))


@settings(max_examples=150, deadline=None)
@given(
    rules=rules_st,
    number=st.integers(1, 10**9),
    picks=st.lists(st.integers(0, 10**6), max_size=40),
    auto=st.booleans(),
    data=st.data(),
)
def test_random_legal_play_keeps_the_deck_and_undo_restores(
    rules: Rules, number: int, picks: list[int], auto: bool, data: st.DataObject
) -> None:
    game = Game(deal(rules, number), number, auto_move=auto)
    assert_cards_are_the_deck(game.position)
    for pick in picks:
        moves = game.position.legal_moves()
        if not moves:
            assert game.position.is_lost() or game.position.is_won()
            break
        move = moves[pick % len(moves)]
        before = game.position
        turn = game.play(move)
        assert turn.move == move
        assert_cards_are_the_deck(game.position)
        # every generated move applies; undo restores an equal position; redo replays it
        after = game.position
        assert game.undo() == turn and game.position == before
        assert game.redo() == turn and game.position == after
    # a random move: legal exactly when generated; an illegal one is refused and changes nothing
    pos = game.position
    legal = set(pos.legal_moves())
    move = data.draw(any_move(pos.rules))
    turns = list(game.turns)
    if move in legal or _home_written_out(pos, move, legal):
        game.play(move)
    else:
        try:
            game.play(move)
        except IllegalMoveError:
            pass
        else:
            raise AssertionError(f"{move!r} was played but is not a legal move")
        assert game.position == pos and game.turns == turns


def _home_written_out(pos: Position, move: Move, legal: set[Move]) -> bool:
    """``legal_moves`` lists a move home once, as ``h``; naming a foundation of the card's
    suit that takes it (``2h1``, or in two packs either foundation that takes it) is the
    same move written out, and legal too."""
    target = move.target
    if target.kind is not Kind.FOUNDATION or target.index is None:
        return False
    if Move(move.source, HOME, move.count) not in legal:
        return False
    card = pos.moving_card(move)
    return target.index % 4 == card.suit and pos.foundations[target.index] == card.rank - 1


@settings(max_examples=40, deadline=None)
@given(
    rules=rules_st, number=st.integers(1, 10**9), picks=st.lists(st.integers(0, 10**6), max_size=30)
)
def test_every_legal_move_round_trips_its_notation(
    rules: Rules, number: int, picks: list[int]
) -> None:
    pos = deal(rules, number)
    for pick in picks:
        moves = pos.legal_moves()
        if not moves:
            break
        for m in moves:
            assert Move.parse(str(m)) == m
            assert pos.is_legal(m)
        pos = pos.apply(moves[pick % len(moves)])


@settings(max_examples=40, deadline=None)
@given(number=st.integers(1, 10**9), picks=st.lists(st.integers(0, 10**6), max_size=40))
def test_safe_auto_moves_only_send_cards_home(number: int, picks: list[int]) -> None:
    game = Game.new("freecell", number)
    for pick in picks:
        moves = game.position.legal_moves()
        if not moves:
            break
        turn = game.play(moves[pick % len(moves)])
        for m in turn.auto:
            assert m.target.kind is Kind.FOUNDATION
        assert game.position.safe_auto_move() is None
