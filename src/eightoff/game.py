"""A game: a position plus its history (undo, redo, restart, safe auto-moves), and
its moves in the two counts of :mod:`eightoff.counts` (player moves, single-card moves).

>>> g = Game.new("eightoff", 1)
>>> first = g.position.legal_moves()[0]
>>> turn = g.play(first)
>>> g.player_moves
1
>>> g.undo() == turn and g.position == g.start and g.player_moves == 0
True
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from eightoff.counts import NONE, Counts, as_par_counts, move_counts
from eightoff.deals import deal
from eightoff.position import IllegalMoveError, Kind, Move, Position
from eightoff.rules import Rules, preset


@dataclass(frozen=True, slots=True)
class Turn:
    """A player's move and the safe auto-moves it set off, undone together; or the cards
    that one press of "auto" sent home (safe cards, or a certain win completed).

    ``auto_move`` is the setting it was played with: it decides whether the safe cards
    sent home cost player moves (:func:`eightoff.counts.is_free`)."""

    move: Move
    auto: tuple[Move, ...] = ()
    auto_move: bool = True

    @property
    def moves(self) -> tuple[Move, ...]:
        return (self.move, *self.auto)

    def counts(self, position: Position) -> Counts:
        """What the turn, played from ``position``, counts for (player moves and
        single-card moves). IllegalMoveError if it cannot be played there."""
        return self.play_from(position)[1]

    def play_from(self, position: Position) -> tuple[Position, Counts]:
        """The position after the turn (each move checked: IllegalMoveError) and what
        the turn counts for."""
        total = NONE
        for m in self.moves:
            total += move_counts(position, m, auto_move=self.auto_move)
            position = position.apply(m)
        return position, total


@dataclass
class Game:
    """What the table and the terminal hold: the start, the moves made, the moves undone."""

    start: Position
    deal_number: int | None = None
    auto_move: bool = True
    turns: list[Turn] = field(default_factory=list)
    undone: list[Turn] = field(default_factory=list)
    _positions: list[Position] = field(default_factory=list, repr=False)
    _counts: list[Counts] = field(default_factory=list, repr=False)
    """The counts of the moves on the board after each turn (``_positions``' partner)."""

    def __post_init__(self) -> None:
        if not self._positions:
            self._positions = [self.start]
            self._counts = [NONE]
            turns, self.turns = self.turns, []
            for turn in turns:
                self._append(turn)

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

    def _append(self, turn: Turn) -> None:
        """Put ``turn`` on the board (its moves checked: IllegalMoveError changes nothing)."""
        position, counts = turn.play_from(self.position)
        self._positions.append(position)
        self._counts.append(self._counts[-1] + counts)
        self.turns.append(turn)

    def _pop(self) -> Turn:
        self._positions.pop()
        self._counts.pop()
        return self.turns.pop()

    def copy(self) -> Game:
        """An independent copy (positions are immutable and shared, not replayed)."""
        return Game(
            self.start,
            self.deal_number,
            self.auto_move,
            list(self.turns),
            list(self.undone),
            list(self._positions),
            list(self._counts),
        )

    # ----- state -------------------------------------------------------------------
    @property
    def position(self) -> Position:
        return self._positions[-1]

    @property
    def rules(self) -> Rules:
        return self.start.rules

    @property
    def counts(self) -> Counts:
        """The moves on the board in both counts (:mod:`eightoff.counts`)."""
        return self._counts[-1]

    @property
    def player_moves(self) -> int:
        """Player moves on the board: what the table's counter shows (the cards safe
        auto-move or auto-complete sent home are free)."""
        return self._counts[-1].player

    @property
    def player_moves_as_par(self) -> int:
        """Player moves on the board as par counts them (safe auto-move on,
        :func:`eightoff.counts.as_par_counts`): :attr:`player_moves` when every turn was
        played with auto-move on; with it off, fewer (the safe cards the player sent home
        by hand are free here). What a win is compared with par in, and the statistics'
        fewest moves."""
        if all(t.auto_move for t in self.turns):
            return self.player_moves
        return as_par_counts(self.start, self.moves())

    @property
    def single_card_moves(self) -> int:
        """Single-card moves on the board (a group counts as the single moves it stands
        for, every card home as one)."""
        return self._counts[-1].single_card

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
    def play(self, move: Move | str, *, auto: bool | None = None) -> Turn:
        """Make a move (a Move or its notation), then any safe auto-moves; clears redo.
        ``auto``: whether safe auto-moves follow this move (None: as ``auto_move`` says;
        False: none this time, as a replay step that the solver followed otherwise). The
        cards safe auto-move would send are free in the turn's count when either is on.

        Raises MoveSyntaxError or IllegalMoveError and leaves the game unchanged.
        """
        pos = self.position
        if isinstance(move, str):
            move = pos.parse_move(move)
        pos = pos.apply(move)
        follow = self.auto_move if auto is None else auto
        autos: list[Move] = []
        # a card just taken back from a foundation is not sent straight home again
        if follow and move.source.kind is not Kind.FOUNDATION:
            while (m := pos.safe_auto_move()) is not None:
                autos.append(m)
                pos = pos.apply_unchecked(m)
        turn = Turn(move, tuple(autos), self.auto_move or follow)
        self._append(turn)
        self.undone.clear()
        return turn

    def auto_home(self) -> Turn | None:
        """Send the safe cards home now, in one turn (when auto-move is off, or after a
        setting change). With auto-move off each card counts as a player move (the
        player sent it); with it on they are free."""
        moves: list[Move] = []
        pos = self.position
        while (m := pos.safe_auto_move()) is not None:
            moves.append(m)
            pos = pos.apply_unchecked(m)
        if not moves:
            return None
        turn = Turn(moves[0], tuple(moves[1:]), self.auto_move)
        self.push(turn)
        return turn

    def auto_complete(self) -> Turn | None:
        """Finish a certain win (:meth:`Position.win_is_certain`) in one turn: every
        remaining card home; None when the win is not certain. Clears redo."""
        moves = self.position.auto_complete()
        if not moves:
            return None
        turn = Turn(moves[0], tuple(moves[1:]), self.auto_move)
        self.push(turn)
        return turn

    def push(self, turn: Turn) -> None:
        """Play a recorded turn as it is (its moves checked, no auto-moves added); clears
        redo. IllegalMoveError leaves the game unchanged."""
        self._append(turn)
        self.undone.clear()

    def finish(self, *, complete: bool = True) -> Turn | None:
        """The table's "auto" action: finish a certain win when ``complete`` (and the win
        is certain), else send the safe cards home; None when neither does anything."""
        if complete:
            turn = self.auto_complete()
            if turn is not None:
                return turn
        return self.auto_home()

    def undo(self) -> Turn | None:
        """Take back the last turn (with its auto-moves); None when at the start."""
        if not self.turns:
            return None
        turn = self._pop()
        self.undone.append(turn)
        return turn

    def redo(self) -> Turn | None:
        """Play again the last undone turn; None when there is nothing to redo."""
        if not self.undone:
            return None
        self._append(self.undone[-1])
        return self.undone.pop()

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
