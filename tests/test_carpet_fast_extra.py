"""The carpet family's bulk replay of a log (the session's loop over the codes and the rules written
once, core/carpet/) pinned to the plain way where tests/test_fast_replay.py looks less often:
``play_codes`` called on short runs from positions with gaps and mid-game, carpet-foster's two
phases, won games played on, events given by their action index."""

from __future__ import annotations

import random
from array import array

import pytest

from carpet.core import GAMES, Session, parse_deal
from carpet.core.autoplay import play_out
from carpet.core.game import PLAYING, WON
from carpet.formats.codec import decoder
from carpet.core.session import lean_class

from replaytools import bulk_of, codes_of, plain_codes

CARPETS = ["carpet", "carpet-auto", "carpet-foster"]


def fields(state) -> dict:
    return {name: getattr(state, name) for name in
            ("cells", "found", "stock", "drawn", "waste", "phase", "score", "status", "redeals_used")}


def lean(state):
    state.__class__ = lean_class(type(state))
    return state


def game(variant, deal, rng, player: bool) -> Session:
    session = Session(variant, deal)
    if player:
        play_out(session, 400)
    else:
        for _ in range(400):
            actions = session.legal_actions()
            if not actions:
                break
            session.act(rng.choice(actions), 0)
    return session


def play_both(variant, deal, codes, cuts) -> None:
    """``play_codes`` and the plain way on the same codes, stopping at every cut and past every
    event not played: the same stops, actions and positions each time."""
    quick, slow = lean(variant.new_state(deal)), lean(variant.new_state(deal))
    got, want = array("I"), array("I")
    i, stops = 0, sorted(set(cuts) | {len(codes)})
    while i < len(codes):
        end = next(c for c in stops if c > i)
        j = bulk_of(variant)(quick, codes, i, end, got, decoder(quick))
        k = plain_codes(slow, codes, i, end, want, decoder(slow))
        assert (j, list(got)) == (k, list(want)), f"events {i}..{end}: stopped at {j} instead of {k}"
        assert fields(quick) == fields(slow), f"after events {i}..{j}"
        i = j + 1 if j == i else j


@pytest.mark.parametrize("name", CARPETS)
@pytest.mark.parametrize("player", (True, False))
def test_short_runs_from_every_kind_of_position(name, player):
    variant = GAMES[name]
    rng = random.Random(f"{name} {player} runs")
    for k in range(25):
        deal = parse_deal(str(rng.randint(1, 31999)))
        codes = codes_of(game(variant, deal, rng, player))
        for cuts in ([], rng.sample(range(len(codes)), min(len(codes), 12)), range(0, len(codes), 3)):
            play_both(variant, deal, codes, cuts)
            play_both(variant, deal, bytearray(codes), cuts)  # a log's codes come as bytes
        for rate in (0.02, 0.1):  # unusual codes on the way: each goes the plain way
            bad = [rng.randrange(3, 300) if rng.random() < rate else c for c in codes]
            play_both(variant, deal, bad, rng.sample(range(len(bad)), min(len(bad), 5)))


@pytest.mark.parametrize("name", CARPETS)
def test_a_won_game_stops_after_its_last_move(name):
    variant = GAMES[name]
    won = 0
    for number in range(1, 40):
        deal = parse_deal(str(number))
        session = Session(variant, deal)
        play_out(session, 5000)
        if session.status != WON:
            continue
        won += 1
        codes = codes_of(session)
        more = codes + [8, 7, 3, 4, 5, 6, 9, 29, 60, 0]
        state = lean(variant.new_state(deal))
        actions = array("I")
        assert bulk_of(variant)(state, bytearray(more), 0, len(more), actions, decoder(state)) == len(codes)
        assert state.status == WON and state.score == session.state.score
        assert list(actions) == [a for a, _ in session.events]
        play_both(variant, deal, more, [len(codes) - 1, len(codes) + 2])
    assert won >= 5


def test_foster_goes_on_in_the_tight_loop_after_its_first_phase():
    """carpet-foster's phase 1 is played one event at a time; from phase 2 on, the tight loop."""
    variant = GAMES["carpet-foster"]
    seen = 0
    for number in range(1, 60):
        deal = parse_deal(str(number))
        if variant.new_state(deal).phase != 1:
            continue
        session = Session(variant, deal)
        play_out(session, 5000)
        codes = codes_of(session)
        state = lean(variant.new_state(deal))
        actions = array("I")
        assert bulk_of(variant)(state, bytearray(codes), 0, len(codes), actions, decoder(state)) == len(codes)
        assert list(actions) == [a for a, _ in session.events]
        plain = session.state
        assert (state.cells, state.found, state.waste, state.drawn, state.phase, state.score) == \
            (plain.cells, plain.found, plain.waste, plain.drawn, plain.phase, plain.score)
        assert state.status == (WON if plain.status == WON else PLAYING)
        seen += 1
    assert seen >= 5


@pytest.mark.parametrize("name", CARPETS)
def test_events_played_the_plain_way_mid_run(name):
    """Some events by their action index (code 49 + action: the plain way plays them, and the tight
    loop takes the position up again from the state), in either phase of carpet-foster."""
    variant = GAMES[name]
    rng = random.Random(f"{name} explicit")
    for number in range(1, 30):
        deal = parse_deal(str(number))
        session = Session(variant, deal)
        play_out(session, 5000)
        codes = codes_of(session)
        for rate in (1.0, 0.3):
            mixed = [49 + action if rng.random() < rate else code
                     for code, (action, _) in zip(codes, session.events)]
            play_both(variant, deal, mixed, [])
            state = lean(variant.new_state(deal))
            actions = array("I")
            assert bulk_of(variant)(state, mixed, 0, len(mixed), actions, decoder(state)) == len(mixed)
            assert list(actions) == [a for a, _ in session.events]
