"""The command line as a user meets it: help, deals, variants, the terminal game, errors."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path

import pytest
from rich.console import Console

from eightoff.boards import from_json, parse_fcs
from eightoff.cli import main
from eightoff.cli.play import play_terminal
from eightoff.deals import deal
from eightoff.explain import describe_rules, hint_message
from eightoff.game import Game
from eightoff.position import Move, Position
from eightoff.rules import PRESETS, preset


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
    code, out, err = run(capsys, "deal", "617", "--variant", "freecell", "--format", "fcs")
    assert code == 0 and parse_fcs(out, "freecell") == deal("freecell", 617)
    # the text has no word for the variant: read back alone it would be played as Eight Off
    assert err.count("\n") == 1 and "read it back with --variant freecell, or use" in err
    assert run(capsys, "deal", "617", "--format", "fcs")[2] == ""  # Eight Off: the default
    code, out, _ = run(capsys, "deal", "3", "--format", "json")
    data = json.loads(out)
    assert data["variant"] == "eightoff" and len(data["columns"]) == 8


def test_an_fcs_board_of_fewer_cells_says_how_to_read_it_back(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """Freecell Solver's text has no word for a house rule of cells: read back as plain
    FreeCell, deal 1 with 2 cells (lost) would be solved. The deal says so."""
    code, out, err = run(
        capsys, "deal", "1", "--variant", "freecell", "--cells", "2", "--format", "fcs"
    )
    assert code == 0 and "Freecells: - -\n" in out
    assert err.count("\n") == 1 and "read it back with --variant freecell --cells 2, or use" in err
    two = preset("freecell").with_options(cells=2)
    assert parse_fcs(out, two) == deal(two, 1)
    args = ("deal", "7", "--variant", "freecell", "--strict", "--retrieval", "--format")
    code, out, err = run(capsys, *args, "fcs")
    assert err.count("\n") == 1 and "with --variant freecell --retrieval --strict," in err


def test_a_json_board_keeps_its_house_rules_and_refuses_other_cells(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """``deal --format json`` kept only the number of cells: read back, a deal dealt
    with single-card moves and retrieval was solved without them. It keeps every house
    rule now; and a board of 2 cells read with ``--cells 3`` is refused (it was played
    with 3)."""
    rules = preset("freecell").with_options(strict_single=True, foundation_retrieval=True, cells=2)
    args = ("deal", "7", "--variant", "freecell", "--strict", "--retrieval", "--cells", "2")
    code, out, _ = run(capsys, *args, "--format", "json")
    data = json.loads(out)
    assert (data["free_cells"], data["strict_single"], data["foundation_retrieval"]) == (
        2,
        True,
        True,
    )
    assert from_json(out) == deal(rules, 7)
    board = tmp_path / "b.json"
    board.write_text(out)
    code, out, err = run(capsys, "solve", "--board", str(board), "--quiet")
    assert "FreeCell, 2 cells" in out and "foundation retrieval, single-card moves" in out
    code, out, err = run(capsys, "solve", "--board", str(board), "--cells", "3")
    assert code == 64 and "free_cells" in err and err.count("\n") == 1, err
    code, out, _ = run(capsys, "deal", "7", "--variant", "freecell", "--format", "json")
    assert not {"free_cells", "strict_single", "foundation_retrieval"} & set(json.loads(out))


def test_a_dealt_board_is_never_wrapped_at_the_terminal_width(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """With COLUMNS=45 (or a pipe into a narrow window) Double FreeCell's ten columns
    were cut after the eighth, the last two on a line below: the grid is kept whole."""
    monkeypatch.setenv("COLUMNS", "45")
    code, out, _ = run(capsys, "deal", "5", "--variant", "double-freecell")
    numbers = next(line for line in out.splitlines() if line.split()[:2] == ["1", "2"])
    assert code == 0 and numbers.split() == ["1", "2", "3", "4", "5", "6", "7", "8", "9", "0"]
    home = next(line for line in out.splitlines() if line.startswith("Home"))
    assert len(home.split()) == 9  # the label and eight foundations, on one line


def test_variants_lists_every_variant_in_one_line_each(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "variants")
    lines = [line for line in out.splitlines() if line.strip()]
    assert code == 0 and len(lines) == 7
    assert lines[0].startswith("eightoff ") and "Kings" in lines[0]
    by_id = {line.split()[0]: line for line in lines}
    assert "48 cards in 8 columns, 4 in cells" in by_id["eightoff"]
    assert "50 cards in 10 columns, 2 in cells" in by_id["seahaven-towers"]
    assert "52 cards in 8 columns;" in by_id["freecell"]
    for rules in PRESETS.values():  # the one description of a variant's rules, as on the table
        assert by_id[rules.id].endswith(f"{rules.name}: {describe_rules(rules)}")
    assert "104 cards in 10 columns;" in by_id["double-freecell"]


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
    entries = "b8\n3b\nzz\n1h\n?\nt\nhint\n" + "x" * 5000 + "\nu\nr\nq\n"
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
    # The solver's next move and why, and the verdict after every move, as on the table.
    hint = next(line for line in out.splitlines() if "Hint: " in line)
    move = hint.split("Hint: ")[1].split()[0]
    position = Game.new("eightoff", 1).position
    for played in ("b8", "3b"):
        position = position.apply(Move.parse(played))
    assert position.is_legal(Move.parse(move))  # a legal move of the position shown
    words = str(hint_message(position, Move.parse(move))).rstrip(".")
    assert words in hint and "The solver wins in" in hint
    assert out.count("Winnable") >= 5  # the start, two moves, the undo, the redo
    assert "'xxxxxxxx" in out and "x" * 100 not in out  # a long entry is cut short


def test_the_terminal_game_counts_player_moves(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Deal 2: column 1's top card to a cell lets three cards go home: one move."""
    monkeypatch.setattr(sys, "stdin", io.StringIO("1e\nu\nq\n"))
    code, out, _ = run(capsys, "play", "--terminal", "--deal", "2")
    assert code == 0
    titles = [line for line in out.splitlines() if "Eight Off · deal #2 · moves" in line]
    assert [t.split("moves ")[1].split()[0] for t in titles] == ["0", "1", "0"]


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

    served: list[tuple[object, ...]] = []

    def serve(*a: object) -> int:
        served.append(a)
        return 0  # exit status

    monkeypatch.setattr(server, "serve", serve)
    db = str(tmp_path / "games.sqlite3")  # type: ignore[operator]
    assert main(["play", "--variant", "freecell", "--deal", "617", "--db", db, "--no-browser"]) == 0
    assert served == [("127.0.0.1", None, db, False)]
    assert _started(db) == deal("freecell", 617)


def _started(db: str) -> Position:
    """The start of the game in progress in the table's database ``db``."""
    from eightoff.store import Store

    store = Store(db)
    try:
        gid = store.current_game_id()
        assert gid is not None
        saved = store.load(gid)
        assert saved is not None
        return saved.game.start
    finally:
        store.close()


def test_play_with_a_house_rule_alone_opens_the_table_with_it(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """``play --cells 6`` (no --variant, no --deal) starts a game of Eight Off with six
    cells: the house rule is not dropped for want of a variant."""
    import eightoff.web.server as server

    monkeypatch.setattr(server, "serve", lambda *a: 0)
    db = str(tmp_path / "games.sqlite3")
    assert main(["play", "--cells", "6", "--db", db, "--no-browser"]) == 0
    assert _started(db).rules == preset("eightoff").with_options(cells=6)


@pytest.mark.parametrize(
    "extra", [["--db", "x.sqlite3"], ["--port", "8080"], ["--host", "0.0.0.0"], ["--no-browser"]]
)
def test_the_tables_options_are_refused_for_the_terminal_game(
    extra: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = run(capsys, "play", "--terminal", *extra)
    assert code == 64 and out == ""
    assert err.count("\n") == 1 and f"{extra[0]} is for the table in the browser" in err


CLEAR = "\x1b[2J"


def terminal_game(monkeypatch: pytest.MonkeyPatch, entries: str, deal: int) -> list[str]:
    """The terminal game on a 100×40 terminal: the screens it drew, one per clear."""
    monkeypatch.setattr(sys, "stdin", io.StringIO(entries))
    out = io.StringIO()
    console = Console(
        file=out, force_terminal=True, width=100, height=40, color_system=None, highlight=False
    )
    assert play_terminal("eightoff", deal, console=console) == 0
    return out.getvalue().split(CLEAR)[1:]


def test_terminal_game_draws_in_place_with_the_history_below(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Issue 23.9: each screen is the board once, the newest history last, under it."""
    screens = terminal_game(monkeypatch, "b8\nzz\n3b\nu\nq\n", 1)
    assert len(screens) == 5  # the deal, then one screen after each entry
    for screen in screens:
        assert screen.count("Eight Off · deal #1") == 1  # the board, drawn once
        board = screen.split("History", 1)[0]
        assert "Home " in board and "Cells " in board and "Winnable" in board
    last = screens[-1].split("History", 1)[1]
    # every step so far, in order, below the board
    said = [
        "9♣ from Cell 2 to Column 8",
        "'z' is not a place",
        "8♦ from Column 3 to Cell 2",
        "Undone: 1 move made.",
    ]
    at = [last.index(s) for s in said]
    assert at == sorted(at)
    assert "moves 1" in screens[-1].split("History")[0]


def test_terminal_game_sends_safe_cards_home_at_the_deal(monkeypatch: pytest.MonkeyPatch) -> None:
    """As the table deals it: Eight Off #5's A♦ (in a cell) goes home at the deal, and undo
    does not take it back."""
    screens = terminal_game(monkeypatch, "u\nq\n", 5)
    first = screens[0]
    board, history = first.split("History", 1)
    assert "A♦" in board.split("Cells")[0]  # on its foundation
    assert "Home at the deal: A♦ from Cell 2 home" in history
    assert "Nothing to undo." in screens[-1]
    assert "moves 0" in screens[-1]


def test_terminal_game_says_when_a_deal_cannot_be_won(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(sys, "stdin", io.StringIO("t\nq\n"))
    code, out, _ = run(capsys, "play", "--terminal", "--variant", "freecell", "--deal", "11982")
    assert code == 0
    assert "No play wins this deal" in out  # FreeCell #11982, proven lost from the start
    assert "No move leads to a win." in out  # the hint says so too


def test_the_readme_documents_every_exit_status() -> None:
    from pathlib import Path

    from eightoff.cli.exits import EXIT_STATUSES

    readme = (Path(__file__).parents[2] / "README.md").read_text(encoding="utf-8")
    section = readme.split("### Exit statuses", 1)[1].split("\n\n", 2)[1]
    rows = [line.split("|")[1].strip() for line in section.splitlines()[2:]]
    assert [int(code) for code in rows] == sorted(EXIT_STATUSES)


def test_a_survey_starts_without_loading_the_terminals_board(tmp_path: Path) -> None:
    """Every survey and solve pays the program's start: `survey` and `solve` do not
    import the terminal's board and rich (a fifth of the start), which `deal` does; a
    survey that runs loads neither the table's games nor the report and its ratings
    (its workers start only once its imports are done), which `survey report` does."""
    probe = (
        "import sys\n"
        "from eightoff.cli import main\n"
        "code = main(sys.argv[1:])\n"
        "print(code, 'rich' in sys.modules, 'eightoff.cli.board' in sys.modules)\n"
        "print(*(m in sys.modules for m in ('eightoff.store.games',"
        " 'eightoff.survey.report', 'eightoff.rating')))\n"
    )
    db = str(tmp_path / "s.sqlite3")

    def run(*args: str, line: int = -2) -> str:
        done = subprocess.run(
            [sys.executable, "-c", probe, *args], capture_output=True, text=True, timeout=120
        )
        return done.stdout.splitlines()[line]

    survey = ("survey", "1", "2", "--variant", "freecell", "--db", db, "--no-progress")
    assert run(*survey) == "0 False False"
    assert run(*survey, line=-1) == "False False False"
    assert run("survey", "report", "--db", db, line=-1) == "False True True"
    assert run("solve", "1", "--variant", "freecell", "--quiet") == "0 False False"
    assert run("deal", "1") == "0 True True"


@pytest.mark.parametrize(
    ("variant", "extra", "places"),
    [
        ("freecell", (), "columns 1–8, cells a–d, home h"),
        ("double-freecell", ("--cells", "0"), "columns 1–9 and 0, no cells, home h"),
        ("freecell", ("--cells", "1"), "columns 1–8, cell a, home h"),
        ("eightoff", (), "columns 1–8, cells a–g and i, home h"),
    ],
)
def test_the_terminal_game_names_the_places_its_variant_has(
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    variant: str,
    extra: tuple[str, ...],
    places: str,
) -> None:
    """The help and a refusal named ten columns and eight cells in FreeCell (and
    foundations h1…h8 where there are four)."""
    monkeypatch.setattr(sys, "stdin", io.StringIO("zz\nha\nq\n"))
    code, out, _ = run(capsys, "play", "--terminal", "--variant", variant, "--deal", "3", *extra)
    assert code == 0
    flat = " ".join(out.split())  # the refusals wrap at the console's width
    assert f"Moves: source then target: {places}." in flat
    assert f"'zz': 'z' is not a place ({places})" in flat
    last = 8 if variant == "double-freecell" else 4
    assert f"is written h1…h{last} (the foundation's number)" in flat
