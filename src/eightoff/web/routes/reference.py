"""Reference data: the variants, the lessons, and who this server is."""

from __future__ import annotations

import os
from typing import Any

from fastapi import APIRouter

from eightoff import __version__
from eightoff.lessons import LESSONS
from eightoff.rules import PRESETS
from eightoff.web.deps import language
from eightoff.web.serialize import lesson_json, variant_json
from eightoff.web.timing import timed

router = APIRouter()


@router.get("/api/variants", summary="The variants and their rules")
@timed
async def variants() -> list[dict[str, Any]]:
    return [variant_json(r, language()) for r in PRESETS.values()]


@router.get("/api/lessons", summary="The four lessons, in order")
@timed
async def lessons() -> list[dict[str, Any]]:
    return [lesson_json(les, language()) for les in LESSONS]


@router.get("/api/server", summary="This server: the app, its version and process id")
@timed
async def server() -> dict[str, Any]:
    return {"app": "eightoff", "version": __version__, "pid": os.getpid()}
