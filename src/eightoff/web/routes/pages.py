"""The HTML pages: the table, the rules, a local list of the API."""

from __future__ import annotations

import html
import json
from pathlib import Path
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import FileResponse, HTMLResponse, Response

from eightoff.i18n import LANGUAGES, pick_language
from eightoff.web.errors import error
from eightoff.web.serialize import notation_module

STATIC_DIR = Path(__file__).resolve().parent.parent / "static"
NOTATION_JS = notation_module()

router = APIRouter(include_in_schema=False)


def page(name: str) -> Response:
    path = STATIC_DIR / name
    if not path.is_file():
        return error(404, "not_found", f"The page {name} is not built (expected {path})")
    return FileResponse(path, media_type="text/html")


@router.api_route("/", methods=["GET", "HEAD"])  # HEAD: what a link checker asks
async def index() -> Response:
    return page("index.html")


@router.get("/static/js/notation.js")
async def notation_js() -> Response:
    """The move notation for the page's scripts, from the engine's one table."""
    return Response(NOTATION_JS, media_type="text/javascript")


@router.api_route("/rules", methods=["GET", "HEAD"])
async def rules_page(request: Request, lang: str | None = None) -> Response:
    """The rules in the reader's language: ``?lang=de`` or ``Accept-Language``."""
    chosen = lang if lang in LANGUAGES else pick_language(request.headers.get("accept-language"))
    return page("rules.de.html" if chosen == "de" else "rules.html")


@router.get("/docs")
async def docs(request: Request) -> HTMLResponse:
    return HTMLResponse(docs_page(request.app.openapi()))


def docs_page(spec: dict[str, Any]) -> str:
    """A small local page listing the API (the stock /docs page loads JS from a CDN)."""
    rows = []
    for path, ops in spec.get("paths", {}).items():
        for method, op in ops.items():
            rows.append(
                f"<tr><td><code>{html.escape(method.upper())}</code></td>"
                f"<td><code>{html.escape(path)}</code></td>"
                f"<td>{html.escape(str(op.get('summary', '')))}</td></tr>"
            )
    return (
        "<!doctype html><html lang='en'><head><meta charset='utf-8'><title>eightoff API</title>"
        "<link rel='icon' href='/static/favicon.svg' type='image/svg+xml'>"
        "</head><body><h1>eightoff API</h1><p>The full description is"
        " <a href='/openapi.json'>/openapi.json</a>; errors are"
        f" <code>{html.escape(json.dumps({'error': '…', 'code': '…'}))}</code>.</p>"
        "<table><thead><tr><th>Method</th><th>Path</th><th>What</th></tr></thead><tbody>"
        + "".join(rows)
        + "</tbody></table></body></html>"
    )
