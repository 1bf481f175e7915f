"""What ``carpet hint --peek`` names: the full-information hint, from the solver's search (core/solver.py).

The first action of a winning line where the search finds one; else the guided descent's
choice; else the action towards the most progress the search saw, among those it has not
proved lost; never one that brings back a position of this attempt while another exists.
The hint that sees only what the player has seen (the default) is core/seen.py, which asks
this one where nothing is hidden.
"""

from __future__ import annotations

from .families import FAMILIES
from .game import PLAYING, State
from .session import Session
from .solver import WON_RESULT, _knowledge, _search, working_copy


def hint_action(session: Session, nodes: int | None = None) -> int | None:
    """The action ``carpet hint`` names here, or None when the game is over (docs/rules.md: each game's "Hint").

    The first action of a winning line when the search finds one within ``nodes``
    (None: its family's budget, ``Family.hint_nodes``); otherwise the guided
    descent's choice, or else the action leading towards the most progress the search
    saw, among those it has not proved lost, never one that brings back a position
    already reached in this attempt.
    """
    return hint_search(session, nodes)[0]


def hint_nodes(variant) -> int:
    """The budget of one hint of this game: its family's (core/families.py)."""
    return FAMILIES[variant.family].hint_nodes


def hint_search(session: Session, nodes: int | None = None, reached: set | None = None):
    """(the action :func:`hint_action` names, the search's outcome: its ``result`` and, when won,
    its ``line``); (None, None) when the game is over.  ``reached``: the search keys of the
    attempt's positions, the present one included, where the caller knows them already."""
    if session.status != PLAYING:
        return None, None
    if nodes is None:
        nodes = hint_nodes(session.variant)
    state = working_copy(session)
    key, safe_of, preferred_of, _dead, _progress = _knowledge(state)
    if reached is None:
        reached = add_keys(set(), session.attempt_snapshots(), state, key) | {key()}
    out = _search(state, nodes, seen=set(reached), track_children=True)
    legal = state.legal_actions()
    fresh = fresh_actions(state, legal, key, reached)
    if out.result == WON_RESULT and out.line and out.line[0] in fresh:
        return out.line[0], out
    # the root's own safe action (the line starts with it when there is one)
    safe = safe_of()
    if safe is not None and safe in fresh:
        return safe, out
    candidates = fresh or legal
    if not candidates:
        return None, out
    if out.guide in candidates and not out.children.get(out.guide, [False])[0]:
        return out.guide, out  # the guided descent's choice: following it retraces the descent
    # not proved lost first, then the most progress seen after it, then the search's own order
    preferred = preferred_of()
    ranked = []
    for action in candidates:
        entry = out.children.get(action)
        if entry is None:
            position = preferred.index(action) if action in preferred else len(preferred)
            ranked.append((False, 1, 0, len(out.children) + position, action))
        else:
            exhausted, value, order = entry
            ranked.append((exhausted, 0, -value, order, action))
    ranked.sort()
    return ranked[0][-1], out


def add_keys(keys: set, snapshots, scratch: State, key) -> set:
    """``keys`` with the search keys (``key``, of ``scratch``) of the positions ``snapshots`` hold
    added: those of an attempt (Session.attempt_snapshots), or of its part not yet counted.
    ``scratch`` is left as found."""
    start = scratch.snapshot()
    try:
        for snap in snapshots:
            scratch.restore(snap)
            keys.add(key())
    finally:
        scratch.restore(start)
    return keys


def fresh_actions(state: State, legal: list[int], key, reached: set) -> list[int]:
    """Those of ``legal`` that bring back no position of ``reached`` (by ``key``, the family's
    search key of ``state``), in their order.  ``state`` is left as found."""
    start = state.snapshot()
    fresh = []
    try:
        for action in legal:
            state.apply(action)
            if key() not in reached:
                fresh.append(action)
            state.restore(start)
    finally:
        state.restore(start)
    return fresh


__all__ = ["hint_action", "hint_search", "hint_nodes", "add_keys", "fresh_actions"]
