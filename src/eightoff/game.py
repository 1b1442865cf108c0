"""A game: a position plus its history (undo, redo, restart, safe auto-moves).

>>> g = Game.new("eightoff", 1)
>>> first = g.position.legal_moves()[0]
>>> turn = g.play(first)
>>> g.undo() == turn and g.position == g.start
True
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from eightoff.deals import deal
from eightoff.position import IllegalMoveError, Kind, Move, Position
from eightoff.rules import Rules, preset


@dataclass(frozen=True, slots=True)
class Turn:
    """A player's move and the safe auto-moves it set off, undone together."""

    move: Move
    auto: tuple[Move, ...] = ()

    @property
    def moves(self) -> tuple[Move, ...]:
        return (self.move, *self.auto)


@dataclass
class Game:
    """What the table and the terminal hold: the start, the moves made, the moves undone."""

    start: Position
    deal_number: int | None = None
    auto_move: bool = True
    turns: list[Turn] = field(default_factory=list)
    undone: list[Turn] = field(default_factory=list)
    _positions: list[Position] = field(default_factory=list, repr=False)

    def __post_init__(self) -> None:
        if not self._positions:
            self._positions = [self.start]
            for turn in self.turns:
                self._positions.append(self._replay(self._positions[-1], turn))

    @classmethod
    def new(
        cls, variant: Rules | str = "eightoff", number: int = 1, *, auto_move: bool = True
    ) -> Game:
        rules = preset(variant) if isinstance(variant, str) else variant
        return cls(deal(rules, number), number, auto_move)

    @classmethod
    def from_turns(
        cls,
        start: Position,
        turns: Iterable[Turn],
        *,
        deal_number: int | None = None,
        auto_move: bool = True,
        undone: Iterable[Turn] = (),
    ) -> Game:
        """Rebuild a saved game; every stored move is checked again."""
        return cls(start, deal_number, auto_move, list(turns), list(undone))

    @staticmethod
    def _replay(position: Position, turn: Turn) -> Position:
        for m in turn.moves:
            position = position.apply(m)
        return position

    def copy(self) -> Game:
        """An independent copy (positions are immutable and shared, not replayed)."""
        return Game(
            self.start,
            self.deal_number,
            self.auto_move,
            list(self.turns),
            list(self.undone),
            list(self._positions),
        )

    # ----- state -------------------------------------------------------------------
    @property
    def position(self) -> Position:
        return self._positions[-1]

    @property
    def rules(self) -> Rules:
        return self.start.rules

    @property
    def moves_made(self) -> int:
        """Moves on the board, auto-moves included."""
        return sum(len(t.moves) for t in self.turns)

    @property
    def can_undo(self) -> bool:
        return bool(self.turns)

    @property
    def can_redo(self) -> bool:
        return bool(self.undone)

    def moves(self) -> list[Move]:
        """Every move from the start, auto-moves included, in order."""
        return [m for t in self.turns for m in t.moves]

    # ----- actions -----------------------------------------------------------------
    def play(self, move: Move | str) -> Turn:
        """Make a move (a Move or its notation), then any safe auto-moves; clears redo.

        Raises MoveSyntaxError or IllegalMoveError and leaves the game unchanged.
        """
        pos = self.position
        if isinstance(move, str):
            move = pos.parse_move(move)
        pos = pos.apply(move)
        auto: list[Move] = []
        # a card just taken back from a foundation is not sent straight home again
        if self.auto_move and move.source.kind is not Kind.FOUNDATION:
            while (m := pos.safe_auto_move()) is not None:
                auto.append(m)
                pos = pos.apply_unchecked(m)
        turn = Turn(move, tuple(auto))
        self.turns.append(turn)
        self._positions.append(pos)
        self.undone.clear()
        return turn

    def auto_home(self) -> Turn | None:
        """Send safe cards home now (when auto-move is off, or after a setting change)."""
        first = self.position.safe_auto_move()
        if first is None:
            return None
        saved, self.auto_move = self.auto_move, True
        try:
            return self.play(first)
        finally:
            self.auto_move = saved

    def undo(self) -> Turn | None:
        """Take back the last turn (with its auto-moves); None when at the start."""
        if not self.turns:
            return None
        turn = self.turns.pop()
        self._positions.pop()
        self.undone.append(turn)
        return turn

    def redo(self) -> Turn | None:
        """Play again the last undone turn; None when there is nothing to redo."""
        if not self.undone:
            return None
        turn = self.undone.pop()
        self._positions.append(self._replay(self.position, turn))
        self.turns.append(turn)
        return turn

    def restart(self) -> None:
        """Back to the deal's first position; the moves can be redone."""
        while self.turns:
            self.undo()

    def undo_to(self, n_turns: int) -> None:
        """Undo until ``n_turns`` turns remain."""
        if not 0 <= n_turns <= len(self.turns):
            raise IllegalMoveError(
                f"cannot go back to turn {n_turns}: the game has {len(self.turns)}"
            )
        while len(self.turns) > n_turns:
            self.undo()

    def positions(self) -> list[Position]:
        """The position after each turn, the start first."""
        return list(self._positions)
