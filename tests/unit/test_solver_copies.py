"""The copies of the search compiled for one variant's rules against the module's own.

``solver/fixed.h``: the core holds, beside its search that reads the rules at run time,
a copy of the whole search, of the par search and of the replay compiled for each of
five variants' rules (the rules as constants, a few per cent less CPU a deal). A solve
runs the copy whose rules equal its own, field by field. Both are the same source, so
every deal must get the same verdict, the same states and the same moves from either (the
same par, bounds and states from the par search; the same refusals, move keys and move
counts from the replay); and every preset but Double FreeCell
must have its copy, or the rules written in fixed.h have drifted from eightoff.rules
and the copy would never run (nor be tested here).
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import replace

import pytest

from eightoff.deals import deal
from eightoff.rules import PRESETS, preset
from eightoff.solver import DEFAULT_LIMITS, Solved, _core, code_of, core_rules, solve, solve_deals

# (variant, first deal, count): each range holds deals every stage of the search ends
# on (Eight Off 465 is lost: only the complete search says so)
BLOCKS = (
    ("freecell", 1, 400),
    ("eightoff", 400, 200),
    ("eightoff-easy", 1, 150),
    ("bakers-game", 1, 100),
    ("seahaven-towers", 1, 100),
)


@contextmanager
def own_copy_only() -> Iterator[None]:
    """Every solve inside runs the module's own copy of the search."""
    was = _core.use_fixed_copies(False)
    try:
        yield
    finally:
        _core.use_fixed_copies(was)


def test_every_single_pack_preset_is_solved_by_its_own_copy() -> None:
    copies = {name: _core.fixed_copy(core_rules(rules)) for name, rules in PRESETS.items()}
    assert copies["freecell"] == copies["supermove-freecell"] == "freecell"
    assert copies["double-freecell"] == ""
    for name in ("eightoff", "eightoff-easy", "bakers-game", "seahaven-towers"):
        assert copies[name] == name.replace("-", "_")


def test_house_rules_are_solved_by_the_modules_own_copy() -> None:
    fewer = replace(preset("freecell"), cells=3)
    retrieval = replace(preset("eightoff"), foundation_retrieval=True)
    assert _core.fixed_copy(core_rules(fewer)) == ""
    assert _core.fixed_copy(core_rules(retrieval)) == ""


def test_turning_the_copies_off_leaves_every_solve_to_the_modules_own() -> None:
    with own_copy_only():
        assert _core.fixed_copy(core_rules(preset("freecell"))) == ""


@pytest.mark.parametrize(("variant", "first", "count"), BLOCKS)
def test_a_copy_searches_exactly_as_the_modules_own(variant: str, first: int, count: int) -> None:
    rules = preset(variant)
    fixed = solve_deals(rules, first, count, DEFAULT_LIMITS, keep_moves=True)
    with own_copy_only():
        own = solve_deals(rules, first, count, DEFAULT_LIMITS, keep_moves=True)
    assert list(fixed.status) == list(own.status)
    assert list(fixed.states) == list(own.states)
    assert list(fixed.lengths) == list(own.lengths)
    assert list(fixed.keys or ()) == list(own.keys or ())
    assert list(fixed.player_moves) == list(own.player_moves)
    assert list(fixed.single_card_moves) == list(own.single_card_moves)
    assert set(own.status) <= {1, 2}, "every deal decided, so the blocks compare verdicts"


@pytest.mark.parametrize("variant", ["freecell", "eightoff"])
def test_a_copys_short_solutions_are_the_modules_own(variant: str) -> None:
    short = replace(DEFAULT_LIMITS, short=True)
    for number in range(1, 16):
        position = deal(variant, number)
        fixed = solve(position, short)
        with own_copy_only():
            own = solve(position, short)
        assert (fixed.verdict, fixed.states, fixed.moves) == (own.verdict, own.states, own.moves)


@pytest.mark.parametrize("count", [_core.COUNT_PLAYER, _core.COUNT_SINGLE])
def test_a_copys_par_search_is_the_modules_own(count: int) -> None:
    """The par search (A*, optimal.h) runs in the copies too: the same proofs, states and
    moves on Eight Off deals (each proven in well under a second)."""
    for number in range(1, 7):
        p = deal("eightoff", number)
        where = (core_rules(p.rules), p.columns, p.cells, p.foundations, count)
        fixed = _core.optimal(*where, 0, 2_000_000)
        with own_copy_only():
            own = _core.optimal(*where, 0, 2_000_000)
        assert fixed == own
        assert fixed[0] == 1, "proven, so the two compare whole searches"


@pytest.mark.parametrize("variant", [variant for variant, _, _ in BLOCKS])
def test_a_copys_replay_refuses_and_describes_as_the_modules_own(variant: str) -> None:
    """The replay that checks every solution runs in the copies too: a solution, the same
    cut short and the same with an illegal move, accepted or refused at the same move,
    with the same keys and move counts, whichever copy replays it."""
    position = deal(variant, 3)
    result = solve(position)
    assert isinstance(result, Solved)
    codes = [code_of(m) for m in result.moves]
    where = (core_rules(position.rules), position.columns, position.cells, position.foundations)
    onto_itself = 2 << 16 | 2 << 8 | 1  # column 3 onto column 3: never legal
    tries = (codes, codes[:-1], [*codes[:5], onto_itself, *codes[5:]])
    fixed = [(_core.replay(*where, c), _core.move_keys(*where, c)) for c in tries]
    with own_copy_only():
        own = [(_core.replay(*where, c), _core.move_keys(*where, c)) for c in tries]
    assert fixed == own
    assert [r for r, _ in fixed] == [-1, len(codes) - 1, 5]
