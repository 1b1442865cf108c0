"""The move counter shows player moves (issues 22.1, 23.5): the cards auto-move sends home
are not counted, one Undo takes back one move, and a win says the moves the player made.
Before, a player who made 29 moves was told "won in 80 moves" and Undo went 13 → 9."""

from __future__ import annotations

import re

from playwright.sync_api import expect

from eightoff.game import Game
from eightoff.position import Kind
from eightoff.solver import DEFAULT_LIMITS, Solved, solve
from eightoff.store import Store
from eightoff.table import Table
from eightoff.web.serialize import turns_json

from .conftest import TablePage
from .test_table import pick


def test_the_counter_skips_auto_moves_and_undo_takes_back_one(table: TablePage) -> None:
    table.open()
    table.open_deal(19)
    dealt = Game.new("eightoff", 19)
    dealt.auto_home()  # the table sends the safe cards home as part of the deal
    game = Game(dealt.position)
    table.wait_board(game.position)
    table.expect_moves(0)
    # column 8's top card onto column 4: four cards go home after it by auto-move
    move = game.position.parse_move("84")
    table.click_move(game.position, move)
    turn = game.play(move)
    assert len(turn.auto) == 4
    table.wait_board(game.position)
    table.expect_moves(1)
    expect(table.page.locator("#st-moves")).to_have_attribute(
        "title", re.compile(r"^Player moves: the cards auto-move sends home, .* are not counted$")
    )
    table.screenshot("desktop-counter-after-auto-moves")
    seen = set(game.positions())
    for n in (2, 3):
        move = pick(game.position, seen)
        table.click_move(game.position, move)
        game.play(move)
        seen.add(game.position)
        table.wait_board(game.position)
        table.expect_moves(n)
    for n in (2, 1, 0):
        table.button("Undo").click()
        table.expect_moves(n)
    table.wait_board(game.start)
    expect(table.page.locator("#announce")).to_contain_text("0 moves made")


def test_the_win_says_the_moves_the_player_made(table: TablePage) -> None:
    """Deal 3 is played up to its last move through the store (the one truth the page
    reads); the player makes the winning move by click and is told every move made by
    hand, not the cards auto-move sent home."""
    table.open()
    table.open_deal(3)
    service = Table(Store(table.server.db))
    state = service.current()
    solution = solve(state.position, DEFAULT_LIMITS)
    assert isinstance(solution, Solved)
    steps = turns_json(state.position, solution.moves)
    by_hand = [i for i, s in enumerate(steps) if s[0]["target"]["kind"] != "foundation"]
    last = by_hand[-1]
    for step in steps[:last]:
        state, _ = service.move(state.id, str(step[0]["notation"]), auto_move=len(step) > 1)
    made = state.game.player_moves
    assert made == len(by_hand) - 1
    table.reload()
    table.wait_board(state.position)
    table.expect_moves(made)
    final = state.position.parse_move(str(steps[last][0]["notation"]))
    assert final.target.kind is not Kind.FOUNDATION
    table.click_move(state.position, final)
    won = table.page.get_by_role("dialog", name="You won!")
    expect(won).to_be_visible(timeout=30_000)
    expect(won).to_contain_text(f"won in {made + 1} moves")
    assert made + 1 < len(solution.moves)  # what the counter used to say
    table.screenshot("desktop-won-player-moves")
    table.button("Close").click()
    table.expect_moves(made + 1)
    table.button("Stats").click()
    stats = table.page.get_by_role("dialog", name="Statistics")
    row = stats.get_by_role("row", name=re.compile("^Eight Off"))
    expect(row.locator("td").nth(6)).to_have_text(str(made + 1))  # fewest moves
