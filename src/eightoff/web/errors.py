"""Every error a client can cause is a 4xx JSON ``{"error": "<sentence>", "code": "<code>"}``
and changes nothing; a 500 means a bug (it is logged)."""

from __future__ import annotations

import logging

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException as StarletteHTTPException

from eightoff.deals import DealNumberError
from eightoff.i18n import UnknownLanguageError, pick_language, reason, translate
from eightoff.lessons import LessonError
from eightoff.position import IllegalMoveError, MoveSyntaxError
from eightoff.rules import UnknownVariantError
from eightoff.store import StoreError
from eightoff.table import NoGame, Refused, StaleGame, TableError
from eightoff.web.oracle import DroppedWork

log = logging.getLogger("eightoff.web")


class ApiError(Exception):
    """An error the client caused: its HTTP status, a short code and a sentence."""

    def __init__(self, status: int, code: str, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.code = code
        self.message = message


def error(status: int, code: str, message: str) -> JSONResponse:
    return JSONResponse({"error": message, "code": code}, status_code=status)


_DOMAIN_CODES: list[tuple[type[ValueError], str]] = [
    (IllegalMoveError, "illegal_move"),
    (MoveSyntaxError, "bad_move"),
    (DealNumberError, "bad_deal"),
    (UnknownVariantError, "unknown_variant"),
    (LessonError, "bad_lesson"),
    (UnknownLanguageError, "bad_request"),
]


def describe_validation(exc: RequestValidationError) -> str:
    parts = []
    for err in exc.errors()[:3]:
        kind = err.get("type", "")
        if kind == "json_invalid":
            ctx = err.get("ctx") or {}
            return f"The request body is not valid JSON ({ctx.get('error', 'syntax error')})"
        loc = [str(x) for x in err.get("loc", ()) if x not in ("body", "path", "query")]
        where = ".".join(loc)
        msg = str(err.get("msg", "invalid"))
        if kind == "missing":
            parts.append(f"{where or 'the body'} is required")
        elif kind == "extra_forbidden":
            parts.append(f"{where} is not a field of this request")
        elif kind == "model_attributes_type":
            parts.append(f"{where or 'the body'} must be a JSON object")
        else:
            parts.append(f"{where}: {msg}" if where else msg)
    return "; ".join(parts) or "The request is not valid"


def install(app: FastAPI) -> None:
    """The app's exception handlers."""

    @app.exception_handler(ApiError)
    async def api_error(request: Request, exc: ApiError) -> JSONResponse:
        return error(exc.status, exc.code, exc.message)

    @app.exception_handler(StaleGame)
    async def stale(request: Request, exc: StaleGame) -> JSONResponse:
        svc = request.app.state.services
        return JSONResponse(
            {"error": str(exc), "code": exc.code, "game": svc.game(exc.game)}, status_code=409
        )

    @app.exception_handler(TableError)
    async def table_error(request: Request, exc: TableError) -> JSONResponse:
        status = 404 if isinstance(exc, NoGame) else 409 if isinstance(exc, Refused) else 400
        return error(status, exc.code, str(exc))

    @app.exception_handler(DroppedWork)
    async def dropped(request: Request, exc: DroppedWork) -> JSONResponse:
        return error(409, "moved", "The game moved on while the solver worked: ask again")

    @app.exception_handler(StoreError)
    async def store_error(request: Request, exc: StoreError) -> JSONResponse:
        log.error("database: %s", exc)
        return error(503, "store", str(exc))

    @app.exception_handler(RequestValidationError)
    async def validation_error(request: Request, exc: RequestValidationError) -> JSONResponse:
        return error(422, "bad_request", describe_validation(exc))

    @app.exception_handler(StarletteHTTPException)
    async def http_error(request: Request, exc: StarletteHTTPException) -> JSONResponse:
        codes = {404: "not_found", 405: "method_not_allowed"}
        message = exc.detail if isinstance(exc.detail, str) else "Request failed"
        if exc.status_code == 400 and message == "There was an error parsing the body":
            return error(422, "bad_request", "The request body could not be read as JSON")
        if exc.status_code == 404 and message == "Not Found":
            message = f"Nothing at {request.url.path}"
        if exc.status_code == 405:
            message = f"{request.method} is not allowed on {request.url.path}"
        return error(exc.status_code, codes.get(exc.status_code, "http_error"), message)

    @app.exception_handler(RecursionError)
    async def too_deep(request: Request, exc: RecursionError) -> JSONResponse:
        return error(400, "bad_request", "The request is nested too deeply")

    @app.exception_handler(ValueError)
    async def domain_error(request: Request, exc: ValueError) -> JSONResponse:
        why = reason(exc)  # the engine's reasons speak the request's language
        lang = pick_language(request.headers.get("accept-language", "")[:200])
        text = str(exc) if why is None else translate(why, lang)
        for cls, code in _DOMAIN_CODES:
            if isinstance(exc, cls):
                return error(400, code, text)
        return error(400, "bad_request", " ".join(str(exc).split()) or "Bad request")

    @app.exception_handler(Exception)
    async def internal_error(request: Request, exc: Exception) -> JSONResponse:
        log.exception("bug while answering %s %s", request.method, request.url.path)
        return error(500, "internal", "Internal error (a bug in eightoff; see the server log)")
