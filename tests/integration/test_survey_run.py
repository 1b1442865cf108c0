"""Running surveys: the stored verdicts are the solver's, reruns complete exactly what
is missing, kill -9 and Ctrl+C lose nothing finished, and a Dask cluster gives the
same rows as the local pool.

State limits keep every deal cheap whatever the solver's speed (a state limit, unlike
a time limit, gives the same verdict on every machine).
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import signal
import sqlite3
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from eightoff.counts import count
from eightoff.deals import deal
from eightoff.rules import Rules, preset
from eightoff.solver import Limits, solve
from eightoff.survey import Progress, SurveyInterrupted, build_report, run_survey
from tests.cli import ctrl_c_as_at_a_terminal, run_cli
from tests.servers import remount_read_only, tmpfs_mount
from tests.surveys import interrupt_after

SMALL = Limits(seconds=None, states=300)


def stored(db: Path) -> dict[int, tuple[str, int | None, int]]:
    with sqlite3.connect(db) as c:
        rows = c.execute("SELECT deal, verdict, length, states FROM survey_results").fetchall()
    return {d: (v, n, s) for d, v, n, s in rows}


def count_rows(db: Path) -> int:
    if not db.exists():
        return 0
    try:
        with sqlite3.connect(db, timeout=30) as c:
            return int(c.execute("SELECT COUNT(*) FROM survey_results").fetchone()[0])
    except sqlite3.OperationalError:  # the tables are not created yet
        return 0


def wait_for(condition: Callable[[], bool], what: str, timeout: float = 180.0) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        time.sleep(0.01)


def descendants(pid: int) -> set[int]:
    """Every live process below ``pid`` (workers, multiprocessing helpers)."""
    parents: dict[int, int] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text()
            except OSError:
                continue
            parents[int(entry.name)] = int(stat.rsplit(")", 1)[1].split()[1])
    found: set[int] = set()
    frontier = {pid}
    while frontier:
        frontier = {p for p, pp in parents.items() if pp in frontier} - found
        found |= frontier
    return found


def alive(pid: int) -> bool:
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat.rsplit(")", 1)[1].split()[0] != "Z"


def test_rows_are_the_solvers_verdicts_and_a_rerun_completes_only_what_is_missing(
    tmp_path: Path,
) -> None:
    db = tmp_path / "s.sqlite3"
    first = run_survey(1, 4, db=db, workers=2, limits=SMALL)
    assert (first.already, first.new.total, first.complete) == (0, 4, True)

    seen: list[Progress] = []
    second = run_survey(1, 7, db=db, workers=2, limits=SMALL, progress=seen.append)
    assert (second.already, second.new.total) == (4, 3)
    assert seen[-1].done == seen[-1].total == 7

    rows = stored(db)
    assert sorted(rows) == list(range(1, 8))
    for n in range(1, 8):
        r = solve(deal("eightoff", n), SMALL)
        assert rows[n] == (r.verdict, len(r.moves) if r.verdict == "solved" else None, r.states)

    again = run_survey(1, 7, db=db, workers=2, limits=SMALL)
    assert (again.already, again.new.total) == (7, 0)


@pytest.mark.parametrize("rate", [False, True], ids=["batch path", "rated"])
def test_a_survey_up_to_the_largest_stored_deal_number(tmp_path: Path, rate: bool) -> None:
    """The last deal a store can hold ends a range like any other (the next claim once
    stood one past it, a number SQLite cannot take: an internal error)."""
    db = tmp_path / "s.sqlite3"
    top = 2**63 - 1
    first = run_survey(top - 2, top, db=db, workers=1, limits=SMALL, rate=rate)
    assert (first.new.total, first.complete) == (3, True)
    assert sorted(stored(db)) == [top - 2, top - 1, top]
    again = run_survey(top - 2, top, db=db, workers=1, limits=SMALL, rate=rate)
    assert (again.already, again.new.total) == (3, 0)


@pytest.mark.parametrize("rate", [False, True], ids=["batch path", "rated, deal by deal"])
def test_each_solution_is_stored_in_player_moves_and_single_card_moves(
    tmp_path: Path, rate: bool
) -> None:
    """Both counts of each solved deal are the engine's count of the solver's solution
    (eightoff.counts), on the survey's batch path and on the deal-by-deal path of a
    rated survey, and the report gives the lengths in player moves."""
    db = tmp_path / "s.sqlite3"
    run_survey(1, 3, db=db, workers=1, limits=SMALL, rate=rate)
    with sqlite3.connect(db) as c:
        rows = c.execute("SELECT deal, verdict, player, single FROM survey_results").fetchall()
    assert len(rows) == 3
    players: dict[int, int] = {}
    for n, verdict, player, single in rows:
        position = deal("eightoff", n)
        r = solve(position, SMALL)
        assert verdict == r.verdict == "solved"
        counts = count(position, r.moves)
        assert (player, single) == (counts.player, counts.single_card)
        assert player < len(r.moves) <= single
        players[player] = players.get(player, 0) + 1
    report = build_report(db, preset("eightoff"))
    assert report.length_count == "player" and report.length_hist == players
    lengths = report.to_json()["solution_length"]
    assert lengths["histogram"] == {str(k): v for k, v in players.items()}
    assert lengths["median"] == sorted(p for p, v in players.items() for _ in range(v))[1]
    assert "player moves" in report.text()


def test_retry_unknown_upgrades_deals_that_hit_a_limit(tmp_path: Path) -> None:
    db = tmp_path / "s.sqlite3"
    tiny = Limits(seconds=None, states=2)
    run_survey(3, 6, db=db, workers=1, limits=tiny)
    before = stored(db)
    assert "unknown" in {v for v, _, _ in before.values()}
    unknown_before = sum(v == "unknown" for v, _, _ in before.values())
    # a retry that leaves them unknown again did them all itself: no "-1 solved by
    # another survey" (its unknowns were once subtracted as if some other survey had them)
    again = run_survey(3, 6, db=db, workers=1, limits=tiny, retry_unknown=True)
    assert (again.new.total, again.by_others) == (unknown_before, 0)
    retry = run_survey(3, 6, db=db, workers=1, limits=SMALL, retry_unknown=True)
    assert retry.new.total == unknown_before
    after = stored(db)
    for n in range(3, 7):
        if before[n][0] != "unknown":
            assert after[n] == before[n]  # a decided verdict is never redone
        else:
            r = solve(deal("eightoff", n), SMALL)
            assert after[n][0] == r.verdict


def test_the_summary_names_one_deal_and_several_as_such(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = str(tmp_path / "s.sqlite3")
    args = ("--db", db, "--workers", "1", "--states", "300", "--no-progress")
    code, out, err = run_cli(capsys, "survey", "1568", "1568", *args)
    assert code == 0, err
    assert re.match(r"Eight Off 1568: 1 deal surveyed in \d+\.\d s \(", out), out
    code, out, err = run_cli(capsys, "survey", "1567", "1570", *args)
    assert code == 0, err
    assert re.match(r"Eight Off 1567–1570: 3 deals surveyed in \d+\.\d s \(", out), out
    assert "; 1 was already stored (store: " in out
    code, out, err = run_cli(capsys, "survey", "1567", "1570", *args)
    assert code == 0 and "all 4 deals already stored" in out, err
    # a deal's second of CPU is given in seconds, not as a thousand milliseconds
    code, out, err = run_cli(capsys, "survey", "982", "982", "--variant", "freecell",
                             "--cells", "2", "--time-limit", "1", "--db", db, "--workers", "1",
                             "--no-progress")  # fmt: skip
    assert code == 0, err
    per_deal = r"\(\d\.\d+ deals/s, local:1; [1-9]\.\d\d s of worker CPU per deal\)"
    assert re.search(per_deal, out), out


def survey_command(db: Path, *args: str) -> list[str]:
    return [sys.executable, "-m", "eightoff.survey", *args, "--db", str(db), "--no-progress"]


# 20000 deals, one per batch, at most 2 states each: every deal costs a millisecond or
# so, yet the run takes 20000 round trips and transactions, so it is still running
# when the test sees its first stored rows. The rerun uses the adaptive batch size.
KILL_RANGE = ("1", "20000")
KILL_ARGS = ("--workers", "2", "--batch-size", "1", "--states", "2")
# Ctrl+C needs a run that cannot end before the signal arrives (the 20000 deals above
# take about 13 s in all): a million deals, ten minutes and more one by one; the test
# stops it after its first rows.
INTERRUPT_RANGE = ("1", "1000000")


# Two workers are threads of the survey's process when the compiled core does the work,
# and worker processes when each deal is rated too (Python per deal): both kinds.
POOLS = {"threads": (), "processes": ("--rate",)}


@pytest.mark.parametrize("pool", POOLS)
def test_kill_9_mid_run_loses_nothing_stored_and_a_rerun_completes_the_range(
    tmp_path: Path, pool: str
) -> None:
    db = tmp_path / "kill.sqlite3"
    proc = subprocess.Popen(
        survey_command(db, *KILL_RANGE, *KILL_ARGS, *POOLS[pool]),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    try:
        wait_for(lambda: count_rows(db) >= 5 or proc.poll() is not None, "the first rows")
        children = descendants(proc.pid)
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait(timeout=30)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == -signal.SIGKILL
    # threads die with their process; orphaned worker processes notice that their
    # parent is gone and exit by themselves
    assert bool(children) == (pool == "processes"), children
    wait_for(lambda: not any(alive(p) for p in children), "orphaned workers to exit", 60)

    with sqlite3.connect(db) as c:
        assert c.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    kept = count_rows(db)
    assert 5 <= kept < 20000, "the survey was not killed mid-run"

    rerun = subprocess.run(
        survey_command(db, *KILL_RANGE, "--states", "2"),
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert rerun.returncode == 0, rerun.stderr
    assert f"{kept} were already stored" in rerun.stdout
    with sqlite3.connect(db) as c:
        deals = [d for (d,) in c.execute("SELECT deal FROM survey_results ORDER BY deal")]
        by_run = dict(c.execute("SELECT run, COUNT(*) FROM survey_results GROUP BY run"))
    assert deals == list(range(1, 20001))  # each deal exactly once, none missing
    assert by_run == {1: kept, 2: 20000 - kept}


@pytest.mark.parametrize("pool", POOLS)
def test_ctrl_c_stops_cleanly_and_keeps_finished_batches(tmp_path: Path, pool: str) -> None:
    db = tmp_path / "int.sqlite3"
    proc = subprocess.Popen(
        survey_command(db, *INTERRUPT_RANGE, *KILL_ARGS, *POOLS[pool]),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        preexec_fn=ctrl_c_as_at_a_terminal,
    )
    try:
        wait_for(lambda: count_rows(db) >= 5 or proc.poll() is not None, "the first rows")
        assert proc.poll() is None, f"the survey ended before Ctrl+C: {proc.communicate()}"
        children = descendants(proc.pid)
        proc.send_signal(signal.SIGINT)
        _, err = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == 130
    assert "interrupted:" in err and "run the same command again to continue" in err
    assert "Traceback" not in err
    assert bool(children) == (pool == "processes"), children
    # The workers are stopped; multiprocessing's helpers follow the parent out.
    wait_for(lambda: not any(alive(p) for p in children), "the workers to stop", 30)
    kept = count_rows(db)
    assert 5 <= kept < 1_000_000
    assert f"{kept} of 1000000 stored" in err
    with sqlite3.connect(db) as c:
        assert c.execute("PRAGMA integrity_check").fetchone()[0] == "ok"


def test_interrupt_in_the_api_reports_what_was_saved(tmp_path: Path) -> None:
    db = tmp_path / "s.sqlite3"
    with pytest.raises(SurveyInterrupted) as stop:
        run_survey(
            1,
            40,
            db=db,
            workers=2,
            limits=Limits(states=2),
            batch_size=1,
            progress=interrupt_after(2),
        )
    assert stop.value.run.interrupted and stop.value.run.new.total == 2
    assert count_rows(db) == 2


def test_dask_cluster_gives_the_same_rows_as_the_local_pool(tmp_path: Path) -> None:
    distributed = pytest.importorskip("distributed")
    local_db, dask_db = tmp_path / "local.sqlite3", tmp_path / "dask.sqlite3"
    run_survey(1, 10, db=local_db, workers=2, limits=SMALL, batch_size=3)
    with distributed.LocalCluster(
        n_workers=1, threads_per_worker=2, processes=False, dashboard_address=None
    ) as cluster:
        result = run_survey(
            1, 10, db=dask_db, scheduler=cluster.scheduler_address, limits=SMALL, batch_size=3
        )
    assert result.backend.startswith("dask:") and result.new.total == 10
    assert stored(dask_db) == stored(local_db)
    assert sorted(stored(dask_db)) == list(range(1, 11))


def test_a_par_survey_on_a_dask_cluster_stores_the_par_the_local_workers_do(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``survey --par --scheduler``: the deals' par searched on the cluster's workers is
    the par the local workers find, proven the same; local workers beside a cluster
    are refused in one line."""
    distributed = pytest.importorskip("distributed")
    from tests.surveys import survey_main as main

    def par(db: Path) -> list[tuple[int, int, int, int | None, int | None]]:
        with sqlite3.connect(db) as c:
            got = c.execute(
                "SELECT deal, optimal, lost, lower_bound, upper_bound FROM survey_par ORDER BY deal"
            ).fetchall()
        c.close()
        return got

    local_db, dask_db = tmp_path / "local.sqlite3", tmp_path / "dask.sqlite3"
    argv = ["1", "4", "--par", "--no-progress"]
    assert main([*argv, "--db", str(local_db), "--workers", "2"]) == 0
    with distributed.LocalCluster(
        n_workers=1, threads_per_worker=2, processes=False, protocol="tcp",
        dashboard_address=None, scheduler_kwargs={"host": "127.0.0.1"},
    ) as cluster:  # fmt: skip
        capsys.readouterr()
        assert main([*argv, "--db", str(dask_db), "--scheduler", cluster.scheduler_address]) == 0
        out = capsys.readouterr().out
        code = main([*argv, "--db", str(dask_db), "--scheduler", cluster.scheduler_address,
                     "--workers", "2"])  # fmt: skip
    assert "par (player moves) searched for 4 deals, 4 proven" in out
    assert par(dask_db) == par(local_db) and [row[0] for row in par(dask_db)] == [1, 2, 3, 4]
    assert all(row[1] for row in par(dask_db))
    err = capsys.readouterr().err
    assert code == 64 and err.count("\n") == 1 and "the cluster brings its own workers" in err


def test_dask_missing_gives_an_install_hint(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from tests.surveys import survey_main as main

    monkeypatch.setitem(sys.modules, "distributed", None)  # as if not installed
    code = main(["1", "3", "--db", str(tmp_path / "s.db"), "--scheduler", "tcp://127.0.0.1:1"])
    assert code == 69
    assert "install eightoff[dask]" in capsys.readouterr().err


def test_a_solution_that_fails_its_replay_is_reported_and_the_survey_goes_on(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """The solver's word is checked: a deal whose solution the replay refuses is not
    stored (no verdict), the survey decides the other deals, says at the end which deal
    failed and why in one line, exits 70, and a rerun (the solver right again) stores
    exactly that deal."""
    from dataclasses import replace as with_fields

    import eightoff.survey as survey
    from eightoff.cli import main
    from eightoff.solver import DealBlock
    from eightoff.solver import solve_deals as real_solve_deals
    from eightoff.solver._core import REPLAY_FAILED

    real = real_solve_deals

    def refusing(rules: Rules, first: int, count: int, *args: Any, **kw: Any) -> DealBlock:
        """The core's block with deal 3's solution refused at move 7 by the replay."""
        block = real(rules, first, count, *args, **kw)
        if not first <= 3 < first + count:
            return block
        status, lengths = list(block.status), list(block.lengths)
        status[3 - first], lengths[3 - first] = REPLAY_FAILED, 6
        return with_fields(block, status=status, lengths=lengths)

    # two workers: threads of this process (survey.local.ThreadPool), which the patch reaches
    monkeypatch.setattr(survey, "solve_deals", refusing)
    db = tmp_path / "s.sqlite3"
    args = ["survey", "1", "5", "--variant", "freecell", "--db", str(db), "--no-progress"]
    assert main(args) == 70
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1
    assert "1 deal of FreeCell not stored (#3)" in err and "refused at move 7" in err
    assert sorted(stored(db)) == [1, 2, 4, 5]
    monkeypatch.setattr(survey, "solve_deals", real)
    assert main(args) == 0
    assert sorted(stored(db)) == [1, 2, 3, 4, 5]


def test_a_store_on_read_only_media_is_reported_and_exported_not_written(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """A store on a filesystem mounted read-only (a DVD, a read-only share) was refused:
    "cannot be opened (missing folder or no permission)", since SQLite cannot make the
    shared-memory file a store in WAL mode needs even to be read. Its report and export
    read it as it lies; a survey into it says it cannot be written, and changes nothing."""
    with tmpfs_mount(tmp_path / "media") as media:
        db = media / "s.db"
        args = ("--variant", "freecell", "--db", str(db))
        code, _, err = run_cli(capsys, "survey", "1", "30", "--states", "300", *args)
        assert code == 0, err
        before = db.read_bytes()
        remount_read_only(media)
        code, out, err = run_cli(capsys, "survey", "report", "--json", *args)
        assert code == 0, err
        assert json.loads(out)["deals"] == 30
        csv = tmp_path / "out.csv"
        code, _, err = run_cli(capsys, "survey", "export", "--csv", str(csv), *args)
        assert code == 0, err
        assert len(csv.read_text().splitlines()) == 31
        code, out, err = run_cli(capsys, "survey", "31", "40", "--states", "300", *args)
        assert code == 73 and "cannot be written" in err and err.count("\n") == 1, err
        assert db.read_bytes() == before


def test_a_store_with_two_names_is_refused_before_a_survey_writes(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """Two surveys through two names of one store (hard links) each did all the work and
    wrote a write-ahead log of their own, the way SQLite files are damaged: a store with
    two names is refused in one line, and neither name is written."""
    first, second = tmp_path / "a.db", tmp_path / "b.db"
    code, _, err = run_cli(capsys, "survey", "1", "5", "--states", "300", "--db", str(first))
    assert code == 0, err
    os.link(first, second)
    before = first.read_bytes()
    for name in (first, second):
        code, _, err = run_cli(capsys, "survey", "6", "9", "--states", "300", "--db", str(name))
        assert code == 73 and "2 names (hard links" in err and err.count("\n") == 1, err
    assert first.read_bytes() == before
    assert not (tmp_path / "b.db-wal").exists()


def test_a_survey_refuses_what_it_could_not_keep_or_rate(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """``--db :memory:`` "surveyed" deals into a database gone at the end, and ``--rate``
    with another number of free cells stored levels never calibrated there (``rate``
    says "not rated"): both are refused in one line, and nothing is written."""
    code, _, err = run_cli(capsys, "survey", "1", "2", "--db", ":memory:")
    assert code == 64 and ":memory:" in err and err.count("\n") == 1, err
    assert not Path(":memory:").exists()
    db = tmp_path / "s.db"
    args = ("--variant", "freecell", "--cells", "3", "--rate", "--db", str(db))
    code, _, err = run_cli(capsys, "survey", "1", "3", *args)
    assert code == 64 and "not rated" in err and err.count("\n") == 1, err
    assert not db.exists()
    code, out, err = run_cli(capsys, "rate", "1", "--variant", "freecell", "--cells", "3")
    assert code == 0 and "not rated" in out, err


def test_an_export_or_report_on_a_full_disk_leaves_the_old_file_whole(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """``survey export --csv`` on a full disk left a truncated CSV that looked whole in
    place of the old file, and ``--png`` a file of 0 bytes: each now fails in one line
    (exit 73) and leaves the old file as it was, with nothing beside it."""
    db = tmp_path / "s.db"
    code, _, err = run_cli(capsys, "survey", "1", "3000", "--states", "300", "--db", str(db))
    assert code == 0, err
    with tmpfs_mount(tmp_path / "small", size="64k") as small:
        csv, png = small / "out.csv", small / "out.png"
        csv.write_text("old content\n")
        png.write_bytes(b"old picture")
        # the disk full but for a few blocks
        with contextlib.suppress(OSError), open(small / "filler", "wb") as f:
            f.write(b"x" * (1 << 20))
        for args, path in (
            (("export", "--csv", str(csv)), csv),
            (("report", "--png", str(png)), png),
        ):
            before = path.read_bytes()
            code, _, err = run_cli(capsys, "survey", *args, "--db", str(db))
            assert code == 73 and "No space left" in err and err.count("\n") == 1, err
            assert path.read_bytes() == before
        assert sorted(p.name for p in small.iterdir()) == ["filler", "out.csv", "out.png"]


def test_a_report_picture_with_no_writable_config_folder_says_nothing_more(
    tmp_path: Path,
) -> None:
    """With HOME and MPLCONFIGDIR where nothing can be written, ``--png`` printed two
    of matplotlib's warnings on stderr around its one line."""
    db, png = tmp_path / "s.db", tmp_path / "r.png"
    env = {**os.environ, "MPLCONFIGDIR": "/proc/eightoff-none", "HOME": "/proc"}
    run = [sys.executable, "-m", "eightoff.cli", "survey"]
    done = subprocess.run([*run, "1", "20", "--db", str(db)], capture_output=True, check=False)
    assert done.returncode == 0, done.stderr
    done = subprocess.run(
        [*run, "report", "--db", str(db), "--png", str(png)],
        capture_output=True,
        env=env,
        check=False,
    )
    assert done.returncode == 0 and done.stderr == b"", done.stderr
    assert png.read_bytes()[:4] == b"\x89PNG"
