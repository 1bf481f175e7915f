"""The command line as users and scripts meet it: Typer's runner, freezegun for the clock."""

import json
import subprocess
import sys

import pytest
from freezegun import freeze_time

from carpet.core import GAMES

from clitools import doc, run


def test_games_lists_every_variant():
    result = run("games", "--json")
    assert result.exit_code == 0
    assert [g["id"] for g in doc(result)["games"]] == list(GAMES)
    plain = run("games").stdout
    assert all(g in plain for g in GAMES)


@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_rules_for_every_game_mention_decisions(game_id):
    result = run("rules", game_id)
    assert result.exit_code == 0 and "decision" in result.stdout.lower()


def test_deal_json_is_pysolfc(vectors):
    result = run("deal", "kovrik", "1", "--json")
    d = doc(result)
    assert d["layout"] == vectors["kovrik"]["1"]
    assert (d["game"], d["deal"], d["status"], d["score"], d["moves"], d["redeals_left"], d["elapsed_ms"]) == \
        ("kovrik", "ms1", "playing", 0, 0, 3, 0)
    assert doc(run("deal", "kovrik-shuffle", "5", "--json"))["redeals_left"] is None


def test_deal_draws_the_board():
    out = run("deal", "kovrik", "123456789012").stdout
    assert "7♠" in out and "deal 123456789012" in out


@pytest.mark.parametrize("args,code,needle", [
    (["deal", "klondike", "1"], 2, "unknown game"),
    (["deal", "kovrik", "0"], 2, "start at 1"),
    (["deal", "kovrik", "99999999999999999999999"], 2, "too large"),
    (["deal", "kovrik"], 2, "Missing argument"),
    (["show", "/nonexistent/g.log"], 2, "no such file"),
    (["frobnicate"], 2, "No such command"),
])
def test_bad_input_is_one_line_and_an_exit_code(args, code, needle):
    result = run(*args)
    assert result.exit_code == code
    assert needle in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1
    assert "Traceback" not in result.output


def test_clock_is_wall_time_since_the_attempt_began(game):
    with freeze_time("2026-11-29 10:00:05"):
        r = run("play", game, "AD>a0", "--json")
    assert doc(r)["elapsed_ms"] == 5000
    with freeze_time("2026-11-29 10:00:07.250"):
        r = run("undo", game, "--json")
    d = doc(r)
    assert d["elapsed_ms"] == 7250 and d["moves"] == 2 and d["score"] == 0  # kovrik: the undo counts
    with freeze_time("2026-11-29 10:00:09"):
        assert doc(run("restart", game, "--json"))["elapsed_ms"] == 0
    with freeze_time("2026-11-29 10:00:10"):
        assert doc(run("hint", game, "--json"))["elapsed_ms"] == 1000  # the new attempt began at :09
    with freeze_time("2026-11-29 09:00:00"):  # a clock set back never runs the session clock backwards
        assert doc(run("hint", game, "--json"))["elapsed_ms"] == 1000


def test_play_stops_at_the_first_illegal_action_keeping_the_rest(game):
    with freeze_time("2026-11-29 10:00:01"):
        r = run("play", game, "AD>a0", "AC", "7H>a5", "AS", "--json")
    assert r.exit_code == 1
    assert "event 3 (7H>a5)" in r.stderr and len(r.stderr.strip().splitlines()) == 1
    d = doc(r)
    assert d["applied"] == 2 and d["events"] == 2
    assert doc(run("show", game, "--json"))["events"] == 2


def test_an_illegal_action_changes_nothing_on_disk(game):
    before = game.read_bytes()
    for bad in (["7H>a5"], ["XX"], ["undo"], ["AD-z9"]):
        r = run("play", game, *bad)
        assert r.exit_code in (1, 2) and game.read_bytes() == before


def test_actions_from_stdin(game):
    r = run("play", game, "-", "--json", input="AD>a0\n AC  hint\n")
    docs = [json.loads(line) for line in r.stdout.splitlines()]  # one document an action, as it is played
    assert r.exit_code == 0 and [d["events"] for d in docs] == [1, 2, 3] and [d["applied"] for d in docs] == [1, 2, 3]
    assert docs[-1]["hint"] and "hint" not in docs[0]


def test_moves_lists_canonical_actions_that_parse_back(game):
    actions = doc(run("moves", game, "--json"))["actions"]
    assert "AD>a0" in actions and "redeal" in actions
    for a in actions:
        assert run("play", game, a, "-q").exit_code == 0
        assert run("undo", game, "-q").exit_code == 0


def test_hint_is_recorded_and_named(game):
    r = run("hint", game)
    assert r.exit_code == 0 and r.stdout.startswith("hint: ")
    assert doc(run("show", game, "--json"))["moves"] == 1  # counted in kovrik


def test_show_at_and_replay(game):
    run("play", game, "AD>a0", "AC", "-q")
    assert doc(run("show", game, "--at", "1", "--json"))["events"] == 1
    assert doc(run("show", game, "--at", "0", "--json"))["score"] == 0
    assert run("show", game, "--at", "9").exit_code == 2
    frames = doc(run("replay", game, "--json"))["frames"]
    assert [f["event"] for f in frames] == [0, 1, 2] and frames[1]["action"] == "AD>a0"
    assert len(doc(run("replay", game, "--to", "1", "--json"))["frames"]) == 2
    assert "event 2: AC>b0" in run("replay", game).stdout


def test_new_never_overwrites_without_force(game):
    before = game.read_bytes()
    r = run("new", "kovrik", "2", "-o", game)
    assert r.exit_code == 2 and "exists" in r.stderr and game.read_bytes() == before
    assert run("new", "kovrik", "2", "-o", game, "--force").exit_code == 0
    assert doc(run("show", game, "--json"))["deal"] == "ms2"


def test_new_without_a_number_picks_and_prints_one(tmp_path):
    r = run("new", "kovrik-shuffle", "-o", tmp_path / "x.log", "--json")
    assert r.exit_code == 0 and "deal" in r.stderr
    assert doc(r)["deal"].isdigit()


def test_verify_exit_codes_and_json(game, tmp_path):
    run("play", game, "AD>a0", "-q")
    good = run("verify", game, "--json")
    assert good.exit_code == 0 and doc(good)["results"][0]["ok"] is True
    data = bytearray(game.read_bytes())
    data[-3] ^= 1
    tampered = tmp_path / "t.log"
    tampered.write_bytes(bytes(data))
    garbage = tmp_path / "garbage.log"
    garbage.write_bytes(b"\x00garbage")
    r = run("verify", game, tampered)
    assert r.exit_code == 1 and "FAIL" in r.stderr
    r = run("verify", game, tampered, garbage, "--json")
    assert r.exit_code == 2  # an unreadable file wins over a failed one
    results = doc(r)["results"]
    assert [x["ok"] for x in results] == [True, False, False] and all(x["error"] for x in results[1:])


def test_export_round_trip_is_byte_identical(game, tmp_path):
    run("play", game, "AD>a0", "hint", "undo", "-q")
    as_json = tmp_path / "g.json"
    back = tmp_path / "back.log"
    assert run("export", game, "-o", as_json).exit_code == 0
    assert json.loads(as_json.read_text())["events"][0][0] == "AD>a0"
    assert run("export", as_json, "-o", back).exit_code == 0
    assert back.read_bytes() == game.read_bytes()
    assert run("export", game, "-o", back).exit_code == 2  # exists
    assert run("verify", as_json).exit_code == 0


def test_a_json_log_can_be_played_on(tmp_path):
    path = tmp_path / "g.json"
    assert run("new", "kovrik-hard", "7", "-o", path).exit_code == 0
    assert run("play", path, "hint", "-q").exit_code == 0
    assert path.read_text().startswith('{"header"')


def test_autoplay_records_a_verifiable_game(tmp_path):
    path = tmp_path / "auto.log"
    r = run("autoplay", "kovrik-hard", "1", "-o", path, "--json")
    assert r.exit_code == 0 and doc(r)["status"] == "won"
    assert run("verify", path).exit_code == 0
    rate = doc(run("autoplay", "kovrik-shuffle", "--deals", "1-5", "--json"))
    assert rate["deals"] == 5 and rate["won"] == 5


def test_two_processes_writing_the_same_log_lose_nothing(game):
    """Each process applies hints in a loop; the lock serialises them and no event is lost."""
    code = ("import sys\nfrom carpet.cli.app import app\n"
            "for _ in range(15):\n"
            "    try:\n"
            "        app(['hint', sys.argv[1], '-q'])\n"
            "    except SystemExit as e:\n"
            "        assert e.code == 0, e.code\n")
    procs = [subprocess.Popen([sys.executable, "-c", code, str(game)]) for _ in range(3)]
    assert all(p.wait(timeout=120) == 0 for p in procs)
    d = doc(run("show", game, "--json"))
    assert d["events"] == 45
    assert run("verify", game).exit_code == 0
    assert sorted(p.name for p in game.parent.iterdir()) == ["g.log"]  # no temporaries left


def test_the_grid_drawing_marks_locks_and_gaps_without_colour(game):
    run("play", game, "AD>a0", "-q")
    out = run("show", game).stdout  # the runner has no terminal: no colour at all
    assert "\x1b[" not in out
    assert "A♦*" in out  # locked, marked by a character
    assert out.count("[]") + out.count("..") >= 4  # the four gaps, live or dead


def test_export_reports_in_json(game, tmp_path):
    r = run("export", game, "-o", tmp_path / "g.json", "--json")
    d = doc(r)
    assert r.exit_code == 0 and d["form"] == "json" and d["events"] == 0
    assert d["bytes"] == (tmp_path / "g.json").stat().st_size


@pytest.mark.parametrize("game", ["carpet", "kovrik-shuffle", "crazy-quilt"])
def test_undo_several_at_once_is_as_many_undos_each_recorded(tmp_path, game):
    many, one_by_one = tmp_path / "many.carpet", tmp_path / "single.carpet"
    for path in (many, one_by_one):
        assert run("new", game, "7", "-o", path, "-q").exit_code == 0
        moves = doc(run("moves", path, "--json"))["actions"][:1]
        for _ in range(3):  # three actions, each the first legal one of its position
            assert run("play", path, moves[0], "-q").exit_code == 0
            moves = doc(run("moves", path, "--json"))["actions"][:1]
    assert run("undo", many, "-n", "2", "-q").exit_code == 0
    assert run("undo", one_by_one, "-q").exit_code == 0 and run("undo", one_by_one, "-q").exit_code == 0
    a, b = doc(run("show", many, "--json")), doc(run("show", one_by_one, "--json"))
    assert a["layout"] == b["layout"] and a["moves"] == b["moves"] == 1
    assert [e[0] for e in read_events(many)] == [e[0] for e in read_events(one_by_one)]
    # more undos than there are actions: those that can be played are kept, then exit 1
    result = run("undo", many, "-n", "5", "-q")
    assert result.exit_code == 1 and "nothing to undo" in result.stderr
    assert doc(run("show", many, "--json"))["moves"] == 0


def read_events(path):
    from carpet.formats import read_log

    return list(read_log(path).events)
