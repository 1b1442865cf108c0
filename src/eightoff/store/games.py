"""The table's games in SQLite: games and every move, revisions, settings, statistics,
and the record of the server that serves the file. Stands on :mod:`eightoff.store.db`.

A game's moves are kept as its *line*: the turns played, followed by the turns that
were undone in the order they would be redone, plus a *cursor* (how many turns of
the line are on the board). Undo and redo move the cursor; a new move cuts the line
at the cursor and appends. So a reload, or a ``kill -9`` and a restart, brings back
the game exactly, redo stack included.

Every game has a *revision*: 0 when created, one more on every change of its position
or history. A change is made inside :meth:`Store.edit`: one ``BEGIN IMMEDIATE``
transaction that reads the game as stored, lets the caller apply an action, and writes
it (or, if the block raises, changes nothing). Any number of processes may share the file.

>>> s = Store(":memory:")
>>> from eightoff.game import Game
>>> g = Game.new("eightoff", 1)
>>> gid = s.create_game(g.start, deal=1)
>>> with s.edit(gid) as edit:
...     turn = edit.game.play(edit.game.position.legal_moves()[0])
...     edit.record_turn(turn)
>>> saved = s.load(gid)
>>> saved.game.position == edit.game.position, saved.revision
(True, 1)
"""

from __future__ import annotations

import json
import sqlite3
import threading
from collections import OrderedDict
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, replace
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Final, Literal

from eightoff.boards import from_json, to_json
from eightoff.game import Game, Turn
from eightoff.i18n import Message
from eightoff.position import Move, Position
from eightoff.rules import Rules, preset, rule_options
from eightoff.solver.optimal import joined_bounds
from eightoff.store.db import Database, Schema, StoreError, connect

MAX_ID: Final = 2**63 - 1
_GAME_CACHE: Final = 64

Status = Literal["playing", "won", "abandoned"]

_SCHEMA_V1: Final = """
CREATE TABLE games (
    id        INTEGER PRIMARY KEY AUTOINCREMENT,
    variant   TEXT NOT NULL,
    deal      TEXT,                      -- up to 10^20 - 1: beyond SQLite's integers
    lesson    INTEGER,
    start     TEXT NOT NULL,             -- JSON board (eightoff.boards.to_json)
    options   TEXT NOT NULL DEFAULT '{}',-- JSON: Rules.options() that differ from the preset
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

_SCHEMA_V2: Final = """
ALTER TABLE games ADD COLUMN revision INTEGER NOT NULL DEFAULT 0;
CREATE TABLE server (
    id        INTEGER PRIMARY KEY CHECK (id = 1),  -- one server per database
    pid       INTEGER NOT NULL,
    url       TEXT NOT NULL,                       -- what to open (token included)
    started   TEXT NOT NULL
);
"""


def _legacy_version(c: sqlite3.Connection) -> int:
    """Files written before eightoff_schema kept the games schema in PRAGMA user_version."""
    return int(c.execute("PRAGMA user_version").fetchone()[0])


_SCHEMA_V3: Final = """
ALTER TABLE games ADD COLUMN assisted INTEGER NOT NULL DEFAULT 0; -- the solver's solution was given
ALTER TABLE stats ADD COLUMN assisted INTEGER NOT NULL DEFAULT 0; -- finished with the solver's help
"""


_SCHEMA_V4: Final = """
ALTER TABLE games ADD COLUMN rating TEXT; -- JSON: the deal's rating (Rating.to_json), once
ALTER TABLE games ADD COLUMN daily TEXT;  -- the UTC date (YYYY-MM-DD) of a daily deal
"""


def _schema_v5(c: sqlite3.Connection) -> None:
    """Player moves (:mod:`eightoff.counts`). Each stored turn gets the auto-move setting
    it was played with (NULL for the turns stored before: read as on when the turn sent
    cards home after its move, else off); each won game its player moves, counted from
    its stored turns (before, a win stored every move, auto-moves included, in the
    statistics' fewest moves); the statistics' fewest moves are read from the games
    from now on, so the old figures go."""
    c.execute("ALTER TABLE moves ADD COLUMN auto_move INTEGER")  # 1 on, 0 off, NULL unknown
    c.execute("ALTER TABLE games ADD COLUMN player_moves INTEGER")  # a won game's, at the win
    c.execute("ALTER TABLE stats DROP COLUMN fewest_moves")
    for gid, game in _won_games(c):
        c.execute("UPDATE games SET player_moves = ? WHERE id = ?", (game.player_moves, gid))


def _won_games(c: sqlite3.Connection) -> Iterator[tuple[int, Game]]:
    """Each won game's id and game, rebuilt from its stored turns (for a migration that
    counts a new column from them); a game this version cannot read is left out: no
    figure rather than a wrong one."""
    won = c.execute(f"SELECT {_GAME_COLUMNS} FROM games WHERE status = 'won'").fetchall()
    for row in won:
        try:
            game = _game_of(c, row)
        except (ValueError, KeyError, TypeError):
            continue
        yield row[0], game


_SCHEMA_V6: Final = """
ALTER TABLE games ADD COLUMN replay INTEGER NOT NULL DEFAULT 0; -- replays par: never counted
CREATE TABLE par (
    variant   TEXT NOT NULL,             -- as games.variant
    options   TEXT NOT NULL,             -- as games.options
    start     TEXT NOT NULL,             -- as games.start: the position par is of
    count     TEXT NOT NULL CHECK (count IN ('player', 'single')),
    optimal   INTEGER NOT NULL,          -- 1: upper is proven the fewest (par)
    lower     INTEGER NOT NULL,          -- proven: no solution is shorter
    upper     INTEGER,                   -- the best solution's length (NULL: none known)
    lost      INTEGER NOT NULL DEFAULT 0,-- proven: no solution at all
    moves     TEXT NOT NULL DEFAULT '',  -- the best solution, notation, space-separated
    reason    TEXT NOT NULL DEFAULT '',  -- why the search stopped before a proof
    seconds   REAL NOT NULL DEFAULT 0,   -- how long the search took
    found     TEXT NOT NULL,
    PRIMARY KEY (variant, options, start, count)
) WITHOUT ROWID;
"""
"""Par at the table (issue 22.5): each deal's par, searched once, and the games that
replay a par solution (never counted in the statistics). Nothing stored before changes."""


def _schema_v7(c: sqlite3.Connection) -> None:
    """A won game's player moves as par counts them (safe auto-move on,
    :func:`eightoff.counts.as_par_counts`) beside the counter's: what its moves over par
    and the statistics' fewest moves are read from, so a game won with auto-move off
    (every card home a move on its counter) is compared with par and with other games
    fairly. Counted from each won game's stored turns."""
    c.execute("ALTER TABLE games ADD COLUMN player_moves_as_par INTEGER")  # at the win
    for gid, game in _won_games(c):
        c.execute(
            "UPDATE games SET player_moves_as_par = ? WHERE id = ?",
            (game.player_moves_as_par, gid),
        )


GAMES: Final = Schema(
    "games",
    (_SCHEMA_V1, _SCHEMA_V2, _SCHEMA_V3, _SCHEMA_V4, _schema_v5, _SCHEMA_V6, _schema_v7),
    _legacy_version,
)
SCHEMA_VERSION: Final = GAMES.version


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
    assisted: bool
    created: str
    finished: str | None
    revision: int
    game: Game
    rating: dict[str, Any] | None = None
    """The deal's rating as :meth:`eightoff.rating.Rating.to_json` gave it when it started."""
    daily: str | None = None
    """The UTC date of a daily deal."""
    replay: bool = False
    """A replay of a par solution (:meth:`Store.create_game` ``replay``): never counted."""

    @property
    def finished_game(self) -> bool:
        return self.status != "playing"


@dataclass(frozen=True, slots=True)
class VariantStats:
    played: int = 0
    won: int = 0
    streak: int = 0
    best_streak: int = 0
    hints: int = 0
    assisted: int = 0
    fewest_moves: int | None = None
    """The fewest player moves of a game won (not assisted), from the stored turns, as
    par counts them (safe auto-move on, whatever the setting was)."""

    @property
    def win_rate(self) -> float:
        """Games won per game played (0 before the first game)."""
        return self.won / self.played if self.played else 0.0


@dataclass(frozen=True, slots=True)
class StoredPar:
    """A deal's par as the table keeps it (:func:`eightoff.solver.optimal.optimal`'s
    answer): proven (``optimal``), bounds ("par is 31 to 33"), or lost. ``moves``: the
    best solution known, every move explicit, replayed through the rules when stored and
    when read back (a record whose moves the rules refuse is not returned)."""

    count: str
    optimal: bool
    lower: int
    upper: int | None
    lost: bool = False
    moves: tuple[Move, ...] = ()
    reason: str = ""
    seconds: float = 0.0

    @property
    def par(self) -> int | None:
        """The proven fewest moves, or None."""
        return self.upper if self.optimal and not self.lost else None

    def checked(self, start: Position) -> StoredPar:
        """This record if its moves win from ``start`` by the rules (every move through
        :meth:`Position.apply`); ValueError otherwise."""
        p = start
        for m in self.moves:
            p = p.apply(m)
        if self.moves and not p.is_won():
            raise ValueError("the par solution does not end with every card home")
        if self.optimal and not self.lost and not self.moves:
            raise ValueError("a proven par without its solution")
        return self


def _joined(kept: StoredPar, new: StoredPar) -> StoredPar:
    """The bounds of two searches of the same start, neither proven: the higher lower
    bound and the shorter solution (``new``'s where they tie), proven where they meet;
    ``new``'s reason and time (the search the words name)."""
    lower, keep = joined_bounds((kept.lower, kept.upper), (new.lower, new.upper))
    upper, moves = (kept.upper, kept.moves) if keep else (new.upper, new.moves)
    if upper is not None and lower >= upper:
        return replace(new, optimal=True, lower=upper, upper=upper, moves=moves, reason="")
    return replace(new, lower=lower, upper=upper, moves=moves)


@dataclass(frozen=True, slots=True)
class OverPar:
    """Moves over par of the games won (by the player alone) whose deal's par is proven:
    ``games`` such games, ``total`` their moves over par added up, ``best`` the fewest."""

    games: int
    total: int
    best: int

    @property
    def average(self) -> float:
        return self.total / self.games

    def add(self, over: int) -> OverPar:
        return OverPar(self.games + 1, self.total + over, min(self.best, over))


@dataclass(frozen=True, slots=True)
class ServerRecord:
    """The server that last said it serves this database."""

    pid: int
    url: str
    started: str


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


def rules_with_options(variant: str, options: dict[str, Any]) -> Rules:
    """The rules of a stored game: the variant's preset with its options."""
    return preset(variant).with_options(**Rules.parse_options(options))


def stats_key(variant: str, options: dict[str, Any]) -> str:
    """The statistics row of a variant played with house rules: the variant's id, then
    ``+option`` for each option switched on that its preset has off (``+!option`` for one
    switched off) and ``+cells=N`` for another number of free cells, e.g.
    ``eightoff+foundation_retrieval`` or ``freecell+cells=2``.

    >>> stats_key("eightoff", {}), stats_key("supermove-freecell", {"strict_single": True})
    ('eightoff', 'supermove-freecell+strict_single')
    >>> stats_key("freecell", {"cells": 2, "strict_single": True})
    'freecell+cells=2+strict_single'
    >>> parse_stats_key("supermove-freecell+strict_single")
    ('supermove-freecell', {'strict_single': True})
    >>> parse_stats_key("freecell+cells=2+strict_single")
    ('freecell', {'cells': 2, 'strict_single': True})
    """
    parts = []
    for k in sorted(options):
        v = options[k]
        if isinstance(v, bool):
            parts.append(f"+{'' if v else '!'}{k}")
        elif isinstance(v, int):
            parts.append(f"+{k}={v}")
    return variant + "".join(parts)


def parse_stats_key(key: str) -> tuple[str, dict[str, Any]]:
    """The variant and options of a :func:`stats_key`."""
    variant, *parts = key.split("+")
    out: dict[str, Any] = {}
    for p in parts:
        name, eq, value = p.partition("=")
        if eq:
            out[name] = int(value) if value.isdigit() else value
        else:
            out[p.lstrip("!")] = not p.startswith("!")
    return variant, out


_GAME_COLUMNS: Final = (
    "id, variant, deal, lesson, start, options, status, cursor, counted,"
    " hints, created, finished, revision, assisted, rating, daily"
)


_ROW_COLUMNS: Final = _GAME_COLUMNS + ", replay"
"""A game's row as :meth:`Store._decode` reads it (``_GAME_COLUMNS`` stays as the
migration to schema 5 reads it)."""


def _turn(move: str, auto: str, auto_move: int | None) -> Turn:
    """A stored turn. One stored before the auto-move setting was (NULL) was played
    with it on if it sent cards home after its move."""
    moves = tuple(Move.parse(a) for a in auto.split())
    on = bool(moves) if auto_move is None else bool(auto_move)
    return Turn(Move.parse(move), moves, on)


def _game_of(db: sqlite3.Connection, row: tuple[Any, ...]) -> Game:
    """The game of a row of ``_GAME_COLUMNS``, rebuilt from its start and stored turns
    (every move checked again)."""
    gid, variant, deal, _lesson, start, options, _status, cursor = row[:8]
    lines = db.execute(
        "SELECT move, auto, auto_move FROM moves WHERE game_id = ? ORDER BY seq", (gid,)
    ).fetchall()
    rules = rules_with_options(variant, json.loads(options))
    line = [_turn(*line) for line in lines]
    return Game.from_turns(
        from_json(json.loads(start), rules),
        line[:cursor],
        deal_number=None if deal is None else int(deal),
        undone=reversed(line[cursor:]),
    )


class GameEdit:
    """One change of one stored game, inside the transaction of :meth:`Store.edit`.

    ``saved`` is the game as stored when the transaction began; ``game`` is a copy to
    apply the action to; the ``record_*`` methods write what was done."""

    def __init__(self, store: Store, conn: sqlite3.Connection, saved: SavedGame) -> None:
        self._store = store
        self._db = conn
        self.saved = saved
        self.game = saved.game  # the store's copy: the block may change it
        self.revision = saved.revision
        self.hints = saved.hints
        self.assisted = saved.assisted
        self.status: Status = saved.status
        self._stats = stats_key(saved.variant, saved.options)
        self._line = len(self.game.turns) + len(self.game.undone)

    def _bump(self) -> None:
        self.revision += 1
        self._db.execute(
            "UPDATE games SET revision = ? WHERE id = ?", (self.revision, self.saved.id)
        )

    def _won(self, won: bool) -> None:
        if won and self.status != "won":
            self._store._mark_won(
                self._db,
                self.saved.id,
                self._stats,
                self.status,
                self.saved.deal is None or self.saved.replay,
                self.game.player_moves,
                self.game.player_moves_as_par,
                assisted=self.assisted,
            )
            self.status = "won"

    def record_turn(self, turn: Turn, *, won: bool | None = None) -> None:
        """``turn`` was played on the stored position: the line is cut there (the redo
        stack is gone) and the turn appended. ``won`` defaults to the position's."""
        gid = self.saved.id
        if not self.game.turns or self.game.turns[-1] != turn:
            raise ValueError("record_turn: play the turn on GameEdit.game first")
        at = len(self.game.turns) - 1
        self._db.execute("DELETE FROM moves WHERE game_id = ? AND seq >= ?", (gid, at))
        self._db.execute(
            "INSERT INTO moves (game_id, seq, move, auto, auto_move) VALUES (?, ?, ?, ?, ?)",
            (gid, at, str(turn.move), " ".join(str(m) for m in turn.auto), int(turn.auto_move)),
        )
        self._db.execute("UPDATE games SET cursor = ? WHERE id = ?", (at + 1, gid))
        if (
            not self.saved.counted
            and self.saved.deal is not None
            and not self.saved.replay
            and self.status != "won"
        ):
            self._db.execute("UPDATE games SET counted = 1 WHERE id = ?", (gid,))
            self._store._ensure_stats(self._db, self._stats)
            self._db.execute(
                "UPDATE stats SET played = played + 1 WHERE variant = ?", (self._stats,)
            )
        self._line = at + 1
        self._bump()
        self._won(self.game.position.is_won() if won is None else won)

    def record_cursor(self, *, won: bool | None = None) -> None:
        """After undo, redo or restart of ``game``: its turns are the line's first ones."""
        cursor = len(self.game.turns)
        if not 0 <= cursor <= self._line:
            raise ValueError(f"cursor {cursor} is outside the game's {self._line} turns")
        self._db.execute("UPDATE games SET cursor = ? WHERE id = ?", (cursor, self.saved.id))
        self._bump()
        self._won(self.game.position.is_won() if won is None else won)

    def add_hint(self) -> int:
        """A hint was used (the solver's move, or its solution): the count after it.
        The revision is unchanged (the position and history are)."""
        gid = self.saved.id
        self._db.execute("UPDATE games SET hints = hints + 1 WHERE id = ?", (gid,))
        if self.saved.deal is not None and not self.saved.replay:
            self._store._ensure_stats(self._db, self._stats)
            self._db.execute("UPDATE stats SET hints = hints + 1 WHERE variant = ?", (self._stats,))
        self.hints += 1
        return self.hints

    def mark_assisted(self) -> None:
        """The solver's solution was given for this game: a win of it counts as assisted,
        not won. The revision is unchanged (the position and history are)."""
        if not self.assisted:
            self._db.execute("UPDATE games SET assisted = 1 WHERE id = ?", (self.saved.id,))
            self.assisted = True


class Store:
    """The table's database. ``path`` is a file (created if missing) or ``":memory:"``."""

    def __init__(self, path: str | Path) -> None:
        self.db: Database = connect(path, GAMES, durable=True)  # a move survives a power loss
        self.path = self.db.path
        self._cache: OrderedDict[tuple[int, int], Game] = OrderedDict()
        self._cache_lock = threading.Lock()
        self._settings: tuple[int, dict[str, Any]] | None = None
        """(PRAGMA data_version, settings): data_version changes when another connection
        commits, so a cached copy is valid while it is unchanged."""

    # ----- plumbing ------------------------------------------------------------------
    def close(self) -> None:
        self.db.close()

    def reopen(self) -> None:
        """Open the file again after :meth:`close`."""
        if self.db.closed:
            self.db.reopen()
            self.db.migrate(GAMES)  # a new ":memory:" database is empty

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @property
    def schema_version(self) -> int:
        return self.db.version(GAMES.name)

    def check_writable(self) -> None:
        """Raise StoreError (one line) unless this process can write the file."""
        self.db.check_writable()

    # ----- games ---------------------------------------------------------------------
    def create_game(
        self,
        start: Position,
        *,
        deal: int | None = None,
        lesson: int | None = None,
        rating: dict[str, Any] | None = None,
        daily: str | None = None,
        replay: bool = False,
    ) -> int:
        """Store a new game; every other game in progress is abandoned (a counted one
        that was not won ends its variant's winning streak). Returns the new id.
        ``rating``: the deal's rating (JSON); ``daily``: the date of a daily deal;
        ``replay``: a replay of a par solution (assisted from the start and never
        counted in the statistics)."""
        rules = start.rules
        with self.db.transaction() as db:
            self._abandon_playing(db)
            cur = db.execute(
                "INSERT INTO games (variant, deal, lesson, start, options, created, rating,"
                " daily, replay, assisted) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    rules.id,
                    None if deal is None else str(deal),
                    lesson,
                    json.dumps(to_json(start)),
                    json.dumps(rule_options(rules)),
                    _now(),
                    None if rating is None else json.dumps(rating),
                    daily,
                    int(replay),
                    int(replay),
                ),
            )
            assert cur.lastrowid is not None
            return cur.lastrowid

    def _abandon_playing(self, db: sqlite3.Connection) -> None:
        rows = db.execute(
            "SELECT id, variant, options, counted FROM games WHERE status = 'playing'"
        ).fetchall()
        for gid, variant, options, counted in rows:
            db.execute(
                "UPDATE games SET status = 'abandoned', finished = ?, revision = revision + 1"
                " WHERE id = ?",
                (_now(), gid),
            )
            if counted:
                key = stats_key(variant, json.loads(options))
                db.execute("UPDATE stats SET streak = 0 WHERE variant = ?", (key,))

    def _load(self, db: sqlite3.Connection, game_id: int) -> SavedGame | None:
        if not 1 <= game_id <= MAX_ID:
            return None
        row = db.execute(f"SELECT {_ROW_COLUMNS} FROM games WHERE id = ?", (game_id,)).fetchone()
        if row is None:
            return None
        with self.db.damaged(
            Message("store.what.game", id=game_id)
        ):  # a row that does not decode: a 503
            return self._decode(db, game_id, row)

    def _decode(self, db: sqlite3.Connection, game_id: int, row: Sequence[Any]) -> SavedGame:
        (
            gid,
            variant,
            deal,
            lesson,
            _start,
            options,
            status,
            cursor,
            counted,
            hints,
            created,
            finished,
            revision,
            assisted,
            rating,
            daily,
            replay,
        ) = row
        for name, value in (("revision", revision), ("cursor", cursor), ("hints", hints)):
            if not isinstance(value, int):
                raise TypeError(f"{name} {str(value)[:20]!r} is not a whole number")
        opts: dict[str, Any] = json.loads(options)
        if not isinstance(opts, dict):
            raise TypeError(f"options {options[:20]!r} is not a JSON object")
        game = self._cached(gid, revision)
        if game is None:
            game = _game_of(db, tuple(row))
            self._remember(gid, revision, game)
        saved = SavedGame(
            id=gid,
            variant=variant,
            deal=None if deal is None else int(deal),
            lesson=lesson,
            options=opts,
            status=status,
            counted=bool(counted),
            hints=hints,
            assisted=bool(assisted),
            created=created,
            finished=finished,
            revision=revision,
            game=game,
            rating=None if rating is None else json.loads(rating),
            daily=daily,
            replay=bool(replay),
        )
        return saved

    # a game at one revision is the same in every process: cache it by (id, revision)
    def _cached(self, game_id: int, revision: int) -> Game | None:
        """A copy of the game at this revision, if this process has seen it."""
        with self._cache_lock:
            game = self._cache.get((game_id, revision))
            if game is None:
                return None
            self._cache.move_to_end((game_id, revision))
        return game.copy()

    def _remember(self, game_id: int, revision: int, game: Game) -> None:
        with self._cache_lock:
            self._cache[(game_id, revision)] = game.copy()
            while len(self._cache) > _GAME_CACHE:
                self._cache.popitem(last=False)

    def load(self, game_id: int) -> SavedGame | None:
        """The stored game, rebuilt (every stored move is checked again when it is read
        from the file; a game already read at this revision comes from a cache), or None.
        The Game is the caller's own to change."""
        with self.db.read() as db, self.db.errors("read"):
            return self._load(db, game_id)

    @contextmanager
    def edit(self, game_id: int) -> Iterator[GameEdit]:
        """One change of a stored game, in one ``BEGIN IMMEDIATE`` transaction: the block
        gets the game as stored; what it records is written when it ends, and nothing
        is if it raises. KeyError if there is no such game."""
        with self.db.transaction() as db:
            saved = self._load(db, game_id)
            if saved is None:
                raise KeyError(game_id)
            edit = GameEdit(self, db, saved)
            yield edit
        if edit.revision != saved.revision:  # committed: the next read needs no replay
            self._remember(game_id, edit.revision, edit.game)

    def current_game_id(self) -> int | None:
        """The most recent game in progress, if any."""
        with self.db.read() as db:
            row = db.execute(
                "SELECT id FROM games WHERE status = 'playing' ORDER BY id DESC LIMIT 1"
            ).fetchone()
        return None if row is None else int(row[0])

    def record_turn(self, game_id: int, turns_before: int, turn: Turn, *, won: bool) -> None:
        """A turn was played after ``turns_before`` turns (one :meth:`edit`; the table
        plays on ``GameEdit.game`` instead)."""
        with self.edit(game_id) as e:
            e.game.undo_to(turns_before)
            e.game.push(turn)  # checked: a turn that does not fit is refused
            e.record_turn(turn, won=won)

    def record_cursor(self, game_id: int, cursor: int, *, won: bool) -> None:
        """After undo, redo or restart: ``cursor`` turns of the line are on the board."""
        with self.edit(game_id) as e:
            line = len(e.game.turns) + len(e.game.undone)
            if not 0 <= cursor <= line:
                raise ValueError(f"cursor {cursor} is outside the game's {line} turns")
            while len(e.game.turns) > cursor:
                e.game.undo()
            while len(e.game.turns) < cursor:
                e.game.redo()
            e.record_cursor(won=won)

    def add_hint(self, game_id: int) -> int:
        """A hint was used (the solver's move, or its solution): the game's count after it."""
        with self.edit(game_id) as e:
            return e.add_hint()

    def _mark_won(
        self,
        db: sqlite3.Connection,
        game_id: int,
        variant: str,
        status: str,
        uncounted: bool,
        player_moves: int,
        as_par: int,
        *,
        assisted: bool = False,
    ) -> None:
        """``variant`` is the statistics row (:func:`stats_key`). An assisted finish is
        counted as assisted: not a win, and it ends the winning streak. The game keeps
        its ``player_moves`` (the counter's) and the same ``as_par`` counts them (the
        statistics' fewest moves and moves over par are read from those)."""
        if status == "won":
            return
        db.execute(
            "UPDATE games SET status = 'won', finished = ?, player_moves = ?,"
            " player_moves_as_par = ? WHERE id = ?",
            (_now(), player_moves, as_par, game_id),
        )
        if uncounted:
            return
        self._ensure_stats(db, variant)
        if assisted:
            db.execute(
                "UPDATE stats SET assisted = assisted + 1, streak = 0 WHERE variant = ?",
                (variant,),
            )
            return
        db.execute(
            "UPDATE stats SET won = won + 1, streak = streak + 1,"
            " best_streak = MAX(best_streak, streak + 1) WHERE variant = ?",
            (variant,),
        )

    # ----- par -----------------------------------------------------------------------
    _PAR_COLUMNS: Final = "count, optimal, lower, upper, lost, moves, reason, seconds"

    def par_of_game(self, game_id: int, count: str = "player") -> StoredPar | None:
        """The stored par of a game's start (its deal with its rules), or None when it was
        never searched (or its record does not replay: it is searched again)."""
        with self.db.read() as db, self.db.errors("read"):
            row = db.execute(
                "SELECT p.count, p.optimal, p.lower, p.upper, p.lost, p.moves, p.reason,"
                " p.seconds, g.variant, g.options, g.start FROM games g JOIN par p"
                " ON p.variant = g.variant AND p.options = g.options AND p.start = g.start"
                " WHERE g.id = ? AND p.count = ?",
                (game_id, count),
            ).fetchone()
        if row is None:
            return None
        try:
            rules = rules_with_options(row[8], json.loads(row[9]))
            start = from_json(json.loads(row[10]), rules)
            return self._par_record(row[:8]).checked(start)
        except (ValueError, KeyError, TypeError):
            return None  # damaged or from rules this version reads otherwise: search again

    @staticmethod
    def _par_record(row: Sequence[Any]) -> StoredPar:
        count, optimal, lower, upper, lost, moves, reason, seconds = row
        return StoredPar(
            count=str(count),
            optimal=bool(optimal),
            lower=int(lower),
            upper=None if upper is None else int(upper),
            lost=bool(lost),
            moves=tuple(Move.parse(m) for m in str(moves).split()),
            reason=str(reason),
            seconds=float(seconds),
        )

    def save_par(self, start: Position, par: StoredPar) -> StoredPar:
        """Keep ``par`` (its moves checked from ``start`` by the rules: ValueError) as the
        par of ``start`` with its rules, unless a proven one that replays is kept already.
        Bounds join the bounds kept: the higher lower bound, the shorter solution (a
        longer search may end with a longer one); where they meet, par is proven.
        Returns the record kept."""
        par.checked(start)
        rules = start.rules
        key = (rules.id, json.dumps(rule_options(rules)), json.dumps(to_json(start)), par.count)
        with self.db.transaction() as db:
            old = db.execute(
                f"SELECT {self._PAR_COLUMNS} FROM par"
                " WHERE variant = ? AND options = ? AND start = ? AND count = ?",
                key,
            ).fetchone()
            if old is not None:
                try:
                    kept = self._par_record(old).checked(start)
                except (ValueError, KeyError, TypeError):
                    kept = None  # damaged in the file: the new record replaces it
                if kept is not None and kept.optimal:
                    return kept
                if kept is not None and not par.optimal:
                    par = _joined(kept, par)
            db.execute(
                "INSERT OR REPLACE INTO par (variant, options, start, count, optimal, lower,"
                " upper, lost, moves, reason, seconds, found)"
                " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    *key,
                    int(par.optimal),
                    par.lower,
                    par.upper,
                    int(par.lost),
                    " ".join(str(m) for m in par.moves),
                    par.reason,
                    par.seconds,
                    _now(),
                ),
            )
        return par

    def over_par(self) -> dict[str, dict[str | None, OverPar]]:
        """Moves over par per statistics line (:func:`stats_key`) and difficulty level
        (the key None: all the line's games; a level's name: its rated deals): the games
        won by the player alone (counted, not assisted) whose start has a proven par in
        player moves, each game's moves its player moves as par counts them (safe
        auto-move on, whatever the setting was), counted from its stored turns when it
        was won (as the fewest moves)."""
        with self.db.read() as db:
            rows = db.execute(
                "SELECT g.variant, g.options, json_extract(g.rating, '$.level'),"
                " g.player_moves_as_par - p.upper FROM games g JOIN par p"
                " ON p.variant = g.variant AND p.options = g.options AND p.start = g.start"
                " WHERE g.status = 'won' AND g.counted AND g.deal IS NOT NULL"
                " AND NOT g.assisted AND NOT g.replay AND g.player_moves_as_par IS NOT NULL"
                " AND p.count = 'player' AND p.optimal AND NOT p.lost AND p.upper IS NOT NULL"
            ).fetchall()
        out: dict[str, dict[str | None, OverPar]] = {}
        for variant, options, level, over in rows:
            line = out.setdefault(stats_key(variant, json.loads(options)), {})
            for key in (None, level) if level is not None else (None,):
                seen = line.get(key)
                line[key] = OverPar(1, over, over) if seen is None else seen.add(over)
        return out

    # ----- statistics ----------------------------------------------------------------
    @staticmethod
    def _ensure_stats(db: sqlite3.Connection, variant: str) -> None:
        db.execute("INSERT OR IGNORE INTO stats (variant) VALUES (?)", (variant,))

    def stats(self) -> dict[str, VariantStats]:
        """Per variant and house rules (:func:`stats_key`; only those played or hinted).
        The fewest moves are the fewest player moves of the games won (not assisted),
        each counted from its stored turns when it was won as par counts them (safe
        auto-move on, whatever the setting was: the same moves, the same figure)."""
        with self.db.read() as db:
            rows = db.execute(
                "SELECT variant, played, won, streak, best_streak, hints, assisted"
                " FROM stats ORDER BY variant"
            ).fetchall()
            best = db.execute(
                "SELECT variant, options, MIN(player_moves_as_par) FROM games"
                " WHERE status = 'won' AND counted AND deal IS NOT NULL AND NOT assisted"
                " AND player_moves_as_par IS NOT NULL GROUP BY variant, options"
            ).fetchall()
        fewest: dict[str, int] = {}
        for variant, options, moves in best:
            key = stats_key(variant, json.loads(options))
            fewest[key] = min(moves, fewest.get(key, moves))
        return {
            key: VariantStats(played, won, streak, best, hints, assisted, fewest.get(key))
            for key, played, won, streak, best, hints, assisted in rows
        }

    def level_stats(self) -> dict[str, dict[str, tuple[int, int]]]:
        """Per statistics line (:func:`stats_key`) and difficulty level: (played, won) of
        the rated deals counted as played (a win with the solver's solution is not won)."""
        with self.db.read() as db:
            rows = db.execute(
                "SELECT variant, options, json_extract(rating, '$.level'),"
                " status = 'won' AND NOT assisted FROM games"
                " WHERE counted AND rating IS NOT NULL"
            ).fetchall()
        out: dict[str, dict[str, tuple[int, int]]] = {}
        for variant, options, level, won in rows:
            line = out.setdefault(stats_key(variant, json.loads(options)), {})
            played, wins = line.get(level, (0, 0))
            line[level] = (played + 1, wins + int(bool(won)))
        return out

    # ----- settings ------------------------------------------------------------------
    def settings(self) -> dict[str, Any]:
        """The stored settings (read again only when another connection has written)."""
        with self.db.read() as db:
            version = int(db.execute("PRAGMA data_version").fetchone()[0])
            cached = self._settings
            if cached is not None and cached[0] == version:
                return dict(cached[1])
            rows = db.execute("SELECT key, value FROM settings").fetchall()
        with self.db.damaged(Message("store.what.settings")):
            values = {k: json.loads(v) for k, v in rows}
        self._settings = (version, values)
        return dict(values)

    def put_settings(self, values: dict[str, Any]) -> None:
        """Set some settings (JSON values) in one transaction."""
        encoded = [(k, json.dumps(v)) for k, v in values.items()]
        self._settings = None
        with self.db.transaction() as db:
            db.executemany(
                "INSERT INTO settings (key, value) VALUES (?, ?)"
                " ON CONFLICT (key) DO UPDATE SET value = excluded.value",
                encoded,
            )
        self._settings = None  # a read between the first reset and the commit cached old ones

    # ----- the server record ---------------------------------------------------------
    def server(self) -> ServerRecord | None:
        """The server that last said it serves this file (it may be gone)."""
        with self.db.read() as db:
            row = db.execute("SELECT pid, url, started FROM server WHERE id = 1").fetchone()
        return None if row is None else ServerRecord(int(row[0]), str(row[1]), str(row[2]))

    @contextmanager
    def claim_server(self) -> Iterator[_ServerClaim]:
        """Hold the write lock while deciding who serves the file: the block reads
        ``claim.current`` (check it is alive) and calls ``claim.take(pid, url)`` or not."""
        with self.db.transaction() as db:
            row = db.execute("SELECT pid, url, started FROM server WHERE id = 1").fetchone()
            current = None if row is None else ServerRecord(int(row[0]), str(row[1]), str(row[2]))
            yield _ServerClaim(db, current)

    def release_server(self, pid: int) -> None:
        """Forget the record if it is this process's (a server stopping)."""
        with self.db.transaction() as db:
            db.execute("DELETE FROM server WHERE id = 1 AND pid = ?", (pid,))


class _ServerClaim:
    def __init__(self, db: sqlite3.Connection, current: ServerRecord | None) -> None:
        self._db = db
        self.current = current

    def take(self, pid: int, url: str) -> None:
        self._db.execute(
            "INSERT INTO server (id, pid, url, started) VALUES (1, ?, ?, ?)"
            " ON CONFLICT (id) DO UPDATE SET pid = excluded.pid, url = excluded.url,"
            " started = excluded.started",
            (pid, url, _now()),
        )


__all__ = [
    "GAMES",
    "SCHEMA_VERSION",
    "GameEdit",
    "OverPar",
    "SavedGame",
    "ServerRecord",
    "Store",
    "StoreError",
    "StoredPar",
    "VariantStats",
    "parse_stats_key",
    "rule_options",
    "rules_with_options",
    "stats_key",
]
