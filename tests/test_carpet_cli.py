"""The carpet family at the command line: its drawing, its shell-safe notation, a whole session."""

import json

import pytest
from freezegun import freeze_time

from carpet.cli import draw_carpet

from clitools import doc, plain, run, state_after

IDS = ("carpet", "carpet-auto", "carpet-foster")


@pytest.fixture(params=IDS)
def log(request, tmp_path):
    path = tmp_path / "g.log"
    with freeze_time("2026-11-29 10:00:00"):
        assert run("new", request.param, "4", "-o", path).exit_code == 0
    return path


# --- drawing ---------------------------------------------------------------------------------
def test_deal_draws_the_carpet():
    lines = run("deal", "carpet", "1").stdout.splitlines()
    assert "foundations  A♣  A♠  A♥  A♦" in lines
    assert lines[lines.index("foundations  A♣  A♠  A♥  A♦") + 1].split() == ["1", "2", "3", "4", "5"]
    # a card that goes to its foundation now is marked + (a character: it shows without colour)
    assert "a J♦  2♦+ 9♥  J♣  5♦" in [line.rstrip() for line in lines]
    assert "d 2♠+ K♠  9♦  Q♦  J♠" in [line.rstrip() for line in lines]
    assert "stock 28   waste empty" in lines
    assert not any("phase" in line for line in lines)


def test_foster_deal_shows_missing_foundations_and_phase():
    out = run("deal", "carpet-foster", "1").stdout
    assert "foundations  ·♣  ·♠  ·♥  A♦" in out
    assert "stock 31" in out and "phase 1" in out
    out = run("deal", "carpet-foster", "2").stdout  # no ace in the first 20 cards: phase 2 at once
    assert "foundations  ·♣  ·♠  ·♥  ·♦" in out and "phase 2" in out


def test_gaps_are_visible_live_or_dead():
    # carpet: a gap with the stock to fill from is live
    assert "a J♦  []  9♥" in plain(draw_carpet.render(state_after("carpet", "1", "a2>F")))
    # carpet-foster, phase 2: a hole is live while the pile has a card, dead when it is empty
    state = state_after("carpet-foster", "4", "b4>F", "turn", "turn", "turn", "turn", "2S", "3S", "w>c3", "turn")
    text = plain(draw_carpet.render(state))
    assert "b K♦  6♠  []  Q♥  4♥" in text and "c K♥  8♣  5♠  9♦  6♣" in text
    assert "stock 24   waste 8♥ (3 cards)" in text and "phase 2" in text
    assert "foundations  2♣  3♠  A♥  ·♦   (· no ace yet)" in text
    state = state_after("carpet-foster", "4", "b4>F")
    state.cells[0] = -1  # a hole and an empty pile: nothing can fill it
    state.place_cells()  # (the cells changed by hand)
    assert "a ..  Q♣" in plain(draw_carpet.render(state))


def test_dead_gap_and_finished_foundations():
    state = state_after("carpet-auto", "1")
    state.cells[:] = [-1] * 20
    state.place_cells()  # (the cells changed by hand)
    state.drawn = len(state.stock)
    assert "a ..  ..  ..  ..  .." in plain(draw_carpet.render(state))
    assert "dead gap" in plain(draw_carpet.legend())
    state.found[:] = [13, 13, 13, 13]
    assert "foundations  K♣  K♠  K♥  K♦" in plain(draw_carpet.render(state))


# --- notation ---------------------------------------------------------------------------------
def test_moves_play_back_in_both_spellings(log):
    actions = doc(run("moves", log, "--json"))["actions"]
    assert actions and all("-" not in a for a in actions)
    for action in actions:
        for spelling in (action, action.replace(">", "-")):  # the dash needs no quoting in a shell
            assert run("play", log, spelling, "-q").exit_code == 0
            assert run("undo", log, "-q").exit_code == 0


def test_greater_than_is_still_read(tmp_path):
    path = tmp_path / "g.log"
    run("new", "carpet", "1", "-o", path)
    r = run("play", path, "a2>F", "turn", "w>a2", "s>w", "--json")
    assert r.exit_code == 0 and doc(r)["events"] == 4
    frames = doc(run("replay", path, "--json"))["frames"]
    assert [f["action"] for f in frames[1:]] == ["a2>F", "turn", "w>a2", "turn"]


# --- a whole session ------------------------------------------------------------------------------
def test_session_new_play_hint_undo_restart_show_verify_export(log, tmp_path):
    game = doc(run("show", log, "--json"))["game"]
    with freeze_time("2026-11-29 10:00:03"):
        r = run("play", log, "-", "--json", input="b4>F hint turn\n")
    last = [json.loads(line) for line in r.stdout.splitlines()]  # a document an action
    assert r.exit_code == 0 and last[-1]["elapsed_ms"] == 3000 and last[1]["hint"]
    assert last[-1]["moves"] == 2  # the hint is free
    with freeze_time("2026-11-29 10:00:04"):
        r = run("undo", log, "--json")
    assert doc(r)["moves"] == 1 and doc(r)["events"] == 4
    r = run("hint", log)
    assert r.exit_code == 0 and r.stdout.startswith("hint: ")
    with freeze_time("2026-11-29 10:00:05"):
        r = run("restart", log, "--json")
    assert doc(r)["moves"] == 0 and doc(r)["elapsed_ms"] == 0
    assert doc(r)["layout"] == doc(run("deal", game, "4", "--json"))["layout"]
    assert run("show", log).exit_code == 0 and "foundations" in run("show", log).stdout
    assert doc(run("show", log, "--at", "1", "--json"))["moves"] == 1
    verified = doc(run("verify", log, "--json"))["results"][0]
    assert verified["ok"] and verified["game"] == game and verified["events"] == 6
    as_json, back = tmp_path / "g.json", tmp_path / "back.log"
    assert run("export", log, "-o", as_json).exit_code == 0
    assert json.loads(as_json.read_text())["events"][0][0] == "b4>F"
    assert run("export", as_json, "-o", back).exit_code == 0
    assert back.read_bytes() == log.read_bytes()


def test_illegal_action_names_the_event(tmp_path):
    path = tmp_path / "g.log"
    run("new", "carpet", "1", "-o", path)
    before = path.read_bytes()
    r = run("play", path, "JD", "-q")
    assert r.exit_code == 1 and path.read_bytes() == before
    assert "event 1 (JD)" in r.stderr and "needs 2D" in r.stderr
    assert len(r.stderr.strip().splitlines()) == 1


@pytest.mark.parametrize("game", IDS)
def test_autoplay_draws_and_records(game, tmp_path):
    path = tmp_path / "auto.log"
    r = run("autoplay", game, "1", "-o", path)
    assert r.exit_code == 0 and "foundations" in r.stdout
    assert run("verify", path).exit_code == 0


def test_redeal_is_refused_in_one_line_where_the_game_has_none(log):
    before = log.read_bytes()
    r = run("redeal", log, "-q")
    assert r.exit_code == 1 and "has no redeal" in r.stderr and len(r.stderr.strip().splitlines()) == 1
    assert log.read_bytes() == before
