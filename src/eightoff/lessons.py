"""The four lessons: small prepared Eight Off positions, each teaching one rule.

1. same-suit building; 2. single-card storage in cells; 3. group capacity
(free cells + one); 4. King-only empty columns. After the fourth comes a full
shuffled deal (:func:`next_lesson` returns None).

Each lesson is a JSON board (most cards already home), a success test, and the
intended moves (a short way through, which the tests play). Its title, goal and
guidance are words for people: they are in the catalogues (``locales/*.json``, key
``lessons``), read through :func:`eightoff.explain.lesson_text`. Core-level code: no
words, web, database or solver imports.

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
from eightoff.i18n import Message
from eightoff.position import Position
from eightoff.rules import preset


class LessonError(ValueError):
    """No lesson has this number."""


@dataclass(frozen=True, slots=True)
class Lesson:
    id: int
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
        raise LessonError(Message("error.no_lesson", n=repr(number), total=len(LESSONS)))
    return LESSONS[number - 1]


def next_lesson(number: int) -> int | None:
    """The lesson after ``number``; None after the last (then comes a full shuffled deal)."""
    lesson(number)
    return number + 1 if number < len(LESSONS) else None
