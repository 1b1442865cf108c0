"""The terminal game shows par (issue 22.5): ``p`` says the deal's par during play, and
a win says it beside the moves taken, in the table's words ("Par 14 — you took 16")."""

from __future__ import annotations

import io
import re
import sys
from collections.abc import Sequence
from dataclasses import replace

import pytest

from eightoff.cli import main
from eightoff.cli.play import dealt, play_terminal
from eightoff.counts import MoveCount
from eightoff.oracle import Oracle
from eightoff.position import Move
from eightoff.solver import DEFAULT_LIMITS, Solved, solve
from eightoff.solver.optimal import TABLE_LIMITS, optimal
from eightoff.web.serialize import turns_json


def entries_for(moves: Sequence[Move]) -> str:
    """What a player types to play a solution: each turn's first move (the terminal game
    sends the safe cards home after it)."""
    game, _ = dealt("eightoff", 2)
    return "".join(f"{turn[0]['notation']}\n" for turn in turns_json(game.position, moves))


def run(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], typed: str) -> str:
    monkeypatch.setattr(sys, "stdin", io.StringIO(typed))
    assert main(["play", "--terminal", "--deal", "2"]) == 0
    return capsys.readouterr().out


def test_par_on_request_and_after_a_win_in_par(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    game, _ = dealt("eightoff", 2)
    par = optimal(game.position, MoveCount.PLAYER, TABLE_LIMITS)
    assert par.optimal and par.length == 14
    out = run(monkeypatch, capsys, "p\n" + entries_for(par.moves))
    lines = [line.removeprefix("move> ") for line in out.splitlines()]
    asked = lines.index("Working out par (up to 20 seconds)…")  # after "p", before any move
    assert lines[asked + 1] == "Par 14"
    assert "You won in 14 moves!" in lines
    assert lines[-1] == "Par 14 — you matched par!"


def test_a_win_over_par_says_the_moves_taken(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    game, _ = dealt("eightoff", 2)
    found = solve(game.position, DEFAULT_LIMITS)
    assert isinstance(found, Solved)
    out = run(monkeypatch, capsys, entries_for(found.moves))
    took = int(next(x for x in out.splitlines() if x.startswith("You won in")).split()[3])
    assert took > 14
    assert out.splitlines()[-1] == f"Par 14 — you took {took}"


def test_the_terminal_says_par_in_german(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("LANG", "de_DE.UTF-8")
    game, _ = dealt("eightoff", 2)
    par = optimal(game.position, MoveCount.PLAYER, TABLE_LIMITS)
    out = run(monkeypatch, capsys, "p\n" + entries_for(par.moves))
    lines = [line.removeprefix("Zug> ") for line in out.splitlines()]  # the German prompt
    asked = lines.index("Par wird ermittelt (bis zu 20 Sekunden)…")
    assert lines[asked + 1] == "Par 14"
    assert lines[-1] == "Par 14 — du hast Par erreicht!"


def test_the_terminal_names_the_memory_limit_when_it_stopped_par(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Bounds from a search the memory limit stopped (1 MiB here: FreeCell 1's A* stops
    at once) name that limit, not the 20 seconds the search did not use."""
    limits = replace(TABLE_LIMITS, memory_mb=1)
    oracle = Oracle(status_seconds=2.0, hint_seconds=5.0, par_limits=limits)
    monkeypatch.setattr(sys, "stdin", io.StringIO("p\n"))
    assert play_terminal("freecell", 1, oracle=oracle) == 0
    lines = [line.removeprefix("move> ") for line in capsys.readouterr().out.splitlines()]
    said = lines[lines.index("Working out par (up to 20 seconds)…") + 1]
    pattern = r"Par is \d+ to \d+ \(not proven: the search filled its 1 MiB of memory\)"
    assert re.fullmatch(pattern, said), said
