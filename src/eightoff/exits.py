"""Exit codes of the ``eightoff`` commands (BSD sysexits for bad input and failures)."""

from __future__ import annotations

from typing import Final

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
EX_INTERRUPTED: Final = 130
