"""Issue 23 at the table: a second window follows (3), leaving a game says what happens
(6), a pick-up that cannot move says why (7), the solver's move on the first press (8), the
smaller points (10), a link for every deal, the keyboard-only game and the display
settings (11). The layout points (1, 2, 4) are in test_every_screen.py."""

from __future__ import annotations

import re
import time
from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import expect

from eightoff.explain import describe_move
from eightoff.game import Game
from eightoff.i18n import translate
from eightoff.position import IllegalMoveError, Kind, Move, Place

from .conftest import DESKTOP, Server, TablePage, _table, spoken
from .test_layout import start

LANGS = {"en": "en-GB", "de": "de-DE"}


@pytest.fixture(params=sorted(LANGS))
def lang_table(
    request: pytest.FixtureRequest, chromium_browser: Any, server: Server
) -> Iterator[tuple[str, TablePage]]:
    for table in _table(chromium_browser, server, DESKTOP, locale=LANGS[request.param]):
        table.open()
        yield request.param, table


def dealt(variant: str, number: int) -> Game:
    """A deal as the table starts it: the safe cards already home (auto-move is on)."""
    game = Game.new(variant, number)
    game.auto_home()
    return Game(game.position)


CODES_JS = """() => {
  const codes = (el) => [...el.querySelectorAll('.card:not(.under)')].map((c) => c.dataset.code);
  const q = (s) => [...document.querySelectorAll('#board ' + s)];
  return {columns: q('.place.column').map(codes),
          cells: q('.place.cell').map((p) => codes(p)[0] ?? null)};
}"""


def wait_codes(table: TablePage, pos: Any, timeout: float = 15_000) -> None:
    """Wait until the table shows ``pos``'s columns and cells (by card code: any language)."""
    want = {
        "columns": [[str(c) for c in col] for col in pos.columns],
        "cells": [None if c is None else str(c) for c in pos.cells],
    }
    deadline = time.monotonic() + timeout / 1000
    while (got := table.page.evaluate(CODES_JS)) != want:
        assert time.monotonic() < deadline, (got, want)
        table.page.wait_for_timeout(50)


def api(table: TablePage, method: str, path: str, body: Any = None) -> Any:
    """A request from the page (same origin, as the table's own)."""
    return table.page.evaluate(
        """async ([method, path, body]) => {
             const r = await fetch(path, {method, headers: {'Content-Type': 'application/json',
               Authorization: 'token ' + localStorage.getItem('eightoff.token')},
               body: body === null ? undefined : JSON.stringify(body)});
             return {status: r.status, body: await r.json()};
           }""",
        [method, path, body],
    )


@pytest.fixture
def two_windows(chromium_browser: Any, server: Server) -> Iterator[tuple[TablePage, TablePage]]:
    """Two windows of one browser on the table, the first on deal 1, both showing it."""
    context = chromium_browser.new_context(viewport=DESKTOP)
    try:
        first, second = (TablePage(context.new_page(), server) for _ in range(2))
        first.open()
        first.open_deal(1)
        second.open()
        expect(second.page.locator("#st-deal")).to_have_text(re.compile(r"^Deal 1 · "))
        yield first, second
        assert first.errors == [] and second.errors == []
    finally:
        context.close()


# ----- 3: a second window follows ----------------------------------------------------------------
def test_a_second_window_shows_the_game_another_window_changed(
    two_windows: tuple[TablePage, TablePage],
) -> None:
    first, second = two_windows
    # the second window starts a new game: the first shows it without a reload
    second.open_deal(5)
    expect(first.page.locator("#st-deal")).to_have_text(re.compile(r"^Deal 5 · "), timeout=4_000)
    expect(first.page.locator("#btn-hint")).to_be_enabled()
    game = dealt("eightoff", 5)
    first.wait_board(game.position, timeout=1_000)
    # a move in the first window reaches the second
    move = next(m for m in game.position.legal_moves() if m.target.kind is Kind.CELL)
    first.click_move(game.position, move)
    game.play(move)
    first.wait_board(game.position)
    second.wait_board(game.position, timeout=4_000)
    expect(second.page.locator("#st-moves")).to_have_text(first.moves_label.inner_text())
    # the second plays on from there: its move is accepted, not refused as stale
    move = next(m for m in game.position.legal_moves() if m.target.kind is Kind.CELL)
    second.click_move(game.position, move)
    game.play(move)
    second.wait_board(game.position)
    first.wait_board(game.position, timeout=4_000)


def test_a_stale_window_acting_shows_the_new_game_at_once(
    chromium_browser: Any, server: Server
) -> None:
    """The other window's new game reaches this one on its next action too (a click)."""
    context = chromium_browser.new_context(viewport=DESKTOP)
    try:
        first = TablePage(context.new_page(), server)
        first.open()
        first.open_deal(1)
        # another window (here the API) starts deal 7
        assert api(first, "POST", "/api/games", {"variant": "eightoff", "deal": 7})["status"] == 200
        first.button("Hint").click()  # the next action (answered "stale" by the server)
        expect(first.page.locator("#st-deal")).to_have_text(
            re.compile(r"^Deal 7 · "), timeout=4_000
        )
        first.wait_board(dealt("eightoff", 7).position, timeout=1_000)
        expect(first.page.locator("#btn-undo")).to_be_disabled()  # a fresh deal, not a dead one
        expect(first.page.locator("#btn-hint")).to_be_enabled()
    finally:
        context.close()


# ----- 6: leaving a game says what happens -------------------------------------------------------
LEAVE = {
    "en": ("Leave this game?", "It counts as played, not won.", "Keep playing"),
    "de": ("Dieses Spiel verlassen?", "Es zählt als gespielt, nicht gewonnen.", "Weiterspielen"),
}


def play_one_move(table: TablePage, deal: int = 1) -> Game:
    game = dealt("eightoff", deal)
    move = next(m for m in game.position.legal_moves() if m.target.kind is Kind.CELL)
    table.page.keyboard.press("Escape")
    table.page.locator("#frame").focus()
    table.page.keyboard.press(str(move)[0])
    table.page.keyboard.press(str(move)[1])
    game.play(move)
    wait_codes(table, game.position)
    return game


def test_leaving_a_game_says_it_counts_as_played_and_offers_both_choices(
    lang_table: tuple[str, TablePage],
) -> None:
    lang, table = lang_table
    page = table.page
    start(table, {"variant": "eightoff", "deal": 1})
    game = play_one_move(table)
    dialog = page.locator("#dlg-confirm")
    title, text, keep = LEAVE[lang]
    go = {
        "new": ("Deal a new game", "Neues Spiel geben"),
        "daily": ("Play the daily deal", "Tagesspiel spielen"),
        "variant": ("Play FreeCell", "FreeCell spielen"),
        "deal": ("Open deal 5", "Spiel 5 öffnen"),
        "lesson": ("Start the lesson", "Lektion beginnen"),
    }
    i = 0 if lang == "en" else 1

    def asks(opener: Any, what: str) -> None:
        opener()
        expect(dialog).to_be_visible()
        expect(dialog.locator("h2")).to_have_text(title)
        expect(dialog.locator("#confirm-text")).to_have_text(text)
        expect(page.locator("#btn-confirm-ok")).to_have_text(go[what][i])
        expect(page.locator("#btn-confirm-cancel")).to_have_text(keep)
        table.screenshot(f"i23-leave-{lang}-{what}")
        page.locator("#btn-confirm-cancel").click()
        expect(dialog).to_be_hidden()
        wait_codes(table, game.position)

    def new_game() -> None:
        page.locator("#btn-new").click()
        page.locator("#btn-new-deal").click()

    def daily() -> None:
        page.locator("#btn-new").click()
        page.locator("#btn-new-daily").click()

    def variant() -> None:
        page.locator("#variant").select_option("freecell")

    def deal() -> None:
        page.locator("#deal-number").fill("5")
        page.locator("#btn-open").click()

    def lesson() -> None:
        page.locator("#btn-lessons").click()
        page.locator("#lessons-list button").first.click()

    for what, opener in (
        ("new", new_game),
        ("daily", daily),
        ("variant", variant),
        ("deal", deal),
        ("lesson", lesson),
    ):
        asks(opener, what)
    expect(page.locator("#variant")).to_have_value("eightoff")  # kept playing Eight Off
    # going ahead leaves it
    variant()
    page.locator("#btn-confirm-ok").click()
    expect(page.locator("#brand-name")).to_have_text("FreeCell")


# ----- 7: a pick-up that cannot move says why at once --------------------------------------------
def test_picking_up_cards_that_are_not_a_run_says_why(lang_table: tuple[str, TablePage]) -> None:
    lang, table = lang_table
    start(table, {"variant": "eightoff", "deal": 1})
    pos = dealt("eightoff", 1).position
    # a column whose top two cards are not built in sequence
    col = next(i for i, c in enumerate(pos.columns) if pos.run_length(i) == 1)
    card = pos.columns[col][-3]
    # the deal as dealt, its safe cards home: no card still moving when the press lands
    wait_codes(table, pos)
    names = table.page.locator("#board .place.column").nth(col).locator(".card:not(.under)")
    buried = names.nth(len(pos.columns[col]) - 3)
    # the press on its visible top edge (a click waits for the card to be there and still)
    buried.click(position={"x": 12, "y": 6})
    expect(table.page.locator("#board .card.selected")).to_have_count(0)
    words = {"en": "not in sequence: they cannot move together", "de": "liegen nicht in Folge"}
    expect(table.message).to_contain_text(words[lang])
    expect(table.message).to_contain_text(buried.get_attribute("aria-label") or "")
    expect(table.page.locator("#announce")).to_contain_text(words[lang])
    assert card  # the engine's card at that depth
    table.screenshot(f"i23-not-a-run-{lang}")


# ----- 8: the solver's move on the first press ---------------------------------------------------
def test_hint_can_give_the_solvers_move_on_the_first_press(table: TablePage) -> None:
    table.open()
    start(table, {"variant": "eightoff", "deal": 1})
    page = table.page
    table.show_options()
    page.locator("#btn-settings").click()
    page.locator("#opt-hint-solver").check()
    page.locator("#dlg-settings .close-dialog").click()
    table.wait_ready()
    assert table.server.get("/api/settings")["hint_solver_first"] is True
    table.button("Hint").click()
    expect(table.message).to_have_text(re.compile(r"^Hint: .+"), timeout=30_000)
    expect(page.locator("#board .hint-target")).to_have_count(1)
    # a second press: every card that can move (the legal-options view)
    table.button("Hint").click()
    expect(page.locator("#board .hint-target")).to_have_count(0)
    expect(page.locator("#board .card.hint")).not_to_have_count(0)
    expect(page.locator("#board .card.hint")).not_to_have_count(1)
    # kept by the store: a reload (and any other window) has it
    table.reload()
    page.locator("#btn-settings").click()
    expect(page.locator("#opt-hint-solver")).to_be_checked()


# ----- 10: the smaller points --------------------------------------------------------------------
def test_the_deal_box_forgets_a_number_typed_for_another_deal(table: TablePage) -> None:
    table.open()
    table.open_deal(5)
    box = table.page.locator("#deal-number")
    expect(box).to_have_value("")
    expect(box).to_have_attribute("placeholder", "5")
    box.fill("9")  # typed, not opened
    table.button("New game").click()
    table.button("Deal").click()
    table.confirm_if_asked()
    expect(table.page.locator("#st-deal")).not_to_have_text(re.compile(r"^Deal 5 · "))
    expect(box).to_have_value("")


def test_a_lost_deal_opened_by_number_says_winnable_only_is_for_random_deals(
    table: TablePage,
) -> None:
    table.open()
    table.show_options()
    table.page.locator("#opt-winnable").check()
    table.wait_ready()
    table.open_deal(11982, variant="freecell")
    expect(table.verdict).to_have_attribute("data-verdict", "not_winnable", timeout=60_000)
    expect(table.page.locator("#announce")).to_contain_text(
        "Deal 11982 cannot be won. “Winnable deals only” picks random deals"
    )


def test_picking_up_a_run_shows_the_group_limit(table: TablePage) -> None:
    """SuperMove FreeCell shows its group limit before each move: when a run is picked up."""
    table.open()
    # deal 6: column 2 ends in a run of two (the 6♣ on the 7♥)
    game = start(table, {"variant": "supermove-freecell", "deal": 6})
    assert game["runs"][1] == 2
    limit = game["group_limit"]["words"]
    seven = table.page.locator("#board .place.column").nth(1).locator(".card").nth(-2)
    seven.click(position={"x": 10, "y": 6})
    expect(table.page.locator("#board .card.selected")).to_have_count(2)
    expect(table.message).to_contain_text(f"Group limit now: {limit}")
    table.screenshot("i23-supermove-limit")


# ----- 11: a link for every deal -----------------------------------------------------------------
def test_a_link_opens_its_deal_with_its_house_rules_and_copy_link_gives_it(
    chromium_browser: Any, server: Server
) -> None:
    for table in _table(chromium_browser, server, DESKTOP):
        table.page.context.grant_permissions(["clipboard-read", "clipboard-write"])
        table.open("/?variant=freecell&deal=617&strict=1")
        expect(table.page.locator("#st-deal")).to_have_text(re.compile(r"^Deal 617 · FreeCell"))
        game = table.server.get("/api/games/current")
        assert (game["variant"], game["deal"], game["house_rules"]) == (
            "freecell",
            617,
            ["strict_single"],
        )
        table.wait_board(dealt("freecell", 617).position)
        # the address is the table's again: a reload resumes, it does not deal again
        assert table.page.evaluate("() => location.search") == ""
        table.button("Copy link").click()
        copied = table.page.evaluate("() => navigator.clipboard.readText()")
        assert copied == f"{server.url}/?variant=freecell&deal=617&strict=1"
        expect(table.message).to_contain_text(copied)
        # a link to another deal while a game is in progress asks first
        play = dealt("freecell", 617)
        move = next(m for m in play.position.legal_moves() if m.target.kind is Kind.CELL)
        table.click_move(play.position, move)
        table.expect_moves(1)
        table.open("/?variant=eightoff&deal=3")
        expect(table.page.locator("#dlg-confirm")).to_be_visible()
        expect(table.page.locator("#btn-confirm-ok")).to_have_text("Open deal 3")
        table.page.locator("#btn-confirm-ok").click()
        expect(table.page.locator("#st-deal")).to_have_text(re.compile(r"^Deal 3 · Eight Off"))
        # a bad link says what is wrong and keeps the game
        table.open("/?variant=nosuch&deal=3")
        expect(table.message).to_contain_text("“nosuch”")
        expect(table.page.locator("#st-deal")).to_have_text(re.compile(r"^Deal 3 · Eight Off"))


# ----- 11: a keyboard-only game, announced -------------------------------------------------------
def test_a_keyboard_only_game_announces_every_move_and_refusal(
    lang_table: tuple[str, TablePage],
) -> None:
    lang, table = lang_table
    page = table.page
    start(table, {"variant": "eightoff", "deal": 1})
    game = dealt("eightoff", 1)
    announce = page.locator("#announce")
    # Tab reaches the table (after the controls) and its focus shows
    for _ in range(40):
        page.keyboard.press("Tab")
        if page.evaluate("() => document.activeElement?.id") == "frame":
            break
    assert page.evaluate("() => document.activeElement?.id") == "frame"
    outline = page.evaluate("() => getComputedStyle(document.getElementById('frame')).outlineStyle")
    assert outline != "none"
    for _ in range(3):
        move = next(m for m in game.position.legal_moves() if m.target.kind is Kind.CELL)
        text = str(move)
        page.keyboard.press(text[0])
        # picked up: the cards show it and the live region says it
        expect(page.locator("#board .card.selected")).not_to_have_count(0)
        expect(announce).to_contain_text(re.compile("picked up|aufgenommen"))
        page.keyboard.press(text[1])
        said = spoken(translate(describe_move(game.position, move), lang), lang)
        game.play(move)
        wait_codes(table, game.position)
        expect(announce).to_contain_text(said)
    # a refusal is announced in the engine's words: a cell's card onto a column that does
    # not take it
    pos = game.position
    refused = next(
        m
        for c, card in enumerate(pos.cells)
        for j in range(len(pos.columns))
        if card is not None and not pos.is_legal(m := Move(Place.cell(c), Place.column(j)))
    )
    with pytest.raises(IllegalMoveError) as refusal:
        pos.check(refused)
    assert refusal.value.reason is not None
    reason = spoken(translate(refusal.value.reason, lang), lang)
    page.keyboard.press(str(refused)[0])
    page.keyboard.press(str(refused)[1])
    expect(announce).to_have_text(reason)
    wait_codes(table, game.position)
    # an empty place is announced too, not only shown
    empty = next(i for i, c in enumerate(game.position.cells) if c is None)
    page.keyboard.press("abcdefgi"[empty])
    words = {"en": "is empty", "de": "ist leer"}
    expect(announce).to_contain_text(words[lang])
    table.screenshot(f"i23-keyboard-{lang}")


# ----- 11: card size and four-colour suits, kept by the store ------------------------------------
def test_large_cards_and_four_colour_suits_are_kept_and_reach_every_window(
    two_windows: tuple[TablePage, TablePage], server: Server
) -> None:
    first, second = two_windows
    index_px = """() => { const c = document.querySelector('#board .tableau .card');
        return parseFloat(c.querySelector('text.idx').getAttribute('font-size'))
               * c.getBoundingClientRect().width / 100; }"""
    before = first.page.evaluate(index_px)
    clubs = "() => getComputedStyle(document.querySelector('.card-svg.suit-C')).fill"
    black = first.page.evaluate(clubs)
    first.page.locator("#btn-settings").click()
    first.page.locator("#opt-large").check()
    first.page.locator("#opt-four-colour").check()
    first.page.locator("#dlg-settings .close-dialog").click()
    first.wait_ready()
    settings = server.get("/api/settings")
    assert settings["large_cards"] is True and settings["four_colour"] is True
    assert first.page.evaluate(index_px) > before * 1.2  # the big index
    assert first.page.evaluate(clubs) != black
    first.screenshot("i23-large-four-colour-1280x720")
    # the other window follows within 4 s, without a reload
    expect(second.page.locator("body")).to_have_class(re.compile("four-colour"), timeout=4_000)
    # (polled here: a text predicate of wait_for_function needs eval, which the page's
    # Content-Security-Policy forbids)
    deadline = time.monotonic() + 4.0
    while second.page.evaluate(index_px) <= before * 1.2:
        assert time.monotonic() < deadline, "the other window kept the small index"
        second.page.wait_for_timeout(50)
