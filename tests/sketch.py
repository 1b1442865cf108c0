"""Sketch complete boards for tests."""

from __future__ import annotations

from collections import Counter

from eightoff.boards import from_json
from eightoff.cards import SUIT_LETTERS, Card, deck
from eightoff.position import Position
from eightoff.rules import preset


def make(
    variant: str,
    columns: list[str],
    cells: list[str | None] | None = None,
    home: dict[str, int] | None = None,
) -> Position:
    """A complete, legal board from a sketch.

    ``columns``: one string per column, bottom card first ("KS QS JS"); "" is an
    empty column; "*" is a filler column. ``cells``: cards, None for empty, "*" for
    a filler card. ``home``: top rank per suit letter. Every card of the pack not
    placed and not home is dealt to the filler places (cells first, then the filler
    columns, each filler column in ascending rank order so it holds no runs).
    """
    rules = preset(variant)
    home = home or {}
    cells = list(cells or [])
    placed: Counter[Card] = Counter()
    for col in columns:
        if col != "*":
            placed.update(Card.parse(t) for t in col.split())
    placed.update(Card.parse(c) for c in cells if c not in (None, "*"))
    for letter, top in home.items():
        suit = SUIT_LETTERS.index(letter)
        placed.update(Card.of(r, suit) for r in range(1, top + 1))
    spare = sorted((Counter(deck(rules.decks)) - placed).elements(), key=lambda c: (c.rank, c.suit))
    out_cells: list[str | None] = []
    for c in cells:
        if c == "*":
            out_cells.append(str(spare.pop()))
        else:
            out_cells.append(c)
    fillers = [i for i, col in enumerate(columns) if col == "*"]
    out_cols: list[list[str]] = [[] if col == "*" else col.split() for col in columns]
    for k, card in enumerate(spare):
        if not fillers:
            raise AssertionError(f"cards left over and no filler column: {spare}")
        out_cols[fillers[k % len(fillers)]].append(str(card))
    foundations = {letter: top for letter, top in home.items()}
    return from_json(
        {"variant": variant, "columns": out_cols, "cells": out_cells, "foundations": foundations}
    )
