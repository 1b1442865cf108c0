"""Two builds of the compiled core in one process: CPU time of the same deals, alternating.

    uv run python bench/core_builds.py OLD.so [NEW.so] [--variant freecell] [--deals 1-32000]
        [--passes 3] [--block 500]

OLD.so and NEW.so are built ``_core`` extensions (NEW defaults to this checkout's, e.g.
OLD = another worktree's ``src/eightoff/solver/_core.cpython-*.so`` copied aside). Each
pass solves the deals block by block through ``solve_range`` (the survey's batch path:
deal, search, compiled replay), both builds on every block, which one goes first
alternating from block to block and pass to pass. A deal's figure is its CPU time in the
core (``solve_range``'s own per-deal clock), its minimum over the passes. Prints each
pass, the best pass, the sum of the per-deal minima, the median deal and the ratio
new / old of each, with the load average; and whether both builds gave every deal the
same status and states (a change meant to leave the search as it is must). The best
pass of whole calls is the thread's CPU time around each call of ``solve_range``: what
a survey's worker pays, also for what the per-deal clock leaves out (making the
arrays, and before 2026-12-05 the description of each solution for its move counts).
"""

from __future__ import annotations

import argparse
import glob
import importlib.util
import os
import statistics
import time
from dataclasses import asdict
from pathlib import Path
from types import ModuleType

from eightoff.rules import preset
from eightoff.solver import _group_cost_or_none, core_rules, deal_layout, plan_for

HERE = Path(__file__).resolve().parent.parent / "src" / "eightoff" / "solver"


def load(path: str) -> ModuleType:
    """The extension at path, loaded beside the installed one (a copy of its own)."""
    spec = importlib.util.spec_from_file_location("eightoff.solver._core", path)
    if spec is None or spec.loader is None:
        raise SystemExit(f"not an extension module: {path}")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    module.set_group_costs(_group_cost_or_none)
    return module


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("old", help="the old build's _core extension (.so)")
    parser.add_argument("new", nargs="?", help="the new build's (default: this checkout's)")
    parser.add_argument("--variant", default="freecell")
    parser.add_argument("--deals", default="1-2000", help="range FIRST-LAST (default 1-2000)")
    parser.add_argument("--passes", type=int, default=3)
    parser.add_argument("--block", type=int, default=500, help="deals per call (default 500)")
    args = parser.parse_args()
    new = args.new or next(iter(sorted(glob.glob(str(HERE / "_core.cpython-*.so")))), None)
    if new is None:
        raise SystemExit("no built core in this checkout: run uv sync first")
    first, last = (int(x) for x in args.deals.split("-"))
    rules = preset(args.variant)
    builds = {"old": load(args.old), "new": load(new)}
    setups = {
        k: m.Setup(core_rules(rules), asdict(plan_for(rules).main)) for k, m in builds.items()
    }
    layout = deal_layout(rules)
    n = last - first + 1
    best = {k: [float("inf")] * n for k in builds}
    passes: dict[str, list[float]] = {k: [] for k in builds}
    calls: dict[str, list[float]] = {k: [] for k in builds}
    results: dict[str, dict[int, tuple[bytes, bytes]]] = {k: {} for k in builds}
    print(f"{args.variant} {first}-{last}, {args.passes} passes, load {os.getloadavg()[0]:.2f}")
    for p in range(args.passes):
        total = dict.fromkeys(builds, 0.0)
        whole = dict.fromkeys(builds, 0.0)
        for b, start in enumerate(range(first, last + 1, args.block)):
            count = min(args.block, last + 1 - start)
            order = ("old", "new") if (p + b) % 2 == 0 else ("new", "old")
            for k in order:
                c0 = time.thread_time()
                status, states, seconds, *_ = builds[k].solve_range(
                    setups[k], layout, start, count, 5_000_000, 0.0, 0
                )
                whole[k] += time.thread_time() - c0
                for j in range(count):
                    best[k][start - first + j] = min(best[k][start - first + j], seconds[j])
                total[k] += sum(seconds)
                results[k][start] = (bytes(status), states.tobytes())
        for k in builds:
            passes[k].append(total[k])
            calls[k].append(whole[k])
        print(
            f"pass {p + 1}: old {total['old']:.3f} s, new {total['new']:.3f} s,"
            f" ratio {total['new'] / total['old']:.3f}; whole calls ratio"
            f" {whole['new'] / whole['old']:.3f}; load {os.getloadavg()[0]:.2f}"
        )
    rows = {
        "best pass": (min(passes["old"]), min(passes["new"]), "s"),
        "best pass, whole calls": (min(calls["old"]), min(calls["new"]), "s"),
        "sum of per-deal minima": (sum(best["old"]), sum(best["new"]), "s"),
        "median deal": (statistics.median(best["old"]), statistics.median(best["new"]), "us"),
    }
    for name, (old, nw, unit) in rows.items():
        scale = 1e6 if unit == "us" else 1.0
        figures = f"old {old * scale:.3f} {unit}, new {nw * scale:.3f} {unit}"
        print(f"{name}: {figures}, ratio {nw / old:.3f}")
    print(f"same statuses and states: {results['old'] == results['new']}")
    print(f"load {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
