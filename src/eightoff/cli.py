"""Command line: eightoff play | deal | variants | solve | survey."""

from __future__ import annotations

import sys


def main(argv: list[str] | None = None) -> int:
    print("eightoff: CLI under construction", file=sys.stderr)
    return 0
