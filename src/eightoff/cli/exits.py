"""Exit statuses of the ``eightoff`` commands, and their one-line errors.

Every refusal is one line on stderr (``eightoff solve: error: …``), at most
:data:`MAX_MESSAGE` characters, quoting at most :data:`MAX_TOKEN` characters of the bad
token, and exits with a status of 64 or more (BSD sysexits). 0, 1 and 2 keep their
meanings in ``solve``: every deal solved, some deal proven lost, some deal unknown.
:data:`EXIT_STATUSES` is the table the README documents.
"""

from __future__ import annotations

import argparse
import os
import re
import sys
from collections.abc import Callable
from typing import Final, NoReturn, TypeVar

from eightoff.i18n import MAX_TOKEN, quote

T = TypeVar("T")

EX_OK: Final = 0
EX_LOST: Final = 1
"""eightoff solve: a deal was proven lost."""
EX_UNKNOWN: Final = 2
"""eightoff solve: a limit stopped the search before a verdict."""
EX_USAGE: Final = 64
EX_DATAERR: Final = 65
EX_NOINPUT: Final = 66
EX_UNAVAILABLE: Final = 69
EX_SOFTWARE: Final = 70
EX_CANTCREAT: Final = 73
EX_IOERR: Final = 74
EX_INTERRUPTED: Final = 130
EX_PIPE: Final = 141
"""The output pipe was closed (``… | head``): the command stops quietly (128 + SIGPIPE,
what a shell reports for a program stopped by a closed pipe)."""

EXIT_STATUSES: Final[dict[int, str]] = {
    EX_OK: "done (solve: every deal solved)",
    EX_LOST: "solve: some deal proven lost (and none unknown)",
    EX_UNKNOWN: "solve: some deal unknown (a time or state limit stopped the search)",
    EX_USAGE: "bad usage: an unknown option, a number out of range, a malformed argument",
    EX_DATAERR: "bad data: a malformed board, a file that is not an eightoff database",
    EX_NOINPUT: "no input: a board file or survey store that does not exist or cannot be read",
    EX_UNAVAILABLE: "unavailable: Dask or the scheduler cannot be reached",
    EX_SOFTWARE: "internal error (a bug: please report it) or a survey worker that failed",
    EX_CANTCREAT: "cannot create: an output file or a database that cannot be written",
    EX_IOERR: "input/output error while reading or writing",
    EX_INTERRUPTED: "interrupted (Ctrl+C or SIGTERM; a survey keeps every finished batch)",
    EX_PIPE: "the output pipe was closed (e.g. piped into head): stopped quietly",
}

MAX_PATH: Final = 200
"""Most characters of a file name quoted in an error."""
MAX_MESSAGE: Final = 400
"""Most characters of an error line."""


class UsageError(Exception):
    """Bad input to a command: one line on stderr, then exit with ``code`` (64 or more)."""

    def __init__(self, message: str, code: int = EX_USAGE) -> None:
        super().__init__(message)
        self.code = code


def one_line(message: str, limit: int = MAX_MESSAGE) -> str:
    """The message on one line (line breaks and control characters, C1 and Unicode
    line separators included, as spaces), at most ``limit`` characters."""
    text = re.sub(r"[\x00-\x1f\x7f-\x9f\u2028\u2029]+", " ", message).strip()
    return text if len(text) <= limit else text[: limit - 1] + "…"


def fail(prog: str, message: str, code: int) -> int:
    """Print ``prog: error: message`` as one line on stderr; return ``code``."""
    print(one_line(f"{prog}: error: {message}"), file=sys.stderr)
    return code


_NUMBER = re.compile(r"[+-]?[0-9]+(?:_[0-9]+)*")
_DECIMAL = re.compile(r"[+-]?(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?")


def whole_number(text: str, what: str, low: int, high: int) -> int:
    """Read a whole number in ``low…high`` (ASCII digits, ``_`` between digits allowed);
    raise UsageError naming ``what``, the range and (a short piece of) the token."""
    span = f"a whole number from {low} to {high}"
    token = text.strip()
    if not _NUMBER.fullmatch(token):
        raise UsageError(f"{what} must be {span}, not {quote(text)}")
    digits = token.lstrip("+-").replace("_", "").lstrip("0")
    if len(digits) > len(str(max(abs(low), abs(high)))) + 1:
        raise UsageError(f"{what} must be {span}, not {quote(text)}")
    value = int(token)
    if not low <= value <= high:
        raise UsageError(f"{what} must be {span}, not {quote(text)}")
    return value


def number(text: str, what: str, low: float, high: float, *, open_low: bool = False) -> float:
    """Read a decimal number in ``low…high`` (``low`` excluded when ``open_low``)."""
    if open_low:
        span = f"a number more than {low:g} and at most {high:g}"
    else:
        span = f"a number from {low:g} to {high:g}"
    token = text.strip()
    if len(token) > MAX_TOKEN or not _DECIMAL.fullmatch(token):
        raise UsageError(f"{what} must be {span}, not {quote(text)}")
    value = float(token)
    if not (low < value if open_low else low <= value) or not value <= high:
        raise UsageError(f"{what} must be {span}, not {quote(text)}")
    return value


def argument(read: Callable[[str], T]) -> Callable[[str], T]:
    """An argparse ``type`` from a reader that raises UsageError (argparse then names
    the argument and exits 64 through :class:`Parser`)."""

    def convert(text: str) -> T:
        try:
            return read(text)
        except UsageError as e:
            raise argparse.ArgumentTypeError(str(e)) from None

    return convert


def file_path(text: str, what: str = "") -> str:
    """A path given on the command line: not empty, no NUL, not a directory. ``what``
    (e.g. "--db") starts the message unless argparse names the argument already."""
    lead = f"{what}: " if what else ""
    if not text.strip():
        raise UsageError(f"{lead}a file name is needed, not an empty string")
    if "\0" in text:
        raise UsageError(f"{lead}{quote(text, MAX_PATH)} contains a NUL character")
    if os.path.isdir(text):
        raise UsageError(f"{lead}{quote(text, MAX_PATH)} is a folder; give a file in it")
    return text


class Parser(argparse.ArgumentParser):
    """An argparse parser whose errors are one short line and exit 64 (not argparse's 2,
    which means "unknown" in ``eightoff solve``)."""

    def error(self, message: str) -> NoReturn:
        self.exit(EX_USAGE, one_line(f"{self.prog}: error: {message}") + "\n")
