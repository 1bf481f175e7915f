"""Test-only players for ``carpet survey``, added to the registry by the tests that use them.

They sit in a module of their own so that worker processes import them by name, as they do
the real players.
"""

import os

from carpet.core.players import Played


def parity(session, budget):
    """Won on even deals, unknown on multiples of 5 (odd), lost otherwise; moves and score from the number."""
    n = session.deal.number
    if n % 2 == 0:
        return Played("won", n % 10 + 1, n % 7, 3, budget or 0)
    if n % 5 == 0:
        return Played("unknown", 0, 0, 0, budget or 0)
    return Played("lost", 1, 0, 1, budget or 0)


def whose(session, budget):
    """Lost, with the worker's process id as its 'actions': shows which process played a deal."""
    return Played("lost", 0, 0, os.getpid(), 0)
