"""House rules on the command line: ``--retrieval`` and ``--strict`` for deal, solve and
survey change the game that is dealt, solved and stored."""

from __future__ import annotations

import io
import json
import sys
from pathlib import Path

import pytest

from eightoff.cli import main
from eightoff.deals import deal
from eightoff.game import Game
from eightoff.position import Kind, Move, Place
from eightoff.rules import preset


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def test_deal_names_the_house_rules_and_their_group_limit(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, out, _ = run(capsys, "deal", "1", "--strict", "--retrieval")
    assert code == 0
    assert "Eight Off · deal #1 · foundation retrieval, single-card moves" in out
    assert "Group limit: 1 card: single-card moves only" in out
    code, out, _ = run(capsys, "deal", "1")
    assert "single-card" not in out and "Group limit: 5 cards" in out


def test_rate_names_the_house_rules_it_rated_under(capsys: pytest.CaptureFixture[str]) -> None:
    """A deal rated under single-card moves (FreeCell 5: Hard) and without them (Medium)
    once printed the same title and JSON keys: both now say which game was rated."""
    code, out, _ = run(capsys, "rate", "5", "--variant", "freecell", "--strict")
    assert code == 0 and out.startswith("FreeCell · deal #5 · single-card moves: "), out
    code, out, _ = run(capsys, "rate", "5", "--variant", "freecell")
    assert code == 0 and out.startswith("FreeCell · deal #5: "), out
    code, out, _ = run(capsys, "rate", "5", "--variant", "freecell", "--retrieval", "--json")
    row = json.loads(out)
    assert (row["cells"], row["house_rules"]) == (4, ["foundation_retrieval"])


def _solution(capsys: pytest.CaptureFixture[str], *args: str) -> list[Move]:
    code, out, _ = run(capsys, "solve", *args, "--json")
    assert code == 0, out
    result = json.loads(out)
    return [
        Move(
            Place(Kind(m["source"]["kind"]), m["source"]["index"]),
            Place(Kind(m["target"]["kind"]), m["target"]["index"]),
            m["count"],
        )
        for m in result["moves"]
    ]


def test_solve_strict_moves_one_card_at_a_time(capsys: pytest.CaptureFixture[str]) -> None:
    free = _solution(capsys, "7", "--variant", "freecell")
    assert any(m.count > 1 for m in free)  # the usual rules use group moves here
    strict = _solution(capsys, "7", "--variant", "freecell", "--strict")
    assert all(m.count == 1 for m in strict)
    game = Game(deal(preset("freecell").with_options(strict_single=True), 7), auto_move=False)
    for m in strict:
        game.play(m)
    assert game.position.is_won()


def test_solve_a_board_that_only_retrieval_wins(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    # FreeCell, cells full, the one red card in play buried: the J♠ over the two 4s can
    # go nowhere, unless the Q♥ comes back from its foundation onto the K♣
    board = {
        "variant": "freecell",
        "columns": [
            ["KH", "4C", "4S", "JS"], ["KC"], ["JC", "TC", "9C"], ["8C", "7C"],
            ["6C", "5C"], ["QS"], ["8S", "7S"], ["6S", "5S"],
        ],
        "cells": ["KS", "QC", "TS", "9S"],
        "foundations": {"C": 3, "S": 3, "H": 12, "D": 13},
    }  # fmt: skip
    path = tmp_path / "board.json"
    path.write_text(json.dumps(board))
    code, out, _ = run(capsys, "solve", "--board", str(path), "--json")
    assert (code, json.loads(out)["verdict"]) == (1, "lost")
    code, out, _ = run(capsys, "solve", "--board", str(path), "--json", "--retrieval")
    result = json.loads(out)
    assert (code, result["verdict"]) == (0, "solved")
    assert result["moves"][0]["source"] == {"kind": "foundation", "index": 2}  # the Q♥


def test_survey_with_house_rules_is_stored_apart(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    db = str(tmp_path / "survey.sqlite3")
    code, _, _ = run(capsys, "survey", "1", "4", "--db", db, "--strict", "--no-progress")
    assert code == 0
    code, out, _ = run(capsys, "survey", "report", "--db", db, "--strict", "--json")
    assert code == 0 and json.loads(out)["deals"] == 4
    code, out, _ = run(capsys, "survey", "report", "--db", db, "--json")
    assert code == 0 and json.loads(out)["deals"] == 0


def test_play_with_house_rules_opens_the_table_on_them(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``eightoff play --retrieval --strict`` stores the game the table then shows."""
    import eightoff.web.server as server
    from eightoff.store import Store

    served: list[str | None] = []

    def serve(host: str, port: int | None, db: str | None, browser: bool) -> int:
        served.append(db)
        return 0

    monkeypatch.setattr(server, "serve", serve)
    db = str(tmp_path / "t.sqlite3")
    args = ["play", "--db", db, "--no-browser", "--variant", "freecell", "--deal", "5"]
    assert main([*args, "--retrieval", "--strict"]) == 0 and served == [db]
    store = Store(db)
    try:
        gid = store.current_game_id()
        assert gid is not None
        saved = store.load(gid)
        assert saved is not None and saved.deal == 5
        rules = saved.game.rules
        assert (rules.id, rules.foundation_retrieval, rules.strict_single) == (
            "freecell",
            True,
            True,
        )
    finally:
        store.close()


def test_play_in_the_terminal_names_the_house_rules(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(sys, "stdin", io.StringIO("q\n"))
    code, out, _ = run(capsys, "play", "--terminal", "--deal", "1", "--strict")
    assert code == 0 and "deal #1 · moves 0 · single-card moves" in out


def test_solve_and_rate_json_record_the_rules_they_ran_under(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """Lines of runs under different house rules could not be told apart in ``solve
    --json`` (``rate --json`` names them)."""
    args = ("3", "--variant", "freecell", "--cells", "2", "--strict", "--json")
    rows = [json.loads(run(capsys, command, *args)[1]) for command in ("solve", "rate")]
    for row in rows:
        assert (row["cells"], row["house_rules"]) == (2, ["strict_single"]), row
    assert json.loads(run(capsys, "solve", "3", "--json")[1])["house_rules"] == []
