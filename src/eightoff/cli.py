"""Command line: ``eightoff play | deal | variants | solve | survey``.

Bad input (an unknown variant, a deal number out of range, a malformed board)
prints one line on stderr and exits with 64 (EX_USAGE) or more, never a traceback.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from typing import NoReturn

from rich.console import Console
from rich.text import Text

import eightoff.house_rules as house_rules
from eightoff import __version__
from eightoff.boards import format_fcs, to_json
from eightoff.cards import SUIT_SYMBOLS, Card
from eightoff.deals import MAX_DEAL, DealNumberError, check_deal_number, deal, random_deal_number
from eightoff.exits import EX_CANTCREAT, EX_USAGE
from eightoff.game import Game
from eightoff.position import (
    CELL_LABELS,
    COLUMN_LABELS,
    IllegalMoveError,
    MoveSyntaxError,
    Position,
)
from eightoff.rules import DEFAULT_VARIANT, PRESETS, Rules, UnknownVariantError, preset


class UsageError(Exception):
    """Bad input on the command line: one line, exit 64."""


class _Parser(argparse.ArgumentParser):
    """An argparse parser whose errors are one line and exit 64."""

    def error(self, message: str) -> NoReturn:
        self.exit(EX_USAGE, f"{self.prog}: error: {message}\n")


def variant_id(text: str) -> str:
    """argparse type for --variant: a known preset id."""
    try:
        return preset(text).id
    except UnknownVariantError as e:
        raise argparse.ArgumentTypeError(str(e)) from None


def deal_number(text: str) -> int:
    """argparse type for a deal number (1 … 10^20 − 1)."""
    try:
        return check_deal_number(int(text))
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"{text!r} is not a deal number: deals are numbered 1 to {MAX_DEAL}"
        ) from None


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
    console = Console()
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
        Console(highlight=False).print(render_board(position, title))
    return 0


TERMINAL_HELP = """Moves: source then target. Columns 1–9 (0 = tenth), cells a–g and i, home h.
  37 moves the run from column 3 that fits column 7 (37x2: exactly two cards)
  3a puts column 3's card in cell a · a5 cell a to column 5 · 4h column 4 home
Keys: u undo · r redo · ? legal moves · n new deal · s restart · q quit"""


def play_terminal(variant: str | Rules, number: int | None, console: Console | None = None) -> int:
    """The terminal game: shows the board, reads moves, explains bad entries.
    ``variant`` may be Rules with house rules (``--retrieval``/``--strict``)."""
    console = console or Console(highlight=False)
    number = number if number is not None else random_deal_number()
    game = Game.new(variant, number)

    def show() -> None:
        rules = game.rules
        title = f"{rules.name} · deal #{game.deal_number} · moves {game.moves_made}"
        if house := house_rules.words(rules):
            title += f" · {house}"
        console.print(render_board(game.position, title))

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
    parser = _Parser(
        prog="eightoff",
        description=(
            "Eight Off solitaire and the FreeCell family: play in the browser or the terminal,"
            " print deals, solve them, survey millions of them."
        ),
        epilog="Variants: " + ", ".join(PRESETS) + f" (default {DEFAULT_VARIANT}).",
    )
    parser.add_argument("--version", action="version", version=f"eightoff {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)

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
    p.add_argument("--port", type=int, default=None, help="port (default: a free one)")
    p.add_argument("--db", default=None, help="SQLite file for games and stats (or EIGHTOFF_DB)")
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
        "variants",
        help="list the variants and their rules",
        description="List the variants with their rules, one line each.",
    )
    p.set_defaults(func=cmd_variants)

    for name, module, text in (
        ("solve", "eightoff.solver.command", "solve deals or a board: a proven verdict"),
        ("survey", "eightoff.survey.command", "verdicts for ranges of deals, resumable; reports"),
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
    parser = build_parser()
    args = parser.parse_args(argv)
    if not getattr(args, "command", None):
        parser.print_help()
        return 0
    try:
        result: int = args.func(args)
    except (UnknownVariantError, DealNumberError, UsageError) as e:
        print(f"eightoff: error: {e}", file=sys.stderr)
        return EX_USAGE
    except KeyboardInterrupt:
        return 130
    return result


if __name__ == "__main__":
    sys.exit(main())
