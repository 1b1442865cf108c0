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
     "foundations": {"C": 0, "S": 1, "H": 0, "D": 0},   # top rank; two packs: [r, r]
     "free_cells": 2,                          # only when not the variant's own number
     "strict_single": true}                    # a house rule: only when switched

``free_cells`` is the number of free cells the game is played with (a house rule, e.g.
FreeCell with 2 cells); without it the board has the variant's own number. The other
house rules, ``foundation_retrieval`` and ``strict_single``, are named only where they
differ from the variant's own. The text
format lists every cell (``-`` for an empty one), so its ``Freecells:`` line shows how
many there are; reading it, the rules given (``--cells`` on the command line) say how
many the game has.

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
from eightoff.i18n import Message, grouped, quote, reason
from eightoff.position import Position
from eightoff.rules import Rules, preset, rule_options

MAX_BOARD_CHARS: Final = 1_000_000
"""The longest board text read (a real board is under 1 000 characters)."""


class BoardError(ValueError):
    """A board that cannot be read, or that no game could reach."""


def _check_size(text: str | bytes) -> None:
    if len(text) > MAX_BOARD_CHARS:
        raise BoardError(
            Message("board.too_long", n=grouped(len(text)), most=grouped(MAX_BOARD_CHARS))
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
    where: dict[int, Message] = {}  # card -> where first seen, for duplicate messages
    seen: Counter[int] = Counter()

    def note(card: Card, lineno: int, token: str) -> None:
        seen[card] += 1
        if seen[card] > rules.decks:
            raise BoardError(
                Message(
                    "board.again", line=lineno, token=quote(token), card=card, where=where[card]
                )
            )
        where.setdefault(card, Message("board.line", line=lineno))

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
                        Message("board.not_foundation", line=lineno, token=quote(token))
                    )
                suit = SUIT_LETTERS.index(suit_rank[0].upper())
                rank_token = suit_rank[1].upper()
                rank = 0 if rank_token == "0" else _rank_of(rank_token)
                if rank is None:
                    raise BoardError(Message("board.no_rank", line=lineno, token=quote(token)))
                if named[suit] == rules.decks:
                    raise BoardError(
                        Message(
                            "board.named_again",
                            line=lineno,
                            token=quote(token),
                            suit=SUIT_LETTERS[suit],
                            name=rules,
                            decks=rules.decks,
                        )
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
                    Message(
                        "board.too_many_cells",
                        line=lineno,
                        n=len(tokens),
                        name=rules,
                        cells=rules.cells,
                    )
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
            raise BoardError(Message("board.not_a_line", line=lineno, head=quote(head.strip())))
        if len(columns) == rules.columns:
            raise BoardError(
                Message("board.extra_column", line=lineno, columns=rules.columns, name=rules)
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
        raise BoardError(Message("board.not_a_card", line=lineno, token=quote(token))) from None


def _check_complete(position: Position) -> None:
    expected = Counter(deck(position.rules.decks))
    have = Counter(position.all_cards())
    missing = expected - have
    extra = have - expected
    if extra:
        names = ", ".join(c.symbol for c in sorted(extra, key=int))
        raise BoardError(Message("board.extra_cards", names=names))
    if missing:  # two packs: a card missing twice is named once, "AC×2"
        names = " ".join(
            f"{c}×{missing[c]}" if missing[c] > 1 else str(c)
            for c in sorted(missing, key=lambda c: (c.suit, c.rank))
        )
        raise BoardError(Message("board.missing", n=len(list(missing.elements())), names=names))


# ----- JSON ------------------------------------------------------------------------
HOUSE_RULE_FIELDS: Final = ("foundation_retrieval", "strict_single")
"""The JSON board's house rules besides ``free_cells``: true or false, only where they
differ from the variant's own."""


def to_json(position: Position) -> dict[str, Any]:
    """The JSON board of a position (a plain dict; ``json.dumps`` it)."""
    rules = position.rules
    foundations: dict[str, Any] = {}
    for s in range(4):
        tops = [position.foundations[d * 4 + s] for d in range(rules.decks)]
        foundations[SUIT_LETTERS[s]] = tops[0] if rules.decks == 1 else tops
    out: dict[str, Any] = {
        "variant": rules.id,
        "columns": [[str(c) for c in col] for col in position.columns],
        "cells": [str(c) if c is not None else None for c in position.cells],
        "foundations": foundations,
    }
    if rules.cells_changed:
        out["free_cells"] = rules.cells
    out |= {k: v for k, v in rule_options(rules).items() if k != "cells"}
    return out


JSON_FIELDS: Final = (
    "variant",
    "columns",
    "cells",
    "foundations",
    "free_cells",
    *HOUSE_RULE_FIELDS,
)
"""The fields of a JSON board."""


def from_json(data: Any, rules: Rules | str | None = None, *, typed: bool = False) -> Position:
    """Read a JSON board (a dict or its text); raise BoardError naming the field and token.
    ``typed``: a board a person wrote, where a field not of :data:`JSON_FIELDS` is a typo
    (``"freecells": 2`` would play with the variant's own cells) and is refused."""
    if isinstance(data, str | bytes):
        _check_size(data)
        try:
            data = json.loads(data)
        except json.JSONDecodeError as e:
            not_json = Message("board.not_json", error=e.msg, line=e.lineno, column=e.colno)
            raise BoardError(not_json) from None
        except RecursionError:
            raise BoardError(Message("board.too_deep")) from None
        except ValueError:  # an integer of more than 4300 digits
            raise BoardError(Message("board.huge_number")) from None
    if not isinstance(data, dict):
        raise BoardError(Message("board.not_object"))
    if typed and (unknown := [k for k in data if k not in JSON_FIELDS]):
        known = ", ".join(JSON_FIELDS)
        raise BoardError(Message("board.unknown_field", field=quote(unknown[0]), known=known))
    if rules is None:
        variant = data.get("variant", "eightoff")
        if not isinstance(variant, str):
            raise BoardError(Message("board.not_variant", value=quote(variant)))
        try:
            rules = preset(variant)
        except ValueError as e:
            raise BoardError(
                Message("board.field", field="variant", error=reason(e) or str(e))
            ) from None
    else:
        rules = preset(rules) if isinstance(rules, str) else rules
        named = data.get("variant")
        if named is not None and named != rules.id:  # a board of one game read as another
            raise BoardError(
                Message("board.other_variant", board=quote(named), name=rules, id=rules.id)
            )
    for field, option in (("free_cells", "cells"), *((k, k) for k in HOUSE_RULE_FIELDS)):
        if (value := data.get(field)) is not None:
            try:
                rules = rules.with_options(**Rules.parse_options({option: value}))
            except ValueError as e:
                why = reason(e) or str(e)
                raise BoardError(Message("board.field", field=field, error=why)) from None
    raw_columns = data.get("columns", [])
    if not isinstance(raw_columns, list) or not all(isinstance(c, list) for c in raw_columns):
        raise BoardError(Message("board.columns_list"))
    if len(raw_columns) > rules.columns:
        raise BoardError(
            Message("board.too_many_columns", n=len(raw_columns), name=rules, columns=rules.columns)
        )
    raw_cells = data.get("cells", [])
    if not isinstance(raw_cells, list):
        raise BoardError(Message("board.cells_list"))
    if len(raw_cells) > rules.cells:
        raise BoardError(
            Message("board.too_many_json_cells", n=len(raw_cells), name=rules, cells=rules.cells)
        )
    raw_found = data.get("foundations", {})
    if not isinstance(raw_found, dict):
        raise BoardError(Message("board.foundations_object"))

    def card_of(token: Any, where: str) -> Card:
        if not isinstance(token, str):
            raise BoardError(Message("board.json_not_card", where=where, token=quote(token)))
        try:
            return Card.parse(token)
        except CardSyntaxError:
            not_card = Message("board.json_not_card_hint", where=where, token=quote(token))
            raise BoardError(not_card) from None

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
            raise BoardError(Message("board.not_suit", key=quote(key)))
        suit = SUIT_LETTERS.index(suit_key)
        values = value if isinstance(value, list) else [value]
        if len(values) > rules.decks:
            raise BoardError(
                Message(
                    "board.too_many_tops",
                    suit=suit_key,
                    n=len(values),
                    name=rules,
                    decks=rules.decks,
                )
            )
        if suit in seen_suits:
            raise BoardError(Message("board.suit_again", key=quote(key), suit=suit_key))
        seen_suits.add(suit)
        for d, v in enumerate(values):
            if not isinstance(v, int) or isinstance(v, bool) or not 0 <= v <= 13:
                raise BoardError(Message("board.bad_top", suit=suit_key, value=quote(v)))
            foundations[d * 4 + suit] = v
    position = Position(rules, columns, cells, tuple(foundations))
    _check_complete(position)
    return position


def parse_board(text: str, rules: Rules | str | None = None) -> Position:
    """Read either format: JSON when the text starts with ``{`` (or ``[``, which it
    refuses), else Freecell Solver text; a byte order mark before it is skipped."""
    text = text.removeprefix("\ufeff")
    if text.lstrip().startswith(("{", "[")):
        return from_json(text, rules, typed=True)
    return parse_fcs(text, rules if rules is not None else "eightoff")
