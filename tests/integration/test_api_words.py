"""Issue 11: honest statistics (assisted games, per variant and house rules), house rules
respected by the solver's help, the right words for a deal lost from the start, safe
cards home at the deal, and answers in the player's language."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient

from eightoff.boards import from_json
from eightoff.deals import deal
from eightoff.solver import Solved, solve
from tests.integration.test_api_solver import new_game

LOCAL = "http://127.0.0.1"
GERMAN = {"Accept-Language": "de-DE,de;q=0.9,en;q=0.5"}


def play(client: TestClient, gid: int, notations: list[str]) -> dict[str, Any]:
    game: dict[str, Any] = {}
    for n in notations:
        r = client.post(f"/api/games/{gid}/move", json={"move": n, "auto": False})
        assert r.status_code == 200, r.text
        game = r.json()
    return game


def play_turns(client: TestClient, gid: int, turns: list[list[dict[str, Any]]]) -> dict[str, Any]:
    """Step through a solution as the table's replay does ("Play to end")."""
    game: dict[str, Any] = {}
    for turn in turns:
        body = {"move": turn[0]["notation"], "auto": len(turn) > 1}
        r = client.post(f"/api/games/{gid}/move", json=body)
        assert r.status_code == 200, r.text
        game = r.json()
    return game


# ----- honest statistics -----------------------------------------------------------------------
def test_a_game_finished_by_the_solution_is_assisted_not_won(client: TestClient) -> None:
    g = new_game(client, variant="eightoff", deal=3)
    sol = client.post(f"/api/games/{g['id']}/solution", json={}).json()
    assert sol["verdict"] == "winnable" and sol["assisted"] is True
    end = play_turns(client, g["id"], sol["turns"])
    assert end["won"] and end["assisted"] is True
    st = client.get("/api/stats").json()["eightoff"]
    assert (st["played"], st["won"], st["assisted"], st["streak"]) == (1, 0, 1, 0)
    assert st["hints"] == 1 and st["fewest_moves"] is None


def test_a_game_won_without_the_solution_counts_as_won(client: TestClient) -> None:
    g = new_game(client, variant="eightoff", deal=3)
    # the player's own play, not asked of the table: solve the table's start (with the
    # safe cards home already) here
    start = g["columns"], g["cells"]
    board = {"variant": "eightoff", "columns": start[0], "cells": start[1]}
    board["foundations"] = {f["suit"]: f["top"] for f in g["foundations"]}
    mine = solve(from_json(board, deal("eightoff", 3).rules))
    assert isinstance(mine, Solved)
    end = play(client, g["id"], [str(m) for m in mine.moves])
    assert end["won"] and end["assisted"] is False
    st = client.get("/api/stats").json()["eightoff"]
    assert (st["played"], st["won"], st["assisted"], st["streak"]) == (1, 1, 0, 1)
    assert st["fewest_moves"] == end["player_moves"]


def test_statistics_are_kept_per_variant_and_house_rules(client: TestClient) -> None:
    g = new_game(client, variant="eightoff", deal=5, foundation_retrieval=True)
    assert g["house_rules"] == ["foundation_retrieval"]
    play(client, g["id"], [g["legal_moves"][0]["notation"]])
    h = new_game(client, variant="freecell", deal=5, strict_single=True)
    play(client, h["id"], [h["legal_moves"][0]["notation"]])
    stats = client.get("/api/stats").json()
    assert stats["eightoff"]["played"] == 0 and stats["freecell"]["played"] == 0
    line = stats["eightoff+foundation_retrieval"]
    assert line["variant"] == "eightoff" and line["house_rules"] == ["foundation_retrieval"]
    assert line["played"] == 1
    assert stats["freecell+strict_single"]["played"] == 1


# ----- house rules respected by the solver's help ---------------------------------------------
def test_hints_and_solutions_keep_strict_single_card_moves(client: TestClient) -> None:
    g = new_game(client, variant="freecell", deal=3, strict_single=True)
    assert g["options"]["strict_single"] is True
    assert all(m["count"] == 1 for m in g["legal_moves"])
    h = client.post(f"/api/games/{g['id']}/hint", json={"level": 2}).json()
    assert h["move"]["count"] == 1
    sol = client.post(f"/api/games/{g['id']}/solution", json={}).json()
    assert sol["verdict"] == "winnable" and all(m["count"] == 1 for m in sol["moves"])
    assert play_turns(client, g["id"], sol["turns"])["won"]


# ----- right words -----------------------------------------------------------------------------
def test_a_deal_lost_from_the_start_says_no_play_wins_without_undo(client: TestClient) -> None:
    g = new_game(client, variant="eightoff", deal=465)
    assert not g["can_undo"]
    h = client.post(f"/api/games/{g['id']}/hint", json={"level": 2}).json()
    assert h["move"] is None and h["verdict"] == "not_winnable"
    assert h["reason"] == "No play wins this deal" and "undo" not in h["reason"].lower()
    sol = client.post(f"/api/games/{g['id']}/solution", json={}).json()
    assert sol["reason"] == "No play wins this deal"
    de = client.post(f"/api/games/{g['id']}/hint", json={"level": 2}, headers=GERMAN).json()
    assert de["reason"] == "Dieses Spiel ist mit keiner Zugfolge zu gewinnen"


def test_with_auto_move_on_safe_cards_go_home_at_the_deal(client: TestClient) -> None:
    dealt = deal("eightoff", 2)
    assert dealt.safe_auto_move() is not None  # an Ace is free at the deal
    g = new_game(client, variant="eightoff", deal=2)
    assert any(f["top"] for f in g["foundations"])
    assert not g["can_undo"] and g["player_moves"] == 0
    again = client.post(f"/api/games/{g['id']}/restart", json={}).json()
    assert again["foundations"] == g["foundations"]  # the start is the start
    client.put("/api/settings", json={"auto_move": False})
    off = new_game(client, variant="eightoff", deal=2)
    assert not any(f["top"] for f in off["foundations"])


# ----- the player's language -------------------------------------------------------------------
def test_german_requests_get_german_words(client: TestClient) -> None:
    r = client.post("/api/games", json={"variant": "eightoff", "deal": 3}, headers=GERMAN)
    g = r.json()
    assert g["language"] == "de" and g["variant_name"] == "Eight Off"
    assert "Karte" in g["group_limit"]["words"]
    bad = next(
        f"{s}{t}"
        for s in "12345678"
        for t in "12345678"
        if s != t and f"{s}{t}" not in {m["notation"] for m in g["legal_moves"]}
    )
    en = client.post(f"/api/games/{g['id']}/move", json={"move": bad}).json()
    de = client.post(f"/api/games/{g['id']}/move", json={"move": bad}, headers=GERMAN).json()
    assert en["code"] == de["code"] == "illegal_move"
    assert de["error"] != en["error"] and de["error"]
    assert (
        client.get("/api/variants", headers=GERMAN).json()[0]["rules"]
        != (client.get("/api/variants").json()[0]["rules"])
    )


def test_the_language_setting_is_remembered_and_checked(client: TestClient) -> None:
    assert client.put("/api/settings", json={"language": "de"}).json()["language"] == "de"
    assert client.get("/api/settings").json()["language"] == "de"
    r = client.put("/api/settings", json={"language": "fr"})
    assert r.status_code == 422 and "language" in r.json()["error"]


def test_the_rules_page_speaks_german_to_german_readers(client: TestClient) -> None:
    de = client.get("/rules", headers=GERMAN)
    en = client.get("/rules")
    assert de.status_code == en.status_code == 200
    assert '<html lang="de">' in de.text and '<html lang="en">' in en.text
    assert '<html lang="de">' in client.get("/rules?lang=de").text
