"""The standard streams as the commands find them: closed, or unable to write the
cards' symbols.

* Standard output closed (``eightoff solve 1 >&-``): nothing can be shown; one line on
  stderr and exit 74 before anything runs.
* Standard input closed (``eightoff solve --board - <&-``, ``play --terminal <&-``):
  reading it raises :class:`ClosedInput` (exit 66, one line); commands that do not
  read it run as usual.
* Standard error closed: the one-line errors go nowhere; the status still says it.
* An output encoding that cannot write a symbol (``PYTHONIOENCODING=ascii``, a Latin-1
  terminal): the symbol is written plainly instead (``K♦`` as ``KD``, ``→`` as ``->``,
  ``·`` as ``.``), never an error.
"""

from __future__ import annotations

import codecs
import contextlib
import os
import sys
from typing import Any, Final

from eightoff.i18n import Message

PLAIN: Final = {
    "♣": "C", "♠": "S", "♥": "H", "♦": "D",
    "→": "->", "←": "<-", "↑": "^", "↓": "v", "↔": "<->", "⇒": "=>",
    "·": ".", "•": "*", "–": "-", "—": "--", "…": "...", "×": "x", "−": "-",
    "‘": "'", "’": "'", "“": '"', "”": '"', "„": '"', "«": '"', "»": '"',
    "▶": ">", "◀": "<", "✓": "ok", "✗": "x", "≈": "~", "≤": "<=", "≥": ">=",
    "²": "2", "³": "3", "µ": "u", "\u00a0": " ", "\u2009": " ", "\u202f": " ",
    "│": "|", "─": "-", "┃": "|", "━": "-", "█": "#", "░": ".", "▒": ":", "▓": "#",
}  # fmt: skip
"""What a symbol the output encoding lacks is written as (anything else: ``?``)."""

ERRORS: Final = "eightoff-plain"


def _plain(error: UnicodeError) -> tuple[str, int]:
    if not isinstance(error, UnicodeEncodeError):
        raise error
    bad = error.object[error.start : error.end]
    return "".join(PLAIN.get(ch, "?") for ch in bad), error.end


codecs.register_error(ERRORS, _plain)


class ClosedInput(OSError):
    """Standard input was closed when the command started and it was asked to read it."""

    def __init__(self) -> None:
        super().__init__(Message("cli.stdin_closed"))


class _Closed:
    """What sys.stdin is when file descriptor 0 was closed."""

    encoding = "utf-8"
    closed = False

    def _refuse(self, *args: Any) -> Any:
        raise ClosedInput

    read = readline = readlines = __iter__ = _refuse

    def isatty(self) -> bool:
        return False

    def fileno(self) -> int:
        raise ClosedInput


def prepare() -> Message | None:
    """Make the streams fit for the commands; the one-line reason the command cannot
    run at all (standard output closed), or None."""
    if sys.stderr is None:
        sys.stderr = open(os.devnull, "w", encoding="utf-8")  # noqa: SIM115 (for the process)
    if sys.stdin is None:
        sys.stdin = _Closed()
    if sys.stdout is None:
        return Message("cli.stdout_closed")
    for stream in (sys.stdout, sys.stderr):
        reconfigure = getattr(stream, "reconfigure", None)
        encoding = getattr(stream, "encoding", None) or "utf-8"
        if reconfigure is None:
            continue
        try:
            "♣♠♥♦→·–…".encode(encoding)
        except (UnicodeEncodeError, LookupError):
            with contextlib.suppress(ValueError, OSError):
                reconfigure(errors=ERRORS)
    return None
