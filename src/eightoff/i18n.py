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
(:attr:`eightoff.position.IllegalMoveError.reason`), the group limit and its formula
(``Rules.group_limit_message``, ``Rules.formula_message``), the status line (ids
``status.*``), and everything :mod:`eightoff.explain` says about moves, hints, variants,
rules and lessons. Every text for people is in the catalogues, English beside German:
``messages`` (templates by id), ``variants`` (each variant's name and summary) and
``lessons`` (each lesson's title, goal and guidance). A server renders them with
``translate(message, lang)``, the language being the player's choice or
:func:`pick_language` of the request's ``Accept-Language``; the command line
(``cli.*`` ids, through :mod:`eightoff.cli.say`) speaks :func:`environment_language`,
read from ``LC_ALL``/``LC_MESSAGES``/``LANG``/``LANGUAGE`` as gettext reads them. The
table's own words are in ``web/static/locales/`` with their renderer ``words.js`` (the
same template rules; card, place and noun words identical, held so by
tests/unit/test_i18n.py).

A leaf: it imports nothing of eightoff (cards and places are read by their shape), so
that every layer may speak through it, the cards too.
"""

from __future__ import annotations

import json
import os
import pkgutil
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from enum import Enum
from functools import cache
from typing import Any, Final, Literal, Protocol, TypeAlias, cast

Lang: TypeAlias = Literal["en", "de"]
LANGUAGES: Final[tuple[Lang, ...]] = ("en", "de")
DEFAULT_LANGUAGE: Final[Lang] = "en"
ACCEPT_LANGUAGE_MAX: Final = 200  # a longer header is read no further
MAX_TOKEN: Final = 40
"""Most characters of a bad token quoted in an error."""


class UnknownLanguageError(ValueError):
    """No catalogue for this language."""


SUIT_SYMBOLS: Final = "♣♠♥♦"
"""The suits as people read them, in the cards' order (0 ♣, 1 ♠, 2 ♥, 3 ♦)."""


class _CardLike(Protocol):
    """A :class:`eightoff.cards.Card` (read by shape: every layer sits above this one)."""

    @property
    def rank(self) -> int: ...

    @property
    def suit(self) -> int: ...


class _PlaceLike(Protocol):
    """A :class:`eightoff.position.Place` (read by shape, as a card is)."""

    @property
    def kind(self) -> Enum: ...

    @property
    def index(self) -> int | None: ...


class _VariantLike(Protocol):
    """A :class:`eightoff.rules.Rules` (read by shape, as a card is): rendered as the
    variant's name, with its number of free cells when not the variant's own."""

    @property
    def id(self) -> str: ...

    @property
    def cells(self) -> int: ...

    @property
    def cells_changed(self) -> bool: ...


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
    "str | int | float | _CardLike | Suit | Count | _PlaceLike | _VariantLike | Message"
    " | tuple[Message, ...]"
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
    # pkgutil, not importlib.resources: the same package data (a zip included) without
    # importing zipfile, tempfile and shutil (about 7 ms at every start of the program)
    data = pkgutil.get_data("eightoff", f"locales/{code}.json")
    if data is None:  # a loader that cannot read package data
        raise FileNotFoundError(f"eightoff/locales/{code}.json")
    raw = json.loads(data.decode("utf-8"))
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


def environment_language(environ: Mapping[str, str] | None = None) -> Lang:
    """The language of a command-line program, chosen as gettext chooses it: the
    locale is the first of ``LC_ALL``, ``LC_MESSAGES``, ``LANG`` that is set; ``C``,
    ``POSIX`` or none means English; otherwise the first entry of ``LANGUAGE`` (a
    colon-separated list) that has a catalogue, else the locale's own language if it
    has one, else English. The one place a command's language is chosen.

    >>> environment_language({"LANG": "de_DE.UTF-8"}), environment_language({})
    ('de', 'en')
    >>> environment_language({"LC_ALL": "C", "LANG": "de_DE.UTF-8"})
    'en'
    >>> environment_language({"LANG": "en_GB.UTF-8", "LANGUAGE": "fr:de"})
    'de'
    """
    env = os.environ if environ is None else environ
    locale = next((env[k] for k in ("LC_ALL", "LC_MESSAGES", "LANG") if env.get(k)), "")
    base = _language_of(locale)
    if base in ("", "c", "posix"):
        return DEFAULT_LANGUAGE
    for entry in env.get("LANGUAGE", "").split(":"):
        if _language_of(entry) in LANGUAGES:
            return check_language(_language_of(entry))
    return check_language(base) if base in LANGUAGES else DEFAULT_LANGUAGE


def _language_of(locale: str) -> str:
    """ "de_DE.UTF-8@euro" -> "de"; "C.UTF-8" -> "c"."""
    return locale.split(".")[0].split("@")[0].replace("-", "_").split("_")[0].strip().lower()


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
        self.decimal = str(self.template("number.decimal"))
        """What this language writes a number's decimal point as ("." or ",")."""
        self.plain = _PLAIN if self.decimal == "." else _TEXT
        """The parameter types a message takes as they are (numbers too where the
        language writes them as Python does)."""

    def template(self, msg_id: str) -> Any:
        try:
            return self.catalogue.messages[msg_id]
        except KeyError:
            raise KeyError(f"no message {msg_id!r} in the {self.lang!r} catalogue") from None

    def text(self, msg_id: str, **params: Param) -> str:
        """Render a message id with its parameters."""
        template = _choose(self.template(msg_id), params, msg_id)
        return template.format_map(_Fields(self, params))

    def __call__(self, message: Message) -> str:
        return self.text(message.id, **message.params)

    # parameters
    def card_symbol(self, card: _CardLike) -> str:
        """ "10♦", "Q♥" (English), "D♥" (German)."""
        return str(self.template("card.ranks")[card.rank]) + SUIT_SYMBOLS[card.suit]

    def card_name(self, card: _CardLike) -> str:
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

    def variant(self, rules: _VariantLike) -> str:
        """ "FreeCell"; with another number of free cells than the variant's own,
        "FreeCell, 2 cells" ("FreeCell, 2 Zellen")."""
        name = str(self.catalogue.variants[rules.id]["name"])
        if not rules.cells_changed:
            return name
        return f"{name}, {self.text('rules.cells', cells=Count(rules.cells, 'cell'))}"

    def number(self, text: str) -> str:
        """A number written with a point (Python's way) as this language writes it:
        German puts a comma where English puts the point ("0.974" -> "0,974")."""
        return text if self.decimal == "." else text.replace(".", self.decimal)

    def percent(self, share: float, spec: str = ".1f") -> str:
        """A percentage (``share`` in percent) as this language writes it: "12.5%",
        "12,5 %"; ``spec`` is its format ("9.3f" right-aligns it in 9 places)."""
        return self.text("number.percent", n=self.number(format(share, spec)))

    def format_param(self, value: object, spec: str) -> str:
        if isinstance(value, Message):
            return self(value)
        if isinstance(value, Figure):
            return self.number(format(str(value), spec))
        if isinstance(value, tuple):
            sep = self.text("list.separator")
            return sep.join(self(cast(Message, m)) for m in value)
        if hasattr(value, "rank") and hasattr(value, "suit"):
            card = cast(_CardLike, value)
            if spec == "name":
                return self.card_name(card)
            if spec == "rank":
                return str(self.template("card.ranks")[card.rank])
            return self.card_symbol(card)
        if isinstance(value, Suit):
            return self.suit(value, spec)
        if isinstance(value, Count):
            return self.count(value)
        if isinstance(value, int | float) and not isinstance(value, bool):
            return self.number(format(value, spec))
        if isinstance(value, str | bool):
            return format(value, spec)
        if hasattr(value, "cells_changed") and hasattr(value, "id"):
            return self.variant(cast(_VariantLike, value))
        if hasattr(value, "kind") and hasattr(value, "index"):
            return self.place(cast(_PlaceLike, value))
        raise TypeError(f"cannot render a parameter of type {type(value).__name__}")


class _Field:
    """A parameter that :meth:`Words.format_param` renders (a card, a place, a message …)
    as ``str.format`` asks for it, with the field's format spec."""

    __slots__ = ("value", "words")

    def __init__(self, words: Words, value: object) -> None:
        self.words = words
        self.value = value

    def __format__(self, spec: str) -> str:
        return self.words.format_param(self.value, spec)


_PLAIN: Final = frozenset({int, float, str})
_TEXT: Final = frozenset({str})


class _Fields(Mapping[str, object]):
    """A message's parameters as ``str.format_map`` reads them: plain numbers and text as
    they are (``format_param`` formats them as ``format`` does), anything else through
    ``format_param``. The template is parsed by the C ``str.format``, not by the Python
    of ``string.Formatter`` (a fifth of a message's cost: 32,000 lines of ``solve
    --quiet`` took 1.4 s to word)."""

    __slots__ = ("params", "words")

    def __init__(self, words: Words, params: Mapping[str, Param]) -> None:
        self.words = words
        self.params = params

    def __getitem__(self, key: str) -> object:
        value = self.params[key]
        if type(value) in self.words.plain:  # not a subclass: a card is text with a rank and a suit
            return value
        return _Field(self.words, value)

    def __iter__(self) -> Iterator[str]:
        return iter(self.params)

    def __len__(self) -> int:
        return len(self.params)


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
    if token is None or isinstance(token, bool):  # from JSON: written as JSON writes it
        return {None: "null", True: "true", False: "false"}[token]
    if isinstance(token, int) and not isinstance(token, bool) and token.bit_length() > 128:
        return f"a number of about {int(token.bit_length() * 0.30103)} digits"
    if isinstance(token, str):
        return repr(token[:limit] + "…") if len(token) > limit else repr(token)
    text = repr(token)
    return text[:limit] + "…" if len(text) > limit else text


class Figure(str):
    """A number written for people (:func:`grouped`, :func:`duration`): text whose
    decimal point a message in another language writes its own way (German a comma,
    :meth:`Words.number`); as plain text (JSON, English) it is the point."""

    __slots__ = ()


def grouped(n: float, decimals: int = 0) -> Figure:
    """A number as the messages write it: its thousands set apart by spaces (in every
    language: DIN 5008 groups German digits so too), with ``decimals`` places.

    >>> grouped(5_000_000), grouped(2051.08, 1), grouped(10**20 - 1)
    ('5 000 000', '2 051.1', '99 999 999 999 999 999 999')
    >>> Words("de")(Message("survey.spread", median=1, mean=grouped(2051.08, 1), min=1, max=9))
    'Median 1, Mittel 2 051,1, Min. 1, Max. 9'
    """
    if isinstance(n, int) and not decimals:  # exact: a float rounds past 2^53 (10^20 - 1)
        return Figure(f"{n:,}".replace(",", " "))
    return Figure(f"{n:,.{decimals}f}".replace(",", " "))


def duration(seconds: float) -> Figure:
    """A time as the messages write it in every language, in the unit that suits it:
    microseconds below a millisecond, milliseconds to one place below a second, seconds
    to two places below an hour (thousands apart), then hours.

    >>> duration(6.1e-05), duration(0.0177), duration(2051.08), duration(17_700)
    ('61 µs', '17.7 ms', '2 051.08 s', '4.92 h')
    """
    if seconds < 1e-3:
        return Figure(f"{seconds * 1e6:.0f} µs")
    if seconds < 1:
        return Figure(f"{seconds * 1e3:.1f} ms")
    if seconds < 3600:
        return Figure(f"{grouped(seconds, 2)} s")
    return Figure(f"{grouped(seconds / 3600, 2)} h")


def reason(error: BaseException) -> Message | None:
    """The structured reason carried by an error raised with a Message, if any."""
    first = error.args[0] if error.args else None
    return first if isinstance(first, Message) else None


__all__ = [
    "DEFAULT_LANGUAGE",
    "LANGUAGES",
    "MAX_TOKEN",
    "Catalogue",
    "Count",
    "Figure",
    "Lang",
    "Message",
    "Param",
    "Suit",
    "UnknownLanguageError",
    "Words",
    "catalogue",
    "check_language",
    "duration",
    "environment_language",
    "grouped",
    "pick_language",
    "quote",
    "reason",
    "translate",
    "words",
]
