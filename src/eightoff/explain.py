"""What the game says about itself: moves, hints, variants, their rules, lessons.

Every function here turns the core's values into a :class:`eightoff.i18n.Message` (or
text in a language of :data:`eightoff.i18n.LANGUAGES`); the sentences themselves are in
the catalogues (``locales/en.json`` beside ``locales/de.json``). This is the one place
that decides what to say ("park", "onto", "uncovers"); :mod:`eightoff.i18n` only renders.

>>> from eightoff.deals import deal
>>> from eightoff.position import Move
>>> from eightoff.rules import preset
>>> str(describe_move(deal("eightoff", 1), Move.parse("5e")))
'6♣ from Column 5 to Cell 5'
>>> strict = preset("freecell").with_options(strict_single=True)
>>> translate(describe_rules(strict), "de").split("; ")[-1]
'nur Einzelkartenzüge'
>>> variant_name(preset("double-freecell"), "de")
'Doppel-FreeCell'
"""

from __future__ import annotations

from dataclasses import dataclass

from eightoff.cards import Card
from eightoff.i18n import DEFAULT_LANGUAGE, Count, Message, Param, catalogue, translate
from eightoff.lessons import Lesson
from eightoff.position import Kind, Move, Place, Position
from eightoff.rules import Rules, cells_named


# ----- variants and their rules ----------------------------------------------------------------
def variant_name(rules: Rules, lang: str = DEFAULT_LANGUAGE) -> str:
    """The variant's name in ``lang``: "Eight Off", "Eight Off (Einfach)", with its
    number of free cells when not the variant's own ("FreeCell, 2 Zellen")."""
    return cells_named(rules, lang)


def variant_summary(rules: Rules, lang: str = DEFAULT_LANGUAGE) -> str:
    """The variant's one-line summary in ``lang``."""
    return str(catalogue(lang).variants[rules.id]["summary"])


def describe_rules(rules: Rules) -> Message:
    """The rules in one line, house rules included: "48 cards in 8 columns, 4 in cells;
    8 free cells; …; single-card moves only". The one description of a variant's rules
    (the command line's ``variants``, the table's rules line, the API)."""
    in_cells = len(rules.dealt_cells)
    parts: list[Message] = [
        Message(
            "rules.deal",
            cards=Count(rules.cards - in_cells, "card"),
            columns=Count(rules.columns, "column"),
            in_cells=in_cells,
        ),
        Message("rules.cells", cells=Count(rules.cells, "free_cell")),
        Message(f"rules.build.{rules.build.value}"),
        Message(f"rules.empty_column.{rules.empty_column.value}"),
        Message("rules.group_moves", formula=rules.formula_message()),
        Message("rules.foundations", n=rules.foundations),
    ]
    if rules.foundation_retrieval:
        parts.append(Message("rules.option.retrieval"))
    if rules.strict_single:
        parts.append(Message("rules.option.strict"))
    return Message("list", items=tuple(parts))


def house_rules_words(rules: Rules, lang: str = DEFAULT_LANGUAGE) -> str:
    """The house rules in force, for titles: "foundation retrieval, single-card moves"
    ("" when none).

    >>> from eightoff.rules import preset
    >>> house_rules_words(preset("freecell").with_options(strict_single=True), "de")
    'nur Einzelkartenzüge'
    """
    on = [Message("rules.house.retrieval")] if rules.foundation_retrieval else []
    if rules.strict_single:
        on.append(Message("rules.house.strict"))
    return ", ".join(translate(m, lang) for m in on)


def with_house_rules(title: str, rules: Rules, lang: str = DEFAULT_LANGUAGE) -> str:
    """``title`` with the house rules in force after it, as every title of a game names
    them ("Eight Off · deal #5 · single-card moves"); ``title`` itself when none."""
    if house := house_rules_words(rules, lang):
        return translate(Message("terminal.house_rules", title=title, house=house), lang)
    return title


# ----- lessons ------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class LessonText:
    title: str
    goal: str
    guidance: tuple[str, ...]


def lesson_text(lesson: Lesson, lang: str = DEFAULT_LANGUAGE) -> LessonText:
    """A lesson's title, goal and guidance in ``lang``."""
    raw = catalogue(lang).lessons[str(lesson.id)]
    return LessonText(str(raw["title"]), str(raw["goal"]), tuple(raw["guidance"]))


# ----- moves and hints ------------------------------------------------------------------------
def _what_moves(pos: Position, move: Move, msg_id: str = "move.cards") -> Param:
    card = pos.moving_card(move)
    if move.count == 1:
        return card
    assert move.source.index is not None
    top = pos.columns[move.source.index][-1]
    return Message(msg_id, n=move.count, first=card, last=top)


def describe_move(pos: Position, move: Move) -> Message:
    """ "7♥ from Column 3 to Cell 2", "3 cards (9♠…7♠) from Column 1 home"."""
    return describe_played(move.source, pos.resolve_target(move), _what_moves(pos, move))


def moved_cards(card: Card, count: int = 1, top: Card | None = None) -> Param:
    """What a move moves, as :func:`describe_played` names it: the card, or for a group
    of ``count`` its deepest card ``card`` and its top card ``top`` ("3 cards (9♠…7♠)")."""
    if count == 1 or top is None:
        return card
    return Message("move.cards", n=count, first=card, last=top)


def describe_played(source: Place, target: Place, what: Param) -> Message:
    """:func:`describe_move` from what was played, without the position: the move's
    source, its target resolved (a foundation for a move home) and what it moves
    (:func:`moved_cards`). For outputs that describe a solution from the compiled
    replay's keys (``eightoff solve``).

    >>> from eightoff.cards import Card
    >>> str(describe_played(Place.column(4), Place.cell(4), moved_cards(Card.parse("6C"))))
    '6♣ from Column 5 to Cell 5'
    """
    if target.kind is Kind.FOUNDATION:
        return Message("move.home", what=what, source=source)
    return Message("move.to", what=what, source=source, target=target)


def describe(pos: Position, move: Move, lang: str = DEFAULT_LANGUAGE) -> str:
    """:func:`describe_move` as text in ``lang``."""
    return translate(describe_move(pos, move), lang)


def _action(pos: Position, move: Move) -> Message:
    """What the hint's move does: home, park in a cell, onto a card, into an empty column."""
    target = pos.resolve_target(move)
    what = _what_moves(pos, move, "hint.cards")
    if target.kind is Kind.FOUNDATION:
        return Message("hint.home", what=what)
    if target.kind is Kind.CELL:
        return Message("hint.park", what=what, target=target)
    assert target.index is not None
    col = pos.columns[target.index]
    if col:
        return Message("hint.onto", what=what, onto=col[-1])
    return Message("hint.into_empty", what=what, target=target)


def _effect(pos: Position, move: Move) -> Message | None:
    """What the hint's move leaves behind: the card it uncovers, the column it empties,
    the cell it frees (None for a foundation card coming back)."""
    src = move.source
    if src.kind is Kind.COLUMN:
        assert src.index is not None
        col = pos.columns[src.index]
        if len(col) > move.count:
            return Message("hint.uncovers", card=col[-move.count - 1])
        return Message("hint.empties", source=src)
    if src.kind is Kind.CELL:
        return Message("hint.frees", source=src)
    return None


def hint_message(pos: Position, move: Move, length: int | None = None) -> Message:
    """The solver's next move and why, e.g. "Park the 3♦ in Cell 5: it uncovers the 2♣.
    The solver wins in 86 moves from here." (``length``: the solution's moves, if known)."""
    action, effect = _action(pos, move), _effect(pos, move)
    if length is None:
        if effect is None:
            return Message("hint.plain", action=action)
        return Message("hint.plain_effect", action=action, effect=effect)
    if effect is None:
        return Message("hint.move", action=action, n=length)
    return Message("hint.move_effect", action=action, effect=effect, n=length)


def par_unknown(*, lost: bool, lower: int, upper: int | None) -> bool:
    """Whether a par search learnt nothing: no solution, no bound above 0, not lost."""
    return not lost and upper is None and lower == 0


def par_message(
    *,
    optimal: bool,
    lower: int,
    upper: int | None,
    lost: bool = False,
    took: int | None = None,
    counter: int | None = None,
    seconds: float | None = None,
    memory_mb: int | None = None,
) -> Message:
    """A deal's par in words (player moves): "Par 34", "Par 34 — you took 37", "Par 34 —
    you matched par!", "Par is 31 to 33", "Par is at least 31", "No par: …". ``took``:
    the player moves of a won game as par counts them
    (:meth:`eightoff.game.Game.player_moves_as_par`); ``counter``: what the table's
    counter showed, said beside it when the two differ (a game won with auto-move off:
    "Par 34 — you took 36 (counted as par is, with safe auto-move on; the counter showed
    80 with auto-move off)"); ``seconds``: the search's time limit, said when par was not
    proven; ``memory_mb``: its memory limit, said instead when that is what stopped it
    ("Par is 36 to 40 (not proven: the search filled its 512 MiB of memory)"). A search
    that learnt nothing (:func:`par_unknown`): "Par unknown"."""
    if lost:
        return Message("par.lost")
    if par_unknown(lost=lost, lower=lower, upper=upper):
        return Message("par.unknown")
    said: Message
    if optimal and upper is not None:
        said = Message("par.is", par=upper)
    elif upper is not None:
        said = Message("par.between", low=lower, high=upper)
    else:
        said = Message("par.at_least", low=lower)
    if took is not None:
        if optimal and took == upper:
            said = Message("par.matched", par=said)
        else:
            said = Message("par.you_took", par=said, moves=took)
        if counter is not None and counter != took:
            return Message("par.counter", said=said, shown=counter)
        return said
    if not optimal and memory_mb is not None:
        return Message("par.unproven_memory", par=said, mib=memory_mb)
    if not optimal and seconds is not None:
        return Message("par.unproven", par=said, seconds=seconds)
    return said


def par_short(*, optimal: bool, lower: int, upper: int | None) -> Message:
    """A deal's par as a status line has room for: "Par 34", bounds "Par 31–33" (the
    whole words, :func:`par_message`'s, are its tooltip and what is read out)."""
    if not optimal and upper is not None:
        return Message("par.between_short", low=lower, high=upper)
    return par_message(optimal=optimal, lower=lower, upper=upper)


__all__ = [
    "LessonText",
    "describe",
    "describe_move",
    "describe_played",
    "describe_rules",
    "hint_message",
    "house_rules_words",
    "lesson_text",
    "moved_cards",
    "par_message",
    "par_short",
    "par_unknown",
    "variant_name",
    "variant_summary",
    "with_house_rules",
]
