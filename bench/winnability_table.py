"""The family's winnability table (README "Winnability of the family") from a survey store.

    uv run eightoff survey 1 100000 --variant freecell --db survey.sqlite3   # … each variant
    uv run python bench/winnability_table.py --db survey.sqlite3 [--db other.sqlite3 …]

Prints one Markdown row per variant found in the store: deals, solved, lost, unknown,
winnability with its Wilson 95% interval (unknowns counted as losses for the lower
bound and as wins for the upper, as ``eightoff survey report`` does), median and p99
solve time per deal, median solution length in player moves; then the published figures with their
intervals and whether ours overlaps them.

Never part of the test run.
"""

from __future__ import annotations

import argparse
from collections.abc import Mapping
from pathlib import Path

from eightoff.i18n import duration
from eightoff.rules import PRESETS
from eightoff.survey.report import build_report, wilson_interval
from eightoff.survey.store import SurveyStore

# Published winnability: (source, low, high) as fractions.
PUBLISHED: dict[str, tuple[str, float, float]] = {
    # Blake & Gent (JAIR 2026), 10^7 random deals: 99.8805% ± 0.0022%
    "eightoff": ("Blake & Gent, 10^7 random deals: 99.8805% ± 0.0022%", 0.998783, 0.998827),
    # Bryan: 750,611 of 10^6 random deals won; the Wilson 95% interval of that count
    "bakers-game": (
        "Bryan, 750,611 of 10^6 random deals: 75.06%",
        *wilson_interval(750_611, 1_000_000),
    ),
}


def quantile(hist: Mapping[int, int], q: float) -> int | None:
    """The nearest-rank quantile of a histogram value -> count."""
    total = sum(hist.values())
    if not total:
        return None
    rank = max(1, -(-int(q * total * 1_000_000) // 1_000_000))
    seen = 0
    for value in sorted(hist):
        seen += hist[value]
        if seen >= rank:
            return value
    return max(hist)


def fmt_us(us: int | None) -> str:
    return "–" if us is None else duration(us / 1e6)


def pct(x: float) -> str:
    return f"{100 * x:.4f}%"


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument(
        "--db", type=Path, action="append", required=True, help="a survey store (repeatable)"
    )
    args = p.parse_args(argv)
    print(
        "| variant | deals | solved | lost | unknown | winnable (Wilson 95%) "
        "| median time | p99 time | median player moves |"
    )
    print("|---|---|---|---|---|---|---|---|---|")
    notes = []
    for variant in PRESETS:
        for db in args.db:
            with SurveyStore(db, create=False) as store:
                if variant not in store.variants():
                    continue
                r = build_report(store, variant)
            low, high = r.ci95
            win = r.winnability or 0.0
            moves = str(quantile(r.length_hist, 0.5))
            if r.length_count != "player":  # a store from before it held player moves
                moves += " (as the solutions list them)"
            print(
                f"| {r.name} | {r.deals:,} | {r.solved:,} | {r.lost:,} | {r.unknown:,} "
                f"| {pct(win)} ({pct(low)} – {pct(high)}) "
                f"| {fmt_us(quantile(r.time_hist, 0.5))} | {fmt_us(quantile(r.time_hist, 0.99))} "
                f"| {moves} |"
            )
            if variant in PUBLISHED:
                source, plow, phigh = PUBLISHED[variant]
                overlap = low <= phigh and plow <= high
                notes.append(
                    f"- {r.name}: ours {pct(low)} – {pct(high)}; published ({source}) "
                    f"{pct(plow)} – {pct(phigh)}: "
                    + ("the intervals overlap." if overlap else "the intervals do not overlap.")
                )
    print()
    print("\n".join(notes))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
