"""The carpet family's rules (core/carpet/, written once) against a plain reference written apart
(tests/carpet_oracle.py): the deal, every action tried in every position of random and played
games (accepted or refused alike), the legal actions, the status; and the one replay of a log
(its bulk loop over the codes) against the oracle played event by event."""

from __future__ import annotations

import random
from array import array

import pytest

from carpet.core import GAMES, Session, parse_deal
from carpet.core.autoplay import play_out
from carpet.core.game import FIRST_ACTION
from carpet.formats.replay import kernel_of

from carpet.formats.codec import decoder

import carpet_oracle as oracle
from replaytools import codes_of

CARPETS = ["carpet", "carpet-auto", "carpet-foster"]


def seen(state) -> dict:
    """The position as the oracle keeps it."""
    return dict(cells=list(state.cells), stock=list(state.stock), found=list(state.found), waste=list(state.waste),
                drawn=state.drawn, score=state.score, phase=state.phase)


def deals(rng, count: int) -> list:
    return [parse_deal(t) for t in [str(rng.randint(1, 31999)) for _ in range(count)]
            + [f"ms{rng.randrange(1, 2**33)}", str(rng.randrange(32000, 10**20))]]


@pytest.mark.parametrize("name", CARPETS)
def test_the_deal_is_the_oracles(name):
    variant = GAMES[name]
    phases = set()
    for deal in deals(random.Random(name), 400):
        state = variant.new_state(deal)
        want = oracle.deal(variant, deal)
        assert seen(state) == want, deal.text
        assert state.status == oracle.status(variant, want)
        phases.add(state.phase)
    assert phases == ({1, 2} if variant.foster else {2})  # carpet-foster's deal ends in either phase


@pytest.mark.parametrize("name", CARPETS)
@pytest.mark.parametrize("player", (True, False))
def test_every_action_in_every_position_is_the_oracles(name, player):
    """In each position of a game every action index is tried: the rules accept exactly what the
    oracle accepts and reach its position; legal_actions is that set; the status is the oracle's."""
    variant = GAMES[name]
    rng = random.Random(f"{name} {player}")
    every = [a for a in range(FIRST_ACTION, variant.action_count) if variant.valid_index(a)]
    assert sorted(variant.text(a) for a in every) == sorted(oracle.texts(variant))
    statuses = set()
    for deal in deals(rng, 6):
        session = Session(variant, deal)
        if player:
            play_out(session, 400)
            line = [a for a, _ in session.events]
            session = Session(variant, deal)
        for k in range(400):
            state = session.state
            here = seen(state)
            statuses.add(state.status)
            assert state.status == oracle.status(variant, here)
            accepted = []
            for action in every:
                want = oracle.play(variant, here, variant.text(action))
                snap = state.snapshot()
                done = state.step(action)
                assert done == (want is not None), (deal.text, k, variant.text(action))
                if done:
                    accepted.append(action)
                    assert seen(state) == want
                    state.restore(snap)
                else:
                    assert seen(state) == here  # a refusal changes nothing
            assert sorted(state.legal_actions()) == accepted
            if not accepted:
                break
            session.act(line[k] if player and k < len(line) else rng.choice(accepted), 0)
    assert "playing" in statuses and ("won" in statuses or "lost" in statuses)


@pytest.mark.parametrize("name", CARPETS)
def test_a_log_replayed_in_bulk_is_the_oracle_event_by_event(name):
    """The one replay's loop over a log's codes (core/session.py play_codes, on core/carpet/) stops
    where the oracle refuses and leaves the oracle's position, codes changed at random on the way."""
    variant = GAMES[name]
    rng = random.Random(f"bulk {name}")
    play = kernel_of(variant, True)
    for deal in deals(rng, 10):
        session = Session(variant, deal)
        play_out(session, 400)
        codes = codes_of(session)
        for rate in (0, 0.05):
            mixed = [rng.randrange(3, 80) if rng.random() < rate else code for code in codes]
            state = variant.new_state(deal)
            actions = array("I")
            stop = play(state, mixed, 0, len(mixed), actions, decoder(state))
            p = oracle.deal(variant, deal)
            for k, action in enumerate(actions):
                p = oracle.play(variant, p, variant.text(action))
                assert p is not None, (deal.text, k)
            assert seen(state) == p
            if stop < len(mixed) and mixed[stop] > 2 and oracle.status(variant, p) != "won":
                action = decoder(state)(state, mixed[stop])  # what stopped it: no action, or one refused
                assert (action < FIRST_ACTION or not variant.valid_index(action)
                        or oracle.play(variant, p, variant.text(action)) is None)
