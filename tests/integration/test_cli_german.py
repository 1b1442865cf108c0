"""The command line in German: it speaks the language of the environment, as command-line
programs do (LC_ALL, then LC_MESSAGES, then LANG; LANGUAGE's list; C and POSIX are
English), and only its words for people change: exit statuses, the one-line errors and
what machines read stay as they are."""

from __future__ import annotations

import io
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from eightoff.cli import main
from eightoff.i18n import LANGUAGES, catalogue

GERMAN = "de_DE.UTF-8"
CLI = Path(__file__).resolve().parents[2] / "src" / "eightoff" / "cli"


def eightoff(*args: str, **env: str) -> subprocess.CompletedProcess[str]:
    """The installed program as a shell runs it, with these locale variables only."""
    clean = {k: v for k, v in os.environ.items() if not k.startswith(("LC_", "LANG"))}
    return subprocess.run(
        [sys.executable, "-m", "eightoff.cli", *args],
        capture_output=True,
        text=True,
        encoding="utf-8",
        env=clean | env,
        check=False,
        timeout=120,
    )


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def test_a_german_locale_prints_the_deal_in_german() -> None:
    proc = eightoff("deal", "5", LANG=GERMAN)
    assert proc.returncode == 0, proc.stderr
    out = proc.stdout
    assert "Eight Off · Spiel Nr. 5" in out
    assert "Ablage " in out and "Zellen " in out
    assert "Gruppengröße: 5 Karten: 4 freie Zellen + 1" in out
    assert "Bewertung: Großmeister" in out and "die Spieler gewannen Tiefe 0 0/16" in out
    assert "D♠" in out and "Q♠" not in out  # German writes B, D, K for J, Q, K
    assert "deal #" not in out and "Group limit" not in out


@pytest.mark.parametrize(
    ("env", "german"),
    [
        ({"LC_ALL": "C", "LANG": GERMAN}, False),  # LC_ALL overrides LANG
        ({"LC_ALL": "POSIX", "LC_MESSAGES": GERMAN}, False),
        ({"LC_MESSAGES": GERMAN, "LANG": "en_US.UTF-8"}, True),  # LC_MESSAGES before LANG
        ({"LC_ALL": GERMAN, "LANG": "en_GB.UTF-8"}, True),
        ({"LANG": "en_US.UTF-8", "LANGUAGE": "fr:de"}, True),  # LANGUAGE's first with words
        ({"LANG": "C.UTF-8", "LANGUAGE": "de"}, False),  # as gettext: not for the C locale
        ({"LANG": "fr_FR.UTF-8"}, False),  # no French catalogue: English
        ({}, False),
    ],
)
def test_the_locale_variables_are_read_in_gettexts_order(env: dict[str, str], german: bool) -> None:
    proc = eightoff("deal", "5", **env)
    assert proc.returncode == 0, proc.stderr
    assert ("Spiel Nr. 5" in proc.stdout) is german
    assert ("deal #5" in proc.stdout) is not german


def test_a_usage_error_in_german_is_one_line_with_the_same_status() -> None:
    for args in (
        ["deal", "0"],
        ["solve"],
        ["rate", "3-1"],
        ["solve", "1", "--memory", "x"],
        ["deal", "1", "--bogus"],
        ["deal", "1", "--format", "xml"],
    ):
        english, german = eightoff(*args, LANG="C"), eightoff(*args, LANG=GERMAN)
        assert german.returncode == english.returncode == 64, args
        assert len(german.stderr.splitlines()) == len(english.stderr.splitlines()) == 1
        assert german.stderr != english.stderr, args
    solve = eightoff("solve", LANG=GERMAN).stderr
    assert solve.startswith("eightoff solve: Fehler: nenne Spiele zum Lösen")
    assert "ist kein Bereich: 3 kommt nach 1" in eightoff("rate", "3-1", LANG=GERMAN).stderr
    assert "ist keine Spielnummer" in eightoff("deal", "0", LANG=GERMAN).stderr
    # argparse's own phrases too (Python ships no German for them)
    bogus = eightoff("deal", "1", "--bogus", LANG=GERMAN).stderr
    assert bogus == "eightoff: Fehler: unbekannte Argumente: --bogus\n"
    xml = eightoff("deal", "1", "--format", "xml", LANG=GERMAN).stderr
    assert xml.startswith("eightoff deal: Fehler: Argument --format: ungültige Wahl: 'xml'")


def test_help_in_german(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("LANG", GERMAN)
    with pytest.raises(SystemExit) as done:
        main(["--help"])
    assert done.value.code == 0
    out = capsys.readouterr().out
    assert out.startswith("Aufruf: eightoff")
    assert "Optionen:" in out and "diese Hilfe zeigen und beenden" in out
    assert "Spiele bewerten: Leicht … Großmeister" in out
    assert "Varianten: eightoff, eightoff-easy" in out
    for command, words in (
        ("solve", "Exit-Status: 0 alle gelöst"),
        ("survey", "Datenbank und Variante (alle Formen)"),
        ("play", "im Terminal spielen"),
        ("deal", "Hausregel: nur Einzelkartenzüge"),
    ):
        with pytest.raises(SystemExit):
            main([command, "--help"])
        assert words in capsys.readouterr().out, command


def test_solve_and_rate_lines_in_german_json_unchanged(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    english_json = run(capsys, "solve", "2", "--json")[1]
    monkeypatch.setenv("LANG", GERMAN)
    code, out, _ = run(capsys, "solve", "2")
    assert code == 0
    assert out.startswith("Eight Off · Spiel Nr. 2\n")
    assert "von Spalte" in out
    assert re.search(
        r"^gelöst: \d+ Spielerzüge \(\d+ Einzelkartenzüge\), \d+ Zustände, ", out, re.M
    )
    code, out, _ = run(capsys, "solve", "11982", "--variant", "freecell")
    assert code == 1 and "verloren: keine Zugfolge gewinnt (Suchraum erschöpft" in out
    code, out, _ = run(capsys, "solve", "11982", "--variant", "freecell", "-q")
    assert code == 1 and out.startswith("FreeCell · deal #11982: lost: no sequence")  # for scripts
    code, out, _ = run(capsys, "rate", "2")
    assert code == 0 and out.startswith("Eight Off · Spiel Nr. 2: Leicht (Punktzahl 0,974;")
    assert "Löser: gelöst" in out
    # what machines read is not translated
    german_json = run(capsys, "solve", "2", "--json")[1]
    drop = ("seconds",)
    strip = [
        {k: v for k, v in json.loads(x).items() if k not in drop}
        for x in (english_json, german_json)
    ]
    assert strip[0] == strip[1]
    assert run(capsys, "deal", "2", "--format", "fcs")[1].startswith("Foundations:")


def test_the_terminal_game_in_german(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("LANG", GERMAN)
    monkeypatch.setattr(sys, "stdin", io.StringIO("b8\nzz\n1h\nu\nq\n"))
    code, out, _ = run(capsys, "play", "--terminal", "--deal", "1")
    assert code == 0
    assert "Züge: Quelle, dann Ziel: Spalten 1–8, Zellen a–g und i, Ablage h." in out  # the help
    assert "Eight Off · Spiel Nr. 1 · Züge 0" in out
    assert "9♣ von Zelle 2 nach Spalte 8" in out
    assert "6♦ darf erst nach 5♦ auf den Ablagestapel. Versuch es noch einmal" in out
    assert "'zz': 'z' ist kein Platz (Spalten 1–8, Zellen a–g und i, Ablage h)" in out
    assert "Zurückgenommen: 0 Züge gemacht." in out
    assert "Gewinnbar" in out and "Winnable" not in out


def test_a_malformed_board_is_refused_in_german(tmp_path: Path) -> None:
    board = tmp_path / "b.txt"
    board.write_text("Freecells: 2S 2S\n", "utf-8")
    english = eightoff("solve", "--board", str(board), LANG="C")
    german = eightoff("solve", "--board", str(board), LANG=GERMAN)
    assert german.returncode == english.returncode == 65
    assert english.stderr.endswith("line 1: '2S' — the 2♠ is already on the board (line 1)\n")
    assert german.stderr.endswith("Zeile 1: '2S' – 2♠ kommt schon vor (Zeile 1)\n")


def test_a_survey_in_german(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    db = str(tmp_path / "s.db")
    monkeypatch.setenv("LANG", GERMAN)
    code, out, _ = run(capsys, "survey", "1", "3", "--db", db, "--workers", "1", "--no-progress")
    assert code == 0
    # German writes the decimal point as a comma
    assert re.match(r"Eight Off 1–3: 3 Spiele in \d+,\d s untersucht \([\d ]+,\d Spiele/s", out)
    assert "3 gelöst, 0 verloren, 0 unbekannt; 0 waren schon gespeichert (Datenbank: " in out
    code, out, _ = run(capsys, "survey", "1", "3", "--db", db, "--no-progress")
    assert code == 0 and out.startswith("Eight Off 1–3: alle 3 Spiele schon gespeichert")
    code, out, _ = run(capsys, "survey", "report", "--db", db)
    assert code == 0 and out.startswith("Eight Off (eightoff): 3 Spiele untersucht")
    code, out, _ = run(capsys, "survey", "1", "4", "--db", db, "--workers", "1", "--no-progress")
    assert code == 0 and re.match(r"Eight Off 1–4: 1 Spiel in \d+,\d s untersucht \(", out)
    assert "; 3 waren schon gespeichert (Datenbank: " in out
    code, out, _ = run(capsys, "survey", "4", "4", "--db", db, "--no-progress")
    assert code == 0 and out.startswith("Eight Off 4: das Spiel ist schon gespeichert (Datenbank: ")
    code, _, err = run(capsys, "survey", "1", "--db", db)
    assert code == 64 and "gib auch das letzte Spiel an: eightoff survey 1 END" in err
    code, _, err = run(capsys, "survey", "5", "3", "--db", db)
    assert code == 64 and err == "eightoff survey: Fehler: END (3) liegt vor START (5)\n"
    code, _, err = run(capsys, "survey", "1", "3", "--scheduler", "foo")
    assert code == 64 and "'foo' ist keine Adresse eines Dask-Schedulers" in err
    not_db = tmp_path / "not.db"
    not_db.write_text("not a database", "utf-8")
    code, _, err = run(capsys, "survey", "report", "--db", str(not_db))
    assert code == 65 and "sie ist keine Datenbank von eightoff (oder sie ist beschädigt)" in err


def test_play_says_where_the_table_is_in_german(tmp_path: Path) -> None:
    from tests.servers import ENV, stop

    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "eightoff.cli",
            "play",
            "--no-browser",
            "--db",
            str(tmp_path / "t.db"),
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        encoding="utf-8",
        env=ENV | {"LANG": GERMAN},
    )
    try:
        assert proc.stdout is not None
        line = proc.stdout.readline()
    finally:
        stop(proc)
    assert re.match(
        r"eightoff: der Tisch ist unter http://127\.0\.0\.1:\d+/\?token=\S+  \(Spiele in ", line
    )
    assert line.rstrip().endswith("; Strg+C beendet)")


_ID = re.compile(r"""(?:Message|text)\(\s*f?["']([a-z_.]+)["']""")


def test_every_message_the_command_line_names_is_in_both_catalogues() -> None:
    named = {m for path in CLI.glob("*.py") for m in _ID.findall(path.read_text("utf-8"))}
    assert len(named) > 50  # the command line speaks through the catalogue
    for lang in LANGUAGES:
        messages = catalogue(lang).messages
        missing = {m for m in named if not m.endswith(".") and m not in messages}
        assert not missing, (lang, missing)
