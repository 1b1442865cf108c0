"""Real processes on one database: one `eightoff play` per database (a second one points
to the first), a stale record replaced, an unwritable file refused before serving, and
two servers with clients racing on one game without losing or mixing a move."""

from __future__ import annotations

import contextlib
import json
import os
import signal
import socket
import sqlite3
import subprocess
import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import httpx2
import pytest

from eightoff.store import Store
from tests.servers import ENV, auth, play, read_only, served, stop, token_of, wait_ready

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
        assert httpx2.get(base + "/api/variants", headers=auth(token)).status_code == 200


def test_a_record_left_by_a_killed_server_is_replaced(tmp_path: Path) -> None:
    db = tmp_path / "games.sqlite3"
    with served(db) as (first, _base, _token):
        os.kill(first.pid, signal.SIGKILL)
        first.wait(timeout=30)
    with served(db) as (third, base3, _token3):
        assert third.poll() is None
        assert httpx2.get(base3 + "/api/server").json()["pid"] == third.pid
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
    with httpx2.Client(base_url=base, timeout=60, headers=headers) as c:
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
        g = httpx2.post(a + "/api/games", json={"deal": 7}, headers=auth(token), timeout=30).json()
        gid = g["id"]
        plans = {
            a: ["move", "move", "undo", "move", "restart", "redo", "move"] * 4,
            b: ["move", "undo", "move", "move", "redo", "move", "restart"] * 4,
        }
        bases = [a, b] if order == "play-first" else [b, a]
        acks: dict[str, list[dict[str, Any]]] = {a: [], b: []}
        threads = [
            threading.Thread(target=_race, args=(base, gid, plans[base], acks[base], tokens[base]))
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
        ga = httpx2.get(f"{a}/api/games/{gid}", headers=auth(token)).json()
        gb = httpx2.get(f"{b}/api/games/{gid}").json()
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
        g = httpx2.post(a + "/api/games", json={"deal": 12}, headers=auth(token), timeout=30).json()
        gid = g["id"]
        acks: dict[str, list[dict[str, Any]]] = {a: [], b: []}
        threads = [
            threading.Thread(
                target=_race, args=(base, gid, ["move"] * 12, acks[base], tokens[base])
            )
            for base in (a, b)
        ]
        for t in threads:
            t.start()
        for t in threads:
            t.join(timeout=300)
        moves = [x for x in acks[a] + acks[b] if x["action"] == "move"]
        undos = [x for x in acks[a] + acks[b] if x["action"] != "move"]
        final = httpx2.get(f"{a}/api/games/{gid}", headers=auth(token)).json()
        assert final["turns"] == len(moves) - len(undos)
        assert sorted(x["revision"] for x in acks[a] + acks[b]) == list(
            range(1, final["revision"] + 1)
        )


# ----- one table per database file (issue 24.1, 24.2) -----------------------------------------
def _second(db: Path) -> tuple[int, str, str]:
    proc = play(db)
    try:
        out, err = proc.communicate(timeout=60)
    finally:
        stop(proc)
    return proc.returncode, out, err


def test_another_name_of_a_served_file_points_to_its_server(tmp_path: Path) -> None:
    """A hard link or a symbolic link to the database is the same table: the second
    `play` points to the first server (with its token) instead of serving a second table
    whose write-ahead log, named after the other path, would lose the first one's moves."""
    a = tmp_path / "a.sqlite3"
    with served(a) as (first, base, token):
        g = httpx2.post(base + "/api/games", json={"deal": 3}, headers=auth(token), timeout=30)
        assert g.status_code == 200
        hard, soft = tmp_path / "b.sqlite3", tmp_path / "c.sqlite3"
        os.link(a, hard)
        soft.symlink_to(a)
        for other in (hard, soft):
            status, out, err = _second(other)
            assert status == 0, err
            assert f"already open at {base}/?token={token}" in out, out
            assert first.poll() is None
        assert not (tmp_path / "b.sqlite3-wal").exists()  # nothing opened it by that name
    # served by nobody, a file with two names is refused in one line, before serving
    status, out, err = _second(hard)
    assert status >= 64 and "2 names (hard links" in err and err.count("\n") == 1, err
    assert "the table is at" not in out
    hard.unlink()
    with served(a) as (_p, base, token):  # the game is still there
        back = httpx2.get(base + "/api/games/current", headers=auth(token)).json()
        assert back["deal"] == 3


def test_the_runtime_file_holds_the_token_for_this_user_only(tmp_path: Path) -> None:
    from eightoff.web.runtime import FileId, runtime_dir

    db = tmp_path / "games.sqlite3"
    with served(db) as (proc, base, token):
        info = runtime_dir() / f"{FileId.of(db).stem}.json"
        assert info.stat().st_mode & 0o777 == 0o600
        assert info.parent.stat().st_mode & 0o777 == 0o700
        record = json.loads(info.read_text())
        assert record == {"app": "eightoff", "pid": proc.pid, "url": f"{base}/?token={token}",
                          "db": str(db)}  # fmt: skip
        # the database (readable by whoever can read the file) has no token in it
        assert token.encode() not in db.read_bytes() + _wal(db)
        # without the token: nothing of the player's, nothing started
        assert httpx2.post(base + "/api/games", json={"deal": 1}).status_code == 403
        assert httpx2.get(base + "/api/games/current").status_code == 403
    # killed (tests.servers.stop sends SIGKILL): the lock went with it; the next server on
    # any file removes the stale file, and this file's next server writes its own
    with served(tmp_path / "other.sqlite3"):
        assert not info.exists()
    with served(db) as (again, base2, token2):
        assert json.loads(info.read_text())["pid"] == again.pid
        # a new token: one left in a tab or a page after its server ended opens nothing
        assert token2 != token
        assert httpx2.get(base2 + "/api/games/current", headers=auth(token)).status_code == 403
        assert httpx2.get(base2 + "/api/settings", headers=auth(token2)).status_code == 200
    assert not list(info.parent.glob("*.token"))  # no token kept beside the runtime files


def _wal(db: Path) -> bytes:
    wal = db.with_name(db.name + "-wal")
    return wal.read_bytes() if wal.exists() else b""


# ----- a locked database holds up only the requests that write (issue 24.3) ----------------
def test_a_database_locked_by_another_process_stalls_only_the_writes(tmp_path: Path) -> None:
    db = tmp_path / "games.sqlite3"
    with served(db) as (_proc, base, token):
        h = auth(token)
        g = httpx2.post(base + "/api/games", json={"deal": 5}, headers=h, timeout=30).json()
        notation = g["legal_moves"][0]["notation"]
        holder = sqlite3.connect(db, isolation_level=None, timeout=1)
        holder.execute("BEGIN IMMEDIATE")  # another process's write lock, held
        answers: list[httpx2.Response] = []
        writer = threading.Thread(
            target=lambda: answers.append(
                httpx2.post(
                    f"{base}/api/games/{g['id']}/move",
                    json={"move": notation},
                    headers=h,
                    timeout=60,
                )
            )
        )
        try:
            writer.start()
            writer.join(timeout=1)  # the move now waits for the lock (up to 10 s)
            # meanwhile what touches no data, and what only reads, is answered
            assert httpx2.get(base + "/api/server", timeout=60).json()["app"] == "eightoff"
            assert httpx2.get(base + "/static/js/api.js", timeout=60).status_code == 200
            read = httpx2.get(f"{base}/api/games/{g['id']}", headers=h, timeout=60).json()
            assert writer.is_alive(), "the move did not wait for the lock"
            assert read["revision"] == g["revision"]  # the last commit, not a half-made move
        finally:
            holder.execute("ROLLBACK")
            holder.close()
        writer.join(timeout=60)
        assert answers and answers[0].status_code == 200, answers  # then it is made
        assert answers[0].json()["revision"] == g["revision"] + 1


def _opened(record: Path, proc: subprocess.Popen[str]) -> list[str]:
    """The arguments the stand-in browser was started with, once it has been."""
    for _ in range(1200):
        if record.exists() and record.read_text().endswith("\n"):
            return record.read_text().splitlines()
        assert proc.poll() is None, proc.communicate()
        with contextlib.suppress(subprocess.TimeoutExpired):
            proc.wait(timeout=0.05)
    raise AssertionError("the browser was not opened")


def test_the_browser_is_opened_at_a_private_page_not_at_the_token(tmp_path: Path) -> None:
    """Every user of the machine can read a program's arguments (``ps``), so the browser
    is not given the table's address with its token (it was, by the first ``eightoff
    play`` and by a second one pointing to it) but a page only this user can read
    (mode 0600) that sends it on there."""
    record = tmp_path / "argv.txt"
    browser = tmp_path / "browser.sh"
    browser.write_text(f'#!/bin/sh\nprintf "%s\\n" "$@" > "{record}"\n')
    browser.chmod(0o755)
    env = {**ENV, "BROWSER": str(browser)}
    db = tmp_path / "games.sqlite3"
    cli = [sys.executable, "-m", "eightoff.cli", "play", "--db", str(db)]
    proc = subprocess.Popen(cli, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            env=env)  # fmt: skip
    try:
        assert proc.stdout is not None
        base, token = token_of(proc.stdout.readline())
        for opener in ("first", "second"):
            argv = _opened(record, proc)
            assert len(argv) == 1 and token not in argv[0], (opener, argv)
            page = Path(urlsplit(argv[0]).path)
            assert argv[0] == page.as_uri() and page.stat().st_mode & 0o777 == 0o600
            assert f'content="0;url={base}/?token={token}"' in page.read_text()
            record.unlink()
            if opener == "first":  # a second `eightoff play` on the file points to the first
                second = subprocess.run(cli, capture_output=True, text=True, env=env, timeout=60)
                assert second.returncode == 0 and "already open" in second.stdout, second
    finally:
        stop(proc)
