"""The table's refusals speak the player's language: a German table (its requests carry
``Accept-Language: de``, as the page sends the player's choice) gets every "no" in German:
nothing to undo, a move after the game is over, a stale revision, no such game, a deal
number out of range; the security layer's 403/413, a database that cannot be used (503)
and a field of the wrong type (422) too. An English (or unknown-language) request keeps the
English words."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient

from eightoff.i18n import Lang, Message, translate
from eightoff.web.app import create_app
from eightoff.web.security import MAX_BODY

GERMAN = {"Accept-Language": "de-DE,de;q=0.9,en;q=0.5"}
ENGLISH = {"Accept-Language": "en-GB,en;q=0.9"}
BOTH: list[tuple[dict[str, str], Lang]] = [(GERMAN, "de"), (ENGLISH, "en")]

# one card from the win: the King of Diamonds alone in column 1
ONE_FROM_WIN = {
    "variant": "eightoff",
    "columns": [["KD"]],
    "cells": [],
    "foundations": {"C": 13, "S": 13, "H": 13, "D": 12},
}


def start(client: TestClient, **body: Any) -> dict[str, Any]:
    r = client.post("/api/games", json=body)
    assert r.status_code == 200, r.text
    game: dict[str, Any] = r.json()
    return game


def refused(r: Any, status: int, code: str) -> str:
    assert r.status_code == status, r.text
    answer = r.json()
    assert answer["code"] == code, answer
    text: str = answer["error"]
    return text


def test_undo_at_the_start_is_refused_in_german(client: TestClient) -> None:
    g = start(client, variant="eightoff", deal=1)
    r = client.post(f"/api/games/{g['id']}/undo", json={}, headers=GERMAN)
    text = refused(r, 409, "nothing_to_undo")
    assert text == "Nichts rückgängig zu machen: das ist der Anfang des Spiels"
    r = client.post(f"/api/games/{g['id']}/undo", json={}, headers=ENGLISH)
    assert refused(r, 409, "nothing_to_undo") == "Nothing to undo: this is the deal's start"


def test_redo_with_nothing_undone_is_refused_in_german(client: TestClient) -> None:
    g = start(client, variant="eightoff", deal=1)
    r = client.post(f"/api/games/{g['id']}/redo", json={}, headers=GERMAN)
    assert refused(r, 409, "nothing_to_redo") == "Nichts zu wiederholen"


def test_a_move_after_the_game_is_won_is_refused_in_german(client: TestClient) -> None:
    g = start(client, board=ONE_FROM_WIN)
    r = client.post(f"/api/games/{g['id']}/move", json={"move": "1h"}, headers=GERMAN)
    assert r.status_code == 200 and r.json()["won"], r.text
    for action, body in (("move", {"move": "1h"}), ("undo", {}), ("auto", {})):
        r = client.post(f"/api/games/{g['id']}/{action}", json=body, headers=GERMAN)
        assert refused(r, 409, "game_over") == "Dieses Spiel ist vorbei: starte ein neues"
    # the hint on a won game too
    r = client.post(f"/api/games/{g['id']}/hint", json={"level": 2}, headers=GERMAN)
    assert refused(r, 409, "game_over") == "Das Spiel ist gewonnen: kein Tipp nötig"


def test_a_stale_revision_is_refused_in_german_with_the_game_as_it_is(
    client: TestClient,
) -> None:
    g = start(client, variant="eightoff", deal=1)
    moved = client.post(f"/api/games/{g['id']}/move", json={"move": "b8", "revision": 0})
    assert moved.status_code == 200, moved.text
    # a second window still shows revision 0
    r = client.post(f"/api/games/{g['id']}/undo", json={"revision": 0}, headers=GERMAN)
    assert refused(r, 409, "stale") == "Dieses Spiel wurde in einem anderen Fenster geändert"
    assert r.json()["game"]["revision"] == 1
    # the game as sent with it speaks German too (its variant's rules)
    assert r.json()["game"]["language"] == "de"


def test_no_such_game_and_a_deal_out_of_range_in_german(client: TestClient) -> None:
    r = client.post("/api/games/9999/undo", json={}, headers=GERMAN)
    assert refused(r, 404, "no_game") == "Es gibt kein Spiel 9999"
    r = client.post("/api/games", json={"variant": "eightoff", "deal": 0}, headers=GERMAN)
    text = refused(r, 400, "bad_deal")
    assert text.startswith("Spielnummer 0 liegt außerhalb des Bereichs"), text
    r = client.post("/api/games", json={"variant": "eightoff", "deal": 0})
    assert refused(r, 400, "bad_deal").startswith("deal number 0 is out of range"), r.text


def test_the_web_layers_own_refusals_speak_german(client: TestClient) -> None:
    r = client.get("/api/nowhere", headers=GERMAN)
    assert refused(r, 404, "not_found") == "Unter /api/nowhere gibt es nichts"
    r = client.get("/api/games/1/undo", headers=GERMAN)
    assert refused(r, 405, "method_not_allowed") == "GET ist auf /api/games/1/undo nicht erlaubt"
    r = client.post(
        "/api/games",
        content=b"{not json",
        headers={**GERMAN, "Content-Type": "application/json"},
    )
    assert refused(r, 422, "bad_request").startswith("Der Inhalt der Anfrage ist kein gültiges")
    r = client.post(
        "/api/games", json={"variant": "eightoff", "deal": 1, "nonsense": 1}, headers=GERMAN
    )
    assert "ist kein Feld dieser Anfrage" in refused(r, 422, "bad_request")


@pytest.mark.parametrize("header", ["fr-FR,fr;q=0.9", ""])
def test_a_language_without_words_gets_english(client: TestClient, header: str) -> None:
    g = start(client, variant="eightoff", deal=1)
    r = client.post(f"/api/games/{g['id']}/undo", json={}, headers={"Accept-Language": header})
    assert refused(r, 409, "nothing_to_undo") == translate(Message("error.nothing_to_undo"), "en")


def test_a_difficulty_that_cannot_be_dealt_is_refused_in_german(client: TestClient) -> None:
    body = {"variant": "eightoff", "difficulty": "legendary"}
    text = refused(client.post("/api/games", json=body, headers=GERMAN), 400, "bad_request")
    assert text == (
        "Unbekannte Schwierigkeit 'legendary'; wähle eine von: "
        "Leicht; Mittel; Schwer; Experte; Großmeister"
    )
    # the names that refusal offers are taken, in either language
    for name in ("Leicht", "großmeister", "Expert"):
        body = {"variant": "eightoff", "difficulty": name}
        r = client.post("/api/games", json=body, headers=GERMAN)
        assert r.status_code == 200, r.text
    body = {"variant": "eightoff", "difficulty": "Nicht gewinnbar"}
    text = refused(client.post("/api/games", json=body, headers=GERMAN), 400, "bad_request")
    assert text.endswith("nicht „Nicht gewinnbar“"), text
    body = {"variant": "eightoff", "difficulty": "not winnable"}
    text = refused(client.post("/api/games", json=body, headers=GERMAN), 400, "bad_request")
    assert text.endswith("nicht „Nicht gewinnbar“"), text
    text = refused(client.post("/api/games", json=body), 400, "bad_request")
    assert text == "a new game can be Easy; Medium; Hard; Expert; Grandmaster, not 'Not winnable'"


# ----- the security layer, the store, the request's fields -------------------------------------
@pytest.mark.parametrize(("language", "lang"), BOTH)
def test_the_security_layers_refusals_speak_the_requests_language(
    client: TestClient, language: dict[str, str], lang: Lang
) -> None:
    r = client.get("/api/variants", headers={**language, "host": "evil.example"})
    said = refused(r, 403, "forbidden")
    assert said == translate(Message("error.unknown_host", host="'evil.example'"), lang)
    r = client.post("/api/games", content=b"{}", headers={**language, "content-type": "text/plain"})
    assert refused(r, 403, "forbidden") == translate(Message("error.json_only"), lang)
    r = client.post("/api/games", json={}, headers={**language, "origin": "http://evil.example"})
    assert refused(r, 403, "forbidden") == translate(Message("error.other_site"), lang)
    big = b"[" + b"1," * MAX_BODY + b"1]"
    r = client.post(
        "/api/games", content=big, headers={**language, "content-type": "application/json"}
    )
    said = refused(r, 413, "too_large")
    assert said == translate(Message("error.too_large", limit=MAX_BODY), lang)
    assert str(MAX_BODY) in said


def test_the_security_layers_refusals_in_german_words(client: TestClient) -> None:
    r = client.get("/api/variants", headers={**GERMAN, "host": "evil.example"})
    assert (
        refused(r, 403, "forbidden") == "Dieser Tisch antwortet nicht unter dem Host 'evil.example'"
    )
    r = client.post("/api/games", json={}, headers={**GERMAN, "origin": "http://evil.example"})
    assert (
        refused(r, 403, "forbidden") == "Anfragen von einer anderen Website werden nicht angenommen"
    )
    big = b"x" * (MAX_BODY + 1)
    r = client.post(
        "/api/games", content=big, headers={**GERMAN, "content-type": "application/json"}
    )
    assert refused(r, 413, "too_large") == "Der Inhalt der Anfrage ist größer als 262144 Bytes"
    # English words stay English
    r = client.post("/api/games", json={}, headers={**ENGLISH, "origin": "http://evil.example"})
    assert refused(r, 403, "forbidden") == "Requests from another site are not accepted"


@pytest.fixture
def token_client(tmp_path: Path) -> Iterator[TestClient]:
    app = create_app(tmp_path / "t.sqlite3", hosts=["192.0.2.7"], port=8123, token="s3cret")
    with TestClient(app, base_url="http://192.0.2.7:8123") as c:
        yield c


@pytest.mark.parametrize(("language", "lang"), BOTH)
def test_a_missing_token_is_refused_in_the_requests_language(
    token_client: TestClient, language: dict[str, str], lang: Lang
) -> None:
    said = refused(token_client.get("/api/variants", headers=language), 403, "forbidden")
    assert said == translate(Message("error.token_needed"), lang)
    if lang == "de":
        assert said.startswith("Dieser Tisch braucht seinen Zugangsschlüssel: öffne"), said
    # with the token the same request is answered
    r = token_client.get("/api/variants?token=s3cret", headers=language)
    assert r.status_code == 200, r.text


@pytest.mark.parametrize(("language", "lang"), BOTH)
def test_a_database_that_cannot_be_used_is_503_in_the_players_language(
    client: TestClient, language: dict[str, str], lang: Lang
) -> None:
    app = client.app
    assert isinstance(app, FastAPI)
    app.state.services.table.store.close()  # as if the file went away under the table
    r = client.get("/api/settings", headers=language)
    said = refused(r, 503, "store")
    assert said == translate(Message("error.store"), lang)
    # the cause (English, for whoever runs the server) is beside the sentence, not in it
    detail = r.json()["detail"]
    assert "t.sqlite3" in detail and "--db" in detail
    assert "sqlite3" not in said and "--db" not in said
    if lang == "de":
        assert said.startswith("Der Tisch kann seine Spiele nicht lesen oder speichern"), said


@pytest.mark.parametrize(("language", "lang"), BOTH)
def test_a_field_of_the_wrong_type_is_named_in_the_requests_language(
    client: TestClient, language: dict[str, str], lang: Lang
) -> None:
    r = client.post(
        "/api/games",
        json={"variant": "eightoff", "deal": 1, "winnable_only": "yes"},
        headers=language,
    )
    said = refused(r, 422, "bad_request")
    assert said == (
        "winnable_only muss true oder false sein"
        if lang == "de"
        else "winnable_only should be true or false"
    )


@pytest.mark.parametrize(("language", "lang"), BOTH)
def test_what_a_field_should_be_is_said_in_the_requests_language(
    client: TestClient, language: dict[str, str], lang: Lang
) -> None:
    """A field of two types is one field, not one per type; its limits are said too."""
    expected = {
        "de": [
            "deal muss eine ganze Zahl oder ein Text sein",
            "deal muss eine ganze Zahl oder ein Text von höchstens 32 Zeichen sein",
            "variant muss ein Text von höchstens 64 Zeichen sein",
        ],
        "en": [
            "deal should be a whole number or text",
            "deal should be a whole number or text of at most 32 characters",
            "variant should be text of at most 64 characters",
        ],
    }[lang]
    bodies = [{"deal": 1.5}, {"deal": "x" * 40}, {"variant": "v" * 100}]
    for body, sentence in zip(bodies, expected, strict=True):
        assert (
            refused(client.post("/api/games", json=body, headers=language), 422, "bad_request")
            == sentence
        )
    r = client.put("/api/settings", json={"language": "fr"}, headers=language)
    assert refused(r, 422, "bad_request") == (
        "language muss 'en' oder 'de' sein" if lang == "de" else "language should be 'en' or 'de'"
    )
    game = client.post("/api/games", json={"deal": 1}, headers=language).json()
    r = client.post(f"/api/games/{game['id']}/hint", json={"revision": -1}, headers=language)
    assert refused(r, 422, "bad_request") == (
        "revision muss mindestens 0 sein" if lang == "de" else "revision should be at least 0"
    )


def test_a_board_that_cannot_be_read_is_refused_in_german(client: TestClient) -> None:
    """A board's refusal spoke English whatever the request's language."""
    body = {"board": "Foundations: H-0\n: xx"}
    text = refused(client.post("/api/games", json=body, headers=GERMAN), 400, "bad_board")
    assert text.startswith("Stellung: Zeile 2: ") and "keine Karte" in text, text
    text = refused(client.post("/api/games", json=body), 400, "bad_board")
    assert text.startswith("board: line 2: 'xx' is not a card"), text


def test_a_lesson_or_deal_out_of_range_is_refused_in_german(client: TestClient) -> None:
    """'there is no lesson 9' was English whatever the request's language, and a deal of
    32 digits was 'not a number' rather than out of range."""
    text = refused(client.post("/api/games", json={"lesson": 9}, headers=GERMAN), 400, "bad_lesson")
    assert text == "es gibt keine Lektion 9: die Lektionen sind 1 bis 4"
    body = {"deal": "9" * 32}
    text = refused(client.post("/api/games", json=body, headers=GERMAN), 400, "bad_deal")
    assert "außerhalb des Bereichs" in text and "99 999 999 999 999 999 999" in text, text
