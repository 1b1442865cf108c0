"""The compiled deals, the compiled replay and the batch path against their oracles.

* Deals: ``solver/deals.h`` (through ``eightoff._deals`` and ``_core``) against the deal
  rule as ``eightoff.deals.reference_order`` states it through ``pysol_cards``
  (PySolFC's numbering) and the documented Double FreeCell deal, over thousands of
  numbers at every boundary: 1, 32000 / 32001 (Microsoft's generator / the Mersenne
  Twister), 2^31, 2^32 and 2^64 (the seed's words), 10^20 − 1 (the largest deal); one
  deal at a time and in the batch path (several deals at once, batches that straddle a
  boundary).
* The replay's description of a solution (replay.h, eo_replay_described: the card that moves,
  home resolved to its foundation) against the engine.
* Batch: ``solve_deals`` gives the verdicts, states and moves ``solve`` gives deal by
  deal, and each of its solutions replays through the Python engine.
"""

from __future__ import annotations

import random

import pytest

from eightoff import _deals
from eightoff.deals import MAX_DEAL, deal, layout, reference_order
from eightoff.position import Kind
from eightoff.rules import PRESETS, preset
from eightoff.solver import (
    DEFAULT_LIMITS,
    Solved,
    _core,
    code_of,
    core_rules,
    deal_layout,
    moves_of_keys,
    solve,
    solve_deals,
)

BOUNDARIES = (1, 32000, 32001, 2**31, 2**32, 2**64, MAX_DEAL)
AROUND = 300
"""Numbers tried on each side of each boundary (within 1 … 10^20 − 1)."""


def numbers_around(boundary: int, width: int = AROUND) -> range:
    return range(max(1, boundary - width), min(MAX_DEAL, boundary + width) + 1)


def boundary_numbers() -> list[int]:
    out = {n for b in BOUNDARIES for n in numbers_around(b)}
    rng = random.Random(20)
    out.update(rng.randint(1, MAX_DEAL) for _ in range(300))
    out.update(rng.randint(32001, 2**32) for _ in range(300))
    return sorted(out)


def reference(decks: int, number: int) -> bytes:
    rules = preset("freecell" if decks == 1 else "double-freecell")
    return bytes(int(c) for c in reference_order(rules, number))


@pytest.mark.parametrize("decks", [1, 2])
def test_compiled_deal_is_pysol_cards_deal_at_every_boundary(decks: int) -> None:
    numbers = boundary_numbers()
    assert len(numbers) > 3000
    wrong = [n for n in numbers if _deals.order(decks, n) != reference(decks, n)]
    assert wrong == []


@pytest.mark.parametrize("decks", [1, 2])
@pytest.mark.parametrize("boundary", BOUNDARIES)
def test_batch_deals_straddling_a_boundary_are_each_the_reference_deal(
    decks: int, boundary: int
) -> None:
    size = 52 * decks
    for first in (max(1, boundary - 37), max(1, boundary - 3)):
        count = min(50, MAX_DEAL - first + 1)
        blob = _deals.orders(decks, first, count)
        got = [blob[i * size : (i + 1) * size] for i in range(count)]
        assert got == [reference(decks, first + i) for i in range(count)]


def test_every_variants_deal_is_laid_out_as_the_reference_deal() -> None:
    for rules in PRESETS.values():
        for number in (1, 617, 11982, 32000, 32001, 2**32, 10**12 + 7, MAX_DEAL):
            expected = layout(rules, reference_order(rules, number))
            assert deal(rules, number) == expected, (rules.id, number)
            columns, cells, foundations = _core.dealt(core_rules(rules), deal_layout(rules), number)
            assert columns == tuple(tuple(int(c) for c in col) for col in expected.columns)
            assert cells == tuple(0 if c is None else int(c) for c in expected.cells)
            assert not any(foundations)


def test_bad_deal_numbers_are_refused_by_the_compiled_deal() -> None:
    for bad in (0, -1, MAX_DEAL + 1):
        with pytest.raises(ValueError):
            _deals.order(1, bad)
    with pytest.raises(ValueError):
        _deals.orders(1, MAX_DEAL, 2)
    with pytest.raises(ValueError):
        _deals.order(3, 1)


# ----- the replay's description of a solution -------------------------------------
def test_move_keys_describe_a_solution_the_replay_accepts_and_none_it_refuses() -> None:
    pos = deal("freecell", 5)
    result = solve(pos)
    assert isinstance(result, Solved)
    codes = [code_of(m) for m in result.moves]
    args = (core_rules(pos.rules), pos.columns, pos.cells, pos.foundations)
    bad, keys, player, single = _core.move_keys(*args, codes)
    assert (bad, len(keys)) == (-1, len(codes))
    assert 0 < player <= len(codes) <= single
    assert moves_of_keys(keys) == result.moves
    # each key names the card that moves, as the engine sees it, and home resolved
    for key, move in zip(keys, result.moves, strict=True):
        assert (key >> 24) & 255 == int(pos.moving_card(move))
        target = pos.resolve_target(move)
        assert target.index is not None
        assert (key >> 8) & 255 == (
            _core.FOUNDATION + target.index
            if target.kind is Kind.FOUNDATION
            else code_of(move) >> 8 & 255
        )
        pos = pos.apply(move)
    bad, keys, *_ = _core.move_keys(*args, codes[:-1])
    assert (bad, len(keys)) == (len(codes) - 1, 0)  # legal but unfinished
    onto_itself = 2 << 16 | 2 << 8 | 1  # column 3 onto column 3: never legal
    bad, keys, *_ = _core.move_keys(*args, [*codes[:2], onto_itself, *codes[2:]])
    assert (bad, len(keys)) == (2, 0)


# ----- the batch path -----------------------------------------------------------------
@pytest.mark.parametrize(
    ("variant", "first", "count"),
    [
        ("eightoff", 1, 150),
        ("freecell", 31950, 100),  # across 32000 / 32001
        ("bakers-game", 4001, 60),
        ("seahaven-towers", 2**32 - 30, 60),  # across the seed's second word
        ("eightoff-easy", 10**15, 60),
        ("double-freecell", 1, 4),
    ],
)
def test_batch_gives_solves_verdicts_states_and_moves_deal_by_deal(
    variant: str, first: int, count: int
) -> None:
    rules = preset(variant)
    block = solve_deals(rules, first, count, DEFAULT_LIMITS, keep_moves=True)
    assert block.keys is not None
    at = 0
    for i in range(count):
        pos = deal(rules, first + i)
        result = solve(pos)
        assert block.verdicts()[i] == result.verdict, first + i
        assert block.states[i] == result.states, first + i
        length = block.lengths[i]
        moves = moves_of_keys(block.keys[at : at + length])
        at += length
        assert moves == result.moves, first + i
        if length:  # the solution replays through the Python engine, too
            for move in moves:
                pos = pos.apply(move)
            assert pos.is_won()
    assert at == len(block.keys)


def test_a_state_limit_leaves_deals_unknown_in_the_batch() -> None:
    from dataclasses import replace

    block = solve_deals(preset("freecell"), 1, 20, replace(DEFAULT_LIMITS, states=3))
    assert set(block.status) == {3}
    assert list(block.lengths) == [0] * 20


def test_batches_on_two_threads_at_once_each_give_what_one_alone_gives() -> None:
    """A survey's two workers are threads solving blocks at the same time without the
    GIL: each block (Mersenne Twister deals, past 32000, so that both threads seed the
    generator at once; moves kept, so that both grow their buffers) is the block one
    thread alone makes, deal for deal."""
    from concurrent.futures import ThreadPoolExecutor

    rules = preset("freecell")
    starts = (10**9, 2**32 - 40, 10**9 + 200, 32001)
    alone = [solve_deals(rules, a, 80, DEFAULT_LIMITS, keep_moves=True) for a in starts]
    with ThreadPoolExecutor(2) as pool:
        both = list(
            pool.map(lambda a: solve_deals(rules, a, 80, DEFAULT_LIMITS, keep_moves=True), starts)
        )
    for one, two in zip(alone, both, strict=True):
        assert list(two.status) == list(one.status) and set(one.status) == {1}
        assert list(two.states) == list(one.states)
        assert list(two.lengths) == list(one.lengths)
        assert two.keys is not None and one.keys is not None
        assert list(two.keys) == list(one.keys)
