"""End-to-end fixtures: a real server in a subprocess, Debian's chromium driven by Playwright.

The tests skip (one line saying how to get a browser) only when no chromium can start
here and ``CI`` is not set; in CI a missing browser is a failure. Screenshots go to
``test-artifacts/screenshots/``, which git ignores: a test run leaves the work tree as it
found it.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from eightoff.cards import Card, deck
from eightoff.i18n import words
from eightoff.position import Kind, Move, Place, Position

ROOT = Path(__file__).resolve().parents[2]
SHOTS = ROOT / "test-artifacts" / "screenshots"
CHROMIUM = shutil.which("chromium")
LAUNCH_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
DESKTOP = {"width": 1280, "height": 720}
PHONE = {"width": 390, "height": 844}


def _not_launchable() -> str | None:
    """Why chromium cannot run these tests here (None when it can): not installed, or
    installed but unable to start headless (a missing library, a broken install)."""
    if CHROMIUM is None:
        return "no chromium (apt-get install -y chromium); CI runs these"
    try:
        subprocess.run(
            [CHROMIUM, *LAUNCH_ARGS, "--dump-dom", "about:blank"],
            capture_output=True,
            timeout=60,
            check=True,
        )
    except (OSError, subprocess.SubprocessError) as e:
        return (
            f"chromium ({CHROMIUM}) does not start headless ({type(e).__name__});"
            " reinstall it (apt-get install --reinstall -y chromium); CI runs these"
        )
    return None


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    here = Path(__file__).parent
    ours = [item for item in items if here in Path(str(item.fspath)).parents]
    # in CI a browser that cannot start is a failure, not a skip
    why = None if not ours or os.environ.get("CI") else _not_launchable()
    for item in ours:
        item.add_marker(pytest.mark.e2e)
        if why is not None:
            item.add_marker(pytest.mark.skip(reason=why))


# ----- the server ------------------------------------------------------------------------
def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


TOKEN = re.compile(rb"the table is at http://127\.0\.0\.1:\d+/\?token=([A-Za-z0-9_-]+)")


class Server:
    """``python -m eightoff.web.server`` on a loopback port with its own database. Its
    access token is read from the line it prints; :meth:`page_url` carries it, as the
    address ``eightoff play`` opens does."""

    def __init__(self, db: Path, log: Path) -> None:
        self.db = db
        self.log_path = log
        self.port = free_port()
        self.proc: subprocess.Popen[bytes] | None = None
        self.token = ""

    def page_url(self, path: str = "/") -> str:
        """``path`` on this server with ``token=…`` in its query (before any ``#``)."""
        path, hash_mark, fragment = path.partition("#")
        joiner = "&" if "?" in path else "?"
        return f"{self.url}{path}{joiner}token={self.token}{hash_mark}{fragment}"

    @property
    def headers(self) -> dict[str, str]:
        return {"Authorization": f"token {self.token}"}

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> None:
        log = self.log_path.open("ab")
        self.proc = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "eightoff.web.server",
                "--port",
                str(self.port),
                "--db",
                str(self.db),
                "--no-browser",
            ],
            stdout=log,
            stderr=subprocess.STDOUT,
            cwd=ROOT,
        )
        log.close()
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"the server exited: {self.log_path.read_text()}")
            found = TOKEN.findall(self.log_path.read_bytes())
            if not found:
                time.sleep(0.1)
                continue
            self.token = found[-1].decode()
            try:
                with urllib.request.urlopen(
                    urllib.request.Request(f"{self.url}/api/variants", headers=self.headers),
                    timeout=2,
                ) as r:
                    if r.status == 200:
                        return
            except (urllib.error.URLError, ConnectionError, TimeoutError):
                pass
            time.sleep(0.1)
        raise RuntimeError(f"the server did not start: {self.log_path.read_text()}")

    def kill(self) -> None:
        """SIGKILL: no shutdown handler runs, as when the machine loses power."""
        assert self.proc is not None
        os.kill(self.proc.pid, signal.SIGKILL)
        self.proc.wait(timeout=10)

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(timeout=10)

    def get(self, path: str) -> Any:
        ask = urllib.request.Request(f"{self.url}{path}", headers=self.headers)
        with urllib.request.urlopen(ask, timeout=30) as r:
            return json.load(r)


@pytest.fixture
def server(tmp_path: Path) -> Iterator[Server]:
    srv = Server(tmp_path / "games.sqlite3", tmp_path / "server.log")
    srv.start()
    try:
        yield srv
    finally:
        srv.stop()


# ----- the browser -----------------------------------------------------------------------
@pytest.fixture(scope="session")
def chromium_browser() -> Iterator[Any]:
    if CHROMIUM is None:
        pytest.fail("chromium is not installed (apt-get install -y chromium) and CI is set")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        b = pw.chromium.launch(executable_path=CHROMIUM, args=LAUNCH_ARGS)
        try:
            yield b
        finally:
            b.close()


def shot(page: Any, name: str) -> Path:
    """Save a screenshot once the cards have stopped moving."""
    page.wait_for_function(
        """() => document.getAnimations().every((a) =>
             a.playState !== 'running' || a.effect.getComputedTiming().iterations === Infinity)"""
    )
    SHOTS.mkdir(parents=True, exist_ok=True)
    path = SHOTS / f"{name}.png"
    page.screenshot(path=str(path))
    return path


class TablePage:
    """The table in a browser tab, with the steps the tests take."""

    def __init__(self, page: Any, server: Server) -> None:
        self.page = page
        self.server = server
        self.errors: list[str] = []
        page.on("pageerror", lambda e: self.errors.append(str(e)))

    # navigation
    def open(self, path: str = "/") -> None:
        self.page.goto(self.server.page_url(path))
        self.page.wait_for_selector("body[data-ready=true]", timeout=30_000)

    def reload(self) -> None:
        self.page.reload()
        self.page.wait_for_selector("body[data-ready=true]", timeout=30_000)

    # locators
    def button(self, name: str) -> Any:
        return self.page.get_by_role("button", name=name, exact=True)

    def place(self, title: str) -> Any:
        return self.page.get_by_role("group", name=title, exact=True)

    def card(self, name: str) -> Any:
        return self.page.get_by_role("button", name=name, exact=True)

    @property
    def moves_label(self) -> Any:
        return self.page.locator("#st-moves")

    @property
    def message(self) -> Any:
        return self.page.locator("#message")

    @property
    def verdict(self) -> Any:
        return self.page.locator("#st-verdict")

    # actions
    def show_options(self) -> None:
        """On a phone the deal controls sit behind the Menu button."""
        menu = self.button("Menu")
        if menu.is_visible() and menu.get_attribute("aria-expanded") != "true":
            menu.click()

    def open_deal(self, number: int, variant: str | None = None) -> None:
        if variant is not None:
            self.show_options()
            self.page.locator("#variant").select_option(variant)
            self.confirm_if_asked()
            self.wait_ready()
        self.show_options()
        self.page.get_by_label("Deal number").fill(str(number))
        self.button("Open deal").click()
        self.confirm_if_asked()
        self.expect_text("#st-deal", re.compile(rf"^Deal {number} · "))
        self.wait_ready()

    def confirm_if_asked(self) -> None:
        dialog = self.page.locator("#dlg-confirm")
        try:
            dialog.wait_for(state="visible", timeout=700)
        except Exception:
            return
        self.page.locator("#btn-confirm-ok").click()  # "Deal a new game", "Open deal 5", ...

    def wait_ready(self) -> None:
        """No request in flight and the board drawn."""
        self.page.wait_for_function("() => document.body.dataset.busy !== 'true'", timeout=30_000)

    def expect_text(self, selector: str, text: Any, timeout: float = 15_000) -> None:
        from playwright.sync_api import expect

        expect(self.page.locator(selector)).to_have_text(text, timeout=timeout)

    def expect_moves(self, n: int) -> None:
        self.expect_text("#st-moves", f"Moves: {n}")

    def pick_up(self, name: str, *, tap: bool = False) -> None:
        """Click (or tap) a card on its index strip, the part a covered card shows."""
        card = self.card(name)
        card.wait_for(state="visible", timeout=15_000)  # the board may still be drawing
        # the card's size from the element itself: a board drawn again between a look and
        # bounding_box() gave None once (a CI run); tap() and click() wait for it to settle
        size = card.evaluate(
            "(e) => { const r = e.getBoundingClientRect(); return [r.width, r.height]; }"
        )
        where = {"x": size[0] / 2, "y": min(8.0, size[1] / 4)}
        if tap:
            card.tap(position=where)
        else:
            card.click(position=where)

    def click_move(self, pos: Position, move: Move, *, tap: bool = False) -> None:
        """Play ``move`` by clicking its card and then its target."""
        self.pick_up(move_card_name(pos, move), tap=tap)
        target = self.place(pos.resolve_target(move).title)
        if tap:
            target.tap()
        else:
            target.click()

    def drag_move(self, pos: Position, move: Move, steps: int = 8) -> None:
        """Play ``move`` by dragging its card onto its target with the mouse."""
        self.drag(move_card_name(pos, move), pos.resolve_target(move).title, steps)

    def drag(self, card_name: str, target_title: str, steps: int = 8) -> None:
        src = self.card(card_name).bounding_box()
        dst = self.place(target_title).bounding_box()
        assert src is not None and dst is not None
        mouse = self.page.mouse
        mouse.move(src["x"] + src["width"] / 2, src["y"] + min(src["height"], 30) / 2)
        mouse.down()
        # drop near the top of the target place (a column's box reaches down the table)
        mouse.move(dst["x"] + dst["width"] / 2, dst["y"] + min(dst["height"], 60) / 2, steps=steps)
        mouse.up()

    def touch_drag(self, card_name: str, target_title: str, steps: int = 8) -> None:
        """Drag with a finger (touch events through the DevTools protocol)."""
        src = self.card(card_name).bounding_box()
        dst = self.place(target_title).bounding_box()
        assert src is not None and dst is not None
        x0, y0 = src["x"] + src["width"] / 2, src["y"] + min(src["height"], 30) / 2
        x1, y1 = dst["x"] + dst["width"] / 2, dst["y"] + min(dst["height"], 60) / 2
        cdp = self.page.context.new_cdp_session(self.page)
        cdp.send(
            "Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": [{"x": x0, "y": y0}]}
        )
        for i in range(1, steps + 1):
            x = x0 + (x1 - x0) * i / steps
            y = y0 + (y1 - y0) * i / steps
            cdp.send(
                "Input.dispatchTouchEvent", {"type": "touchMove", "touchPoints": [{"x": x, "y": y}]}
            )
        cdp.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})
        cdp.detach()

    def board(self) -> dict[str, list[Any]]:
        """What the table shows: card names per column, cell and foundation."""
        shown: dict[str, list[Any]] = self.page.evaluate(
            """() => {
              const names = (el) => [...el.querySelectorAll('.card:not(.under)')]
                .map((c) => c.getAttribute('aria-label'));
              const q = (s) => [...document.querySelectorAll('#board ' + s)];
              return {
                columns: q('.place.column').map(names),
                cells: q('.place.cell').map((p) => names(p)[0] ?? null),
                foundations: q('.place.foundation').map((p) => names(p)[0] ?? null),
              };
            }"""
        )
        return shown

    def wait_board(self, pos: Position, timeout: float = 15_000) -> None:
        """Wait until the table shows exactly ``pos``."""
        want = board_of(pos)
        deadline = time.monotonic() + timeout / 1000
        while True:
            got = self.board()
            if got == want:
                return
            if time.monotonic() > deadline:
                assert got == want
            self.page.wait_for_timeout(50)

    def screenshot(self, name: str) -> Path:
        return shot(self.page, name)


def spoken(text: str, lang: str = "en") -> str:
    """A text as the live region says it: each card's symbol ("2♥", German "D♠") by its
    name ("2 of Hearts", "Pik-Dame"), as the page's ui.js say() does."""
    w = words(lang)
    for card in deck():
        text = re.sub(rf"(?<![\w]){re.escape(w.card_symbol(card))}", w.card_name(card), text)
    return text


def move_card_name(pos: Position, move: Move) -> str:
    """The name of the card to click for ``move``: the deepest card of the moved group."""
    return pos.moving_card(move).name


def board_of(pos: Position) -> dict[str, list[Any]]:
    """What the table should show for a position (names from the engine's Card.name)."""
    return {
        "columns": [[c.name for c in col] for col in pos.columns],
        "cells": [None if c is None else c.name for c in pos.cells],
        "foundations": [
            Card.of(rank, f % 4).name if rank else None for f, rank in enumerate(pos.foundations)
        ],
    }


def place_title(place: Place) -> str:
    assert place.index is not None or place.kind is Kind.FOUNDATION
    return place.title


def _table(
    browser: Any, server: Server, viewport: dict[str, int], **kw: Any
) -> Iterator[TablePage]:
    context = browser.new_context(viewport=viewport, **kw)
    page = context.new_page()
    page.set_default_timeout(15_000)
    table = TablePage(page, server)
    try:
        yield table
        assert table.errors == [], f"JavaScript errors on the page: {table.errors}"
    finally:
        context.close()


@pytest.fixture
def table(chromium_browser: Any, server: Server) -> Iterator[TablePage]:
    """The table at 1280×720, opened on the server."""
    yield from _table(chromium_browser, server, DESKTOP)


@pytest.fixture
def phone(chromium_browser: Any, server: Server) -> Iterator[TablePage]:
    """The table on a 390×844 touch screen."""
    yield from _table(
        chromium_browser, server, PHONE, has_touch=True, is_mobile=True, device_scale_factor=2
    )
