"""Time to rate one deal, on one core, against the solver alone (the peer) in the same run.

    uv run python bench/rating_speed.py [--variant eightoff] [--deals 20001-20300] [--cpu 0]

One process pinned to one CPU (``--cpu -1``: not pinned).  For each deal, in turn:
the solver alone (``solve`` with the rating's limits) and the whole rating
(``eightoff.rating.rate``: the solver, then the 32 players' games).  Prints the
medians and 90th percentiles, their ratio, and the load average (``os.getloadavg``)
before and after, since the machine may be shared.
"""

from __future__ import annotations

import argparse
import os
import statistics
import time

from eightoff.deals import deal
from eightoff.rating import SOLVER_LIMITS, rate
from eightoff.solver import solve


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--variant", default="eightoff")
    parser.add_argument("--deals", default="20001-20300", help="FIRST-LAST")
    parser.add_argument("--cpu", type=int, default=0, help="pin to this CPU (-1: do not pin)")
    args = parser.parse_args()
    if args.cpu >= 0 and hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {args.cpu})
    first, last = (int(x) for x in args.deals.split("-"))
    load_before = os.getloadavg()
    rate(deal(args.variant, first))  # warm-up, unrecorded
    solver_ms: list[float] = []
    rating_ms: list[float] = []
    for number in range(first, last + 1):
        position = deal(args.variant, number)
        t0 = time.perf_counter()
        solve(position, SOLVER_LIMITS)
        solver_ms.append((time.perf_counter() - t0) * 1000)
        t0 = time.perf_counter()
        rate(position)
        rating_ms.append((time.perf_counter() - t0) * 1000)
    load_after = os.getloadavg()

    def line(name: str, ms: list[float]) -> str:
        p90 = statistics.quantiles(ms, n=10)[-1]
        return f"{name:<13} median {statistics.median(ms):8.2f} ms   90th percentile {p90:8.2f} ms"

    print(f"{args.variant}: deals {first}-{last} ({len(rating_ms)}), one core")
    print(line("solver alone", solver_ms))
    print(line("rating", rating_ms))
    ratio = statistics.median(rating_ms) / statistics.median(solver_ms)
    print(f"ratio of medians (rating / solver): {ratio:.0f}")
    print(
        "load average before: {:.2f} {:.2f} {:.2f}; after: {:.2f} {:.2f} {:.2f}".format(
            *load_before, *load_after
        )
    )


if __name__ == "__main__":
    main()
