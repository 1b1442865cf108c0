"""Issue 23.11, what was still missing: a deal's link carries every house rule, the number
of free cells too, and a bad one starts nothing; a link opened without the table's token
says how to get in (and opens its deal once the token has come); a skip link to the table;
a foundation's card taken back with the keys alone. Screenshots: test-artifacts/."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import expect

from eightoff.explain import describe_move
from eightoff.game import Game
from eightoff.i18n import Message, translate
from eightoff.position import IllegalMoveError, Move, Place
from eightoff.rules import preset

from .conftest import DESKTOP, PHONE, Server, TablePage, _table, spoken
from .test_a11y import violations
from .test_layout import start
from .test_table_issue23 import wait_codes

LANGS = {"en": "en-GB", "de": "de-DE"}
SIZES = {
    "1280x720": DESKTOP,
    "1366x768": {"width": 1366, "height": 768},
    "1920x1080": {"width": 1920, "height": 1080},
    "390x844": PHONE,
    "844x390": {"width": 844, "height": 390},
}
TOUCH = {"has_touch": True, "is_mobile": True, "device_scale_factor": 2}
# a desktop and a phone, each language at each: four browser runs
SCREENS = [("1280x720", "en"), ("1280x720", "de"), ("390x844", "en"), ("390x844", "de")]
LINK = "/?variant=freecell&deal=617&cells=2&retrieval=1&strict=1"
SECOND_LINE = {
    "en": "FreeCell, 2 cells",
    "de": "FreeCell, 2 Zellen",
}


def context_options(size: str, lang: str) -> dict[str, Any]:
    """A browser context's language and touch (phones) for ``size``, besides its viewport."""
    touch = TOUCH if SIZES[size]["width"] < 900 else {}
    return {"locale": LANGS[lang], **touch}


@pytest.fixture(params=SCREENS, ids=[f"{s}-{lang}" for s, lang in SCREENS])
def screen(request: pytest.FixtureRequest) -> tuple[str, str]:
    size, lang = request.param
    return str(size), str(lang)


# ----- links carry the house rules, cells too ------------------------------------------------
EVERY_SCREEN = [(size, lang) for size in SIZES for lang in LANGS]
"""Every size of issue 23 in both languages: ten browser runs."""


@pytest.mark.parametrize(("size", "lang"), EVERY_SCREEN)
def test_a_link_carries_the_number_of_cells_and_every_house_rule(
    chromium_browser: Any, server: Server, size: str, lang: str
) -> None:
    for table in _table(chromium_browser, server, SIZES[size], **context_options(size, lang)):
        page = table.page
        page.context.grant_permissions(["clipboard-read", "clipboard-write"])
        # the token and the link in one address (what a player pastes)
        table.open(LINK)
        deal = page.locator("#st-deal")
        expect(deal).to_contain_text(SECOND_LINE[lang])
        expect(deal).to_contain_text("617")
        house = page.locator("#st-house")
        for rule in ("rules.house.retrieval", "rules.house.strict"):
            expect(house).to_contain_text(words(page, rule))
        game = table.server.get("/api/games/current")
        assert (game["variant"], game["deal"], game["options"]["cells"]) == ("freecell", 617, 2)
        assert game["house_rules"] == ["foundation_retrieval", "strict_single"]
        assert len(game["cells"]) == 2
        # the status, at its longest here (every house rule), overlaps no button
        assert _overlaps(page) == [], _overlaps(page)
        # the address is the table's again, and Copy link gives every rule back
        assert page.evaluate("() => location.search") == ""
        page.locator("#btn-copy-link").click()
        copied = page.evaluate("() => navigator.clipboard.readText()")
        assert copied == f"{server.url}{LINK}"
        table.screenshot(f"i23-link-cells-{size}-{lang}")
        # the next New game keeps the link's rules (they are the ones chosen last)
        page.locator("#btn-new").click()
        expect(page.locator("#new-cells")).to_have_value("2")
        expect(page.locator("#new-retrieval")).to_be_checked()
        expect(page.locator("#new-strict")).to_be_checked()
        page.keyboard.press("Escape")


def _overlaps(page: Any) -> list[str]:
    """The toolbar buttons the status lines' text is drawn over (by their boxes)."""
    found: list[str] = page.evaluate(
        """() => {
          const hit = (a, b) => a.left < b.right && b.left < a.right
                             && a.top < b.bottom && b.top < a.bottom;
          const texts = [...document.querySelectorAll('#status .st-line > *, #status .par-now > *')]
            .filter((e) => !e.hidden && e.getClientRects().length)
            .map((e) => [e, e.getBoundingClientRect()]);
          const out = [];
          for (const b of document.querySelectorAll('.actions button')) {
            if (b.hidden || !b.getClientRects().length) continue;
            const r = b.getBoundingClientRect();
            for (const [e, t] of texts) if (hit(r, t)) out.push(`${b.id} under ${e.id}`);
          }
          return out;
        }"""
    )
    return found


TABLE_TOP = "() => document.querySelector('#table').getBoundingClientRect().top"
HOUSE_RULES = {
    "variant": "eightoff",
    "deal": 3,
    "cells": 6,
    "foundation_retrieval": True,
    "strict_single": True,
}
"""Eight Off deal 3 with six cells and both house rules (par 14, proven at once): the
status at its longest, every rule named in the line above the verdict."""
PENDING = {"state": "pending", "text": "", "short": "", "count": "player", "solution": False}


def resize(page: Any, viewport: dict[str, int]) -> None:
    """The page at ``viewport``, once it has fitted itself to it: the status line fits
    its verdict again in the frame after a resize (draw.js), so a look straight after
    the resize could see the layout before that (two frames: the refit's, and its
    layout's)."""
    page.set_viewport_size(viewport)
    page.evaluate(TWO_FRAMES)


TWO_FRAMES = "() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)))"


def _tops(page: Any) -> dict[str, float]:
    """Where the table begins (the play bar's bottom) at each of the five sizes."""
    tops: dict[str, float] = {}
    for size, viewport in SIZES.items():
        resize(page, viewport)
        tops[size] = page.evaluate(TABLE_TOP)
    return tops


@pytest.mark.parametrize("lang", sorted(LANGS))
@pytest.mark.parametrize("rules", ["plain", "house"])
def test_par_arriving_keeps_the_play_bar_height_at_every_size(
    chromium_browser: Any, server: Server, lang: str, rules: str
) -> None:
    """Par asked (the Par? link), worked out ("Working out par…", held by the test until
    looked at), then known with its solution's link ("Par 14", "Par solution"): at each
    of the five sizes the play bar keeps its height throughout (the table is not drawn
    again under the player's pointer), on a plain deal and with every house rule named
    in the status; no status text is drawn over a play button, none runs off the screen
    or over the table, and par and its link are in sight."""
    body = {"variant": "eightoff", "deal": 3} if rules == "plain" else HOUSE_RULES
    for table in _table(chromium_browser, server, DESKTOP, locale=LANGS[lang]):
        page = table.page
        table.open()
        start(table, body)
        if rules == "house":
            expect(page.locator("#st-house")).to_contain_text(words(page, "rules.house.strict"))
        before = _tops(page)
        for size, viewport in SIZES.items():
            resize(page, viewport)
            table.screenshot(f"par-status-{rules}-{size}-{lang}-before")
        # the search "works" until the test lets it answer
        page.route(
            "**/api/games/*/par?*",
            lambda route: route.fulfill(json=PENDING),
        )
        page.locator("#btn-par").click()
        status = page.locator("#st-par")
        expect(status).to_have_text(words(page, "par.working"))
        assert _tops(page) == before
        for size, viewport in SIZES.items():
            resize(page, viewport)
            table.screenshot(f"par-status-{rules}-{size}-{lang}-working")
        page.unroute("**/api/games/*/par?*")
        expect(status).to_have_text("Par 14", timeout=60_000)
        link = page.locator("#btn-par-replay")
        expect(link).to_have_text(words(page, "par.show_solution_short"))
        expect(link).to_have_accessible_name(words(page, "par.show_solution"))
        assert _tops(page) == before
        for size, viewport in SIZES.items():
            resize(page, viewport)
            assert _overlaps(page) == [], (size, _overlaps(page))
            assert _off_screen_or_over_the_table(page) == [], size
            assert in_view(status) and in_view(link), size
            table.screenshot(f"par-status-{rules}-{size}-{lang}-known")


def _off_screen_or_over_the_table(page: Any) -> list[str]:
    """The status lines' parts that run off the screen or down over the table."""
    found: list[str] = page.evaluate(
        """() => {
          const table = document.querySelector('#table').getBoundingClientRect();
          const out = [];
          for (const e of document.querySelectorAll('#status .st-line > *, #status .par-now > *')) {
            if (e.hidden || !e.getClientRects().length) continue;
            const r = e.getBoundingClientRect();
            if (r.left < 0 || r.right > innerWidth + 0.5) out.push(`${e.id} off screen`);
            if (r.bottom > table.top + 0.5) out.push(`${e.id} over the table`);
          }
          return out;
        }"""
    )
    return found


def words(page: Any, key: str) -> str:
    """A message of the page's catalogue in the page's language."""
    text: str = page.evaluate(
        """async (key) => { const w = await import('/static/locales/words.js');
             const words = await w.loadWords(document.documentElement.lang);
             return words.t(key, {}); }""",
        key,
    )
    return text


BAD_LINKS = [
    ("/?variant=freecell&deal=617&cells=99", "99"),
    ("/?cells=99", "99"),  # no deal named: the cells are what is wrong
    ("/?variant=freecell&deal=abc", "abc"),
    ("/?variant=nosuch&deal=3", "nosuch"),
    ("/?variant=freecell&deal=617&strict=maybe", "maybe"),
]


@pytest.mark.parametrize(("size", "lang"), [("1280x720", "en"), ("844x390", "de")])
def test_a_bad_link_says_what_is_wrong_in_one_line_and_starts_nothing(
    chromium_browser: Any, server: Server, size: str, lang: str
) -> None:
    for table in _table(chromium_browser, server, SIZES[size], **context_options(size, lang)):
        page = table.page
        settings = server.get("/api/settings")
        for link, quoted in BAD_LINKS:
            table.open(link)
            expect(table.message).to_be_visible()
            text = table.message.inner_text()
            assert quoted in text and "\n" not in text, text
            assert page.locator("#board .card").count() == 0  # no game shown, none started
            expect(page.locator("#btn-hint")).to_be_disabled()
            assert server.get("/api/games/current?optional=true") is None
            assert server.get("/api/settings") == settings
            assert page.evaluate("() => location.search") == ""
        table.screenshot(f"i23-link-bad-cells-{size}-{lang}")
        # a game in progress stays as it is
        table.open("/?variant=freecell&deal=5&cells=3")
        three = {"en": "FreeCell, 3 cells", "de": "FreeCell, 3 Zellen"}[lang]
        expect(page.locator("#st-deal")).to_contain_text(three)
        table.open("/?variant=freecell&deal=6&cells=9")
        expect(table.message).to_contain_text("9")
        expect(page.locator("#st-deal")).to_contain_text(three)
        assert server.get("/api/games/current")["deal"] == 5


def test_a_link_with_no_deal_starts_a_deal_of_its_variant_and_rules(
    chromium_browser: Any, server: Server
) -> None:
    """/?variant=freecell&cells=3&strict=1 once said its (missing) deal number "" was not
    valid: it deals a new game of that variant with those rules, and a game of them in
    progress is kept when the link is opened again."""
    for table in _table(chromium_browser, server, DESKTOP):
        table.open("/?variant=freecell&cells=3&strict=1")
        expect(table.page.locator("#st-deal")).to_contain_text("FreeCell, 3 cells")
        table.wait_ready()
        game = server.get("/api/games/current")
        assert (game["variant"], game["options"]["cells"], game["house_rules"]) == (
            "freecell",
            3,
            ["strict_single"],
        )
        assert game["deal"] is not None
        table.page.locator("#frame").focus()
        table.open("/?variant=freecell&cells=3&strict=1")
        table.wait_ready()
        assert server.get("/api/games/current")["id"] == game["id"]


@pytest.mark.parametrize("lang", ["en", "de"])
def test_a_lesson_has_a_link_that_opens_it(
    chromium_browser: Any, server: Server, lang: str
) -> None:
    """/?lesson=3 opens lesson 3 (Copy link gives that link for a lesson), opened again it
    keeps the lesson in progress, and a lesson the table has not says so and starts
    nothing."""
    for table in _table(chromium_browser, server, DESKTOP, locale=LANGS[lang]):
        page = table.page
        page.context.grant_permissions(["clipboard-read", "clipboard-write"])
        table.open("/?lesson=3")
        table.wait_ready()
        game = server.get("/api/games/current")
        assert game["lesson"] == 3
        kicker = {"en": "Lesson 3 of 4", "de": "Lektion 3 von 4"}[lang]
        expect(page.locator("#lesson-kicker")).to_have_text(kicker)
        assert page.evaluate("() => location.search") == ""
        page.locator("#btn-copy-link").click()
        copied = page.evaluate("() => navigator.clipboard.readText()")
        assert copied == f"{server.url}/?lesson=3"
        expect(table.message).to_contain_text(copied)
        table.open("/?lesson=3")
        expect(page.locator("#dlg-confirm")).to_be_hidden()
        assert server.get("/api/games/current")["id"] == game["id"]
        for bad in ("9", "x", "0"):
            table.open(f"/?lesson={bad}")
            expect(table.message).to_contain_text(f"{bad}")
            text = table.message.inner_text()
            assert "\n" not in text and "4" in text, text
            assert server.get("/api/games/current")["id"] == game["id"]
        table.screenshot(f"lesson-link-bad-{lang}")


# ----- a link opened without the table's token -----------------------------------------------
def test_a_link_without_the_token_says_how_to_get_in_then_opens_its_deal(
    chromium_browser: Any, server: Server, screen: tuple[str, str]
) -> None:
    size, lang = screen
    context = chromium_browser.new_context(viewport=SIZES[size], **context_options(size, lang))
    try:
        page = context.new_page()
        page.set_default_timeout(15_000)
        errors: list[str] = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        api_calls: list[str] = []
        page.on("request", lambda r: api_calls.append(r.url) if "/api/" in r.url else None)
        page.goto(f"{server.url}{LINK}")
        expect(page).to_have_url(re.compile(r"/access\?variant=freecell&deal=617&cells=2"))
        heading = translate(Message("access.heading"), lang)
        expect(page.get_by_role("heading", level=1)).to_have_text(heading)
        expect(page.locator("html")).to_have_attribute("lang", lang)
        body = page.locator("body").inner_text()
        assert "eightoff play" in body
        assert server.token not in page.content()
        assert api_calls == []  # not one request for the table's data
        # it fits: no sideways scrolling, at every size
        for name, viewport in SIZES.items():
            page.set_viewport_size(viewport)
            wide = page.evaluate("() => document.documentElement.scrollWidth")
            assert wide <= viewport["width"], (name, wide)
            if size == "1280x720":  # each language once at every size
                page.screenshot(path=str(shot_path(f"i23-access-{name}-{lang}")))
        page.set_viewport_size(SIZES[size])
        assert violations(page) == []
        page.screenshot(path=str(shot_path(f"i23-access-{size}-{lang}")))
        # once in (the address eightoff play opens), the link's deal opens
        table = TablePage(page, server)
        table.open("/")
        expect(page.locator("#st-deal")).to_contain_text(SECOND_LINE[lang])
        game = server.get("/api/games/current")
        assert (game["deal"], game["options"]["cells"]) == (617, 2)
        assert game["house_rules"] == ["foundation_retrieval", "strict_single"]
        # a reload resumes it: the kept link is used once
        table.reload()
        assert server.get("/api/games/current")["id"] == game["id"]
        assert errors == []
    finally:
        context.close()


def shot_path(name: str) -> Any:
    from .conftest import SHOTS

    SHOTS.mkdir(parents=True, exist_ok=True)
    return SHOTS / f"{name}.png"


def test_a_token_the_table_refuses_sends_the_page_to_how_to_get_in(
    chromium_browser: Any, server: Server
) -> None:
    context = chromium_browser.new_context(viewport=DESKTOP)
    try:
        page = context.new_page()
        page.goto(f"{server.url}/?token=not-the-token&variant=eightoff&deal=4")
        expect(page).to_have_url(re.compile(r"/access\?variant=eightoff&deal=4$"))
        expect(page.get_by_role("heading", level=1)).to_have_text(
            translate(Message("access.heading"), "en")
        )
        assert page.evaluate("() => localStorage.getItem('eightoff.token')") is None
    finally:
        context.close()


# ----- the skip link -----------------------------------------------------------------------------
@pytest.fixture
def screen_table(
    chromium_browser: Any, server: Server, screen: tuple[str, str]
) -> Iterator[tuple[str, str, TablePage]]:
    size, lang = screen
    for table in _table(chromium_browser, server, SIZES[size], **context_options(size, lang)):
        table.open()
        yield size, lang, table


def test_the_first_tab_shows_a_skip_link_to_the_table(
    screen_table: tuple[str, str, TablePage],
) -> None:
    size, lang, table = screen_table
    page = table.page
    skip = page.locator("#skip-link")
    assert not in_view(skip)  # out of sight until it has the focus
    page.keyboard.press("Tab")
    expect(skip).to_be_focused()
    expect(skip).to_have_text({"en": "Skip to the table", "de": "Zum Spieltisch springen"}[lang])
    assert in_view(skip)
    assert violations(page) == []
    table.screenshot(f"i23-skip-link-{size}-{lang}")
    page.keyboard.press("Enter")
    expect(page.locator("#frame")).to_be_focused()
    assert page.evaluate("() => location.hash") == ""
    # and the keys play from there: a column's key picks up its run
    page.keyboard.press("1")
    expect(page.locator("#board .card.selected")).not_to_have_count(0)
    page.keyboard.press("Escape")
    # the keyboard help names the key that takes a foundation's card back
    page.keyboard.press("?")
    expect(page.locator("#dlg-keys")).to_contain_text(
        {"en": "take back a foundation's top card", "de": "oberste Karte eines Ablagestapels"}[lang]
    )
    table.screenshot(f"i23-keys-help-{size}-{lang}")


def in_view(locator: Any) -> bool:
    box = locator.bounding_box()
    size = locator.page.viewport_size
    return bool(
        box
        and box["y"] >= 0
        and box["x"] >= 0
        and box["y"] + box["height"] <= size["height"]
        and box["x"] + box["width"] <= size["width"]
    )


# ----- a foundation's card back, by keyboard -----------------------------------------------------
@pytest.fixture(params=sorted(LANGS))
def lang_table(
    request: pytest.FixtureRequest, chromium_browser: Any, server: Server
) -> Iterator[tuple[str, TablePage]]:
    for table in _table(chromium_browser, server, DESKTOP, locale=LANGS[request.param]):
        table.open()
        yield str(request.param), table


def test_a_foundations_card_comes_back_by_keyboard_announced(
    lang_table: tuple[str, TablePage],
) -> None:
    lang, table = lang_table
    page = table.page
    announce = page.locator("#announce")
    # Eight Off deal 3 sends A♥ 2♥ 3♥ home at the deal
    start(table, {"variant": "eightoff", "deal": 3, "foundation_retrieval": True})
    game = Game.new(preset("eightoff").with_options(foundation_retrieval=True), 3)
    game.auto_home()
    game = Game(game.position)
    pos = game.position
    wait_codes(table, pos)
    home = next(f for f, top in enumerate(pos.foundations) if top)
    # from the skip link to the table, then the keys alone
    page.keyboard.press("Tab")
    page.keyboard.press("Enter")
    expect(page.locator("#frame")).to_be_focused()
    page.keyboard.press("Shift+H")
    expect(announce).to_contain_text({"en": "Take back from which", "de": "Von welchem"}[lang])
    page.keyboard.press(str(home + 1))
    expect(announce).to_contain_text({"en": "picked up", "de": "aufgenommen"}[lang])
    expect(page.locator("#board .place.foundation .card.selected")).to_have_count(1)
    cell = next(i for i, c in enumerate(pos.cells) if c is None)
    move = Move(Place.foundation(home), Place.cell(cell))
    said = spoken(translate(describe_move(pos, move), lang), lang)
    page.keyboard.press("abcdefgi"[cell])
    game.play(move)
    wait_codes(table, game.position)
    expect(announce).to_contain_text(said)
    assert (
        table.server.get("/api/games/current")["foundations"][home]["top"]
        == (game.position.foundations[home])
    )
    # a refusal is announced in the engine's words: onto a column that does not take it
    pos = game.position
    refused = next(
        m
        for j in range(len(pos.columns))
        if not pos.is_legal(m := Move(Place.foundation(home), Place.column(j)))
    )
    with pytest.raises(IllegalMoveError) as refusal:
        pos.check(refused)
    assert refusal.value.reason is not None
    page.keyboard.press("Shift+H")
    page.keyboard.press(str(home + 1))
    page.keyboard.press(str(refused.target.index + 1))  # type: ignore[operator]
    expect(announce).to_have_text(spoken(translate(refusal.value.reason, lang), lang))
    wait_codes(table, pos)
    table.screenshot(f"i23-keyboard-retrieval-{lang}")
    # a foundation's heading is a button too (a pointer or a screen reader's cursor): it
    # picks up the foundation's top card as Shift+H and its number do
    page.locator(f"#board .foundations button.heading >> nth={home}").click()
    expect(page.locator("#board .place.foundation .card.selected")).to_have_count(1)
    page.keyboard.press("Escape")
    # Escape ends the question, and without the house rule the table says so
    page.keyboard.press("Shift+H")
    page.keyboard.press("Escape")
    start(table, {"variant": "eightoff", "deal": 3})
    page.locator("#frame").focus()
    page.keyboard.press("Shift+H")
    expect(announce).to_have_text(words(page, "retrieve.off"))


# ----- deal numbers past 2^53 stay exact -------------------------------------------------------
def test_a_deal_number_past_2_to_the_53_is_opened_shown_and_linked_exactly(
    chromium_browser: Any, server: Server
) -> None:
    """A JavaScript number holds whole numbers exactly only to 2^53: deal
    12345678901234567891 once opened as …567000, and the largest deal, 10^20 - 1, was
    refused as 10^20. Typed, each opens, shows and links its own number."""
    for table in _table(chromium_browser, server, DESKTOP):
        page = table.page
        page.context.grant_permissions(["clipboard-read", "clipboard-write"])
        table.open()
        for number in (12345678901234567891, 10**20 - 1):
            table.open_deal(number)  # the status line says "Deal <number> · …"
            game = table.server.get("/api/games/current")
            assert game["deal"] == str(number)
            page.locator("#btn-copy-link").click()
            copied = page.evaluate("() => navigator.clipboard.readText()")
            assert copied == f"{server.url}/?variant=eightoff&deal={number}"


# ----- 1280×720 at 200 % zoom, and small phones on their side --------------------------------
COVERED_CARDS = """() => {
  const hit = (a, b) => a.left < b.right - 1 && b.left < a.right - 1
                     && a.top < b.bottom - 1 && b.top < a.bottom - 1;
  const panel = document.getElementById('panel').getBoundingClientRect();
  return [...document.querySelectorAll('#board .card:not(.under)')]
    .filter((c) => hit(c.getBoundingClientRect(), panel))
    .map((c) => c.getAttribute('aria-label'));
}"""


@pytest.mark.parametrize(("width", "height"), [(640, 360), (720, 400)])
@pytest.mark.parametrize("lang", sorted(LANGS))
def test_a_short_narrow_window_keeps_the_status_readable_and_the_replay_in_reach(
    chromium_browser: Any, server: Server, width: int, height: int, lang: str
) -> None:
    """Between 561 and 760 px wide and at most 500 px high (1280×720 at 200 % zoom, a
    small phone on its side) the phone's rules and the short screen's both applied: the
    status was 0 px wide beside a full-width row of buttons, a word a line over the
    Solution button, and the play bar took half the height; the replay panel opened
    below the cards, its Step and Close buttons off the screen."""
    viewport = {"width": width, "height": height}
    for table in _table(
        chromium_browser, server, viewport, locale=LANGS[lang], device_scale_factor=2
    ):
        page = table.page
        table.open()
        start(table, HOUSE_RULES)  # the status at its longest
        status = page.locator("#status").bounding_box()
        assert status is not None and status["width"] >= width * 0.3, status
        bar = page.locator(".playbar").bounding_box()
        # a third at most, in German with every house rule named (a quarter in English)
        assert bar is not None and bar["height"] <= height / 3, bar
        assert _overlaps(page) == []
        assert _off_screen_or_over_the_table(page) == []
        table.screenshot(f"short-narrow-{width}x{height}-{lang}")
        page.locator("#frame").focus()
        page.keyboard.press("s")
        step = page.locator("#btn-replay-step")
        expect(step).to_be_enabled(timeout=30_000)
        table.screenshot(f"short-narrow-{width}x{height}-{lang}-replay")
        for button in ("#btn-replay-back", "#btn-replay-step", "#btn-replay-close"):
            assert in_view(page.locator(button)), button
        table.wait_ready()
        page.evaluate(TWO_FRAMES)
        assert page.evaluate(COVERED_CARDS) == []
        table.screenshot(f"short-narrow-{width}x{height}-{lang}-replay")


# ----- the printed rules ---------------------------------------------------------------------
PDF_PAGES = re.compile(rb"/Type\s*/Page[^s]")


@pytest.mark.parametrize("paper", ["A4", "Letter"])
def test_the_printed_rules_take_as_many_pages_in_german_as_in_english(
    table: TablePage, paper: str
) -> None:
    """The German rules printed on 6 A4 pages, the English on 4: the main variant's box
    was kept whole (page 1 left nearly blank) and A4 was forced on Letter paper too."""
    pages = {}
    for lang in ("en", "de"):
        table.page.goto(table.server.page_url(f"/rules?lang={lang}"))
        pdf = table.page.pdf(format=paper)
        pages[lang] = len(PDF_PAGES.findall(pdf))
    assert pages["de"] <= pages["en"] + 1, pages


# ----- the printed table -----------------------------------------------------------------
BOARD_BOX = """() => {
  const box = (el) => el.getBoundingClientRect();
  const frame = box(document.getElementById('frame'));
  const cards = [...document.querySelectorAll('#board .card')].map(box);
  return {
    frame: [frame.width, frame.height],
    outside: cards.filter((c) => c.right > frame.right + 1 || c.bottom > frame.bottom + 1
      || c.left < frame.left - 1).length,
    cards: cards.length,
    cardWidth: cards.length ? cards[0].width : 0,
  };
}"""


@pytest.mark.parametrize("paper", ["A4", "Letter"])
def test_the_table_prints_its_board_on_one_page_without_its_controls(
    table: TablePage, paper: str
) -> None:
    """Printed, the table was the screen on paper: a dark green page of buttons with the
    right-hand foundations cut off. Now the board is laid out again for the page (18 cm
    wide, inside A4's and Letter's margins), on white, under its deal's status, and laid
    out for the window again after."""
    page = table.page
    table.open("/?variant=freecell&deal=617")
    on_screen = page.evaluate(BOARD_BOX)
    page.evaluate("window.dispatchEvent(new Event('beforeprint'))")
    page.emulate_media(media="print")
    printed = page.evaluate(BOARD_BOX)
    assert printed["cards"] == 52 and printed["outside"] == 0, printed
    assert abs(printed["frame"][0] - 180 / 25.4 * 96) < 2  # 18 cm
    for control in ("#btn-new", "#btn-undo", "#btn-hint", "#btn-par", "#variant"):
        assert not page.locator(control).is_visible(), control
    assert page.locator("#st-deal").is_visible()
    background = page.evaluate("getComputedStyle(document.body).backgroundColor")
    assert background == "rgb(255, 255, 255)"
    pdf = page.pdf(format=paper, print_background=True)
    assert len(PDF_PAGES.findall(pdf)) == 1
    page.emulate_media(media="screen")
    page.evaluate("window.dispatchEvent(new Event('afterprint'))")
    page.wait_for_function(
        f"() => ({BOARD_BOX})().cardWidth === {on_screen['cardWidth']}", timeout=10_000
    )
