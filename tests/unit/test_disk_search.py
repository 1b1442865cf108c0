"""The complete search on disk (disk.h): where the in-memory complete search runs out of
memory, it goes on breadth-first with sorted files and gives the same verdicts, a
solution that replays, and, where both exhaust, the same number of distinct states;
its files are removed however it ends; its limits end it "unknown" with their reason.

FreeCell with 0 cells (Microsoft deals) keeps these fast: most deals are lost in a few
thousand states, a few are won.  A tiny memory limit forces the disk path at once."""

from __future__ import annotations

import dataclasses
import multiprocessing
import re
import resource
import subprocess
import sys
from concurrent.futures import ProcessPoolExecutor
from dataclasses import asdict
from pathlib import Path

import pytest

from eightoff.deals import deal
from eightoff.position import Move
from eightoff.rules import Rules, preset
from eightoff.solver import (
    _MOVES,
    DEFAULT_LIMITS,
    Limits,
    Lost,
    Solved,
    Unknown,
    _core,
    check_solution,
    core_rules,
    plan_for,
    solve,
    solve_deals,
)
from eightoff.solver.plans import Order, Stage
from eightoff.verdict import Verdict
from tests.cli import run_cli

FC0: Rules = preset("freecell").with_options(cells=0)
DISK = 1 << 30  # bytes: far more than these searches take

# lost with 0 cells: (deal, distinct states of the in-memory complete search)
LOST = [(3574, 3440), (1349, 107534)]
WON = 164  # won with 0 cells (Pringle's table); the complete search needs 22 169 states
BIG = 883  # lost with 0 cells after 2.6 million states: stopped by a limit here


def complete_only(rules: Rules, order: Order = Order.BEST_FIRST, beam: bool = False) -> _core.Setup:
    """The variant's main search with the complete stage only (its own states count),
    best-first unless told, without the beam search's try where the memory ends unless
    told (its states would count on top)."""
    plan = dataclasses.replace(
        plan_for(rules).main, stages=Stage.COMPLETE, complete_order=order, memory_beam=beam
    )
    return _core.Setup(core_rules(rules), asdict(plan))


def core_solve(
    rules: Rules,
    number: int,
    memory: int,
    disk: int,
    where: Path | None,
    seconds: float = 0.0,
    order: Order = Order.BEST_FIRST,
    beam: bool = False,
    threads: int = 1,
) -> tuple[int, int, tuple[Move, ...], dict[str, int]]:
    pos = deal(rules, number)
    stats: dict[str, int] = {}
    status, states, moves = _core.solve(
        complete_only(rules, order, beam),
        pos.columns,
        pos.cells,
        pos.foundations,
        0,
        seconds,
        memory,
        _MOVES,
        disk,
        None if where is None else str(where),
        stats,
        disk_threads=threads,
    )
    return status, states, moves, stats


@pytest.mark.parametrize(("number", "states"), LOST)
def test_a_lost_deal_is_lost_on_disk_with_as_many_states_as_in_memory(
    tmp_path: Path, number: int, states: int
) -> None:
    status, entered, _, _ = core_solve(FC0, number, 1 << 30, 0, None)
    assert (status, entered) == (_core.LOST, states)
    # 1 MiB: the in-memory search stops at its first check, the disk search takes over
    status, total, _, stats = core_solve(FC0, number, 1 << 20, DISK, tmp_path)
    assert status == _core.LOST
    # the same relation, exhausted: every distinct state counted once, no more, no less
    assert total == states and 0 < stats["states"] < states and stats["layers"] > 3
    assert stats["peak"] > 0 and list(tmp_path.iterdir()) == []


@pytest.mark.parametrize(("number", "states"), LOST)
def test_the_depth_first_complete_search_is_taken_over_on_disk(
    tmp_path: Path, number: int, states: int
) -> None:
    """FreeCell with fewer cells searches depth-first (plans.py): where its memory ends
    the search on disk takes over every state it entered, and the kids of its stack's
    frames as the states left to expand, so the verdict is the same and every distinct
    state is counted once, as in memory (it started again from the root before, and
    counted the depth-first search's states on top)."""
    assert plan_for(FC0).main.complete_order is Order.DEPTH_FIRST
    status, entered, _, _ = core_solve(FC0, number, 1 << 30, 0, None, order=Order.DEPTH_FIRST)
    assert (status, entered) == (_core.LOST, states)
    on_disk = []
    for memory in (1, 1 << 20):  # stopped at its first check, and (1349) deeper
        status, total, _, stats = core_solve(
            FC0, number, memory, DISK, tmp_path, order=Order.DEPTH_FIRST
        )
        assert status == _core.LOST and total == states and stats["states"] < states
        assert list(tmp_path.iterdir()) == []
        on_disk.append(stats["states"])
    assert on_disk[0] > 0


def test_a_depth_first_search_taken_over_lets_its_stack_go(tmp_path: Path) -> None:
    """Once the search on disk has taken a deep depth-first search over, the searches
    before hold next to nothing beside its buffer (15/16 of --memory), so the process
    stays within --memory: FreeCell 1568 with 1 cell at 4 MiB kept 2.6 MB of its stack
    (65% of the limit) before the stack was freed, and 982 with 2 cells about 3.5 GB at
    --memory 15G."""
    rules = preset("freecell").with_options(cells=1)
    memory = 4 << 20
    pos = deal(rules, 1568)
    stats: dict[str, int] = {}
    status, _, _ = _core.solve(
        complete_only(rules, Order.DEPTH_FIRST),
        pos.columns, pos.cells, pos.foundations,
        400_000, 0.0, memory, _MOVES, DISK, str(tmp_path), stats,
    )  # fmt: skip
    assert status == _core.STATE_LIMIT and stats["layers"] > 0
    assert stats["held"] < memory // 16
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("order", [Order.BEST_FIRST, Order.DEPTH_FIRST])
def test_the_disk_holds_each_state_once_in_less_than_its_record(
    tmp_path: Path, order: Order
) -> None:
    """What decides how large a deal the disk can prove lost: the bytes its files hold
    at their peak.  Each state is on disk once (the layers are the seen states too), its
    record packed (the difference from the record before it) and no parent kept (a win
    finds its parents again), and the runs of the layer being made are packed too, so
    the peak is under 10 bytes a state.  It was 64 while a seen file was kept beside the
    layers and rewritten for each, 23 before the files were packed, and 12.8 while each
    state's parent's index was kept (5 bytes)."""
    number, states = LOST[1]
    status, total, _, stats = core_solve(FC0, number, 1 << 20, DISK, tmp_path, order=order)
    assert status == _core.LOST and total == states and stats["layers"] > 10
    assert stats["peak"] < 10 * states


@pytest.mark.parametrize(
    ("entries", "distinct"),
    [(0, 0), (1, 0), (64, 0), (65, 0), (3_000, 0), (200_000, 0), (50_000, 1), (50_000, 7),
     (50_000, 5_000)],
)  # fmt: skip
def test_the_radix_sort_of_the_children_orders_them_as_the_comparison_sort(
    entries: int, distinct: int
) -> None:
    """Each buffer is sorted before it is written as a run (a take-over's entries, a
    record and its parent's; a layer's children, records alone), and the merge finds a
    state's copies as neighbours: a wrong order would keep a state twice or drop one.
    The radix sort the search runs gives, on any buffer (tiny ones, ones where many
    entries share a record, one record for all), the very sequence the comparison sort
    gives: by record, then by parent."""
    radix, _ = _core.check_drec_sort(entries, 11, True, distinct)
    plain, _ = _core.check_drec_sort(entries, 11, False, distinct)
    assert radix == plain != 0
    # a layer's children are sorted as records alone (no parent): the same
    radix, _ = _core.check_drec_sort(entries, 11, True, distinct, records=True)
    plain, _ = _core.check_drec_sort(entries, 11, False, distinct, records=True)
    assert radix == plain != 0


def test_many_small_runs_merge_to_the_same_count(tmp_path: Path) -> None:
    # a memory of 1 byte: 128 children a run (the least buffer, 64 entries of 32 bytes,
    # holds 128 records), runs merged 32 at a time, again and again
    number, states = LOST[0]
    status, total, _, _ = core_solve(FC0, number, 1, DISK, tmp_path)
    assert status == _core.LOST and total == states
    assert list(tmp_path.iterdir()) == []


def test_the_public_solve_goes_on_on_disk_and_proves_the_loss(tmp_path: Path) -> None:
    number, _ = LOST[1]
    pos = deal(FC0, number)
    off = solve(pos, Limits(memory_mb=1))
    assert isinstance(off, Unknown) and off.reason == "memory limit reached"
    on = solve(pos, Limits(memory_mb=1, disk_mb=64, disk_dir=str(tmp_path)))
    assert isinstance(on, Lost)
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("order", [Order.BEST_FIRST, Order.DEPTH_FIRST])
def test_a_won_deal_is_solved_on_disk_and_the_solution_replays(
    tmp_path: Path, order: Order
) -> None:
    pos = deal(FC0, WON)
    result = solve(pos, Limits(memory_mb=1, disk_mb=64, disk_dir=str(tmp_path)))
    assert isinstance(result, Solved)
    check_solution(pos, result.moves, f"FreeCell 0 cells deal {WON}")  # the Python engine
    assert list(tmp_path.iterdir()) == []
    # the complete stage alone: found on disk, traced back through the layer files (and,
    # depth-first, down the frames of the stack taken over)
    status, _, moves, stats = core_solve(FC0, WON, 1 << 20, DISK, tmp_path, order=order)
    assert status == _core.SOLVED and stats["states"] > 0
    check_solution(pos, moves)


def test_the_time_limit_stops_it_and_its_files_are_removed(tmp_path: Path) -> None:
    status, _, _, stats = core_solve(FC0, BIG, 1 << 20, DISK, tmp_path, seconds=0.5)
    assert status == _core.TIME_LIMIT and stats["states"] > 0
    assert list(tmp_path.iterdir()) == []


def test_the_disk_limit_ends_it_unknown_with_its_reason(tmp_path: Path) -> None:
    pos = deal(FC0, BIG)
    result = solve(pos, Limits(memory_mb=1, disk_mb=1, disk_dir=str(tmp_path)))
    assert isinstance(result, Unknown) and result.reason == "disk limit reached"
    assert list(tmp_path.iterdir()) == []


def test_the_state_limit_counts_the_states_expanded_on_disk(tmp_path: Path) -> None:
    pos = deal(FC0, BIG)
    result = solve(pos, Limits(memory_mb=1, states=20_000, disk_mb=64, disk_dir=str(tmp_path)))
    assert isinstance(result, Unknown) and result.reason == "state limit reached"
    assert result.states == 20_000
    assert list(tmp_path.iterdir()) == []


def test_a_directory_left_by_a_killed_search_is_removed_by_the_next(tmp_path: Path) -> None:
    gone = subprocess.run(
        [sys.executable, "-c", "import os; print(os.getpid())"],
        check=True,
        capture_output=True,
        text=True,
    )
    stale = tmp_path / f"eightoff-disk-{int(gone.stdout)}-abcdef"
    stale.mkdir()
    (stale / "L0").write_bytes(b"x" * 32)
    mine = tmp_path / "eightoff-disk-1-keepme"  # pid 1 is alive: not ours to remove
    mine.mkdir()
    status, _, _, _ = core_solve(FC0, LOST[0][0], 1 << 20, DISK, tmp_path)
    assert status == _core.LOST
    assert list(tmp_path.iterdir()) == [mine]


def _growth_in_memory(memory: int) -> tuple[int, int]:
    """FreeCell 1568 with 1 cell, the complete search alone (depth-first, its plan's
    order), without the disk or the beam, stopped by `memory` bytes: (status, how many
    bytes the process's peak RSS grew by during the search)."""
    rules = preset("freecell").with_options(cells=1)
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss << 10
    status, _, _, _ = core_solve(rules, 1568, memory, 0, None, order=Order.DEPTH_FIRST)
    return status, (resource.getrusage(resource.RUSAGE_SELF).ru_maxrss << 10) - before


def test_the_complete_search_stops_at_its_memory_limit_and_not_past_it() -> None:
    """--memory is what the search may take: its index of seen states grows by doubling,
    which holds the old index and the new one at once, and at 160 MiB that doubling
    (to 64 MiB, at about 5.9 million states) would take the search's tables past the
    limit before the limit's check stopped it (the process grew by 183 MiB; a search of
    8G took 11.6 GiB). A doubling that would pass the limit is the limit. Run in a
    process of its own, so that its peak RSS is this search's."""
    with ProcessPoolExecutor(max_workers=1, mp_context=multiprocessing.get_context("fork")) as pool:
        status, grown = pool.submit(_growth_in_memory, 160 << 20).result()
    assert status == _core.MEMORY_LIMIT
    assert grown <= 160 << 20, f"the search grew the process by {grown >> 20} MiB"


def test_two_packs_stay_in_memory() -> None:
    # Double FreeCell: no fixed-size record to sort; the search ends at the memory limit
    status, _, _, stats = core_solve(preset("double-freecell"), 1, 1, DISK, None)
    assert status == _core.MEMORY_LIMIT and stats["states"] == 0


def test_the_library_and_the_table_never_search_on_disk() -> None:
    assert DEFAULT_LIMITS.disk_mb == 0 and Limits(seconds=1.0).disk_mb == 0


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["solve", "1", "--disk", "lots"], "'lots' is not a disk size"),
        (["solve", "1", "--disk", "8M"], "the disk limit '8M' is out of range"),
        (["solve", "1", "--disk-dir", "/no/such/dir"], "'/no/such/dir' is not a directory"),
        (["survey", "1", "2", "--disk", "3X"], "'3X' is not a disk size"),
        (["survey", "1", "2", "--disk-dir", "/no/such/dir"], "'/no/such/dir' is not a dir"),
    ],
)
def test_a_bad_disk_option_is_one_line(
    capsys: pytest.CaptureFixture[str], args: list[str], message: str
) -> None:
    code, out, err = run_cli(capsys, *args)
    assert code == 64 and out == ""
    assert message in err and len(err.strip().splitlines()) == 1 and "Traceback" not in err


def test_a_survey_stores_a_deal_that_ends_at_the_disk_limit_as_unknown_and_keeps_its_layers(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """The disk limit is a limit like the others: the deal is stored unknown and the
    survey ends normally (it stopped with an internal error, an IndexError, before).
    The layers made before it stay, as after any other limit (the disk may be one that
    others fill too, and a search of hours would be lost): the survey says so and how to
    go on, and the same survey with a larger disk limit goes on from them and proves the
    loss."""
    db = tmp_path / "s.sqlite3"
    spill = tmp_path / "disk"
    spill.mkdir()
    survey = ("survey", str(BIG), str(BIG), "--variant", "freecell", "--cells", "0")
    common = ("--memory", "16M", "--states", "100000000", "--disk-dir", str(spill),
              "--db", str(db), "--workers", "1", "--no-progress")  # fmt: skip
    code, out, err = run_cli(capsys, *survey, *common, "--disk", "16M")
    assert code == 0 and "Traceback" not in err and "internal error" not in err
    assert "0 solved, 0 lost, 1 unknown" in out
    (kept,) = spill.iterdir()
    assert f"its search on disk is kept in {kept}" in err and "with a larger --disk" in err
    layers = re.search(r"^layers (\d+)$", (kept / "M").read_text(), re.MULTILINE)
    assert layers is not None and int(layers.group(1)) > 0
    code, out, err = run_cli(capsys, *survey, *common, "--disk", "1G", "--retry-unknown")
    assert code == 0 and "1 lost" in out
    assert list(spill.iterdir()) == []


def test_solve_says_the_disk_limit_as_its_reason(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # 16M of memory ends the search of FreeCell 0 cells deal 883; 16M of disk then ends
    # it; its layers stay for a run with more room (said in German here)
    for name in ("LC_ALL", "LC_MESSAGES", "LANGUAGE"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("LANG", "de_DE.UTF-8")
    code, out, err = run_cli(
        capsys,
        *("solve", str(BIG), "--variant", "freecell", "--cells", "0"),
        *("--memory", "16M", "--max-states", "100000000", "--disk", "16M"),
        *("--disk-dir", str(tmp_path)),
    )
    assert code == 2 and "unbekannt: Plattengrenze erreicht" in out
    (kept,) = tmp_path.iterdir()
    assert str(kept) in err and "mit größerem --disk" in err


# ----- where the memory ends, a beam search tries for a win first -----------------------

FC1: Rules = preset("freecell").with_options(cells=1)
HARD_WIN = 27899
"""Won with 1 cell (Pringle's table); the complete depth-first search reaches its win only
after 84 million states, so at 64 MiB it runs out of memory first."""


def test_where_the_memory_ends_a_beam_search_wins_a_deal_the_complete_search_cannot() -> None:
    """The complete search of FreeCell 27899 with 1 cell runs out of 64 MiB long before
    its win; the beam search that follows finds one (it was "unknown: memory limit
    reached" before), the solution plays through the engine to the win, and the
    survey's path (solve_deals) says the same."""
    limits = Limits(seconds=120.0, states=None, memory_mb=64)
    result = solve(deal(FC1, HARD_WIN), limits)
    assert isinstance(result, Solved)
    check_solution(deal(FC1, HARD_WIN), result.moves)
    block = solve_deals(FC1, HARD_WIN, 1, limits)
    assert block.verdicts() == [Verdict.SOLVED]


def test_a_beam_search_that_finds_nothing_proves_nothing() -> None:
    """A lost deal whose complete search runs out of memory stays unknown, with the
    memory limit as its reason: the beam after it is not complete."""
    result = solve(deal(FC0, BIG), Limits(seconds=120.0, states=None, memory_mb=16))
    assert isinstance(result, Unknown) and result.reason == "memory limit reached"


@pytest.mark.parametrize("order", [Order.BEST_FIRST, Order.DEPTH_FIRST])
@pytest.mark.parametrize("threads", [2, 5])
def test_layers_expanded_by_several_threads_are_the_same(
    tmp_path: Path, order: Order, threads: int
) -> None:
    """Each thread expands the entries it takes into runs of its own; the layer merged
    from them is the same file whatever the threads, so a lost deal counts every
    distinct state once in as many layers, and a win traced back from a layer made by
    several threads replays."""
    for number, states in LOST:
        alone = core_solve(FC0, number, 1 << 20, DISK, tmp_path, order=order)
        status, total, _, stats = core_solve(
            FC0, number, 1 << 20, DISK, tmp_path, order=order, threads=threads
        )
        assert (status, total) == (_core.LOST, states) == alone[:2]
        assert (stats["layers"], stats["states"]) == (alone[3]["layers"], alone[3]["states"])
    status, _, moves, stats = core_solve(
        FC0, WON, 1 << 20, DISK, tmp_path, order=order, threads=threads
    )
    assert status == _core.SOLVED and stats["states"] > 0
    check_solution(deal(FC0, WON), moves)
    assert list(tmp_path.iterdir()) == []


def test_the_state_limit_holds_with_several_threads(tmp_path: Path) -> None:
    """The threads count the states they expand together: the limit stops them at it."""
    number, states = LOST[1]
    limit = states // 2
    for threads in (1, 4):
        pos = deal(FC0, number)
        stats: dict[str, int] = {}
        status, counted, _ = _core.solve(
            complete_only(FC0), pos.columns, pos.cells, pos.foundations,
            limit, 0.0, 1 << 20, _MOVES, DISK, str(tmp_path), stats, disk_threads=threads,
        )  # fmt: skip
        assert status == _core.STATE_LIMIT and counted == limit
