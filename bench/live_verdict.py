"""Benchmark: the verdict after every move of real games, with eightoff.solver.prover.Prover.

Games are played by a random-but-sensible player through ``eightoff.game.Game`` (the
table's game: safe auto-moves after each move). Each turn the player

* follows the last solution (its next move) with probability ``--follow`` (a player
  taking hints, or finding the same line), else
* plays a random sensible move: no cell-to-cell move, no move that puts back the card
  just moved, moves onto a column three times as likely as moves into a cell;
* every ``--undo-every``-th action is an undo instead.

A game ends when won, when no sensible move is left, or after ``--moves`` actions.
After every action the verdict of the new position is asked for, timed twice in the
same run, in turns (which one goes first alternates):

* ``prover``: ``Prover.verdict(position, previous)``, one Prover for all the games of
  a variant (as the table keeps one);
* ``solve``: ``solve(position, LIVE_LIMITS)``, a fresh search every time with the
  Prover's own limits (10 s) (the peer).

Reported per variant: p50 / p99 / max of wall-clock and CPU time per verdict, the
ratio prover ÷ solve, where the prover's answers came from, and whether both agree
(every proven verdict of one must equal the other's).

    uv run python bench/live_verdict.py                     # Eight Off and FreeCell, 200 games
    uv run python bench/live_verdict.py --variant freecell --games 50

Never part of the test run.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import time
from collections import Counter
from dataclasses import dataclass, field

from rich.console import Console
from rich.table import Table

from eightoff.deals import deal
from eightoff.game import Game
from eightoff.position import Kind, Move, Position
from eightoff.solver import solve
from eightoff.solver.prover import LIVE_LIMITS, Prover


@dataclass
class Samples:
    wall: list[float] = field(default_factory=list)
    cpu: list[float] = field(default_factory=list)


def timed_prover(
    prover: Prover, pos: Position, prev: Position | None, out: Samples
) -> tuple[str, str, tuple[Move, ...]]:
    t, c = time.perf_counter(), time.thread_time()
    v = prover.verdict(pos, prev)
    out.cpu.append((time.thread_time() - c) * 1000)
    out.wall.append((time.perf_counter() - t) * 1000)
    return v.verdict, v.source, v.moves


def timed_solve(pos: Position, out: Samples) -> str:
    t, c = time.perf_counter(), time.thread_time()
    r = solve(pos, LIVE_LIMITS)
    out.cpu.append((time.thread_time() - c) * 1000)
    out.wall.append((time.perf_counter() - t) * 1000)
    return r.verdict


def sensible_moves(pos: Position, last: Move | None) -> list[Move]:
    out = []
    for m in pos.legal_moves():
        if m.source.kind is Kind.CELL and m.target.kind is Kind.CELL:
            continue
        if m.source.kind is Kind.FOUNDATION:
            continue
        if last is not None and m.source == last.target and m.target == last.source:
            continue
        out.append(m)
    return out


def random_sensible_move(pos: Position, last: Move | None, rng: random.Random) -> Move | None:
    """One of :func:`sensible_moves`, a move onto a column three times as likely as one
    into a cell; None when there is none."""
    options = sensible_moves(pos, last)
    if not options:
        return None
    weights = [3 if m.target.kind is Kind.COLUMN else 1 for m in options]
    return rng.choices(options, weights)[0]


def pct(values: list[float], q: float) -> float:
    s = sorted(values)
    return s[max(0, min(len(s) - 1, round(q * len(s) + 0.5) - 1))] if s else float("nan")


def run_variant(
    variant: str, games: int, moves: int, follow: float, undo_every: int, seed: int, first: int
) -> dict[str, object]:
    rng = random.Random(seed)
    prover = Prover()
    ours, peer = Samples(), Samples()
    sources: Counter[str] = Counter()
    disagree = 0
    asked = 0
    won = 0
    for g in range(games):
        game = Game(deal(variant, first + g))
        prev: Position | None = None
        last: Move | None = None
        line: tuple[Move, ...] = ()
        for action in range(moves + 1):
            pos = game.position
            if asked % 2:
                verdict, source, line = timed_prover(prover, pos, prev, ours)
                plain = timed_solve(pos, peer)
            else:
                plain = timed_solve(pos, peer)
                verdict, source, line = timed_prover(prover, pos, prev, ours)
            asked += 1
            sources[source] += 1
            if "unknown" not in (verdict, plain) and verdict != plain:
                disagree += 1
            if pos.is_won():
                won += 1
                break
            if action == moves:
                break
            if undo_every and action % undo_every == undo_every - 1 and game.turns:
                game.undo()
                prev, last = None, None
                continue
            choice: Move | None = None
            if line and rng.random() < follow:
                choice = line[0]
            elif (choice := random_sensible_move(pos, last, rng)) is None:
                break
            prev = pos
            game.play(choice)
            last = choice
    return {
        "variant": variant,
        "games": games,
        "won": won,
        "verdicts": asked,
        "ours": ours,
        "peer": peer,
        "sources": sources,
        "disagree": disagree,
    }


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    p.add_argument(
        "--variant",
        action="append",
        default=None,
        help="a variant id (repeatable; default: eightoff and freecell)",
    )
    p.add_argument("--games", type=int, default=200)
    p.add_argument("--moves", type=int, default=150, help="most actions per game")
    p.add_argument(
        "--follow",
        type=float,
        default=0.5,
        help="probability of playing the last solution's next move",
    )
    p.add_argument("--undo-every", type=int, default=15)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--first-deal", type=int, default=30001)
    args = p.parse_args(argv)
    console = Console(width=220)
    variants = args.variant or ["eightoff", "freecell"]
    table = Table(
        title=f"Live verdicts, {args.games} games per variant (load {os.getloadavg()[0]:.1f})"
    )
    for col in (
        "variant",
        "verdicts",
        "won games",
        "who",
        "p50 ms",
        "p99 ms",
        "max ms",
        "p50 cpu",
        "p99 cpu",
        "max cpu",
        "answers from",
    ):
        table.add_column(col)
    for v in variants:
        r = run_variant(
            v, args.games, args.moves, args.follow, args.undo_every, args.seed, args.first_deal
        )
        ours, peer = r["ours"], r["peer"]
        assert isinstance(ours, Samples) and isinstance(peer, Samples)
        src = r["sources"]
        assert isinstance(src, Counter)
        total = sum(src.values())
        where = ", ".join(f"{k} {100 * n / total:.0f}%" for k, n in src.most_common())
        for who, s in (("prover", ours), ("solve (peer)", peer)):
            table.add_row(
                v, str(r["verdicts"]), str(r["won"]), who,
                f"{statistics.median(s.wall):.3f}", f"{pct(s.wall, 0.99):.2f}",
                f"{max(s.wall):.1f}", f"{statistics.median(s.cpu):.3f}",
                f"{pct(s.cpu, 0.99):.2f}", f"{max(s.cpu):.1f}",
                where if who == "prover" else "",
            )  # fmt: skip
        table.add_row(
            v, "", "", "prover ÷ solve",
            f"{statistics.median(ours.wall) / statistics.median(peer.wall):.2f}",
            f"{pct(ours.wall, 0.99) / pct(peer.wall, 0.99):.2f}", "",
            f"{statistics.median(ours.cpu) / statistics.median(peer.cpu):.2f}",
            f"{pct(ours.cpu, 0.99) / pct(peer.cpu, 0.99):.2f}", "",
            f"verdicts differ: {r['disagree']}",
        )  # fmt: skip
    console.print(table)
    console.print(f"load average at the end: {os.getloadavg()}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
