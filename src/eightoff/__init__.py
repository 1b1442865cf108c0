"""eightoff: Eight Off solitaire and the FreeCell family.

The core (cards, rules, position, game, deals, boards) imports no web, database
or solver code. Importing this package reads no deal generator: ``pysol_cards`` is
loaded with the first deal.
"""

from eightoff.boards import BoardError, format_fcs, from_json, parse_board, parse_fcs, to_json
from eightoff.cards import Card, CardSyntaxError
from eightoff.deals import DealNumberError, deal
from eightoff.game import Game, Turn
from eightoff.position import (
    HOME,
    IllegalMoveError,
    Kind,
    Move,
    MoveSyntaxError,
    Place,
    Position,
)
from eightoff.rules import PRESETS, Rules, UnknownVariantError, preset

__version__ = "0.1.0"

__all__ = [
    "HOME",
    "PRESETS",
    "BoardError",
    "Card",
    "CardSyntaxError",
    "DealNumberError",
    "Game",
    "IllegalMoveError",
    "Kind",
    "Move",
    "MoveSyntaxError",
    "Place",
    "Position",
    "Rules",
    "Turn",
    "UnknownVariantError",
    "deal",
    "format_fcs",
    "from_json",
    "parse_board",
    "parse_fcs",
    "preset",
    "to_json",
]
