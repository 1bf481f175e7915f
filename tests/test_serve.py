"""``carpet serve`` against real servers (issue 49): a running server on a free port, a real HTTP client
(urllib), SQLite in a temporary folder here, PostgreSQL in tests/test_serve_postgres.py."""

import json
import sqlite3
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor

import msgspec
import pytest

from servetools import need_serve_extra  # noqa: E402

need_serve_extra()

import carpet  # noqa: E402

from servetools import SERVE, Server, fixture_games, made_game, request, tampered  # noqa: E402

def _won_line() -> list[str]:
    from carpet.formats import check
    from servetools import FIXTURES

    log, session = check((FIXTURES / "carpet-won.log").read_bytes())
    return [session.variant.text(a) for a, _ in log.events]


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    folder = tmp_path_factory.mktemp("serve")
    with Server(f"sqlite:///{folder / 'games.db'}", workers=1) as running:
        yield running
        errors = running.stop()
    assert "Traceback" not in errors, errors


def test_verify_good_tampered_and_junk(server):
    good = made_game("carpet", "2", _won_line())
    status, verdict = request(server.url + "/verify", good)
    assert status == 200 and verdict["ok"] and verdict["code"] == 0 and verdict["status"] == "won"
    assert verdict["digest"] == carpet.verify(good).digest and len(verdict["digest"]) == 32
    status, verdict = request(server.url + "/verify", tampered(good))
    assert status == 200 and not verdict["ok"] and verdict["code"] == 1 and "digest" in verdict["error"]
    status, verdict = request(server.url + "/verify", b"\x00junk" * 7)
    assert status == 200 and verdict["code"] == 2 and verdict["digest"] is None


@pytest.mark.parametrize("chunked", [False, True])
def test_a_body_over_1_mb_is_413(server, chunked):
    body = b"{" * (2 << 20)
    if chunked:  # no Content-Length: the server stops reading at the bound
        import http.client

        connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=60)
        connection.request("POST", "/games?player=ann", body=iter([body[i:i + 65536] for i in range(0, len(body), 65536)]),
                           encode_chunked=True)
        answer = connection.getresponse()
        status, text = answer.status, answer.read()
        assert status == 413 and b'"error"' in text
    else:
        status, doc = request(server.url + "/verify", body)
        assert status == 413 and "1,048,576" in doc["error"]


def test_games_kept_once_across_forms_and_tampered_refused(server):
    data = made_game("carpet", "2", _won_line(), created_ms=10_000)
    as_json = made_game("carpet", "2", _won_line(), created_ms=10_000, form="json")
    status, kept = request(server.url + "/games?player=ann", data)
    assert status == 201 and kept["stored"] is True and kept["ok"]
    status, again = request(server.url + "/games?player=bob", as_json)
    assert status == 200 and again["stored"] is False and again["digest"] == kept["digest"]
    status, refused = request(server.url + "/games?player=ann", tampered(data))
    assert status == 422 and refused["ok"] is False and refused["code"] == 1 and refused["error"]
    status, refused = request(server.url + "/games?player=ann", b"junk")
    assert status == 422 and refused["code"] == 2
    assert request(server.url + "/games", data)[0] == 400  # no player named
    assert request(server.url + "/games?player=%01", data)[0] == 400
    _, stats = request(server.url + "/players/bob/stats")
    assert stats["counted"] == 0  # the copy bob sent was ann's game, kept once, for ann


def test_best_of_a_deal(server):
    line = _won_line()
    slow = made_game("carpet", "2", line, step_ms=2000, created_ms=20_000)
    fast = made_game("carpet", "2", line, step_ms=1000, created_ms=30_000)
    longer = made_game("carpet", "2", line[:1] + ["undo"] + line, step_ms=3000, created_ms=40_000)
    unfinished = made_game("carpet", "2", line[:-1], created_ms=50_000)
    for player, game in (("cleo", slow), ("dan", fast), ("eve", longer), ("fay", unfinished)):
        assert request(server.url + f"/games?player={player}", game)[0] == 201
    status, best = request(server.url + "/deals/carpet/ms2/best?limit=1000")
    assert status == 200
    ours = [b for b in best if b["player"] in ("cleo", "dan", "eve", "fay")]
    assert [b["player"] for b in ours] == ["dan", "cleo", "eve"]  # score, fewest moves, shortest clock
    keys = [(-b["score"], b["moves"], b["elapsed_ms"]) for b in best]
    assert keys == sorted(keys)
    assert request(server.url + "/deals/carpet/2/best")[1] == best[:10]  # any form of the deal number
    assert len(request(server.url + "/deals/carpet/ms2/best?limit=2")[1]) == 2
    for bad, code in (("/deals/nogame/1/best", 404), ("/deals/carpet/x1/best", 400),
                      ("/deals/carpet/1/best?limit=0", 400), ("/deals/carpet/1/best?limit=a", 400)):
        status, doc = request(server.url + bad)
        assert status == code and doc["error"]


def test_a_players_stats_are_the_stats_command_over_the_games_kept(server, tmp_path):
    games = fixture_games()[:12]
    assert [request(server.url + "/games?player=gil", game)[0] for game in games] == [201] * len(games)
    status, doc = request(server.url + "/players/gil/stats")
    assert status == 200
    folder = tmp_path / "games"
    folder.mkdir()
    for game in games:  # named by digest: games created at one time are ordered by it, as the server orders them
        (folder / f"{carpet.verify(game).digest}.carpet").write_bytes(carpet.open(game).to_bytes())
    command = subprocess.run([sys.executable, "-m", "carpet.cli", "stats", str(folder), "--json"],
                             capture_output=True, text=True, timeout=120)
    expected = json.loads(command.stdout)
    assert doc["counted"] == expected["counted"] > 0
    assert doc["counted"] + doc["copies"] + len(doc["apart"]) == len(games)  # each kept game once
    assert [a["why"] for a in doc["apart"]] == [a["why"] for a in expected["apart"]]
    named = ("best_score", "fewest_moves", "fastest_ms")  # the file: here a path, there the digest
    for ours, theirs in zip(doc["games"], expected["games"], strict=True):
        assert {k: v for k, v in ours.items() if k not in named} == {k: v for k, v in theirs.items() if k not in named}
        for key in named:
            assert (ours[key] or {}).get("value") == (theirs[key] or {}).get("value")


def test_a_players_record_reads_each_kept_game_once_and_counts_the_new_ones(server, tmp_path):
    games = fixture_games()[12:20]
    for game in games[:5]:
        request(server.url + "/games?player=joy", game)
    before = request(server.url + "/players/joy/stats")[1]
    for game in games[5:]:
        request(server.url + "/games?player=joy", game)
    after = request(server.url + "/players/joy/stats")[1]
    assert before["files"] == 5 and after["files"] == 8  # what was worked out before is not all there is

    # the server's record, over the same database: each game's bytes read once, however often asked
    from carpet.cli.serve_app import Tallies
    from carpet.cli.storage import open_storage

    storage = open_storage(server.db)
    asked: list[int] = []
    logs = storage.logs
    storage.logs = lambda digests: (asked.append(len(digests)), logs(digests))[1]
    tallies = Tallies(most=6)
    first, again = tallies.record(storage, "joy"), tallies.record(storage, "joy")
    assert asked == [8, 2]  # 6 kept, the 2 oldest read again
    assert json.loads(msgspec.json.encode(first)) == json.loads(msgspec.json.encode(again)) == after
    storage.close()


def test_health_unknown_routes_and_methods(server):
    assert request(server.url + "/health") == (200, {"ok": True})
    status, doc = request(server.url + "/nothing")
    assert status == 404 and doc["error"]
    status, doc = request(server.url + "/health", b"x")
    assert status == 405 and doc["error"]


def test_concurrent_posts_on_sqlite_each_kept_once(server):
    games = [made_game("carpet", "3", ["turn"], step_ms=1000 + i, created_ms=60_000 + i) for i in range(20)]
    with ThreadPoolExecutor(8) as pool:
        answers = list(pool.map(lambda g: request(server.url + "/games?player=hal", g)[0], games * 4))
    assert sorted(answers) == [200] * 60 + [201] * 20
    assert request(server.url + "/players/hal/stats")[1]["counted"] == 20


def test_a_newer_schema_is_refused_in_one_line(tmp_path):
    path = tmp_path / "newer.db"
    with sqlite3.connect(path) as db:
        db.execute("CREATE TABLE carpet_schema (id INTEGER PRIMARY KEY, version INTEGER NOT NULL)")
        db.execute("INSERT INTO carpet_schema VALUES (1, 99)")
    result = subprocess.run([*SERVE, "--db", f"sqlite:///{path}", "--port", "1"], capture_output=True, text=True,
                            timeout=60)
    assert result.returncode == 2 and len(result.stderr.splitlines()) == 1, result.stderr
    assert "schema version 99" in result.stderr
    result = subprocess.run([*SERVE, "--db", "mysql://x"], capture_output=True, text=True, timeout=60)
    assert result.returncode == 2 and len(result.stderr.splitlines()) == 1, result.stderr


def test_kill_9_on_sqlite_loses_no_acknowledged_game(tmp_path):
    from servetools import kill_mid_posts

    kill_mid_posts(f"sqlite:///{tmp_path / 'games.db'}", lambda: _sqlite_rows(tmp_path / "games.db"))


def _sqlite_rows(path) -> list[tuple]:
    with sqlite3.connect(path) as db:
        return db.execute("SELECT digest, status, score, moves, log FROM kept_games").fetchall()


def test_a_port_in_use_is_one_line_and_sigterm_ends_it_cleanly(server, tmp_path):
    result = subprocess.run([*SERVE, "--db", f"sqlite:///{tmp_path / 'other.db'}", "--port", str(server.port)],
                            capture_output=True, text=True, timeout=60)
    assert result.returncode == 2 and len(result.stderr.splitlines()) == 1, result.stderr
    assert "cannot listen" in result.stderr
    with Server(f"sqlite:///{tmp_path / 'ended.db'}", workers=2) as other:
        errors = other.stop()
    assert other.process.returncode == 0 and errors.count("\n") == 1, errors  # the one line it began with
