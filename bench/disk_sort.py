"""The sort of a search on disk's buffers of children: the radix sort it runs against
the comparison sort (introsort) it ran before, on the same entries, CPU seconds.

    uv run python bench/disk_sort.py [--entries 2000000 30000000 120000000] [--runs 3]

Each buffer of children (a state's record and its parent's, 32 bytes an entry) is
sorted before it is written as a run (solver/disk.h, eo_disk_flush_buf); a search with
``--memory 8G`` and two threads sorts buffers of about 120 million entries.  The entries
are made as a search makes them (checks.h, eo_check_drec_sort: records sharing their top
bits, a quarter of them a record seen before with another parent), the same for both
sorts; each sort checks its result is in order, and the two results must be the same
sequence.  Each size runs ``--runs`` times, the sorts alternating; the least CPU time of
each is printed with their ratio, and the machine's load average first and last."""

from __future__ import annotations

import argparse
import os
import sys

from eightoff.solver import _core


def load() -> str:
    one, five, fifteen = os.getloadavg()
    return f"load average {one:.2f} {five:.2f} {fifteen:.2f} on {os.cpu_count()} cores"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--entries", type=int, nargs="+", default=[2_000_000, 30_000_000, 120_000_000])
    ap.add_argument("--runs", type=int, default=3)
    args = ap.parse_args()
    if args.runs < 1 or any(n < 1 for n in args.entries):
        print("disk_sort: --runs and --entries must be 1 or more", file=sys.stderr)
        return 2
    print(load())
    print(f"{'entries':>12} {'GiB':>6} {'radix CPU s':>12} {'introsort CPU s':>16} {'ratio':>6}")
    for n in args.entries:
        best = {True: float("inf"), False: float("inf")}
        hashes: dict[bool, int] = {}
        for run in range(args.runs):
            for radix in (run % 2 == 0, run % 2 != 0):
                h, seconds = _core.check_drec_sort(n, 1, radix)
                if h == 0:
                    print(f"disk_sort: {n} entries: out of order or out of memory", file=sys.stderr)
                    return 1
                hashes[radix] = h
                best[radix] = min(best[radix], seconds)
        if hashes[True] != hashes[False]:
            print(f"disk_sort: {n} entries: the two sorts differ", file=sys.stderr)
            return 1
        print(
            f"{n:>12,} {n * 32 / 2**30:>6.2f} {best[True]:>12.2f} {best[False]:>16.2f}"
            f" {best[True] / best[False]:>6.2f}"
        )
    print(load())
    return 0


if __name__ == "__main__":
    sys.exit(main())
