"""Solver-backed endpoints: hints, the winnability status line, solution replay,
winnable-only deals. Small positions use the real solver; timing-dependent behaviour
(checking, unknown, deals refused) uses a stand-in solver so the tests are exact."""

from __future__ import annotations

import itertools
import threading
import time
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

import eightoff.table as table_module
import eightoff.web.routes.games as games_routes
from eightoff.cards import Card
from eightoff.position import Position
from eightoff.solver import Limits, Lost, Result, Solved, Unknown, solve
from eightoff.web.app import create_app

LOCAL = "http://127.0.0.1"  # a Host the table answers for

# Winnable, but moving the 9♥ into the last free cell ("1i") leaves no move at all.
DOOMED_BOARD = {
    "variant": "eightoff",
    "columns": [
        ["9H"],
        ["AH", "9S", "3S", "2H"],
        ["5H", "6H", "7H"],
        ["KS", "TH", "5S", "TS", "KH", "4S"],
        ["JH", "3H", "4H"],
        [],
        [],
        [],
    ],
    "cells": ["8S", "QS", "JS", "8H", "6S", "7S", "QH", None],
    "foundations": {"C": 13, "S": 2, "H": 0, "D": 13},
}


def new_game(client: TestClient, **body: Any) -> dict[str, Any]:
    r = client.post("/api/games", json=body)
    assert r.status_code == 200, r.text
    return r.json()  # type: ignore[no-any-return]


def settle(client: TestClient, gid: int, timeout: float = 120) -> dict[str, Any]:
    """Poll the status line until the background check is done (as the page does)."""
    deadline = time.monotonic() + timeout
    while True:
        st: dict[str, Any] = client.get(f"/api/games/{gid}/status").json()
        if not st["pending"]:
            return st
        if time.monotonic() > deadline:
            pytest.fail(f"the status check did not finish: {st}")
        time.sleep(0.02)


# ----- hints ------------------------------------------------------------------------------------
def test_hint_level1_lists_the_useful_legal_moves(client: TestClient) -> None:
    g = new_game(client, lesson=4)
    h = client.post(f"/api/games/{g['id']}/hint", json={"level": 1}).json()
    assert h["level"] == 1 and h["moves"]
    assert all(m["card"][0] == "K" for m in h["moves"])  # only Kings can move in lesson 4
    assert {m["notation"] for m in h["moves"]} <= {m["notation"] for m in g["legal_moves"]}
    assert client.get(f"/api/games/{g['id']}").json()["hints"] == 0  # level 1 is free


def test_hint_level2_gives_a_legal_move_that_keeps_the_game_winnable(client: TestClient) -> None:
    g = new_game(client, variant="eightoff", deal=3)
    h = client.post(f"/api/games/{g['id']}/hint", json={"level": 2}).json()
    assert h["level"] == 2 and h["verdict"] == "winnable"
    assert h["move"]["notation"] in {m["notation"] for m in g["legal_moves"]}
    assert Card.parse(h["move"]["card"]).symbol in h["reason"]
    assert "The solver wins in" in h["reason"]
    after = client.post(f"/api/games/{g['id']}/move", json={"move": h["move"]["notation"]}).json()
    assert after["hints"] == 1
    assert client.get("/api/stats").json()["eightoff"]["hints"] == 1
    assert settle(client, g["id"])["verdict"] == "winnable"


def test_hint_level2_on_a_lost_position_says_so(client: TestClient) -> None:
    g = new_game(client, board=DOOMED_BOARD)
    lost = client.post(f"/api/games/{g['id']}/move", json={"move": "1i"}).json()
    assert lost["lost"] and lost["legal_moves"] == []
    h = client.post(f"/api/games/{g['id']}/hint", json={"level": 2}).json()
    assert h["move"] is None and h["verdict"] == "not_winnable" and "undo" in h["reason"]
    assert client.get(f"/api/games/{g['id']}").json()["hints"] == 0


# ----- status ------------------------------------------------------------------------------------
def test_status_winnable_for_a_lesson(client: TestClient) -> None:
    g = new_game(client, lesson=2)
    st = settle(client, g["id"])
    assert st["verdict"] == "winnable" and st["message"] == "Winnable"
    assert st["undo_to_winnable"] is None


def test_status_counts_the_undos_back_to_a_winnable_position(client: TestClient) -> None:
    g = new_game(client, board=DOOMED_BOARD)
    assert settle(client, g["id"])["verdict"] == "winnable"
    client.post(f"/api/games/{g['id']}/move", json={"move": "1i"})
    st = settle(client, g["id"])
    assert st == {
        "verdict": "not_winnable",
        "undo_to_winnable": 1,
        "message": "Not winnable from here: undo 1 move to get back",
        "pending": False,
        "certain": False,
        "turns": 1,
        "revision": 1,
    }
    client.post(f"/api/games/{g['id']}/undo", json={})
    st = client.get(f"/api/games/{g['id']}/status").json()  # known already: no wait
    assert st["verdict"] == "winnable" and not st["pending"]


def test_status_of_the_unwinnable_freecell_deal(client: TestClient) -> None:
    g = new_game(client, variant="freecell", deal=11982)
    st = settle(client, g["id"])
    assert st["verdict"] == "not_winnable" and st["undo_to_winnable"] is None
    assert st["message"] == "No play wins this deal"
    after = client.post(
        f"/api/games/{g['id']}/move", json={"move": g["legal_moves"][0]["notation"]}
    ).json()
    assert after["turns"] == 1
    st = client.get(f"/api/games/{g['id']}/status").json()  # follows from the start's verdict
    assert st["message"] == "Not winnable from here, nor from the start of this game"


def test_status_of_a_won_game(client: TestClient) -> None:
    g = new_game(client, lesson=1)
    for text in ("12", "24x2"):
        client.post(f"/api/games/{g['id']}/move", json={"move": text})
    st = client.get(f"/api/games/{g['id']}/status").json()
    assert st["verdict"] == "won" and not st["pending"]


# ----- solution replay -------------------------------------------------------------------------
def replay(client: TestClient, gid: int, solution: dict[str, Any]) -> dict[str, Any]:
    """Step through the solution's turns as API.md tells the page to."""
    game: dict[str, Any] = {}
    for turn in solution["turns"]:
        r = client.post(
            f"/api/games/{gid}/move", json={"move": turn[0]["notation"], "auto": len(turn) > 1}
        )
        assert r.status_code == 200, r.text
        game = r.json()
        assert [m["notation"] for m in game["last_turn"]] == [m["notation"] for m in turn]
    return game


@pytest.mark.parametrize("body", [{"lesson": 3}, {"variant": "eightoff", "deal": 3}])
def test_stepping_the_solution_through_the_table_wins(
    client: TestClient, body: dict[str, Any]
) -> None:
    g = new_game(client, **body)
    sol = client.post(f"/api/games/{g['id']}/solution", json={}).json()
    assert sol["verdict"] == "winnable"
    flat = [m["notation"] for turn in sol["turns"] for m in turn]
    assert flat == [m["notation"] for m in sol["moves"]]
    end = replay(client, g["id"], sol)
    assert end["won"] and end["status"] == "won"


def test_solution_of_a_lost_position(client: TestClient) -> None:
    g = new_game(client, board=DOOMED_BOARD)
    client.post(f"/api/games/{g['id']}/move", json={"move": "1i"})
    sol = client.post(f"/api/games/{g['id']}/solution", json={}).json()
    assert sol["verdict"] == "not_winnable" and sol["moves"] == [] and sol["reason"]


# ----- with a stand-in solver ------------------------------------------------------------------
class Scripted:
    """A solver that answers from a script, optionally waiting for a go-ahead."""

    def __init__(self, answers: list[str], gate: threading.Event | None = None) -> None:
        self.answers = answers
        self.gate = gate
        self.calls = 0

    def __call__(self, position: Position, limits: Limits) -> Result:
        if threading.current_thread().name == "eightoff-speculate":
            return Unknown(1, 0.0)  # the oracle's look-ahead: not part of the script
        if self.gate is not None:
            assert self.gate.wait(60)
        verdict = self.answers[min(self.calls, len(self.answers) - 1)]
        self.calls += 1
        if verdict == "solved":  # a real solution: the table replays it before it trusts it
            result = solve(position, Limits(seconds=30))
            assert isinstance(result, Solved), "the scripted deals are all winnable"
            return result
        if verdict == "lost":
            return Lost(1, 0.0)
        return Unknown(1, 0.0)


@pytest.fixture(autouse=True)
def winnable_draws(monkeypatch: pytest.MonkeyPatch) -> None:
    """Random deals drawn in order 1, 2, 3, … (Eight Off deals 1-100 are all winnable),
    so that a scripted "solved" is true and its real solution exists."""
    numbers = itertools.count(1)

    def draw(rng: object = None, *, ms_range: bool = False) -> int:
        return next(numbers)

    monkeypatch.setattr(games_routes, "random_deal_number", draw)
    monkeypatch.setattr(table_module, "random_deal_number", draw)


def scripted_client(tmp_path: Path, solver: Scripted) -> TestClient:
    app = create_app(tmp_path / "s.sqlite3", solver=solver, winnable_tries=5, winnable_budget=100.0)
    return TestClient(app, base_url=LOCAL)


def test_status_is_checking_while_the_solver_works(tmp_path: Path) -> None:
    gate = threading.Event()
    solver = Scripted(["solved"], gate)
    with scripted_client(tmp_path, solver) as c:
        g = new_game(c, deal=5)
        st = c.get(f"/api/games/{g['id']}/status").json()
        assert st == {
            "verdict": "checking",
            "undo_to_winnable": None,
            "message": "Checking…",
            "pending": True,
            "certain": False,
            "turns": 0,
            "revision": 0,
        }
        # the table stays responsive meanwhile: a move is answered
        r = c.post(f"/api/games/{g['id']}/move", json={"move": g["legal_moves"][0]["notation"]})
        assert r.status_code == 200
        gate.set()
        assert settle(c, g["id"])["verdict"] == "winnable"


def test_status_unknown_when_the_solver_gives_up(tmp_path: Path) -> None:
    with scripted_client(tmp_path, Scripted(["unknown"])) as c:
        g = new_game(c, deal=5)
        st = settle(c, g["id"])
        assert st["verdict"] == "unknown" and "could not decide" in st["message"]


def test_winnable_only_draws_until_a_deal_is_proved_winnable(tmp_path: Path) -> None:
    solver = Scripted(["lost", "unknown", "solved"])
    with scripted_client(tmp_path, solver) as c:
        g = new_game(c, winnable_only=True)
        assert g["deal_check"] == {"verdict": "winnable", "deals_tried": 3}
        assert solver.calls == 3
        # the verdict is cached: the status line knows at once
        st = c.get(f"/api/games/{g['id']}/status").json()
        assert st["verdict"] == "winnable" and solver.calls == 3


def test_winnable_only_gives_up_after_its_tries(tmp_path: Path) -> None:
    with scripted_client(tmp_path, Scripted(["unknown"])) as c:
        g = new_game(c, winnable_only=True)
        assert g["deal_check"] == {"verdict": "unknown", "deals_tried": 5}


def test_winnable_only_follows_the_setting(tmp_path: Path) -> None:
    solver = Scripted(["solved"])
    with scripted_client(tmp_path, solver) as c:
        assert "deal_check" not in new_game(c)
        c.put("/api/settings", json={"winnable_only": True})
        assert new_game(c)["deal_check"]["verdict"] == "winnable"
        assert "deal_check" not in new_game(c, winnable_only=False)


class Refusing:
    """The real solver, except that while ``refuse`` is set its solutions are empty (the
    rules refuse them: cards are left), as a bug in the compiled core would be."""

    def __init__(self) -> None:
        self.refuse = True

    def __call__(self, position: Position, limits: Limits) -> Result:
        result = solve(position, limits)
        if self.refuse and isinstance(result, Solved):
            return Solved((), result.states, result.seconds)
        return result


def test_a_solution_the_rules_refuse_is_a_503_and_never_remembered(tmp_path: Path) -> None:
    """The solver's word is checked: a solution that does not replay through the rules
    is a one-line 503 naming the cause, the position is not remembered as winnable (once
    the solver is right again, it is searched again and answered), and nothing of the
    game changes."""
    solver = Refusing()
    app = create_app(tmp_path / "s.sqlite3", solver=solver)
    with TestClient(app, base_url=LOCAL) as c:
        g = new_game(c, deal=5)
        r = c.post(f"/api/games/{g['id']}/solution", json={})
        assert r.status_code == 503, r.text
        body = r.json()
        assert body["code"] == "solver" and "\n" not in body["error"]
        assert "cards left" in body["detail"]
        assert c.get(f"/api/games/{g['id']}").json()["revision"] == g["revision"]
        solver.refuse = False
        sol = c.post(f"/api/games/{g['id']}/solution", json={}).json()
        assert sol["verdict"] == "winnable" and sol["moves"]
