"""``eightoff solve``: a proven verdict for deals or a board.

    eightoff solve DEALS... [--variant ID] [--json] [--short] [--time-limit S]
                            [--max-states N]
    eightoff solve --board FILE [--variant ID] [--json] [...]

DEALS are deal numbers or ranges (``1-100 7 42``).  A board is Freecell Solver's
board text or the JSON board (``-`` reads standard input).

Human output: each deal's moves, numbered, in the notation and in words, then a
summary line (verdict, moves, states, time).  ``--json``: one object per deal on its
own line.  Exit codes: 0 every deal solved, 1 some deal proven lost (and none
unknown), 2 some deal unknown (a limit stopped the search), 64 bad usage, 65 a
malformed board, 66 a board file that cannot be read, 70 the solver's solution failed
its replay (a bug: never printed as a verdict), 130 interrupted, 141 the output pipe
closed (the table in :mod:`eightoff.cli.exits`).  A board over 1 MB is
refused unread.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Iterator
from dataclasses import replace
from typing import Final

from eightoff.boards import MAX_BOARD_CHARS, BoardError, parse_board
from eightoff.cli.exits import (
    EX_DATAERR,
    EX_INTERRUPTED,
    EX_LOST,
    EX_NOINPUT,
    EX_OK,
    EX_SOFTWARE,
    EX_UNKNOWN,
    MAX_PATH,
    UsageError,
    argument,
    fail,
    file_path,
    number,
    whole_number,
)
from eightoff.deals import MAX_DEAL, deal
from eightoff.i18n import quote
from eightoff.position import Position
from eightoff.rules import DEFAULT_VARIANT, PRESETS, UnknownVariantError, preset
from eightoff.solver import (
    DEFAULT_LIMITS,
    Limits,
    Result,
    SolutionError,
    Solved,
    replay_keys,
    solve,
    solve_deals,
    verdict_of,
)
from eightoff.solver._core import REPLAY_FAILED, STATUS
from eightoff.solver.serialize import Mode, Outcome, render
from eightoff.verdict import Verdict

MAX_DEALS: Final = 10_000_000
"""Most deals one command may name (ranges included)."""
MAX_STATES: Final = 2**63 - 1
"""The largest state limit: the compiled core counts states in a C ``long`` (64 bits),
and a survey stores the limit as an SQLite integer (64 bits too)."""
MAX_SECONDS: Final = 1e9
"""The largest time limit in seconds (about 31 years)."""


# ----- arguments --------------------------------------------------------------------
def seconds_limit(text: str) -> float:
    """A time limit: more than 0, at most MAX_SECONDS."""
    return number(text, "the time limit (seconds)", 0, MAX_SECONDS, open_low=True)


def states_limit(text: str) -> int:
    """A state limit: 1 to 2^63 - 1."""
    return whole_number(text, "the state limit", 1, MAX_STATES)


_seconds = argument(seconds_limit)
_states = argument(states_limit)


def _variant(text: str) -> str:
    try:
        return preset(text).id
    except UnknownVariantError as e:
        raise argparse.ArgumentTypeError(str(e)) from None


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The ``solve`` subcommand's arguments (called by eightoff.cli)."""
    parser.usage = (
        "%(prog)s DEALS... [--variant ID] [--json] [--short] [--time-limit S] [--max-states N]\n"
        "       %(prog)s --board FILE [--variant ID] [--json] [--short] [...]"
    )
    parser.description = (
        "Solve deals or a board: a solution (every move, every card sent home), a proof"
        " that no solution exists (the search space exhausted), or 'unknown' when a limit"
        " stopped the search."
    )
    parser.formatter_class = argparse.RawDescriptionHelpFormatter
    parser.epilog = (
        "exit codes: 0 all solved, 1 some deal proven lost, 2 some deal unknown (a limit),\n"
        "            64 bad usage, 65 malformed board, 66 unreadable board file,\n"
        "            130 interrupted, 141 output pipe closed\n"
        "examples:\n"
        "  eightoff solve 1-100 617 --json\n"
        "  eightoff solve 5 --variant freecell --short\n"
        "  eightoff deal 5 --format fcs | eightoff solve --board -"
    )
    parser.add_argument(
        "deals",
        nargs="*",
        metavar="DEALS",
        help="deal numbers or ranges, e.g. 1-100 7 42",
    )
    parser.add_argument(
        "--board",
        metavar="FILE",
        help="solve this board instead: Freecell Solver text or JSON board ('-': stdin)",
    )
    parser.add_argument(
        "--variant",
        type=_variant,
        default=None,
        metavar="ID",
        help=f"variant id: {', '.join(PRESETS)} (default {DEFAULT_VARIANT};"
        " a JSON board names its own)",
    )
    output = parser.add_mutually_exclusive_group()
    output.add_argument("--json", action="store_true", help="one JSON object per deal per line")
    output.add_argument(
        "--quiet",
        "-q",
        action="store_true",
        help="one line per deal: its verdict, moves, states and time (no moves listed)",
    )
    from eightoff.cli import house_rules

    house_rules.add_arguments(parser)
    parser.add_argument(
        "--short", action="store_true", help="spend more effort for a shorter solution"
    )
    parser.add_argument(
        "--time-limit",
        type=_seconds,
        default=DEFAULT_LIMITS.seconds,
        metavar="S",
        help=f"give up on a deal after S seconds, more than 0 and at most {MAX_SECONDS:g}"
        f" (default {DEFAULT_LIMITS.seconds:g})",
    )
    parser.add_argument(
        "--max-states",
        type=_states,
        default=DEFAULT_LIMITS.states,
        metavar="N",
        help="give up on a deal after N states, 1 to 2^63 - 1 (default "
        + f"{DEFAULT_LIMITS.states:,})".replace(",", " "),
    )


def parse_deals(tokens: list[str]) -> list[range]:
    """Deal numbers from ``1-100 7 42`` as ranges; raise UsageError naming the bad token."""
    ranges: list[range] = []
    total = 0
    for token in tokens:
        for part in token.split(","):
            if not part.strip():
                raise UsageError(
                    f"{quote(token)}: an empty deal number (write numbers and ranges such as"
                    " 1-100,7 or 1-100 7)"
                )
            first, dash, last = part.partition("-")
            try:
                lo = whole_number(first, "a deal", 1, MAX_DEAL)
                hi = whole_number(last, "a deal", 1, MAX_DEAL) if dash else lo
            except UsageError:
                raise UsageError(
                    f"{quote(part)} is not a deal or a range of deals: deals are numbered"
                    f" 1 to {MAX_DEAL}; a range is written 1-100"
                ) from None
            if hi < lo:
                raise UsageError(f"{quote(part)} is not a range: {lo} comes after {hi}")
            total += hi - lo + 1
            if total > MAX_DEALS:
                limit = f"{MAX_DEALS:,}".replace(",", " ")
                raise UsageError(f"too many deals: at most {limit} in one command")
            ranges.append(range(lo, hi + 1))
    return ranges


def _read_board(path: str, variant: str | None) -> Position:
    """Read a board file (``-``: standard input), at most MAX_BOARD_CHARS bytes."""
    where = "standard input" if path == "-" else quote(path, MAX_PATH)
    if path != "-":
        file_path(path, "--board")
    try:
        if path == "-":
            stream = getattr(sys.stdin, "buffer", None)
            raw: bytes | str = (
                stream.read(MAX_BOARD_CHARS + 1)
                if stream is not None
                else sys.stdin.read(MAX_BOARD_CHARS + 1)
            )
        else:
            with open(path, "rb") as f:
                raw = f.read(MAX_BOARD_CHARS + 1)
    except OSError as e:
        raise UsageError(f"cannot read the board {where}: {e.strerror or e}", EX_NOINPUT) from None
    if len(raw) > MAX_BOARD_CHARS:
        limit = f"{MAX_BOARD_CHARS:,}".replace(",", " ")
        raise UsageError(f"{where} is over {limit} bytes: not a board", EX_DATAERR)
    try:
        text = raw.decode("utf-8") if isinstance(raw, bytes) else raw
    except UnicodeDecodeError:
        raise UsageError(f"{where} is not a text file (UTF-8)", EX_DATAERR) from None
    if not text.strip():
        raise UsageError(f"{where} is empty", EX_DATAERR)
    try:
        return parse_board(text, variant)
    except BoardError as e:
        raise UsageError(f"{where}: {e}", EX_DATAERR) from None


# ----- output (the serialising module: eightoff.solver.serialize) -----------------------
def outcome_of(start: Position, result: Result) -> Outcome:
    """A solve()'s result as the output takes it (its moves through the compiled replay)."""
    keys = replay_keys(start, result.moves) if isinstance(result, Solved) else ()
    return Outcome(
        result.verdict,
        result.states,
        result.seconds,
        keys,
        len(result.moves),
        getattr(result, "reason", "limit reached"),
    )


# ----- running ----------------------------------------------------------------------
Job = tuple[str, int | None, str, Outcome]
"""A finished deal or board: its variant id, deal number (None for a board), title and
outcome."""

BLOCK_MOST: Final = 256
"""Most deals solved in one call of the core: blocks grow 1, 2, 4 … so that the first
deals print at once and long ranges pay the call once per block."""


def _solved_one(position: Position, limits: Limits, title: str) -> Outcome:
    try:
        return outcome_of(position, solve(position, limits))
    except SolutionError as e:
        raise SolutionError(f"{title}: {e}") from None


def _solved(args: argparse.Namespace, limits: Limits, mode: Mode) -> Iterator[Job]:
    """Each deal or board solved, in order; SolutionError (naming it) when the solver's
    solution is refused by the compiled replay (a bug, never a verdict)."""
    from eightoff.cli import house_rules

    if args.board is not None:
        position = house_rules.on_board(_read_board(args.board, args.variant), args)
        title = f"{position.rules.name} · board {args.board}"
        yield position.rules.id, None, title, _solved_one(position, limits, title)
        return
    rules = house_rules.apply(preset(args.variant or DEFAULT_VARIANT), args)
    for numbers in parse_deals(args.deals):
        if limits.short:  # the short search runs through solve(), deal by deal
            for n in numbers:
                title = f"{rules.name} · deal #{n}"
                yield rules.id, n, title, _solved_one(deal(rules, n), limits, title)
            continue
        at, size = numbers.start, 1
        while at < numbers.stop:
            count = min(size, numbers.stop - at)
            block = solve_deals(rules, at, count, limits, keep_moves=mode != "summary")
            keys = block.keys or ()
            offset = 0
            for i, (status, length) in enumerate(zip(block.status, block.lengths, strict=True)):
                n = at + i
                if status == REPLAY_FAILED:
                    raise SolutionError(
                        f"{rules.name} · deal #{n}: the solver's solution is refused at move"
                        f" {length + 1} by the compiled replay: a bug in the solver, please"
                        " report it"
                    )
                outcome = Outcome(
                    verdict_of(status),
                    block.states[i],
                    block.seconds[i],
                    keys[offset : offset + length] if keys else (),
                    length,
                    STATUS.get(status, "limit reached"),
                )
                offset += length if keys else 0
                yield rules.id, n, f"{rules.name} · deal #{n}", outcome
            at += count
            size = min(2 * size, BLOCK_MOST)


def run(args: argparse.Namespace) -> int:
    """Solve what the arguments name; print; return the exit code (see module doc)."""
    out = sys.stdout
    try:
        if args.board is not None and args.deals:
            raise UsageError("give deal numbers or --board FILE, not both")
        if args.board is None and not args.deals:
            raise UsageError("name deals to solve (e.g. 1-100 7) or a board (--board FILE)")
        if args.board is None:
            parse_deals(args.deals)  # check every token before solving any deal
        limits = replace(
            DEFAULT_LIMITS, seconds=args.time_limit, states=args.max_states, short=args.short
        )
        mode: Mode = "json" if args.json else "summary" if args.quiet else "text"
        verdicts: set[Verdict] = set()
        first = True
        try:
            for variant, number, title, outcome in _solved(args, limits, mode):
                verdicts.add(outcome.verdict)
                if mode == "text" and not first:
                    out.write("\n")
                out.write(render(mode, variant, number, title, outcome))
                first = False
        except SolutionError as e:  # a bug in the solver, never a verdict
            out.flush()
            return fail("eightoff solve", str(e), EX_SOFTWARE)
        out.flush()
    except UsageError as e:
        return fail("eightoff solve", str(e), e.code)
    except KeyboardInterrupt:
        print("eightoff solve: interrupted", file=sys.stderr)
        return EX_INTERRUPTED
    if Verdict.UNKNOWN in verdicts:
        return EX_UNKNOWN
    if Verdict.LOST in verdicts:
        return EX_LOST
    return EX_OK
