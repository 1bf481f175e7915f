"""The quilt family's rules (core/quilt/, written once) against a plain reference written apart
(tests/quilt_oracle.py): the deal, every action tried in positions of random and played games
(accepted or refused alike), the legal actions, the status, what the rules keep beside the position
(where each card lies, what each pile takes next); and the one replay of a log (its bulk loop over
the codes) against the oracle played event by event."""

from __future__ import annotations

import random
from array import array

import pytest

from carpet.core import GAMES, Session, parse_deal
from carpet.core.autoplay import play_out
from carpet.core.game import FIRST_ACTION
from carpet.formats.codec import decoder
from carpet.formats.replay import kernel_of

import quilt_oracle as oracle
from replaytools import codes_of

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


def deals(rng, count: int) -> list:
    return [parse_deal(t) for t in [str(rng.randint(1, 31999)) for _ in range(count)]
            + [f"ms{rng.randrange(1, 2**33)}", str(rng.randrange(32000, 10**20))]]


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
    every = [a for a in range(FIRST_ACTION, variant.action_count) if variant.valid_index(a)]
    assert sorted(variant.text(a) for a in every) == sorted(oracle.texts(variant))
    text = {a: variant.text(a) for a in every}
    statuses = set()
    for deal in deals(rng, 1):
        session = Session(variant, deal)
        if player:
            play_out(session, 40)
            line = [a for a, _ in session.events]
            session = Session(variant, deal)
        for k in range(60):
            state = session.state
            here = seen(state)
            statuses.add(state.status)
            assert state.status == oracle.status(variant, here)
            accepted = []
            for action in every:
                want = oracle.play(variant, here, text[action])
                snap = state.snapshot()
                done = state.step(action)
                assert done == (want is not None), (deal.text, k, text[action])
                if done:
                    accepted.append(action)
                    assert seen(state) == want
                    state.restore(snap)
                else:
                    assert position(state) == here  # a refusal changes nothing
            assert state.legal_actions() == accepted  # (index order: the canonical order)
            if not accepted:
                break
            session.act(line[k] if player and k < len(line) else rng.choice(accepted), 0)
    assert "playing" in statuses


@pytest.mark.parametrize("name", QUILTS)
def test_a_log_replayed_in_bulk_is_the_oracle_event_by_event(name):
    """The one replay's loop over a log's codes (core/session.py play_codes, on core/quilt/) stops
    where the oracle refuses and leaves the oracle's position, codes changed at random on the way."""
    variant = GAMES[name]
    rng = random.Random(f"bulk {name}")
    play = kernel_of(variant, True)
    top = 215 + variant.action_count
    for deal in deals(rng, 2):
        session = Session(variant, deal)
        for _ in range(300):  # random play: refusals, reserve moves and redeals come up more than in a player's
            actions = session.legal_actions()
            if not actions:
                break
            session.act(rng.choice(actions), 0)
        codes = codes_of(session)
        for rate in (0, 0.05):
            mixed = [rng.randrange(3, top) if rng.random() < rate else code for code in codes]
            state = variant.new_state(deal)
            actions = array("I")
            stop = play(state, mixed, 0, len(mixed), actions, decoder(state))
            p = oracle.deal(variant, deal)
            for k, action in enumerate(actions):
                p = oracle.play(variant, p, variant.text(action))
                assert p is not None, (deal.text, k)
            assert seen(state) == p
            assert rate or stop == len(mixed)
            if stop < len(mixed) and mixed[stop] > 2 and oracle.status(variant, p) != "won":
                action = decoder(state)(state, mixed[stop])  # what stopped it: no action, or one refused
                assert (action < FIRST_ACTION or not variant.valid_index(action)
                        or oracle.play(variant, p, variant.text(action)) is None)
