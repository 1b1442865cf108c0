"""Accessibility: axe-core (bundled by axe-playwright-python) finds nothing to fix.

Checked with axe's default rule set (WCAG A/AA and best practices: a level-one heading,
everything inside landmarks, names, contrast): the table, each dialog, a lesson, the
solution replay and the rules pages, on a desktop and on a phone.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import pytest
from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import expect

from .conftest import DESKTOP, Server, TablePage, _table

AXE = Axe()


def violations(page: Any) -> list[str]:
    """One line per violation: the rule, its impact and the first offending elements."""
    page.wait_for_function(
        """() => document.getAnimations().every((a) =>
             a.playState !== 'running' || a.effect.getComputedTiming().iterations === Infinity)"""
    )
    results = AXE.run(page)
    return [
        f"{v['id']} ({v['impact']}): {v['help']} at {[n['target'] for n in v['nodes'][:3]]}"
        for v in results.response["violations"]
    ]


def open_dialog(table: TablePage, button: str, dialog: str) -> None:
    """Open a dialog by its button's id (the button's words are in the page's language)."""
    table.page.locator(button).click()
    expect(table.page.locator(dialog)).to_be_visible()


DIALOGS: dict[str, Callable[[TablePage], None]] = {
    "keys": lambda t: open_dialog(t, "#btn-keys", "#dlg-keys"),
    "lessons": lambda t: open_dialog(t, "#btn-lessons", "#dlg-lessons"),
    "stats": lambda t: open_dialog(t, "#btn-stats", "#dlg-stats"),
    "new game": lambda t: open_dialog(t, "#btn-new", "#dlg-new"),
    "confirm": lambda t: t.page.evaluate(
        "() => document.getElementById('dlg-confirm').showModal()"
    ),
    "won": lambda t: t.page.evaluate(
        """() => { document.getElementById('won-text').textContent = 'Deal 1 won in 90 moves.';
                   document.getElementById('dlg-won').showModal(); }"""
    ),
}


@pytest.fixture(params=["en-GB", "de-DE"])
def localised(
    request: pytest.FixtureRequest, chromium_browser: Any, server: Server
) -> Iterator[TablePage]:
    """The table at 1280×720 in the browser language of the parameter."""
    yield from _table(chromium_browser, server, DESKTOP, locale=request.param)


@pytest.mark.parametrize("device", ["table", "phone"])
def test_the_table_has_no_violations(device: str, request: pytest.FixtureRequest) -> None:
    table: TablePage = request.getfixturevalue(device)
    table.open()
    table.open_deal(1)
    assert violations(table.page) == []


def test_the_german_table_has_no_violations(localised: TablePage) -> None:
    localised.open()
    assert violations(localised.page) == []


@pytest.mark.parametrize("name", sorted(DIALOGS))
def test_each_dialog_has_no_violations(localised: TablePage, name: str) -> None:
    localised.open()
    DIALOGS[name](localised)
    assert violations(localised.page) == []


def test_a_lesson_and_the_replay_have_no_violations(table: TablePage) -> None:
    table.open()
    open_dialog(table, "#btn-lessons", "#dlg-lessons")
    table.page.locator("#lessons-list button").first.click()
    table.confirm_if_asked()
    expect(table.page.locator("#lesson-panel")).to_be_visible()
    table.wait_ready()
    assert violations(table.page) == []
    table.open_deal(1)
    table.button("Solution").click()
    expect(table.button("Step ▶")).to_be_enabled(timeout=30_000)
    assert violations(table.page) == []


@pytest.mark.parametrize("path", ["/rules", "/static/rules.de.html"])
def test_the_rules_pages_have_no_violations(table: TablePage, path: str) -> None:
    table.page.goto(f"{table.server.url}{path}")
    assert violations(table.page) == []
