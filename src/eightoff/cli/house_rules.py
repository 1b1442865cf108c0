"""House rules on the command line: ``--retrieval``, ``--strict`` and ``--cells N``.

Any variant can be played with foundation retrieval (a foundation's top card may come
back to a column or a cell, as the German Eight Off rules allow) and with strict
single-card moves (no group moves; the FreeCell rules call both conventions legitimate,
to be agreed before play), and with another number of free cells (fewer to make it
harder: "FreeCell, 2 cells"). Every command that deals or solves takes the same flags
from here and turns them into :meth:`eightoff.rules.Rules.with_options`:

>>> import argparse
>>> from eightoff.rules import preset
>>> parser = argparse.ArgumentParser()
>>> add_arguments(parser)
>>> args = parser.parse_args(["--strict"])
>>> rules = apply(preset("freecell"), args)
>>> rules.strict_single, rules.foundation_retrieval
(True, False)
>>> apply(preset("freecell"), parser.parse_args(["--cells", "2"])).name
'FreeCell, 2 cells'

The house rules in words are :func:`eightoff.explain.house_rules_words`.
"""

from __future__ import annotations

import argparse
import dataclasses
from typing import Any, Final

from eightoff.cli.say import text
from eightoff.i18n import Count, Message
from eightoff.position import Position
from eightoff.rules import MAX_CELLS, CellsError, Rules, house_rules_on, rule_options

FLAGS: Final = {"foundation_retrieval": "retrieval", "strict_single": "strict"}
"""Each house rule switched on by a flag, and the flag's name (``--retrieval``): the one
table the parser, :func:`apply` and :func:`flags` read."""


def add_arguments(parser: argparse.ArgumentParser | argparse._ArgumentGroup) -> None:
    """Add ``--retrieval``, ``--strict`` and ``--cells`` to a command's parser (or
    argument group)."""
    for flag in FLAGS.values():
        parser.add_argument(f"--{flag}", action="store_true", help=text(f"cli.help.{flag}"))
    parser.add_argument(
        "--cells",
        type=_cells,
        metavar="N",
        help=text("cli.help.cells", high=MAX_CELLS),
    )


def _cells(given: str) -> int:
    token = given.strip()
    if not (token.isascii() and token.isdigit()):  # ASCII digits, as every number option
        refusal = text("cli.house.not_cells", value=repr(given), high=MAX_CELLS)
        raise argparse.ArgumentTypeError(refusal)
    n = int(token)
    if not 0 <= n <= MAX_CELLS:
        raise argparse.ArgumentTypeError(text("cli.house.cells_range", n=n, high=MAX_CELLS))
    return n


def apply(rules: Rules, args: argparse.Namespace) -> Rules:
    """``rules`` with the house rules the flags switch on (the variant's own otherwise).
    ValueError names a number of cells the variant cannot have."""
    on = {name: True if getattr(args, flag, False) else None for name, flag in FLAGS.items()}
    return rules.with_options(**on, cells=getattr(args, "cells", None))


def flags(rules: Rules) -> str:
    """The flags that give ``rules``' house rules again ("--cells 2 --strict"; "" for
    the variant's own)."""
    given = [f"--cells {rules.cells}"] if rules.cells_changed else []
    on = rule_options(rules)
    given += [f"--{flag}" for name, flag in FLAGS.items() if on.get(name)]
    return " ".join(given)


def on_board(position: Position, args: argparse.Namespace) -> Position:
    """A board read from a file, played with the house rules the flags switch on; with
    ``--cells N`` its cell cards in its first cells (CellsError if they do not fit, or
    if the board names another number of cells: a JSON board's ``free_cells``)."""
    given = getattr(args, "cells", None)
    if given is not None and position.rules.cells_changed and given != position.rules.cells:
        raise CellsError(
            Message("cli.house.board_names_cells", board=position.rules.cells, cells=given)
        )
    rules = apply(position.rules, args)
    if rules.cells == len(position.cells):
        return dataclasses.replace(position, rules=rules)
    cards = [c for c in position.cells if c is not None]
    if len(cards) > rules.cells:
        raise CellsError(
            Message("cli.house.board_cells", n=len(cards), cells=Count(rules.cells, "free_cell"))
        )
    cells = tuple(cards) + (None,) * (rules.cells - len(cards))
    return dataclasses.replace(position, rules=rules, cells=cells)


def played_under(rules: Rules) -> dict[str, Any]:
    """The rules a deal was solved or rated under, for JSON readers (the variant apart):
    ``{"cells": 4, "house_rules": ["strict_single"]}``, as ``survey report --json`` names
    them."""
    return {"cells": rules.cells, "house_rules": house_rules_on(rules)}
