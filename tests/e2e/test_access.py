"""Players who do not see the table as drawn or do not use a mouse: the marks on the board
without motion and in forced colours, the keyboard's focus after each control it used,
and what the live region reads out. Screenshots: test-artifacts/screenshots/."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import expect

from eightoff.game import Game
from eightoff.position import Kind

from .conftest import DESKTOP, Server, TablePage, _table
from .test_layout import start
from .test_links_and_keys import LANGS, in_view
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


# ----- the keyboard's focus ----------------------------------------------------------------------
def test_the_focus_goes_to_the_table_when_its_control_goes(table: TablePage) -> None:
    """The focus fell to the page's body (Tab started again at the top) after Enter or
    Esc in Deal #, and when the focused button went: Undo and Restart disabled at the
    deal's start, Par? once asked, Close replay, Next lesson."""
    page = table.page
    frame = page.locator("#frame")
    table.open()
    start(table, {"variant": "eightoff", "deal": 1})
    deal = page.locator("#deal-number")
    deal.fill("5")
    deal.press("Enter")
    table.expect_text("#st-deal", re.compile(r"^Deal 5 · "))
    expect(frame).to_be_focused()
    deal.focus()
    page.keyboard.press("Escape")
    expect(frame).to_be_focused()
    # a move, then Undo by its button: at the deal's start Undo is disabled
    move = next(
        m for m in Game.new("eightoff", 5).position.legal_moves() if m.target.kind is Kind.CELL
    )
    press(table, str(move)[0])
    page.keyboard.press(str(move)[1])
    table.expect_moves(1)
    page.locator("#btn-undo").focus()
    page.keyboard.press("Enter")
    table.expect_moves(0)
    expect(page.locator("#btn-undo")).to_be_disabled()
    expect(frame).to_be_focused()
    page.keyboard.press("r")
    table.expect_moves(1)
    page.locator("#btn-restart").focus()
    page.keyboard.press("Enter")
    table.expect_moves(0)
    expect(frame).to_be_focused()
    page.locator("#btn-par").focus()
    page.keyboard.press("Enter")
    expect(page.locator("#btn-par")).to_be_hidden()
    expect(frame).to_be_focused()
    page.keyboard.press("s")
    expect(table.button("Step ▶")).to_be_enabled(timeout=30_000)
    page.locator("#btn-replay-close").focus()
    page.keyboard.press("Enter")
    expect(page.locator("#replay-panel")).to_be_hidden()
    expect(frame).to_be_focused()
    # a lesson played to its end by the replay: Next lesson, then the next lesson
    start(table, {"lesson": 1})
    press(table, "s")
    expect(table.button("Step ▶")).to_be_enabled(timeout=30_000)
    page.keyboard.press("p")
    expect(table.button("Step ▶")).to_be_disabled(timeout=30_000)  # played to its end
    table.wait_ready()
    page.keyboard.press("Escape")  # the replay closes: the lesson's panel again
    next_lesson = page.locator("#btn-next-lesson")
    expect(next_lesson).to_be_visible(timeout=30_000)
    next_lesson.focus()
    page.keyboard.press("Enter")
    expect(page.locator("#lesson-kicker")).to_have_text(re.compile("^Lesson 2 "))
    expect(frame).to_be_focused()
    table.screenshot("access-focus-next-lesson")


def test_the_variant_menu_deals_the_variant_chosen_not_each_one_stepped_over(
    table: TablePage,
) -> None:
    """Each arrow key on the Variant menu dealt: ArrowDown asked at once whether to leave
    the game, Esc put the menu back, and a keyboard never got past the next variant.
    Now the keys step, Enter deals the variant reached, Esc goes back."""
    page = table.page
    table.open()
    start(table, {"variant": "eightoff", "deal": 1})
    first = str(Game.new("eightoff", 1).position.legal_moves()[0])
    press(table, first[0])
    page.keyboard.press(first[1])
    table.expect_moves(1)  # a game in progress: leaving it is asked
    menu = page.locator("#variant")
    names: list[str] = menu.evaluate("(s) => [...s.options].map((o) => o.textContent)")
    ids: list[str] = menu.evaluate("(s) => [...s.options].map((o) => o.value)")
    two_on = ids.index("eightoff") + 2
    menu.focus()
    page.keyboard.press("ArrowDown")
    page.keyboard.press("ArrowDown")
    expect(menu).to_have_value(ids[two_on])
    page.keyboard.press("Escape")
    expect(menu).to_have_value("eightoff")
    menu.focus()
    page.keyboard.press("ArrowDown")
    page.keyboard.press("ArrowDown")
    page.keyboard.press("Enter")
    confirm = page.locator("#dlg-confirm")
    expect(confirm).to_be_visible()
    expect(page.locator("#btn-confirm-ok")).to_contain_text(names[two_on])
    table.screenshot("access-variant-by-keys")
    page.keyboard.press("Enter")  # the dialog's focused button: play that variant
    table.wait_ready()
    expect(page.locator("#st-deal")).to_contain_text(names[two_on])
    assert table.server.get("/api/games/current")["variant"] == ids[two_on]


# ----- the live region ------------------------------------------------------------------------
RECORD = """
window.said = [];
document.addEventListener('DOMContentLoaded', () => {
  const region = document.getElementById('announce');
  new MutationObserver(() => { if (region.textContent) window.said.push(region.textContent); })
    .observe(region, {childList: true, characterData: true, subtree: true});
});
"""

THIRTEEN_HOME = {
    "variant": "eightoff",
    "columns": [["KD", "QD", "JD", "TD", "9D", "8D", "7D", "6D", "5D", "4D", "3D"], ["AD", "2D"]],
    "cells": [],
    "foundations": {"C": 13, "S": 13, "H": 13},
}
"""The 2 of Diamonds to a cell sends the 13 diamonds home and wins."""
SPOKEN = {
    "en": ["2 of Diamonds from Column 2 to Cell 1; then 13 cards went home", "You won in 1 move."],
    "de": [
        "Karo-2 von Spalte 2 nach Zelle 1; dann kamen 13 Karten auf die Ablagestapel",
        "In 1 Zug gewonnen.",
    ],
}


@pytest.fixture(params=sorted(LANGS))
def recorded(
    request: pytest.FixtureRequest, chromium_browser: Any, server: Server
) -> Iterator[tuple[str, TablePage]]:
    """The table in each language, every text its live region is given kept in
    ``window.said``."""
    for table in _table(chromium_browser, server, DESKTOP, locale=LANGS[request.param]):
        table.page.add_init_script(RECORD)
        yield str(request.param), table


def said(table: TablePage) -> list[str]:
    texts: list[str] = table.page.evaluate("() => window.said")
    return texts


def test_a_winning_move_is_said_short_in_card_names_with_the_win(
    recorded: tuple[str, TablePage],
) -> None:
    """A move that sent 13 cards home was read as 14 clauses; the move was then lost to
    the win said in the same frame (the region kept the last text only); and cards were
    read as symbols ("2♦") in moves but by name ("2 of Diamonds") when picked up."""
    lang, table = recorded
    table.open()
    start(table, {"board": THIRTEEN_HOME})
    press(table, "2")
    table.page.keyboard.press("a")
    expect(table.page.locator("#dlg-won")).to_be_visible()
    table.page.wait_for_function("(n) => window.said.length >= n", arg=1)
    move, won = SPOKEN[lang]
    texts = said(table)
    assert any(move in text and won in text for text in texts), texts
    assert not any(re.search("[♣♠♥♦]", text) for text in texts), texts


def test_a_setting_changed_is_said_by_its_name(recorded: tuple[str, TablePage]) -> None:
    """Every setting changed was said as "Auto-move on; any deal."."""
    lang, table = recorded
    page = table.page
    table.open()
    page.locator("#btn-settings").click()
    page.locator("#opt-four-colour").check()
    state = {"en": "on", "de": "an"}[lang]
    name = page.locator("label", has=page.locator("#opt-four-colour")).inner_text().strip()
    expect(page.locator("#announce")).to_have_text(f"{name}: {state}.")
    page.locator("#opt-four-colour").uncheck()
    expect(page.locator("#announce")).to_have_text(f"{name}: {dict(en='off', de='aus')[lang]}.")


# ----- the keyboard help, Esc, the table's role -------------------------------------------------
def test_esc_closes_the_replay_and_the_key_help_opens_at_its_top(
    recorded: tuple[str, TablePage],
) -> None:
    """Esc did not close the solution replay; the ? help opened scrolled to its Close
    button, its heading out of sight; the table had a name but no role."""
    lang, table = recorded
    page = table.page
    table.open()
    start(table, {"variant": "eightoff", "deal": 1})
    frame = page.locator("#frame")
    expect(page.get_by_role("application")).to_have_attribute("id", "frame")
    press(table, "s")
    expect(page.locator("#btn-replay-step")).to_be_enabled(timeout=30_000)
    # said first (the dative in German: "in 39 Schritten"); Esc in the same frame would
    # be read with it, as one text
    found = {"en": r"in \d+ steps\.", "de": r"in \d+ Schritten\."}[lang]
    expect(page.locator("#announce")).to_have_text(re.compile(found))
    page.keyboard.press("Escape")
    expect(page.locator("#replay-panel")).to_be_hidden()
    expect(page.locator("#announce")).to_have_text(
        {"en": "Solution replay closed.", "de": "Lösung geschlossen."}[lang]
    )
    expect(frame).to_be_focused()
    page.keyboard.press("?")
    keys = page.locator("#dlg-keys")
    expect(keys).to_be_visible()
    assert in_view(page.locator("#keys-title"))
    assert keys.evaluate("(d) => d.scrollTop") == 0
    table.screenshot(f"access-keys-{lang}")
