"""The number of free cells from the command line and the web API: the game dealt,
solved, stored and named with it; a number the variant cannot take is one clear line."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from eightoff.cli.exits import EX_LOST
from eightoff.web.app import create_app
from tests.cli import run_cli as run

LOCAL = "http://127.0.0.1:8765"


def test_deal_and_solve_with_fewer_cells(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "deal", "1", "--variant", "freecell", "--cells", "2")
    assert code == 0
    assert "FreeCell, 2 cells · deal #1" in out and "Cells a: ·  b: ·" in out
    # Pringle: Microsoft deal 1 needs 3 cells
    code, out, _ = run(capsys, "solve", "1", "--variant", "freecell", "--cells", "2", "--json")
    assert code == EX_LOST and json.loads(out)["verdict"] == "lost"
    code, out, _ = run(capsys, "solve", "1", "--variant", "freecell", "--cells", "3", "--json")
    assert code == 0 and json.loads(out)["verdict"] == "solved"


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--variant", "eightoff", "--cells", "3"], "Eight Off can be played with 4 to 8 free"),
        (["--variant", "freecell", "--cells", "9"], "9 cells: a game has 0 to 8 free cells"),
        (["--variant", "freecell", "--cells", "two"], "'two' is not a number of cells"),
        (["--variant", "freecell", "--cells", "٣"], "'٣' is not a number of cells"),
    ],
)
def test_a_number_of_cells_the_variant_cannot_take_is_one_line(
    capsys: pytest.CaptureFixture[str], args: list[str], message: str
) -> None:
    code, out, err = run(capsys, "deal", "1", *args)
    assert code == 64 and out == ""
    assert message in err and len(err.strip().splitlines()) == 1 and "Traceback" not in err


def test_memory_limit_is_read_and_refused_clearly(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "solve", "2", "--variant", "freecell", "--memory", "64M", "--json")
    assert code == 0 and json.loads(out)["verdict"] == "solved"
    code, _, err = run(capsys, "solve", "2", "--memory", "lots")
    assert code == 64 and "'lots' is not a memory size" in err


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with TestClient(create_app(tmp_path / "t.sqlite3"), base_url=LOCAL) as c:
        yield c


def test_the_web_table_deals_with_fewer_cells_and_names_them(
    client: TestClient,
) -> None:
    r = client.post("/api/games", json={"variant": "freecell", "deal": 5, "cells": 2})
    assert r.status_code == 200, r.text
    g = r.json()
    assert g["variant_name"] == "FreeCell, 2 cells" and g["options"]["cells"] == 2
    assert g["cells_changed"] is True
    assert g["cells"] == [None, None]
    de = client.get("/api/games/current", headers={"Accept-Language": "de"}).json()
    assert de["variant_name"] == "FreeCell, 2 Zellen"
    bad = client.post("/api/games", json={"variant": "eightoff", "deal": 5, "cells": 2})
    assert bad.status_code == 400 and "4 to 8 free cells" in bad.json()["error"]
    too_many = client.post("/api/games", json={"variant": "freecell", "cells": 9})
    assert too_many.status_code == 422 and "cells" in too_many.text
    eo = next(v for v in client.get("/api/variants").json() if v["id"] == "eightoff")
    assert (eo["cells"], eo["least_cells"]) == (8, 4)
