"""Positions, moves, the legal-move generator and move notation.

This module is the one place where the rules of every variant are implemented;
it reads its parameters from :class:`eightoff.rules.Rules`.

Move notation (round-trips: ``Move.parse(str(m)) == m``)::

    columns   1 2 3 4 5 6 7 8 9 0      (0 is the tenth column)
    cells     a b c d e f g i          (h is skipped: h is home)
    home      h                        (as a target: the foundation that takes the card)
    a named foundation                 h1 … h8  (a source with foundation retrieval, or a
                                                 target naming the foundation: "ah2")
    group     a suffix "x" + count when more than one card moves: 37x3

In 4-cell variants this is the standard FreeCell notation (``3a``, ``a7``, ``5h``);
in 8-cell variants the cells are a–g and i, so that ``h`` is always home.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from enum import Enum
from typing import Final

from eightoff.cards import KING, Card
from eightoff.i18n import DEFAULT_LANGUAGE, Count, Message, Suit, words
from eightoff.rules import Build, EmptyColumn, Rules

# The move notation's one table (the web page gets it from the server: notation.js)
COLUMN_LABELS: Final = "1234567890"
CELL_LABELS: Final = "abcdefgi"
HOME_LABEL: Final = "h"
GROUP_MARK: Final = "x"


class MoveSyntaxError(ValueError):
    """A move's text could not be read (nothing about the position). Raised with a
    :class:`eightoff.i18n.Message` (``syntax.*``): ``str()`` is the English text."""


class IllegalMoveError(ValueError):
    """A well-formed move that the rules forbid in this position; the message says why.

    Raised with a :class:`eightoff.i18n.Message` (``reason``) when the reason is the
    engine's: ``str()`` is the English text, ``eightoff.i18n.translate`` gives others."""

    @property
    def reason(self) -> Message | None:
        first = self.args[0] if self.args else None
        return first if isinstance(first, Message) else None


class Kind(Enum):
    COLUMN = "column"
    CELL = "cell"
    FOUNDATION = "foundation"


@dataclass(frozen=True, slots=True)
class Place:
    """A column, a cell or a foundation, 0-based; ``HOME`` is "whichever foundation takes it"."""

    kind: Kind
    index: int | None

    @staticmethod
    def column(index: int) -> Place:
        return Place(Kind.COLUMN, index)

    @staticmethod
    def cell(index: int) -> Place:
        return Place(Kind.CELL, index)

    @staticmethod
    def foundation(index: int) -> Place:
        return Place(Kind.FOUNDATION, index)

    @property
    def label(self) -> str:
        """Notation of this place: "3", "a", "h" (home) or "h2" (foundation 2)."""
        if self.kind is Kind.COLUMN:
            assert self.index is not None
            return COLUMN_LABELS[self.index]
        if self.kind is Kind.CELL:
            assert self.index is not None
            return CELL_LABELS[self.index]
        return HOME_LABEL if self.index is None else f"{HOME_LABEL}{self.index + 1}"

    @property
    def title(self) -> str:
        """For people, in English: "Column 3", "Cell 2", "Foundation 1", "the foundations"
        (the catalogue's words; other languages: :meth:`eightoff.i18n.Words.place`)."""
        return words(DEFAULT_LANGUAGE).place(self)

    def __repr__(self) -> str:
        if self.index is None:
            return "HOME"
        return f"Place.{self.kind.value}({self.index})"

    def __str__(self) -> str:
        return self.label


HOME: Final = Place(Kind.FOUNDATION, None)


@dataclass(frozen=True, slots=True)
class Move:
    """Move ``count`` cards from ``source`` to ``target``."""

    source: Place
    target: Place
    count: int = 1

    def __str__(self) -> str:
        text = self.source.label + self.target.label
        return text if self.count == 1 else f"{text}{GROUP_MARK}{self.count}"

    def __repr__(self) -> str:
        return f"Move.parse({str(self)!r})"

    @property
    def is_useful(self) -> bool:
        """False for a card moved from one cell to another: cells are interchangeable, so
        such a move changes nothing. Hints, "lost" and the table leave these out."""
        return not (self.source.kind is Kind.CELL and self.target.kind is Kind.CELL)

    @staticmethod
    def parse(text: str, rules: Rules | None = None) -> Move:
        """Read a move in the notation; raise MoveSyntaxError saying what is wrong (with
        ``rules``, naming the places those rules have)."""
        raw = text
        t = text.strip().lower().replace(" ", "")
        count = 1
        if GROUP_MARK in t:
            t, _, n = t.partition(GROUP_MARK)
            if not t:  # "x", "x3": no move before the count
                raise MoveSyntaxError(Message("syntax.no_target", move=repr(raw)))
            if not n.isdigit() or int(n) < 1:
                raise MoveSyntaxError(Message("syntax.count", move=repr(raw)))
            count = int(n)
        source, rest = _parse_place(t, raw, rules, as_source=True)
        if not rest:
            raise MoveSyntaxError(Message("syntax.no_target", move=repr(raw)))
        target, rest = _parse_place(rest, raw, rules, as_source=False)
        if rest:
            raise MoveSyntaxError(Message("syntax.unexpected", move=repr(raw), rest=repr(rest)))
        return Move(source, target, count)


def places(rules: Rules | None) -> Message:
    """The places of the notation the rules have, in words: "columns 1–8, cells a–d, home
    h"; without rules, every place the notation has."""
    columns = rules.columns if rules is not None else len(COLUMN_LABELS)
    cells = rules.cells if rules is not None else len(CELL_LABELS)
    return Message(
        "syntax.places",
        columns=Message("syntax.columns", n=columns, last=COLUMN_LABELS[columns - 1]),
        cells=Message("syntax.cells", n=cells, last=CELL_LABELS[max(cells, 1) - 1]),
    )


def _parse_place(t: str, raw: str, rules: Rules | None, *, as_source: bool) -> tuple[Place, str]:
    if not t:
        raise MoveSyntaxError(Message("syntax.empty", move=repr(raw)))
    ch = t[0]
    if ch in COLUMN_LABELS:
        return Place.column(COLUMN_LABELS.index(ch)), t[1:]
    if ch in CELL_LABELS:
        return Place.cell(CELL_LABELS.index(ch)), t[1:]
    if ch == HOME_LABEL:
        if as_source:
            if len(t) < 2 or not t[1].isdigit() or t[1] == "0":
                last = rules.foundations if rules is not None else 8
                raise MoveSyntaxError(
                    Message("syntax.foundation_source", move=repr(raw), last=last)
                )
            return Place.foundation(int(t[1]) - 1), t[2:]
        if len(t) > 1 and t[1].isdigit() and t[1] != "0":
            return Place.foundation(int(t[1]) - 1), t[2:]  # a named foundation: "ah2"
        return HOME, t[1:]
    raise MoveSyntaxError(
        Message("syntax.not_a_place", move=repr(raw), place=repr(ch), places=places(rules))
    )


@dataclass(frozen=True, slots=True)
class Position:
    """An immutable, hashable game position.

    ``columns`` list each column bottom card first; ``cells`` hold a card or None;
    ``foundations[f]`` is the top rank (0 = empty) of foundation ``f``, which takes
    suit ``f % 4`` (♣ ♠ ♥ ♦).
    """

    rules: Rules
    columns: tuple[tuple[Card, ...], ...]
    cells: tuple[Card | None, ...]
    foundations: tuple[int, ...]

    # ----- queries -------------------------------------------------------------
    @property
    def empty_cells(self) -> int:
        return sum(1 for c in self.cells if c is None)

    @property
    def empty_columns(self) -> int:
        return sum(1 for col in self.columns if not col)

    @property
    def cards_home(self) -> int:
        return sum(self.foundations)

    def is_won(self) -> bool:
        return self.cards_home == self.rules.cards

    def is_lost(self) -> bool:
        """No legal move (moving a card between cells changes nothing, so it does not count)."""
        return not self.is_won() and not self.useful_moves()

    def useful_moves(self, legal: Sequence[Move] | None = None) -> list[Move]:
        """The legal moves that change something (see :attr:`Move.is_useful`);
        ``legal`` if already listed."""
        return [m for m in (self.legal_moves() if legal is None else legal) if m.is_useful]

    def win_is_certain(self) -> bool:
        """Every column runs down in rank from bottom to top: then the lowest card not
        home is always exposed, so every card can go home in turn (a won game too)."""
        return all(
            all(col[i].rank >= col[i + 1].rank for i in range(len(col) - 1)) for col in self.columns
        )

    def auto_complete(self) -> list[Move] | None:
        """The moves home that finish a certain win (:meth:`win_is_certain`), lowest card
        first; None when the win is not certain or the game is already won."""
        if self.is_won() or not self.win_is_certain():
            return None
        moves: list[Move] = []
        p = self
        while not p.is_won():
            home = next(m for m in p.legal_moves() if m.target.kind is Kind.FOUNDATION)
            moves.append(home)
            p = p.apply(home)
        return moves

    def group_limit(self, to_empty_column: bool = False) -> int:
        return self.rules.group_limit(self.empty_cells, self.empty_columns, to_empty_column)

    def group_limit_words(self, to_empty_column: bool = False) -> str:
        """E.g. "5 cards: 4 empty cells + 1"."""
        return self.rules.group_limit_words(self.empty_cells, self.empty_columns, to_empty_column)

    def stacks(self, card: int, onto: int) -> bool:
        """May ``card`` lie on ``onto`` in a column (by the build rule)?"""
        if (card >> 2) + 1 != (onto >> 2):
            return False
        if self.rules.build is Build.SUIT:
            return (card & 3) == (onto & 3)
        return ((card ^ onto) & 2) != 0

    def run_length(self, column: int) -> int:
        """Length of the built run at the end of a column (0 if empty)."""
        col = self.columns[column]
        if not col:
            return 0
        n = 1
        while n < len(col) and self.stacks(col[-n], col[-n - 1]):
            n += 1
        return n

    def foundation_for(self, card: int) -> int | None:
        """The foundation that takes ``card`` now, or None."""
        rank, suit = card >> 2, card & 3
        for f in range(suit, len(self.foundations), 4):
            if self.foundations[f] == rank - 1:
                return f
        return None

    def card_at(self, place: Place) -> Card | None:
        """The exposed card of a place (None when empty)."""
        if place.index is None:
            return None
        if place.kind is Kind.COLUMN:
            col = self.columns[place.index]
            return col[-1] if col else None
        if place.kind is Kind.CELL:
            return self.cells[place.index]
        rank = self.foundations[place.index]
        return Card.of(rank, place.index % 4) if rank else None

    def moving_card(self, move: Move) -> Card:
        """The deepest card of the moved group (the one that lands on the target)."""
        if move.source.kind is Kind.COLUMN:
            assert move.source.index is not None
            return self.columns[move.source.index][-move.count]
        card = self.card_at(move.source)
        assert card is not None
        return card

    def resolve_target(self, move: Move) -> Place:
        """The concrete target; for HOME, the foundation that takes the card."""
        if move.target.index is not None:
            return move.target
        f = self.foundation_for(self.moving_card(move))
        assert f is not None
        return Place.foundation(f)

    # ----- legality ------------------------------------------------------------
    def check(self, move: Move) -> None:
        """Raise IllegalMoveError saying why ``move`` is illegal; return None if legal."""
        why = self._why_not(move)
        if why is not None:
            raise IllegalMoveError(why())

    def is_legal(self, move: Move) -> bool:
        return self._why_not(move) is None

    def _why_not(self, move: Move) -> Callable[[], Message] | None:
        """None if ``move`` is legal, else a function giving the reason (an
        :class:`eightoff.i18n.Message`, made only when asked for, so that move
        generation stays cheap)."""
        rules = self.rules
        src, dst, count = move.source, move.target, move.count
        why = self._place_problem(src, "from")
        if why is None and dst.index is not None:
            why = self._place_problem(dst, "to")
        if why is not None:
            return why
        if count < 1:
            return lambda: Message("illegal.no_cards")
        if src == dst:
            return lambda: Message("illegal.same_place", place=src)
        # what moves
        if src.kind is Kind.COLUMN:
            assert src.index is not None
            col = self.columns[src.index]
            if not col:
                return lambda: Message("illegal.source_empty", place=src)
            if count > len(col):
                has = Count(len(col), "card")
                return lambda: Message("illegal.too_few_cards", place=src, has=has, count=count)
            if count > self.run_length(src.index):
                build = rules.build.value
                return lambda: Message(f"illegal.not_a_run.{build}", card=col[-count])
        elif src.kind is Kind.CELL:
            assert src.index is not None
            if self.cells[src.index] is None:
                return lambda: Message("illegal.source_empty", place=src)
        else:
            if src.index is None:
                return lambda: Message("illegal.name_foundation")
            if not rules.foundation_retrieval:
                return lambda: Message("illegal.retrieval_off")
            if self.foundations[src.index] == 0:
                return lambda: Message("illegal.source_empty", place=src)
        if count > 1 and src.kind is not Kind.COLUMN:
            return lambda: Message("illegal.one_from_cell_or_foundation")
        card = self.moving_card(move)
        # where it goes
        if dst.kind is Kind.FOUNDATION:
            if src.kind is Kind.FOUNDATION:
                return lambda: Message("illegal.between_foundations")
            if count > 1:
                return lambda: Message("illegal.single_home")
            named = dst.index
            if named is None:  # home: any foundation of the suit that takes the card
                if self.foundation_for(card) is not None:
                    return None
            elif named % 4 != card.suit:
                return lambda: Message("illegal.foundation_suit", place=dst, suit=Suit(named % 4))
            elif self.foundations[named] == card.rank - 1:  # a named foundation that takes it
                return None
            elif (other := self.foundation_for(card)) is not None:  # another one takes it
                return lambda: Message("illegal.goes_on", card=card, place=Place.foundation(other))
            if card.rank == 1:
                return lambda: Message("illegal.needs_empty_foundation", card=card)
            prev = Card.of(card.rank - 1, card.suit)
            return lambda: Message("illegal.home_after", card=card, prev=prev)
        if dst.kind is Kind.CELL:
            assert dst.index is not None
            if self.cells[dst.index] is not None:
                return lambda: Message("illegal.cell_full", place=dst)
            if count > 1:
                return lambda: Message("illegal.cell_one_card")
            return None
        assert dst.index is not None
        target_col = self.columns[dst.index]
        if target_col:
            onto = target_col[-1]
            if not self.stacks(card, onto):
                return lambda: self._needs(card)
            if count > self.group_limit(to_empty_column=False):
                return lambda: self._limit_message(False)
            return None
        if rules.empty_column is EmptyColumn.KINGS and card.rank != KING:
            return lambda: Message("illegal.king_only")
        if count > self.group_limit(to_empty_column=True):
            return lambda: self._limit_message(True)
        return None

    def _limit_message(self, to_empty_column: bool) -> Message:
        """E.g. "Only 3 cards can move: 2 empty cells + 1"."""
        limit = self.rules.group_limit_message(
            self.empty_cells, self.empty_columns, to_empty_column
        )
        why = limit.params["why"]
        return Message("illegal.group_too_big", n=self.group_limit(to_empty_column), why=why)

    def _needs(self, card: Card) -> Message:
        """Why ``card`` cannot lie there: "7♥ needs the 8♥" / "7♥ needs a black 8"."""
        if card.rank == KING:
            return Message("illegal.king_needs_empty", card=card)
        higher = Card.of(card.rank + 1, card.suit)
        if self.rules.build is Build.SUIT:
            return Message("illegal.needs_same_suit", card=card, higher=higher)
        colour = "black" if card.is_red else "red"
        return Message(
            "illegal.needs_colour", card=card, colour=colour, higher=higher, rank=higher.rank
        )

    def _place_problem(self, place: Place, word: str) -> Callable[[], Message] | None:
        if place.index is None:
            return None
        kind = place.kind
        if kind is Kind.COLUMN:
            n = len(self.columns)
        elif kind is Kind.CELL:
            n = len(self.cells)
        else:
            n = len(self.foundations)
        if 0 <= place.index < n:
            return None
        count = Count(n, kind.value)
        return lambda: Message(f"illegal.no_such_place.{word}", place=place, count=count)

    # ----- move generation -----------------------------------------------------
    def legal_moves(self) -> list[Move]:
        """Every legal move, each target cell and empty column listed separately.

        The candidates are filtered by :meth:`check`, so the rules live in one place.
        """
        return [m for m in self._candidates() if self.is_legal(m)]

    def _candidates(self) -> Iterator[Move]:
        """Every move of the right shape: each source's card (or run, by length) to
        home, each cell and each other column."""
        n_cols, n_cells = len(self.columns), len(self.cells)
        sources: list[tuple[Place, int]] = [
            (Place.column(i), self.run_length(i)) for i, col in enumerate(self.columns) if col
        ]
        sources += [(Place.cell(i), 1) for i, c in enumerate(self.cells) if c is not None]
        if self.rules.foundation_retrieval:
            sources += [(Place.foundation(f), 1) for f, r in enumerate(self.foundations) if r]
        for src, run in sources:
            if src.kind is not Kind.FOUNDATION:
                yield Move(src, HOME)
            for c in range(n_cells):
                if self.cells[c] is None:
                    yield Move(src, Place.cell(c))
            for t in range(n_cols):
                for n in range(1, run + 1):
                    yield Move(src, Place.column(t), n)

    # ----- applying moves ------------------------------------------------------
    def apply(self, move: Move) -> Position:
        """The position after a legal move; raise IllegalMoveError otherwise."""
        self.check(move)
        return self.apply_unchecked(move)

    def apply_unchecked(self, move: Move) -> Position:
        """Apply a move known to be legal (from :meth:`legal_moves` or checked)."""
        src, dst, n = move.source, move.target, move.count
        columns = list(self.columns)
        cells = list(self.cells)
        foundations = list(self.foundations)
        moved: tuple[Card, ...]
        if src.kind is Kind.COLUMN:
            assert src.index is not None
            col = columns[src.index]
            moved = col[-n:]
            columns[src.index] = col[:-n]
        elif src.kind is Kind.CELL:
            assert src.index is not None
            card = cells[src.index]
            assert card is not None
            moved = (card,)
            cells[src.index] = None
        else:
            assert src.index is not None
            rank = foundations[src.index]
            moved = (Card.of(rank, src.index % 4),)
            foundations[src.index] = rank - 1
        if dst.kind is Kind.COLUMN:
            assert dst.index is not None
            columns[dst.index] = columns[dst.index] + moved
        elif dst.kind is Kind.CELL:
            assert dst.index is not None
            cells[dst.index] = moved[0]
        else:
            f = dst.index if dst.index is not None else self.foundation_for(moved[0])
            assert f is not None
            foundations[f] = moved[0] >> 2
        return Position(self.rules, tuple(columns), tuple(cells), tuple(foundations))

    # ----- safe auto-moves -----------------------------------------------------
    def is_safe_home(self, card: int) -> bool:
        """May this card go home without any risk of needing it later?

        With same-suit building every card that can go home is safe. With
        alternate colours a card is safe when it is an Ace or a 2, or when every
        opposite-colour card one rank lower is already home. With two packs the
        card's twin must be able to follow it as well: every foundation of its suit
        is at least one rank below it (else the twin would need the foundation this
        card takes: with two K♦ out and the ♦ foundations at Q and J, the first K♦
        sent home would leave the other one no Q♦ to go on).
        """
        if self.foundation_for(card) is None:
            return False
        rank = card >> 2
        if len(self.foundations) > 4 and any(
            self.foundations[f] < rank - 1 for f in range(card & 3, len(self.foundations), 4)
        ):
            return False
        if self.rules.build is Build.SUIT:
            return True
        if rank <= 2:
            return True
        opposite = 0 if card & 2 else 2
        return all(
            self.foundations[f] >= rank - 1
            for f in range(len(self.foundations))
            if (f % 4) & 2 == opposite
        )

    def safe_auto_move(self) -> Move | None:
        """One card that may safely go home now (cells first, then columns), or None."""
        for i, c in enumerate(self.cells):
            if c is not None and self.is_safe_home(c):
                return Move(Place.cell(i), HOME)
        for i, col in enumerate(self.columns):
            if col and self.is_safe_home(col[-1]):
                return Move(Place.column(i), HOME)
        return None

    # ----- text ----------------------------------------------------------------
    def parse_move(self, text: str) -> Move:
        """Read a move typed by a player: "37" moves the run that fits when no count is given.

        Raises MoveSyntaxError for bad text, IllegalMoveError when no such move is legal.
        """
        move = Move.parse(text, self.rules)
        if "x" in text.lower() or move.source.kind is not Kind.COLUMN:
            self.check(move)
            return move
        if move.target.kind is not Kind.COLUMN:
            self.check(move)
            return move
        candidates = [
            m for m in self.legal_moves() if m.source == move.source and m.target == move.target
        ]
        if not candidates:
            self.check(move)  # raises with the reason for a single card
            # a single card would be legal but no run fits: explain the largest run
            raise IllegalMoveError(
                Message("illegal.no_run_fits", source=move.source, target=move.target)
            )
        return max(candidates, key=lambda m: m.count)

    def key(self) -> tuple[object, ...]:
        """A canonical key: equal for positions that differ only by the order of cells
        (and of columns, which are interchangeable)."""
        return (
            tuple(sorted(self.columns)),
            tuple(sorted(c for c in self.cells if c is not None)),
            self.foundations,
        )

    def all_cards(self) -> list[Card]:
        """Every card of the position, foundations included (for checks)."""
        out: list[Card] = [c for col in self.columns for c in col]
        out += [c for c in self.cells if c is not None]
        for f, rank in enumerate(self.foundations):
            out += [Card.of(r, f % 4) for r in range(1, rank + 1)]
        return out
