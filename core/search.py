"""A search for winning lines, for any variant, through the State API alone.

It plays on the given state with ``snapshot``/``restore``/``legal_actions``/``apply``
(and reads ``status``, ``score`` and ``position_bytes``), and always leaves the state as
it found it.  It is bounded by a node limit (a node is one ``apply``) and uses no clock
and no randomness, so the same state and limit give the same answer on any machine.

Two parts:

- the *look-ahead* (:func:`best_action`, what hints use): every legal action gets an equal
  share of a small budget for a depth-first search from where it leads; the action whose
  search wins, or else reaches the highest score, is the one to play;
- :func:`find_win`: first a *guided* descent that keeps playing the look-ahead's action,
  then, with what is left of the budget, a plain depth-first search from the start.

The depth-first search tries the most promising action first and never enters a position
twice (positions are keyed by a digest of ``position_bytes``).  A state may help with two
optional methods: ``action_rank(action) -> int`` orders the actions (higher first; without
it, and between equals, canonical order), and ``dead_end() -> bool`` says that a position
can no longer be won, so the search goes no deeper there.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field

from .game import LOST, WON, State

#: the look-ahead budget of one hint, and of each step of the guided descent
LOOKAHEAD_NODES = 600


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
    dead_end = getattr(state, "dead_end", None)
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


def find_win(state: State, node_limit: int = 300_000, *, guide_nodes: int = LOOKAHEAD_NODES) -> SearchResult:
    """Look for a winning line from ``state`` within ``node_limit`` applies; state unchanged.

    It first follows the look-ahead's choice (``guide_nodes`` per move; 0 skips this part)
    move by move to the end of the game (or three quarters of the budget), then searches
    depth first from the start with what is left.  The result carries the winning line, or else the line
    to the best score either part reached.
    """
    if state.status == WON:
        return SearchResult(True, [], state.score, 0)
    start = state.snapshot()
    nodes = 0
    best = SearchResult(False, [], state.score, 0)
    if guide_nodes > 0:
        line: list[int] = []
        guide_limit = node_limit * 3 // 4
        try:
            while state.status != WON and not _hopeless(state) and nodes < guide_limit:
                action, win, used = _look_ahead(state, min(guide_nodes, guide_limit - nodes - 1))
                nodes += used
                if win is not None:
                    for step in win:
                        state.apply(step)
                    return SearchResult(True, line + win, state.score, nodes)
                if action is None:
                    break
                state.apply(action)
                nodes += 1
                line.append(action)
                if state.score > best.best_score:
                    best = SearchResult(False, list(line), state.score, nodes)
            if state.status == WON:
                return SearchResult(True, line, state.score, nodes)
        finally:
            state.restore(start)
    result = depth_first(state, node_limit - nodes)
    result.nodes += nodes
    if not result.won and best.best_score > result.best_score:
        best.nodes = result.nodes
        return best
    return result

