"""Benchmark: our solver against Freecell Solver, in one process, on the same deals.

Both solvers run in this process, on one core, one at a time, deal after deal:

* ours: ``eightoff.solver.solve(position, Limits())`` and, with ``--short``,
  ``Limits(short=True)`` ("ours --short"); with ``--solo``, the core itself by default
  (``--ours-path batch``): ``solve_deals`` over the deals, as a survey runs them, each
  deal timed by the core's own CPU clock (its dealing, search and compiled replay);
* theirs: Freecell Solver's library (``libfreecell-solver.so.0``, Debian package
  ``libfreecell-solver0``) through the PyPI binding ``freecell_solver``, fed the board
  text of ``eightoff.boards.format_fcs(position)``, once per ``--presets`` entry
  (``-l te``, ``-l qsi``, … or ``single``: a complete depth-first search over single-card
  moves, ``--method soft-dfs -to 01ABCDE``, no pruning); a deal's time is
  ``freecell_solver_user_solve_board`` and the ``recycle`` after it (its range solver's
  work for each deal), not the reading of its solution's moves.

Every solution of either solver is replayed move by move through our engine
(``Position.check``/``apply``, outside the timed region) and its length counted the
same way, in both counts of ``eightoff.counts``: **player moves** (a group is one move;
the cards that safe auto-move would send home, and those sent home once the win is
certain, are free: the table's count, with auto-move on) and **single-card moves** (a
group counts as the single moves it stands for, every card home is one).  See
bench/README.md for the exact definitions.

    uv run python bench/solver_vs_fcsolve.py --variant eightoff --deals 1-10000
    uv run python bench/solver_vs_fcsolve.py --no-ours --deals 1-1000 --variant freecell

Never part of the test run.
"""

from __future__ import annotations

import argparse
import dataclasses
import itertools
import json
import math
import os
import resource
import statistics
import subprocess
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Final

from rich import box
from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)
from rich.table import Table

from eightoff.boards import format_fcs
from eightoff.counts import Counts, move_counts
from eightoff.deals import deal
from eightoff.position import HOME, IllegalMoveError, Move, Place, Position
from eightoff.rules import PRESETS, Build, EmptyColumn, Rules, preset

if TYPE_CHECKING:  # the solver is loaded with the first solver that runs
    from eightoff.solver import Limits

# ----- Freecell Solver ----------------------------------------------------------------

# fc_solve_solve_process_ret_t (fcs_enums.h)
FCS_STATE_WAS_SOLVED = 0
FCS_STATE_IS_NOT_SOLVEABLE = 1
FCS_STATE_EXCEEDS_MAX_NUM_TIMES = 3
FCS_STATE_SUSPEND_PROCESS = 5
FCS_STATE_INVALID_STATE = 8
FCS_STATE_FLARES_PLAN_ERROR = 12

# fcs_move_t.c[0] (fcs_move.h)
STACK_TO_STACK, STACK_TO_FREECELL, FREECELL_TO_STACK, FREECELL_TO_FREECELL = 0, 1, 2, 3
STACK_TO_FOUNDATION, FREECELL_TO_FOUNDATION = 4, 5
SEQ_TO_FOUNDATION, CANONIZE, SEPARATOR, NULL_MOVE = 11, 12, 13, 14

# fc-solve's own game presets, where one matches our variant exactly.
FCS_GAMES = {
    "eightoff": "eight_off",
    "freecell": "freecell",
    "supermove-freecell": "freecell",
    "bakers-game": "bakers_game",
    "seahaven-towers": "seahaven_towers",
}

# --presets names that are not fc-solve "-l" presets.
SPECIAL_PRESETS = {
    # A complete search: every single-card move (0 1: to the foundations; A-E: column to
    # empty column, column to parent, column to cell, cell to parent, cell to empty
    # column), soft DFS, no pruning.  Group moves are shortcuts for single-card moves,
    # so when this search is exhausted the deal is lost.
    "single": ["--method", "soft-dfs", "-to", "01ABCDE"],
}


class BenchError(Exception):
    """Something that stops the benchmark; the message says what and how to fix it."""


def fcs_game_args(rules: Rules) -> list[str]:
    """fc-solve's command-line arguments that describe a variant's rules."""
    if rules.foundation_retrieval or rules.strict_single:
        raise BenchError(f"{rules.id}: fc-solve has no equivalent of our rule options")
    if rules.id in FCS_GAMES and rules.cells == PRESETS[rules.id].cells:
        return ["--game", FCS_GAMES[rules.id]]  # else (--cells) its rules one by one
    return [
        "--freecells-num", str(rules.cells),
        "--stacks-num", str(rules.columns),
        "--decks-num", str(rules.decks),
        "--sequences-are-built-by",
        "suit" if rules.build is Build.SUIT else "alternate_color",
        "--empty-stacks-filled-by",
        "kings" if rules.empty_column is EmptyColumn.KINGS else "all",
        "--sequence-move", "limited",
    ]  # fmt: skip


def fcs_preset_args(name: str) -> list[str]:
    return SPECIAL_PRESETS.get(name, ["-l", name])


def fcs_move(raw: bytes) -> Move:
    """Our Move for one fcs_move_t (4 bytes: type, source, destination, cards)."""
    kind, src, dst, count = raw[0], raw[1], raw[2], raw[3]
    if kind == STACK_TO_STACK:
        return Move(Place.column(src), Place.column(dst), max(count, 1))
    if kind == STACK_TO_FREECELL:
        return Move(Place.column(src), Place.cell(dst))
    if kind == FREECELL_TO_STACK:
        return Move(Place.cell(src), Place.column(dst))
    if kind == FREECELL_TO_FREECELL:
        return Move(Place.cell(src), Place.cell(dst))
    if kind == STACK_TO_FOUNDATION:
        return Move(Place.column(src), HOME)
    if kind == FREECELL_TO_FOUNDATION:
        return Move(Place.cell(src), HOME)
    raise BenchError(f"fc-solve returned a move of type {kind}, which this benchmark cannot read")


@dataclass
class Outcome:
    verdict: str  # solved | lost | unknown
    ns: int  # wall clock
    cpu_ns: int  # this thread's CPU time
    moves: list[Move] | None
    states: int
    detail: str = ""


class FcSolve:
    """One Freecell Solver instance configured for a variant and a preset."""

    def __init__(self, rules: Rules, preset_name: str, limit_states: int | None) -> None:
        try:
            from freecell_solver import FreecellSolver
        except (ImportError, OSError) as e:
            raise BenchError(
                f"cannot load Freecell Solver ({e}): `uv sync` installs the binding;"
                " `apt-get install -y libfreecell-solver0` the library"
            ) from None
        self.name = preset_name
        self.label = f"fc-solve {preset_name}"
        self.args = fcs_game_args(rules) + fcs_preset_args(preset_name)
        self.fcs = FreecellSolver()
        parsed = self.fcs.input_cmd_line(self.args)
        if parsed["last_arg"] != len(self.args):
            bad = self.args[parsed["last_arg"]] if parsed["last_arg"] < len(self.args) else "?"
            raise BenchError(
                f"fc-solve did not accept {' '.join(self.args)!r} (stopped at {bad!r});"
                " presets live in /usr/share/freecell-solver/presetrc"
            )
        if limit_states is not None:
            self.fcs.limit_iterations(limit_states)
        self._solve_board = self.fcs.lib.freecell_solver_user_solve_board
        self._user = self.fcs.user
        self._ffi = self.fcs.ffi

    def run(self, position: Position, board: str, number: int) -> Outcome:
        """One deal; its time is the solve and the ``recycle`` after it (what its range
        solver does for each deal, as ours frees a search's memory within its own time),
        not the reading of the solution's moves in between."""
        text = board.encode()
        c0, t0 = time.thread_time_ns(), time.perf_counter_ns()
        ret = self._solve_board(self._user, text)
        ns, cpu = time.perf_counter_ns() - t0, time.thread_time_ns() - c0
        states = int(self.fcs.get_num_times())
        try:
            outcome = self._outcome(ret, ns, cpu, states, board, number)
        finally:  # recycled whatever the outcome, timed as part of it
            c0, t0 = time.thread_time_ns(), time.perf_counter_ns()
            self.fcs.recycle()
            ns, cpu = time.perf_counter_ns() - t0, time.thread_time_ns() - c0
        outcome.ns += ns
        outcome.cpu_ns += cpu
        return outcome

    def _outcome(
        self, ret: int, ns: int, cpu: int, states: int, board: str, number: int
    ) -> Outcome:
        """The outcome of a solve, its moves read."""
        if ret == FCS_STATE_WAS_SOLVED:
            moves = []
            while (m := self.fcs.get_next_move()) is not None:
                raw = bytes(self._ffi.buffer(m, 4))
                if raw[0] in (CANONIZE, SEPARATOR, NULL_MOVE):
                    continue
                moves.append(fcs_move(raw))
            return Outcome("solved", ns, cpu, moves, states)
        if ret == FCS_STATE_IS_NOT_SOLVEABLE:
            return Outcome("lost", ns, cpu, None, states)
        if ret in (FCS_STATE_SUSPEND_PROCESS, FCS_STATE_EXCEEDS_MAX_NUM_TIMES):
            msg = f"fc-solve stopped (code {ret})"
            return Outcome("unknown", ns, cpu, None, states, msg)
        if ret == FCS_STATE_INVALID_STATE:
            raise BenchError(
                f"deal {number}: fc-solve rejected the board text of format_fcs:\n{board}"
            )
        raise BenchError(f"deal {number}: fc-solve returned code {ret} ({self.label})")


# ----- ours ---------------------------------------------------------------------------
def our_limits(limit_states: int | None, seconds: float | None, short: bool = False) -> Limits:
    """Our default limits with --limit-states and --time-limit where given."""
    from eightoff.solver import Limits

    base = Limits()
    return dataclasses.replace(
        base,
        seconds=base.seconds if seconds is None else seconds,
        states=base.states if limit_states is None else limit_states,
        short=short,
    )


class Ours:
    def __init__(self, short: bool, limit_states: int | None, seconds: float | None) -> None:
        from eightoff.solver import solve

        self.limits = our_limits(limit_states, seconds, short)
        self._solve = solve
        self.name = "ours-short" if short else "ours"
        self.label = "ours --short" if short else "ours"

    def run(self, position: Position, board: str, number: int) -> Outcome:
        c0, t0 = time.thread_time_ns(), time.perf_counter_ns()
        result = self._solve(position, self.limits)
        ns, cpu = time.perf_counter_ns() - t0, time.thread_time_ns() - c0
        moves = list(result.moves) if result.verdict == "solved" else None
        detail = getattr(result, "reason", "")
        return Outcome(result.verdict, ns, cpu, moves, int(result.states), detail)


class OursBatch:
    """Ours through the core's batch path, as a survey runs it (``--solo`` only):
    ``solve_deals`` over each run of consecutive deals in one call (the main search, the
    solutions kept as the compiled replay's keys), a deal's time the core's own clock of
    it, CPU time: its dealing in C, its search and the compiled replay.  ``prepare``
    solves a pass's deals; ``run`` hands each deal's outcome out in turn."""

    def __init__(self, limit_states: int | None, seconds: float | None) -> None:
        from eightoff.solver import moves_of_keys, solve_deals

        self.limits = our_limits(limit_states, seconds)
        self._solve_deals = solve_deals
        self._moves_of_keys = moves_of_keys
        self.name = "ours"
        self.label = "ours (batch path)"
        self._done: dict[int, Outcome] = {}

    def prepare(self, rules: Rules, numbers: Sequence[int]) -> None:
        from eightoff.solver._core import REPLAY_FAILED

        self._solve_deals(rules, numbers[0], 1, self.limits)  # warm up, not recorded
        self._done = {}
        for first, count in consecutive_runs(numbers):
            block = self._solve_deals(rules, first, count, self.limits, keep_moves=True)
            keys = block.keys or ()
            at = 0
            for i, verdict in enumerate(block.verdicts()):
                if block.status[i] == REPLAY_FAILED:
                    raise BenchError(f"deal {first + i}: the compiled replay refused our solution")
                length = block.lengths[i]
                moves = None
                if verdict == "solved":
                    moves = list(self._moves_of_keys(keys[at : at + length]))
                    at += length
                ns = round(block.seconds[i] * 1e9)
                self._done[first + i] = Outcome(str(verdict), ns, ns, moves, block.states[i])

    def run(self, position: Position, board: str, number: int) -> Outcome:
        return self._done[number]


def consecutive_runs(numbers: Sequence[int]) -> list[tuple[int, int]]:
    """``numbers`` as runs of consecutive deals: (first, count), in order."""
    runs: list[tuple[int, int]] = []
    for n in numbers:
        if runs and runs[-1][0] + runs[-1][1] == n:
            runs[-1] = (runs[-1][0], runs[-1][1] + 1)
        else:
            runs.append((n, 1))
    return runs


Solver = FcSolve | Ours | OursBatch


# ----- checking solutions -------------------------------------------------------------
@dataclass
class Replay:
    valid: bool
    length: int
    """Player moves (eightoff.counts, safe auto-move on)."""
    single: int = 0
    """Single-card moves."""
    implied: int = 0
    error: str = ""


def replay(start: Position, moves: Sequence[Move]) -> Replay:
    """Play a solution through our engine; count it in player moves (``length``) and in
    single-card moves (``single``), as :mod:`eightoff.counts` defines them.

    Cards a solver left out at the end (sent home implicitly) are added as safe
    auto-moves: counted in ``implied`` and in ``single`` (they are free player moves).
    """
    pos = start
    total = Counts()
    for i, move in enumerate(moves, start=1):
        try:
            pos.check(move)
        except IllegalMoveError as e:
            return Replay(False, 0, 0, 0, f"move {i} {move}: {e}")
        total += move_counts(pos, move)
        pos = pos.apply_unchecked(move)
    implied = 0
    while not pos.is_won() and (m := pos.safe_auto_move()) is not None:
        total += move_counts(pos, m)
        pos = pos.apply(m)
        implied += 1
    if not pos.is_won():
        return Replay(False, 0, 0, implied, "the moves do not end with every card home")
    return Replay(True, total.player, total.single_card, implied)


# ----- rows and statistics ------------------------------------------------------------
@dataclass
class Row:
    variant: str
    deal: int
    solver: str
    verdict: str
    ms: float  # wall clock
    cpu_ms: float  # CPU time of the thread
    states: int
    length: int | None = None  # player moves
    single: int | None = None  # single-card moves
    valid: bool | None = None
    implied: int = 0
    detail: str = ""
    rss_mb: float = 0.0
    paired_with: str = ""  # --paired: the fc-solve preset of this row's pass


@dataclass
class Summary:
    label: str
    clock: str = "cpu"
    rows: list[Row] = field(default_factory=list)
    rss_growth_mb: float = 0.0

    def count(self, verdict: str) -> int:
        return sum(r.verdict == verdict for r in self.rows)

    @property
    def times(self) -> list[float]:
        return [r.cpu_ms if self.clock == "cpu" else r.ms for r in self.rows]

    @property
    def lengths(self) -> list[int]:
        """Valid solutions' lengths in player moves."""
        return [r.length for r in self.rows if r.valid and r.length is not None]

    @property
    def singles(self) -> list[int]:
        """Valid solutions' lengths in single-card moves."""
        return [r.single for r in self.rows if r.valid and r.single is not None]

    @property
    def invalid(self) -> int:
        return sum(r.valid is False for r in self.rows)


def percentile(values: Sequence[float], q: float) -> float:
    """Nearest-rank percentile (q in 0…100)."""
    s = sorted(values)
    if not s:
        return math.nan
    k = max(1, math.ceil(q / 100 * len(s)))
    return s[k - 1]


def median(values: Sequence[float]) -> float:
    return statistics.median(values) if values else math.nan


def mean(values: Sequence[float]) -> float:
    return statistics.fmean(values) if values else math.nan


def ratio(a: float, b: float) -> float:
    return a / b if b and not math.isnan(a) and not math.isnan(b) else math.nan


def fmt(x: float, digits: int = 3) -> str:
    if math.isnan(x):
        return "–"
    if x >= 100:
        return f"{x:,.0f}".replace(",", " ")
    return f"{x:.{digits}g}" if x < 1 else f"{x:.{max(1, digits - 1)}f}".rstrip("0").rstrip(".")


# ----- the run ------------------------------------------------------------------------
def parse_deals(text: str, option: str = "--deals") -> list[int]:
    """'1-100,200 300-310' → numbers (in order, no repeats); errors name ``option``."""
    out: list[int] = []
    seen: set[int] = set()
    for part in text.replace(",", " ").split():
        lo, dash, hi = part.partition("-")
        try:
            a = int(lo)
            b = int(hi) if dash else a
        except ValueError:
            raise BenchError(f"{option}: {part!r} is not a number or a range like 1-100") from None
        if a < 1 or b < a:
            raise BenchError(f"{option}: {part!r} is not a range of deal numbers ≥ 1")
        for n in range(a, b + 1):
            if n not in seen:
                seen.add(n)
                out.append(n)
    if not out:
        raise BenchError(f"{option}: no deals given")
    return out


def parse_firsts(text: str, size: int) -> list[int]:
    """--ranges: the first deals (numbers as --deals reads them, no ranges), and
    --range-size ≥ 1."""
    if size < 1:
        raise BenchError(f"--range-size {size}: give 1 or more deals")
    if "-" in text:
        raise BenchError(f"--ranges {text!r}: give the first deal of each range, e.g. 1,100001")
    return parse_deals(text, "--ranges")


def peak_rss_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024  # KiB on Linux


def revision() -> str:
    """The checkout measured: commit, and whether the solver's sources differ from it."""
    root = Path(__file__).resolve().parent.parent
    try:
        head = subprocess.run(
            ["git", "rev-parse", "--short", "HEAD"], cwd=root, capture_output=True, text=True
        ).stdout.strip()
        dirty = subprocess.run(
            ["git", "status", "--porcelain", "--", "src/eightoff/solver"],
            cwd=root, capture_output=True, text=True,
        ).stdout.strip()  # fmt: skip
    except OSError:
        return "revision unknown"
    if not head:
        return "revision unknown"
    return f"commit {head}" + (" + uncommitted solver changes" if dirty else "")


def pin_to_one_core(cpu: int | None) -> str:
    if cpu is not None and cpu < 0:
        return "not pinned"
    allowed = sorted(os.sched_getaffinity(0))
    chosen = allowed[0] if cpu is None else cpu
    os.sched_setaffinity(0, {chosen})
    return f"pinned to CPU {chosen}"


def run(
    rules: Rules,
    numbers: list[int],
    solvers: list[Solver],
    console: Console,
    on_row: Callable[[Row], None],
    clock: str,
    paired_with: str = "",
    check: bool = True,
) -> dict[str, Summary]:
    """Each solver on each deal, taking turns deal by deal; each solution replayed through
    our engine unless ``check`` is false (then ``valid`` stays None and no length)."""
    summaries = {s.name: Summary(s.label, clock) for s in solvers}
    # Warm up each solver once (imports, first allocations), not recorded.
    first = deal(rules, numbers[0])
    for s in solvers:
        if isinstance(s, OursBatch):
            before = peak_rss_mb()
            s.prepare(rules, numbers)  # the whole batch, timed by the core's clock
            summaries[s.name].rss_growth_mb += peak_rss_mb() - before
        else:
            s.run(first, format_fcs(first), numbers[0])
    progress = Progress(
        TextColumn("[bold]{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TextColumn("{task.fields[status]}"),
        TimeElapsedColumn(),
        TimeRemainingColumn(),
        console=console,
        transient=False,
    )
    orders = list(itertools.permutations(solvers))
    with progress:
        title = f"{rules.name} with {paired_with}" if paired_with else rules.name
        task = progress.add_task(title, total=len(numbers), status="")
        for i, number in enumerate(numbers):
            position = deal(rules, number)
            board = format_fcs(position)
            # Cycle through every order of the solvers, so that none always meets a cold
            # cache or always follows the same one.
            for s in orders[i % len(orders)]:
                before = peak_rss_mb()
                out = s.run(position, board, number)
                after = peak_rss_mb()
                summary = summaries[s.name]
                summary.rss_growth_mb += after - before
                row = Row(
                    rules.id, number, s.name, out.verdict, out.ns / 1e6, out.cpu_ns / 1e6,
                    out.states, detail=out.detail, rss_mb=after, paired_with=paired_with,
                )  # fmt: skip
                if out.moves is not None and check:
                    rp = replay(position, out.moves)
                    row.valid, row.implied = rp.valid, rp.implied
                    if rp.valid:
                        row.length, row.single = rp.length, rp.single
                    if rp.error:
                        row.detail = rp.error
                summary.rows.append(row)
                on_row(row)
            progress.update(
                task,
                advance=1,
                status=f"deal {number}  "
                + " ".join(f"{s.name}:{summaries[s.name].rows[-1].verdict[0]}" for s in solvers),
            )
    return summaries


def solo(
    rules: Rules,
    numbers: list[int],
    solvers: list[Solver],
    passes: int,
    console: Console,
    clock: str,
) -> tuple[dict[str, Summary], list[str]]:
    """--solo: each solver alone over the whole batch, ``passes`` passes each, the solvers'
    passes alternating (pass 1 of each in turn, then pass 2 in the order turned by one,
    ...), a deal's time its least over the passes (what the deal costs the solver when
    nothing else disturbs it: the least is the figure least inflated by the machine).
    Verdicts, states and solutions are those of the first pass (replayed through our
    engine); a later pass that gives another verdict or state count is reported.
    Returns the summaries and the notes on passes that differed."""
    best: dict[str, Summary] = {}
    notes: list[str] = []
    for p in range(passes):
        turn = p % len(solvers)
        for s in solvers[turn:] + solvers[:turn]:
            one = run(rules, numbers, [s], console, lambda row: None, clock,
                      f"solo pass {p + 1}", check=p == 0)[s.name]  # fmt: skip
            if p == 0:
                best[s.name] = one
                continue
            kept = best[s.name]
            for old, new in zip(kept.rows, one.rows, strict=True):
                if (old.verdict, old.states) != (new.verdict, new.states):
                    notes.append(
                        f"{s.label}: deal {old.deal}: pass {p + 1} gave {new.verdict} in"
                        f" {new.states} states, pass 1 {old.verdict} in {old.states}"
                    )
                old.ms = min(old.ms, new.ms)
                old.cpu_ms = min(old.cpu_ms, new.cpu_ms)
                old.rss_mb = max(old.rss_mb, new.rss_mb)
            kept.rss_growth_mb += one.rss_growth_mb
    for summary in best.values():
        for row in summary.rows:
            row.paired_with = f"solo, least of {passes} passes"
    return best, notes


# ----- report -------------------------------------------------------------------------
def time_ratios(a: Summary, b: Summary) -> dict[str, float]:
    """a ÷ b: median, mean, p99 and max time."""
    return {
        "median": ratio(median(a.times), median(b.times)),
        "mean": ratio(mean(a.times), mean(b.times)),
        "p99": ratio(percentile(a.times, 99), percentile(b.times, 99)),
        "max": ratio(max(a.times), max(b.times)),
    }


def ratio_cells(a: Summary, b: Summary) -> list[str]:
    """a ÷ b: median, mean, p99 and max time, median player moves."""
    return [
        *(fmt(v) for v in time_ratios(a, b).values()),
        fmt(ratio(median([float(x) for x in a.lengths]), median([float(x) for x in b.lengths]))),
    ]


def report(
    rules: Rules,
    numbers: list[int],
    summaries: dict[str, Summary],
    console: Console,
    markdown: bool,
    setup: str,
) -> list[int]:
    """Print the tables; return the deals where verdicts differ."""
    style = box.MARKDOWN if markdown else box.SIMPLE_HEAVY
    span = (
        f"{numbers[0]}–{numbers[-1]}"
        if numbers == list(range(numbers[0], numbers[-1] + 1))
        else f"{len(numbers)} deals"
    )
    console.print(
        f"\n{rules.name} ({rules.id}), deals {span} ({len(numbers)} deals); {setup}\n",
        soft_wrap=True,
    )

    t = Table(box=style, title=None)
    for col in (
        "solver", "solved", "lost", "unknown", "median ms", "mean ms", "p99 ms", "max ms",
        "median player moves", "mean player moves", "median single-card moves",
        "median states", "bad solutions", "RSS growth MB",
    ):  # fmt: skip
        t.add_column(col, justify="left" if col == "solver" else "right")
    for s in summaries.values():
        states = [float(r.states) for r in s.rows]
        t.add_row(
            s.label,
            str(s.count("solved")),
            str(s.count("lost")),
            str(s.count("unknown")),
            fmt(median(s.times)),
            fmt(mean(s.times)),
            fmt(percentile(s.times, 99)),
            fmt(max(s.times)),
            fmt(median([float(x) for x in s.lengths])),
            fmt(mean([float(x) for x in s.lengths])),
            fmt(median([float(x) for x in s.singles])),
            fmt(median(states)),
            str(s.invalid),
            fmt(s.rss_growth_mb),
        )
    console.print(t)

    ours = [k for k in summaries if k.startswith("ours")]
    theirs = [k for k in summaries if not k.startswith("ours")]
    if ours and theirs:
        r = Table(box=style)
        for col in ("ours ÷ theirs", "median time", "mean time", "p99 time", "max time",
                    "median player moves"):  # fmt: skip
            r.add_column(col, justify="left" if col == "ours ÷ theirs" else "right")
        for o in ours:
            for th in theirs:
                a, b = summaries[o], summaries[th]
                r.add_row(f"{a.label} ÷ {b.label}", *ratio_cells(a, b))
        console.print(r)

    console.print(f"peak memory of the process (ru_maxrss): {fmt(peak_rss_mb())} MB")

    # Deals where the verdicts differ.
    by_deal: dict[int, dict[str, str]] = {}
    for key, s in summaries.items():
        for row in s.rows:
            by_deal.setdefault(row.deal, {})[key] = row.verdict
    differ = [n for n, v in by_deal.items() if len(set(v.values())) > 1]
    contradictions = [n for n in differ if {"solved", "lost"} <= set(by_deal[n].values())]
    # a solution our engine accepted move by move proves the deal won: a "lost" beside it
    # is the claim of a search that is not complete (fc-solve's presets prune), not a
    # contradiction between two proofs
    won = {row.deal for s in summaries.values() for row in s.rows if row.valid is True}
    refuted = [n for n in contradictions if n in won]
    # and a "solved" whose every solution our engine refused proves nothing either (lg and
    # cm do not keep Seahaven Towers' and Eight Off's rule that only Kings fill an empty
    # column): beside a "lost", it is a rule broken, not a contradiction
    claimed = {
        n
        for n in contradictions
        if n not in won
        and all(
            row.valid is False
            for s in summaries.values()
            for row in s.rows
            if row.deal == n and row.verdict == "solved"
        )
    }
    if differ:
        console.print(
            f"verdicts differ on {len(differ)} deal(s)"
            f" ({len(contradictions) - len(refuted) - len(claimed)} solved-vs-lost"
            f" contradiction(s), {len(refuted)} 'lost' refuted by a solution that replays,"
            f" {len(claimed)} 'solved' with only solutions that break the rules)"
        )
        for n in differ[:100]:
            flag = ""
            if n in refuted:
                flag = "  'lost' refuted: the solution replays (that search is not complete)"
            elif n in claimed:
                flag = "  'solved' refuted: every solution given breaks the rules"
            elif n in contradictions:
                flag = "  CONTRADICTION"
            v = by_deal[n]
            console.print(f"  {n}: " + ", ".join(f"{summaries[k].label}={v[k]}" for k in v) + flag)
        if len(differ) > 100:
            console.print(f"  … and {len(differ) - 100} more (see --json)")
    else:
        console.print("verdicts agree on every deal")
    for s in summaries.values():
        bad = [r for r in s.rows if r.valid is False]
        for row in bad[:10]:
            console.print(f"  {s.label}: deal {row.deal}: solution rejected: {row.detail}")
        implied = sum(r.implied for r in s.rows)
        if implied:
            console.print(f"  {s.label}: {implied} card(s) left to go home implicitly (counted)")
    return differ


def peer_of(theirs: Sequence[Summary]) -> Summary | None:
    """The peer among Freecell Solver's presets: the fastest (lowest median time) of those
    whose every solution our engine accepted (a preset that breaks the variant's rules is
    not a peer); None when none did."""
    legal = [s for s in theirs if s.invalid == 0]
    return min(legal, key=lambda s: median(s.times)) if legal else None


def report_paired(
    rules: Rules,
    passes: dict[str, dict[str, Summary]],
    console: Console,
    markdown: bool,
) -> None:
    """--paired: ours against each preset in the pass the two ran alone, and the peer.

    The peer is the fastest preset (lowest median) among those whose every solution our
    engine accepted: a preset that breaks the variant's rules is not a peer.
    """
    style = box.MARKDOWN if markdown else box.SIMPLE_HEAVY
    t = Table(box=style, title=None)
    for col in (
        "pass", "ours median ms", "theirs median ms", "median time", "mean time",
        "p99 time", "max time", "median player moves", "theirs bad solutions",
    ):  # fmt: skip
        t.add_column(col, justify="left" if col == "pass" else "right")
    for name, summaries in passes.items():
        b = summaries[name]
        for key, a in summaries.items():
            if not key.startswith("ours"):
                continue
            t.add_row(
                f"{a.label} ÷ {b.label}",
                fmt(median(a.times)),
                fmt(median(b.times)),
                *ratio_cells(a, b),
                str(b.invalid),
            )
    console.print(
        f"\n{rules.name}: ours against each preset, each pair in a pass of its own"
        " (--paired); ratios are ours ÷ theirs",
        soft_wrap=True,
    )
    console.print(t)
    peer = peer_of([summaries[name] for name, summaries in passes.items()])
    if peer is not None:
        console.print(f"peer (the fastest preset whose every solution is legal): {peer.label}")
    else:
        console.print("no preset solved every deal legally: no peer")


def report_peer(summaries: dict[str, Summary], console: Console) -> None:
    """--solo: the peer, the fastest preset (lowest median) whose every solution our engine
    accepted, and ours ÷ the peer (the ratios themselves are in report's second table)."""
    theirs = [s for k, s in summaries.items() if not k.startswith("ours")]
    if not theirs:
        return
    peer = peer_of(theirs)
    if peer is None:
        console.print("no preset solved every deal legally: no peer")
        return
    for key, a in summaries.items():
        if key.startswith("ours"):
            med, avg, p99, mx, moves = ratio_cells(a, peer)
            console.print(
                f"{a.label} ÷ the peer ({peer.label}, the fastest legal preset): median {med},"
                f" mean {avg}, p99 {p99}, max {mx}; median player moves {moves}"
            )


SOLO_GOALS: Final = {"median": 0.5, "mean": 0.6, "p99": 1.0, "max": 1.5}
"""Issue 20.5's goals for ours ÷ the peer, on every range of deals tried."""


def solo_ranges(
    rules: Rules,
    firsts: list[int],
    size: int,
    solvers: list[Solver],
    passes: int,
    console: Console,
    out: Console,
    clock: str,
    markdown: bool,
    on_row: Callable[[Row], None],
) -> None:
    """--solo with --ranges: a solo batch of ``size`` deals from each first deal, and one
    row a range of ours ÷ its peer (the fastest legal preset of that range), each ratio
    marked where it misses its goal (SOLO_GOALS); then, for each figure, on how many ranges
    the goal is met, the worst range and the geometric mean over the ranges.  Ratios print
    with three decimals: one just past its goal must not print as the goal."""

    def three(v: float) -> str:
        return f"{v:.3f}" if v < 10 else fmt(v)

    style = box.MARKDOWN if markdown else box.SIMPLE_HEAVY
    t = Table(box=style, title=None)
    for col in ("deals", "peer", *SOLO_GOALS, "slowest deal: ours / theirs (ms)"):
        t.add_column(col, justify="left" if col in ("deals", "peer") else "right")
    figures: dict[str, list[tuple[float, str]]] = {k: [] for k in SOLO_GOALS}
    for first in firsts:
        numbers = list(range(first, first + size))
        summaries, notes = solo(rules, numbers, solvers, passes, console, clock)
        for summary in summaries.values():
            for row in summary.rows:
                on_row(row)
        for note in notes[:5]:
            console.print(f"  {note}")
        span = f"{first}–{first + size - 1}"
        peer = peer_of([s for k, s in summaries.items() if not k.startswith("ours")])
        ours = next((s for k, s in summaries.items() if k.startswith("ours")), None)
        if peer is None or ours is None:
            t.add_row(span, "no peer" if peer is None else peer.label, *["–"] * 5)
            continue
        cells = []
        for key, v in time_ratios(ours, peer).items():
            figures[key].append((v, span))
            cells.append(three(v) + (" ✗" if v > SOLO_GOALS[key] else ""))
        slowest = ours.rows[ours.times.index(max(ours.times))]
        t.add_row(
            span,
            peer.label,
            *cells,
            f"{fmt(max(ours.times))} (#{slowest.deal}) / {fmt(max(peer.times))}",
        )
    out.print(
        f"\n{rules.name}: ours ÷ the peer on {len(firsts)} ranges of {size} deals"
        f" ({revision()}; each range a solo batch, {passes} pass{'' if passes == 1 else 'es'};"
        " ✗: beyond issue 20.5's goal)",
        soft_wrap=True,
    )
    out.print(t)
    for key, goal in SOLO_GOALS.items():
        got = figures[key]
        if not got:
            continue
        met = sum(v <= goal for v, _ in got)
        worst, where = max(got)
        geo = math.exp(statistics.fmean(math.log(v) for v, _ in got))
        out.print(
            f"{key}: goal ≤ {goal} met on {met} of {len(got)} ranges; worst {three(worst)}"
            f" ({where}); geometric mean {three(geo)}"
        )


def write_lost(
    path: Path,
    rules: Rules,
    numbers: list[int],
    summaries: dict[str, Summary],
    command: str,
    confirm_states: int,
    console: Console,
) -> int:
    """Write the deals fc-solve proved lost; refuse on any doubt.

    A deal goes in the file when every fc-solve preset of the run exhausted it and the
    complete single-card search ("single", no pruning) exhausts it too within
    ``confirm_states`` states.  Every other deal must have a solution that our engine
    accepted move by move (itself a proof that the deal is won).
    """
    theirs = {k: s for k, s in summaries.items() if not k.startswith("ours")}
    if not theirs:
        raise BenchError("--write-lost needs fc-solve in the run (--presets te)")
    rows: dict[int, list[Row]] = {}
    for s in theirs.values():
        for r in s.rows:
            rows.setdefault(r.deal, []).append(r)
    lost, doubt = [], []
    for n, rs in rows.items():
        verdicts = {r.verdict for r in rs}
        if verdicts == {"lost"}:
            lost.append(n)
        elif not any(r.verdict == "solved" and r.valid for r in rs) or "lost" in verdicts:
            doubt.append(n)
    if doubt:
        raise BenchError(f"not writing {path}: no proven verdict or disagreement on {doubt[:20]}")
    single = FcSolve(rules, "single", confirm_states)
    for n in lost:
        position = deal(rules, n)
        out = single.run(position, format_fcs(position), n)
        console.print(f"deal {n}: single-card search: {out.verdict} after {out.states} states")
        if out.verdict != "lost":
            raise BenchError(
                f"not writing {path}: deal {n} exhausted by fc-solve's presets but the complete"
                f" single-card search says {out.verdict} after {out.states} states"
            )
    lost.sort()
    span = f"{numbers[0]}-{numbers[-1]}"
    presets = ", ".join(f"`{' '.join(fcs_game_args(rules) + fcs_preset_args(k))}`" for k in theirs)
    header = [
        f"# {rules.name} ({rules.id}): the deals among {span} that cannot be won,",
        f"# by PySolFC deal number ({len(lost)} of {len(numbers)}), one per line.",
        "# Produced with Freecell Solver 5.0 (Debian libfreecell-solver0, in-process via",
        "# the PyPI binding freecell_solver), bench/solver_vs_fcsolve.py --write-lost:",
        f"# {presets} exhausted each of these deals",
        "# (FCS_STATE_IS_NOT_SOLVEABLE), and so did a complete depth-first search over",
        f"# every single-card move without pruning (`{' '.join(fcs_preset_args('single'))}`);",
        "# every other deal was solved and its solution replayed through our engine.",
        f"# Command: {command}",
    ]
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("\n".join(header + [str(n) for n in lost]) + "\n")
    return len(lost)


# ----- whole processes (issue 20.4) ----------------------------------------------------
FCS_PREFIX: Final = "/opt/fcs-latest"
"""Where ../shared/tools/build-fcsolve-latest.sh installs Freecell Solver 6.16 (all games),
and, with -extra-speed2, its author's record build (FreeCell only, strategy compiled in)."""
FCS_DEBIAN: Final = Path("/usr/bin")
"""Debian's freecell-solver-bin (5.0): only where 6.16 is missing."""


@dataclass(frozen=True)
class Command:
    """One whole process to time: its label, its argv and the CPUs it may use."""

    label: str
    argv: tuple[str, ...]
    cpus: str
    fresh_db: bool = False
    """Give it a new empty survey store each run (appended as ``--db FILE``)."""
    pythonpath: str | None = None
    """Run another checkout's eightoff (its ``src``, built): ``--compare-src``."""


def fcs_tool(name: str, prefix: str, record: bool = False) -> tuple[Path, str]:
    """A Freecell Solver program: 6.16 (or its record build), else Debian's 5.0; and which."""
    latest = Path(prefix + ("-extra-speed2" if record else "")) / "bin"
    places = [(latest, "6.16 extra_speed2" if record else "6.16")]
    if not record:
        places.append((FCS_DEBIAN, "Debian 5.0"))
    for base, which in places:
        if (base / name).exists():
            return base / name, which
    raise BenchError(
        f"{name} not found under {latest}{'' if record else ' or ' + str(FCS_DEBIAN)}:"
        " build it with ../shared/tools/build-fcsolve-latest.sh"
    )


def adopt_orphans() -> None:
    """Become the subreaper of what we start (Linux prctl PR_SET_CHILD_SUBREAPER), so that
    a program's orphaned descendants (our survey's forkserver and its workers) come back
    to us when they end and their CPU time counts in RUSAGE_CHILDREN."""
    import ctypes

    libc = ctypes.CDLL(None, use_errno=True)
    if libc.prctl(36, 1, 0, 0, 0) != 0:  # PR_SET_CHILD_SUBREAPER
        raise BenchError("cannot become a subreaper: CPU times would miss the workers")


def reap_orphans() -> None:
    """Wait for every descendant left behind (so that its CPU time is counted)."""
    while True:
        try:
            os.waitpid(-1, 0)
        except ChildProcessError:
            return


def time_process(cmd: Command, tmp: Path, run: int, warm_up: bool = False) -> tuple[float, float]:
    """Run a command once (output to /dev/null); its wall seconds and the CPU seconds of
    it and all its descendants.  ``warm_up``: the untimed run before the timed ones, which
    may write Python's bytecode cache (``__pycache__``) even where the environment says
    not to (PYTHONDONTWRITEBYTECODE, set on some machines this runs on): the timed runs
    then read it, as every run after a user's first does."""
    argv = ["taskset", "-c", cmd.cpus, *cmd.argv]
    if cmd.fresh_db:
        store = tmp / f"whole-{run}.sqlite3"
        store.unlink(missing_ok=True)  # a fresh store each run: nothing already stored
        argv += ["--db", str(store)]
    env = None
    if cmd.pythonpath is not None:
        env = {**os.environ, "PYTHONPATH": cmd.pythonpath}
    if warm_up:
        env = {k: v for k, v in (env or os.environ).items() if k != "PYTHONDONTWRITEBYTECODE"}
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    done = subprocess.run(
        argv, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, check=False, env=env
    )
    wall = time.perf_counter() - t0
    reap_orphans()
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode not in (0, 1):  # 1: some deal proven lost (ours; FreeCell 11982)
        raise BenchError(
            f"{' '.join(argv)} failed ({done.returncode}): {done.stderr.decode()[-300:]}"
        )
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu


def whole_groups(
    first: int, last: int, variant: str, prefix: str, compare_src: str | None = None
) -> list[tuple[str, list[Command]]]:
    """The comparisons: ours first in each group, each peer after it (the output group:
    --quiet first, the text and --json after it; with ``compare_src``, the same three
    of that checkout after them, in the same turns)."""
    eo = (sys.executable, "-m", "eightoff.cli")
    deals = (str(first), str(last))
    groups: list[tuple[str, list[Command]]] = []
    for workers, cpus in ((1, "0"), (2, "0,1")):
        ours = Command(
            f"eightoff survey, {workers} worker{'s' if workers > 1 else ''}",
            (*eo, "survey", *deals, "--variant", variant, "--workers", str(workers)),
            cpus,
            fresh_db=True,
        )
        peers = []
        if variant == "freecell":
            tool = (
                "freecell-solver-range-parallel-solve"
                if workers == 1
                else "freecell-solver-multi-thread-solve"
            )
            threads = () if workers == 1 else ("--num-workers", str(workers))
            for record in (False, True):
                try:
                    path, which = fcs_tool(tool, prefix, record)
                except BenchError as e:
                    print(f"skipped: {e}", file=sys.stderr)
                    continue
                peers.append(
                    Command(
                        f"{tool} -l lg ({which})",
                        (str(path), *deals, str(last), *threads, "-l", "lg"),
                        cpus,
                    )
                )
        groups.append((f"{variant} {first}-{last}, {workers} worker(s)", [ours, *peers]))
    solve = (*eo, "solve", f"{first}-{last}", "--variant", variant)
    output = [
        Command("eightoff solve --quiet", (*solve, "--quiet"), "0"),
        Command("eightoff solve (text)", solve, "0"),
        Command("eightoff solve --json", (*solve, "--json"), "0"),
    ]
    if compare_src is not None:
        src = str(Path(compare_src) / "src")
        name = Path(compare_src).name
        output += [
            Command(f"[{name}] {c.label.removeprefix('eightoff ')}", c.argv, c.cpus, False, src)
            for c in output
        ]
    groups.append((f"eightoff solve {first}-{last} output (one core)", output))
    return groups


def whole_process(
    first: int,
    last: int,
    variant: str,
    runs: int,
    only: str | None,
    prefix: str,
    compare_src: str | None = None,
) -> int:
    """Each group's commands in turns, ``runs`` times; the medians and their ratios (in
    the output group each to the --quiet of its own checkout)."""
    import tempfile

    adopt_orphans()
    groups = whole_groups(first, last, variant, prefix, compare_src)
    if only:
        groups = [g for g in groups if only in g[0]]
    with tempfile.TemporaryDirectory() as tmp:
        for title, commands in groups:
            walls: dict[str, list[float]] = {c.label: [] for c in commands}
            cpus: dict[str, list[float]] = {c.label: [] for c in commands}
            for cmd in commands:  # untimed: the page cache and the bytecode cache warm
                time_process(cmd, Path(tmp), -1, warm_up=True)
            loads = [os.getloadavg()[0]]
            for run_no in range(runs):
                for cmd in commands:  # alternating: one run of each in turn
                    wall, cpu = time_process(cmd, Path(tmp), run_no)
                    walls[cmd.label].append(wall)
                    cpus[cmd.label].append(cpu)
                    loads.append(os.getloadavg()[0])
            overhead = "output" in title  # this / --quiet; else ours / this
            print(
                f"\n{title}: one untimed run of each, then {runs} runs each, alternating;"
                f" medians, ratios of medians; CPU:"
                f" the process and all its descendants; load (1 min) {min(loads):.2f}"
                f"-{max(loads):.2f}, {loads[0]:.2f} before, {loads[-1]:.2f} after"
            )
            head = "it / quiet" if overhead else "ours / it"
            print(
                f"  {'command':<52} {'wall s':>7} {'min s':>7} {head:>10}"
                f" {'CPU s':>7} {'min s':>7} {head:>10}"
            )
            for k, cmd in enumerate(commands):
                first_of_its_kind = commands[3 * (k // 3) if overhead else 0].label
                base = statistics.median(walls[first_of_its_kind])
                cbase = statistics.median(cpus[first_of_its_kind])
                med = statistics.median(walls[cmd.label])
                cpu = statistics.median(cpus[cmd.label])
                r = f"{med / base if overhead else base / med:.2f}"
                rc = f"{cpu / cbase if overhead else cbase / cpu:.2f}"
                print(
                    f"  {cmd.label:<52} {med:7.2f} {min(walls[cmd.label]):7.2f} {r:>10}"
                    f" {cpu:7.2f} {min(cpus[cmd.label]):7.2f} {rc:>10}"
                )
            for c in commands:
                shown = " ".join(a if i else Path(a).name for i, a in enumerate(c.argv))
                env = f"PYTHONPATH={c.pythonpath} " if c.pythonpath else ""
                db = " --db FILE" if c.fresh_db else ""
                print(f"  $ {env}taskset -c {c.cpus} {shown}{db}")
    return 0


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(
        description="Our solver against Freecell Solver, in one process, on the same deals."
    )
    p.add_argument("--variant", default="eightoff", choices=sorted(PRESETS))
    p.add_argument("--cells", type=int, default=None, metavar="N",
                   help="N free cells (the house rule; fc-solve: --freecells-num N)")  # fmt: skip
    p.add_argument("--deals", default=None,
                   help="numbers and ranges: 1-10000 (the default) or 1-10,42")  # fmt: skip
    p.add_argument(
        "--presets",
        default="te,qsi",
        help="fc-solve presets, comma-separated (-l names, or 'single' for a complete"
        " single-card search: slow and memory-hungry on hard deals); 'none': no fc-solve",
    )
    p.add_argument("--ours", action=argparse.BooleanOptionalAction, default=True,
                   help="run our solver (default: yes)")  # fmt: skip
    p.add_argument("--short", action=argparse.BooleanOptionalAction, default=True,
                   help="also run 'ours --short', Limits(short=True) (default: yes)")  # fmt: skip
    p.add_argument("--limit-states", type=int, default=None, metavar="N",
                   help="stop each search after N states (ours: Limits.states; fc-solve:"
                        " iterations); default: ours' default, fc-solve unlimited")  # fmt: skip
    p.add_argument("--time-limit", type=float, default=None, metavar="S",
                   help="ours: Limits.seconds (default: ours' default)")  # fmt: skip
    p.add_argument("--json", type=Path, default=None, metavar="FILE",
                   help="write one JSON object per deal and solver (JSON lines)")  # fmt: skip
    p.add_argument("--write-lost", type=Path, default=None, metavar="FILE",
                   help="write the deals fc-solve proved lost, each confirmed by the"
                        " complete single-card search")  # fmt: skip
    p.add_argument("--confirm-states", type=int, default=2_000_000, metavar="N",
                   help="--write-lost: states allowed to the confirming search")  # fmt: skip
    p.add_argument(
        "--cpu",
        type=int,
        default=None,
        help="CPU to pin to (default: the first allowed one; -1: do not pin)",
    )
    p.add_argument("--clock", choices=("cpu", "wall"), default="cpu",
                   help="time the tables report: the thread's CPU time (default; not inflated"
                        " when other processes share the core) or wall-clock")  # fmt: skip
    p.add_argument("--ours-path", choices=("batch", "solve"), default=None,
                   help="how ours runs: 'batch', the core's batch path (solve_deals over the"
                        " deals, as a survey runs it; its own CPU clock of each deal: the core"
                        " itself; --solo only, and its default there) or 'solve', solve() on"
                        " each position (its Python around the core included; the default"
                        " otherwise)")  # fmt: skip
    p.add_argument("--markdown", action="store_true", help="print the tables as Markdown")
    p.add_argument("--paired", action="store_true",
                   help="run ours with each fc-solve preset in a pass of its own (the two"
                        " alone, taking turns), instead of all together; then compare ours"
                        " with the fastest preset that keeps the rules")  # fmt: skip
    p.add_argument("--solo", type=int, default=0, metavar="N",
                   help="each solver alone over the whole batch, N passes each, the"
                        " solvers' passes alternating; a deal's time its least over the"
                        " passes (issue 20.5's measure)")  # fmt: skip
    p.add_argument("--ranges", default=None, metavar="FIRSTS",
                   help="--solo over several ranges: the first deal of each, comma-separated"
                        " (e.g. 1,100001,200001), each range --range-size deals, a row of"
                        " ratios to its peer each; issue 20.5 asks for its goals on every"
                        " range tried")  # fmt: skip
    p.add_argument("--range-size", type=int, default=1000, metavar="N",
                   help="--ranges: deals in each range (default 1000)")  # fmt: skip
    p.add_argument("--whole-process", action="store_true",
                   help="time whole programs instead (issue 20): eightoff survey against"
                        " freecell-solver-range-parallel-solve / -multi-thread-solve -l lg"
                        " (6.16 and its extra_speed2 build) with 1 and 2 workers, and"
                        " eightoff solve's text and --json against --quiet; each --runs"
                        " times, alternating; ratios of the medians")  # fmt: skip
    p.add_argument("--runs", type=int, default=5, help="--whole-process: runs of each")
    p.add_argument("--fcs-prefix", default=FCS_PREFIX,
                   help="--whole-process: where Freecell Solver 6.16 is installed (its"
                        f" extra_speed2 build beside it, PREFIX-extra-speed2; default"
                        f" {FCS_PREFIX})")  # fmt: skip
    p.add_argument(
        "--only", default=None, help="--whole-process: only the groups whose title contains this"
    )
    p.add_argument("--compare-src", default=None, metavar="DIR",
                   help="--whole-process: also time solve's output with the eightoff of this"
                        " checkout (DIR/src on PYTHONPATH, its extensions built), in the same"
                        " turns: before and after a change")  # fmt: skip
    args = p.parse_args(argv)
    deals = "1-10000" if args.deals is None else args.deals

    if args.whole_process:
        numbers = parse_deals(deals)
        try:
            return whole_process(
                min(numbers),
                max(numbers),
                args.variant,
                args.runs,
                args.only,
                args.fcs_prefix,
                args.compare_src,
            )
        except BenchError as e:
            print(f"error: {e}", file=sys.stderr)
            return 64

    err = Console(stderr=True)
    out = Console(width=220)
    try:
        rules = preset(args.variant)
        if args.cells is not None:
            try:
                rules = rules.with_options(cells=args.cells)
            except ValueError as e:
                raise BenchError(f"--cells {args.cells}: {e}") from None
        numbers = parse_deals(deals)
        if args.solo and args.paired:
            raise BenchError("--solo and --paired are two ways of running: give one")
        if args.solo < 0:
            raise BenchError(f"--solo {args.solo}: give the number of passes, 1 or more")
        firsts = parse_firsts(args.ranges, args.range_size) if args.ranges else []
        if firsts and not args.solo:
            raise BenchError("--ranges runs each range solo: give --solo N")
        if firsts and args.deals is not None:
            raise BenchError("--ranges names its own deals: give --ranges or --deals")
        names = [] if args.presets.strip().lower() == "none" else [
            x.strip() for x in args.presets.split(",") if x.strip()
        ]  # fmt: skip
        path = args.ours_path or ("batch" if args.solo > 0 else "solve")
        if path == "batch" and not args.solo:
            raise BenchError("--ours-path batch solves a whole pass at once: give --solo N")
        if path == "batch" and args.clock == "wall":
            raise BenchError("--ours-path batch times by the core's CPU clock: give --clock cpu")
        pinned = pin_to_one_core(args.cpu)
        solvers: list[Solver] = []
        if args.ours:
            solvers.append(
                OursBatch(args.limit_states, args.time_limit)
                if path == "batch"
                else Ours(False, args.limit_states, args.time_limit)
            )
            if args.short:
                solvers.append(Ours(True, args.limit_states, args.time_limit))
        for name in names:
            solvers.append(FcSolve(rules, name, args.limit_states))
        if not solvers:
            raise BenchError("nothing to run: give --ours or some --presets")
        sink = args.json.open("w") if args.json else None
        try:

            def on_row(row: Row) -> None:
                if sink is not None:
                    sink.write(json.dumps(asdict(row)) + "\n")

            passes: dict[str, dict[str, Summary]] = {}
            ours = [s for s in solvers if isinstance(s, Ours | OursBatch)]
            solo_notes: list[str] = []
            if firsts:
                solo_ranges(rules, firsts, args.range_size, solvers, args.solo, err, out,
                            args.clock, args.markdown, on_row)  # fmt: skip
                return 0
            if args.solo > 0:
                summaries, solo_notes = solo(rules, numbers, solvers, args.solo, err, args.clock)
                for summary in summaries.values():
                    for row in summary.rows:
                        on_row(row)
            elif args.paired and ours and len(ours) < len(solvers):
                summaries = {}
                for f in solvers:
                    if isinstance(f, FcSolve):
                        one = run(rules, numbers, [*ours, f], err, on_row, args.clock, f.name)
                        passes[f.name] = one
                        summaries[f.name] = one[f.name]
                for o in ours:  # the table's row for ours: its first pass
                    summaries[o.name] = passes[next(iter(passes))][o.name]
            else:
                summaries = run(rules, numbers, solvers, err, on_row, args.clock)
        finally:
            if sink is not None:
                sink.close()
        limits = "; ".join(
            f"{s.label} {s.limits}" for s in solvers if isinstance(s, Ours | OursBatch)
        ) or "ours not run"  # fmt: skip
        fcs = ", ".join(f"{s.label} = `{' '.join(s.args)}`" for s in solvers
                        if isinstance(s, FcSolve))  # fmt: skip
        clock = "CPU time of the thread" if args.clock == "cpu" else "wall-clock time"
        how = (
            f"each solver alone over the batch, {args.solo} passes each (alternating), a"
            " deal's time its least over them"
            if args.solo > 0
            else "one solver at a time"
        )
        if path == "batch" and args.ours:
            how += "; ours: the core's batch path (solve_deals), timed by the core's own clock"
        how += "; fc-solve: the solve and its recycle"
        setup = (
            f"{revision()}; {pinned}, {how}, times are {clock}; {limits};"
            f" {fcs or 'fc-solve not run'}"
        )
        if passes:
            for name, one in passes.items():
                report(rules, numbers, one, out, args.markdown, f"{setup}; pass with {name}")
            report_paired(rules, passes, out, args.markdown)
        else:
            report(rules, numbers, summaries, out, args.markdown, setup)
        if args.solo > 0:
            report_peer(summaries, out)
            for note in solo_notes[:20]:
                out.print(f"  {note}")
            if len(solo_notes) > 20:
                out.print(f"  … and {len(solo_notes) - 20} more passes that differed")
        if args.write_lost:
            command = "uv run python bench/solver_vs_fcsolve.py " + " ".join(
                sys.argv[1:] if argv is None else argv
            )
            n = write_lost(
                args.write_lost, rules, numbers, summaries, command, args.confirm_states, err
            )
            err.print(f"wrote {n} lost deal(s) to {args.write_lost}")
    except BenchError as e:
        err.print(f"[red]error:[/red] {e}")
        return 64
    except KeyboardInterrupt:
        err.print("interrupted")
        return 130
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
