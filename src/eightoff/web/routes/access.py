"""The page that says how to get in: a browser without the table's token is sent here.

The table's own page (``/``) is the same file for everyone, so the server cannot tell
whether a browser holds the token (it lives in the origin's ``localStorage``, never in a
cookie: see :mod:`eightoff.web.security`). The page's first script (``static/js/gate.js``)
looks, and a browser with none (or with a token the server refuses) goes to ``/access``,
keeping the link's query (``?variant=freecell&deal=617``). This page says whose table it
is and how to get in, in the reader's language (``?lang=`` or ``Accept-Language``). It
shows no game, no setting and not the token; like every page it is served without the
token, changes nothing and carries the guard's headers.
"""

from __future__ import annotations

import html
from collections.abc import Mapping
from typing import Final
from urllib.parse import urlencode

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse

from eightoff.i18n import LANGUAGES, Message, pick_language, translate

router = APIRouter(include_in_schema=False)

LINK_KEYS: Final = ("variant", "deal", "cells", "retrieval", "strict")
"""The query keys of a deal's link (``static/js/play.js``, LINK_KEYS): only these are
shown back, each at most :data:`LINK_VALUE_MAX` characters."""
LINK_VALUE_MAX: Final = 32
COMMAND: Final = "eightoff play"


def link_query(query: Mapping[str, str]) -> dict[str, str]:
    """The query's link keys alone (a token or anything else is dropped), each value at
    most :data:`LINK_VALUE_MAX` characters (a longer one is left out)."""
    return {k: query[k] for k in LINK_KEYS if k in query and len(query[k]) <= LINK_VALUE_MAX}


def deal_link(query: Mapping[str, str]) -> str | None:
    """The deal's link the reader followed ("/?variant=freecell&deal=617"); None when the
    query has none."""
    kept = link_query(query)
    return f"/?{urlencode(kept)}" if kept else None


def _text(lang: str, key: str, **marked: str) -> str:
    """A message as HTML: its text escaped, each ``marked`` parameter replaced by the
    markup given (already safe)."""
    slots = {name: f"\x00{name}\x00" for name in marked}
    out = html.escape(translate(Message(key, **slots), lang))
    for name, markup in marked.items():
        out = out.replace(slots[name], markup)
    return out


def access_page(lang: str, link: str | None, query: Mapping[str, str], origin: str = "") -> str:
    """The page in ``lang``; ``link``: the deal's link to open again once in, shown as a
    full address on ``origin`` ("http://127.0.0.1:8000", the Host the guard let in)."""
    command = f"<code>{html.escape(COMMAND)}</code>"
    other = "de" if lang == "en" else "en"
    switch = {**link_query(query), "lang": other}
    steps = [
        _text(lang, "access.step_run", command=command),
        _text(lang, "access.step_open"),
        _text(lang, "access.step_again", command=command),
    ]
    deal = ""
    if link is not None:
        anchor = f'<a href="{html.escape(link)}">{html.escape(origin + link)}</a>'
        deal = f'<p class="deal">{_text(lang, "access.deal_link", link=anchor)}</p>'
    items = "".join(f"<li>{s}</li>" for s in steps)
    return (
        f'<!doctype html><html lang="{lang}"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        '<meta name="color-scheme" content="light"><meta name="robots" content="noindex">'
        f"<title>{_text(lang, 'access.title')}</title>"
        '<link rel="icon" href="/static/favicon.svg" type="image/svg+xml">'
        '<link rel="stylesheet" href="/static/access.css"></head><body>'
        '<main class="access" id="access">'
        f"<h1>{_text(lang, 'access.heading')}</h1>"
        f'<p class="why">{_text(lang, "access.why")}</p>'
        f"<h2>{_text(lang, 'access.how')}</h2><ol>{items}</ol>{deal}"
        f'<p class="kept">{_text(lang, "access.kept")}</p>'
        f'<p class="switch"><a href="/access?{html.escape(urlencode(switch))}" lang="{other}"'
        f' hreflang="{other}">{_text(other, "access.other_language")}</a></p>'
        "</main></body></html>"
    )


@router.get("/access")
async def access(request: Request, lang: str | None = None) -> HTMLResponse:
    """How to get in (no token needed; nothing of the table's in it)."""
    chosen = lang if lang in LANGUAGES else pick_language(request.headers.get("accept-language"))
    query = dict(request.query_params)
    return HTMLResponse(
        access_page(chosen, deal_link(query), query, str(request.base_url).rstrip("/")),
        headers={"Cache-Control": "no-store"},
    )
