"""Run the web table: uvicorn on 127.0.0.1, a free port, the browser opened.

``eightoff play`` calls :func:`serve`; ``python -m eightoff.web.server`` does the same
with the same flags (the tests use it to start and kill a real server).

One server per database: the database keeps a record of the server serving it (its
process id and URL). A second ``eightoff play`` on the same file finds the first one
alive (its process exists and its address answers as that eightoff process), prints
its address, opens the browser there and exits 0. A record left by a killed server is
recognised as stale and replaced.
"""

from __future__ import annotations

import argparse
import contextlib
import gc
import ipaddress
import json
import os
import secrets
import socket
import sys
import threading
import time
import urllib.request
import webbrowser
from pathlib import Path
from urllib.parse import urlsplit

import uvicorn

from eightoff.cli.exits import EX_CANTCREAT, EX_OK, EX_UNAVAILABLE
from eightoff.store import ServerRecord, Store, StoreError, default_data_dir
from eightoff.web.app import create_app
from eightoff.web.security import ANY_ADDRESS

DB_ENV = "EIGHTOFF_DB"
DB_NAME = "eightoff.sqlite3"


def default_db() -> Path:
    """The database in the user's data directory (e.g. ~/.local/share/eightoff)."""
    return default_data_dir() / DB_NAME


def resolve_db(db: str | None) -> Path:
    """``--db`` if given, else ``$EIGHTOFF_DB``, else the user data directory."""
    if db:
        return Path(db).expanduser()
    env = os.environ.get(DB_ENV)
    if env:
        return Path(env).expanduser()
    return default_db()


def is_loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def url_for(host: str, port: int) -> str:
    shown = f"[{host}]" if ":" in host and not host.startswith("[") else host
    if host in ("0.0.0.0", "::"):
        shown = "127.0.0.1" if host == "0.0.0.0" else "[::1]"
    return f"http://{shown}:{port}/"


def _bind(host: str, port: int) -> socket.socket:
    """A listening socket; OSError if the address cannot be used."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    # accepted connections inherit it: without it a keep-alive answer written in two parts
    # waits for the client's delayed ACK (~40 ms a request)
    sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    try:
        sock.bind((host.strip("[]"), port))
    except OSError:
        sock.close()
        raise
    sock.listen(128)  # connections wait in the backlog until uvicorn serves them
    sock.set_inheritable(True)
    return sock


def _alive(record: ServerRecord) -> bool:
    """Is the recorded server running: its process exists and its address answers as
    that eightoff process (a reused pid or port is not mistaken for it)?"""
    if record.pid == os.getpid():
        return False
    try:
        os.kill(record.pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        pass  # exists, another user's
    parts = urlsplit(record.url)
    query = f"?{parts.query}" if parts.query else ""
    probe = f"{parts.scheme}://{parts.netloc}/api/server{query}"
    try:
        opener = urllib.request.build_opener(urllib.request.ProxyHandler({}))  # no proxy
        with opener.open(probe, timeout=10) as answer:
            info = json.loads(answer.read(4096))
    except (OSError, ValueError):
        return False
    return (
        isinstance(info, dict) and info.get("app") == "eightoff" and info.get("pid") == record.pid
    )


def _lan_address() -> str | None:
    """This machine's address on its local network (no packet is sent), if any."""
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
            s.connect(("192.0.2.1", 9))  # TEST-NET-1: only picks the outgoing interface
            address = str(s.getsockname()[0])
    except OSError:
        return None
    return None if address.startswith("127.") else address


def _claim(store: Store, url: str) -> ServerRecord | None:
    """Record this process as the database's server, unless a live one is recorded:
    then return that one."""
    for _ in range(5):
        seen = store.server()
        if seen is not None and _alive(seen):
            return seen
        with store.claim_server() as claim:
            if claim.current == seen:  # nobody else claimed it meanwhile
                claim.take(os.getpid(), url)
                return None
    return store.server()


def serve(host: str, port: int | None, db: str | None, open_browser: bool) -> int:
    """Serve the table until Ctrl+C, or point to the server that already serves ``db``.
    Returns the exit status (64 and up when the database or the address cannot be used)."""
    db_path = resolve_db(db)
    loopback = is_loopback(host)
    if not loopback:
        print(
            f"eightoff: warning: listening on {host}, not on loopback: anyone on the network"
            " with the URL below (it carries an access token) can play your games",
            file=sys.stderr,
            flush=True,
        )
    try:
        store = Store(db_path)
        store.check_writable()
    except StoreError as e:
        print(f"eightoff: {e} (or set {DB_ENV})", file=sys.stderr)
        return EX_CANTCREAT
    try:
        sock = _bind(host, port or 0)
    except OSError as e:
        store.close()
        print(f"eightoff: cannot listen on {host}:{port}: {e.strerror or e}", file=sys.stderr)
        return EX_UNAVAILABLE
    actual_port = sock.getsockname()[1]
    token = None if loopback else secrets.token_urlsafe(24)
    url = url_for(host, actual_port) + ("" if token is None else f"?token={token}")
    try:
        other = _claim(store, url)
    except StoreError as e:
        sock.close()
        store.close()
        print(f"eightoff: {e}", file=sys.stderr)
        return EX_CANTCREAT
    if other is not None:
        sock.close()
        store.close()
        print(f"eightoff: the table for {db_path} is already open at {other.url}", flush=True)
        if open_browser:
            webbrowser.open(other.url)
        return EX_OK
    app = create_app(
        db_path,
        hosts=None if host in ANY_ADDRESS else [host],
        port=actual_port,
        token=token,
    )
    config = uvicorn.Config(
        app,
        log_level="warning",
        access_log=False,
        timeout_graceful_shutdown=2,
        timeout_keep_alive=30,  # fewer idle connections closed just as a client reuses them
    )
    server = uvicorn.Server(config)
    # The modules' own objects (tens of thousands) are never freed: take them out of the
    # garbage collector's full passes, which otherwise stall a move now and then
    # (60-200 ms on a loaded machine, bench/README.md's live-verdict section).
    gc.freeze()
    print(f"eightoff: the table is at {url}  (games in {db_path}; Ctrl+C stops)", flush=True)
    if host in ANY_ADDRESS and token is not None:
        lan = _lan_address()
        if lan is not None:
            print(f"eightoff: from another device: {url_for(lan, actual_port)}?token={token}")
    if open_browser:
        threading.Thread(target=_open_when_started, args=(server, url), daemon=True).start()
    try:
        server.run(sockets=[sock])
    finally:
        sock.close()
        with contextlib.suppress(StoreError):
            store.release_server(os.getpid())
        store.close()
    return EX_OK


def _open_when_started(server: uvicorn.Server, url: str) -> None:
    deadline = time.monotonic() + 30
    while not server.started and time.monotonic() < deadline and not server.should_exit:
        time.sleep(0.05)
    if server.started:
        webbrowser.open(url)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m eightoff.web.server")
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=None)
    parser.add_argument("--db", default=None)
    parser.add_argument("--no-browser", action="store_true")
    args = parser.parse_args(argv)
    return serve(args.host, args.port, args.db, not args.no_browser)


if __name__ == "__main__":
    sys.exit(main())
