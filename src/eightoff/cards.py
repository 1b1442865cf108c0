"""Cards: an ``int`` underneath, with parsing and formatting.

A card is ``rank << 2 | suit`` with rank 1 (Ace) … 13 (King) and suit
0 ♣ Clubs, 1 ♠ Spades, 2 ♥ Hearts, 3 ♦ Diamonds (PySolFC's order). The colour
is ``suit >> 1``: 0 black, 1 red. The value 0 is never a card.

>>> c = Card.parse("TD")
>>> c.rank, c.suit, str(c), c.symbol, c.name
(10, 3, 'TD', '10♦', '10 of Diamonds')
>>> Card.parse("10♦") == c
True
"""

from __future__ import annotations

from typing import Final

from eightoff.i18n import DEFAULT_LANGUAGE, SUIT_SYMBOLS, words

CLUBS: Final = 0
SPADES: Final = 1
HEARTS: Final = 2
DIAMONDS: Final = 3
SUITS: Final = (CLUBS, SPADES, HEARTS, DIAMONDS)

ACE: Final = 1
KING: Final = 13

SUIT_LETTERS: Final = "CSHD"
RANK_LETTERS: Final = "_A23456789TJQK"
_SYMBOL_TO_SUIT: Final = {
    "C": CLUBS,
    "S": SPADES,
    "H": HEARTS,
    "D": DIAMONDS,
    "♣": CLUBS,
    "♠": SPADES,
    "♥": HEARTS,
    "♦": DIAMONDS,
    "♧": CLUBS,
    "♤": SPADES,
    "♡": HEARTS,
    "♢": DIAMONDS,
}
_RANK_TOKENS: Final = {
    "A": 1,
    "1": 1,
    "T": 10,
    "10": 10,
    "J": 11,
    "Q": 12,
    "K": 13,
    **{str(r): r for r in range(2, 10)},
}


class CardSyntaxError(ValueError):
    """A card's text could not be read."""


class Card(int):
    """A playing card; compares and hashes as its int code."""

    __slots__ = ()

    def __new__(cls, code: int) -> Card:
        if not (4 <= code <= (KING << 2 | 3)):
            raise ValueError(f"{code} is not a card code (4…55)")
        return super().__new__(cls, code)

    @classmethod
    def of(cls, rank: int, suit: int) -> Card:
        if not ACE <= rank <= KING:
            raise ValueError(f"rank {rank} is not 1 (Ace) … 13 (King)")
        if suit not in SUITS:
            raise ValueError(f"suit {suit} is not 0 ♣, 1 ♠, 2 ♥ or 3 ♦")
        return _CARDS[rank << 2 | suit]

    @classmethod
    def parse(cls, text: str) -> Card:
        """Read "TD", "10D", "10♦", "td", "A♠"; raise CardSyntaxError otherwise."""
        token = text.strip().upper()
        if len(token) < 2 or token[-1] not in _SYMBOL_TO_SUIT:
            raise CardSyntaxError(
                f"{text!r} is not a card: write a rank (A 2…9 T J Q K) and a suit"
                " (C S H D or ♣ ♠ ♥ ♦), e.g. TD or 10♦"
            )
        rank = _RANK_TOKENS.get(token[:-1])
        if rank is None:
            raise CardSyntaxError(
                f"{text!r} is not a card: {token[:-1]!r} is not a rank (A 2…9 T J Q K)"
            )
        return _CARDS[rank << 2 | _SYMBOL_TO_SUIT[token[-1]]]

    @property
    def rank(self) -> int:
        return self >> 2

    @property
    def suit(self) -> int:
        return self & 3

    @property
    def colour(self) -> int:
        """0 for black (♣ ♠), 1 for red (♥ ♦)."""
        return (self & 3) >> 1

    @property
    def is_red(self) -> bool:
        return bool(self & 2)

    @property
    def symbol(self) -> str:
        """Readable text such as "10♦" or "Q♥"."""
        rank = "10" if self.rank == 10 else RANK_LETTERS[self.rank]
        return rank + SUIT_SYMBOLS[self.suit]

    @property
    def name(self) -> str:
        """Full name for people and screen readers, in English: "Queen of Hearts", "10 of
        Spades" (the catalogue's words; other languages: :meth:`eightoff.i18n.Words.card_name`)."""
        return words(DEFAULT_LANGUAGE).card_name(self)

    def __str__(self) -> str:
        return RANK_LETTERS[self.rank] + SUIT_LETTERS[self.suit]

    def __repr__(self) -> str:
        return f"Card.parse({str(self)!r})"


_CARDS: Final[dict[int, Card]] = {
    rank << 2 | suit: int.__new__(Card, rank << 2 | suit)
    for rank in range(ACE, KING + 1)
    for suit in SUITS
}


def card(text: str) -> Card:
    """Shorthand for :meth:`Card.parse`."""
    return Card.parse(text)


def deck(decks: int = 1) -> list[Card]:
    """All cards of ``decks`` packs, suit by suit, Ace to King."""
    return [Card.of(r, s) for _ in range(decks) for s in SUITS for r in range(ACE, KING + 1)]
