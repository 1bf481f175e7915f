"""One random-play helper for every variant (OpenSpiel's habit): the same checks at every step."""

from __future__ import annotations

import random

from carpet.core import HINT, RESTART, UNDO, Session, Variant, parse_deal


def observe(session: Session) -> tuple:
    return (session.state.digest(), session.score, session.status, session.redeals_left, session.moves)


def random_session(variant: Variant, seed: int, steps: int, *, check: bool = True) -> Session:
    """Play ``steps`` random events; with ``check``, assert the per-step properties as it goes."""
    rng = random.Random(seed)
    deal = parse_deal(str(rng.choice([rng.randint(1, 31999), rng.randint(32000, 10**12)])))
    session = Session(variant, deal)
    total = len(session.state.all_cards())
    clock = 0
    for _ in range(steps):
        clock += rng.randint(0, 3000)
        actions = session.legal_actions()
        roll = rng.random()
        if roll < 0.05:
            action = HINT
        elif roll < 0.15 and session.can_undo():
            action = UNDO
        elif roll < 0.16 or not actions:
            action = RESTART
        else:
            action = rng.choice(actions)
        if not (check and action >= 3 and _check_undo_inverts(session, action, clock)):
            session.act(action, clock)
        if action == RESTART:
            clock = 0
        if check:
            cards = session.state.all_cards()
            assert len(cards) == total and len(set(cards)) == total, "cards not conserved"
            snap = session.state.snapshot()
            session.state.restore(snap)
            assert session.state.snapshot() == snap
    return session


def _check_undo_inverts(session: Session, action: int, clock: int) -> bool:
    """Play ``action``, undo it and compare; True when the action stays played (it won)."""
    before = observe(session)
    legal = session.legal_actions()
    session.act(action, clock)
    if session.status == "won":
        return True  # a win is final: nothing to undo
    session.act(UNDO, clock)
    after = observe(session)
    v = session.variant
    # undo restores the position and score; the counter per the variant's policy
    assert after[:2] == before[:2], f"undo did not invert {v.text(action)}"
    if v.undo_refunds_redeal:
        assert after[3] == before[3]
    if not v.undo_counts:
        assert after[4] == before[4]
    else:
        assert after[4] == before[4] + 2
    assert session.legal_actions() == legal or not v.undo_refunds_redeal
    # a redeal that undo did not give back may be gone: then the step is spent
    return action not in session.legal_actions()


def perft(state, depth: int) -> int:
    """Positions reachable in exactly ``depth`` legal actions (python-chess's habit): pins a move generator."""
    if depth == 0:
        return 1
    total = 0
    snap = state.snapshot()
    for action in state.legal_actions():
        state.apply(action)
        total += perft(state, depth - 1)
        state.restore(snap)
    return total
