"""Par from the command line: ``solve --optimal`` (text, JSON, exit codes, bad usage) and
``survey --par`` with ``survey report`` (stored per count, resumed, reported)."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path
from typing import Any

import pytest

from eightoff.cli import main
from eightoff.counts import MoveCount, count
from eightoff.deals import deal
from eightoff.position import Kind, Move, Place, Position
from eightoff.solver.optimal import COMMAND_LINE_MEMORY_MB, Par, ParLimits, optimal


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    try:
        code = main(list(args))
    except SystemExit as e:  # argparse's own errors (a bad value) exit with 64
        code = int(e.code or 0)
    out, err = capsys.readouterr()
    return code, out, err


def test_solve_optimal_json_gives_a_proven_par_that_replays(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, out, _ = run(capsys, "solve", "2", "--optimal", "--json")
    assert code == 0
    row = json.loads(out)
    assert row["optimal"] is True and row["par"] == row["lower_bound"] == row["upper_bound"]
    assert row["count"] == "player"
    start = deal("eightoff", 2)
    moves = [
        Move(
            Place(Kind(m["source"]["kind"]), m["source"]["index"]),
            Place(Kind(m["target"]["kind"]), m["target"]["index"]),
            m["count"],
        )
        for m in row["moves"]
    ]
    p = start
    for m in moves:
        p = p.apply(m)
    assert p.is_won()
    assert count(start, moves).player == row["par"] == sum(m["counts"] for m in row["moves"])
    # the keys of solve --json are there too: a script reading them works in either mode
    plain = json.loads(run(capsys, "solve", "2", "--json")[1])
    assert set(plain) - {"seconds", "states"} <= set(row)
    assert (row["verdict"], row["player_moves"]) == ("solved", row["par"])
    assert row["single_card_moves"] == count(start, moves).single_card
    assert (row["cells"], row["house_rules"]) == (plain["cells"], plain["house_rules"]) == (8, [])


def test_solve_optimal_json_of_a_lost_deal_claims_no_par_and_no_bound(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, out, _ = run(
        capsys, "solve", "1", "--variant", "freecell", "--cells", "0", "--optimal", "--json"
    )
    assert code == 1  # proven lost
    row = json.loads(out)
    assert row["lost"] is True and row["moves"] == [] and row["verdict"] == "lost"
    assert (row["player_moves"], row["single_card_moves"], row["cells"]) == (None, None, 0)
    assert (row["optimal"], row["par"], row["lower_bound"], row["upper_bound"]) == (
        False,
        None,
        None,
        None,
    )


def test_solve_optimal_text_says_optimal_yes_and_numbers_only_counted_moves(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, out, _ = run(capsys, "solve", "2", "--optimal", "--count", "single")
    assert code == 0
    last = out.strip().splitlines()[-1]
    assert last.startswith("optimal: yes — par is ") and "single-card moves" in last
    par = int(last.split("par is ")[1].split()[0])
    numbered = [ln for ln in out.splitlines() if ln.strip()[:1].isdigit()]
    assert len(numbered) == par


def test_solve_optimal_quiet_gives_one_line_a_deal(capsys: pytest.CaptureFixture[str]) -> None:
    """``--quiet`` lists no moves with ``--optimal`` either: a line a deal, in English
    (for machines too), and its par is the one the full output proves."""
    code, out, _ = run(capsys, "solve", "2-3", "--optimal", "--quiet")
    assert code == 0
    lines = out.splitlines()
    assert [ln.split(": optimal: yes — par is ")[0] for ln in lines] == [
        "Eight Off · deal #2",
        "Eight Off · deal #3",
    ]
    _, full, _ = run(capsys, "solve", "2", "--optimal")
    assert (
        lines[0].split("par is ")[1].split(" (")[0]
        == full.splitlines()[-1].split("par is ")[1].split(" (")[0]
    )


def test_a_limit_gives_the_bounds_and_exit_2(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(
        capsys, "solve", "1", "--variant", "freecell", "--optimal", "--max-states", "3000"
    )
    assert code == 2
    last = out.strip().splitlines()[-1]
    assert last.startswith("optimal: no — par is ") and " to " in last
    assert err.splitlines() == [
        "eightoff solve: 1 deal stopped at the state limit: a larger --max-states (now 3 000)"
        " lets its search go further"
    ]


@pytest.mark.parametrize(("extra", "states"), [((), None), (("--max-states", "7000"), 7000)])
def test_a_par_search_has_no_state_limit_unless_one_is_given(
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    extra: tuple[str, ...],
    states: int | None,
) -> None:
    """The ordinary solve's 5 million states are not a par search's limit: they stopped
    FreeCell 5's A* with "state limit reached" at 41 s where, unlimited, it proves par in
    9 s (the time and memory limits end a par search)."""
    import eightoff.cli.solve as solve_cli

    asked: list[ParLimits] = []

    def spy(position: Position, which: MoveCount, limits: ParLimits) -> Par:
        asked.append(limits)
        return optimal(position, which, limits)

    monkeypatch.setattr(solve_cli, "optimal", spy)
    code, out, _ = run(capsys, "solve", "2", "--optimal", *extra)
    assert code == 0 and out.strip().splitlines()[-1].startswith("optimal: yes")
    assert [limits.states for limits in asked] == [states]
    assert asked[0].seconds == 60 and asked[0].memory_mb == COMMAND_LINE_MEMORY_MB


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["solve", "2", "--count", "single"], "--count goes with --optimal"),
        (["solve", "2", "--optimal", "--short"], "--short adds nothing"),
        (["solve", "2", "--optimal", "--memory", "8"], "out of range: 16M"),
        (["solve", "2", "--optimal", "--count", "cards"], "invalid choice"),
    ],
)
def test_bad_par_usage_is_one_line(
    capsys: pytest.CaptureFixture[str], args: list[str], words: str
) -> None:
    code, out, err = run(capsys, *args)
    assert code == 64 and out == ""
    assert words in err and "Traceback" not in err


def test_survey_par_stores_reports_and_resumes(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = str(tmp_path / "s.db")
    code, out, _ = run(capsys, "survey", "2", "2", "--par", "--db", db, "--workers", "1")
    assert code == 0 and "Eight Off 2: par (player moves) searched for 1 deal, 1 proven" in out
    code, out, _ = run(capsys, "survey", "1", "3", "--par", "--db", db, "--workers", "1")
    assert code == 0 and "searched for 2 deals, 2 proven" in out
    assert "1 was stored before (1 proven)" in out
    code, out, _ = run(capsys, "survey", "1", "3", "--par", "--db", db, "--workers", "1")
    assert code == 0 and "searched for 0 deals" in out and "3 were stored before (3 proven)" in out
    code, out, _ = run(capsys, "survey", "1", "3", "--par", "single", "--db", db, "--workers", "1")
    assert code == 0
    code, out, _ = run(capsys, "survey", "report", "--db", db, "--json")
    report = json.loads(out)
    player, single = report["par"]["player"], report["par"]["single"]
    assert player["deals"] == player["proven"] == 3
    assert single["deals"] == 3
    # the stored par of deal 2 is the one solve --optimal proves
    _, out, _ = run(capsys, "solve", "2", "--optimal", "--json")
    assert player["histogram"].get(str(json.loads(out)["par"]), 0) >= 1
    code, out, _ = run(capsys, "survey", "report", "--db", db)
    assert "par in player moves: 3 deals, 3 proven (100.0%)" in out
    png = tmp_path / "h.png"
    code, _, _ = run(capsys, "survey", "report", "--db", db, "--png", str(png))
    assert code == 0 and png.stat().st_size > 1000


def test_survey_par_counts_a_lost_deal_as_lost_not_as_proven_par(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A deal the par search proved lost was counted "proven" by the survey (the report
    said lost) and exported as "optimal 1, lower bound 0": par 0. Now the survey, its
    rerun, the report and the export all call it lost, with no par."""
    db = str(tmp_path / "s.db")
    args = ("--par", "--variant", "freecell", "--cells", "0", "--db", db, "--workers", "1")
    code, out, _ = run(capsys, "survey", "1", "1", *args)
    assert code == 0 and "1 deal, 0 proven (and 1 proven lost: no solution, no par)" in out
    code, out, _ = run(capsys, "survey", "1", "1", *args)
    assert "1 was stored before (0 proven, 1 lost)" in out
    code, out, _ = run(
        capsys, "survey", "report", "--variant", "freecell", "--cells", "0", "--db", db
    )
    assert "1 deal, 0 proven (0.0%), 1 lost" in out, out
    code, out, _ = run(capsys, "survey", "export", "--csv", "-", "--db", db)
    (row,) = csv.DictReader(io.StringIO(out))
    assert (row["par_player_lost"], row["par_player_optimal"], row["par_player_lower"]) == (
        "1",
        "0",
        "",
    )


def test_survey_par_goes_on_after_an_interrupt_and_retries_unproven_deals_when_asked(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Ctrl+C says how far the run got; the same command again searches the deals not
    searched yet, not the ones stored unproven (they would end at the same limit), and
    ``--retry-unknown`` searches those again."""
    import eightoff.survey.par as par_survey
    from eightoff.survey import local

    db = str(tmp_path / "s.db")
    argv = ["survey", "1", "4", "--par", "--db", db, "--workers", "1", "--no-progress"]
    code, _, _ = run(capsys, "survey", "3", "4", *argv[3:], "--time-limit", "0.001")
    assert code == 0
    stored = dict(_par_rows(db))
    assert sorted(stored) == [3, 4]
    unproven = [d for d, optimal in stored.items() if not optimal]
    assert 4 in unproven  # 89 000 states: not within a millisecond

    real = par_survey.par_batch
    searched: list[int] = []

    def par_batch_then_stop(rules: Any, runs: Any, *rest: Any) -> Any:
        ((number, _),) = runs
        if number == 2:
            raise KeyboardInterrupt
        searched.append(number)
        return real(rules, runs, *rest)

    # the worker's task run in this process, so that the stand-in above is the one called
    monkeypatch.setattr(local, "LocalPool", lambda workers, task: local.InlinePool(task))
    monkeypatch.setattr(par_survey, "par_batch", par_batch_then_stop)
    code, _, err = run(capsys, *argv)
    assert code == 130 and searched == [1]
    assert err == (
        "interrupted: par of 1 deals stored this run, 3 of 4 stored;"
        " run the same command again to continue\n"
    )
    searched.clear()

    def par_batch_noted(rules: Any, runs: Any, *rest: Any) -> Any:
        searched.extend(n for a, b in runs for n in range(a, b + 1))
        return real(rules, runs, *rest)

    monkeypatch.setattr(par_survey, "par_batch", par_batch_noted)
    code, out, _ = run(capsys, *argv)
    assert code == 0 and searched == [2] and "3 were stored before" in out
    searched.clear()
    code, _, _ = run(capsys, *argv, "--retry-unknown")
    assert code == 0 and searched == unproven


def _par_rows(db: str) -> list[tuple[int, int]]:
    import sqlite3

    with sqlite3.connect(db) as c:
        rows = c.execute("SELECT deal, optimal FROM survey_par ORDER BY deal").fetchall()
    c.close()
    return [(int(d), int(o)) for d, o in rows]


def test_survey_par_refuses_options_of_the_verdict_survey(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, _, err = run(
        capsys, "survey", "1", "3", "--par", "--rate", "--db", str(tmp_path / "s.db")
    )
    assert code == 64 and "--rate does not apply to --par" in err


def test_a_par_of_one_move_is_one_move_and_two_packs_send_the_right_twin_home(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """A Double FreeCell board whose two K♦ need the ♦ foundation at Q: the K♦ on J♦ goes
    first (the player's one move), then the rest goes home by itself ("1 player move",
    not "1 player moves"); in single-card moves four."""
    board = tmp_path / "twins.json"
    board.write_text(
        '{"variant": "double-freecell", "columns": [["QD"], ["JD", "KD"], [], [], [], [],'
        ' [], [], [], []], "cells": ["KD", null, null, null, null, null], "foundations":'
        ' {"C": [13, 13], "S": [13, 13], "H": [13, 13], "D": [12, 10]}}'
    )
    code, out, _ = run(capsys, "solve", "--board", str(board), "--optimal")
    assert code == 0 and out.splitlines()[-1].startswith("optimal: yes — par is 1 player move (")
    code, out, _ = run(capsys, "solve", "--board", str(board), "--optimal", "--count", "single")
    assert code == 0 and "par is 4 single-card moves (" in out.splitlines()[-1]
