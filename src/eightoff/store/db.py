"""The one SQLite infrastructure of eightoff: opening a file, errors, transactions,
schema versions and the default data directory. The table's games
(:mod:`eightoff.store.games`) and the survey results both stand on it.

>>> schema = Schema("notes", ("CREATE TABLE notes (id INTEGER PRIMARY KEY, text TEXT)",))
>>> db = connect(":memory:", schema)
>>> with db.transaction() as c:
...     _ = c.execute("INSERT INTO notes (text) VALUES ('hi')")
>>> with db.read() as c:
...     c.execute("SELECT text FROM notes").fetchall()
[('hi',)]
>>> db.version("notes")
1

Schema versions: the table ``eightoff_schema`` holds one row per named schema
(``games``, ``survey``, ...) with the number of its migrations applied. Migration N
(1-based) takes a schema from version N - 1 to N, inside one transaction with the
version bump, so a crash leaves a file at one version or the next, never between.
A file written by a newer eightoff (a version above the migrations known) is refused.

Transactions: :meth:`Database.transaction` is ``BEGIN IMMEDIATE`` ... ``COMMIT``
(``ROLLBACK`` on any exception, Ctrl+C included): the write lock is taken at the start,
so a read-check-write inside it cannot interleave with another process's write. It
waits for the lock as long as another connection keeps committing, and reports the
file locked only after a whole busy timeout (10 s) without a commit.
:meth:`Database.read` is a deferred transaction: a consistent snapshot for several
SELECTs. A file has two connections, each guarded by its own lock, so threads may share
a :class:`Database`: one for writes and one for reads, so that a read never waits behind
a write waiting for another process's lock (in WAL mode a reader sees the last commit).
``":memory:"`` has one (two would be two databases).

Durability: every file is in WAL mode. ``durable=True`` (the table's games) sets
``synchronous=FULL``: each commit is on the disk before it is acknowledged, so a power
loss keeps it. Otherwise (the surveys: many small batches, each recomputable)
``synchronous=NORMAL``: a commit survives the process being killed (kill -9) but the
last few may be lost with the power. ``wal=False`` leaves the file's journal mode as it
is: a command that only reads opens a file it may refuse without changing it.

Read-only media: a file on a filesystem mounted read-only (a DVD, a read-only share or
bind mount) is opened ``immutable``: SQLite cannot make the shared-memory file that a
file in WAL mode needs even to be read, and no one can write the file there, so reading
it as it lies is exact. Reports and exports read it; a write says the file cannot be
written.

Identity: SQLite names its write-ahead log and its lock file after the path it opened,
so two names of one file (hard links) give two logs and lose writes;
:meth:`Database.check_one_name` refuses such a file.

Every failure to open or use the file is a :class:`StoreError` whose message is one
line naming the file and what to do.
"""

from __future__ import annotations

import contextlib
import os
import sqlite3
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Final

from eightoff.i18n import Message

Migration = str | Callable[[sqlite3.Connection], None]
"""An SQL script (statements separated by ``;``) or a function given the connection."""

APP_NAME: Final = "eightoff"
BUSY_TIMEOUT_MS: Final = 10_000


class StoreError(Exception):
    """A database file cannot be used: not a database, unreadable, unwritable, written
    by a newer eightoff, or not holding what it should. The message is one line."""


class StoreDamaged(StoreError):
    """The file is not a whole eightoff database: damaged pages or rows, or not a
    database at all (restore it from a copy or choose another file; a retry will not
    help, unlike a locked or unwritable file)."""


def default_data_dir() -> Path:
    """Where eightoff keeps its files unless told otherwise (e.g. ~/.local/share/eightoff)."""
    import platformdirs

    return platformdirs.user_data_path(APP_NAME, appauthor=False)


@dataclass(frozen=True, slots=True)
class Schema:
    """A named schema and its migrations, in order (``migrations[0]`` creates it).

    ``legacy_version`` reads the version of a file written before the
    ``eightoff_schema`` table existed (0 if the schema is absent)."""

    name: str
    migrations: Sequence[Migration]
    legacy_version: Callable[[sqlite3.Connection], int] | None = None

    @property
    def version(self) -> int:
        return len(self.migrations)


_VERSIONS_DDL: Final = (
    "CREATE TABLE IF NOT EXISTS eightoff_schema ( name TEXT PRIMARY KEY, version INTEGER NOT NULL)"
)


def _read_only_media(path: str) -> bool:
    """Whether ``path``'s folder is on a filesystem mounted read-only."""
    try:
        return bool(os.statvfs(Path(path).absolute().parent).f_flag & os.ST_RDONLY)
    except (OSError, AttributeError):  # no folder yet; no statvfs (Windows)
        return False


def _made_private(path: str) -> None:
    """Create the database file ``path``, if it does not exist, readable and writable by
    its owner alone (mode 0600, whatever the umask): games and statistics are nobody
    else's business. SQLite gives its journal and write-ahead log the file's mode. A file
    that exists keeps its mode; one that cannot be made is left for SQLite to refuse."""
    with contextlib.suppress(OSError):
        os.close(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600))


def _one_line(exc: BaseException) -> str:
    return " ".join(str(exc).split()) or type(exc).__name__


class Database:
    """An open SQLite file (or ``":memory:"``). Use :func:`connect` to open one."""

    def __init__(
        self,
        path: str | Path,
        *,
        timeout_ms: int = BUSY_TIMEOUT_MS,
        durable: bool = False,
        wal: bool = True,
    ) -> None:
        self.path = str(path)
        self._lock = threading.RLock()
        self._read_lock = threading.RLock()
        self._timeout_ms = timeout_ms
        self.durable = durable
        self._wal = wal
        self.closed = False
        self.immutable = self.path != ":memory:" and _read_only_media(self.path)
        """On a filesystem mounted read-only: opened as it lies (the module's note)."""
        self._open()

    def _open(self) -> None:
        timeout_ms = self._timeout_ms
        if self.path != ":memory:":
            try:  # a folder made for it is the user's alone, as the runtime folder is
                Path(self.path).parent.mkdir(mode=0o700, parents=True, exist_ok=True)
            except OSError as e:
                why = str(e.strerror or e)
                raise StoreError(
                    Message("store.no_folder", path=str(self.path), error=why)
                ) from None
            if not self.immutable:
                _made_private(self.path)
        with self.errors("open"):
            self._conn = self._connection()
        try:
            with self.errors("open"):
                self._set_up(self._conn, timeout_ms, first=True)
                if self.path == ":memory:":
                    self._reader = self._conn
                    self._read_lock = self._lock
                else:
                    self._reader = self._connection()
        except StoreError:
            self._conn.close()
            raise
        try:
            with self.errors("open"):
                if self._reader is not self._conn:
                    self._set_up(self._reader, timeout_ms, first=False)
        except StoreError:
            self._reader.close()
            self._conn.close()
            raise

    def _connection(self) -> sqlite3.Connection:
        path, uri = self.path, False
        if self.immutable:
            path, uri = f"{Path(self.path).absolute().as_uri()}?immutable=1", True
        return sqlite3.connect(
            path,
            uri=uri,
            isolation_level=None,  # autocommit; transactions are explicit
            check_same_thread=False,
            timeout=self._timeout_ms / 1000,
        )

    def _set_up(self, conn: sqlite3.Connection, timeout_ms: int, *, first: bool) -> None:
        """The connection's settings. Two processes or threads opening a new file at
        once can meet SQLITE_BUSY here without SQLite's busy handler being called (one
        switches the file to WAL while the other reads its header), so a busy answer
        is tried again until the busy timeout is spent, as a busy write would be."""

        def settings() -> None:
            conn.execute(f"PRAGMA busy_timeout = {int(timeout_ms)}")
            conn.execute("PRAGMA foreign_keys = ON")
            if self.path != ":memory:":
                if first and self._wal and not self.immutable:
                    conn.execute("PRAGMA journal_mode = WAL")
                # FULL: a commit is on the disk (power loss); NORMAL: kill -9 only
                conn.execute(f"PRAGMA synchronous = {'FULL' if self.durable else 'NORMAL'}")
            conn.execute("SELECT COUNT(*) FROM sqlite_master").fetchone()

        self._while_busy(settings, timeout_ms, pause=0.01)

    def use_wal(self) -> None:
        """Switch the file to WAL mode (kept in the file), and use it when reopened."""
        self._wal = True
        if self.path == ":memory:" or self.immutable:
            return
        with self._lock, self._read_lock, self.errors("open"):
            conn = self._conn
            self._while_busy(
                lambda: conn.execute("PRAGMA journal_mode = WAL").fetchone(),
                self._timeout_ms,
                pause=0.01,
            )
            # the reader was opened in the journal mode before: open it again in WAL's
            self._reader.close()
            self._reader = self._connection()
            self._set_up(self._reader, self._timeout_ms, first=False)

    @staticmethod
    def _while_busy(
        attempt: Callable[[], None],
        timeout_ms: int,
        *,
        pause: float,
        progress: Callable[[], int | None] | None = None,
    ) -> None:
        """Call ``attempt`` until it does not fail busy (SQLITE_BUSY or SQLITE_LOCKED),
        ``pause`` seconds apart; its error is raised once ``timeout_ms`` have passed
        since the start or since ``progress`` (a counter of another's work, None when
        it cannot be read) last changed."""
        deadline = time.monotonic() + timeout_ms / 1000
        seen = progress() if progress is not None else None
        while True:
            try:
                attempt()
                return
            except sqlite3.OperationalError as e:
                if e.sqlite_errorcode & 0xFF not in (sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED):
                    raise
                now = progress() if progress is not None else None
                if now is not None and now != seen:
                    if seen is not None:  # the other made progress meanwhile
                        deadline = time.monotonic() + timeout_ms / 1000
                    seen = now
                elif time.monotonic() >= deadline:
                    raise
            time.sleep(pause)  # a busy answer given at once is not a spin

    # ----- errors --------------------------------------------------------------------
    @contextmanager
    def errors(self, doing: str = "use") -> Iterator[None]:
        """Turn any sqlite3 error raised inside into a one-line :class:`StoreError`."""
        try:
            yield
        except sqlite3.Error as e:
            raise self.error(e, doing) from None

    @contextmanager
    def damaged(self, what: Message | str) -> Iterator[None]:
        """Rows that do not decode (a value of the wrong type, JSON that does not parse, a
        move that is not a move) are damage in the file, not the caller's fault: one-line
        :class:`StoreError` naming the file and ``what``."""
        try:
            yield
        except (ValueError, TypeError, KeyError, AttributeError, IndexError) as e:
            detail = _one_line(e)[:120]
            raise StoreDamaged(
                Message("store.damaged_rows", path=str(self.path), what=what, detail=detail)
            ) from None

    def error(self, exc: sqlite3.Error, doing: str = "use") -> StoreError:
        """SQLite's error as a one-line :class:`StoreError` in words a user can act on
        (:class:`StoreDamaged` when the file is not a whole database); ``doing``:
        "open", "read", "update", "write to" or "use" (``store.cannot``'s cases)."""
        text = _one_line(exc)
        low = text.lower()
        why: Message | str = text
        if "not a database" in low or "malformed" in low or "encrypted" in low:
            why = Message("store.why.not_a_database")
            return StoreDamaged(Message("store.cannot", path=str(self.path), doing=doing, why=why))
        if "readonly" in low or "read-only" in low or self.immutable:
            why = Message("store.why.read_only")
        elif "unable to open" in low:
            why = Message("store.why.cannot_open")
        elif "locked" in low or "busy" in low:
            why = Message("store.why.locked")
        return StoreError(Message("store.cannot", path=str(self.path), doing=doing, why=why))

    # ----- plumbing ------------------------------------------------------------------
    def close(self) -> None:
        with self._lock, self._read_lock:
            if self._reader is not self._conn:
                self._reader.close()
            self._conn.close()
            self.closed = True

    def reopen(self) -> None:
        """Open the file again after :meth:`close` (an app started a second time)."""
        with self._lock, self._read_lock:
            if self.closed:
                self._open()
                self.closed = False

    def __enter__(self) -> Database:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @contextmanager
    def transaction(self) -> Iterator[sqlite3.Connection]:
        """``BEGIN IMMEDIATE`` ... ``COMMIT``; rolled back if the block raises.
        sqlite3 errors become :class:`StoreError`; other exceptions pass unchanged."""
        with self._lock:
            with self.errors("write to"):
                self._drop_interrupted()
                self._begin()
            try:
                yield self._conn
            except BaseException as e:
                if self._conn.in_transaction:
                    self._conn.execute("ROLLBACK")
                if isinstance(e, sqlite3.Error):
                    raise self.error(e, "write to") from None
                raise
            with self.errors("write to"):
                self._conn.execute("COMMIT")

    def _begin(self) -> None:
        """``BEGIN IMMEDIATE``, waiting while another connection holds the write lock
        and is at work. SQLite's busy handler polls the lock (every 100 ms after the
        first few tries) and gives up after the busy timeout however busy the holder
        is: two surveys sharing a store, each committing hundreds of batches a second,
        can keep one of them from the lock past the timeout though both are working.
        So a wait in which another connection committed (``PRAGMA data_version``
        changed) starts the timeout again: "locked" means that no one committed for a
        whole busy timeout. A busy answer given without waiting (SQLite gives some
        while another connection recovers or cleans up the file) is tried again the
        same way."""
        conn = self._conn

        def begin() -> None:
            conn.execute("BEGIN IMMEDIATE")

        self._while_busy(begin, self._timeout_ms, pause=0.001, progress=self._data_version)

    def _data_version(self) -> int | None:
        """The write connection's ``PRAGMA data_version`` (changed by every commit of
        another connection), or None when it cannot be read now."""
        try:
            return int(self._conn.execute("PRAGMA data_version").fetchone()[0])
        except sqlite3.Error:
            return None

    @contextmanager
    def read(self) -> Iterator[sqlite3.Connection]:
        """A read-only snapshot: several SELECTs see one state of the file (the last
        commit: on a file, reads have their own connection and never wait behind this
        process's writes)."""
        conn = self._reader
        with self._read_lock:
            with self.errors("read"):
                self._drop_interrupted(conn)
                conn.execute("BEGIN")
            try:
                yield conn
            finally:
                # a damaged page can fail the end of the snapshot too: still one line
                with self.errors("read"):
                    if conn.in_transaction:
                        conn.execute("COMMIT")

    def _drop_interrupted(self, conn: sqlite3.Connection | None = None) -> None:
        """Roll back a transaction left open by Ctrl+C felt between its BEGIN and the
        block that would have ended it (every transaction here is explicit and taken
        under the lock, so one open at this point can only be such a leftover)."""
        conn = self._conn if conn is None else conn
        if conn.in_transaction:
            conn.execute("ROLLBACK")

    def check_one_name(self) -> None:
        """Raise :class:`StoreError` if the file has other names (hard links): SQLite
        keeps its write-ahead log beside the name it opened, so writes through two names
        go to two logs and one name loses the other's."""
        if self.path == ":memory:":
            return
        try:
            links = Path(self.path).stat().st_nlink
        except OSError:
            return
        if links > 1:
            raise StoreError(Message("store.hard_links", path=str(self.path), links=links))

    def quick_check(self) -> None:
        """Raise :class:`StoreError` (one line) unless SQLite's ``quick_check`` finds the
        file whole (pages, records and indexes; for a file of a few MB, milliseconds)."""
        with self.read() as c:
            rows = [str(r[0]) for r in c.execute("PRAGMA quick_check(3)").fetchall()]
        if rows != ["ok"]:
            said = " ".join("; ".join(rows).split())[:160]
            raise StoreDamaged(Message("store.damaged", path=str(self.path), said=said))

    def check_writable(self) -> None:
        """Raise :class:`StoreError` unless this process can write the file now."""
        with self.transaction() as c, self.errors("write to"):
            c.execute(_VERSIONS_DDL)
            c.execute("UPDATE eightoff_schema SET version = version WHERE 0")
            # a real page write: create and drop a scratch table
            c.execute("CREATE TABLE IF NOT EXISTS eightoff_write_check (x)")
            c.execute("DROP TABLE eightoff_write_check")

    # ----- schema versions -----------------------------------------------------------
    def version(self, name: str) -> int:
        """The version of schema ``name`` in this file (0 if absent)."""
        with self.read() as c, self.errors("read"):
            return self._version(c, name, None)

    @staticmethod
    def _version(
        c: sqlite3.Connection, name: str, legacy: Callable[[sqlite3.Connection], int] | None
    ) -> int:
        has = c.execute(
            "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'eightoff_schema'"
        ).fetchone()
        if has:
            row = c.execute("SELECT version FROM eightoff_schema WHERE name = ?", (name,))
            found = row.fetchone()
            if found is not None:
                return int(found[0])
        return legacy(c) if legacy is not None else 0

    def _refuse_foreign(self, c: sqlite3.Connection) -> None:
        """Raise :class:`StoreDamaged` if the file holds tables and none of eightoff's
        (no ``eightoff_schema``): another program's database, which eightoff's tables
        and its switch to WAL would change."""
        tables = [
            str(r[0])
            for r in c.execute(
                "SELECT name FROM sqlite_master WHERE type = 'table'"
                " AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\' ORDER BY name"
            )
        ]
        if tables and "eightoff_schema" not in tables:
            named = ", ".join(tables[:3]) + (", …" if len(tables) > 3 else "")
            raise StoreDamaged(Message("store.foreign", path=str(self.path), tables=named))

    def migrate(self, schema: Schema) -> None:
        """Bring ``schema`` up to date, one transaction per migration."""
        with self._lock, self.errors("read"), self.read() as c:
            current = self._version(c, schema.name, schema.legacy_version)
            if current == 0:
                self._refuse_foreign(c)
        if current > schema.version:
            raise StoreError(
                Message(
                    "store.newer",
                    path=str(self.path),
                    schema=schema.name,
                    version=current,
                    ours=schema.version,
                )
            )
        for target in range(current + 1, schema.version + 1):
            with self.transaction() as c, self.errors("update"):
                c.execute(_VERSIONS_DDL)
                # another process may have migrated meanwhile: read again under the lock
                now = self._version(c, schema.name, schema.legacy_version)
                if now >= target:
                    continue
                step = schema.migrations[target - 1]
                if callable(step):
                    step(c)
                else:
                    for statement in step.split(";"):
                        if statement.strip():
                            c.execute(statement)
                c.execute(
                    "INSERT INTO eightoff_schema (name, version) VALUES (?, ?)"
                    " ON CONFLICT (name) DO UPDATE SET version = excluded.version",
                    (schema.name, target),
                )


def connect(
    path: str | Path,
    *schemas: Schema,
    timeout_ms: int = BUSY_TIMEOUT_MS,
    durable: bool = False,
) -> Database:
    """Open (creating if missing) the SQLite file ``path`` and bring every schema given
    up to date. Raises :class:`StoreError` with a one-line message if it cannot.
    ``durable``: ``synchronous=FULL`` (see the module's note on durability). A file
    with two names (hard links) is refused before anything is written to it
    (:meth:`Database.check_one_name`)."""
    # WAL after the migrations: another program's database is refused unchanged
    db = Database(path, timeout_ms=timeout_ms, durable=durable, wal=False)
    try:
        db.check_one_name()
        for schema in schemas:
            db.migrate(schema)
        db.use_wal()
    except BaseException:
        db.close()
        raise
    return db
