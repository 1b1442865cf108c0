"""What ``eightoff solve`` prints for a deal or a board, made in one pass over the
solution as the compiled replay describes it.

The replay (``solver/replay.h``) gives each move as a key (:class:`eightoff.solver.Played`,
:attr:`eightoff.solver.DealBlock.keys`: source, target resolved, count, the card that
moves and a group's top card) and the solution's two counts (:mod:`eightoff.counts`), so
no Position and no Move is built along a solution. A move's line and its JSON object
are made once per distinct key (the words by :func:`eightoff.explain.describe_played`,
from the catalogue) and then looked up; a deal's output is joined and written at once.
The output is the same, byte for byte, as a Position replayed move by move would give
(``tests/unit/test_solve_output.py``).

>>> from eightoff.deals import deal
>>> from eightoff.solver import played, solve
>>> start = deal("freecell", 1)
>>> solution = played(start, solve(start).moves)
>>> print(text("deal #1", solved(solution, states=152, seconds=0.0002)).splitlines()[1])
 1. 3a     J♦ from Column 3 to Cell 1
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cache
from typing import Final

from eightoff._join import Pieces
from eightoff.cards import Card
from eightoff.cli.house_rules import played_under
from eightoff.counts import Counts
from eightoff.explain import describe_played, moved_cards
from eightoff.i18n import (
    DEFAULT_LANGUAGE,
    Lang,
    Message,
    check_language,
    duration,
    grouped,
    translate,
    words,
)
from eightoff.rules import Rules
from eightoff.solver import Played, move_of, place_of
from eightoff.solver import _core as core
from eightoff.verdict import Verdict


@dataclass(frozen=True, slots=True)
class Outcome:
    """What solving one deal (or board) came to, as the output needs it."""

    verdict: Verdict
    states: int
    seconds: float
    keys: Sequence[int] = ()
    """The solution as the replay's keys (empty unless solved; may be left out for the
    summary)."""
    counts: Counts | None = None
    """The solution's length in both counts (None unless solved)."""
    reason: str = "limit reached"
    """Why the search stopped, for an unknown verdict."""


def solved(solution: Played, states: int, seconds: float) -> Outcome:
    return Outcome(Verdict.SOLVED, states, seconds, solution.keys, solution.counts)


# ----- the summary ---------------------------------------------------------------------
_REASONS: Final = {
    "limit reached": "cli.reason.limit",
    "state limit reached": "cli.reason.states",
    "time limit reached": "cli.reason.time",
    "memory limit reached": "cli.reason.memory",
    "disk limit reached": "cli.reason.disk",
    "interrupted": "cli.reason.interrupted",
}
"""The solver's reasons for stopping (its own words, the same in --json) as messages."""


def reason(why: str) -> Message | str:
    return Message(_REASONS[why]) if why in _REASONS else why


def summary(outcome: Outcome) -> Message:
    """The summary line: verdict, moves (player moves, then single-card moves), states,
    time."""
    n, took = outcome.counts, duration(outcome.seconds)
    if outcome.verdict == Verdict.SOLVED and n is not None:
        return Message(
            "cli.solve.solved",
            player=Message("cli.solve.player_moves", n=n.player),
            single=Message("cli.solve.single_card_moves", n=n.single_card),
            states=grouped(outcome.states),
            took=took,
        )
    if outcome.verdict == Verdict.LOST:
        return Message("cli.solve.lost", states=grouped(outcome.states), took=took)
    why = reason(outcome.reason)
    return Message("cli.solve.unknown", reason=why, states=grouped(outcome.states), took=took)


# ----- a move, by its key ----------------------------------------------------------------
@cache
def _notation(src: int, dst: int, count: int) -> str:
    """A move's notation ("6a", "3h") by the replay's source, target and count."""
    home = dst >= core.FOUNDATION
    return str(move_of(src << 16 | (core.HOME if home else dst) << 8 | count))


_SLOT: Final = "\x00"
"""Where the moved cards go in a move's words (the words made once per source and
target, the cards once per card, count and top card)."""


@cache
def _frame(src: int, dst: int, lang: Lang) -> tuple[str, str]:
    """A move's words around what it moves: ("", " from Column 6 to Cell 1")."""
    message = describe_played(place_of(src), place_of(dst), _SLOT)
    before, slot, after = translate(message, lang).partition(_SLOT)
    assert slot, "a move's words name what moves"
    return before, after


@cache
def _cards(card: int, count: int, top: int, lang: Lang) -> str:
    """What a move moves, in words: "3♦", "3 cards (9♠…7♠)"."""
    what = moved_cards(Card(card), count, Card(top) if top else None)
    return words(lang).format_param(what, "")


def _line_maker(lang: Lang) -> Callable[[int], bytes]:
    def line(key: int) -> bytes:
        """A move's line after its number ("3a     J♦ from Column 3 to Cell 1\\n")."""
        src, dst, count = key & 255, (key >> 8) & 255, (key >> 16) & 255
        before, after = _frame(src, dst, lang)
        what = _cards((key >> 24) & 255, count, (key >> 32) & 255, lang)
        return f"{_notation(src, dst, count):<6} {before}{what}{after}\n".encode()

    return line


class _Lines(dict[str, Pieces]):
    """Each move's line by key, made once, per language (a table in compiled code:
    eightoff._join)."""

    def __missing__(self, lang: str) -> Pieces:
        pieces = Pieces(_line_maker(check_language(lang)))
        self[lang] = pieces
        return pieces


@cache
def _place_json(code: int) -> str:
    """A place of the replay as its JSON object (as text): ``{"kind": .., "index": ..}``."""
    place = place_of(code)
    return json.dumps({"kind": place.kind.value, "index": place.index})


@cache
def _card_json(code: int) -> str:
    return json.dumps(str(Card(code)))


def _json_move(key: int) -> bytes:
    """A move's JSON object as ``json.dumps`` writes it (ASCII): its notation, the card
    that moves, the count, the source and the target resolved."""
    src, dst, count, card = key & 255, (key >> 8) & 255, (key >> 16) & 255, (key >> 24) & 255
    return (
        f'{{"notation": {json.dumps(_notation(src, dst, count))},'
        f' "card": {_card_json(card)}, "count": {count},'
        f' "source": {_place_json(src)}, "target": {_place_json(dst)}}}'
    ).encode()


_TEXT: Final = _Lines()
_JSON: Final = Pieces(_json_move)
"""Each move's JSON object by key, made once."""
_NUMBERS: dict[int, list[bytes]] = {}
"""The numbers before the moves (b" 7. "), by width: made once."""


def _numbers(length: int) -> list[bytes]:
    width = len(str(length))
    numbers = _NUMBERS.get(width)
    if numbers is None:
        numbers = [f"{i:>{width}}. ".encode() for i in range(1, 10**width)]
        _NUMBERS[width] = numbers
    return numbers


# ----- a deal's output (UTF-8) ---------------------------------------------------------
def text(title: str, outcome: Outcome, lang: Lang = DEFAULT_LANGUAGE) -> bytes:
    """The human output of one deal in ``lang``: its title, every move in the notation
    and in words, numbered in player moves (a card that safe auto-move or auto-complete
    sends home is marked ``+``, as ``solve --optimal`` marks it, and a line says so),
    then the summary line."""
    keys = outcome.keys
    head = f"{title}\n".encode()
    tail = f"{translate(summary(outcome), lang)}\n".encode()
    if not keys:
        return head + tail
    counted = outcome.counts.player if outcome.counts is not None else len(keys)
    width = len(str(counted))
    free = " " * width + "+ "
    numbers = _numbers(max(counted, 1))
    return _TEXT[lang].join(keys, b"", numbers, head, _legend(lang) + tail, free.encode())


@cache
def _legend(lang: Lang) -> bytes:
    """The line after the moves that says what "+" marks (made once per language, not
    once a deal)."""
    return f"{translate(Message('cli.par.free_moves'), lang)}\n".encode()


@cache
def _json_str(value: str) -> str:
    return json.dumps(value)


@cache
def _played_under(rules: Rules) -> str:
    """``, "cells": 4, "house_rules": []``: the end of a deal's JSON object."""
    return ", " + json.dumps(played_under(rules))[1:-1]


def json_line(rules: Rules, number: int | None, outcome: Outcome) -> bytes:
    """The ``--json`` output of one deal: one object on one line, as ``json.dumps``
    writes it (``player_moves``, ``single_card_moves``: the solution's two counts, null
    without one; ``reason``: why the search of an unknown deal stopped, else null;
    ``cells`` and ``house_rules``: the rules it was solved under, as ``rate --json``
    names them)."""
    n = outcome.counts
    deal = "null" if number is None else int(number)
    head = (
        f'{{"variant": {_json_str(rules.id)}, "deal": {deal},'
        f' "verdict": {_json_str(outcome.verdict)}, "moves": ['
    ).encode()
    counts = (
        'null, "single_card_moves": null'
        if n is None
        else (f'{n.player}, "single_card_moves": {n.single_card}')
    )
    # why an unknown deal's search stopped, as --optimal's JSON says it (null otherwise)
    reason = _json_str(outcome.reason) if outcome.verdict is Verdict.UNKNOWN else "null"
    tail = (
        f'], "player_moves": {counts}, "states": {outcome.states},'
        f' "seconds": {round(outcome.seconds, 6)!r}, "reason": {reason}'
        f"{_played_under(rules)}}}\n"
    ).encode()
    if not outcome.keys:
        return head + tail
    return _JSON.join(outcome.keys, b", ", None, head, tail)


def summary_line(title: str, outcome: Outcome) -> bytes:
    """The ``--quiet`` output of one deal: its title and its summary on one line, in
    English (the lines are for machines too)."""
    return f"{title}: {translate(summary(outcome), DEFAULT_LANGUAGE)}\n".encode()
