"""Command line: ``eightoff play | deal | rate | variants | solve | survey``.

Bad input (an unknown variant, a deal number out of range, a malformed board, a file
that is not a database) prints one line on stderr and exits with a status of 64 or
more (the table in :mod:`eightoff.cli.exits`), never a traceback. A closed output pipe
(``| head``) ends the command quietly with 141.
"""

from __future__ import annotations

import argparse
import json
import os
import sqlite3
import sys
from collections.abc import Sequence
from typing import TYPE_CHECKING

from rich.console import Console
from rich.text import Text

from eightoff import __version__
from eightoff.boards import BoardError, format_fcs, to_json
from eightoff.cards import SUIT_SYMBOLS, Card
from eightoff.cli import house_rules
from eightoff.cli.exits import (
    EX_CANTCREAT,
    EX_DATAERR,
    EX_INTERRUPTED,
    EX_IOERR,
    EX_PIPE,
    EX_SOFTWARE,
    EX_USAGE,
    MAX_PATH,
    Parser,
    UsageError,
    argument,
    fail,
    file_path,
    whole_number,
)
from eightoff.deals import MAX_DEAL, DealNumberError, deal, random_deal_number
from eightoff.game import Game
from eightoff.i18n import quote
from eightoff.position import (
    CELL_LABELS,
    COLUMN_LABELS,
    IllegalMoveError,
    MoveSyntaxError,
    Position,
)
from eightoff.rules import DEFAULT_VARIANT, PRESETS, Rules, UnknownVariantError, preset
from eightoff.store.db import StoreError

if TYPE_CHECKING:
    from eightoff.oracle import Oracle

MAX_PORT = 65535

if TYPE_CHECKING:
    from eightoff.rating import Rating


class _Console(Console):
    """rich's Console, except that a closed output pipe ends the command the way every
    other command's output does (exit 141 in :func:`main`; rich itself exits 1)."""

    def on_broken_pipe(self) -> None:
        raise BrokenPipeError


def variant_id(text: str) -> str:
    """argparse type for --variant: a known preset id."""
    try:
        return preset(text).id
    except UnknownVariantError as e:
        raise argparse.ArgumentTypeError(str(e)) from None


def deal_number(text: str) -> int:
    """argparse type for a deal number (1 … 10^20 − 1, ASCII digits)."""
    try:
        return whole_number(text, "a deal number", 1, MAX_DEAL)
    except UsageError:
        raise argparse.ArgumentTypeError(
            f"{quote(text)} is not a deal number: deals are numbered 1 to {MAX_DEAL}"
        ) from None


port_number = argument(lambda text: whole_number(text, "the port", 1, MAX_PORT))
db_file = argument(file_path)


# ----- text board ------------------------------------------------------------------
def _card_text(card: Card | None, width: int = 4) -> Text:
    if card is None:
        return Text("·".center(width), style="dim")
    style = "bold red" if card.is_red else "bold"
    return Text(card.symbol.rjust(3).ljust(width), style=style)


def render_board(position: Position, title: str = "") -> Text:
    """A readable board: foundations, cells, then the columns top to bottom."""
    rules = position.rules
    out = Text()
    if title:
        out.append(title + "\n", style="bold")
    out.append("Home  ")
    for f, top in enumerate(position.foundations):
        suit = f % 4
        if top:
            out.append_text(_card_text(Card.of(top, suit)))
        else:
            out.append(f" {SUIT_SYMBOLS[suit]}- ", style="red dim" if suit >= 2 else "dim")
        out.append(" ")
    out.append("\nCells ")
    for i, c in enumerate(position.cells):
        out.append(f"{CELL_LABELS[i]}:", style="cyan")
        out.append_text(_card_text(c))
    out.append("\n\n      ")
    for i in range(rules.columns):
        out.append(f"  {COLUMN_LABELS[i]}  ", style="cyan")
    depth = max((len(col) for col in position.columns), default=0)
    for row in range(max(depth, 1)):
        out.append("\n      ")
        for col in position.columns:
            card = col[row] if row < len(col) else None
            if card is None:
                out.append("     ")
            else:
                out.append_text(_card_text(card, 5))
    out.append("\n")
    limit = position.group_limit_words()
    out.append(f"\nGroup limit: {limit}", style="dim")
    return out


# ----- subcommands -----------------------------------------------------------------
def cmd_variants(args: argparse.Namespace) -> int:
    console = _Console()
    for rules in PRESETS.values():
        line = Text()
        line.append(f"{rules.id:<20}", style="bold")
        line.append(f"{rules.name}: {rules.describe()}")
        console.print(line, soft_wrap=True)
    return 0


def cmd_deal(args: argparse.Namespace) -> int:
    position = deal(house_rules.apply(preset(args.variant), args), args.number)
    if args.format == "fcs":
        sys.stdout.write(format_fcs(position))
    elif args.format == "json":
        print(json.dumps(to_json(position)))
    else:
        rules = position.rules
        house = house_rules.words(rules)
        title = f"{rules.name} · deal #{args.number}" + (f" · {house}" if house else "")
        console = _Console(highlight=False)
        console.print(render_board(position, title))
        console.print(Text(f"Rating: {_rating_of(position).describe()}"))
    return 0


# ----- eightoff rate (deal ratings; eightoff.rating) ---------------------------------
def _rating_of(position: Position) -> Rating:
    from eightoff.rating import rate

    return rate(position)


def cmd_rate(args: argparse.Namespace) -> int:
    """Each deal's rating and the measurements behind it, one line (or JSON object) each."""
    from eightoff.cli.solve import parse_deals

    ranges = parse_deals(args.deals)
    rules = house_rules.apply(preset(args.variant), args)
    for numbers in ranges:
        for number in numbers:
            rating = _rating_of(deal(rules, number))
            if args.json:
                print(json.dumps({"deal": number, **rating.to_json()}), flush=True)
            else:
                moves = f"{rating.solution_moves} moves, " if rating.solution_moves else ""
                states = f"{rating.solver_states:,}".replace(",", " ")
                print(
                    f"{rules.name} · deal #{number}: {rating.describe()};"
                    f" solver: {rating.verdict}, {moves}{states} states",
                    flush=True,
                )
    return 0


TERMINAL_HELP = """Moves: source then target. Columns 1–9 (0 = tenth), cells a–g and i, home h.
  37 moves the run from column 3 that fits column 7 (37x2: exactly two cards)
  3a puts column 3's card in cell a · a5 cell a to column 5 · 4h column 4 home
Keys: t hint · u undo · r redo · ? legal moves · n new deal · s restart · q quit"""

MAX_ENTRY = 40
"""The longest entry read as a move or a key (a move is at most 6 characters)."""


def _lost(verdict: object) -> bool:
    """Did the oracle prove the position lost? (Its word is "not_winnable"; the one
    verdict vocabulary under way spells it "lost": either is read.)"""
    return str(verdict) in ("not_winnable", "lost")


def winnability(oracle: Oracle, line: Sequence[Position]) -> str:
    """The status line's verdict for the last position of ``line`` (the game's
    positions, the start first), in the table's words: "Winnable", "Not winnable from
    here: undo 2 moves to get back", … Blocking: solves what the oracle has not seen."""
    n = len(line) - 1
    if _lost(oracle.answer(line[n], oracle.status_seconds).verdict):
        for k in range(1, n + 1):  # how far back is the last winnable position?
            if oracle.answer(line[n - k], oracle.status_seconds).moves or line[n - k].is_won():
                break
    return str(oracle.status(0, line).message)


def hint(oracle: Oracle, position: Position, line: Sequence[Position]) -> str:
    """The solver's next move and why, or why there is none."""
    answer = oracle.answer(position, oracle.hint_seconds)
    if answer.moves:  # a solution: the position is winnable
        move, n = answer.moves[0], len(answer.moves)
        return f"Hint: {move} — {position.hint_words(move, n)}"
    if _lost(answer.verdict):
        return f"No move leads to a win. {winnability(oracle, line)}."
    return f"The solver found no win within {oracle.hint_seconds:g} seconds."


def play_terminal(
    variant: str | Rules,
    number: int | None,
    console: Console | None = None,
    oracle: Oracle | None = None,
) -> int:
    """The terminal game: shows the board, reads moves, explains bad entries, gives
    hints (``t``) and after each move the solver's verdict, as the web table does.
    ``variant`` may be Rules with house rules (``--retrieval``/``--strict``)."""
    from eightoff.oracle import Oracle

    console = console or _Console(highlight=False)
    oracle = oracle or Oracle(status_seconds=2.0, hint_seconds=5.0)
    try:
        return _terminal_loop(variant, number, console, oracle)
    finally:
        oracle.close()


def _terminal_loop(
    variant: str | Rules, number: int | None, console: Console, oracle: Oracle
) -> int:
    number = number if number is not None else random_deal_number()
    game = Game.new(variant, number)

    def show() -> None:
        rules = game.rules
        title = f"{rules.name} · deal #{game.deal_number} · moves {game.moves_made}"
        if house := house_rules.words(rules):
            title += f" · {house}"
        console.print(render_board(game.position, title))
        if not game.position.is_won():
            console.print(winnability(oracle, game.positions()), style="bold")

    console.print(TERMINAL_HELP, style="dim")
    show()
    while True:
        if game.position.is_won():
            console.print(f"You won in {game.moves_made} moves!", style="bold green")
            return 0
        if game.position.is_lost():
            console.print("No moves left: undo (u), restart (s) or a new deal (n).", style="yellow")
        try:
            entry = input("move> ").strip()
        except (EOFError, KeyboardInterrupt):
            console.print()
            return 0
        if not entry:
            continue
        if len(entry) > MAX_ENTRY:
            console.print(
                f"{quote(entry)} is not a move (e.g. 3a, a5, 4h). Try again"
                " (? lists the legal moves).",
                style="yellow",
            )
            continue
        cmd = entry.lower()
        if cmd in ("q", "quit", "exit"):
            return 0
        if cmd in ("?", "help"):
            moves = game.position.legal_moves()
            console.print(
                "Legal moves: " + " ".join(str(m) for m in moves) if moves else "No legal moves."
            )
            console.print(TERMINAL_HELP, style="dim")
            continue
        if cmd in ("t", "hint"):
            console.print(hint(oracle, game.position, game.positions()), style="cyan")
            continue
        if cmd in ("u", "undo"):
            if game.undo() is None:
                console.print("Nothing to undo.", style="yellow")
            show()
            continue
        if cmd in ("r", "redo"):
            if game.redo() is None:
                console.print("Nothing to redo.", style="yellow")
            show()
            continue
        if cmd in ("s", "restart"):
            game.restart()
            show()
            continue
        if cmd in ("n", "new"):
            game = Game.new(variant, random_deal_number())
            show()
            continue
        try:
            before = game.position
            turn = game.play(entry)
        except (MoveSyntaxError, IllegalMoveError) as e:
            console.print(f"{e}. Try again (? lists the legal moves).", style="yellow")
            continue
        said = [before.describe(turn.move)]
        pos = before.apply_unchecked(turn.move)
        for m in turn.auto:
            said.append(pos.describe(m))
            pos = pos.apply_unchecked(m)
        console.print("; ".join(said), style="green")
        show()


def cmd_play(args: argparse.Namespace) -> int:
    rules = house_rules.apply(preset(args.variant or DEFAULT_VARIANT), args)
    if args.terminal:
        return play_terminal(rules, args.deal)
    try:
        from eightoff.store import StoreError
        from eightoff.web.server import DB_ENV, serve
    except ImportError:
        print("eightoff: the web table is not available; playing in the terminal", file=sys.stderr)
        return play_terminal(rules, args.deal)
    if args.deal is not None or args.variant is not None or args.retrieval or args.strict:
        try:
            _start_web_game(args.db, rules, args.deal)
        except StoreError as e:  # unreadable, unwritable, not a database: one line
            print(f"eightoff: {e} (or set {DB_ENV})", file=sys.stderr)
            return EX_CANTCREAT
    # one server per database: serve() points to a live one instead of starting another
    return serve(args.host, args.port, args.db, not args.no_browser)


def _start_web_game(db: str | None, rules: Rules, number: int | None) -> None:
    """``play --variant/--deal/--retrieval/--strict`` without --terminal: the table opens
    on that deal, with those house rules (started as the table starts a deal)."""
    from eightoff.store import Store
    from eightoff.table import Table
    from eightoff.web.server import resolve_db

    number = number if number is not None else random_deal_number()
    store = Store(resolve_db(db))
    try:
        Table(store).start_dealt(deal(rules, number), number)
    finally:
        store.close()


def _delegate(module: str) -> tuple[object, object] | None:
    import importlib

    try:
        mod = importlib.import_module(module)
    except ImportError:
        return None
    return mod.add_arguments, mod.run


# ----- parser ------------------------------------------------------------------------
def build_parser() -> argparse.ArgumentParser:
    parser = Parser(
        prog="eightoff",
        description=(
            "Eight Off solitaire and the FreeCell family: play in the browser or the terminal,"
            " print deals, solve them, survey millions of them."
        ),
        epilog="Variants: " + ", ".join(PRESETS) + f" (default {DEFAULT_VARIANT}).",
    )
    parser.add_argument("--version", action="version", version=f"eightoff {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=Parser)

    p = sub.add_parser(
        "play",
        help="play: the web table in your browser (or --terminal)",
        description="Start the local web table (127.0.0.1) and open it in the browser;"
        " with --terminal, play in this terminal instead.",
    )
    p.add_argument("--terminal", action="store_true", help="play in the terminal")
    p.add_argument(
        "--variant", type=variant_id, default=None, help=f"variant id (default {DEFAULT_VARIANT})"
    )
    p.add_argument(
        "--deal",
        type=deal_number,
        default=None,
        help="start this deal (default: the table resumes the game in progress)",
    )
    p.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1)")
    p.add_argument(
        "--port", type=port_number, default=None, help="port 1 to 65535 (default: a free one)"
    )
    p.add_argument(
        "--db", type=db_file, default=None, help="SQLite file for games and stats (or EIGHTOFF_DB)"
    )
    p.add_argument("--no-browser", action="store_true", help="print the URL, do not open it")
    house_rules.add_arguments(p)
    p.set_defaults(func=cmd_play)

    p = sub.add_parser(
        "deal",
        help="print deal N",
        description="Print deal N of a variant (PySolFC's numbering).",
    )
    p.add_argument("number", type=deal_number, help="deal number, 1 to 10^20 - 1")
    p.add_argument("--variant", type=variant_id, default=DEFAULT_VARIANT, help="variant id")
    p.add_argument(
        "--format",
        choices=("text", "fcs", "json"),
        default="text",
        help="text: readable board; fcs: Freecell Solver board text; json: JSON board",
    )
    house_rules.add_arguments(p)
    p.set_defaults(func=cmd_deal)

    p = sub.add_parser(
        "rate",
        help="rate deals: Easy … Grandmaster, or Not winnable",
        description="Rate deals (Easy, Medium, Hard, Expert, Grandmaster, or Not winnable)"
        " and print the measurements behind each rating.",
    )
    p.add_argument("deals", nargs="+", metavar="DEALS", help="deal numbers or ranges: 1-100 7")
    p.add_argument("--variant", type=variant_id, default=DEFAULT_VARIANT, help="variant id")
    p.add_argument("--json", action="store_true", help="one JSON object per deal per line")
    house_rules.add_arguments(p)
    p.set_defaults(func=cmd_rate)

    p = sub.add_parser(
        "variants",
        help="list the variants and their rules",
        description="List the variants with their rules, one line each.",
    )
    p.set_defaults(func=cmd_variants)

    for name, module, text in (
        ("solve", "eightoff.cli.solve", "solve deals or a board: a proven verdict"),
        ("survey", "eightoff.cli.survey", "verdicts for ranges of deals, resumable; reports"),
    ):
        hooks = _delegate(module)
        if hooks is None:
            continue
        add_arguments, run = hooks
        p = sub.add_parser(name, help=text, description=text[0].upper() + text[1:] + ".")
        add_arguments(p)  # type: ignore[operator]
        p.set_defaults(func=run)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run a command; return its exit status (argparse's own exits raise SystemExit:
    0 for --help and --version, 64 for bad usage)."""
    try:
        code = _main(argv)
        sys.stdout.flush()
        return code
    except BrokenPipeError:
        _quiet_stdout()
        return EX_PIPE
    except KeyboardInterrupt:
        return EX_INTERRUPTED
    except Exception as e:
        return fail("eightoff", *_explain(e))


def _main(argv: Sequence[str] | None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if not getattr(args, "command", None):
        parser.print_help()
        return 0
    result: int = args.func(args)
    return result


def _explain(e: Exception) -> tuple[str, int]:
    """The one-line message and exit status for an error that reached the top."""
    from eightoff.solver import SolutionError  # here: the compiled core loads on demand

    if isinstance(e, UsageError):
        return str(e), e.code
    if isinstance(e, SolutionError):  # says itself that it is a bug to report
        return str(e), EX_SOFTWARE
    if isinstance(e, UnknownVariantError | DealNumberError):
        return str(e), EX_USAGE
    if isinstance(e, BoardError):
        return str(e), EX_DATAERR
    if isinstance(e, StoreError):  # a database that cannot be opened, read or written
        return str(e), EX_CANTCREAT
    if isinstance(e, sqlite3.OperationalError):  # cannot open or write the file
        return f"the database cannot be used: {e}", EX_CANTCREAT
    if isinstance(e, sqlite3.DatabaseError):  # e.g. "file is not a database"
        return f"not an eightoff database: {e}", EX_DATAERR
    if isinstance(e, OSError):
        where = f" ({quote(e.filename, MAX_PATH)})" if e.filename else ""
        return f"{e.strerror or e}{where}", EX_IOERR
    return f"internal error, please report it: {type(e).__name__}: {e}", EX_SOFTWARE


def _quiet_stdout() -> None:
    """After a closed pipe: point stdout at /dev/null so that Python's own flush at
    exit does not complain (the recipe in the Python docs, ``signal`` module)."""
    try:
        fd = sys.stdout.fileno()
    except (AttributeError, OSError, ValueError):  # not a real file (tests)
        return
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, fd)
    os.close(devnull)


if __name__ == "__main__":
    sys.exit(main())
