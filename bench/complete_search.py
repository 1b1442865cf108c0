"""The complete search's speed and memory: states per second, and bytes per state.

    uv run python bench/complete_search.py                    # the default deals
    uv run python bench/complete_search.py --deals 0:883 1:39 --memory 64
    uv run python bench/complete_search.py --disk 64     # in memory vs on disk

Each deal is ``cells:number`` of Microsoft FreeCell (PySolFC's numbering) played with
that many free cells. Only the complete search runs (the only one that can prove a deal
lost; FreeCell's plan with its other stages left out), through the compiled core, so
that the states counted are the states it holds. Per deal, two runs:

* **speed**: no time limit, at most --states states and --max-mb MiB: how it ended,
  states, wall seconds and states per second, CPU seconds and states per CPU second (the
  fairer figure on a loaded machine);
* **memory**: the same search stopped by ``--memory`` MiB: the states it held when the
  limit stopped it, and the limit divided by them, the bytes a stored state costs
  (everything the search's tables take: seen states, parents, the open list).

With ``--disk MIB``, each deal is instead run twice, each in a child process of its own
(its peak RSS its own), at most --states states: in memory (no memory limit), and with
a memory limit of MIB, where the search on disk (disk.h) takes over when it is reached
and goes on with chunks of MIB: how each ended, the states counted (the same where both
end), of those the states expanded on disk, CPU seconds, states per CPU second, peak
RSS, and the most bytes the disk search's files held at once, divided by the states
expanded on disk.

The machine's load average is printed first and last: timings on a shared machine are
only comparable within one run.
"""

from __future__ import annotations

import argparse
import multiprocessing
import os
import resource
import tempfile
import time
from concurrent.futures import ProcessPoolExecutor
from dataclasses import asdict, replace

from eightoff.deals import deal
from eightoff.position import Position
from eightoff.rules import preset
from eightoff.solver import _core, core_rules, plans

DEALS = ("1:447", "1:90", "1:519", "0:883", "1:553", "2:267")
"""cells:deal: the complete search decides the first four in 0.5 to 3 million states (1:519
solved, the others lost); the last two it does not decide in 4 million."""


def load() -> str:
    one, five, fifteen = os.getloadavg()
    return f"load average {one:.2f} {five:.2f} {fifteen:.2f} on {os.cpu_count()} cores"


def complete(position: Position, states: int, mib: int) -> tuple[str, int, float, float]:
    """The complete search alone: (how it ended, states, wall seconds, CPU seconds)."""
    rules = position.rules
    search = replace(plans.plan_for(rules).main, stages=plans.Stage.COMPLETE)
    setup = _core.Setup(core_rules(rules), asdict(search))
    t0, c0 = time.perf_counter(), time.process_time()
    status, held, _ = _core.solve(
        setup, position.columns, position.cells, position.foundations, states, 0.0, mib << 20
    )
    return _core.STATUS[status], held, time.perf_counter() - t0, time.process_time() - c0


def on_disk_or_not(
    cells: int, number: int, states: int, mib: int | None
) -> tuple[str, int, int, float, int, int]:
    """The complete search in memory (mib None) or with mib MiB and the disk after:
    (how it ended, states, states expanded on disk, CPU seconds, peak RSS in bytes, disk
    peak in bytes).  Run in a
    child process of its own, so that the peak RSS is this run's."""
    position = deal(preset("freecell").with_options(cells=cells), number)
    search = replace(plans.plan_for(position.rules).main, stages=plans.Stage.COMPLETE)
    setup = _core.Setup(core_rules(position.rules), asdict(search))
    stats: dict[str, int] = {}
    c0 = time.process_time()
    with tempfile.TemporaryDirectory() as where:
        status, held, _ = _core.solve(
            setup,
            position.columns,
            position.cells,
            position.foundations,
            states,
            0.0,
            0 if mib is None else mib << 20,
            None,
            0 if mib is None else 1 << 40,
            where,
            stats,
        )
    cpu = time.process_time() - c0
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss << 10
    return _core.STATUS[status], held, stats.get("states", 0), cpu, rss, stats.get("peak", 0)


def disk_table(args: argparse.Namespace) -> None:
    print(
        f"{'deal':>8} {'where':>7} {'ended':>20} {'states':>11} {'on disk':>11} {'CPU s':>7}"
        f" {'per CPU s':>9} {'RSS MiB':>8} {'disk MiB':>8} {'disk B/state':>12}"
    )
    fork = multiprocessing.get_context("fork")
    for item in args.deals:
        cells, number = (int(v) for v in item.split(":"))
        for mib in (None, args.disk):
            with ProcessPoolExecutor(max_workers=1, mp_context=fork) as pool:
                ended, states, disk, cpu, rss, peak = pool.submit(
                    on_disk_or_not, cells, number, args.states, mib
                ).result()
            where = "memory" if mib is None else "disk"
            per = f"{peak / disk:>12.1f}" if disk else f"{'':>12}"
            print(
                f"{item:>8} {where:>7} {ended:>20} {states:>11,} {disk:>11,} {cpu:>7.1f}"
                f" {states / max(cpu, 1e-9):>9,.0f} {rss / 2**20:>8.0f}"
                f" {peak / 2**20:>8.1f} {per}",
                flush=True,
            )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument(
        "--deals", nargs="*", default=list(DEALS), help="cells:deal (default %(default)s)"
    )
    ap.add_argument("--memory", type=int, default=64, help="MiB for the memory run (default 64)")
    ap.add_argument("--max-mb", type=int, default=4096, help="MiB for the speed run (default 4096)")
    ap.add_argument("--states", type=int, default=4_000_000, help="states for the speed run")
    ap.add_argument("--no-memory-run", action="store_true", help="only the speed run")
    ap.add_argument(
        "--disk", type=int, metavar="MIB", help="in memory vs on disk, chunks of MIB MiB"
    )
    args = ap.parse_args()
    print(load())
    if args.disk is not None:
        disk_table(args)
        print(load())
        return
    print(
        f"{'deal':>8} {'ended':>21} {'states':>10} {'seconds':>8} {'states/s':>9}"
        f" {'CPU s':>7} {'per CPU s':>9}"
        f"   {'at ' + str(args.memory) + ' MiB':>12} {'bytes/state':>11}"
    )
    for item in args.deals:
        cells, number = (int(v) for v in item.split(":"))
        position = deal(preset("freecell").with_options(cells=cells), number)
        status, states, seconds, cpu = complete(position, args.states, args.max_mb)
        line = (
            f"{item:>8} {status:>21} {states:>10,} {seconds:>8.1f} {states / seconds:>9,.0f}"
            f" {cpu:>7.1f} {states / cpu:>9,.0f}"
        )
        if not args.no_memory_run:
            limited, held, _, _ = complete(position, args.states, args.memory)
            if limited == status and held == states:
                line += f"   {'(fits)':>12} {'':>11}"
            else:
                line += f"   {held:>12,} {args.memory * 2**20 / held:>11.1f}"
        print(line, flush=True)
    print(load())


if __name__ == "__main__":
    main()
