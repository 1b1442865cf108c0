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


def entries_for(moves: Sequence[Move], variant: str = "eightoff", number: int = 2) -> str:
    """What a player types to play a solution: each turn's first move (the terminal game
    sends the safe cards home after it)."""
    game, _ = dealt(variant, number)
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
    assert lines[-1] == "Par 14 – du hast Par erreicht!"


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


BOUNDS = r"Par is (\d+) to (\d+) \(not proven within {seconds} seconds\)"


def bounds_in(said: str, seconds: str) -> tuple[int, int]:
    found = re.match(BOUNDS.format(seconds=seconds), said)
    assert found, said
    return int(found[1]), int(found[2])


def short_oracle() -> Oracle:
    """The table's oracle with half a second for par: FreeCell 1 (par 38) is left with
    bounds, and a longer search has 6 times that, 3 seconds."""
    limits = replace(TABLE_LIMITS, seconds=0.5)
    return Oracle(status_seconds=2.0, hint_seconds=5.0, par_limits=limits)


def test_bounds_are_searched_longer_on_request_once_and_only_narrow(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """``p`` gives bounds and offers ``pl``; ``pl`` searches 6 times as long, once: its
    answer is par or bounds no wider, and ``pl`` again searches nothing more."""
    monkeypatch.setattr(sys, "stdin", io.StringIO("p\npl\npl\n"))
    assert play_terminal("freecell", 1, oracle=short_oracle()) == 0
    lines = [line.removeprefix("move> ") for line in capsys.readouterr().out.splitlines()]
    first = lines.index("Working out par (up to 0.5 seconds)…")
    low, high = bounds_in(lines[first + 1], "0.5")
    assert lines[first + 2] == "Not proven yet: pl searches for par for up to 3 seconds."
    assert lines.count("Working out par (up to 0.5 seconds)…") == 1  # pl: no second table search
    assert lines.count("Working out par (up to 3 seconds)…") == 1  # the second pl: none
    longer = lines.index("Working out par (up to 3 seconds)…")
    said = lines[longer + 1]
    if said != "Par 38":
        low2, high2 = bounds_in(said, "3")
        assert low <= low2 <= 38 <= high2 <= high
    assert lines[longer + 2] == said  # asked again: the same words
    assert not any(line.startswith("Not proven yet") for line in lines[longer:])


def win_freecell_1(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], then: str
) -> list[str]:
    """FreeCell 1 won in the terminal with half a second for par (short_oracle), then
    ``then`` typed: the lines printed, without the prompt."""
    game, _ = dealt("freecell", 1)
    found = solve(game.position, DEFAULT_LIMITS)
    assert isinstance(found, Solved)
    typed = entries_for(found.moves, "freecell", 1)
    monkeypatch.setattr(sys, "stdin", io.StringIO(typed + then))
    assert play_terminal("freecell", 1, oracle=short_oracle()) == 0
    return [line.removeprefix("move> ") for line in capsys.readouterr().out.splitlines()]


def test_after_a_win_bounds_may_be_searched_longer_before_the_game_ends(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    lines = win_freecell_1(monkeypatch, capsys, "pl\n")
    won = next(i for i, line in enumerate(lines) if line.startswith("You won in"))
    took = lines[won].split()[3]
    assert lines[won + 1] == "Working out par (up to 0.5 seconds)…"
    bounds = re.fullmatch(rf"Par is (\d+) to (\d+) — you took {took}", lines[won + 2])
    assert bounds, lines[won + 2]
    offer = "Not proven yet: pl searches for par for up to 3 seconds; Enter ends the game."
    assert lines[won + 3] == offer
    assert lines[won + 4] == "Working out par (up to 3 seconds)…"
    longer = re.fullmatch(rf"Par (?:is (\d+) to (\d+)|38) — you took {took}", lines[won + 5])
    assert longer, lines[won + 5]
    if longer[1] is not None:
        assert int(bounds[1]) <= int(longer[1]) <= 38 <= int(longer[2]) <= int(bounds[2])
    assert len(lines) == won + 6  # then the game ends


def test_after_a_win_enter_ends_the_game_without_a_longer_search(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    lines = win_freecell_1(monkeypatch, capsys, "")  # the input ends: as Enter
    assert lines[-2].startswith("Not proven yet: pl searches")
    assert lines[-1] == ""  # the prompt, then the game ends
    assert not any("up to 3 seconds)…" in line for line in lines)
