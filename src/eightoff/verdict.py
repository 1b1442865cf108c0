"""The one verdict vocabulary: what the solver proved about a position.

The solver, the survey and the table all speak of :class:`Verdict`; the web API's
words ("winnable", "not_winnable", "unknown") are :attr:`Verdict.word`, mapped here
and nowhere else.

>>> Verdict("solved").word, Verdict.from_word("not_winnable")
('winnable', <Verdict.LOST: 'lost'>)
"""

from __future__ import annotations

from enum import StrEnum
from typing import Literal

Word = Literal["winnable", "not_winnable", "unknown"]


class Verdict(StrEnum):
    SOLVED = "solved"
    """A solution exists (the solver found one)."""
    LOST = "lost"
    """No sequence of moves wins (the search space was exhausted: a proof)."""
    UNKNOWN = "unknown"
    """A limit stopped the search before a verdict."""

    @property
    def word(self) -> Word:
        """The table's word for it (the web API's ``verdict`` field)."""
        return _WORDS[self]

    @classmethod
    def from_word(cls, word: str) -> Verdict:
        for v, w in _WORDS.items():
            if w == word:
                return v
        raise ValueError(f"{word!r} is not a verdict word ({', '.join(_WORDS.values())})")


_WORDS: dict[Verdict, Word] = {
    Verdict.SOLVED: "winnable",
    Verdict.LOST: "not_winnable",
    Verdict.UNKNOWN: "unknown",
}
