"""The four lessons: small prepared Eight Off positions, each teaching one rule.

1. same-suit building; 2. single-card storage in cells; 3. group capacity
(free cells + one); 4. King-only empty columns. After the fourth comes a full
shuffled deal (:func:`next_lesson` returns None).

Each lesson is a JSON board (most cards already home), a title, a goal, a few lines
of guidance, a success test, and the intended moves (a short way through, which the
tests play). Core-level code: no web, database or solver imports.

>>> from eightoff.game import Game
>>> first = LESSONS[0]
>>> g = Game(first.start())
>>> for m in first.walkthrough:
...     _ = g.play(m)
>>> first.is_complete(g.position)
True
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Final

from eightoff.boards import from_json
from eightoff.position import Position
from eightoff.rules import preset


class LessonError(ValueError):
    """No lesson has this number."""


@dataclass(frozen=True, slots=True)
class Lesson:
    id: int
    title: str
    goal: str
    guidance: tuple[str, ...]
    board: dict[str, Any]
    """The JSON board (:func:`eightoff.boards.from_json`)."""
    walkthrough: tuple[str, ...]
    """One short way to reach the goal, in move notation (auto-move on)."""
    variant: str = "eightoff"

    def start(self) -> Position:
        """The lesson's starting position."""
        return from_json(self.board, preset(self.variant))

    def is_complete(self, position: Position) -> bool:
        """The success test: every lesson's goal ends with every card home."""
        return position.rules.id == self.variant and position.is_won()


LESSONS: Final[tuple[Lesson, ...]] = (
    Lesson(
        id=1,
        title="Build down in suit",
        goal="Get every card home. The cells are full, so dig out the 2♠ and the 9♥ by building.",
        guidance=(
            "A card may go onto the next higher card of the same suit: the J♥ onto the Q♥,"
            " the 10♥ onto the J♥. A red card on a black one is not allowed.",
            "Click a card, then click the column it should go to.",
            "Cards that can go home go there by themselves; freeing the 2♠ lets the eight"
            " spades in the cells follow it.",
        ),
        board={
            "variant": "eightoff",
            "columns": [["2S", "TH"], ["9H", "QS", "JH"], ["KS"], ["KH", "QH"], ["JS"]],
            "cells": ["3S", "4S", "5S", "6S", "7S", "8S", "9S", "TS"],
            "foundations": {"C": 13, "S": 1, "H": 8, "D": 13},
        },
        walkthrough=("12", "24x2"),
    ),
    Lesson(
        id=2,
        title="Store single cards in the cells",
        goal="Free the 9♠ at the bottom of Column 1, then get every card home.",
        guidance=(
            "Each free cell holds one card, and any exposed card may go into an empty cell.",
            "The J♠ and the 10♠ have nowhere else to go: put them in cells, one at a time."
            " The Q♠ can go onto the K♠.",
            "A card leaves its cell for a column, for home, or for another cell. Keep cells"
            " free when you can: every full cell is a card waiting for a place.",
        ),
        board={
            "variant": "eightoff",
            "columns": [["9S", "QS", "TS", "JS"], ["KS"]],
            "cells": [None] * 8,
            "foundations": {"C": 13, "S": 8, "H": 13, "D": 13},
        },
        walkthrough=("1a", "1b", "12"),
    ),
    Lesson(
        id=3,
        title="Group moves: free cells + one",
        goal="Move the run 9♦ 8♦ 7♦ 6♦ onto the 10♦ to free the 5♦, then get every card home.",
        guidance=(
            "A run built down in suit may move as one group of up to (free cells + 1) cards:"
            " each card could go through a free cell on the way.",
            "With 2 free cells only 3 cards can move. Empty columns do not help in Eight Off.",
            "Free a cell first: the J♣ can leave its cell for the Q♣. Then 4 cards can move.",
        ),
        board={
            "variant": "eightoff",
            "columns": [
                ["TC", "5D", "9D", "8D", "7D", "6D"],
                ["9S", "KD", "QD", "JD", "TD"],
                ["QC"],
            ],
            "cells": ["JC", "JS", "QS", "KS", "KC", "TS", None, None],
            "foundations": {"C": 9, "S": 8, "H": 13, "D": 4},
        },
        walkthrough=("a3", "12x4"),
    ),
    Lesson(
        id=4,
        title="Only Kings fill empty columns",
        goal="Every cell is full and no card can go home: use an empty column, then get every"
        " card home.",
        guidance=(
            "An empty column takes only a King, or a run led by a King.",
            "Move the K♠ into an empty column: the 8♥ under it can go home, and the hearts"
            " in the cells follow.",
            "A King in a cell may move to an empty column too, which frees the cell.",
        ),
        board={
            "variant": "eightoff",
            "columns": [["TS", "8H", "KS"], ["JC", "QD"], ["JD", "QS", "QC"]],
            "cells": ["9H", "TH", "JH", "QH", "KH", "KD", "KC", "JS"],
            "foundations": {"C": 10, "S": 9, "H": 7, "D": 10},
        },
        walkthrough=("14", "3a"),
    ),
)


def lesson(number: int) -> Lesson:
    """Lesson ``number`` (1…4); raise LessonError otherwise."""
    if isinstance(number, bool) or not isinstance(number, int) or not 1 <= number <= len(LESSONS):
        raise LessonError(f"there is no lesson {number!r}: the lessons are 1 to {len(LESSONS)}")
    return LESSONS[number - 1]


def next_lesson(number: int) -> int | None:
    """The lesson after ``number``; None after the last (then comes a full shuffled deal)."""
    lesson(number)
    return number + 1 if number < len(LESSONS) else None
