"""Fingerprint the solver's search: per variant, a hash of every deal's verdict, state
count and solution, with the main search and with ``--short``.

A change that is meant to leave the search as it is (a refactoring, a move of code
between files) must leave every hash equal: the same verdicts, the same states entered
and the same moves, deal by deal. The searches run with a state limit and no time limit,
so the hashes do not depend on the machine or its load.

    uv run python scripts/search_fingerprint.py                      # the hashes
    uv run python scripts/search_fingerprint.py --save before.tsv    # and every deal's row
    uv run python scripts/search_fingerprint.py --against before.tsv # rows that differ

The deals: FreeCell, Eight Off and Eight Off Easy 1-600, Baker's Game 1-300, Seahaven
Towers 1-200, Double FreeCell 1-20 (``--variants``/``--scale`` to run fewer).
"""

from __future__ import annotations

import argparse
import hashlib
import sys
import time
from collections import Counter
from pathlib import Path

from eightoff.deals import deal
from eightoff.solver import Limits, code_of, solve

DEALS: dict[str, int] = {
    "freecell": 600,
    "eightoff": 600,
    "eightoff-easy": 600,
    "bakers-game": 300,
    "seahaven-towers": 200,
    "double-freecell": 20,
}
MODES: dict[str, bool] = {"main": False, "short": True}
STATES = 500_000
"""The state limit of every search (the default Limits' is 5,000,000)."""

Row = tuple[str, str, int, str, int, str]
"""(variant, mode, deal, verdict, states, the solution's move codes in hex)."""


def rows(variant: str, mode: str, last: int, states: int) -> list[Row]:
    limits = Limits(seconds=None, states=states, short=MODES[mode], memory_mb=None)
    out: list[Row] = []
    for number in range(1, last + 1):
        result = solve(deal(variant, number), limits)
        moves = ",".join(f"{code_of(m):x}" for m in result.moves)
        out.append((variant, mode, number, result.verdict.value, result.states, moves))
    return out


def digest(part: list[Row]) -> str:
    h = hashlib.sha256()
    for row in part:
        h.update(("\t".join(map(str, row)) + "\n").encode())
    return h.hexdigest()[:16]


def read(path: Path) -> dict[tuple[str, str, int], Row]:
    table: dict[tuple[str, str, int], Row] = {}
    for line in path.read_text("utf-8").splitlines():
        v, m, n, verdict, states, moves = line.split("\t")
        table[v, m, int(n)] = (v, m, int(n), verdict, int(states), moves)
    return table


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--variants", default=",".join(DEALS), help="comma-separated preset ids")
    p.add_argument("--modes", default="main,short", help="main, short or both")
    p.add_argument("--scale", type=float, default=1.0, help="run this share of each range")
    p.add_argument("--states", type=int, default=STATES, help="state limit per search")
    p.add_argument("--save", type=Path, help="write every deal's row (TSV) here")
    p.add_argument("--against", type=Path, help="compare with rows saved by --save")
    args = p.parse_args(argv)
    saved = read(args.against) if args.against else None
    everything: list[Row] = []
    differ = 0
    for variant in args.variants.split(","):
        if variant not in DEALS:
            p.error(f"unknown variant {variant!r}; choose from {', '.join(DEALS)}")
        last = max(1, round(DEALS[variant] * args.scale))
        for mode in args.modes.split(","):
            if mode not in MODES:
                p.error(f"unknown mode {mode!r}; choose main or short")
            t0 = time.perf_counter()
            part = rows(variant, mode, last, args.states)
            verdicts = Counter(r[3] for r in part)
            tally = " ".join(f"{k} {verdicts[k]}" for k in ("solved", "lost", "unknown"))
            states = sum(r[4] for r in part)
            moves = sum(len(r[5].split(",")) for r in part if r[5])
            line = f"{variant:16} {mode:5} 1-{last:<4} {digest(part)}  {tally}, states {states}, "
            line += f"moves {moves}"
            if saved is not None:
                bad = [r for r in part if saved.get((r[0], r[1], r[2])) != r]
                differ += len(bad)
                line += "  same" if not bad else f"  DIFFERS on {len(bad)} deals"
                for r in bad[:5]:
                    was = saved.get((r[0], r[1], r[2]))
                    print(f"  deal {r[2]}: was {was and was[3:5]}, now {r[3:5]}", file=sys.stderr)
            print(f"{line}  ({time.perf_counter() - t0:.0f} s)", flush=True)
            everything += part
    if args.save:
        args.save.write_text("".join("\t".join(map(str, r)) + "\n" for r in everything), "utf-8")
    return 1 if differ else 0


if __name__ == "__main__":
    raise SystemExit(main())
