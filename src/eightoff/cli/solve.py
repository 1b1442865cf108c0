"""``eightoff solve``: a proven verdict for deals or a board.

    eightoff solve DEALS... [--variant ID] [--json] [--short] [--time-limit S]
                            [--max-states N] [--memory SIZE] [--disk SIZE] [--disk-dir DIR]
    eightoff solve --board FILE [--variant ID] [--json] [...]
    eightoff solve DEALS... --optimal [--count player|single] [--memory MB] [...]

DEALS are deal numbers or ranges (``1-100 7 42``).  A board is Freecell Solver's
board text or the JSON board (``-`` reads standard input).

Human output: each deal's moves, numbered, in the notation and in words, then a
summary line (verdict, the solution's length in player moves and in single-card moves
as :mod:`eightoff.counts` defines them, states, time).  ``--json``: one object per deal
on its own line (``player_moves``, ``single_card_moves``: the same counts).

Exit codes: 0 every deal solved, 1 some deal proven lost (and none unknown), 2 some
deal unknown (a limit stopped the search), 64 bad usage, 65 a malformed board, 66 a
board file that cannot be read, 70 the solver's solution failed its replay (a bug:
never printed as a verdict), 130 interrupted, 141 the output pipe closed (the table
in :mod:`eightoff.cli.exits`).

``--optimal``: par (:mod:`eightoff.solver.optimal`), the fewest moves in the count of
``--count``; each move numbered by what it counts for, the free ones marked ``+``; the
summary says ``optimal: yes`` when proven, else the bounds ("par is 31 to 33").  Exit 0
every par proven, 1 some deal lost, 2 some deal's par not proven.  A board over 1 MB is
refused unread.
"""

from __future__ import annotations

import argparse
import codecs
import json
import sys
import time
from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import nullcontext
from dataclasses import replace
from typing import Any, Final, TextIO

from eightoff.boards import MAX_BOARD_CHARS, BoardError, parse_board
from eightoff.cli import house_rules
from eightoff.cli import solve_output as output
from eightoff.cli.exits import (
    EX_DATAERR,
    EX_LOST,
    EX_NOINPUT,
    EX_OK,
    EX_SOFTWARE,
    EX_UNKNOWN,
    MAX_PATH,
    UsageError,
    fail,
    file_path,
    interrupted_status,
    interrupted_word,
)
from eightoff.cli.kept import KeptWatch, report_kept
from eightoff.cli.say import language, said, say, text
from eightoff.cli.values import (
    MAX_SECONDS,
    deal_ranges,
    disk_arg,
    disk_dir_arg,
    memory_arg,
    seconds_arg,
    size_text,
    states_arg,
    variant_arg,
)
from eightoff.counts import Counts, MoveCount, counted_moves
from eightoff.deals import deal
from eightoff.explain import describe, variant_name, with_house_rules
from eightoff.i18n import DEFAULT_LANGUAGE, Lang, Message, duration, grouped, quote
from eightoff.position import Move, Position
from eightoff.rules import DEFAULT_VARIANT, PRESETS, Rules, preset
from eightoff.solver import (
    DEFAULT_LIMITS,
    DEFAULT_STATES,
    LOST,
    SOLVED,
    DealBlock,
    Limits,
    Result,
    SolutionError,
    Solved,
    Unknown,
    available_cores,
    played,
    reason_of,
    solve,
    solve_deals,
)
from eightoff.solver._core import REPLAY_FAILED
from eightoff.solver.optimal import (
    COMMAND_LINE_MEMORY_MB,
    Par,
    ParCheckError,
    ParLimits,
    optimal,
)
from eightoff.verdict import Verdict

COMMAND_LINE_DISK_MB: Final = 64 << 10
"""``solve``'s disk limit (``--disk``): on by default, since one deal asked for by name
deserves a proven verdict more than a quick "unknown", and at the default limits the
time and state limits end a search long before 1 GiB of memory is full, so the disk is
used only when the user lifts them; capped by the free space less 1 GiB (disk.h).
``survey`` keeps it off unless asked (many workers, unattended, each its own limit)."""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The ``solve`` subcommand's arguments (called by eightoff.cli)."""
    parser.usage = (
        "%(prog)s DEALS... [--variant ID] [--json] [--short] [--time-limit S] [--max-states N]\n"
        "       %(prog)s --board FILE [--variant ID] [--json] [--short] [...]"
    )
    parser.description = text("cli.help.solve.description")
    parser.formatter_class = argparse.RawDescriptionHelpFormatter
    parser.epilog = text("cli.help.solve.epilog")
    parser.add_argument("deals", nargs="*", metavar="DEALS", help=text("cli.help.solve.deals"))
    parser.add_argument("--board", metavar="FILE", help=text("cli.help.solve.board"))
    parser.add_argument(
        "--variant",
        type=variant_arg,
        default=None,
        metavar="ID",
        help=text("cli.help.solve.variant", variants=", ".join(PRESETS), default=DEFAULT_VARIANT),
    )
    output = parser.add_mutually_exclusive_group()
    output.add_argument("--json", action="store_true", help=text("cli.help.json_lines"))
    output.add_argument("--quiet", "-q", action="store_true", help=text("cli.help.solve.quiet"))
    house_rules.add_arguments(parser)
    parser.add_argument("--short", action="store_true", help=text("cli.help.solve.short"))
    parser.add_argument("--optimal", action="store_true", help=text("cli.help.solve.optimal"))
    parser.add_argument(
        "--count",
        choices=[c.value for c in MoveCount],
        default=None,
        help=text("cli.help.solve.count"),
    )
    parser.add_argument(
        "--time-limit",
        type=seconds_arg,
        default=DEFAULT_LIMITS.seconds,
        metavar="S",
        help=text(
            "cli.help.solve.time_limit", most=MAX_SECONDS, default=f"{DEFAULT_LIMITS.seconds:g}"
        ),
    )
    parser.add_argument(
        "--max-states",
        type=states_arg,
        default=None,
        metavar="N",
        help=text("cli.help.solve.max_states", default=grouped(DEFAULT_STATES)),
    )
    parser.add_argument(
        "--memory",
        type=memory_arg,
        default=None,
        metavar="SIZE",
        help=text(
            "cli.help.solve.memory",
            default=str(DEFAULT_LIMITS.memory_mb),
            optimal=COMMAND_LINE_MEMORY_MB,
        ),
    )
    parser.add_argument(
        "--disk",
        type=disk_arg,
        default=COMMAND_LINE_DISK_MB,
        metavar="SIZE",
        help=text("cli.help.solve.disk", default=size_text(COMMAND_LINE_DISK_MB)),
    )
    parser.add_argument(
        "--disk-dir",
        type=disk_dir_arg,
        default=None,
        metavar="DIR",
        help=text("cli.help.solve.disk_dir"),
    )


def _read_board(path: str, variant: str | None) -> Position:
    """Read a board file (``-``: standard input), at most MAX_BOARD_CHARS bytes."""
    where: Message | str = Message("cli.solve.stdin") if path == "-" else quote(path, MAX_PATH)
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
        cannot = Message("cli.solve.cannot_read", where=where, error=str(e.strerror or e))
        raise UsageError(cannot, EX_NOINPUT) from None
    if len(raw) > MAX_BOARD_CHARS:
        limit = grouped(MAX_BOARD_CHARS)
        raise UsageError(Message("cli.solve.too_big", where=where, limit=limit), EX_DATAERR)
    try:
        board = raw.decode("utf-8") if isinstance(raw, bytes) else raw
    except UnicodeDecodeError:
        raise UsageError(Message("cli.solve.not_text", where=where), EX_DATAERR) from None
    if not board.strip():
        raise UsageError(Message("cli.solve.empty", where=where), EX_DATAERR)
    try:
        return parse_board(board, variant)
    except BoardError as e:
        raise UsageError(
            Message("cli.solve.bad_board", where=where, error=said(e)), EX_DATAERR
        ) from None


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


def par_json(start: Position, number: int | None, par: Par) -> dict[str, Any]:
    """One deal's par: the keys of ``solve --json`` (the verdict, the best solution's two
    counts, the rules), the bounds, and that solution, each move with what it counts
    for in the count searched (``"counts": 0`` for a card auto-move or auto-complete
    sends home)."""
    moves = []
    pos = start
    each = counted_moves(start, par.moves)
    for move, counts in zip(par.moves, each, strict=True):
        moves.append(move_json(pos, move) | {"counts": counts.of(par.count)})
        pos = pos.apply_unchecked(move)
    found = par.length is not None
    verdict = Verdict.LOST if par.lost else Verdict.SOLVED if found else Verdict.UNKNOWN
    total = sum(each, Counts(0, 0)).to_json() if found else dict.fromkeys(Counts(0, 0).to_json())
    return (
        {"variant": start.rules.id, "deal": number, "verdict": verdict.value}
        | par.to_json()
        | total
        | house_rules.played_under(start.rules)
        | {"moves": moves}
    )


def par_words(par: Par) -> Message:
    """ "par is 31", "par is 31 to 33", "par is at least 31", "no solution"."""
    count = par.count.message
    if par.lost:
        return Message("cli.par.none")
    if par.optimal:
        return Message("cli.par.is", moves=par.count.moves(par.length or 0))
    if par.length is None:
        return Message("cli.par.at_least", moves=par.count.moves(par.lower_bound))
    return Message("cli.par.between", low=par.lower_bound, high=par.length, count=count)


def par_summary(par: Par) -> Message:
    """``optimal: yes — par is 26 player moves (61 723 states, 0.62 s)``."""
    states, took = grouped(par.states), duration(par.seconds)
    if par.lost:
        return Message("cli.solve.lost", states=states, took=took)
    why = Message("cli.par.why", reason=output.reason(par.reason)) if par.reason else ""
    return Message(
        "cli.par.summary",
        proven=str(par.optimal),
        par=par_words(par),
        why=why,
        states=states,
        took=took,
    )


def print_par(out: TextIO, start: Position, title: str, par: Par) -> None:
    lang = language()
    out.write(f"{title}\n")
    pos = start
    n = 0
    width = len(str(par.length or 0))
    for move, counts in zip(par.moves, counted_moves(start, par.moves), strict=True):
        if counts.of(par.count):
            n += 1
            label = f"{n:>{width}}."
        else:
            label = " " * width + "+"
        out.write(f"{label} {move!s:<6} {describe(pos, move, lang)}\n")
        pos = pos.apply_unchecked(move)
    if par.count is MoveCount.PLAYER and par.moves:
        out.write(f"{text('cli.par.free_moves')}\n")
    out.write(f"{say(par_summary(par), lang)}\n")


# ----- running ----------------------------------------------------------------------
def _language(args: argparse.Namespace) -> Lang:
    """The output's language: English for ``--quiet``'s lines (for machines too), else
    the command line's."""
    return DEFAULT_LANGUAGE if args.quiet else language()


def _jobs(args: argparse.Namespace) -> Iterator[tuple[Position, int | None, str]]:
    """Each position to solve, its deal number (None for a board) and a title (in
    English for ``--quiet``'s lines, which are for machines too; else in the command
    line's language)."""
    lang = _language(args)
    if args.board is not None:
        position = house_rules.on_board(_read_board(args.board, args.variant), args)
        name = variant_name(position.rules, lang)
        title = Message("cli.solve.board_title", variant=name, board=args.board)
        yield position, None, say(title, lang) + _house(position.rules, lang)
        return
    rules = house_rules.apply(preset(args.variant or DEFAULT_VARIANT), args)
    name, house = variant_name(rules, lang), _house(rules, lang)
    for numbers in deal_ranges(args.deals):
        for n in numbers:
            yield deal(rules, n), n, _title(name, n, lang, house)


def _house(rules: Rules, lang: Lang) -> str:
    """What a title adds for the house rules in force (" · single-card moves"; the
    cells are in the variant's name): so that a line says which game it solved."""
    return with_house_rules("", rules, lang)


def _title(name: str, number: int, lang: Lang, house: str) -> str:
    """A deal's title: "Eight Off · deal #2", then what _house adds."""
    return say(Message("terminal.deal_title", variant=name, deal=number), lang) + house


Done = tuple[Rules, int | None, str, output.Outcome]
"""One deal's (or board's) outcome: the rules it was solved under, the deal number, the
title."""

BLOCK_SECONDS: Final = 0.05
"""A block of deals solved in one call (solve_deals) grows while it takes less than this
(wall time), up to MAX_BLOCK deals: the output stays as prompt as a deal at a time, and
an interrupt is seen between blocks."""
MAX_BLOCK: Final = 1024


def _blocks(args: argparse.Namespace, limits: Limits, keep_moves: bool) -> Iterator[Iterator[Done]]:
    """Each deal's (or the board's) outcome in order, in blocks (each written at once),
    the solution described by the compiled replay (which checks it: a refused one raises
    SolutionError naming the deal). Plain deals are solved a block at a time by the
    batch path (deals made, solved and replayed in the core); a board and ``--short``
    one at a time by :func:`solve`."""
    if args.board is not None or limits.short:
        for position, number, title in _jobs(args):
            try:
                result = solve(position, limits)
                outcome = _outcome(position, result)
            except SolutionError as e:
                raise SolutionError(f"{title}: {said(e)}") from None
            yield iter(((position.rules, number, title, outcome),))
        return
    rules = house_rules.apply(preset(args.variant or DEFAULT_VARIANT), args)
    lang = _language(args)
    name = variant_name(rules, lang)
    for numbers in deal_ranges(args.deals):
        first, size = numbers.start, 1
        while first < numbers.stop:
            count = min(size, numbers.stop - first)
            t0 = time.perf_counter()
            block = solve_deals(rules, first, count, limits, keep_moves)
            yield _block_outcomes(rules, block, count, name, lang)
            if time.perf_counter() - t0 < BLOCK_SECONDS:
                size = min(2 * size, MAX_BLOCK)
            first += count


def _writer(out: TextIO) -> Callable[[list[bytes]], None]:
    """Write UTF-8 output: straight to the stream's bytes when it writes UTF-8, else as
    text (the stream's own encoding and error handler: eightoff.cli.streams)."""
    buffer = getattr(out, "buffer", None)
    encoding = getattr(out, "encoding", None) or ""
    try:
        utf8 = codecs.lookup(encoding).name == "utf-8"
    except LookupError:
        utf8 = False
    if buffer is not None and utf8:

        def write_bytes(pieces: list[bytes]) -> None:
            out.flush()
            buffer.writelines(pieces)
            buffer.flush()

        return write_bytes

    def write_text(pieces: list[bytes]) -> None:
        out.write(b"".join(pieces).decode())
        out.flush()

    return write_text


def _outcome(position: Position, result: Result) -> output.Outcome:
    if isinstance(result, Solved):
        return output.solved(played(position, result.moves), result.states, result.seconds)
    if isinstance(result, Unknown):
        return output.Outcome(result.verdict, result.states, result.seconds, reason=result.reason)
    return output.Outcome(result.verdict, result.states, result.seconds)


def _block_outcomes(
    rules: Rules, block: DealBlock, count: int, name: str, lang: Lang
) -> Iterator[Done]:
    """Each deal of a block: its variant, number, title (variant ``name`` in ``lang``) and
    outcome; SolutionError for a solution the compiled replay refused."""
    keys = block.keys
    at = 0
    house = _house(rules, lang)
    for i in range(count):
        number = block.first + i
        status, states, seconds = block.status[i], block.states[i], block.seconds[i]
        title = _title(name, number, lang, house)
        if status == SOLVED:
            length = block.lengths[i]
            counts = Counts(block.player_moves[i], block.single_card_moves[i])
            moves = () if keys is None else keys[at : at + length]
            at += length
            yield (
                rules,
                number,
                title,
                output.Outcome(Verdict.SOLVED, states, seconds, moves, counts),
            )
        elif status == REPLAY_FAILED:  # a bug in the solver, never a verdict
            raise SolutionError(
                f"{title}: the solver's solution for a position of {rules.name} is refused at"
                f" move {block.lengths[i] + 1} (or ends with cards left) by the compiled"
                " replay: a bug in the solver, please report it"
            )
        elif status == LOST:
            yield rules, number, title, output.Outcome(Verdict.LOST, states, seconds)
        else:
            reason = reason_of(status)
            yield (
                rules,
                number,
                title,
                output.Outcome(Verdict.UNKNOWN, states, seconds, reason=reason),
            )


def run(args: argparse.Namespace) -> int:
    """Solve what the arguments name; print; return the exit code (see module doc)."""
    out = sys.stdout
    began = time.time()  # the kept searches this command wrote are reported
    try:
        if args.board is not None and args.deals:
            raise UsageError(Message("cli.solve.both"))
        if args.board is None and not args.deals:
            raise UsageError(Message("cli.solve.nothing"))
        if args.board is None:
            deal_ranges(args.deals)  # check every token before solving any deal
        limits = replace(
            DEFAULT_LIMITS,
            seconds=args.time_limit,
            states=DEFAULT_LIMITS.states if args.max_states is None else args.max_states,
            short=args.short,
            memory_mb=DEFAULT_LIMITS.memory_mb if args.memory is None else args.memory,
            disk_mb=args.disk,
            disk_dir=args.disk_dir,
            disk_keep=True,  # the same command run again goes on from it (kept searches)
            disk_threads=available_cores(),  # one deal at a time: its layers on every core
            cpu_time=True,  # a deal's verdict does not depend on what else the machine runs
        )
        verdicts: set[Verdict] = set()
        stopped: Counter[str] = Counter()  # the deals without a verdict, by the limit
        first = True
        if not args.optimal and args.count is not None:
            raise UsageError(Message("cli.solve.count_needs_optimal"))
        if args.optimal and args.short:
            raise UsageError(Message("cli.solve.optimal_and_short"))
        if args.optimal:
            return _run_optimal(args)
        write = _writer(out)
        lang = _language(args)
        watch = KeptWatch(args.disk_dir, began, lang) if args.disk else nullcontext()
        try:
            with watch:  # a search on disk says where it is as its layers are made
                for block in _blocks(args, limits, not args.quiet):
                    pieces: list[bytes] = []
                    try:
                        for rules, number, title, outcome in block:
                            verdicts.add(outcome.verdict)
                            if outcome.verdict == Verdict.UNKNOWN:
                                stopped[outcome.reason] += 1
                            if args.json:
                                pieces.append(output.json_line(rules, number, outcome))
                            elif args.quiet:  # English: see _jobs
                                pieces.append(output.summary_line(title, outcome))
                            else:
                                if not first:
                                    pieces.append(b"\n")
                                pieces.append(output.text(title, outcome, lang))
                            first = False
                    finally:  # what was solved before a failure or an interrupt is shown
                        write(pieces)
        except SolutionError as e:  # a bug in the solver, never a verdict
            return fail("eightoff solve", said(e), EX_SOFTWARE)
        finally:
            if args.disk:
                report_kept(args.disk_dir, began, Message("cli.solve.kept_again"), lang)
    except UsageError as e:
        return fail("eightoff solve", e.message, e.code)
    except KeyboardInterrupt:
        print(f"eightoff solve: {say(interrupted_word())}", file=sys.stderr)
        return interrupted_status()
    for line in _further(stopped, limits.states, limits.seconds, limits.memory_mb, args.disk):
        print(f"eightoff solve: {say(line)}", file=sys.stderr)
    if Verdict.UNKNOWN in verdicts:
        return EX_UNKNOWN
    if Verdict.LOST in verdicts:
        return EX_LOST
    return EX_OK


def _further(
    stopped: Counter[str],
    states: int | None,
    seconds: float | None,
    memory_mb: int | None,
    disk_mb: int | None,
) -> list[Message]:
    """What lets the searches that a limit stopped go further: a line for each limit that
    stopped some deal, naming its option and its value now (none for an interrupt).
    ``disk_mb`` None: a search that never goes on disk (par)."""
    lines = []
    for why, n in sorted(stopped.items()):
        if why == "state limit reached":
            now = grouped(states or 0)
            lines.append(Message("cli.solve.further.states", n=n, now=now))
        elif why == "time limit reached":
            lines.append(Message("cli.solve.further.time", n=n, now=f"{seconds or 0:g} s"))
        elif why == "memory limit reached":
            key = "cli.solve.further.memory_disk" if disk_mb == 0 else "cli.solve.further.memory"
            lines.append(Message(key, n=n, now=size_text(memory_mb or 0)))
        elif why == "disk limit reached":
            lines.append(Message("cli.solve.further.disk", n=n, now=size_text(disk_mb or 0)))
    return lines


def _run_optimal(args: argparse.Namespace) -> int:
    """``solve --optimal``: par for each deal (exit 0 all proven, 1 some deal lost, 2 some
    deal's par not proven)."""
    out = sys.stdout
    which = MoveCount(args.count or MoveCount.PLAYER.value)
    memory = args.memory or COMMAND_LINE_MEMORY_MB
    limits = ParLimits(
        seconds=args.time_limit,
        states=args.max_states,
        memory_mb=memory,
        threads=available_cores(),  # one deal at a time: A* on every core
    )
    proven, lost = True, False
    stopped: Counter[str] = Counter()  # the deals whose par is not proven, by the limit
    first = True
    for position, deal_number, title in _jobs(args):
        try:
            par = optimal(position, which, limits)
        except (SolutionError, ParCheckError) as e:  # a bug in a solver, never a par
            return fail("eightoff solve", f"{title}: {said(e)}", EX_SOFTWARE)
        proven &= par.optimal
        lost |= par.lost
        if not par.optimal:
            stopped[par.reason] += 1
        if args.json:
            out.write(json.dumps(par_json(position, deal_number, par)) + "\n")
        elif args.quiet:  # one line, in English: see _jobs
            out.write(f"{title}: {say(par_summary(par), DEFAULT_LANGUAGE)}\n")
        else:
            if not first:
                out.write("\n")
            print_par(out, position, title, par)
        out.flush()
        first = False
    for line in _further(stopped, limits.states, limits.seconds, limits.memory_mb, None):
        print(f"eightoff solve: {say(line)}", file=sys.stderr)
    if not proven:
        return EX_UNKNOWN
    return EX_LOST if lost else EX_OK
