"""The player's settings and statistics."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Body

from eightoff.web.deps import Svc
from eightoff.web.schemas import SettingsIn
from eightoff.web.serialize import stats_json
from eightoff.web.timing import off_loop, timed

router = APIRouter()


@router.get("/api/settings", summary="The player's settings")
@timed
async def get_settings(svc: Svc) -> dict[str, Any]:
    return await off_loop(svc.table.settings)


@router.put("/api/settings", summary="Change some settings")
@timed
async def put_settings(svc: Svc, body: Annotated[SettingsIn, Body()]) -> dict[str, Any]:
    return await off_loop(svc.table.put_settings, body.model_dump(exclude_none=True))


@router.get("/api/stats", summary="Statistics per variant")
@timed
async def stats(svc: Svc) -> dict[str, Any]:
    return stats_json(await off_loop(svc.table.stats))
