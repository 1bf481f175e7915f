"""Games verified and stored per second through ``carpet serve``, against ``carpet verify`` of the same
files in one process (issue 49): the CPU each costs a game, and the wall-clock rate.

The games: ``--games`` recorded games made from the events of the fixtures' games (each with its own
creation time, so each is a new game to keep), written as files for ``carpet verify``.  Each round, in
turn (interleaved): ``carpet verify`` of every file in one process (its CPU, start-up included, over the
games); one server (``--workers 1``) and two servers (``--workers 1`` each) on one fresh SQLite file,
``--clients`` threads posting every game once to ``/games``, each over connections it keeps open (the
servers' CPU, theirs and their
verifying processes', from /proc, over the games; the clients' own CPU is not counted).  Medians over
``--rounds``.

    python benchmarks/serve_bench.py --games 400 --rounds 3
"""

from __future__ import annotations

import argparse
import http.client
import os
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

from servetools import FIXTURES, Server, made_game  # noqa: E402

TICK = os.sysconf("SC_CLK_TCK")


def _games(count: int) -> list[bytes]:
    from carpet.formats import check

    lines = []
    for path in sorted(FIXTURES.glob("*-won.log")):
        log, session = check(path.read_bytes())
        if session.deal.text.startswith("ms") and log.header.numbering == "pysol":
            lines.append((log.header.game, session.deal.text, [session.variant.text(a) for a, _ in log.events]))
    return [made_game(*lines[i % len(lines)], created_ms=1_000_000 + i) for i in range(count)]


def _cpu(pid: int) -> float:
    """CPU seconds of a process and its living children (the verifying processes)."""
    total = 0.0
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            fields = Path(f"/proc/{entry}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(entry) == pid or int(fields[1]) == pid:
            total += (int(fields[11]) + int(fields[12])) / TICK
    return total


def _verify_command(folder: Path) -> tuple[float, float]:
    """(CPU s, wall s) of ``carpet verify`` over every file in one process."""
    files = sorted(str(p) for p in folder.iterdir())
    before, started = os.times(), time.perf_counter()
    done = subprocess.run([sys.executable, "-m", "carpet.cli", "verify", *files], capture_output=True)
    wall, after = time.perf_counter() - started, os.times()
    assert done.returncode == 0, done.stderr[-300:]
    return (after.children_user + after.children_system) - (before.children_user + before.children_system), wall


def _through_servers(games: list[bytes], servers: int, clients: int) -> tuple[float, float]:
    """(CPU s of the servers, wall s) of posting every game once, spread over ``servers`` servers."""
    with tempfile.TemporaryDirectory() as folder:
        db = f"sqlite:///{folder}/bench.db"
        running = [Server(db, workers=1) for _ in range(servers)]
        try:
            cpu_before = sum(_cpu(s.process.pid) for s in running)
            started = time.perf_counter()
            with ThreadPoolExecutor(clients) as pool:
                statuses = list(pool.map(lambda i: _post(running[i % servers], games[i]), range(len(games))))
            wall = time.perf_counter() - started
            cpu = sum(_cpu(s.process.pid) for s in running) - cpu_before
        finally:
            for s in running:
                s.stop()
    assert statuses == [201] * len(games), sorted(set(statuses))
    return cpu, wall


_connections = threading.local()


def _post(server: Server, game: bytes) -> int:
    """POST /games over a connection the client thread keeps open to that server (as a balancer does)."""
    kept = getattr(_connections, "by_port", None)
    if kept is None:
        kept = _connections.by_port = {}
    connection = kept.get(server.port)
    if connection is None:
        connection = kept[server.port] = http.client.HTTPConnection("127.0.0.1", server.port, timeout=60)
    connection.request("POST", "/games?player=bench", body=game)
    answer = connection.getresponse()
    answer.read()
    return answer.status


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=400)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--clients", type=int, default=8)
    args = parser.parse_args()
    games = _games(args.games)
    events = sum(len(g) for g in games)
    results: dict[str, list[tuple[float, float]]] = {"verify": [], "serve 1": [], "serve 2": []}
    with tempfile.TemporaryDirectory() as folder:
        for i, game in enumerate(games):
            (Path(folder) / f"{i:05}.carpet").write_bytes(game)
        for _ in range(args.rounds):
            results["verify"].append(_verify_command(Path(folder)))
            results["serve 1"].append(_through_servers(games, 1, args.clients))
            results["serve 2"].append(_through_servers(games, 2, args.clients))
    n = len(games)
    base = statistics.median(cpu for cpu, _ in results["verify"]) / n
    print(f"{n} games ({events / 1024:.0f} KB in all), {args.rounds} rounds, interleaved; medians")
    for name, runs in results.items():
        cpu = statistics.median(c for c, _ in runs) / n
        wall = statistics.median(w for _, w in runs)
        print(f"{name:8}: {1000 * cpu:6.2f} ms CPU a game ({cpu / base:4.2f}x verify), {n / wall:6.0f} games/s "
              f"wall, {1 / cpu:6.0f} games/s per core")


if __name__ == "__main__":
    main()
