"""The carpet family's version-2 log codes: each action named relative to the position it is
played in (docs/format.md, "Action codes"), so that a game's actions fit half a byte.

Codes 0-2 are the session's (hint, undo, restart) in every game; from 3 on:

    3 + s      the card the foundation of suit s needs, from the carpet (s: 0 clubs, 1 spades,
               2 hearts, 3 diamonds)
    7          the waste top to its foundation
    8          turn
    9 + k      the waste top into the k-th gap of the carpet (row-major)
    29 + k     the stock top into the k-th gap
    49 + a     the action index a itself (any action, in any position)

formats/ asks the family for :func:`encode` and :func:`decode` (formats/codec.py, ``codec``), and the
one replay for :func:`play` (decode and apply in one); they read the position as
core/carpet/rules.py keeps it, and tests/test_codec.py pins their round trip.
"""

from __future__ import annotations

from carpet.core.game import FIRST_ACTION, NO_ACTION

from .board import ACTION_COUNT, CELL_TO_FOUNDATION, EMPTY, STOCK_FILL, TURN, WASTE_FILL, WASTE_TO_FOUNDATION

UP, WASTE_UP, TURN_CODE, WASTE_GAP, STOCK_GAP, INDEX = 3, 7, 8, 9, 29, 49


def encode(state, action: int) -> int:
    """The code of ``action`` (legal or not) in ``state``."""
    if action < WASTE_TO_FOUNDATION:
        card = state.cells[action - CELL_TO_FOUNDATION]
        if card >= 0 and card == state._needed()[card // 13]:  # the card its foundation needs next
            return UP + card // 13
    elif action == WASTE_TO_FOUNDATION:
        return WASTE_UP
    elif action == TURN:
        return TURN_CODE
    else:
        base, first = (WASTE_GAP, WASTE_FILL) if action < STOCK_FILL else (STOCK_GAP, STOCK_FILL)
        cell = action - first
        cells = state.cells
        if cells[cell] == EMPTY:
            return base + cells[:cell].count(EMPTY)
    return INDEX + action


def decode(state, code: int) -> int:
    """The action ``code`` names in ``state``, or NO_ACTION (whether it is legal is the rules')."""
    if code == TURN_CODE:
        return TURN
    if code < WASTE_UP:
        card = state._needed()[code - UP]  # (an ace where a foundation is empty or done: never there)
        cell = state.place[card]  # (the cell it lies in, EMPTY off the carpet)
        return NO_ACTION if cell == EMPTY else CELL_TO_FOUNDATION + cell
    if code == WASTE_UP:
        return WASTE_TO_FOUNDATION
    if code < INDEX:
        k, first = (code - WASTE_GAP, WASTE_FILL) if code < STOCK_GAP else (code - STOCK_GAP, STOCK_FILL)
        cells = state.cells
        cell = -1
        try:
            for _ in range(k + 1):
                cell = cells.index(EMPTY, cell + 1)
        except ValueError:
            return NO_ACTION  # fewer gaps
        return first + cell
    return code - INDEX if INDEX + FIRST_ACTION <= code < INDEX + ACTION_COUNT else NO_ACTION


def play(state, code: int) -> int:
    """:func:`decode` and ``state.apply`` in one, for the one replay of a log (core/session.py,
    ``play_codes``): the action played, or NO_ACTION where the code names none here or the rules
    refuse it (nothing changed).  The commonest codes call their transition directly."""
    if code == TURN_CODE:
        return TURN if state._turn() else NO_ACTION
    if code == WASTE_UP:
        return WASTE_TO_FOUNDATION if state._waste_up() else NO_ACTION
    action = decode(state, code)
    if action < CELL_TO_FOUNDATION:
        return NO_ACTION
    if action < WASTE_TO_FOUNDATION:
        return action if state._up(action - CELL_TO_FOUNDATION) else NO_ACTION
    return action if state.step(action) else NO_ACTION
