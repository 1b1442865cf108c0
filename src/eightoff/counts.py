"""The two move counts: **player moves** and **single-card moves**.

Every figure of moves that eightoff shows or stores (the table's counter, the win
message, the statistics' fewest moves, replays, ``eightoff solve``, par, ``bench/``)
is one of these two, and says which. They are defined here, once.

**Player moves**: what a player does at this table. A single card or a group move
within the group limit is one move. The cards that safe auto-move sends home are not
counted: with auto-move on, a move that sends home a card that may safely go home
(:meth:`~eightoff.position.Position.is_safe_home`) is free, whoever makes it; with
auto-move off every card the player sends home is a move. Once the win is certain
(every column runs down in rank, :meth:`~eightoff.position.Position.win_is_certain`),
the cards sent home are free as well: auto-complete sends them. Player-move par
assumes safe auto-move on; a game played with auto-move off is compared with par (and
with other games: the statistics' fewest moves) in par's count, :func:`as_par_counts`:
the same moves count the same, whatever the setting was.

**Single-card moves**: the length of the solution when only single-card moves are
allowed, the research literature's count (Paul & Helmert, "Optimal Solitaire Game
Solutions using A* Search and Deadlock Analysis"). Every card moved is one move, every
card sent home is one (auto-moves and auto-complete included), and a group move counts
as the single-card moves it stands for: :func:`group_cost`.

What a group stands for. A run of k cards moved from one column onto another (or into
an empty column) may use as room the E empty free cells and, where an empty column
takes any card, the C empty columns other than the target (where only Kings fill an
empty column, the columns are no room: the run's lower cards cannot go there). The
group stands for the fewest single-card moves that carry it out in that room, the
standard supermove decomposition::

    cost(1)          = 1
    cost(k)          = 2k - 1                                  when k <= E + 1
    cost(k, E, C)    = min over 1 <= m < k of
                       2 * cost(m, E, C - 1) + cost(k - m, E, C - 1)   otherwise

(the top k - 1 cards to cells, the last card across, the k - 1 back; or the top m
cards to an empty column, the other k - m across, the m after them, each part with one
column less). So 2k - 1 whenever the room holds the k - 1 cards above the last one
singly (k <= E + C + 1), which no plan can beat: each card but the deepest leaves the
source and comes onto the target later. The move generator never offers a group larger
than the room can carry ((E + 1) * 2^C, or E + 1 where Kings fill empty columns), so
the cost is always finite. :func:`unfold` writes the single-card moves out; a test plays
them through the engine and checks that they are the fewest (a breadth-first search).

>>> from eightoff.deals import deal
>>> from eightoff.rules import preset
>>> count(deal(preset("eightoff"), 1), [Move.parse("b8"), Move.parse("3b")])
Counts(player=2, single_card=2)
>>> group_cost(3, empty_cells=2, empty_columns=0), group_cost(4, 1, 1), group_cost(8, 1, 2)
(5, 9, 27)
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from enum import Enum
from functools import cache
from typing import Final

from eightoff.i18n import Count, Message
from eightoff.position import Kind, Move, Place, Position
from eightoff.rules import EmptyColumn


class MoveCount(Enum):
    """Which of the two counts a figure of moves is in."""

    PLAYER = "player"
    """Player moves (the table's count; safe auto-moves and auto-complete are free)."""
    SINGLE = "single"
    """Single-card moves (a group counts as the single moves it stands for)."""

    @property
    def message(self) -> Message:
        """How output names it: "player moves", "single-card moves" (``count.*``)."""
        return Message(f"count.{self.value}")

    @property
    def words(self) -> str:
        """:attr:`message` in English."""
        return str(self.message)

    def moves(self, n: int) -> Count:
        """``n`` moves in this count: "1 player move", "31 player moves" (``noun.*``)."""
        return Count(n, f"{self.value}_move")


@dataclass(frozen=True, slots=True)
class Counts:
    """A stretch of play in both counts."""

    player: int = 0
    single_card: int = 0

    def __add__(self, other: Counts) -> Counts:
        return Counts(self.player + other.player, self.single_card + other.single_card)

    def __sub__(self, other: Counts) -> Counts:
        return Counts(self.player - other.player, self.single_card - other.single_card)

    def of(self, which: MoveCount) -> int:
        return self.player if which is MoveCount.PLAYER else self.single_card

    def to_json(self) -> dict[str, int]:
        """``{"player_moves": n, "single_card_moves": m}``: the JSON names everywhere."""
        return {"player_moves": self.player, "single_card_moves": self.single_card}


NONE: Final = Counts()


# ----- player moves ------------------------------------------------------------------
def is_free(position: Position, move: Move, *, auto_move: bool = True) -> bool:
    """Does ``move``, made in ``position``, cost no player move? True for a card sent
    home once the win is certain (auto-complete sends it), and, with ``auto_move``, for
    a card sent home that may safely go home (safe auto-move sends it)."""
    if move.target.kind is not Kind.FOUNDATION or move.source.kind is Kind.FOUNDATION:
        return False
    if position.win_is_certain():
        return True
    return auto_move and position.is_safe_home(position.moving_card(move))


def player_moves(position: Position, move: Move, *, auto_move: bool = True) -> int:
    """The player moves ``move`` counts for in ``position``: 0 or 1."""
    return 0 if is_free(position, move, auto_move=auto_move) else 1


def as_par_counts(start: Position, moves: Iterable[Move]) -> int:
    """The player moves of ``moves``, played from ``start``, as par counts them: with
    safe auto-move on, whatever the setting they were played with (a card sent home
    that safe auto-move would have sent at that point is free, and so is every card
    sent home once the win is certain). A game won with auto-move off is compared with
    par, and with other games, in this count; with auto-move on throughout it is the
    table's counter. Each move checked as :func:`count` does."""
    return count(start, moves).player


# ----- single-card moves ---------------------------------------------------------------
@cache
def group_cost(count: int, empty_cells: int, empty_columns: int) -> int:
    """The single-card moves a group of ``count`` cards stands for, with
    ``empty_cells`` free cells and ``empty_columns`` empty columns (not the target) as
    room (see the module's docstring). ValueError when the room cannot carry the group."""
    if count < 1 or empty_cells < 0 or empty_columns < 0:
        raise ValueError(f"no group of {count} cards with {empty_cells} cells, {empty_columns}")
    if count <= empty_cells + 1:
        return 2 * count - 1
    if empty_columns == 0 or count > (empty_cells + 1) << empty_columns:
        raise ValueError(
            f"{count} cards cannot move with {empty_cells} empty cells"
            f" and {empty_columns} empty columns"
        )
    if count <= empty_cells + empty_columns + 1:  # what the minimum below comes to
        return 2 * count - 1
    return min(
        2 * _cost_or_none(m, empty_cells, empty_columns - 1)
        + _cost_or_none(count - m, empty_cells, empty_columns - 1)
        for m in range(1, count)
    )


_TOO_MANY: Final = 1 << 30


def _cost_or_none(count: int, cells: int, columns: int) -> int:
    if count > (cells + 1) << columns:
        return _TOO_MANY
    return group_cost(count, cells, columns)


def _room(position: Position, move: Move) -> tuple[list[int], list[int]]:
    """The free cells and the empty columns (not the target) a group may use."""
    cells = [i for i, c in enumerate(position.cells) if c is None]
    columns: list[int] = []
    if position.rules.empty_column is EmptyColumn.ANY:
        columns = [
            i
            for i, col in enumerate(position.columns)
            if not col and Place.column(i) != move.target
        ]
    return cells, columns


def single_card_moves(position: Position, move: Move) -> int:
    """The single-card moves ``move``, made in ``position``, counts for: 1 for a single
    card, :func:`group_cost` for a group (with the room the position gives it)."""
    if move.count == 1:
        return 1
    cells, columns = _room(position, move)
    return group_cost(move.count, len(cells), len(columns))


def unfold(position: Position, move: Move) -> list[Move]:
    """The single-card moves a move stands for, in order (the move itself when it is
    one card): :func:`single_card_moves` of them, ending in the position the move
    makes. ValueError when ``move`` is not a legal move of ``position``."""
    if not position.is_legal(move):
        raise ValueError(f"{move} is not a legal move here")
    if move.count == 1:
        return [move]
    cells, columns = _room(position, move)
    out: list[Move] = []
    _carry(move.source, move.target, move.count, cells, columns, out)
    return out


def _carry(
    source: Place, target: Place, count: int, cells: list[int], columns: list[int], out: list[Move]
) -> None:
    """Append the fewest single-card moves that carry the top ``count`` cards of
    ``source`` onto ``target`` through ``cells`` and ``columns`` (all empty)."""
    if count <= len(cells) + 1:
        parked = [Place.cell(i) for i in cells[: count - 1]]
        out.extend(Move(source, p) for p in parked)
        out.append(Move(source, target))
        out.extend(Move(p, target) for p in reversed(parked))
        return
    rest = columns[1:]
    best = min(
        range(1, count),
        key=lambda m: (
            2 * _cost_or_none(m, len(cells), len(rest))
            + _cost_or_none(count - m, len(cells), len(rest))
        ),
    )
    spare = Place.column(columns[0])
    _carry(source, spare, best, cells, rest, out)
    _carry(source, target, count - best, cells, rest, out)
    _carry(spare, target, best, cells, rest, out)


# ----- both ------------------------------------------------------------------------
def move_counts(position: Position, move: Move, *, auto_move: bool = True) -> Counts:
    """What ``move``, made in ``position``, counts for in both counts."""
    return Counts(
        player_moves(position, move, auto_move=auto_move), single_card_moves(position, move)
    )


def count(position: Position, moves: Iterable[Move], *, auto_move: bool = True) -> Counts:
    """Both counts of ``moves`` played one after the other from ``position``, each
    checked by the rules (IllegalMoveError names the first that is not legal): how a
    solution, ours or another solver's, is counted. Player moves with safe auto-move
    on unless ``auto_move`` is False."""
    total = NONE
    for move in moves:
        total += move_counts(position, move, auto_move=auto_move)
        position = position.apply(move)
    return total


def counted_moves(
    position: Position, moves: Sequence[Move], *, auto_move: bool = True
) -> list[Counts]:
    """Each move's counts, in order (checked as :func:`count` does)."""
    out: list[Counts] = []
    for move in moves:
        out.append(move_counts(position, move, auto_move=auto_move))
        position = position.apply(move)
    return out
