"""Issue 12 point 4: ratings at the table. A game started from a deal carries the deal's
rating (computed once, stored with the game); a new game can ask for a difficulty; the
daily deal is the same for everyone on one UTC date; statistics per difficulty level."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest
from fastapi.testclient import TestClient

from eightoff.boards import from_json
from eightoff.deals import deal
from eightoff.rating import daily_deal, rate
from eightoff.solver import Solved, solve
from tests.integration.test_api_solver import new_game

LOCAL = "http://127.0.0.1"


@pytest.mark.parametrize(("variant", "level"), [("eightoff", "Hard"), ("freecell", "Easy")])
def test_a_new_game_at_a_difficulty_is_a_deal_of_that_rating(
    client: TestClient, variant: str, level: str
) -> None:
    g = new_game(client, variant=variant, difficulty=level.lower())
    assert g["rating"]["level"] == level
    assert rate(g["deal"], variant).level.value == level  # the deal really rates so
    again = client.get(f"/api/games/{g['id']}").json()
    assert again["rating"] == g["rating"]  # stored with the game, not rated again
    assert g["daily"] is None


def test_a_numbered_deal_has_its_rating_and_a_board_or_lesson_has_none(
    client: TestClient,
) -> None:
    assert new_game(client, deal=2)["rating"]["level"] == rate(2).level.value
    assert new_game(client, lesson=1)["rating"] is None
    board = new_game(client, deal=5)
    custom = {"variant": "eightoff", "columns": board["columns"], "cells": board["cells"]}
    custom["foundations"] = {f["suit"]: f["top"] for f in board["foundations"]}
    assert new_game(client, board=custom)["rating"] is None


def test_the_daily_deal_is_one_deal_per_date_and_variant_with_its_rating(
    client: TestClient,
) -> None:
    today = dt.datetime.now(dt.UTC).date()
    first = new_game(client, daily=True)
    second = new_game(client, daily=True)
    assert first["id"] != second["id"]
    assert first["deal"] == second["deal"] == daily_deal("eightoff", today)
    assert first["daily"] == second["daily"] == today.isoformat()
    assert first["rating"]["level"] == rate(first["deal"]).level.value
    fc = new_game(client, variant="freecell", daily=True)
    assert fc["deal"] == daily_deal("freecell", today) and fc["rating"] is not None


@pytest.mark.parametrize(
    "body",
    [
        {"difficulty": "Impossible"},
        {"difficulty": "Not winnable"},
        {"difficulty": "Easy", "deal": 3},
        {"daily": True, "difficulty": "Easy"},
    ],
)
def test_a_bad_difficulty_is_one_line_and_starts_nothing(
    client: TestClient, body: dict[str, Any]
) -> None:
    r = client.post("/api/games", json=body)
    assert r.status_code == 400 and "\n" not in r.json()["error"]
    assert client.get("/api/games/current?optional=true").json() is None


def test_statistics_count_played_and_won_per_difficulty(client: TestClient) -> None:
    won = new_game(client, deal=3)
    level = won["rating"]["level"]
    board = {"variant": "eightoff", "columns": won["columns"], "cells": won["cells"]}
    board["foundations"] = {f["suit"]: f["top"] for f in won["foundations"]}
    mine = solve(from_json(board, deal("eightoff", 3).rules))
    assert isinstance(mine, Solved)
    for m in mine.moves:
        r = client.post(f"/api/games/{won['id']}/move", json={"move": str(m), "auto": False})
        assert r.status_code == 200, r.text
    assert r.json()["won"]
    lost = new_game(client, difficulty="Grandmaster")
    move = lost["legal_moves"][0]["notation"]
    assert client.post(f"/api/games/{lost['id']}/move", json={"move": move}).status_code == 200
    new_game(client, deal=4)  # not played: not counted
    levels = client.get("/api/stats").json()["eightoff"]["levels"]
    expected: dict[str, dict[str, Any]] = {level: {"played": 1, "won": 1, "over_par": None}}
    grand = expected.setdefault("Grandmaster", {"played": 0, "won": 0, "over_par": None})
    grand["played"] += 1
    assert levels == expected  # over par: no par was asked for
