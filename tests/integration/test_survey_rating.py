"""Surveys that rate: `eightoff survey START END --rate` stores each deal's rating
(level, score, rating formula) with its verdict, `survey report` shows how many deals
each level holds, and a store written before ratings still reports and is upgraded.
A later `--rate` over deals stored unrated (or rated with an older formula) rates
them, keeps their verdicts, shares the work between concurrent surveys and survives
an interruption.
"""

from __future__ import annotations

import json
import sqlite3
from collections import Counter
from pathlib import Path

import pytest

from eightoff.rating import Level, formula_version, rate
from eightoff.rules import preset
from eightoff.solver import Limits
from eightoff.store.db import Schema, connect
from eightoff.survey import SurveyInterrupted, build_report, run_survey
from eightoff.survey.store import (
    _V1,
    _V2_CLAIMS,
    SCHEMA_VERSION,
    SurveyStore,
    _legacy_version,
    rules_signature,
)
from tests.surveys import interrupt_after, race
from tests.surveys import survey_main as main

SMALL = Limits(seconds=None, states=300)
FORMULA = formula_version("eightoff")


def stored_ratings(db: Path) -> dict[int, tuple[str, float, str]]:
    with sqlite3.connect(db) as c:
        rows = c.execute("SELECT deal, level, score, formula FROM survey_ratings").fetchall()
    return {d: (lv, sc, f) for d, lv, sc, f in rows}


def test_a_rated_survey_stores_each_deals_rating_and_the_report_counts_the_levels(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "rated.sqlite3"
    args = ["1", "20", "--db", str(db), "--rate", "--states", "300", "--workers", "2"]
    assert main([*args, "--no-progress"]) == 0
    capsys.readouterr()

    ratings = stored_ratings(db)
    assert sorted(ratings) == list(range(1, 21))
    expected = {d: rate(d, "eightoff") for d in range(1, 21)}
    for d, (level, score, formula) in ratings.items():
        assert level == expected[d].level.value, f"deal {d}"
        assert score == pytest.approx(expected[d].score)
        assert formula == FORMULA
    counts = Counter(r.level.value for r in expected.values())

    assert main(["report", "--db", str(db), "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["rated"] == 20
    assert report["rating_formula"] == FORMULA
    assert report["levels"] == {lv.value: counts.get(lv.value, 0) for lv in Level}

    png = tmp_path / "levels.png"
    assert main(["report", "--db", str(db), "--png", str(png)]) == 0
    text = capsys.readouterr().out
    assert f"levels (20 of 20 deals rated, rating formula {FORMULA})" in text
    for name, n in counts.items():
        assert f"    {name:<13}{n:>10}  {100 * n / 20:6.2f}%" in text, name
    assert png.read_bytes()[:4] == b"\x89PNG"
    # three panels: lengths, times and levels (the levels a row of their own)
    from eightoff.rules import preset
    from eightoff.survey import build_report
    from eightoff.survey.report import figure

    titles = [ax.get_title() for ax in figure(build_report(db, preset("eightoff"))).axes]
    assert titles == [
        "Solution length (solved deals)",
        "Solve time (all deals)",
        "Difficulty (20 deals rated)",
    ]


def test_a_deal_the_survey_proves_lost_is_not_winnable(tmp_path: Path) -> None:
    db = tmp_path / "fc.sqlite3"
    run_survey(11982, 11982, "freecell", db=db, workers=1, rate=True)
    assert stored_ratings(db) == {11982: (Level.NOT_WINNABLE.value, 0.0, FORMULA)}
    assert build_report(db, "freecell").levels[Level.NOT_WINNABLE.value] == 1


def test_a_store_without_ratings_still_reports_and_a_rated_run_upgrades_it(
    tmp_path: Path,
) -> None:
    db = tmp_path / "v2.sqlite3"
    sig = rules_signature(preset("eightoff"))
    old = connect(db, Schema("survey", (_V1, _V2_CLAIMS), legacy_version=_legacy_version))
    with old.transaction() as c:  # as eightoff wrote it before ratings
        c.execute("INSERT INTO survey_rules VALUES (?, 'eightoff', '{}')", (sig,))
        c.execute("INSERT INTO survey_runs VALUES (1, 'then', 'v', NULL, 300, 'local:1')")
        c.execute(
            "INSERT INTO survey_results VALUES ('eightoff', ?, 1, 'solved', 90, 5, 0.1, 1)",
            (sig,),
        )
    old.close()

    report = build_report(db)  # read as it is, not upgraded
    assert (report.deals, report.rated, report.levels) == (1, 0, {})
    assert "levels: no deal rated (survey with --rate to rate them)" in report.text()
    assert report.to_json()["rated"] == 0
    with sqlite3.connect(db) as c:
        assert c.execute("SELECT version FROM eightoff_schema").fetchone() == (2,)

    run_survey(1, 3, db=db, workers=1, limits=SMALL, rate=True)
    with sqlite3.connect(db) as c:
        # upgraded to the current schema (ratings since version 3)
        assert c.execute("SELECT version FROM eightoff_schema").fetchone() == (SCHEMA_VERSION,)
    assert sorted(stored_ratings(db)) == [1, 2, 3]  # deal 1, stored before, is rated too
    report = build_report(db)
    assert (report.deals, report.rated) == (3, 3)
    assert "levels (3 of 3 deals rated" in report.text()
    with sqlite3.connect(db) as c:  # and keeps the verdict it was stored with
        assert c.execute(
            "SELECT verdict, length, run FROM survey_results WHERE deal = 1"
        ).fetchone() == ("solved", 90, 1)
    with SurveyStore(db, create=False) as store:
        assert store.counts("eightoff", sig).total == 3


def verdict_rows(db: Path) -> list[tuple[object, ...]]:
    with sqlite3.connect(db) as c:
        return c.execute("SELECT * FROM survey_results ORDER BY deal").fetchall()


def test_a_later_rated_survey_rates_the_deals_stored_unrated_and_keeps_their_verdicts(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "s.sqlite3"
    run_survey(1, 20, db=db, workers=2, limits=SMALL)
    before = verdict_rows(db)
    assert stored_ratings(db) == {}
    assert build_report(db).rated == 0

    run = run_survey(1, 30, db=db, workers=2, limits=SMALL, rate=True)

    assert (run.already, run.rated_only, run.new.total) == (0, 20, 10)
    assert verdict_rows(db)[:20] == before  # verdicts, lengths, runs: untouched
    ratings = stored_ratings(db)
    assert sorted(ratings) == list(range(1, 31))
    for d, (level, score, formula) in ratings.items():
        expected = rate(d, "eightoff")
        assert (level, formula) == (expected.level.value, FORMULA), f"deal {d}"
        assert score == pytest.approx(expected.score)
    report = build_report(db)
    assert (report.deals, report.rated) == (30, 30)

    # Everything is rated now: the command has nothing left to do and says so.
    assert main(["1", "30", "--db", str(db), "--rate", "--no-progress"]) == 0
    assert "all 30 deals already stored and rated" in capsys.readouterr().out


def test_deals_rated_with_an_older_formula_are_rated_again(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "s.sqlite3"
    run_survey(1, 12, db=db, workers=1, limits=SMALL, rate=True)
    with sqlite3.connect(db) as c:  # as an older eightoff would have rated them
        c.execute(
            "UPDATE survey_ratings SET level = 'Easy', score = 0.99, formula = '0'"
            " WHERE deal BETWEEN 3 AND 7"
        )
    before = verdict_rows(db)
    report = build_report(db)
    assert (report.rated, report.other_formula_ratings) == (7, 5)

    assert main(["1", "12", "--db", str(db), "--rate", "--no-progress", "--workers", "1"]) == 0
    out = capsys.readouterr().out
    assert "5 stored deals rated" in out and "7 were already rated" in out

    with sqlite3.connect(db) as c:  # one deal rated by the older formula: said in the singular
        c.execute("UPDATE survey_ratings SET formula = '0' WHERE deal = 4")
    assert main(["1", "12", "--db", str(db), "--rate", "--no-progress", "--workers", "1"]) == 0
    out = capsys.readouterr().out
    assert "1 stored deal rated" in out and "its verdict kept" in out
    assert "11 were already rated" in out

    assert verdict_rows(db) == before
    ratings = stored_ratings(db)
    assert {f for _, _, f in ratings.values()} == {FORMULA}
    for d in range(3, 8):
        assert ratings[d][0] == rate(d, "eightoff").level.value
    assert build_report(db).rated == 12


def test_two_rated_surveys_share_the_stored_deals_to_rate(tmp_path: Path) -> None:
    db = tmp_path / "s.sqlite3"
    run_survey(1, 30, db=db, workers=1, limits=SMALL)
    ra, rb = race(db, (1, 24), (7, 30), workers=1, limits=SMALL, batch_size=2, rate=True)
    assert sorted(stored_ratings(db)) == list(range(1, 31))
    assert ra.rated_only + rb.rated_only == 30  # none rated twice
    assert ra.rated_only > 0 and rb.rated_only > 0  # both did a share
    assert ra.new.total == rb.new.total == 0  # nothing solved again
    assert ra.rated_only + ra.by_others == 24 and rb.rated_only + rb.by_others == 24


def test_an_interrupted_rating_run_keeps_what_it_rated_and_a_rerun_finishes(
    tmp_path: Path,
) -> None:
    db = tmp_path / "s.sqlite3"
    run_survey(1, 20, db=db, workers=1, limits=SMALL)
    before = verdict_rows(db)
    with pytest.raises(SurveyInterrupted) as stop:
        run_survey(
            1,
            20,
            db=db,
            workers=1,
            limits=SMALL,
            batch_size=3,
            rate=True,
            progress=interrupt_after(2),
        )
    kept = len(stored_ratings(db))
    assert stop.value.run.interrupted and 6 <= kept < 20
    with sqlite3.connect(db) as c:
        assert c.execute("SELECT COUNT(*) FROM survey_claims").fetchone()[0] == 0

    run = run_survey(1, 20, db=db, workers=1, limits=SMALL, rate=True)
    assert (run.already, run.rated_only) == (kept, 20 - kept)
    assert sorted(stored_ratings(db)) == list(range(1, 21))
    assert verdict_rows(db) == before
