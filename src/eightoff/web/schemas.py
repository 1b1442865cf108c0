"""The request bodies of the JSON API (pydantic, strict: unknown fields are refused)."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field

Revision = Annotated[int, Field(ge=0, le=2**63 - 1)]


class Strict(BaseModel):
    model_config = ConfigDict(strict=True, extra="forbid")


class NewGame(Strict):
    variant: Annotated[str, Field(max_length=64)] = "eightoff"
    deal: int | Annotated[str, Field(max_length=32)] | None = None
    winnable_only: bool | None = None
    lesson: int | None = None
    board: dict[str, Any] | Annotated[str, Field(max_length=20_000)] | None = None
    foundation_retrieval: bool | None = None
    strict_single: bool | None = None
    cells: Annotated[int, Field(ge=0, le=8)] | None = None
    """House rule: the number of free cells (0-8, at least the cards the variant deals
    to cells); left out, the variant's own."""
    difficulty: Annotated[str, Field(max_length=32)] | None = None
    daily: bool | None = None


class Revisioned(Strict):
    """A state-changing request: ``revision`` is the game's revision the client saw
    (409 ``stale`` with the current game if it has moved on since)."""

    revision: Revision | None = None


class PlaceIn(Strict):
    kind: Literal["column", "cell", "foundation"]
    # counted from 0: a negative index named "Column 0" in the refusal
    index: Annotated[int, Field(ge=0)] | None = None


class MoveIn(Revisioned):
    move: Annotated[str, Field(max_length=32)] | None = None
    source: PlaceIn | None = None
    target: PlaceIn | None = None
    count: int = 1
    auto: bool | None = None


class AutoIn(Revisioned):
    complete: bool = True


class HintIn(Revisioned):
    level: Literal[1, 2] = 1


class SettingsIn(Strict):
    auto_move: bool | None = None
    language: Literal["en", "de"] | None = None
    winnable_only: bool | None = None
    variant: Annotated[str, Field(max_length=64)] | None = None
    hint_solver_first: bool | None = None
    large_cards: bool | None = None
    four_colour: bool | None = None
