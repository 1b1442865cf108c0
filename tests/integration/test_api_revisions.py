"""The store is the one truth: every change names the revision it saw; two servers on
one database (two apps here, two processes in test_api_two_servers.py) never mix their
moves, and a stale window gets 409 with the current game."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from eightoff.store import Store
from eightoff.web.app import create_app

LOCAL = "http://127.0.0.1"
BOARD = ("columns", "cells", "foundations", "turns", "can_redo", "revision", "hints")


@pytest.fixture
def db(tmp_path: Path) -> Path:
    return tmp_path / "t.sqlite3"


@pytest.fixture
def pair(db: Path) -> Iterator[tuple[TestClient, TestClient]]:
    """Two servers (apps with their own connections) on one database."""
    with (
        TestClient(create_app(db), base_url=LOCAL) as a,
        TestClient(create_app(db), base_url=LOCAL) as b,
    ):
        yield a, b


def ok(r: Any) -> dict[str, Any]:
    assert r.status_code == 200, r.text
    body: dict[str, Any] = r.json()
    return body


def view(g: dict[str, Any]) -> dict[str, Any]:
    return {k: g[k] for k in BOARD}


def replays(db: Path, gid: int) -> Any:
    """The stored game, rebuilt from its deal with every move checked again."""
    store = Store(db)
    try:
        saved = store.load(gid)
        assert saved is not None
        return saved.game.position
    finally:
        store.close()


def test_every_change_moves_the_revision_on_and_a_hint_does_not(
    pair: tuple[TestClient, TestClient],
) -> None:
    a, _ = pair
    g = ok(a.post("/api/games", json={"deal": 1}))
    gid = g["id"]
    assert g["revision"] == 0
    g = ok(a.post(f"/api/games/{gid}/move", json={"move": "b8", "revision": 0}))
    assert g["revision"] == 1
    g = ok(a.post(f"/api/games/{gid}/undo", json={"revision": 1}))
    assert g["revision"] == 2
    g = ok(a.post(f"/api/games/{gid}/redo", json={"revision": 2}))
    assert g["revision"] == 3
    g = ok(a.post(f"/api/games/{gid}/restart", json={"revision": 3}))
    assert g["revision"] == 4
    h = ok(a.post(f"/api/games/{gid}/hint", json={"level": 1, "revision": 4}))
    assert h["hints"] == 0 and h["moves"]
    assert ok(a.get(f"/api/games/{gid}"))["revision"] == 4


@pytest.mark.parametrize(
    ("action", "body"),
    [
        ("move", {"move": "1e"}),
        ("undo", {}),
        ("redo", {}),
        ("restart", {}),
        ("auto", {}),
        ("hint", {"level": 2}),
        ("hint", {"level": 1}),
        ("solution", {}),
    ],
)
def test_a_stale_revision_is_409_with_the_current_game_and_changes_nothing(
    pair: tuple[TestClient, TestClient], db: Path, action: str, body: dict[str, Any]
) -> None:
    a, b = pair
    g = ok(a.post("/api/games", json={"deal": 1}))
    gid = g["id"]
    seen_by_b = ok(b.get(f"/api/games/{gid}"))
    ok(a.post(f"/api/games/{gid}/move", json={"move": "b8", "revision": 0}))
    now = ok(a.get(f"/api/games/{gid}"))
    r = b.post(f"/api/games/{gid}/{action}", json={**body, "revision": seen_by_b["revision"]})
    assert r.status_code == 409, r.text
    answer = r.json()
    assert answer["code"] == "stale"
    assert answer["error"] == "This game changed in another window"
    assert view(answer["game"]) == view(now)  # the page can show the current game at once
    assert view(ok(a.get(f"/api/games/{gid}"))) == view(now)
    assert view(ok(b.get(f"/api/games/{gid}"))) == view(now)
    assert replays(db, gid) is not None


def test_two_servers_interleaving_moves_both_see_one_game(
    pair: tuple[TestClient, TestClient], db: Path
) -> None:
    """The round that broke a game for good: A moves, B (started before) moves, A moves.
    Without revisions each action applies to the game as stored, never to a copy."""
    a, b = pair
    g = ok(a.post("/api/games", json={"deal": 1}))
    gid = g["id"]
    ok(b.get(f"/api/games/{gid}"))  # B has the game loaded
    ok(a.post(f"/api/games/{gid}/move", json={"move": "b8"}))
    second = ok(b.post(f"/api/games/{gid}/move", json={"move": "1e"}))
    assert second["turns"] == 2  # on top of A's move, not on B's old copy
    third = ok(a.post(f"/api/games/{gid}/undo", json={}))
    assert third["turns"] == 1
    ga, gb = ok(a.get(f"/api/games/{gid}")), ok(b.get(f"/api/games/{gid}"))
    assert view(ga) == view(gb)
    position = replays(db, gid)
    assert [[str(c) for c in col] for col in position.columns] == ga["columns"]
    # a fresh server on the file shows the same game
    with TestClient(create_app(db), base_url=LOCAL) as c:
        assert view(ok(c.get(f"/api/games/{gid}"))) == view(ga)


@pytest.mark.parametrize("first", ["a", "b"])
def test_racing_undo_and_restart_with_revisions_one_wins(
    pair: tuple[TestClient, TestClient], db: Path, first: str
) -> None:
    a, b = pair
    g = ok(a.post("/api/games", json={"deal": 3}))
    gid = g["id"]
    for _ in range(3):
        g = ok(a.post(f"/api/games/{gid}/move", json={"move": g["legal_moves"][-1]["notation"]}))
    rev = g["revision"]
    one, two = (a, b) if first == "a" else (b, a)
    won = one.post(f"/api/games/{gid}/undo", json={"revision": rev})
    lost = two.post(f"/api/games/{gid}/restart", json={"revision": rev})
    assert won.status_code == 200 and lost.status_code == 409
    assert lost.json()["game"]["turns"] == 2
    assert view(ok(a.get(f"/api/games/{gid}"))) == view(ok(b.get(f"/api/games/{gid}")))
    assert replays(db, gid) is not None


def test_a_level_two_hint_counts_once_without_a_new_revision(db: Path) -> None:
    app = create_app(db, hint_seconds=20)
    with TestClient(app, base_url=LOCAL) as c:
        g = ok(c.post("/api/games", json={"lesson": 2}))
        h = ok(c.post(f"/api/games/{g['id']}/hint", json={"level": 2, "revision": 0}))
        assert h["move"] is not None and h["hints"] == 1
        again = ok(c.get(f"/api/games/{g['id']}"))
        assert again["hints"] == 1 and again["revision"] == 0
        sol = ok(c.post(f"/api/games/{g['id']}/solution", json={"revision": 0}))
        assert sol["hints"] == 2 and sol["moves"]
