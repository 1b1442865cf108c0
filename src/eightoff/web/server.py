"""Run the web table: uvicorn on 127.0.0.1, a free port, the browser opened.

``eightoff play`` calls :func:`serve`; ``python -m eightoff.web.server`` does the same
with the same flags (the tests use it to start and kill a real server).
"""

from __future__ import annotations

import argparse
import ipaddress
import os
import socket
import sys
import threading
import time
import webbrowser
from pathlib import Path

import platformdirs
import uvicorn

from eightoff.store import StoreError
from eightoff.web.app import create_app

DB_ENV = "EIGHTOFF_DB"
DB_NAME = "eightoff.sqlite3"


def default_db() -> Path:
    """The database in the user's data directory (e.g. ~/.local/share/eightoff)."""
    return platformdirs.user_data_path("eightoff", appauthor=False) / DB_NAME


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
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    # accepted connections inherit it: without it a keep-alive answer written in two parts
    # waits for the client's delayed ACK (~40 ms a request)
    sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    try:
        sock.bind((host.strip("[]"), port))
    except OSError as e:
        sock.close()
        raise SystemExit(f"eightoff: cannot listen on {host}:{port}: {e.strerror or e}") from None
    sock.set_inheritable(True)
    return sock


def serve(host: str, port: int | None, db: str | None, open_browser: bool) -> None:
    """Serve the table until Ctrl+C. ``port`` None (or 0) picks a free port."""
    db_path = resolve_db(db)
    if not is_loopback(host):
        print(
            f"eightoff: warning: listening on {host}, not on loopback: anyone who can reach"
            " this machine can play your games and change your settings",
            file=sys.stderr,
            flush=True,
        )
    try:
        app = create_app(db_path)
    except (StoreError, OSError) as e:
        raise SystemExit(f"eightoff: {e} (choose another file with --db or {DB_ENV})") from None
    sock = _bind(host, port or 0)
    actual_port = sock.getsockname()[1]
    config = uvicorn.Config(
        app,
        log_level="warning",
        access_log=False,
        timeout_graceful_shutdown=2,
        timeout_keep_alive=30,  # fewer idle connections closed just as a client reuses them
    )
    server = uvicorn.Server(config)
    url = url_for(host, actual_port)
    print(f"eightoff: the table is at {url}  (games in {db_path}; Ctrl+C stops)", flush=True)
    if open_browser:
        threading.Thread(target=_open_when_started, args=(server, url), daemon=True).start()
    try:
        server.run(sockets=[sock])
    finally:
        sock.close()


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
    serve(args.host, args.port, args.db, not args.no_browser)
    return 0


if __name__ == "__main__":
    sys.exit(main())
