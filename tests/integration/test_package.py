"""eightoff installed the way Python programs are installed, as a new user would.

From a copy of the checkout's files: build the sdist, build the wheel from that sdist
alone, then install it three ways into places that know nothing of the checkout: the
wheel into a fresh virtual environment, the sdist (compiled there) into another, and
the wheel with ``uv tool install``. Each installed ``eightoff`` must show its version,
solve a deal with its compiled core, serve the web table with every file the page
needs, and run and report a survey.

Slow (two builds of the compiled core, dependencies installed from the package index
through uv's cache), but part of the default ``uv run pytest``. Under pytest-xdist the
builds and installs are shared by the workers (a lock in pytest's common temp dir).
"""

from __future__ import annotations

import contextlib
import fcntl
import json
import os
import re
import shutil
import socket
import subprocess
import sys
import sysconfig
import tarfile
import time
import urllib.error
import urllib.request
import zipfile
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from email.parser import Parser
from html.parser import HTMLParser
from pathlib import Path, PurePosixPath
from urllib.parse import urljoin, urlsplit

import pytest

from eightoff import __version__
from eightoff.deals import deal
from tests.compiler import built_by_gcc

pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = "src/eightoff/"
# The compiled core's sources: in the sdist, not in the wheel (it holds the built module).
CORE_SOURCES = (".pyx", ".pxd", ".h", ".c")
# Files that come from a build of a working tree and must never be shipped as source.
ARTEFACT = re.compile(r"(__pycache__/|\.py[cod]$|\.so$|\.pyd$|\.o$|/_core\.c$)")
COMMAND_TIMEOUT = 600.0
SERVER_DEADLINE = 60.0


# ---------------------------------------------------------------- processes


def clean_env(**extra: str) -> dict[str, str]:
    """The environment minus anything that would lead a command back to the checkout."""
    drop = {"VIRTUAL_ENV", "PYTHONPATH", "PYTHONHOME", "PYTHONSTARTUP", "EIGHTOFF_DB"}
    drop |= {"UV_PROJECT_ENVIRONMENT", "UV_RUN_RECURSION_DEPTH"}  # set by `uv run`, or aimed at it
    env = {k: v for k, v in os.environ.items() if k not in drop}
    env.update(extra)
    return env


def run(
    cmd: list[str | Path], cwd: Path, env: dict[str, str] | None = None, check: bool = True
) -> subprocess.CompletedProcess[str]:
    result = subprocess.run(
        [str(c) for c in cmd],
        cwd=cwd,
        env=env if env is not None else clean_env(),
        capture_output=True,
        text=True,
        timeout=COMMAND_TIMEOUT,
        check=False,
    )
    if check and result.returncode != 0:
        pytest.fail(
            f"{' '.join(map(str, cmd))} exited {result.returncode}\n"
            f"--- stdout\n{result.stdout[-3000:]}\n--- stderr\n{result.stderr[-3000:]}"
        )
    return result


def uv() -> str:
    found = os.environ.get("UV") or shutil.which("uv")
    if not found:
        pytest.fail("uv is needed to build and install the package (pip install uv)")
    return found


def once(factory: pytest.TempPathFactory, name: str, make: Callable[[Path], None]) -> Path:
    """The directory ``name``, filled by ``make`` once per test run, even across xdist
    workers (they share the parent of their own temp dirs)."""
    base = factory.getbasetemp()
    if os.environ.get("PYTEST_XDIST_WORKER"):
        base = base.parent
    target = base / name
    with (base / f"{name}.lock").open("w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not (target / ".done").exists():
            shutil.rmtree(target, ignore_errors=True)
            target.mkdir()
            make(target)
            (target / ".done").touch()
    return target


# ---------------------------------------------------------------- the builds


def checkout_files() -> list[str]:
    """Files of the checkout as git sees them: tracked, plus new ones not ignored."""
    if shutil.which("git") is None or not (ROOT / ".git").exists():
        pytest.skip("the package is built from a git checkout (git ls-files)")
    out = run(
        ["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"], cwd=ROOT
    ).stdout
    return sorted(f for f in set(out.split("\0")) if f and (ROOT / f).is_file())


@dataclass(frozen=True)
class Dists:
    sdist: Path
    wheel: Path
    package_files: list[str]  # the checkout's files under src/eightoff, relative to it


@pytest.fixture(scope="session")
def dists(tmp_path_factory: pytest.TempPathFactory) -> Dists:
    files = checkout_files()

    def build(out: Path) -> None:
        tree = out / "checkout"  # a clean tree: no .venv, no built core, no generated C
        for f in files:
            (tree / f).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(ROOT / f, tree / f)
        run([uv(), "build", "--sdist", "--out-dir", out / "dist", tree], cwd=out)
        (sdist,) = (out / "dist").glob("*.tar.gz")
        run([uv(), "build", "--wheel", "--out-dir", out / "dist", sdist], cwd=out)

    out = once(tmp_path_factory, "package-dists", build)
    (sdist,) = (out / "dist").glob("*.tar.gz")
    (wheel,) = (out / "dist").glob("*.whl")
    package = [f.removeprefix(PACKAGE) for f in files if f.startswith(PACKAGE)]
    return Dists(sdist, wheel, package)


# ---------------------------------------------------------------- the installs


@dataclass(frozen=True)
class Installed:
    how: str
    eightoff: Path  # the command a user runs
    python: Path  # the interpreter of the environment it runs in
    prefix: Path  # the environment: the package must be imported from inside it
    work: Path  # a scratch directory outside the checkout

    @staticmethod
    def layout(how: str, where: Path) -> Installed:
        if how.startswith("uv tool"):
            python = where / "tools" / "eightoff" / "bin" / "python"
            return Installed(
                how, where / "bin" / "eightoff", python, where / "tools", where / "work"
            )
        python = where / "venv" / "bin" / "python"
        return Installed(how, python.parent / "eightoff", python, where / "venv", where / "work")


# how -> which distribution; each installs into a fresh environment of its own
WAYS = {
    "pip install the wheel": "wheel",
    "pip install the sdist": "sdist",
    "uv tool install the wheel": "wheel",
}


def install(how: str, dist: Path, where: Path) -> None:
    if how.startswith("uv tool"):
        env = clean_env(UV_TOOL_DIR=str(where / "tools"), UV_TOOL_BIN_DIR=str(where / "bin"))
        run([uv(), "tool", "install", "--python", sys.executable, dist], cwd=where, env=env)
    else:
        run([uv(), "venv", "--python", sys.executable, where / "venv"], cwd=where)
        python = Installed.layout(how, where).python
        run([uv(), "pip", "install", "--python", python, dist], cwd=where)


@pytest.fixture(scope="session", params=list(WAYS))
def installed(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory, dists: Dists
) -> Installed:
    how: str = request.param
    dist = dists.wheel if WAYS[how] == "wheel" else dists.sdist
    where = once(tmp_path_factory, re.sub(r"\W+", "-", how), lambda w: install(how, dist, w))
    inst = Installed.layout(how, where)
    inst.work.mkdir(exist_ok=True)
    return inst


def eightoff(inst: Installed, *args: str, check: bool = True) -> subprocess.CompletedProcess[str]:
    return run([inst.eightoff, *args], cwd=inst.work, check=check)


# ---------------------------------------------------------------- what is shipped


def test_sdist_holds_every_source_and_no_build_artefact(dists: Dists) -> None:
    assert dists.sdist.name == f"eightoff-{__version__}.tar.gz"
    top = f"eightoff-{__version__}/"
    with tarfile.open(dists.sdist) as tar:
        inside = {m.name.removeprefix(top) for m in tar.getmembers() if m.isfile()}
    missing = sorted({PACKAGE + f for f in dists.package_files} - inside)
    assert not missing, f"files of src/eightoff left out of the sdist: {missing}"
    assert {"LICENSE", "README.md", "pyproject.toml", "setup.py", "PKG-INFO"} <= inside
    assert "scripts/pgo_train.py" in inside  # the training of the core's profile-guided build
    artefacts = sorted(n for n in inside if ARTEFACT.search(n))
    assert not artefacts, f"build artefacts in the sdist: {artefacts}"


def test_wheel_holds_every_module_and_static_file_and_the_compiled_core(dists: Dists) -> None:
    info = f"eightoff-{__version__}.dist-info/"
    with zipfile.ZipFile(dists.wheel) as whl:
        names = set(whl.namelist())
    expected = {"eightoff/" + f for f in dists.package_files if not f.endswith(CORE_SOURCES)}
    missing = sorted(expected - names)
    assert not missing, f"files of src/eightoff left out of the wheel: {missing}"
    assert f"eightoff/solver/_core{sysconfig.get_config_var('EXT_SUFFIX')}" in names
    assert f"eightoff/_join{sysconfig.get_config_var('EXT_SUFFIX')}" in names  # solve's output
    assert f"{info}licenses/LICENSE" in names
    stray = sorted(n for n in names if not n.startswith(("eightoff/", info)))
    assert not stray, f"files beside the package in the wheel: {stray}"
    sources = sorted(n for n in names if n.endswith(CORE_SOURCES))
    assert not sources, f"the compiled core's sources in the wheel: {sources}"


def test_wheel_metadata_is_current(dists: Dists) -> None:
    info = f"eightoff-{__version__}.dist-info/"
    with zipfile.ZipFile(dists.wheel) as whl:
        meta = Parser().parsestr(whl.read(info + "METADATA").decode())
        scripts = whl.read(info + "entry_points.txt").decode()
    assert (meta["Name"], meta["Version"]) == ("eightoff", __version__)
    assert meta["License-Expression"] == "MIT"
    assert meta["Requires-Python"] == ">=3.11"
    assert "Eight Off" in meta["Summary"]
    assert meta["Description-Content-Type"] == "text/markdown"
    assert str(meta.get_payload()).strip() == (ROOT / "README.md").read_text().strip()
    assert "dask" in meta.get_all("Provides-Extra", [])
    extras = [r for r in meta.get_all("Requires-Dist", []) if 'extra == "dask"' in r]
    assert any(r.startswith("dask") for r in extras)
    assert any(r.startswith("distributed") for r in extras)
    assert "Typing :: Typed" in meta.get_all("Classifier", [])
    assert re.search(r"^eightoff = eightoff\.cli:main$", scripts, re.MULTILINE)


# ---------------------------------------------------------------- what the installs do


def test_installed_eightoff_is_the_package_with_its_compiled_core(installed: Installed) -> None:
    where = run(
        [
            installed.python,
            "-c",
            "import eightoff, eightoff.solver._core as c; print(eightoff.__file__); "
            "print(c.__file__); print(c.PROFILE_GUIDED)",
        ],
        cwd=installed.work,
    ).stdout.split()
    assert len(where) == 3
    for path in where[:2]:  # not the checkout's src/: the environment's own copy
        assert Path(path).resolve().is_relative_to(installed.prefix.resolve()), path
    # the sdist carries the training of the core's profile-guided build (setup.py)
    assert where[2] == str(built_by_gcc() and os.environ.get("EO_PGO") != "0")
    assert eightoff(installed, "--version").stdout.strip() == f"eightoff {__version__}"


def test_installed_eightoff_solves_a_deal(installed: Installed) -> None:
    (line,) = eightoff(installed, "solve", "1", "--json").stdout.splitlines()
    result = json.loads(line)
    assert (result["variant"], result["deal"], result["verdict"]) == ("eightoff", 1, "solved")
    position = deal("eightoff", 1)  # the checkout's engine replays the installed solver's moves
    for move in result["moves"]:
        position = position.apply(position.parse_move(move["notation"]))
    assert position.is_won()


def test_installed_eightoff_runs_and_reports_a_survey(installed: Installed, tmp_path: Path) -> None:
    db = tmp_path / "survey.sqlite3"
    eightoff(installed, "survey", "1", "100", "--db", str(db))
    report = json.loads(eightoff(installed, "survey", "report", "--db", str(db), "--json").stdout)
    assert report["deals"] == 100
    assert report["solved"] + report["lost"] + report["unknown"] == 100
    assert "100 deals surveyed" in eightoff(installed, "survey", "report", "--db", str(db)).stdout


# The content type a browser needs for each kind of file (an ES module served as
# text/plain does not run).
CONTENT_TYPES = {
    ".js": "javascript",
    ".mjs": "javascript",
    ".css": "text/css",
    ".html": "text/html",
    ".svg": "image/svg+xml",
    ".png": "image/png",
    ".json": "json",
    ".woff2": "font/woff2",
}
JS_IMPORT = re.compile(
    r"""\b(?:import|export)\s*(?:[\w*{}\s,$]+?\sfrom\s*)?["']([^"'\n]+)["']"""
    r"""|\bimport\(\s*["']([^"'\n]+)["']\s*\)"""
)
CSS_URL = re.compile(r"""url\(\s*["']?([^"')]+?)["']?\s*\)|@import\s+["']([^"']+)["']""")


class PageRefs(HTMLParser):
    """The files a page asks for: scripts, stylesheets, icons, images."""

    def __init__(self) -> None:
        super().__init__()
        self.refs: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        found = dict(attrs)
        ref = found.get("href") if tag == "link" else found.get("src")
        if tag in ("script", "img", "link") and ref:
            self.refs.append(ref)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def get(url: str) -> tuple[int, str, bytes]:
    try:
        with urllib.request.urlopen(url, timeout=30) as response:
            return response.status, response.headers.get("content-type", ""), response.read()
    except urllib.error.HTTPError as e:
        return e.code, e.headers.get("content-type", ""), e.read()


@pytest.fixture
def table(installed: Installed, tmp_path: Path) -> Iterator[str]:
    """``eightoff play --no-browser --port P`` running; its base URL once it answers."""
    port = free_port()
    log_path = tmp_path / "play.log"
    cmd = [str(installed.eightoff), "play", "--no-browser", "--port", str(port)]
    cmd += ["--db", str(tmp_path / "games.sqlite3")]
    with log_path.open("w") as log:
        server = subprocess.Popen(
            cmd, cwd=installed.work, env=clean_env(), stdout=log, stderr=subprocess.STDOUT
        )
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + SERVER_DEADLINE
        while True:
            try:
                with urllib.request.urlopen(base + "/", timeout=5):
                    break
            except urllib.error.HTTPError:
                break  # it answers; the test looks at what
            except (urllib.error.URLError, ConnectionError, TimeoutError):
                if server.poll() is not None:
                    pytest.fail(
                        f"eightoff play exited {server.returncode}:\n{log_path.read_text()}"
                    )
                if time.monotonic() > deadline:
                    pytest.fail(f"eightoff play did not answer within {SERVER_DEADLINE:.0f} s")
                with contextlib.suppress(subprocess.TimeoutExpired):
                    server.wait(timeout=0.2)  # returns at once if the server dies
        yield base
    finally:
        server.terminate()
        try:
            server.wait(timeout=20)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait()


def test_installed_eightoff_play_serves_the_table(installed: Installed, table: str) -> None:
    status, ctype, body = get(table + "/")
    assert status == 200 and "text/html" in ctype
    page = PageRefs()
    page.feed(body.decode())
    assert any(ref.endswith((".js", ".mjs")) for ref in page.refs), page.refs

    # Every file the page needs, following module imports and stylesheet urls.
    todo = [urljoin(table + "/", ref) for ref in page.refs]
    seen: set[str] = set()
    while todo:
        url = todo.pop()
        if url in seen or urlsplit(url).netloc != urlsplit(table).netloc:
            continue  # already fetched, or not this server's (data:, another site)
        seen.add(url)
        status, ctype, body = get(url)
        suffix = PurePosixPath(urlsplit(url).path).suffix
        assert status == 200 and body, f"{url}: {status}"
        assert CONTENT_TYPES.get(suffix, "") in ctype, f"{url} served as {ctype!r}"
        pattern = {".js": JS_IMPORT, ".mjs": JS_IMPORT, ".css": CSS_URL}.get(suffix)
        if pattern:
            refs = [a or b for a, b in pattern.findall(body.decode())]
            todo += [urljoin(url, ref) for ref in refs if not ref.startswith("data:")]
    assert len(seen) >= len(page.refs)

    # And every static file the package installed, byte for byte.
    static = Path(
        run(
            [installed.python, "-c", "import eightoff.web.app as a; print(a.STATIC_DIR)"],
            cwd=installed.work,
        ).stdout.strip()
    )
    files = sorted(p for p in static.rglob("*") if p.is_file())
    assert any(p.suffix == ".svg" for p in files)
    for path in files:
        rel = path.relative_to(static).as_posix()
        status, _, body = get(f"{table}/static/{rel}")
        assert status == 200 and body == path.read_bytes(), rel
