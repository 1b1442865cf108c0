"""Numbered deals: deal #N of a variant is PySolFC's deal #N of that game.

The cards come from the ``pysol_cards`` package (Shlomi Fish's reimplementation of
PySolFC's shuffles): numbers up to 32000 follow Microsoft's FreeCell generator,
larger ones PySolFC's Mersenne-Twister shuffle.

Eight Off and Eight Off Easy use PySolFC's Eight Off deal (48 cards in eight
columns of six, the last four in the first four cells: PySolFC shows them in
cells 1, 3, 5, 7, which is the same game since cells are interchangeable).
Seahaven Towers keeps PySolFC's cells 2 and 3.

Double FreeCell (two packs, eight foundations) is not PySolFC's "Double FreeCell"
(that game has four wrapping foundations and deals the Aces out first), so it has
its own documented deal: the 104 cards of two packs in ``pysol_cards``' order,
shuffled by the same generator with the deal number as seed, dealt round-robin
into ten columns left to right (four columns of 11, six of 10).

The rule is stated here in Python (:func:`reference_order`, through ``pysol_cards``);
:func:`deal` uses its compiled copy (``eightoff._deals``, built from
``solver/deals.h``, about 4 µs a deal against 50-90 µs), held to the reference deal for
deal by ``tests/unit/test_deals_compiled.py`` over thousands of numbers at every
boundary (1, 32000, 32001, 2^31, 2^32, 2^64, 10^20 − 1).
"""

from __future__ import annotations

import random
from typing import Final

from eightoff import _deals
from eightoff.cards import Card, deck
from eightoff.i18n import Message, grouped
from eightoff.position import Position
from eightoff.rules import Rules, preset

MIN_DEAL: Final = 1
MAX_DEAL: Final = 10**20 - 1  # PySolFC's largest game number (20 digits)
MS_DEALS: Final = 32000


class DealNumberError(ValueError):
    """A deal number outside 1 … 10^20 − 1."""


def check_deal_number(number: int) -> int:
    if isinstance(number, bool) or not isinstance(number, int):
        raise DealNumberError(Message("error.deal_not_whole", value=repr(number)))
    if not MIN_DEAL <= number <= MAX_DEAL:
        high = grouped(MAX_DEAL)
        raise DealNumberError(Message("error.deal_out_of_range", n=number, low=MIN_DEAL, high=high))
    return number


_BY_CODE: Final[dict[int, Card]] = {int(c): c for c in deck()}
"""Each card by its code (the compiled order gives codes)."""


def _card(pc: object) -> Card:
    return Card.of(pc.rank, pc.suit)  # type: ignore[attr-defined]


def deal(variant: Rules | str, number: int) -> Position:
    """The starting position of deal ``number`` of a variant."""
    rules = preset(variant) if isinstance(variant, str) else variant
    check_deal_number(number)
    return layout(rules, [_BY_CODE[code] for code in _deals.order(rules.decks, number)])


def reference_order(rules: Rules, number: int) -> list[Card]:
    """The cards of deal ``number`` in dealing order, by the rule as stated in Python
    (``pysol_cards``): the oracle that the compiled copy :func:`deal` uses is held to."""
    from pysol_cards.cards import createCards
    from pysol_cards.random import RandomBase
    from pysol_cards.random import shuffle as pysol_shuffle

    check_deal_number(number)
    if rules.pysol_game is not None:
        return _pysol_order(rules.pysol_game, number)
    cards = pysol_shuffle(createCards(rules.decks), number, RandomBase.DEALS_PYSOLFC)
    cards.reverse()
    return [_card(c) for c in cards]


def _pysol_order(game_id: str, number: int) -> list[Card]:
    """The cards of PySolFC's deal in dealing order (as pysol_cards deals them)."""
    from pysol_cards.deal_game import Game as PysolGame
    from pysol_cards.random import RandomBase

    game = PysolGame(game_id, number, RandomBase.DEALS_PYSOLFC)
    game.deal()
    return [_card(c) for c in game.cards]


def layout(rules: Rules, order: list[Card]) -> Position:
    """Deal cards in order: round-robin into the columns, the rest into the dealt cells."""
    n = rules.dealt_to_columns
    columns = tuple(tuple(order[i : n : rules.columns]) for i in range(rules.columns))
    cells: list[Card | None] = [None] * rules.cells
    for cell, c in zip(rules.dealt_cells, order[n:], strict=True):
        cells[cell] = c
    return Position(rules, columns, tuple(cells), (0,) * rules.foundations)


def random_deal_number(rng: random.Random | None = None, *, ms_range: bool = False) -> int:
    """A deal number for a new random game (so that every game can be replayed)."""
    r = rng or random.SystemRandom()
    return r.randint(MIN_DEAL, MS_DEALS if ms_range else 10**9)
