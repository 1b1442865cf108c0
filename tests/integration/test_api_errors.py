"""Bad requests: every one is a 4xx JSON {"error", "code"} with a message, and the stored
game is unchanged (checked in memory and in a fresh app on the same database)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from eightoff.web.app import create_app

LOCAL = "http://127.0.0.1"  # a Host the table answers for

BOARD_KEYS = ("columns", "cells", "foundations", "player_moves", "turns", "can_redo", "status")


@pytest.fixture
def db(tmp_path: Path) -> Path:
    return tmp_path / "table.sqlite3"


@pytest.fixture
def client(db: Path) -> Iterator[TestClient]:
    # raise_server_exceptions=False: a bug must show up as a 500 answer, which these
    # tests reject, rather than as an exception inside the test client
    with TestClient(create_app(db), base_url=LOCAL, raise_server_exceptions=False) as c:
        yield c


@pytest.fixture
def game(client: TestClient) -> dict[str, Any]:
    r = client.post("/api/games", json={"deal": 1})
    g: dict[str, Any] = r.json()
    # one move made and undone: a redo stack to keep as well
    played = client.post(
        f"/api/games/{g['id']}/move", json={"move": g["legal_moves"][0]["notation"]}
    )
    assert played.status_code == 200
    undone = client.post(f"/api/games/{g['id']}/undo", json={})
    assert undone.status_code == 200
    return undone.json()  # type: ignore[no-any-return]


def snapshot(g: dict[str, Any]) -> dict[str, Any]:
    return {k: g[k] for k in BOARD_KEYS}


def assert_error(r: Any, status: int, code: str | None = None) -> dict[str, Any]:
    assert r.status_code == status, r.text
    body: dict[str, Any] = r.json()
    assert set(body) == {"error", "code"}, body
    assert isinstance(body["error"], str) and len(body["error"]) > 5
    if code is not None:
        assert body["code"] == code, body
    return body


def assert_unchanged(client: TestClient, db: Path, g: dict[str, Any]) -> None:
    now = client.get(f"/api/games/{g['id']}").json()
    assert snapshot(now) == snapshot(g)
    with TestClient(create_app(db), base_url=LOCAL) as fresh:
        stored = fresh.get(f"/api/games/{g['id']}").json()
    assert snapshot(stored) == snapshot(g)


# ----- moves -------------------------------------------------------------------------------
MOVE_BODIES_400: list[tuple[Any, str, str]] = [
    ({"move": "1a"}, "illegal_move", "Cell 1 is not empty"),
    ({"move": "3z"}, "bad_move", "not a place"),
    ({"move": "9a"}, "illegal_move", "There is no Column 9"),
    ({"move": ""}, "bad_move", "empty move"),
    ({"move": "1"}, "bad_move", "names a source and a target"),
    ({"move": "12x0"}, "bad_move", "count after 'x'"),
    ({"move": "12x99999999999999999999999999"}, "illegal_move", "has only"),
    ({"move": "h1a"}, "illegal_move", "stay there"),
    (
        {"source": {"kind": "column", "index": 99}, "target": {"kind": "cell", "index": 5}},
        "illegal_move",
        "There is no Column 100",
    ),
    (
        {"source": {"kind": "column", "index": 10**30}, "target": {"kind": "cell", "index": 5}},
        "illegal_move",
        "There is no Column",
    ),
    (
        {"source": {"kind": "column", "index": 0}, "target": {"kind": "cell", "index": 10**30}},
        "illegal_move",
        "There is no Cell",
    ),
    (
        {
            "source": {"kind": "column", "index": 0},
            "target": {"kind": "cell", "index": 5},
            "count": 0,
        },
        "illegal_move",
        "at least one card",
    ),
    (
        {
            "source": {"kind": "column", "index": 0},
            "target": {"kind": "cell", "index": 5},
            "count": -4,
        },
        "illegal_move",
        "at least one card",
    ),
    (
        {
            "source": {"kind": "column", "index": 0},
            "target": {"kind": "column", "index": 1},
            "count": 10**40,
        },
        "illegal_move",
        "has only",
    ),
    (
        {"source": {"kind": "cell", "index": 7}, "target": {"kind": "column", "index": 1}},
        "illegal_move",
        "Cell 8 is empty",
    ),
    (
        {"source": {"kind": "cell"}, "target": {"kind": "column", "index": 1}},
        "bad_move",
        "needs an index",
    ),
    (
        {"source": {"kind": "foundation", "index": 0}, "target": {"kind": "cell", "index": 5}},
        "illegal_move",
        "stay there",
    ),
    ({"source": {"kind": "column", "index": 0}}, "bad_move", "source"),
    ({"target": {"kind": "column", "index": 0}}, "bad_move", "source"),
    ({}, "bad_move", "source"),
    (
        {
            "move": "1e",
            "source": {"kind": "column", "index": 0},
            "target": {"kind": "cell", "index": 5},
        },
        "bad_move",
        "not both",
    ),
]


@pytest.mark.parametrize(("body", "code", "words"), MOVE_BODIES_400)
def test_bad_moves_are_400_with_the_reason(
    client: TestClient, db: Path, game: dict[str, Any], body: Any, code: str, words: str
) -> None:
    r = client.post(f"/api/games/{game['id']}/move", json=body)
    err = assert_error(r, 400, code)
    assert words in err["error"]
    assert_unchanged(client, db, game)


MOVE_BODIES_422: list[Any] = [
    {"move": 37},
    {"move": None, "source": "column 1", "target": "cell 1"},
    {"move": ["1", "a"]},
    {"move": "1a", "extra": 1},
    {"move": "x" * 100},
    {"source": {"kind": "heaven", "index": 0}, "target": {"kind": "cell", "index": 0}},
    {"source": {"kind": "column", "index": "2"}, "target": {"kind": "cell", "index": 0}},
    {"source": {"kind": "column", "index": 1.5}, "target": {"kind": "cell", "index": 0}},
    {"source": {"kind": "column", "index": True}, "target": {"kind": "cell", "index": 0}},
    {"source": {"index": 0}, "target": {"kind": "cell", "index": 0}},
    # counted from 0: -1 was refused as "There is no Column 0 to move from"
    {"source": {"kind": "column", "index": -1}, "target": {"kind": "cell", "index": 0}},
    {"source": {"kind": "column", "index": 0}, "target": {"kind": "cell", "index": -3}},
    {
        "source": {"kind": "column", "index": 0},
        "target": {"kind": "cell", "index": 0},
        "count": "2",
    },
    {"move": "1e", "auto": "yes"},
    [1, 2, 3],
    "1e",
    17,
    None,
]


@pytest.mark.parametrize("body", MOVE_BODIES_422)
def test_malformed_move_bodies_are_422(
    client: TestClient, db: Path, game: dict[str, Any], body: Any
) -> None:
    r = client.post(
        f"/api/games/{game['id']}/move",
        content=json.dumps(body),
        headers={"content-type": "application/json"},
    )
    assert_error(r, 422, "bad_request")
    assert_unchanged(client, db, game)


@pytest.mark.parametrize(
    "raw",
    [
        b"{bad json",
        b"",
        b'{"move": "1e"',
        b"\xff\xfe\x00",
        b"NaN",
        b"{}{}",
        b'{"source": {"kind": "column", "index": 0}, "target": {"kind": "cell", "index": 5},'
        b' "count": 1e400}',
        b'{"source": {"kind": "column", "index": 0}, "target": {"kind": "cell", "index": 5},'
        b' "count": NaN}',
        b'{"move": "1e", "auto": Infinity}',
    ],
)
def test_broken_json_is_422(client: TestClient, db: Path, game: dict[str, Any], raw: bytes) -> None:
    r = client.post(
        f"/api/games/{game['id']}/move", content=raw, headers={"content-type": "application/json"}
    )
    assert_error(r, 422, "bad_request")
    assert_unchanged(client, db, game)


def test_broken_json_says_so(client: TestClient, game: dict[str, Any]) -> None:
    r = client.post(
        f"/api/games/{game['id']}/move",
        content=b"{bad",
        headers={"content-type": "application/json"},
    )
    assert "not valid JSON" in assert_error(r, 422)["error"]


def test_wrong_types_say_which_field(client: TestClient, game: dict[str, Any]) -> None:
    r = client.post(f"/api/games/{game['id']}/move", json={"move": 37})
    assert assert_error(r, 422)["error"] == "move should be text"
    r = client.post(f"/api/games/{game['id']}/move", json={"move": "1e", "colour": "red"})
    assert "colour is not a field" in assert_error(r, 422)["error"]


# ----- game ids --------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("method", "path"),
    [
        ("GET", "/api/games/{gid}"),
        ("POST", "/api/games/{gid}/hint"),
        ("GET", "/api/games/{gid}/status"),
        ("POST", "/api/games/{gid}/solution"),
    ],
)
@pytest.mark.parametrize("gid", ["999", "0", "-5", "99999999999999999999999999999"])
def test_unknown_games_are_404(client: TestClient, method: str, path: str, gid: str) -> None:
    url = path.format(gid=gid)
    r = client.get(url) if method == "GET" else client.post(url, json={})
    assert_error(r, 404, "no_game")


@pytest.mark.parametrize("action", ["move", "undo", "redo", "restart", "auto"])
@pytest.mark.parametrize("gid", ["999", "99999999999999999999999999999"])
def test_actions_on_unknown_games_are_404(client: TestClient, action: str, gid: str) -> None:
    body = {"move": "1e"} if action == "move" else {}
    assert_error(client.post(f"/api/games/{gid}/{action}", json=body), 404, "no_game")


@pytest.mark.parametrize("gid", ["abc", "1.5", "1e3", "%20"])
def test_game_ids_that_are_not_numbers_are_422(client: TestClient, gid: str) -> None:
    assert_error(client.get(f"/api/games/{gid}"), 422, "bad_request")


# ----- undo / redo / hint ----------------------------------------------------------------------
def test_undo_at_the_start_and_redo_with_nothing_undone_are_409(
    client: TestClient, db: Path
) -> None:
    g = client.post("/api/games", json={"deal": 2}).json()
    assert_error(client.post(f"/api/games/{g['id']}/undo", json={}), 409, "nothing_to_undo")
    assert_error(client.post(f"/api/games/{g['id']}/redo", json={}), 409, "nothing_to_redo")
    assert_unchanged(client, db, g)


@pytest.mark.parametrize("level", [3, 0, "x", "1", 1.5, None, 10**40])
def test_bad_hint_levels(client: TestClient, game: dict[str, Any], level: Any) -> None:
    r = client.post(f"/api/games/{game['id']}/hint", json={"level": level})
    assert "level" in assert_error(r, 422, "bad_request")["error"]


def test_auto_with_a_bad_body(client: TestClient, db: Path, game: dict[str, Any]) -> None:
    r = client.post(f"/api/games/{game['id']}/auto", json={"complete": "please"})
    assert_error(r, 422, "bad_request")
    assert_unchanged(client, db, game)


# ----- new games --------------------------------------------------------------------------------
NEW_GAME_BAD: list[tuple[Any, int, str, str]] = [
    ({"variant": "spider"}, 400, "unknown_variant", "choose one of"),
    ({"variant": 8}, 422, "bad_request", "variant"),
    ({"deal": 0}, 400, "bad_deal", "out of range"),
    ({"deal": -7}, 400, "bad_deal", "out of range"),
    ({"deal": 10**20}, 400, "bad_deal", "numbered 1 to 99 999 999 999 999 999 999"),
    ({"deal": 10**60}, 400, "bad_deal", "out of range"),
    ({"deal": "12a"}, 400, "bad_deal", "not a number"),
    ({"deal": "-3"}, 400, "bad_deal", "not a number"),
    ({"deal": 1.5}, 422, "bad_request", "deal"),
    ({"deal": True}, 422, "bad_request", "deal"),
    ({"deal": [1]}, 422, "bad_request", "deal"),
    ({"lesson": 0}, 400, "bad_lesson", "lessons are 1 to 4"),
    ({"lesson": 5}, 400, "bad_lesson", "lessons are 1 to 4"),
    ({"lesson": "1"}, 422, "bad_request", "lesson"),
    ({"lesson": 1, "deal": 3}, 400, "bad_request", "not both"),
    ({"lesson": 1, "variant": "freecell"}, 400, "bad_request", "eightoff"),
    ({"winnable_only": "yes"}, 422, "bad_request", "winnable_only"),
    ({"board": {"columns": [["KS", "KS"]]}}, 400, "bad_board", "board"),
    ({"board": "Foundations: X-9"}, 400, "bad_board", "board"),
    ({"board": {"variant": "nope"}}, 400, "unknown_variant", "choose one of"),
    ({"board": 12}, 422, "bad_request", "board"),
    (
        {"board": {"columns": [], "foundations": {"C": 13, "S": 13, "H": 13, "D": 13}}},
        400,
        "bad_board",
        "already home",
    ),
    ({"board": {"columns": []}, "deal": 1}, 400, "bad_request", "not both"),
    ({"board": {"columns": [], "freecells": 2}}, 400, "bad_board", "'freecells' is not a field"),
    ({"strict_single": 1}, 422, "bad_request", "strict_single"),
    ({"colour": "blue"}, 422, "bad_request", "colour"),
]


@pytest.mark.parametrize(("body", "status", "code", "words"), NEW_GAME_BAD)
def test_bad_new_games_change_nothing(
    client: TestClient, game: dict[str, Any], body: Any, status: int, code: str, words: str
) -> None:
    r = client.post("/api/games", json=body)
    err = assert_error(r, status, code)
    assert words in err["error"]
    # the game in progress is still the current one, not abandoned
    current = client.get("/api/games/current").json()
    assert current["id"] == game["id"] and current["status"] == "playing"


# ----- settings ---------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("body", "status"),
    [
        ({"auto_move": "no"}, 422),
        ({"auto_move": 0}, 422),
        ({"sound": True}, 422),
        ({"variant": "spider"}, 400),
        ([True], 422),
    ],
)
def test_bad_settings_change_nothing(client: TestClient, body: Any, status: int) -> None:
    before = client.get("/api/settings").json()
    assert_error(client.put("/api/settings", json=body), status)
    assert client.get("/api/settings").json() == before


# ----- routes -----------------------------------------------------------------------------------
def test_unknown_paths_and_methods_are_json(client: TestClient, game: dict[str, Any]) -> None:
    assert_error(client.get("/api/nothing"), 404, "not_found")
    assert_error(client.get(f"/api/games/{game['id']}/move"), 405, "method_not_allowed")
    r = client.delete("/api/settings", headers={"content-type": "application/json"})
    assert_error(r, 405, "method_not_allowed")


# ----- anything at all -------------------------------------------------------------------------
json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(min_value=-(10**30), max_value=10**30)
    | st.floats(allow_nan=False)
    | st.text(max_size=12),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4)
    ),
    max_leaves=12,
)
place_like = st.fixed_dictionaries(
    {},
    optional={
        "kind": st.sampled_from(["column", "cell", "foundation", "home", ""]) | json_values,
        "index": st.integers(min_value=-3, max_value=12) | st.none() | json_values,
    },
)
move_like = st.fixed_dictionaries(
    {},
    optional={
        "move": st.text(alphabet="0123456789abcdefghix ", max_size=8) | json_values,
        "source": place_like,
        "target": place_like,
        "count": st.integers(min_value=-2, max_value=8) | json_values,
        "auto": st.booleans() | json_values,
    },
)


@settings(
    max_examples=150,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
@given(body=move_like | json_values)
def test_no_move_body_makes_the_server_answer_500(
    client: TestClient, game: dict[str, Any], body: Any
) -> None:
    r = client.post(
        f"/api/games/{game['id']}/move",
        content=json.dumps(body),
        headers={"content-type": "application/json"},
    )
    assert r.status_code < 500, r.text
    if r.status_code >= 400:
        assert set(r.json()) == {"error", "code"}
    else:  # a legal move: take it back so the next example starts from the same game
        assert client.post(f"/api/games/{game['id']}/undo", json={}).status_code == 200


@settings(
    max_examples=100,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
@given(
    body=st.fixed_dictionaries(
        {},
        optional={
            "variant": st.sampled_from(["eightoff", "freecell", "x"]) | json_values,
            "deal": st.integers(min_value=-5, max_value=10**21) | json_values,
            "lesson": st.integers(min_value=-1, max_value=6) | json_values,
            "board": json_values,
            "winnable_only": st.just(False) | json_values,
        },
    )
    | json_values
)
def test_no_new_game_body_makes_the_server_answer_500(client: TestClient, body: Any) -> None:
    if isinstance(body, dict) and body.get("winnable_only") is not False:
        body["winnable_only"] = False  # keep the solver out of it
    r = client.post(
        "/api/games", content=json.dumps(body), headers={"content-type": "application/json"}
    )
    assert r.status_code < 500, r.text
    if r.status_code >= 400:
        assert set(r.json()) == {"error", "code"}


def test_head_of_a_page_is_answered_like_its_get(client: TestClient) -> None:
    """A link checker asks HEAD /: it was 405."""
    for path in ("/", "/rules"):
        get, head = client.get(path), client.head(path)
        assert head.status_code == get.status_code == 200
        assert head.headers["content-type"] == get.headers["content-type"] and not head.content
