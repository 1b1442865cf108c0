"""Calibrate the deal ratings: the score's quintiles over deals 1 … N of a variant.

    uv run python bench/rating_calibrate.py --variant eightoff --deals 1-10000 [--workers 2]
        [--out FILE.jsonl]

Rates every deal (``eightoff.rating.rate``), then prints the four thresholds that
split the winnable deals into five equal shares (paste them into
``eightoff.rating.THRESHOLDS``), how the deals fall into levels with the thresholds
now in the code, and the time per rating: its median against the median time of the
solver alone on the same deals in the same run (the peer), as a ratio.  Each worker is
one process on one core; the times are per deal on one core.

The calibration deals are 1 … 10,000; ``bench/rating_monotonicity.py`` uses deals
from 1,000,001 on, so the two never meet.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from collections import Counter
from concurrent.futures import ProcessPoolExecutor

from eightoff.deals import deal
from eightoff.rating import PLAYABLE_LEVELS, SOLVER_LIMITS, Level, level_of, rate
from eightoff.solver import solve


def _rate_one(args: tuple[str, int]) -> dict[str, object]:
    variant, number = args
    position = deal(variant, number)
    t0 = time.perf_counter()
    solve(position, SOLVER_LIMITS)
    solver_seconds = time.perf_counter() - t0
    rating = rate(position)
    row = rating.to_json()
    row["deal"] = number
    row["solver_seconds"] = solver_seconds
    row["seconds"] = rating.seconds
    return row


def quintiles(scores: list[float]) -> tuple[float, ...]:
    """The four scores that split `scores` into five equal shares, highest first."""
    ordered = sorted(scores, reverse=True)
    n = len(ordered)
    return tuple(round(ordered[(k * n) // 5 - 1], 4) for k in (1, 2, 3, 4))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--variant", default="eightoff")
    parser.add_argument("--deals", default="1-10000", help="FIRST-LAST (default 1-10000)")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--out", default=None, help="write each deal's rating (JSON lines)")
    args = parser.parse_args()
    first, last = (int(x) for x in args.deals.split("-"))
    numbers = range(first, last + 1)
    rows: list[dict[str, object]] = []
    out = open(args.out, "w") if args.out else None  # noqa: SIM115
    t0 = time.perf_counter()
    with ProcessPoolExecutor(args.workers) as pool:
        for i, row in enumerate(
            pool.map(_rate_one, [(args.variant, n) for n in numbers], chunksize=20), 1
        ):
            rows.append(row)
            if out:
                out.write(json.dumps(row) + "\n")
            if i % 500 == 0:
                print(
                    f"  {i}/{len(numbers)} rated, {time.perf_counter() - t0:.0f} s", file=sys.stderr
                )
    if out:
        out.close()
    winnable = [float(r["score"]) for r in rows if r["level"] != Level.NOT_WINNABLE.value]  # type: ignore[arg-type]
    print(
        f"{args.variant}: deals {first}-{last}, {len(rows)} rated, {len(winnable)} not proven lost"
    )
    print(f"thresholds (Easy, Medium, Hard, Expert lowest scores): {quintiles(winnable)}")
    counts = Counter(
        Level.NOT_WINNABLE.value
        if r["level"] == Level.NOT_WINNABLE.value
        else level_of(float(r["score"]), args.variant).value  # type: ignore[arg-type]
        for r in rows
    )
    print("levels with the thresholds in the code:")
    for level in (*PLAYABLE_LEVELS, Level.NOT_WINNABLE):
        print(
            f"  {level.value:<13} {counts[level.value]:6d}  {counts[level.value] / len(rows):6.1%}"
        )
    rate_ms = statistics.median(float(r["seconds"]) for r in rows) * 1000  # type: ignore[arg-type]
    solve_ms = statistics.median(float(r["solver_seconds"]) for r in rows) * 1000  # type: ignore[arg-type]
    p90 = statistics.quantiles([float(r["seconds"]) for r in rows], n=10)[-1] * 1000  # type: ignore[arg-type]
    print(
        f"rating: median {rate_ms:.1f} ms per deal (90th percentile {p90:.1f} ms);"
        f" solver alone (peer): median {solve_ms:.2f} ms; ratio {rate_ms / solve_ms:.0f}x"
    )


if __name__ == "__main__":
    main()
