"""``carpet serve`` on PostgreSQL (issue 49): a cluster of the tests' own (initdb and pg_ctl in a temporary
folder, on a free port), two servers on one database, 16 clients posting every game to both at once,
and a kill -9 in the middle of posts.

Skipped, with its reason, only where PostgreSQL's programs cannot be found; under CI (CI=1, where .ci/run
installs them) that is a failure instead."""

import os
import random
from concurrent.futures import ThreadPoolExecutor

import pytest

from servetools import need_serve_extra  # noqa: E402

need_serve_extra()

import carpet  # noqa: E402

from servetools import Postgres, Server, fixture_games, kill_mid_posts, request  # noqa: E402


@pytest.fixture(scope="module")
def postgres():
    try:
        cluster = Postgres()
    except FileNotFoundError as exc:
        if os.environ.get("CI"):
            pytest.fail(f"CI must run the PostgreSQL tests: .ci/run installs postgresql ({exc})")
        pytest.skip(f"PostgreSQL cannot be had here: {exc}")
    yield cluster
    cluster.stop()


def _database(postgres, name: str) -> str:
    """A fresh database of the cluster, for one test."""
    import psycopg

    with psycopg.connect(postgres.url, autocommit=True) as db:
        db.execute(f"CREATE DATABASE {name}")
    return postgres.url.rsplit("/", 1)[0] + "/" + name


def test_two_servers_sixteen_clients_each_game_kept_once(postgres):
    url = _database(postgres, "shared")
    games = fixture_games()
    digests = {carpet.verify(g).digest for g in games}
    with Server(url, workers=1) as one, Server(url, workers=1) as two:
        def client(seed: int) -> list[tuple[int, str]]:
            order = [(server, game) for game in games for server in (one, two)]
            random.Random(seed).shuffle(order)
            return [(status, doc.get("digest")) for status, doc in
                    (request(server.url + "/games?player=ivy", game) for server, game in order)]

        with ThreadPoolExecutor(16) as pool:
            answers = [answer for batch in pool.map(client, range(16)) for answer in batch]
        assert len(answers) == 16 * 2 * len(games)
        assert {status for status, _ in answers} <= {200, 201}, sorted({s for s, _ in answers})
        stored = sorted(digest for status, digest in answers if status == 201)
        assert stored == sorted(digests)  # each game stored by exactly one post, on one of the servers
        for server in (one, two):
            status, doc = request(server.url + "/players/ivy/stats")
            # each kept game once: counted, a copy of one counted (a game's forms share a first event), or
            # set apart (from a position), as `carpet stats` counts files
            assert status == 200 and doc["counted"] + doc["copies"] + len(doc["apart"]) == len(digests)
            assert sum(g["games"] for g in doc["games"]) >= doc["counted"] > 0  # (finished attempts: games)
        errors = one.stop() + two.stop()
    assert "Traceback" not in errors, errors


def test_kill_9_on_postgres_loses_no_acknowledged_game(postgres):
    import psycopg

    url = _database(postgres, "killed")

    def rows():
        with psycopg.connect(url) as db:
            return db.execute("SELECT digest, status, score, moves, log FROM kept_games").fetchall()

    kill_mid_posts(url, rows)


def test_a_newer_schema_is_refused_on_postgres(postgres):
    import subprocess

    import psycopg

    from servetools import SERVE

    url = _database(postgres, "newer")
    with psycopg.connect(url, autocommit=True) as db:
        db.execute("CREATE TABLE carpet_schema (id INTEGER PRIMARY KEY, version INTEGER NOT NULL)")
        db.execute("INSERT INTO carpet_schema VALUES (1, 7)")
    result = subprocess.run([*SERVE, "--db", url, "--port", "1"], capture_output=True, text=True, timeout=60)
    assert result.returncode == 2 and len(result.stderr.splitlines()) == 1 and "version 7" in result.stderr
