"""Survey throughput and CPU per deal against their peers, measured in the same run.

    uv run python bench/survey_throughput.py [--deals 1-2000] [--workers 2] [--variant eightoff]

On the same deals:
  core alone      the compiled search on positions dealt beforehand (``_core.solve``, one
                  call per deal, dealing not timed): the core's own CPU per deal, the peer
                  of the survey's CPU per deal (goal: the survey at most 1.2x it)
  plain loop      deal + ``solve`` in this process, nothing stored (the peer of the
                  survey's wall time)
  survey, N worker(s)   the whole survey machinery (claims, workers, the store): its wall
                  time (deals/s, ratio to the plain loop) and its CPU per deal, the
                  workers' (dealing, solving, the compiled replay, rows) and the parent's
                  (claims, storing), each as a ratio to the core alone

Times are CPU seconds (thread/process time) where CPU is named, so other programs on
the machine inflate them less than wall time; the load average is printed with them.
"""

from __future__ import annotations

import argparse
import os
import tempfile
import time
from pathlib import Path

from eightoff.deals import deal
from eightoff.rules import preset
from eightoff.solver import DEFAULT_LIMITS, _core, _setups, solve
from eightoff.survey import default_workers, run_survey


def core_alone(variant: str, first: int, last: int) -> float:
    """CPU seconds of the compiled search alone over the deals (dealt beforehand)."""
    rules = preset(variant)
    setup = _setups(rules).main
    positions = [deal(rules, n) for n in range(first, last + 1)]
    limits = DEFAULT_LIMITS
    states = limits.states or 0
    seconds = limits.seconds or 0.0
    memory = (limits.memory_mb or 0) << 20
    c0 = time.thread_time()
    for p in positions:
        _core.solve(setup, p.columns, p.cells, p.foundations, states, seconds, memory)
    return time.thread_time() - c0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", default="1-2000", help="range FIRST-LAST (default 1-2000)")
    parser.add_argument("--workers", type=int, default=default_workers())
    parser.add_argument("--variant", default="eightoff")
    parser.add_argument("--no-plain", action="store_true", help="skip the plain loop")
    args = parser.parse_args()
    first, last = (int(x) for x in args.deals.split("-"))
    n = last - first + 1
    print(f"{args.variant} deals {first}-{last}, load {os.getloadavg()[0]:.2f}")

    core = core_alone(args.variant, first, last)
    print(f"core alone         {n} deals  {core:8.2f} s CPU  {core / n * 1e6:9.1f} µs/deal")

    plain = 0.0
    if not args.no_plain:
        t0 = time.perf_counter()
        for number in range(first, last + 1):
            solve(deal(args.variant, number), DEFAULT_LIMITS)
        plain = time.perf_counter() - t0
        print(f"plain loop         {n} deals  {plain:8.2f} s  {n / plain:9.1f} deals/s  ratio 1.00")

    for workers in sorted({1, args.workers}):
        with tempfile.TemporaryDirectory() as tmp:
            db = Path(tmp) / "bench.sqlite3"
            t0 = time.perf_counter()
            p0 = time.process_time()
            run = run_survey(first, last, args.variant, db=db, workers=workers)
            parent = time.process_time() - p0
            wall = time.perf_counter() - t0
        speed = f"ratio {plain / wall:.2f}" if plain else ""
        print(
            f"survey, {workers} worker{'s' if workers > 1 else ' '} {n} deals  {wall:8.2f} s"
            f"  {n / wall:9.1f} deals/s  {speed}"
        )
        print(
            f"    CPU per deal: workers {run.cpu_seconds / n * 1e6:.1f} µs"
            f" ({run.cpu_seconds / core:.2f}x the core alone), with the parent"
            f" {(run.cpu_seconds + parent) / n * 1e6:.1f} µs"
            f" ({(run.cpu_seconds + parent) / core:.2f}x); load {os.getloadavg()[0]:.2f}"
        )


if __name__ == "__main__":
    main()
