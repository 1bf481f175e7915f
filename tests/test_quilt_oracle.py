"""The quilt family's rules (core/quilt/, written once) against a plain reference written apart
(tests/quilt_oracle.py): the deal, every action tried in positions of random and played games
(accepted or refused alike), the legal actions, the status, what the rules keep beside the position
(where each card lies, what each pile takes next); and the one replay of a log (its bulk loop over
the codes) against the oracle played event by event."""

from __future__ import annotations

import random

import pytest

from carpet.core import GAMES, Session

import quilt_oracle as oracle
from oracletools import bulk_is_the_oracle, deals, every_action_everywhere

QUILTS = ["crazy-quilt", "indian-carpet", "persian-carpet"]


def position(state) -> dict:
    """The position as the oracle keeps it."""
    return dict(cells=state.cells[:64], stock=list(state.stock), waste=list(state.waste),
                found=[list(p) for p in state.found], reserves=[list(r) for r in state.reserves],
                redeals=state.redeals_used)


def seen(state) -> dict:
    """:func:`position`, after checking that what the state keeps beside it agrees."""
    cells = state.cells[:64]
    assert state.cells[64] == -1  # (OFF: always empty)
    assert state.loc == [cells.index(card) if card in cells else -1 for card in range(104)]
    assert state.in_quilt == sum(card >= 0 for card in cells)
    assert state.need == [-1 if len(pile) == 13 else pile[-1] % 52 + (1 if k < 4 else -1)
                          for k, pile in enumerate(state.found)]
    assert state.score == state.on_found - 8 == sum(map(len, state.found)) - 8
    return position(state)


@pytest.mark.parametrize("name", QUILTS)
def test_the_deal_is_the_oracles(name):
    variant = GAMES[name]
    for deal in deals(random.Random(name), 60):
        state = variant.new_state(deal)
        want = oracle.deal(variant, deal)
        assert seen(state) == want, deal.text
        assert state.status == oracle.status(variant, want)


@pytest.mark.parametrize("name", QUILTS)
@pytest.mark.parametrize("player", (True, False))
def test_every_action_in_every_position_is_the_oracles(name, player):
    """In each position of a game every action index is tried: the rules accept exactly what the
    oracle accepts and reach its position; legal_actions is that set; the status is the oracle's."""
    variant = GAMES[name]
    rng = random.Random(f"{name} {player}")
    statuses = set()
    for deal in deals(rng, 1):
        statuses |= every_action_everywhere(oracle, variant, deal, rng, 60, 40 if player else 0, seen, position)
    assert "playing" in statuses


@pytest.mark.parametrize("name", QUILTS)
def test_a_log_replayed_in_bulk_is_the_oracle_event_by_event(name):
    """The one replay's loop over a log's codes (core/session.py play_codes, on core/quilt/) stops
    where the oracle refuses and leaves the oracle's position, codes changed at random on the way."""
    variant = GAMES[name]
    rng = random.Random(f"bulk {name}")
    for deal in deals(rng, 2):
        session = Session(variant, deal)
        for _ in range(300):  # random play: refusals, reserve moves and redeals come up more than in a player's
            actions = session.legal_actions()
            if not actions:
                break
            session.act(rng.choice(actions), 0)
        bulk_is_the_oracle(oracle, variant, session, rng, 215 + variant.action_count, seen)
