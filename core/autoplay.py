"""The built-in player: repeatedly take the position's ``auto_action``.

For the carpet family that is the simple player of the rules' own check; for the
other families it is the hint.  Used by ``carpet autoplay`` and by tests.
"""

from __future__ import annotations

from typing import Callable

from .game import PLAYING
from .session import Session


def play_out(session: Session, limit: int = 5000, clock: Callable[[], int] = lambda: 0) -> int:
    """Play until the game ends, no action is offered, or ``limit`` actions; returns actions taken."""
    taken = 0
    state = session.state
    while taken < limit and state.status == PLAYING:
        action = state.auto_action()
        if action is None:
            break
        session.act(action, clock())
        taken += 1
    return taken
