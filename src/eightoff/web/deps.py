"""What the routes share: the table service, the oracle and the app's limits."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated, Any

from fastapi import Depends, Request

from eightoff.game import Turn
from eightoff.table import GameState, Table
from eightoff.web.oracle import Oracle
from eightoff.web.serialize import game_json


@dataclass
class Services:
    table: Table
    oracle: Oracle
    winnable_tries: int = 30
    winnable_budget: float = 20.0

    def game(
        self,
        s: GameState,
        *,
        last_turn: Turn | None = None,
        undone: Turn | None = None,
        extra: dict[str, Any] | None = None,
    ) -> dict[str, Any]:
        """A Game object (see API.md)."""
        return game_json(
            s,
            self.table.analyse(s.position),
            auto_move=bool(self.table.settings()["auto_move"]),
            last_turn=last_turn,
            undone=undone,
            extra=extra,
        )


def services(request: Request) -> Services:
    found: Services = request.app.state.services
    return found


Svc = Annotated[Services, Depends(services)]
