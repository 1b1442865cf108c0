"""The SQLite store: games come back exactly (redo stack too), writes are all-or-nothing,
statistics follow the games, settings persist."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from eightoff.game import Game
from eightoff.lessons import LESSONS
from eightoff.position import Kind, Move
from eightoff.store import SCHEMA_VERSION, Store, StoreError


def useful_moves(game: Game) -> list[Move]:
    return [
        m
        for m in game.position.legal_moves()
        if not (m.source.kind is Kind.CELL and m.target.kind is Kind.CELL)
    ]


def play_some(game: Game, store: Store, gid: int, n: int) -> None:
    for _ in range(n):
        before = len(game.turns)
        turn = game.play(useful_moves(game)[-1])
        store.record_turn(gid, before, turn, won=game.position.is_won(), moves_made=game.moves_made)


@pytest.fixture
def db(tmp_path: Path) -> Path:
    return tmp_path / "games.sqlite3"


def test_a_game_comes_back_exactly_after_reopening_the_file(db: Path) -> None:
    store = Store(db)
    game = Game.new("eightoff", 5)
    gid = store.create_game(game.start, deal=5)
    play_some(game, store, gid, 6)
    game.undo()
    store.record_cursor(gid, len(game.turns), won=False, moves_made=game.moves_made)
    game.undo()
    store.record_cursor(gid, len(game.turns), won=False, moves_made=game.moves_made)
    store.close()

    saved = Store(db).load(gid)
    assert saved is not None
    back = saved.game
    assert back.position == game.position
    assert back.start == game.start
    assert back.turns == game.turns
    assert back.undone == game.undone  # the redo stack, in order
    assert saved.deal == 5 and saved.variant == "eightoff" and saved.status == "playing"
    # redo plays the same turns again
    assert back.redo() == game.redo()
    assert back.position == game.position


def test_a_move_after_undo_cuts_the_redo_stack(db: Path) -> None:
    store = Store(db)
    game = Game.new("eightoff", 3)
    gid = store.create_game(game.start, deal=3)
    play_some(game, store, gid, 3)
    game.undo()
    game.undo()
    store.record_cursor(gid, len(game.turns), won=False, moves_made=game.moves_made)
    # a different move now
    other = useful_moves(game)[0]
    before = len(game.turns)
    turn = game.play(other)
    store.record_turn(gid, before, turn, won=False, moves_made=game.moves_made)
    saved = store.load(gid)
    assert saved is not None
    assert saved.game.turns == game.turns
    assert saved.game.undone == [] and not saved.game.can_redo


def test_auto_moves_are_stored_with_their_turn(db: Path) -> None:
    store = Store(db)
    first = LESSONS[0]
    game = Game(first.start())
    gid = store.create_game(game.start, lesson=1)
    turn = game.play(first.walkthrough[0])
    assert turn.auto, "the lesson's first move sends cards home"
    store.record_turn(gid, 0, turn, won=False, moves_made=game.moves_made)
    saved = store.load(gid)
    assert saved is not None
    assert saved.game.turns == [turn]
    assert saved.game.moves_made == 1 + len(turn.auto)
    assert saved.lesson == 1 and saved.deal is None


def test_a_failed_write_changes_nothing(db: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    store = Store(db)
    game = Game.new("eightoff", 7)
    gid = store.create_game(game.start, deal=7)
    play_some(game, store, gid, 3)
    game.undo()
    store.record_cursor(gid, 2, won=False, moves_made=game.moves_made)

    def broken(*args: object, **kwargs: object) -> None:
        raise RuntimeError("disk on fire")

    monkeypatch.setattr(store, "_mark_won", broken)
    turn = game.play(useful_moves(game)[0])
    with pytest.raises(RuntimeError):
        # won=True reaches the broken step after the line was already cut and extended
        store.record_turn(gid, 2, turn, won=True, moves_made=game.moves_made)
    monkeypatch.undo()
    saved = store.load(gid)
    assert saved is not None
    assert len(saved.game.turns) == 2 and len(saved.game.undone) == 1  # as before
    assert saved.status == "playing"
    assert store.stats()["eightoff"].won == 0


def test_unknown_games_and_ids_out_of_range(db: Path) -> None:
    store = Store(db)
    assert store.load(1) is None
    assert store.load(0) is None
    assert store.load(-3) is None
    assert store.load(10**30) is None
    with pytest.raises(KeyError):
        store.record_cursor(42, 0, won=False, moves_made=0)


def test_cursor_outside_the_line_is_refused(db: Path) -> None:
    store = Store(db)
    game = Game.new("eightoff", 1)
    gid = store.create_game(game.start, deal=1)
    play_some(game, store, gid, 2)
    with pytest.raises(ValueError, match="outside"):
        store.record_cursor(gid, 3, won=False, moves_made=0)
    saved = store.load(gid)
    assert saved is not None and len(saved.game.turns) == 2


def test_huge_deal_numbers_are_kept_exactly(db: Path) -> None:
    store = Store(db)
    number = 10**20 - 1
    game = Game.new("freecell", number)
    gid = store.create_game(game.start, deal=number)
    saved = store.load(gid)
    assert saved is not None
    assert saved.deal == number and saved.game.start == game.start


def test_rule_options_are_kept(db: Path) -> None:
    store = Store(db)
    from eightoff.deals import deal
    from eightoff.rules import preset

    rules = preset("freecell").with_options(strict_single=True)
    gid = store.create_game(deal(rules, 2), deal=2)
    saved = store.load(gid)
    assert saved is not None
    assert saved.game.rules == rules and saved.options == {"strict_single": True}


def test_current_game_is_the_newest_in_progress_and_new_games_abandon_it(db: Path) -> None:
    store = Store(db)
    assert store.current_game_id() is None
    a = store.create_game(Game.new("eightoff", 1).start, deal=1)
    assert store.current_game_id() == a
    b = store.create_game(Game.new("freecell", 2).start, deal=2)
    assert store.current_game_id() == b
    old = store.load(a)
    assert old is not None and old.status == "abandoned" and old.finished is not None


def test_stats_played_won_streaks_fewest_moves(db: Path) -> None:
    store = Store(db)
    assert store.stats() == {}

    def win(number: int, moves: int) -> None:
        g = Game.new("eightoff", number)
        gid = store.create_game(g.start, deal=number)
        turn = g.play(useful_moves(g)[0])
        store.record_turn(gid, 0, turn, won=False, moves_made=1)
        # the store trusts the caller about the win: the table only says so when it is
        store.record_cursor(gid, 1, won=True, moves_made=moves)

    def abandon_after_a_move(number: int) -> None:
        g = Game.new("eightoff", number)
        gid = store.create_game(g.start, deal=number)
        turn = g.play(useful_moves(g)[0])
        store.record_turn(gid, 0, turn, won=False, moves_made=1)

    win(1, 120)
    win(2, 100)
    st = store.stats()["eightoff"]
    assert (st.played, st.won, st.streak, st.best_streak, st.fewest_moves) == (2, 2, 2, 2, 100)
    abandon_after_a_move(3)
    # not counted as lost until replaced: the streak stands while the game is in progress
    assert store.stats()["eightoff"].streak == 2
    win(4, 130)  # creating game 4 abandons game 3: the streak restarts
    st = store.stats()["eightoff"]
    assert (st.played, st.won, st.streak, st.best_streak, st.fewest_moves) == (4, 3, 1, 2, 100)
    assert st.win_rate == pytest.approx(0.75)


def test_a_game_without_a_move_is_not_played_and_does_not_end_a_streak(db: Path) -> None:
    store = Store(db)
    g = Game.new("eightoff", 1)
    gid = store.create_game(g.start, deal=1)
    turn = g.play(useful_moves(g)[0])
    store.record_turn(gid, 0, turn, won=False, moves_made=1)
    store.record_cursor(gid, 1, won=True, moves_made=90)
    store.create_game(Game.new("eightoff", 2).start, deal=2)  # looked at, never played
    store.create_game(Game.new("eightoff", 3).start, deal=3)
    st = store.stats()["eightoff"]
    assert (st.played, st.won, st.streak) == (1, 1, 1)


def test_winning_twice_counts_once(db: Path) -> None:
    store = Store(db)
    g = Game.new("eightoff", 1)
    gid = store.create_game(g.start, deal=1)
    turn = g.play(useful_moves(g)[0])
    store.record_turn(gid, 0, turn, won=True, moves_made=80)
    store.record_cursor(gid, 1, won=True, moves_made=70)
    st = store.stats()["eightoff"]
    assert (st.won, st.fewest_moves) == (1, 80)


def test_lessons_and_custom_boards_do_not_count(db: Path) -> None:
    store = Store(db)
    first = LESSONS[0]
    g = Game(first.start())
    gid = store.create_game(g.start, lesson=1)
    for text in first.walkthrough:
        before = len(g.turns)
        turn = g.play(text)
        store.record_turn(gid, before, turn, won=g.position.is_won(), moves_made=g.moves_made)
    store.add_hint(gid)
    saved = store.load(gid)
    assert saved is not None and saved.status == "won" and saved.hints == 1
    assert store.stats() == {}


def test_hints_count_per_game_and_variant(db: Path) -> None:
    store = Store(db)
    gid = store.create_game(Game.new("bakers-game", 9).start, deal=9)
    store.add_hint(gid)
    store.add_hint(gid)
    saved = store.load(gid)
    assert saved is not None and saved.hints == 2
    assert store.stats()["bakers-game"].hints == 2


def test_settings_persist(db: Path) -> None:
    store = Store(db)
    assert store.settings() == {}
    store.put_settings({"auto_move": False, "winnable_only": True})
    store.put_settings({"auto_move": True})
    store.close()
    assert Store(db).settings() == {"auto_move": True, "winnable_only": True}


def test_schema_is_versioned_and_a_newer_one_is_refused(db: Path) -> None:
    store = Store(db)
    assert store.schema_version == SCHEMA_VERSION
    store.close()
    con = sqlite3.connect(db)
    con.execute(
        "UPDATE eightoff_schema SET version = ? WHERE name = 'games'", (SCHEMA_VERSION + 1,)
    )
    con.commit()
    con.close()
    with pytest.raises(StoreError, match="newer eightoff"):
        Store(db)


def test_a_file_that_is_not_a_database_is_refused(tmp_path: Path) -> None:
    bad = tmp_path / "notes.txt"
    bad.write_text("shopping list\n" * 200)
    with pytest.raises(StoreError, match="not an eightoff database") as info:
        Store(bad)
    assert "\n" not in str(info.value) and str(bad) in str(info.value)
    assert bad.read_text() == "shopping list\n" * 200  # nothing written


def test_a_file_of_the_first_schema_is_upgraded_and_keeps_its_games(db: Path) -> None:
    from eightoff.store.games import _SCHEMA_V1

    con = sqlite3.connect(db)
    con.executescript(_SCHEMA_V1)
    start = Game.new("eightoff", 4).start
    from eightoff.boards import to_json

    con.execute(
        "INSERT INTO games (variant, deal, start, created) VALUES ('eightoff', '4', ?, 'then')",
        (__import__("json").dumps(to_json(start)),),
    )
    con.execute("PRAGMA user_version = 1")
    con.commit()
    con.close()
    store = Store(db)
    assert store.schema_version == SCHEMA_VERSION
    saved = store.load(1)
    assert saved is not None and saved.game.start == start and saved.revision == 0
    assert saved.rating is None and saved.daily is None  # stored before ratings: none


def test_a_game_keeps_its_rating_and_daily_date_across_a_reopen(db: Path) -> None:
    store = Store(db)
    rating = {"level": "Hard", "score": 0.3}
    gid = store.create_game(
        Game.new("eightoff", 6).start, deal=6, rating=rating, daily="2026-11-30"
    )
    store.close()
    saved = Store(db).load(gid)
    assert saved is not None and saved.rating == rating and saved.daily == "2026-11-30"


def test_a_change_bumps_the_revision_and_a_failed_edit_changes_nothing(db: Path) -> None:
    store = Store(db)
    game = Game.new("eightoff", 2)
    gid = store.create_game(game.start, deal=2)
    with store.edit(gid) as e:
        e.record_turn(e.game.play(useful_moves(e.game)[0]))
    with store.edit(gid) as e:
        assert e.game.undo() is not None
        e.record_cursor()
    assert store.add_hint(gid) == 1
    saved = store.load(gid)
    assert saved is not None and saved.revision == 2 and saved.hints == 1  # a hint: no bump
    with pytest.raises(RuntimeError), store.edit(gid) as e:
        e.record_turn(e.game.redo() or e.game.play(useful_moves(e.game)[0]))
        raise RuntimeError("the client went away")
    again = store.load(gid)
    assert again is not None and again.revision == 2 and not again.game.turns
    assert again.game.can_redo


def test_the_database_uses_wal(db: Path) -> None:
    Store(db).close()
    con = sqlite3.connect(db)
    assert con.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    con.close()


def test_the_store_can_be_shared_by_threads(db: Path) -> None:
    import threading

    store = Store(db)
    gid = store.create_game(Game.new("eightoff", 1).start, deal=1)
    errors: list[BaseException] = []

    def hints() -> None:
        try:
            for _ in range(50):
                store.add_hint(gid)
        except BaseException as e:  # pragma: no cover - reported below
            errors.append(e)

    threads = [threading.Thread(target=hints) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []
    saved = store.load(gid)
    assert saved is not None and saved.hints == 200
    assert store.stats()["eightoff"].hints == 200


def test_settings_written_by_another_connection_are_seen(db: Path) -> None:
    a, b = Store(db), Store(db)
    assert a.settings() == {}
    b.put_settings({"auto_move": False})
    assert a.settings() == {"auto_move": False}
    a.put_settings({"auto_move": True, "winnable_only": True})
    assert b.settings() == {"auto_move": True, "winnable_only": True}
    assert a.settings() == {"auto_move": True, "winnable_only": True}
    a.close()
    b.close()
