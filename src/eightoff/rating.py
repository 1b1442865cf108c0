"""Deal ratings: Easy, Medium, Hard, Expert, Grandmaster, or Not winnable.

A deal is as hard as it is for players who look only a little ahead.  The rating
plays the deal with a family of such players and measures how far they get:

1. The solver gives the verdict (``solve`` with :data:`SOLVER_LIMITS`).  A deal it
   proves lost is **Not winnable**; nothing else is measured.
2. Otherwise 32 games are played by bounded-lookahead players (the compiled
   ``players.h``): 16 that judge each move by the position it makes (depth 0),
   8 that look one move further (depth 1, after the 6 moves judged best at once) and
   8 that look two moves further (depth 2, after the 4 best at each step).  After
   every move the safe cards go home.  A player judges a position by cards home,
   free cells and columns, cards in sequence and low cards buried under others,
   adds a random amount (each run its own fixed seed, so a deal's rating never
   changes), never goes back to a position it has seen, and plays forward only: it
   wins, or stops when it has no move or has made 400 moves per pack.  Baker's Game
   adds 8 players who judge each move by the position it makes but take moves back
   when stuck, up to 300 moves each (:data:`VARIANT_PLAYERS`).
3. The **score** is the mean progress of the games: 1 for a game won, else the
   share of the cards it got home.  So 1.0 means every player won, 0.1 that they
   got about a tenth of the cards home.  In Double FreeCell, where these players
   hardly ever win and get only a tenth of the cards home, the score also counts the
   solver's effort (:data:`SOLVER_EFFORT`, :func:`score_of`): it falls with the
   logarithm of the states the solver needed, weighted so that both parts spread
   alike over the calibration deals.
4. The **level** comes from the score and the variant's thresholds
   (:data:`THRESHOLDS`): score ≥ t₁ Easy, ≥ t₂ Medium, ≥ t₃ Hard, ≥ t₄ Expert, below
   Grandmaster.  The thresholds are the quintiles of the score over the winnable
   deals among deals 1–10,000 of the variant (:data:`CALIBRATION_DEALS`), so each
   level holds about a fifth of the winnable
   random deals; ``bench/rating_calibrate.py`` computes them.  A variant played with
   options (foundation retrieval, single-card moves) uses its base variant's
   thresholds; with another number of free cells it is "not rated"
   (:attr:`Rating.calibrated` false: the level shown is only indicative).

If the solver's limits stop it (no verdict), the level still comes from the players;
:attr:`Rating.verdict` then says ``"unknown"`` unless a player won (a won game is
itself a proof that the deal is winnable).

``bench/rating_monotonicity.py`` checks that the levels predict play: a held-out
player (the "sensible" player of ``players.h``, which took no part in the rating)
wins less often on each level than on the one before, on deals disjoint from the
calibration deals.

The formula is versioned per variant (:func:`formula_version`): a stored rating is
comparable only with ratings of the same version.

>>> str(rate(2, "eightoff").describe())
'Easy (score 0.974; players won depth 0 15/16, depth 1 8/8, depth 2 8/8)'
>>> rate(11982, "freecell").label
'Not winnable'
"""

from __future__ import annotations

import datetime as dt
import hashlib
import math
import random
import time
from dataclasses import dataclass
from enum import Enum
from typing import Any, Final

from eightoff.counts import count
from eightoff.deals import deal, random_deal_number
from eightoff.i18n import Message
from eightoff.position import Position
from eightoff.rules import Rules, preset
from eightoff.solver import Limits, Player, Verdict, play_games, solve

FORMULA_VERSION: Final = "1"
"""The version of the players and the score: changes whenever they change (and with
it every variant's :func:`formula_version`)."""


class Level(Enum):
    """A deal's difficulty, easiest first."""

    EASY = "Easy"
    MEDIUM = "Medium"
    HARD = "Hard"
    EXPERT = "Expert"
    GRANDMASTER = "Grandmaster"
    NOT_WINNABLE = "Not winnable"

    @property
    def rank(self) -> int:
        """0 for Easy … 4 for Grandmaster, 5 for Not winnable."""
        return list(Level).index(self)

    @classmethod
    def parse(cls, text: str) -> Level:
        """A level from its name, any case (``"easy"``, ``"not winnable"``)."""
        key = text.strip().lower().replace("-", " ").replace("_", " ")
        for level in cls:
            if level.value.lower() == key:
                return level
        names = ", ".join(level.value for level in cls)
        raise ValueError(f"unknown difficulty {text!r}; choose one of: {names}")


PLAYABLE_LEVELS: Final = (Level.EASY, Level.MEDIUM, Level.HARD, Level.EXPERT, Level.GRANDMASTER)


@dataclass(frozen=True, slots=True)
class PlayerSpec:
    """A group of the rating's players: lookahead depth, width, how many runs, and
    ``undo``: 0 for players who play forward only, else the moves a player who takes
    moves back may make (undone ones count; ``PL_BACKTRACK`` in ``players.h``)."""

    depth: int
    width: int
    runs: int
    undo: int = 0

    def describe(self, won: int, played: int) -> Message:
        """The group and its games won: "depth 1 8/8", "undo 300 5/8"."""
        if self.undo:
            return Message("rating.player.undo", undo=self.undo, won=won, played=played)
        return Message("rating.player.depth", depth=self.depth, won=won, played=played)


PLAYERS: Final = (PlayerSpec(0, 0, 16), PlayerSpec(1, 6, 8), PlayerSpec(2, 4, 8))
"""The rating's players in every variant but those of :data:`VARIANT_PLAYERS`."""
VARIANT_PLAYERS: Final[dict[str, tuple[PlayerSpec, ...]]] = {
    "bakers-game": (*PLAYERS, PlayerSpec(0, 0, 8, undo=300)),
}
"""Variants whose players differ.  Baker's Game: the forward-only players get only a
few cards home in most deals (its four cells and same-suit building leave them stuck),
so the score could not tell the hardest two fifths apart (the held-out player won 35%
and 32% there); 8 more players judge moves as the depth-0 players do but take moves
back when stuck, up to 300 moves each (see README "Deal ratings")."""
NOISE: Final = 20
"""Largest random extra on a move's judgement (a card home is worth 60)."""
MOVES_PER_PACK: Final = 400
SEED: Final = 0x5EED_0001
"""Run i of the group with depth d plays with seed SEED + 1000·d + i (a group that
takes moves back: SEED + 5000 + i)."""


def players_of(variant: str) -> tuple[PlayerSpec, ...]:
    """The groups of players that rate a deal of ``variant``."""
    return VARIANT_PLAYERS.get(variant, PLAYERS)


SOLVER_LIMITS: Final = Limits(seconds=None, states=300_000, memory_mb=256)
"""A state limit, no time limit: a deal's rating must not depend on the machine's load."""

SOLVER_EFFORT: Final[dict[str, tuple[float, float]]] = {
    "double-freecell": (0.1165, 3.6421),
}
"""Variants whose score counts the solver's effort: (weight k, centre c), and the score
is the players' mean progress − k·(log₁₀(1 + solver states) − c), kept within 0 … 1.
k is the standard deviation of the progress over the winnable calibration deals
divided by that of log₁₀(1 + states), so both parts spread alike; c is the mean of
log₁₀(1 + states) there, so the score stays near the progress.  Double FreeCell: its forward-only
players never win, and their progress alone left the middle three levels' held-out
win rates overlapping (55.7, 42.8, 37.3, 34.2, 23.1%).  The solver's states depend on
the solver, so this variant's ratings change with the solver's search (the formula
version changes with it)."""


def score_of(progress: float, solver_states: int, variant: str) -> float:
    """The rating's score of a winnable deal: the players' mean ``progress``, less the
    solver's effort in the variants of :data:`SOLVER_EFFORT`."""
    effort = SOLVER_EFFORT.get(variant)
    if effort is None:
        return progress
    weight, centre = effort
    return min(1.0, max(0.0, progress - weight * (math.log10(1 + solver_states) - centre)))


THRESHOLDS: Final[dict[str, tuple[float, float, float, float]]] = {
    "eightoff": (0.7091, 0.4603, 0.2638, 0.1226),
    "eightoff-easy": (0.8377, 0.5986, 0.3792, 0.1689),
    "freecell": (0.4982, 0.2885, 0.1635, 0.0901),
    "supermove-freecell": (0.4982, 0.2885, 0.1635, 0.0901),
    "bakers-game": (0.2707, 0.1562, 0.1019, 0.0668),
    "seahaven-towers": (0.3504, 0.1845, 0.1136, 0.0697),
    "double-freecell": (0.1931, 0.1203, 0.0591, 0.0092),
}
"""Per variant id: the lowest score of Easy, Medium, Hard and Expert.  SuperMove
FreeCell has FreeCell's deals and, for the players and the solver, FreeCell's rules
(it only shows the group limit), so it has FreeCell's thresholds."""

CALIBRATION_DEALS: Final[dict[str, int]] = {
    "eightoff": 10_000,
    "eightoff-easy": 10_000,
    "freecell": 10_000,
    "supermove-freecell": 10_000,
    "bakers-game": 10_000,
    "seahaven-towers": 10_000,
    "double-freecell": 10_000,
}
"""Per variant id: the thresholds are the score's quintiles over the winnable deals
(all but those the solver proves lost) among deals 1 … this."""


THRESHOLDS_VERSION: Final[dict[str, int]] = {
    "eightoff": 1,
    "eightoff-easy": 2,
    "freecell": 1,
    "supermove-freecell": 1,
    "bakers-game": 3,
    "seahaven-towers": 2,
    "double-freecell": 3,
}
"""Per variant id: the version of its :data:`THRESHOLDS` and :func:`players_of`, raised
whenever they change (version 2: recalibrated on deals 1–10,000 where version 1 used
1–2,000; Baker's Game version 3: players who take moves back, recalibrated; Double
FreeCell version 3: the solver's effort in the score, :data:`SOLVER_EFFORT`)."""


def formula_version(variant: str) -> str:
    """The version of the rating formula for ``variant``: :data:`FORMULA_VERSION`, then
    the variant's :data:`THRESHOLDS_VERSION` when above 1 (``"1"``, ``"1.2"``).

    Two ratings of a variant are comparable when their versions are equal; a stored
    rating of another version (``survey --rate`` keeps them) is rated again.  A
    variant id without thresholds of its own uses Eight Off's, and its version.
    """
    thresholds = THRESHOLDS_VERSION.get(variant if variant in THRESHOLDS else "eightoff", 1)
    return FORMULA_VERSION if thresholds == 1 else f"{FORMULA_VERSION}.{thresholds}"


@dataclass(frozen=True, slots=True)
class Rating:
    """A deal's level and the measurements behind it."""

    level: Level
    score: float
    """Mean progress of the rating's players: 1 a game won, else the share of cards home
    (less the solver's effort in the variants of :data:`SOLVER_EFFORT`)."""
    verdict: Verdict
    """The solver's verdict, or "solved" when a player won although the solver gave up."""
    wins: tuple[int, ...]
    """Games won by each group of :func:`players_of` the variant (depth 0, 1, 2, …)."""
    runs: tuple[int, ...]
    """Games played by each group."""
    solver_states: int
    solution_moves: int
    """The solver's solution in player moves (:mod:`eightoff.counts`: safe auto-moves
    free; 0 when it found none)."""
    seconds: float
    variant: str
    calibrated: bool = True
    """False for a variant played with another number of free cells than its own: its
    thresholds were never calibrated there, so the level (its own variant's thresholds
    applied to the score) is only indicative, and the rating is "not rated"."""

    @property
    def formula(self) -> str:
        """The version of the formula that gave this rating (:func:`formula_version`)."""
        return formula_version(self.variant)

    @property
    def label(self) -> str:
        return self.level.value

    def level_message(self) -> Message:
        """The level's name for people ("Easy", "Leicht")."""
        return Message(f"level.{self.level.value}")

    def headline(self) -> Message:
        """The level, or why there is none for this number of free cells."""
        if self.calibrated or self.level is Level.NOT_WINNABLE:
            return self.level_message()
        return Message("rating.not_rated", level=self.level_message())

    def describe(self) -> Message:
        """One line: the level (or why there is none) and what it rests on."""
        if self.level is Level.NOT_WINNABLE:
            return Message(
                "rating.line.not_winnable", level=self.level_message(), basis=self.basis()
            )
        if not self.calibrated:
            return Message("rating.line.not_rated", headline=self.headline(), basis=self.basis())
        return Message("rating.line", level=self.level_message(), basis=self.basis())

    def basis(self) -> Message:
        """What the level rests on: "score 0.060; players won depth 0 0/16, …"."""
        if self.level is Level.NOT_WINNABLE:
            return Message("rating.basis.not_winnable")
        groups = [
            spec.describe(won, n)
            for spec, won, n in zip(players_of(self.variant), self.wins, self.runs, strict=True)
        ]
        games = groups[-1]
        for group in reversed(groups[:-1]):  # "depth 0 15/16, depth 1 8/8, …"
            games = Message("rating.players", first=group, rest=games)
        unproven = self.verdict == "unknown"
        return Message("rating.basis", score=self.score, games=games, unproven=str(unproven))

    def to_json(self) -> dict[str, Any]:
        return {
            "level": self.level.value,
            "score": round(self.score, 4),
            "verdict": self.verdict,
            "players": [
                {"depth": spec.depth, "width": spec.width, "won": won, "played": n}
                | ({"undo": spec.undo} if spec.undo else {})
                for spec, won, n in zip(players_of(self.variant), self.wins, self.runs, strict=True)
            ],
            "solver_states": self.solver_states,
            "solution_moves": self.solution_moves,
            "seconds": round(self.seconds, 4),
            "variant": self.variant,
            "formula": self.formula,
            "calibrated": self.calibrated,
        }


def level_of(score: float, variant: str) -> Level:
    """The level of a winnable deal with this score, by the variant's thresholds."""
    thresholds = THRESHOLDS.get(variant, THRESHOLDS["eightoff"])
    for level, lowest in zip(PLAYABLE_LEVELS, thresholds, strict=False):
        if score >= lowest:
            return level
    return Level.GRANDMASTER


def player_games(position: Position) -> list[tuple[int, bool, int]]:
    """The rating's games (32, or more in :data:`VARIANT_PLAYERS`): (group index, won,
    cards home) for each."""
    rules = position.rules
    players = []
    groups = []
    max_moves = MOVES_PER_PACK * rules.decks
    for g, spec in enumerate(players_of(rules.id)):
        for i in range(spec.runs):
            if spec.undo:
                players.append(Player(SEED + 5000 + i, NOISE, undo=spec.undo))
            else:
                seed = SEED + 1000 * spec.depth + i
                players.append(Player(seed, NOISE, spec.depth, spec.width, max_moves))
            groups.append(g)
    results = play_games(position, players)
    return [(g, won, home) for g, (won, home) in zip(groups, results, strict=True)]


def rate(
    position: Position | int,
    rules: Rules | str | None = None,
    *,
    limits: Limits = SOLVER_LIMITS,
) -> Rating:
    """Rate a position, or deal number ``position`` of the variant ``rules``.

    ``rate(deal("freecell", 7))`` and ``rate(7, "freecell")`` are the same rating.
    A deal number needs its variant (the default is Eight Off).
    """
    t0 = time.perf_counter()
    if isinstance(position, int):
        position = deal(rules if rules is not None else "eightoff", position)
    elif rules is not None:
        wanted = preset(rules) if isinstance(rules, str) else rules
        if wanted != position.rules:
            raise ValueError(f"the position is a {position.rules.name} position, not {wanted.name}")
    variant = position.rules.id
    result = solve(position, limits)
    solution = count(position, result.moves).player if result.moves else 0
    if result.verdict == Verdict.LOST:
        return Rating(
            level=Level.NOT_WINNABLE,
            score=0.0,
            verdict=Verdict.LOST,
            wins=(0,) * len(players_of(variant)),
            runs=(0,) * len(players_of(variant)),
            solver_states=result.states,
            solution_moves=0,
            seconds=time.perf_counter() - t0,
            variant=variant,
        )
    games = player_games(position)
    total = position.rules.cards
    groups = len(players_of(variant))
    wins = [0] * groups
    runs = [0] * groups
    progress = 0.0
    for g, won, home in games:
        runs[g] += 1
        wins[g] += won
        progress += 1.0 if won else home / total
    score = score_of(progress / len(games) if games else 0.0, result.states, variant)
    verdict: Verdict = result.verdict
    if verdict == Verdict.UNKNOWN and any(wins):
        verdict = Verdict.SOLVED
    return Rating(
        level=level_of(score, variant),
        score=score,
        verdict=verdict,
        wins=tuple(wins),
        runs=tuple(runs),
        solver_states=result.states,
        solution_moves=solution,
        seconds=time.perf_counter() - t0,
        variant=variant,
        calibrated=not position.rules.cells_changed,
    )


def deal_of_level(
    variant: Rules | str, level: Level, rng: random.Random | None = None, tries: int = 200
) -> tuple[int, Rating]:
    """A random deal number of the variant that rates ``level``, with its rating.

    Draws deal numbers as a new random game does and rates them until one has the
    level (about five tries on average: each level holds about a fifth of deals).
    """
    if level not in PLAYABLE_LEVELS:
        names = ", ".join(lv.value for lv in PLAYABLE_LEVELS)
        raise ValueError(f"a new game can be {names}, not {level.value!r}")
    rules = preset(variant) if isinstance(variant, str) else variant
    for _ in range(tries):
        number = random_deal_number(rng)
        rating = rate(number, rules)
        if rating.level is level:
            return number, rating
    raise LookupError(f"no {level.value} deal of {rules.name} found in {tries} tries")


DAILY_RANGE: Final = 10**9
"""Daily deals are numbered 1 … this (as new random games are)."""


def daily_deal(variant: Rules | str, date: dt.date) -> int:
    """The deal of the day: the same number for everyone on ``date``, different per variant.

    Derived from the date alone (SHA-256 of ``"eightoff daily <variant> <YYYY-MM-DD>"``),
    so any copy of the program, on any machine, picks the same deal.

    >>> daily_deal("eightoff", dt.date(2026, 1, 1)) == daily_deal("eightoff", dt.date(2026, 1, 1))
    True
    """
    vid = preset(variant).id if isinstance(variant, str) else variant.id
    digest = hashlib.sha256(f"eightoff daily {vid} {date.isoformat()}".encode()).digest()
    return 1 + int.from_bytes(digest[:8], "big") % DAILY_RANGE
