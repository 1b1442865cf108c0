"""Surveys that rate: `eightoff survey START END --rate` stores each deal's rating
(level, score, rating formula) with its verdict, `survey report` shows how many deals
each level holds, and a store written before ratings still reports and is upgraded.
"""

from __future__ import annotations

import json
import sqlite3
from collections import Counter
from pathlib import Path

import pytest

from eightoff.rating import FORMULA_VERSION, Level, rate
from eightoff.rules import preset
from eightoff.solver import Limits
from eightoff.store.db import Schema, connect
from eightoff.survey import build_report, run_survey
from eightoff.survey.command import main
from eightoff.survey.store import _V1, _V2_CLAIMS, SurveyStore, _legacy_version, rules_signature

SMALL = Limits(seconds=None, states=300)


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
        assert formula == FORMULA_VERSION
    counts = Counter(r.level.value for r in expected.values())

    assert main(["report", "--db", str(db), "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["rated"] == 20
    assert report["rating_formula"] == FORMULA_VERSION
    assert report["levels"] == {lv.value: counts.get(lv.value, 0) for lv in Level}

    png = tmp_path / "levels.png"
    assert main(["report", "--db", str(db), "--png", str(png)]) == 0
    text = capsys.readouterr().out
    assert f"levels (20 of 20 deals rated, rating formula {FORMULA_VERSION})" in text
    for name, n in counts.items():
        assert f"    {name:<13}{n:>10}  {100 * n / 20:6.2f}%" in text, name
    import matplotlib.image

    height, width, _ = matplotlib.image.imread(png).shape
    assert width > 2.5 * height  # three panels: lengths, times and levels


def test_a_deal_the_survey_proves_lost_is_not_winnable(tmp_path: Path) -> None:
    db = tmp_path / "fc.sqlite3"
    run_survey(11982, 11982, "freecell", db=db, workers=1, rate=True)
    assert stored_ratings(db) == {11982: (Level.NOT_WINNABLE.value, 0.0, FORMULA_VERSION)}
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
        assert c.execute("SELECT version FROM eightoff_schema").fetchone() == (3,)
    assert sorted(stored_ratings(db)) == [2, 3]  # deal 1 was stored before: not re-rated
    report = build_report(db)
    assert (report.deals, report.rated) == (3, 2)
    assert "levels (2 of 3 deals rated" in report.text()
    with SurveyStore(db, create=False) as store:
        assert store.counts("eightoff", sig).total == 3
