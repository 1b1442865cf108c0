"""The compiled core against the Python engine, move for move.

The core is the only permitted second copy of the rules, so it is held to
``eightoff.position`` on thousands of positions of every variant and option,
reached by random legal play from random deals: the same legal moves, the same
position after each of them, the same safe rule, and a canonical key that
identifies exactly the positions the engine's ``key()`` identifies.
"""

from __future__ import annotations

import random
import zlib
from collections.abc import Iterator, Sequence
from dataclasses import asdict

import pytest

from eightoff.deals import deal
from eightoff.position import Kind, Move, Position
from eightoff.rules import PRESETS, Rules, preset
from eightoff.solver import _core, code_of, core_rules, move_of, plans

POSITIONS_PER_CONFIG = 300
STEPS_PER_WALK = 80
WALKS_PER_VARIANT = 40


def configs() -> list[Rules]:
    out = []
    for rules in PRESETS.values():
        out.append(rules)
        out.append(rules.with_options(foundation_retrieval=True))
        out.append(rules.with_options(strict_single=True))
    return out + fewer_cells()


def fewer_cells() -> list[Rules]:
    """Every variant with the fewest cells it can have, with one cell more than
    that, and with 8 (the most); FreeCell also with 1, 2 and 3 (Pringle's table)."""
    out: list[Rules] = []
    for rules in PRESETS.values():
        counts = {rules.least_cells, rules.least_cells + 1, 8} - {rules.cells}
        if rules.id == "freecell":
            counts |= {1, 2, 3}
        out += [rules.with_options(cells=n) for n in sorted(counts)]
    return out


CoreArgs = tuple[dict[str, int], Sequence[Sequence[int]], Sequence[int | None], Sequence[int]]
"""The rules, columns, cells and foundations, as every function of the core takes them."""


def core_args(pos: Position) -> CoreArgs:
    return (core_rules(pos.rules), pos.columns, pos.cells, pos.foundations)


def random_positions(rules: Rules, seed: int) -> Iterator[Position]:
    """POSITIONS_PER_CONFIG positions met in random legal play from random deals (home
    moves favoured, so that foundations fill and retrieval has something to take back;
    a new deal when play is stuck or has gone on for STEPS_PER_WALK moves)."""
    rng = random.Random(seed)
    produced = 0
    while produced < POSITIONS_PER_CONFIG:
        pos = deal(rules, rng.randint(1, 32000))
        for _ in range(STEPS_PER_WALK):
            yield pos
            produced += 1
            moves = pos.legal_moves()
            if not moves or produced == POSITIONS_PER_CONFIG:
                break
            home = [m for m in moves if m.target.kind is Kind.FOUNDATION]
            move = rng.choice(home) if home and rng.random() < 0.5 else rng.choice(moves)
            pos = pos.apply_unchecked(move)


def config_id(rules: Rules) -> str:
    opts = "+retrieval" if rules.foundation_retrieval else ""
    opts += "+strict" if rules.strict_single else ""
    opts += f"+{rules.cells}cells" if rules.cells_changed else ""
    return rules.id + opts


@pytest.mark.parametrize("rules", configs(), ids=config_id)
def test_core_moves_and_results_match_the_engine(rules: Rules) -> None:
    """Same legal moves (as a multiset) and the same position after each one."""
    positions = 0
    for pos in random_positions(rules, seed=zlib.crc32(config_id(rules).encode())):
        args = core_args(pos)
        engine = sorted(code_of(m) for m in pos.legal_moves())
        core = sorted(src << 16 | dst << 8 | n for src, dst, n in _core.legal_moves(*args))
        assert core == engine, f"legal moves differ in\n{pos}"
        for code in core:
            move = move_of(code)
            after = pos.apply_unchecked(move)
            src, dst, n = code >> 16, (code >> 8) & 255, code & 255
            columns, cells, foundations = _core.apply_move(*args, src, dst, n)
            assert columns == after.columns, f"{move} from\n{pos}"
            assert cells == tuple(0 if c is None else c for c in after.cells), f"{move}"
            assert foundations == after.foundations, f"{move}"
        positions += 1
    assert positions == POSITIONS_PER_CONFIG


@pytest.mark.parametrize("rules", configs(), ids=config_id)
def test_core_safe_rule_matches_the_engine(rules: Rules) -> None:
    """The core's copy of is_safe_home agrees with the engine; the rule the search
    uses for its automatic home moves never allows a card the engine calls unsafe, and
    its auto-moves read the same rule (one pack: from a mask of the safe cards)."""
    for pos in random_positions(rules, seed=zlib.crc32(config_id(rules).encode()) + 7):
        for card, engine_rule, search_rule, auto_rule in _core.safe_cards(*core_args(pos)):
            assert engine_rule == pos.is_safe_home(card), f"{card} in\n{pos}"
            assert not search_rule or engine_rule
            assert auto_rule == search_rule, f"{card} in\n{pos}"


@pytest.mark.parametrize("rules", configs(), ids=config_id)
def test_search_moves_reach_every_legal_result(rules: Rules) -> None:
    """The search tries fewer moves than are legal, but every legal move leads to a
    position the search also reaches (up to the order of cells and columns), or to
    the same position: so leaving the others out cannot hide a win."""
    for pos in random_positions(rules, seed=zlib.crc32(config_id(rules).encode()) + 11):
        args = core_args(pos)
        search = _core.search_moves(*args)
        legal = set(_core.legal_moves(*args))
        assert set(search) <= legal
        reached = {_core.canonical_key(args[0], *_core.apply_move(*args, *m)) for m in search}
        reached.add(_core.canonical_key(*args))
        for m in legal:
            assert _core.canonical_key(args[0], *_core.apply_move(*args, *m)) in reached, (
                f"{move_of(m[0] << 16 | m[1] << 8 | m[2])} in\n{pos}"
            )


@pytest.mark.parametrize("rules", [*PRESETS.values(), *fewer_cells()], ids=config_id)
def test_canonical_key_identifies_exactly_what_the_engine_does(rules: Rules) -> None:
    """Equal core keys for positions the engine's key() calls equal, different keys
    otherwise (two packs: the two foundations of a suit are interchangeable too), with
    any number of cells."""
    rng = random.Random(3)
    seen: dict[bytes, tuple[object, ...]] = {}
    seen_engine: dict[tuple[object, ...], bytes] = {}
    for pos in random_positions(rules, seed=5):
        key = _core.canonical_key(*core_args(pos))
        engine_key = pos.key()
        if rules.decks == 2:
            engine_key = (
                engine_key[0],
                engine_key[1],
                tuple(tuple(sorted(pos.foundations[f::4])) for f in range(4)),
            )
        assert seen.setdefault(key, engine_key) == engine_key
        assert seen_engine.setdefault(engine_key, key) == key
        # the same game with its columns and cells shuffled has the same key
        columns, cells = list(pos.columns), list(pos.cells)
        rng.shuffle(columns)
        rng.shuffle(cells)
        shuffled = Position(rules, tuple(columns), tuple(cells), pos.foundations)
        assert _core.canonical_key(*core_args(shuffled)) == key
    assert len(seen) > 50


def one_pack() -> list[Rules]:
    return [r for r in [*PRESETS.values(), *fewer_cells()] if r.decks == 1]


@pytest.mark.parametrize("rules", one_pack(), ids=config_id)
def test_incremental_scores_and_hashes_match_the_full_ones(rules: Rules) -> None:
    """The search scores a child and hashes it (the dive's seen states) from its
    parent's columns, looking again only at the columns its step touched, and a
    depth-first frame makes its state's column parts (features, hashes, top runs) from
    its parent's the same way: the same numbers as computing them in full, for every
    step of every kind (single moves, digging steps, auto-moves after them) and every
    weight set; and the dive's hash does not depend on the order of columns and cells
    (like the canonical key)."""
    rng = random.Random(17)
    weight_sets = [
        asdict(w)
        for w in (
            plans.SUIT_WEIGHTS,
            plans.ALTERNATE_WEIGHTS,
            plans.ALTERNATE_DIVE_WEIGHTS,
            plans.ALTERNATE_DEPTH_WEIGHTS,
        )
    ]
    children = 0
    for i, pos in enumerate(
        random_positions(rules, seed=zlib.crc32(config_id(rules).encode()) + 13)
    ):
        args = core_args(pos)
        n, mismatches, dive_hash = _core.check_incremental(*args, weight_sets[i % 4])
        assert mismatches == 0, f"{mismatches} of {n} children differ in\n{pos}"
        children += n
        columns, cells = list(pos.columns), list(pos.cells)
        rng.shuffle(columns)
        rng.shuffle(cells)
        shuffled = Position(rules, tuple(columns), tuple(cells), pos.foundations)
        assert _core.check_incremental(*core_args(shuffled), weight_sets[0])[2] == dive_hash
    assert children > (1000 if rules.cells > 2 else 300)  # few cells: few moves a position


@pytest.mark.parametrize(
    "rules", [r for r in one_pack() if r.cells], ids=config_id
)  # with no cell, no dig has a cell to use
def test_the_dives_own_generators_make_what_the_general_ones_do(rules: Rules) -> None:
    """The dive's first pass finds the digs home from each foundation's next card and its
    depth (eo_dig_home_moves), eo_macro_moves has a shorter path for the digs home alone,
    and Eight Off Easy's dive makes the cell cards onto their parents alone
    (eo_cell_to_parent_moves): each gives the steps of the general generator (every
    digging kind; every single move) of its kind, in its order."""
    compared = 0
    for pos in random_positions(rules, seed=zlib.crc32(config_id(rules).encode()) + 29):
        n, mismatches = _core.check_dive_moves(*core_args(pos))
        assert mismatches == 0, f"the dive's steps differ ({n} compared) in\n{pos}"
        compared += n
    assert compared > (50 if rules.cells > 1 else 20)


META_KINDS = tuple(plans.Meta)


@pytest.mark.parametrize(
    "rules",
    [*one_pack(), *(r.with_options(strict_single=True) for r in one_pack() if r.cells < 4)],
    ids=config_id,
)
def test_every_meta_step_is_a_sequence_of_legal_moves(rules: Rules) -> None:
    """Each meta step (steps.h, EO_META_...; what the plan for fewer cells searches) is
    made of single moves the engine allows, one after another, and the kinds that move
    a card home, onto a parent or into an empty column end with that move."""
    made = 0
    for pos in random_positions(rules, seed=zlib.crc32(config_id(rules).encode()) + 31):
        for kind in META_KINDS:
            for codes in _core.meta_steps(*core_args(pos), kind):
                walk = pos
                for code in codes:
                    move = move_of(code)
                    assert walk.is_legal(move), f"{kind.name} {codes}: {move} refused in\n{walk}"
                    walk = walk.apply(move)
                last = move_of(codes[-1])
                if kind in (plans.Meta.HOME, plans.Meta.TOP_HOME, plans.Meta.CELL_HOME):
                    assert last.target.kind is Kind.FOUNDATION
                made += 1
    assert made > 100


def test_move_codes_round_trip() -> None:
    pos = deal("freecell", 1).apply(Move.parse("1a"))
    for m in pos.legal_moves():
        assert move_of(code_of(m)) == m


def _engine_replay(pos: Position, codes: Sequence[int]) -> int:
    """What the compiled replay must answer, by the engine: -1 when every move is legal
    in turn and all cards end home, else the index of the first illegal move (the
    length when all are legal but cards are left)."""
    for i, code in enumerate(codes):
        move = move_of(code)
        if not pos.is_legal(move):
            return i
        pos = pos.apply(move)
    return -1 if pos.is_won() else len(codes)


@pytest.mark.parametrize("rules", configs(), ids=config_id)
def test_compiled_replay_matches_the_engine(rules: Rules) -> None:
    """The replay that checks every solution in the core (replay.h) refuses exactly the
    moves the engine refuses: random legal walks, each with one move changed to a
    plausible other one (another place, another count) at a random step."""
    rng = random.Random(zlib.crc32(config_id(rules).encode()) + 11)
    refused = 0
    # the places a move of the core comes from or goes to (a card goes home to HOME: a
    # named foundation as a target is the engine's notation, never the core's)
    targets = [*range(rules.columns), *(_core.CELL + i for i in range(rules.cells)), _core.HOME]
    sources = [*targets[:-1], *(_core.FOUNDATION + f for f in range(rules.foundations))]
    for pos in random_positions(rules, seed=zlib.crc32(config_id(rules).encode()) + 5):
        codes: list[int] = []
        walk = pos
        for _ in range(rng.randint(1, 12)):
            moves = walk.legal_moves()
            if not moves:
                break
            move = rng.choice(moves)
            codes.append(code_of(move))
            walk = walk.apply(move)
        if codes and rng.random() < 0.7:
            i = rng.randrange(len(codes))
            src, dst, n = codes[i] >> 16, (codes[i] >> 8) & 255, codes[i] & 255
            what = rng.randrange(3)
            if what == 0:
                dst = rng.choice(targets)
            elif what == 1:
                src = rng.choice(sources)
            else:
                n = max(1, n + rng.choice((-1, 1, 2)))
            codes[i] = src << 16 | dst << 8 | n
        expected = _engine_replay(pos, codes)
        refused += expected >= 0
        assert _core.replay(*core_args(pos), codes) == expected, f"{codes} from\n{pos}"
    assert refused > POSITIONS_PER_CONFIG // 4  # the test refuses moves, not only accepts


@pytest.mark.parametrize("rules", configs(), ids=config_id)
def test_the_replays_rule_allows_exactly_the_listed_moves(rules: Rules) -> None:
    """The rule the compiled replay checks each move by allows every move the list of
    legal moves holds (the list the engine's is held to above) and no other: every move
    from every place to every place, counts 0 to 14, places that are none among them."""
    for pos in random_positions(rules, seed=zlib.crc32(config_id(rules).encode()) + 13):
        compared, mismatches = _core.check_legal(*core_args(pos))
        assert compared > 0
        assert mismatches == 0, f"the replay's rule and the legal moves differ in\n{pos}"


@pytest.mark.parametrize("variant", sorted(PRESETS))
def test_compiled_replay_accepts_solutions_and_refuses_them_cut_short(variant: str) -> None:
    """A solution from the solver passes the compiled replay; the same solution without
    its last move is refused at its length (cards are left)."""
    from eightoff.solver import solve

    rules = PRESETS[variant]
    for number in (1, 2, 3):
        pos = deal(rules, number)
        codes = [code_of(m) for m in solve(pos).moves]
        if not codes:
            continue
        assert _core.replay(*core_args(pos), codes) == -1
        assert _core.replay(*core_args(pos), codes[:-1]) == len(codes) - 1


def _triple(pos: Position) -> tuple[Sequence[Sequence[int]], Sequence[int | None], Sequence[int]]:
    return pos.columns, pos.cells, pos.foundations


@pytest.mark.parametrize("rules", [r for r in configs() if r.decks == 1], ids=config_id)
def test_a_compact_record_is_exactly_its_canonical_state(rules: Rules) -> None:
    """The searches that keep states exactly keep a one-pack state in a 16-byte record
    relative to the search's root (compact.h): on positions met in random play, from
    their deal as the root and from a position met on the way as the root (a root that
    is no deal, as the live verdicts search from), the record decodes to the very
    state its canonical key decodes to, and that state, laid out otherwise, has the
    same record: the record identifies what the canonical key identifies, no more, no
    less. In suit the record made from the columns' fields (eo_cencode_parts, as the
    complete depth-first search makes a child's from its parent's fields and those of
    the columns its step touched) is the same, for the position and each of its
    children. Nearly every position fits in a record (the others are kept by full key)."""
    rng = random.Random(zlib.crc32(config_id(rules).encode()) + 41)
    checked = fits = 0
    while checked < POSITIONS_PER_CONFIG:
        pos = deal(rules, rng.randint(1, 32000))
        roots = [pos]
        for step in range(STEPS_PER_WALK):
            for root in roots:
                got = _core.check_compact(core_rules(rules), _triple(root), *_triple(pos))
                assert got >= 0, f"record of\n{pos}\nfrom the root\n{root}"
                fits += got
                checked += 1
            if step == STEPS_PER_WALK // 4:
                roots.append(pos)
            moves = pos.legal_moves()
            if not moves:
                break
            home = [m for m in moves if m.target.kind is Kind.FOUNDATION]
            move = rng.choice(home) if home and rng.random() < 0.5 else rng.choice(moves)
            pos = pos.apply_unchecked(move)
    assert fits > 0.9 * checked


@pytest.mark.parametrize("variant", ["freecell", "eightoff", "bakers-game"])
def test_the_optimal_searchs_table_of_records_numbers_states_as_keys_do(variant: str) -> None:
    """Where its memory binds, the optimal search keeps each state by its 16-byte
    record, and a state whose record does not fit by its canonical key beside them
    (optimal.h's op_tab). Over random walks from deals, the root half way along: every
    position met, and again the first half of them, all in a random order, gets the
    same id, new or known, as in a table of canonical keys, is found again by its key,
    and gives back its key, which decodes to the very position. Both kinds of key are
    met: the positions before the root are mostly not of a shape reached from it, and
    are kept by canonical key."""
    rng = random.Random(zlib.crc32(variant.encode()) + 43)
    rules = core_rules(preset(variant))
    entered = by_key = 0
    for _ in range(WALKS_PER_VARIANT):
        pos = deal(variant, rng.randint(1, 32000))
        met = [_triple(pos)]
        for _step in range(STEPS_PER_WALK):
            moves = pos.legal_moves()
            if not moves:
                break
            pos = pos.apply_unchecked(rng.choice(moves))
            met.append(_triple(pos))
        root = met[len(met) // 2]
        entries = met + met[: len(met) // 2]
        rng.shuffle(entries)
        got = _core.check_op_tab(rules, root, entries)
        assert got >= 0, f"the table of records differs, root\n{root}"
        entered += len(met)
        by_key += got
    assert 0 < by_key < entered


def test_two_packs_keep_full_keys() -> None:
    """Double FreeCell's states are kept by their full canonical key (no record)."""
    pos = deal("double-freecell", 1)
    assert _core.check_compact(core_rules(pos.rules), _triple(pos), *_triple(pos)) == -2
