"""A game's history as a player uses it: undo, redo, restart, auto-moves."""

from __future__ import annotations

import pytest

from eightoff.game import Game
from eightoff.position import HOME, IllegalMoveError, Move, MoveSyntaxError, Place, Position
from tests.sketch import make


def test_auto_moves_are_undone_with_the_move_that_caused_them() -> None:
    start = make("eightoff", ["2S AS", "3S", "*", "*", "*", "*", "*", "*"], cells=[None] * 8)
    game = Game(start)
    turn = game.play("1a")  # the A♠ to a cell: then it, the 2♠ and the 3♠ go home
    assert turn.move == Move(Place.column(0), Place.cell(0))
    assert [str(m) for m in turn.auto] == ["ah", "1h", "2h"]
    # one player move: the cards safe auto-move sent home are free (single-card moves: 4)
    assert game.position.foundations[1] == 3 and game.player_moves == 1
    assert game.single_card_moves == 4
    game.undo()
    assert game.position == start and game.player_moves == game.single_card_moves == 0


def test_auto_move_off_leaves_cards_where_they_are() -> None:
    start = make("eightoff", ["2S AS", "*", "*", "*", "*", "*", "*", "*"], cells=[None] * 8)
    game = Game(start, auto_move=False)
    assert game.play("1a").auto == ()
    assert game.position.foundations[1] == 0
    assert game.auto_home() is not None and game.position.foundations[1] == 2


def test_a_new_move_clears_redo_and_restart_keeps_the_moves_to_redo() -> None:
    game = Game.new("eightoff", 1)
    game.play("b8")
    game.play("3b")
    assert game.undo() is not None and game.can_redo
    game.play("3e")
    assert not game.can_redo
    game.restart()
    assert game.position == game.start and len(game.undone) == 2
    game.redo()
    game.redo()
    assert game.redo() is None and game.player_moves == 2


def test_bad_moves_leave_the_game_unchanged() -> None:
    game = Game.new("eightoff", 1)
    game.play("b8")
    before, turns = game.position, list(game.turns)
    with pytest.raises(MoveSyntaxError):
        game.play("zz")
    with pytest.raises(IllegalMoveError, match="needs"):
        game.play("12")
    assert game.position == before and game.turns == turns and not game.can_redo


def test_a_card_taken_back_from_a_foundation_is_not_sent_home_again() -> None:
    base = make("eightoff", ["KH QH", "*", "*", "*", "*", "*", "*", "*"], [None] * 8, {"S": 11})
    rules = base.rules.with_options(foundation_retrieval=True)
    start = Position(rules, base.columns, base.cells, base.foundations)
    game = Game(start)
    turn = game.play(Move(Place.foundation(1), Place.cell(0)))
    assert turn.auto == () and str(game.position.cells[0]) == "JS"
    assert game.position.is_legal(Move(Place.cell(0), HOME))


def test_saved_turns_rebuild_the_same_game() -> None:
    game = Game.new("freecell", 5)
    for text in ("6a", "6b"):
        game.play(text)
    game.undo()
    copy = Game.from_turns(game.start, game.turns, deal_number=5, undone=game.undone)
    assert copy.position == game.position
    assert copy.redo() == game.redo() and copy.position == game.position
