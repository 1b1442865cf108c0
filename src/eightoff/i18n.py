"""Words for people in English and German: structured messages and one renderer.

A :class:`Message` is a message id and its parameters (cards, places, numbers, other
messages). ``str(message)`` is the English text; :func:`translate` renders it in any
language of :data:`LANGUAGES`. The templates live in ``eightoff/locales/{en,de}.json``
(one catalogue per language, the same ids in both)::

    >>> from eightoff.cards import Card
    >>> m = Message("illegal.needs_same_suit", card=Card.parse("7H"), higher=Card.parse("8H"))
    >>> str(m)
    '7♥ needs the 8♥'
    >>> translate(m, "de")
    '7♥ passt nur auf 8♥'
    >>> words("de").card_name(Card.parse("QS"))
    'Pik-Dame'

Template syntax: ``{name}`` inserts a parameter, rendered in the message's language: a
card as its symbol (``{card:name}`` for its full name, ``{card:rank}`` for its rank
alone: German writes B, D, K for J, Q, K), a place as its title
("Column 3" / "Spalte 3"), a :class:`Suit` as its symbol (``{suit:name}``), a
:class:`Count` as "3 cards" / "3 Karten", a nested Message in the same language. A
template may instead be a choice ``{"$": "n", "one": …, "other": …, "=0": …}``: it
picks a case by the parameter named by ``"$"``: ``=value`` first, then, for a
number, its plural category (``one``/``other``, the same rule in English and German),
then ``other``.

What speaks through this module: the engine's reasons for illegal moves
(:attr:`eightoff.position.IllegalMoveError.reason`), move descriptions
(:func:`describe_move`), the group limit and its formula
(``Rules.group_limit_message``, ``Rules.formula_message``), the solver's hints
(:func:`hint_message`), the status line (ids ``status.*``), the rules in one line
(:func:`describe_rules`), variant names and summaries (:func:`variant_name`,
:func:`variant_summary`) and the lessons (:func:`lesson_text`); English texts of
variants and lessons stay with their data (``rules.py``, ``lessons.py``), the German
ones are in ``de.json``. A server renders them with ``translate(message, lang)``, the
language being the player's choice or :func:`pick_language` of the request's
``Accept-Language``. The table's own words are in ``web/static/locales/`` with their
renderer ``words.js`` (the same template rules; card, place and noun words identical,
held so by tests/unit/test_i18n.py).

Core-level code: imports nothing but :mod:`eightoff.cards`.
"""

from __future__ import annotations

import json
import string
from collections.abc import Mapping
from dataclasses import dataclass
from enum import Enum
from functools import cache
from importlib import resources
from typing import TYPE_CHECKING, Any, Final, Literal, Protocol, TypeAlias, cast

from eightoff.cards import SUIT_SYMBOLS, Card

if TYPE_CHECKING:
    from eightoff.lessons import Lesson
    from eightoff.position import Move, Place, Position
    from eightoff.rules import Rules

Lang: TypeAlias = Literal["en", "de"]
LANGUAGES: Final[tuple[Lang, ...]] = ("en", "de")
DEFAULT_LANGUAGE: Final[Lang] = "en"
ACCEPT_LANGUAGE_MAX: Final = 200  # a longer header is read no further
MAX_TOKEN: Final = 40
"""Most characters of a bad token quoted in an error."""


class UnknownLanguageError(ValueError):
    """No catalogue for this language."""


class _PlaceLike(Protocol):
    """A :class:`eightoff.position.Place` (read by shape: this module sits below it)."""

    @property
    def kind(self) -> Enum: ...

    @property
    def index(self) -> int | None: ...


@dataclass(frozen=True, slots=True)
class Suit:
    """A suit as a parameter: 0 ♣, 1 ♠, 2 ♥, 3 ♦."""

    index: int


@dataclass(frozen=True, slots=True)
class Count:
    """A number with its noun, e.g. ``Count(3, "card")``: "3 cards" / "3 Karten"."""

    n: int
    noun: str


Param: TypeAlias = (
    "str | int | float | Card | Suit | Count | _PlaceLike | Message | tuple[Message, ...]"
)


class Message:
    """A message id and its parameters; ``str()`` gives the English text."""

    __slots__ = ("id", "params")

    id: str
    params: Mapping[str, Param]

    def __init__(self, id: str, /, **params: Param) -> None:
        self.id = id
        self.params = params

    def __str__(self) -> str:
        return translate(self, DEFAULT_LANGUAGE)

    def __repr__(self) -> str:
        args = "".join(f", {k}={v!r}" for k, v in self.params.items())
        return f"Message({self.id!r}{args})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Message) and self.id == other.id and self.params == other.params

    def __hash__(self) -> int:
        return hash((self.id, tuple(self.params)))

    def as_json(self, lang: str | None = None) -> dict[str, Any]:
        """For an API: the id, the text (in ``lang``, English by default)."""
        return {"id": self.id, "text": translate(self, lang or DEFAULT_LANGUAGE)}


# ----- catalogues ----------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class Catalogue:
    """One language's templates and texts, as read from ``locales/<lang>.json``."""

    lang: Lang
    messages: Mapping[str, Any]
    variants: Mapping[str, Mapping[str, str]]
    lessons: Mapping[str, Mapping[str, Any]]


def check_language(lang: str) -> Lang:
    """``lang`` if it is one of :data:`LANGUAGES`; else UnknownLanguageError naming them."""
    if lang not in LANGUAGES:
        raise UnknownLanguageError(
            f"unknown language {lang!r}; choose one of: {', '.join(LANGUAGES)}"
        )
    return lang


@cache
def catalogue(lang: str) -> Catalogue:
    """The catalogue of ``lang`` (read once)."""
    code = check_language(lang)
    text = resources.files("eightoff").joinpath("locales", f"{code}.json").read_text("utf-8")
    raw = json.loads(text)
    return Catalogue(code, raw["messages"], raw.get("variants", {}), raw.get("lessons", {}))


def pick_language(accept_language: str | bytes | None) -> Lang:
    """The first language of an HTTP ``Accept-Language`` header that has a catalogue:
    the one place a request's language is chosen (the header as text or as the raw
    bytes of an ASGI scope; only its first :data:`ACCEPT_LANGUAGE_MAX` characters count).

    >>> pick_language("de-DE,de;q=0.9,en;q=0.8"), pick_language(b"de")
    ('de', 'de')
    >>> pick_language("fr-FR, en;q=0.5"), pick_language(None)
    ('en', 'en')
    """
    if isinstance(accept_language, bytes):
        accept_language = accept_language.decode("latin-1")
    ranked: list[tuple[float, int, str]] = []
    for i, part in enumerate((accept_language or "")[:ACCEPT_LANGUAGE_MAX].split(",")):
        tag, _, rest = part.strip().partition(";")
        q = 1.0
        if rest.strip().startswith("q="):
            try:
                q = float(rest.strip()[2:])
            except ValueError:
                q = 0.0
        ranked.append((-q, i, tag.split("-")[0].strip().lower()))
    for neg_q, _, base in sorted(ranked):
        if neg_q < 0 and base in LANGUAGES:
            return check_language(base)
    return DEFAULT_LANGUAGE


# ----- rendering -----------------------------------------------------------------------------
def _plural_category(n: int) -> str:
    # English and German share the CLDR rule for integers: one for 1, other otherwise
    return "one" if n == 1 else "other"


def _choose(template: Any, params: Mapping[str, Param], msg_id: str) -> str:
    while isinstance(template, dict):
        selector = template["$"]
        value = params[selector]
        key = f"={value}"
        if key in template:
            template = template[key]
        elif isinstance(value, int) and _plural_category(value) in template:
            template = template[_plural_category(value)]
        elif isinstance(value, str) and value in template:
            template = template[value]
        else:
            template = template["other"]
    if not isinstance(template, str):
        raise TypeError(f"message {msg_id!r}: a template is text or a choice")
    return template


class Words:
    """Everything rendered in one language: messages, card and place names."""

    def __init__(self, lang: str) -> None:
        self.catalogue = catalogue(lang)
        self.lang = self.catalogue.lang
        self._formatter = _Formatter(self)

    def template(self, msg_id: str) -> Any:
        try:
            return self.catalogue.messages[msg_id]
        except KeyError:
            raise KeyError(f"no message {msg_id!r} in the {self.lang!r} catalogue") from None

    def text(self, msg_id: str, **params: Param) -> str:
        """Render a message id with its parameters."""
        template = _choose(self.template(msg_id), params, msg_id)
        return self._formatter.vformat(template, (), params)

    def __call__(self, message: Message) -> str:
        return self.text(message.id, **message.params)

    # parameters
    def card_symbol(self, card: Card) -> str:
        """ "10♦", "Q♥" (English), "D♥" (German)."""
        return str(self.template("card.ranks")[card.rank]) + SUIT_SYMBOLS[card.suit]

    def card_name(self, card: Card) -> str:
        """For people and screen readers: "Queen of Spades", "Pik-Dame"."""
        return self.text(
            "card.name",
            rank=self.template("card.rank_names")[card.rank],
            suit=self.template("card.suit_names")[card.suit],
        )

    def suit(self, suit: Suit, spec: str = "") -> str:
        if spec == "name":
            return str(self.template("card.suit_names")[suit.index])
        return SUIT_SYMBOLS[suit.index]

    def place(self, place: _PlaceLike) -> str:
        """ "Column 3", "Cell 2", "Foundation 1" (0-based index + 1); "Spalte 3" …"""
        if place.index is None:
            return self.text("place.home")
        return self.text(f"place.{place.kind.value}", n=place.index + 1)

    def count(self, count: Count) -> str:
        return self.text(f"noun.{count.noun}", n=count.n)

    def format_param(self, value: object, spec: str) -> str:
        if isinstance(value, Message):
            return self(value)
        if isinstance(value, tuple):
            sep = self.text("list.separator")
            return sep.join(self(cast(Message, m)) for m in value)
        if isinstance(value, Card):
            if spec == "name":
                return self.card_name(value)
            if spec == "rank":
                return str(self.template("card.ranks")[value.rank])
            return self.card_symbol(value)
        if isinstance(value, Suit):
            return self.suit(value, spec)
        if isinstance(value, Count):
            return self.count(value)
        if isinstance(value, int | float | str):
            return format(value, spec)
        if hasattr(value, "kind") and hasattr(value, "index"):
            return self.place(cast(_PlaceLike, value))
        raise TypeError(f"cannot render a parameter of type {type(value).__name__}")


class _Formatter(string.Formatter):
    def __init__(self, words: Words) -> None:
        self.words = words

    def format_field(self, value: Any, format_spec: str) -> str:
        return self.words.format_param(value, format_spec)


@cache
def words(lang: str = DEFAULT_LANGUAGE) -> Words:
    """The renderer of one language (raises UnknownLanguageError for others)."""
    return Words(lang)


def translate(message: Message | str, lang: str) -> str:
    """``message`` in ``lang``; plain text (not a Message) is returned as it is."""
    if isinstance(message, Message):
        return words(lang)(message)
    return message


def quote(token: object, limit: int = MAX_TOKEN) -> str:
    """A bad token for an error message: ``repr`` cut to ``limit`` characters + "…"
    (a list or object is named, not printed: it may be huge or nested deep)."""
    if isinstance(token, list | tuple | dict | set):
        return f"a {type(token).__name__} of {len(token)}"
    if isinstance(token, int) and not isinstance(token, bool) and token.bit_length() > 128:
        return f"a number of about {int(token.bit_length() * 0.30103)} digits"
    if isinstance(token, str):
        return repr(token[:limit] + "…") if len(token) > limit else repr(token)
    text = repr(token)
    return text[:limit] + "…" if len(text) > limit else text


def reason(error: BaseException) -> Message | None:
    """The structured reason carried by an error raised with a Message, if any."""
    first = error.args[0] if error.args else None
    return first if isinstance(first, Message) else None


# ----- domain texts: variants, lessons, moves, hints -------------------------------------------
def variant_name(rules: Rules, lang: str = DEFAULT_LANGUAGE) -> str:
    """The variant's name in ``lang`` (English: ``rules.name``)."""
    if check_language(lang) == "en":
        return rules.name
    return catalogue(lang).variants[rules.id]["name"]


def variant_summary(rules: Rules, lang: str = DEFAULT_LANGUAGE) -> str:
    """The variant's one-line summary in ``lang`` (English: ``rules.summary``)."""
    if check_language(lang) == "en":
        return rules.summary
    return catalogue(lang).variants[rules.id]["summary"]


def describe_rules(rules: Rules) -> Message:
    """The rules in one line, e.g. "48 cards in 8 columns, 4 in cells; 8 free cells; …"."""
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


@dataclass(frozen=True, slots=True)
class LessonText:
    title: str
    goal: str
    guidance: tuple[str, ...]


def lesson_text(lesson: Lesson, lang: str = DEFAULT_LANGUAGE) -> LessonText:
    """A lesson's title, goal and guidance in ``lang`` (English: the lesson's own)."""
    if check_language(lang) == "en":
        return LessonText(lesson.title, lesson.goal, lesson.guidance)
    raw = catalogue(lang).lessons[str(lesson.id)]
    return LessonText(raw["title"], raw["goal"], tuple(raw["guidance"]))


def _what_moves(pos: Position, move: Move, msg_id: str = "move.cards") -> Param:
    card = pos.moving_card(move)
    if move.count == 1:
        return card
    assert move.source.index is not None
    top = pos.columns[move.source.index][-1]
    return Message(msg_id, n=move.count, first=card, last=top)


def describe_move(pos: Position, move: Move) -> Message:
    """ "7♥ from Column 3 to Cell 2", "3 cards (9♠…7♠) from Column 1 home"."""
    top = None
    if move.count > 1:
        assert move.source.index is not None
        top = pos.columns[move.source.index][-1]
    what = moved_cards(pos.moving_card(move), move.count, top)
    return describe_played(move.source, pos.resolve_target(move), what)


def moved_cards(card: Card, count: int, top: Card | None) -> Param:
    """What a move moves: the card, or "3 cards (9♠…7♠)" (``top``: the group's top)."""
    if count == 1:
        return card
    assert top is not None, "a group move names its top card"
    return Message("move.cards", n=count, first=card, last=top)


def describe_played(source: Place, target: Place, what: Param) -> Message:
    """The words of :func:`describe_move` from what the move is, without its position:
    ``target`` resolved (a foundation for a move home), ``what`` from
    :func:`moved_cards` (a solution's replay gives the cards)."""
    if target.kind.value == "foundation":
        return Message("move.home", what=what, source=source)
    return Message("move.to", what=what, source=source, target=target)


def hint_message(pos: Position, move: Move, length: int | None = None) -> Message:
    """The solver's next move and why, e.g. "Park the 3♦ in Cell 5: it uncovers the 2♣.
    The solver wins in 86 moves from here."."""
    target = pos.resolve_target(move)
    what = _what_moves(pos, move, "hint.cards")
    if target.kind.value == "foundation":
        action = Message("hint.home", what=what)
    elif target.kind.value == "cell":
        action = Message("hint.park", what=what, target=target)
    else:
        assert target.index is not None
        col = pos.columns[target.index]
        if col:
            action = Message("hint.onto", what=what, onto=col[-1])
        else:
            action = Message("hint.into_empty", what=what, target=target)
    effect: Message | None = None
    src = move.source
    if src.kind.value == "column":
        assert src.index is not None
        col = pos.columns[src.index]
        if len(col) > move.count:
            effect = Message("hint.uncovers", card=col[-move.count - 1])
        else:
            effect = Message("hint.empties", source=src)
    elif src.kind.value == "cell":
        effect = Message("hint.frees", source=src)
    if length is None:
        if effect is None:
            return Message("hint.plain", action=action)
        return Message("hint.plain_effect", action=action, effect=effect)
    if effect is None:
        return Message("hint.move", action=action, n=length)
    return Message("hint.move_effect", action=action, effect=effect, n=length)


__all__ = [
    "DEFAULT_LANGUAGE",
    "LANGUAGES",
    "MAX_TOKEN",
    "Catalogue",
    "Count",
    "Lang",
    "LessonText",
    "Message",
    "Param",
    "Suit",
    "UnknownLanguageError",
    "Words",
    "catalogue",
    "check_language",
    "describe_move",
    "describe_played",
    "describe_rules",
    "hint_message",
    "lesson_text",
    "moved_cards",
    "pick_language",
    "quote",
    "reason",
    "translate",
    "variant_name",
    "variant_summary",
    "words",
]
