"""Do the rating's levels predict play?  A held-out player's win rate per level.

    uv run python bench/rating_monotonicity.py --variant eightoff [--per-level 1000]
        [--first 1000001] [--max-deals 12000] [--workers 2] [--attempts 3] [--out FILE.jsonl]
        [--player sensible|patient] [--patience 1000]

Deals are rated (``eightoff.rating.rate``) in order from ``--first`` (default
1,000,001: disjoint from the calibration deals 1 … 10,000) until every playable level
has ``--per-level`` deals (the first that many of each level count) or
``--max-deals`` deals were rated.  Each deal is then played by the held-out player:
the "sensible" player of ``players.h`` (no lookahead and no score: any card that can
go home goes home, then a cell card onto a column, then a run onto a column that
uncovers something, then a King run into an empty column, else a card into a cell from
the column that hides the lowest needed card; at random within a rule), which takes no
part in the rating.  It may restart the deal: it wins a deal if one of its
``--attempts`` games (each its own seed) wins.  ``--player patient`` is the same
player with undo (``PL_PATIENT``): moves in the order of the same rules of thumb, and
when stuck it undoes its last move and tries the next, until it wins, has tried every
line, or has made ``--patience`` moves (undone ones count); for variants where the
sensible player almost never wins (Baker's Game, Double FreeCell).

Prints one row per level: deals, the held-out player's win rate and its Wilson 95%
interval, and whether each level's interval lies wholly above the next harder one's,
and the load average before and after the run (the machine may be shared).  ``--out``
writes each deal's rating (level, score) and the held-out player's result (JSON lines);
``--table FILE`` prints the table from such a file instead of playing, with the
thresholds now in the code (levels from the stored scores): the ratings and the
held-out games are deterministic, so this is the table a run with these thresholds
prints, as far as the file reaches.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from collections.abc import Iterator
from concurrent.futures import Executor, ProcessPoolExecutor
from itertools import islice

from eightoff.deals import deal
from eightoff.rating import PLAYABLE_LEVELS, Level, level_of, rate
from eightoff.solver import _core, core_rules
from eightoff.survey import wilson_interval

HELD_OUT_SEED = 0xB0B_0000


def _one(args: tuple[str, int, int, str, int]) -> tuple[int, str, bool, float]:
    variant, number, attempts, player, patience = args
    position = deal(variant, number)
    rating = rate(position)
    kind, moves = (
        (_core.PLAYER_PATIENT, patience)
        if player == "patient"
        else (_core.PLAYER_SENSIBLE, 400 * position.rules.decks)
    )
    players = [(kind, 0, 0, 0, moves, HELD_OUT_SEED + 7 * number + a) for a in range(attempts)]
    won = False
    for result in _core.play(
        core_rules(position.rules),
        position.columns,
        position.cells,
        position.foundations,
        players,
    ):
        won = won or result[0]
    return number, rating.level.value, won, rating.score


Result = tuple[int, str, bool, float]


def _played(
    pool: Executor, variant: str, first: int, attempts: int, player: str, patience: int
) -> Iterator[Result]:
    number = first
    while True:
        jobs = [(variant, n, attempts, player, patience) for n in range(number, number + 400)]
        yield from pool.map(_one, jobs, chunksize=10)
        number += 400


def _from_file(path: str, variant: str) -> Iterator[Result]:
    with open(path) as f:
        for line in f:
            r = json.loads(line)
            level = r["level"]
            if level != Level.NOT_WINNABLE.value:
                level = level_of(r["score"], variant).value
            yield r["deal"], level, r["won"], r["score"]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--variant", default="eightoff")
    parser.add_argument("--per-level", type=int, default=1000)
    parser.add_argument("--first", type=int, default=1_000_001)
    parser.add_argument("--max-deals", type=int, default=12_000)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--attempts", type=int, default=None, help="3 (sensible), 1 (patient)")
    parser.add_argument("--player", choices=("sensible", "patient"), default="sensible")
    parser.add_argument("--patience", type=int, default=1000, help="patient: moves at most")
    parser.add_argument("--out", default=None, help="write each deal's result (JSON lines)")
    parser.add_argument("--table", default=None, help="tabulate an --out file, do not play")
    args = parser.parse_args()
    if args.attempts is None:
        args.attempts = 3 if args.player == "sensible" else 1
    out = open(args.out, "w") if args.out else None  # noqa: SIM115
    load_before = os.getloadavg()

    by_level: dict[str, list[bool]] = {level.value: [] for level in Level}
    seen: dict[str, int] = {level.value: 0 for level in Level}
    number = args.first
    rated = 0
    t0 = time.perf_counter()
    chunk = 400
    with ProcessPoolExecutor(args.workers) as pool:
        results = (
            _from_file(args.table, args.variant)
            if args.table
            else _played(pool, args.variant, args.first, args.attempts, args.player, args.patience)
        )
        while rated < args.max_deals and any(
            len(by_level[level.value]) < args.per_level for level in PLAYABLE_LEVELS
        ):
            size = min(chunk, args.max_deals - rated)
            batch = list(islice(results, size))
            if not batch:
                print(f"  {args.table} ends after {rated} deals", file=sys.stderr)
                break
            size = len(batch)
            for n, name, won, score in batch:
                if out:
                    out.write(
                        json.dumps({"deal": n, "level": name, "score": score, "won": won}) + "\n"
                    )
                seen[name] += 1
                if len(by_level[name]) < args.per_level or name == Level.NOT_WINNABLE.value:
                    by_level[name].append(won)
            number += size
            rated += size
            counts = " ".join(f"{len(by_level[lv.value])}" for lv in PLAYABLE_LEVELS)
            print(f"  {rated} rated ({counts}), {time.perf_counter() - t0:.0f} s", file=sys.stderr)

    if out:
        out.close()
    load_after = os.getloadavg()
    held_out = (
        f"patient (patience {args.patience} moves)" if args.player == "patient" else "sensible"
    )
    print(
        f"{args.variant}: deals {args.first}-{number - 1} ({rated} rated), held-out player:"
        f" {held_out}, {args.attempts} attempt(s) per deal; {time.perf_counter() - t0:.0f} s with"
        f" {args.workers} worker(s), load average {load_before[0]:.2f} before,"
        f" {load_after[0]:.2f} after"
    )
    print("| level | share of rated deals | deals | held-out win rate | Wilson 95% interval |")
    print("|---|---|---|---|---|")
    rows = []
    for level in (*PLAYABLE_LEVELS, Level.NOT_WINNABLE):
        games = by_level[level.value]
        n, wins = len(games), sum(games)
        lo, hi = wilson_interval(wins, n) if n else (0.0, 1.0)
        rows.append((level, n, wins, lo, hi))
    ok = True
    for i, (level, n, wins, lo, hi) in enumerate(rows):
        rate_text = f"{wins / n:.1%}" if n else "–"
        share = seen[level.value] / rated
        if i < len(PLAYABLE_LEVELS) - 1 and not lo > rows[i + 1][4]:
            ok = False
            print(f"  {level.value}'s interval overlaps the next level's", file=sys.stderr)
        print(f"| {level.value} | {share:.1%} | {n} | {rate_text} | {lo:.1%} – {hi:.1%} |")
    print(
        "monotonic with non-overlapping intervals between neighbouring levels: "
        + ("yes" if ok else "NO")
    )


if __name__ == "__main__":
    main()
