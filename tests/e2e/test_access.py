"""Players who do not see the table as drawn or do not use a mouse: the marks on the board
without motion and in forced colours, the keyboard's focus after each control it used,
and what the live region reads out. Screenshots: test-artifacts/screenshots/."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import expect

from .conftest import DESKTOP, Server, _table
from .test_layout import start
from .test_phone_and_german import press

OUTLINED = """(sel) => [...document.querySelectorAll(sel)].map((e) => {
  const s = getComputedStyle(e);
  return s.outlineStyle !== 'none' && parseFloat(s.outlineWidth) >= 2;
})"""


TARGETS = (
    "#board .place.target > .card:last-of-type,"
    " #board .place.target:not(:has(> .card:not(.under))) > .slot-svg"
)


def outlined(page: Any, selector: str) -> list[bool]:
    """Whether each element the selector finds draws an outline of 2 px or more."""
    found: list[bool] = page.evaluate(OUTLINED, selector)
    return found


@pytest.mark.parametrize(
    "mode",
    [{"reduced_motion": "reduce"}, {"forced_colors": "active"}],
    ids=["reduced-motion", "forced-colours"],
)
def test_picked_up_and_hinted_cards_are_marked_without_motion_and_in_forced_colours(
    chromium_browser: Any, server: Server, mode: dict[str, str]
) -> None:
    """The hint's marks were only drawn by its glowing animation (gone under reduced
    motion) and every mark was a box-shadow (gone in forced colours): a player saw no
    hint, and in forced colours not the card picked up."""
    name = "-".join(mode.values())
    for table in _table(chromium_browser, server, DESKTOP, **mode):
        page = table.page
        table.open()
        start(table, {"variant": "eightoff", "deal": 1})
        press(table, "1")
        expect(page.locator("#board .card.selected")).not_to_have_count(0)
        assert all(outlined(page, "#board .card.selected"))
        if "forced_colors" in mode:
            # the places that take them: their top card, or an empty place's outline
            # (without forced colours an empty place's own frame lights up)
            assert page.locator("#board .place.target").count() > 0
            assert all(outlined(page, TARGETS))
        table.screenshot(f"access-picked-up-{name}")
        page.keyboard.press("Escape")
        page.keyboard.press("Shift+T")  # the solver's move: its cards and its target
        expect(page.locator("#board .place.hint-target")).to_have_count(1, timeout=30_000)
        assert outlined(page, "#board .card.hint") and all(outlined(page, "#board .card.hint"))
        assert all(outlined(page, "#board .place.hint-target > .card:last-of-type"))
        table.screenshot(f"access-hint-{name}")
