"""Two surveys on one store at once share the work: no deal is solved twice, every
deal is stored once, and a survey killed with SIGKILL leaves claims that the other
takes back.

State limits of 2 keep each deal to a fraction of a millisecond; one deal per batch
makes a run thousands of round trips long.
"""

from __future__ import annotations

import os
import re
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

from eightoff.solver import Limits
from tests.surveys import claims_left, elsewhere_owner, lease_runs_out, race

TINY = Limits(seconds=None, states=2)


def deals_stored(db: Path) -> list[int]:
    with sqlite3.connect(db, timeout=30) as c:
        return [d for (d,) in c.execute("SELECT deal FROM survey_results ORDER BY deal")]


def count_rows(db: Path) -> int:
    try:
        with sqlite3.connect(db, timeout=30) as c:
            return int(c.execute("SELECT COUNT(*) FROM survey_results").fetchone()[0])
    except sqlite3.OperationalError:  # not created yet
        return 0


def wait_for_rows(
    db: Path, rows: int, seconds: float, running: subprocess.Popen[str] | None = None
) -> None:
    """Wait until the store holds ``rows`` results, for at most ``seconds`` (or until
    ``running`` has ended): the tests' one way to wait for a survey to be at work."""
    deadline = time.monotonic() + seconds
    while count_rows(db) < rows and time.monotonic() < deadline:
        if running is not None and running.poll() is not None:
            return
        time.sleep(0.01)


def test_two_surveys_in_one_process_split_overlapping_ranges(tmp_path: Path) -> None:
    db = tmp_path / "s.sqlite3"
    ra, rb = race(db, (1, 40), (11, 50), workers=1, limits=TINY, batch_size=2)
    assert deals_stored(db) == list(range(1, 51))  # every deal once
    assert ra.new.total + rb.new.total == 50  # none solved twice
    assert ra.new.total > 0 and rb.new.total > 0  # both did a share
    # What each did not solve of its own range, the other did.
    assert ra.already + ra.new.total + ra.by_others == 40
    assert rb.already + rb.new.total + rb.by_others == 40


def survey(db: Path, first: int, last: int) -> list[str]:
    return [
        sys.executable,
        "-m",
        "eightoff.cli",
        "survey",
        str(first),
        str(last),
        "--db",
        str(db),
        "--workers",
        "1",
        "--batch-size",
        "1",
        "--states",
        "2",
        "--no-progress",
    ]


def solved_count(stdout: str) -> int:
    m = re.search(r": (\d+) deals? surveyed in", stdout)
    return int(m.group(1)) if m else 0


def test_two_survey_commands_at_once_solve_each_deal_once(tmp_path: Path) -> None:
    db = tmp_path / "s.sqlite3"
    # Create the store first so that both start on the same file at once.
    subprocess.run(survey(db, 1, 1), check=True, capture_output=True, timeout=120)
    # A deal takes about 0.2 ms here: 20,000 deals a run, so that the two overlap for
    # seconds, and B is started once A has stored a deal (A has looked at what was
    # stored before it), so that what B stores of A's range is stored while A runs
    # (started together, A's start could lag until B had done A's half alone).
    a = subprocess.Popen(survey(db, 1, 20000), stdout=subprocess.PIPE, text=True)
    try:
        wait_for_rows(db, 2, 120, a)
        b = subprocess.Popen(survey(db, 10001, 30000), stdout=subprocess.PIPE, text=True)
        out_b, _ = b.communicate(timeout=600)
        out_a, _ = a.communicate(timeout=600)
    finally:
        if a.poll() is None:
            a.kill()
            a.wait()
    assert a.returncode == 0 and b.returncode == 0
    assert deals_stored(db) == list(range(1, 30001))
    # Deal 1 was stored before; the other 29,999 were each solved by exactly one of them.
    assert solved_count(out_a) + solved_count(out_b) == 29999, (out_a, out_b)
    assert "stored by another survey on this store at the same time" in out_a + out_b
    for out in (out_a, out_b):  # each accounts for its whole range
        already = int(re.search(r"(\d+) (?:was|were) already stored", out).group(1))  # type: ignore[union-attr]
        others = re.search(r"; (\d+) stored by another survey", out)
        assert solved_count(out) + already + (int(others.group(1)) if others else 0) == 20000


def test_a_survey_killed_mid_run_leaves_claims_the_other_takes_back(tmp_path: Path) -> None:
    db = tmp_path / "s.sqlite3"
    subprocess.run(survey(db, 1, 1), check=True, capture_output=True, timeout=120)
    a = subprocess.Popen(survey(db, 1, 3000), stdout=subprocess.PIPE, text=True)
    b = subprocess.Popen(survey(db, 1, 3000), stdout=subprocess.PIPE, text=True)
    try:
        wait_for_rows(db, 50, 180, a)
        os.kill(a.pid, signal.SIGKILL)
        a.wait(timeout=30)
        out_b, _ = b.communicate(timeout=600)
    finally:
        for p in (a, b):
            if p.poll() is None:
                p.kill()
                p.wait()
    assert a.returncode == -signal.SIGKILL
    assert b.returncode == 0 and solved_count(out_b) > 0
    assert deals_stored(db) == list(range(1, 3001))  # nothing A held is lost
    with sqlite3.connect(db) as c:
        assert c.execute("SELECT COUNT(*) FROM survey_claims").fetchone()[0] == 0
        assert c.execute("PRAGMA integrity_check").fetchone()[0] == "ok"


def test_a_survey_waits_for_claims_it_did_not_make_and_takes_over_dead_ones(
    tmp_path: Path,
) -> None:
    """Deals only claimed by another survey are not "stored by another survey": the
    survey waits for them and, once their owner's lease has run out (a survey on
    another host that stopped renewing its heartbeat), solves them itself."""
    import threading

    from eightoff.rules import preset
    from eightoff.survey import Progress, run_survey
    from eightoff.survey.store import SurveyStore, rules_signature

    db = tmp_path / "s.sqlite3"
    rules = preset("eightoff")
    owner = elsewhere_owner(db)
    with SurveyStore(db) as other:  # a survey on another machine claims 5-10
        held = other.claim(owner, rules.id, rules_signature(rules), 5, 10, 6)
        assert held.runs == ((5, 10),)
    results = []
    seen: list[Progress] = []
    b = threading.Thread(
        target=lambda: results.append(
            run_survey(1, 20, db=db, workers=1, limits=TINY, progress=seen.append)
        )
    )
    b.start()
    try:
        wait_for_rows(db, 14, 120)
        assert count_rows(db) == 14  # all but the other's claim
        b.join(timeout=3)
        assert b.is_alive(), "the survey finished while another one's claims were unsolved"
        assert seen[-1].waiting == 6  # its progress says what it waits for
    finally:  # the other survey stops renewing its lease: it is dead
        lease_runs_out(db, owner)
        b.join(timeout=120)
    assert not b.is_alive()
    (run,) = results
    assert run.new.total == 20 and run.by_others == 0  # it took over and solved all 20
    assert deals_stored(db) == list(range(1, 21))
    assert claims_left(db) == 0
