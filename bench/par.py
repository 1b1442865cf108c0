"""Benchmark: par (``eightoff solve --optimal``) on a range of deals.

For each deal: ``eightoff.solver.optimal.optimal(position, count,
ParLimits(seconds=S))`` (proven or not, its bounds, its time; ``--threads N`` runs A* on
N threads, as ``eightoff solve --optimal`` runs it on every core), and beside it the
lengths of our default and ``--short`` solutions and, with ``--fcs``, Freecell Solver's
presets (``ve``, ``qsi``, … through the PyPI binding, as bench/solver_vs_fcsolve.py runs
them), every solution replayed through our engine and counted by
:func:`eightoff.counts.count` in the same count as par. Reports the share proven within
the time limit, the median and p99 time, and the median lengths; the load average before
and after the run (the machine may be shared: times are only comparable within one run).

    uv run python bench/par.py --variant freecell --deals 1-100 --seconds 10
    LD_LIBRARY_PATH=/opt/fcs-latest/lib uv run python bench/par.py --deals 1-100 --fcs ve,qsi
    uv run python bench/par.py --variant freecell --deals 1-100 --count single

Never part of the test run.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
from pathlib import Path

from rich.console import Console
from rich.table import Table

from eightoff.counts import MoveCount, count
from eightoff.deals import deal
from eightoff.position import IllegalMoveError, Move, Position
from eightoff.rules import preset
from eightoff.solver import Limits, Solved, solve
from eightoff.solver.optimal import ParLimits, optimal

sys.path.insert(0, str(Path(__file__).parent))
from solver_vs_fcsolve import BenchError, FcSolve, parse_deals


def length(
    position: Position, moves: list[Move] | tuple[Move, ...], which: MoveCount
) -> int | None:
    """A solution's length in ``which``, replayed through the engine (None: not legal or
    not winning)."""
    try:
        p = position
        for m in moves:
            p = p.apply(m)
        if not p.is_won():
            return None
        return count(position, moves).of(which)
    except (IllegalMoveError, ValueError):
        return None


def percentile(values: list[float], q: float) -> float:
    v = sorted(values)
    if not v:
        return float("nan")
    k = min(len(v) - 1, max(0, round(q * (len(v) - 1))))
    return v[k]


def median(values: list[float] | list[int]) -> float:
    return float(statistics.median(values)) if values else float("nan")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--variant", default="eightoff")
    ap.add_argument("--deals", default="1-100")
    ap.add_argument("--seconds", type=float, default=10.0)
    ap.add_argument("--memory", type=int, default=4096, help="MiB a deal")
    ap.add_argument(
        "--threads", type=int, default=1, help="A*'s threads (solve --optimal: one a core)"
    )
    ap.add_argument("--count", choices=[c.value for c in MoveCount], default="player")
    ap.add_argument("--fcs", default="", help="Freecell Solver presets, e.g. ve,qsi")
    ap.add_argument("--no-peers", action="store_true", help="par only (no default/--short)")
    ap.add_argument("--json", metavar="FILE", help="write one JSON line per deal here")
    args = ap.parse_args()
    console = Console()
    rules = preset(args.variant)
    which = MoveCount(args.count)
    deals = parse_deals(args.deals)
    presets = [p for p in args.fcs.split(",") if p]
    try:
        theirs = {p: FcSolve(rules, p, 2_000_000) for p in presets}
    except BenchError as e:
        console.print(f"fc-solve: {e}")
        return 1
    load0 = os.getloadavg()
    out = open(args.json, "w") if args.json else None  # noqa: SIM115
    rows: list[dict[str, object]] = []
    t_start = time.perf_counter()
    for i, n in enumerate(deals, 1):
        position = deal(rules, n)
        par_limits = ParLimits(seconds=args.seconds, memory_mb=args.memory, threads=args.threads)
        par = optimal(position, which, par_limits)
        row: dict[str, object] = {"deal": n} | par.to_json()
        if not args.no_peers:
            for name, limits in (("default", Limits()), ("short", Limits(short=True))):
                r = solve(position, limits)
                row[name] = length(position, r.moves, which) if isinstance(r, Solved) else None
        for name, fcs in theirs.items():
            from eightoff.boards import format_fcs

            o = fcs.run(position, format_fcs(position), n)
            row[name] = length(position, o.moves, which) if o.moves else None
        rows.append(row)
        if out:
            out.write(json.dumps(row) + "\n")
            out.flush()
        if i % 10 == 0 or i == len(deals):
            proven = sum(1 for r in rows if r["optimal"])
            console.print(
                f"{i}/{len(deals)} deals, {proven} proven, {time.perf_counter() - t_start:.0f} s",
                highlight=False,
            )
    load1 = os.getloadavg()
    proven_rows = [r for r in rows if r["optimal"] and not r["lost"]]
    times = [float(r["seconds"]) for r in rows]  # type: ignore[arg-type]
    table = Table(
        title=f"{rules.name} deals {args.deals}: par in {which.words}, {args.seconds:g} s a deal"
    )
    table.add_column("figure")
    table.add_column("value", justify="right")
    share = len([r for r in rows if r["optimal"]]) / len(rows)
    table.add_row(
        "proven optimal", f"{share:.1%} ({sum(1 for r in rows if r['optimal'])} of {len(rows)})"
    )
    table.add_row("time median / p99", f"{median(times):.2f} s / {percentile(times, 0.99):.2f} s")
    proven_times = [float(r["seconds"]) for r in proven_rows]  # type: ignore[arg-type]
    table.add_row("time of the proven, median", f"{median(proven_times):.2f} s")
    table.add_row("median par (proven deals)", f"{median([int(r['par']) for r in proven_rows]):g}")  # type: ignore[call-overload]
    bounds = [int(r["lower_bound"]) for r in rows if not r["lost"]]  # type: ignore[call-overload]
    uppers = [int(r["upper_bound"]) for r in rows if r["upper_bound"] is not None]  # type: ignore[call-overload]
    table.add_row(
        "median lower bound / best found (all)", f"{median(bounds):g} / {median(uppers):g}"
    )
    for name in ["default", "short", *presets]:
        if args.no_peers and name in ("default", "short"):
            continue
        same = [(int(r["par"]), int(r[name])) for r in proven_rows if r.get(name) is not None]  # type: ignore[call-overload]
        if same:
            table.add_row(
                f"median {name} on the proven deals (par)",
                f"{median([b for _, b in same]):g} ({median([a for a, _ in same]):g}),"
                f" {len(same)} deals",
            )
        allv = [int(r[name]) for r in rows if r.get(name) is not None]  # type: ignore[call-overload]
        table.add_row(f"median {name} (all deals)", f"{median(allv):g}")
    unproven = [str(r["deal"]) for r in rows if not r["optimal"]]
    console.print(table)
    console.print(f"not proven: {' '.join(unproven) or 'none'}", highlight=False)
    console.print(
        f"load average before {load0[0]:.1f}, after {load1[0]:.1f} ({os.cpu_count()} cores);"
        f" {time.perf_counter() - t_start:.0f} s in all",
        highlight=False,
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
