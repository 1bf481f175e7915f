"""Action codes of the version-2 binary log (formats/codec.py): every action has one, every code names one."""

import random

import pytest

from carpet.core import GAMES, Session, parse_deal
from carpet.core.autoplay import play_out
from carpet.formats.codec import NO_ACTION, codec

from playthrough import random_session

ALL = list(GAMES)


@pytest.mark.parametrize("game", ALL)
def test_every_legal_action_round_trips_through_its_code(game):
    variant = GAMES[game]
    encode, decode = codec(variant.family)
    checked = 0
    for seed in range(6):
        session = random_session(variant, seed, 120, check=False)
        state = Session(variant, session.deal).state
        for action, _ in session.events:
            if action < 3:
                continue
            for other in state.legal_actions():
                code = encode(state, other)
                assert code >= 3 and decode(state, code) == other, (variant.text(other), code)
                checked += 1
            try:
                state.apply(action)
            except Exception:
                break
    assert checked > 100


@pytest.mark.parametrize("game", ALL)
def test_any_action_has_a_code_and_any_code_decodes_to_one_action_or_none(game):
    variant = GAMES[game]
    encode, decode = codec(variant.family)
    state = variant.new_state(parse_deal("5"))
    rng = random.Random(1)
    for action in rng.sample(range(3, variant.action_count), min(400, variant.action_count - 3)):
        if not variant.valid_index(action):
            continue
        assert decode(state, encode(state, action)) == action
    for code in list(range(3, 6000)) + [2**32 + 7, 2**64 + 5, 2**70]:
        action = decode(state, code)  # nothing past the last action, however large the code
        assert action == NO_ACTION or 3 <= action < variant.action_count, code
    assert decode(state, 2**64 + 5) == NO_ACTION


def test_common_actions_fit_a_byte_and_carpet_ones_half_a_byte():
    for game in ALL:
        variant = GAMES[game]
        encode, _ = codec(variant.family)
        session = Session(variant, parse_deal("3"))
        play_out(session, 150)
        state = Session(variant, session.deal).state
        small = total = 0
        for action, _ in session.events:
            code = encode(state, action)
            total += 1
            small += code < (15 if variant.family == "carpet" else 255)
            state.apply(action)
        assert small >= 0.9 * total, game
