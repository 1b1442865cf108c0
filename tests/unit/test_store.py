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
        store.record_turn(gid, before, turn, won=game.position.is_won())


@pytest.fixture
def db(tmp_path: Path) -> Path:
    return tmp_path / "games.sqlite3"


def test_a_game_comes_back_exactly_after_reopening_the_file(db: Path) -> None:
    store = Store(db)
    game = Game.new("eightoff", 5)
    gid = store.create_game(game.start, deal=5)
    play_some(game, store, gid, 6)
    game.undo()
    store.record_cursor(gid, len(game.turns), won=False)
    game.undo()
    store.record_cursor(gid, len(game.turns), won=False)
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
    store.record_cursor(gid, len(game.turns), won=False)
    # a different move now
    other = useful_moves(game)[0]
    before = len(game.turns)
    turn = game.play(other)
    store.record_turn(gid, before, turn, won=False)
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
    store.record_turn(gid, 0, turn, won=False)
    saved = store.load(gid)
    assert saved is not None
    assert saved.game.turns == [turn]
    assert saved.game.single_card_moves == 1 + len(turn.auto)
    assert saved.game.turns[0].auto_move and saved.game.player_moves == 1
    assert saved.lesson == 1 and saved.deal is None


def test_a_failed_write_changes_nothing(db: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    store = Store(db)
    game = Game.new("eightoff", 7)
    gid = store.create_game(game.start, deal=7)
    play_some(game, store, gid, 3)
    game.undo()
    store.record_cursor(gid, 2, won=False)

    def broken(*args: object, **kwargs: object) -> None:
        raise RuntimeError("disk on fire")

    monkeypatch.setattr(store, "_mark_won", broken)
    turn = game.play(useful_moves(game)[0])
    with pytest.raises(RuntimeError):
        # won=True reaches the broken step after the line was already cut and extended
        store.record_turn(gid, 2, turn, won=True)
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
        store.record_cursor(42, 0, won=False)


def test_cursor_outside_the_line_is_refused(db: Path) -> None:
    store = Store(db)
    game = Game.new("eightoff", 1)
    gid = store.create_game(game.start, deal=1)
    play_some(game, store, gid, 2)
    with pytest.raises(ValueError, match="outside"):
        store.record_cursor(gid, 3, won=False)
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

    def win(number: int, moves: int) -> int:
        g = Game.new("eightoff", number)
        gid = store.create_game(g.start, deal=number)
        for _ in range(moves):
            before = len(g.turns)
            store.record_turn(gid, before, g.play(useful_moves(g)[-1]), won=False)
        # the store trusts the caller about the win: the table only says so when it is
        store.record_cursor(gid, moves, won=True)
        return g.player_moves

    def abandon_after_a_move(number: int) -> None:
        g = Game.new("eightoff", number)
        gid = store.create_game(g.start, deal=number)
        turn = g.play(useful_moves(g)[0])
        store.record_turn(gid, 0, turn, won=False)

    first, second = win(1, 5), win(2, 3)
    # player moves, counted from the stored turns: one of deal 2's three moves sends a
    # safe card home (free, as safe auto-move would have sent it)
    assert (first, second) == (5, 2)
    st = store.stats()["eightoff"]
    assert (st.played, st.won, st.streak, st.best_streak, st.fewest_moves) == (2, 2, 2, 2, 2)
    abandon_after_a_move(3)
    # not counted as lost until replaced: the streak stands while the game is in progress
    assert store.stats()["eightoff"].streak == 2
    win(4, 7)  # creating game 4 abandons game 3: the streak restarts
    st = store.stats()["eightoff"]
    assert (st.played, st.won, st.streak, st.best_streak, st.fewest_moves) == (4, 3, 1, 2, 2)
    assert st.win_rate == pytest.approx(0.75)


def test_a_game_without_a_move_is_not_played_and_does_not_end_a_streak(db: Path) -> None:
    store = Store(db)
    g = Game.new("eightoff", 1)
    gid = store.create_game(g.start, deal=1)
    turn = g.play(useful_moves(g)[0])
    store.record_turn(gid, 0, turn, won=False)
    store.record_cursor(gid, 1, won=True)
    store.create_game(Game.new("eightoff", 2).start, deal=2)  # looked at, never played
    store.create_game(Game.new("eightoff", 3).start, deal=3)
    st = store.stats()["eightoff"]
    assert (st.played, st.won, st.streak) == (1, 1, 1)


def test_winning_twice_counts_once(db: Path) -> None:
    store = Store(db)
    g = Game.new("eightoff", 1)
    gid = store.create_game(g.start, deal=1)
    turn = g.play(useful_moves(g)[0])
    store.record_turn(gid, 0, turn, won=True)
    store.record_turn(gid, 1, g.play(useful_moves(g)[0]), won=True)
    store.record_cursor(gid, 2, won=True)
    st = store.stats()["eightoff"]
    assert (st.won, st.fewest_moves) == (1, 1)  # the moves when it was first won


def test_lessons_and_custom_boards_do_not_count(db: Path) -> None:
    store = Store(db)
    first = LESSONS[0]
    g = Game(first.start())
    gid = store.create_game(g.start, lesson=1)
    for text in first.walkthrough:
        before = len(g.turns)
        turn = g.play(text)
        store.record_turn(gid, before, turn, won=g.position.is_won())
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


def test_an_older_file_gets_fewest_moves_recounted_from_its_stored_turns(db: Path) -> None:
    """Before player moves, a win stored every move on the board (auto-moves included) as
    the statistics' fewest moves: 4 here, where the player made one move."""
    import json

    from eightoff.boards import to_json
    from eightoff.store.db import Schema, connect
    from eightoff.store.games import GAMES
    from tests.sketch import make

    start = make(
        "eightoff",
        ["JS KS", "QS", "", "", "", "", "", ""],
        [None] * 8,
        {"C": 13, "D": 13, "H": 13, "S": 10},
    )
    turn = Game(start).play("1a")
    assert [str(m) for m in turn.auto] == ["1h", "2h", "ah"]
    old = connect(db, Schema("games", GAMES.migrations[:4], None))
    with old.transaction() as c:
        c.execute(
            "INSERT INTO games (variant, deal, start, status, cursor, counted, created)"
            " VALUES ('eightoff', '7', ?, 'won', 1, 1, 'then')",
            (json.dumps(to_json(start)),),
        )
        c.execute("INSERT INTO moves (game_id, seq, move, auto) VALUES (1, 0, '1a', '1h 2h ah')")
        c.execute(
            "INSERT INTO stats (variant, played, won, fewest_moves) VALUES ('eightoff', 1, 1, 4)"
        )
    old.close()
    store = Store(db)
    assert store.schema_version == SCHEMA_VERSION
    st = store.stats()["eightoff"]
    assert (st.played, st.won, st.fewest_moves) == (1, 1, 1)
    saved = store.load(1)
    assert saved is not None and saved.game.player_moves == 1
    assert saved.game.single_card_moves == 4


def test_a_turn_keeps_the_auto_move_setting_it_was_played_with(db: Path) -> None:
    """With auto-move off, the safe cards the player sends home ("auto") are player
    moves; with it on they are free: the stored turn says which."""
    from tests.sketch import make

    start = make("eightoff", ["2S AS", "3S", "*", "*", "*", "*", "*", "*"], cells=[None] * 8)
    store = Store(db)
    counts = []
    for on in (True, False):
        game = Game(start, deal_number=5, auto_move=on)
        gid = store.create_game(start, deal=5)
        game.play("1a")
        store.record_turn(gid, 0, game.turns[-1], won=False)
        turn = game.auto_home()
        if turn is not None:
            store.record_turn(gid, 1, turn, won=False)
        saved = store.load(gid)
        assert saved is not None and saved.game.position == game.position
        counts.append(saved.game.player_moves)
    assert counts == [1, 4]  # on: the A♠ to a cell; off: that, then A♠, 2♠, 3♠ home


def test_the_store_package_gives_the_games_names_and_no_others() -> None:
    """`from eightoff.store import Store` is the games' own class (loaded on first use),
    and a name the package does not have is the usual AttributeError."""
    import eightoff.store
    import eightoff.store.games

    assert eightoff.store.Store is eightoff.store.games.Store
    assert eightoff.store.rule_options is eightoff.store.games.rule_options
    with pytest.raises(AttributeError, match=r"'eightoff\.store' has no attribute 'Stor'"):
        _ = eightoff.store.Stor
