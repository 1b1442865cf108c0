"""The rules of the FreeCell family as data: one frozen description, named presets.

Variants differ only by these parameters; :mod:`eightoff.position` holds the one
implementation of the rules that reads them. Their names and summaries for people are in
the catalogues (``locales/*.json``), their rules in words in :mod:`eightoff.explain`.

>>> r = preset("eightoff")
>>> r.cells, r.columns, r.build.value, r.empty_column.value
(8, 8, 'suit', 'kings')
>>> r.group_limit(empty_cells=4, empty_columns=0)
5
>>> r.group_limit_words(empty_cells=4, empty_columns=0)
'5 cards: 4 empty cells + 1'
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass
from enum import Enum
from typing import Any, ClassVar, Final

from eightoff.i18n import DEFAULT_LANGUAGE, Count, Message, Words, catalogue


class Build(Enum):
    """How a card is placed on a column's exposed card (always one rank lower)."""

    SUIT = "suit"
    """Same suit."""
    ALTERNATE = "alternate"
    """Opposite colour."""


class EmptyColumn(Enum):
    """What an empty column accepts."""

    ANY = "any"
    """Any card, or any movable run."""
    KINGS = "kings"
    """Only a King, or a run led by a King."""


class GroupLimit(Enum):
    """How many cards a run may move as one group."""

    CELLS = "cells"
    """E + 1: empty cells plus one (empty columns do not help)."""
    SUPERMOVE = "supermove"
    """(E + 1) · 2^C: empty cells plus one, doubled for each empty column that is not the target."""


class UnknownVariantError(ValueError):
    """No preset has this id."""


class CellsError(ValueError):
    """A number of free cells the variant cannot be played with."""


MAX_CELLS: Final = 8
"""The most free cells any variant can be played with (as the solvers of the field allow)."""


@dataclass(frozen=True, slots=True)
class Rules:
    """Every parameter of a FreeCell-family game."""

    id: str
    columns: int
    cells: int
    build: Build
    empty_column: EmptyColumn
    group_move: GroupLimit
    decks: int = 1
    dealt_to_columns: int = 52
    """Cards dealt round-robin into the columns, left to right; the rest go to cells."""
    dealt_cells: tuple[int, ...] = ()
    """The cells (0-based) that receive the cards left over after the columns."""
    foundation_retrieval: bool = False
    """A foundation's top card may come back to a column or a cell."""
    strict_single: bool = False
    """Only one card moves at a time (no group moves)."""
    announce_group_limit: bool = False
    """The table shows the group limit before each move (SuperMove FreeCell)."""
    pysol_game: str | None = None
    """The ``pysol_cards`` game whose deal #N is this variant's deal #N."""

    @property
    def name(self) -> str:
        """The variant's English name ("Eight Off"), from the catalogue, with its number of
        free cells when not the variant's own ("FreeCell, 2 cells"); other languages:
        :func:`eightoff.explain.variant_name`."""
        return cells_named(self, DEFAULT_LANGUAGE)

    @property
    def foundations(self) -> int:
        """Foundations in all: four per pack."""
        return 4 * self.decks

    @property
    def cards(self) -> int:
        return 52 * self.decks

    OPTIONS: ClassVar[tuple[str, ...]] = ("foundation_retrieval", "strict_single", "cells")
    """The options any variant can take: the one list that the store, the web API, the
    CLI and the solver read (the bool fields ``foundation_retrieval`` and
    ``strict_single``, and ``cells``, the number of free cells)."""

    def options(self) -> dict[str, bool | int]:
        """The options' values, by name (``Rules.OPTIONS`` order)."""
        return {
            name: self.cells if name == "cells" else bool(getattr(self, name))
            for name in self.OPTIONS
        }

    @classmethod
    def parse_options(cls, values: Mapping[str, object]) -> dict[str, Any]:
        """The options found in ``values`` (missing ones None), for :meth:`with_options`.
        ValueError names a value of the wrong type; other keys are ignored."""
        out: dict[str, Any] = {}
        for name in cls.OPTIONS:
            v = values.get(name)
            if name == "cells":
                if v is not None and (isinstance(v, bool) or not isinstance(v, int)):
                    raise ValueError(f"cells must be a whole number, not {v!r}")
            elif v is not None and not isinstance(v, bool):
                raise ValueError(f"{name} must be true or false, not {v!r}")
            out[name] = v
        return out

    @property
    def least_cells(self) -> int:
        """The fewest free cells this variant can be played with: the cards it deals to
        cells still go there."""
        return len(self.dealt_cells)

    @property
    def own_cells(self) -> int:
        """The number of free cells of the variant's preset (this one's if it has none)."""
        base = PRESETS.get(self.id)
        return base.cells if base is not None else self.cells

    @property
    def cells_changed(self) -> bool:
        """Played with another number of free cells than the variant's own."""
        return self.cells != self.own_cells

    def with_options(
        self,
        *,
        foundation_retrieval: bool | None = None,
        strict_single: bool | None = None,
        cells: int | None = None,
    ) -> Rules:
        """The same variant with an option switched on or off, or with ``cells`` free cells
        (None: as it is). A variant with another number of cells than its own is named so
        ("FreeCell, 2 cells"); the cards a variant deals to cells go to its first cells
        when it has fewer than its own. CellsError names a number of cells out of range."""
        given = {"foundation_retrieval": foundation_retrieval, "strict_single": strict_single}
        changes: dict[str, Any] = {k: v for k, v in given.items() if v is not None}
        if cells is not None and cells != self.cells:
            least = self.least_cells
            if isinstance(cells, bool) or not isinstance(cells, int):
                raise CellsError(Message("error.cells_not_a_number", value=repr(cells)))
            if not least <= cells <= MAX_CELLS:
                raise CellsError(
                    Message(
                        "error.cells_range",
                        name=self.base_name,
                        least=least,
                        most=MAX_CELLS,
                        cells=cells,
                    )
                )
            base = PRESETS.get(self.id)
            dealt = base.dealt_cells if base is not None else self.dealt_cells
            if dealt and max(dealt) >= cells:
                dealt = tuple(range(len(dealt)))
            changes["cells"] = cells
            changes["dealt_cells"] = dealt
        return dataclasses.replace(self, **changes)

    @property
    def base_name(self) -> str:
        """The variant's English name without its number of cells ("FreeCell")."""
        return str(catalogue(DEFAULT_LANGUAGE).variants[self.id]["name"])

    def group_limit(
        self, empty_cells: int, empty_columns: int, to_empty_column: bool = False
    ) -> int:
        """Most cards that may move as one group.

        ``empty_columns`` counts all empty columns; when the target is itself an
        empty column it is not counted (it cannot hold part of the run).
        """
        if self.strict_single:
            return 1
        if self.group_move is GroupLimit.CELLS:
            return empty_cells + 1
        spare_columns = max(0, empty_columns - (1 if to_empty_column else 0))
        return (empty_cells + 1) << spare_columns

    def group_limit_message(
        self, empty_cells: int, empty_columns: int, to_empty_column: bool = False
    ) -> Message:
        """The group limit with its reason (``why``), e.g. "5 cards: 4 empty cells + 1"."""
        cards = Count(self.group_limit(empty_cells, empty_columns, to_empty_column), "card")
        if self.strict_single:
            return Message("limit", cards=cards, why=Message("limit.strict"))
        cells = Count(empty_cells, "empty_cell")
        spare = max(0, empty_columns - (1 if to_empty_column else 0))
        if self.group_move is GroupLimit.CELLS or spare == 0:
            return Message("limit", cards=cards, why=Message("limit.cells", cells=cells))
        columns = Count(spare, "empty_column")
        why = Message("limit.supermove", cells=cells, columns=columns, spare=spare)
        return Message("limit", cards=cards, why=why)

    def group_limit_words(
        self, empty_cells: int, empty_columns: int, to_empty_column: bool = False
    ) -> str:
        """The group limit with its reason, e.g. "5 cards: 4 empty cells + 1"."""
        return str(self.group_limit_message(empty_cells, empty_columns, to_empty_column))

    def formula_message(self) -> Message:
        """The group-limit formula, for status lines and help."""
        if self.strict_single:
            return Message("formula.strict")
        if self.group_move is GroupLimit.CELLS:
            return Message("formula.cells")
        return Message("formula.supermove")

    def formula_words(self) -> str:
        """The group-limit formula in words, for status lines and help."""
        return str(self.formula_message())


PRESETS: Final[dict[str, Rules]] = {
    r.id: r
    for r in (
        Rules(
            id="eightoff",
            columns=8,
            cells=8,
            build=Build.SUIT,
            empty_column=EmptyColumn.KINGS,
            group_move=GroupLimit.CELLS,
            dealt_to_columns=48,
            dealt_cells=(0, 1, 2, 3),
            pysol_game="eight_off",
        ),
        Rules(
            id="eightoff-easy",
            columns=8,
            cells=8,
            build=Build.SUIT,
            empty_column=EmptyColumn.ANY,
            group_move=GroupLimit.SUPERMOVE,
            dealt_to_columns=48,
            dealt_cells=(0, 1, 2, 3),
            pysol_game="eight_off",
        ),
        Rules(
            id="freecell",
            columns=8,
            cells=4,
            build=Build.ALTERNATE,
            empty_column=EmptyColumn.ANY,
            group_move=GroupLimit.SUPERMOVE,
            pysol_game="freecell",
        ),
        Rules(
            id="supermove-freecell",
            columns=8,
            cells=4,
            build=Build.ALTERNATE,
            empty_column=EmptyColumn.ANY,
            group_move=GroupLimit.SUPERMOVE,
            announce_group_limit=True,
            pysol_game="freecell",
        ),
        Rules(
            id="bakers-game",
            columns=8,
            cells=4,
            build=Build.SUIT,
            empty_column=EmptyColumn.ANY,
            group_move=GroupLimit.SUPERMOVE,
            pysol_game="bakers_game",
        ),
        Rules(
            id="seahaven-towers",
            columns=10,
            cells=4,
            build=Build.SUIT,
            empty_column=EmptyColumn.KINGS,
            group_move=GroupLimit.CELLS,
            dealt_to_columns=50,
            dealt_cells=(1, 2),
            pysol_game="seahaven_towers",
        ),
        Rules(
            id="double-freecell",
            columns=10,
            cells=6,
            build=Build.ALTERNATE,
            empty_column=EmptyColumn.ANY,
            group_move=GroupLimit.SUPERMOVE,
            decks=2,
            dealt_to_columns=104,
        ),
    )
}

DEFAULT_VARIANT: Final = "eightoff"


def cells_named(rules: Rules, lang: str) -> str:
    """The variant's name in ``lang``, with its number of free cells when not the
    variant's own: "FreeCell, 2 cells", "FreeCell, 2 Zellen"."""
    return Words(lang).variant(rules)


def preset(variant: str = DEFAULT_VARIANT) -> Rules:
    """The rules of a named variant; raise UnknownVariantError naming the known ids."""
    try:
        return PRESETS[variant]
    except KeyError:
        known = ", ".join(PRESETS)
        name = variant if len(variant) <= 40 else variant[:40] + "…"
        refusal = Message("error.unknown_variant", name=repr(name), choices=known)
        raise UnknownVariantError(refusal) from None


def rule_options(rules: Rules) -> dict[str, Any]:
    """The options of ``rules`` that differ from its preset (what the stores keep)."""
    base = preset(rules.id).options()
    return {k: v for k, v in rules.options().items() if base.get(k) != v}


def house_rules_on(rules: Rules) -> list[str]:
    """The options switched on that the variant's own rules have off, in ``Rules.OPTIONS``
    order: the house rules a game or a survey is played under (the cells apart).

    >>> house_rules_on(preset("freecell").with_options(strict_single=True, cells=2))
    ['strict_single']
    """
    return [k for k, on in rule_options(rules).items() if on is True]
