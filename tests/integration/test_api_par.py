"""Par at the table (issue 22.5): ``GET /api/games/{id}/par`` says a deal's par after a
win ("Par 14 — you took 16") or on request during play, searched once in the
background and kept in the store; a search the limits stop says bounds, a failed one
"par unknown", never a 500; ``POST /api/games/{id}/par/replay`` starts a game that
steps through the par solution and is never counted in the statistics."""

from __future__ import annotations

import sqlite3
import threading
import time
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

import eightoff.oracle as oracle_module
from eightoff.counts import count
from eightoff.solver import DEFAULT_LIMITS, Solved, solve
from eightoff.solver.optimal import optimal
from eightoff.table import Table
from eightoff.web.app import create_app
from eightoff.web.serialize import turns_json

LOCAL = "http://127.0.0.1"
GERMAN = {"Accept-Language": "de"}


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    app = create_app(tmp_path / "t.sqlite3", status_seconds=5, hint_seconds=10)
    with TestClient(app, base_url=LOCAL) as c:
        yield c


def new_game(client: TestClient, **body: Any) -> dict[str, Any]:
    r = client.post("/api/games", json=body)
    assert r.status_code == 200, r.text
    return r.json()  # type: ignore[no-any-return]


def table_of(client: TestClient) -> Table:
    table: Table = client.app.state.services.table  # type: ignore[attr-defined]
    return table


def win_by_hand(client: TestClient, gid: int) -> dict[str, Any]:
    """Win the game with the ordinary solver's moves, sent as a player sends them (no
    hint, no solution asked: a win of the player's own)."""
    state = table_of(client).get(gid)
    found = solve(state.position, DEFAULT_LIMITS)
    assert isinstance(found, Solved)
    game: dict[str, Any] = {}
    for turn in turns_json(state.position, found.moves):
        r = client.post(
            f"/api/games/{gid}/move", json={"move": turn[0]["notation"], "auto": len(turn) > 1}
        )
        assert r.status_code == 200, r.text
        game = r.json()
    assert game["won"]
    return game


def par_of(
    client: TestClient,
    gid: int,
    *,
    retry: str | None = None,
    longer: str | None = None,
    **headers: str,
) -> dict[str, Any]:
    """Ask for par as the page does: until it is no longer pending (``retry``: the first
    request is a "Try again"; ``longer``: a "Search longer")."""
    deadline = time.monotonic() + 120
    params: dict[str, Any] = {"wait": 5}
    if retry is not None:
        params["retry"] = retry
    if longer is not None:
        params["longer"] = longer
    while True:
        r = client.get(f"/api/games/{gid}/par", params=params, headers=headers)
        params = {"wait": 5}
        assert r.status_code == 200, r.text
        answer: dict[str, Any] = r.json()
        if answer["state"] != "pending":
            return answer
        assert time.monotonic() < deadline, answer


def par_rows(db: Path) -> list[tuple[Any, ...]]:
    con = sqlite3.connect(db)
    try:
        return con.execute("SELECT variant, count, optimal, lower, upper FROM par").fetchall()
    finally:
        con.close()


def test_after_a_win_par_is_said_beside_the_moves_taken_and_kept(
    client: TestClient, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    g = new_game(client, variant="eightoff", deal=2)
    won = win_by_hand(client, g["id"])
    took = won["player_moves"]
    answer = par_of(client, g["id"])
    assert answer["state"] == "proven" and answer["par"] == 14
    assert answer["lower_bound"] == answer["upper_bound"] == 14
    assert answer["player_moves"] == took and answer["over_par"] == took - 14
    assert answer["solution"] is True and answer["short"] == "Par 14"
    if took == 14:
        assert answer["text"] == "Par 14 — you matched par!"
    else:
        assert answer["text"] == f"Par 14 — you took {took}"
    assert par_rows(tmp_path / "t.sqlite3") == [("eightoff", "player", 1, 14, 14)]

    # kept: asked again (in German) it is read from the store, not searched again
    def no_search(*args: Any, **kwargs: Any) -> Any:
        raise AssertionError("par was searched again")

    monkeypatch.setattr(oracle_module, "optimal", no_search)
    again = client.get(f"/api/games/{g['id']}/par", headers=GERMAN).json()
    assert again["state"] == "proven" and again["par"] == 14
    assert again["text"].startswith("Par 14 – du hast")
    # a new game of the same deal finds it too
    other = new_game(client, variant="eightoff", deal=2)
    assert par_of(client, other["id"])["text"] == "Par 14"


def test_a_win_with_auto_move_off_is_compared_with_par_as_par_counts_it(
    client: TestClient,
) -> None:
    """Par counts with safe auto-move on. A game won with auto-move off (every card home
    a move on the counter) is compared with par in par's count, and the words say what
    the counter showed too; the statistics' fewest moves are the same figure."""
    assert client.put("/api/settings", json={"auto_move": False}).status_code == 200
    g = new_game(client, variant="eightoff", deal=2)
    start = table_of(client).get(g["id"]).position
    found = solve(start, DEFAULT_LIMITS)
    assert isinstance(found, Solved)
    game: dict[str, Any] = {}
    for move in found.moves:  # one at a time, the safe cards home by hand too
        r = client.post(f"/api/games/{g['id']}/move", json={"move": str(move)})
        assert r.status_code == 200, r.text
        game = r.json()
    assert game["won"]
    shown = game["player_moves"]
    as_par = count(start, found.moves).player  # with safe auto-move on
    assert shown > as_par > 14
    answer = par_of(client, g["id"])
    assert answer["state"] == "proven" and answer["par"] == 14
    assert (answer["player_moves"], answer["player_moves_as_par"]) == (shown, as_par)
    assert answer["over_par"] == as_par - 14
    assert answer["text"] == (
        f"Par 14 — you took {as_par} (counted as par is, with safe auto-move on;"
        f" the counter showed {shown} with auto-move off)"
    )
    assert answer["short"] == "Par 14"
    german = client.get(f"/api/games/{g['id']}/par", headers=GERMAN).json()
    assert german["text"] == (
        f"Par 14 – du hast {as_par} gebraucht (gezählt wie Par, mit automatischem Ablegen;"
        f" der Zähler zeigte ohne automatisches Ablegen {shown})"
    )
    stats = client.get("/api/stats").json()["eightoff"]
    assert stats["fewest_moves"] == as_par
    assert stats["over_par"] == {"games": 1, "average": as_par - 14, "best": as_par - 14}


def test_par_on_request_during_play_is_the_deals_par(client: TestClient) -> None:
    g = new_game(client, variant="eightoff", deal=3)
    client.post(f"/api/games/{g['id']}/move", json={"move": g["legal_moves"][0]["notation"]})
    answer = par_of(client, g["id"])
    assert answer["state"] == "proven" and answer["par"] == 14
    assert answer["player_moves"] is None and answer["over_par"] is None
    assert answer["text"] == "Par 14"


def test_par_is_pending_while_the_search_runs(client: TestClient) -> None:
    g = new_game(client, variant="eightoff", deal=19)
    r = client.get(f"/api/games/{g['id']}/par", params={"wait": 0})
    assert r.status_code == 200
    assert r.json()["state"] == "pending"
    assert r.json()["text"] == "Working out par (up to 20 seconds)…"
    assert par_of(client, g["id"])["state"] == "proven"


@pytest.mark.parametrize(
    ("path", "status", "code", "words"),
    [
        ("/api/games/999/par", 404, "no_game", ""),
        ("/api/games/0/par", 404, "no_game", ""),
        ("/api/games/99999999999999999999999/par", 404, "no_game", ""),
        ("/api/games/x/par", 422, "bad_request", ""),
        # (pydantic's own English was "Input should be a valid number, unable to parse…")
        ("/api/games/{id}/par?wait=abc", 422, "bad_request", "wait should be a number"),
        ("/api/games/{id}/par?wait=nan", 422, "bad_request", "wait should be a number"),
        ("/api/games/{id}/par?wait=11", 422, "bad_request", "wait should be at most 10"),
        ("/api/games/{id}/par?wait=-1", 422, "bad_request", "wait should be at least 0"),
    ],
)
def test_bad_par_requests_get_one_clear_line(
    client: TestClient, path: str, status: int, code: str, words: str
) -> None:
    g = new_game(client, variant="eightoff", deal=2)
    r = client.get(path.replace("{id}", str(g["id"])))
    assert r.status_code == status, r.text
    assert r.json()["code"] == code and "\n" not in r.json()["error"]
    assert words in r.json()["error"]


def test_a_deal_too_hard_for_the_limit_gets_bounds_not_a_500(tmp_path: Path) -> None:
    app = create_app(tmp_path / "t.sqlite3", status_seconds=1, par_seconds=0.5)
    with TestClient(app, base_url=LOCAL) as c:
        g = new_game(c, variant="freecell", deal=1)
        answer = par_of(c, g["id"])
        assert answer["state"] == "bounds", answer
        low, high = answer["lower_bound"], answer["upper_bound"]
        assert answer["par"] is None and answer["solution"] is False
        assert high is not None and 0 < low < high
        assert answer["text"] == f"Par is {low} to {high} (not proven within 0.5 seconds)"
        assert answer["short"] == f"Par {low}–{high}"  # the whole words are "text"
        assert answer["longer_seconds"] == 3  # the table's time stopped it: six times more
        german = c.get(f"/api/games/{g['id']}/par", headers=GERMAN).json()
        said = f"Par liegt zwischen {low} und {high} (in 0,5 Sekunden nicht bewiesen)"
        assert german["text"] == said
        refused = c.post(f"/api/games/{g['id']}/par/replay", json={})
        assert refused.status_code == 409 and refused.json()["code"] == "no_par_solution"


def test_bounds_are_searched_longer_once_on_request_and_only_narrow(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The player's "Search longer" where the table's time left bounds: one search six
    times as long (here 3 s for the 0.5 s limit), whose bounds join those kept (never
    wider: the higher lower bound, the shorter solution), said with the limit of that
    search and not offered again; asking once more searches nothing."""
    limits: list[float | None] = []

    def counted(*args: Any, **kwargs: Any) -> Any:
        limits.append(args[2].seconds)
        return optimal(*args, **kwargs)

    monkeypatch.setattr(oracle_module, "optimal", counted)
    app = create_app(tmp_path / "t.sqlite3", status_seconds=1, par_seconds=0.5)
    with TestClient(app, base_url=LOCAL) as c:
        g = new_game(c, variant="freecell", deal=1)
        first = par_of(c, g["id"])
        assert first["state"] == "bounds" and first["longer_seconds"] == 3, first
        assert par_of(c, g["id"]) == first and limits == [0.5]  # asked again: as kept
        after = par_of(c, g["id"], longer="true")
        assert limits == [0.5, 3]
        low, high = after["lower_bound"], after["upper_bound"]
        assert first["lower_bound"] <= low <= high <= first["upper_bound"], (first, after)
        assert after["longer_seconds"] is None  # searched longer once: not offered again
        if after["state"] == "bounds":  # FreeCell 1's par (38) takes about 8 s here
            said = f"Par is {low} to {high} (not proven within 3 seconds)"
            assert after["text"] == said
            german = c.get(f"/api/games/{g['id']}/par", headers=GERMAN).json()
            said = f"Par liegt zwischen {low} und {high} (in 3 Sekunden nicht bewiesen)"
            assert german["text"] == said
        else:
            assert (after["state"], after["par"]) == ("proven", 38), after
        assert par_of(c, g["id"], longer="true") == after and len(limits) == 2
        # another game on the deal shares what is kept
        other = new_game(c, variant="freecell", deal=1)
        assert par_of(c, other["id"], longer="true")["upper_bound"] == high
        assert len(limits) == 2


def test_a_proven_par_is_not_searched_longer(client: TestClient) -> None:
    g = new_game(client, variant="eightoff", deal=2)
    answer = par_of(client, g["id"])
    assert (answer["state"], answer["par"], answer["longer_seconds"]) == ("proven", 14, None)
    assert par_of(client, g["id"], longer="true") == answer


def test_a_search_the_memory_limit_stops_says_so_not_the_time(tmp_path: Path) -> None:
    """Bounds found before the memory limit stopped the search: the words name that
    limit, not a time the search did not use (here 1 MiB: FreeCell 1's A* stops at once,
    where the 20 seconds would have proven its par)."""
    app = create_app(tmp_path / "t.sqlite3", status_seconds=1)
    with TestClient(app, base_url=LOCAL) as c:
        oracle = c.app.state.services.oracle  # type: ignore[attr-defined]
        oracle.par_limits = replace(oracle.par_limits, memory_mb=1)
        g = new_game(c, variant="freecell", deal=1)
        answer = par_of(c, g["id"])
        assert answer["state"] == "bounds", answer
        low, high = answer["lower_bound"], answer["upper_bound"]
        said = f"Par is {low} to {high} (not proven: the search filled its 1 MiB of memory)"
        assert answer["text"] == said
        assert answer["short"] == f"Par {low}–{high}"  # the whole words are "text"
        german = c.get(f"/api/games/{g['id']}/par", headers=GERMAN).json()
        said = (
            f"Par liegt zwischen {low} und {high}"
            " (nicht bewiesen: die Suche hat ihre 1 MiB Speicher ausgeschöpft)"
        )
        assert german["text"] == said


def test_a_failed_search_says_par_unknown_politely(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    def broken(*args: Any, **kwargs: Any) -> Any:
        raise RuntimeError("the search broke")

    monkeypatch.setattr(oracle_module, "optimal", broken)
    g = new_game(client, variant="eightoff", deal=2)
    answer = par_of(client, g["id"])
    assert answer["state"] == "unknown" and answer["par"] is None
    assert answer["text"] == "Par unknown: the search could not finish within the table's limits"
    assert answer["short"] == "Par unknown"
    german = client.get(f"/api/games/{g['id']}/par", headers=GERMAN)
    assert german.status_code == 200
    assert german.json()["text"].startswith("Par unbekannt")


def test_par_unknown_is_searched_again_on_retry_and_a_known_par_is_not(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The player's "Try again": a search that failed is searched anew with ``retry``
    (without it the failure stands), and once par is proven a retry answers it as kept."""
    searched: list[int] = []

    def broken_once(*args: Any, **kwargs: Any) -> Any:
        searched.append(1)
        if len(searched) == 1:
            raise RuntimeError("the search broke")
        return optimal(*args, **kwargs)

    monkeypatch.setattr(oracle_module, "optimal", broken_once)
    g = new_game(client, variant="eightoff", deal=2)
    assert par_of(client, g["id"])["state"] == "unknown"
    assert par_of(client, g["id"])["state"] == "unknown"  # asked again, not retried
    assert len(searched) == 1
    again = par_of(client, g["id"], retry="true")
    assert (again["state"], again["par"], again["short"]) == ("proven", 14, "Par 14")
    assert par_of(client, g["id"], retry="true")["state"] == "proven"
    assert len(searched) == 2  # a proven par is not searched again


def test_the_par_solution_replays_on_a_game_that_is_not_counted(client: TestClient) -> None:
    g = new_game(client, variant="eightoff", deal=2)
    early = client.post(f"/api/games/{g['id']}/par/replay", json={})
    assert early.status_code == 409 and early.json()["code"] == "no_par_solution"
    assert "ask for par first" in early.json()["error"]
    won = win_by_hand(client, g["id"])
    assert par_of(client, g["id"])["par"] == 14
    before = client.get("/api/stats").json()["eightoff"]
    assert (before["played"], before["won"]) == (1, 1)
    assert before["fewest_moves"] == won["player_moves"]

    r = client.post(f"/api/games/{g['id']}/par/replay", json={})
    assert r.status_code == 200, r.text
    replay = r.json()
    assert replay["id"] != g["id"] and replay["replay"] is True and replay["assisted"] is True
    assert replay["deal"] == 2 and replay["columns"] == g["columns"]
    steps = replay["par_replay"]
    assert steps["par"] == 14 and steps["player_moves"] == 14
    end: dict[str, Any] = {}
    for turn in steps["turns"]:
        r = client.post(
            f"/api/games/{replay['id']}/move",
            json={"move": turn[0]["notation"], "auto": len(turn) > 1},
        )
        assert r.status_code == 200, r.text
        end = r.json()
    assert end["won"] and end["player_moves"] == 14
    after = client.get("/api/stats").json()["eightoff"]
    # the replay is neither played nor won nor assisted in the statistics
    assert {k: after[k] for k in ("played", "won", "assisted", "fewest_moves")} == {
        "played": 1,
        "won": 1,
        "assisted": 0,
        "fewest_moves": won["player_moves"],
    }
    over = after["over_par"]
    assert over == {
        "games": 1,
        "average": won["player_moves"] - 14,
        "best": won["player_moves"] - 14,
    }


def test_a_par_search_holds_up_no_move_nor_hint_and_runs_once(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """While the par search works (held here until the moves and a hint are answered),
    play goes on; the requests meanwhile share the one search."""
    from eightoff.solver import optimal as optimal_module

    gate = threading.Event()
    calls: list[int] = []

    def held(*args: Any, **kwargs: Any) -> Any:
        calls.append(1)
        assert gate.wait(60), "the test never let the par search go"
        return optimal_module.optimal(*args, **kwargs)

    monkeypatch.setattr(oracle_module, "optimal", held)
    g = new_game(client, variant="eightoff", deal=2)
    for _ in range(2):
        r = client.get(f"/api/games/{g['id']}/par", params={"wait": 0})
        assert r.json()["state"] == "pending"
    moved = client.post(
        f"/api/games/{g['id']}/move", json={"move": g["legal_moves"][0]["notation"]}
    )
    assert moved.status_code == 200
    hinted = client.post(f"/api/games/{g['id']}/hint", json={"level": 2})
    assert hinted.status_code == 200 and hinted.json()["move"] is not None
    gate.set()
    assert par_of(client, g["id"])["par"] == 14
    assert calls == [1]


def test_the_daily_deal_has_its_par_too(client: TestClient) -> None:
    g = new_game(client, variant="eightoff", daily=True)
    assert g["daily"] is not None
    answer = par_of(client, g["id"])
    assert answer["state"] in ("proven", "bounds"), answer
    assert answer["text"].startswith("Par ")
