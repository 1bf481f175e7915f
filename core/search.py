"""A search for winning lines, for any variant, through the State API alone.

It plays on the given state with ``snapshot``/``restore``/``legal_actions``/``apply``
(and reads ``status``, ``score`` and ``position_bytes``), and always leaves the state as
it found it.  Depth first, most promising action first, never entering a position twice
(positions are keyed by a digest of ``position_bytes``), and bounded by a node limit:
a node is one ``apply``.  No clock and no randomness, so the same state and limit always
give the same answer, on any machine.

A state may help with two optional methods: ``action_rank(action) -> int`` orders the
actions (higher first; without it, and between equals, canonical order), and
``dead_end() -> bool`` says that a position can no longer be won, so the search goes no
deeper there.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field

from .game import LOST, WON, State


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
    #: whether the search stopped at its node limit (False: the space below was exhausted)
    exhausted_limit: bool = False


def _key(state: State) -> bytes:
    return hashlib.blake2b(state.position_bytes(), digest_size=12).digest()


def _ordered(state: State) -> list[int]:
    actions = state.legal_actions()
    rank = getattr(state, "action_rank", None)
    if rank is not None and len(actions) > 1:
        actions.sort(key=rank, reverse=True)  # stable: ties keep canonical order
    return actions


def find_win(state: State, node_limit: int = 100_000) -> SearchResult:
    """Look for a winning line from ``state``; the state is unchanged afterwards."""
    start = state.snapshot()
    if state.status == WON:
        return SearchResult(True, [], state.score, 0)
    best_score, best_line = state.score, []
    seen = {_key(state)}
    nodes = 0
    path: list[int] = []
    # each frame: the snapshot of a position on the path and the actions still to try there
    stack = [(start, iter(_ordered(state)))]
    dead_end = getattr(state, "dead_end", None)
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
                return SearchResult(False, best_line, best_score, nodes, True)
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


def replay_line(state: State, actions: list[int]) -> None:
    """Apply a line found by :func:`find_win` (raises IllegalAction if it does not fit)."""
    for action in actions:
        state.apply(action)


def best_action(state: State, node_limit: int = 600) -> int | None:
    """The legal action whose short look-ahead does best (for hints); the state is unchanged.

    Each action, most promising first, gets an equal share of ``node_limit`` for a
    :func:`find_win` from the position it leads to.  An action that wins (or whose
    look-ahead wins) is taken at once; otherwise the highest score the look-ahead reached
    decides, and between equals the more promising action.  None when nothing is legal.
    """
    actions = _ordered(state)
    if len(actions) <= 1:
        return actions[0] if actions else None
    share = max(1, node_limit // len(actions))
    dead_end = getattr(state, "dead_end", None)
    start = state.snapshot()
    best, best_value = actions[0], None
    try:
        for action in actions:
            state.apply(action)
            if state.status == WON:
                return action
            if state.status == LOST or (dead_end is not None and dead_end()):
                value = -1
            else:
                result = find_win(state, share)
                if result.won:
                    return action
                value = result.best_score
            if best_value is None or value > best_value:
                best, best_value = action, value
            state.restore(start)
        return best
    finally:
        state.restore(start)
