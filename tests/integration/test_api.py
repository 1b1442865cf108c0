"""The web table's JSON API: games, moves, undo/redo/restart, auto, lessons, settings, stats.

Bad requests are in test_api_errors.py; solver-backed endpoints in test_api_solver.py; a
real server killed with SIGKILL in test_api_restart.py.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from eightoff.boards import to_json
from eightoff.deals import deal
from eightoff.explain import lesson_text
from eightoff.game import Game
from eightoff.lessons import LESSONS
from eightoff.rules import PRESETS
from eightoff.web.app import create_app

LOCAL = "http://127.0.0.1"  # a Host the table answers for


@pytest.fixture
def db(tmp_path: Path) -> Path:
    return tmp_path / "table.sqlite3"


@pytest.fixture
def client(db: Path) -> Iterator[TestClient]:
    with TestClient(create_app(db), base_url=LOCAL) as c:
        yield c


def new_game(client: TestClient, **body: Any) -> dict[str, Any]:
    r = client.post("/api/games", json=body)
    assert r.status_code == 200, r.text
    return r.json()  # type: ignore[no-any-return]


def move(client: TestClient, gid: int, **body: Any) -> dict[str, Any]:
    r = client.post(f"/api/games/{gid}/move", json=body)
    assert r.status_code == 200, r.text
    return r.json()  # type: ignore[no-any-return]


def post(client: TestClient, path: str) -> dict[str, Any]:
    r = client.post(path, json={})
    assert r.status_code == 200, r.text
    return r.json()  # type: ignore[no-any-return]


# ----- reference data ----------------------------------------------------------------------
def test_variants_list_every_preset_with_its_formula(client: TestClient) -> None:
    variants = client.get("/api/variants").json()
    assert [v["id"] for v in variants] == list(PRESETS)
    eight = variants[0]
    assert eight["name"] == "Eight Off"
    assert (eight["cells"], eight["columns"], eight["foundations"]) == (8, 8, 4)
    assert eight["formula"] == "free cells + one"
    assert "build down in suit" in eight["rules"]
    double = next(v for v in variants if v["id"] == "double-freecell")
    assert double["foundations"] == 8


def test_lessons_list_in_order(client: TestClient) -> None:
    lessons = client.get("/api/lessons").json()
    assert [les["id"] for les in lessons] == [1, 2, 3, 4]
    assert [les["title"] for les in lessons] == [lesson_text(les).title for les in LESSONS]
    assert lessons[0]["guidance"] and lessons[3]["next"] is None


# ----- a game ----------------------------------------------------------------------------------
def test_new_game_shows_the_deal(client: TestClient) -> None:
    g = new_game(client, variant="eightoff", deal=1)
    expected = to_json(deal("eightoff", 1))
    assert g["columns"] == expected["columns"]
    assert g["cells"] == expected["cells"]
    assert [f["suit"] for f in g["foundations"]] == ["C", "S", "H", "D"]
    assert all(f["top"] == 0 and f["card"] is None for f in g["foundations"])
    assert g["deal"] == 1 and g["variant_name"] == "Eight Off" and g["lesson"] is None
    assert (g["player_moves"], g["can_undo"], g["can_redo"], g["won"], g["lost"]) == (
        0,
        False,
        False,
        False,
        False,
    )
    assert g["group_limit"] == {
        "cards": 5,
        "words": "5 cards: 4 empty cells + 1",
        "formula": "free cells + one",
        "to_empty_column": 5,
        "to_empty_column_words": "5 cards: 4 empty cells + 1",
    }
    assert g["legal_moves"] and g["last_turn"] is None
    m = g["legal_moves"][0]
    assert set(m) == {"notation", "card", "count", "source", "target", "text"}


def test_new_game_as_string_deal_and_other_variants(client: TestClient) -> None:
    g = new_game(client, variant="freecell", deal="11982")
    assert g["deal"] == 11982 and len(g["cells"]) == 4 and g["cells"] == [None] * 4
    # a browser's numbers are exact to 2^53 - 1: past it the deal comes back as its digits
    assert new_game(client, deal=2**53 - 1)["deal"] == 2**53 - 1
    assert new_game(client, deal=str(2**53))["deal"] == str(2**53)
    assert new_game(client, deal="12345678901234567891")["deal"] == "12345678901234567891"
    assert g["group_limit"]["formula"] == "(free cells + one) × 2 per empty column"
    d = new_game(client, variant="double-freecell", deal=3)
    assert len(d["foundations"]) == 8 and len(d["columns"]) == 10


def test_random_deals_have_a_number(client: TestClient) -> None:
    g = new_game(client, winnable_only=False)
    assert isinstance(g["deal"], int) and 1 <= g["deal"] <= 10**9
    again = client.get(f"/api/games/{g['id']}").json()
    dealt = deal("eightoff", g["deal"])
    while (m := dealt.safe_auto_move()) is not None:  # auto-move is on: safe cards go home
        dealt = dealt.apply_unchecked(m)
    assert again["columns"] == to_json(dealt)["columns"]


def test_rule_options(client: TestClient) -> None:
    g = new_game(client, variant="freecell", deal=1, strict_single=True)
    assert g["options"]["strict_single"] is True
    assert g["group_limit"]["words"] == "1 card: single-card moves only"


def test_move_by_notation_and_by_places(client: TestClient) -> None:
    g = new_game(client, deal=1)
    gid = g["id"]
    first = g["legal_moves"][0]
    after = move(client, gid, move=first["notation"])
    assert after["player_moves"] >= 1 and after["can_undo"]
    assert after["last_turn"][0]["notation"] == first["notation"]
    assert after["last_turn"][0]["text"] == first["text"]
    second = after["legal_moves"][-1]
    again = move(
        client, gid, source=second["source"], target=second["target"], count=second["count"]
    )
    assert again["last_turn"][0]["notation"] == second["notation"]
    assert again["turns"] == 2


def test_the_move_answer_is_the_stored_game(client: TestClient) -> None:
    g = new_game(client, deal=2)
    after = move(client, g["id"], move=g["legal_moves"][0]["notation"])
    fetched = client.get(f"/api/games/{g['id']}").json()
    for key in ("columns", "cells", "foundations", "player_moves", "can_undo", "legal_moves"):
        assert fetched[key] == after[key]


def test_move_home_names_the_foundation(client: TestClient) -> None:
    g = new_game(client, lesson=1)
    client.put("/api/settings", json={"auto_move": False})
    after = move(client, g["id"], move="12")  # 10♥ onto J♥ exposes the 2♠
    assert len(after["last_turn"]) == 1
    home = next(m for m in after["legal_moves"] if m["notation"] == "1h")
    assert home["target"] == {"kind": "foundation", "index": 1}  # ♠ is foundation 2
    assert home["card"] == "2S" and home["text"] == "2♠ from Column 1 home"
    done = move(
        client,
        g["id"],
        source={"kind": "column", "index": 0},
        target={"kind": "foundation", "index": None},
    )
    assert done["foundations"][1] == {"suit": "S", "top": 2, "card": "2S"}


def test_a_move_to_a_named_foundation_is_stored_and_comes_back(db: Path) -> None:
    with TestClient(create_app(db), base_url=LOCAL) as c:
        g = new_game(c, lesson=1)
        c.put("/api/settings", json={"auto_move": False})
        move(c, g["id"], move="12")
        done = move(
            c,
            g["id"],
            source={"kind": "column", "index": 0},
            target={"kind": "foundation", "index": 1},
        )
    with TestClient(create_app(db), base_url=LOCAL) as c:
        back = c.get(f"/api/games/{g['id']}").json()
        assert back["foundations"] == done["foundations"] and back["turns"] == 2


def test_auto_moves_follow_the_move_and_are_undone_with_it(client: TestClient) -> None:
    g = new_game(client, lesson=1)
    after = move(client, g["id"], move="12")
    notations = [m["notation"] for m in after["last_turn"]]
    assert notations[0] == "12" and "1h" in notations and len(notations) > 5
    assert after["cells"] == [None] * 8  # the spades in the cells went home
    # one player move: the cards safe auto-move sent home are free
    assert after["player_moves"] == 1 and after["single_card_moves"] == len(notations)
    back = post(client, f"/api/games/{g['id']}/undo")
    assert back["columns"] == g["columns"] and back["cells"] == g["cells"]
    assert [m["notation"] for m in back["undone_turn"]] == notations


def test_auto_move_setting_and_per_move_override(client: TestClient) -> None:
    g = new_game(client, lesson=1)
    s = client.put("/api/settings", json={"auto_move": False}).json()
    assert s["auto_move"] is False
    one = move(client, g["id"], move="12")
    assert len(one["last_turn"]) == 1 and one["auto_move"] is False
    post(client, f"/api/games/{g['id']}/undo")
    forced = move(client, g["id"], move="12", auto=True)
    assert len(forced["last_turn"]) > 1


def test_undo_redo_restart(client: TestClient) -> None:
    g = new_game(client, deal=4)
    gid = g["id"]
    boards = [g]
    for _ in range(3):
        boards.append(move(client, gid, move=boards[-1]["legal_moves"][-1]["notation"]))
    u1 = post(client, f"/api/games/{gid}/undo")
    assert u1["columns"] == boards[2]["columns"] and u1["can_redo"]
    u2 = post(client, f"/api/games/{gid}/undo")
    assert u2["cells"] == boards[1]["cells"]
    r1 = post(client, f"/api/games/{gid}/redo")
    assert r1["columns"] == boards[2]["columns"] and r1["last_turn"] is not None
    start = post(client, f"/api/games/{gid}/restart")
    assert start["columns"] == g["columns"] and start["player_moves"] == 0
    assert start["can_redo"] and not start["can_undo"]
    for expected in boards[1:3]:
        assert post(client, f"/api/games/{gid}/redo")["columns"] == expected["columns"]
    # a new move cuts the redo stack
    cut = move(client, gid, move=boards[2]["legal_moves"][0]["notation"])
    assert not cut["can_redo"]


def test_auto_sends_safe_cards_home_in_one_turn(client: TestClient) -> None:
    g = new_game(client, lesson=1)
    client.put("/api/settings", json={"auto_move": False})
    move(client, g["id"], move="12")
    r = client.post(f"/api/games/{g['id']}/auto", json={"complete": False})
    assert r.status_code == 200, r.text
    done = r.json()
    assert done["last_turn"][0]["notation"] == "1h"
    assert done["cells"] == [None] * 8
    again = client.post(f"/api/games/{g['id']}/auto", json={})
    assert again.status_code == 409 and again.json()["code"] == "nothing_to_do"
    back = post(client, f"/api/games/{g['id']}/undo")
    assert back["cells"][0] == "3S"


def test_auto_completes_a_certain_win_in_one_turn(client: TestClient) -> None:
    board = {
        "variant": "eightoff",
        "columns": [["KS", "QS", "JH"], ["KH", "QH"], ["JS"]],
        "cells": ["TS", None, None, None, None, None, None, None],
        "foundations": {"C": 13, "S": 9, "H": 10, "D": 13},
    }
    g = new_game(client, board=board)
    assert g["can_auto_complete"] and g["deal"] is None
    done = client.post(f"/api/games/{g['id']}/auto", json={}).json()
    assert done["won"] and done["finished"] and done["status"] == "won"
    assert len(done["last_turn"]) == 7
    r = client.post(f"/api/games/{g['id']}/undo", json={})
    assert r.status_code == 409 and r.json()["code"] == "game_over"


def test_custom_board_as_fcs_text(client: TestClient) -> None:
    text = "Foundations: H-T C-K D-K S-9\nFreecells: TS - - - - - - -\n: KS QS JH\n: KH QH\n: JS\n"
    g = new_game(client, board=text, variant="eightoff")
    assert g["cells"][0] == "TS" and g["columns"][2] == ["JS"]


def test_current_game(client: TestClient) -> None:
    r = client.get("/api/games/current")
    assert r.status_code == 404 and r.json()["code"] == "no_game"
    a = new_game(client, deal=1)
    assert client.get("/api/games/current").json()["id"] == a["id"]
    b = new_game(client, deal=2)
    assert client.get("/api/games/current").json()["id"] == b["id"]
    old = client.get(f"/api/games/{a['id']}").json()
    assert old["status"] == "abandoned" and old["finished"]
    # an abandoned game can still be resumed by id; it stays out of "current"
    r = client.post(f"/api/games/{a['id']}/move", json={"move": a["legal_moves"][0]["notation"]})
    assert r.status_code == 200 and r.json()["status"] == "abandoned"
    assert client.get("/api/games/current").json()["id"] == b["id"]


def test_a_reopened_app_brings_back_the_game_exactly(db: Path) -> None:
    with TestClient(create_app(db), base_url=LOCAL) as c:
        g = new_game(c, deal=6)
        gid = g["id"]
        last = g
        for _ in range(4):
            last = move(c, gid, move=last["legal_moves"][-1]["notation"])
        last = post(c, f"/api/games/{gid}/undo")
    with TestClient(create_app(db), base_url=LOCAL) as c:
        back = c.get("/api/games/current").json()
        assert back["id"] == gid
        for key in ("columns", "cells", "foundations", "player_moves", "can_redo", "turns"):
            assert back[key] == last[key]
        redone = post(c, f"/api/games/{gid}/redo")
        assert redone["turns"] == 4


# ----- lessons -------------------------------------------------------------------------------
@pytest.mark.parametrize("les", LESSONS, ids=lambda les: f"lesson{les.id}")
def test_each_lesson_can_be_completed_through_the_api(client: TestClient, les: Any) -> None:
    g = new_game(client, lesson=les.id)
    assert g["lesson"] == les.id and g["deal"] is None
    assert g["lesson_info"]["title"] == lesson_text(les).title and not g["lesson_done"]
    for text in les.walkthrough:
        g = move(client, g["id"], move=text)
    assert g["lesson_done"] and g["won"] and g["status"] == "won"
    assert g["lesson_info"]["next"] == (les.id + 1 if les.id < 4 else None)
    # lessons never count in the statistics
    assert client.get("/api/stats").json()["eightoff"]["played"] == 0


def test_lesson_illegal_tries_say_why(client: TestClient) -> None:
    g = new_game(client, lesson=4)
    r = client.post(f"/api/games/{g['id']}/move", json={"move": "24"})
    assert r.status_code == 400
    assert r.json() == {"error": "Only a King may fill an empty column", "code": "illegal_move"}
    g3 = new_game(client, lesson=3)
    r = client.post(
        f"/api/games/{g3['id']}/move",
        json={
            "source": {"kind": "column", "index": 0},
            "target": {"kind": "column", "index": 1},
            "count": 4,
        },
    )
    assert r.status_code == 400
    assert r.json()["error"] == "Only 3 cards can move: 2 empty cells + 1"


# ----- settings and stats ---------------------------------------------------------------------
def test_settings_defaults_and_changes_persist(db: Path) -> None:
    with TestClient(create_app(db), base_url=LOCAL) as c:
        assert c.get("/api/settings").json() == {
            "auto_move": True,
            "winnable_only": False,
            "language": None,
            "hint_solver_first": False,
            "large_cards": False,
            "four_colour": False,
        }
        s = c.put("/api/settings", json={"winnable_only": True, "variant": "freecell"}).json()
        assert s == {
            "auto_move": True,
            "winnable_only": True,
            "variant": "freecell",
            "language": None,
            "hint_solver_first": False,
            "large_cards": False,
            "four_colour": False,
        }
    with TestClient(create_app(db), base_url=LOCAL) as c:
        assert c.get("/api/settings").json()["winnable_only"] is True


def test_display_and_hint_settings_survive_a_restart(db: Path) -> None:
    """Issue 23.8 and 23.11: the solver's hint first, large cards, four-colour suits."""
    on = {"hint_solver_first": True, "large_cards": True, "four_colour": True}
    with TestClient(create_app(db), base_url=LOCAL) as c:
        assert c.put("/api/settings", json=on).json().items() >= on.items()
        r = c.put("/api/settings", json={"large_cards": "very"})
        assert r.status_code == 422 and "large_cards" in r.json()["error"]
    with TestClient(create_app(db), base_url=LOCAL) as c:
        assert c.get("/api/settings").json().items() >= on.items()


def test_a_game_lists_each_columns_run(client: TestClient) -> None:
    """The page says at once that cards which are not a run cannot move together (23.7)."""
    game = client.post("/api/games", json={"variant": "eightoff", "deal": 1}).json()
    dealt = Game.new("eightoff", 1)
    dealt.auto_home()  # as the table deals it (auto-move on)
    pos = dealt.position
    assert [[str(c) for c in col] for col in pos.columns] == game["columns"]
    assert game["runs"] == [pos.run_length(i) for i in range(len(pos.columns))]


def test_stats_count_played_won_and_streaks(client: TestClient) -> None:
    stats = client.get("/api/stats").json()
    assert set(stats) == set(PRESETS)
    assert stats["eightoff"] == {
        "variant": "eightoff",
        "name": "Eight Off",
        "house_rules": [],
        "played": 0,
        "won": 0,
        "assisted": 0,
        "win_rate": 0.0,
        "streak": 0,
        "best_streak": 0,
        "fewest_moves": None,
        "hints": 0,
        "levels": {},
        "over_par": None,  # no game won whose par is proven
    }
    g = new_game(client, deal=1)
    move(client, g["id"], move=g["legal_moves"][0]["notation"])
    assert client.get("/api/stats").json()["eightoff"]["played"] == 1
    new_game(client, deal=2)  # abandons game 1
    st = client.get("/api/stats").json()["eightoff"]
    assert (st["played"], st["won"], st["streak"]) == (1, 0, 0)


# ----- pages -----------------------------------------------------------------------------------
def test_openapi_and_local_docs(client: TestClient) -> None:
    spec = client.get("/openapi.json").json()
    assert "/api/games/{game_id}/move" in spec["paths"]
    docs = client.get("/docs")
    assert docs.status_code == 200 and "/api/games" in docs.text
    assert "cdn" not in docs.text.lower() and "https://" not in docs.text


def test_server_timing_header(client: TestClient) -> None:
    r = client.get("/api/variants")
    parts = dict(p.strip().split(";dur=") for p in r.headers["server-timing"].split(","))
    assert set(parts) == {"app", "handler", "cpu"}
    assert all(float(v) >= 0 for v in parts.values())
    page = client.get("/openapi.json")  # not an API endpoint: the total only
    assert page.headers["server-timing"].startswith("app;dur=")


def test_index_and_rules_pages_or_a_json_404(client: TestClient) -> None:
    from eightoff.web.routes.pages import STATIC_DIR

    for path, name in (("/", "index.html"), ("/rules", "rules.html")):
        r = client.get(path)
        if (STATIC_DIR / name).is_file():
            assert r.status_code == 200 and r.headers["content-type"].startswith("text/html")
        else:
            assert r.status_code == 404 and r.json()["code"] == "not_found"
    r = client.get("/static/no-such-file.js")
    assert r.status_code == 404 and r.json()["code"] == "not_found"


@pytest.mark.parametrize("lang", ["en", "de"])
def test_every_file_a_page_names_is_served(client: TestClient, lang: str) -> None:
    """The German rules page once named /static/rules.js (a 404): its print button did
    nothing. Every script, style sheet and link to /static/ in each page loads."""
    import re

    for path in ("/", "/rules"):
        page = client.get(path, params={"lang": lang})
        assert page.status_code == 200
        named = set(re.findall(r'(?:src|href)="(/static/[^"#?]+)', page.text))
        assert named, path
        for url in sorted(named):
            assert client.get(url).status_code == 200, (path, lang, url)


def test_every_rule_option_can_be_chosen_for_a_new_game(client: TestClient) -> None:
    from eightoff.rules import Rules

    for name in Rules.OPTIONS:
        value: bool | int = 5 if name == "cells" else True  # Eight Off: 4 to 8 cells
        g = new_game(client, deal=3, **{name: value})
        assert g["options"][name] == value
        assert set(g["options"]) == set(Rules.OPTIONS)
