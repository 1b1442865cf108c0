"""The move notation has one table, the engine's: the page's scripts import it from the
server (``/static/js/notation.js``) instead of keeping a copy."""

from __future__ import annotations

import re

from fastapi.testclient import TestClient

from eightoff.position import CELL_LABELS, COLUMN_LABELS, GROUP_MARK, HOME_LABEL, Move
from eightoff.web.routes.pages import STATIC_DIR


def test_the_page_gets_the_engines_notation_from_the_server(client: TestClient) -> None:
    r = client.get("/static/js/notation.js")
    assert r.status_code == 200 and "javascript" in r.headers["content-type"]
    consts = dict(re.findall(r'export const (\w+) = "([^"]*)";', r.text))
    assert consts == {
        "COLUMN_KEYS": COLUMN_LABELS,
        "CELL_KEYS": CELL_LABELS,
        "HOME_KEY": HOME_LABEL,
        "GROUP_MARK": GROUP_MARK,
    }
    assert "export function placeNotation(kind, index)" in r.text
    # what the page types is what the engine reads
    assert str(Move.parse(COLUMN_LABELS[2] + CELL_LABELS[0])) == "3a"


def test_no_script_of_the_page_keeps_its_own_copy_of_the_notation() -> None:
    scripts = sorted((STATIC_DIR / "js").glob("*.js"))
    assert scripts and not (STATIC_DIR / "js" / "notation.js").exists()
    for path in scripts:
        text = path.read_text("utf-8")
        for table in (COLUMN_LABELS, CELL_LABELS):
            assert table not in text, f"{path.name} keeps a copy of {table!r}"
    users = [p.name for p in scripts if 'from "./notation.js"' in p.read_text("utf-8")]
    assert users == ["draw.js", "input.js"]
