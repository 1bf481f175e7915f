"""The built-in player: repeatedly take the simple player's action (core/players.py).

Used by ``carpet autoplay``, by ``@auto`` in the fixture recipes, and by tests.
"""

from __future__ import annotations

from typing import Callable

from .game import PLAYING
from .players import simple_action
from .session import Session


def play_out(session: Session, limit: int = 5000, clock: Callable[[], int] = lambda: 0) -> int:
    """Play until the game ends, no action is offered, the player goes round in circles, or
    ``limit`` actions; returns the actions taken.

    The player's choice depends on the position alone, so once a position comes back it
    would only repeat the same circle: play stops there.
    """
    taken = 0
    state = session.state
    seen = set()
    while taken < limit and state.status == PLAYING:
        key = (state.position_bytes(), state.redeals_used)
        if key in seen:
            break
        seen.add(key)
        action = simple_action(state)
        if action is None:
            break
        session.act(action, clock())
        taken += 1
    return taken
