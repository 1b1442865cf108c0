"""The last of issue 11 in the browser: the server's refusals in German, German card
corners (B, D, K), a phone play bar whose every button shows, and an upright phone's
height used by the cards."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import expect

from eightoff.i18n import Message, translate

from .conftest import DESKTOP, PHONE, Server, TablePage, _table, shot
from .test_layout import start

# one card from the win (a certain win: the play bar shows its Auto-complete button too)
ONE_FROM_WIN = {
    "variant": "eightoff",
    "columns": [["KD"]],
    "cells": [],
    "foundations": {"C": 13, "S": 13, "H": 13, "D": 12},
}
PHONE_KW: dict[str, Any] = {"has_touch": True, "is_mobile": True, "device_scale_factor": 2}


def german(message_id: str) -> str:
    return translate(Message(message_id), "de")


@pytest.fixture
def german_table(chromium_browser: Any, server: Server) -> Iterator[TablePage]:
    yield from _table(chromium_browser, server, DESKTOP, locale="de-DE")


def press(table: TablePage, key: str) -> None:
    table.page.locator("#frame").focus()
    table.page.keyboard.press(key)


# ----- refusals ----------------------------------------------------------------------------------
def test_the_servers_refusals_show_in_german(german_table: TablePage) -> None:
    table = german_table
    table.open()
    game = start(table, {"variant": "eightoff", "deal": 1})
    # u at the deal's start: the server refuses, the page shows its German reason
    press(table, "u")
    expect(table.message).to_have_text(german("error.nothing_to_undo"))
    assert german("error.nothing_to_undo").startswith("Nichts rückgängig")

    # another window plays a move: this page's next request is stale
    moved = table.page.evaluate(
        """async (id) => (await fetch(`/api/games/${id}/move`, {method: 'POST',
             headers: {'Content-Type': 'application/json',
               Authorization: 'token ' + localStorage.getItem('eightoff.token')},
             body: JSON.stringify({move: 'b8', revision: 0})})).status""",
        game["id"],
    )
    assert moved == 200
    press(table, "u")
    expect(table.message).to_have_text(german("error.stale"))
    expect(table.moves_label).to_have_text("Züge: 1")  # the game as the other window left it


def test_a_move_after_the_game_is_won_is_refused_in_german(german_table: TablePage) -> None:
    table = german_table
    table.open()
    start(table, {"board": ONE_FROM_WIN})
    press(table, "1")
    press(table, "h")
    dialog = table.page.locator("#dlg-won")
    expect(dialog).to_be_visible()
    dialog.locator("#btn-won-close").click()
    press(table, "u")
    expect(table.message).to_have_text(german("error.game_over"))
    assert table.message.inner_text().startswith("Dieses Spiel ist vorbei")


def test_a_reload_after_a_win_shows_the_won_game_again(table: TablePage) -> None:
    """A reload after a win dealt a new game at once: the win and its message were gone.
    This tab's won game comes back with its message; New game deals on from there."""
    table.open()
    won = start(table, {"board": ONE_FROM_WIN})
    press(table, "1")
    press(table, "h")
    dialog = table.page.locator("#dlg-won")
    expect(dialog).to_be_visible()
    dialog.locator("#btn-won-close").click()
    table.reload()
    expect(dialog).to_be_visible()
    assert table.server.get("/api/games/current?optional=true") is None  # nothing dealt
    dialog.locator("#btn-won-close").click()
    expect(table.verdict).to_have_attribute("data-verdict", "won")
    table.button("New game").click()
    table.page.locator("#btn-new-deal").click()
    table.wait_ready()
    assert table.server.get("/api/games/current")["id"] != won["id"]


# ----- card corners ------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("locale", "corners"),
    [
        ("de-DE", {"Kreuz-Dame": "D", "Herz-Bube": "B", "Kreuz-König": "K", "Karo-Ass": "A"}),
        (
            "en-GB",
            {
                "Queen of Clubs": "Q",
                "Jack of Hearts": "J",
                "King of Clubs": "K",
                "Ace of Diamonds": "A",
            },
        ),
    ],
)
def test_court_card_corners_speak_the_language(
    chromium_browser: Any, server: Server, locale: str, corners: dict[str, str]
) -> None:
    """Deal 3 of Eight Off has the Queen of Clubs, Jack of Hearts, King of Clubs and Ace of
    Diamonds in its columns: their corners read D, B, K, A in German, Q, J, K, A in English."""
    for size, kw in ((DESKTOP, {}), (PHONE, PHONE_KW)):  # the full face and the compact one
        for table in _table(chromium_browser, server, size, locale=locale, **kw):
            table.open()
            start(table, {"variant": "eightoff", "deal": 3})
            for name, letter in corners.items():
                corner = table.card(name).locator("text.idx").first
                expect(corner).to_have_text(letter)


# ----- the phone's play bar -------------------------------------------------------------------
@pytest.mark.parametrize("locale", ["de-DE", "en-GB"])
@pytest.mark.parametrize("size", [{"width": 390, "height": 844}, {"width": 320, "height": 568}])
def test_every_play_button_shows_on_a_phone(
    chromium_browser: Any, server: Server, locale: str, size: dict[str, int]
) -> None:
    for table in _table(chromium_browser, server, size, locale=locale, **PHONE_KW):
        table.open()
        start(table, {"board": ONE_FROM_WIN})
        expect(table.page.locator("#btn-finish")).to_be_visible()  # six buttons
        got = table.page.evaluate(
            """() => [...document.querySelectorAll('.actions button')].map((b) => {
                 const r = b.getBoundingClientRect();
                 const words = [...b.querySelectorAll('span')].find((s) => s.offsetParent);
                 return {id: b.id, left: r.left, right: r.right, top: r.top, bottom: r.bottom,
                         cut: words.scrollWidth > words.clientWidth + 0.5,
                         name: b.innerText.trim()};
               })"""
        )
        width = table.page.evaluate("() => innerWidth")
        assert width == size["width"]  # nothing made the page wider than the screen
        assert table.page.evaluate("() => document.documentElement.scrollWidth") <= width
        assert len(got) == 6
        for b in got:
            assert b["left"] >= 0 and b["right"] <= width, b
            assert b["bottom"] <= size["height"] and not b["cut"], b
            assert b["name"], b  # every button says what it does (its title says more)
        # one row: the bar takes the height of one button
        assert len({round(b["top"]) for b in got}) == 1, got


@pytest.mark.parametrize("locale", ["de-DE", "en-GB"])
def test_the_lessons_list_fits_a_small_phone(
    chromium_browser: Any, server: Server, locale: str
) -> None:
    """The German lesson titles ran past the dialog's edge at 320 px (one line each): they
    wrap, and nothing in the dialog needs a sideways scroll."""
    for table in _table(
        chromium_browser, server, {"width": 320, "height": 568}, locale=locale, **PHONE_KW
    ):
        table.open()
        table.page.locator("#btn-menu").click()
        table.page.locator("#btn-lessons").click()
        dialog = table.page.locator("#dlg-lessons")
        expect(dialog).to_be_visible()
        widths = dialog.evaluate("(d) => [d.scrollWidth, d.clientWidth]")
        assert widths[0] <= widths[1], widths
        for title in table.page.locator(".lesson-start").all():
            box = title.bounding_box()
            assert box is not None and box["x"] + box["width"] <= 320
        shot(table.page, f"phone-320-lessons-{locale}")


# ----- an upright phone's height -------------------------------------------------------------
def test_an_upright_phone_uses_its_height(phone: TablePage) -> None:
    phone.open()
    start(phone, {"variant": "eightoff", "deal": 3})
    got = phone.page.evaluate(
        """() => {
             const cards = [...document.querySelectorAll('#board .card')];
             const r = cards.map((c) => c.getBoundingClientRect());
             return {cw: Math.min(...r.map((b) => b.width)),
                     bottom: Math.max(...r.map((b) => b.bottom)), H: innerHeight};
           }"""
    )
    # before the change the cards were 43 px wide and the deal ended at 67% of the screen
    # (y = 569 of 844), the rest empty felt; now they are 45 px wide (thinner margins) and
    # taller (a bridge card's shape), the columns fanned out to about 80% of the height
    assert got["cw"] >= 45, got
    assert got["bottom"] > 0.75 * got["H"], got


# ----- numbers, dates and words in the table's language -----------------------------------------
MONTHS = {
    "en": "January February March April May June July August September October November December",
    "de": "Januar Februar März April Mai Juni Juli August September Oktober November Dezember",
}
STATS = {
    "eightoff": {
        "name": "Eight Off",
        "variant": "eightoff",
        "played": 3,
        "won": 1,
        "assisted": 0,
        "win_rate": 1 / 3,
        "streak": 0,
        "best_streak": 1,
        "fewest_moves": 44,
        "over_par": {"games": 1, "average": 2.5, "best": 1},
        "hints": 0,
        "levels": {},
    }
}
WRITTEN = {
    "en": {"rate": "33.3%", "over_par": "avg. 2.5 · best 1", "shift": "Shift", "ctrl": "Ctrl"},
    "de": {"rate": "33,3 %", "over_par": "Ø 2,5 · Bestwert 1", "shift": "Umschalt", "ctrl": "Strg"},
}


@pytest.mark.parametrize("lang", ["en", "de"])
def test_numbers_dates_and_key_names_are_written_as_the_language_writes_them(
    chromium_browser: Any, server: Server, lang: str
) -> None:
    """German showed "Gewinnquote 33.3 %", "Spiel des Tages 2026-12-07", "Gruppengröße:
    1280 Karten" at a FreeCell win (the rule's number, with no cards left to move), and
    "Shift" and "Ctrl" in the key help where its tooltips say "Umschalt" and "Strg"."""
    written = WRITTEN[lang]
    for table in _table(
        chromium_browser, server, DESKTOP, locale={"en": "en-GB", "de": "de-DE"}[lang]
    ):
        page = table.page
        table.open()
        game = start(table, {"variant": "eightoff", "daily": True})
        year, month, day = (int(part) for part in game["daily"].split("-"))
        when = MONTHS[lang].split()[month - 1]
        date = f"{day} {when} {year}" if lang == "en" else f"{day}. {when} {year}"
        expect(page.locator("#st-rating")).to_contain_text(date)
        # one card left: the group limit says no more than the cards in play
        start(
            table,
            {"board": {**ONE_FROM_WIN, "variant": "freecell"}},
        )
        expect(page.locator("#st-limit")).to_contain_text(
            {"en": "Group limit: 1 card ·", "de": "Gruppengröße: 1 Karte ·"}[lang]
        )
        page.route("**/api/stats", lambda route: route.fulfill(json=STATS))
        page.locator("#btn-stats").click()
        body = page.locator("#stats-body")
        expect(body).to_contain_text(written["rate"])
        expect(body).to_contain_text(written["over_par"])
        shot(page, f"written-stats-{lang}")
        page.keyboard.press("Escape")
        press(table, "?")
        keys = page.locator("#dlg-keys")
        expect(keys.locator("kbd", has_text=written["shift"])).not_to_have_count(0)
        expect(keys.locator("kbd", has_text=written["ctrl"])).not_to_have_count(0)
        if lang == "de":
            expect(keys.locator("kbd", has_text="Shift")).to_have_count(0)
        shot(page, f"written-keys-{lang}")


def test_the_german_words_are_one_set(german_table: TablePage) -> None:
    """ "Freizelle" on the rules page, "Zelle" at the table; "N Karten können ziehen";
    "Gewonnen – 66 Züge" beside "Par 39 — du hast …" (German sets the en dash)."""
    table = german_table
    page = table.page
    table.open()
    start(table, {"variant": "eightoff", "deal": 1})
    press(table, "t")
    expect(table.message).to_contain_text("Karten können bewegt werden")
    start(table, {"board": ONE_FROM_WIN})
    press(table, "1")
    page.keyboard.press("h")
    dialog = page.locator("#dlg-won")
    expect(dialog).to_be_visible()
    won = re.compile(r"^Eight Off in \d+ (Zug|Zügen) gewonnen\.$")  # "in 66 Zügen"
    expect(dialog.locator("#won-text")).to_have_text(won)
    shot(page, "german-won")
    page.goto(table.server.page_url("/rules?lang=de"))
    text = page.locator("body").inner_text()
    assert "Freizelle" not in text and "freie Zellen" in text
    assert "—" not in text
