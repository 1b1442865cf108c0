"""Issue 23 on every screen and in both languages: covered cards readable (1), messages that
never cover a card and go (2), statistics that fit (4).

Every test runs at 1280×720, 1366×768, 1920×1080, 390×844 and 844×390 (the phones with
touch), in English and German. Screenshots go to ``test-artifacts/screenshots/``.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import expect

from .conftest import Server, TablePage, _table
from .test_layout import BOARDS, PHONES, SIZES, play_first_move, start

LANGS = {"en": "en-GB", "de": "de-DE"}


@pytest.fixture(
    params=[(s, lang) for s in sorted(SIZES) for lang in LANGS], ids=lambda p: "-".join(p)
)
def screen(
    request: pytest.FixtureRequest, chromium_browser: Any, server: Server
) -> Iterator[tuple[str, str, TablePage]]:
    size, lang = request.param
    kw: dict[str, Any] = {"locale": LANGS[lang]}
    if size in PHONES:
        kw |= {"has_touch": True, "is_mobile": True, "device_scale_factor": 2}
    for table in _table(chromium_browser, server, SIZES[size], **kw):
        table.open()
        expect(table.page.locator("html")).to_have_attribute("lang", lang)
        yield size, lang, table


# ----- 1: every covered card shows its rank and suit ---------------------------------------
STRIPS_JS = """() => {
  const bad = [];
  let least = Infinity, smallest = Infinity;
  for (const col of document.querySelectorAll('#board .place.column')) {
    const cards = [...col.querySelectorAll('.card')];
    cards.forEach((card, i) => {
      const r = card.getBoundingClientRect();
      const idx = card.querySelector('text.idx');
      const suit = card.querySelector('svg > use');
      const font = parseFloat(idx.getAttribute('font-size')) * r.width / 100;
      smallest = Math.min(smallest, font);
      if (font < 10) bad.push(`${card.getAttribute('aria-label')}: index ${font} px`);
      if (i === cards.length - 1) return;
      const strip = cards[i + 1].getBoundingClientRect().top - r.top;
      least = Math.min(least, strip);
      const bottom = (el) => el.getBoundingClientRect().bottom;
      const need = Math.max(bottom(idx), bottom(suit)) - r.top;
      if (strip < 16 || strip + 0.5 < need) {
        bad.push(`${card.getAttribute('aria-label')}: strip ${strip} px, index needs ${need}`);
      }
    });
  }
  return {bad, least, smallest};
}"""


@pytest.mark.parametrize("what", ["double-freecell-deal3", "double-freecell-20", "eightoff-19"])
def test_every_covered_card_shows_its_rank_and_suit(
    screen: tuple[str, str, TablePage], what: str
) -> None:
    size, lang, table = screen
    body = (
        {"variant": "double-freecell", "deal": 3}
        if what.endswith("deal3")
        else {"board": BOARDS[what]}
    )
    start(table, body)
    cards = table.page.locator("#board .tableau .card")
    expect(cards.nth(50)).to_be_attached()  # the board is drawn
    got = table.page.evaluate(STRIPS_JS)
    assert got["bad"] == [], got
    # a column that does not fit at a readable strip scrolls inside the frame, not the page
    doc = table.page.evaluate(
        """() => { const d = document.documentElement;
                   return [d.scrollWidth, d.scrollHeight, innerWidth, innerHeight]; }"""
    )
    assert doc[0] <= doc[2] + 1 and doc[1] <= doc[3] + 1, doc
    table.screenshot(f"i23-strips-{size}-{lang}-{what}")


# ----- 2: messages never cover a card and go ------------------------------------------------
COVERED_JS = """() => {
  const m = document.getElementById('message');
  if (m.hidden) return null;
  const b = m.getBoundingClientRect();
  const over = [];
  for (const c of document.querySelectorAll('#board .card:not(.under)')) {
    const r = c.getBoundingClientRect();
    if (r.left < b.right && b.left < r.right && r.top < b.bottom && b.top < r.bottom) {
      over.push(c.getAttribute('aria-label'));
    }
  }
  return over;
}"""


def test_messages_never_cover_a_card_and_go(screen: tuple[str, str, TablePage]) -> None:
    size, lang, table = screen
    start(table, {"variant": "eightoff", "deal": 1})
    page = table.page
    hint = page.locator("#btn-hint")
    for level in (1, 2):
        hint.click()
        expect(table.message).to_be_visible()
        if level == 2:
            expect(page.locator("#board .hint-target")).to_have_count(1, timeout=30_000)
        assert page.evaluate(COVERED_JS) == [], level
        table.screenshot(f"i23-message-{size}-{lang}-hint{level}")
    box = table.message.bounding_box()
    assert box is not None
    # gone (not faded) on its own, and then it takes no clicks
    expect(table.message).to_be_hidden(timeout=4_500)
    hit = page.evaluate(
        "([x, y]) => document.elementFromPoint(x, y)?.closest('#message') !== null",
        [box["x"] + box["width"] / 2, box["y"] + box["height"] / 2],
    )
    assert hit is False
    # the next action takes a message away at once
    hint.click()
    expect(table.message).to_be_visible()
    page.locator("#board .place.column").nth(0).locator(".card").last.click()
    expect(table.message).to_be_hidden(timeout=1_000)
    expect(page.locator("#board .card.selected")).to_have_count(1)


# ----- 4: the statistics fit ------------------------------------------------------------------
STATS_FIT_JS = """() => {
  const d = document.getElementById('dlg-stats');
  const body = document.getElementById('stats-body');
  const b = body.getBoundingClientRect();
  const bad = [];
  const dr = d.getBoundingClientRect();
  if (dr.left < 0 || dr.right > innerWidth + 0.5) bad.push(`dialog ${dr.left}..${dr.right}`);
  if (body.scrollWidth > body.clientWidth + 1) {
    bad.push(`body scrolls: ${body.scrollWidth} > ${body.clientWidth}`);
  }
  for (const cell of body.querySelectorAll('th, td, caption')) {
    const r = cell.getBoundingClientRect();
    if (r.right > b.right + 0.5 || r.left < b.left - 0.5) {
      bad.push(`${cell.textContent}: ${r.left}..${r.right} of ${b.left}..${b.right}`);
    }
    if (cell.scrollWidth > cell.clientWidth + 1) {
      bad.push(`${cell.textContent} cut: ${cell.scrollWidth} > ${cell.clientWidth}`);
    }
  }
  return bad;
}"""


def test_statistics_columns_fit_or_wrap(screen: tuple[str, str, TablePage]) -> None:
    size, lang, table = screen
    page = table.page
    # two lines: Eight Off and Eight Off with both house rules (the longest name)
    for body in (
        {"variant": "eightoff", "deal": 3},
        {"variant": "eightoff", "deal": 4, "foundation_retrieval": True, "strict_single": True},
    ):
        play_first_move(table, start(table, body))
    table.reload()
    menu = page.locator("#btn-menu")  # "Menu" / "Menü": on a phone the links sit behind it
    if menu.is_visible() and menu.get_attribute("aria-expanded") != "true":
        menu.click()
    page.locator("#btn-stats").click()
    expect(page.locator("#dlg-stats table.stats").first).to_be_visible()
    heading = "Wenigste Züge" if lang == "de" else "Fewest moves"
    expect(page.locator("#dlg-stats")).to_contain_text(heading)
    assert page.evaluate(STATS_FIT_JS) == []
    table.screenshot(f"i23-stats-{size}-{lang}")
