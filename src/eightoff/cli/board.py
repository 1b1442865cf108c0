"""The board as text for a terminal (rich): foundations, cells, then the columns."""

from __future__ import annotations

from rich.console import Console
from rich.text import Text

from eightoff.cards import Card
from eightoff.explain import house_rules_words
from eightoff.i18n import SUIT_SYMBOLS, Message
from eightoff.position import CELL_LABELS, COLUMN_LABELS, Position
from eightoff.rules import Rules


class TerminalConsole(Console):
    """rich's Console, except that a closed output pipe ends the command the way every
    other command's output does (exit 141 in :func:`eightoff.cli.main`; rich itself exits 1)."""

    def on_broken_pipe(self) -> None:
        raise BrokenPipeError


def _card_text(card: Card | None, width: int = 4) -> Text:
    if card is None:
        return Text("·".center(width), style="dim")
    style = "bold red" if card.is_red else "bold"
    return Text(card.symbol.rjust(3).ljust(width), style=style)


def titled(title: Message, rules: Rules) -> str:
    """A board's title with the house rules in force: "Eight Off · deal #5 · single-card
    moves"."""
    if house := house_rules_words(rules):
        return str(Message("terminal.house_rules", title=title, house=house))
    return str(title)


def render_board(position: Position, title: str = "") -> Text:
    """A readable board: foundations, cells, then the columns top to bottom."""
    rules = position.rules
    out = Text()
    if title:
        out.append(title + "\n", style="bold")
    out.append(str(Message("terminal.home")).ljust(6))
    for f, top in enumerate(position.foundations):
        suit = f % 4
        if top:
            out.append_text(_card_text(Card.of(top, suit)))
        else:
            out.append(f" {SUIT_SYMBOLS[suit]}- ", style="red dim" if suit >= 2 else "dim")
        out.append(" ")
    out.append("\n" + str(Message("terminal.cells")).ljust(6))
    for i, c in enumerate(position.cells):
        out.append(f"{CELL_LABELS[i]}:", style="cyan")
        out.append_text(_card_text(c))
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
                out.append_text(_card_text(card, 5))
    out.append("\n")
    limit = Message("terminal.group_limit", limit=position.group_limit_words())
    out.append(f"\n{limit}", style="dim")
    return out
