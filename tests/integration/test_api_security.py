"""No other site gets in: Host, Origin, content type, token, body size; GET changes
nothing; every answer carries the security headers."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from eightoff.web.app import create_app
from eightoff.web.security import CSP
from tests import loops

LOCAL = "http://127.0.0.1"
JSON = {"content-type": "application/json"}


@pytest.fixture
def db(tmp_path: Path) -> Path:
    return tmp_path / "t.sqlite3"


@pytest.fixture
def client(db: Path) -> Iterator[TestClient]:
    with TestClient(create_app(db, port=8123), base_url=f"{LOCAL}:8123") as c:
        yield c


@pytest.fixture
def game(client: TestClient) -> dict[str, Any]:
    r = client.post("/api/games", json={"deal": 1})
    assert r.status_code == 200
    g: dict[str, Any] = r.json()
    return g


def board(client: TestClient, gid: int) -> dict[str, Any]:
    g: dict[str, Any] = client.get(f"/api/games/{gid}").json()
    return {k: g[k] for k in ("columns", "cells", "foundations", "turns", "revision", "hints")}


def refused(r: Any, status: int = 403) -> None:
    assert r.status_code == status, r.text
    assert r.json()["code"] in {"forbidden", "too_large"}


# ----- Host ----------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "host", ["evil.example:8123", "evil.example", "127.0.0.1:9999", "localhost.evil:8123", ""]
)
def test_a_foreign_host_is_refused(client: TestClient, game: dict[str, Any], host: str) -> None:
    before = board(client, game["id"])
    refused(client.get("/api/games/current", headers={"host": host}))
    refused(client.get("/", headers={"host": host}))
    r = client.post(f"/api/games/{game['id']}/move", json={"move": "b8"}, headers={"host": host})
    refused(r)
    assert board(client, game["id"]) == before


def test_a_long_foreign_host_is_quoted_cut(client: TestClient) -> None:
    host = "evil." + "x" * 10_000 + ".example"
    r = client.get("/api/variants", headers={"host": host})
    refused(r)
    said = r.json()["error"]
    assert "evil.xxx" in said and "…" in said and "\n" not in said
    assert len(said) < 200


@pytest.mark.parametrize(
    "host", ["127.0.0.1:8123", "localhost:8123", "[::1]:8123", "LOCALHOST:8123"]
)
def test_the_loopback_names_are_accepted(client: TestClient, host: str) -> None:
    assert client.get("/api/variants", headers={"host": host}).status_code == 200


def test_a_given_host_is_accepted_too(db: Path) -> None:
    with TestClient(create_app(db, hosts=["table.lan"], port=80), base_url="http://table.lan") as c:
        assert c.get("/api/variants").status_code == 200
        refused(c.get("/api/variants", headers={"host": "other.lan"}))


# ----- state-changing requests: content type and Origin --------------------------------------
@pytest.mark.parametrize("action", ["undo", "redo", "restart", "auto", "move", "hint", "solution"])
@pytest.mark.parametrize(
    "ctype",
    [None, "text/plain", "application/x-www-form-urlencoded", "multipart/form-data; boundary=x"],
)
def test_a_post_that_is_not_json_changes_nothing(
    client: TestClient, game: dict[str, Any], action: str, ctype: str | None
) -> None:
    gid = game["id"]
    client.post(f"/api/games/{gid}/move", json={"move": "b8"})
    before = board(client, gid)
    headers = {} if ctype is None else {"content-type": ctype}
    body = json.dumps({"move": "1e", "level": 2}) if action in ("move", "hint") else ""
    refused(client.post(f"/api/games/{gid}/{action}", content=body, headers=headers))
    refused(client.put("/api/settings", content='{"auto_move": false}', headers=headers))
    assert board(client, gid) == before
    assert client.get("/api/settings").json()["auto_move"] is True


@pytest.mark.parametrize(
    "origin", ["http://evil.example", "null", "http://127.0.0.1:9999", "https://127.0.0.1:8123"]
)
def test_a_post_from_another_origin_changes_nothing(
    client: TestClient, game: dict[str, Any], origin: str
) -> None:
    gid = game["id"]
    before = board(client, gid)
    for action in ("move", "restart", "auto"):
        r = client.post(
            f"/api/games/{gid}/{action}",
            json={"move": "b8"} if action == "move" else {},
            headers={"origin": origin},
        )
        refused(r)
    refused(client.post("/api/games", json={"deal": 2}, headers={"origin": origin}))
    assert board(client, gid) == before
    assert client.get("/api/games/current").json()["id"] == gid


def test_a_post_from_the_page_itself_is_accepted(client: TestClient, game: dict[str, Any]) -> None:
    r = client.post(
        f"/api/games/{game['id']}/move",
        json={"move": "b8"},
        headers={"origin": "http://127.0.0.1:8123"},
    )
    assert r.status_code == 200, r.text


# ----- GET changes nothing -------------------------------------------------------------------
@pytest.mark.parametrize(
    "path", ["hint?level=2", "hint?level=1", "solution", "undo", "auto", "restart"]
)
def test_a_get_on_an_action_is_405_and_changes_nothing(
    client: TestClient, game: dict[str, Any], path: str
) -> None:
    gid = game["id"]
    client.post(f"/api/games/{gid}/move", json={"move": "b8"})
    before = board(client, gid)
    r = client.get(f"/api/games/{gid}/{path}")
    assert r.status_code == 405 and r.json()["code"] == "method_not_allowed"
    assert board(client, gid) == before
    assert client.get("/api/stats").json()["eightoff"]["hints"] == 0


def test_status_is_a_get_that_changes_nothing_stored(
    client: TestClient, game: dict[str, Any]
) -> None:
    gid = game["id"]
    before = board(client, gid)
    for _ in range(3):
        assert client.get(f"/api/games/{gid}/status").status_code == 200
    assert board(client, gid) == before


# ----- headers -------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "path",
    ["/", "/rules", "/docs", "/openapi.json", "/api/variants", "/static/style.css", "/nowhere"],
)
def test_every_answer_carries_the_security_headers(client: TestClient, path: str) -> None:
    r = client.get(path)
    assert r.headers["content-security-policy"] == CSP
    assert "frame-ancestors 'none'" in CSP and "'unsafe-inline'" not in CSP
    assert r.headers["x-content-type-options"] == "nosniff"
    assert r.headers["referrer-policy"] == "no-referrer"
    assert r.headers["x-frame-options"] == "DENY"


def test_refusals_carry_the_headers_too(client: TestClient) -> None:
    r = client.get("/", headers={"host": "evil.example"})
    assert r.headers["content-security-policy"] == CSP


# ----- the token (every server started by eightoff play has one) --------------------------
@pytest.mark.parametrize(
    ("base", "hosts"), [("http://127.0.0.1:8123", ()), ("http://192.0.2.7:8123", ["192.0.2.7"])]
)
def test_a_token_server_refuses_the_players_data_without_it(
    db: Path, base: str, hosts: list[str]
) -> None:
    app = create_app(db, hosts=hosts, port=8123, token="s3cret-token")
    with TestClient(app, base_url=base) as c:
        refused(c.get("/api/games/current"))
        refused(c.get("/api/stats"))
        refused(c.get("/api/settings"))
        refused(c.post("/api/games", json={"deal": 1}))
        refused(c.get("/api/variants", headers={"authorization": "token wrong"}))
        refused(c.get("/api/variants?token=wrong"))
        # the pages and scripts (the same files for everyone) and who is serving need none
        for path in ("/", "/rules", "/static/style.css", "/static/js/api.js"):
            assert c.get(path).status_code == 200, path
        assert c.get("/api/server").json()["app"] == "eightoff"
        # the header the page sends, or the query a script may use
        good = {"authorization": "token s3cret-token"}
        assert c.post("/api/games", json={"deal": 1}, headers=good).status_code == 200
        assert c.get("/api/games/current?token=s3cret-token").status_code == 200
        # no cookie carries it: a browser would send a cookie to every port of the host
        assert "set-cookie" not in c.get("/?token=s3cret-token").headers
        assert "set-cookie" not in c.get("/api/variants", headers=good).headers
        assert c.cookies == {}
        # nothing was started without the token
        assert c.get("/api/games/current", headers=good).json()["deal"] == 1


@pytest.mark.parametrize("port", ["²", "¹²³", "³8123", "٨١٢٣", "８１２３", "8123x", "99999999"])
@pytest.mark.parametrize("encoding", ["latin-1", "utf-8"])
def test_a_host_with_a_port_not_in_ascii_digits_is_refused(
    client: TestClient, port: str, encoding: str
) -> None:
    """A header is bytes, read as Latin-1: b"\\xb2" is "²", which str.isdigit takes. Sent
    to the app as the server hands it over (an HTTP client would re-encode it)."""
    host = f"127.0.0.1:{port}".encode(encoding, errors="replace")
    status, body = asgi_get(client.app, "/api/variants", [(b"host", host)])
    assert status == 403 and json.loads(body)["code"] == "forbidden", (status, body)


def asgi_get(app: Any, path: str, headers: list[tuple[bytes, bytes]]) -> tuple[int, bytes]:
    """GET ``path`` from the ASGI ``app`` with exactly these header bytes."""

    sent: list[dict[str, Any]] = []
    scope = {
        "type": "http", "asgi": {"version": "3.0"}, "http_version": "1.1", "method": "GET",
        "scheme": "http", "path": path, "raw_path": path.encode(), "query_string": b"",
        "headers": headers, "client": ("127.0.0.1", 5000), "server": ("127.0.0.1", 8123),
    }  # fmt: skip

    async def receive() -> dict[str, Any]:
        return {"type": "http.request", "body": b"", "more_body": False}

    async def send(message: dict[str, Any]) -> None:
        sent.append(message)

    async def run() -> None:
        try:
            await app(scope, receive, send)
        except Exception:  # what uvicorn would answer: a 500
            sent.append({"type": "http.response.start", "status": 500})

    loops.run(run())
    status = next(m["status"] for m in sent if m["type"] == "http.response.start")
    return status, b"".join(m.get("body", b"") for m in sent if m["type"] == "http.response.body")


# ----- bad input is a 4xx, never a 500 -------------------------------------------------------
def test_a_deeply_nested_board_is_a_4xx(client: TestClient) -> None:
    for depth in (100, 1_000, 50_000):
        body = '{"board": ' + "[" * depth + "]" * depth + "}"
        r = client.post("/api/games", content=body, headers=JSON)
        assert 400 <= r.status_code < 500, (depth, r.status_code)


def test_a_huge_body_is_413_before_it_is_read(client: TestClient, game: dict[str, Any]) -> None:
    before = board(client, game["id"])
    big = json.dumps({"board": "1" * 2_000_000})
    refused(client.post("/api/games", content=big, headers=JSON), 413)
    assert board(client, game["id"]) == before


def test_integers_of_any_length_are_4xx(client: TestClient, game: dict[str, Any]) -> None:
    for digits in (30, 5_000, 100_000):
        n = "9" * digits
        for path, body in (
            ("/api/games", f'{{"deal": {n}}}'),
            (f"/api/games/{game['id']}/move", f'{{"move": "1e", "revision": {n}}}'),
            (f"/api/games/{game['id']}/hint", f'{{"level": {n}}}'),
        ):
            r = client.post(path, content=body, headers=JSON)
            assert 400 <= r.status_code < 500, (path, digits, r.status_code)
        if digits < 10_000:  # the client's own URL limit
            assert 400 <= client.get(f"/api/games/{n}").status_code < 500


def test_any_bytes_are_4xx(client: TestClient, game: dict[str, Any]) -> None:
    for raw in (b"\x00\xff\xfe", b"\xc3\x28", bytes(range(256)), b'{"move": "\\ud800"}'):
        r = client.post(f"/api/games/{game['id']}/move", content=raw, headers=JSON)
        assert 400 <= r.status_code < 500, raw
