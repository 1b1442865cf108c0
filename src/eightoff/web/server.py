"""Run the web table: uvicorn on 127.0.0.1, a free port, the browser opened.

``eightoff play`` calls :func:`serve`; ``python -m eightoff.web.server`` does the same
with the same flags (the tests use it to start and kill a real server).

One server per database *file* (:mod:`eightoff.web.runtime`): the server holds a lock
named after the file's device and inode and writes a runtime file (mode 0600) with its
URL and access token. A second ``eightoff play`` on the same file, by the same path or
another (a symbolic or hard link), finds the lock taken, prints the first server's
address with its token, opens the browser there and exits 0. The database also keeps a
record of its server (pid and URL, without the token), for a server of another user,
whose runtime folder this one cannot read. A record left by a killed server is
recognised as stale and replaced. A file with several names (hard links) is refused
(:meth:`eightoff.store.db.Database.check_one_name`), and so is a damaged one
(``quick_check``), before anything is served.

Every server has a random access token (Jupyter's model), loopback included: other
users of the machine can reach 127.0.0.1 too (see :mod:`eightoff.web.security`).
"""

from __future__ import annotations

import argparse
import contextlib
import gc
import ipaddress
import json
import os
import socket
import sys
import threading
import time
import urllib.request
import webbrowser
from pathlib import Path
from urllib.parse import urlsplit

import uvicorn

from eightoff.cli.exits import EX_CANTCREAT, EX_OK, EX_UNAVAILABLE, store_status
from eightoff.cli.say import said, text
from eightoff.store import ServerRecord, Store, StoreError, default_data_dir
from eightoff.web import runtime
from eightoff.web.app import create_app
from eightoff.web.limits import DEFAULT as DEFAULT_LIMITS
from eightoff.web.limits import Limited, Limits
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
    return _answers_as(record.url, record.pid)


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


def _answers_as(url: str, pid: int) -> bool:
    """Does the eightoff process ``pid`` answer at ``url`` (GET /api/server)?"""
    parts = urlsplit(url)
    probe = f"{parts.scheme}://{parts.netloc}/api/server"
    try:
        opener = urllib.request.build_opener(urllib.request.ProxyHandler({}))  # no proxy
        with opener.open(probe, timeout=10) as answer:
            info = json.loads(answer.read(4096))
    except (OSError, ValueError):
        return False
    return isinstance(info, dict) and info.get("app") == "eightoff" and info.get("pid") == pid


PROG = "eightoff"


def store_failed(error: StoreError) -> int:
    """Say in one line that the table's database cannot be used, and how to choose
    another (the DB_ENV variable); return the exit status."""
    print(text("cli.play.store", prog=PROG, error=said(error), env=DB_ENV), file=sys.stderr)
    return store_status(error)


"""The name the table's lines on the terminal begin with."""


def _point_to(url: str, db_path: Path, open_browser: bool) -> int:
    print(text("cli.play.already_open", prog=PROG, db=str(db_path), url=url), flush=True)
    if open_browser:
        _open_browser(db_path, url)
    return EX_OK


def _open_browser(db_path: Path, url: str) -> None:
    """Open the browser at ``url`` (the table's address with its token) through a page of
    the runtime folder (:func:`runtime.browser_page`): the browser's command line, which
    every user can read, names that file, not the token. A browser that stays in the
    foreground holds this process for 5 s at most."""
    try:
        page = runtime.browser_page(db_path, url)
    except (OSError, runtime.RuntimeDirError) as e:
        why = said(e) if isinstance(e, runtime.RuntimeDirError) else str(e.strerror or e)
        print(text("cli.play.no_browser_page", prog=PROG, error=why), file=sys.stderr, flush=True)
        return
    opener = threading.Thread(target=webbrowser.open, args=(page.as_uri(),), daemon=True)
    opener.start()
    opener.join(5)


def serve(
    host: str,
    port: int | None,
    db: str | None,
    open_browser: bool,
    *,
    limits: Limits = DEFAULT_LIMITS,
) -> int:
    """Serve the table until Ctrl+C, or point to the server that already serves ``db``.
    Returns the exit status (64 and up when the database or the address cannot be used).
    ``limits``: the time a client has to send a request, and how many connections it may
    hold (:mod:`eightoff.web.limits`)."""
    db_path = resolve_db(db)
    store: Store | None = None
    if not db_path.exists():  # a new file: no other name can be serving it
        try:
            store = Store(db_path)
        except StoreError as e:
            print(text("cli.play.store", prog=PROG, error=said(e), env=DB_ENV), file=sys.stderr)
            return EX_CANTCREAT
    try:
        claim = runtime.claim(db_path)
    except (runtime.RuntimeDirError, OSError) as e:
        if store is not None:
            store.close()
        why = said(e) if isinstance(e, runtime.RuntimeDirError) else f"{db_path}: {e.strerror or e}"
        print(f"{PROG}: {why}", file=sys.stderr)
        return EX_CANTCREAT
    if not isinstance(claim, runtime.Claim):
        if store is not None:
            store.close()
        if claim is not None and _answers_as(claim.url, claim.pid):
            return _point_to(claim.url, db_path, open_browser)
        who = "" if claim is None else f" (pid {claim.pid}, {claim.url})"
        print(text("cli.play.held", prog=PROG, db=str(db_path), who=who), file=sys.stderr)
        return EX_UNAVAILABLE
    try:
        return _serve_claimed(claim, store, host, port, db_path, open_browser, limits)
    finally:
        claim.release()


def _serve_claimed(
    claim: runtime.Claim,
    store: Store | None,
    host: str,
    port: int | None,
    db_path: Path,
    open_browser: bool,
    limits: Limits,
) -> int:
    """:func:`serve` once this process holds the database file's lock."""
    try:
        if store is None:
            store = Store(db_path)
        store.db.check_one_name()
        store.db.quick_check()
        store.check_writable()
    except StoreError as e:
        if store is not None:
            store.close()
        return store_failed(e)
    try:
        sock = _bind(host, port or 0)
    except OSError as e:
        store.close()
        where = f"{host}:{port}" if port else text("cli.play.any_port", host=host)
        why = str(e.strerror or e)
        print(text("cli.play.cannot_listen", prog=PROG, where=where, error=why), file=sys.stderr)
        return EX_UNAVAILABLE
    if not is_loopback(host):  # (after the bind: an address that cannot be used is one line)
        print(text("cli.play.not_loopback", prog=PROG, host=host), file=sys.stderr, flush=True)
    actual_port = sock.getsockname()[1]
    opened = store

    def give_up(code: int, line: str, *, error: bool = True) -> int:
        """Close the socket and the store, say ``line`` and return ``code``."""
        sock.close()
        opened.close()
        print(line, file=sys.stderr if error else sys.stdout, flush=True)
        return code

    def runtime_file_refused(e: OSError) -> int:
        why = str(e.strerror or e)
        return give_up(EX_CANTCREAT, text("cli.play.runtime_file", prog=PROG, error=why))

    token = claim.token
    base = url_for(host, actual_port)
    url = f"{base}?token={token}"
    try:
        other = _claim(store, base)  # the record in the file: no token there
    except StoreError as e:
        return give_up(EX_CANTCREAT, f"eightoff: {said(e)}")
    if other is not None:  # another user's server (this user's would hold the lock)
        line = text("cli.play.other_user", prog=PROG, db=str(db_path), url=other.url)
        return give_up(EX_OK, line, error=False)
    try:
        claim.publish(os.getpid(), url, db_path)
    except OSError as e:
        return runtime_file_refused(e)
    app = create_app(
        db_path,
        hosts=None if host in ANY_ADDRESS else [host],
        port=actual_port,
        token=token,
    )
    config = uvicorn.Config(
        app,
        http=Limited.with_limits(limits),  # header and body timeouts, a cap on connections
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
    print(text("cli.play.serving", prog=PROG, url=url, db=str(db_path)), flush=True)
    if host in ANY_ADDRESS:
        lan = _lan_address()
        if lan is not None:
            there = f"{url_for(lan, actual_port)}?token={token}"
            print(text("cli.play.lan", prog=PROG, url=there))
    if open_browser:
        opener = threading.Thread(
            target=_open_when_started, args=(server, db_path, url), daemon=True
        )
        opener.start()
    try:
        server.run(sockets=[sock])
    finally:
        sock.close()
        with contextlib.suppress(StoreError):
            store.release_server(os.getpid())
        store.close()
    return EX_OK


def _open_when_started(server: uvicorn.Server, db_path: Path, url: str) -> None:
    deadline = time.monotonic() + 30
    while not server.started and time.monotonic() < deadline and not server.should_exit:
        time.sleep(0.05)
    if server.started:
        _open_browser(db_path, url)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m eightoff.web.server")
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=None)
    parser.add_argument("--db", default=None)
    parser.add_argument("--no-browser", action="store_true")
    parser.add_argument("--header-timeout", type=float, default=DEFAULT_LIMITS.header_timeout)
    parser.add_argument("--body-timeout", type=float, default=DEFAULT_LIMITS.body_timeout)
    parser.add_argument("--max-connections", type=int, default=DEFAULT_LIMITS.max_connections)
    args = parser.parse_args(argv)
    limits = Limits(args.header_timeout, args.body_timeout, args.max_connections)
    return serve(args.host, args.port, args.db, not args.no_browser, limits=limits)


if __name__ == "__main__":
    sys.exit(main())
