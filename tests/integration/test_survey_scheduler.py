"""`survey --scheduler` against what is not, or stops being, a Dask scheduler: every
wait bounded, one line, exit 69, nothing stored lost, no Dask traceback or log line
(issue 24.10). Everything on 127.0.0.1; each process waited for at most a minute or two."""

from __future__ import annotations

import os
import signal
import socket
import sqlite3
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="POSIX processes")
pytest.importorskip("distributed")


def survey(db: Path, scheduler: str, last: int = 3) -> list[str]:
    return [
        *(sys.executable, "-m", "eightoff.survey", "1", str(last), "--db", str(db)),
        *("--scheduler", scheduler, "--states", "2", "--batch-size", "1", "--no-progress"),
    ]


def one_line_69(proc: subprocess.CompletedProcess[str]) -> str:
    assert proc.returncode == 69, (proc.returncode, proc.stderr)
    err = proc.stderr
    assert err.count("\n") == 1 and err.startswith("eightoff survey: error: "), err
    assert "Traceback" not in err and "Exception ignored" not in err
    return err


@pytest.fixture
def stalling_listener() -> Iterator[int]:
    """A listener that sends a plausible start of a Dask handshake, then nothing."""
    server = socket.create_server(("127.0.0.1", 0))
    server.settimeout(0.2)
    held: list[socket.socket] = []
    done = threading.Event()

    def serve() -> None:
        while not done.is_set() and len(held) < 8:
            try:
                conn, _ = server.accept()
            except TimeoutError:
                continue
            conn.sendall((100).to_bytes(8, "little"))
            held.append(conn)

    thread = threading.Thread(target=serve, daemon=True)
    thread.start()
    try:
        yield server.getsockname()[1]
    finally:
        done.set()
        thread.join(10)
        for conn in held:
            conn.close()
        server.close()


def test_a_handshake_that_stops_half_way_is_refused(tmp_path: Path, stalling_listener: int) -> None:
    proc = subprocess.run(
        survey(tmp_path / "s.db", f"tcp://127.0.0.1:{stalling_listener}"),
        capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    assert "no whole Dask handshake" in one_line_69(proc)


@pytest.mark.parametrize(
    ("address", "said"),
    [
        ("tls://127.0.0.1:1", "certificates"),
        ("ucx://127.0.0.1:1", "UCX"),
        ("inproc://nothing", "inside one process"),
    ],
)
def test_other_protocols_give_one_line_and_nothing_after(
    tmp_path: Path, address: str, said: str
) -> None:
    proc = subprocess.run(
        survey(tmp_path / "s.db", address), capture_output=True, text=True, timeout=90
    )
    assert said in one_line_69(proc)


SCHEDULER = """
import sys, time
from distributed import LocalCluster
cluster = LocalCluster(n_workers=1, threads_per_worker=1, processes=False, protocol="tcp",
                       dashboard_address=None, scheduler_kwargs={"host": "127.0.0.1"})
print(cluster.scheduler_address, flush=True)
time.sleep(600)
"""


def rows(db: Path) -> int:
    try:
        with sqlite3.connect(db, timeout=30) as c:
            return int(c.execute("SELECT COUNT(*) FROM survey_results").fetchone()[0])
    except sqlite3.OperationalError:
        return 0


@pytest.mark.slow
def test_a_scheduler_killed_mid_survey_gives_one_line_and_keeps_every_batch(
    tmp_path: Path,
) -> None:
    db = tmp_path / "s.db"
    cluster = subprocess.Popen(
        [sys.executable, "-c", SCHEDULER], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
        text=True,
    )  # fmt: skip
    run: subprocess.Popen[str] | None = None
    try:
        assert cluster.stdout is not None
        address = cluster.stdout.readline().strip()
        assert address.startswith("tcp://127.0.0.1:"), address
        run = subprocess.Popen(
            survey(db, address, last=100_000), stdout=subprocess.PIPE, stderr=subprocess.PIPE,
            text=True,
        )  # fmt: skip
        deadline = time.monotonic() + 120
        while rows(db) < 20 and time.monotonic() < deadline and run.poll() is None:
            time.sleep(0.1)
        assert rows(db) >= 20
        os.kill(cluster.pid, signal.SIGKILL)
        cluster.wait(30)
        out, err = run.communicate(timeout=120)
        proc = subprocess.CompletedProcess(run.args, run.returncode, out, err)
        said = one_line_69(proc)
        assert "went away" in said and "every finished batch is stored" in said
        assert "distributed" not in err
    finally:
        for p in (cluster, run):
            if p is not None and p.poll() is None:
                p.kill()
                p.wait(30)
    with sqlite3.connect(db) as c:
        assert c.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        deals = [d for (d,) in c.execute("SELECT deal FROM survey_results ORDER BY deal")]
    c.close()
    assert len(deals) >= 20 and len(set(deals)) == len(deals)
