"""The API client most table tests use: a fresh database, generous solver limits."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from eightoff.web.app import create_app

LOCAL = "http://127.0.0.1"  # a Host the table answers for


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    app = create_app(tmp_path / "t.sqlite3", status_seconds=20, hint_seconds=30)
    with TestClient(app, base_url=LOCAL) as c:
        yield c
