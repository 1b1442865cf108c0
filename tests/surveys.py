"""Helpers the survey tests share: ``eightoff survey ARGS`` in this process, two surveys
racing in one process, and a Ctrl+C felt after a given number of stored batches."""

from __future__ import annotations

import sqlite3
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from eightoff.cli import main as eightoff_main
from eightoff.survey import Progress, SurveyRun, run_survey


def survey_main(argv: list[str]) -> int:
    """``eightoff survey ARGV`` in this process; its exit status."""
    return eightoff_main(["survey", *argv])


def race(
    db: Path, a: tuple[int, int], b: tuple[int, int], **kw: Any
) -> tuple[SurveyRun, SurveyRun]:
    """Survey ranges A and B into DB at once, in two threads: B begins once A has read
    what is left to do, and A waits after its first stored batch until B has started, so
    both take a share of where they overlap (were B let run first, it could finish the
    overlap before A looks, and A would find it already done).
    KW goes to both `run_survey` calls (workers, limits, batch_size, rate...)."""
    a_started = threading.Event()
    b_started = threading.Event()
    results: dict[str, SurveyRun] = {}

    def run(name: str, span: tuple[int, int], **more: Any) -> None:
        results[name] = run_survey(span[0], span[1], db=db, **kw, **more)

    def run_second() -> None:
        a_started.wait(60)
        run("b", b, on_start=lambda _: b_started.set())

    first = threading.Thread(
        target=run,
        args=("a", a),
        kwargs={"on_start": lambda _: a_started.set(), "progress": lambda _: b_started.wait(60)},
    )
    second = threading.Thread(target=run_second)
    first.start()
    second.start()
    first.join(300)
    second.join(300)
    return results["a"], results["b"]


def interrupt_after(batches: int) -> Callable[[Progress], None]:
    """A progress callback that feels Ctrl+C once BATCHES batches are stored."""
    calls = 0

    def progress(_: Progress) -> None:
        nonlocal calls
        calls += 1
        if calls == batches:
            raise KeyboardInterrupt

    return progress


def elsewhere_owner(db: Path) -> int:
    """A survey owner on another machine (a host name not this one's) in the store DB."""
    from eightoff.survey.store import SurveyStore

    with SurveyStore(db) as other:
        owner = other.register_owner()
        with other.transaction() as c:
            c.execute("UPDATE survey_owners SET host = 'elsewhere' WHERE id = ?", (owner,))
    return owner


def lease_runs_out(db: Path, owner: int) -> None:
    """The survey ``owner`` stopped renewing its lease: the others take it for dead."""
    from eightoff.survey.store import STALE_SECONDS

    with sqlite3.connect(db, timeout=30) as c:
        old = time.time() - STALE_SECONDS - 1
        c.execute("UPDATE survey_owners SET heartbeat = ? WHERE id = ?", (old, owner))
    c.close()


def claims_left(db: Path) -> int:
    """How many claims the store DB holds."""
    with sqlite3.connect(db, timeout=30) as c:
        n = int(c.execute("SELECT COUNT(*) FROM survey_claims").fetchone()[0])
    c.close()
    return n
