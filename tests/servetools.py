"""Helpers of the referee's tests and benchmark: a real ``carpet serve`` on a free port, a real HTTP
client (urllib), a PostgreSQL cluster of its own (initdb and pg_ctl in a temporary folder, as a user
that is not root where the tests run as root), and recorded games made to order."""

from __future__ import annotations

import contextlib
import json
import os
import pwd
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from glob import glob
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = ROOT / "fixtures"
SERVE = [sys.executable, "-m", "carpet.cli", "serve"]


def need_serve_extra() -> None:
    """Skip the module where the serve extra is not installed (a failure under CI, which installs it)."""
    import pytest

    try:
        import psycopg  # noqa: F401
        import starlette  # noqa: F401
        import uvicorn  # noqa: F401
    except ImportError as exc:
        if os.environ.get("CI"):
            pytest.fail(f"CI must run the server's tests: .ci/run installs the serve extra ({exc})")
        pytest.skip(f"carpet serve needs the extra: pip install -e '.[serve]' ({exc})", allow_module_level=True)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Server:
    """``carpet serve`` as a process of its own, on a free port, ready when /health answers."""

    def __init__(self, db: str, *, workers: int = 1, cwd: Path | None = None) -> None:
        self.port = free_port()
        self.db = db
        self.url = f"http://127.0.0.1:{self.port}"
        # stderr to a file: the verifying processes hold it too, and a pipe would wait for them
        self.stderr = tempfile.TemporaryFile()
        self.process = subprocess.Popen([*SERVE, "--port", str(self.port), "--db", db, "--workers", str(workers)],
                                        cwd=cwd, stdout=subprocess.DEVNULL, stderr=self.stderr)
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"carpet serve exited {self.process.returncode}: {self.errors()}")
            with contextlib.suppress(OSError):
                if request(self.url + "/health", timeout=5)[0] == 200:
                    return
            time.sleep(0.1)
        self.stop()
        raise RuntimeError("carpet serve did not answer /health within a minute")

    def kill(self) -> None:
        self.process.send_signal(signal.SIGKILL)
        self.process.wait(30)

    def stop(self) -> str:
        """Stop it (SIGTERM, as a service manager does); its stderr."""
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(30)
            except subprocess.TimeoutExpired:
                self.kill()
        return self.errors()

    def errors(self) -> str:
        self.stderr.seek(0)
        return self.stderr.read().decode(errors="replace")

    def __enter__(self) -> "Server":
        return self

    def __exit__(self, *exc) -> None:
        self.stop()


def request(url: str, body: bytes | None = None, *, timeout: float = 60, headers: dict | None = None):
    """(status, JSON document) of one request: POST with a body, GET without."""
    req = urllib.request.Request(url, data=body, method="POST" if body is not None else "GET",
                                 headers=headers or {})
    try:
        with urllib.request.urlopen(req, timeout=timeout) as answer:
            return answer.status, json.loads(answer.read())
    except urllib.error.HTTPError as answer:
        return answer.code, json.loads(answer.read())


def fixture_games() -> list[bytes]:
    """Every recorded game of fixtures/ that verifies, once each (binary, JSON or text, as found)."""
    import carpet

    seen, games = set(), []
    for path in sorted(glob(str(FIXTURES / "*"))):
        data = Path(path).read_bytes() if Path(path).is_file() else b""
        verdict = carpet.verify(data)
        if verdict.ok and verdict.digest not in seen:
            seen.add(verdict.digest)
            games.append(data)
    return games


def made_game(game: str, deal: str, actions: list[str], *, step_ms: int = 1000, created_ms: int = 0,
              form: str = "binary") -> bytes:
    """A recorded game made to order: ``actions`` played ``step_ms`` apart, created at ``created_ms``."""
    from carpet.core import Session, get_game, parse_deal
    from carpet.formats import new_header, record, to_bytes
    from carpet.formats.log_types import created_text

    session = Session(get_game(game), parse_deal(deal))
    header = new_header(session, created=created_text(created_ms), tool="carpet tests")
    for i, text in enumerate(actions, 1):
        session.play_text(text, i * step_ms)
    return to_bytes(record(session, header), form=form)


def tampered(data: bytes) -> bytes:
    """A binary game with its last byte changed: it fails verification (a digest that does not match)."""
    return data[:-1] + bytes([data[-1] ^ 1])


# --- PostgreSQL ----------------------------------------------------------------------------
def _postgres_bin(name: str) -> str | None:
    found = shutil.which(name)
    if found:
        return found
    candidates = sorted(glob(f"/usr/lib/postgresql/*/bin/{name}"))
    return candidates[-1] if candidates else None


def _run_as() -> list[str]:
    """The prefix that runs PostgreSQL's programs as a user other than root (initdb refuses root)."""
    if os.geteuid() != 0:
        return []
    for user in ("postgres", "nobody"):
        with contextlib.suppress(KeyError):
            pwd.getpwnam(user)
            return ["runuser", "-u", user, "--"]
    raise RuntimeError("running as root, and no postgres or nobody user to run PostgreSQL as")


class Postgres:
    """A PostgreSQL cluster of its own in a temporary folder, on a free port; ``url`` reaches it."""

    def __init__(self) -> None:
        initdb, self.pg_ctl = _postgres_bin("initdb"), _postgres_bin("pg_ctl")
        if initdb is None or self.pg_ctl is None:
            raise FileNotFoundError("no initdb and pg_ctl (Debian: apt-get install postgresql)")
        self.prefix = _run_as()
        self.folder = Path(tempfile.mkdtemp(prefix="carpet-pg-"))
        if self.prefix:
            user = pwd.getpwnam(self.prefix[2])
            os.chown(self.folder, user.pw_uid, user.pw_gid)
        self.data = self.folder / "data"
        self.port = free_port()
        subprocess.run([*self.prefix, initdb, "-D", str(self.data), "-A", "trust", "-U", "carpet", "--no-sync"],
                       check=True, capture_output=True, timeout=120)
        options = f"-p {self.port} -k {self.folder} -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=100"
        subprocess.run([*self.prefix, self.pg_ctl, "-D", str(self.data), "-o", options, "-l",
                        str(self.folder / "log"), "-w", "-t", "60", "start"], check=True, capture_output=True,
                       timeout=90)
        self.url = f"postgresql://carpet@127.0.0.1:{self.port}/postgres"

    def stop(self) -> None:
        subprocess.run([*self.prefix, self.pg_ctl, "-D", str(self.data), "-m", "immediate", "stop"],
                       capture_output=True, timeout=60)
        shutil.rmtree(self.folder, ignore_errors=True)


# --- a kill -9 in the middle of posts ------------------------------------------------------
def kill_mid_posts(db: str, rows, games: int = 120, clients: int = 6) -> None:
    """Post ``games`` new games from ``clients`` threads, kill -9 the server after a third are
    acknowledged; then every acknowledged game is kept, and every kept game (``rows()``: digest, status,
    score, moves, log) is whole: its bytes verify to its own row."""
    import threading
    from concurrent.futures import ThreadPoolExecutor

    import carpet

    # (one action each, its clock apart: `stats` counts games whose first events differ)
    made = [made_game("carpet", "5", ["turn"], step_ms=1000 + i, created_ms=90_000_000 + i) for i in range(games)]
    acknowledged, lock = set(), threading.Lock()
    server = Server(db, workers=1)

    def post(data: bytes) -> None:
        try:
            status, doc = request(server.url + "/games?player=kim", data, timeout=20)
        except OSError:
            return  # the server is gone: not acknowledged
        assert status < 500, doc
        if status in (200, 201):
            with lock:
                acknowledged.add(doc["digest"])
                if len(acknowledged) == games // 3:
                    server.kill()

    try:
        with ThreadPoolExecutor(clients) as pool:
            list(pool.map(post, made))
    finally:
        server.kill() if server.process.poll() is None else None
    assert server.process.returncode == -9, "the server was not killed in the middle"
    kept = rows()
    assert acknowledged <= {row[0] for row in kept}
    assert len(kept) < games  # killed before the end
    for digest, status, score, moves, log in kept:
        verdict = carpet.verify(bytes(log))
        assert (verdict.digest, verdict.status, verdict.score, verdict.moves) == (digest, status, score, moves)
    with Server(db) as again:  # and the database serves on
        assert request(again.url + "/players/kim/stats")[1]["counted"] == len(kept)
