"""The web table in a real browser: what a player sees and does.

The expected boards come from the rules engine (``eightoff.game.Game`` with auto-move on,
the table's default), played alongside the browser; the names are ``Card.name``.
"""

from __future__ import annotations

import re
import sqlite3
from typing import Any

import pytest
from playwright.sync_api import expect

from eightoff.explain import describe, lesson_text
from eightoff.game import Game
from eightoff.lessons import LESSONS
from eightoff.position import IllegalMoveError, Kind, Move, Place, Position
from eightoff.rules import PRESETS

from .conftest import SHOTS, Server, TablePage, _table, move_card_name, shot, spoken

SELECTED = re.compile(r"\bselected\b")
TARGET = re.compile(r"\btarget\b")


def pick(pos: Position, seen: set[Position]) -> Move:
    """A move for the test to play: building moves first, never back to a seen position."""

    def rank(m: Move) -> tuple[bool, bool, str]:
        return (m.target.kind is not Kind.COLUMN, m.source.kind is not Kind.CELL, str(m))

    for m in sorted(pos.legal_moves(), key=rank):
        if pos.apply(m) not in seen:
            return m
    raise AssertionError("no fresh move")


def reason(pos: Position, move: Move) -> str:
    try:
        pos.check(move)
    except IllegalMoveError as e:
        return str(e)
    raise AssertionError(f"{move} is legal")


def test_play_part_of_deal_1_with_clicks(table: TablePage) -> None:
    table.open()
    table.open_deal(1)
    game = Game.new("eightoff", 1)
    table.wait_board(game.position)
    table.screenshot("desktop-deal1-start")
    seen = {game.position}
    for i in range(8):
        pos = game.position
        move = pick(pos, seen)
        card = table.card(move_card_name(pos, move))
        table.pick_up(move_card_name(pos, move))
        # the card (and the run on it) lights up, and so do the places that take it
        expect(card).to_have_class(SELECTED)
        target = table.place(pos.resolve_target(move).title)
        expect(target).to_have_class(TARGET)
        if i == 3:
            table.screenshot("desktop-deal1-selected")
        target.click()
        game.play(move)
        seen.add(game.position)
        table.wait_board(game.position)
        table.expect_moves(game.player_moves)
        # the move is announced in the live region, in the engine's words
        expect(table.page.locator("#announce")).to_contain_text(spoken(describe(pos, move)))
    expect(table.page.locator("#st-deal")).to_have_text("Deal 1 · Eight Off")
    expect(table.page.locator("#st-limit")).to_have_text(
        re.compile(r"^Group limit: \d+ cards? · free cells \+ one$")
    )
    table.screenshot("desktop-deal1-played")


def test_drag_and_drop_moves_and_snaps_back(table: TablePage) -> None:
    table.open()
    table.open_deal(1)
    game = Game.new("eightoff", 1)
    pos = game.position
    # 9♣ from Cell 2 onto the 10♣ of Column 8, then the 6♦ of Column 1 into Cell 5
    for text in ("b8", "1e"):
        pos = game.position
        move = pos.parse_move(text)
        table.drag_move(pos, move)
        game.play(move)
        table.wait_board(game.position)
    table.expect_moves(2)
    # an illegal drop: the board stays as it was and the table says why
    pos = game.position
    bad = Move(Place.column(1), Place.column(0))
    table.drag(move_card_name(pos, bad), "Column 1")
    expect(table.message).to_have_text(reason(pos, bad))
    table.wait_board(pos)
    table.expect_moves(2)


def test_illegal_click_shows_the_rule(table: TablePage) -> None:
    table.open()
    table.open_deal(1)
    pos = Game.new("eightoff", 1).position
    bad = Move(Place.column(0), Place.column(1))  # 6♦ onto the 8♠
    table.pick_up(move_card_name(pos, bad))
    table.place("Column 2").click()
    expect(table.message).to_be_visible()
    expect(table.message).to_have_text(reason(pos, bad))
    assert reason(pos, bad) == "6♦ needs the 7♦"
    table.screenshot("desktop-illegal-move")
    table.wait_board(pos)
    table.expect_moves(0)
    expect(table.page.locator("#announce")).to_have_text("6 of Diamonds needs the 7 of Diamonds")


def test_undo_redo_restart(table: TablePage) -> None:
    table.open()
    table.open_deal(1)
    game = Game.new("eightoff", 1)
    expect(table.button("Undo")).to_be_disabled()
    seen = {game.position}
    positions = [game.position]
    for _ in range(3):
        move = pick(game.position, seen)
        table.click_move(game.position, move)
        game.play(move)
        seen.add(game.position)
        positions.append(game.position)
        table.wait_board(game.position)
    table.button("Undo").click()
    table.wait_board(positions[2])
    table.page.keyboard.press("Control+z")
    table.wait_board(positions[1])
    table.button("Redo").click()
    table.wait_board(positions[2])
    table.page.keyboard.press("Control+y")
    table.wait_board(positions[3])
    expect(table.button("Redo")).to_be_disabled()
    table.button("Restart").click()
    table.wait_board(positions[0])
    table.expect_moves(0)
    # a restart keeps the moves for redo
    table.button("Redo").click()
    table.wait_board(positions[1])


def test_keyboard_play(table: TablePage) -> None:
    table.open()
    table.open_deal(1)
    game = Game.new("eightoff", 1)
    kb = table.page.keyboard
    # b = Cell 2, 8 = Column 8: the 9♣ goes onto the 10♣
    kb.press("b")
    expect(table.card("9 of Clubs")).to_have_class(SELECTED)
    expect(table.place("Column 8")).to_have_class(TARGET)
    kb.press("8")
    game.play("b8")
    table.wait_board(game.position)
    # Esc puts a picked-up card back
    kb.press("3")
    expect(table.card("8 of Diamonds")).to_have_class(SELECTED)
    kb.press("Escape")
    expect(table.page.locator("#board .selected")).to_have_count(0)
    # 1 then e: the 6♦ into Cell 5
    kb.press("1")
    kb.press("e")
    game.play("1e")
    table.wait_board(game.position)
    kb.press("Control+z")
    game.undo()
    table.wait_board(game.position)
    # ? opens the key list
    kb.press("?")
    expect(table.page.get_by_role("dialog", name="Keyboard")).to_be_visible()
    table.screenshot("desktop-keys-help")
    kb.press("Escape")
    expect(table.page.get_by_role("dialog", name="Keyboard")).to_be_hidden()


def test_accessible_names(table: TablePage) -> None:
    table.open()
    table.open_deal(1)
    pos = Game.new("eightoff", 1).position
    names = sorted(c.name for c in pos.all_cards())
    labels = table.page.eval_on_selector_all(
        "#board .card:not(.under)", "els => els.map(e => e.getAttribute('aria-label'))"
    )
    assert sorted(labels) == names
    assert len(labels) == 52
    for i in range(1, 9):
        expect(table.place(f"Column {i}")).to_have_count(1)
        expect(table.place(f"Cell {i}")).to_have_count(1)
    for i in range(1, 5):
        expect(table.place(f"Foundation {i}")).to_have_count(1)
    for name in ("Undo", "Redo", "Restart", "Hint", "New game"):
        expect(table.button(name)).to_have_count(1)
    expect(table.place("Column 4").get_by_role("button", name="Queen of Spades")).to_be_visible()


def test_new_game_asks_before_replacing(table: TablePage) -> None:
    table.open()
    table.open_deal(1)
    game = Game.new("eightoff", 1)
    table.click_move(game.position, game.position.parse_move("b8"))
    game.play("b8")
    table.expect_moves(1)
    table.button("New game").click()  # the new-game dialog: variant and house rules
    table.button("Deal").click()
    dialog = table.page.locator("#dlg-confirm")
    # it says what becomes of the game and offers both choices (issue 23.6)
    expect(dialog.locator("h2")).to_have_text("Leave this game?")
    expect(dialog).to_contain_text("It counts as played, not won.")
    expect(table.button("Deal a new game")).to_be_focused()
    table.screenshot("desktop-confirm-leave")
    table.button("Keep playing").click()
    table.wait_board(game.position)
    table.expect_moves(1)
    table.button("New game").click()
    table.button("Deal").click()
    table.button("Deal a new game").click()
    table.expect_moves(0)
    expect(table.page.locator("#st-deal")).not_to_have_text("Deal 1 · Eight Off")


def test_other_variants_lay_out_their_own_places(table: TablePage) -> None:
    table.open()
    table.open_deal(11982, "freecell")
    for i in range(1, 5):
        expect(table.place(f"Cell {i}")).to_have_count(1)
    expect(table.place("Cell 5")).to_have_count(0)
    expect(table.page.locator("#st-deal")).to_have_text("Deal 11982 · FreeCell")
    expect(table.page.locator("#st-limit")).to_have_text(
        f"Group limit: 5 cards · {PRESETS['freecell'].formula_words()}"
    )
    # FreeCell #11982 is the well-known deal nobody can win
    expect(table.verdict).to_have_text("No play wins this deal", timeout=30_000)
    table.screenshot("desktop-freecell-11982")
    table.open_deal(1, "double-freecell")
    expect(table.place("Column 10")).to_have_count(1)
    expect(table.place("Foundation 8")).to_have_count(1)
    expect(table.place("Cell 6")).to_have_count(1)
    table.screenshot("desktop-double-freecell")
    table.open_deal(1, "seahaven-towers")
    expect(table.place("Column 10")).to_have_count(1)
    table.screenshot("desktop-seahaven")


def test_status_and_hints(table: TablePage) -> None:
    table.open()
    table.open_deal(1)
    expect(table.verdict).to_have_text("Winnable", timeout=30_000)
    pos = Game.new("eightoff", 1).position
    movable = {
        pos.moving_card(m).name
        for m in pos.legal_moves()
        if not (m.source.kind is Kind.CELL and m.target.kind is Kind.CELL)
    }
    table.button("Hint").click()
    hinted = table.page.locator("#board .card.hint")
    expect(hinted).to_have_count(len(movable))
    assert sorted(
        hinted.evaluate_all("els => els.map(e => e.getAttribute('aria-label'))")
    ) == sorted(movable)
    table.button("Hint").click()
    expect(table.message).to_have_text(re.compile(r"^Hint: .+ from .+"), timeout=30_000)
    table.screenshot("desktop-hint")
    # the solver's move is one of the legal moves; its card and target light up
    text = table.message.inner_text()
    assert any(describe(pos, m) in text for m in pos.legal_moves())
    expect(table.page.locator("#board .card.hint")).not_to_have_count(0)


def test_lesson_to_completion(table: TablePage) -> None:
    table.open()
    table.button("Lessons").click()
    first = LESSONS[0]
    words = lesson_text(first)
    table.button(words.title).click()
    panel = table.page.locator("#lesson-panel")
    expect(panel).to_contain_text(words.title)
    expect(panel).to_contain_text(words.goal)
    game = Game(first.start())
    table.wait_board(game.position)
    table.screenshot("desktop-lesson-1")
    for text in first.walkthrough:
        pos = game.position
        move = pos.parse_move(text)
        table.click_move(pos, move)
        game.play(move)
        table.wait_board(game.position)
    assert game.position.is_won()
    expect(panel.get_by_text("Well done")).to_be_visible()
    table.screenshot("desktop-lesson-1-done")
    table.button("Next lesson").click()
    expect(panel).to_contain_text(lesson_text(LESSONS[1]).title)
    table.wait_board(LESSONS[1].start())


def test_solver_replay_wins_a_whole_deal(table: TablePage) -> None:
    table.open()
    table.open_deal(2)
    game = Game.new("eightoff", 2)
    table.button("Solution").click()
    step = table.button("Step ▶")
    expect(step).to_be_enabled(timeout=30_000)
    info = table.page.locator("#replay-info")
    expect(info).to_have_text(re.compile(r"^Step 0 of \d+"))
    for _ in range(3):
        step.click()
    expect(info).to_have_text(re.compile(r"^Step 3 of \d+"))
    table.button("◀ Back").click()
    expect(info).to_have_text(re.compile(r"^Step 2 of \d+"))
    table.screenshot("desktop-replay")
    table.button("Play to end").click()
    # a game finished by the solver's replay is assisted, not won: the dialog says so
    won = table.page.get_by_role("dialog", name="Finished with the solver's help")
    expect(won).to_be_visible(timeout=90_000)
    expect(won).to_contain_text("deal 2")
    table.wait_board(_all_home(game.position))
    table.screenshot("desktop-won")
    table.button("Close").click()
    # the game is over: Back takes nothing back (it offered to, and the server refused)
    expect(table.button("◀ Back")).to_be_disabled()
    table.page.locator("#frame").press("ArrowLeft")
    expect(table.message).to_be_hidden()
    table.button("Stats").click()
    stats = table.page.get_by_role("dialog", name="Statistics")
    row = stats.get_by_role("row", name=re.compile("^Eight Off"))
    expect(row.locator("td").nth(1)).to_have_text("0")  # won
    expect(row.locator("td").nth(2)).to_have_text("1")  # assisted
    expect(row).to_contain_text("0%")
    table.screenshot("desktop-stats")


def test_auto_complete_once_the_win_is_certain(table: TablePage) -> None:
    table.open()
    table.open_deal(2)
    # with auto-move off the replay steps one move at a time, and stops before the end
    auto = table.page.get_by_label("Auto-move")
    auto.uncheck()
    table.wait_ready()
    table.button("Solution").click()
    step = table.button("Step ▶")
    expect(step).to_be_enabled(timeout=30_000)
    finish = table.button("Auto-complete")
    for _ in range(200):
        if finish.is_visible():
            break
        step.click()
        table.wait_ready()
    expect(finish).to_be_visible()
    table.screenshot("desktop-auto-complete")
    finish.click()
    # the solver's solution was shown: finished with help (counted as assisted, not won)
    expect(table.page.get_by_role("dialog", name="Finished with the solver's help")).to_be_visible(
        timeout=30_000
    )


def test_reload_resumes_the_game(table: TablePage) -> None:
    table.open()
    table.open_deal(1)
    game = Game.new("eightoff", 1)
    seen = {game.position}
    for _ in range(3):
        move = pick(game.position, seen)
        table.click_move(game.position, move)
        game.play(move)
        seen.add(game.position)
        table.wait_board(game.position)
    table.reload()
    table.wait_board(game.position)
    table.expect_moves(game.player_moves)
    table.button("Undo").click()
    game.undo()
    table.wait_board(game.position)


def test_server_killed_and_restarted_resumes(table: TablePage) -> None:
    table.open()
    table.open_deal(1)
    game = Game.new("eightoff", 1)
    seen = {game.position}
    for _ in range(4):
        move = pick(game.position, seen)
        table.click_move(game.position, move)
        game.play(move)
        seen.add(game.position)
        table.wait_board(game.position)
    table.server.kill()
    # the table says it lost its server, and does not pretend the move happened
    pos = game.position
    move = pick(pos, seen)
    table.click_move(pos, move)
    expect(table.message).to_contain_text("lost contact")
    table.wait_board(pos)
    table.server.start()
    # a new token for the new server: the tab's old one, a leak's worth, opens nothing; the
    # tab is sent to /access, and the address the table printed opens the game as it was
    table.page.reload()
    expect(table.page).to_have_url(f"{table.server.url}/access")
    table.open()
    table.wait_board(game.position)
    table.expect_moves(game.player_moves)
    table.click_move(pos, move)
    game.play(move)
    table.wait_board(game.position)


def test_phone_layout_and_taps(phone: TablePage) -> None:
    phone.open()
    phone.open_deal(1)
    game = Game.new("eightoff", 1)
    phone.wait_board(game.position)
    page = phone.page
    # the page itself never scrolls sideways; all eight columns are on screen
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    for i in range(1, 9):
        box = phone.place(f"Column {i}").bounding_box()
        assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= 390
    shot(page, "phone-deal1-start")
    seen = {game.position}
    for i in range(3):
        pos = game.position
        move = pick(pos, seen)
        phone.pick_up(move_card_name(pos, move), tap=True)
        if i == 1:
            shot(page, "phone-deal1-selected")
        phone.place(pos.resolve_target(move).title).tap()
        game.play(move)
        seen.add(game.position)
        phone.wait_board(game.position)
    # a drag by touch: the 6♦ of Column 1 into the first empty cell
    pos = game.position
    move = next(
        m for m in pos.legal_moves() if m.source == Place.column(0) and m.target.kind is Kind.CELL
    )
    phone.touch_drag(move_card_name(pos, move), pos.resolve_target(move).title)
    game.play(move)
    phone.wait_board(game.position)
    shot(page, "phone-deal1-played")
    phone.button("Menu").click()
    shot(page, "phone-menu")
    # Double FreeCell is wider: its board scrolls inside the frame, not the page
    phone.open_deal(1, "double-freecell")
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    frame = page.locator("#frame")
    assert frame.evaluate(
        "f => f.scrollWidth <= f.clientWidth + 1 || getComputedStyle(f).overflowX === 'auto'"
    )
    shot(page, "phone-double-freecell")


def test_phone_lesson_panel(phone: TablePage) -> None:
    phone.open()
    phone.button("Menu").click()
    phone.button("Lessons").click()
    phone.button(lesson_text(LESSONS[2]).title).click()
    expect(phone.page.locator("#lesson-panel")).to_contain_text(lesson_text(LESSONS[2]).goal)
    phone.wait_board(LESSONS[2].start())
    shot(phone.page, "phone-lesson-3")


def test_a_finished_lesson_shows_well_done_on_a_phone(phone: TablePage) -> None:
    """On a phone the lesson panel lies below the board, and "Well done" with its Next
    lesson button once stayed below the screen's edge: it comes into view."""
    phone.open()
    phone.button("Menu").click()
    phone.button("Lessons").click()
    first = LESSONS[0]
    phone.button(lesson_text(first).title).click()
    game = Game(first.start())
    phone.wait_board(game.position)
    for text in first.walkthrough:
        pos = game.position
        move = pos.parse_move(text)
        phone.click_move(pos, move, tap=True)
        game.play(move)
        phone.wait_board(game.position)
    success = phone.page.locator("#lesson-success")
    expect(success.get_by_text("Well done")).to_be_visible()
    expect(phone.button("Next lesson")).to_be_in_viewport()
    shot(phone.page, "phone-lesson-1-done")


def test_rules_page_prints(table: TablePage) -> None:
    page = table.page
    page.add_init_script("window.print = () => { window.__printed = (window.__printed || 0) + 1; }")
    table.page.goto(f"{table.server.url}/rules")
    for rules in PRESETS.values():
        expect(page.get_by_role("heading", name=rules.name, exact=True)).to_be_visible()
    shot(page, "desktop-rules")
    page.get_by_role("button", name="Print / Save as PDF").click()
    assert page.evaluate("window.__printed") == 1
    page.emulate_media(media="print")
    expect(page.get_by_role("button", name="Print / Save as PDF")).to_be_hidden()
    shot(page, "desktop-rules-print")
    # what "Save as PDF" gives (headless chromium prints with the print stylesheet)
    pdf = SHOTS.parent / "rules.pdf"
    page.pdf(path=str(pdf), format="A4")
    assert pdf.read_bytes().startswith(b"%PDF")


def _all_home(pos: Position) -> Position:
    """The won position of a deal: every card on its foundation."""
    return Position(
        pos.rules,
        tuple(() for _ in pos.columns),
        tuple(None for _ in pos.cells),
        tuple(13 for _ in pos.foundations),
    )


def test_double_click_sends_a_card_home_and_settings_persist(table: TablePage) -> None:
    table.open()
    # auto-move off: a card that can go home waits for the player
    table.page.get_by_label("Auto-move").uncheck()
    table.wait_ready()
    table.page.get_by_label("Winnable deals only").check()
    table.wait_ready()
    table.open_deal(2)
    game = Game.new("eightoff", 2, auto_move=False)
    pos = game.position
    homeward = [m for m in pos.legal_moves() if m.target.kind is Kind.FOUNDATION]
    assert homeward, "deal 2 starts with a card that can go home"
    first = next(m for m in homeward if m.source.kind is Kind.COLUMN)
    table.card(move_card_name(pos, first)).dblclick()
    game.play(first)
    table.wait_board(game.position)
    foundation = table.place(pos.resolve_target(first).title)
    expect(foundation.get_by_role("button", name=move_card_name(pos, first))).to_be_visible()
    # h with nothing picked up sends the safe cards home
    table.page.locator("#frame").focus()
    table.page.keyboard.press("h")
    turn = game.auto_home()
    assert turn is not None
    table.wait_board(game.position)
    # the settings are the server's: a reload keeps them
    table.reload()
    expect(table.page.get_by_label("Auto-move")).not_to_be_checked()
    expect(table.page.get_by_label("Winnable deals only")).to_be_checked()
    table.wait_board(game.position)


def _lose_deal_4(table: TablePage) -> int:
    """A few careless moves into the cells, typed on the keyboard, lose deal 4: how many
    moves back it is winnable again."""
    from eightoff.solver import Limits, solve

    table.open()
    table.open_deal(4)
    game = Game.new("eightoff", 4)
    table.page.locator("#frame").focus()
    for text in ("ae", "2d", "3g", "ea", "af", "8i", "8e", "ea"):
        table.page.keyboard.press(text[0])
        table.page.keyboard.press(text[1])
        game.play(text)
        table.wait_board(game.position)
    positions = game.positions()
    assert solve(positions[-1], Limits(seconds=30)).verdict == "lost"
    return next(
        k
        for k in range(1, len(positions))
        if solve(positions[-1 - k], Limits(seconds=30)).verdict == "solved"
    )


@pytest.mark.parametrize(
    "size", [(390, 844), (844, 390), (320, 480), (1280, 720), (1920, 1080)], ids=str
)
def test_the_lost_verdict_fits_its_line_and_the_table_keeps_its_place(
    chromium_browser: Any, server: Server, size: tuple[int, int]
) -> None:
    """ "Not winnable from here: undo 1 move to get back" pushed "Par?" onto a line of its
    own where it did not fit (a phone, a desktop of 1280 px: the table jumped down as the
    verdict changed) and, on a phone on its side, ran over the group limit: there it says
    "Not winnable · undo 1", its sentence the title; where it fits, the sentence."""
    width, height = size
    viewport = {"width": width, "height": height}
    phone = {"has_touch": True, "is_mobile": True} if width < 900 else {}
    for table in _table(chromium_browser, server, viewport, **phone):
        k = _lose_deal_4(table)
        verdict = table.verdict
        moves = f"{k} move" + ("" if k == 1 else "s")
        full, short = (
            f"Not winnable from here: undo {moves} to get back",
            f"Not winnable · undo {k}",
        )
        if width >= 1920:
            expect(verdict).to_have_text(full, timeout=30_000)
            expect(verdict).not_to_have_attribute("title", re.compile("."))
        else:
            expect(verdict).to_have_text(short, timeout=30_000)
            expect(verdict).to_have_attribute("title", full)
        board_top = table.page.locator("#board").bounding_box()["y"]
        assert (
            _boxes_overlap(table.page.locator("#st-verdict"), table.page.locator("#st-limit"))
            is False
        )
        table.screenshot(f"not-winnable-{width}x{height}")
        for _ in range(k):
            table.button("Undo").click()
            table.wait_ready()
        expect(verdict).to_have_text("Winnable", timeout=30_000)
        expect(verdict).not_to_have_attribute("title", re.compile("."))
        assert table.page.locator("#board").bounding_box()["y"] == board_top


def test_a_move_made_in_another_window_is_not_left_without_asking(table: TablePage) -> None:
    """A game with no moves here, moved in another window while the New game dialog was
    open (when this one does not look for changes), was abandoned without "Leave this
    game?": a move counts it as played, and lost."""
    table.open()
    table.open_deal(4)
    table.page.locator("#btn-new").click()  # the dialog stays open while the other plays
    other = TablePage(table.page.context.new_page(), table.server)
    other.open()
    other.wait_ready()
    other.page.locator("#frame").focus()
    other.page.keyboard.press("a")  # the card in cell a to cell e
    other.page.keyboard.press("e")
    other.expect_moves(1)
    other.wait_ready()
    other.page.close()
    table.page.locator("#btn-new-deal").click()
    expect(table.page.locator("#dlg-confirm")).to_be_visible()
    table.page.locator("#btn-confirm-cancel").click()
    current = table.server.get("/api/games/current")
    assert current["deal"] == 4 and current["player_moves"] == 1 and not current["finished"]


def _boxes_overlap(a: Any, b: Any) -> bool:
    one, two = a.bounding_box(), b.bounding_box()
    return bool(
        one["x"] < two["x"] + two["width"]
        and two["x"] < one["x"] + one["width"]
        and one["y"] < two["y"] + two["height"]
        and two["y"] < one["y"] + one["height"]
    )


def test_status_says_how_far_to_undo_when_the_game_is_lost(table: TablePage) -> None:
    k = _lose_deal_4(table)
    moves = f"{k} move" + ("" if k == 1 else "s")
    # the sentence, or at 1280 px, where it does not fit beside par, its short words
    said = re.compile(
        rf"^(Not winnable from here: undo {moves} to get back|Not winnable · undo {k})$"
    )
    expect(table.verdict).to_have_text(said, timeout=30_000)
    table.screenshot("desktop-not-winnable")
    for _ in range(k):
        table.button("Undo").click()
        table.wait_ready()
    expect(table.verdict).to_have_text("Winnable", timeout=30_000)


def test_the_table_says_loading_and_takes_no_action_before_its_game_is_known(
    table: TablePage,
) -> None:
    """On a slow network the table was blank with every button enabled (doing nothing),
    and New game offered Eight Off while another variant's game was in progress."""
    table.open()
    table.open_deal(4, "freecell")
    page = table.page
    held: list[Any] | None = []

    def hold(route: Any) -> None:  # the answer waits until the test lets it go
        if held is not None:
            held.append(route)
        else:
            route.continue_()

    page.route("**/api/games/current*", hold)
    page.goto(table.server.page_url("/"))
    expect(page.locator("#board .board-loading")).to_have_text("Loading…")
    for name in ("btn-new", "btn-open", "btn-undo", "btn-hint", "btn-solve"):
        expect(page.locator(f"#{name}")).to_be_disabled()
    page.locator("body").press("n")
    expect(page.locator("#dlg-new")).to_be_hidden()
    table.screenshot("desktop-loading")
    waiting, held = held or [], None
    for route in waiting:
        route.continue_()
    table.wait_ready()
    expect(page.locator("#board .board-loading")).to_have_count(0)
    expect(page.locator("#btn-new")).to_be_enabled()
    page.locator("#btn-new").click()
    expect(page.locator("#new-variant")).to_have_value("freecell")


def test_a_double_click_on_open_deal_starts_one_game(table: TablePage) -> None:
    table.open()
    before = table.server.get("/api/games/current")["id"]
    table.show_options()
    table.page.get_by_label("Deal number").fill("78")
    table.button("Open deal").dblclick()
    expect(table.page.locator("#st-deal")).to_contain_text("78")
    table.wait_ready()
    with sqlite3.connect(table.server.db) as c:
        opened = c.execute("SELECT deal FROM games WHERE id > ?", (before,)).fetchall()
    c.close()
    assert opened == [("78",)]  # two games of deal 78 were stored
