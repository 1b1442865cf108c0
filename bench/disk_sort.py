"""The sort of a search on disk's buffers of children: the radix sort it runs against
the comparison sort (introsort) it ran before, on the same entries, CPU seconds; and the
radix sort of the same records alone, as a layer's children are now held.

    uv run python bench/disk_sort.py [--entries 2000000 30000000 120000000] [--runs 3]
    uv run python bench/disk_sort.py --run DIR/eightoff-keep-.../R6 [--entries 100000000]

Each buffer is sorted before it is written as a run (solver/disk.h, eo_drec_flush and
eo_crec_flush).  A take-over's entries are a state's record and its parent's, 32 bytes;
a layer's children carry no parent and are held as their records alone, 16 bytes, so
the same memory holds twice as many (a search with ``--memory 8G`` and two threads sorts
buffers of about 120 million entries of 32 bytes, or 240 million records).  The entries
are random records (checks.h, eo_check_drec_sort: records sharing their top bits, a
quarter of them a record seen before with another parent), the same for every sort;
each sort checks its result is in order, and the radix sort and the introsort must give
the same sequence.  Each size runs ``--runs`` times, the sorts alternating; the least
CPU time of each is printed with the ratios: radix ÷ introsort (32-byte entries), and
records alone ÷ 32-byte entries (both radix, the same records), with the machine's load
average first and last.

With ``--run FILE`` the entries are instead the first ``--entries`` of a run a search on
disk wrote (an R file in its directory while it runs, copied before the merge removes
it), shuffled: the children of a real search, whose records are far from random (a
search's records differ in few of their bits, so a radix sort needs more passes over
them than over random ones)."""

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
    ap.add_argument("--run", metavar="FILE", help="sort the entries of this run file")
    args = ap.parse_args()
    if args.runs < 1 or any(n < 1 for n in args.entries):
        print("disk_sort: --runs and --entries must be 1 or more", file=sys.stderr)
        return 2
    print(load())
    if args.run:
        print(f"entries of {args.run}, shuffled")
    print(
        f"{'entries':>12} {'GiB':>6} {'radix CPU s':>12} {'introsort CPU s':>16} {'ratio':>6}"
        f" {'records alone s':>16} {'ratio':>6}"
    )
    kinds = [(True, False), (False, False), (True, True)]  # (radix, records alone)
    for n in args.entries:
        best = dict.fromkeys(kinds, float("inf"))
        hashes: dict[tuple[bool, bool], int] = {}
        for run in range(args.runs):
            for kind in kinds if run % 2 == 0 else kinds[::-1]:
                radix, records = kind
                if args.run:
                    h, got, seconds = _core.check_drec_sort_run(args.run, n, 1, radix, records)
                    n_shown = got
                else:
                    h, seconds = _core.check_drec_sort(n, 1, radix, records=records)
                    n_shown = n
                if h == 0:
                    what = args.run or f"{n} entries"
                    print(f"disk_sort: {what}: unreadable, out of order or out of memory",
                          file=sys.stderr)  # fmt: skip
                    return 1
                hashes[kind] = h
                best[kind] = min(best[kind], seconds)
        if hashes[True, False] != hashes[False, False]:
            print(f"disk_sort: {n} entries: the two sorts differ", file=sys.stderr)
            return 1
        radix_s, intro_s, rec_s = (best[k] for k in kinds)
        print(
            f"{n_shown:>12,} {n_shown * 32 / 2**30:>6.2f} {radix_s:>12.2f} {intro_s:>16.2f}"
            f" {radix_s / intro_s:>6.2f} {rec_s:>16.2f} {rec_s / radix_s:>6.2f}"
        )
    print(load())
    return 0


if __name__ == "__main__":
    sys.exit(main())
