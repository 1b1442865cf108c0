"""``eightoff solve``'s output made from the compiled replay's move keys (one pass, no
Position along a solution) is the output a Position replayed move by move gives, byte
for byte; and the two move counts the compiled replay gives (replay.h, eo_replay_described)
are :mod:`eightoff.counts`' counts, deal by deal, on every variant and house rule.

The reference renderings here are what ``solve`` printed before the one-pass formatter:
each move described by :func:`eightoff.explain.describe` in its position, each JSON
move from the position, the counts by :func:`eightoff.counts.count`."""

from __future__ import annotations

import json
from array import array
from dataclasses import replace
from typing import Any

import pytest

from eightoff._join import Pieces
from eightoff.cli.solve_output import Outcome, json_line, solved, summary, text
from eightoff.counts import count, counted_moves
from eightoff.deals import deal
from eightoff.explain import describe
from eightoff.position import Move, Position
from eightoff.rules import Rules, house_rules_on, preset
from eightoff.solver import (
    DEFAULT_LIMITS,
    Solved,
    moves_of_keys,
    played,
    solve,
    solve_deals,
)
from eightoff.verdict import Verdict

CASES = [
    ("eightoff", {}, 1, 120),
    ("eightoff-easy", {}, 1, 80),  # groups into and through empty columns
    ("freecell", {}, 1, 150),
    ("freecell", {}, 31990, 20),
    ("supermove-freecell", {}, 1, 40),
    ("bakers-game", {}, 1, 80),
    ("seahaven-towers", {}, 1, 50),
    ("double-freecell", {}, 1, 3),
    ("freecell", {"strict_single": True}, 1, 20),
    ("freecell", {"foundation_retrieval": True}, 1, 30),
    ("eightoff", {"foundation_retrieval": True}, 1, 30),
    ("freecell", {"cells": 2}, 1, 30),
    ("eightoff", {"cells": 6}, 1, 30),
]


def _rules(variant: str, options: dict[str, Any]) -> Rules:
    rules = preset(variant)
    return rules.with_options(**options) if options else rules


def _solutions(rules: Rules, first: int, n: int) -> list[tuple[int, Any, Any, Any]]:
    """(deal number, keys, player moves, single-card moves) of each solved deal."""
    block = solve_deals(rules, first, n, DEFAULT_LIMITS, keep_moves=True)
    assert block.keys is not None
    out, at = [], 0
    for i in range(n):
        length = block.lengths[i]
        if length:
            keys = block.keys[at : at + length]
            out.append((first + i, keys, block.player_moves[i], block.single_card_moves[i]))
        at += length
    return out


@pytest.mark.parametrize(("variant", "options", "first", "n"), CASES)
def test_the_compiled_counts_are_the_counts_of_eightoff_counts(
    variant: str, options: dict[str, Any], first: int, n: int
) -> None:
    rules = _rules(variant, options)
    groups = 0
    for number, keys, player, single in _solutions(rules, first, n):
        start = deal(rules, number)
        moves = moves_of_keys(keys)
        counts = count(start, moves)
        assert (player, single) == (counts.player, counts.single_card), number
        groups += sum(m.count > 1 for m in moves)
        # the same through played() (solve()'s solutions, boards, --short)
        described = played(start, moves)
        assert list(described.keys) == list(keys)
        assert described.counts == count(start, moves)
    if not options.get("strict_single"):
        assert groups > 0  # the cases move groups: group_cost's table is used


def test_groups_that_use_empty_columns_as_room_are_counted_by_the_table() -> None:
    """Some FreeCell and Eight Off (Einfach) solutions move a group larger than the
    cells alone carry (cost above 2k - 1, counts.group_cost with columns as room): the
    compiled count of those deals is still counts.count's."""
    seen = 0
    for variant in ("freecell", "eightoff-easy"):
        rules = preset(variant)
        for number, keys, _player, single in _solutions(rules, 1, 150):
            start = deal(rules, number)
            moves = moves_of_keys(keys)
            per_move = counted_moves(start, moves)
            pairs = zip(per_move, moves, strict=True)
            seen += sum(c.single_card > 2 * m.count - 1 for c, m in pairs)
            assert single == sum(c.single_card for c in per_move)
    assert seen > 0


# ----- the output, byte for byte -------------------------------------------------------
def _reference_text(start: Position, title: str, moves: tuple[Move, ...], tail: str) -> str:
    """What solve prints: each move in the notation and described in its position,
    numbered in player moves (eightoff.counts; a free card home marked "+", as
    ``solve --optimal`` prints it), a line saying what "+" is, then the summary."""
    out = [f"{title}\n"]
    pos = start
    per_move = counted_moves(start, moves)
    width = len(str(sum(c.player for c in per_move)))
    n = 0
    for move, counts in zip(moves, per_move, strict=True):
        if counts.player:
            n += 1
            label = f"{n:>{width}}."
        else:
            label = " " * width + "+"
        out.append(f"{label} {move!s:<6} {describe(pos, move)}\n")
        pos = pos.apply_unchecked(move)
    legend = "(+ a card that safe auto-move or auto-complete sends home: not counted)\n"
    return "".join(out) + legend + f"{tail}\n"


def _reference_json(start: Position, number: int, moves: tuple[Move, ...], o: Outcome) -> str:
    items = []
    pos = start
    for move in moves:
        target = pos.resolve_target(move)
        items.append(
            {
                "notation": str(move),
                "card": str(pos.moving_card(move)),
                "count": move.count,
                "source": {"kind": move.source.kind.value, "index": move.source.index},
                "target": {"kind": target.kind.value, "index": target.index},
            }
        )
        pos = pos.apply_unchecked(move)
    c = count(start, moves)
    obj = {
        "variant": start.rules.id,
        "deal": number,
        "verdict": o.verdict,
        "moves": items,
        "player_moves": c.player,
        "single_card_moves": c.single_card,
        "states": o.states,
        "seconds": round(o.seconds, 6),
        "reason": None,  # solved: the search did not stop at a limit
        "cells": start.rules.cells,  # the rules it was solved under
        "house_rules": house_rules_on(start.rules),
    }
    return json.dumps(obj) + "\n"


@pytest.mark.parametrize(
    ("variant", "options", "first", "n"),
    [c for c in CASES if c[3] <= 80 or c[0] == "freecell"],
)
def test_text_and_json_from_the_keys_are_the_positions_own(
    variant: str, options: dict[str, Any], first: int, n: int
) -> None:
    rules = _rules(variant, options)
    for number, keys, player, _single in _solutions(rules, first, min(n, 40)):
        start = deal(rules, number)
        moves = moves_of_keys(keys)
        outcome = solved(played(start, moves), states=1234567, seconds=0.000321)
        title = f"{rules.name} · deal #{number}"
        assert text(title, outcome).decode() == _reference_text(
            start, title, moves, str(summary(outcome))
        )
        assert json_line(rules, number, outcome).decode() == _reference_json(
            start, number, moves, outcome
        )
        # the counts per move add up to the summary's
        per_move = counted_moves(start, moves)
        assert sum(c.player for c in per_move) == player


def test_a_board_and_short_solutions_render_the_same_way() -> None:
    start = deal("freecell", 5)
    result = solve(start, replace(DEFAULT_LIMITS, short=True))
    assert isinstance(result, Solved)
    outcome = solved(played(start, result.moves), result.states, result.seconds)
    assert text("t", outcome).decode() == _reference_text(
        start, "t", result.moves, str(summary(outcome))
    )


def test_lost_and_unknown_have_no_moves_and_null_counts() -> None:
    lost = Outcome(Verdict.LOST, 1000, 0.5)
    line = json.loads(json_line(preset("freecell"), 11982, lost))
    assert line["moves"] == [] and line["player_moves"] is None
    assert line["single_card_moves"] is None and line["verdict"] == "lost"
    unknown = Outcome(Verdict.UNKNOWN, 50, 2.0, reason="state limit reached")
    assert (
        text("t", unknown) == b"t\nunknown: state limit reached (50 states, 2.00 s); no verdict\n"
    )
    assert json.loads(json_line(preset("eightoff"), None, unknown))["deal"] is None


def test_a_refused_solution_is_never_described() -> None:
    from eightoff.solver import SolutionError

    start = deal("freecell", 5)
    result = solve(start)
    assert isinstance(result, Solved)
    with pytest.raises(SolutionError, match="refused at move"):
        played(start, result.moves[:-1])


# ----- the joiner ------------------------------------------------------------------------
def test_pieces_makes_each_string_once_and_keeps_it() -> None:
    made: list[int] = []

    def make(key: int) -> bytes:
        made.append(key)
        return b"%x;" % key

    p = Pieces(make)
    keys = array("Q", [(k * 7919) % 100_003 + (1 << 40) for k in range(50_000)])
    assert p.join(keys) == b"".join(b"%x;" % k for k in keys)  # grows the table past 4096
    assert p.join(keys, b",", None, b"[", b"]") == b"[" + b",".join(b"%x;" % k for k in keys) + b"]"
    assert sorted(made) == sorted(set(keys)) and len(p) == len(set(keys))
    assert p.join(array("Q")) == b""
    with pytest.raises(ValueError):
        p.join(keys[:3], b"", [b"1. "])
    with pytest.raises(TypeError):
        Pieces(lambda k: "text").join(array("Q", [1]))  # type: ignore[arg-type,return-value]


def test_pieces_label_the_moves_that_do_not_count_and_number_the_rest() -> None:
    """A key with FREE_BIT set takes the free label and no number: the numbers run on
    over the others (solve's text numbers player moves, a free card home marked +)."""
    from eightoff._join import FREE_BIT

    free = 1 << FREE_BIT
    p = Pieces(lambda k: b"<%d>" % (k & 0xFF))
    keys = array("Q", [1, free | 2, free | 3, 4, 5])
    numbers = [b"1. ", b"2. ", b"3. "]
    assert p.join(keys, b"", numbers, free_label=b" + ") == b"1. <1> + <2> + <3>2. <4>3. <5>"
    with pytest.raises(ValueError, match="fewer numbers than keys"):
        p.join(keys, b"", numbers)  # without the label every key takes a number
    with pytest.raises(ValueError, match="fewer numbers than counted keys"):
        p.join(keys, b"", numbers[:2], free_label=b" + ")
