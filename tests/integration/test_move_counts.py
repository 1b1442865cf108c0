"""The table counts player moves (issue 22.1, 23.5): a player who makes N moves sees N in
the counter, in the win and in the statistics' fewest moves; one Undo takes back one.
Before, the counter counted the cards auto-move sent home ("won in 80 moves" for 29)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from fastapi.testclient import TestClient

from eightoff.lessons import LESSONS
from eightoff.position import Kind, Move
from eightoff.solver import DEFAULT_LIMITS, Solved, solve
from eightoff.store import Store
from eightoff.table import Table
from eightoff.web.app import create_app
from eightoff.web.serialize import turns_json

LOCAL = "http://127.0.0.1"


def notation(m: dict[str, Any]) -> Move:
    return Move.parse(str(m["notation"]))


def replay_step(c: TestClient, gid: int, step: list[dict[str, Any]]) -> tuple[dict[str, Any], int]:
    """Play one step of a solution as the page does; the game, and 1 if the step is a
    move the player makes by hand (not a card sent home: Eight Off builds in suit, so
    every card that can go home is safe)."""
    first = step[0]
    game = c.post(
        f"/api/games/{gid}/move", json={"move": first["notation"], "auto": len(step) > 1}
    ).json()
    return game, int(first["target"]["kind"] != "foundation")


def test_a_player_who_wins_in_n_moves_is_told_n_and_it_is_the_fewest(tmp_path: Path) -> None:
    """Eight Off builds in suit, so every card that can go home is safe: the player never
    sends a card home by hand, auto-move does. The player's moves are the replay's steps
    that are not a card sent home."""
    table = Table(Store(tmp_path / "t.sqlite3"))
    game = table.start_deal("eightoff", 3)
    solution = solve(game.position, DEFAULT_LIMITS)
    assert isinstance(solution, Solved)
    steps = turns_json(game.position, solution.moves)
    made = 0
    for step in steps:
        first = notation(step[0])
        game, _ = table.move(game.id, first, auto_move=len(step) > 1)
        made += first.target.kind is not Kind.FOUNDATION
        assert game.game.player_moves == made  # the counter after every move
    assert game.status == "won" and game.position.is_won()
    assert made < len(solution.moves)  # the old counter said len(solution.moves)
    assert game.game.single_card_moves >= len(solution.moves)
    assert table.stats()["eightoff"].fewest_moves == made


def test_one_undo_takes_the_counter_back_by_one(tmp_path: Path) -> None:
    """Undo a move that sent cards home with it: the counter goes back by one (it went
    from 13 to 9 when it counted the auto-moves)."""
    table = Table(Store(tmp_path / "t.sqlite3"))
    game = table.start_deal("eightoff", 3)
    solution = solve(game.position, DEFAULT_LIMITS)
    assert isinstance(solution, Solved)
    steps = turns_json(game.position, solution.moves)
    for i, step in enumerate(steps):
        game, turn = table.move(game.id, notation(step[0]), auto_move=len(step) > 1)
        if i >= 3 and turn.auto and turn.move.target.kind is not Kind.FOUNDATION:
            break
    before = game.game.counts
    assert before.player >= 4 and len(turn.auto) >= 1
    game, undone = table.undo(game.id)
    assert undone == turn
    assert game.game.player_moves == before.player - 1
    assert game.game.single_card_moves == before.single_card - len(turn.moves)
    game, _ = table.redo(game.id)
    assert game.game.counts == before


def test_with_auto_move_off_each_card_the_player_sends_home_counts(tmp_path: Path) -> None:
    table = Table(Store(tmp_path / "t.sqlite3"))
    table.put_settings({"auto_move": False})
    first = LESSONS[0]
    state = table.start_lesson(first.id)
    state, _ = table.move(state.id, first.walkthrough[0])
    assert state.game.player_moves == 1
    state, turn = table.finish(state.id, complete=False)  # "send the safe cards home"
    assert state.game.player_moves == 1 + len(turn.moves)
    state, _ = table.undo(state.id)
    assert state.game.player_moves == 1
    table.put_settings({"auto_move": True})
    state, turn = table.finish(state.id, complete=False)  # with it on: what auto-move does
    assert len(turn.moves) > 1 and state.game.player_moves == 1


def test_the_api_counts_player_moves_through_a_whole_replayed_deal(tmp_path: Path) -> None:
    """The table's solution replay: each step one request, as the page sends it."""
    with TestClient(create_app(tmp_path / "t.sqlite3"), base_url=LOCAL) as c:
        g = c.post("/api/games", json={"variant": "eightoff", "deal": 5}).json()
        sol = c.post(f"/api/games/{g['id']}/solution", json={}).json()
        assert sol["verdict"] == "winnable"
        made = 0
        for step in sol["turns"]:
            g, by_hand = replay_step(c, g["id"], step)
            made += by_hand
            assert g["player_moves"] == made
        assert g["won"] and g["player_moves"] == sol["player_moves"] == made
        assert g["single_card_moves"] == sol["single_card_moves"] >= len(sol["moves"])
        assert made < len(sol["moves"])
        stats = c.get("/api/stats").json()["eightoff"]
        assert stats["fewest_moves"] is None  # the solution was shown: assisted, not won
        assert stats["assisted"] == 1


def test_a_hand_won_game_sets_the_fewest_moves_in_player_moves(tmp_path: Path) -> None:
    with TestClient(create_app(tmp_path / "t.sqlite3"), base_url=LOCAL) as c:
        g = c.post("/api/games", json={"variant": "eightoff", "deal": 3}).json()
        start = Table(Store(tmp_path / "t.sqlite3")).get(g["id"]).position
        solution = solve(start, DEFAULT_LIMITS)
        assert isinstance(solution, Solved)
        made = 0
        for step in turns_json(start, solution.moves):
            g, by_hand = replay_step(c, g["id"], step)
            made += by_hand
        assert g["won"] and g["player_moves"] == made
        assert c.get("/api/stats").json()["eightoff"]["fewest_moves"] == made
