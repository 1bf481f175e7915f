"""Every attempt of a recorded game stays on record: a restart ends one, never erases it
(issue 47); ``carpet stats`` counts each finished attempt once, and only games a person played
from a numbered deal (issue 48)."""

from __future__ import annotations

import shutil

import msgspec
import pytest

from carpet.core import GAMES, RESTART, Session
from carpet.formats import check, new_header, read_log, record, to_bytes
from carpet.formats.documents import Verify
from carpet.formats.stats import StatsDocument

from clitools import doc, run
from conftest import ROOT
from playthrough import random_session

FIXTURES = ROOT / "fixtures"
CREATED = "2026-11-29T12:00:00.000Z"


def attempts_by_act(variant, deal, events) -> list[tuple]:
    """The oracle: each attempt a restart ends, as Session.act stood just before that restart."""
    session, found = Session(variant, deal), []
    for action, clock in events:
        if action == RESTART:
            session.state.update_status()
            found.append((session.status, session.score, session.moves, clock))
        session.act(action, clock)
    return found


# --- the session and every form ------------------------------------------------------------
@pytest.mark.parametrize("game", list(GAMES))
@pytest.mark.parametrize("seed", range(3))
def test_every_form_tells_the_attempts_the_events_played(game, seed):
    variant = GAMES[game]
    played = random_session(variant, 100 + seed, 400, check=False)
    events = list(played.events)
    want = attempts_by_act(variant, played.deal, events)
    assert len(want) == sum(a == RESTART for a, _ in events)
    assert [tuple(a) for a in played.earlier_attempts()] == want
    log = record(played, new_header(played, created=CREATED, tool="test"))
    for form in ("binary", "json", "text"):
        _, read = check(to_bytes(log, form=form))
        assert [tuple(a) for a in read.earlier_attempts()] == want, form
        assert read.attempt == len(want) + 1


def test_finished_attempts_are_met_in_random_play():
    """The property above is not empty: random play ends won and lost attempts by restarts."""
    statuses = set()
    for game in GAMES:
        for seed in range(3):
            statuses |= {a.status for a in random_session(GAMES[game], 100 + seed, 400,
                                                          check=False).earlier_attempts()}
    assert {"lost", "playing"} <= statuses


@pytest.mark.parametrize("name", sorted(p.name for p in FIXTURES.glob("*restart*")))
def test_the_restart_fixtures_read_as_written_and_name_their_first_attempt(name):
    log, session = check((FIXTURES / name).read_bytes())
    want = attempts_by_act(session.variant, session.deal, list(log.events))
    assert len(want) == 1 and [tuple(a) for a in session.earlier_attempts()] == want
    result = run("verify", FIXTURES / name, "--json")
    assert result.exit_code == 0, result.stderr
    entry = msgspec.json.decode(result.stdout, type=Verify).results[0]
    assert [tuple(msgspec.structs.astuple(a)) for a in entry.attempts] == want
    status, score, moves, _ = want[0]
    words = "left playing" if status == "playing" else status
    text = run("verify", FIXTURES / name).stdout
    assert f"attempt 1 {words}, score {score} in {moves} moves" in text and "attempt 2 is this one" in text


# --- restart after a win, through the commands -----------------------------------------------
def won_then_restarted(tmp_path):
    """carpet ms2 won (fixtures/carpet-won.log) in a file of its own, restarted and played on a move."""
    game = tmp_path / "g.carpet"
    shutil.copy(FIXTURES / "carpet-won.log", game)
    assert run("restart", game).exit_code == 0
    move = doc(run("moves", game, "--json"))["actions"][0]
    played = run("play", game, move)
    assert played.exit_code == 0, played.stderr
    return game


def test_a_won_game_restarted_and_played_on_verifies_and_keeps_its_win(tmp_path):
    game = won_then_restarted(tmp_path)
    won = read_log(FIXTURES / "carpet-won.log").summary
    checked = doc(run("verify", game, "--json"))["results"][0]
    assert checked["ok"] and checked["status"] == "playing" and checked["events"] == len(read_log(FIXTURES / "carpet-won.log").events) + 2
    assert checked["attempts"] == [{"status": "won", "score": won.score, "moves": won.moves,
                                    "elapsed_ms": won.elapsed_ms}]
    assert f"attempt 1 won, score {won.score} in {won.moves} moves" in run("verify", game).stdout
    shown = run("show", game)
    assert f"attempt 1 won, score {won.score} in {won.moves} moves" in shown.stdout
    assert doc(run("show", game, "--json"))["attempts"][0]["status"] == "won"
    entry = doc(run("stats", tmp_path, "--json"))["games"][0]
    assert (entry["games"], entry["won"], entry["lost"], entry["playing"]) == (2, 1, 0, 1)
    assert entry["best_score"] == {"value": won.score, "file": str(game), "attempt": 1}


def test_attempts_restarted_while_playing_are_not_games(tmp_path):
    shutil.copy(FIXTURES / "crazy-quilt-restart.log", tmp_path)
    d = doc(run("stats", tmp_path, "--json"))
    msgspec.json.decode(run("stats", tmp_path, "--json").stdout, type=StatsDocument)
    entry = d["games"][0]
    assert (entry["games"], entry["won"], entry["restarted"]) == (1, 1, 1)
    assert "attempts restarted before they were over (not games): 1" in run("stats", tmp_path).stdout


# --- what stats counts --------------------------------------------------------------------------
def rerecorded(log, events, created):
    """The game of ``log`` with these events, created then: a copy edited and sealed again."""
    session = Session.replay(*_variant_deal(log), events)
    return record(session, new_header(session, created=created, tool=log.header.tool))


def _variant_deal(log):
    from carpet.core import get_game
    from carpet.formats import header_deal

    return get_game(log.header.game), header_deal(log.header)


def test_copies_and_games_copied_mid_play_count_once_whatever_their_creation_time(tmp_path):
    log = read_log(FIXTURES / "carpet-won.log")
    events = list(log.events)
    (tmp_path / "a.carpet").write_bytes(to_bytes(rerecorded(log, events, CREATED)))
    # a copy whose creation time was edited, sealed again
    (tmp_path / "b.carpet.json").write_bytes(to_bytes(rerecorded(log, events, "2027-01-01T00:00:00.000Z"),
                                                      form="json"))
    # copied mid-play and finished in the copy too (the same moves, later readings after event 40)
    later = events[:40] + [(a, c + 7) for a, c in events[40:]]
    (tmp_path / "c.carpet.txt").write_bytes(to_bytes(rerecorded(log, later, "2025-06-01T00:00:00.000Z"),
                                                     form="text"))
    # and copied before its end, never finished: the longest of them counts
    (tmp_path / "d.carpet").write_bytes(to_bytes(rerecorded(log, events[:30], CREATED)))
    d = doc(run("stats", tmp_path, "--json"))
    assert (d["files"], d["counted"], d["copies"]) == (4, 1, 3)
    entry = d["games"][0]
    assert (entry["games"], entry["won"], entry["streak"]["longest"]) == (1, 1, 1)
    # the same deal played apart (its clock not the same to the millisecond) is a game of its own
    apart = [(a, c + 1) for a, c in events]
    (tmp_path / "e.carpet").write_bytes(to_bytes(rerecorded(log, apart, CREATED)))
    again = doc(run("stats", tmp_path, "--json"))
    assert (again["counted"], again["games"][0]["won"]) == (2, 2)


def test_games_nobody_played_from_a_numbered_deal_are_set_apart(tmp_path):
    # one move from the end of a won game, started from that position: a win in one move
    won = FIXTURES / "carpet-won.log"
    n = len(read_log(won).events)
    position = run("show", won, "--at", n - 1, "--position").stdout.strip()
    start = tmp_path / "from-position.carpet"
    assert run("new", "--position", position, "-o", start, "-q").exit_code == 0
    move = doc(run("moves", start, "--json"))["actions"][0]
    assert run("play", start, move).exit_code == 0
    assert run("solve", "kovrik", "5", "-o", tmp_path / "solved.carpet").exit_code == 0
    assert run("autoplay", "carpet", "2", "-o", tmp_path / "auto.carpet", "--json").exit_code == 0
    shutil.copy(FIXTURES / "kovrik-hard-lost.log", tmp_path)
    d = doc(run("stats", tmp_path, "--json"))
    assert {(a["file"].rsplit("/", 1)[-1], a["why"]) for a in d["apart"]} == {
        ("from-position.carpet", "position"), ("solved.carpet", "solver"), ("auto.carpet", "player")}
    assert d["counted"] == 1 and sum(g["won"] for g in d["games"]) == 0
    text = run("stats", tmp_path)
    assert "not counted (--all counts them):" in text.stdout and "solved.carpet: written by the solver" in text.stdout
    assert "3 set apart" in text.stderr
    every = doc(run("stats", tmp_path, "--all", "--json"))
    assert every["counted"] == 4 and not every["apart"]
    assert sum(g["won"] for g in every["games"]) >= 2  # the solver's and the built-in player's wins


def test_a_position_with_an_absurd_score_never_reaches_the_record(tmp_path):
    won = FIXTURES / "kovrik-shuffle-won.log"
    position = run("show", won, "--at", 5, "--position").stdout.strip()
    absurd = position.rsplit(" p:", 1)[0] + " p:999999999"
    made = run("new", "--position", absurd, "-o", tmp_path / "absurd.carpet", "-q")
    if made.exit_code:  # refused as a position no play reaches: one line, exit 2
        assert made.exit_code == 2 and made.stderr.count("\n") == 1
        return
    d = doc(run("stats", tmp_path, "--json"))
    assert d["games"] == [] and d["apart"][0]["why"] == "position"
    every = doc(run("stats", tmp_path, "--all", "--json"))["games"][0]
    assert every["best_score"]["value"] < 1000  # what it gained from the position, not the score it claims


def test_file_names_are_escaped_in_the_record_and_the_list_apart(tmp_path):
    odd = tmp_path / "won\x1b]0;pwned\x07\x1b[31m.carpet"
    shutil.copy(FIXTURES / "carpet-won.carpet", odd)
    assert run("solve", "kovrik", "5", "-o", tmp_path / "x\x1b[2Ky.carpet").exit_code == 0
    result = run("stats", tmp_path)
    assert result.exit_code == 0, result.stderr
    assert "\x1b" not in result.stdout + result.stderr and "\x07" not in result.stdout
    assert "won\\x1b]0;pwned\\x07\\x1b[31m.carpet" in result.stdout and "x\\x1b[2Ky.carpet" in result.stdout
