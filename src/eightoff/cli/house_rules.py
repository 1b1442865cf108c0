"""House rules on the command line: ``--retrieval`` and ``--strict``.

Any variant can be played with foundation retrieval (a foundation's top card may come
back to a column or a cell, as the German Eight Off rules allow) and with strict
single-card moves (no group moves; the FreeCell rules call both conventions legitimate,
to be agreed before play). Every command that deals or solves takes the same two flags
from here and turns them into :meth:`eightoff.rules.Rules.with_options`:

>>> import argparse
>>> from eightoff.rules import preset
>>> parser = argparse.ArgumentParser()
>>> add_arguments(parser)
>>> args = parser.parse_args(["--strict"])
>>> rules = apply(preset("freecell"), args)
>>> rules.strict_single, rules.foundation_retrieval
(True, False)
>>> words(rules), words(rules, "de")
('single-card moves', 'nur Einzelkartenzüge')
"""

from __future__ import annotations

import argparse
import dataclasses

from eightoff.i18n import DEFAULT_LANGUAGE, Message, translate
from eightoff.position import Position
from eightoff.rules import Rules


def add_arguments(parser: argparse.ArgumentParser | argparse._ArgumentGroup) -> None:
    """Add ``--retrieval`` and ``--strict`` to a command's parser (or argument group)."""
    parser.add_argument(
        "--retrieval",
        action="store_true",
        help="house rule: a foundation's top card may come back to a column or a cell",
    )
    parser.add_argument(
        "--strict",
        action="store_true",
        help="house rule: single-card moves only (no group moves)",
    )


def apply(rules: Rules, args: argparse.Namespace) -> Rules:
    """``rules`` with the house rules the flags switch on (the variant's own otherwise)."""
    return rules.with_options(
        foundation_retrieval=True if getattr(args, "retrieval", False) else None,
        strict_single=True if getattr(args, "strict", False) else None,
    )


def on_board(position: Position, args: argparse.Namespace) -> Position:
    """A board read from a file, played with the house rules the flags switch on."""
    return dataclasses.replace(position, rules=apply(position.rules, args))


def words(rules: Rules, lang: str = DEFAULT_LANGUAGE) -> str:
    """The house rules in force, for titles: "foundation retrieval, single-card moves"
    ("" when none)."""
    on = [Message("rules.house.retrieval")] if rules.foundation_retrieval else []
    if rules.strict_single:
        on.append(Message("rules.house.strict"))
    return ", ".join(translate(m, lang) for m in on)
