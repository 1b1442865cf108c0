"""``eightoff solve`` as a user meets it: moves that replay, JSON lines, exit codes,
one-line errors for bad input."""

from __future__ import annotations

import io
import json
import re
from pathlib import Path
from typing import Any

import pytest

from eightoff.boards import format_fcs, to_json
from eightoff.cli import main
from eightoff.counts import count, counted_moves
from eightoff.deals import deal
from eightoff.explain import describe
from eightoff.position import Kind, Move, Place, Position

LOST_EIGHTOFF = 465  # unwinnable per Freecell Solver (fc-solve --game eight_off)
JSON_KEYS = {
    "variant",
    "deal",
    "verdict",
    "moves",
    "player_moves",
    "single_card_moves",
    "states",
    "seconds",
    "reason",
    "cells",  # the rules it was solved under, as rate --json names them
    "house_rules",
}
MOVE_KEYS = {"notation", "card", "count", "source", "target"}


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(["solve", *args])
    out, err = capsys.readouterr()
    return code, out, err


def player_and_single(start: Position, moves: list[Move]) -> tuple[int, int]:
    """The two counts worked out here from their words (README, "Two move counts"): a
    move home of a card that may safely go home, or once the win is certain, costs no
    player move; a group of k cards moved with E free cells and no empty column is
    2k - 1 single moves (the only groups in these Eight Off solutions: Kings fill
    spaces, so empty columns are no room)."""
    player = single = 0
    pos = start
    for m in moves:
        home = m.target.kind is Kind.FOUNDATION
        free = home and (pos.win_is_certain() or pos.is_safe_home(pos.moving_card(m)))
        player += 0 if free else 1
        single += 2 * m.count - 1
        pos = pos.apply(m)
    return player, single


def replay_json_moves(start: Position, moves: list[dict[str, object]]) -> Position:
    """Apply each JSON move through the engine, checking its fields on the way."""
    pos = start
    for m in moves:
        assert set(m) == MOVE_KEYS
        src, dst = m["source"], m["target"]
        assert isinstance(src, dict) and isinstance(dst, dict)
        move = Move(
            Place(Kind(src["kind"]), src["index"]),
            Place(Kind(dst["kind"]), dst["index"]),
            int(m["count"]),  # type: ignore[call-overload]
        )
        assert dst["index"] is not None  # home resolved to a concrete foundation
        assert m["card"] == str(pos.moving_card(move))
        assert Move.parse(str(m["notation"])).source == move.source
        pos = pos.apply(move)
    return pos


def test_human_output_numbers_moves_that_replay_to_a_win(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, out, err = run(capsys, "1", "2")
    assert code == 0 and err == ""
    for number, block in zip((1, 2), out.split("\n\n"), strict=True):
        lines = block.strip().splitlines()
        assert lines[0] == f"Eight Off · deal #{number}"
        summary = r"solved: (\d+) player moves \((\d+) single-card moves\), [\d ]+ states, .+"
        said = re.fullmatch(summary, lines[-1])
        assert said is not None, lines[-1]
        assert (
            lines[-2] == "(+ a card that safe auto-move or auto-complete sends home: not counted)"
        )
        pos = start = deal("eightoff", number)
        moves, labels = [], []
        for line in lines[1:-2]:
            index, notation, words = line.split(maxsplit=2)
            labels.append(index)
            move = Move.parse(notation)
            assert words == describe(pos, move)
            pos = pos.apply(move)
            moves.append(move)
        assert pos.is_won()
        player, single = player_and_single(start, moves)
        assert (int(said[1]), int(said[2])) == (player, single)
        assert player < len(moves) <= single  # the safe cards sent home are free
        # numbered in player moves, 1 to the summary's count; each free card home "+"
        per_move = counted_moves(start, moves)
        numbered = [label for label in labels if label != "+"]
        assert numbered == [f"{i}." for i in range(1, player + 1)]
        assert [label == "+" for label in labels] == [c.player == 0 for c in per_move]


def test_json_lines_replay_and_say_lost(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "3-4", str(LOST_EIGHTOFF), "--json")
    assert code == 1  # a deal proven lost
    rows = [json.loads(line) for line in out.splitlines()]
    assert [r["deal"] for r in rows] == [3, 4, LOST_EIGHTOFF]
    for row in rows:
        assert set(row) == JSON_KEYS and row["variant"] == "eightoff"
        assert (row["cells"], row["house_rules"]) == (8, [])
        assert isinstance(row["states"], int) and row["states"] > 0
        assert isinstance(row["seconds"], float)
    for row in rows[:2]:
        assert row["verdict"] == "solved"
        start = deal("eightoff", row["deal"])
        assert replay_json_moves(start, row["moves"]).is_won()
        moves = [Move.parse(m["notation"]) for m in row["moves"]]
        counts = player_and_single(start, moves)
        assert (row["player_moves"], row["single_card_moves"]) == counts
    assert rows[2]["verdict"] == "lost" and rows[2]["moves"] == []
    assert rows[2]["player_moves"] is None and rows[2]["single_card_moves"] is None


def test_json_group_moves_and_other_variants(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "1", "--variant", "freecell", "--json")
    assert code == 0
    row = json.loads(out)
    assert row["variant"] == "freecell" and row["verdict"] == "solved"
    assert replay_json_moves(deal("freecell", 1), row["moves"]).is_won()


def test_short_gives_a_solution_no_longer(capsys: pytest.CaptureFixture[str]) -> None:
    _, out, _ = run(capsys, "6", "--json")
    _, short, _ = run(capsys, "6", "--json", "--short")
    plain, shorter = json.loads(out), json.loads(short)
    assert replay_json_moves(deal("eightoff", 6), shorter["moves"]).is_won()
    assert shorter["player_moves"] <= plain["player_moves"]


def test_a_limit_gives_unknown_and_exit_2(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "1", "--max-states", "3")
    assert code == 2
    assert "unknown: state limit reached" in out
    code, out, _ = run(capsys, "1", "--max-states", "3", "--json")
    row = json.loads(out)  # why it stopped, as --optimal's JSON says it
    assert code == 2 and (row["verdict"], row["reason"]) == ("unknown", "state limit reached")


def test_deals_a_limit_stopped_end_with_the_option_that_goes_further(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """Each limit that left deals unknown is named once on stderr, with its value now;
    nothing is said when every deal has its verdict."""
    code, out, err = run(capsys, "1-3", "--max-states", "3", "--quiet")
    assert code == 2 and out.count("unknown: state limit reached") == 3
    assert err.splitlines() == [
        "eightoff solve: 3 deals stopped at the state limit: a larger --max-states (now 3)"
        " lets their searches go further"
    ]
    code, _, err = run(capsys, "982", "--variant", "freecell", "--cells", "2", "--memory", "16M",
                       "--disk", "0", "--max-states", "100000000")  # fmt: skip
    assert code == 2
    assert err.splitlines() == [
        "eightoff solve: 1 deal stopped at the memory limit: a larger --memory (now 16M), or"
        " --disk SIZE to go on on disk, lets its search go further"
    ]
    code, _, err = run(capsys, "1-3")
    assert code == 0 and err == ""


def test_board_file_in_both_formats(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    start = deal("eightoff", 7)
    fcs = tmp_path / "deal7.txt"
    fcs.write_text(format_fcs(start))
    code, out, _ = run(capsys, "--board", str(fcs), "--json")
    row = json.loads(out)
    assert code == 0 and row["deal"] is None and row["variant"] == "eightoff"
    assert replay_json_moves(start, row["moves"]).is_won()

    fc_start = deal("freecell", 9)
    board = tmp_path / "fc9.json"
    board.write_text(json.dumps(to_json(fc_start)))
    code, out, _ = run(capsys, "--board", str(board), "--json")
    row = json.loads(out)
    assert code == 0 and row["variant"] == "freecell"
    assert replay_json_moves(fc_start, row["moves"]).is_won()


def test_board_from_stdin(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO(format_fcs(deal("eightoff", 8))))
    code, out, _ = run(capsys, "--board", "-")
    assert code == 0
    assert out.startswith("Eight Off · board -\n")
    assert out.rstrip().splitlines()[-1].startswith("solved:")


@pytest.mark.parametrize(
    ("args", "says"),
    [
        (["5-1"], "'5-1' is not a range"),
        (["abc"], "'abc' is not a deal"),
        (["0"], "deals are numbered 1 to 99999999999999999999"),
        (["1-x"], "'1-x' is not a deal"),
        ([], "name deals to solve"),
        (["1", "--variant", "nope"], "unknown variant 'nope'"),
        (["1", "--time-limit", "0"], "time limit (seconds) must be a number more than 0"),
        (["1", "--time-limit", "inf"], "and at most 1e+09, not 'inf'"),
        (["1", "--max-states", "-5"], "state limit must be a whole number from 1 to"),
        (["1", "--max-states", "9223372036854775808"], "from 1 to 9223372036854775807"),
        (["1", "--board", "-"], "not both"),
        ([",,,"], "',,,': an empty deal number"),
        (["1,,2"], "an empty deal number"),
        (["١٢"], "'١٢' is not a deal"),  # Arabic-Indic digits are not read as 12
        (["1-" + "9" * 5000], "'1-" + "9" * 38 + "…' is not a deal"),
        (["--board", ""], "--board: a file name is needed"),
    ],
)
def test_bad_usage_is_one_line_and_exit_64(
    args: list[str], says: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as exited:  # argparse errors exit from parse_args
        code = main(["solve", *args])
        raise SystemExit(code)
    assert exited.value.code == 64
    out, err = capsys.readouterr()
    assert out == ""
    assert len(err.strip().splitlines()) == 1 and says in err
    assert "Traceback" not in err


def test_malformed_board_is_one_line_and_exit_65(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bad = tmp_path / "bad.txt"
    text = format_fcs(deal("eightoff", 1)).replace("JD", "XX", 1)
    bad.write_text(text)
    code, out, err = run(capsys, "--board", str(bad))
    assert code == 65 and out == ""
    assert len(err.strip().splitlines()) == 1
    assert "'XX' is not a card" in err and str(bad) in err

    short = tmp_path / "short.txt"
    short.write_text("\n".join(format_fcs(deal("eightoff", 1)).splitlines()[:-1]) + "\n")
    code, _, err = run(capsys, "--board", str(short))
    assert code == 65 and "missing from the board" in err


def test_missing_board_file_exit_66(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "--board", str(tmp_path / "nope.txt"))
    assert code == 66 and out == ""
    assert "cannot read the board" in err and len(err.strip().splitlines()) == 1


def test_quiet_prints_one_line_per_deal_with_its_verdict_length_and_states(
    capsys: pytest.CaptureFixture[str],
) -> None:
    from eightoff.solver import solve

    code, out, err = run(capsys, "1-3", str(LOST_EIGHTOFF), "--quiet")
    assert code == 1 and err == ""  # 465 is proven lost
    lines = out.splitlines()
    assert len(lines) == 4
    for number, line in zip((1, 2, 3, LOST_EIGHTOFF), lines, strict=True):
        result = solve(deal("eightoff", number))
        title, _, rest = line.partition(": ")
        assert title == f"Eight Off · deal #{number}"
        states = f"{result.states:,} states".replace(",", " ")
        if result.moves:
            n = count(deal("eightoff", number), result.moves)
            assert rest.startswith(
                f"solved: {n.player} player moves ({n.single_card} single-card moves), {states}, "
            )
        else:
            assert rest.startswith(
                f"lost: no sequence of moves wins (search space exhausted: {states}"
            )


def test_quiet_text_and_json_agree_deal_by_deal(capsys: pytest.CaptureFixture[str]) -> None:
    _, quiet, _ = run(capsys, "30-45", "--variant", "freecell", "-q")
    _, text, _ = run(capsys, "30-45", "--variant", "freecell")
    _, lines, _ = run(capsys, "30-45", "--variant", "freecell", "--json")
    summaries = [block.strip().splitlines()[-1] for block in text.split("\n\n")]
    objects = [json.loads(line) for line in lines.splitlines()]
    for q, s, o in zip(quiet.splitlines(), summaries, objects, strict=True):
        verdict_and_length = q.partition(": ")[2].rsplit(", ", 1)[0]
        assert s.rsplit(", ", 1)[0] == verdict_and_length
        assert verdict_and_length.startswith(f"{o['verdict']}: {o['player_moves']} player moves")


def test_quiet_and_json_together_are_refused(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_:
        main(["solve", "1", "--quiet", "--json"])
    _, err = capsys.readouterr()
    assert exit_.value.code == 64 and "not allowed with" in err


def test_a_solution_that_fails_its_replay_is_one_line_and_exit_70(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Never printed as a verdict: the deal is named, one line on stderr, status 70; the
    deals solved before it are shown. Deals solved one at a time (--short) and in a
    block (the batch path, where the core reports the refused solution) alike."""
    from dataclasses import replace as with_fields

    import eightoff.cli.solve as command
    from eightoff.solver import DealBlock, SolutionError
    from eightoff.solver._core import REPLAY_FAILED

    def refusing(position: object, limits: object) -> object:
        raise SolutionError("the solver's solution for a position of FreeCell is refused")

    monkeypatch.setattr(command, "solve", refusing)
    assert main(["solve", "7", "--variant", "freecell", "--short"]) == 70
    out, err = capsys.readouterr()
    assert out == ""
    assert err.strip().count("\n") == 0 and "deal #7" in err and "refused" in err

    from eightoff.solver import solve_deals as real

    def block_refusing(rules: Any, first: int, count: int, *args: Any, **kw: Any) -> DealBlock:
        block = real(rules, first, count, *args, **kw)
        if not first <= 7 < first + count:
            return block
        status, lengths = list(block.status), list(block.lengths)
        status[7 - first], lengths[7 - first] = REPLAY_FAILED, 4
        return with_fields(block, status=status, lengths=lengths)

    monkeypatch.setattr(command, "solve_deals", block_refusing)
    assert main(["solve", "1-9", "--variant", "freecell", "--quiet"]) == 70
    out, err = capsys.readouterr()
    assert [line.split(":")[0] for line in out.splitlines()] == [
        f"FreeCell · deal #{n}" for n in range(1, 7)
    ]
    assert err.strip().count("\n") == 0 and "deal #7" in err and "refused at move 5" in err
