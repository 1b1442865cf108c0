"""Bounds on what a client can hold: time to send a request's headers, time to send its
body, and the number of connections open at once.

uvicorn alone closes only idle keep-alive connections; a client that connects and sends
nothing, or half a request (or one byte every few seconds), holds its connection for
ever. :class:`Limited` is uvicorn's h11 protocol with three more rules:

* a request's headers must all have arrived within ``header_timeout`` seconds of its
  first byte (of the connection, for the first request);
* its body within ``body_timeout`` seconds of its headers;
* beyond ``max_connections`` open at once, the connection that has waited longest
  without a whole request in (silent since it opened, idle between requests, or halfway
  through a request) is closed to make room; when every other one is being answered, the
  new one is closed at once. So connections left open and silent (a few dozen of any
  local user's, no token needed) cannot keep the player out: the player's next
  connection takes one of their places.

A connection that breaks a rule is closed without an answer (a request that never
finished has no one to answer). Answering is not bounded here: the solver's calls have
their own limits (``hint_seconds``, ...), and a locked database answers 503 after its
busy timeout.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from typing import Any, Final, Literal

import h11
from uvicorn.protocols.http.h11_impl import H11Protocol

Phase = Literal["headers", "body"] | None


@dataclass(frozen=True, slots=True)
class Limits:
    header_timeout: float = 10.0
    body_timeout: float = 30.0
    max_connections: int = 64


DEFAULT: Final = Limits()


class Limited(H11Protocol):
    """uvicorn's h11 protocol with :class:`Limits` (see the module)."""

    limits: Limits = DEFAULT

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._deadline: asyncio.TimerHandle | None = None
        self._phase: Phase = None
        self._active = 0.0  # the loop's time of the last bytes in or answer out

    @classmethod
    def with_limits(cls, limits: Limits) -> type[Limited]:
        """This protocol class with ``limits`` (what uvicorn's ``http=`` takes)."""
        return type("Limited", (cls,), {"limits": limits})

    # ----- the rules ---------------------------------------------------------------------
    def _enter(self, phase: Phase) -> None:
        if phase == self._phase:
            return  # the deadline runs from the phase's start, not from the last byte
        self._cancel()
        self._phase = phase
        if phase is not None and not self.transport.is_closing():
            seconds = self.limits.header_timeout if phase == "headers" else self.limits.body_timeout
            self._deadline = self.loop.call_later(seconds, self._too_slow)

    def _cancel(self) -> None:
        if self._deadline is not None:
            self._deadline.cancel()
            self._deadline = None

    def _too_slow(self) -> None:
        self._deadline = None
        if not self.transport.is_closing():
            self.transport.close()

    def _follow(self) -> None:
        """Where the client is in its request, after some bytes or an answer."""
        state = self.conn.their_state
        if state is h11.SEND_BODY:
            self._enter("body")
        elif state is h11.IDLE and self.conn.trailing_data[0]:
            self._enter("headers")  # part of a request's head has arrived
        elif state is h11.IDLE and self._phase == "headers":
            pass  # the first request of a connection: nothing yet, the clock runs
        else:
            self._enter(None)  # a whole request is in (being answered), or none begun

    # ----- uvicorn's protocol ----------------------------------------------------------
    def _waiting(self) -> bool:
        """Open without a whole request in: one may be closed to make room."""
        return self.conn.their_state is not h11.DONE and not self.transport.is_closing()

    def _make_room(self) -> bool:
        """Close the connection that has waited longest (:meth:`_waiting`, least recently
        active) for this one; False if every other one is being answered."""
        waiting = [c for c in self.connections if isinstance(c, Limited) and c is not self]
        oldest = min((c for c in waiting if c._waiting()), key=lambda c: c._active, default=None)
        if oldest is None:
            return False
        oldest._cancel()
        oldest.transport.close()
        return True

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._active = self.loop.time()
        if len(self.connections) > self.limits.max_connections and not self._make_room():
            transport.close()
            return
        self._enter("headers")

    def data_received(self, data: bytes) -> None:
        self._active = self.loop.time()
        super().data_received(data)
        self._follow()

    def on_response_complete(self) -> None:
        self._active = self.loop.time()
        self._enter(None)  # idle between requests: uvicorn's keep-alive timeout
        super().on_response_complete()
        if not self.transport.is_closing():
            self._follow()  # a pipelined request may have begun

    def connection_lost(self, exc: Exception | None) -> None:
        self._cancel()
        super().connection_lost(exc)
