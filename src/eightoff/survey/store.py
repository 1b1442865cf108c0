"""The survey store: one SQLite file of per-deal verdicts, safe to kill at any moment.

Tables (all prefixed ``survey_``, so the file could live beside other tables):

``survey_results``
    One row per (variant, rules signature, deal) — the primary key, so a deal can
    never be counted twice. verdict, solution length (solved only: the moves as the
    solution lists them, each card sent home one), states searched, solve seconds,
    the run that produced it, and (version 6 on) the solution's length in the two
    counts of :mod:`eightoff.counts`: ``player`` moves and ``single``-card moves
    (NULL in rows stored before).
``survey_runs``
    One row per ``eightoff survey`` invocation: when, the solver's version, the
    limits and where it ran. Every result row names its run, so every deal carries
    the solver version and limits it was decided with.
``survey_rules``
    The rules each signature stands for (their fields as canonical JSON).
``survey_ratings``
    A deal's difficulty rating (:mod:`eightoff.rating`) when the survey ran with
    ``--rate``: level, score and the rating formula's version, one row per
    (variant, rules signature, deal). Version 3 of the schema; older stores have no
    ratings and still report. A survey that rates treats a deal stored without a
    rating of the current formula as not done: it claims it like an unsolved deal and
    rates it, keeping its stored verdict.
``survey_par``
    A deal's par (:mod:`eightoff.solver.optimal`) when a survey ran with ``--par``: in
    which count (player or single-card moves), proven or not, the proven lower bound
    and the best solution's length, states, seconds and run; one row per (variant,
    rules signature, deal, count).  Version 4 of the schema.
``survey_owners`` and ``survey_claims``
    Work sharing: each running survey is an owner (host, process id and its start
    time, a heartbeat); it claims the deals it hands to its workers (runs of
    consecutive numbers) in the same kind of transaction that stores results, and a
    batch's claim is deleted in the transaction that stores the batch. Another survey
    on the same file skips deals that are stored or claimed, so two surveys over
    overlapping ranges share the work. A claim whose owner is dead (on this host: its
    process is gone; on another host: no heartbeat for :data:`STALE_SECONDS`) is taken
    back.

Durability: WAL journal, ``synchronous=NORMAL`` and one transaction per batch.
A process killed with SIGKILL loses at most the batches in flight (their claims are
taken back by the next survey); the file is never left half-written (SQLite's journal
guarantees it), so rerunning resumes.
"""

from __future__ import annotations

import dataclasses
import functools
import hashlib
import json
import os
import secrets
import socket
import sqlite3
import time
from collections.abc import Iterable, Iterator, Mapping, Sequence
from contextlib import AbstractContextManager, contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from enum import Enum
from itertools import chain, islice
from pathlib import Path
from typing import Final, NamedTuple

from eightoff.i18n import Message
from eightoff.rules import Rules
from eightoff.store.db import Database, Schema, StoreError, connect, default_data_dir
from eightoff.verdict import Verdict

MAX_STORED_DEAL: Final = 2**63 - 1
"""SQLite integers are 64-bit: the largest deal number the store can hold."""

STALE_SECONDS: Final = 120.0
"""A survey owner whose heartbeat is older than this is presumed dead (its process
cannot be checked from this host); its claims are taken back."""
HEARTBEAT_SECONDS: Final = 10.0
"""How often a running survey renews its heartbeat."""

# Fields of Rules that do not change the game (names and presentation).
_COSMETIC_FIELDS: Final = frozenset({"id", "name", "summary", "announce_group_limit"})

_V1: Final = """
CREATE TABLE IF NOT EXISTS survey_rules (
    signature  TEXT PRIMARY KEY,
    variant    TEXT NOT NULL,
    rules_json TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS survey_runs (
    id             INTEGER PRIMARY KEY,
    started_at     TEXT NOT NULL,
    solver_version TEXT NOT NULL,
    time_limit     REAL,
    state_limit    INTEGER,
    backend        TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS survey_results (
    variant TEXT    NOT NULL,
    rules   TEXT    NOT NULL REFERENCES survey_rules(signature),
    deal    INTEGER NOT NULL CHECK (deal >= 1),
    verdict TEXT    NOT NULL CHECK (verdict IN ('solved', 'lost', 'unknown')),
    length  INTEGER CHECK (length IS NULL OR length >= 0),
    states  INTEGER NOT NULL,
    seconds REAL    NOT NULL,
    run     INTEGER NOT NULL REFERENCES survey_runs(id),
    PRIMARY KEY (variant, rules, deal)
) WITHOUT ROWID;
"""

_V2_CLAIMS: Final = """
CREATE TABLE IF NOT EXISTS survey_owners (
    id        INTEGER PRIMARY KEY,
    host      TEXT    NOT NULL,
    pid       INTEGER NOT NULL,
    started   TEXT    NOT NULL,
    heartbeat REAL    NOT NULL
);
CREATE TABLE IF NOT EXISTS survey_claims (
    variant TEXT    NOT NULL,
    rules   TEXT    NOT NULL,
    first   INTEGER NOT NULL,
    last    INTEGER NOT NULL CHECK (last >= first),
    owner   INTEGER NOT NULL REFERENCES survey_owners(id) ON DELETE CASCADE,
    PRIMARY KEY (variant, rules, first)
) WITHOUT ROWID;
"""


_V3_RATINGS: Final = """
CREATE TABLE IF NOT EXISTS survey_ratings (
    variant TEXT    NOT NULL,
    rules   TEXT    NOT NULL,
    deal    INTEGER NOT NULL CHECK (deal >= 1),
    level   TEXT    NOT NULL,
    score   REAL    NOT NULL,
    formula TEXT    NOT NULL,
    PRIMARY KEY (variant, rules, deal)
) WITHOUT ROWID;
"""


_V4_PAR: Final = """
CREATE TABLE IF NOT EXISTS survey_par (
    variant     TEXT    NOT NULL,
    rules       TEXT    NOT NULL,
    deal        INTEGER NOT NULL CHECK (deal >= 1),
    count       TEXT    NOT NULL CHECK (count IN ('player', 'single')),
    optimal     INTEGER NOT NULL CHECK (optimal IN (0, 1)),
    lost        INTEGER NOT NULL CHECK (lost IN (0, 1)),
    lower_bound INTEGER NOT NULL CHECK (lower_bound >= 0),
    upper_bound INTEGER CHECK (upper_bound IS NULL OR upper_bound >= lower_bound),
    states      INTEGER NOT NULL,
    seconds     REAL    NOT NULL,
    run         INTEGER NOT NULL REFERENCES survey_runs(id),
    PRIMARY KEY (variant, rules, deal, count)
) WITHOUT ROWID;
"""


# Columns without a CHECK: SQLite (3.37 on) tests a CHECK added with a column against
# every row already stored, about a second per 3 million rows, where adding a plain
# column changes the schema alone (2 ms) whatever the store's size. The counts come from
# the compiled replay (solve_range) or solver.played, never from outside.
_V6_COUNTS: Final = """
ALTER TABLE survey_results ADD COLUMN player INTEGER;
ALTER TABLE survey_results ADD COLUMN single INTEGER;
"""


def _has_counts(c: sqlite3.Connection) -> bool:
    """Whether the results have the two counts' columns (version 6 on; an older store
    opened as it is has none)."""
    return any(r[1] == "player" for r in c.execute("PRAGMA table_info(survey_results)"))


def _has_table(c: sqlite3.Connection, name: str) -> bool:
    """Whether the file has table ``name``: a store opened as it is, from before the
    version that made the table, has none (``survey_ratings`` came with version 3,
    ``survey_par`` with version 4)."""
    sql = "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?"
    return c.execute(sql, (name,)).fetchone() is not None


def _legacy_version(c: sqlite3.Connection) -> int:
    """The version of a file written before ``eightoff_schema``: its ``survey_meta``."""
    tables = {r[0] for r in c.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    if "survey_meta" in tables:
        row = c.execute("SELECT value FROM survey_meta WHERE key = 'schema'").fetchone()
        if row is not None:
            try:
                return int(row[0])
            except ValueError:
                return 0
    return 1 if "survey_results" in tables else 0


_VERDICT_IN: Final = "CHECK (verdict IN ('solved', 'lost', 'unknown'))"
_VERDICT_OR: Final = "CHECK (verdict = 'solved' OR verdict = 'lost' OR verdict = 'unknown')"


def _v5_verdict_check(c: sqlite3.Connection) -> None:
    """Version 5: ``survey_results``' check on the verdict written as three comparisons
    (:data:`_VERDICT_OR`) instead of ``IN`` a list of three (:data:`_VERDICT_IN`), the
    same rule. SQLite turns an ``IN`` list of more than two values into a temporary
    index, built again each time the statement runs and searched for every row: about
    5 µs a row of a survey's batch, more than the rest of storing it.

    The table's text is edited in place, as SQLite's documentation describes for a
    change of CHECK constraints ("ALTER TABLE", making other kinds of table schema
    changes): no row is copied or read, so a store of 10^8 deals is upgraded at once.
    A file whose text is not the one version 1 wrote is left as it is, as is one that
    this SQLite refuses to edit (its defensive mode): the same rule, checked slower."""
    row = c.execute(
        "SELECT sql FROM sqlite_master WHERE type = 'table' AND name = 'survey_results'"
    ).fetchone()
    if row is None or str(row[0]).count(_VERDICT_IN) != 1:
        return
    version = int(c.execute("PRAGMA schema_version").fetchone()[0])
    c.execute("PRAGMA writable_schema = ON")
    try:
        c.execute(
            "UPDATE sqlite_master SET sql = ? WHERE type = 'table' AND name = 'survey_results'",
            (str(row[0]).replace(_VERDICT_IN, _VERDICT_OR),),
        )
    except sqlite3.DatabaseError:
        return  # schema edits refused: the text stays, the rule is the same
    finally:
        c.execute("PRAGMA writable_schema = OFF")
    c.execute(f"PRAGMA schema_version = {version + 1}")  # other connections read it again
    c.execute("SELECT verdict FROM survey_results LIMIT 0").fetchall()  # it parses


SURVEY: Final = Schema(
    "survey",
    (_V1, _V2_CLAIMS, _V3_RATINGS, _V4_PAR, _v5_verdict_check, _V6_COUNTS),
    legacy_version=_legacy_version,
)
"""The survey tables in eightoff's one schema-versioning scheme (:mod:`eightoff.store.db`):
version 1 the results, runs and rules; version 2 adds the claims that share work;
version 3 the deals' ratings; version 4 their par (``survey_par``: per deal and count,
proven or its bounds); version 5 the results' verdict check in a form SQLite checks
cheaply (:func:`_v5_verdict_check`; the same rule); version 6 each solution's length in
player moves and single-card moves (``player``, ``single``; the columns are added, no
row is rewritten: rows stored before have neither)."""
SCHEMA_VERSION: Final = SURVEY.version

ROWS_PER_STATEMENT: Final = 500
"""Rows stored by one INSERT statement (fewer where SQLite takes fewer parameters)."""


@functools.cache
def _upsert(n: int) -> str:
    """The statement that stores ``n`` rows at once: parameters ?1-?3 the variant, the
    rules signature and the run, then each row's deal, verdict, length (0 or NULL: no
    solution; stored as NULL), states, seconds, player moves and single-card moves (kept
    for a solved deal only). One statement for many rows, not
    ``executemany`` of one row each: SQLite's cost of running a statement (binding the
    same three values, the check constraints' set-up) is paid per statement.

    A decided verdict replaces an unknown one (a retry with larger limits); nothing else
    is ever overwritten, so a deal stored twice by two runs is still one row."""
    values = ", ".join(["(?, ?, ?, ?, ?, ?, ?)"] * n)
    return f"""
INSERT INTO survey_results (variant, rules, deal, verdict, length, states, seconds, run,
                            player, single)
SELECT ?1, ?2, column1, column2, NULLIF(column3, 0), column4, column5, ?3,
       CASE WHEN column2 = 'solved' THEN column6 END,
       CASE WHEN column2 = 'solved' THEN column7 END
FROM (VALUES {values}) WHERE true
ON CONFLICT (variant, rules, deal) DO UPDATE SET
    verdict = excluded.verdict, length = excluded.length, states = excluded.states,
    seconds = excluded.seconds, run = excluded.run, player = excluded.player,
    single = excluded.single
WHERE survey_results.verdict = 'unknown'
"""


ROW_FIELDS: Final = 7
"""The values of one row as :func:`_upsert` takes them (:data:`Row`)."""


Row = tuple[int, Verdict, int | None, int, float, int | None, int | None]
"""One solved deal as workers return it: (deal, verdict, length, states, seconds, player
moves, single-card moves); the length as the solution lists its moves, the two counts
those of :mod:`eightoff.counts` (None, or anything for a deal not solved: stored as
NULL). The file holds the verdict's value ("solved", "lost", "unknown"); reading turns
it back into a :class:`~eightoff.verdict.Verdict`."""

ParRow = tuple[int, bool, bool, int, int | None, int, float]
"""One deal's par as a par survey stores it: (deal, optimal, lost, lower bound, upper
bound or None, states, seconds), in one count (player or single-card moves)."""

# A stored par is replaced only by a better one: proven over unproven, else tighter
# bounds (a higher lower bound or a lower upper bound), never the other way.
_UPSERT_PAR: Final = """
INSERT INTO survey_par (variant, rules, deal, count, optimal, lost, lower_bound, upper_bound,
                        states, seconds, run)
VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
ON CONFLICT (variant, rules, deal, count) DO UPDATE SET
    optimal = excluded.optimal, lost = excluded.lost,
    lower_bound = MAX(survey_par.lower_bound, excluded.lower_bound),
    upper_bound = CASE WHEN survey_par.upper_bound IS NULL THEN excluded.upper_bound
                       WHEN excluded.upper_bound IS NULL THEN survey_par.upper_bound
                       ELSE MIN(survey_par.upper_bound, excluded.upper_bound) END,
    states = excluded.states, seconds = excluded.seconds, run = excluded.run
WHERE survey_par.optimal = 0
"""

RatingRow = tuple[int, str, float, str]
"""One rated deal as workers return it: (deal, level name, score, formula version)."""


class RowBlock(NamedTuple):
    """The rows of consecutive deals as columns (what the compiled batch path returns,
    no Python object per deal): deal ``first + i`` has verdict ``verdicts[i]`` (a
    :class:`~eightoff.verdict.Verdict` or its word), solution length ``lengths[i]`` (0:
    none, stored as NULL), ``states[i]``, ``seconds[i]``, and the solution's player
    moves ``player[i]`` and single-card moves ``single[i]`` (kept for a solved deal)."""

    first: int
    verdicts: Sequence[str]
    lengths: Sequence[int]
    states: Sequence[int]
    seconds: Sequence[float]
    player: Sequence[int]
    single: Sequence[int]


_VERDICT_VALUES: Final[dict[str, str]] = {v.value: v.value for v in Verdict}
"""A row's verdict (a Verdict, or its word) as stored; a dict lookup, not Verdict(v) per
row (a StrEnum member and its word are equal keys)."""

# A newer rating (a rerun, perhaps with a newer formula) replaces the stored one.
_UPSERT_RATING: Final = """
INSERT INTO survey_ratings (variant, rules, deal, level, score, formula)
VALUES (?, ?, ?, ?, ?, ?)
ON CONFLICT (variant, rules, deal) DO UPDATE SET
    level = excluded.level, score = excluded.score, formula = excluded.formula
"""

CSV_COLUMNS: Final = (
    "variant",
    "deal",
    "verdict",
    "length",
    "states",
    "seconds",
    "solver_version",
    "rules",
    "time_limit",
    "state_limit",
    "run",
    "run_started_at",
    "player_moves",
    "single_card_moves",
    "cells",
    "foundation_retrieval",
    "strict_single",
    "level",
    "score",
    "rating_formula",
    "par_player_optimal",
    "par_player_lower",
    "par_player_upper",
    "par_single_optimal",
    "par_single_lower",
    "par_single_upper",
    "par_player_lost",
    "par_single_lost",
)
"""The columns of ``survey export --csv``: a deal's verdict and its run, the rules it was
played under (the signature, then the house rules read from it), its rating, and its par
in both counts (a deal the par search proved lost: ``par_*_lost`` 1, ``par_*_optimal``
0 and no bounds); empty where a deal has none (a deal surveyed only for par has no
verdict)."""


def _plain(value: object) -> object:
    if isinstance(value, Enum):
        return value.value
    if isinstance(value, tuple):
        return [_plain(v) for v in value]
    return value


def rules_json(rules: Rules) -> str:
    """The rules that decide play, as canonical JSON (names and presentation left out)."""
    fields = {
        f.name: _plain(getattr(rules, f.name))
        for f in dataclasses.fields(rules)
        if f.name not in _COSMETIC_FIELDS
    }
    return json.dumps(fields, sort_keys=True, separators=(",", ":"))


def rules_signature(rules: Rules) -> str:
    """A short stable name of the rules: the first 16 hex digits of SHA-256 of
    :func:`rules_json`. Same game, same signature; any change of play, a new one."""
    return hashlib.sha256(rules_json(rules).encode()).hexdigest()[:16]


PENDING_CHUNK = 1 << 18
"""Deal numbers :meth:`SurveyStore.pending` reads at a time (see there)."""


def _done(
    retry_unknown: bool, formula: str | None, par: str | None = None
) -> tuple[str, tuple[object, ...]]:
    """The deals of ``variant``, ``rules``, lo…hi that a survey has nothing left to do
    for, as SQL over ``survey_results s`` (``WHERE`` included; its parameters are
    variant, rules, lo, hi, then the returned ones): stored (with ``retry_unknown``:
    with a verdict) and, when the survey rates (``formula``), rated with ``formula``.
    A par survey's (``par``, the count): its par stored in that count (with
    ``retry_unknown``: proven, or the deal proven lost), over ``survey_par s``."""
    if par is not None:
        sql = (
            "FROM survey_par s WHERE s.variant = ? AND s.rules = ? AND s.deal BETWEEN ? AND ?"
            " AND s.count = ?"
        )
        return sql + (" AND (s.optimal OR s.lost)" if retry_unknown else ""), (par,)
    sql = "FROM survey_results s WHERE s.variant = ? AND s.rules = ? AND s.deal BETWEEN ? AND ?"
    params: tuple[object, ...] = ()
    if retry_unknown:
        sql += " AND s.verdict != 'unknown'"
    if formula is not None:
        sql += (
            " AND EXISTS (SELECT 1 FROM survey_ratings g WHERE g.variant = s.variant"
            " AND g.rules = s.rules AND g.deal = s.deal AND g.formula = ?)"
        )
        params = (formula,)
    return sql, params


def _claims_key(signature: str, par: str | None) -> str:
    """What ``survey_claims.rules`` holds for a survey of the rules ``signature``: the
    signature, or for a par survey the signature and the count (a par survey and a
    verdict survey of the same deals do different work, so neither waits on the other's
    claims)."""
    return signature if par is None else f"{signature} par:{par}"


def _claimed(
    c: sqlite3.Connection, variant: str, key: str, lo: int, hi: int, but: int | None = None
) -> int:
    """How many deals of lo…hi the claims under ``key`` hold (those of owners other than
    ``but``, when given)."""
    sql = (
        "SELECT TOTAL(MIN(last, ?) - MAX(first, ?) + 1) FROM survey_claims"
        " WHERE variant = ? AND rules = ? AND last >= ? AND first <= ?"
    )
    params: tuple[object, ...] = (hi, lo, variant, key, lo, hi)
    if but is not None:
        sql, params = sql + " AND owner != ?", (*params, but)
    return int(c.execute(sql, params).fetchone()[0])


@dataclass(frozen=True, slots=True)
class Counts:
    solved: int = 0
    lost: int = 0
    unknown: int = 0

    @property
    def total(self) -> int:
        return self.solved + self.lost + self.unknown

    @classmethod
    def of(cls, tally: Mapping[Verdict, int]) -> Counts:
        """From a number of deals per verdict (a verdict missing counts 0)."""
        return cls(
            tally.get(Verdict.SOLVED, 0), tally.get(Verdict.LOST, 0), tally.get(Verdict.UNKNOWN, 0)
        )

    def by_verdict(self) -> dict[Verdict, int]:
        """The number of deals per verdict (the inverse of :meth:`of`)."""
        return {Verdict.SOLVED: self.solved, Verdict.LOST: self.lost, Verdict.UNKNOWN: self.unknown}


class Pending:
    """The deals of a range not yet stored, as runs of consecutive numbers, handed
    out in batches (each batch a tuple of inclusive (first, last) runs)."""

    def __init__(self, runs: Iterable[tuple[int, int]]) -> None:
        self._runs = [(a, b) for a, b in runs if a <= b]
        self._runs.reverse()  # pop from the end = lowest deal first
        self.remaining = sum(b - a + 1 for a, b in self._runs)

    def __bool__(self) -> bool:
        return self.remaining > 0

    def take(self, count: int) -> tuple[tuple[int, int], ...]:
        """The next ``count`` pending deals (fewer at the end)."""
        out: list[tuple[int, int]] = []
        while count > 0 and self._runs:
            a, b = self._runs.pop()
            if b - a + 1 > count:
                out.append((a, a + count - 1))
                self._runs.append((a + count, b))
                self.remaining -= count
                count = 0
            else:
                out.append((a, b))
                self.remaining -= b - a + 1
                count -= b - a + 1
        return tuple(out)


Runs = tuple[tuple[int, int], ...]
"""Deal numbers as inclusive (first, last) runs."""


@dataclass(frozen=True, slots=True)
class Claim:
    """What :meth:`SurveyStore.claim` handed out."""

    runs: Runs
    """The deals claimed (empty when none is left to claim)."""
    cursor: int
    """Where the next claim may start looking: every deal below it is stored or
    claimed by this owner."""
    stored: tuple[tuple[int, Verdict], ...] = ()
    """The claimed deals that already have a verdict, with it: a rating survey claims
    them to rate them only (the verdict is kept, the deal is not solved again)."""


def _process_start(pid: int) -> str:
    """The start time of process ``pid`` (Linux: clock ticks after boot), "" if unknown:
    with the pid it names one process, even when pids are reused."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return ""
    fields = stat[stat.rfind(")") + 2 :].split()
    return fields[19] if len(fields) > 19 else ""


def _alive_here(pid: int, started: str) -> bool:
    """Is process ``pid`` (started at ``started``) still running on this host?"""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        pass
    except OSError:
        return True
    now = _process_start(pid)
    if started and now and now != started:
        return False  # the pid was reused by another process
    try:
        state = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return True  # not Linux: the signal said it exists
    return state[state.rfind(")") + 2 :][:1] != "Z"  # a zombie is dead


def default_store_path() -> Path:
    """Where surveys are kept unless ``--db`` says otherwise."""
    return default_data_dir() / "survey.sqlite3"


class SurveyStore:
    """An open survey store. Use as a context manager, or call :meth:`close`."""

    def __init__(self, path: str | os.PathLike[str], *, create: bool = True) -> None:
        self.path = Path(path)
        if create:
            self._db: Database = connect(self.path, SURVEY)
            self._rows_per_statement = self._statement_rows()
            return
        if not self.path.exists():
            raise StoreError(Message("survey.store.none", path=str(self.path)))
        # as it is: a file this refuses keeps its journal mode (no switch to WAL)
        self._db = Database(self.path, wal=False)
        try:
            version = self._db.version(SURVEY.name)
            if version == 0:
                with self._reading() as c:
                    version = _legacy_version(c)
        except BaseException:
            self._db.close()
            raise
        if version == 0:
            self._db.close()
            raise StoreError(Message("survey.store.not_a_store", path=str(self.path)))
        if version > SURVEY.version:
            self._db.close()
            raise StoreError(
                Message(
                    "survey.store.newer", path=str(self.path), version=version, ours=SURVEY.version
                )
            )
        self._rows_per_statement = self._statement_rows()

    # -- plumbing -----------------------------------------------------------------

    def _statement_rows(self) -> int:
        """How many rows one INSERT may store here: :data:`ROWS_PER_STATEMENT`, or fewer
        where this SQLite takes fewer parameters (999 before SQLite 3.32)."""
        with self._reading() as c:
            most = c.getlimit(sqlite3.SQLITE_LIMIT_VARIABLE_NUMBER)
        return max(1, min(ROWS_PER_STATEMENT, (most - 3) // ROW_FIELDS))

    @contextmanager
    def _reading(self) -> Iterator[sqlite3.Connection]:
        with self._db.read() as c, self._db.errors("read"):
            yield c

    def transaction(self) -> AbstractContextManager[sqlite3.Connection]:
        return self._db.transaction()

    def close(self) -> None:
        self._db.close()

    def __enter__(self) -> SurveyStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- writing ------------------------------------------------------------------

    def register_rules(self, rules: Rules) -> str:
        """Record the rules a survey runs under; return their signature."""
        signature = rules_signature(rules)
        with self.transaction() as c:
            c.execute(
                "INSERT OR IGNORE INTO survey_rules (signature, variant, rules_json)"
                " VALUES (?, ?, ?)",
                (signature, rules.id, rules_json(rules)),
            )
        return signature

    def start_run(
        self,
        *,
        solver_version: str,
        time_limit: float | None,
        state_limit: int | None,
        backend: str,
    ) -> int:
        """Record a survey invocation; return its id (every row it writes names it)."""
        now = datetime.now(UTC).isoformat(timespec="seconds")
        with self.transaction() as c:
            cur = c.execute(
                "INSERT INTO survey_runs (started_at, solver_version, time_limit, state_limit,"
                " backend) VALUES (?, ?, ?, ?, ?)",
                (now, solver_version, time_limit, state_limit, backend),
            )
        assert cur.lastrowid is not None
        return cur.lastrowid

    def write(
        self,
        variant: str,
        signature: str,
        run: int,
        rows: Sequence[Row] = (),
        *,
        blocks: Sequence[RowBlock] = (),
        claimed: tuple[int, Runs] | None = None,
        ratings: Sequence[RatingRow] = (),
    ) -> int:
        """Store one batch in one transaction; return how many rows were new or upgraded
        (a deal already decided is left as it is). ``rows`` and ``blocks`` (the same
        rows as arrays, :class:`RowBlock`): the batch's deals. ``claimed`` = (owner,
        runs): the batch's claims, deleted in the same transaction. ``ratings``: the
        batch's ratings (a deal's stored rating is replaced by a new one)."""
        try:
            with self.transaction() as c:
                before = c.total_changes
                # rows come from workers (other processes, perhaps other machines); a
                # word that is not a verdict stops here, before the file (a KeyError)
                values = _VERDICT_VALUES
                parts: list[Iterable[tuple[object, ...]]] = [
                    [(d, values[v], n, s, t, p, k) for d, v, n, s, t, p, k in rows]
                ]
                for b in blocks:
                    wrong = set(b.verdicts) - values.keys()
                    if wrong:
                        raise KeyError(min(map(str, wrong)))
                    deals = range(b.first, b.first + len(b.verdicts))
                    parts.append(
                        zip(
                            deals,
                            b.verdicts,
                            b.lengths,
                            b.states,
                            b.seconds,
                            b.player,
                            b.single,
                            strict=True,
                        )
                    )
                flat = chain.from_iterable(chain.from_iterable(parts))
                step = ROW_FIELDS * self._rows_per_statement
                while part := tuple(islice(flat, step)):
                    c.execute(_upsert(len(part) // ROW_FIELDS), (variant, signature, run, *part))
                changed = c.total_changes - before
                c.executemany(
                    _UPSERT_RATING,
                    [(variant, signature, d, lv, sc, f) for d, lv, sc, f in ratings],
                )
                if claimed is not None:
                    self._unclaim(c, variant, signature, *claimed)
        except sqlite3.Error as exc:
            raise StoreError(
                Message("survey.cannot_store", db=str(self.path), error=str(exc))
            ) from None
        except (KeyError, TypeError) as exc:
            raise ValueError(f"{exc.args[0]!r} is not a verdict: nothing stored") from None
        return changed

    def write_par(
        self,
        variant: str,
        signature: str,
        run: int,
        count: str,
        rows: Sequence[ParRow],
        claimed: tuple[int, Runs] | None = None,
    ) -> int:
        """Store a batch of par results in one transaction; return how many rows were
        new or improved (a proven par is never replaced). ``claimed`` = (owner, runs):
        the par survey's claims on them, deleted in the same transaction."""
        try:
            with self.transaction() as c:
                before = c.total_changes
                c.executemany(
                    _UPSERT_PAR,
                    [
                        (variant, signature, d, count, int(o), int(lo), lb, ub, st, t, run)
                        for d, o, lo, lb, ub, st, t in rows
                    ],
                )
                changed = c.total_changes - before
                if claimed is not None:
                    self._unclaim(c, variant, _claims_key(signature, count), *claimed)
                return changed
        except sqlite3.Error as exc:
            raise StoreError(
                Message("survey.cannot_store_par", db=str(self.path), error=str(exc))
            ) from None

    def par_rows(
        self, variant: str, signature: str, count: str, start: int = 1, end: int = MAX_STORED_DEAL
    ) -> list[ParRow]:
        """Every stored par of start…end in ``count``, by deal."""
        with self._reading() as c:
            if not _has_table(c, "survey_par"):
                return []
            return [
                (d, bool(o), bool(lo), lb, ub, st, t)
                for d, o, lo, lb, ub, st, t in c.execute(
                    "SELECT deal, optimal, lost, lower_bound, upper_bound, states, seconds"
                    " FROM survey_par WHERE variant = ? AND rules = ? AND count = ?"
                    " AND deal BETWEEN ? AND ? ORDER BY deal",
                    (variant, signature, count, start, end),
                )
            ]

    # -- sharing the work -----------------------------------------------------------

    def register_owner(self) -> int:
        """Record this process as a survey owner (for its claims); return its id: a
        random one, never an id a survey that ended (or was taken for dead) had, so
        that an owner that comes back (:meth:`_renew`) is never mistaken for another."""
        with self.transaction() as c:
            while True:
                owner = secrets.randbits(62) + 1
                if c.execute("SELECT 1 FROM survey_owners WHERE id = ?", (owner,)).fetchone():
                    continue
                self._renew(c, owner)
                return owner

    def heartbeat(self, owner: int) -> None:
        """Say that ``owner`` is still running (call every HEARTBEAT_SECONDS)."""
        with self.transaction() as c:
            self._renew(c, owner)

    @staticmethod
    def _renew(c: sqlite3.Connection, owner: int) -> None:
        """Renew ``owner``'s heartbeat (inside a transaction), recording it again if
        another survey took it for dead (a survey on another host whose heartbeat was
        late): it is alive, so it goes on; the claims it lost may be solved twice, and
        a deal is still stored once."""
        now = time.time()
        if c.execute("UPDATE survey_owners SET heartbeat = ? WHERE id = ?", (now, owner)).rowcount:
            return
        pid = os.getpid()
        c.execute(
            "INSERT INTO survey_owners (id, host, pid, started, heartbeat) VALUES (?, ?, ?, ?, ?)",
            (owner, socket.gethostname(), pid, _process_start(pid), now),
        )

    @staticmethod
    def _unclaim(c: sqlite3.Connection, variant: str, key: str, owner: int, runs: Runs) -> None:
        """Delete ``owner``'s claims on ``runs`` (inside the transaction that stores them)."""
        c.executemany(
            "DELETE FROM survey_claims WHERE variant = ? AND rules = ? AND first = ? AND owner = ?",
            [(variant, key, a, owner) for a, _ in runs],
        )

    def release(self, owner: int) -> None:
        """Forget ``owner`` and every claim it holds (a survey that ends, or stops)."""
        with self.transaction() as c:
            c.execute("DELETE FROM survey_claims WHERE owner = ?", (owner,))
            c.execute("DELETE FROM survey_owners WHERE id = ?", (owner,))

    @staticmethod
    def _reap(c: sqlite3.Connection) -> None:
        """Take back the claims of dead owners (inside a transaction). An owner on this
        host is dead when its process is gone (exact, however long its batch takes);
        one on another host, when its heartbeat is older than STALE_SECONDS."""
        host = socket.gethostname()
        cutoff = time.time() - STALE_SECONDS
        dead = [
            oid
            for oid, ohost, pid, started, beat in c.execute(
                "SELECT id, host, pid, started, heartbeat FROM survey_owners"
            ).fetchall()
            if (not _alive_here(pid, started) if ohost == host else beat < cutoff)
        ]
        for oid in dead:
            c.execute("DELETE FROM survey_claims WHERE owner = ?", (oid,))
            c.execute("DELETE FROM survey_owners WHERE id = ?", (oid,))

    def claim(
        self,
        owner: int,
        variant: str,
        signature: str,
        lo: int,
        hi: int,
        count: int,
        *,
        retry_unknown: bool = False,
        formula: str | None = None,
        par: str | None = None,
    ) -> Claim:
        """Claim for ``owner`` up to ``count`` deals of lo…hi, lowest first, that are
        neither stored (with ``retry_unknown``: stored with a verdict; with ``formula``,
        a rating survey's: stored and rated with that formula; with ``par``, a par
        survey's: par stored in that count) nor claimed by another live survey of the
        same kind. One transaction: two surveys never claim the same deal."""
        done, extra = _done(retry_unknown, formula, par)
        key = _claims_key(signature, par)
        with self.transaction() as c:
            self._reap(c)
            self._renew(c, owner)  # a claim is a heartbeat too
            claims = c.execute(
                "SELECT first, last, owner FROM survey_claims WHERE variant = ? AND rules = ?"
                " AND last >= ? AND first <= ? ORDER BY first",
                (variant, key, lo, hi),
            ).fetchall()
            stored = c.execute(
                f"SELECT s.deal {done} ORDER BY s.deal", (variant, signature, lo, hi, *extra)
            )
            # Walk up from lo past stored deals and claims; collect the free runs.
            blocks = iter(claims)
            block = next(blocks, None)
            next_stored = next(stored, None)
            runs: list[tuple[int, int]] = []
            cursor: int | None = None  # lowest deal that another owner's claim holds
            d, need = lo, count
            while need > 0 and d <= hi:
                while block is not None and block[1] < d:
                    block = next(blocks, None)
                while next_stored is not None and next_stored[0] < d:
                    next_stored = next(stored, None)
                if block is not None and block[0] <= d:
                    if block[2] != owner and cursor is None:
                        cursor = d
                    d = block[1] + 1
                    continue
                if next_stored is not None and next_stored[0] == d:
                    d += 1
                    continue
                stop = hi
                if block is not None:
                    stop = min(stop, block[0] - 1)
                if next_stored is not None:
                    stop = min(stop, next_stored[0] - 1)
                stop = min(stop, d + need - 1)
                runs.append((d, stop))
                need -= stop - d + 1
                d = stop + 1
            stored.close()
            c.executemany(
                "INSERT INTO survey_claims (variant, rules, first, last, owner)"
                " VALUES (?, ?, ?, ?, ?)",
                [(variant, key, a, b, owner) for a, b in runs],
            )
            known: list[tuple[int, Verdict]] = []
            if formula is not None:  # stored deals claimed to be rated
                skip_unknown = " AND verdict != 'unknown'" if retry_unknown else ""
                for a, b in runs:
                    known += [
                        (deal, Verdict(verdict))
                        for deal, verdict in c.execute(
                            "SELECT deal, verdict FROM survey_results WHERE variant = ?"
                            f" AND rules = ? AND deal BETWEEN ? AND ?{skip_unknown} ORDER BY deal",
                            (variant, signature, a, b),
                        )
                    ]
        return Claim(tuple(runs), d if cursor is None else cursor, tuple(known))

    def stored_or_claimed(
        self,
        variant: str,
        signature: str,
        lo: int,
        hi: int,
        *,
        retry_unknown: bool = False,
        formula: str | None = None,
        par: str | None = None,
    ) -> int:
        """How many deals of lo…hi are done (stored; with ``retry_unknown`` with a
        verdict; with ``formula`` rated with it; with ``par`` their par stored in that
        count) or claimed by a live survey of the same kind, counted in one transaction
        (a batch moving from claimed to stored meanwhile is counted once)."""
        done, extra = _done(retry_unknown, formula, par)
        with self.transaction() as c:
            self._reap(c)
            stored = c.execute(
                f"SELECT COUNT(*) {done}", (variant, signature, lo, hi, *extra)
            ).fetchone()[0]
            claimed = _claimed(c, variant, _claims_key(signature, par), lo, hi)
        return int(stored) + claimed

    def claimed_by_others(
        self, owner: int, variant: str, signature: str, lo: int, hi: int, *, par: str | None = None
    ) -> int:
        """How many deals of lo…hi live surveys other than ``owner`` hold claimed (of the
        same kind: a par survey's in the count ``par``): what a survey that has nothing
        left to claim waits for."""
        with self.transaction() as c:
            self._reap(c)
            return _claimed(c, variant, _claims_key(signature, par), lo, hi, but=owner)

    # -- reading ------------------------------------------------------------------

    def pending(
        self,
        variant: str,
        signature: str,
        start: int,
        end: int,
        *,
        retry_unknown: bool = False,
        formula: str | None = None,
        chunk: int = PENDING_CHUNK,
    ) -> Pending:
        """The deals of start…end with no stored verdict (or only 'unknown', when
        ``retry_unknown``; or, with ``formula``, no rating of that formula).

        The range is read in chunks of ``chunk`` deal numbers: a chunk whose rows are
        all there is skipped on a count (which walks the index, about 0.13 µs a row),
        a chunk with none is jumped over to the next stored deal, and only a chunk with
        gaps is read deal by deal; so resuming a finished 10^7-deal survey costs a count,
        not a window over every row (about 1.2 µs a row)."""
        done, extra = _done(retry_unknown, formula)
        runs: list[tuple[int, int]] = []

        def add(a: int, b: int) -> None:
            if runs and runs[-1][1] + 1 == a:
                runs[-1] = (runs[-1][0], b)
            else:
                runs.append((a, b))

        with self._reading() as c:
            lo = start
            while lo <= end:
                params = (variant, signature, lo, end, *extra)
                first = c.execute(f"SELECT MIN(s.deal) {done}", params).fetchone()[0]
                if first is None:
                    add(lo, end)
                    break
                if first > lo:
                    add(lo, first - 1)
                    lo = first
                hi = min(end, lo + chunk - 1)
                params = (variant, signature, lo, hi, *extra)
                if c.execute(f"SELECT COUNT(*) {done}", params).fetchone()[0] < hi - lo + 1:
                    prev = lo - 1
                    for (deal,) in c.execute(f"SELECT s.deal {done} ORDER BY s.deal", params):
                        if deal > prev + 1:
                            add(prev + 1, deal - 1)
                        prev = deal
                    if prev < hi:
                        add(prev + 1, hi)
                lo = hi + 1
        return Pending(runs)

    def counts(
        self, variant: str, signature: str, start: int | None = None, end: int | None = None
    ) -> Counts:
        """How many deals of each verdict are stored (within start…end if given)."""
        with self._reading() as c:
            lo = 1 if start is None else start
            hi = MAX_STORED_DEAL if end is None else end
            found = c.execute(
                "SELECT verdict, COUNT(*) FROM survey_results WHERE variant = ? AND rules = ?"
                " AND deal BETWEEN ? AND ? GROUP BY verdict",
                (variant, signature, lo, hi),
            )
            return Counts.of({Verdict(v): n for v, n in found})

    def run_counts(self, run: int) -> Counts:
        """How many deals of each verdict the run ``run`` stored."""
        with self._reading() as c:
            found = c.execute(
                "SELECT verdict, COUNT(*) FROM survey_results WHERE run = ? GROUP BY verdict",
                (run,),
            )
            return Counts.of({Verdict(v): n for v, n in found})

    def deals_with(self, variant: str, signature: str, verdict: Verdict) -> list[int]:
        """The deal numbers with this verdict, in order."""
        with self._reading() as c:
            return [
                r[0]
                for r in c.execute(
                    "SELECT deal FROM survey_results WHERE variant = ? AND rules = ?"
                    " AND verdict = ? ORDER BY deal",
                    (variant, signature, verdict.value),
                )
            ]

    def length_histogram(self, variant: str, signature: str) -> dict[int, int]:
        """Solution length as the solutions list their moves (each card sent home one)
        → number of solved deals."""
        with self._reading() as c:
            return dict(
                c.execute(
                    "SELECT length, COUNT(*) FROM survey_results WHERE variant = ? AND rules = ?"
                    " AND verdict = 'solved' GROUP BY length ORDER BY length",
                    (variant, signature),
                ).fetchall()
            )

    def player_histogram(self, variant: str, signature: str) -> tuple[dict[int, int], int] | None:
        """Solution length in player moves → number of solved deals, over the solved
        deals stored with it; and how many solved deals were stored without it (by a
        version before the store had the column). None for a store opened as it is from
        before version 6 (no column: no player moves at all)."""
        with self._reading() as c:
            if not _has_counts(c):
                return None
            hist: dict[int, int] = {}
            without = 0
            for moves, n in c.execute(
                "SELECT player, COUNT(*) FROM survey_results WHERE variant = ? AND rules = ?"
                " AND verdict = 'solved' GROUP BY player ORDER BY player",
                (variant, signature),
            ):
                if moves is None:
                    without = int(n)
                else:
                    hist[int(moves)] = int(n)
            return hist, without

    def time_histogram(self, variant: str, signature: str) -> dict[int, int]:
        """Solve time in whole microseconds → number of deals (every verdict)."""
        with self._reading() as c:
            return dict(
                c.execute(
                    "SELECT CAST(seconds * 1000000 AS INTEGER) AS us, COUNT(*) FROM survey_results"
                    " WHERE variant = ? AND rules = ? GROUP BY us ORDER BY us",
                    (variant, signature),
                ).fetchall()
            )

    def rating_counts(self, variant: str, signature: str) -> dict[tuple[str, str], int]:
        """(rating formula, level name) → number of rated deals; empty for a store
        written before ratings were stored (it is read as it is, not upgraded)."""
        with self._reading() as c:
            if not _has_table(c, "survey_ratings"):
                return {}
            return {
                (formula, level): n
                for formula, level, n in c.execute(
                    "SELECT formula, level, COUNT(*) FROM survey_ratings"
                    " WHERE variant = ? AND rules = ? GROUP BY formula, level",
                    (variant, signature),
                )
            }

    def total_seconds(self, variant: str, signature: str) -> float:
        with self._reading() as c:
            row = c.execute(
                "SELECT TOTAL(seconds) FROM survey_results WHERE variant = ? AND rules = ?",
                (variant, signature),
            ).fetchone()
            return float(row[0])

    def solver_versions(self, variant: str, signature: str) -> dict[str, int]:
        """Solver version → number of this variant's rows it decided."""
        with self._reading() as c:
            return dict(
                c.execute(
                    "SELECT r.solver_version, COUNT(*) FROM survey_results s"
                    " JOIN survey_runs r ON r.id = s.run WHERE s.variant = ? AND s.rules = ?"
                    " GROUP BY r.solver_version ORDER BY r.solver_version",
                    (variant, signature),
                ).fetchall()
            )

    def signatures(self, variant: str) -> dict[str, int]:
        """Rules signature → number of rows stored for this variant under it."""
        with self._reading() as c:
            return dict(
                c.execute(
                    "SELECT rules, COUNT(*) FROM survey_results WHERE variant = ? GROUP BY rules",
                    (variant,),
                ).fetchall()
            )

    def variants(self) -> dict[str, int]:
        """Variant id → number of deals stored (verdicts, or par alone), by variant id."""
        with self._reading() as c:
            has_par = _has_table(c, "survey_par")
            par = " UNION SELECT variant, rules, deal FROM survey_par" if has_par else ""
            return dict(
                c.execute(
                    "SELECT variant, COUNT(*) FROM (SELECT variant, rules, deal FROM"
                    f" survey_results{par}) GROUP BY variant ORDER BY variant"
                ).fetchall()
            )

    def export_rows(self) -> Iterator[tuple[object, ...]]:
        """Every stored deal, one row each (``CSV_COLUMNS``): its verdict with its run's
        solver version and limits, the house rules of its signature, its rating and its
        par in both counts, each where stored."""
        with self._reading() as c:
            counts = "s.player, s.single" if _has_counts(c) else "NULL, NULL"
            ratings, par = _has_table(c, "survey_ratings"), _has_table(c, "survey_par")
            tables = ["survey_results"] + ["survey_ratings"] * ratings + ["survey_par"] * par
            keys = " UNION ".join(f"SELECT variant, rules, deal FROM {t}" for t in tables)
            rated = "g.level, g.score, g.formula" if ratings else "NULL, NULL, NULL"
            joins = (
                " LEFT JOIN survey_ratings g ON g.variant = k.variant AND g.rules = k.rules"
                " AND g.deal = k.deal"
                if ratings
                else ""
            )
            pars, lost = [], []
            for count in ("player", "single"):
                if par:
                    joins += (
                        f" LEFT JOIN survey_par p_{count} ON p_{count}.variant = k.variant"
                        f" AND p_{count}.rules = k.rules AND p_{count}.deal = k.deal"
                        f" AND p_{count}.count = '{count}'"
                    )
                    # a lost deal has no par: neither proven optimal nor a lower bound
                    pars.append(
                        f"CASE WHEN p_{count}.lost THEN 0 ELSE p_{count}.optimal END,"
                        f" CASE WHEN p_{count}.lost THEN NULL ELSE p_{count}.lower_bound END,"
                        f" p_{count}.upper_bound"
                    )
                    lost.append(f"p_{count}.lost")
                else:
                    pars.append("NULL, NULL, NULL")
                    lost.append("NULL")
            yield from c.execute(
                f"WITH k AS ({keys})"
                " SELECT k.variant, k.deal, s.verdict, s.length, s.states, s.seconds,"
                " r.solver_version, k.rules, r.time_limit, r.state_limit, s.run, r.started_at,"
                f" {counts}, json_extract(u.rules_json, '$.cells'),"
                " json_extract(u.rules_json, '$.foundation_retrieval'),"
                f" json_extract(u.rules_json, '$.strict_single'), {rated}, {', '.join(pars)},"
                f" {', '.join(lost)}"
                " FROM k LEFT JOIN survey_results s ON s.variant = k.variant"
                " AND s.rules = k.rules AND s.deal = k.deal"
                " LEFT JOIN survey_runs r ON r.id = s.run"
                " LEFT JOIN survey_rules u ON u.signature = k.rules"
                f"{joins} ORDER BY k.variant, k.rules, k.deal"
            )

    def integrity_check(self) -> str:
        with self._reading() as c:
            return str(c.execute("PRAGMA integrity_check").fetchone()[0])
