"""Benchmark: the table's status line along real games, through ``web.oracle.Oracle``
(lanes, caches and its shared solver Prover), as the page sees it.

The random-but-sensible player of ``bench/live_verdict.py`` plays each game through
``eightoff.game.Game`` (safe auto-moves on): it follows the last solution's next move
with probability ``--follow``, else plays a random sensible move; every
``--undo-every``-th action is an undo. After every action the oracle is told the new
board and the status is asked for as the page does: ``Oracle.status`` at once, then
polled until it is final. Timed: from the first ask to the final answer (wall clock).

Peer in the same run, for the ratio: ``solve(position, Limits(seconds=status_seconds))``
on the same position, a fresh search (what a table without memory would do).

    uv run python bench/oracle_status.py                    # Eight Off and FreeCell, 200 games
    uv run python bench/oracle_status.py --games 50 --variant freecell

Never part of the test run.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import threading
import time

from live_verdict import pct, sensible_moves
from rich.console import Console
from rich.table import Table

from eightoff.deals import deal
from eightoff.game import Game
from eightoff.position import Kind, Move
from eightoff.solver import Limits, solve
from eightoff.web.oracle import Oracle


def final_status_ms(oracle: Oracle, game: Game) -> tuple[float, bool]:
    """Milliseconds until the status is final, and whether the first ask was final."""
    oracle.on_board(1, game.position)
    t0 = time.perf_counter()
    line = game.positions()
    st = oracle.status(1, line)
    at_once = not st.pending
    wake = threading.Event()
    while st.pending:
        wake.wait(0.0005)
        st = oracle.status(1, line)
    return (time.perf_counter() - t0) * 1000, at_once


def run(variant: str, args: argparse.Namespace) -> dict[str, object]:
    rng = random.Random(args.seed)
    oracle = Oracle()
    ours: list[float] = []
    peer: list[float] = []
    at_once = 0
    try:
        for g in range(args.games):
            game = Game(deal(variant, args.first_deal + g))
            last: Move | None = None
            for action in range(args.moves + 1):
                ms, now = final_status_ms(oracle, game)
                ours.append(ms)
                at_once += now
                t = time.perf_counter()
                solve(game.position, Limits(seconds=oracle.status_seconds))
                peer.append((time.perf_counter() - t) * 1000)
                if game.position.is_won() or action == args.moves:
                    break
                undo = args.undo_every and action % args.undo_every == args.undo_every - 1
                if undo and game.turns:
                    game.undo()
                    last = None
                    continue
                line = oracle.cached_solution(game.position)
                if line and rng.random() < args.follow:
                    choice = line[0]
                else:
                    options = sensible_moves(game.position, last)
                    if not options:
                        break
                    weights = [3 if m.target.kind is Kind.COLUMN else 1 for m in options]
                    choice = rng.choices(options, weights)[0]
                game.play(choice)
                last = choice
        return {"ours": ours, "peer": peer, "at_once": at_once, "stats": dict(oracle.prover.stats)}
    finally:
        oracle.close()


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    p.add_argument("--variant", action="append", default=None)
    p.add_argument("--games", type=int, default=200)
    p.add_argument("--moves", type=int, default=150)
    p.add_argument("--follow", type=float, default=0.5)
    p.add_argument("--undo-every", type=int, default=15)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--first-deal", type=int, default=30001)
    args = p.parse_args(argv)
    table = Table(title=f"Status line along {args.games} games per variant")
    for col in ("variant", "statuses", "final at once", "who", "p50 ms", "p99 ms", "max ms"):
        table.add_column(col)
    notes = []
    for v in args.variant or ["eightoff", "freecell"]:
        r = run(v, args)
        ours, peer = r["ours"], r["peer"]
        assert isinstance(ours, list) and isinstance(peer, list)
        n = len(ours)
        share = f"{100 * int(str(r['at_once'])) / n:.1f}%"
        for who, s in (("oracle status", ours), ("solve (peer)", peer)):
            table.add_row(
                v, str(n), share if s is ours else "", who,
                f"{statistics.median(s):.3f}", f"{pct(s, 0.99):.2f}", f"{max(s):.1f}",
            )  # fmt: skip
        table.add_row(
            v, "", "", "ratio",
            f"{statistics.median(ours) / statistics.median(peer):.2f}",
            f"{pct(ours, 0.99) / pct(peer, 0.99):.2f}", "",
        )  # fmt: skip
        notes.append(f"{v}: prover answers by source {r['stats']}")
    Console(width=200).print(table)
    for line in notes:
        print(line)
    print(f"load average at the end: {os.getloadavg()}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
