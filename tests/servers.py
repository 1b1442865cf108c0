"""Real `eightoff play` servers in subprocesses, and files this process cannot write:
the helpers the tests of restarts, two servers and read-only stores share."""

from __future__ import annotations

import os
import re
import shutil
import sqlite3
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from pathlib import Path

import httpx2
import pytest

URL = re.compile(r"(http://127\.0\.0\.1:\d+)/\?token=([A-Za-z0-9_-]+)")
ENV = {
    **{
        k: v
        for k, v in os.environ.items()
        if k != "EIGHTOFF_DB" and not k.startswith(("LC_", "LANG"))  # the table's words: English
    },
    "PYTHONUNBUFFERED": "1",
}


def play(db: Path, *extra: str) -> subprocess.Popen[str]:
    """`eightoff play --no-browser --db DB` as a subprocess (not yet waited for)."""
    return subprocess.Popen(
        [sys.executable, "-m", "eightoff.cli", "play", "--no-browser", "--db", str(db), *extra],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=ENV,
    )


def wait_ready(proc: subprocess.Popen[str], base: str) -> None:
    """Return once the server at BASE answers; fail if its process ends first."""
    for _ in range(600):
        if proc.poll() is not None:
            raise AssertionError(f"the server exited with {proc.returncode}")
        try:
            httpx2.get(base + "/api/server", timeout=2)
            return
        except httpx2.TransportError:
            with suppress(subprocess.TimeoutExpired):
                proc.wait(timeout=0.05)
    raise AssertionError("the server did not answer")


def stop(proc: subprocess.Popen[str]) -> None:
    if proc.poll() is None:
        proc.kill()
    proc.wait(timeout=30)
    for stream in (proc.stdout, proc.stderr):
        if stream is not None:
            stream.close()


def auth(token: str) -> dict[str, str]:
    """The header that lets a request through a server's guard (as the page sends it)."""
    return {"authorization": f"token {token}"}


def token_of(line: str) -> tuple[str, str]:
    """(base URL, access token) from the line `eightoff play` prints."""
    found = URL.search(line)
    assert found and "the table is at" in line, f"no URL with a token in {line!r}"
    return found.group(1), found.group(2)


@contextmanager
def served(db: Path, *extra: str) -> Iterator[tuple[subprocess.Popen[str], str, str]]:
    """A running `eightoff play` on DB: its process, its base URL and its access token."""
    proc = play(db, *extra)
    try:
        assert proc.stdout is not None
        line = proc.stdout.readline()  # printed before serving starts
        if not URL.search(line):
            stop(proc)
            raise AssertionError(
                f"no URL in {line!r}; stderr: {proc.stderr.read() if proc.stderr else ''}"
            )
        base, token = token_of(line)
        wait_ready(proc, base)
        yield proc, base, token
    finally:
        stop(proc)


def another_programs_database(path: Path) -> bytes:
    """An SQLite file of another program at PATH (a table of its own, one row); returns
    its bytes, to check that eightoff left it as it was."""
    with sqlite3.connect(path) as c:
        c.execute("CREATE TABLE contacts (name TEXT)")
        c.execute("INSERT INTO contacts VALUES ('Ada')")
    c.close()
    return path.read_bytes()


@contextmanager
def tmpfs_mount(folder: Path, size: str = "16m") -> Iterator[Path]:
    """FOLDER (empty) made a filesystem of its own of ``size`` (a full disk), writable
    until :func:`remount_read_only` makes it read-only as a DVD or a read-only share is
    (root with the right to mount: else the test is skipped); unmounted at the end."""
    if os.geteuid() != 0 or shutil.which("mount") is None:
        pytest.skip("mounting a filesystem needs root")
    folder.mkdir(parents=True, exist_ok=True)
    done = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", f"size={size}", "tmpfs", str(folder)],
        capture_output=True,
        check=False,
    )
    if done.returncode != 0:
        pytest.skip(f"mount is not allowed here: {done.stderr.decode(errors='replace')}")
    try:
        yield folder
    finally:
        subprocess.run(["umount", "-l", str(folder)], check=False)


def remount_read_only(folder: Path) -> None:
    """The filesystem of :func:`tmpfs_mount` mounted read-only from now on."""
    subprocess.run(["mount", "-o", "remount,ro", str(folder)], check=True)


@contextmanager
def read_only(path: Path) -> Iterator[Path]:
    """PATH made unwritable for this process (root: `chattr +i`, else mode 444)."""
    if os.geteuid() == 0:
        if shutil.which("chattr") is None:
            pytest.skip("root without chattr: cannot make a read-only file")
        done = subprocess.run(["chattr", "+i", str(path)], capture_output=True, check=False)
        if done.returncode != 0:
            pytest.skip("chattr +i is not allowed here")
        try:
            yield path
        finally:
            subprocess.run(["chattr", "-i", str(path)], check=False)
    else:
        path.chmod(0o444)
        try:
            yield path
        finally:
            path.chmod(0o644)
