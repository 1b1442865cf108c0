"""Rule edges of the engine, with the reasons a player reads."""

from __future__ import annotations

import pytest

from eightoff.deals import deal
from eightoff.explain import describe
from eightoff.i18n import reason
from eightoff.position import HOME, IllegalMoveError, Kind, Move, MoveSyntaxError, Place
from tests.sketch import make

SPADES_DOWN = ["QS", "JS", "TS", "9S", "8S", "7S", "6S", "5S", "4S", "3S", "2S"]


@pytest.mark.parametrize("empty", range(9))
def test_eightoff_group_move_within_and_beyond_the_limit(empty: int) -> None:
    """A run of E+1 cards moves; E+2 cards do not, and the reason says so."""
    for length, legal in ((empty + 1, True), (empty + 2, False)):
        run = SPADES_DOWN[1 : 1 + length]  # starts at the JS, onto the QS
        pos = make(
            "eightoff",
            ["KS QS", " ".join(run), "*", "*", "*", "*", "*", "*"],
            cells=["*"] * (8 - empty) + [None] * empty,
        )
        assert pos.empty_cells == empty
        assert pos.group_limit() == empty + 1
        move = Move(Place.column(1), Place.column(0), length)
        if legal:
            after = pos.apply(move)
            assert [str(c) for c in after.columns[0]] == ["KS", "QS", *run]
            assert move in pos.legal_moves()
        else:
            cells = "cell" if empty == 1 else "cells"
            plural = "card" if empty == 0 else "cards"
            with pytest.raises(IllegalMoveError) as e:
                pos.apply(move)
            assert str(e.value) == f"Only {empty + 1} {plural} can move: {empty} empty {cells} + 1"
            assert move not in pos.legal_moves()


@pytest.mark.parametrize("empty", [1, 2, 3])
def test_king_led_run_into_an_empty_column(empty: int) -> None:
    base = ["KH QH JH TH", "", "*", "*", "*", "*", "*", "*"]
    pos = make("eightoff", base, cells=["*"] * (8 - empty) + [None] * empty)
    assert pos.group_limit(to_empty_column=True) == empty + 1
    whole = Move(Place.column(0), Place.column(1), 4)
    if empty + 1 >= 4:
        assert pos.is_legal(whole)
    else:
        with pytest.raises(IllegalMoveError, match=f"Only {empty + 1} cards can move"):
            pos.check(whole)
    # part of the run is not King-led: refused in Eight Off whatever the limit
    with pytest.raises(IllegalMoveError, match="Only a King may fill an empty column"):
        pos.check(Move(Place.column(0), Place.column(1), 1))


def test_queen_refused_by_empty_column_in_eightoff_accepted_in_easy() -> None:
    sketch = ["KD QS", "", "*", "*", "*", "*", "*", "*"]
    cells = ["*", "*", "*", "*", None, None, None, None]
    queen_to_space = Move(Place.column(0), Place.column(1))
    eo = make("eightoff", sketch, cells)
    with pytest.raises(IllegalMoveError) as e:
        eo.apply(queen_to_space)
    assert str(e.value) == "Only a King may fill an empty column"
    easy = make("eightoff-easy", sketch, cells)
    after = easy.apply(queen_to_space)
    assert [str(c) for c in after.columns[1]] == ["QS"]


def test_freecell_limit_is_halved_when_the_target_column_is_empty() -> None:
    # two empty cells, two empty columns: 12 cards onto a card, 6 into an empty column
    run = "KH QS JH TS 9H 8S 7H"
    pos = make("freecell", [run, "", "", "*", "*", "*", "*", "*"], cells=["*", "*", None, None])
    assert pos.group_limit() == 12
    assert pos.group_limit(to_empty_column=True) == 6
    seven_cards = Move(Place.column(0), Place.column(1), 7)
    with pytest.raises(IllegalMoveError) as e:
        pos.check(seven_cards)
    assert str(e.value) == "Only 6 cards can move: (2 empty cells + 1) doubled for 1 empty column"
    assert pos.is_legal(Move(Place.column(0), Place.column(1), 6))


def test_wrong_card_says_which_card_it_needs() -> None:
    pos = make("eightoff", ["8S", "7H", "*", "*", "*", "*", "*", "*"], cells=[None] * 8)
    with pytest.raises(IllegalMoveError) as e:
        pos.check(Move(Place.column(1), Place.column(0)))
    assert str(e.value) == "7♥ needs the 8♥"
    fc = make("freecell", ["8H", "7H", "*", "*", "*", "*", "*", "*"], cells=[None] * 4)
    with pytest.raises(IllegalMoveError) as e:
        fc.check(Move(Place.column(1), Place.column(0)))
    assert str(e.value) == "7♥ needs a black 8"


def test_cards_go_home_in_order_one_at_a_time() -> None:
    pos = make("eightoff", ["2S", "AS", "*", "*", "*", "*", "*", "*"], cells=[None] * 8)
    with pytest.raises(IllegalMoveError, match="2♠ can go home only after the A♠"):
        pos.check(Move(Place.column(0), HOME))
    after = pos.apply(Move(Place.column(1), HOME)).apply(Move(Place.column(0), HOME))
    assert after.foundations[1] == 2


def test_cell_rules() -> None:
    pos = make("eightoff", ["9S", "*", "*", "*", "*", "*", "*", "*"], cells=["*"] + [None] * 7)
    with pytest.raises(IllegalMoveError, match="Cell 1 is not empty"):
        pos.check(Move(Place.column(0), Place.cell(0)))
    with pytest.raises(IllegalMoveError, match="no Cell 9"):
        pos.check(Move(Place.column(0), Place.cell(8)))
    assert pos.is_legal(Move(Place.column(0), Place.cell(3)))
    assert pos.is_legal(Move(Place.cell(0), Place.cell(5)))  # between cells: legal
    with pytest.raises(IllegalMoveError, match="Cell 2 is empty"):
        pos.check(Move(Place.cell(1), Place.cell(5)))


@pytest.mark.parametrize("retrieval", [False, True])
def test_foundation_retrieval_on_and_off(retrieval: bool) -> None:
    pos = make(
        "eightoff",
        ["KH QH", "*", "*", "*", "*", "*", "*", "*"],
        cells=[None] * 8,
        home={"S": 11},
    )
    if retrieval:
        pos = pos.__class__(
            pos.rules.with_options(foundation_retrieval=True),
            pos.columns,
            pos.cells,
            pos.foundations,
        )
    spades = 1
    back_to_cell = Move(Place.foundation(spades), Place.cell(0))
    moves = pos.legal_moves()
    if retrieval:
        after = pos.apply(back_to_cell)
        assert str(after.cells[0]) == "JS" and after.foundations[spades] == 10
        assert back_to_cell in moves
        assert str(back_to_cell) == "h2a" and Move.parse("h2a") == back_to_cell
    else:
        with pytest.raises(IllegalMoveError, match="stay there"):
            pos.check(back_to_cell)
        assert not any(m.source.kind is Kind.FOUNDATION for m in moves)


@pytest.mark.parametrize(
    ("text", "move"),
    [
        ("3a", Move(Place.column(2), Place.cell(0))),
        ("a7", Move(Place.cell(0), Place.column(6))),
        ("5h", Move(Place.column(4), HOME)),
        ("ih", Move(Place.cell(7), HOME)),
        ("37x3", Move(Place.column(2), Place.column(6), 3)),
        ("0a", Move(Place.column(9), Place.cell(0))),
        ("h23", Move(Place.foundation(1), Place.column(2))),
        ("ah2", Move(Place.cell(0), Place.foundation(1))),
    ],
)
def test_notation_round_trips(text: str, move: Move) -> None:
    assert Move.parse(text) == move
    assert str(move) == text
    assert eval(repr(move)) == move


@pytest.mark.parametrize("bad", ["", "3", "z1", "3z", "37x", "37x0", "h3", "3ah"])
def test_bad_notation_is_a_syntax_error_not_an_illegal_move(bad: str) -> None:
    with pytest.raises(MoveSyntaxError):
        Move.parse(bad)
    assert not issubclass(MoveSyntaxError, IllegalMoveError)


@pytest.mark.parametrize("bad", ["x", "x3"])
def test_a_count_without_a_move_is_not_a_move(bad: str) -> None:
    """'x' was told "the count after 'x' must be a whole number"."""
    with pytest.raises(MoveSyntaxError) as refused:
        Move.parse(bad)
    assert (
        str(reason(refused.value)) == f"{bad!r}: a move names a source and a target, e.g. 3a or 5h"
    )


def test_the_places_a_refusal_names_are_the_variants() -> None:
    """A place that is none, in FreeCell: its 8 columns and 4 cells, not the notation's
    10 and 8 (and h1…h4 for its 4 foundations)."""
    pos = deal("freecell", 1)
    with pytest.raises(MoveSyntaxError) as refused:
        pos.parse_move("z1")
    assert "(columns 1–8, cells a–d, home h)" in str(reason(refused.value))
    with pytest.raises(MoveSyntaxError) as refused:
        pos.parse_move("ha")
    assert "written h1…h4" in str(reason(refused.value))


def test_typed_move_finds_the_run_that_fits() -> None:
    pos = make("eightoff", ["KS QS", "JS TS 9S", "*", "*", "*", "*", "*", "*"], cells=[None] * 8)
    move = pos.parse_move("21")
    assert move.count == 3
    assert describe(pos, move) == "3 cards (J♠…9♠) from Column 2 to Column 1"


def test_won_and_lost() -> None:
    won = make("eightoff", [""] * 8, cells=[None] * 8, home={s: 13 for s in "CSHD"})
    assert won.is_won() and not won.is_lost()
    # cells full, no top card fits another, no Ace exposed, no empty column: lost
    stuck = make(
        "eightoff",
        [
            "AC 2C 3C 4C KC",
            "AS 2S 3S 4S KS",
            "AH 2H 3H 4H KH",
            "AD 2D 3D 4D KD",
            "5C 6C 7C QC TC JC",
            "5S 6S 7S QS TS JS",
            "5H 6H 7H QH TH JH",
            "5D 6D 7D QD TD JD",
        ],
        cells=["9C", "9S", "9H", "9D", "8C", "8S", "8H", "8D"],
    )
    assert stuck.legal_moves() == []
    assert stuck.is_lost() and not stuck.is_won()
    assert not make("eightoff", ["KS", "*"] + [""] * 6, cells=[None] * 8).is_lost()
