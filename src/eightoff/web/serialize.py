"""JSON shapes of the API's answers (API.md describes them)."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any, Final

from eightoff.cards import SUIT_LETTERS, Card
from eightoff.explain import (
    describe_move,
    describe_rules,
    lesson_text,
    variant_name,
    variant_summary,
)
from eightoff.game import Turn
from eightoff.i18n import DEFAULT_LANGUAGE, translate
from eightoff.lessons import Lesson, next_lesson
from eightoff.position import (
    CELL_LABELS,
    COLUMN_LABELS,
    GROUP_MARK,
    HOME_LABEL,
    Move,
    Place,
    Position,
)
from eightoff.rules import Rules, house_rules_on
from eightoff.store import OverPar
from eightoff.table import Analysis, GameState, StatsLine


def notation_module() -> str:
    """The move notation as an ES module for the page (``/static/js/notation.js``), made
    from the engine's table (:mod:`eightoff.position`): the page keeps no copy of it."""
    table = {
        "COLUMN_KEYS": COLUMN_LABELS,
        "CELL_KEYS": CELL_LABELS,
        "HOME_KEY": HOME_LABEL,
        "GROUP_MARK": GROUP_MARK,
    }
    consts = "".join(f"export const {k} = {json.dumps(v)};\n" for k, v in table.items())
    return (
        "// The move notation, made by the server from eightoff.position (there is no file:\n"
        "// GET /static/js/notation.js answers this).\n"
        + consts
        + "\n/** A place in move notation: 3, a, h (home) or h2 (foundation 2). */\n"
        "export function placeNotation(kind, index) {\n"
        '  if (kind === "column") return COLUMN_KEYS[index];\n'
        '  if (kind === "cell") return CELL_KEYS[index];\n'
        "  return index === null || index === undefined ? HOME_KEY : `${HOME_KEY}${index + 1}`;\n"
        "}\n"
    )


def place_json(place: Place) -> dict[str, Any]:
    return {"kind": place.kind.value, "index": place.index}


def move_json(
    pos: Position, move: Move, *, auto: bool | None = None, lang: str = DEFAULT_LANGUAGE
) -> dict[str, Any]:
    """A move, described (in ``lang``) in the position it is made from."""
    out: dict[str, Any] = {
        "notation": str(move),
        "card": str(pos.moving_card(move)),
        "count": move.count,
        "source": place_json(move.source),
        "target": place_json(pos.resolve_target(move)),
        "text": translate(describe_move(pos, move), lang),
    }
    if auto is not None:
        out["auto"] = auto
    return out


def moves_json(
    pos: Position, moves: Sequence[Move], lang: str = DEFAULT_LANGUAGE
) -> list[dict[str, Any]]:
    """Moves played one after the other from ``pos``."""
    out = []
    for m in moves:
        out.append(move_json(pos, m, lang=lang))
        pos = pos.apply_unchecked(m)
    return out


def turns_json(
    pos: Position, moves: Sequence[Move], lang: str = DEFAULT_LANGUAGE
) -> list[list[dict[str, Any]]]:
    """Group a solution into the turns the table would play with auto-move on: a move and
    the safe moves after it, when the solution's next moves are exactly those."""
    turns: list[list[dict[str, Any]]] = []
    i = 0
    while i < len(moves):
        turn = [move_json(pos, moves[i], lang=lang)]
        p = pos.apply_unchecked(moves[i])
        j = i + 1
        autos: list[Move] = []
        q = p
        while (m := q.safe_auto_move()) is not None:
            autos.append(m)
            q = q.apply_unchecked(m)
        if autos and tuple(autos) == tuple(moves[j : j + len(autos)]):
            for m in autos:
                turn.append(move_json(p, m, lang=lang))
                p = p.apply_unchecked(m)
            j += len(autos)
        turns.append(turn)
        pos = p
        i = j
    return turns


def variant_json(r: Rules, lang: str = DEFAULT_LANGUAGE) -> dict[str, Any]:
    return {
        "id": r.id,
        "name": variant_name(r, lang),
        "summary": variant_summary(r, lang),
        "rules": translate(describe_rules(r), lang),
        "cells": r.cells,
        "least_cells": r.least_cells,
        "columns": r.columns,
        "foundations": r.foundations,
        "decks": r.decks,
        "build": r.build.value,
        "empty_column": r.empty_column.value,
        "formula": translate(r.formula_message(), lang),
        "announce_group_limit": r.announce_group_limit,
        "options": r.options(),
    }


def lesson_json(les: Lesson, lang: str = DEFAULT_LANGUAGE) -> dict[str, Any]:
    text = lesson_text(les, lang)
    return {
        "id": les.id,
        "title": text.title,
        "goal": text.goal,
        "guidance": list(text.guidance),
        "variant": les.variant,
        "next": next_lesson(les.id),
    }


JS_SAFE_INTEGER: Final = 2**53 - 1
"""The largest whole number a JavaScript number holds exactly (Number.MAX_SAFE_INTEGER)."""


def exact_deal(number: int | None) -> int | str | None:
    """A deal number as the API sends it: a number up to 2^53 - 1, the string of its
    digits beyond (a browser's JSON.parse would round it: deal 12345678901234567891
    was shown, linked and compared as 12345678901234567000), as a request may send it."""
    return str(number) if number is not None and number > JS_SAFE_INTEGER else number


def game_json(
    s: GameState,
    analysis: Analysis,
    *,
    auto_move: bool,
    last_turn: Turn | None = None,
    undone: Turn | None = None,
    extra: dict[str, Any] | None = None,
    lang: str = DEFAULT_LANGUAGE,
) -> dict[str, Any]:
    game = s.game
    pos = game.position
    rules = pos.rules
    won = pos.is_won()
    out: dict[str, Any] = {
        "id": s.id,
        "revision": s.revision,
        "variant": rules.id,
        "variant_name": variant_name(rules, lang),
        "rules": translate(describe_rules(rules), lang),
        "options": rules.options(),
        "house_rules": house_rules_on(rules),
        "cells_changed": rules.cells_changed,
        "language": lang,
        "deal": exact_deal(s.deal),
        "lesson": None if s.lesson is None else s.lesson.id,
        "lesson_info": None if s.lesson is None else lesson_json(s.lesson, lang),
        "lesson_done": s.lesson is not None and s.lesson.is_complete(pos),
        "columns": [[str(c) for c in col] for col in pos.columns],
        # the built run at the end of each column (the cards that may move as one group)
        "runs": [pos.run_length(i) for i in range(len(pos.columns))],
        "cells": [None if c is None else str(c) for c in pos.cells],
        "foundations": [
            {
                "suit": SUIT_LETTERS[f % 4],
                "top": top,
                "card": str(Card.of(top, f % 4)) if top else None,
            }
            for f, top in enumerate(pos.foundations)
        ],
        "player_moves": game.player_moves,
        "single_card_moves": game.single_card_moves,
        "turns": len(game.turns),
        "can_undo": game.can_undo,
        "can_redo": game.can_redo,
        "won": won,
        "lost": analysis.lost,
        "status": s.status,
        "finished": s.status != "playing",
        "group_limit": {
            "cards": pos.group_limit(),
            "words": translate(rules.group_limit_message(pos.empty_cells, pos.empty_columns), lang),
            "formula": translate(rules.formula_message(), lang),
            "to_empty_column": pos.group_limit(to_empty_column=True),
            "to_empty_column_words": translate(
                rules.group_limit_message(pos.empty_cells, pos.empty_columns, True), lang
            ),
        },
        "legal_moves": [move_json(pos, m, lang=lang) for m in analysis.legal],
        "last_turn": None
        if last_turn is None
        else moves_json(game.positions()[-2], last_turn.moves, lang),
        "undone_turn": None if undone is None else moves_json(pos, undone.moves, lang),
        "auto_move": auto_move,
        "can_auto_complete": analysis.certain,
        "hints": s.hints,
        "assisted": s.assisted,
        "rating": s.rating,
        "daily": s.daily,
        "replay": s.replay,
        "created": s.created,
        "finished_at": s.finished,
    }
    if extra:
        out.update(extra)
    return out


def stats_json(stats: dict[str, StatsLine]) -> dict[str, Any]:
    return {
        key: {
            "variant": st.variant,
            "name": st.name,
            "house_rules": [k for k, on in st.house_rules.items() if on is True],
            "played": st.played,
            "won": st.won,
            "assisted": st.assisted,
            "win_rate": st.win_rate,
            "streak": st.streak,
            "best_streak": st.best_streak,
            "fewest_moves": st.fewest_moves,
            "hints": st.hints,
            "levels": {
                level: {
                    "played": played,
                    "won": won,
                    "over_par": over_par_json((st.levels_over_par or {}).get(level)),
                }
                for level, (played, won) in (st.levels or {}).items()
            },
            "over_par": over_par_json(st.over_par),
        }
        for key, st in stats.items()
    }


def over_par_json(over: OverPar | None) -> dict[str, Any] | None:
    """Moves over par of the won games whose par is proven (None: no such game)."""
    if over is None:
        return None
    return {"games": over.games, "average": round(over.average, 2), "best": over.best}
