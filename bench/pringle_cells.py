"""A survey store's FreeCell verdicts with fewer cells against Theodore Pringle's table.

Pringle published the least number of free cells that wins each Microsoft FreeCell deal
1-32000 (tests/data/pringle-msfc32k-min-cells.txt, a compact copy): a deal is winnable
with n cells exactly when n >= its least number. This reads the verdicts that
``eightoff survey 1 32000 --variant freecell --cells N --db FILE`` stored and prints, for
each number of cells, our counts beside his, and every deal where they differ.

    uv run python bench/pringle_cells.py --db /tmp/cells/ms32k.sqlite3

Two 1-cell deals he left intractable (20410, 24966: his file gives them 2) are listed
apart with our verdict. Exit 1 if any decided verdict differs from his.
"""

from __future__ import annotations

import argparse
import sqlite3
import sys
from pathlib import Path

from eightoff.rules import preset
from eightoff.survey.store import rules_signature

DATA = Path(__file__).resolve().parent.parent / "tests" / "data"
INTRACTABLE_1_CELL = (20410, 24966)
"""Pringle could not decide these with 1 cell (his file gives them 2)."""


def pringle_least_cells() -> dict[int, int]:
    """Deal -> the least number of free cells that wins it (Pringle)."""
    text = (DATA / "pringle-msfc32k-min-cells.txt").read_text()
    digits = "".join(line for line in text.splitlines() if not line.startswith("#"))
    return {i + 1: int(d) for i, d in enumerate(digits)}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--db", required=True, help="the survey store (SQLite file)")
    args = ap.parse_args()
    least = pringle_least_cells()
    db = sqlite3.connect(f"file:{args.db}?mode=ro", uri=True)
    bad = 0
    print("cells  ours: solved lost unknown (deals)   Pringle: winnable   differ")
    for n in range(0, 5):
        sig = rules_signature(preset("freecell").with_options(cells=n))
        rows = dict(
            db.execute(
                "SELECT deal, verdict FROM survey_results WHERE variant = 'freecell'"
                " AND rules = ? AND deal <= 32000",
                (sig,),
            ).fetchall()
        )
        if not rows:
            continue
        counts = {v: sum(1 for x in rows.values() if x == v) for v in ("solved", "lost", "unknown")}
        his = sum(1 for d in range(1, 32001) if least[d] <= n)
        differ = []
        for d, v in sorted(rows.items()):
            if v == "unknown" or (n == 1 and d in INTRACTABLE_1_CELL):
                continue
            if (v == "solved") != (least[d] <= n):
                differ.append(d)
        bad += len(differ)
        print(
            f"{n:>5}  {counts['solved']:>11} {counts['lost']:>5} {counts['unknown']:>7}"
            f" ({len(rows)})   {his:>17}   {len(differ)}"
            + (f": {' '.join(map(str, differ[:30]))}" if differ else "")
        )
        if n == 1:
            for d in INTRACTABLE_1_CELL:
                got = rows.get(d, "not stored")
                print(f"       deal {d} with 1 cell (Pringle: intractable): {got}")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
