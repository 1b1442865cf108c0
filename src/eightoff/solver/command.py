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
malformed board, 66 a board file that cannot be read, 130 interrupted.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Iterator
from dataclasses import replace
from typing import Any, Final, TextIO

from eightoff.boards import BoardError, parse_board
from eightoff.deals import DealNumberError, check_deal_number, deal
from eightoff.exits import (
    EX_DATAERR,
    EX_INTERRUPTED,
    EX_LOST,
    EX_NOINPUT,
    EX_OK,
    EX_UNKNOWN,
    EX_USAGE,
)
from eightoff.position import Move, Position
from eightoff.rules import DEFAULT_VARIANT, PRESETS, UnknownVariantError, preset
from eightoff.solver import DEFAULT_LIMITS, Result, Solved, solve

MAX_DEALS: Final = 10_000_000
"""Most deals one command may name (ranges included)."""


class UsageError(Exception):
    """Bad input: one line on stderr, then the exit code."""

    def __init__(self, message: str, code: int = EX_USAGE) -> None:
        super().__init__(message)
        self.code = code


# ----- arguments --------------------------------------------------------------------
def _positive_float(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of seconds") from None
    if not value > 0 or value != value or value == float("inf"):
        raise argparse.ArgumentTypeError(f"{text!r}: the time limit must be more than 0 seconds")
    return value


def _positive_int(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"{text!r}: the state limit must be at least 1")
    return value


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
        "            64 bad usage, 65 malformed board, 66 unreadable board file\n"
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
    parser.add_argument("--json", action="store_true", help="one JSON object per deal per line")
    from eightoff import house_rules

    house_rules.add_arguments(parser)
    parser.add_argument(
        "--short", action="store_true", help="spend more effort for a shorter solution"
    )
    parser.add_argument(
        "--time-limit",
        type=_positive_float,
        default=DEFAULT_LIMITS.seconds,
        metavar="S",
        help=f"give up on a deal after S seconds (default {DEFAULT_LIMITS.seconds:g})",
    )
    parser.add_argument(
        "--max-states",
        type=_positive_int,
        default=DEFAULT_LIMITS.states,
        metavar="N",
        help=f"give up on a deal after N states (default {DEFAULT_LIMITS.states:,})".replace(
            ",", " "
        ),
    )


def parse_deals(tokens: list[str]) -> list[range]:
    """Deal numbers from ``1-100 7 42`` as ranges; raise UsageError naming the bad token."""
    ranges: list[range] = []
    total = 0
    for token in tokens:
        for part in token.split(","):
            if not part:
                continue
            first, dash, last = part.partition("-")
            try:
                lo = check_deal_number(int(first))
                hi = check_deal_number(int(last)) if dash else lo
            except ValueError as e:
                why = str(e) if isinstance(e, DealNumberError) else "write a number or a range"
                raise UsageError(f"{part!r} is not a deal or a range of deals: {why}") from None
            if hi < lo:
                raise UsageError(f"{part!r} is not a range: {lo} comes after {hi}")
            total += hi - lo + 1
            if total > MAX_DEALS:
                limit = f"{MAX_DEALS:,}".replace(",", " ")
                raise UsageError(f"too many deals: at most {limit} in one command")
            ranges.append(range(lo, hi + 1))
    return ranges


def _read_board(path: str, variant: str | None) -> Position:
    try:
        if path == "-":
            text = sys.stdin.read()
        else:
            with open(path, encoding="utf-8") as f:
                text = f.read()
    except OSError as e:
        raise UsageError(f"cannot read the board {path!r}: {e.strerror or e}", EX_NOINPUT) from None
    except UnicodeDecodeError:
        raise UsageError(f"{path!r} is not a text file", EX_DATAERR) from None
    if not text.strip():
        raise UsageError(f"{'standard input' if path == '-' else path!r} is empty", EX_DATAERR)
    try:
        return parse_board(text, variant)
    except BoardError as e:
        where = "standard input" if path == "-" else path
        raise UsageError(f"{where}: {e}", EX_DATAERR) from None


# ----- output -----------------------------------------------------------------------
def move_json(position: Position, move: Move) -> dict[str, Any]:
    """One move of the JSON output, in terms of the position it is played from."""
    target = position.resolve_target(move)
    return {
        "notation": str(move),
        "card": str(position.moving_card(move)),
        "count": move.count,
        "source": {"kind": move.source.kind.value, "index": move.source.index},
        "target": {"kind": target.kind.value, "index": target.index},
    }


def result_json(start: Position, number: int | None, result: Result) -> dict[str, Any]:
    moves = []
    pos = start
    for move in result.moves:
        moves.append(move_json(pos, move))
        pos = pos.apply_unchecked(move)
    return {
        "variant": start.rules.id,
        "deal": number,
        "verdict": result.verdict,
        "moves": moves,
        "states": result.states,
        "seconds": round(result.seconds, 6),
    }


def _duration(seconds: float) -> str:
    if seconds < 1e-3:
        return f"{seconds * 1e6:.0f} µs"
    if seconds < 1:
        return f"{seconds * 1e3:.1f} ms"
    return f"{seconds:.2f} s"


def summary(result: Result) -> str:
    """The summary line: verdict, moves, states, time."""
    states = f"{result.states:,} states".replace(",", " ")
    took = _duration(result.seconds)
    if isinstance(result, Solved):
        n = len(result.moves)
        return f"solved: {n} move{'' if n == 1 else 's'}, {states}, {took}"
    if result.verdict == "lost":
        return f"lost: no sequence of moves wins (search space exhausted: {states}, {took})"
    reason = getattr(result, "reason", "limit reached")
    return f"unknown: {reason} ({states}, {took}); no verdict"


def print_human(out: TextIO, start: Position, title: str, result: Result) -> None:
    out.write(f"{title}\n")
    pos = start
    width = len(str(len(result.moves)))
    for i, move in enumerate(result.moves, start=1):
        out.write(f"{i:>{width}}. {move!s:<6} {pos.describe(move)}\n")
        pos = pos.apply_unchecked(move)
    out.write(f"{summary(result)}\n")


# ----- running ----------------------------------------------------------------------
def _jobs(args: argparse.Namespace) -> Iterator[tuple[Position, int | None, str]]:
    """Each position to solve, its deal number (None for a board) and a title."""
    from eightoff import house_rules

    if args.board is not None:
        position = house_rules.on_board(_read_board(args.board, args.variant), args)
        yield position, None, f"{position.rules.name} · board {args.board}"
        return
    rules = house_rules.apply(preset(args.variant or DEFAULT_VARIANT), args)
    for numbers in parse_deals(args.deals):
        for number in numbers:
            yield deal(rules, number), number, f"{rules.name} · deal #{number}"


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
        verdicts: set[str] = set()
        first = True
        for position, number, title in _jobs(args):
            result = solve(position, limits)
            verdicts.add(result.verdict)
            if args.json:
                out.write(json.dumps(result_json(position, number, result)) + "\n")
            else:
                if not first:
                    out.write("\n")
                print_human(out, position, title, result)
            out.flush()
            first = False
    except UsageError as e:
        print(f"eightoff solve: {e}", file=sys.stderr)
        return e.code
    except KeyboardInterrupt:
        print("eightoff solve: interrupted", file=sys.stderr)
        return EX_INTERRUPTED
    if "unknown" in verdicts:
        return EX_UNKNOWN
    if "lost" in verdicts:
        return EX_LOST
    return EX_OK
