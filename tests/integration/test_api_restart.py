"""A real server (uvicorn in a subprocess) killed with SIGKILL and started again on the same
database brings back the game in progress exactly, redo stack included."""

from __future__ import annotations

import os
import signal
import sys
from pathlib import Path
from typing import Any

import httpx2
import pytest

from tests.servers import auth, served

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="SIGKILL")


def call(method: str, url: str, token: str, body: Any = None) -> dict[str, Any]:
    if body is None and method != "GET":
        body = {}  # a state-changing request is always JSON
    r = httpx2.request(method, url, json=body, headers=auth(token), timeout=30)
    assert r.status_code == 200, r.text
    return r.json()  # type: ignore[no-any-return]


def test_a_game_survives_kill_9(tmp_path: Path) -> None:
    db = tmp_path / "games.sqlite3"
    with served(db) as (proc, base, token):
        g = call("POST", base + "/api/games", token, {"variant": "eightoff", "deal": 8})
        gid = g["id"]
        last = g
        for _ in range(5):
            last = call(
                "POST",
                f"{base}/api/games/{gid}/move",
                token,
                {"move": last["legal_moves"][-1]["notation"]},
            )
        call("POST", f"{base}/api/games/{gid}/undo", token)
        last = call("POST", f"{base}/api/games/{gid}/undo", token)
        call("PUT", base + "/api/settings", token, {"auto_move": False})
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait(timeout=30)
        assert proc.returncode == -signal.SIGKILL

    with served(db) as (_proc, base, token):
        back = call("GET", base + "/api/games/current", token)
        assert back["id"] == gid
        for key in ("columns", "cells", "foundations", "player_moves", "turns", "can_redo"):
            assert back[key] == last[key], key
        assert call("GET", base + "/api/settings", token)["auto_move"] is False
        redone = call("POST", f"{base}/api/games/{gid}/redo", token)
        assert redone["turns"] == last["turns"] + 1


def test_the_server_listens_on_loopback_by_default(tmp_path: Path) -> None:
    with served(tmp_path / "a.sqlite3") as (_proc, base, token):
        assert base.startswith("http://127.0.0.1:")
        assert call("GET", base + "/api/settings", token) == {
            "auto_move": True,
            "winnable_only": False,
            "language": None,
            "hint_solver_first": False,
            "large_cards": False,
            "four_colour": False,
        }


def test_serve_warns_about_other_hosts_and_finds_its_database(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """In-process (nothing listens beyond loopback): the warning, the URL, EIGHTOFF_DB."""
    import socket

    import uvicorn

    from eightoff.web import server as srv

    ran: list[int] = []

    def bind_loopback(host: str, port: int) -> socket.socket:
        sock = socket.socket()
        sock.bind(("127.0.0.1", 0))
        return sock

    monkeypatch.setattr(srv, "_bind", bind_loopback)
    monkeypatch.setattr(uvicorn.Server, "run", lambda self, sockets=None: ran.append(1))
    monkeypatch.setenv("EIGHTOFF_DB", str(tmp_path / "env.sqlite3"))
    srv.serve("0.0.0.0", None, None, open_browser=False)
    out, err = capsys.readouterr()
    assert ran == [1]
    assert "warning: listening on 0.0.0.0, not on loopback" in err
    assert "http://127.0.0.1:" in out and str(tmp_path / "env.sqlite3") in out
    assert (tmp_path / "env.sqlite3").exists()
    # --db wins over the environment; without either, the user data directory
    assert srv.resolve_db(str(tmp_path / "flag.sqlite3")) == tmp_path / "flag.sqlite3"
    monkeypatch.delenv("EIGHTOFF_DB")
    assert srv.resolve_db(None) == srv.default_db()
    assert srv.default_db().name == "eightoff.sqlite3"
    srv.serve("127.0.0.1", None, str(tmp_path / "quiet.sqlite3"), open_browser=False)
    assert "warning" not in capsys.readouterr().err


def test_serve_refuses_a_file_that_is_not_a_database(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from eightoff.web import server as srv

    bad = tmp_path / "notes.txt"
    bad.write_text("not a database\n" * 100)
    assert srv.serve("127.0.0.1", None, str(bad), open_browser=False) == 65  # EX_DATAERR
    err = capsys.readouterr().err
    assert "not an eightoff database" in err and err.count("\n") == 1
    assert bad.read_text() == "not a database\n" * 100


def test_serve_tells_a_file_it_cannot_create_from_a_damaged_one(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A store that cannot be made (its folder is a file) is not damage: another exit
    status (EX_CANTCREAT), so that a script can tell 'restore the file' from 'choose
    another place'."""
    from eightoff.web import server as srv

    (tmp_path / "plain").write_text("a file, not a folder")
    where = tmp_path / "plain" / "eightoff.sqlite3"
    assert srv.serve("127.0.0.1", None, str(where), open_browser=False) == 73
    err = capsys.readouterr().err
    assert str(where) in err and err.count("\n") == 1
