"""SQLite storage for the table: games and every move, settings, statistics.

One database file (WAL journal), one connection guarded by a lock, so the store can
be shared by threads. Every write is one transaction: a failed call changes nothing.

A game's moves are kept as its *line*: the turns played, followed by the turns that
were undone in the order they would be redone, plus a *cursor* (how many turns of
the line are on the board). Undo and redo move the cursor; a new move cuts the line
at the cursor and appends. So a reload, or a ``kill -9`` and a restart, brings back
the game exactly, redo stack included.

>>> s = Store(":memory:")
>>> from eightoff.game import Game
>>> g = Game.new("eightoff", 1)
>>> gid = s.create_game(g.start, deal=1)
>>> turn = g.play(g.position.legal_moves()[0])
>>> s.record_turn(gid, 0, turn, won=False, moves_made=g.moves_made)
>>> s.load(gid).game.position == g.position
True
"""

from __future__ import annotations

import json
import sqlite3
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Final, Literal

from eightoff.boards import from_json, to_json
from eightoff.game import Game, Turn
from eightoff.position import Move, Position
from eightoff.rules import Rules, preset

SCHEMA_VERSION: Final = 1
MAX_ID: Final = 2**63 - 1

Status = Literal["playing", "won", "abandoned"]

_SCHEMA_V1: Final = """
CREATE TABLE games (
    id        INTEGER PRIMARY KEY AUTOINCREMENT,
    variant   TEXT NOT NULL,
    deal      TEXT,                      -- up to 10^20 - 1: beyond SQLite's integers
    lesson    INTEGER,
    start     TEXT NOT NULL,             -- JSON board (eightoff.boards.to_json)
    options   TEXT NOT NULL DEFAULT '{}',-- JSON: rule options (foundation_retrieval, strict_single)
    status    TEXT NOT NULL DEFAULT 'playing' CHECK (status IN ('playing', 'won', 'abandoned')),
    cursor    INTEGER NOT NULL DEFAULT 0,-- turns of the line on the board
    counted   INTEGER NOT NULL DEFAULT 0,-- counted as played in the statistics
    hints     INTEGER NOT NULL DEFAULT 0,
    created   TEXT NOT NULL,
    finished  TEXT
);
CREATE INDEX games_status ON games (status, id);
CREATE TABLE moves (
    game_id   INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    seq       INTEGER NOT NULL,          -- 0-based place in the game's line
    move      TEXT NOT NULL,             -- the player's move, in notation
    auto      TEXT NOT NULL DEFAULT '',  -- the auto-moves it set off, notation, space-separated
    PRIMARY KEY (game_id, seq)
) WITHOUT ROWID;
CREATE TABLE settings (
    key       TEXT PRIMARY KEY,
    value     TEXT NOT NULL              -- JSON
);
CREATE TABLE stats (
    variant      TEXT PRIMARY KEY,
    played       INTEGER NOT NULL DEFAULT 0,
    won          INTEGER NOT NULL DEFAULT 0,
    streak       INTEGER NOT NULL DEFAULT 0,
    best_streak  INTEGER NOT NULL DEFAULT 0,
    fewest_moves INTEGER,
    hints        INTEGER NOT NULL DEFAULT 0
);
"""

_MIGRATIONS: Final[dict[int, str]] = {1: _SCHEMA_V1}
"""Schema version N is reached by running script N on version N - 1."""


class StoreError(Exception):
    """The database cannot be used (a newer schema, a file that is not a database)."""


@dataclass(frozen=True, slots=True)
class SavedGame:
    """A game as stored, rebuilt: the Game (history and redo stack) and its record."""

    id: int
    variant: str
    deal: int | None
    lesson: int | None
    options: dict[str, Any]
    status: Status
    counted: bool
    hints: int
    created: str
    finished: str | None
    game: Game

    @property
    def finished_game(self) -> bool:
        return self.status != "playing"


@dataclass(frozen=True, slots=True)
class VariantStats:
    played: int = 0
    won: int = 0
    streak: int = 0
    best_streak: int = 0
    fewest_moves: int | None = None
    hints: int = 0

    @property
    def win_rate(self) -> float:
        return self.won / self.played if self.played else 0.0


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


def rules_with_options(variant: str, options: dict[str, Any]) -> Rules:
    """The rules of a stored game: the variant's preset with its options."""
    return preset(variant).with_options(
        foundation_retrieval=options.get("foundation_retrieval"),
        strict_single=options.get("strict_single"),
    )


def rule_options(rules: Rules) -> dict[str, Any]:
    """The options of ``rules`` that differ from its preset (what the store keeps)."""
    base = preset(rules.id)
    out: dict[str, Any] = {}
    if rules.foundation_retrieval != base.foundation_retrieval:
        out["foundation_retrieval"] = rules.foundation_retrieval
    if rules.strict_single != base.strict_single:
        out["strict_single"] = rules.strict_single
    return out


class Store:
    """The table's database. ``path`` is a file (created if missing) or ``":memory:"``."""

    def __init__(self, path: str | Path) -> None:
        self.path = str(path)
        if self.path != ":memory:":
            Path(self.path).parent.mkdir(parents=True, exist_ok=True)
        self._lock = threading.RLock()
        try:
            self._db = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
            self._db.execute("PRAGMA journal_mode = WAL")
            self._db.execute("PRAGMA synchronous = NORMAL")  # durable across kill -9
            self._db.execute("PRAGMA foreign_keys = ON")
            self._db.execute("PRAGMA busy_timeout = 5000")
            self._migrate()
        except sqlite3.DatabaseError as e:
            raise StoreError(f"{self.path}: cannot use this file as the game database: {e}") from e

    # ----- plumbing ------------------------------------------------------------------
    def close(self) -> None:
        with self._lock:
            self._db.close()

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @contextmanager
    def _write(self) -> Iterator[sqlite3.Connection]:
        """One transaction: committed when the block ends, rolled back if it raises."""
        with self._lock:
            self._db.execute("BEGIN IMMEDIATE")
            try:
                yield self._db
            except BaseException:
                self._db.execute("ROLLBACK")
                raise
            self._db.execute("COMMIT")

    def _migrate(self) -> None:
        version = self._db.execute("PRAGMA user_version").fetchone()[0]
        if version > SCHEMA_VERSION:
            raise StoreError(
                f"{self.path} was written by a newer eightoff (schema {version}; this one reads"
                f" up to {SCHEMA_VERSION}): upgrade eightoff or choose another file with --db"
            )
        for target in range(version + 1, SCHEMA_VERSION + 1):
            with self._write() as db:
                for statement in _MIGRATIONS[target].split(";"):
                    if statement.strip():
                        db.execute(statement)
                db.execute(f"PRAGMA user_version = {target}")

    @property
    def schema_version(self) -> int:
        with self._lock:
            return int(self._db.execute("PRAGMA user_version").fetchone()[0])

    # ----- games ---------------------------------------------------------------------
    def create_game(
        self,
        start: Position,
        *,
        deal: int | None = None,
        lesson: int | None = None,
    ) -> int:
        """Store a new game; every other game in progress is abandoned (a counted one
        that was not won ends its variant's winning streak). Returns the new id."""
        rules = start.rules
        with self._write() as db:
            self._abandon_playing(db)
            cur = db.execute(
                "INSERT INTO games (variant, deal, lesson, start, options, created)"
                " VALUES (?, ?, ?, ?, ?, ?)",
                (
                    rules.id,
                    None if deal is None else str(deal),
                    lesson,
                    json.dumps(to_json(start)),
                    json.dumps(rule_options(rules)),
                    _now(),
                ),
            )
            assert cur.lastrowid is not None
            return cur.lastrowid

    def _abandon_playing(self, db: sqlite3.Connection) -> None:
        rows = db.execute(
            "SELECT id, variant, counted FROM games WHERE status = 'playing'"
        ).fetchall()
        for gid, variant, counted in rows:
            db.execute(
                "UPDATE games SET status = 'abandoned', finished = ? WHERE id = ?", (_now(), gid)
            )
            if counted:
                db.execute("UPDATE stats SET streak = 0 WHERE variant = ?", (variant,))

    def load(self, game_id: int) -> SavedGame | None:
        """The stored game, rebuilt (every stored move is checked again), or None."""
        if not 1 <= game_id <= MAX_ID:
            return None
        with self._lock:
            row = self._db.execute(
                "SELECT id, variant, deal, lesson, start, options, status, cursor, counted,"
                " hints, created, finished FROM games WHERE id = ?",
                (game_id,),
            ).fetchone()
            if row is None:
                return None
            lines = self._db.execute(
                "SELECT move, auto FROM moves WHERE game_id = ? ORDER BY seq", (game_id,)
            ).fetchall()
        (
            gid,
            variant,
            deal,
            lesson,
            start,
            options,
            status,
            cursor,
            counted,
            hints,
            created,
            finished,
        ) = row
        opts: dict[str, Any] = json.loads(options)
        rules = rules_with_options(variant, opts)
        start_pos = from_json(json.loads(start), rules)
        line = [
            Turn(Move.parse(m), tuple(Move.parse(a) for a in auto.split())) for m, auto in lines
        ]
        game = Game.from_turns(
            start_pos,
            line[:cursor],
            deal_number=None if deal is None else int(deal),
            undone=reversed(line[cursor:]),
        )
        return SavedGame(
            id=gid,
            variant=variant,
            deal=None if deal is None else int(deal),
            lesson=lesson,
            options=opts,
            status=status,
            counted=bool(counted),
            hints=hints,
            created=created,
            finished=finished,
            game=game,
        )

    def current_game_id(self) -> int | None:
        """The most recent game in progress, if any."""
        with self._lock:
            row = self._db.execute(
                "SELECT id FROM games WHERE status = 'playing' ORDER BY id DESC LIMIT 1"
            ).fetchone()
        return None if row is None else int(row[0])

    def _game_row(
        self, db: sqlite3.Connection, game_id: int
    ) -> tuple[str, int, str, str | None, int | None]:
        """(variant, counted, status, deal, lesson) of a game; KeyError if there is none."""
        row = db.execute(
            "SELECT variant, counted, status, deal, lesson FROM games WHERE id = ?", (game_id,)
        ).fetchone()
        if row is None:
            raise KeyError(f"no game {game_id}")
        return row  # type: ignore[no-any-return]

    def record_turn(
        self, game_id: int, turns_before: int, turn: Turn, *, won: bool, moves_made: int
    ) -> None:
        """A turn was played after ``turns_before`` turns: the line is cut there (the redo
        stack is gone) and the turn appended. ``won``/``moves_made`` describe the game after."""
        with self._write() as db:
            variant, counted, status, deal, _lesson = self._game_row(db, game_id)
            db.execute("DELETE FROM moves WHERE game_id = ? AND seq >= ?", (game_id, turns_before))
            db.execute(
                "INSERT INTO moves (game_id, seq, move, auto) VALUES (?, ?, ?, ?)",
                (game_id, turns_before, str(turn.move), " ".join(str(m) for m in turn.auto)),
            )
            db.execute("UPDATE games SET cursor = ? WHERE id = ?", (turns_before + 1, game_id))
            if not counted and deal is not None and status != "won":
                db.execute("UPDATE games SET counted = 1 WHERE id = ?", (game_id,))
                self._ensure_stats(db, variant)
                db.execute("UPDATE stats SET played = played + 1 WHERE variant = ?", (variant,))
            if won:
                self._mark_won(db, game_id, variant, status, deal is None, moves_made)

    def record_cursor(self, game_id: int, cursor: int, *, won: bool, moves_made: int) -> None:
        """After undo, redo or restart: ``cursor`` turns of the line are on the board."""
        with self._write() as db:
            variant, _counted, status, deal, _lesson = self._game_row(db, game_id)
            (length,) = db.execute(
                "SELECT COUNT(*) FROM moves WHERE game_id = ?", (game_id,)
            ).fetchone()
            if not 0 <= cursor <= length:
                raise ValueError(f"cursor {cursor} is outside the game's {length} turns")
            db.execute("UPDATE games SET cursor = ? WHERE id = ?", (cursor, game_id))
            if won:
                self._mark_won(db, game_id, variant, status, deal is None, moves_made)

    def _mark_won(
        self,
        db: sqlite3.Connection,
        game_id: int,
        variant: str,
        status: str,
        uncounted: bool,
        moves_made: int,
    ) -> None:
        if status == "won":
            return
        db.execute("UPDATE games SET status = 'won', finished = ? WHERE id = ?", (_now(), game_id))
        if uncounted:
            return
        self._ensure_stats(db, variant)
        db.execute(
            "UPDATE stats SET won = won + 1, streak = streak + 1,"
            " best_streak = MAX(best_streak, streak + 1),"
            " fewest_moves = MIN(COALESCE(fewest_moves, ?), ?) WHERE variant = ?",
            (moves_made, moves_made, variant),
        )

    def add_hint(self, game_id: int) -> None:
        """A hint was used (the solver's move, or its solution)."""
        with self._write() as db:
            variant, _counted, _status, deal, _lesson = self._game_row(db, game_id)
            db.execute("UPDATE games SET hints = hints + 1 WHERE id = ?", (game_id,))
            if deal is not None:
                self._ensure_stats(db, variant)
                db.execute("UPDATE stats SET hints = hints + 1 WHERE variant = ?", (variant,))

    # ----- statistics ----------------------------------------------------------------
    @staticmethod
    def _ensure_stats(db: sqlite3.Connection, variant: str) -> None:
        db.execute("INSERT OR IGNORE INTO stats (variant) VALUES (?)", (variant,))

    def stats(self) -> dict[str, VariantStats]:
        """Per variant (only variants that have been played or hinted)."""
        with self._lock:
            rows = self._db.execute(
                "SELECT variant, played, won, streak, best_streak, fewest_moves, hints"
                " FROM stats ORDER BY variant"
            ).fetchall()
        return {r[0]: VariantStats(*r[1:]) for r in rows}

    # ----- settings ------------------------------------------------------------------
    def settings(self) -> dict[str, Any]:
        with self._lock:
            rows = self._db.execute("SELECT key, value FROM settings").fetchall()
        return {k: json.loads(v) for k, v in rows}

    def put_settings(self, values: dict[str, Any]) -> None:
        """Set some settings (JSON values) in one transaction."""
        encoded = [(k, json.dumps(v)) for k, v in values.items()]
        with self._write() as db:
            db.executemany(
                "INSERT INTO settings (key, value) VALUES (?, ?)"
                " ON CONFLICT (key) DO UPDATE SET value = excluded.value",
                encoded,
            )
