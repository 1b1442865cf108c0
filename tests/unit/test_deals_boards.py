"""Deal #N is PySolFC's deal #N; board text in and out."""

from __future__ import annotations

import json
import re
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pysol_cards.cards import CardRenderer
from pysol_cards.deal_game import Game as PysolGame
from pysol_cards.random import RandomBase

from eightoff.boards import BoardError, format_fcs, from_json, parse_board, parse_fcs, to_json
from eightoff.cards import Card, deck
from eightoff.deals import DealNumberError, deal
from eightoff.position import HOME, IllegalMoveError, Move, Place, Position
from eightoff.rules import PRESETS, preset

NUMBERED = {
    "eightoff": "eight_off",
    "eightoff-easy": "eight_off",
    "freecell": "freecell",
    "supermove-freecell": "freecell",
    "bakers-game": "bakers_game",
    "seahaven-towers": "seahaven_towers",
}


def pysol_layout(game_id: str, number: int) -> tuple[list[list[str]], list[str | None]]:
    """PySolFC's deal as pysol_cards prints it: its columns and its cells."""
    text = PysolGame(game_id, number, RandomBase.DEALS_PYSOLFC).calc_layout_string(
        CardRenderer(True)
    )
    columns: list[list[str]] = []
    cells: list[str | None] = []
    for line in text.splitlines():
        if line.startswith("Freecells:"):
            cells = [None if t == "-" else t for t in line.split(":")[1].split()]
        elif line.strip():
            columns.append(line.split())
    return columns, cells


@pytest.mark.parametrize("variant", list(NUMBERED))
def test_deals_1_to_100_are_pysolfc_deals(variant: str) -> None:
    for number in [*range(1, 101), 32000, 32001, 123456789]:
        position = deal(variant, number)
        columns, cells = pysol_layout(NUMBERED[variant], number)
        assert [[str(c) for c in col] for col in position.columns] == columns, number
        ours = [str(c) if c is not None else None for c in position.cells]
        if variant.startswith("eightoff"):
            # PySolFC shows the four spare cards in cells 1, 3, 5, 7; we show them in 1–4.
            assert ours[:4] == [c for c in cells if c is not None]
            assert ours[4:] == [None] * 4
        else:
            assert ours == cells + [None] * (len(ours) - len(cells))


def test_microsoft_freecell_deal_1_is_the_published_layout() -> None:
    rows = [
        "JD 2D 9H JC 5D 7H 7C 5H",
        "KD KC 9S 5S AD QC KH 3H",
        "2S KS 9D QD JS AS AH 3C",
        "4C 5C TS QH 4H AC 4D 7S",
        "3S TD 4S TH 8H 2C JH 7D",
        "6D 8S 8D QS 6C 3D 8C TC",
        "6S 9C 2H 6H",
    ]
    expected: list[list[str]] = [[] for _ in range(8)]
    for row in rows:
        for i, token in enumerate(row.split()):
            expected[i].append(token)
    assert [[str(c) for c in col] for col in deal("freecell", 1).columns] == expected


def test_eightoff_deal_shape() -> None:
    p = deal("eightoff", 7)
    assert [len(c) for c in p.columns] == [6] * 8
    assert [c is not None for c in p.cells] == [True] * 4 + [False] * 4
    s = deal("seahaven-towers", 7)
    assert [len(c) for c in s.columns] == [5] * 10
    assert [c is not None for c in s.cells] == [False, True, True, False]


def test_double_freecell_deal_is_reproducible_two_packs() -> None:
    a, b = deal("double-freecell", 42), deal("double-freecell", 42)
    assert a == b and a != deal("double-freecell", 43)
    assert sorted(len(c) for c in a.columns) == [10] * 6 + [11] * 4
    cards = a.all_cards()
    assert len(cards) == 104 and all(cards.count(c) == 2 for c in set(cards))


@pytest.mark.parametrize("bad", [0, -5, 10**20])
def test_deal_numbers_out_of_range_are_refused(bad: int) -> None:
    with pytest.raises(DealNumberError, match="out of range"):
        deal("eightoff", bad)


@pytest.mark.parametrize("variant", list(PRESETS))
def test_board_text_round_trips(variant: str) -> None:
    p = deal(variant, 5)
    assert parse_fcs(format_fcs(p), variant) == p
    assert from_json(json.dumps(to_json(p))) == p
    assert parse_board(json.dumps(to_json(p))) == p
    # as files written by other programs may start: a byte order mark first
    assert parse_board("\ufeff" + json.dumps(to_json(p))) == p
    assert parse_board("\ufeff" + format_fcs(p), variant) == p


def test_a_json_board_read_as_another_variant_is_refused() -> None:
    """``solve --board freecell.json --variant bakers-game`` once solved the FreeCell
    layout by Baker's Game's rules: the board's own variant and the one asked for must
    agree."""
    board = json.dumps(to_json(deal("freecell", 1)))
    with pytest.raises(BoardError, match="the board names the variant 'freecell', not Baker"):
        parse_board(board, "bakers-game")
    assert parse_board(board, "freecell") == deal("freecell", 1)
    with pytest.raises(BoardError, match="a JSON board is an object"):
        parse_board("[]")


def test_fcs_text_reads_tens_either_way_and_empty_columns() -> None:
    text = format_fcs(deal("freecell", 1)).replace("TC", "10C")
    assert parse_fcs(text, "freecell") == deal("freecell", 1)
    p = deal("eightoff", 1)
    fcs = format_fcs(p)
    assert fcs.splitlines()[0] == "Foundations: H-0 C-0 D-0 S-0"
    assert fcs.splitlines()[1] == "Freecells: 6S 9C 2H 6H - - - -"


@pytest.mark.parametrize(
    ("edit", "message"),
    [
        (lambda t: t.replace("JD", "XD", 1), r"line 3: 'XD' is not a card"),
        (lambda t: t.replace("KD", "JD", 1), r"line 3: 'JD' — the J♦ is already on the board"),
        (lambda t: t.replace(" 6D\n", "\n", 1), "1 card\\(s\\) missing from the board: 6D"),
        (lambda t: t + ": 5S\n", "a column beyond the 8 that Eight Off has"),
        (lambda t: t.replace("Freecells: ", "Freecells: - "), "9 cells given but Eight Off has 8"),
        (lambda t: t.replace("H-0", "X-0"), "'X-0' is not a foundation"),
        (lambda t: t.replace("Freecells:", "Cellz:"), "'Cellz' is not a board line"),
    ],
)
def test_malformed_fcs_names_line_and_token(edit, message: str) -> None:  # type: ignore[no-untyped-def]
    text = edit(format_fcs(deal("eightoff", 1)))
    with pytest.raises(BoardError, match=message):
        parse_fcs(text, "eightoff")


@pytest.mark.parametrize(
    ("edit", "message"),
    [
        (lambda d: d.update(variant="spider"), "variant: unknown variant 'spider'"),
        (lambda d: d["columns"][2].__setitem__(0, "ZZ"), r"columns\[2\]\[0\]: 'ZZ' is not a card"),
        (lambda d: d["columns"].append([]), "columns: 9 given but Eight Off has 8"),
        (lambda d: d.update(cells=[None] * 9), "cells: 9 given but Eight Off has 8"),
        (lambda d: d["foundations"].update(X=1), "foundations: 'X' is not a suit"),
        (lambda d: d["foundations"].update(S=14), r"foundations.S: 14 is not a top rank"),
        (lambda d: d["cells"].__setitem__(4, "JD"), "more often than the pack holds them: J♦"),
        # JSON's words for JSON's values (it said "True is not a variant id")
        (lambda d: d.update(variant=True), "variant: true is not a variant id"),
        (lambda d: d["columns"][2].__setitem__(0, None), r"columns\[2\]\[0\]: null is not"),
        (lambda d: d.update(strict_single="yes"), "strict_single: strict_single must be true"),
    ],
)
def test_malformed_json_board_names_the_field(edit, message: str) -> None:  # type: ignore[no-untyped-def]
    data = to_json(deal("eightoff", 1))
    edit(data)
    with pytest.raises(BoardError, match=message):
        from_json(data)


def test_a_typed_json_board_with_an_unknown_field_is_refused() -> None:
    """A typo ("freecells", "strict") was ignored: the board was played with the
    variant's own cells and rules, without a word. The stored boards the program wrote
    itself are read as before."""
    data = to_json(deal("freecell", 1)) | {"freecells": 2}
    with pytest.raises(BoardError, match="'freecells' is not a field of a JSON board"):
        parse_board(json.dumps(data))
    with pytest.raises(BoardError, match="'strict' is not a field"):
        from_json(to_json(deal("freecell", 1)) | {"strict": True}, typed=True)
    assert from_json(data) == deal("freecell", 1)
    ruled = deal(preset("freecell").with_options(cells=2, strict_single=True), 1)
    assert parse_board(json.dumps(to_json(ruled))) == ruled  # every field to_json writes


def test_foundations_in_board_text_take_their_cards_off_the_board() -> None:
    p = deal("eightoff", 3)
    # play the four Aces... simpler: a board with all spades home but the King
    text = "Foundations: S-Q\nFreecells: KS\n" + "\n".join(
        ": " + " ".join(str(Card.of(r, s)) for r in range(1, 14)) for s in (0, 2, 3)
    )
    board = parse_fcs(text, preset("eightoff"))
    assert board.foundations[1] == 12 and str(board.cells[0]) == "KS"
    assert p != board


# ----- two packs, round trips ---------------------------------------------------------
def _with_named_homes(position: Position) -> list[Move]:
    """The legal moves, plus each home move written with a named foundation (h1…h8)."""
    moves = position.legal_moves()
    named = [
        Move(m.source, Place.foundation(f))
        for m in moves
        if m.target == HOME
        for f in range(position.rules.foundations)
    ]
    return moves + [m for m in named if position.is_legal(m)]


@settings(max_examples=200, deadline=None)
@given(
    variant=st.sampled_from(list(PRESETS)),
    retrieval=st.booleans(),
    number=st.integers(1, 10**9),
    picks=st.lists(st.integers(0, 10**6), max_size=60),
)
def test_board_text_and_json_round_trip_every_position_reached_by_play(
    variant: str, retrieval: bool, number: int, picks: list[int]
) -> None:
    rules = PRESETS[variant].with_options(foundation_retrieval=retrieval)
    position = deal(rules, number)
    for pick in [0, *picks]:
        assert parse_fcs(format_fcs(position), rules) == position
        assert from_json(json.loads(json.dumps(to_json(position))), rules) == position
        moves = _with_named_homes(position)
        if not moves:
            break
        position = position.apply(moves[pick % len(moves)])


def _double_freecell_with_hearts_home(tops: tuple[int, int], on_column_1: str) -> Position:
    """A Double FreeCell position: hearts foundations at ``tops``, ``on_column_1`` the
    exposed card of column 1, every other card dealt round the columns."""
    rules = preset("double-freecell")
    home = Counter(Card.of(r, 2) for top in tops for r in range(1, top + 1))
    rest = list((Counter(deck(2)) - home).elements())
    top_card = Card.parse(on_column_1)
    rest.remove(top_card)
    columns: list[list[Card]] = [[] for _ in range(rules.columns)]
    for i, card in enumerate(rest):
        columns[i % rules.columns].append(card)
    columns[0].append(top_card)
    foundations = [0] * rules.foundations
    foundations[2], foundations[6] = tops
    return Position(rules, tuple(map(tuple, columns)), (None,) * rules.cells, tuple(foundations))


@pytest.mark.parametrize(
    ("tops", "card", "legal", "refused"),
    [
        ((4, 4), "5H", ["1h", "1h3", "1h7"], {"1h1": "takes ♣", "1h4": "takes ♦"}),
        ((0, 0), "AH", ["1h", "1h3", "1h7"], {}),
        ((4, 2), "5H", ["1h", "1h3"], {"1h7": "5♥ goes on Foundation 3"}),
        ((0, 5), "6H", ["1h", "1h7"], {"1h3": "6♥ goes on Foundation 7"}),
        ((2, 2), "5H", [], {"1h7": "only after the 4♥", "1h": "only after the 4♥"}),
    ],
)
def test_a_card_goes_to_any_foundation_of_its_suit_that_takes_it(
    tops: tuple[int, int], card: str, legal: list[str], refused: dict[str, str]
) -> None:
    position = _double_freecell_with_hearts_home(tops, card)
    rank = Card.parse(card).rank
    for text in legal:
        after = position.apply(Move.parse(text))
        assert sum(after.foundations) == sum(position.foundations) + 1
        named = Move.parse(text).target.index
        if named is not None:
            assert after.foundations[named] == rank  # on the foundation named
        else:
            assert rank in after.foundations[2::4]  # on one of the two hearts foundations
    for text, why in refused.items():
        with pytest.raises(IllegalMoveError, match=why):
            position.apply(Move.parse(text))


def test_the_reader_refuses_a_suit_named_twice_in_a_one_pack_game() -> None:
    text = format_fcs(deal("eightoff", 1)).replace("C-0", "H-0", 1)
    with pytest.raises(BoardError, match="H is named again"):
        parse_fcs(text, "eightoff")
    two = format_fcs(deal("double-freecell", 1))
    with pytest.raises(BoardError, match="two foundations per suit"):
        parse_fcs(two.replace("Foundations: ", "Foundations: H-0 "), "double-freecell")
    with pytest.raises(BoardError, match="names H a second time"):
        from_json({"variant": "eightoff", "foundations": {"H": 0, "h": 0}})


def test_two_pack_foundations_are_written_and_read_in_pack_order() -> None:
    position = _double_freecell_with_hearts_home((0, 5), "6H")
    text = format_fcs(position)
    assert text.startswith("Foundations: H-0 C-0 D-0 S-0 H-5 C-0 D-0 S-0\n")
    assert parse_fcs(text, "double-freecell").foundations == position.foundations


@pytest.mark.parametrize(
    ("text", "says"),
    [
        ('{"columns": ' + "[" * 100_000 + "]" * 100_000 + "}", "nested too deep"),
        ('{"foundations": {"H": ' + "9" * 5000 + "}}", "thousands of digits"),
        (": " + "Z" * 10_000, "'" + "Z" * 40 + "…' is not a card"),
        ("x" * 1_000_001, "at most 1 000 000 are read"),
    ],
)
def test_hostile_boards_are_refused_in_one_short_message(text: str, says: str) -> None:
    with pytest.raises(BoardError, match=re.escape(says)) as refused:
        parse_board(text)
    assert len(str(refused.value)) < 200


def test_a_two_pack_board_names_a_card_missing_twice_as_such() -> None:
    """Double FreeCell has two of each card: "99 card(s) missing" once listed only 52
    names; a card missing twice is named with ×2."""
    with pytest.raises(BoardError) as refused:
        from_json({"variant": "double-freecell", "foundations": {"C": 5}})
    said = str(refused.value)
    assert "99 card(s) missing" in said
    assert "5C 6C×2" in said and "KD×2" in said and "AC×2" not in said
