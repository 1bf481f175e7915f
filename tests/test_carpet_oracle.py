"""The carpet family's rules (core/carpet/, written once) against a plain reference written apart
(tests/carpet_oracle.py): the deal, every action tried in every position of random and played
games (accepted or refused alike), the legal actions, the status; and the one replay of a log
(its bulk loop over the codes) against the oracle played event by event."""

from __future__ import annotations

import random

import pytest

from carpet.core import GAMES, Session
from carpet.core.autoplay import play_out

import carpet_oracle as oracle
from oracletools import bulk_is_the_oracle, deals, every_action_everywhere

CARPETS = ["carpet", "carpet-auto", "carpet-foster"]


def seen(state) -> dict:
    """The position as the oracle keeps it."""
    return dict(cells=list(state.cells), stock=list(state.stock), found=list(state.found), waste=list(state.waste),
                drawn=state.drawn, score=state.score, phase=state.phase)


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
    statuses = set()
    for deal in deals(rng, 6):
        statuses |= every_action_everywhere(oracle, variant, deal, rng, 400, 400 if player else 0, seen)
    assert "playing" in statuses and ("won" in statuses or "lost" in statuses)


@pytest.mark.parametrize("name", CARPETS)
def test_a_log_replayed_in_bulk_is_the_oracle_event_by_event(name):
    """The one replay's loop over a log's codes (core/session.py play_codes, on core/carpet/) stops
    where the oracle refuses and leaves the oracle's position, codes changed at random on the way."""
    variant = GAMES[name]
    rng = random.Random(f"bulk {name}")
    for deal in deals(rng, 10):
        session = Session(variant, deal)
        play_out(session, 400)
        bulk_is_the_oracle(oracle, variant, session, rng, 80, seen)
