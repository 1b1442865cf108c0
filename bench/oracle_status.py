"""Benchmark: the table's verdict after every move of real games, through
``web.oracle.Oracle`` as the table uses it (issue 10 point 4: within 50 ms p99).

Games. The random-but-sensible player of ``bench/live_verdict.py`` plays deals
``--first-deal``… of each variant through ``eightoff.game.Game`` (safe auto-moves on):
each turn it plays the next move of a solution from its position with probability
``--follow`` (a player taking hints, or finding a winning line), else a random
sensible move (no cell to cell, never straight back, onto a column three times as
likely as into a cell); every ``--undo-every``-th action is an undo; at most
``--moves`` actions. The games are scripted once per variant (the player's solutions
come from a Prover of its own, outside every timing) and replayed in each mode, so
every mode sees the same positions.

Timed, per action: from the action (``Game.play`` / ``Game.undo``) through
``Oracle.on_board`` (what the table calls after every change) to the verdict being
available: ``Oracle.wait_status`` returns the final status (the status route's
``settled_status`` without the event loop). A verdict already known is answered on
the calling thread, with no hop to a worker.

Modes (one fresh Oracle each, 3 s status limit):

* ``off``: no speculation, the player moves as soon as the verdict is shown (the
  peer: the table without speculation);
* ``nopause``: speculation on, the player moves as soon as the verdict is shown
  (speculation is stopped by every move before it can finish);
* ``think``: speculation on, the player moves when speculation from the position has
  finished or after ``--think`` seconds (default 1 s), whichever comes first;
* ``pause``: speculation on, the player moves when speculation from the position has
  finished, however long it takes.

The pause column: how long the player waited (the think time modelled).

    cd bench && uv run python oracle_status.py                 # Eight Off, FreeCell, 200 games
    cd bench && uv run python oracle_status.py --games 20 --variant freecell --mode pause

Never part of the test run.
"""

from __future__ import annotations

import argparse
import gc
import os
import random
import statistics
import threading
import time
from collections import Counter
from dataclasses import dataclass, field

from live_verdict import pct, random_sensible_move
from rich.console import Console
from rich.table import Table

from eightoff.deals import deal
from eightoff.game import Game
from eightoff.oracle import Oracle
from eightoff.position import Move, Position
from eightoff.solver import Limits, Prover, Result, solve

MODES = ("off", "nopause", "think", "pause")
SLOW_MS = 50.0

Action = Move | None
"""A move, or None for an undo."""


def script(variant: str, args: argparse.Namespace) -> list[list[Action]]:
    """The player's actions in each game (played once, replayed in every mode)."""
    rng = random.Random(args.seed)
    brain = Prover(Limits(seconds=3.0))
    games: list[list[Action]] = []
    for g in range(args.games):
        game = Game(deal(variant, args.first_deal + g))
        actions: list[Action] = []
        last: Move | None = None
        for action in range(args.moves):
            pos = game.position
            if pos.is_won():
                break
            if args.undo_every and action % args.undo_every == args.undo_every - 1 and game.turns:
                game.undo()
                actions.append(None)
                last = None
                continue
            choice: Move | None
            if rng.random() < args.follow and (line := brain.verdict(pos).moves):
                choice = line[0]
            elif (choice := random_sensible_move(pos, last, rng)) is None:
                break
            game.play(choice)
            actions.append(choice)
            last = choice
        games.append(actions)
    return games


class GcClock:
    """The garbage collector's pauses (any thread), to tell them apart in the tail."""

    def __init__(self) -> None:
        self.pauses: list[tuple[float, float, int]] = []
        self._t = 0.0
        gc.callbacks.append(self._callback)

    def _callback(self, phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            self._t = time.perf_counter()
        else:
            self.pauses.append((self._t, time.perf_counter(), info["generation"]))

    def ms_between(self, t0: float, t1: float) -> float:
        return 1000 * sum(b - a for a, b, _ in self.pauses if a >= t0 and b <= t1)


GC = GcClock()


@dataclass
class Search:
    verdict: str
    ms: float
    states: int


class Recording:
    """The real solver, recording the searches made for asked verdicts (not those of
    the speculation thread)."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.calls: list[Search] = []

    def __call__(self, position: Position, limits: Limits) -> Result:
        r = solve(position, limits)
        if threading.current_thread().name != "eightoff-speculate":
            with self.lock:
                self.calls.append(Search(r.verdict, r.seconds * 1000, r.states))
        return r


@dataclass
class Run:
    ms: list[float] = field(default_factory=list)
    pause_ms: list[float] = field(default_factory=list)
    known: int = 0
    """Verdicts answered without a search for them."""
    verdicts: Counter[str] = field(default_factory=Counter)
    slow: list[tuple[float, str, str, list[Search], float]] = field(default_factory=list)
    """(ms, action, verdict, the searches made meanwhile, ms of GC pauses meanwhile)
    for actions over SLOW_MS."""
    speculated: dict[str, int] = field(default_factory=dict)
    stats: dict[str, int] = field(default_factory=dict)
    load: tuple[float, float] = (0.0, 0.0)
    gc: list[float] = field(default_factory=list)
    """Seconds of each full (generation 2) collection."""
    lookup_ms: list[float] = field(default_factory=list)
    """Actions answered without a search."""
    hop_ms: list[float] = field(default_factory=list)
    """Actions with searches: wall time minus the searches' own time (the hand-off to
    the status worker and back, and waiting for a core)."""


def run(variant: str, mode: str, games: list[list[Action]], first: int, think: float) -> Run:
    solver = Recording()
    oracle = Oracle(solver=solver)
    oracle.speculate = mode != "off"
    out = Run()
    load0 = os.getloadavg()[0]
    started = time.perf_counter()
    try:
        for g, actions in enumerate(games):
            game = Game(deal(variant, first + g))
            steps: list[Action | str] = ["start", *actions]
            for act in steps:
                if mode in ("think", "pause"):
                    t = time.perf_counter()
                    oracle.wait_speculation(think if mode == "think" else 600)
                    out.pause_ms.append((time.perf_counter() - t) * 1000)
                n_calls = len(solver.calls)
                t0 = time.perf_counter()
                if act is None:
                    game.undo()
                elif isinstance(act, Move):
                    game.play(act)
                pos = game.position
                oracle.on_board(1, pos)  # one window: the player's games one after another
                st = oracle.wait_status(1, game.positions(), 120)
                t1 = time.perf_counter()
                ms = (t1 - t0) * 1000
                out.ms.append(ms)
                calls = solver.calls[n_calls:]
                out.known += not calls
                if calls:
                    out.hop_ms.append(ms - sum(c.ms for c in calls))
                else:
                    out.lookup_ms.append(ms)
                out.verdicts[st.verdict] += 1
                if ms > SLOW_MS:
                    what = "undo" if act is None else "deal" if act == "start" else str(act)
                    out.slow.append((ms, what, st.verdict, calls, GC.ms_between(t0, t1)))
        out.speculated = dict(oracle.prover.speculated)
        out.gc = [b - a for a, b, g in GC.pauses if a >= started and g == 2]
        out.stats = {str(source): n for source, n in oracle.prover.stats.items()}
    finally:
        oracle.close()
    out.load = (load0, os.getloadavg()[0])
    return out


def spread(values: list[float]) -> str:
    if not values:
        return "-"
    return f"{statistics.median(values):.3f} / {pct(values, 0.99):.2f} / {max(values):.1f}"


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    p.add_argument("--variant", action="append", default=None)
    p.add_argument("--mode", action="append", choices=MODES, default=None)
    p.add_argument("--games", type=int, default=200)
    p.add_argument("--moves", type=int, default=150)
    p.add_argument("--follow", type=float, default=0.5)
    p.add_argument("--undo-every", type=int, default=15)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--first-deal", type=int, default=30001)
    p.add_argument("--think", type=float, default=1.0, help="seconds, in mode think")
    p.add_argument("--slow", type=int, default=12, help="slow actions listed per run")
    args = p.parse_args(argv)
    console = Console(width=200)
    table = Table(title=f"Verdict after each action, {args.games} games per variant")
    for col in (
        "variant", "mode", "actions", "no search", "p50 ms", "p99 ms", "max ms",
        f"> {SLOW_MS:.0f} ms", "pause p50 / p99 / max ms", "load start / end",
    ):  # fmt: skip
        table.add_column(col)
    notes: list[str] = []
    for v in args.variant or ["eightoff", "freecell"]:
        t = time.perf_counter()
        games = script(v, args)
        notes.append(
            f"{v}: {sum(len(a) for a in games)} actions scripted in {time.perf_counter() - t:.0f} s"
        )
        runs: dict[str, Run] = {}
        for mode in args.mode or MODES:
            r = runs[mode] = run(v, mode, games, args.first_deal, args.think)
            pause = (
                f"{statistics.median(r.pause_ms):.1f} / {pct(r.pause_ms, 0.99):.0f} / "
                f"{max(r.pause_ms):.0f}"
                if r.pause_ms
                else ""
            )
            table.add_row(
                v, mode, str(len(r.ms)), f"{100 * r.known / len(r.ms):.1f}%",
                f"{statistics.median(r.ms):.3f}", f"{pct(r.ms, 0.99):.2f}", f"{max(r.ms):.1f}",
                str(len(r.slow)), pause, f"{r.load[0]:.1f} / {r.load[1]:.1f}",
            )  # fmt: skip
            notes.append(
                f"{v} {mode}: verdicts {dict(r.verdicts)}; answers by source {r.stats}; "
                f"speculation {r.speculated}; full GCs {len(r.gc)}, longest "
                f"{1000 * max(r.gc, default=0):.0f} ms"
            )
            kinds = Counter(
                (verdict, "search" if calls else "no search") for _, _, verdict, calls, _ in r.slow
            )
            notes.append(
                f"  without a search: p50 / p99 / max {spread(r.lookup_ms)} ms; with one, "
                f"wall minus search time: {spread(r.hop_ms)} ms"
            )
            notes.append(f"  slow actions by verdict: {dict(kinds)}")
            for ms, what, verdict, calls, gc_ms in sorted(r.slow, reverse=True)[: args.slow]:
                searched = ", ".join(f"{c.verdict} {c.ms:.0f} ms {c.states} st" for c in calls)
                gc_note = f" (GC {gc_ms:.0f} ms)" if gc_ms >= 1 else ""
                notes.append(f"    {ms:8.1f} ms  {what:6}  {verdict:12}  {searched}{gc_note}")
        if "off" in runs:
            for mode, r in runs.items():
                if mode != "off":
                    base = runs["off"].ms
                    p50 = statistics.median(r.ms) / statistics.median(base)
                    p99 = pct(r.ms, 0.99) / pct(base, 0.99)
                    notes.append(f"{v} {mode} ÷ off: p50 {p50:.2f}, p99 {p99:.3f}")
    console.print(table)
    for line in notes:
        console.print(line, highlight=False)
    print(f"load average at the end: {os.getloadavg()}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
