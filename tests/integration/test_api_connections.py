"""A client cannot hold the server: a request's headers and body must arrive in time,
and connections beyond the cap are closed at once (issue 24.5). Everything on
127.0.0.1, a few tens of sockets, each wait bounded."""

from __future__ import annotations

import socket
import subprocess
import sys
from collections.abc import Iterator
from contextlib import ExitStack
from pathlib import Path

import httpx2
import pytest

from tests.servers import ENV, stop, token_of, wait_ready

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="POSIX processes")

CAP = 8
WAIT = 30.0  # the longest any socket waits for the server to act (the limits are 1 s)


def _serve(db: Path, seconds: int) -> Iterator[tuple[str, int]]:
    proc = subprocess.Popen(
        [sys.executable, "-m", "eightoff.web.server", "--no-browser", "--db", str(db),
         "--header-timeout", str(seconds), "--body-timeout", str(seconds),
         "--max-connections", str(CAP)],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=ENV,
    )  # fmt: skip
    try:
        assert proc.stdout is not None
        base, _token = token_of(proc.stdout.readline())
        wait_ready(proc, base)
        yield base, int(base.rsplit(":", 1)[1])
    finally:
        stop(proc)


@pytest.fixture
def server(tmp_path: Path) -> Iterator[tuple[str, int]]:
    """A table whose clients have 1 s for a request's headers, and for its body."""
    yield from _serve(tmp_path / "g.sqlite3", 1)


@pytest.fixture
def patient_server(tmp_path: Path) -> Iterator[tuple[str, int]]:
    """A table whose clients have a minute (longer than any test here waits)."""
    yield from _serve(tmp_path / "g.sqlite3", 60)


def half_request(port: int, part: bytes) -> socket.socket:
    s = socket.create_connection(("127.0.0.1", port), timeout=WAIT)
    s.sendall(part)
    return s


def closed_by_server(s: socket.socket) -> bool:
    """True once the server closes the connection (it never answers a half request)."""
    try:
        return s.recv(1024) == b""
    except ConnectionResetError:
        return True
    except TimeoutError:
        return False


HEAD = b"GET /api/server HTTP/1.1\r\nHost: 127.0.0.1\r\n"  # no blank line: never ends


def test_half_sent_headers_are_dropped_and_the_cap_holds(server: tuple[str, int]) -> None:
    base, port = server
    with ExitStack() as stack:
        held = [stack.enter_context(half_request(port, HEAD)) for _ in range(3 * CAP)]
        silent = stack.enter_context(socket.create_connection(("127.0.0.1", port), timeout=WAIT))
        assert all(closed_by_server(s) for s in [*held, silent])
    # and the server answers as before
    assert httpx2.get(base + "/api/server", timeout=WAIT).json()["app"] == "eightoff"


def test_a_body_that_stops_coming_is_dropped(server: tuple[str, int]) -> None:
    _base, port = server
    for host in (f"127.0.0.1:{port}", "evil.example"):  # let in, or refused by the guard
        start = (
            f"POST /api/games HTTP/1.1\r\nHost: {host}\r\nContent-Type: application/json\r\n"
            'Content-Length: 100\r\n\r\n{"deal":'
        ).encode()
        with half_request(port, start) as s:
            while True:  # a refusal may come first; then the connection must end too
                try:
                    got = s.recv(65536)
                except ConnectionResetError:
                    break
                except TimeoutError:
                    raise AssertionError(f"the server kept a body that stopped ({host})") from None
                if got == b"":
                    break


def test_headers_sent_a_byte_at_a_time_are_dropped(server: tuple[str, int]) -> None:
    """A trickle keeps no connection: the time runs from the request's first byte."""
    _base, port = server
    with socket.create_connection(("127.0.0.1", port), timeout=WAIT) as s:
        s.settimeout(0.25)
        for byte in HEAD * 20:  # a head that never ends, at most 4 bytes a second
            try:
                s.send(bytes([byte]))
            except (BrokenPipeError, ConnectionResetError):
                return  # closed by the server
            try:
                if s.recv(1024) == b"":
                    return
            except TimeoutError:
                continue
            except ConnectionResetError:
                return
    raise AssertionError("the server kept a trickling connection open")


def test_connections_left_open_and_silent_do_not_keep_the_player_out(
    patient_server: tuple[str, int],
) -> None:
    """Any local user could fill the cap with connections that send nothing, or half a
    request, and the player's requests were closed at once until the timeouts ran out
    (and again after each reconnection). Now the connection that waited longest makes
    room for a new one."""
    base, port = patient_server
    with ExitStack() as stack:
        silent = [
            stack.enter_context(socket.create_connection(("127.0.0.1", port), timeout=WAIT))
            for _ in range(CAP // 2)
        ]
        halves = [stack.enter_context(half_request(port, HEAD)) for _ in range(CAP // 2)]
        for _ in range(3):  # each a new connection: each makes room
            with httpx2.Client(timeout=WAIT) as player:
                assert player.get(base + "/api/server").json()["app"] == "eightoff"
        # the one that waited longest made room; the newest stays open
        assert closed_by_server(silent[0])
        halves[-1].settimeout(0.5)
        assert not closed_by_server(halves[-1])
