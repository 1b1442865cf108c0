"""Benchmark: server time per move with 50 concurrent games on loopback.

A real server (``python -m eightoff.web.server``: uvicorn, one process, on 127.0.0.1)
on a fresh database; 50 games (Eight Off deals 1…50) played at the same time by 50
asyncio clients over HTTP/1.1 keep-alive connections. Each client picks a random useful
legal move from the previous answer and sends it as the page does (source/target/count);
every 10th action is an undo; a lost or won game is restarted.

"Server time" is the ``Server-Timing: app;dur=…`` header: from the request reaching the
app to the response starting (parse, engine, SQLite commit, JSON). The solver is never
called (no status, hint or solution requests). Round trip is measured by the client.

Peers measured in the same run, for ratios:

* ``GET /api/settings``: the cheapest endpoint (framework + one small JSON answer);
* ``Position.legal_moves()`` in this process, once per position the games reached:
  the engine's share of a move (every move answer lists the new position's legal moves).

    uv run python bench/web_latency.py                 # 50 games x 40 moves
    uv run python bench/web_latency.py --games 50 --moves 100 --seed 2
    uv run python bench/web_latency.py --hint-load     # level-2 hints while Double FreeCell
                                                       # solutions compute (the solver runs)

``--hint-load`` measures what a player waits for a level-2 hint on Eight Off and
FreeCell deals while four Double FreeCell solutions are being computed on the same
server; its peer is the same hint asked of an idle server (a fresh one, same deals).

Never part of the test run.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import re
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx2
from rich.console import Console
from rich.table import Table

from eightoff.game import Game
from eightoff.position import Move, Position

URL = re.compile(r"http://127\.0\.0\.1:\d+/")
TOKEN = re.compile(r"\?token=([A-Za-z0-9_-]+)")
HEADERS: dict[str, str] = {}
"""The access token of the server started last, as the page sends it."""


@dataclass
class Samples:
    app: list[float] = field(default_factory=list)
    handler: list[float] = field(default_factory=list)
    cpu: list[float] = field(default_factory=list)
    rtt: list[float] = field(default_factory=list)

    def add(self, r: httpx2.Response, rtt: float) -> None:
        parts = dict(p.strip().split(";dur=") for p in r.headers["server-timing"].split(","))
        self.app.append(float(parts["app"]))
        self.handler.append(float(parts["handler"]))
        self.cpu.append(float(parts["cpu"]))
        self.rtt.append(rtt)


def pct(values: list[float], p: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    k = min(len(ordered) - 1, max(0, round(p / 100 * (len(ordered) - 1))))
    return ordered[k]


def start_server(db: Path) -> tuple[subprocess.Popen[str], str]:
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    proc = subprocess.Popen(
        [sys.executable, "-m", "eightoff.web.server", "--db", str(db), "--no-browser"],
        stdout=subprocess.PIPE,
        text=True,
        env=env,
    )
    assert proc.stdout is not None
    line = proc.stdout.readline()
    found = URL.search(line)
    if not found:
        proc.kill()
        raise SystemExit(f"the server did not start: {line!r}")
    base = found.group(0).rstrip("/")
    token = TOKEN.search(line)
    if token:
        HEADERS["authorization"] = f"token {token.group(1)}"
    for _ in range(400):
        try:
            httpx2.get(base + "/api/variants", timeout=2)
            return proc, base
        except httpx2.TransportError:
            time.sleep(0.05)
    proc.kill()
    raise SystemExit("the server did not answer")


def process_cpu(pid: int) -> float:
    """CPU seconds (user + system) used so far by a process (Linux /proc)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return float("nan")
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def useful(game: dict[str, Any]) -> list[dict[str, Any]]:
    return [
        m
        for m in game["legal_moves"]
        if not (m["source"]["kind"] == "cell" and m["target"]["kind"] == "cell")
    ]


async def play(
    client: httpx2.AsyncClient,
    base: str,
    game: dict[str, Any],
    actions: int,
    rng: random.Random,
    out: dict[str, Samples],
    lines: list[list[str]],
    think: float,
    errors: list[str],
) -> None:
    gid = game["id"]
    line: list[str] = []
    for i in range(actions):
        if think:
            await asyncio.sleep(rng.uniform(0, 2 * think) / 1000)
        moves = useful(game)
        body: dict[str, Any]
        if (i + 1) % 10 == 0 and game["can_undo"]:
            kind, path, body = "undo", f"/api/games/{gid}/undo", {}
        elif game["won"] or not moves:
            kind, path, body = "restart", f"/api/games/{gid}/restart", {}
        else:
            m = rng.choice(moves)
            kind, path = "move", f"/api/games/{gid}/move"
            body = {"source": m["source"], "target": m["target"], "count": m["count"]}
            if m["target"]["kind"] == "foundation":
                body["target"] = {"kind": "foundation", "index": None}
        t0 = time.perf_counter()
        try:
            r = await client.post(base + path, json=body)
        except httpx2.TransportError as e:  # a connection dropped: resynchronise, go on
            errors.append(f"{kind}: {type(e).__name__}")
            game = (await client.get(f"{base}/api/games/{gid}")).json()
            continue
        rtt = (time.perf_counter() - t0) * 1000
        if r.status_code != 200:
            raise SystemExit(f"{kind} on game {gid} answered {r.status_code}: {r.text}")
        game = r.json()
        out[kind].add(r, rtt)
        if kind == "move":
            line.append(game["last_turn"][0]["notation"])
    lines.append(line)


async def run(
    base: str, games: int, actions: int, seed: int, think: float
) -> tuple[dict[str, Samples], Any]:
    out = {k: Samples() for k in ("create", "move", "undo", "restart", "settings")}
    lines: list[list[str]] = []
    errors: list[str] = []
    limits = httpx2.Limits(max_connections=games + 10, max_keepalive_connections=games + 10)
    async with httpx2.AsyncClient(limits=limits, timeout=60, headers=HEADERS) as client:
        started = []
        for n in range(1, games + 1):
            t0 = time.perf_counter()
            r = await client.post(base + "/api/games", json={"variant": "eightoff", "deal": n})
            out["create"].add(r, (time.perf_counter() - t0) * 1000)
            started.append(r.json())
        t0 = time.perf_counter()
        await asyncio.gather(
            *(
                play(
                    client,
                    base,
                    g,
                    actions,
                    random.Random(seed * 1000 + i),
                    out,
                    lines,
                    think,
                    errors,
                )
                for i, g in enumerate(started)
            )
        )
        wall = time.perf_counter() - t0

        async def settings() -> None:
            for _ in range(10):
                t1 = time.perf_counter()
                r = await client.get(base + "/api/settings")
                out["settings"].add(r, (time.perf_counter() - t1) * 1000)

        await asyncio.gather(*(settings() for _ in range(games)))
    return out, (wall, lines, errors)


def engine_peer(lines: list[list[str]], games: int) -> list[float]:
    """CPU ms of Position.legal_moves() per position reached (fresh positions, this
    process)."""
    times: list[float] = []
    seen: set[Position] = set()
    for n, line in zip(range(1, games + 1), lines, strict=False):
        g = Game.new("eightoff", n)
        positions = [g.start]
        for text in line:
            try:
                g.play(Move.parse(text))
            except ValueError:
                break  # the game was undone/restarted in between: stop at the divergence
            positions.append(g.position)
        for p in positions:
            if p in seen:
                continue
            seen.add(p)
            t0 = time.thread_time()
            p.legal_moves()
            times.append((time.thread_time() - t0) * 1000)
    return times


async def _ask(
    client: httpx2.AsyncClient, base: str, gid: int, what: str, level: int | None = None
) -> httpx2.Response:
    """A hint or solution: POST (this API) or GET (the API before hints became POSTs)."""
    body: dict[str, Any] = {} if level is None else {"level": level}
    r = await client.post(f"{base}/api/games/{gid}/{what}", json=body)
    if r.status_code == 405:
        query = "" if level is None else f"?level={level}"
        r = await client.get(f"{base}/api/games/{gid}/{what}{query}")
    return r


async def hint_load(base: str, doubles: int, hints: int, load: bool) -> list[tuple[str, float]]:
    """Seconds each level-2 hint took (Eight Off and FreeCell deals 1…hints), while
    ``doubles`` Double FreeCell solutions are computing when ``load``."""
    out: list[tuple[str, float]] = []
    async with httpx2.AsyncClient(timeout=600, headers=HEADERS) as client:
        running: list[asyncio.Task[httpx2.Response]] = []
        if load:
            for n in range(1, doubles + 1):
                g = (
                    await client.post(
                        base + "/api/games", json={"variant": "double-freecell", "deal": n}
                    )
                ).json()
                running.append(asyncio.ensure_future(_ask(client, base, g["id"], "solution")))
            await asyncio.sleep(0.5)  # the solutions are under way
        for n in range(1, hints + 1):
            for variant in ("eightoff", "freecell"):
                g = (
                    await client.post(base + "/api/games", json={"variant": variant, "deal": n})
                ).json()
                t0 = time.perf_counter()
                r = await _ask(client, base, g["id"], "hint", 2)
                seconds = time.perf_counter() - t0
                if r.status_code != 200:
                    raise SystemExit(f"hint on {variant} #{n} answered {r.status_code}: {r.text}")
                out.append((variant, seconds))
        busy = sum(1 for t in running if not t.done())
        if load:
            print(
                f"Double FreeCell solutions still computing when the last hint answered:"
                f" {busy} of {len(running)}"
            )
        for t in running:
            t.cancel()
    return out


def run_hint_load(args: argparse.Namespace, console: Console) -> int:
    results: dict[str, list[tuple[str, float]]] = {}
    for label, load in (
        ("idle server (peer)", False),
        ("4 Double FreeCell solutions running", True),
    ):
        with tempfile.TemporaryDirectory() as tmp:
            proc, base = start_server(Path(tmp) / "bench.sqlite3")
            try:
                results[label] = asyncio.run(hint_load(base, args.doubles, args.hints, load))
            finally:
                proc.kill()
                proc.wait()
    table = Table(title=f"level-2 hint latency, Eight Off and FreeCell deals 1…{args.hints}")
    table.add_column("server")
    table.add_column("variant")
    for col in ("n", "p50 s", "p99 s", "max s"):
        table.add_column(col, justify="right")
    for label, rows in results.items():
        for variant in ("eightoff", "freecell"):
            xs = [s for v, s in rows if v == variant]
            table.add_row(
                label,
                variant,
                str(len(xs)),
                f"{pct(xs, 50):.3f}",
                f"{pct(xs, 99):.3f}",
                f"{max(xs):.3f}",
            )
    console.print(table)
    loaded = [s for _, s in results["4 Double FreeCell solutions running"]]
    idle = [s for _, s in results["idle server (peer)"]]
    console.print(
        f"under load / idle, p50: x{pct(loaded, 50) / pct(idle, 50):.1f}; target: every hint"
        f" under 1 s while the solutions run: {'met' if max(loaded) < 1 else 'missed'}"
        f" (max {max(loaded):.3f} s); load average {os.getloadavg()[0]:.1f} on"
        f" {os.cpu_count()} cores"
    )
    return 0


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=50)
    ap.add_argument("--moves", type=int, default=40, help="actions per game")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument(
        "--think",
        type=float,
        default=0.0,
        help="mean pause in ms before each action (uniform 0…2x); 0 = flat out",
    )
    ap.add_argument(
        "--hint-load",
        action="store_true",
        help="measure level-2 hints while Double FreeCell solutions compute",
    )
    ap.add_argument("--doubles", type=int, default=4, help="--hint-load: solutions running")
    ap.add_argument("--hints", type=int, default=5, help="--hint-load: deals per variant")
    args = ap.parse_args()
    console = Console(width=150)
    if args.hint_load:
        return run_hint_load(args, console)
    with tempfile.TemporaryDirectory() as tmp:
        proc, base = start_server(Path(tmp) / "bench.sqlite3")
        try:
            cpu0, own0 = process_cpu(proc.pid), time.process_time()
            out, (wall, lines, errors) = asyncio.run(
                run(base, args.games, args.moves, args.seed, args.think)
            )
            server_cpu, client_cpu = process_cpu(proc.pid) - cpu0, time.process_time() - own0
        finally:
            proc.kill()
            proc.wait()
    engine = engine_peer(lines, args.games)

    pace = "flat out" if not args.think else f"pausing {args.think:g} ms on average"
    table = Table(
        title=f"web latency: {args.games} concurrent games x {args.moves} actions ({pace}),"
        " uvicorn (1 process) on 127.0.0.1, fresh SQLite (WAL)"
    )
    table.add_column("request")
    table.add_column("n", justify="right")
    for col in ("app", "handler", "cpu", "round trip"):
        table.add_column(f"{col} p50", justify="right")
        table.add_column(f"{col} p99", justify="right")
    for kind, label in (
        ("move", "POST move"),
        ("undo", "POST undo"),
        ("restart", "POST restart"),
        ("create", "POST games"),
        ("settings", "GET settings (peer)"),
    ):
        s = out[kind]
        cells = [label, str(len(s.app))]
        for values in (s.app, s.handler, s.cpu, s.rtt):
            cells += [f"{pct(values, 50):.2f}", f"{pct(values, 99):.2f}"]
        table.add_row(*cells)
    table.add_row(
        "legal_moves() (peer)",
        str(len(engine)),
        "",
        "",
        f"{pct(engine, 50):.2f}",
        f"{pct(engine, 99):.2f}",
        "",
        "",
        "",
        "",
    )
    console.print(table)
    console.print(
        "ms. app: request in → response out, event-loop waits included; handler: the"
        " endpoint alone (parse, engine, SQLite commit, JSON), wall time; cpu: its CPU time."
    )
    mv, st = out["move"], out["settings"]
    console.print(
        f"moves per second (all games): {len(mv.app) / wall:.0f}; move/settings handler"
        f" p50 x{pct(mv.handler, 50) / pct(st.handler, 50):.0f};"
        f" legal_moves() / move handler p50: {pct(engine, 50) / pct(mv.handler, 50):.0%}"
    )
    requests = sum(len(x.app) for x in out.values())
    if errors:
        console.print(
            f"connection errors (action dropped, game state fetched again): {len(errors)}"
        )
    console.print(
        f"server process CPU: {server_cpu:.2f} s for {requests} requests"
        f" ({1000 * server_cpu / requests:.2f} ms a request, uvicorn and HTTP parsing"
        f" included); client process CPU: {client_cpu:.2f} s; wall {wall:.1f} s"
    )
    for name, values in (("handler", mv.handler), ("cpu", mv.cpu), ("app", mv.app)):
        p99 = pct(values, 99)
        console.print(
            f"target move p99 < 5 ms (no solver call), {name} time: p99 {p99:.2f} ms:"
            f" {'met' if p99 < 5 else 'missed'}"
        )
    console.print(
        f"{os.cpu_count()} cores shared with whatever else runs (load average"
        f" {os.getloadavg()[0]:.1f}); Python {sys.version.split()[0]};"
        f" mean move handler {statistics.fmean(mv.handler):.2f} ms"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
