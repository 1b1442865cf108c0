"""Survey reports as a user reads them: the Wilson interval, the JSON shape, the CSV
export, the PNG, and one-line errors for bad input.

The stores here are filled with made-up verdicts (no solving), so that the counts
the report must show are known in advance.
"""

from __future__ import annotations

import csv
import json
import math
import re
import subprocess
import sys
from pathlib import Path

import pytest

from eightoff.i18n import Words
from eightoff.rules import Rules, preset
from eightoff.survey import build_report, wilson_interval
from eightoff.survey.report import survey_interval
from eightoff.survey.store import SurveyStore, rules_signature
from eightoff.verdict import Verdict
from tests.servers import another_programs_database
from tests.surveys import survey_main as main

Z = 1.959963984540054  # the 97.5% quantile of the standard normal distribution


def hand_wilson(k: int, n: int) -> tuple[float, float]:
    """Wilson's interval written the other usual way:
    (k + z²/2 ± z·sqrt(k(n−k)/n + z²/4)) / (n + z²)."""
    root = Z * math.sqrt(k * (n - k) / n + Z * Z / 4)
    return ((k + Z * Z / 2 - root) / (n + Z * Z), (k + Z * Z / 2 + root) / (n + Z * Z))


def test_wilson_interval_of_9984_wins_in_10000_deals() -> None:
    # By hand: z² = 3.8414588; k(n−k)/n = 9984·16/10000 = 15.9744;
    # sqrt(15.9744 + z²/4) = sqrt(16.9347647) = 4.1151871; z·that = 8.0656185;
    # k + z²/2 = 9985.9207294; n + z² = 10003.8414588;
    # low = 9977.8551109 / 10003.8414588 = 0.9974024,
    # high = 9993.9863479 / 10003.8414588 = 0.9990149.
    low, high = wilson_interval(9984, 10000)
    assert low == pytest.approx(0.9974024, abs=1e-7)
    assert high == pytest.approx(0.9990149, abs=1e-7)
    assert (low, high) == pytest.approx(hand_wilson(9984, 10000), abs=1e-12)


def test_wilson_interval_textbook_values() -> None:
    # 5 of 10: 0.2366 – 0.7634; 0 of 10: 0 – z²/(n + z²) = 0.2775 (Wilson 1927; Newcombe 1998).
    assert wilson_interval(5, 10) == pytest.approx((0.2366, 0.7634), abs=1e-4)
    assert wilson_interval(0, 10) == pytest.approx((0.0, Z * Z / (10 + Z * Z)), abs=1e-12)
    assert wilson_interval(10, 10)[1] == 1.0
    with pytest.raises(ValueError):
        wilson_interval(11, 10)


def fill(db: Path, variant: str, verdicts: dict[int, str], rules: Rules | None = None) -> None:
    """A store holding the given verdicts (length = deal + 50, player moves = deal + 20,
    single-card moves = deal + 60, seconds = deal / 1000), under ``rules`` (default: the
    variant's own)."""
    rules = rules or preset(variant)
    with SurveyStore(db) as store:
        sig = store.register_rules(rules)
        run = store.start_run(
            solver_version="test 1", time_limit=5.0, state_limit=1000, backend="test"
        )
        rows = [
            (d, Verdict(v), d + 50 if v == "solved" else None, 10 * d, d / 1000, d + 20, d + 60)
            for d, v in sorted(verdicts.items())
        ]
        store.write(rules.id, sig, run, rows)


@pytest.fixture
def store_100(tmp_path: Path) -> Path:
    """Deals 1–100: 90 solved, lost 7 13 29 41 88, unknown 3 50 61 77 99."""
    lost, unknown = {7, 13, 29, 41, 88}, {3, 50, 61, 77, 99}
    verdicts = {
        d: "lost" if d in lost else "unknown" if d in unknown else "solved" for d in range(1, 101)
    }
    db = tmp_path / "s.sqlite3"
    fill(db, "eightoff", verdicts)
    fill(db, "freecell", {1: "lost", 2: "solved"})  # another variant: not in the report
    return db


def test_unknowns_count_as_losses_for_the_lower_bound_and_wins_for_the_upper(
    store_100: Path,
) -> None:
    report = build_report(store_100, "eightoff")
    assert (report.deals, report.solved, report.lost, report.unknown) == (100, 90, 5, 5)
    assert report.winnability == pytest.approx(90 / 95)
    low, high = report.ci95
    assert low == pytest.approx(hand_wilson(90, 100)[0], abs=1e-12)
    assert high == pytest.approx(hand_wilson(95, 100)[1], abs=1e-12)
    assert survey_interval(90, 10, 0) == pytest.approx(hand_wilson(90, 100), abs=1e-12)


def test_report_json_has_the_documented_shape(
    store_100: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["report", "--db", str(store_100), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert list(data) == [
        "variant",
        "cells",
        "house_rules",
        "deals",
        "solved",
        "lost",
        "unknown",
        "winnability",
        "ci95",
        "lost_deals",
        "rating_formula",
        "rated",
        "levels",
        "by_cells",
        "par",
        "solution_length",
        "solve_time",
    ]
    assert data["variant"] == "eightoff"
    solved = [d for d in range(1, 101) if d not in {7, 13, 29, 41, 88, 3, 50, 61, 77, 99}]
    lengths = data["solution_length"]  # player moves: deal + 20 in this store
    assert lengths["histogram"] == {str(d + 20): 1 for d in solved}
    assert (lengths["count"], lengths["left_out"]) == ("player", 0)
    assert (lengths["min"], lengths["max"]) == (21, 120)
    assert lengths["mean"] == pytest.approx(sum(solved) / 90 + 20, abs=0.01)
    times = data["solve_time"]  # deal / 1000 seconds
    assert times["total"] == pytest.approx(sum(range(1, 101)) / 1000)
    assert (times["max"], times["mean"]) == pytest.approx((0.1, 0.0505))
    assert data["par"] == {}  # surveyed without --par
    assert (data["rated"], data["levels"]) == (0, {})  # surveyed without --rate
    assert (data["deals"], data["solved"], data["lost"], data["unknown"]) == (100, 90, 5, 5)
    assert data["lost_deals"] == [7, 13, 29, 41, 88]
    assert data["ci95"] == pytest.approx([hand_wilson(90, 100)[0], hand_wilson(95, 100)[1]])

    assert main(["report", "--db", str(store_100), "--json", "--variant", "freecell"]) == 0
    fc = json.loads(capsys.readouterr().out)
    assert (fc["deals"], fc["lost_deals"]) == (2, [1])


def test_report_text_and_png(
    store_100: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    png = tmp_path / "h.png"
    assert main(["report", "--db", str(store_100), "--png", str(png)]) == 0
    out = capsys.readouterr().out
    assert "100 deals surveyed" in out
    assert "lost deals (5): 7 13 29 41 88" in out
    assert "unknown deals (5): 3 50 61 77 99" in out
    # the share is of the deals decided (90 solved of 95), and the line says so
    assert re.search(r"winnable +94\.7368% of the deals decided ", out), out
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    import matplotlib.image

    height, width, _ = matplotlib.image.imread(png).shape
    assert width > 600 and height > 300
    # a name ending .svg or .pdf gets that kind of file (it got PNG bytes)
    for kind, start in (("svg", b"<?xml"), ("pdf", b"%PDF")):
        named = tmp_path / f"h.{kind}"
        assert main(["report", "--db", str(store_100), "--png", str(named)]) == 0
        assert named.read_bytes().startswith(start)


def test_export_writes_every_stored_row(
    store_100: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "all.csv"
    assert main(["export", "--csv", str(out), "--db", str(store_100)]) == 0
    with out.open(newline="") as f:
        rows = list(csv.DictReader(f))
    assert len(rows) == 102
    eight = {int(r["deal"]): r for r in rows if r["variant"] == "eightoff"}
    assert sorted(eight) == list(range(1, 101))
    assert eight[7]["verdict"] == "lost" and eight[7]["length"] == ""
    assert eight[8]["verdict"] == "solved" and eight[8]["length"] == "58"
    assert eight[8]["solver_version"] == "test 1"
    assert eight[8]["rules"] == rules_signature(preset("eightoff"))
    assert eight[8]["states"] == "80" and float(eight[8]["seconds"]) == 0.008


@pytest.mark.parametrize(
    "argv",
    [
        ["export", "--csv", "{db}"],
        ["export", "--csv", "{link}"],
        ["report", "--png", "{db}"],
        ["report", "--png", "{link}"],
        ["report", "--png", "{games}"],
    ],
)
def test_an_output_file_never_writes_over_a_database(
    argv: list[str], store_100: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A CSV or PNG named after the store (or a link to it, or the table's games) would
    destroy it: refused with one line, every stored row kept."""
    from eightoff.store.games import Store

    games = tmp_path / "games.sqlite3"
    Store(games).close()
    link = tmp_path / "out.csv"
    link.symlink_to(store_100)
    before = {p: p.read_bytes() for p in (store_100, games)}
    names = {"db": str(store_100), "link": str(link), "games": str(games)}
    args = [a.format(**names) for a in argv]
    assert main([*args, "--db", str(store_100)]) == 64
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "is a database; it is not written over" in err
    assert {p: p.read_bytes() for p in before} == before


@pytest.mark.parametrize(
    ("argv", "code", "message"),
    [
        (["10", "5"], 64, "END (5) is before START (10)"),
        (["0", "5"], 64, "START: '0' is not a deal number: deals are numbered 1 to"),
        (["abc"], 64, "START: 'abc' is not a deal number"),
        (["7"], 64, "give the last deal too"),
        (["1", "x"], 64, "END: 'x' is not a deal number"),
        (["1", "5", "--variant", "klondike"], 64, "unknown variant 'klondike'"),
        (["1", "5", "--workers", "0"], 64, "--workers must be a whole number from 1 to"),
        (["1", "4", "--workers", "100000"], 64, "--workers must be a whole number from 1 to"),
        (["1", "5", "--states", str(2**63)], 64, "--states must be a whole number from 1 to"),
        (["١", "5"], 64, "START: '١' is not a deal number"),
        (["1", "5", "--scheduler", "nowhere"], 64, "is not a Dask scheduler address"),
        (["1", "5", "--scheduler", "foo://bar"], 64, "is not a Dask scheduler address"),
        (["1", "5", "--scheduler", "tcp://h:99999"], 64, "the port must be a number from 1"),
        (["report", "--variant", "klondike"], 64, "unknown variant 'klondike'"),
        (["report", "--csv", "x.csv"], 64, "--csv does not apply to 'report'"),
        (["export"], 64, "eightoff survey export --csv FILE"),
        (["report", "--png", "-"], 64, "--png writes a PNG file: give its name"),
        (["report", "--png", ""], 64, "--png: a file name is needed"),
        (["1", "5", "--json"], 64, "--json does not apply"),
    ],
)
def test_bad_input_gives_one_clear_line(
    argv: list[str],
    code: int,
    message: str,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    db = tmp_path / "never.sqlite3"
    assert main([*argv, "--db", str(db)]) == code
    err = capsys.readouterr().err
    assert message in err
    assert err.count("\n") == 1 and err.startswith("eightoff survey: error: ")
    assert not db.exists()  # nothing was created for a bad command


def test_report_on_a_missing_store_or_a_file_that_is_not_one(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["report", "--db", str(tmp_path / "none.sqlite3")]) == 66
    assert "no survey store at" in capsys.readouterr().err
    junk = tmp_path / "notes.txt"
    junk.write_text("not a database, just notes\n" * 100)
    # bad data (65, as for play and the README's table), whatever the command
    for argv in (["report"], ["export", "--csv", str(tmp_path / "o.csv")], ["1", "3"]):
        assert main([*argv, "--db", str(junk)]) == 65
        assert "it is not an eightoff database" in capsys.readouterr().err
        assert junk.read_text().startswith("not a database")  # untouched


def test_report_on_another_programs_database_leaves_it_as_it_was(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A command that reads must not change a file it refuses: no switch to WAL, no
    -wal or -shm file beside it, not one byte changed (issue 24.6)."""
    import sqlite3

    foreign = tmp_path / "foreign.sqlite3"
    before = another_programs_database(foreign)
    assert main(["report", "--db", str(foreign)]) == 66
    assert "not a survey store" in capsys.readouterr().err
    assert foreign.read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["foreign.sqlite3"]
    with sqlite3.connect(foreign) as c:
        assert c.execute("PRAGMA journal_mode").fetchone()[0] == "delete"
    c.close()


def test_errors_reach_the_terminal_without_a_traceback(tmp_path: Path) -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "eightoff.survey", "9", "3", "--db", str(tmp_path / "x.db")],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert proc.returncode == 64
    assert proc.stderr.strip() == "eightoff survey: error: END (3) is before START (9)"


def test_survey_is_wired_into_the_eightoff_command(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from eightoff.cli import main as eightoff_main

    assert eightoff_main(["survey", "5", "2", "--db", str(tmp_path / "x.db")]) == 64
    assert "END (2) is before START (5)" in capsys.readouterr().err


def test_the_report_has_the_table_by_number_of_cells(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """FreeCell surveyed with 0, 2 and 4 cells: each report, of any of the three, shows
    the three lines with their Wilson intervals; another variant's rows stay out."""
    db = tmp_path / "c.sqlite3"
    fc = preset("freecell")
    fill(db, "freecell", {d: "solved" if d % 10 else "lost" for d in range(1, 101)})
    fill(db, "freecell", {1: "lost", 2: "lost", 3: "solved"}, fc.with_options(cells=0))
    fill(db, "freecell", {1: "lost", 2: "solved", 3: "unknown"}, fc.with_options(cells=2))
    fill(db, "bakers-game", {1: "lost"}, preset("bakers-game").with_options(cells=1))
    assert main(["report", "--db", str(db), "--variant", "freecell", "--cells", "2", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert (data["deals"], data["solved"]) == (3, 1)
    assert [
        (r["cells"], r["deals"], r["solved"], r["lost"], r["unknown"]) for r in data["by_cells"]
    ] == [
        (0, 3, 1, 2, 0),
        (2, 3, 1, 1, 1),
        (4, 100, 90, 10, 0),
    ]
    assert data["by_cells"][1]["ci95"] == pytest.approx(
        [hand_wilson(1, 3)[0], hand_wilson(2, 3)[1]]
    )
    assert main(["report", "--db", str(db), "--variant", "freecell"]) == 0
    out = capsys.readouterr().out
    assert "by number of free cells" in out
    assert "        4        100         90         10        0    90.000%" in out
    assert main(["report", "--db", str(db), "--variant", "bakers-game", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["by_cells"] == [
        {
            "cells": 1,
            "deals": 1,
            "solved": 0,
            "lost": 1,
            "unknown": 0,
            "winnability": 0.0,
            "ci95": pytest.approx(list(hand_wilson(0, 1))),
        }
    ]


def test_a_store_of_fewer_cells_only_still_shows_its_table(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A store that holds FreeCell with 0 and 1 cells only (a study of fewer cells): the
    report of plain FreeCell says none was surveyed with 4 cells, and shows the table of
    the cell counts stored with the command that reports one of them."""
    db = tmp_path / "c.sqlite3"
    fc = preset("freecell")
    fill(db, "freecell", {1: "lost", 2: "lost", 3: "solved"}, fc.with_options(cells=0))
    fill(db, "freecell", {1: "lost", 2: "solved"}, fc.with_options(cells=1))
    assert main(["report", "--db", str(db), "--variant", "freecell"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == "FreeCell (freecell): no deals surveyed yet"
    assert [line.split()[:5] for line in lines[3:5]] == [
        ["0", "3", "1", "2", "0"],
        ["1", "2", "1", "1", "0"],
    ]
    assert "eightoff survey report --variant freecell --cells N" in lines[5]
    german = build_report(db, fc).text(Words("de")).splitlines()
    assert german[0] == "FreeCell (freecell): noch keine Spiele untersucht"
    assert "Zellen" in german[2] and "--cells N" in german[5]


def test_the_length_note_counts_one_longer_solution_in_the_singular() -> None:
    """The PNG's note under the length histogram (issue 23.10: "1 longer solutions")."""
    from eightoff.survey.report import beyond_note

    assert beyond_note(1, 212) == "1 longer solution, 212 moves, not shown"
    assert beyond_note(1234, 300) == "1 234 longer solutions, up to 300 moves, not shown"


def test_the_png_shows_winnability_by_number_of_cells(tmp_path: Path) -> None:
    """A store with FreeCell at 0, 2 and 4 cells: the PNG has a panel with one bar a cell
    count, each as high as that count's winnable share, with its Wilson interval."""
    from eightoff.survey.report import figure

    db = tmp_path / "c.sqlite3"
    fc = preset("freecell")
    fill(db, "freecell", {d: "solved" if d % 10 else "lost" for d in range(1, 101)})
    fill(db, "freecell", {1: "lost", 2: "lost", 3: "solved", 4: "lost"}, fc.with_options(cells=0))
    fill(db, "freecell", {1: "lost", 2: "solved", 3: "unknown"}, fc.with_options(cells=2))
    report = build_report(db, fc)
    panels = {ax.get_title(): ax for ax in figure(report).axes}
    cells = panels["Winnable by number of free cells"]
    from matplotlib.patches import Rectangle

    heights = [bar.get_height() for bar in cells.patches if isinstance(bar, Rectangle)]
    assert heights == pytest.approx([25.0, 50.0, 90.0])
    labels = [t.get_text() for t in cells.get_xticklabels()]
    assert labels == ["0\n1/4", "2\n1/3\n1 unknown", "4\n90/100"]
    # each share is written above its interval's top, not on its whisker
    from matplotlib.text import Annotation

    shares = {t.get_text(): t.xy[1] for t in cells.texts if isinstance(t, Annotation)}
    assert shares == pytest.approx(
        {
            "25.0%": 100 * report.by_cells[0].ci95[1],
            "50.0%": 100 * report.by_cells[1].ci95[1],
            "90.0%": 100 * report.by_cells[2].ci95[1],
        }
    )
    # two panels a row at most, the cells panel a row of its own: not one long row
    width, height = figure(report).get_size_inches()
    assert width < 14 and height > width / 2
    # without other cell counts stored there is no such panel
    fill(tmp_path / "one.sqlite3", "freecell", {1: "solved", 2: "lost"})
    alone = build_report(tmp_path / "one.sqlite3", fc)
    assert "Winnable by number of free cells" not in {ax.get_title() for ax in figure(alone).axes}


def test_the_report_speaks_german_with_its_columns_in_line(tmp_path: Path) -> None:
    """The same store reported in German: every line translated, the counts right-aligned
    where the English ones are, the variant named in German, the chart's titles too."""
    from eightoff.survey.report import figure

    db = tmp_path / "c.sqlite3"
    fc = preset("freecell")
    fill(db, "freecell", {d: "solved" if d % 10 else "lost" for d in range(1, 101)})
    fill(db, "freecell", {1: "lost", 2: "solved", 3: "unknown"}, fc.with_options(cells=2))
    report = build_report(db, fc.with_options(cells=2))
    english, german = report.text().splitlines(), report.text(Words("de")).splitlines()
    assert english[0] == "FreeCell, 2 cells (freecell): 3 deals surveyed"
    assert german[0] == "FreeCell, 2 Zellen (freecell): 3 Spiele untersucht"
    assert german[1:4] == [
        "  gelöst              1",
        "  verloren            1",
        "  unbekannt           1",
    ]
    assert [len(line) for line in german[1:4]] == [len(line) for line in english[1:4]]
    assert "  verlorene Spiele (1): 1" in german
    # every line with words in it is translated (the table's rows are numbers only)
    worded = {line for line in english[:-1] if any(c.isalpha() for c in line)}
    assert worded and not worded & set(german)
    titles = {ax.get_title() for ax in figure(report, Words("de")).axes}
    assert "Gewinnbar nach Zahl der freien Zellen" in titles


def test_a_failed_batch_is_reported_in_the_command_lines_language() -> None:
    """A worker's failure names the deals of its batch, in English and in German."""
    from eightoff.i18n import Words, reason
    from eightoff.solver import DEFAULT_LIMITS
    from eightoff.survey.errors import SurveyWorkerError
    from eightoff.survey.local import InlinePool

    def broken(*_: object) -> None:
        raise RuntimeError("disk on fire")

    pool = InlinePool(broken)
    with pytest.raises(SurveyWorkerError) as failed:
        runs = ((5, 9), (12, 12))
        pool.submit(1, runs, (preset("freecell"), runs, DEFAULT_LIMITS))
    message = reason(failed.value)
    assert message is not None
    assert str(failed.value) == "solving deals 5–9, 12 failed: disk on fire"
    assert Words("de")(message) == "das Lösen der Spiele 5–9, 12 ist gescheitert: disk on fire"


def test_a_batch_failed_on_a_worker_thread_is_reported_as_this_process_reports_it() -> None:
    """Two workers on the compiled core are threads: a batch that fails on one is
    reported by the survey's thread, naming that batch's deals (not another's), and the
    pool still closes."""
    from eightoff.solver import DEFAULT_LIMITS
    from eightoff.survey.errors import SurveyWorkerError
    from eightoff.survey.local import ThreadPool

    def broken(rules: object, runs: tuple[tuple[int, int], ...], *_: object) -> str:
        if runs == ((20, 29),):
            raise RuntimeError("disk on fire")
        return "fine"

    pool = ThreadPool(2, broken)
    for key, runs in ((1, ((1, 9),)), (2, ((20, 29),))):
        pool.submit(key, runs, (preset("freecell"), runs, DEFAULT_LIMITS))
    done: list[tuple[int, object]] = []
    with pytest.raises(SurveyWorkerError) as failed:
        while len(done) < 2:
            done += pool.wait(5.0)
    assert str(failed.value) == "solving deals 20–29 failed: disk on fire"
    assert done in ([], [(1, "fine")])
    pool.close(abort=True)


def test_report_without_a_variant_shows_the_stores_one_variant_and_names_the_others(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A store of FreeCell alone is reported as FreeCell; with Eight Off beside it, the
    default variant is reported and the others are named, with the option that shows
    them."""
    db = tmp_path / "s.sqlite3"
    fill(db, "freecell", {1: "solved", 2: "lost"})
    assert main(["report", "--db", str(db)]) == 0
    out = capsys.readouterr().out
    assert out.startswith("FreeCell (freecell): 2 deals surveyed") and "other variants" not in out
    fill(db, "eightoff", {5: "solved"})
    assert main(["report", "--db", str(db)]) == 0
    out = capsys.readouterr().out
    assert out.startswith("Eight Off (eightoff): 1 deal")
    assert out.splitlines()[-1] == (
        "the store holds other variants: freecell"
        " (`eightoff survey report --variant ID` reports one)"
    )
    assert main(["report", "--db", str(db), "--variant", "bakers-game"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == "Baker's Game (bakers-game): no deals surveyed yet"
    assert lines[-1].startswith("the store holds other variants: eightoff, freecell")


def test_a_survey_under_house_rules_says_so_everywhere(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Rows under --strict are stored apart from the plain variant's: the run's line, the
    report's heading and JSON name the house rules, and a report of the plain variant
    says where its rows are (it said "no deals surveyed yet" and nothing more)."""
    db = str(tmp_path / "s.sqlite3")
    assert main(["1", "4", "--strict", "--db", db, "--workers", "1", "--no-progress"]) == 0
    assert capsys.readouterr().out.startswith("Eight Off 1–4 · single-card moves: 4 deals")
    assert main(["report", "--strict", "--db", db]) == 0
    assert capsys.readouterr().out.startswith(
        "Eight Off · single-card moves (eightoff): 4 deals surveyed"
    )
    assert main(["report", "--strict", "--db", db, "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert (report["house_rules"], report["cells"], report["deals"]) == (["strict_single"], 8, 4)
    assert main(["report", "--db", db]) == 0
    assert capsys.readouterr().out.splitlines() == [
        "Eight Off (eightoff): no deals surveyed yet",
        "  (4 stored rows of eightoff under other rules are not counted: 4 under Eight Off"
        " · single-card moves; ask for those rules, e.g. --cells N, --strict, --retrieval)",
    ]


def test_export_gives_each_deals_rules_rating_and_par(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The export promised every stored row but left out the house rules (a hash only),
    the ratings and par, and a deal surveyed only for par was not in it at all."""
    db = str(tmp_path / "s.sqlite3")
    common = ["--strict", "--db", db, "--workers", "1", "--no-progress"]
    assert main(["1", "3", "--rate", *common]) == 0
    assert main(["1", "4", "--par", *common]) == 0
    out = tmp_path / "all.csv"
    assert main(["export", "--csv", str(out), "--db", db]) == 0
    capsys.readouterr()
    with out.open(newline="") as f:
        rows = {int(r["deal"]): r for r in csv.DictReader(f)}
    assert sorted(rows) == [1, 2, 3, 4]
    for deal in (1, 2, 3):
        r = rows[deal]
        assert r["verdict"] == "solved" and r["level"] and float(r["score"]) >= 0
        assert r["rating_formula"] and r["par_player_optimal"] == "1"
        assert int(r["par_player_lower"]) == int(r["par_player_upper"]) <= int(r["player_moves"])
    assert rows[4]["verdict"] == "" and rows[4]["par_player_lower"] != ""  # par only
    for r in rows.values():
        assert (r["cells"], r["foundation_retrieval"], r["strict_single"]) == ("8", "0", "1")
        assert r["par_single_lower"] == ""  # no single-card par asked


def test_the_levels_table_stays_in_columns_in_german(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """ "Nicht gewinnbar" is longer than the other names: its count stood two places to
    the right of the others."""
    from eightoff.i18n import words

    db = str(tmp_path / "s.sqlite3")
    assert main(["1", "6", "--rate", "--db", db, "--workers", "1", "--no-progress"]) == 0
    capsys.readouterr()
    with SurveyStore(db, create=False) as store:
        report = build_report(store, preset("eightoff"))
    for lang in ("en", "de"):
        said = words(lang)
        labels = [said.text(f"level.{name}") for name in report.levels]
        lines = report.text(said).splitlines()
        rows = [line for line in lines if line.strip().split("  ")[0] in labels]
        assert len(rows) == len(labels) == 6  # Easy … Not winnable
        assert len({len(row) for row in rows}) == 1, rows  # counts and shares in columns
