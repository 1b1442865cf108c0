"""A property-based fuzz of the whole API from its own OpenAPI document (schemathesis):
whatever a client sends to any endpoint, the answer is never a 500."""

from __future__ import annotations

import tempfile
from pathlib import Path
from typing import Any

import schemathesis
from hypothesis import HealthCheck, settings
from schemathesis.checks import not_a_server_error
from schemathesis.python import asgi

from eightoff.web.app import create_app

DB = Path(tempfile.mkdtemp(prefix="eightoff-fuzz-")) / "fuzz.sqlite3"

app = create_app(
    DB,
    hosts=[asgi.HOST],  # the test client's Host
    status_seconds=0.05,
    hint_seconds=0.1,
    deal_seconds=0.02,
    winnable_tries=2,
    winnable_budget=0.1,
)
schema = schemathesis.openapi.from_asgi("/openapi.json", app)


@schema.parametrize()
@settings(
    max_examples=30,
    deadline=None,
    suppress_health_check=list(HealthCheck),
)
def test_no_request_makes_the_server_answer_500(case: schemathesis.Case[Any]) -> None:
    case.call_and_validate(
        checks=[not_a_server_error], headers={"content-type": "application/json"}
    )
