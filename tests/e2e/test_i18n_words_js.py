"""The table's renderer (static/locales/words.js), run in chromium: it says what the
engine says (card names, places, plurals) in both languages, and the browser's language
chooses unless the player chose."""

from __future__ import annotations

import mimetypes
import os
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import eightoff
from eightoff.cards import deck
from eightoff.i18n import LANGUAGES, words
from eightoff.position import HOME, Place

STATIC = Path(eightoff.__file__).parent / "web" / "static"
CHROMIUM = shutil.which("chromium")
ORIGIN = "http://eightoff.test"

pytestmark = pytest.mark.skipif(
    CHROMIUM is None and not os.environ.get("CI"),
    reason="no chromium (apt-get install -y chromium); CI runs these",
)


@pytest.fixture(scope="module")
def page(chromium_browser: Any) -> Iterator[Any]:
    """A blank page that serves the static files (the session's chromium, as every
    browser test uses: a second Playwright instance in one process is refused)."""
    from playwright.sync_api import Route

    def serve(route: Route) -> None:
        path = route.request.url.removeprefix(ORIGIN)
        if path == "/":
            route.fulfill(body="<!doctype html><title>words</title>", content_type="text/html")
            return
        file = STATIC / path.removeprefix("/static/")
        if not path.startswith("/static/") or not file.is_file():
            route.fulfill(status=404, body="")
            return
        kind = mimetypes.guess_type(file.name)[0] or "application/octet-stream"
        route.fulfill(body=file.read_bytes(), content_type=kind)

    context = chromium_browser.new_context()
    pg = context.new_page()
    pg.route(f"{ORIGIN}/**", serve)
    pg.goto(f"{ORIGIN}/")
    yield pg
    context.close()


def js(page: Any, body: str, arg: Any = None) -> Any:
    """Run ``body`` with ``w`` (the words.js module) and ``arg`` in scope."""
    return page.evaluate(
        f"async (arg) => {{ const w = await import('/static/locales/words.js'); {body} }}", arg
    )


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_table_names_cards_and_places_as_the_engine_does(page: Any, lang: str) -> None:
    cards = [str(c) for c in deck()]
    table = js(
        page,
        """const words = await w.loadWords(arg.lang);
        return {
          names: arg.cards.map((c) => words.cardName(c)),
          symbols: arg.cards.map((c) => words.cardSymbol(c)),
          places: [{kind: "column", index: 2}, {kind: "cell", index: 7},
                   {kind: "foundation", index: 0}, {kind: "foundation", index: null}]
                  .map((p) => words.placeTitle(p)),
          counts: [0, 1, 2, 21].map((n) => words.t("noun.card", {n})),
        };""",
        {"lang": lang, "cards": cards},
    )
    engine = words(lang)
    assert table["names"] == [engine.card_name(c) for c in deck()]
    assert table["symbols"] == [engine.card_symbol(c) for c in deck()]
    places = [Place.column(2), Place.cell(7), Place.foundation(0), HOME]
    assert table["places"] == [engine.place(p) for p in places]
    assert table["counts"] == [engine.text("noun.card", n=n) for n in (0, 1, 2, 21)]


AGAIN = "Drücke noch einmal „Tipp“ für den Zug des Lösers."


def test_the_tables_messages_in_german(page: Any) -> None:
    said = js(
        page,
        """const de = await w.loadWords("de");
        return [
          de.t("status.moves", {n: 12}),
          de.t("hint.can_move", {n: 1}),
          de.t("hint.can_move", {n: 4}),
          de.t("replay.progress", {i: 2, n: 5, moves: de.t("noun.move", {n: 9})}),
          de.rankLetter("JH") + de.rankLetter("QH") + de.rankLetter("KH"),
        ];""",
    )
    assert said == [
        "Züge: 12",
        "1 Karte kann bewegt werden (markiert). " + AGAIN,
        "4 Karten können bewegt werden (markiert). " + AGAIN,
        "Schritt 2 von 5 (insgesamt 9 Züge)",
        "BDK",
    ]


def test_a_missing_parameter_is_an_error_not_a_blank(page: Any) -> None:
    error = js(
        page,
        """const en = await w.loadWords("en");
        try { en.t("status.moves", {}); return null; } catch (e) { return e.message; }""",
    )
    assert error == "message status.moves: no parameter n"


def test_the_browsers_language_chooses_and_a_remembered_choice_wins(page: Any) -> None:
    picked = js(
        page,
        """const store = new Map();
        const storage = {getItem: (k) => store.get(k) ?? null, setItem: (k, v) => store.set(k, v)};
        const out = [
          w.pickLanguage(["de-DE", "en-US"], storage),
          w.pickLanguage(["fr-FR", "en"], storage),
          w.pickLanguage(["fr-FR"], storage),
        ];
        w.rememberLanguage("de", storage);
        out.push(w.pickLanguage(["en-US"], storage));
        return out;""",
    )
    assert picked == ["de", "en", "en", "de"]
