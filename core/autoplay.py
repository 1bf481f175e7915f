"""The built-in player (``carpet autoplay``, ``@auto`` in the fixture recipes, the survey's
``simple`` player): repeatedly take the simple player's action.

These are the players the project had before the solver, kept exactly as they were so
that recorded fixtures stay byte for byte what they are; ``carpet hint`` no longer uses
them (see :mod:`carpet.core.solver`).

- grid and carpet families: the state's own ``auto_action`` (grid: a ranked card move, or a
  redeal; carpet: a card to a foundation when one fits, the first cell row-major then the
  waste top, else the waste top into the first gap, else turn the stock);
- quilt family: a short look-ahead (:func:`best_action`): every legal action gets an equal
  share of a small budget for a depth-first search from where it leads; the one whose
  search wins, or else reaches the highest score, is played.

Each depends on the position alone, uses no clock and no randomness.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from typing import Callable

from .game import LOST, PLAYING, WON, State
from .session import Session

#: the look-ahead budget of one quilt move
LOOKAHEAD_NODES = 600


def play_out(session: Session, limit: int = 5000, clock: Callable[[], int] = lambda: 0,
             choose: Callable[[Session], int | None] | None = None) -> int:
    """Play until the game ends, no action is offered, the player goes round in circles, or
    ``limit`` actions; returns the actions taken.  ``choose`` names the player's action (or
    None: nothing to play); the simple player's when not given.

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
        action = simple_action(state) if choose is None else choose(session)
        if action is None:
            break
        session.act(action, clock())
        taken += 1
    return taken


def simple_action(state: State) -> int | None:
    """The simple player's action here, or None when it has none (the game is over)."""
    own = getattr(state, "auto_action", None)  # the family's own simple rule (grid, carpet)
    return own() if own is not None else best_action(state)  # else a short look-ahead (quilt)


# --- the quilt family's look-ahead -------------------------------------------------------------

@dataclass
class SearchResult:
    #: whether ``actions`` wins the game
    won: bool
    #: the winning line, or else the line to the highest score seen (empty: nothing better)
    actions: list[int] = field(default_factory=list)
    #: the score at the end of ``actions``
    best_score: int = 0
    #: actions applied during the search
    nodes: int = 0


def _key(state: State) -> bytes:
    return hashlib.blake2b(state.position_bytes(), digest_size=12).digest()


def _ordered(state: State) -> list[int]:
    actions = state.legal_actions()
    rank = getattr(state, "action_rank", None)
    if rank is not None and len(actions) > 1:
        actions.sort(key=rank, reverse=True)  # stable: ties keep canonical order
    return actions


def _hopeless(state: State) -> bool:
    if state.status == LOST:
        return True
    # the quilt's look-ahead has always used the waste test alone (the solver's dead_end knows more)
    dead_end = getattr(state, "waste_blocked", None) or getattr(state, "dead_end", None)
    return dead_end is not None and dead_end()


def depth_first(state: State, node_limit: int) -> SearchResult:
    """Depth first, most promising action first, each position once; state unchanged."""
    start = state.snapshot()
    if state.status == WON:
        return SearchResult(True, [], state.score, 0)
    best_score, best_line = state.score, []
    seen = {_key(state)}
    nodes = 0
    path: list[int] = []
    # each frame: the snapshot of a position on the path and the actions still to try there
    stack = [(start, iter(_ordered(state)))]
    dead_end = getattr(state, "waste_blocked", None) or getattr(state, "dead_end", None)
    at_top = True  # whether the state is the top frame's position
    try:
        while stack:
            snap, actions = stack[-1]
            action = next(actions, None)
            if action is None:
                stack.pop()
                if path:
                    path.pop()
                at_top = False
                continue
            if nodes >= node_limit:
                break
            if not at_top:
                state.restore(snap)
            state.apply(action)
            nodes += 1
            at_top = False
            if state.status == WON:
                path.append(action)
                return SearchResult(True, path, state.score, nodes)
            if state.score > best_score:
                best_score, best_line = state.score, path + [action]
            if state.status == LOST or (dead_end is not None and dead_end()):
                continue
            key = _key(state)
            if key in seen:
                continue
            seen.add(key)
            path.append(action)
            stack.append((state.snapshot(), iter(_ordered(state))))
            at_top = True
        return SearchResult(False, best_line, best_score, nodes)
    finally:
        state.restore(start)


def _look_ahead(state: State, node_limit: int) -> tuple[int | None, list[int] | None, int]:
    """(the action to play, a winning line when one was seen, nodes used); state unchanged."""
    actions = _ordered(state)
    if len(actions) <= 1 or node_limit < len(actions):
        return (actions[0] if actions else None), None, 0
    share = node_limit // len(actions)  # one apply and a search of share - 1 for each
    start = state.snapshot()
    best, best_value = actions[0], None
    nodes = 0
    try:
        for action in actions:
            state.apply(action)
            nodes += 1
            if state.status == WON:
                return action, [action], nodes
            if _hopeless(state):
                value = -1
            else:
                result = depth_first(state, share - 1)
                nodes += result.nodes
                if result.won:
                    return action, [action] + result.actions, nodes
                value = result.best_score
            if best_value is None or value > best_value:
                best, best_value = action, value
            state.restore(start)
        return best, None, nodes
    finally:
        state.restore(start)


def best_action(state: State, node_limit: int = LOOKAHEAD_NODES) -> int | None:
    """The legal action whose short look-ahead does best (for hints); the state is unchanged.

    Each action, most promising first, gets an equal share of ``node_limit`` for a
    depth-first search from the position it leads to.  An action whose search wins is
    taken at once; otherwise the highest score reached decides, and between equals the
    more promising action.  None when nothing is legal.
    """
    return _look_ahead(state, node_limit)[0]

