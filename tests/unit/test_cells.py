"""The number of free cells as a house rule: every variant from the cards it deals to
cells up to 8, dealt the same way, named in words, carried by a JSON board, and solved
with verdicts that agree with Pringle's published table on the deals they touch."""

from __future__ import annotations

import json

import pytest

from eightoff.boards import BoardError, format_fcs, from_json, parse_fcs, to_json
from eightoff.deals import deal
from eightoff.rules import MAX_CELLS, PRESETS, preset
from eightoff.solver import Lost, Solved, solve


@pytest.mark.parametrize("variant", sorted(PRESETS))
def test_every_variant_takes_any_number_of_cells_from_those_it_deals_to_8(variant: str) -> None:
    rules = preset(variant)
    least = len(rules.dealt_cells)
    assert rules.least_cells == least
    for n in range(least, MAX_CELLS + 1):
        changed = rules.with_options(cells=n)
        pos = deal(changed, 7)
        assert len(pos.cells) == n == changed.cells
        # the cards dealt to cells still go there, the columns are dealt as before
        assert sorted(c for c in pos.cells if c is not None) == sorted(
            c for c in deal(rules, 7).cells if c is not None
        )
        assert pos.columns == deal(rules, 7).columns
        assert changed.with_options(cells=rules.cells) == rules
    for bad in (least - 1, MAX_CELLS + 1):
        if bad < 0:
            continue
        with pytest.raises(ValueError, match=f"{least} to 8 free cells, not {bad}"):
            rules.with_options(cells=bad)


def test_a_variant_with_another_number_of_cells_is_named_so() -> None:
    fc = preset("freecell")
    assert fc.with_options(cells=2).name == "FreeCell, 2 cells"
    assert fc.with_options(cells=1).name == "FreeCell, 1 cell"
    assert fc.with_options(cells=2).with_options(cells=4).name == "FreeCell"
    assert preset("eightoff").with_options(cells=5).name == "Eight Off, 5 cells"
    assert fc.with_options(cells=2).cells_changed and not fc.cells_changed


def test_seahaven_towers_with_two_cells_keeps_its_two_dealt_cards() -> None:
    rules = preset("seahaven-towers").with_options(cells=2)
    assert None not in deal(rules, 1).cells
    with pytest.raises(ValueError, match="2 cards are dealt to cells"):
        preset("seahaven-towers").with_options(cells=1)


def test_the_number_of_cells_is_an_option_the_store_and_api_read() -> None:
    rules = preset("freecell").with_options(cells=3, strict_single=True)
    assert rules.options() == {"foundation_retrieval": False, "strict_single": True, "cells": 3}
    assert preset("freecell").with_options(**rules.parse_options(rules.options())) == rules
    with pytest.raises(ValueError, match="cells must be a whole number"):
        rules.parse_options({"cells": "two"})
    with pytest.raises(ValueError, match="cells must be a whole number"):
        rules.parse_options({"cells": True})


def test_a_json_board_carries_its_number_of_cells() -> None:
    rules = preset("freecell").with_options(cells=2)
    pos = deal(rules, 1)
    data = to_json(pos)
    assert data["free_cells"] == 2 and len(data["cells"]) == 2
    assert "free_cells" not in to_json(deal("freecell", 1))
    assert from_json(json.dumps(data)) == pos
    assert from_json(json.dumps(data)).rules.name == "FreeCell, 2 cells"
    with pytest.raises(BoardError, match=r"free_cells: .*0 to 8 free cells, not 9"):
        from_json({**data, "free_cells": 9})
    with pytest.raises(BoardError, match="free_cells: cells must be a whole number"):
        from_json({**data, "free_cells": "2"})


def test_board_text_lists_every_cell_and_reads_back_with_the_rules_given() -> None:
    rules = preset("freecell").with_options(cells=3)
    pos = deal(rules, 1)
    text = format_fcs(pos)
    assert "Freecells: - - -\n" in text
    assert parse_fcs(text, rules) == pos
    with pytest.raises(BoardError, match="3 cells given but FreeCell, 2 cells has 2"):
        parse_fcs(text, preset("freecell").with_options(cells=2))


# Pringle's minimal cells of Microsoft deals 1-5 (msfc32k-min-fc): 3, 1, 2, 2, 1
@pytest.mark.parametrize(("number", "least"), [(1, 3), (2, 1), (3, 2), (4, 2), (5, 1)])
def test_the_solver_finds_the_least_number_of_cells_pringle_found(number: int, least: int) -> None:
    for n in range(5):
        rules = preset("freecell").with_options(cells=n)
        verdict = solve(deal(rules, number))
        assert isinstance(verdict, Solved if n >= least else Lost), (number, n, verdict)
        if isinstance(verdict, Solved):
            pos = deal(rules, number)
            for move in verdict.moves:
                pos = pos.apply(move)
            assert pos.is_won()


def test_a_deal_with_another_number_of_cells_is_not_rated() -> None:
    from eightoff.rating import rate

    fewer = rate(2, preset("freecell").with_options(cells=2))
    assert not fewer.calibrated and fewer.to_json()["calibrated"] is False
    assert str(fewer.describe()).startswith("not rated: the levels are not calibrated")
    own = rate(2, "freecell")
    assert own.calibrated and not str(own.describe()).startswith("not rated")


def test_deal_with_fewer_cells_prints_not_rated_on_its_rating_line(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """``eightoff deal 5 --variant freecell --cells 2`` does not show a level the
    calibration never saw: its rating line says "not rated" and why."""
    from eightoff.cli import main

    assert main(["deal", "5", "--variant", "freecell", "--cells", "2"]) == 0
    rating = [line for line in capsys.readouterr().out.splitlines() if line.startswith("Rating:")]
    assert len(rating) == 1 and rating[0].startswith("Rating: not rated: the levels are not")
