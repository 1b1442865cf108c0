"""Cards read and written as players write them; rules presets and the group limit."""

from __future__ import annotations

import pytest

from eightoff.cards import Card, CardSyntaxError, deck
from eightoff.explain import describe_rules
from eightoff.rules import PRESETS, Build, EmptyColumn, UnknownVariantError, preset


@pytest.mark.parametrize(
    ("text", "rank", "suit", "symbol", "name"),
    [
        ("TD", 10, 3, "10♦", "10 of Diamonds"),
        ("10♦", 10, 3, "10♦", "10 of Diamonds"),
        ("qh", 12, 2, "Q♥", "Queen of Hearts"),
        ("A♠", 1, 1, "A♠", "Ace of Spades"),
        ("KC", 13, 0, "K♣", "King of Clubs"),
        ("10S", 10, 1, "10♠", "10 of Spades"),
    ],
)
def test_card_text(text: str, rank: int, suit: int, symbol: str, name: str) -> None:
    c = Card.parse(text)
    assert (c.rank, c.suit, c.symbol, c.name) == (rank, suit, symbol, name)
    assert Card.parse(str(c)) == c
    assert Card.parse(c.symbol) == c


@pytest.mark.parametrize("bad", ["", "1", "ZS", "TX", "11H", "KK", "♠"])
def test_bad_card_text_says_what_is_wrong(bad: str) -> None:
    with pytest.raises(CardSyntaxError, match="not a card"):
        Card.parse(bad)


def test_deck_is_every_card_once() -> None:
    cards = deck()
    assert len(cards) == 52 == len(set(cards))
    assert len(deck(2)) == 104 and len(set(deck(2))) == 52


def test_presets_have_the_documented_ids_and_parameters() -> None:
    assert list(PRESETS) == [
        "eightoff",
        "eightoff-easy",
        "freecell",
        "supermove-freecell",
        "bakers-game",
        "seahaven-towers",
        "double-freecell",
    ]
    eo = preset()
    assert eo.id == "eightoff"
    assert (eo.cells, eo.columns, eo.build, eo.empty_column) == (
        8,
        8,
        Build.SUIT,
        EmptyColumn.KINGS,
    )
    assert preset("eightoff-easy").empty_column is EmptyColumn.ANY
    assert preset("freecell").build is Build.ALTERNATE
    assert (preset("seahaven-towers").columns, preset("seahaven-towers").cells) == (10, 4)
    dfc = preset("double-freecell")
    assert (dfc.decks, dfc.foundations, dfc.cells, dfc.columns) == (2, 8, 6, 10)


def test_unknown_variant_names_the_known_ones() -> None:
    with pytest.raises(UnknownVariantError, match="choose one of: eightoff"):
        preset("spider")


@pytest.mark.parametrize("empty", range(9))
def test_eightoff_group_limit_is_empty_cells_plus_one(empty: int) -> None:
    rules = preset("eightoff")
    assert rules.group_limit(empty, 0) == empty + 1
    # empty columns do not raise it in Eight Off
    assert rules.group_limit(empty, 3) == empty + 1
    cells = "cell" if empty == 1 else "cells"
    plural = "card" if empty == 0 else "cards"
    assert rules.group_limit_words(empty, 0) == f"{empty + 1} {plural}: {empty} empty {cells} + 1"


def test_freecell_limit_doubles_per_empty_column_not_counting_the_target() -> None:
    fc = preset("freecell")
    assert fc.group_limit(2, 0) == 3
    assert fc.group_limit(2, 1) == 6
    assert fc.group_limit(2, 2) == 12
    # the target column is itself empty: it does not double the limit
    assert fc.group_limit(2, 1, to_empty_column=True) == 3
    assert fc.group_limit(2, 2, to_empty_column=True) == 6


def test_strict_single_card_option() -> None:
    strict = preset("freecell").with_options(strict_single=True)
    assert strict.group_limit(4, 3) == 1
    assert "single-card" in strict.group_limit_words(4, 3)
    assert preset("freecell").strict_single is False


def test_every_variant_describes_itself_in_one_line() -> None:
    for rules in PRESETS.values():
        line = str(describe_rules(rules))
        assert "\n" not in line and str(rules.cells) in line
