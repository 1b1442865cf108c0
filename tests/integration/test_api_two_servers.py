"""Real processes on one database: one `eightoff play` per database (a second one points
to the first), a stale record replaced, an unwritable file refused before serving, and
two servers with clients racing on one game without losing or mixing a move."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx
import pytest

from eightoff.store import Store
from tests.servers import ENV, auth, play, read_only, served, stop, wait_ready

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="POSIX processes")

SECOND_SERVER = (
    "import sys, uvicorn\n"
    "from eightoff.web.app import create_app\n"
    "port = int(sys.argv[2])\n"
    "uvicorn.run(create_app(sys.argv[1], port=port), host='127.0.0.1', port=port,"
    " log_level='warning')\n"
)


@contextmanager
def second_server(db: Path) -> Iterator[str]:
    """Another server on the same file that ignores the record (an older eightoff)."""
    with socket.socket() as s:  # a free port
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    proc = subprocess.Popen(
        [sys.executable, "-c", SECOND_SERVER, str(db), str(port)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=ENV,
    )
    base = f"http://127.0.0.1:{port}"
    try:
        wait_ready(proc, base)
        yield base
    finally:
        stop(proc)


def test_a_second_play_points_to_the_first_and_exits_0(tmp_path: Path) -> None:
    db = tmp_path / "games.sqlite3"
    with served(db) as (first, base, token):
        second = play(db)
        try:
            out, err = second.communicate(timeout=60)
        finally:
            stop(second)
        assert second.returncode == 0, err
        # with its token: the browser the second one opens is let in
        assert f"already open at {base}/?token={token}" in out
        assert first.poll() is None  # the first one still serves
        assert httpx.get(base + "/api/variants", headers=auth(token)).status_code == 200


def test_a_record_left_by_a_killed_server_is_replaced(tmp_path: Path) -> None:
    db = tmp_path / "games.sqlite3"
    with served(db) as (first, _base, _token):
        os.kill(first.pid, signal.SIGKILL)
        first.wait(timeout=30)
    with served(db) as (third, base3, _token3):
        assert third.poll() is None
        assert httpx.get(base3 + "/api/server").json()["pid"] == third.pid
        store = Store(db)
        try:
            record = store.server()
            assert record is not None and record.pid == third.pid
            assert record.url.startswith(base3)
        finally:
            store.close()


@pytest.fixture
def read_only_db(tmp_path: Path) -> Iterator[Path]:
    path = tmp_path / "ro.sqlite3"
    Store(path).close()
    with read_only(path):
        yield path


def test_play_refuses_a_database_it_cannot_write_before_serving(read_only_db: Path) -> None:
    proc = play(read_only_db)
    try:
        out, err = proc.communicate(timeout=60)
    finally:
        stop(proc)
    assert proc.returncode >= 64
    assert "cannot be written" in err and err.strip().count("\n") == 0
    assert "the table is at" not in out


def _race(
    base: str, gid: int, actions: list[str], acks: list[dict[str, Any]], token: str | None
) -> None:
    """Play ``actions`` on one game through one server, as fast as it answers; keep
    every acknowledged answer."""
    headers = {} if token is None else auth(token)
    with httpx.Client(base_url=base, timeout=60, headers=headers) as c:
        last = c.get(f"/api/games/{gid}").json()
        for action in actions:
            if action == "move":
                useful = [
                    m
                    for m in last["legal_moves"]
                    if m["source"]["kind"] != "cell" or m["target"]["kind"] != "cell"
                ]
                if not useful:
                    action = "undo"
                else:
                    body: dict[str, Any] = {"move": useful[len(acks) % len(useful)]["notation"]}
            if action != "move":
                body = {}
            r = c.post(f"/api/games/{gid}/{action}", json=body)
            if r.status_code == 200:
                last = r.json()
                acks.append({"action": action, **{k: last[k] for k in ("revision", "turns")}})
            else:
                assert r.status_code in (400, 409), r.text  # illegal on the stored game
                last = c.get(f"/api/games/{gid}").json()


@pytest.mark.slow
@pytest.mark.parametrize("order", ["play-first", "second-first"])
def test_two_servers_and_two_clients_race_on_one_game(tmp_path: Path, order: str) -> None:
    db = tmp_path / "games.sqlite3"
    with served(db) as (_proc, a, token), second_server(db) as b:
        tokens = {a: token, b: None}
        g = httpx.post(a + "/api/games", json={"deal": 7}, headers=auth(token), timeout=30).json()
        gid = g["id"]
        plans = {
            a: ["move", "move", "undo", "move", "restart", "redo", "move"] * 4,
            b: ["move", "undo", "move", "move", "redo", "move", "restart"] * 4,
        }
        bases = [a, b] if order == "play-first" else [b, a]
        acks: dict[str, list[dict[str, Any]]] = {a: [], b: []}
        threads = [
            threading.Thread(
                target=_race, args=(base, gid, plans[base], acks[base], tokens[base])
            )
            for base in bases
        ]
        for t in threads:
            t.start()
        for t in threads:
            t.join(timeout=300)
        everything = acks[a] + acks[b]
        assert len(everything) > 10
        # every acknowledged change is one revision of the stored game: none was lost
        # or written over, and no two were applied to the same stored state
        revisions = sorted(x["revision"] for x in everything)
        assert revisions == list(range(1, len(everything) + 1))
        ga = httpx.get(f"{a}/api/games/{gid}", headers=auth(token)).json()
        gb = httpx.get(f"{b}/api/games/{gid}").json()
        keys = ("columns", "cells", "foundations", "turns", "can_redo", "revision")
        assert {k: ga[k] for k in keys} == {k: gb[k] for k in keys}
        assert ga["revision"] == len(everything)
    store = Store(db)  # every stored game replays legally from its deal
    try:
        saved = store.load(gid)
        assert saved is not None
        assert [[str(c) for c in col] for col in saved.game.position.columns] == ga["columns"]
        for other in range(1, gid):
            assert store.load(other) is not None
    finally:
        store.close()


@pytest.mark.slow
def test_moves_acknowledged_by_two_servers_are_all_in_the_stored_line(tmp_path: Path) -> None:
    db = tmp_path / "games.sqlite3"
    with served(db) as (_proc, a, token), second_server(db) as b:
        tokens = {a: token, b: None}
        g = httpx.post(a + "/api/games", json={"deal": 12}, headers=auth(token), timeout=30).json()
        gid = g["id"]
        acks: dict[str, list[dict[str, Any]]] = {a: [], b: []}
        threads = [
            threading.Thread(target=_race, args=(base, gid, ["move"] * 12, acks[base], tokens[base]))
            for base in (a, b)
        ]
        for t in threads:
            t.start()
        for t in threads:
            t.join(timeout=300)
        moves = [x for x in acks[a] + acks[b] if x["action"] == "move"]
        undos = [x for x in acks[a] + acks[b] if x["action"] != "move"]
        final = httpx.get(f"{a}/api/games/{gid}", headers=auth(token)).json()
        assert final["turns"] == len(moves) - len(undos)
        assert sorted(x["revision"] for x in acks[a] + acks[b]) == list(
            range(1, final["revision"] + 1)
        )
