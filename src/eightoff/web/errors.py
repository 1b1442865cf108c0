"""Every error a client can cause is a 4xx JSON ``{"error": "<sentence>", "code": "<code>"}``
and changes nothing; a 500 means a bug (it is logged).

The sentence is in the request's language (``Accept-Language``, which the table sets to
the player's choice): every refusal is a :class:`~eightoff.i18n.Message` whose words are
in ``eightoff/locales/{en,de}.json``, rendered here. Text that is not a Message (a
core error's detail, such as a malformed board's line) is sent as it is."""

from __future__ import annotations

import logging
import re
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException as StarletteHTTPException

from eightoff.deals import DealNumberError
from eightoff.i18n import Lang, Message, UnknownLanguageError, pick_language, reason, translate
from eightoff.lessons import LessonError
from eightoff.oracle import DroppedWork
from eightoff.position import IllegalMoveError, MoveSyntaxError
from eightoff.rules import UnknownVariantError
from eightoff.solver import SolutionError
from eightoff.store import StoreError
from eightoff.table import NoGame, Refused, StaleGame, TableError
from eightoff.web.timing import off_loop

log = logging.getLogger("eightoff.web")


class ApiError(Exception):
    """An error the client caused: its HTTP status, a short code and a sentence."""

    def __init__(self, status: int, code: str, message: Message | str) -> None:
        super().__init__(message)
        self.status = status
        self.code = code
        self.message = message


def language_of(request: Request) -> Lang:
    """The language a request's answer speaks (its ``Accept-Language``)."""
    return pick_language(request.headers.get("accept-language"))


def error(status: int, code: str, message: str) -> JSONResponse:
    return JSONResponse({"error": message, "code": code}, status_code=status)


def refusal(request: Request, status: int, code: str, message: Message | str) -> JSONResponse:
    """An error answer, its sentence in the request's language."""
    return error(status, code, translate(message, language_of(request)))


_DOMAIN_CODES: list[tuple[type[ValueError], str]] = [
    (IllegalMoveError, "illegal_move"),
    (MoveSyntaxError, "bad_move"),
    (DealNumberError, "bad_deal"),
    (UnknownVariantError, "unknown_variant"),
    (LessonError, "bad_lesson"),
    (UnknownLanguageError, "bad_request"),
]


_UNION_TAGS = re.compile(r"^(int|str|bool|float|none|constrained-\w+|\w+\[.*\])$")
"""The parts of a validation error's location that name a member of a union type (pydantic
writes ``deal.int`` and ``deal.constrained-str`` for ``deal: int | str``), not a field."""

_CHECKS: dict[str, str] = {
    "int_type": "valid.int",
    "int_parsing": "valid.int",
    "int_from_float": "valid.int",
    "float_type": "valid.number",
    "float_parsing": "valid.number",
    "finite_number": "valid.number",
    "string_type": "valid.text",
    "bool_type": "valid.bool",
    "bool_parsing": "valid.bool",
    "dict_type": "valid.object",
    "string_too_long": "valid.text_max",
    "greater_than_equal": "valid.at_least",
    "less_than_equal": "valid.at_most",
}
"""What a field should be, by pydantic's error type, as a phrase of the locale (a
``literal_error`` lists the values instead)."""


def _should_be(err: dict[str, Any], lang: str) -> str | None:
    """What the field should be, in ``lang`` ("a whole number", "text of at most 32
    characters", "1 or 2"); None for a check not in _CHECKS."""
    kind = str(err.get("type", ""))
    ctx = err.get("ctx") or {}
    if kind == "literal_error":
        values = re.findall(r"'[^']*'|-?\d+", str(ctx.get("expected", "")))
        return _either(values, lang) if values else None
    key = _CHECKS.get(kind)
    if key is None:
        return None
    n = next((ctx[k] for k in ("max_length", "ge", "le") if k in ctx), "")
    return translate(Message(key, n=str(n)), lang)


def _either(options: list[str], lang: str) -> str:
    """``a, b or c`` in ``lang``."""
    if len(options) == 1:
        return options[0]
    word = translate(Message("valid.or"), lang)
    return f"{', '.join(options[:-1])} {word} {options[-1]}"


def describe_validation(exc: RequestValidationError, lang: str = "en") -> str:
    """The first few problems of a request, in ``lang``: "deal should be a whole number or
    text of at most 32 characters", "level muss 1 oder 2 sein", "move is required".  A
    union's members are one field; a check the locale has no phrase for keeps the
    validator's English after "… is not valid:"."""
    fields: dict[str, list[dict[str, Any]]] = {}
    parts: list[str] = []
    for err in exc.errors():
        kind = err.get("type", "")
        if kind == "json_invalid":
            ctx = err.get("ctx") or {}
            detail = str(ctx.get("error", "syntax error"))
            return translate(Message("error.json_invalid", detail=detail), lang)
        loc = [str(x) for x in err.get("loc", ()) if x not in ("body", "path", "query")]
        if len(loc) > 1:
            loc = [loc[0]] + [x for x in loc[1:] if not _UNION_TAGS.match(x)]
        fields.setdefault(".".join(loc), []).append(dict(err))
    for where, errs in list(fields.items())[:3]:
        kind = errs[0].get("type", "")
        said: Message
        if kind == "missing":
            said = (
                Message("error.field_required", field=where)
                if where
                else Message("error.body_required")
            )
        elif kind == "extra_forbidden":
            said = Message("error.not_a_field", field=where)
        elif kind == "model_attributes_type":
            said = (
                Message("error.must_be_object", field=where)
                if where
                else Message("error.body_must_be_object")
            )
        else:
            phrases = [_should_be(e, lang) for e in errs]
            known = [x for x in phrases if x is not None]
            if where and known and len(known) == len(phrases):
                said = Message("error.field_should", field=where, what=_either(known, lang))
            else:
                msg = "; ".join(str(e.get("msg", "invalid")) for e in errs)
                said = (
                    Message("error.field_invalid", field=where, detail=msg)
                    if where
                    else Message("error.invalid_request_because", detail=msg)
                )
        parts.append(translate(said, lang))
    return "; ".join(parts) or translate(Message("error.invalid_request"), lang)


def install(app: FastAPI) -> None:
    """The app's exception handlers."""

    @app.exception_handler(ApiError)
    async def api_error(request: Request, exc: ApiError) -> JSONResponse:
        return refusal(request, exc.status, exc.code, exc.message)

    @app.exception_handler(StaleGame)
    async def stale(request: Request, exc: StaleGame) -> JSONResponse:
        svc = request.app.state.services
        text = translate(exc.message, language_of(request))
        game = await off_loop(svc.game, exc.game)  # reads the settings: off the event loop
        return JSONResponse({"error": text, "code": exc.code, "game": game}, status_code=409)

    @app.exception_handler(TableError)
    async def table_error(request: Request, exc: TableError) -> JSONResponse:
        status = 404 if isinstance(exc, NoGame) else 409 if isinstance(exc, Refused) else 400
        return refusal(request, status, exc.code, exc.message)

    @app.exception_handler(DroppedWork)
    async def dropped(request: Request, exc: DroppedWork) -> JSONResponse:
        return refusal(request, 409, "moved", Message("error.solver_moved_on"))

    @app.exception_handler(StoreError)
    async def store_error(request: Request, exc: StoreError) -> JSONResponse:
        # the player's sentence in their language; the cause (the file, what SQLite said,
        # what to do: English, for whoever runs the server) in "detail" and the log
        log.error("database: %s", exc)
        text = translate(Message("error.store"), language_of(request))
        return JSONResponse({"error": text, "code": "store", "detail": str(exc)}, status_code=503)

    @app.exception_handler(SolutionError)
    async def solver_refused(request: Request, exc: SolutionError) -> JSONResponse:
        # the solver's word failed the replay: never shown, never remembered (a bug to
        # report); the cause in "detail" and the log, for whoever runs the server
        log.error("solver: %s", exc)
        text = translate(Message("error.solver_refused"), language_of(request))
        return JSONResponse({"error": text, "code": "solver", "detail": str(exc)}, status_code=503)

    @app.exception_handler(RequestValidationError)
    async def validation_error(request: Request, exc: RequestValidationError) -> JSONResponse:
        return error(422, "bad_request", describe_validation(exc, language_of(request)))

    @app.exception_handler(StarletteHTTPException)
    async def http_error(request: Request, exc: StarletteHTTPException) -> JSONResponse:
        codes = {404: "not_found", 405: "method_not_allowed"}
        path = request.url.path
        message: Message | str = (
            exc.detail if isinstance(exc.detail, str) else Message("error.request_failed")
        )
        if exc.status_code == 400 and message == "There was an error parsing the body":
            return refusal(request, 422, "bad_request", Message("error.body_unreadable"))
        if exc.status_code == 404 and message == "Not Found":
            message = Message("error.not_found", path=path)
        if exc.status_code == 405:
            message = Message("error.method_not_allowed", method=request.method, path=path)
        return refusal(request, exc.status_code, codes.get(exc.status_code, "http_error"), message)

    @app.exception_handler(RecursionError)
    async def too_deep(request: Request, exc: RecursionError) -> JSONResponse:
        return refusal(request, 400, "bad_request", Message("error.too_deep"))

    @app.exception_handler(ValueError)
    async def domain_error(request: Request, exc: ValueError) -> JSONResponse:
        why = reason(exc)  # the engine's reasons speak the request's language
        text = str(exc) if why is None else translate(why, language_of(request))
        for cls, code in _DOMAIN_CODES:
            if isinstance(exc, cls):
                return error(400, code, text)
        return error(400, "bad_request", " ".join(text.split()) or "Bad request")

    @app.exception_handler(Exception)
    async def internal_error(request: Request, exc: Exception) -> JSONResponse:
        log.exception("bug while answering %s %s", request.method, request.url.path)
        return refusal(request, 500, "internal", Message("error.internal"))
