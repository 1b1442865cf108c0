"""The page a browser without the table's token is sent to (issue 23.11): it says whose
table this is and how to get in, in the reader's language, and gives nothing away (no
token, no game, no setting); it changes nothing and carries the guard's headers, and
the API still refuses a request without the token with its JSON 403."""

from __future__ import annotations

from collections.abc import Iterator
from html.parser import HTMLParser
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from eightoff.i18n import Message, translate
from eightoff.web.app import create_app
from eightoff.web.security import SECURITY_HEADERS

TOKEN = "s3cret-token-value"
AUTH = {"authorization": f"token {TOKEN}"}
LANGUAGES = [("en-GB,en;q=0.8", "en"), ("de-DE,de;q=0.9,en;q=0.5", "de")]


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    app = create_app(tmp_path / "t.sqlite3", port=8123, token=TOKEN)
    with TestClient(app, base_url="http://127.0.0.1:8123") as c:
        yield c


class Text(HTMLParser):
    """The page's visible text, its links and its html lang."""

    def __init__(self) -> None:
        super().__init__()
        self.text: list[str] = []
        self.links: list[str] = []
        self.lang = ""
        self.tags: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = dict(attrs)
        self.tags.append(tag)
        if tag == "html":
            self.lang = a.get("lang") or ""
        if tag == "a" and a.get("href"):
            self.links.append(str(a["href"]))

    def handle_data(self, data: str) -> None:
        self.text.append(data)

    @property
    def words(self) -> str:
        return " ".join("".join(self.text).split())


def parsed(body: str) -> Text:
    p = Text()
    p.feed(body)
    return p


@pytest.mark.parametrize(("accept", "lang"), LANGUAGES)
def test_the_access_page_says_how_to_get_in_in_the_readers_language(
    client: TestClient, accept: str, lang: str
) -> None:
    r = client.get("/access?variant=freecell&deal=617&cells=2", headers={"accept-language": accept})
    assert r.status_code == 200
    assert r.headers["content-type"].startswith("text/html")
    page = parsed(r.text)
    assert page.lang == lang
    assert "main" in page.tags and "h1" in page.tags  # a landmark and a heading
    words = page.words
    assert translate(Message("access.heading"), lang) in words
    assert "eightoff play" in words
    # the deal's link to open again once in, the other language one link away
    assert "/?variant=freecell&deal=617&cells=2" in page.links
    assert "http://127.0.0.1:8123/?variant=freecell&deal=617&cells=2" in words
    other = "de" if lang == "en" else "en"
    assert f"/access?variant=freecell&deal=617&cells=2&lang={other}" in page.links
    if lang == "de":
        assert "Dieser Tisch gehört der Person, die ihn gestartet hat" in words
        assert "So kommst du hinein" in words
    else:
        assert "This table belongs to the person who started it" in words
        assert "How to get in" in words


def test_the_access_page_has_the_guards_headers_and_no_secret(client: TestClient) -> None:
    client.post("/api/games", json={"deal": 5}, headers=AUTH)
    # even a reader who has the token (in the address) is shown no token and no game
    r = client.get(f"/access?deal=5&token={TOKEN}&x=<script>")
    assert r.status_code == 200
    for name, value in SECURITY_HEADERS:
        assert r.headers[name.decode()] == value.decode()
    assert r.headers["cache-control"] == "no-store"
    assert TOKEN not in r.text
    assert "<script" not in r.text.lower()  # no script at all, nothing echoed as markup
    assert "/?deal=5" in parsed(r.text).links  # only the link's own keys come back
    assert '"columns"' not in r.text and "Deal 5" not in r.text


def test_a_hostile_link_is_escaped_and_bounded(client: TestClient) -> None:
    r = client.get('/access?variant="><img src=x onerror=alert(1)>&deal=' + "9" * 500)
    assert r.status_code == 200
    assert "<img" not in r.text
    assert "9" * 40 not in r.text  # a value longer than a link's is left out


def test_the_access_page_changes_nothing_and_the_api_still_refuses(client: TestClient) -> None:
    before = client.get("/api/settings", headers=AUTH).json()
    for path in ("/access", "/access?variant=freecell&deal=617&strict=1", "/access?lang=de"):
        assert client.get(path).status_code == 200
        assert client.head(path).status_code in (200, 405)
    assert client.get("/api/settings", headers=AUTH).json() == before
    assert client.get("/api/games/current?optional=true", headers=AUTH).json() is None
    # the API without the token: its JSON 403, not the page
    r = client.get("/api/games/current", headers={"accept-language": "de"})
    assert r.status_code == 403
    assert r.headers["content-type"] == "application/json"
    assert r.json() == {
        "error": translate(Message("error.token_needed"), "de"),
        "code": "forbidden",
    }
    # the table's own page and its first script are served without the token, as before
    index = client.get("/")
    assert index.status_code == 200
    assert '<script src="/static/js/gate.js"></script>' in index.text
    assert client.get("/static/js/gate.js").status_code == 200
    assert client.get("/static/access.css").status_code == 200
