"""Issue 11 in the browser: the table in German (the browser's language chooses, a switch
overrides and is remembered), house rules from the new-game dialog, and a game finished by
the solver's "Play to end" counted as assisted, not won."""

from __future__ import annotations

import re
from typing import Any

from playwright.sync_api import expect

from eightoff.game import Game
from eightoff.i18n import translate, words
from eightoff.position import IllegalMoveError, Move, Place, Position
from tests.e2e.conftest import DESKTOP, SHOTS, TablePage


def german_table(browser: Any, server: Any) -> tuple[Any, TablePage]:
    context = browser.new_context(viewport=DESKTOP, locale="de-DE")
    page = context.new_page()
    page.set_default_timeout(15_000)
    return context, TablePage(page, server)


def open_deal_by_id(table: TablePage, number: int) -> None:
    """Open a deal with the controls' ids (their names are in the page's language)."""
    table.show_options()
    table.page.locator("#deal-number").fill(str(number))
    table.page.locator("#btn-open").click()
    table.confirm_if_asked()
    table.expect_text("#st-moves", re.compile(r"\b0$"))
    table.wait_ready()


def german_reason(pos: Position, move: Move) -> str:
    try:
        pos.check(move)
    except IllegalMoveError as e:
        assert e.reason is not None
        return translate(e.reason, "de")
    raise AssertionError(f"{move} is legal")


def save(table: TablePage, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    table.page.screenshot(path=str(SHOTS / f"{name}.png"))


def test_a_german_browser_gets_the_table_in_german(chromium_browser: Any, server: Any) -> None:
    context, table = german_table(chromium_browser, server)
    try:
        table.open()
        de = words("de")
        expect(table.page.locator("html")).to_have_attribute("lang", "de")
        expect(table.button("Neues Spiel")).to_be_visible()
        expect(table.page.locator("#btn-undo")).to_contain_text("Rückgängig")
        open_deal_by_id(table, 1)
        expect(table.page.locator("#st-deal")).to_have_text("Spiel 1 · Eight Off")
        expect(table.page.locator("#st-moves")).to_have_text("Züge: 0")
        pos = Game.new("eightoff", 1).position
        bad = Move(Place.column(0), Place.column(1))  # 6♦ onto the 8♠
        card = pos.moving_card(bad)
        table.pick_up(de.card_name(card))  # cards are named in German for screen readers
        table.place(de.place(Place.column(1))).click()
        expect(table.message).to_have_text(german_reason(pos, bad))
        assert german_reason(pos, bad) != "6♦ needs the 7♦"
        save(table, "german-illegal-move")
        table.button("Neues Spiel").click()
        expect(table.page.locator("#dlg-new")).to_contain_text("Hausregeln")
        save(table, "german-new-game-dialog")
        table.button("Abbrechen").click()
        assert table.errors == []
    finally:
        context.close()


def test_the_language_switch_overrides_and_is_remembered(
    chromium_browser: Any, server: Any
) -> None:
    context, table = german_table(chromium_browser, server)
    try:
        table.open()
        expect(table.button("Neues Spiel")).to_be_visible()
        table.show_options()
        table.page.locator("#language").select_option("en")
        table.page.wait_for_selector("body[data-ready=true]", timeout=30_000)
        expect(table.button("New game")).to_be_visible()
        expect(table.page.locator("html")).to_have_attribute("lang", "en")
        assert server.get("/api/settings")["language"] == "en"
        table.reload()
        expect(table.button("New game")).to_be_visible()
        expect(table.page.locator("#st-moves")).to_have_text(re.compile(r"^Moves: \d+$"))
        assert table.errors == []
    finally:
        context.close()
    # the choice is the store's: another browser (English by default) sees it too
    context, other = german_table(chromium_browser, server)
    try:
        other.open()
        expect(other.button("New game")).to_be_visible()
    finally:
        context.close()


def test_the_new_game_dialog_starts_a_game_with_house_rules(table: TablePage) -> None:
    table.open()
    table.button("New game").click()
    dialog = table.page.locator("#dlg-new")
    expect(dialog).to_be_visible()
    dialog.locator("#new-variant").select_option("freecell")
    table.page.get_by_label(re.compile("Strict single-card moves")).check()
    table.page.get_by_label(re.compile("Foundation retrieval")).check()
    save(table, "new-game-dialog")
    table.button("Deal").click()
    table.confirm_if_asked()
    expect(table.page.locator("#st-house")).to_have_text(
        "House rules: foundation retrieval, single-card moves"
    )
    expect(table.page.locator("#st-deal")).to_have_text(re.compile(r"· FreeCell$"))
    expect(table.page.locator("#st-limit")).to_have_text(re.compile(r"^Group limit: 1 card · "))
    table.wait_ready()
    game = server_game(table)
    # the dialog's cells field left at FreeCell's own 4: the game is FreeCell, not "4 cells"
    assert game["options"] == {"foundation_retrieval": True, "strict_single": True, "cells": 4}
    # the dialog offers the same choice next time
    table.button("New game").click()
    expect(dialog.locator("#new-variant")).to_have_value("freecell")
    expect(table.page.get_by_label(re.compile("Strict single-card moves"))).to_be_checked()
    table.button("Cancel").click()
    expect(dialog).to_be_hidden()


def server_game(table: TablePage) -> dict[str, Any]:
    game: dict[str, Any] = table.server.get("/api/games/current")
    return game


def test_a_game_finished_by_play_to_end_counts_as_assisted(table: TablePage) -> None:
    table.open()
    table.open_deal(3)
    table.button("Solution").click()
    play = table.button("Play to end")
    expect(play).to_be_enabled(timeout=60_000)
    play.click()
    expect(table.page.locator("#dlg-won")).to_be_visible(timeout=120_000)
    table.button("Close").click()
    stats = table.server.get("/api/stats")["eightoff"]
    assert (stats["won"], stats["assisted"], stats["played"]) == (0, 1, 1)
    table.show_options()
    table.button("Stats").click()
    dialog = table.page.locator("#dlg-stats")
    row = dialog.get_by_role("row", name=re.compile("^Eight Off "))
    expect(row.locator("td").nth(1)).to_have_text("0")  # won
    expect(row.locator("td").nth(2)).to_have_text("1")  # assisted
    save(table, "stats-assisted")
