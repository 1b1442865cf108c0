"""What ``eightoff solve`` prints for a deal or a board: the solution as numbered text
lines or as one JSON object, or a one-line summary (``--quiet``).

Everything is made in one pass over a solution's replay keys (``replay.h``,
``eo_move_key``: source, resolved target, count, the card that moves and a group's top
card, as the compiled replay met them), so no Position is built along the solution.  A
move's text and its JSON are made once per distinct key (the words through
:func:`eightoff.i18n.describe_played`, the one place they live) and then looked up.
"""

from __future__ import annotations

import json
import operator
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any, Final, Literal

from eightoff.cards import Card
from eightoff.i18n import DEFAULT_LANGUAGE, describe_played, moved_cards, words
from eightoff.position import Place
from eightoff.verdict import Verdict

from . import _core, move_of, place_of

Mode = Literal["text", "json", "summary"]


@dataclass(frozen=True, slots=True)
class Outcome:
    """What solving one deal (or board) came to, as the output needs it."""

    verdict: Verdict
    states: int
    seconds: float
    keys: Sequence[int] = ()
    """The solution as the replay's keys (empty unless solved)."""
    length: int = 0
    """The solution's length (the keys may be left out in summary mode)."""
    reason: str = "limit reached"
    """Why the search stopped, for an unknown verdict."""


def _duration(seconds: float) -> str:
    if seconds < 1e-3:
        return f"{seconds * 1e6:.0f} µs"
    if seconds < 1:
        return f"{seconds * 1e3:.1f} ms"
    return f"{seconds:.2f} s"


def summary(outcome: Outcome) -> str:
    """The summary line: verdict, moves, states, time."""
    states = f"{outcome.states:,} states".replace(",", " ")
    took = _duration(outcome.seconds)
    if outcome.verdict == Verdict.SOLVED:
        n = outcome.length
        return f"solved: {n} move{'' if n == 1 else 's'}, {states}, {took}"
    if outcome.verdict == Verdict.LOST:
        return f"lost: no sequence of moves wins (search space exhausted: {states}, {took})"
    return f"unknown: {outcome.reason} ({states}, {took}); no verdict"


def _played(key: int) -> tuple[Place, Place, Card, int, Card | None, str]:
    """A key's source, resolved target, card, count, top card and notation."""
    src, dst, count = key & 255, (key >> 8) & 255, (key >> 16) & 255
    card, top = (key >> 24) & 255, (key >> 32) & 255
    return (
        place_of(src),
        place_of(dst),
        Card(card),
        count,
        Card(top) if top else None,
        _notation(src, dst, count),
    )


@cache
def _notation(src: int, dst: int, count: int) -> str:
    home = dst >= _core.FOUNDATION
    return str(move_of(src << 16 | (_core.HOME if home else dst) << 8 | count))


_SLOT: Final = "\x00"
"""Where the moved cards go in a move's words (rendered once per source and target)."""


@cache
def _frame(src: int, dst: int) -> tuple[str, str]:
    """A move's words around what it moves, e.g. ("", " from Column 6 to Cell 1")."""
    before, _, after = str(describe_played(place_of(src), place_of(dst), _SLOT)).partition(_SLOT)
    return before, after


@cache
def _what(card: int, count: int, top: int) -> str:
    what = moved_cards(Card(card), count, Card(top) if top else None)
    return words(DEFAULT_LANGUAGE).format_param(what, "")


class _TextLines(dict[int, str]):
    """A move's text line after its number ("6a     3♦ from Column 6 to Cell 1"), by key."""

    def __missing__(self, key: int) -> str:
        src, dst, count = key & 255, (key >> 8) & 255, (key >> 16) & 255
        before, after = _frame(src, dst)
        what = _what((key >> 24) & 255, count, (key >> 32) & 255)
        line = f"{_notation(src, dst, count):<6} {before}{what}{after}"
        self[key] = line
        return line


def _place_json(place: Place) -> dict[str, Any]:
    return {"kind": place.kind.value, "index": place.index}


@cache
def _json_move(key: int) -> str:
    """A move's JSON object (as text) by its key without the top card."""
    source, target, card, count, _, notation = _played(key)
    return json.dumps(
        {
            "notation": notation,
            "card": str(card),
            "count": count,
            "source": _place_json(source),
            "target": _place_json(target),
        }
    )


class _JsonMoves(dict[int, str]):
    """A move's JSON object (as text), by key."""

    def __missing__(self, key: int) -> str:
        text = _json_move(key & 0xFFFFFFFF)
        self[key] = text
        return text


_TEXT: Final = _TextLines()
_JSON: Final = _JsonMoves()
_NUMBERS: dict[int, list[str]] = {}
"""The numbers before the moves ("  7. "), by width: made once."""


def _numbers(length: int) -> list[str]:
    width = len(str(length))
    numbers = _NUMBERS.get(width)
    if numbers is None:
        numbers = [f"{i:>{width}}. " for i in range(1, 10**width)]
        _NUMBERS[width] = numbers
    return numbers


def text(title: str, outcome: Outcome) -> str:
    """The human output of one deal: its title, every move numbered, in the notation and
    in words, then the summary line."""
    keys = outcome.keys
    if not keys:
        return f"{title}\n{summary(outcome)}\n"
    lines = map(operator.add, _numbers(len(keys)), map(_TEXT.__getitem__, keys))
    return f"{title}\n" + "\n".join(lines) + f"\n{summary(outcome)}\n"


def json_line(variant: str, number: int | None, outcome: Outcome) -> str:
    """The ``--json`` output of one deal: one object on one line."""
    head = json.dumps({"variant": variant, "deal": number, "verdict": outcome.verdict})
    tail = json.dumps({"states": outcome.states, "seconds": round(outcome.seconds, 6)})
    moves = ", ".join(map(_JSON.__getitem__, outcome.keys))
    return f'{head[:-1]}, "moves": [{moves}], {tail[1:]}\n'


def summary_line(title: str, outcome: Outcome) -> str:
    """The ``--quiet`` output of one deal: its title and its summary on one line."""
    return f"{title}: {summary(outcome)}\n"


def render(mode: Mode, variant: str, number: int | None, title: str, outcome: Outcome) -> str:
    """One deal's output in the chosen mode."""
    if mode == "json":
        return json_line(variant, number, outcome)
    if mode == "summary":
        return summary_line(title, outcome)
    return text(title, outcome)
