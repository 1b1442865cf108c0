"""Survey throughput against its peer, a plain loop of ``solve`` in one process.

    uv run python bench/survey_throughput.py [--deals 1-2000] [--workers 2]

Measured in the same run on the same deals:
  plain loop      deal + solve in this process, nothing stored (the peer)
  survey, 1 worker    the whole survey machinery on one worker (its overhead: ratio ≈ 1)
  survey, N workers   the default pool (its speed-up over the peer: ratio ≈ N on N free cores)
"""

from __future__ import annotations

import argparse
import tempfile
import time
from pathlib import Path

from eightoff.deals import deal
from eightoff.solver import DEFAULT_LIMITS, solve
from eightoff.survey import default_workers, run_survey


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", default="1-2000", help="range FIRST-LAST (default 1-2000)")
    parser.add_argument("--workers", type=int, default=default_workers())
    parser.add_argument("--variant", default="eightoff")
    args = parser.parse_args()
    first, last = (int(x) for x in args.deals.split("-"))
    n = last - first + 1

    t0 = time.perf_counter()
    for number in range(first, last + 1):
        solve(deal(args.variant, number), DEFAULT_LIMITS)
    plain = time.perf_counter() - t0
    print(f"plain loop         {n} deals  {plain:8.2f} s  {n / plain:9.1f} deals/s  ratio 1.00")

    for workers in sorted({1, args.workers}):
        with tempfile.TemporaryDirectory() as tmp:
            db = Path(tmp) / "bench.sqlite3"
            t0 = time.perf_counter()
            run_survey(first, last, args.variant, db=db, workers=workers)
            wall = time.perf_counter() - t0
        print(
            f"survey, {workers} worker{'s' if workers > 1 else ' '} {n} deals  {wall:8.2f} s"
            f"  {n / wall:9.1f} deals/s  ratio {plain / wall:.2f}"
        )


if __name__ == "__main__":
    main()
