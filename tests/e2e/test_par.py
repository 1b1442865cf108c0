"""Par at the table in the browser (issue 22.5), at a desktop (1280×720) and a phone
(390×844), in English and German: after a win the dialog says the deal's par beside the
moves taken ("Par 14 — you took 16"), "Show a par solution" steps through it with the
solution replay on a game that is not counted, the statistics keep the moves over par,
and during play the Par? link asks for it."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import expect

from eightoff.explain import par_message
from eightoff.i18n import Message, translate
from eightoff.position import Kind
from eightoff.solver import DEFAULT_LIMITS, Solved, solve
from eightoff.store import Store
from eightoff.table import Table
from eightoff.web.serialize import turns_json

from .conftest import DESKTOP, PHONE, Server, TablePage, _table
from .test_every_screen import STATS_FIT_JS
from .test_layout import start
from .test_links_and_keys import in_view

LOCALES = {"en": "en-GB", "de": "de-DE"}
SIZES: dict[str, tuple[dict[str, int], dict[str, Any]]] = {
    "desktop": (DESKTOP, {}),
    "phone": (PHONE, {"has_touch": True, "is_mobile": True, "device_scale_factor": 2}),
}
PAGE_WORDS = {
    "en": {
        "show": "Show a par solution",
        "heading": "Par solution",
        "step": "Step ▶",
        "play": "Play to end",
        "stats": "Stats",
        "replay_won": "The par solution is played: 14 moves.",
        "over": "Over par",
        "confirm": "Show the par solution",
    },
    "de": {
        "show": "Par-Lösung zeigen",
        "heading": "Par-Lösung",
        "step": "Schritt ▶",
        "play": "Bis zum Ende spielen",
        "stats": "Statistik",
        "replay_won": "Die Par-Lösung ist gespielt: 14 Züge.",
        "over": "Über Par",
        "confirm": "Par-Lösung zeigen",
    },
}


@pytest.fixture(params=["desktop-en", "phone-de", "desktop-de", "phone-en"])
def where(request: pytest.FixtureRequest) -> tuple[str, str]:
    size, lang = str(request.param).split("-")
    return size, lang


@pytest.fixture
def par_table(where: tuple[str, str], chromium_browser: Any, server: Server) -> Iterator[TablePage]:
    size, lang = where
    viewport, kw = SIZES[size]
    for table in _table(chromium_browser, server, viewport, locale=LOCALES[lang], **kw):
        table.open()
        yield table


def press(table: TablePage, keys: str) -> None:
    """Type a move on the keyboard as a player does: its source, then its target."""
    table.page.locator("#frame").focus()
    for key in keys:
        table.page.keyboard.press(key)


def words(table: TablePage, lang: str, key: str) -> str:
    """A word of the page, checked against the page's own catalogue."""
    said: str = table.page.evaluate("(k) => import('/static/js/i18n.js').then((m) => m.t(k))", key)
    return said


def near_the_win(table: TablePage, number: int) -> tuple[Table, Any, str]:
    """Deal ``number`` played through the store up to its last move made by hand (the
    solver's moves, no hint asked); the page shows it. Returns the service, the state and
    the last move's notation."""
    service = Table(Store(table.server.db))
    state = service.current()
    found = solve(state.position, DEFAULT_LIMITS)
    assert isinstance(found, Solved)
    steps = turns_json(state.position, found.moves)
    by_hand = [i for i, s in enumerate(steps) if s[0]["target"]["kind"] != "foundation"]
    last = by_hand[-1]
    for step in steps[:last]:
        state, _ = service.move(state.id, str(step[0]["notation"]), auto_move=len(step) > 1)
    final = state.position.parse_move(str(steps[last][0]["notation"]))
    assert final.target.kind is not Kind.FOUNDATION
    table.reload()
    table.wait_ready()
    return service, state, str(final)[:2]


def test_a_win_says_par_and_the_par_solution_replays(
    par_table: TablePage, where: tuple[str, str]
) -> None:
    size, lang = where
    table = par_table
    w = PAGE_WORDS[lang]
    start(table, {"variant": "eightoff", "deal": 2})
    service, state, last = near_the_win(table, 2)
    press(table, last)
    dialog = table.page.locator("#dlg-won")
    expect(dialog).to_be_visible(timeout=30_000)
    took = state.game.player_moves + 1
    assert took > 14  # the ordinary solver's moves, not the fewest
    said = translate(par_message(optimal=True, lower=14, upper=14, took=took), lang)
    assert said == (
        f"Par 14 — you took {took}" if lang == "en" else f"Par 14 – du hast {took} gebraucht"
    )
    expect(dialog.locator("#won-par")).to_have_text(said, timeout=30_000)
    expect(table.page.locator("#st-par")).to_have_text("Par 14")  # short: the moves are beside it
    expect(table.page.locator("#st-par")).to_have_attribute("title", said)
    table.screenshot(f"par-{size}-{lang}-won")

    # the par solution, step by step, on a game of its own
    dialog.get_by_role("button", name=w["show"], exact=True).click()
    expect(table.page.locator("#replay-heading")).to_have_text(w["heading"])
    assert words(table, lang, "par.replay_heading") == w["heading"]
    step = table.button(w["step"])
    for n in (1, 2, 3):
        step.click()
        expect(table.page.locator("#replay-info")).to_contain_text(f" {n} ")
    table.wait_ready()
    table.screenshot(f"par-{size}-{lang}-replay")
    table.button(w["play"]).click()
    expect(dialog).to_be_visible(timeout=60_000)
    expect(dialog.locator("#won-text")).to_have_text(w["replay_won"])
    title = translate(Message("par.is", par=14), lang)
    expect(dialog.locator("#won-par")).to_have_text(title, timeout=30_000)
    # the par solution was just watched: not offered again
    expect(dialog.locator("#btn-won-par-replay")).to_be_hidden()
    table.screenshot(f"par-{size}-{lang}-replay-won")
    dialog.locator("#btn-won-close").click()
    expect(table.page.locator("#btn-replay-back")).to_be_disabled()  # the game is over

    # the statistics: one game won (the replay is not counted), over par by took - 14
    stats = service.stats()["eightoff"]
    assert (stats.played, stats.won, stats.assisted) == (1, 1, 0)
    menu = table.page.locator("#btn-menu")
    if menu.is_visible() and menu.get_attribute("aria-expanded") != "true":
        menu.click()  # on a phone the links sit behind the menu
    table.button(w["stats"]).click()
    box = table.page.locator("#dlg-stats")
    expect(box).to_be_visible()
    over = took - 14
    value = "avg. {0} · best {0}" if lang == "en" else "Ø {0} · Bestwert {0}"
    expect(box.get_by_text(value.format(over), exact=True).first).to_be_visible()
    expect(box.get_by_text(w["over"], exact=True).first).to_be_visible()
    assert table.page.evaluate(STATS_FIT_JS) == []  # every column fits or wraps
    table.screenshot(f"par-{size}-{lang}-stats")


@pytest.mark.parametrize("where", [("desktop", "en"), ("phone", "de")])
def test_par_asked_during_play_and_its_solution_after_asking_to_leave(
    par_table: TablePage, where: tuple[str, str]
) -> None:
    size, lang = where
    table = par_table
    w = PAGE_WORDS[lang]
    game = start(table, {"variant": "eightoff", "deal": 3})
    service = Table(Store(table.server.db))
    service.move(game["id"], game["legal_moves"][0]["notation"])
    table.reload()
    table.wait_ready()
    asked = table.page.locator("#btn-par")
    expect(asked).to_have_text("Par?")
    table.screenshot(f"par-{size}-{lang}-before-asking")
    asked.click()
    expect(table.page.locator("#st-par")).to_have_text("Par 14", timeout=30_000)
    expect(asked).to_be_hidden()
    table.screenshot(f"par-{size}-{lang}-asked")
    table.page.locator("#btn-par-replay").click()
    confirm = table.page.locator("#dlg-confirm")
    expect(confirm).to_be_visible()
    expect(confirm.locator("#btn-confirm-ok")).to_have_text(w["confirm"])
    confirm.locator("#btn-confirm-ok").click()
    expect(table.page.locator("#replay-heading")).to_have_text(w["heading"])
    expect(table.moves_label).to_have_text(re.compile(r"\b0$"))
    table.button(w["step"]).click()
    expect(table.page.locator("#replay-info")).to_contain_text(" 1 ")
    table.wait_ready()
    table.screenshot(f"par-{size}-{lang}-asked-replay")
    # the game left counts as played (not won); the replay is not counted at all
    stats = service.stats()["eightoff"]
    assert (stats.played, stats.won) == (1, 0)


@pytest.mark.parametrize("where", [("desktop", "en"), ("phone", "de")])
def test_a_par_the_table_cannot_prove_shows_its_bounds_and_searches_longer(
    par_table: TablePage, where: tuple[str, str]
) -> None:
    """Where the table's limits (20 s, 512 MiB) do not prove par (FreeCell 37: not proven
    in 60 s on two threads and 4 GiB either), the status line says the bounds and its
    title the limit that stopped the search (the time here: A* expands partially before
    it would fill its 512 MiB; the memory on a machine where that comes first), play
    goes on meanwhile, and no par solution is offered. Where the time stopped it, the
    bounds are a link that searches six times as long ("Search longer"), and so is a
    button of the win dialog."""
    size, lang = where
    table = par_table
    page = table.page
    game = start(table, {"variant": "freecell", "deal": 37})
    page.locator("#btn-par").click()
    working = words(table, lang, "par.working")
    expect(page.locator("#st-par")).to_have_text(working)
    # play goes on while par is worked out: a move is answered at once
    service = Table(Store(table.server.db))
    first = game["legal_moves"][0]["notation"]
    press(table, first[:2])
    expect(table.moves_label).to_have_text(re.compile(r"\b1$"))
    assert service.get(game["id"]).game.player_moves == 1
    bounds = r"Par is \d+ to \d+" if lang == "en" else r"Par liegt zwischen \d+ und \d+"
    limit = (
        r" \(not proven( within 20 seconds|: the search filled its 512 MiB of memory)\)"
        if lang == "en"
        else r" \((in 20 Sekunden nicht bewiesen|nicht bewiesen: die Suche hat ihre 512 MiB"
        r" Speicher ausgeschöpft)\)"
    )
    shown = page.locator("#st-par, #btn-par-longer").locator("visible=true")
    # short in the status line (whole in its slot at either size), the words in full
    # its title and accessible name
    expect(shown).to_have_text(re.compile(r"^Par \d+–\d+$"), timeout=90_000)
    assert shown.evaluate("(e) => e.scrollWidth <= e.clientWidth")  # not cut
    expect(shown).to_have_attribute("title", re.compile(rf"^{bounds}{limit}"))
    expect(page.locator("#btn-par-replay")).to_be_hidden()
    table.screenshot(f"par-{size}-{lang}-freecell-bounds")
    if "512 MiB" in (shown.get_attribute("title") or ""):
        expect(page.locator("#btn-par-longer")).to_be_hidden()  # memory: no longer search
        return
    offer: str = page.evaluate(
        "(k) => import('/static/js/i18n.js').then((m) => m.t(k, { seconds: 120 }))",
        "par.longer_title",
    )
    link = page.locator("#btn-par-longer")
    expect(link).to_have_attribute("title", re.compile(rf"^{bounds}{limit}\. {re.escape(offer)}$"))
    expect(link).to_have_attribute("aria-label", re.compile(re.escape(offer)))
    assert in_view(link)  # whole in the play bar, at either size

    # won by hand: the dialog says the bounds kept and offers the longer search
    _, _, last = near_the_win(table, 37)
    press(table, last)
    dialog = page.locator("#dlg-won")
    expect(dialog).to_be_visible(timeout=30_000)
    # the dash as each language writes it (German: the spaced en dash)
    expect(dialog.locator("#won-par")).to_have_text(re.compile(rf"^{bounds} [—–] "))
    button = dialog.locator("#btn-won-par-longer")
    expect(button).to_have_text(words(table, lang, "par.longer"))
    expect(button).to_have_attribute("title", offer)
    expect(dialog.locator("#btn-won-par-replay")).to_be_hidden()
    table.screenshot(f"par-{size}-{lang}-freecell-bounds-won")
    button.click()  # the longer search starts (two minutes: not waited for here)
    expect(dialog.locator("#won-par")).to_have_text(working)
    expect(button).to_be_hidden()


# ----- the par key -------------------------------------------------------------------------
def test_the_par_key_asks_for_par_as_the_button_does_and_says_it(
    par_table: TablePage, where: tuple[str, str]
) -> None:
    """Shift+P (p alone plays a replay to its end): the keyboard help lists it, and on
    the table it asks for par as the Par? button does ("Working out par…", then "Par
    14" in the status line, read out); pressed again it says par again, in full."""
    size, lang = where
    table = par_table
    page = table.page
    start(table, {"variant": "eightoff", "deal": 3})
    # the keyboard help and the button name the key
    page.locator("#frame").focus()
    page.keyboard.press("?")
    keys = page.locator("#dlg-keys")
    expect(keys).to_be_visible()
    shift = {"en": "Shift", "de": "Umschalt"}[lang]  # the key's name on German keyboards
    row = keys.locator("tr", has=page.locator("th", has_text=f"{shift}+P"))
    expect(row.locator("td")).to_have_text(words(table, lang, "keys.par"))
    table.screenshot(f"par-{size}-{lang}-keys")
    page.keyboard.press("Escape")
    expect(keys).to_be_hidden()
    button = page.locator("#btn-par")
    expect(button).to_have_attribute("aria-keyshortcuts", "Shift+P")
    assert "+P)" in (button.get_attribute("title") or "")
    # the key asks: the status line works it out, then says it, read out as well
    page.locator("#frame").focus()
    page.keyboard.press("Shift+P")
    status = page.locator("#st-par")
    working = words(table, lang, "par.working")
    expect(status).to_have_text(re.compile(rf"^({re.escape(working)}|Par 14)$"))
    expect(status).to_have_text("Par 14", timeout=30_000)
    expect(button).to_be_hidden()
    expect(page.locator("#announce")).to_have_text("Par 14")
    expect(page.locator("#btn-par-replay")).to_be_visible()
    # asked again it is said again (the button is gone by now), over the status line too
    page.keyboard.press("Shift+P")
    expect(table.message).to_have_text("Par 14")
    table.screenshot(f"par-{size}-{lang}-key")
    # a lesson has no par: the key says so
    start(table, {"lesson": 1})
    page.locator("#frame").focus()
    page.keyboard.press("Shift+P")
    expect(table.message).to_have_text(words(table, lang, "par.lesson"))
    expect(status).to_be_hidden()


# ----- a win with auto-move off ------------------------------------------------------------
def test_a_win_with_auto_move_off_is_compared_with_par_as_par_counts_it(
    par_table: TablePage, where: tuple[str, str]
) -> None:
    """With auto-move off the counter counts every card home; par counts the safe ones
    free (safe auto-move on). The win dialog says the counter's moves, and par beside
    the moves as par counts them and what the counter showed; the statistics' over par
    and fewest moves are in par's count."""
    size, lang = where
    table = par_table
    service = Table(Store(table.server.db))
    service.put_settings({"auto_move": False})
    start(table, {"variant": "eightoff", "deal": 2})
    state = service.current()
    found = solve(state.position, DEFAULT_LIMITS)
    assert isinstance(found, Solved)
    *moves, last = found.moves
    for move in moves:  # one at a time: nothing goes home by itself
        state, _ = service.move(state.id, str(move))
    table.reload()
    table.wait_ready()
    assert last.target.kind is Kind.FOUNDATION
    press(table, str(last))
    dialog = table.page.locator("#dlg-won")
    expect(dialog).to_be_visible(timeout=30_000)
    won = service.get(state.id).game
    shown, as_par = won.player_moves, won.player_moves_as_par
    assert shown > as_par > 14
    moves_word = translate(Message("noun.move", n=shown), lang)
    expect(dialog.locator("#won-text")).to_contain_text(moves_word)
    said = translate(
        par_message(optimal=True, lower=14, upper=14, took=as_par, counter=shown), lang
    )
    assert str(shown) in said and str(as_par) in said
    expect(dialog.locator("#won-par")).to_have_text(said, timeout=30_000)
    expect(table.page.locator("#st-par")).to_have_text("Par 14")
    table.screenshot(f"par-{size}-{lang}-won-auto-off")
    dialog.locator("#btn-won-close").click()
    stats = service.stats()["eightoff"]
    assert stats.fewest_moves == as_par
    assert stats.over_par is not None and stats.over_par.best == as_par - 14


# ----- a par request that fails, asked again ---------------------------------------------
BUSY = {"error": "The table is busy: try again in a moment", "code": "busy"}
SHOT_SIZES = {
    "1280x720": DESKTOP,
    "1920x1080": {"width": 1920, "height": 1080},
    "390x844": PHONE,
    "844x390": {"width": 844, "height": 390},
}
"""The desktops and phones (upright and on its side) the par screenshots are taken at."""


def table_tops(table: TablePage) -> dict[str, float]:
    """Where the table begins (the play bar's bottom) at each screenshot size, the page's
    own size restored after."""
    page = table.page
    own = page.viewport_size
    tops: dict[str, float] = {}
    for size, viewport in SHOT_SIZES.items():
        page.set_viewport_size(viewport)
        tops[size] = page.evaluate(
            "() => document.querySelector('#table').getBoundingClientRect().top"
        )
    page.set_viewport_size(own)
    return tops


def shots(table: TablePage, name: str, where: tuple[str, str]) -> None:
    """Screenshots at the two sizes of the page's kind: a desktop's, or a phone's (upright
    and on its side, touch and its pixel ratio)."""
    kind, lang = where
    page = table.page
    own = page.viewport_size
    mine = ("1280x720", "1920x1080") if kind == "desktop" else ("390x844", "844x390")
    for size in mine:
        page.set_viewport_size(SHOT_SIZES[size])
        table.screenshot(f"par-{name}-{size}-{lang}")
    page.set_viewport_size(own)


def test_a_par_request_that_fails_can_be_asked_again(
    par_table: TablePage, where: tuple[str, str]
) -> None:
    """The par request fails (the server gone, then busy: 503): the status says so in
    one line and offers "Try par again", Shift+P asks again too; when it succeeds par
    shows as usual, and a par known is not asked for again. The play bar keeps its
    height throughout."""
    lang = where[1]
    table = par_table
    page = table.page
    start(table, {"variant": "eightoff", "deal": 3})
    heights = table_tops(table)
    asked: list[str] = []
    page.on("request", lambda r: asked.append(r.url) if "/par?" in r.url else None)
    failures = ["abort", "busy"]

    def fail_twice(route: Any) -> None:
        if not failures:
            route.fallback()
        elif failures.pop(0) == "abort":
            route.abort()
        else:
            route.fulfill(status=503, json=BUSY)

    page.route("**/api/games/*/par?*", fail_twice)
    retry = page.locator("#btn-par-retry")
    status = page.locator("#st-par")
    # the first try: no answer at all
    page.locator("#btn-par").click()
    expect(retry).to_be_visible()
    expect(retry).to_have_text(words(table, lang, "par.retry"))
    expect(page.locator("#btn-par")).to_be_hidden()
    expect(status).to_be_hidden()
    gone = page.evaluate(
        """() => import('/static/js/i18n.js').then(({ t }) => t('par.retry_title',
             { reason: t('par.unavailable', { error: t('par.no_contact') }) }))"""
    )
    expect(table.message).to_have_text(gone)
    assert "\n" not in table.message.inner_text()
    expect(page.locator("#announce")).to_have_text(gone)
    expect(retry).to_have_attribute("title", gone)
    expect(retry).to_have_accessible_name(gone)
    assert table_tops(table) == heights
    # Shift+P asks again: the server is busy this time
    page.locator("#frame").focus()
    page.keyboard.press("Shift+P")
    busy = page.evaluate(
        """(error) => import('/static/js/i18n.js').then(({ t }) =>
             t('par.retry_title', { reason: t('par.unavailable', { error }) }))""",
        BUSY["error"],
    )
    expect(retry).to_have_attribute("title", busy)
    expect(table.message).to_have_text(busy)
    assert len(asked) == 2
    shots(table, "retry", where)  # the message over the status, then the status itself
    page.evaluate("() => import('/static/js/ui.js').then((m) => m.hideMessage())")
    expect(retry).to_be_visible()
    assert in_view(retry)
    shots(table, "retry-link", where)
    assert table_tops(table) == heights
    # "Try par again" once more: the search answers
    retry.click()
    expect(status).to_have_text("Par 14", timeout=30_000)
    expect(retry).to_be_hidden()
    expect(page.locator("#btn-par-replay")).to_be_visible()
    assert "retry=true" in asked[2]  # the server searches anew what failed before
    assert table_tops(table) == heights
    shots(table, "retried", where)
    # known now: Shift+P says it again without asking
    count = len(asked)
    page.locator("#frame").focus()
    page.keyboard.press("Shift+P")
    expect(table.message).to_have_text("Par 14")
    assert len(asked) == count


# ----- Caps Lock -----------------------------------------------------------------------------
KEY_JS = """([key, shift]) => document.getElementById('frame').dispatchEvent(
  new KeyboardEvent('keydown', { key, shiftKey: shift, modifierCapsLock: true,
                                 bubbles: true, cancelable: true }))"""
"""A key as it arrives with Caps Lock on (headless chromium's Caps Lock is unreliable):
a letter in upper case without Shift, in lower case with it."""


@pytest.mark.parametrize("where", [("desktop", "en")])
def test_caps_lock_does_not_make_a_letter_a_shift_key(
    par_table: TablePage, where: tuple[str, str]
) -> None:
    """With Caps Lock on, p plays a replay to its end (it is not Shift+P, par), t asks
    for the first hint (not the solver's move, Shift+T) and h sends cards home (not the
    foundation question of Shift+H); with Shift they do what Shift does."""
    table = par_table
    page = table.page
    start(table, {"variant": "eightoff", "deal": 3, "foundation_retrieval": True})
    asked: list[str] = []
    page.on("request", lambda r: asked.append(r.url) if "/par?" in r.url else None)
    # t: the cards that can move, not the solver's move
    page.locator("#frame").focus()
    page.evaluate(KEY_JS, ["T", False])
    expect(table.message).to_have_text(re.compile(r"can move"))
    # h: home, not "Take back from which foundation?". Home is a request to the server:
    # its answer is awaited, or it could land after Shift+H's question and replace it
    page.evaluate(KEY_JS, ["H", False])
    expect(page.locator("#announce")).to_contain_text("No card can go home safely now")
    page.evaluate(KEY_JS, ["h", True])
    expect(page.locator("#announce")).to_contain_text("Take back from which")
    page.keyboard.press("Escape")
    # the solution replay: p (as "P") plays it, and no par is asked
    page.keyboard.press("s")
    play = page.locator("#btn-replay-play")
    # loaded: the next step is named (the replay's keys wait for the solution until then)
    expect(page.locator("#replay-next")).not_to_be_empty(timeout=30_000)
    expect(play).to_be_enabled()
    page.evaluate(KEY_JS, ["P", False])
    expect(play).to_have_text(words(table, "en", "replay.pause"))
    page.evaluate(KEY_JS, ["P", False])  # pressed again: it pauses, as p does
    expect(play).to_have_text(words(table, "en", "replay.play"))
    assert asked == []
    expect(page.locator("#btn-par")).to_be_visible()
    # Shift+P with Caps Lock on ("p" with Shift) is par, and the replay stays paused
    page.evaluate(KEY_JS, ["p", True])
    expect(page.locator("#st-par")).to_have_text("Par 14", timeout=30_000)
    expect(play).to_have_text(words(table, "en", "replay.play"))
    assert len(asked) >= 1
