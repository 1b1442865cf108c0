"""Issue 12 point 4 in the browser: a new game at a chosen difficulty shows that rating in
the status line; the daily deal is the same deal in two browsers (one of them German)."""

from __future__ import annotations

import datetime as dt
import re
from typing import Any

from playwright.sync_api import expect

from eightoff.rating import daily_deal
from tests.e2e.conftest import DESKTOP, TablePage


def test_a_new_game_at_a_chosen_difficulty_shows_that_rating(table: TablePage) -> None:
    table.open()
    table.button("New game").click()
    dialog = table.page.locator("#dlg-new")
    expect(dialog).to_be_visible()
    dialog.get_by_label("Difficulty").select_option(label="Hard")
    table.button("Deal").click()
    table.confirm_if_asked()
    table.expect_text("#st-rating", "Rating: Hard", timeout=60_000)
    table.wait_ready()
    game: dict[str, Any] = table.server.get("/api/games/current")
    assert game["rating"]["level"] == "Hard"
    # the dialog offers the same difficulty next time, and "New game" keeps it
    table.button("New game").click()
    expect(dialog.get_by_label("Difficulty")).to_have_value("Hard")
    table.button("Cancel").click()
    assert not table.errors


def daily(table: TablePage, button: str, new_game: str) -> int:
    table.open()
    table.button(new_game).click()
    table.button(button).click()
    table.confirm_if_asked()
    table.page.locator("#st-rating").wait_for(state="visible", timeout=60_000)
    table.wait_ready()
    text = table.page.locator("#st-deal").text_content() or ""
    found = re.search(r"(\d+) · ", text)
    assert found is not None, text
    return int(found.group(1))


MONTHS_EN = "January February March April May June July August September October November December"
MONTHS_DE = "Januar Februar März April Mai Juni Juli August September Oktober November Dezember"


def test_the_daily_deal_is_the_same_in_two_browsers(chromium_browser: Any, server: Any) -> None:
    today = dt.datetime.now(dt.UTC).date()
    pages = []
    try:
        for locale in ("en-US", "de-DE"):
            context = chromium_browser.new_context(viewport=DESKTOP, locale=locale)
            page = context.new_page()
            page.set_default_timeout(15_000)
            pages.append((context, TablePage(page, server)))
        (_, en), (_, de) = pages
        first = daily(en, "Daily deal", "New game")
        # the date written out as each language writes it
        month = today.month - 1
        in_en = f"{today.day} {MONTHS_EN.split()[month]} {today.year}"
        in_de = f"{today.day}. {MONTHS_DE.split()[month]} {today.year}"
        expect(en.page.locator("#st-rating")).to_have_text(
            re.compile(rf"^Daily deal {in_en} · Rating: \w")
        )
        second = daily(de, "Spiel des Tages", "Neues Spiel")
        expect(de.page.locator("#st-rating")).to_have_text(
            re.compile(rf"^Spiel des Tages {in_de} · Schwierigkeit: \w")
        )
        assert first == second == daily_deal("eightoff", today)
        assert not en.errors and not de.errors
    finally:
        for context, _ in pages:
            context.close()
