"""The command line as a user meets it: help, deals, variants, the terminal game, errors."""

from __future__ import annotations

import io
import json
import subprocess
import sys

import pytest

from eightoff.boards import parse_fcs
from eightoff.cli import main
from eightoff.deals import deal


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def test_deal_text_shows_the_board_with_suit_symbols(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "deal", "1")
    assert code == 0
    assert "Eight Off · deal #1" in out
    assert "J♦" in out and "10♣" in out
    assert "Group limit: 5 cards: 4 empty cells + 1" in out


def test_deal_fcs_and_json_read_back(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "deal", "617", "--variant", "freecell", "--format", "fcs")
    assert code == 0 and parse_fcs(out, "freecell") == deal("freecell", 617)
    code, out, _ = run(capsys, "deal", "3", "--format", "json")
    data = json.loads(out)
    assert data["variant"] == "eightoff" and len(data["columns"]) == 8


def test_variants_lists_every_variant_in_one_line_each(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "variants")
    lines = [line for line in out.splitlines() if line.strip()]
    assert code == 0 and len(lines) == 7
    assert lines[0].startswith("eightoff ") and "Kings" in lines[0]


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["deal", "0"], "'0' is not a deal number"),
        (["deal", "abc"], "'abc' is not a deal number"),
        (["deal", "5", "--variant", "spider"], "unknown variant 'spider'"),
        (["play", "--terminal", "--variant", "nope"], "unknown variant 'nope'"),
    ],
)
def test_bad_input_is_one_line_and_exit_64(
    capsys: pytest.CaptureFixture[str], args: list[str], message: str
) -> None:
    with pytest.raises(SystemExit) as e:
        main(args)
    err = capsys.readouterr().err
    assert e.value.code == 64
    assert message in err and len(err.strip().splitlines()) == 1
    assert "Traceback" not in err


def test_help_of_every_subcommand(capsys: pytest.CaptureFixture[str]) -> None:
    for args in (["--help"], ["play", "--help"], ["deal", "--help"], ["variants", "--help"]):
        with pytest.raises(SystemExit) as e:
            main(args)
        assert e.value.code == 0
        assert "usage: eightoff" in capsys.readouterr().out


def test_terminal_game_moves_undoes_and_explains(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    entries = "b8\n3b\nzz\n1h\n?\nu\nr\nq\n"
    monkeypatch.setattr(sys, "stdin", io.StringIO(entries))
    code, out, _ = run(capsys, "play", "--terminal", "--deal", "1")
    assert code == 0
    assert "9♣ from Cell 2 to Column 8" in out
    assert "Cell 2 is not empty" not in out  # b was emptied by the first move
    assert "8♦ from Column 3 to Cell 2" in out
    assert "'z' is not a place" in out
    assert "6♦ can go home only after the 5♦" in out
    assert "Legal moves:" in out
    assert "moves 1" in out  # after the undo


def test_installed_script_runs() -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "eightoff.cli", "deal", "2", "--format", "fcs"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert proc.returncode == 0 and proc.stdout.startswith("Foundations:")


def test_play_with_a_deal_opens_the_table_on_that_deal(
    monkeypatch: pytest.MonkeyPatch, tmp_path: pytest.TempPathFactory
) -> None:
    import eightoff.web.server as server
    from eightoff.store import Store

    served: list[tuple[object, ...]] = []
    monkeypatch.setattr(server, "serve", lambda *a: served.append(a) or 0)  # exit status
    db = str(tmp_path / "games.sqlite3")  # type: ignore[operator]
    assert main(["play", "--variant", "freecell", "--deal", "617", "--db", db, "--no-browser"]) == 0
    assert served == [("127.0.0.1", None, db, False)]
    store = Store(db)
    try:
        gid = store.current_game_id()
        assert gid is not None
        saved = store.load(gid)
        assert saved is not None
        assert saved.game.start == deal("freecell", 617)
    finally:
        store.close()
