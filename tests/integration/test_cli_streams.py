"""The command line with its streams closed, an output encoding without the cards'
symbols, and stopped by a signal: one documented status and at most one line each
(issue 24.7, 24.8). Every process is waited for at most a minute."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import httpx2
import pytest

from tests.cli import ctrl_c_as_at_a_terminal
from tests.servers import ENV, auth, served

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="POSIX file descriptors")

CLI = [sys.executable, "-m", "eightoff.cli"]


def run(*args: str, closed: int | None = None) -> subprocess.CompletedProcess[str]:
    """The command with file descriptor ``closed`` (0 or 1) closed, as `<&-` / `>&-` do."""
    preexec = None if closed is None else (lambda: os.close(closed))
    return subprocess.run(
        [*CLI, *args],
        stdout=subprocess.DEVNULL if closed == 1 else subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        timeout=60,
        preexec_fn=preexec,
    )


def one_line(err: str) -> str:
    assert err.count("\n") == 1 and "Traceback" not in err, err
    return err


def test_a_closed_standard_output_is_74_in_one_line() -> None:
    for args in (("solve", "1"), ("deal", "5"), ("variants",)):
        done = run(*args, closed=1)
        assert done.returncode == 74, (args, done.stderr)
        assert "standard output is closed" in one_line(done.stderr)


def test_a_closed_standard_input_is_66_in_one_line(tmp_path: Path) -> None:
    for args in (("solve", "--board", "-"), ("play", "--terminal", "--deal", "3")):
        done = run(*args, closed=0)
        assert done.returncode == 66, (args, done.stderr)
        assert "standard input is closed" in one_line(done.stderr)
    assert run("deal", "5", closed=0).returncode == 0  # a command that does not read it


@pytest.mark.parametrize("encoding", ["ascii", "latin-1"])
def test_an_output_encoding_without_the_symbols_gets_them_plainly(encoding: str) -> None:
    done = subprocess.run(
        [*CLI, "deal", "5"], capture_output=True, timeout=60,
        env={**os.environ, "PYTHONIOENCODING": encoding},
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    text = done.stdout.decode(encoding)
    assert "KD" in text and "AH" in text and "♦" not in text  # K♦, A♥ of deal 5
    assert done.stderr == b""
    solved = subprocess.run(
        [*CLI, "solve", "5"], capture_output=True, timeout=60,
        env={**os.environ, "PYTHONIOENCODING": encoding},
    )  # fmt: skip
    assert solved.returncode == 0 and solved.stderr == b"", solved.stderr
    assert solved.stdout.decode(encoding).strip()


def test_help_and_version_to_a_full_disk_exit_0_silently() -> None:
    if not Path("/dev/full").exists():
        pytest.skip("no /dev/full here")
    for args in (("--help",), ("--version",), ("solve", "--help")):
        with open("/dev/full", "w") as full:
            done = subprocess.run([*CLI, *args], stdout=full, stderr=subprocess.PIPE,
                                  text=True, timeout=60)  # fmt: skip
        assert done.returncode == 0 and done.stderr == "", (args, done.stderr)


def test_an_address_that_cannot_be_listened_on_is_one_line(tmp_path: Path) -> None:
    done = run("play", "--no-browser", "--host", "999.1.1.1", "--db", str(tmp_path / "g.db"))
    assert done.returncode == 69
    assert "cannot listen on 999.1.1.1" in one_line(done.stderr)


def _first_line_out(proc: subprocess.Popen[str]) -> None:
    assert proc.stdout is not None
    assert proc.stdout.readline()  # it is working: its first line is out


def _stopped(
    args: list[str],
    sig: int,
    working: Callable[[subprocess.Popen[str]], None] = _first_line_out,
    stdin: int | None = None,
) -> subprocess.CompletedProcess[str]:
    """The command, sent ``sig`` once ``working`` says it is at work."""
    proc = subprocess.Popen(
        [*CLI, *args], stdin=stdin, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        env=ENV, preexec_fn=ctrl_c_as_at_a_terminal,
    )  # fmt: skip
    try:
        working(proc)
        proc.send_signal(sig)
        out, err = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait(30)
    return subprocess.CompletedProcess(args, proc.returncode, out, err)


@pytest.mark.parametrize(("sig", "status"), [(signal.SIGTERM, 143), (signal.SIGINT, 130)])
def test_solve_stopped_by_a_signal(sig: int, status: int) -> None:
    done = _stopped(["solve", "1-100000", "--variant", "freecell", "--json"], sig)
    assert done.returncode == status
    word = "stopped by SIGTERM" if sig == signal.SIGTERM else "interrupted"
    assert word in one_line(done.stderr)


def _cpu_seconds(pid: int) -> float:
    """CPU seconds (user + system) process ``pid`` has used so far (Linux /proc)."""
    stat = Path(f"/proc/{pid}/stat").read_text()
    fields = stat[stat.rfind(")") + 2 :].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads /proc")
@pytest.mark.parametrize(("sig", "status"), [(signal.SIGINT, 130), (signal.SIGTERM, 143)])
@pytest.mark.parametrize("disk", ["0", "4G"])
def test_a_long_search_stops_at_once_on_ctrl_c_or_sigterm(
    tmp_path: Path, sig: int, status: int, disk: str
) -> None:
    """One deal searched for minutes (FreeCell deal 1568 with 1 cell: lost after 154
    million states, about 5 minutes of CPU) stops when told, not at its ten-minute limit:
    in memory (where the signal waited for the limit before) and on disk (where what it
    began after its last complete layer is removed, and those layers, if any, are kept
    for the same command to go on from, in a directory a line on stderr names:
    tests/unit/test_kept_search.py)."""
    import time

    args = ["solve", "1568", "--variant", "freecell", "--cells", "1", "--time-limit", "600"]
    args += ["--memory", "64M" if disk != "0" else "2G", "--disk", disk]
    args += ["--disk-dir", str(tmp_path)]

    def searching(proc: subprocess.Popen[str]) -> None:
        """On disk once its files are there, else after 2 s of CPU."""
        deadline = time.monotonic() + 120
        while not (any(tmp_path.iterdir()) if disk != "0" else _cpu_seconds(proc.pid) > 2):
            assert proc.poll() is None and time.monotonic() < deadline, proc.communicate()
            time.sleep(0.1)

    done = _stopped(args, sig, searching)
    assert done.returncode == status and done.stdout == ""
    word = "stopped by SIGTERM" if sig == signal.SIGTERM else "interrupted"
    lines = done.stderr.splitlines()
    assert word in lines[-1] and "Traceback" not in done.stderr, done.stderr
    left = list(tmp_path.iterdir())
    if disk == "0":
        assert left == [] and len(lines) == 1
    else:  # a kept search, named on stderr, or nothing
        assert all(p.name.startswith("eightoff-keep-") and (p / "M").exists() for p in left)
        assert len(lines) == 1 + len(left) and all(str(p) in done.stderr for p in left)


def test_rate_and_a_survey_stopped_by_sigterm(tmp_path: Path) -> None:
    done = _stopped(["rate", "1-1000", "--json"], signal.SIGTERM)
    assert done.returncode == 143 and "stopped by SIGTERM" in one_line(done.stderr)
    db = tmp_path / "s.sqlite3"
    proc = subprocess.Popen(
        [*CLI, "survey", "1", "100000", "--db", str(db), "--workers", "1", "--states", "2"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=ENV,
    )  # fmt: skip
    try:
        import sqlite3
        import time

        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            try:
                with sqlite3.connect(db, timeout=10) as c:
                    if c.execute("SELECT COUNT(*) FROM survey_results").fetchone()[0] > 10:
                        break
            except sqlite3.OperationalError:
                pass
            time.sleep(0.1)
        proc.send_signal(signal.SIGTERM)
        _out, err = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait(30)
    assert proc.returncode == 143
    last = err.strip().splitlines()[-1]
    assert last.startswith("stopped by SIGTERM:") and "deals saved this run" in last, err


def test_play_stopped_by_sigterm_keeps_every_move(tmp_path: Path) -> None:
    db = tmp_path / "g.sqlite3"
    with served(db) as (proc, base, token):
        g = httpx2.post(base + "/api/games", json={"deal": 9}, headers=auth(token), timeout=30)
        game = g.json()
        moved = httpx2.post(
            f"{base}/api/games/{game['id']}/move",
            json={"move": game["legal_moves"][0]["notation"]},
            headers=auth(token),
            timeout=30,
        )
        assert moved.status_code == 200
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(timeout=60) == 143
        assert proc.stderr is not None
        assert "stopped by SIGTERM" in one_line(proc.stderr.read())
    with served(db) as (_p, base, token):
        back = httpx2.get(base + "/api/games/current", headers=auth(token), timeout=30).json()
        assert back["id"] == game["id"] and back["turns"] == moved.json()["turns"]


def _at_the_prompt(proc: subprocess.Popen[str]) -> None:
    """The terminal game is waiting for an entry: its prompt is out."""
    assert proc.stdout is not None
    seen = ""
    while not seen.endswith("move> "):
        c = proc.stdout.read(1)
        assert c, (seen, proc.communicate())
        seen += c


def test_ctrl_c_at_the_terminal_games_prompt_is_130_in_one_line() -> None:
    """Ctrl+C is an interrupt, not a quit (which is 0): a script can tell them apart; and
    the line does not say a game was saved (the terminal game keeps none)."""
    args = ["play", "--terminal", "--deal", "3"]
    done = _stopped(args, signal.SIGINT, _at_the_prompt, stdin=subprocess.PIPE)
    assert done.returncode == 130
    assert "interrupted (the terminal game keeps no games)" in one_line(done.stderr)


@pytest.mark.skipif(not Path("/dev/zero").exists(), reason="reads /dev/zero")
def test_an_endless_line_into_the_terminal_game_is_65_in_one_line() -> None:
    """An entry is read a piece at a time, never a whole line of any length (it grew to
    gigabytes and ended in a MemoryError); a line past 1 MiB ends the game in one line."""
    with open("/dev/zero") as zeros:
        done = subprocess.run(
            [*CLI, "play", "--terminal", "--deal", "3"], stdin=zeros, capture_output=True,
            text=True, timeout=60, env=ENV,
        )  # fmt: skip
    assert done.returncode == 65
    assert "a line of more than 1048576 characters on standard input" in one_line(done.stderr)


def test_an_empty_host_is_refused_not_every_interface(tmp_path: Path) -> None:
    """``--host ""`` (an unset variable) listened on every interface and printed the
    address http://:PORT/."""
    for host in ("", " 127.0.0.1"):
        done = run("play", "--no-browser", "--host", host, "--db", str(tmp_path / "g.db"))
        assert done.returncode == 64
        assert "is not a host name or address" in one_line(done.stderr)
    assert not (tmp_path / "g.db").exists()
