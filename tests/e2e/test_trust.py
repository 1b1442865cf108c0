"""The table as a trustworthy local app, seen from the browser: two windows on one game
lose nothing, and the pages run under the server's Content-Security-Policy without a
console error."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from eightoff.game import Game

from .conftest import DESKTOP, Server, TablePage

STALE = "This game changed in another window"

# every CSP violation the page meets, recorded from the document's first script on
RECORD_VIOLATIONS = """
window.__violations = [];
document.addEventListener("securitypolicyviolation", (e) => {
  const where = `${e.sourceFile}:${e.lineNumber}`;
  window.__violations.push(`${e.violatedDirective} ${e.blockedURI} ${where}`);
});
"""


@pytest.fixture
def context(chromium_browser: Any) -> Iterator[Any]:
    ctx = chromium_browser.new_context(viewport=DESKTOP)
    try:
        yield ctx
    finally:
        ctx.close()


def tab(context: Any, server: Server) -> TablePage:
    page = context.new_page()
    page.set_default_timeout(15_000)
    return TablePage(page, server)


def background(t: TablePage) -> None:
    """The tab as in the background: it does not look for other windows' changes (a seen
    tab does, every 2 s), so it can be stale when the player acts in it."""
    t.page.evaluate(
        "() => Object.defineProperty(document, 'visibilityState', "
        "{value: 'hidden', configurable: true})"
    )


def foreground(t: TablePage) -> None:
    """The player comes back to the tab."""
    t.page.evaluate(
        "() => { delete document.visibilityState;"
        " document.dispatchEvent(new Event('visibilitychange')); }"
    )


def test_a_move_in_a_stale_tab_shows_the_game_as_stored(context: Any, server: Server) -> None:
    one, two = tab(context, server), tab(context, server)
    one.open()
    one.open_deal(1)
    game = Game.new("eightoff", 1)
    start = game.position
    two.open()  # the second tab resumes the same game
    two.wait_board(start)
    background(two)
    gid = server.get("/api/games/current")["id"]

    # the first tab plays the 9♣ from Cell 2 onto the 10♣
    b8 = start.parse_move("b8")
    one.click_move(start, b8)
    game.play(b8)
    one.wait_board(game.position)

    # the second tab still shows the deal's start; its move (the 6♦ into Cell 5) is refused
    two.click_move(start, start.parse_move("1e"))
    expect(two.message).to_have_text(STALE)
    expect(two.message).to_be_visible()
    two.wait_board(game.position)  # it now shows the game as stored
    two.expect_moves(1)
    two.screenshot("desktop-stale-tab")

    # nothing is lost: the stored game has the first tab's move, and a reload shows it
    stored = server.get(f"/api/games/{gid}")
    assert stored["player_moves"] == 1
    assert {k: stored[k] for k in ("columns", "cells")} == {
        "columns": [[str(c) for c in col] for col in game.position.columns],
        "cells": [None if c is None else str(c) for c in game.position.cells],
    }
    two.reload()
    two.wait_board(game.position)
    background(one)

    # the second tab now plays on from the current game, and the first tab is the stale one
    pos = game.position
    e1 = pos.parse_move("1e")
    two.click_move(pos, e1)
    game.play(e1)
    two.wait_board(game.position)
    one.click_move(pos, pos.parse_move("3f"))
    expect(one.message).to_have_text(STALE)
    one.wait_board(game.position)
    one.expect_moves(game.player_moves)

    # a tab the player comes back to catches up before any move
    background(two)
    pos = game.position
    f3 = pos.parse_move("3f")
    one.click_move(pos, f3)
    game.play(f3)
    one.wait_board(game.position)
    foreground(two)
    two.wait_board(game.position)
    expect(two.message).to_have_text(STALE)
    assert one.errors == [] and two.errors == []


def test_first_visit_logs_no_error_and_pages_keep_to_the_csp(context: Any, server: Server) -> None:
    page = context.new_page()
    page.add_init_script(RECORD_VIOLATIONS)
    problems: list[str] = []

    def on_console(m: Any) -> None:
        if m.type == "error":
            problems.append(f"{m.text} at {m.location}")

    page.on("console", on_console)
    page.on("pageerror", lambda e: problems.append(str(e)))
    table = TablePage(page, server)
    assert server.get("/api/games/current?optional=true") is None  # a first visit

    response = page.goto(server.page_url("/"))  # the address `eightoff play` opens
    assert response is not None
    csp = response.headers.get("content-security-policy", "")
    assert "script-src 'self'" in csp and "style-src 'self'" in csp, csp
    assert "unsafe-inline" not in csp
    page.wait_for_selector("body[data-ready=true]", timeout=30_000)
    # a first visit deals a game: no game in progress is not an error
    table.wait_ready()
    expect(page.locator("#st-moves")).to_have_text("Moves: 0")

    # play by click and by drag, ask for a hint, open every dialog: all under the policy
    table.open_deal(1)
    game = Game.new("eightoff", 1)
    for text in ("b8", "1e"):
        pos = game.position
        move = pos.parse_move(text)
        if text == "b8":
            table.click_move(pos, move)
        else:
            table.drag_move(pos, move)
        game.play(move)
        table.wait_board(game.position)
    table.button("Hint").click()
    expect(page.locator("#board .card.hint")).not_to_have_count(0)
    dialogs = (("Stats", "Statistics"), ("Lessons", "Lessons"), ("Keyboard help", "Keyboard"))
    for opener, dialog in dialogs:
        table.button(opener).click()
        expect(page.get_by_role("dialog", name=dialog)).to_be_visible()
        page.keyboard.press("Escape")

    rules = page.goto(f"{server.url}/rules")
    assert rules is not None and rules.headers.get("content-security-policy") == csp
    expect(page.get_by_role("button", name="Print / Save as PDF")).to_be_visible()
    assert page.evaluate("window.__violations") == []
    docs = page.goto(f"{server.url}/docs")
    assert docs is not None and docs.headers.get("content-security-policy") == csp
    expect(page.get_by_role("heading", name="eightoff API")).to_be_visible()
    assert page.evaluate("window.__violations") == []
    assert problems == []


def test_the_token_leaves_the_address_bar_and_two_tables_keep_their_own(
    context: Any, server: Server, tmp_path: Path
) -> None:
    """The page opened at /?token=… keeps the token in its origin's storage and shows an
    address without it; a second table on another port of the same host has its own,
    and neither logs the other out (issue 24.2)."""
    other = Server(tmp_path / "other.sqlite3", tmp_path / "other.log")
    other.start()
    try:
        one, two = tab(context, server), tab(context, other)
        one.open()
        two.open()
        for t, srv in ((one, server), (two, other)):
            assert "token" not in t.page.url  # taken out of the address bar at once
            stored = t.page.evaluate("localStorage.getItem('eightoff.token')")
            assert stored == srv.token  # this origin's own
            assert t.page.context.cookies() == []  # no cookie carries it
        assert server.token != other.token
        # both still play after the other opened: neither was logged out
        one.reload()
        one.open_deal(2)
        two.reload()
        two.open_deal(3)
        assert server.get("/api/games/current")["deal"] == 2
        assert other.get("/api/games/current")["deal"] == 3
        # a page without the token (another user's browser) is refused the games: it is
        # sent to the page that says how to get in
        fresh = context.browser.new_context()
        try:
            page = fresh.new_page()
            page.goto(f"{server.url}/")
            expect(page).to_have_url(f"{server.url}/access")
            expect(page.get_by_role("heading", level=1)).to_contain_text("belongs to")
        finally:
            fresh.close()
        assert one.errors == [] and two.errors == []
    finally:
        other.stop()
