"""Command line: ``eightoff play | deal | rate | variants | solve | survey``.

Bad input (an unknown variant, a deal number out of range, a malformed board, a file
that is not a database) prints one line on stderr and exits with a status of 64 or
more (the table in :mod:`eightoff.cli.exits`), never a traceback. A closed output pipe
(``| head``) ends the command quietly with 141.
"""

from __future__ import annotations

import argparse
import contextlib
import importlib
import os
import sqlite3
import sys
from collections.abc import Callable, Sequence

from eightoff import __version__
from eightoff.boards import BoardError
from eightoff.cli import house_rules, solve, streams, survey
from eightoff.cli.exits import (
    EX_CANTCREAT,
    EX_DATAERR,
    EX_INTERRUPTED,
    EX_IOERR,
    EX_NOINPUT,
    EX_PIPE,
    EX_SOFTWARE,
    EX_TERMINATED,
    EX_USAGE,
    MAX_PATH,
    Parser,
    Terminated,
    UsageError,
    catch_sigterm,
    fail,
)
from eightoff.cli.say import said, text
from eightoff.cli.values import (
    DEFAULT_HOST,
    db_file,
    deal_number_arg,
    host_arg,
    port_number,
    variant_arg,
)
from eightoff.deals import DealNumberError
from eightoff.i18n import Message, quote
from eightoff.rules import DEFAULT_VARIANT, PRESETS, CellsError, UnknownVariantError
from eightoff.store.db import StoreError

# ----- parser ------------------------------------------------------------------------


def _handler(module: str, name: str) -> Callable[[argparse.Namespace], int]:
    """The command ``name`` of ``eightoff.cli.<module>``, imported when that command runs:
    the terminal's board and ``rich`` (about 50 ms) are not loaded for ``survey`` or
    ``solve``."""

    def run(args: argparse.Namespace) -> int:
        command: Callable[[argparse.Namespace], int] = getattr(
            importlib.import_module(f"eightoff.cli.{module}"), name
        )
        return command(args)

    return run


def build_parser() -> argparse.ArgumentParser:
    parser = Parser(
        prog="eightoff",
        description=text("cli.help.description"),
        epilog=text("cli.help.epilog", variants=", ".join(PRESETS), default=DEFAULT_VARIANT),
    )
    parser.add_argument("--version", action="version", version=f"eightoff {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=Parser)

    p = sub.add_parser(
        "play",
        help=text("cli.help.play"),
        description=text("cli.help.play.description"),
    )
    p.add_argument("--terminal", action="store_true", help=text("cli.help.terminal"))
    p.add_argument(
        "--variant",
        type=variant_arg,
        default=None,
        help=text("cli.help.variant_default", default=DEFAULT_VARIANT),
    )
    p.add_argument(
        "--deal", type=deal_number_arg, default=None, help=text("cli.help.deal_to_start")
    )
    p.add_argument("--host", type=host_arg, default=DEFAULT_HOST, help=text("cli.help.host"))
    p.add_argument("--port", type=port_number, default=None, help=text("cli.help.port"))
    p.add_argument("--db", type=db_file, default=None, help=text("cli.help.db"))
    p.add_argument("--no-browser", action="store_true", help=text("cli.help.no_browser"))
    house_rules.add_arguments(p)
    p.set_defaults(func=_handler("play", "cmd_play"))

    p = sub.add_parser(
        "deal",
        help=text("cli.help.deal"),
        description=text("cli.help.deal.description"),
    )
    p.add_argument(
        "number", metavar="NUMBER", type=deal_number_arg, help=text("cli.help.deal_number")
    )
    p.add_argument(
        "--variant", type=variant_arg, default=DEFAULT_VARIANT, help=text("cli.help.variant")
    )
    p.add_argument(
        "--format", choices=("text", "fcs", "json"), default="text", help=text("cli.help.format")
    )
    house_rules.add_arguments(p)
    p.set_defaults(func=_handler("deal", "cmd_deal"))

    p = sub.add_parser(
        "rate",
        help=text("cli.help.rate"),
        description=text("cli.help.rate.description"),
    )
    p.add_argument("deals", nargs="+", metavar="DEALS", help=text("cli.help.deals"))
    p.add_argument(
        "--variant", type=variant_arg, default=DEFAULT_VARIANT, help=text("cli.help.variant")
    )
    p.add_argument("--json", action="store_true", help=text("cli.help.json_lines"))
    house_rules.add_arguments(p)
    p.set_defaults(func=_handler("deal", "cmd_rate"))

    p = sub.add_parser(
        "variants",
        help=text("cli.help.variants"),
        description=text("cli.help.variants.description"),
    )
    p.set_defaults(func=_handler("deal", "cmd_variants"))

    for name, module in (("solve", solve), ("survey", survey)):
        p = sub.add_parser(name, help=text(f"cli.help.{name}"))  # the module describes it
        module.add_arguments(p)
        p.set_defaults(func=module.run)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run a command; return its exit status (argparse's own exits raise SystemExit:
    0 for --help and --version, 64 for bad usage). SIGTERM ends it as Ctrl+C does
    (the same clean-up), with 143 and one line instead of 130."""
    catch_sigterm()
    closed = streams.prepare()
    if closed is not None:
        return fail("eightoff", closed, EX_IOERR)
    try:
        try:
            code = _main(argv)
            sys.stdout.flush()
            return code
        except SystemExit as done:  # --help, --version, bad usage: argparse's own exit
            with contextlib.suppress(OSError, ValueError):
                sys.stdout.flush()  # a full disk: argparse said what it could
            _quiet_stdout()
            raise done from None
    except BrokenPipeError:
        _quiet_stdout()
        return EX_PIPE
    except Terminated:
        print(text("cli.app.sigterm", prog="eightoff"), file=sys.stderr)
        return EX_TERMINATED
    except KeyboardInterrupt:  # a command that does not say it itself (rate, play)
        print(text("cli.app.interrupted", prog="eightoff"), file=sys.stderr)
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


def _explain(e: Exception) -> tuple[Message | str, int]:
    """The one-line message and exit status for an error that reached the top."""
    from eightoff.solver import SolutionError  # here: the compiled core loads on demand

    if isinstance(e, UsageError):
        return said(e), e.code
    if isinstance(e, SolutionError):  # says itself that it is a bug to report
        return said(e), EX_SOFTWARE
    if isinstance(e, UnknownVariantError | DealNumberError | CellsError):
        return said(e), EX_USAGE
    if isinstance(e, BoardError):
        return said(e), EX_DATAERR
    if isinstance(e, StoreError):  # a database that cannot be opened, read or written
        return said(e), EX_CANTCREAT
    if isinstance(e, sqlite3.OperationalError):  # cannot open or write the file
        return Message("cli.app.db_unusable", error=str(e)), EX_CANTCREAT
    if isinstance(e, sqlite3.DatabaseError):  # e.g. "file is not a database"
        return Message("cli.app.not_a_db", error=str(e)), EX_DATAERR
    if isinstance(e, streams.ClosedInput):
        return said(e), EX_NOINPUT
    if isinstance(e, OSError):
        where = f" ({quote(e.filename, MAX_PATH)})" if e.filename else ""
        return f"{e.strerror or e}{where}", EX_IOERR
    return Message("cli.app.internal", kind=type(e).__name__, error=str(e)), EX_SOFTWARE


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
