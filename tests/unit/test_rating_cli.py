"""``eightoff rate`` and the rating under ``eightoff deal``, as a user meets them."""

from __future__ import annotations

import json

import pytest

from eightoff.cli import main
from eightoff.position import Position
from eightoff.rating import Level, Rating


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def test_rate_prints_each_deal_with_its_level_and_measurements(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, out, err = run(capsys, "rate", "1-2", "11982", "--variant", "freecell")
    assert code == 0 and err == ""
    lines = out.splitlines()
    assert [line.split(":")[0] for line in lines] == [
        "FreeCell · deal #1",
        "FreeCell · deal #2",
        "FreeCell · deal #11982",
    ]
    names = [level.value for level in Level]
    for line in lines[:2]:
        assert any(f": {name} (score " in line for name in names), line
        assert "players won depth 0" in line and "solver: solved" in line
    assert "Not winnable" in lines[2] and "solver: lost" in lines[2]


def test_rate_counts_the_solution_in_player_moves_as_solve_does(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """The table's count (eightoff.counts): the cards safe auto-move sends home are free."""
    code, out, _ = run(capsys, "solve", "5", "--variant", "freecell", "--json")
    player = json.loads(out)["player_moves"]
    code, out, _ = run(capsys, "rate", "5", "--variant", "freecell")
    assert code == 0 and f"solver: solved, {player} player moves, " in out
    code, out, _ = run(capsys, "rate", "5", "--variant", "freecell", "--json")
    assert json.loads(out)["solution_moves"] == player


def test_rate_json_is_one_object_per_deal(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "rate", "3", "5", "--json")
    assert code == 0
    rows = [json.loads(line) for line in out.splitlines()]
    assert [row["deal"] for row in rows] == [3, 5]
    for row in rows:
        Level.parse(row["level"])
        assert row["variant"] == "eightoff" and row["formula"]
        assert sum(p["played"] for p in row["players"]) == 32


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["rate", "0"], "'0' is not a deal or a range of deals"),
        (["rate", "9-3"], "'9-3' is not a range"),
        (["rate", "x"], "'x' is not a deal or a range of deals"),
    ],
)
def test_rate_bad_deals_is_one_line_and_exit_64(
    capsys: pytest.CaptureFixture[str], args: list[str], message: str
) -> None:
    code, out, err = run(capsys, *args)
    assert code == 64 and out == ""
    assert message in err and len(err.strip().splitlines()) == 1


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["rate"], "the following arguments are required: DEALS"),
        (["rate", "1", "--variant", "spider"], "unknown variant 'spider'"),
    ],
)
def test_rate_usage_errors_exit_64(
    capsys: pytest.CaptureFixture[str], args: list[str], message: str
) -> None:
    with pytest.raises(SystemExit) as e:
        main(args)
    err = capsys.readouterr().err
    assert e.value.code == 64 and message in err


def test_deal_shows_its_rating(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "deal", "11982", "--variant", "freecell")
    assert code == 0
    assert "Rating: Not winnable" in out
    code, out, _ = run(capsys, "deal", "2")
    assert code == 0
    lines = out.splitlines()
    at = next(i for i, line in enumerate(lines) if line.startswith("Rating: "))
    assert "score" in lines[at + 1]


def test_deal_5s_rating_never_breaks_inside_parentheses(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 23.10: at 80 columns the level, then what it rests on, each on one line."""
    monkeypatch.setenv("COLUMNS", "80")
    code, out, _ = run(capsys, "deal", "5")
    assert code == 0
    lines = out.splitlines()
    at = next(i for i, line in enumerate(lines) if line.startswith("Rating: "))
    assert lines[at] == "Rating: Grandmaster"
    assert lines[at + 1].strip().startswith("score ") and lines[at + 1].endswith("0/8")
    assert all(line.count("(") == line.count(")") for line in lines)


def test_deal_board_formats_stay_boards(capsys: pytest.CaptureFixture[str]) -> None:
    _, out, _ = run(capsys, "deal", "2", "--format", "fcs")
    assert "Rating" not in out


def test_ctrl_c_during_rate_says_so_in_one_line(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Ctrl+C during ``rate`` says why it stopped (it once ended with 130 and nothing on
    stderr), and nothing of saving: it keeps nothing (it said "what was saved stays
    saved")."""
    import eightoff.cli.deal as deal_cli

    rated: list[int] = []
    real = deal_cli._rating_of

    def rate_then_stop(position: Position) -> Rating:
        if rated:
            raise KeyboardInterrupt
        rated.append(1)
        return real(position)

    monkeypatch.setattr(deal_cli, "_rating_of", rate_then_stop)
    code, out, err = run(capsys, "rate", "1-5")
    assert code == 130
    assert len(out.splitlines()) == 1  # the deal rated before the interrupt is shown
    assert err == "eightoff rate: interrupted\n"
