"""A damaged database is the server's trouble, never the client's fault and never a 500:
rows changed behind the table's back and pages overwritten on the disk answer 503 with
one line naming the file; `eightoff play` refuses a damaged file before serving."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from eightoff.store import Store
from eightoff.web.app import create_app

LOCAL = "http://127.0.0.1:8123"


@pytest.fixture
def db(tmp_path: Path) -> Path:
    return tmp_path / "games.sqlite3"


def client(db: Path) -> TestClient:
    return TestClient(create_app(db, port=8123), base_url=LOCAL, raise_server_exceptions=False)


def damaged(r: Any, db: Path) -> None:
    """A 503 whose detail is one line naming the file."""
    assert r.status_code == 503, (r.status_code, r.text)
    body = r.json()
    assert body["code"] == "store"
    assert str(db) in body["detail"] and "\n" not in body["detail"]


def tamper(db: Path, sql: str, *args: Any) -> None:
    with sqlite3.connect(db) as c:
        c.execute(sql, args)


@pytest.mark.parametrize(
    "sql",
    [
        "UPDATE games SET options = '[]'",
        "UPDATE games SET options = 'not json'",
        "UPDATE games SET revision = 'abc'",
        "UPDATE games SET cursor = 'x'",
        "UPDATE games SET rating = 'not json'",
        "UPDATE games SET start = '{\"columns\": 5}'",
        "UPDATE moves SET move = 'zz'",
        "UPDATE settings SET value = 'not json'",
    ],
)
def test_a_tampered_row_is_a_503_naming_the_file(db: Path, sql: str) -> None:
    with client(db) as c:
        g = c.post("/api/games", json={"deal": 4}).json()
        gid = g["id"]
        c.post(f"/api/games/{gid}/move", json={"move": g["legal_moves"][0]["notation"]})
        c.put("/api/settings", json={"auto_move": True})
    tamper(db, sql)
    with client(db) as c:  # a new process: nothing cached
        answers = [
            c.get(f"/api/games/{gid}"),
            c.get("/api/games/current"),
            c.post(f"/api/games/{gid}/undo", json={}),
            c.post(f"/api/games/{gid}/hint", json={"level": 1}),
            c.get(f"/api/games/{gid}/status"),
        ]
        for r in answers:
            assert r.status_code != 500 and not 400 <= r.status_code < 500, (sql, r.text)
        assert any(r.status_code == 503 for r in answers), sql
        for r in answers:
            if r.status_code == 503:
                damaged(r, db)


def _damage_pages(db: Path) -> None:
    """Overwrite every third page after the first two with bytes that are no page."""
    page = 4096
    data = bytearray(db.read_bytes())
    for start in range(2 * page, len(data), 3 * page):
        data[start + 16 : start + page - 16] = bytes([0x5A]) * (page - 32)
    db.write_bytes(bytes(data))


@pytest.fixture
def damaged_db(db: Path) -> Iterator[Path]:
    with client(db) as c:
        for deal in range(1, 31):  # enough rows for tens of pages
            g = c.post("/api/games", json={"deal": deal}).json()
            for _ in range(3):
                g = c.post(
                    f"/api/games/{g['id']}/move", json={"move": g["legal_moves"][-1]["notation"]}
                ).json()
    with sqlite3.connect(db) as conn:
        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    _damage_pages(db)
    yield db


def test_damaged_pages_are_503s_never_500s(damaged_db: Path) -> None:
    statuses: list[int] = []
    with client(damaged_db) as c:
        for gid in range(1, 31):
            for r in (
                c.get(f"/api/games/{gid}"),
                c.post(f"/api/games/{gid}/undo", json={}),
                c.post(f"/api/games/{gid}/move", json={"move": "1a"}),
            ):
                statuses.append(r.status_code)
                assert r.status_code != 500, r.text
                if r.status_code == 503:
                    damaged(r, damaged_db)
        for path in ("/api/games/current", "/api/stats", "/api/settings"):
            r = c.get(path)
            statuses.append(r.status_code)
            assert r.status_code != 500, r.text
    assert 503 in statuses


def test_play_refuses_a_damaged_file_before_serving(
    damaged_db: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from eightoff.web import server as srv

    before = damaged_db.read_bytes()
    assert srv.serve("127.0.0.1", None, str(damaged_db), open_browser=False) == 65
    out, err = capsys.readouterr()
    assert str(damaged_db) in err and "damaged" in err and err.count("\n") == 1, err
    assert "the table is at" not in out
    assert damaged_db.read_bytes() == before  # refused as it was


def test_a_whole_file_passes_the_check_at_start(db: Path) -> None:
    Store(db).close()
    store = Store(db)
    try:
        store.db.quick_check()  # no error
    finally:
        store.close()
