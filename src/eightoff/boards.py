"""Board text in and out: Freecell Solver's format and a JSON board.

Freecell Solver's board text (``fc-solve`` reads and writes it)::

    Foundations: H-0 C-0 D-0 S-A
    Freecells: 5H - 8D -
    : 4C 2C 9C 8C QS 4S 2H
    : 5H QH 3C AC 3H 4H QD
    ...

one line per column, bottom card first; ``-`` is an empty cell; a line ``:`` is an
empty column. ``10`` and ``T`` are both read for tens; ``T`` is written.

The JSON board::

    {"variant": "eightoff",
     "columns": [["KS", "QS", ...], ...],      # bottom → top
     "cells": ["5H", null, ...],
     "foundations": {"C": 0, "S": 1, "H": 0, "D": 0}}   # top rank; two packs: [r, r]

Both readers check that the board is possible (every card of the pack exactly once,
no more cells or columns than the variant has, no suit named more often than the game
has foundations for it) and name the line and token at fault (a long token cut short).
A board text over :data:`MAX_BOARD_CHARS` characters is refused unread.

Two packs: the Freecell Solver text names each suit once per pack (``H-0 C-0 D-0 S-0
H-0 C-0 D-0 S-0``); the first ``H`` token is the first hearts foundation, the second
the second. The JSON board gives a list of two ranks per suit.
"""

from __future__ import annotations

import json
from collections import Counter
from typing import Any, Final

from eightoff.cards import RANK_LETTERS, SUIT_LETTERS, Card, CardSyntaxError, deck
from eightoff.i18n import quote
from eightoff.position import Position
from eightoff.rules import Rules, preset

MAX_BOARD_CHARS: Final = 1_000_000
"""The longest board text read (a real board is under 1 000 characters)."""


class BoardError(ValueError):
    """A board that cannot be read, or that no game could reach."""


def _check_size(text: str | bytes) -> None:
    if len(text) > MAX_BOARD_CHARS:
        raise BoardError(
            f"the board is {len(text):,} characters long; at most {MAX_BOARD_CHARS:,} are read"
        )


# ----- Freecell Solver text -------------------------------------------------------
def format_fcs(position: Position) -> str:
    """Freecell Solver board text of a position (foundations ordered H C D S per pack)."""
    parts = []
    for f in _fcs_foundation_order(position.rules):
        parts.append(f"{SUIT_LETTERS[f % 4]}-{_rank_text(position.foundations[f])}")
    lines = ["Foundations: " + " ".join(parts)]
    lines.append("Freecells: " + " ".join(str(c) if c is not None else "-" for c in position.cells))
    for col in position.columns:
        lines.append(": " + " ".join(str(c) for c in col) if col else ":")
    return "\n".join(lines) + "\n"


def _fcs_foundation_order(rules: Rules) -> list[int]:
    # Freecell Solver writes H C D S; our suits are C S H D (0 1 2 3).
    return [d * 4 + s for d in range(rules.decks) for s in (2, 0, 3, 1)]


def _rank_text(rank: int) -> str:
    return "0" if rank == 0 else RANK_LETTERS[rank]


def parse_fcs(text: str, rules: Rules | str = "eightoff") -> Position:
    """Read Freecell Solver board text for a variant; raise BoardError naming line and token."""
    _check_size(text)
    rules = preset(rules) if isinstance(rules, str) else rules
    foundations = [0] * rules.foundations
    named: Counter[int] = Counter()  # suit -> foundation tokens read (one per pack)
    cells: list[Card | None] = [None] * rules.cells
    columns: list[tuple[Card, ...]] = []
    where: dict[int, str] = {}  # card -> where first seen, for duplicate messages
    seen: Counter[int] = Counter()

    def note(card: Card, lineno: int, token: str) -> None:
        seen[card] += 1
        if seen[card] > rules.decks:
            raise BoardError(
                f"line {lineno}: {quote(token)} — the {card.symbol} is already on the board"
                f" ({where[card]})"
            )
        where.setdefault(card, f"line {lineno}")

    for lineno, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        head, colon, rest = line.partition(":")
        label = head.strip().lower()
        if colon and label in ("foundations", "founds"):
            for token in rest.split():
                suit_rank = token.replace("-", " ").split()
                if len(suit_rank) != 2 or suit_rank[0].upper() not in SUIT_LETTERS:
                    raise BoardError(
                        f"line {lineno}: {quote(token)} is not a foundation"
                        " (write e.g. H-0, S-A, D-5)"
                    )
                suit = SUIT_LETTERS.index(suit_rank[0].upper())
                rank_token = suit_rank[1].upper()
                rank = 0 if rank_token == "0" else _rank_of(rank_token)
                if rank is None:
                    raise BoardError(
                        f"line {lineno}: {quote(token)} has no rank 0, A, 2…10, J, Q, K"
                    )
                if named[suit] == rules.decks:
                    per_suit = "one foundation" if rules.decks == 1 else "two foundations"
                    raise BoardError(
                        f"line {lineno}: {quote(token)} — {SUIT_LETTERS[suit]} is named again,"
                        f" but {rules.name} has {per_suit} per suit"
                    )
                foundations[named[suit] * 4 + suit] = rank
                named[suit] += 1
                for r in range(1, rank + 1):
                    note(Card.of(r, suit), lineno, token)
            continue
        if colon and label in ("freecells", "reserve", "cells"):
            tokens = rest.split()
            if len(tokens) > rules.cells:
                raise BoardError(
                    f"line {lineno}: {len(tokens)} cells given but {rules.name} has {rules.cells}"
                )
            for i, token in enumerate(tokens):
                if token == "-":
                    continue
                card = _card(token, lineno)
                note(card, lineno, token)
                cells[i] = card
            continue
        body = rest if colon and not head.strip() else line
        if colon and head.strip():
            raise BoardError(
                f"line {lineno}: {quote(head.strip())} is not a board line (Foundations:,"
                " Freecells: or a column)"
            )
        if len(columns) == rules.columns:
            raise BoardError(
                f"line {lineno}: a column beyond the {rules.columns} that {rules.name} has"
            )
        col = []
        for token in body.split():
            card = _card(token, lineno)
            note(card, lineno, token)
            col.append(card)
        columns.append(tuple(col))
    while len(columns) < rules.columns:
        columns.append(())
    position = Position(rules, tuple(columns), tuple(cells), tuple(foundations))
    _check_complete(position)
    return position


def _rank_of(token: str) -> int | None:
    try:
        return Card.parse(token + "S").rank
    except CardSyntaxError:
        return None


def _card(token: str, lineno: int) -> Card:
    try:
        return Card.parse(token)
    except CardSyntaxError:
        raise BoardError(
            f"line {lineno}: {quote(token)} is not a card (write e.g. TD, 10D, QS, A♠)"
        ) from None


def _check_complete(position: Position) -> None:
    expected = Counter(deck(position.rules.decks))
    have = Counter(position.all_cards())
    missing = expected - have
    extra = have - expected
    if extra:
        names = ", ".join(c.symbol for c in sorted(extra, key=int))
        raise BoardError(f"cards on the board more often than the pack holds them: {names}")
    if missing:
        names = " ".join(str(c) for c in sorted(missing, key=lambda c: (c.suit, c.rank)))
        raise BoardError(f"{len(list(missing.elements()))} card(s) missing from the board: {names}")


# ----- JSON ------------------------------------------------------------------------
def to_json(position: Position) -> dict[str, Any]:
    """The JSON board of a position (a plain dict; ``json.dumps`` it)."""
    rules = position.rules
    foundations: dict[str, Any] = {}
    for s in range(4):
        tops = [position.foundations[d * 4 + s] for d in range(rules.decks)]
        foundations[SUIT_LETTERS[s]] = tops[0] if rules.decks == 1 else tops
    return {
        "variant": rules.id,
        "columns": [[str(c) for c in col] for col in position.columns],
        "cells": [str(c) if c is not None else None for c in position.cells],
        "foundations": foundations,
    }


def from_json(data: Any, rules: Rules | str | None = None) -> Position:
    """Read a JSON board (a dict or its text); raise BoardError naming the field and token."""
    if isinstance(data, str | bytes):
        _check_size(data)
        try:
            data = json.loads(data)
        except json.JSONDecodeError as e:
            raise BoardError(f"not JSON: {e.msg} (line {e.lineno}, column {e.colno})") from None
        except RecursionError:
            raise BoardError("not a JSON board: nested too deep") from None
        except ValueError:  # an integer of more than 4300 digits
            raise BoardError("not a JSON board: a number of thousands of digits") from None
    if not isinstance(data, dict):
        raise BoardError("a JSON board is an object with variant, columns, cells, foundations")
    if rules is None:
        variant = data.get("variant", "eightoff")
        if not isinstance(variant, str):
            raise BoardError(f"variant: {quote(variant)} is not a variant id")
        try:
            rules = preset(variant)
        except ValueError as e:
            raise BoardError(f"variant: {e}") from None
    elif isinstance(rules, str):
        rules = preset(rules)
    raw_columns = data.get("columns", [])
    if not isinstance(raw_columns, list) or not all(isinstance(c, list) for c in raw_columns):
        raise BoardError("columns: must be a list of columns, each a list of cards bottom → top")
    if len(raw_columns) > rules.columns:
        raise BoardError(f"columns: {len(raw_columns)} given but {rules.name} has {rules.columns}")
    raw_cells = data.get("cells", [])
    if not isinstance(raw_cells, list):
        raise BoardError("cells: must be a list of cards or null")
    if len(raw_cells) > rules.cells:
        raise BoardError(f"cells: {len(raw_cells)} given but {rules.name} has {rules.cells}")
    raw_found = data.get("foundations", {})
    if not isinstance(raw_found, dict):
        raise BoardError('foundations: must be an object such as {"S": 0, "H": 3}')

    def card_of(token: Any, where: str) -> Card:
        if not isinstance(token, str):
            raise BoardError(f"{where}: {quote(token)} is not a card")
        try:
            return Card.parse(token)
        except CardSyntaxError:
            raise BoardError(f"{where}: {quote(token)} is not a card (write e.g. TD, QS)") from None

    columns = tuple(
        tuple(card_of(t, f"columns[{i}][{j}]") for j, t in enumerate(col))
        for i, col in enumerate(raw_columns)
    ) + ((),) * (rules.columns - len(raw_columns))
    cells = tuple(
        None if t is None else card_of(t, f"cells[{i}]") for i, t in enumerate(raw_cells)
    ) + (None,) * (rules.cells - len(raw_cells))
    foundations = [0] * rules.foundations
    seen_suits: set[int] = set()
    for key, value in raw_found.items():
        suit_key = str(key).strip().upper()
        if suit_key not in SUIT_LETTERS:
            suit_key = {"♣": "C", "♠": "S", "♥": "H", "♦": "D"}.get(suit_key, "")
        if not suit_key:
            raise BoardError(f"foundations: {quote(key)} is not a suit (C, S, H, D)")
        suit = SUIT_LETTERS.index(suit_key)
        values = value if isinstance(value, list) else [value]
        if len(values) > rules.decks:
            raise BoardError(
                f"foundations.{suit_key}: {len(values)} tops given but {rules.name} has"
                f" {rules.decks} foundation(s) per suit"
            )
        if suit in seen_suits:
            raise BoardError(f"foundations: {quote(key)} names {suit_key} a second time")
        seen_suits.add(suit)
        for d, v in enumerate(values):
            if not isinstance(v, int) or isinstance(v, bool) or not 0 <= v <= 13:
                raise BoardError(f"foundations.{suit_key}: {quote(v)} is not a top rank 0…13")
            foundations[d * 4 + suit] = v
    position = Position(rules, columns, cells, tuple(foundations))
    _check_complete(position)
    return position


def parse_board(text: str, rules: Rules | str | None = None) -> Position:
    """Read either format: JSON when the text starts with ``{``, else Freecell Solver text."""
    if text.lstrip().startswith("{"):
        return from_json(text, rules)
    return parse_fcs(text, rules if rules is not None else "eightoff")
