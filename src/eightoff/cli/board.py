"""The board as text for a terminal (rich): foundations, cells, then the columns."""

from __future__ import annotations

from rich.console import Console
from rich.text import Text

from eightoff.cards import Card
from eightoff.explain import with_house_rules
from eightoff.i18n import DEFAULT_LANGUAGE, SUIT_SYMBOLS, Lang, Message, translate, words
from eightoff.position import CELL_LABELS, COLUMN_LABELS, Position
from eightoff.rules import Rules


class TerminalConsole(Console):
    """rich's Console, except that a closed output pipe ends the command the way every
    other command's output does (exit 141 in :func:`eightoff.cli.main`; rich itself exits 1)."""

    def on_broken_pipe(self) -> None:
        raise BrokenPipeError


def _card_text(card: Card | None, width: int = 4, lang: Lang = DEFAULT_LANGUAGE) -> Text:
    if card is None:
        return Text("·".center(width), style="dim")
    style = "bold red" if card.is_red else "bold"
    return Text(words(lang).card_symbol(card).rjust(3).ljust(width), style=style)


def _label(word: str, width: int = 6) -> str:
    """A row's label ("Home", "Cells"), padded to ``width`` and at least one space."""
    return word.ljust(width) if len(word) < width else word + " "


def titled(title: Message, rules: Rules, lang: Lang = DEFAULT_LANGUAGE) -> str:
    """A board's title with the house rules in force: "Eight Off · deal #5 · single-card
    moves"."""
    return with_house_rules(translate(title, lang), rules, lang)


def render_board(position: Position, title: str = "", lang: Lang = DEFAULT_LANGUAGE) -> Text:
    """A readable board: foundations, cells, then the columns top to bottom, in the
    words (and card symbols: German writes B, D, K) of ``lang``."""
    rules = position.rules
    out = Text()
    if title:
        out.append(title + "\n", style="bold")
    out.append(_label(translate(Message("terminal.home"), lang)))
    for f, top in enumerate(position.foundations):
        suit = f % 4
        if top:
            out.append_text(_card_text(Card.of(top, suit), lang=lang))
        else:
            out.append(f" {SUIT_SYMBOLS[suit]}- ", style="red dim" if suit >= 2 else "dim")
        out.append(" ")
    out.append("\n" + _label(translate(Message("terminal.cells"), lang)))
    for i, c in enumerate(position.cells):
        out.append(f"{CELL_LABELS[i]}:", style="cyan")
        out.append_text(_card_text(c, lang=lang))
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
                out.append_text(_card_text(card, 5, lang))
    out.append("\n")
    why = rules.group_limit_message(position.empty_cells, position.empty_columns)
    limit = translate(Message("terminal.group_limit", limit=why), lang)
    out.append(f"\n{limit}", style="dim")
    return out
