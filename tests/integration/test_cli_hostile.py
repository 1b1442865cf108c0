"""Hostile command lines for every subcommand, run through the real entry point.

Hypothesis builds command lines from valid and hostile pieces (huge and negative
numbers, non-ASCII digits, empty strings, NUL, odd paths, unknown flags, long tokens)
and runs ``eightoff.cli.main(argv)`` in this process with stdout, stderr and stdin
replaced. Whatever comes in: no traceback, an exit status from the documented table
(never 70, the internal error), a refusal is one short line, and the files in the
working folder (databases included) are unchanged by a refused command.

Nothing long runs: solve and survey get tiny state limits (appended last, so they win
over any earlier value), survey ranges are a deal or two, and ``play`` never serves:
its server is replaced by a stub (the terminal game reads "q" and stops).
A few real subprocesses check the closed pipe and the largest inputs.
"""

from __future__ import annotations

import contextlib
import hashlib
import io
import os
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import HealthCheck, assume, event, given, settings
from hypothesis import strategies as st
from hypothesis.errors import InvalidArgument

from eightoff.boards import format_fcs, to_json
from eightoff.cli import main
from eightoff.cli.exits import EX_PIPE, EX_SOFTWARE, EXIT_STATUSES, MAX_MESSAGE
from eightoff.deals import deal
from eightoff.i18n import quote
from eightoff.solver import Limits
from eightoff.survey import run_survey

DOCUMENTED = set(EXIT_STATUSES) - {EX_SOFTWARE}  # 70 would be a bug reaching the top

HOSTILE_NUMBERS = [
    "0",
    "-1",
    "-0",
    "9223372036854775807",
    "9223372036854775808",
    "99999999999999999999",
    "100000000000000000000",
    "9" * 5000,
    "١٢",  # Arabic-Indic digits
    "１２",  # fullwidth digits
    "1e5",
    "1.5",
    "nan",
    "inf",
    "-inf",
    "0x10",
    "1_000",
    "_1",
    "+3",
    " 7 ",
    "",
    " ",
    ",,,",
    "1,,2",
    "1-",
    "-",
    "5-1",
    "1-10000001",
    "\x00",
    "1\x00",
    "☃",
    "x" * 10000,
]
HOSTILE_WORDS = [
    "",
    "--",
    "-",
    "--bogus",
    "-x",
    "--help=no",
    "report",
    "export",
    "spider",
    "eightoff\n",
    "\N{RIGHT-TO-LEFT OVERRIDE}eightoff",
    "\x00",
    "\x850",  # NEL: a line break to str.splitlines
    "a\u2028b",
    "../../etc/passwd",
    "tcp://",
    "foo://bar",
    "tcp://127.0.0.1:99999",
    "tcp://[::1",
    "q" * 10000,
]
VARIANTS = ["eightoff", "freecell", "double-freecell", "seahaven-towers"]


@contextlib.contextmanager
def captured(stdin: str = "") -> Iterator[tuple[io.StringIO, io.StringIO]]:
    out, err = io.StringIO(), io.StringIO()
    old_in = sys.stdin
    sys.stdin = io.StringIO(stdin)
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            yield out, err
    finally:
        sys.stdin = old_in


def folder_hash(folder: Path) -> dict[str, str]:
    found = {}
    for path in sorted(folder.rglob("*")):
        if path.is_file():
            found[str(path.relative_to(folder))] = hashlib.sha256(path.read_bytes()).hexdigest()
    return found


@pytest.fixture(scope="module")
def work(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A folder with a survey store, a games file, junk, a folder and board files."""
    root = tmp_path_factory.mktemp("hostile")
    run_survey(1, 2, db=root / "survey.sqlite3", workers=1, limits=Limits(None, 5))
    (root / "junk.db").write_bytes(os.urandom(5000))
    (root / "folder").mkdir()
    (root / "board.txt").write_text(format_fcs(deal("eightoff", 3)))
    (root / "board.json").write_text(str(to_json(deal("freecell", 3))).replace("'", '"'))
    (root / "deep.json").write_text('{"columns": ' + "[" * 100_000 + "]" * 100_000 + "}")
    (root / "wide.txt").write_text("Foundations: H-" + "9" * 5000 + "\n")
    (root / "big.txt").write_text(": " + "KS " * 400_000)
    return root


def paths(work: Path) -> st.SearchStrategy[str]:
    names = ["survey.sqlite3", "junk.db", "folder", "none.sqlite3", "board.txt", "board.json"]
    names += ["deep.json", "wide.txt", "big.txt", "out.csv", "out.png", "folder/x/y.db"]
    return st.sampled_from([str(work / n) for n in names] + ["", "\x00", "-"])


def pieces(work: Path, *flags: str) -> st.SearchStrategy[list[str]]:
    """A few tokens: flags of the subcommand with values from everywhere, and strays."""
    value = st.one_of(st.sampled_from(HOSTILE_NUMBERS), st.sampled_from(HOSTILE_WORDS), paths(work))
    flag_value = st.tuples(st.sampled_from(flags), value).map(list)
    alone = st.one_of(st.sampled_from(flags), value).map(lambda t: [t])
    text = st.text(max_size=12).map(lambda t: [t])
    return st.lists(st.one_of(flag_value, alone, text), max_size=3).map(
        lambda groups: [t for g in groups for t in g]
    )


def check(argv: list[str], work: Path, stdin: str = "") -> int:
    """Run the entry point; assert what every run must satisfy; return the status."""
    before = folder_hash(work)
    with captured(stdin) as (_, err):
        try:
            code = main(argv)
        except SystemExit as e:  # argparse: --help (0) or bad usage (64)
            code = e.code if isinstance(e.code, int) else 1
    message = err.getvalue()
    with contextlib.suppress(InvalidArgument):  # outside a hypothesis test
        event(f"{quote(argv[0]) if argv else 'none'} exit {code}")
    assert "Traceback" not in message, (argv, message)
    assert code in DOCUMENTED, (argv, code, message)
    if code >= 64:
        lines = message.strip().splitlines()
        assert len(lines) == 1, (argv, message)
        assert len(lines[0]) <= MAX_MESSAGE + 60, (argv, len(lines[0]))
        assert "usage:" not in message
        assert folder_hash(work) == before, argv  # a refused command changes nothing
    return code


@pytest.fixture(autouse=True)
def no_server(monkeypatch: pytest.MonkeyPatch) -> list[tuple[object, ...]]:
    import eightoff.web.server as server

    served: list[tuple[object, ...]] = []

    def serve(*a: object, **k: object) -> int:
        served.append(a)
        return 0

    monkeypatch.setattr(server, "serve", serve)
    return served


SETTINGS = settings(
    max_examples=120,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)


@SETTINGS
@given(data=st.data())
def test_deal_variants_and_top_level(work: Path, data: st.DataObject) -> None:
    cmd = data.draw(st.sampled_from([["deal"], ["variants"], [], ["nope"], ["--version"]]))
    number = data.draw(st.sampled_from(["1", "617", *HOSTILE_NUMBERS]).map(lambda t: [t]))
    extra = data.draw(pieces(work, "--variant", "--format", "--help"))
    check([*cmd, *number, *extra], work)


@SETTINGS
@given(data=st.data())
def test_solve(work: Path, data: st.DataObject) -> None:
    deals = data.draw(st.lists(st.sampled_from(["1", "2-3", "465", *HOSTILE_NUMBERS]), max_size=3))
    extra = data.draw(
        pieces(work, "--board", "--variant", "--json", "--short", "--time-limit", "--max-states")
    )
    stdin = data.draw(st.sampled_from(["", format_fcs(deal("eightoff", 5)), "{" * 5000, "☃"]))
    variant = data.draw(st.sampled_from(VARIANTS))
    tail = ["--variant", variant, "--max-states", "200", "--time-limit", "2"]
    code = check(["solve", *deals, *extra, *tail], work, stdin)
    assert code in {0, 1, 2} or code >= 64


def long_survey(start: str, end: str) -> bool:
    """Would START END be a valid range of more than a few deals (too long to run here)?"""
    try:
        return int(end) - int(start) > 3 and len(end) < 30
    except ValueError:
        return False


def long_survey_argv(argv: list[str]) -> bool:
    """Does this command line parse as a survey of many deals? (Those are valid, and
    too long for this test: it runs only refusals and ranges of a few deals.)"""
    from eightoff.cli import build_parser

    with captured(), contextlib.suppress(SystemExit):
        args = build_parser().parse_args(argv)
        return args.end is not None and long_survey(args.first, args.end)
    return False


@SETTINGS
@given(data=st.data())
def test_survey(work: Path, data: st.DataObject) -> None:
    form = data.draw(
        st.sampled_from(
            [["report"], ["export"], ["1", "1"], [], ["1"], ["2", "1"]]
            + [[n] for n in HOSTILE_NUMBERS]
            + [["1", n] for n in HOSTILE_NUMBERS if not long_survey("1", n)]
        )
    )
    db = data.draw(st.sampled_from(["survey.sqlite3", "junk.db", "folder", "none.sqlite3"]))
    extra = data.draw(
        pieces(
            work,
            "--variant",
            "--workers",
            "--scheduler",
            "--time-limit",
            "--states",
            "--batch-size",
            "--retry-unknown",
            "--json",
            "--png",
            "--csv",
        )
    )
    tail = ["--db", str(work / db), "--no-progress", "--states", "5"]
    argv = ["survey", *form, *extra, *tail]
    assume(not long_survey_argv(argv))
    check(argv, work)


@SETTINGS
@given(data=st.data())
def test_play_never_serves_a_refused_command_and_never_crashes(
    work: Path, data: st.DataObject, no_server: list[tuple[object, ...]]
) -> None:
    extra = data.draw(pieces(work, "--port", "--db", "--deal", "--variant", "--host", "--terminal"))
    db = data.draw(st.sampled_from(["junk.db", "folder", "games.sqlite3", ""]))
    argv = ["play", *extra, "--db", str(work / db) if db else "", "--no-browser"]
    no_server.clear()
    code = check(argv, work, stdin="q\n")
    if code >= 64:
        assert not no_server  # refused before serving


def test_the_hostile_pieces_are_refused_one_by_one(work: Path) -> None:
    """The pieces above, each where it does most harm: every one refused, none crashes."""
    db = str(work / "x.db")
    cases = [
        ["solve", "1", "--max-states", "9223372036854775808"],
        ["solve", ",,,"],
        ["solve", "١٢"],
        ["solve", "--board", str(work / "deep.json")],
        ["solve", "--board", str(work / "wide.txt")],
        ["solve", "--board", str(work / "big.txt")],
        ["solve", "--board", str(work / "folder")],
        ["solve", "1-10000001"],
        ["survey", "1", "5", "--states", "9223372036854775808", "--db", str(work / "x.db")],
        ["survey", "1", "4", "--workers", "100000", "--db", str(work / "x.db")],
        ["survey", "1", "3", "--scheduler", "foo://bar", "--db", str(work / "x.db")],
        ["survey", "1", "3", "--workers", "2", "--scheduler", "tcp://127.0.0.1:8786", "--db", db],
        ["survey", "1", "3", "--db", ""],
        ["survey", "report", "--db", str(work / "junk.db")],
        ["play", "--port", "99999"],
        ["play", "--port", "-1"],
        ["play", "--db", ""],
        ["play", "--deal", "5", "--db", str(work / "junk.db"), "--no-browser"],
        ["play", "--deal", "5", "--db", str(work / "folder")],
        ["deal", "1" * 5000],
        # a deal number is ASCII digits alone (+5 and 1_000 were read as numbers)
        ["deal", "+5"],
        ["solve", "1_000"],
        ["survey", "+1", "3", "--db", db],
        ["play", "--terminal", "--deal", "+5"],
    ]
    for argv in cases:
        assert check(argv, work) >= 64, argv
    assert not (work / "x.db").exists()


def run_cli(*args: str, stdin: bytes = b"") -> subprocess.CompletedProcess[bytes]:
    return subprocess.run(
        [sys.executable, "-m", "eightoff.cli", *args],
        input=stdin,
        capture_output=True,
        timeout=120,
        check=False,
    )


def test_a_closed_pipe_ends_quietly(work: Path) -> None:
    for args in (
        ["solve", "1-3000", "--json", "--max-states", "50"],
        ["survey", "report", "--db", str(work / "survey.sqlite3")],
        ["variants"],
    ):
        proc = subprocess.Popen(
            [sys.executable, "-m", "eightoff.cli", *args],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
        )
        assert proc.stdout is not None and proc.stderr is not None
        proc.stdout.readline()
        proc.stdout.close()  # like `| head -1`
        err = proc.stderr.read()
        code = proc.wait(timeout=120)
        assert b"Traceback" not in err and b"Exception ignored" not in err, err
        assert code in (0, EX_PIPE), (args, code, err)


def test_real_processes_refuse_endless_and_huge_input(work: Path) -> None:
    proc = run_cli("solve", "--board", "/dev/zero")
    assert proc.returncode == 65 and b"over 1 000 000 bytes" in proc.stderr
    proc = run_cli("solve", "--board", "-", stdin=b"K" * 3_000_000)
    assert proc.returncode == 65 and len(proc.stderr) < MAX_MESSAGE + 60
    proc = run_cli("solve", "--board", "-", stdin=b": " + b"Z" * 500_000)
    assert proc.returncode == 65 and b"'ZZZZ" in proc.stderr and len(proc.stderr) < 300
    proc = run_cli("play", "--port", "99999")
    assert proc.returncode == 64 and proc.stderr.count(b"\n") == 1


@pytest.mark.skipif(shutil.which("sh") is None, reason="needs a shell")
def test_a_shell_pipeline_into_head(work: Path) -> None:
    proc = subprocess.run(
        [
            "sh",
            "-c",
            f"'{sys.executable}' -m eightoff.cli solve 1-2000 --json --max-states 50 | head -2",
        ],
        capture_output=True,
        timeout=120,
        check=False,
    )
    assert proc.stdout.count(b"\n") == 2 and proc.stderr == b""
