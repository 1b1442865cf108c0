"""Which table serves a database *file*: a lock and a runtime file per file, as Jupyter's
``jpserver-*.json``.

A database is known by its file (device and inode), not by its path: a hard link or a
second path to the same file is the same database. SQLite names its write-ahead log
after the path it was opened by, so two servers on two names of one file would each
write their own log and lose the other's moves; the lock stops that.

For each database file served, the user's runtime folder (``$XDG_RUNTIME_DIR/eightoff``,
else platformdirs' fallback; ``$EIGHTOFF_RUNTIME_DIR`` to choose another; mode 0700)
holds:

* ``table-DEV-INODE.lock``: ``flock``-ed by the serving process for its whole life (the
  kernel drops it when the process ends, killed or not, so a lock is never stale);
* ``table-DEV-INODE.json`` (mode 0600: it holds the access token): the server's pid,
  URL with its token, and the database's path;
* ``table-DEV-INODE.html`` (mode 0600): the page the browser is opened at, which sends
  it on to the table's address with its token. A browser is a program started with the
  address as an argument, and every user of the machine can read a program's arguments
  (``ps``); so the argument is this file's name, never the token (Jupyter's redirect file).

Each server makes a new access token when it starts: a token is worth nothing once its
server has ended (a tab left open on a stopped table sends it to whatever listens on
that port next, and a page served there can read what the tab kept).

A second ``eightoff play`` on the same file (by any of its names) finds the lock taken,
reads the file and points to the first server. Files left by a killed server are
removed the next time a table starts.
"""

from __future__ import annotations

import contextlib
import html
import json
import os
import secrets
import stat
import time
import warnings
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final

from eightoff.i18n import Message
from eightoff.store.files import written_whole

try:
    import fcntl
except ImportError:  # pragma: no cover - not POSIX: no lock (one server per path only)
    fcntl = None  # type: ignore[assignment]

RUNTIME_ENV: Final = "EIGHTOFF_RUNTIME_DIR"


class RuntimeDirError(Exception):
    """The runtime folder cannot be used safely (one line)."""


def runtime_dir() -> Path:
    """The user's runtime folder for eightoff, created with mode 0700. Raises
    :class:`RuntimeDirError` if it is another user's or open to others and not ours to fix."""
    given = os.environ.get(RUNTIME_ENV)
    folder = Path(given).expanduser() if given else None
    try:
        if folder is None:
            folder = _platform_runtime_dir()
        folder.mkdir(mode=0o700, parents=True, exist_ok=True)
        info = folder.stat()
        if info.st_uid != os.geteuid():
            raise RuntimeDirError(
                Message("cli.play.runtime_owner", folder=str(folder), env=RUNTIME_ENV)
            )
        if stat.S_IMODE(info.st_mode) & 0o077:
            folder.chmod(0o700)
    except OSError as e:
        why = str(e.strerror or e)
        where = str(folder) if folder else "$XDG_RUNTIME_DIR"  # platformdirs' fallback refused
        raise RuntimeDirError(
            Message("cli.play.runtime_folder", folder=where, error=why, env=RUNTIME_ENV)
        ) from None
    return folder


def _platform_runtime_dir() -> Path:
    """platformdirs' runtime folder for eightoff (``$XDG_RUNTIME_DIR/eightoff``, or its
    fallback ``/tmp/runtime-UID/eightoff``, which it refuses, with a PermissionError, when
    another user made that folder first)."""
    import platformdirs

    with warnings.catch_warnings():  # "XDG_RUNTIME_DIR is not set": its fallback is fine
        warnings.simplefilter("ignore")
        return platformdirs.user_runtime_path("eightoff", appauthor=False)


@dataclass(frozen=True, slots=True)
class FileId:
    """A file's identity: its device and inode."""

    dev: int
    ino: int

    @classmethod
    def of(cls, path: Path) -> FileId:
        info = path.stat()
        return cls(info.st_dev, info.st_ino)

    @property
    def stem(self) -> str:
        return f"table-{self.dev}-{self.ino}"


@dataclass(frozen=True, slots=True)
class Running:
    """A table another process serves: what its runtime file says."""

    pid: int
    url: str
    db: str


class Claim:
    """This process serves the database file ``file``: the lock is held until :meth:`release`."""

    def __init__(self, folder: Path, file: FileId, fd: int | None) -> None:
        self.folder = folder
        self.file = file
        self._fd = fd
        self.info = folder / f"{file.stem}.json"
        self.token: Final = secrets.token_urlsafe(24)
        """This server's access token (random, 32 characters): made when it starts, so
        that one left in a tab or a page after the server ended opens nothing."""

    def publish(self, pid: int, url: str, db: Path) -> None:
        """Write the runtime file (mode 0600), whole or not at all."""
        data = {"app": "eightoff", "pid": pid, "url": url, "db": str(db)}
        with written_whole(self.info, mode=0o600) as out:
            json.dump(data, out)

    def release(self) -> None:
        for done in (self.info, self.info.with_suffix(".html")):
            with contextlib.suppress(OSError):
                done.unlink()
        if self._fd is not None:
            with contextlib.suppress(OSError):
                (self.folder / f"{self.file.stem}.lock").unlink()
            os.close(self._fd)  # the lock goes with it
            self._fd = None


def _locked(fd: int) -> int | None:
    """``fd`` once this process holds its lock, or None (closed) if another one does."""
    try:
        if fcntl is not None:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        os.close(fd)
        return None
    return fd


def _lock(path: Path) -> int | None:
    """The lock file's descriptor, locked; None if another process holds it."""
    fd = _locked(os.open(path, os.O_RDWR | os.O_CREAT, 0o600))
    if fd is None:
        return None
    # the holder may have removed the file between our open and our lock: then ours
    # locks a name nobody else will find; take the new one instead
    try:
        same = os.fstat(fd).st_ino == path.stat().st_ino
    except OSError:
        same = False
    if not same:
        os.close(fd)
        return _lock(path)
    return fd


def _read(path: Path) -> Running | None:
    try:
        data: Any = json.loads(path.read_text(encoding="utf-8"))
        return Running(int(data["pid"]), str(data["url"]), str(data["db"]))
    except (OSError, ValueError, KeyError, TypeError):
        return None


def claim(db: Path, *, wait: float = 10.0) -> Claim | Running | None:
    """Serve the file ``db`` (which exists): a :class:`Claim` if no other process of this
    user serves it, else what the other one's runtime file says (:class:`Running`), or
    None if the other one holds the lock but has written no runtime file within
    ``wait`` seconds (it is starting, or stuck)."""
    folder = runtime_dir()
    _sweep(folder)
    file = FileId.of(db)
    deadline = time.monotonic() + wait
    while True:
        fd = _lock(folder / f"{file.stem}.lock")
        if fd is not None:
            return Claim(folder, file, fd)
        found = _read(folder / f"{file.stem}.json")
        if found is not None:
            return found
        if time.monotonic() >= deadline:
            return None
        time.sleep(0.1)


def browser_page(db: Path, url: str) -> Path:
    """The page (mode 0600, in the runtime folder) to open the browser at for ``url`` (the
    table's address with its token) of the database file ``db``: it sends the browser on
    to ``url`` and shows it as a link. Raises OSError or RuntimeDirError."""
    shown = html.escape(url, quote=True)
    page = (
        '<!DOCTYPE html>\n<html><head><meta charset="utf-8">'
        f'<meta http-equiv="refresh" content="0;url={shown}">'
        f'<title>eightoff</title></head><body><p><a href="{shown}">eightoff</a></p>'
        "</body></html>\n"
    )
    path = runtime_dir() / f"{FileId.of(db).stem}.html"
    with written_whole(path, mode=0o600) as out:
        out.write(page)
    return path


def _sweep(folder: Path) -> None:
    """Remove the files of servers that ended without removing them (killed), and the
    access tokens older versions kept for the session (``table-*.token``)."""
    for lock in folder.glob("table-*.lock"):
        fd = _lock_once(lock)
        if fd is None:
            continue
        for left in (lock.with_suffix(".json"), lock.with_suffix(".html"), lock):
            with contextlib.suppress(OSError):
                left.unlink()
        os.close(fd)
    for kept in folder.glob("table-*.token"):
        with contextlib.suppress(OSError):
            kept.unlink()


def _lock_once(path: Path) -> int | None:
    """An existing lock file's descriptor, locked (without a lock: never, so nothing
    is swept); None if it is gone or held."""
    if fcntl is None:  # pragma: no cover
        return None
    try:
        fd = os.open(path, os.O_RDWR)
    except OSError:
        return None
    return _locked(fd)
