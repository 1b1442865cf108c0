"""The survey store: what is missing from a range, each deal stored once, rules
signatures that follow the rules of play."""

from __future__ import annotations

import itertools
import socket
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from eightoff.rules import preset
from eightoff.store.db import StoreError
from eightoff.survey.store import SCHEMA_VERSION, Counts, Pending, Row, SurveyStore, rules_signature
from eightoff.verdict import Verdict


def open_store(tmp_path: Path) -> tuple[SurveyStore, str, int]:
    store = SurveyStore(tmp_path / "s.sqlite3")
    sig = store.register_rules(preset("eightoff"))
    run = store.start_run(solver_version="t", time_limit=None, state_limit=10, backend="test")
    return store, sig, run


def test_pending_is_exactly_the_deals_not_yet_stored(tmp_path: Path) -> None:
    store, sig, run = open_store(tmp_path)
    with store:
        rows: list[Row] = [(d, Verdict.SOLVED, 100, 5, 0.1, 30, 75) for d in (1, 2, 5, 9, 10, 40)]
        rows.append((7, Verdict.UNKNOWN, None, 10, 0.2, None, None))
        store.write("eightoff", sig, run, rows)
        pending = store.pending("eightoff", sig, 1, 12)
        assert pending.remaining == 12 - 6
        assert pending.take(100) == ((3, 4), (6, 6), (8, 8), (11, 12))
        retry = store.pending("eightoff", sig, 1, 12, retry_unknown=True)
        assert retry.take(100) == ((3, 4), (6, 8), (11, 12))
        assert store.pending("eightoff", sig, 9, 10).remaining == 0
        assert store.pending("eightoff", sig, 41, 41).take(5) == ((41, 41),)
        # Another variant's rows do not count for this one.
        fc = store.register_rules(preset("freecell"))
        assert store.pending("freecell", fc, 1, 3).take(9) == ((1, 3),)


@settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    stored=st.dictionaries(st.integers(1, 80), st.sampled_from(list(Verdict)), max_size=70),
    lo=st.integers(1, 90),
    span=st.integers(0, 90),
    chunk=st.integers(1, 12),
    retry=st.booleans(),
)
def test_pending_read_in_chunks_is_every_missing_deal_in_order(
    tmp_path_factory: pytest.TempPathFactory,
    stored: dict[int, Verdict],
    lo: int,
    span: int,
    chunk: int,
    retry: bool,
) -> None:
    """However the chunks fall on the stored runs and gaps, the pending deals are
    exactly those of lo…hi not stored (or stored unknown, when retrying), lowest first,
    as maximal runs."""
    store, sig, run = open_store(tmp_path_factory.mktemp("p"))
    hi = lo + span
    with store:
        rows: list[Row] = [
            (d, v, None if v != Verdict.SOLVED else 50, 5, 0.1, 30, 75) for d, v in stored.items()
        ]
        store.write("eightoff", sig, run, rows)
        got = store.pending("eightoff", sig, lo, hi, retry_unknown=retry, chunk=chunk)
        missing = [
            d
            for d in range(lo, hi + 1)
            if d not in stored or (retry and stored[d] == Verdict.UNKNOWN)
        ]
        assert got.remaining == len(missing)
        runs = got.take(1000)
        assert [d for a, b in runs for d in range(a, b + 1)] == missing
        assert all(b + 1 < a2 for (_, b), (a2, _) in itertools.pairwise(runs))


def test_batches_cut_runs_in_order() -> None:
    p = Pending([(1, 3), (7, 12)])
    assert p.remaining == 9
    assert p.take(2) == ((1, 2),)
    assert p.take(3) == ((3, 3), (7, 8))
    assert p.remaining == 4 and p
    assert p.take(10) == ((9, 12),)
    assert not p and p.take(1) == ()


def test_a_deal_is_stored_once_and_only_an_unknown_is_ever_replaced(tmp_path: Path) -> None:
    store, sig, run = open_store(tmp_path)
    with store:
        assert (
            store.write(
                "eightoff",
                sig,
                run,
                [
                    (1, Verdict.SOLVED, 90, 7, 0.1, 30, 75),
                    (2, Verdict.UNKNOWN, None, 10, 1.0, None, None),
                ],
            )
            == 2
        )
        # Writing the same deals again (a second survey running the same range):
        assert store.write("eightoff", sig, run, [(1, Verdict.LOST, None, 9, 0.3, None, None)]) == 0
        assert store.write("eightoff", sig, run, [(2, Verdict.SOLVED, 120, 50, 0.5, 30, 75)]) == 1
        counts = store.counts("eightoff", sig)
        assert (counts.solved, counts.lost, counts.unknown) == (2, 0, 0)
        assert store.length_histogram("eightoff", sig) == {90: 1, 120: 1}
        assert store.integrity_check() == "ok"
    with sqlite3.connect(tmp_path / "s.sqlite3") as c:
        assert c.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        assert c.execute("SELECT COUNT(*) FROM survey_results").fetchone()[0] == 2
        # the file holds the verdicts' words, as every version of eightoff wrote them
        stored = c.execute(
            "SELECT deal, verdict, typeof(verdict) FROM survey_results ORDER BY deal"
        )
        assert stored.fetchall() == [(1, "solved", "text"), (2, "solved", "text")]


def test_rules_signature_changes_with_the_rules_of_play_only() -> None:
    eightoff = preset("eightoff")
    assert rules_signature(eightoff) == rules_signature(preset("eightoff"))
    assert rules_signature(eightoff) != rules_signature(preset("eightoff-easy"))
    assert rules_signature(eightoff) != rules_signature(
        eightoff.with_options(foundation_retrieval=True)
    )
    # FreeCell and SuperMove FreeCell differ only in what the table shows: same game.
    assert rules_signature(preset("freecell")) == rules_signature(preset("supermove-freecell"))


def test_a_store_from_another_schema_version_is_refused(tmp_path: Path) -> None:
    store, _, _ = open_store(tmp_path)
    store.close()
    with sqlite3.connect(tmp_path / "s.sqlite3") as c:
        c.execute("UPDATE eightoff_schema SET version = 99 WHERE name = 'survey'")
    with pytest.raises(StoreError, match="newer eightoff"):
        SurveyStore(tmp_path / "s.sqlite3")
    with pytest.raises(StoreError, match="newer eightoff"):
        SurveyStore(tmp_path / "s.sqlite3", create=False)


def test_a_store_of_the_first_version_is_upgraded_with_its_rows(tmp_path: Path) -> None:
    from eightoff.survey.store import _V1

    path = tmp_path / "v1.sqlite3"
    sig = rules_signature(preset("eightoff"))
    with sqlite3.connect(path) as c:  # as eightoff wrote it before the claims
        c.executescript(_V1)
        c.execute("CREATE TABLE survey_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)")
        c.execute("INSERT INTO survey_meta VALUES ('schema', '1')")
        c.execute("INSERT INTO survey_rules VALUES (?, 'eightoff', '{}')", (sig,))
        c.execute("INSERT INTO survey_runs VALUES (1, 'then', 'v', NULL, 10, 'local:1')")
        c.execute(
            "INSERT INTO survey_results VALUES ('eightoff', ?, 2, 'lost', NULL, 5, 0.1, 1)", (sig,)
        )
    with SurveyStore(path, create=False) as old:  # a report reads it as it is
        assert old.counts("eightoff", sig).lost == 1
    with SurveyStore(path) as store:  # a run upgrades it
        owner = store.register_owner()
        assert store.claim(owner, "eightoff", sig, 1, 3, 5).runs == ((1, 1), (3, 3))


def test_claims_skip_stored_and_claimed_deals_and_are_released_with_the_batch(
    tmp_path: Path,
) -> None:
    store, sig, run = open_store(tmp_path)
    with store:
        store.write("eightoff", sig, run, [(3, Verdict.SOLVED, 90, 10, 0.1, 30, 75)])
        a, b = store.register_owner(), store.register_owner()
        first = store.claim(a, "eightoff", sig, 1, 10, 4)
        assert first.runs == ((1, 2), (4, 5))  # 3 is stored
        second = store.claim(b, "eightoff", sig, 1, 10, 10)
        assert second.runs == ((6, 10),)  # A's claims are skipped
        assert second.cursor == 1  # A's claim may yet come back: look there again
        assert store.claim(b, "eightoff", sig, 1, 10, 5).runs == ()
        rows: list[Row] = [(d, Verdict.LOST, None, 5, 0.1, None, None) for d in (1, 2, 4, 5)]
        store.write("eightoff", sig, run, rows, claimed=(a, first.runs))
        # 1 2 3 4 5 stored, 6…10 claimed by B: all ten are stored or claimed
        assert store.stored_or_claimed("eightoff", sig, 1, 10) == 10
        assert store.stored_or_claimed("eightoff", sig, 7, 20) == 4
        store.release(b)
        assert store.claim(a, "eightoff", sig, 1, 10, 10).runs == ((6, 10),)


def test_claims_of_a_dead_survey_are_taken_back(tmp_path: Path) -> None:
    store, sig, _ = open_store(tmp_path)
    with store:
        dead = subprocess.Popen([sys.executable, "-c", "pass"])
        dead.wait()  # a process that has exited (and been reaped): its pid is free
        with sqlite3.connect(store.path) as c:
            c.execute(
                "INSERT INTO survey_owners (id, host, pid, started, heartbeat)"
                " VALUES (90, ?, ?, '', ?)",
                (socket.gethostname(), dead.pid, time.time()),
            )
            c.execute(
                "INSERT INTO survey_owners (id, host, pid, started, heartbeat)"
                " VALUES (91, 'another-host', 1, '', ?)",
                (time.time() - 3600,),  # silent for an hour
            )
            c.execute(
                "INSERT INTO survey_claims (variant, rules, first, last, owner)"
                " VALUES ('eightoff', ?, 1, 5, 90), ('eightoff', ?, 6, 8, 91)",
                (sig, sig),
            )
        me = store.register_owner()
        assert store.claim(me, "eightoff", sig, 1, 10, 10).runs == ((1, 10),)


def test_a_live_survey_on_this_host_keeps_its_claims_however_late_its_heartbeat(
    tmp_path: Path,
) -> None:
    """A survey solving one long deal in its own process (--workers 1, --batch-size 1,
    a deal of ten minutes) renews nothing meanwhile: on this host its process says it
    is alive, so another survey does not take its deals, and once taken for dead
    anyway (by a survey on another host) it claims again instead of failing."""
    store, sig, run = open_store(tmp_path)
    with store:
        slow = store.register_owner()
        assert store.claim(slow, "eightoff", sig, 1, 10, 5).runs == ((1, 5),)
        with store.transaction() as c:  # its last heartbeat an hour ago
            c.execute("UPDATE survey_owners SET heartbeat = ? WHERE id = ?", (0.0, slow))
        other = store.register_owner()
        assert store.claim(other, "eightoff", sig, 1, 10, 10).runs == ((6, 10),)
        with store.transaction() as c:  # taken for dead elsewhere: its row and claims gone
            c.execute("DELETE FROM survey_owners WHERE id = ?", (slow,))
        rows: list[Row] = [(d, Verdict.SOLVED, 90, 5, 0.1, 30, 75) for d in range(1, 6)]
        store.write("eightoff", sig, run, rows, claimed=(slow, ((1, 5),)))
        assert store.claim(slow, "eightoff", sig, 1, 20, 3).runs == ((11, 13),)
        assert store.stored_or_claimed("eightoff", sig, 1, 20) == 13


def test_a_survey_renews_its_heartbeat_while_its_own_process_solves(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The heartbeat comes from a thread of its own, not between batches."""
    import threading

    import eightoff.survey as survey

    store, _, _ = open_store(tmp_path)
    beats = threading.Event()
    monkeypatch.setattr(survey, "HEARTBEAT_SECONDS", 0.01)
    with store:
        owner = store.register_owner()
        monkeypatch.setattr(store, "heartbeat", lambda o: beats.set() if o == owner else None)
        heart = survey.Heartbeat(store, owner)
        try:
            assert beats.wait(30)  # while this thread does something else
        finally:
            heart.stop()
        beats.clear()
        assert not heart._thread.is_alive()


def test_a_batch_larger_than_one_statement_is_stored_row_for_row(tmp_path: Path) -> None:
    """A batch goes to the file in statements of many rows each: every row arrives as
    it was given (a length of None or 0 is no solution), an unknown is still the only
    verdict replaced, and the count of new rows spans the statements."""
    from eightoff.survey.store import ROWS_PER_STATEMENT

    store, sig, run = open_store(tmp_path)
    n = 2 * ROWS_PER_STATEMENT + 7
    words = (Verdict.SOLVED, Verdict.LOST, Verdict.UNKNOWN)

    def length(d: int) -> int | None:
        return (d % 90) + 1 if d % 3 == 0 else (0 if d % 2 else None)

    rows: list[Row] = [
        (d, words[d % 3], length(d), d * 7, d / 1e6, d % 40, d % 70 + 1) for d in range(3, 3 + n)
    ]
    with store:
        assert store.write("eightoff", sig, run, rows) == n
        retry: list[Row] = [(d, Verdict.SOLVED, 50, 1, 0.5, 30, 75) for d in range(3, 3 + n)]
        unknown = sum(v is Verdict.UNKNOWN for _, v, *_ in rows)
        assert store.write("eightoff", sig, run, retry) == unknown
    with sqlite3.connect(tmp_path / "s.sqlite3") as c:
        got = c.execute(
            "SELECT deal, verdict, length, states, seconds, player, single FROM survey_results"
            " ORDER BY deal"
        ).fetchall()
    # the two counts are kept for a solved deal only
    expected = [
        (d, "solved", 50, 1, 0.5, 30, 75)
        if v is Verdict.UNKNOWN
        else (d, v.value, n or None, s, t, *((p, k) if v is Verdict.SOLVED else (None, None)))
        for d, v, n, s, t, p, k in rows
    ]
    assert got == expected


def old_store(
    path: Path, version: int, variant: str, rows: list[tuple[int, str, int | None]]
) -> str:
    """A survey store as eightoff wrote it at schema ``version``, holding ``rows`` (deal,
    verdict, length) of ``variant``; the rules signature."""
    from eightoff.store.db import Schema, connect
    from eightoff.survey.store import SURVEY

    schema = Schema("survey", SURVEY.migrations[:version], legacy_version=SURVEY.legacy_version)
    sig = rules_signature(preset(variant))
    db = connect(path, schema)
    with db.transaction() as c:
        c.execute("INSERT INTO survey_rules VALUES (?, ?, '{}')", (sig, variant))
        c.execute("INSERT INTO survey_runs VALUES (1, 'then', 'v', NULL, 10, 'local:1')")
        c.executemany(
            "INSERT INTO survey_results VALUES (?, ?, ?, ?, ?, 5, 0.1, 1)",
            [(variant, sig, d, v, n) for d, v, n in rows],
        )
    db.close()
    return sig


def v4_store(path: Path) -> str:
    """A survey store as eightoff wrote it at schema version 4 (the verdict checked
    ``IN`` a list), with deals 1, 2 and 5 stored; the rules signature."""
    return old_store(
        path, 4, "eightoff", [(1, "solved", 80), (2, "unknown", None), (5, "lost", None)]
    )


def test_a_version_4_store_is_read_as_it_is_and_upgraded_by_a_run(tmp_path: Path) -> None:
    """A store written before version 5 reports unchanged; a survey opening it checks the
    verdict in the cheaper form (the same rule: a word that is not a verdict is still
    refused by the file itself), keeps every row, and resumes where it stopped."""
    path = tmp_path / "v4.sqlite3"
    sig = v4_store(path)
    with SurveyStore(path, create=False) as old:
        assert old.counts("eightoff", sig) == Counts(1, 1, 1)
    with sqlite3.connect(path) as c:
        assert c.execute("SELECT version FROM eightoff_schema").fetchone()[0] == 4
    with SurveyStore(path) as store:
        assert store.counts("eightoff", sig) == Counts(1, 1, 1)
        assert store.pending("eightoff", sig, 1, 6).take(9) == ((3, 4), (6, 6))
        owner = store.register_owner()
        claim = store.claim(owner, "eightoff", sig, 1, 6, 9, retry_unknown=True)
        assert claim.runs == ((2, 4), (6, 6))
        store.write(
            "eightoff",
            sig,
            1,
            [(d, Verdict.SOLVED, 70, 9, 0.2, 30, 75) for d in (2, 3, 4, 6)],
            claimed=(owner, claim.runs),
        )
        assert store.counts("eightoff", sig) == Counts(5, 1, 0)
        assert store.integrity_check() == "ok"
    with sqlite3.connect(path) as c:
        assert c.execute("SELECT version FROM eightoff_schema").fetchone()[0] == SCHEMA_VERSION
        table = c.execute("SELECT sql FROM sqlite_master WHERE name = 'survey_results'")
        assert " IN " not in table.fetchone()[0]
        with pytest.raises(sqlite3.IntegrityError, match="CHECK"):
            c.execute(
                "INSERT INTO survey_results VALUES"
                " ('eightoff', ?, 9, 'won', 1, 5, 0.1, 1, NULL, NULL)",
                (sig,),
            )
    with SurveyStore(path) as again:  # opened again: nothing left to upgrade
        assert again.counts("eightoff", sig) == Counts(5, 1, 0)


def test_rows_given_as_columns_are_stored_as_the_same_rows(tmp_path: Path) -> None:
    """The batch path's arrays (RowBlock) give the file the rows a list of Row gives it;
    a word in them that is not a verdict stores nothing of the batch."""
    from array import array

    from eightoff.survey.store import RowBlock

    rows: list[Row] = [
        (10, Verdict.SOLVED, 81, 400, 0.25, 30, 75),
        (11, Verdict.LOST, None, 90, 0.5, None, None),
        (12, Verdict.UNKNOWN, None, 10**6, 2.0, None, None),
    ]
    block = RowBlock(
        10, ["solved", "lost", "unknown"], array("i", [81, 0, 0]),
        array("q", [400, 90, 10**6]), array("d", [0.25, 0.5, 2.0]), array("i", [30, 0, 0]),
        array("i", [75, 0, 0]),
    )  # fmt: skip
    found = []
    for name, as_rows, as_blocks in (("rows", rows, []), ("blocks", [], [block])):
        store, sig, run = open_store(tmp_path / name)
        with store:
            assert store.write("eightoff", sig, run, as_rows, blocks=as_blocks) == 3
            bad = block._replace(first=20, verdicts=["solved", "won", "lost"])
            with pytest.raises(ValueError, match="'won' is not a verdict"):
                store.write(
                    "eightoff",
                    sig,
                    run,
                    [(30, Verdict.LOST, None, 1, 0.1, None, None)],
                    blocks=[bad],
                )
            found.append([(*r[:6], *_counts_of(r)) for r in store.export_rows()])
    assert (
        found[0]
        == found[1]
        == [
            ("eightoff", 10, "solved", 81, 400, 0.25, 30, 75),
            ("eightoff", 11, "lost", None, 90, 0.5, None, None),
            ("eightoff", 12, "unknown", None, 10**6, 2.0, None, None),
        ]
    )


def test_a_store_from_before_par_names_its_variants(tmp_path: Path) -> None:
    """A version-3 store (no table of par yet), opened as it is, lists the variants it
    holds, as `survey report` asks without --variant."""
    path = tmp_path / "v3.sqlite3"
    old_store(path, 3, "freecell", [(1, "solved", 90), (2, "solved", 90)])
    with SurveyStore(path, create=False) as old:
        assert old.variants() == {"freecell": 2}


def test_a_store_from_before_the_two_counts_reports_what_it_holds(tmp_path: Path) -> None:
    """A version-5 store holds each solution's length as the solutions list their moves
    only. Opened as it is, its report gives those lengths and says which count they are;
    once a survey has stored new deals into it, the report gives player moves, of the new
    deals, and says how many older ones it leaves out."""
    from eightoff.survey.report import build_report

    path = tmp_path / "v5.sqlite3"
    sig = old_store(path, 5, "eightoff", [(1, "solved", 80), (2, "solved", 90), (3, "lost", None)])
    rules = preset("eightoff")
    with SurveyStore(path, create=False) as as_it_is:  # no column: no player moves
        assert as_it_is.player_histogram("eightoff", sig) is None
    old = build_report(path, rules)
    assert (old.length_count, old.length_hist, old.uncounted) == ("listed", {80: 1, 90: 1}, 0)
    assert "max 90 moves as the solutions list them" in old.text()
    with SurveyStore(path) as store:
        store.write("eightoff", sig, 1, [(4, Verdict.SOLVED, 85, 9, 0.2, 31, 77)])
        assert store.player_histogram("eightoff", sig) == ({31: 1}, 2)
        assert [_counts_of(r) for r in store.export_rows()] == [
            (None, None), (None, None), (None, None), (31, 77)
        ]  # fmt: skip
    new = build_report(path, rules)
    assert (new.length_count, new.length_hist, new.uncounted) == ("player", {31: 1}, 2)
    lengths = new.to_json()["solution_length"]
    assert (lengths["count"], lengths["histogram"], lengths["left_out"]) == ("player", {"31": 1}, 2)
    assert old.to_json()["solution_length"]["count"] == "listed"
    line = next(x for x in new.text().splitlines() if "solution length" in x)
    assert line.endswith(
        "max 31 player moves (2 solved deals, stored by an older version without their"
        " player moves, left out)"
    )


def _counts_of(row: tuple[object, ...]) -> tuple[object, object]:
    """An exported row's two counts (player moves, single-card moves), by CSV_COLUMNS."""
    from eightoff.survey.store import CSV_COLUMNS

    at = CSV_COLUMNS.index("player_moves")
    assert CSV_COLUMNS[at + 1] == "single_card_moves"
    return row[at], row[at + 1]
