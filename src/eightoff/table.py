"""The table as a service: start a game, play, undo, redo, restart, finish, count a hint,
settings and statistics. It knows games, revisions and the store; nothing of HTTP.

Every action that changes a game is one transaction on the stored game
(:meth:`eightoff.store.Store.edit`): it reads the game as stored, applies the action to
it and writes it, or refuses and changes nothing. No copy of a game kept in memory is
ever written back, so any number of servers, tabs and clients may share one database.

An action may name the ``revision`` of the game its caller saw; if the stored game has
moved on since, it raises :class:`StaleGame` carrying the game as it is now.

>>> from eightoff.store import Store
>>> table = Table(Store(":memory:"))
>>> g = table.start_deal("eightoff", 1)
>>> g.revision, g.game.position.cells[0] is not None
(0, True)
>>> played, turn = table.move(g.id, "b8", revision=0)
>>> played.revision, str(turn.move)
(1, 'b8')
>>> table.undo(g.id, revision=0)
Traceback (most recent call last):
...
eightoff.table.StaleGame: This game changed in another window
"""

from __future__ import annotations

import datetime as dt
import random
import threading
from collections import OrderedDict
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any, Final

from eightoff.deals import deal, random_deal_number
from eightoff.game import Game, Turn
from eightoff.i18n import LANGUAGES, Message, check_language, translate
from eightoff.lessons import Lesson, lesson
from eightoff.position import Move, Position
from eightoff.rating import PLAYABLE_LEVELS, Level, daily_deal, deal_of_level, rate
from eightoff.rules import PRESETS, Rules, preset
from eightoff.solver.optimal import Par
from eightoff.store import (
    GameEdit,
    OverPar,
    SavedGame,
    Store,
    StoredPar,
    VariantStats,
    parse_stats_key,
    rule_options,
    stats_key,
)

DEFAULT_SETTINGS: Final[dict[str, Any]] = {
    "auto_move": True,
    "winnable_only": False,
    "language": None,  # None: the browser's languages choose
    "hint_solver_first": False,  # Hint's first press: the solver's move (else the options)
    "large_cards": False,  # the big corner index on every card, and bigger cards
    "four_colour": False,  # four-colour suits: clubs green, diamonds blue
}
_POSITION_CACHE: Final = 4096


# ----- what can go wrong -------------------------------------------------------------------
class TableError(Exception):
    """An action the table refuses: ``code`` names it, ``message`` says it to a player
    (a :class:`~eightoff.i18n.Message`: ``str()`` is English, the web layer renders it in
    the player's language)."""

    code = "bad_request"

    def __init__(self, message: Message, code: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        if code is not None:
            self.code = code


class NoGame(TableError, LookupError):
    code = "no_game"


class Refused(TableError):
    """The action does not apply to the game as it is (over, nothing to undo, ...)."""

    code = "conflict"


class StaleGame(TableError):
    """The game changed since the revision the caller saw; ``game`` is the current one."""

    code = "stale"

    def __init__(self, game: GameState) -> None:
        super().__init__(Message("error.stale"))
        self.game = game


def _level_word(level: Level) -> Message:
    """A difficulty level's name, in the player's language ("Grandmaster", "Großmeister")."""
    return Message(f"level.{level.value}")


# ----- a game as the table shows it -----------------------------------------------------------
@dataclass(frozen=True, slots=True)
class GameState:
    """A stored game at one revision (its ``game`` must not be changed)."""

    id: int
    game: Game
    deal: int | None
    lesson: Lesson | None
    status: str
    hints: int
    assisted: bool
    """The solver's solution was given for this game: a win of it counts as assisted."""
    created: str
    finished: str | None
    revision: int
    rating: dict[str, Any] | None = None
    """The deal's rating (``Rating.to_json``), computed once when it started; None for
    custom boards and lessons."""
    daily: str | None = None
    """The UTC date (YYYY-MM-DD) of a daily deal."""
    replay: bool = False
    """A replay of the deal's par solution (never counted in the statistics)."""

    @classmethod
    def of(cls, saved: SavedGame) -> GameState:
        return cls(
            id=saved.id,
            game=saved.game,
            deal=saved.deal,
            lesson=None if saved.lesson is None else lesson(saved.lesson),
            status=saved.status,
            hints=saved.hints,
            assisted=saved.assisted,
            created=saved.created,
            finished=saved.finished,
            revision=saved.revision,
            rating=saved.rating,
            daily=saved.daily,
            replay=saved.replay,
        )

    @property
    def position(self) -> Position:
        return self.game.position

    @property
    def complete(self) -> bool:
        """Won, or the lesson's goal reached."""
        pos = self.game.position
        return self.lesson.is_complete(pos) if self.lesson is not None else pos.is_won()


@dataclass(frozen=True, slots=True)
class Analysis:
    """What the table shows about a position besides its cards."""

    legal: tuple[Move, ...]
    lost: bool
    certain: bool
    """The win is certain: auto-complete may finish it."""


@dataclass(frozen=True, slots=True)
class StatsLine:
    """One variant's statistics with one choice of house rules, as shown to the player.
    ``won`` counts games won by the player alone; ``assisted`` those finished after the
    solver's solution was given (not wins: they end the streak, set no fewest moves)."""

    variant: str
    name: str
    house_rules: dict[str, Any]
    played: int
    won: int
    assisted: int
    win_rate: float
    streak: int
    best_streak: int
    fewest_moves: int | None
    hints: int
    levels: dict[str, tuple[int, int]] | None = None
    """(played, won) per difficulty level (:class:`eightoff.rating.Level` names), in the
    levels' order, only levels played."""
    over_par: OverPar | None = None
    """Moves over par of the games won whose par is proven (None: no such game)."""
    levels_over_par: dict[str, OverPar] | None = None
    """The same per difficulty level, only levels that have such a game."""


def par_record(par: Par) -> StoredPar:
    """A par search's answer as the store keeps it."""
    return StoredPar(
        count=par.count.value,
        optimal=par.optimal,
        lower=par.lower_bound,
        upper=par.length,
        lost=par.lost,
        moves=par.moves,
        reason=par.reason,
        seconds=par.seconds,
    )


# ----- the service -----------------------------------------------------------------------------
class Table:
    """The table's actions on one store. ``on_change(game_id, position)`` is told the
    position of every game this table shows or changes (the solver uses it to know which
    positions are on a board)."""

    def __init__(
        self,
        store: Store,
        *,
        on_change: Callable[[int, Position], None] | None = None,
        rng: random.Random | None = None,
    ) -> None:
        self.store = store
        self.rng = rng or random.SystemRandom()
        self._on_change = on_change
        self._analysis: OrderedDict[Position, Analysis] = OrderedDict()
        self._lock = threading.Lock()

    # ----- reading ---------------------------------------------------------------------
    def _seen(self, state: GameState) -> GameState:
        if self._on_change is not None:  # shown in some window (an abandoned game may be resumed)
            self._on_change(state.id, state.position)
        return state

    def get(self, game_id: int) -> GameState:
        saved = self.store.load(game_id)
        if saved is None:
            raise NoGame(Message("error.no_game", id=game_id))
        return self._seen(GameState.of(saved))

    def current(self) -> GameState:
        """The game in progress (the newest not finished)."""
        gid = self.store.current_game_id()
        if gid is None:
            raise NoGame(Message("error.no_game_in_progress"))
        return self.get(gid)

    def analyse(self, position: Position) -> Analysis:
        """Legal moves, lost, win certain (cached by position)."""
        with self._lock:
            hit = self._analysis.get(position)
            if hit is not None:
                self._analysis.move_to_end(position)
                return hit
        legal = position.legal_moves()
        # is_lost() lists the legal moves again: only ask when no move changes anything
        lost = not position.is_won() and not position.useful_moves(legal)
        hit = Analysis(tuple(legal), lost, not position.is_won() and position.win_is_certain())
        with self._lock:
            self._analysis[position] = hit
            while len(self._analysis) > _POSITION_CACHE:
                self._analysis.popitem(last=False)
        return hit

    def hint_options(self, game_id: int, revision: int | None = None) -> GameState:
        """The game for a first-level hint (the useful legal moves); checks the revision."""
        state = self.get(game_id)
        if revision is not None and revision != state.revision:
            raise StaleGame(state)
        return state

    # ----- starting games --------------------------------------------------------------
    def start(
        self, start: Position, *, deal_number: int | None = None, lesson_id: int | None = None
    ) -> GameState:
        """Store a new game (any other game in progress is abandoned) and return it."""
        gid = self.store.create_game(start, deal=deal_number, lesson=lesson_id)
        return self.get(gid)

    def dealt(self, start: Position) -> Position:
        """A deal as the table starts it: with auto-move on, the safe cards go home as
        part of the deal (undo and restart come back here, not before it)."""
        if not self.settings()["auto_move"]:
            return start
        game = Game(start)
        game.auto_home()
        return game.position

    def start_dealt(
        self,
        start: Position,
        number: int,
        *,
        rating: dict[str, Any] | None = None,
        daily: dt.date | None = None,
        dealt: bool = False,
    ) -> GameState:
        """Store a dealt game (its start as :meth:`dealt` makes it, unless already
        ``dealt``) with the deal's rating (rated here unless given: once per game)."""
        if rating is None:
            rating = rate(number, start.rules).to_json()
        gid = self.store.create_game(
            start if dealt else self.dealt(start),
            deal=number,
            rating=rating,
            daily=None if daily is None else daily.isoformat(),
        )
        return self.get(gid)

    def start_deal(
        self,
        variant: str | Rules,
        number: int | None = None,
        *,
        difficulty: Level | str | None = None,
        daily: bool = False,
        **options: bool | int | None,
    ) -> GameState:
        """A deal: number ``number``, or today's daily deal (:func:`daily_deal`, by the UTC
        date), or a random one at ``difficulty`` (:func:`deal_of_level`), or any random one.
        Raises TableError for an unknown or unplayable difficulty."""
        rules = (preset(variant) if isinstance(variant, str) else variant).with_options(**options)  # type: ignore[arg-type]
        if daily:
            today = dt.datetime.now(dt.UTC).date()
            n = daily_deal(rules, today)
            return self.start_dealt(deal(rules, n), n, daily=today)
        if difficulty is not None:
            level = self.level(difficulty)
            try:
                n, rating = deal_of_level(rules, level, self.rng)
            except LookupError:
                raise TableError(
                    Message("error.no_deal_of_level", level=_level_word(level)), "no_deal"
                ) from None
            return self.start_dealt(deal(rules, n), n, rating=rating.to_json())
        n = random_deal_number(self.rng) if number is None else number
        return self.start_dealt(deal(rules, n), n)

    @staticmethod
    def level(difficulty: Level | str) -> Level:
        """A playable level from its name (any case); TableError names the choices."""
        choices = tuple(_level_word(lv) for lv in PLAYABLE_LEVELS)
        try:
            level = difficulty if isinstance(difficulty, Level) else Level.parse(difficulty)
        except ValueError:
            # the names the refusal offers, in any language ("Leicht"), are taken too
            said = str(difficulty).strip().casefold()
            for lv in Level:
                if any(translate(_level_word(lv), lang).casefold() == said for lang in LANGUAGES):
                    return Table.level(lv)
            name = repr(str(difficulty)[:40])
            raise TableError(
                Message("error.unknown_difficulty", name=name, choices=choices)
            ) from None
        if level not in PLAYABLE_LEVELS:
            raise TableError(
                Message("error.level_not_playable", choices=choices, level=_level_word(level))
            )
        return level

    def start_lesson(self, number: int) -> GameState:
        les = lesson(number)
        return self.start(les.start(), lesson_id=les.id)

    # ----- changing games: one transaction each ------------------------------------------
    @contextmanager
    def _change(self, game_id: int, revision: int | None) -> Iterator[GameEdit]:
        try:
            with self.store.edit(game_id) as edit:
                if revision is not None and revision != edit.revision:
                    raise StaleGame(GameState.of(edit.saved))
                if edit.status == "won":
                    raise Refused(Message("error.game_over"), "game_over")
                yield edit
        except KeyError:
            raise NoGame(Message("error.no_game", id=game_id)) from None

    def _after(self, game_id: int) -> GameState:
        return self.get(game_id)

    def move(
        self,
        game_id: int,
        move: Move | str,
        *,
        auto_move: bool | None = None,
        revision: int | None = None,
    ) -> tuple[GameState, Turn]:
        """Play a move (then any safe auto-moves, per the setting unless ``auto_move``
        says otherwise for this move; the turn is counted by the setting, see
        :meth:`eightoff.game.Game.play`). MoveSyntaxError / IllegalMoveError (ValueErrors)
        leave the game unchanged."""
        setting = bool(self.settings()["auto_move"])
        with self._change(game_id, revision) as e:
            e.game.auto_move = setting
            turn = e.game.play(move, auto=auto_move)
            e.record_turn(turn, won=self._complete(e))
        return self._after(game_id), turn

    def undo(self, game_id: int, *, revision: int | None = None) -> tuple[GameState, Turn]:
        with self._change(game_id, revision) as e:
            turn = e.game.undo()
            if turn is None:
                raise Refused(Message("error.nothing_to_undo"), "nothing_to_undo")
            e.record_cursor(won=False)
        return self._after(game_id), turn

    def redo(self, game_id: int, *, revision: int | None = None) -> tuple[GameState, Turn]:
        with self._change(game_id, revision) as e:
            turn = e.game.redo()
            if turn is None:
                raise Refused(Message("error.nothing_to_redo"), "nothing_to_redo")
            e.record_cursor(won=self._complete(e))
        return self._after(game_id), turn

    def restart(self, game_id: int, *, revision: int | None = None) -> GameState:
        """Back to the start, the moves kept for redo (a change even at the start: the
        revision moves on, so other windows see it was asked)."""
        with self._change(game_id, revision) as e:
            e.game.restart()
            e.record_cursor(won=False)
        return self._after(game_id)

    def finish(
        self, game_id: int, *, complete: bool = True, revision: int | None = None
    ) -> tuple[GameState, Turn]:
        """Finish a certain win (``complete``), or send the safe cards home (with
        auto-move off, each a player move: the player sent it)."""
        auto = bool(self.settings()["auto_move"])
        with self._change(game_id, revision) as e:
            e.game.auto_move = auto
            turn = e.game.finish(complete=complete)
            if turn is None:
                raise Refused(Message("error.nothing_home"), "nothing_to_do")
            e.record_turn(turn, won=self._complete(e))
        return self._after(game_id), turn

    def count_hint(
        self,
        game_id: int,
        position: Position,
        revision: int | None = None,
        *,
        solution: bool = False,
    ) -> int:
        """A solver hint or solution for ``position`` was given: count it (once, atomically)
        if the game is still there and playing. The count after it. Raises StaleGame if the
        game moved on meanwhile (or is not at ``revision``).

        The statistics' honest rule: once the solver's whole ``solution`` was given, the
        game is *assisted*: winning it (by the replay or by hand) counts as assisted, not
        won. A single hint (the solver's next move) only counts as a hint used."""
        try:
            with self.store.edit(game_id) as e:
                if (revision is not None and revision != e.revision) or (
                    e.game.position != position
                ):
                    raise StaleGame(GameState.of(e.saved))
                if e.status != "playing":
                    return e.hints
                if solution:
                    e.mark_assisted()
                return e.add_hint()
        except KeyError:
            raise NoGame(Message("error.no_game", id=game_id)) from None

    # ----- par ---------------------------------------------------------------------------
    def par(self, game_id: int) -> tuple[GameState, StoredPar | None]:
        """A game and the stored par (player moves) of its start, None if not searched yet."""
        state = self.get(game_id)
        return state, self.store.par_of_game(game_id)

    def keep_par(self, start: Position, par: Par) -> StoredPar:
        """Store a par search's answer for ``start`` (its solution checked by the rules
        again); the record kept (a proven one already kept stays)."""
        return self.store.save_par(start, par_record(par))

    def start_par_replay(self, game_id: int) -> tuple[GameState, StoredPar]:
        """A new game on game ``game_id``'s start (same deal, rules, rating, daily date)
        to replay the deal's par solution on: assisted, never counted in the statistics
        (any game in progress is abandoned, as by any new game). Refused when no par
        solution is stored."""
        state, par = self.par(game_id)
        if par is None or not par.moves or not par.optimal:
            raise Refused(Message("par.no_solution"), "no_par_solution")
        gid = self.store.create_game(
            state.game.start,
            deal=state.deal,
            rating=state.rating,
            daily=state.daily,
            replay=True,
        )
        return self.get(gid), par

    @staticmethod
    def _complete(e: GameEdit) -> bool:
        les = None if e.saved.lesson is None else lesson(e.saved.lesson)
        pos = e.game.position
        return les.is_complete(pos) if les is not None else pos.is_won()

    # ----- settings and statistics -----------------------------------------------------
    def settings(self) -> dict[str, Any]:
        return {**DEFAULT_SETTINGS, **self.store.settings()}

    def put_settings(self, values: dict[str, Any]) -> dict[str, Any]:
        if "variant" in values:
            preset(values["variant"])  # UnknownVariantError names it
        if values.get("language") is not None:
            check_language(values["language"])  # UnknownLanguageError names the choices
        self.store.put_settings(values)
        return self.settings()

    def stats(self) -> dict[str, StatsLine]:
        """Statistics per variant and house rules, keyed by :func:`eightoff.store.stats_key`:
        every variant's own rules (zeros if never played), then each choice of house rules
        that has been played."""
        saved = self.store.stats()
        by_level = self.store.level_stats()
        over = self.store.over_par()
        keys = list(PRESETS) + sorted(k for k in saved if k not in PRESETS)
        out: dict[str, StatsLine] = {}
        for key in keys:
            vid, options = parse_stats_key(key)
            if vid not in PRESETS:
                continue  # a variant this version no longer has
            rules = preset(vid)
            if isinstance(options.get("cells"), int):
                try:
                    rules = rules.with_options(cells=options["cells"])
                except ValueError:
                    continue  # a number of cells this version no longer allows
            st = saved.get(key, VariantStats())
            out[key] = StatsLine(
                variant=vid,
                name=rules.name,
                house_rules=options,
                played=st.played,
                won=st.won,
                assisted=st.assisted,
                win_rate=round(st.win_rate, 4),
                streak=st.streak,
                best_streak=st.best_streak,
                fewest_moves=st.fewest_moves,
                hints=st.hints,
                levels={
                    lv.value: by_level[key][lv.value]
                    for lv in Level
                    if lv.value in by_level.get(key, {})
                },
                over_par=over.get(key, {}).get(None),
                levels_over_par={
                    lv.value: found
                    for lv in Level
                    if (found := over.get(key, {}).get(lv.value)) is not None
                },
            )
        return out

    @staticmethod
    def stats_key(rules: Rules) -> str:
        """The statistics line a game with ``rules`` counts in."""
        return stats_key(rules.id, rule_options(rules))
