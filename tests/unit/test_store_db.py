"""The one SQLite infrastructure (eightoff.store.db): versions, transactions, errors."""

from __future__ import annotations

import os
import sqlite3
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from eightoff.store.db import Schema, StoreError, connect, default_data_dir
from tests.servers import another_programs_database, read_only

NOTES = Schema(
    "notes",
    (
        "CREATE TABLE notes (id INTEGER PRIMARY KEY, text TEXT NOT NULL)",
        "ALTER TABLE notes ADD COLUMN pinned INTEGER NOT NULL DEFAULT 0",
    ),
)


def test_migrations_run_once_each_and_keep_the_data(tmp_path: Path) -> None:
    path = tmp_path / "n.sqlite3"
    first = Schema("notes", NOTES.migrations[:1])
    with connect(path, first) as db:
        with db.transaction() as c:
            c.execute("INSERT INTO notes (text) VALUES ('keep me')")
        assert db.version("notes") == 1
    with connect(path, NOTES) as db:
        assert db.version("notes") == 2
        with db.read() as c:
            assert c.execute("SELECT text, pinned FROM notes").fetchall() == [("keep me", 0)]
    with connect(path, NOTES) as db:  # opening again runs nothing
        assert db.version("notes") == 2


def test_two_schemas_share_a_file_with_their_own_versions(tmp_path: Path) -> None:
    other = Schema("other", ("CREATE TABLE other (x)",))
    with connect(tmp_path / "n.sqlite3", NOTES, other) as db:
        assert (db.version("notes"), db.version("other"), db.version("absent")) == (2, 1, 0)


def test_a_newer_file_is_refused_in_one_line(tmp_path: Path) -> None:
    path = tmp_path / "n.sqlite3"
    connect(path, NOTES).close()
    first = Schema("notes", NOTES.migrations[:1])
    with pytest.raises(StoreError, match="newer eightoff") as info:
        connect(path, first)
    assert "\n" not in str(info.value)


def test_a_transaction_that_raises_writes_nothing(tmp_path: Path) -> None:
    with connect(tmp_path / "n.sqlite3", NOTES) as db:
        with pytest.raises(KeyError), db.transaction() as c:
            c.execute("INSERT INTO notes (text) VALUES ('half')")
            raise KeyError("boom")
        with db.read() as c:
            assert c.execute("SELECT COUNT(*) FROM notes").fetchone() == (0,)


class _CtrlCAfterBegin:
    """A connection that feels Ctrl+C just after its first BEGIN has run, before the
    transaction's block is entered (the window in which a survey's Ctrl+C once left a
    transaction open, and the clean-up's own transaction then failed: exit 73, not 130)."""

    def __init__(self, conn: sqlite3.Connection) -> None:
        self._conn, self.fired = conn, False

    def __getattr__(self, name: str) -> object:
        return getattr(self._conn, name)

    def execute(self, sql: str, *args: Any) -> sqlite3.Cursor:
        cursor = self._conn.execute(sql, *args)
        if sql.startswith("BEGIN") and not self.fired:
            self.fired = True
            raise KeyboardInterrupt
        return cursor


@pytest.mark.parametrize("kind", ["transaction", "read"])
def test_ctrl_c_just_after_begin_leaves_the_store_usable(tmp_path: Path, kind: str) -> None:
    with connect(tmp_path / "n.sqlite3", NOTES) as db:
        with db.transaction() as c:
            c.execute("INSERT INTO notes (text) VALUES ('kept')")
        if kind == "transaction":
            db._conn = _CtrlCAfterBegin(db._conn)  # type: ignore[assignment]
        else:  # reads have their own connection
            db._reader = _CtrlCAfterBegin(db._reader)  # type: ignore[assignment]
        block = db.transaction() if kind == "transaction" else db.read()
        with pytest.raises(KeyboardInterrupt), block as c:
            c.execute("INSERT INTO notes (text) VALUES ('never')")
        with db.transaction() as c:  # the clean-up after Ctrl+C writes
            c.execute("INSERT INTO notes (text) VALUES ('after')")
        with db.read() as c:
            assert [t for (t,) in c.execute("SELECT text FROM notes ORDER BY id")] == [
                "kept",
                "after",
            ]


def test_sqlite_errors_inside_a_transaction_become_store_errors(tmp_path: Path) -> None:
    db = connect(tmp_path / "n.sqlite3", NOTES)
    with pytest.raises(StoreError, match="cannot write to"), db.transaction() as c:
        c.execute("INSERT INTO notes (text) VALUES (NULL)")  # NOT NULL
    db.close()


def _rival(path: Path) -> sqlite3.Connection:
    """Another program's connection to ``path`` (its own lock, as another process's)."""
    return sqlite3.connect(path, isolation_level=None, timeout=30, check_same_thread=False)


def test_a_writer_waits_while_another_keeps_the_lock_and_commits(tmp_path: Path) -> None:
    """Two surveys sharing a store commit hundreds of batches a second: one of them
    once waited past the busy timeout and stopped, "another program holds it locked",
    though the other was at work. A wait in which the other commits is not counted."""
    path = tmp_path / "n.sqlite3"
    db = connect(path, NOTES, timeout_ms=150)  # the rival below holds it for longer
    rival = _rival(path)
    holding = threading.Event()

    def commit_often() -> None:
        # 30 transactions of 20 ms each, back to back: the lock is free only for the
        # moment between one COMMIT and the next BEGIN
        for i in range(30):
            rival.execute("BEGIN IMMEDIATE")
            holding.set()
            rival.execute("INSERT INTO notes (text) VALUES (?)", (f"rival {i}",))
            time.sleep(0.02)
            rival.execute("COMMIT")

    worker = threading.Thread(target=commit_often)
    worker.start()
    try:
        holding.wait(30)
        with db.transaction() as c:
            c.execute("INSERT INTO notes (text) VALUES ('mine')")
    finally:
        worker.join(60)
        rival.close()
    with db.read() as c:
        texts = [t for (t,) in c.execute("SELECT text FROM notes")]
    db.close()
    assert sorted(texts) == sorted(["mine", *(f"rival {i}" for i in range(30))])


def test_a_lock_held_without_commits_is_reported_in_one_line(tmp_path: Path) -> None:
    path = tmp_path / "n.sqlite3"
    db = connect(path, NOTES, timeout_ms=150)
    rival = _rival(path)
    rival.execute("BEGIN IMMEDIATE")
    rival.execute("INSERT INTO notes (text) VALUES ('rival')")
    try:
        with pytest.raises(StoreError) as caught, db.transaction() as c:
            c.execute("INSERT INTO notes (text) VALUES ('mine')")
    finally:
        rival.execute("ROLLBACK")
        rival.close()
    message = str(caught.value)
    assert "another program holds it locked" in message and "\n" not in message
    with db.transaction() as c:  # usable once the other lets go
        c.execute("INSERT INTO notes (text) VALUES ('mine')")
    with db.read() as c:
        assert [t for (t,) in c.execute("SELECT text FROM notes")] == ["mine"]
    db.close()


def test_not_a_database_is_refused_and_left_alone(tmp_path: Path) -> None:
    bad = tmp_path / "photo.jpg"
    bad.write_bytes(bytes(range(256)) * 64)
    with pytest.raises(StoreError, match="not an eightoff database"):
        connect(bad, NOTES)
    assert bad.read_bytes() == bytes(range(256)) * 64


def test_a_folder_that_cannot_be_made_is_one_line(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("x")
    with pytest.raises(StoreError, match="cannot create its folder"):
        connect(blocker / "sub" / "n.sqlite3", NOTES)


@pytest.fixture
def read_only_db(tmp_path: Path) -> Iterator[Path]:
    """A database this process can read but not write."""
    path = tmp_path / "ro.sqlite3"
    connect(path, NOTES).close()
    with read_only(path):
        yield path


def test_an_unwritable_file_is_found_before_use(read_only_db: Path) -> None:
    with connect(read_only_db, NOTES) as db:
        with db.read() as c:  # reading works
            assert c.execute("SELECT COUNT(*) FROM notes").fetchone() == (0,)
        with pytest.raises(StoreError, match="cannot be written") as info:
            db.check_writable()
        assert "\n" not in str(info.value)


def test_the_default_data_dir_is_per_user() -> None:
    assert default_data_dir().name == "eightoff"


def test_the_schema_table_is_plain_sqlite(tmp_path: Path) -> None:
    path = tmp_path / "n.sqlite3"
    connect(path, NOTES).close()
    con = sqlite3.connect(path)
    assert con.execute("SELECT name, version FROM eightoff_schema").fetchall() == [("notes", 2)]
    con.close()


def test_many_opening_a_new_file_at_once_all_get_it(tmp_path: Path) -> None:
    """Two surveys started together on a new store once failed with "another program
    holds it locked": SQLite answers busy without waiting while another connection
    switches the new file to WAL."""
    failures: list[str] = []
    for rep in range(60):
        path = tmp_path / f"n{rep}.sqlite3"
        start = threading.Barrier(6)

        def open_it(path: Path = path, start: threading.Barrier = start) -> None:
            start.wait()
            try:
                connect(path, NOTES).close()
            except StoreError as e:
                failures.append(str(e))

        threads = [threading.Thread(target=open_it) for _ in range(6)]
        for t in threads:
            t.start()
        for t in threads:
            t.join(60)
    assert failures == []


def test_the_tables_commits_reach_the_disk_and_the_surveys_survive_kill_9(
    tmp_path: Path,
) -> None:
    """synchronous=FULL for the table's games (a move survives a power loss), NORMAL for
    the survey stores (a batch survives kill -9; its verdicts can be computed again)."""
    from eightoff.store import Store
    from eightoff.survey.store import SurveyStore

    store = Store(tmp_path / "games.sqlite3")
    survey = SurveyStore(tmp_path / "survey.sqlite3")
    try:
        for conn in (store.db._conn, store.db._reader):
            assert conn.execute("PRAGMA synchronous").fetchone()[0] == 2  # FULL
        assert survey._db._conn.execute("PRAGMA synchronous").fetchone()[0] == 1  # NORMAL
        with store.db.read() as c:
            assert c.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    finally:
        store.close()
        survey.close()


def test_a_file_with_two_names_is_refused(tmp_path: Path) -> None:
    import os

    with connect(tmp_path / "a.sqlite3", NOTES) as db:
        db.check_one_name()  # one name: fine
        os.link(tmp_path / "a.sqlite3", tmp_path / "b.sqlite3")
        with pytest.raises(StoreError, match="has 2 names"):
            db.check_one_name()


def test_another_programs_database_is_refused_and_left_unchanged(tmp_path: Path) -> None:
    """A survey wrote its tables into any SQLite file given as --db and switched it to
    WAL mode (and so did the table): a file holding tables and none of eightoff's is
    refused as not an eightoff database, byte for byte as it was; an empty file or a
    new one becomes a store."""
    from eightoff.store import Store, StoreDamaged
    from eightoff.survey.store import SurveyStore

    other = tmp_path / "other.sqlite3"
    before = another_programs_database(other)
    for opener in (Store, SurveyStore, lambda p: connect(p, NOTES)):
        with pytest.raises(StoreDamaged, match=r"another program's database .*contacts"):
            opener(other)
        assert other.read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["other.sqlite3"]
    empty = tmp_path / "empty.sqlite3"
    empty.touch()
    for path in (empty, tmp_path / "new.sqlite3"):
        with connect(path, NOTES) as db, db.read() as c:
            assert c.execute("PRAGMA journal_mode").fetchone()[0] == "wal"


@pytest.mark.skipif(not hasattr(os, "umask"), reason="POSIX modes")
def test_a_new_database_and_its_folder_are_the_users_alone(tmp_path: Path) -> None:
    """Games and statistics were readable by every user of the machine (0644 files in a
    0755 folder, with the usual umask); a new database is 0600 with its log, and a folder
    made for it 0700. A database that exists keeps its mode."""
    old = os.umask(0o022)
    try:
        path = tmp_path / "made" / "n.sqlite3"
        with connect(path, NOTES) as db:
            with db.transaction() as c:
                c.execute("INSERT INTO notes (text) VALUES ('mine')")
            wal = path.with_name(path.name + "-wal")
            assert wal.exists() and wal.stat().st_mode & 0o777 == 0o600
        assert path.stat().st_mode & 0o777 == 0o600
        assert path.parent.stat().st_mode & 0o777 == 0o700
        shared = tmp_path / "shared.sqlite3"
        connect(shared, NOTES).close()
        shared.chmod(0o644)  # its owner's choice
        connect(shared, NOTES).close()
        assert shared.stat().st_mode & 0o777 == 0o644
    finally:
        os.umask(old)
