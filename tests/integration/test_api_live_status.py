"""The status line after a move is final at once (not "checking") when the move
followed the last solution: the solver's Prover still holds its remainder as a proof."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from eightoff.web.app import create_app

LOCAL = "http://127.0.0.1"


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    app = create_app(tmp_path / "t.sqlite3", status_seconds=20, hint_seconds=30)
    with TestClient(app, base_url=LOCAL) as c:
        yield c


def settle(client: TestClient, gid: int, timeout: float = 120) -> dict[str, Any]:
    deadline = time.monotonic() + timeout
    while True:
        st: dict[str, Any] = client.get(f"/api/games/{gid}/status").json()
        if not st["pending"] or time.monotonic() > deadline:
            return st
        time.sleep(0.02)


@pytest.mark.parametrize("variant", ["eightoff", "freecell"])
def test_status_after_following_the_solution_is_final(client: TestClient, variant: str) -> None:
    r = client.post("/api/games", json={"variant": variant, "deal": 7})
    assert r.status_code == 200, r.text
    gid = r.json()["id"]
    first = settle(client, gid)
    assert first["verdict"] == "winnable" and not first["pending"]
    for _ in range(8):
        hint = client.post(f"/api/games/{gid}/hint", json={"level": 2}).json()
        r = client.post(f"/api/games/{gid}/move", json={"move": hint["move"]["notation"]})
        assert r.status_code == 200, r.text
        st = client.get(f"/api/games/{gid}/status").json()
        assert st["pending"] is False
        assert st["verdict"] in ("winnable", "won")
        assert st["turns"] == r.json()["turns"]  # the status of the position just reached
    services = client.app.state.services  # type: ignore[attr-defined]
    assert services.oracle.prover.stats["search"] == 1
