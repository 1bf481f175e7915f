"""Properties every variant must keep, from one shared helper (tests/playthrough.py)."""

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from carpet.core import GAMES, Session, parse_deal
from carpet.formats import decode, encode, new_header, record, replay, verify
from carpet.formats.log_types import digest_text

from playthrough import observe, random_session

ALL = sorted(GAMES)
CREATED = "2026-11-29T12:00:00.000Z"
quick = settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@pytest.mark.parametrize("game", ALL)
@quick
@given(seed=st.integers(0, 2**32))
def test_random_play_keeps_cards_and_undo_inverts(game, seed):
    random_session(GAMES[game], seed, 120)


@pytest.mark.parametrize("game", ALL)
@quick
@given(seed=st.integers(0, 2**32))
def test_replay_of_record_is_the_session_and_bytes_round_trip(game, seed):
    session = random_session(GAMES[game], seed, 150, check=False)
    log = record(session, new_header(session, created=CREATED, tool="test"))
    for as_json in (False, True):
        data = encode(log, as_json=as_json)
        back = decode(data)
        assert back == log
        assert encode(back, as_json=as_json) == data  # byte-identical
        again = verify(back)
        assert observe(again) == observe(session)
        assert again.events == session.events
    # binary -> JSON -> binary is lossless
    assert encode(decode(encode(decode(encode(log)), as_json=True))) == encode(log)


@pytest.mark.parametrize("game", ALL)
def test_positions_along_a_log_are_reproducible(game):
    session = random_session(GAMES[game], 7, 200, check=False)
    log = record(session, new_header(session, created=CREATED, tool="test"))
    for n in (0, 1, 50, len(log.events)):
        a, b = replay(log, n), replay(log, n)
        assert observe(a) == observe(b)
    assert digest_text(replay(log, 0), log.header.version) == log.header.layout


@pytest.mark.parametrize("game", ALL)
def test_canonical_text_round_trips_for_every_action(game):
    variant = GAMES[game]
    count = 0
    for action in range(variant.action_count):
        if action >= 3 and not variant.valid_index(action):
            continue
        text = variant.text(action)
        assert " " not in text and text
        assert variant.parse_canonical(text) == action
        count += 1
    assert count > 3


@pytest.mark.parametrize("game", ALL)
def test_parsing_what_moves_lists_gives_the_same_move(game):
    session = random_session(GAMES[game], 11, 60, check=False)
    for action in session.legal_actions():
        assert session.parse(session.variant.text(action)) == action


@pytest.mark.parametrize("game", ALL)
def test_a_deal_is_a_pure_function_of_game_and_number(game):
    a = Session(GAMES[game], parse_deal("123456"))
    b = Session(GAMES[game], parse_deal("123456"))
    assert a.state.layout() == b.state.layout() and a.state.digest() == b.state.digest()
    assert Session(GAMES[game], parse_deal("123457")).state.digest() != a.state.digest()
