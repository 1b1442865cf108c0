"""Kept searches (disk.h, "Kept searches"; eightoff.solver.kept): a search on disk that a
limit stops keeps its complete layers, and the same search run again goes on from them
to the verdict and the states count it would have reached in one run."""

from __future__ import annotations

import fcntl
import hashlib
import os
import queue
from dataclasses import asdict, replace
from pathlib import Path
from typing import Any

import pytest

from eightoff.cli.kept import KeptWatch
from eightoff.deals import deal
from eightoff.position import Move
from eightoff.rules import Rules, preset
from eightoff.solver import _MOVES, _core, check_solution, core_rules, kept_searches, plan_for
from eightoff.solver.kept import core_build, keep_words
from eightoff.solver.plans import Order, Stage
from tests.cli import run_cli

FC0: Rules = preset("freecell").with_options(cells=0)
DISK = 1 << 30
LOST = (1349, 107534)  # lost with 0 cells: (deal, distinct states of the complete search)
WON = 164  # won with 0 cells; the complete search needs 22 169 states
BIG = 883  # lost with 0 cells in 3 million states: on disk past --memory 16M


def plan_of(order: Order) -> dict[str, Any]:
    """The complete stage alone, in the given order, without the beam's try."""
    plan = replace(
        plan_for(FC0).main, stages=Stage.COMPLETE, complete_order=order, memory_beam=False
    )
    return asdict(plan)


def run(
    number: int,
    where: Path,
    states: int = 0,
    order: Order = Order.BEST_FIRST,
    build: str | None = None,
) -> tuple[int, int, tuple[Move, ...], dict[str, int]]:
    """One run of the complete search of FreeCell with 0 cells at 1 MiB of memory (on
    disk at once), kept, stopped at ``states`` (0: none)."""
    pos = deal(FC0, number)
    plan = plan_of(order)
    search, this_build = keep_words(core_rules(FC0), plan)
    stats: dict[str, int] = {}
    status, counted, moves = _core.solve(
        _core.Setup(core_rules(FC0), plan), pos.columns, pos.cells, pos.foundations,
        states, 0.0, 1 << 20, _MOVES, DISK, str(where), stats,
        disk_keep=(search, this_build if build is None else build),
    )  # fmt: skip
    return status, counted, moves, stats


def kept_dirs(where: Path) -> list[Path]:
    return sorted(where.glob("eightoff-keep-*"))


@pytest.mark.parametrize("order", [Order.BEST_FIRST, Order.DEPTH_FIRST])
def test_a_lost_deal_stopped_twice_goes_on_to_the_same_loss_and_count(
    tmp_path: Path, order: Order
) -> None:
    number, states = LOST
    status, counted, _, stats = run(number, tmp_path, states // 3, order)
    assert status == _core.STATE_LIMIT and stats["kept"] and stats["resumed"] == 0
    (kept,) = kept_dirs(tmp_path)
    first = (kept / "M").read_text()
    assert f"deal -1\nlayers {stats['layers']}" in first
    status, counted, _, stats = run(number, tmp_path, 2 * states // 3, order)
    assert status == _core.STATE_LIMIT and stats["kept"] and stats["resumed"] > 0
    assert kept_dirs(tmp_path) == [kept] and (kept / "M").read_text() != first
    assert "sittings 2\n" in (kept / "M").read_text()
    status, counted, _, stats = run(number, tmp_path, 0, order)
    # the search it would have been in one run: every distinct state once
    assert status == _core.LOST and counted == states and stats["resumed"] > 0
    assert not stats["kept"] and list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("order", [Order.BEST_FIRST, Order.DEPTH_FIRST])
def test_a_won_deal_gone_on_from_is_solved_and_its_solution_replays(
    tmp_path: Path, order: Order
) -> None:
    status, _, _, stats = run(WON, tmp_path, 15_000, order)
    assert status == _core.STATE_LIMIT and stats["kept"] and stats["layers"] > 2
    status, _, moves, stats = run(WON, tmp_path, 0, order)
    assert status == _core.SOLVED and stats["resumed"] > 2
    # traced back through the layers of both runs to the root
    check_solution(deal(FC0, WON), moves, f"FreeCell 0 cells deal {WON}")
    assert list(tmp_path.iterdir()) == []


def test_another_build_does_not_go_on_from_a_kept_search_nor_touch_it(tmp_path: Path) -> None:
    """A search by another build of the core (after an upgrade, say) neither goes on from
    a kept search nor removes it: it searches in a directory of its own, and the kept
    layers of hours stay for the build that made them (or for the user to delete)."""
    number, states = LOST
    status, _, _, stats = run(number, tmp_path, states // 2, build="an older build")
    assert status == _core.STATE_LIMIT and stats["kept"] and len(kept_dirs(tmp_path)) == 1
    assert [k.current for k in kept_searches(str(tmp_path))] == [False]
    (old,) = kept_dirs(tmp_path)
    manifest = (old / "M").read_text()
    status, counted, _, stats = run(number, tmp_path)
    assert status == _core.LOST and counted == states and stats["resumed"] == 0
    assert kept_dirs(tmp_path) == [old] and (old / "M").read_text() == manifest


def test_a_kept_search_another_process_holds_is_left_alone(tmp_path: Path) -> None:
    number, states = LOST
    status, _, _, _ = run(number, tmp_path, states // 2)
    (kept,) = kept_dirs(tmp_path)
    manifest = (kept / "M").read_text()
    with open(kept / "lock", "w") as held:
        fcntl.flock(held, fcntl.LOCK_EX | fcntl.LOCK_NB)
        status, counted, _, stats = run(number, tmp_path)
    # searched afresh in a directory of its own, which it removed
    assert status == _core.LOST and counted == states
    assert stats["resumed"] == 0 and not stats["kept"]
    assert kept_dirs(tmp_path) == [kept] and (kept / "M").read_text() == manifest


def test_a_damaged_kept_search_is_begun_afresh(tmp_path: Path) -> None:
    number, states = LOST
    run(number, tmp_path, states // 2)
    (kept,) = kept_dirs(tmp_path)
    layers = sorted(kept.glob("L*"))
    layers[-1].write_bytes(layers[-1].read_bytes()[:-16])  # a layer cut short
    status, counted, _, stats = run(number, tmp_path)
    assert status == _core.LOST and counted == states and stats["resumed"] == 0
    assert list(tmp_path.iterdir()) == []


def test_a_survey_keeps_the_search_a_limit_stopped_and_goes_on_from_it(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """Run by hand: `eightoff survey` with --disk; the deal is stored unknown, the line
    on stderr says where its search is kept, and --retry-unknown goes on from it to the
    verdict and the states count of a survey that ran it in one go."""
    number = BIG
    spill = tmp_path / "disk"
    spill.mkdir()

    def survey(db: str, states: int, *more: str) -> tuple[int, str, str]:
        return run_cli(
            capsys,
            *("survey", str(number), str(number), "--variant", "freecell", "--cells", "0"),
            *("--memory", "16M", "--states", str(states), "--disk", "1G"),
            *("--disk-dir", str(spill), "--db", str(tmp_path / db), "--workers", "1"),
            *("--no-progress", *more),
        )

    code, out, err = survey("a.sqlite3", 1_500_000)
    assert code == 0 and "0 lost, 1 unknown" in out
    (kept,) = kept_dirs(spill)
    assert f"deal #{number}: its search on disk is kept in {kept}" in err
    assert len(err.strip().splitlines()) == 1
    code, out, err = survey("a.sqlite3", 10_000_000, "--retry-unknown")
    assert code == 0 and "1 lost, 0 unknown" in out and err == ""
    assert list(spill.iterdir()) == []
    code, out, err = survey("b.sqlite3", 10_000_000)
    assert code == 0 and "1 lost, 0 unknown" in out
    rows = []
    for db in ("a", "b"):
        code, out, _ = run_cli(capsys, "survey", "export", "--csv", str(tmp_path / f"{db}.csv"),
                               "--db", str(tmp_path / f"{db}.sqlite3"))  # fmt: skip
        rows.append((tmp_path / f"{db}.csv").read_text().splitlines()[1].split(",")[:5])
    assert rows[0] == rows[1]  # deal, verdict, length, states


def test_the_core_build_is_the_hash_of_the_sources_it_was_compiled_from() -> None:
    """Not of the extension's file, which holds the checkout's path: the same code built
    in another clone must go on from a kept search and store the same survey version.
    The hash as setup.py documents it, recomputed here from the sources."""
    solver = Path(__file__).resolve().parents[2] / "src" / "eightoff" / "solver"
    h = hashlib.sha256(os.environ.get("EO_OPT", "-O3 -fno-wrapv").encode())
    for path in sorted([*solver.glob("*.h"), *solver.glob("fixed_*.c"), solver / "_core.pyx"]):
        h.update(b"\0" + path.name.encode() + b"\0" + path.read_bytes())
    assert core_build() == h.hexdigest()[:12]


def test_what_a_killed_run_began_after_its_last_layer_is_dropped(tmp_path: Path) -> None:
    """kill -9 leaves the manifest of the last complete layer (it is written to M.tmp
    and renamed) beside what the run began after it: runs, a layer half made, a manifest
    half written, full keys appended to B.  The next run drops those (B cut back to the
    keys the manifest counts, so that the keys it adds get their own ids) and goes on
    to the same loss and count."""
    number, states = LOST
    status, _, _, stats = run(number, tmp_path, states // 2)
    (kept,) = kept_dirs(tmp_path)
    n = stats["layers"]
    begun = {f"L{n}": 160, f"P{n}": 50, "R7": 320, "M.tmp": 10, "B": 37}
    for name, size in begun.items():
        with open(kept / name, "ab") as f:
            f.write(b"\x05" * size)
    status, counted, _, stats = run(number, tmp_path, n + 10)  # stopped at its first check
    assert status == _core.STATE_LIMIT and stats["resumed"] == n and stats["kept"]
    manifest = (kept / "M").read_text()
    assert f"layers {n}\n" in manifest and "big 0\n" in manifest
    left = {p.name: p.stat().st_size for p in kept.iterdir()}
    assert not {f"L{n}", f"P{n}", "R7", "M.tmp"} & left.keys() and left.get("B", 0) == 0
    status, counted, _, stats = run(number, tmp_path)
    assert status == _core.LOST and counted == states
    assert list(tmp_path.iterdir()) == []


def test_a_long_search_says_on_stderr_where_it_is_as_its_layers_are_made(
    tmp_path: Path,
) -> None:
    """A deal's search on disk may take hours, while the survey's bar and solve's output
    move only when a deal ends: the command's watcher says, each time the search has made
    layers, how many, the last one's size, the states and the disk, once per change."""
    number, states = LOST
    lines: queue.Queue[str] = queue.Queue()
    with KeptWatch(str(tmp_path), 0.0, "en", every=0.01, out=lines.put):
        status, _, _, stats = run(number, tmp_path, states // 3)
        assert status == _core.STATE_LIMIT and stats["kept"]
        (kept,) = kept_searches(str(tmp_path))
        assert kept.layers == stats["layers"] and 0 < kept.last_layer < kept.states
        said = f"{kept.layers} layers, the last of {kept.last_layer} states"
        # the lines of looks taken while the layers were being made come first; a look
        # after the search stopped says where it stopped (queue.Empty if none ever does)
        line = lines.get(timeout=30)
        while said not in line:
            line = lines.get(timeout=30)
    assert f"{kept.states} states in all" in line
    # one line per change: looking again finds nothing new, going on a new line
    watch = KeptWatch(str(tmp_path), 0.0, "de")
    assert len(watch.poll()) == 1 and watch.poll() == []
    run(number, tmp_path, 2 * states // 3)
    (again,) = watch.poll()
    assert f"{kept_searches(str(tmp_path))[0].layers} Schichten" in again and "Platte" in again
