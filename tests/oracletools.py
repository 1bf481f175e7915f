"""The differential checks of a family's rules (written once in its package under core/) against
its plain oracle (tests/carpet_oracle.py, tests/quilt_oracle.py: ``deal``, ``play`` by action text,
``texts``, ``status``), shared by tests/test_carpet_oracle.py and tests/test_quilt_oracle.py."""

from __future__ import annotations

from array import array

from carpet.core import Session, parse_deal
from carpet.core.autoplay import play_out
from carpet.core.game import FIRST_ACTION
from carpet.formats.codec import decoder

from replaytools import bulk_of, codes_of


def deals(rng, count: int) -> list:
    """``count`` PySol deal numbers, a Microsoft one and one past 32,000."""
    return [parse_deal(t) for t in [str(rng.randint(1, 31999)) for _ in range(count)]
            + [f"ms{rng.randrange(1, 2**33)}", str(rng.randrange(32000, 10**20))]]


def every_action_everywhere(oracle, variant, deal, rng, steps: int, player: int, seen, position=None) -> set:
    """In each position of a game of ``deal`` every action index is tried: the rules accept exactly
    what the oracle accepts and reach its position (``seen``), a refusal changes nothing
    (``position``, else ``seen``); legal_actions is that set, in index order once sorted; the status
    is the oracle's.  The game follows the built-in player's first ``player`` actions, then random
    accepted ones, ``steps`` in all; returns the statuses met."""
    position = position or seen
    session = Session(variant, deal)
    play_out(session, player)
    line = [a for a, _ in session.events]
    session = Session(variant, deal)
    every = [a for a in range(FIRST_ACTION, variant.action_count) if variant.valid_index(a)]
    assert sorted(variant.text(a) for a in every) == sorted(oracle.texts(variant))
    text = {a: variant.text(a) for a in every}
    statuses = set()
    for k in range(steps):
        state = session.state
        here = seen(state)
        statuses.add(state.status)
        assert state.status == oracle.status(variant, here)
        accepted = []
        for action in every:
            want = oracle.play(variant, here, text[action])
            snap = state.snapshot()
            done = state.step(action)
            assert done == (want is not None), (session.deal.text, k, text[action])
            if done:
                accepted.append(action)
                assert seen(state) == want
                state.restore(snap)
            else:
                assert position(state) == here  # a refusal changes nothing
        assert sorted(state.legal_actions()) == accepted
        if not accepted:
            break
        session.act(line[k] if k < len(line) else rng.choice(accepted), 0)
    return statuses


def bulk_is_the_oracle(oracle, variant, session, rng, top: int, seen) -> None:
    """The one replay's loop over the codes of ``session``'s log (core/session.py play_codes) stops
    where the oracle refuses and leaves the oracle's position, codes below ``top`` put in at random
    on the way (none: it plays the whole log)."""
    play = bulk_of(variant)
    deal = session.deal
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
