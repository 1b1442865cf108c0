"""Par in the store (issue 22.5): each deal's par kept once, checked by the rules when
kept and when read, and the statistics' moves over par per variant and difficulty,
recomputed from the won games' stored turns (only wins of the player's own whose par is
proven: not assisted, not a par replay, not an unproven par)."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Sequence
from pathlib import Path

import pytest

from eightoff.counts import MoveCount
from eightoff.deals import deal
from eightoff.game import Game
from eightoff.position import Move
from eightoff.rules import preset
from eightoff.solver import DEFAULT_LIMITS, Solved, solve
from eightoff.solver.optimal import TABLE_LIMITS, optimal
from eightoff.store import SCHEMA_VERSION, OverPar, Store, StoredPar
from eightoff.store.db import Schema, connect
from eightoff.store.games import GAMES
from eightoff.table import GameState, Table
from eightoff.web.serialize import turns_json


@pytest.fixture
def table(tmp_path: Path) -> Table:
    return Table(Store(tmp_path / "games.sqlite3"))


def play(table: Table, state: GameState, moves: Sequence[Move]) -> GameState:
    """Play a solution as the table's player would: a move and the auto-moves after it."""
    for turn in turns_json(state.position, moves):
        state, _ = table.move(state.id, str(turn[0]["notation"]), auto_move=len(turn) > 1)
    assert state.status == "won"
    return state


def solver_moves(state: GameState) -> tuple[Move, ...]:
    found = solve(state.position, DEFAULT_LIMITS)
    assert isinstance(found, Solved)
    return found.moves


def start(table: Table, number: int, level: str | None = None) -> GameState:
    rules = preset("eightoff")
    rating = None if level is None else {"level": level}
    return table.start_dealt(deal(rules, number), number, rating=rating)


def test_moves_over_par_per_variant_and_difficulty(table: Table) -> None:
    first = start(table, 2, "Easy")
    par = optimal(first.position, MoveCount.PLAYER, TABLE_LIMITS)
    assert par.optimal and par.length == 14
    table.keep_par(first.position, par)
    mine = play(table, first, solver_moves(first))
    over = mine.game.player_moves - 14
    assert over > 0  # the ordinary solver's moves are not the fewest here
    # won in par: over par 0
    second = play(table, start(table, 2, "Hard"), par.moves)
    assert second.game.player_moves == 14
    # not counted: a win with the solver's solution, a par replay, a deal without a proven par
    helped = start(table, 2, "Hard")
    table.count_hint(helped.id, helped.position, solution=True)
    play(table, helped, par.moves)
    replay, _ = table.start_par_replay(second.id)
    play(table, replay, par.moves)
    third = start(table, 3, "Hard")
    unproven = optimal(third.position, MoveCount.PLAYER, TABLE_LIMITS)
    table.keep_par(third.position, unproven)
    with table.store.db.transaction() as c:
        c.execute(
            "UPDATE par SET optimal = 0, lower = lower - 2"
            " WHERE start = (SELECT start FROM games WHERE id = ?)",
            (third.id,),
        )
    play(table, third, solver_moves(third))

    assert table.store.over_par() == {
        "eightoff": {
            None: OverPar(2, over, 0),
            "Easy": OverPar(1, over, over),
            "Hard": OverPar(1, 0, 0),
        }
    }
    line = table.stats()["eightoff"]
    assert line.over_par == OverPar(2, over, 0) and line.over_par.average == over / 2
    assert line.levels_over_par == {"Easy": OverPar(1, over, over), "Hard": OverPar(1, 0, 0)}
    # the replay is not played, won nor assisted; the helped game is assisted
    assert (line.played, line.won, line.assisted) == (4, 3, 1)
    assert table.stats()["freecell"].over_par is None


def won_by_hand_with_auto_move_off(table: Table, like: GameState) -> GameState:
    """``like``'s deal won again with auto-move off and the same moves: the cards that
    auto-move sent home (at the deal too) sent by hand, each a move on the counter."""
    number = like.game.deal_number
    assert number is not None
    table.put_settings({"auto_move": False})
    state = table.start_dealt(deal(preset("eightoff"), number), number)
    at_the_deal = Game(state.position)
    at_the_deal.auto_home()
    assert at_the_deal.position == like.game.start
    if table.store.par_of_game(state.id) is None:
        table.keep_par(state.position, optimal(state.position, MoveCount.PLAYER, TABLE_LIMITS))
    for move in [*at_the_deal.moves(), *like.game.moves()]:
        state, turn = table.move(state.id, str(move))
        assert not turn.auto and not turn.auto_move
    assert state.status == "won"
    return state


def test_a_win_with_auto_move_off_is_over_par_and_fewest_as_par_counts_it(table: Table) -> None:
    """Par counts with safe auto-move on: a win with auto-move off whose moves are those
    of a win with it on (the safe cards sent home by hand) is as far over par, and as
    few moves, in the statistics; its counter showed more."""
    first = start(table, 2)
    table.keep_par(first.position, optimal(first.position, MoveCount.PLAYER, TABLE_LIMITS))
    on = play(table, first, solver_moves(first))
    off = won_by_hand_with_auto_move_off(table, on)
    assert off.game.player_moves > on.game.player_moves  # every card home a move
    assert off.game.player_moves_as_par == on.game.player_moves == on.game.player_moves_as_par
    off_par = table.store.par_of_game(off.id)
    assert off_par is not None and off_par.par == 14  # the cards home at the deal are free
    over = on.game.player_moves - 14
    assert table.store.over_par()["eightoff"][None] == OverPar(2, 2 * over, over)
    assert table.stats()["eightoff"].fewest_moves == on.game.player_moves


def test_a_file_of_schema_6_counts_its_wins_as_par_counts_them(tmp_path: Path) -> None:
    """Opened by this version, a file of schema 6 gets each won game's moves as par
    counts them, from its stored turns: a win with auto-move off is no longer over par
    by the cards its player sent home by hand."""
    db = tmp_path / "old.sqlite3"
    table = Table(Store(db))
    first = start(table, 2)
    table.keep_par(first.position, optimal(first.position, MoveCount.PLAYER, TABLE_LIMITS))
    on = play(table, first, solver_moves(first))
    off = won_by_hand_with_auto_move_off(table, on)
    table.store.close()
    con = sqlite3.connect(db)
    with con:  # as schema 6 wrote it: the counter's figure only
        con.execute("ALTER TABLE games DROP COLUMN player_moves_as_par")
        con.execute("UPDATE eightoff_schema SET version = 6 WHERE name = 'games'")
    con.close()
    store = Store(db)
    assert store.schema_version == SCHEMA_VERSION == 7
    over = on.game.player_moves - 14
    assert store.over_par()["eightoff"][None] == OverPar(2, 2 * over, over)
    assert store.stats()["eightoff"].fewest_moves == on.game.player_moves
    saved = store.load(off.id)
    assert saved is not None and saved.game.player_moves == off.game.player_moves
    store.close()


def test_a_par_is_kept_once_and_a_proven_one_is_not_replaced(table: Table) -> None:
    g = start(table, 2)
    assert table.store.par_of_game(g.id) is None
    proven = table.keep_par(g.position, optimal(g.position, MoveCount.PLAYER, TABLE_LIMITS))
    assert proven.optimal and proven.par == 14
    worse = StoredPar("player", optimal=False, lower=10, upper=20, moves=solver_moves(g))
    assert table.store.save_par(g.position, worse) == proven
    assert table.store.par_of_game(g.id) == proven
    # every game on the same start and rules finds it; another number of cells does not
    assert table.store.par_of_game(start(table, 2).id) == proven
    fewer = table.start_dealt(deal(preset("eightoff").with_options(cells=6), 2), 2)
    assert table.store.par_of_game(fewer.id) is None


def test_bounds_kept_join_the_bounds_of_a_later_search(table: Table) -> None:
    """A later search's bounds (a longer one asked for) never widen those kept: the
    higher lower bound and the shorter solution stay, and where they meet par is
    proven, with that solution."""
    g = start(table, 2)
    short = optimal(g.position, MoveCount.PLAYER, TABLE_LIMITS).moves  # 14 player moves
    long = solver_moves(g)
    first = StoredPar("player", False, 12, 14, moves=short, reason="time limit reached")
    assert table.store.save_par(g.position, first) == first
    later = StoredPar("player", False, 13, 20, moves=long, reason="time limit", seconds=9.0)
    joined = table.store.save_par(g.position, later)
    assert (joined.optimal, joined.lower, joined.upper, joined.moves) == (False, 13, 14, short)
    assert (joined.reason, joined.seconds) == ("time limit", 9.0)  # the later search's
    assert table.store.par_of_game(g.id) == joined
    nothing = StoredPar("player", False, 0, None, reason="time limit", seconds=9.0)
    assert table.store.save_par(g.position, nothing) == joined  # it learnt nothing more
    met = table.store.save_par(g.position, StoredPar("player", False, 14, 20, moves=long))
    assert (met.optimal, met.par, met.moves, met.reason) == (True, 14, short, "")
    assert table.store.par_of_game(g.id) == met


def test_a_par_solution_the_rules_refuse_is_never_kept_nor_read(table: Table) -> None:
    g = start(table, 2)
    moves = optimal(g.position, MoveCount.PLAYER, TABLE_LIMITS).moves
    broken = StoredPar("player", optimal=True, lower=14, upper=14, moves=moves[1:])
    with pytest.raises(ValueError):
        table.store.save_par(g.position, broken)
    table.store.save_par(g.position, StoredPar("player", True, 14, 14, moves=moves))
    with table.store.db.transaction() as c:  # damaged in the file: searched again
        c.execute("UPDATE par SET moves = ?", (" ".join(str(m) for m in moves[1:]),))
    assert table.store.par_of_game(g.id) is None
    # and the new search's answer replaces it
    again = StoredPar("player", True, 14, 14, moves=moves)
    assert table.store.save_par(g.position, again) == again
    assert table.store.par_of_game(g.id) == again


def test_a_file_of_schema_5_gets_par_and_keeps_its_games(tmp_path: Path) -> None:
    db = tmp_path / "old.sqlite3"
    old = connect(db, Schema("games", GAMES.migrations[:5], None))
    position = deal(preset("eightoff"), 4)
    from eightoff.boards import to_json

    with old.transaction() as c:
        c.execute(
            "INSERT INTO games (variant, deal, start, status, counted, created)"
            " VALUES ('eightoff', '4', ?, 'playing', 1, 'then')",
            (json.dumps(to_json(position)),),
        )
    old.close()
    store = Store(db)
    assert store.schema_version == SCHEMA_VERSION == 7
    saved = store.load(1)
    assert saved is not None and saved.game.start == position and not saved.replay
    assert store.par_of_game(1) is None
    store.close()
    con = sqlite3.connect(db)
    assert con.execute("SELECT COUNT(*) FROM par").fetchone() == (0,)
    con.close()
