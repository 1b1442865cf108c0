"""Two par surveys on one store share the work as verdict surveys do: each deal's par
is searched once, a survey waits for the deals another holds and takes over those of a
survey that died, and a verdict survey's claims do not hold up a par survey."""

from __future__ import annotations

import sqlite3
import threading
import time
from pathlib import Path

from eightoff.rules import preset
from eightoff.survey.par import ParProgress, ParRun, run_par_survey
from eightoff.survey.store import SurveyStore, rules_signature
from tests.surveys import claims_left, elsewhere_owner, lease_runs_out


def par_deals(db: Path) -> list[int]:
    try:
        with sqlite3.connect(db, timeout=30) as c:
            return [d for (d,) in c.execute("SELECT deal FROM survey_par ORDER BY deal")]
    except sqlite3.OperationalError:  # not created yet
        return []


def test_two_par_surveys_at_once_search_each_deal_once(tmp_path: Path) -> None:
    db = tmp_path / "s.sqlite3"
    rules = preset("eightoff")
    b_stored = threading.Event()
    runs: dict[str, ParRun] = {}

    def a_progress(p: ParProgress) -> None:
        b_stored.wait(120)  # A has stored its first deal: it waits until B is at work

    def b_progress(p: ParProgress) -> None:
        b_stored.set()

    def run(name: str, first: int, last: int, progress: object) -> None:
        runs[name] = run_par_survey(
            first,
            last,
            rules,
            db=str(db),
            workers=1,
            progress=progress,  # type: ignore[arg-type]
        )

    a = threading.Thread(target=run, args=("a", 1, 12, a_progress))
    a.start()
    deadline = time.monotonic() + 120
    while not par_deals(db) and time.monotonic() < deadline:  # A has begun
        time.sleep(0.01)
    b = threading.Thread(target=run, args=("b", 5, 16, b_progress))
    b.start()
    a.join(300)
    b.join(300)
    assert par_deals(db) == list(range(1, 17))
    # Each deal was searched by one of them: without claims A would have searched all
    # of 1-12, as it found them when it began, and B 5-16.
    assert runs["a"].searched + runs["b"].searched == 16
    for run_, size in ((runs["a"], 12), (runs["b"], 12)):
        assert run_.already + run_.searched + run_.by_others == size
    assert runs["a"].by_others > 0  # B searched some of A's range while A waited
    assert claims_left(db) == 0


def test_a_par_survey_waits_for_another_ones_deals_and_takes_over_when_it_dies(
    tmp_path: Path,
) -> None:
    """A par survey on another machine holds deals 3-4: this one searches the rest,
    says it waits for those two, and searches them once the other's lease runs out. A
    verdict survey's claim on all six holds nothing up: it does other work."""
    db = tmp_path / "s.sqlite3"
    rules = preset("eightoff")
    signature = rules_signature(rules)
    owner = elsewhere_owner(db)
    with SurveyStore(db) as other:
        assert other.claim(owner, rules.id, signature, 3, 4, 2, par="player").runs == ((3, 4),)
        assert other.claim(owner, rules.id, signature, 1, 6, 6).runs == ((1, 6),)
    waiting = threading.Event()
    seen: list[ParProgress] = []

    def progress(p: ParProgress) -> None:
        seen.append(p)
        if p.waiting:
            waiting.set()

    results: list[ParRun] = []
    survey = threading.Thread(
        target=lambda: results.append(
            run_par_survey(1, 6, rules, db=str(db), workers=1, progress=progress)
        )
    )
    survey.start()
    try:
        assert waiting.wait(120), "the survey never said it was waiting"
        assert par_deals(db) == [1, 2, 5, 6]  # all but the other's claim
        assert seen[-1].waiting == 2 and seen[-1].done == 4
        survey.join(timeout=3)
        assert survey.is_alive(), "the survey finished while another held two deals"
    finally:  # the other survey stops renewing its lease: it is dead
        lease_runs_out(db, owner)
        survey.join(timeout=120)
    assert not survey.is_alive()
    (run,) = results
    assert (run.searched, run.by_others) == (6, 0)  # it took over and searched all six
    assert par_deals(db) == list(range(1, 7))
    assert claims_left(db) == 0
