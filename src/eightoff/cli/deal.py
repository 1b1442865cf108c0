"""``eightoff deal``, ``eightoff rate`` and ``eightoff variants``: print deals, their
ratings and the variants' rules."""

from __future__ import annotations

import argparse
import json
import sys
from typing import TYPE_CHECKING, Any

from rich.text import Text

from eightoff.boards import format_fcs, to_json
from eightoff.cli import house_rules
from eightoff.cli.board import TerminalConsole, render_board, titled
from eightoff.cli.exits import interrupted_status, interrupted_word
from eightoff.cli.say import language, say
from eightoff.cli.values import deal_ranges
from eightoff.deals import deal
from eightoff.explain import describe_rules, variant_name
from eightoff.i18n import Lang, Message, grouped
from eightoff.position import Position
from eightoff.rules import DEFAULT_VARIANT, PRESETS, Rules, preset

if TYPE_CHECKING:
    from eightoff.rating import Rating


def cmd_variants(args: argparse.Namespace) -> int:
    console = TerminalConsole()
    lang = language()
    for rules in PRESETS.values():
        line = Text()
        line.append(f"{rules.id:<20}", style="bold")
        line.append(f"{variant_name(rules, lang)}: {say(describe_rules(rules), lang)}")
        console.print(line, soft_wrap=True)
    return 0


def cmd_deal(args: argparse.Namespace) -> int:
    position = deal(house_rules.apply(preset(args.variant), args), args.number)
    if args.format == "fcs":
        sys.stdout.write(format_fcs(position))
        # the text names neither the variant nor a house rule: read back without them, it
        # would be played as Eight Off
        variant = [] if position.rules.id == DEFAULT_VARIANT else [f"--variant {position.rules.id}"]
        if given := " ".join([*variant, house_rules.flags(position.rules)]).strip():
            print(say(Message("cli.deal.fcs_rules", flags=given), language()), file=sys.stderr)
    elif args.format == "json":
        print(json.dumps(to_json(position)))
    else:
        rules, lang = position.rules, language()
        title = Message("terminal.deal_title", variant=variant_name(rules, lang), deal=args.number)
        console = TerminalConsole(highlight=False)
        # the grid never wraps: a narrow $COLUMNS (or a pipe) would split its rows
        console.print(render_board(position, titled(title, rules, lang), lang), soft_wrap=True)
        # the level on a line of its own, what it rests on below it (a line of its own
        # never breaks inside the parentheses of one long line)
        rating = _rating_of(position)
        console.print(Text(say(Message("terminal.rating", rating=rating.headline()), lang)))
        console.print(Text(f"  {say(rating.basis(), lang)}", style="dim"))
    return 0


# ----- eightoff rate (deal ratings; eightoff.rating) ---------------------------------
def _rating_of(position: Position) -> Rating:
    from eightoff.rating import rate

    return rate(position)


def cmd_rate(args: argparse.Namespace) -> int:
    """Each deal's rating and the measurements behind it, one line (or JSON object) each."""
    ranges = deal_ranges(args.deals)
    rules, lang = house_rules.apply(preset(args.variant), args), language()
    played_under = house_rules.played_under(rules)
    try:
        _rate_each(ranges, rules, lang, played_under, as_json=args.json)
    except KeyboardInterrupt:  # Ctrl+C or SIGTERM: rate keeps nothing, so says only that
        print(f"eightoff rate: {say(interrupted_word(), lang)}", file=sys.stderr)
        return interrupted_status()
    return 0


def _rate_each(
    ranges: list[range], rules: Rules, lang: Lang, played_under: dict[str, Any], *, as_json: bool
) -> None:
    """``rate``'s lines, one a deal as it is rated."""
    for numbers in ranges:
        for number in numbers:
            rating = _rating_of(deal(rules, number))
            if as_json:
                print(json.dumps({"deal": number, **rating.to_json(), **played_under}), flush=True)
            else:
                name = variant_name(rules, lang)
                title = Message("terminal.deal_title", variant=name, deal=number)
                line = Message(
                    "cli.rate.line",
                    title=titled(title, rules, lang),
                    rating=rating.describe(),
                    verdict=Message(f"cli.verdict.{rating.verdict}"),
                    moves=rating.solution_moves,
                    played=Message("cli.solve.player_moves", n=rating.solution_moves),
                    states=grouped(rating.solver_states),
                )
                print(say(line, lang), flush=True)
