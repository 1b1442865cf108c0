"""Survey throughput and CPU per deal against their peers, measured in the same run.

    uv run python bench/survey_throughput.py [--deals 1-2000] [--workers 2] [--variant eightoff]

On the same deals:
  core alone      the compiled search on positions dealt beforehand (``_core.solve``, one
                  call per deal, dealing not timed): the core's own CPU per deal, the peer
                  of the survey's CPU per deal (goal: the survey at most 1.2x it)
  plain loop      deal + ``solve`` in this process, nothing stored (the peer of the
                  survey's wall time)
  survey, N worker(s)   the whole survey machinery (claims, workers, the store): its wall
                  time (deals/s, ratio to the plain loop) and its CPU per deal, each as a
                  ratio to the core alone:
                    solve    the workers' CPU in the batch task (dealing, solving, the
                             compiled replay, rows), as the survey counts it
                    workers  the worker processes' whole CPU (with the pipes: receiving
                             a batch, pickling its result); worker processes only (a
                             rating survey: a survey on the core alone runs its
                             workers as threads of this process)
                    parent   this process (claims, unpickling, storing, heartbeats)
                             less its worker threads' batch task, and of that the
                             store's ``write``
                    total    this process (and the worker processes), and the deals/s
                             it allows on N cores
                             with nothing else running: N / total CPU per deal

Times are CPU seconds (thread/process time) where CPU is named, so other programs on
the machine inflate them less than wall time; the load average is printed with them.

Runs against whichever eightoff the interpreter imports, so one copy of this script
measures another checkout too: ``cd OTHER && uv run python PATH/bench/survey_throughput.py``.
``--no-core --no-plain`` leaves out the peers (a survey of 10^6 deals alone).
"""

from __future__ import annotations

import argparse
import os
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import eightoff.survey.local as local
from eightoff.deals import deal
from eightoff.rules import preset
from eightoff.solver import DEFAULT_LIMITS, _core, _setups, solve
from eightoff.survey import SurveyStore, default_workers, run_survey


def core_alone(variant: str, first: int, last: int) -> float:
    """CPU seconds of the compiled search alone over the deals (each dealt beforehand,
    outside the timed call)."""
    rules = preset(variant)
    setup = _setups(rules).main
    limits = DEFAULT_LIMITS
    states = limits.states or 0
    seconds = limits.seconds or 0.0
    memory = (limits.memory_mb or 0) << 20
    clock = time.thread_time
    spent = 0.0
    for number in range(first, last + 1):
        p = deal(rules, number)
        c0 = clock()
        _core.solve(setup, p.columns, p.cells, p.foundations, states, seconds, memory)
        spent += clock() - c0
    return spent


def _process_cpu(pid: int) -> float:
    """CPU seconds (user + system) process ``pid`` has used so far (Linux /proc)."""
    stat = Path(f"/proc/{pid}/stat").read_text()
    fields = stat[stat.rfind(")") + 2 :].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


class Meter:
    """What the survey's parts spend, read through hooks on the survey's own classes:
    the store's ``write`` and ``claim`` (thread time, in this process) and the local
    pool's ``close`` (each worker process's CPU, read just before it is told to stop)."""

    def __init__(self) -> None:
        self.write = 0.0
        self.claim = 0.0
        self.workers = 0.0
        self.seen_workers = 0

    @contextmanager
    def hooked(self) -> Iterator[None]:
        write = SurveyStore.write
        claim = SurveyStore.claim
        close = local.LocalPool.close
        meter = self

        def timed_write(self: SurveyStore, *args: Any, **kw: Any) -> Any:
            c0 = time.thread_time()
            try:
                return write(self, *args, **kw)
            finally:
                meter.write += time.thread_time() - c0

        def timed_claim(self: SurveyStore, *args: Any, **kw: Any) -> Any:
            c0 = time.thread_time()
            try:
                return claim(self, *args, **kw)
            finally:
                meter.claim += time.thread_time() - c0

        def metered_close(self: local.LocalPool, abort: bool) -> None:
            for w in self._workers:
                meter.workers += _process_cpu(w.process.pid or 0)
                meter.seen_workers += 1
            close(self, abort)

        SurveyStore.write = timed_write  # type: ignore[method-assign]
        SurveyStore.claim = timed_claim  # type: ignore[method-assign]
        local.LocalPool.close = metered_close  # type: ignore[method-assign]
        try:
            yield
        finally:
            SurveyStore.write = write  # type: ignore[method-assign]
            SurveyStore.claim = claim  # type: ignore[method-assign]
            local.LocalPool.close = close  # type: ignore[method-assign]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", default="1-2000", help="range FIRST-LAST (default 1-2000)")
    parser.add_argument("--workers", type=int, default=default_workers())
    parser.add_argument("--variant", default="eightoff")
    parser.add_argument("--no-plain", action="store_true", help="skip the plain loop")
    parser.add_argument("--no-core", action="store_true", help="skip the core alone")
    parser.add_argument(
        "--only-workers", action="store_true", help="survey with --workers only (not 1 too)"
    )
    parser.add_argument(
        "--batch-size", type=int, help="the survey's batch size (default: adaptive)"
    )
    parser.add_argument(
        "--db", type=Path, help="the survey's store (default: a fresh temporary one)"
    )
    args = parser.parse_args()
    first, last = (int(x) for x in args.deals.split("-"))
    n = last - first + 1
    print(f"{args.variant} deals {first}-{last}, load {_load()}")

    core = 0.0
    if not args.no_core:
        core = core_alone(args.variant, first, last)
        print(f"core alone         {n} deals  {core:8.2f} s CPU  {core / n * 1e6:9.1f} µs/deal")

    plain = 0.0
    if not args.no_plain:
        t0 = time.perf_counter()
        for number in range(first, last + 1):
            solve(deal(args.variant, number), DEFAULT_LIMITS)
        plain = time.perf_counter() - t0
        print(f"plain loop         {n} deals  {plain:8.2f} s  {n / plain:9.1f} deals/s  ratio 1.00")

    def per_deal(seconds: float) -> str:
        """CPU seconds over the deals this survey solved, and as a ratio to the core's."""
        ratio = f" ({seconds / core * n / done:.2f}x)" if core else ""
        return f"{seconds / done * 1e6:7.1f} µs{ratio}"

    for workers in [args.workers] if args.only_workers else sorted({1, args.workers}):
        meter = Meter()
        with tempfile.TemporaryDirectory() as tmp, meter.hooked():
            db = args.db or Path(tmp) / "bench.sqlite3"
            t0 = time.perf_counter()
            p0 = time.process_time()
            run = run_survey(
                first, last, args.variant, db=db, workers=workers, batch_size=args.batch_size
            )
            parent = time.process_time() - p0
            wall = time.perf_counter() - t0
        done = run.new.total
        speed = f"ratio {plain / wall:.2f}" if plain else ""
        print(
            f"survey, {workers} worker{'s' if workers > 1 else ' '} {done} deals  {wall:8.2f} s"
            f"  {done / wall:9.1f} deals/s  {speed}  load {_load()}"
        )
        ratio = " (x the core alone)" if core else ""
        print(f"    CPU per deal{ratio}:")
        print(f"      solve    {per_deal(run.cpu_seconds)}  (the workers' batch task)")
        # worker processes (a rating survey) are read at the pool's close; worker
        # threads (and one worker, this process) are in this process's own CPU time
        processes = meter.seen_workers > 0
        if processes:
            where = "(the worker processes, pipes included)"
            print(f"      workers  {per_deal(meter.workers)}  {where}")
        own = parent if processes else parent - run.cpu_seconds
        print(
            f"      parent   {per_deal(own)}  (of which store.write {per_deal(meter.write)},"
            f" store.claim {per_deal(meter.claim)})"
        )
        total = meter.workers + parent if processes else parent
        print(
            f"      total    {per_deal(total)}  -> {workers * done / total:8.0f} deals/s on"
            f" {workers} core{'s' if workers > 1 else ''} with nothing else running"
        )


def _load() -> str:
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


if __name__ == "__main__":
    main()
