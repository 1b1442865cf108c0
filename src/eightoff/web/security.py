"""Keep other sites out (Jupyter's approach for a local server), as one ASGI middleware:

* **Host**: a request must name an address the server was started for: 127.0.0.1,
  localhost or [::1] (with the server's port when it is known), or the ``--host``
  given. This stops DNS rebinding (a page on evil.example whose name now points here).
* **State-changing requests** (POST, PUT, PATCH, DELETE) need
  ``Content-Type: application/json`` (a cross-site form or ``fetch`` without a CORS
  preflight cannot send it) and, when they carry an ``Origin``, the server's own origin.
* **Token** (as Jupyter's, on every bind, loopback included): every request for the
  table's data (``/api/…`` but ``GET /api/server``) needs the server's random token, as
  ``Authorization: token …`` (what the page sends) or ``?token=…``. The URL ``eightoff
  play`` prints and opens carries it; the page keeps it in its origin's ``localStorage``
  (scheme, host *and port*: a page of another port cannot read it) and takes it out of
  the address bar at once. No cookie carries it: browsers send a cookie to every port of
  a host, so a cookie would hand the secret to any other local server the browser
  visits, and two tables on one host would share (and overwrite) it. The pages and
  scripts themselves (the same files for everyone, no game in them) and ``GET
  /api/server`` (app, version, pid) are served without the token.
* **Size**: a request body over ``max_body`` bytes is refused (413) before it is parsed.
* **Headers** on every answer: a Content-Security-Policy without inline script,
  ``frame-ancestors 'none'``, ``X-Content-Type-Options: nosniff``,
  ``Referrer-Policy: no-referrer`` and ``X-Frame-Options: DENY``.

Every refusal is a JSON ``{"error": "…", "code": "forbidden"}`` (403; ``"too_large"``
for 413) and changes nothing; its sentence is in the request's language
(``Accept-Language``, chosen by :func:`eightoff.i18n.pick_language`), its words in
``eightoff/locales/{en,de}.json`` with the table's other refusals.
"""

from __future__ import annotations

import hmac
import json
import re
from collections.abc import Awaitable, Callable, Iterable, MutableMapping
from typing import Any, Final
from urllib.parse import parse_qs

from eightoff import i18n

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

CSP: Final = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:;"
    " connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self';"
    " frame-ancestors 'none'"
)
SECURITY_HEADERS: Final[tuple[tuple[bytes, bytes], ...]] = (
    (b"content-security-policy", CSP.encode()),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"no-referrer"),
    (b"x-frame-options", b"DENY"),
)
_SECURITY_NAMES: Final = frozenset(name for name, _ in SECURITY_HEADERS)
LOOPBACK_NAMES: Final = frozenset({"127.0.0.1", "localhost", "[::1]"})
ANY_ADDRESS: Final = frozenset({"0.0.0.0", "::", "[::]"})
PUBLIC_API: Final = frozenset({"/api/server"})
"""Paths under /api/ answered to a GET without the token (nothing of the player's in them)."""
MAX_BODY: Final = 256 * 1024
_UNSAFE: Final = frozenset({"POST", "PUT", "PATCH", "DELETE"})


_PORT: Final = re.compile(r":[0-9]{1,5}")
"""A Host header's port: ASCII digits only (``str.isdigit`` also takes "²" and "٣")."""

HOST_SHOWN: Final = 60
"""A refused Host is quoted in the answer up to this many characters."""


def _shown(host: str) -> str:
    """``host`` quoted for a refusal; a long one cut, so that the answer stays one line."""
    return repr(host if len(host) <= HOST_SHOWN else host[:HOST_SHOWN] + "…")


def host_name(host: str) -> str:
    """``host`` as it appears in a Host header: IPv6 in brackets, lower case."""
    h = host.strip().lower()
    if ":" in h and not h.startswith("["):
        h = f"[{h}]"
    return h


def split_host(value: str) -> tuple[str, int | None]:
    """("127.0.0.1", 8000) from "127.0.0.1:8000"; ("[::1]", None) from "[::1]"."""
    v = value.strip().lower()
    if v.startswith("["):
        end = v.find("]")
        if end < 0:
            return v, None
        name, rest = v[: end + 1], v[end + 1 :]
    else:
        name, _, port_text = v.partition(":")
        rest = ":" + port_text if port_text else ""
    if not rest:
        return name, None
    if not _PORT.fullmatch(rest):
        return name, -1
    return name, int(rest[1:])


class Guard:
    """The middleware. ``hosts`` are the host names allowed besides loopback (``None``
    allows any: a server on 0.0.0.0, where the token guards instead); ``port`` the
    server's port (None: not checked); ``token`` the access token (None: none, for an
    app made in a test; ``eightoff play`` always gives one)."""

    def __init__(
        self,
        app: ASGIApp,
        *,
        hosts: Iterable[str] | None = (),
        port: int | None = None,
        token: str | None = None,
        max_body: int = MAX_BODY,
    ) -> None:
        self.app = app
        self.hosts = None if hosts is None else LOOPBACK_NAMES | {host_name(h) for h in hosts}
        self.port = port
        self.token = token
        self.max_body = max_body
        self.too_large = i18n.Message("error.too_large", limit=max_body)

    # ----- checks ----------------------------------------------------------------------
    def host_ok(self, value: str | None, scheme: str) -> bool:
        if not value:
            return False
        name, port = split_host(value)
        if port == -1:
            return False
        if self.hosts is not None and name not in self.hosts:
            return False
        if self.port is None:
            return True
        default = 443 if scheme == "https" else 80
        return (port if port is not None else default) == self.port

    def token_ok(self, scope: Scope, headers: dict[bytes, bytes]) -> bool:
        """Does the request carry the token, or need none?"""
        if self.token is None:
            return True
        path = str(scope.get("path", ""))
        method = str(scope.get("method", "GET")).upper()
        if method in ("GET", "HEAD") and (not path.startswith("/api/") or path in PUBLIC_API):
            return True
        expected = self.token.encode()
        auth = headers.get(b"authorization", b"")
        if auth[:6].lower() == b"token " and hmac.compare_digest(auth[6:].strip(), expected):
            return True
        query = parse_qs(scope.get("query_string", b"").decode("latin-1"))
        given = query.get("token", [])
        return any(hmac.compare_digest(one.encode(), expected) for one in given)

    # ----- ASGI ------------------------------------------------------------------------
    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        headers: dict[bytes, bytes] = {}
        for k, v in scope.get("headers", []):
            headers.setdefault(bytes(k).lower(), bytes(v))
        host = headers.get(b"host", b"").decode("latin-1")
        scheme = str(scope.get("scheme", "http"))
        accept_language = headers.get(b"accept-language")  # for a refusal
        if not self.host_ok(host, scheme):
            await _refuse(
                send, accept_language, 403, i18n.Message("error.unknown_host", host=_shown(host))
            )
            return
        if not self.token_ok(scope, headers):
            await _refuse(send, accept_language, 403, i18n.Message("error.token_needed"))
            return
        method = str(scope.get("method", "GET")).upper()
        if method in _UNSAFE:
            ctype = headers.get(b"content-type", b"").decode("latin-1")
            if ctype.split(";")[0].strip().lower() != "application/json":
                await _refuse(send, accept_language, 403, i18n.Message("error.json_only"))
                return
            origin = headers.get(b"origin")
            if (
                origin is not None
                and origin.decode("latin-1").lower() != f"{scheme}://{host}".lower()
            ):
                await _refuse(send, accept_language, 403, i18n.Message("error.other_site"))
                return
        length = headers.get(b"content-length")
        if length is not None and (not length.isdigit() or int(length) > self.max_body):
            await _refuse(send, accept_language, 413, self.too_large, "too_large")
            return
        if method in _UNSAFE and length is None:  # chunked: count it as it comes
            body = await self._read_body(receive)
            if body is None:
                await _refuse(send, accept_language, 413, self.too_large, "too_large")
                return
            receive = _replay(body, receive)

        async def guarded_send(message: Message) -> None:
            if message["type"] == "http.response.start":
                out = [
                    (k, v)
                    for k, v in message.get("headers", [])
                    if bytes(k).lower() not in _SECURITY_NAMES
                ]
                out.extend(SECURITY_HEADERS)
                message["headers"] = out
            await send(message)

        await self.app(scope, receive, guarded_send)

    async def _read_body(self, receive: Receive) -> bytes | None:
        chunks: list[bytes] = []
        size = 0
        while True:
            message = await receive()
            if message["type"] != "http.request":
                break
            chunk = message.get("body", b"")
            size += len(chunk)
            if size > self.max_body:
                return None
            chunks.append(chunk)
            if not message.get("more_body", False):
                break
        return b"".join(chunks)


def _replay(body: bytes, receive: Receive) -> Receive:
    sent = False

    async def replay() -> Message:
        nonlocal sent
        if not sent:
            sent = True
            return {"type": "http.request", "body": body, "more_body": False}
        return await receive()

    return replay


async def _refuse(
    send: Send,
    accept_language: bytes | None,
    status: int,
    message: i18n.Message,
    code: str = "forbidden",
) -> None:
    """Answer ``{"error": message, "code": code}``, the message in the request's language."""
    text = i18n.translate(message, i18n.pick_language(accept_language))
    body = json.dumps({"error": text, "code": code}).encode()
    await send(
        {
            "type": "http.response.start",
            "status": status,
            "headers": [
                (b"content-type", b"application/json"),
                (b"content-length", str(len(body)).encode()),
                *SECURITY_HEADERS,
            ],
        }
    )
    await send({"type": "http.response.body", "body": body})
