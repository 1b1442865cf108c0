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
from typing import Any, Final, NoReturn, TypeVar

from eightoff.cli.say import language, say, text
from eightoff.i18n import DEFAULT_LANGUAGE, MAX_TOKEN, Lang, Message, quote

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
"""Ctrl+C (SIGINT): 128 + 2."""
EX_TERMINATED: Final = 143
"""SIGTERM (``kill PID``, a service manager stopping it): 128 + 15, what a shell
reports, with one line saying so; what the command had saved stays saved."""
EX_PIPE: Final = 141
"""The output pipe was closed (``… | head``): the command stops quietly (128 + SIGPIPE,
what a shell reports for a program stopped by a closed pipe)."""

EXIT_STATUSES: Final[dict[int, str]] = {
    EX_OK: "done (solve: every deal solved)",
    EX_LOST: "solve: some deal proven lost (and none unknown)",
    EX_UNKNOWN: "solve: some deal unknown (a time or state limit stopped the search)",
    EX_USAGE: "bad usage: an unknown option, a number out of range, a malformed argument",
    EX_DATAERR: "bad data: a malformed board, a file that is not an eightoff database or is damaged",  # noqa: E501
    EX_NOINPUT: "no input: a board file or survey store that cannot be read; stdin closed",
    EX_UNAVAILABLE: "unavailable: the Dask scheduler unreachable or gone; an address not to listen on",  # noqa: E501
    EX_SOFTWARE: "internal error (a bug: please report it) or a survey worker that failed",
    EX_CANTCREAT: "cannot create: an output file or a database that cannot be written (or has two names)",  # noqa: E501
    EX_IOERR: "input/output error while reading or writing, or standard output closed",
    EX_INTERRUPTED: "interrupted by Ctrl+C (a survey keeps every finished batch, the table every move)",  # noqa: E501
    EX_PIPE: "the output pipe was closed (e.g. piped into head): stopped quietly",
    EX_TERMINATED: "stopped by SIGTERM, one line saying so (nothing saved is lost, as with Ctrl+C)",
}


class Terminated(KeyboardInterrupt):
    """SIGTERM, felt in the main thread as Ctrl+C is: every clean-up Ctrl+C runs (a
    transaction rolled back, a survey's finished batches kept) runs for it too."""


_signals: dict[str, bool] = {"terminated": False}


def on_sigterm(signum: int, frame: object) -> None:
    _signals["terminated"] = True
    raise Terminated


def catch_sigterm() -> None:
    """From now on SIGTERM raises :class:`Terminated` in the main thread."""
    import signal

    _signals["terminated"] = False
    if hasattr(signal, "SIGTERM"):
        signal.signal(signal.SIGTERM, on_sigterm)


def interrupted_status() -> int:
    """The status of a command stopped by Ctrl+C (130) or SIGTERM (143)."""
    return EX_TERMINATED if _signals["terminated"] else EX_INTERRUPTED


def interrupted_word() -> Message:
    """ "stopped by SIGTERM" or "interrupted", for the command's one line."""
    return Message("cli.sigterm" if _signals["terminated"] else "cli.interrupted")


MAX_PATH: Final = 200
"""Most characters of a file name quoted in an error."""
MAX_MESSAGE: Final = 400
"""Most characters of an error line."""


class UsageError(Exception):
    """Bad input to a command: one line on stderr, then exit with ``code`` (64 or more).
    ``str()`` is the English text; :func:`eightoff.cli.say.said` the command line's."""

    def __init__(self, message: Message | str, code: int = EX_USAGE) -> None:
        super().__init__(message)
        self.message = message
        self.code = code


def store_status(error: Exception, reading: bool = False) -> int:
    """The exit status of a database that cannot be used (a ``StoreError``): bad data
    (65) for a damaged file or one that is not an eightoff database, where a retry will
    not help; otherwise 66 for a store only read (``survey report``/``export``), 73 for
    one written."""
    from eightoff.store import StoreDamaged

    if isinstance(error, StoreDamaged):
        return EX_DATAERR
    return EX_NOINPUT if reading else EX_CANTCREAT


def one_line(message: str, limit: int = MAX_MESSAGE) -> str:
    """The message on one line (line breaks and control characters, C1 and Unicode
    line separators included, as spaces), at most ``limit`` characters."""
    text = re.sub(r"[\x00-\x1f\x7f-\x9f\u2028\u2029]+", " ", message).strip()
    return text if len(text) <= limit else text[: limit - 1] + "…"


def fail(prog: str, message: Message | str, code: int) -> int:
    """Print ``prog: error: message`` as one line on stderr (in the command line's
    language); return ``code``."""
    print(one_line(text("cli.error", prog=prog, message=message)), file=sys.stderr)
    return code


_NUMBER = re.compile(r"[+-]?[0-9]+(?:_[0-9]+)*")
_DECIMAL = re.compile(r"[+-]?(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?")


def whole_number(given: str, what: Message | str, low: int, high: int) -> int:
    """Read a whole number in ``low…high`` (ASCII digits, ``_`` between digits allowed);
    raise UsageError naming ``what``, the range and (a short piece of) the token."""
    refusal = UsageError(
        Message("cli.value.whole_number", what=what, low=low, high=high, token=quote(given))
    )
    token = given.strip()
    if not _NUMBER.fullmatch(token):
        raise refusal
    digits = token.lstrip("+-").replace("_", "").lstrip("0")
    if len(digits) > len(str(max(abs(low), abs(high)))) + 1:
        raise refusal
    value = int(token)
    if not low <= value <= high:
        raise refusal
    return value


def number(
    given: str, what: Message | str, low: float, high: float, *, open_low: bool = False
) -> float:
    """Read a decimal number in ``low…high`` (``low`` excluded when ``open_low``)."""
    refusal = UsageError(
        Message(
            "cli.value.number_above" if open_low else "cli.value.number",
            what=what,
            low=low,
            high=high,
            token=quote(given),
        )
    )
    token = given.strip()
    if len(token) > MAX_TOKEN or not _DECIMAL.fullmatch(token):
        raise refusal
    value = float(token)
    if not (low < value if open_low else low <= value) or not value <= high:
        raise refusal
    return value


def argument(read: Callable[[str], T]) -> Callable[[str], T]:
    """An argparse ``type`` from a reader that raises UsageError (argparse then names
    the argument and exits 64 through :class:`Parser`)."""

    def convert(given: str) -> T:
        try:
            return read(given)
        except UsageError as e:
            raise argparse.ArgumentTypeError(say(e.message)) from None

    return convert


def file_path(given: str, what: str = "") -> str:
    """A path given on the command line: not empty, no NUL, not a directory. ``what``
    (e.g. "--db") starts the message unless argparse names the argument already."""
    lead = f"{what}: " if what else ""
    if not given.strip():
        raise UsageError(Message("cli.file.empty", lead=lead))
    if "\0" in given:
        raise UsageError(Message("cli.file.nul", lead=lead, path=quote(given, MAX_PATH)))
    if os.path.isdir(given):
        raise UsageError(Message("cli.file.folder", lead=lead, path=quote(given, MAX_PATH)))
    return given


def database_path(given: str, what: str = "") -> str:
    """A database file (``--db``): as :func:`file_path`, and not ``:memory:``, SQLite's
    name for a database that would be gone when the command ends."""
    file_path(given, what)
    if given == ":memory:":
        lead = f"{what}: " if what else ""
        raise UsageError(Message("cli.file.memory", lead=lead))
    return given


SQLITE_MAGIC: Final = b"SQLite format 3\x00"
"""The first 16 bytes of every SQLite database file."""


def output_file(given: str, what: str = "") -> str:
    """A file the command will write over (a CSV, a PNG): as :func:`file_path`, and not
    a database, followed through links: writing there would destroy a survey store or
    the table's games and statistics."""
    file_path(given, what)
    try:
        with open(given, "rb") as f:
            head = f.read(len(SQLITE_MAGIC))
    except OSError:  # missing, or unreadable: the write itself says what is wrong
        return given
    if head == SQLITE_MAGIC:
        lead = f"{what}: " if what else ""
        raise UsageError(Message("cli.file.database", lead=lead, path=quote(given, MAX_PATH)))
    return given


class Parser(argparse.ArgumentParser):
    """An argparse parser whose errors are one short line and exit 64 (not argparse's 2,
    which means "unknown" in ``eightoff solve``), and whose help has argparse's own
    words ("usage:", "options", "show this help message and exit") in the command
    line's language too, as are its error phrases (:func:`argparse_words`)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._positionals.title = text("cli.help.positionals")
        self._optionals.title = text("cli.help.options")
        for action in self._actions:
            if isinstance(action, argparse._HelpAction):
                action.help = text("cli.help.help")

    def add_argument(self, *args: Any, **kwargs: Any) -> argparse.Action:
        if kwargs.get("action") == "version":
            kwargs.setdefault("help", text("cli.help.version"))
        return super().add_argument(*args, **kwargs)

    def _usage(self) -> argparse.HelpFormatter:
        """A formatter holding the usage, its prefix in the command line's words."""
        formatter = self._get_formatter()
        formatter.add_usage(
            self.usage, self._actions, self._mutually_exclusive_groups, text("cli.help.usage")
        )
        return formatter

    def format_usage(self) -> str:
        return self._usage().format_help()

    def format_help(self) -> str:
        # argparse's own format_help, with the usage's prefix in the command line's words
        formatter = self._usage()
        formatter.add_text(self.description)
        for group in self._action_groups:
            formatter.start_section(group.title)
            formatter.add_text(group.description)
            formatter.add_arguments(group._group_actions)
            formatter.end_section()
        formatter.add_text(self.epilog)
        return formatter.format_help()

    def error(self, message: str) -> NoReturn:
        lang = language()
        words = text("cli.error", prog=self.prog, message=argparse_words(message, lang))
        self.exit(EX_USAGE, one_line(words) + "\n")


_ARGPARSE: Final = (
    (re.compile(r"argument (?P<arg>[^:]+): (?P<why>.*)", re.S), "cli.argparse.argument"),
    (
        re.compile(r"invalid choice: (?P<value>.*) \(choose from (?P<choices>.*)\)", re.S),
        "cli.argparse.choice",
    ),
    (re.compile(r"invalid (?P<type>\w+) value: (?P<value>.*)", re.S), "cli.argparse.value"),
    (re.compile(r"expected one argument"), "cli.argparse.one"),
    (re.compile(r"expected at least one argument"), "cli.argparse.at_least_one"),
    (re.compile(r"expected at most one argument"), "cli.argparse.at_most_one"),
    (
        re.compile(r"the following arguments are required: (?P<args>.*)", re.S),
        "cli.argparse.required",
    ),
    (re.compile(r"one of the arguments (?P<args>.*) is required", re.S), "cli.argparse.one_of"),
    (re.compile(r"unrecognized arguments: (?P<args>.*)", re.S), "cli.argparse.unrecognized"),
    (re.compile(r"not allowed with argument (?P<arg>.*)", re.S), "cli.argparse.not_with"),
    (
        re.compile(r"ambiguous option: (?P<option>\S+) could match (?P<matches>.*)", re.S),
        "cli.argparse.ambiguous",
    ),
    (re.compile(r"ignored explicit argument (?P<value>.*)", re.S), "cli.argparse.ignored"),
)
"""argparse's own error phrases (Python ships no German for them), each as a message."""


def argparse_words(message: str, lang: Lang) -> str:
    """An argparse error in ``lang``: its phrases from the catalogue, what it quotes (and
    the reasons of our own readers, already in ``lang``) as it is. English as argparse
    wrote it; a phrase not in the table stays argparse's."""
    if lang == DEFAULT_LANGUAGE:
        return message
    for pattern, msg_id in _ARGPARSE:
        if found := pattern.fullmatch(message):
            params = found.groupdict()
            if "why" in params:
                params["why"] = argparse_words(params["why"], lang)
            return say(Message(msg_id, **params), lang)
    return message
