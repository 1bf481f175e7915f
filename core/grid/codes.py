"""The grid family's version-2 log codes: each action named relative to the position it is
played in (docs/format.md, "Action codes"), so that the usual actions fit one byte.

Codes 0-2 are the session's (hint, undo, restart) in every game; from 3 on:

    3                  redeal
    4 + g              into the g-th empty cell (row-major, g < 4) the card one above the card on
                       its left (the cell before it)
    8 + g              into the g-th empty cell the card one below the card on its right
    12-14              none
    15 + card * G + g  card to the g-th empty cell (G: the empty cells now)
    15 + cards * G + (a - 4)   the action index a itself (any action, in any position)

A code past the last action names none.  formats/ asks the family for :func:`encode` and
:func:`decode` (formats/codec.py, ``codec``), and the one replay for :func:`play` (decode and
apply in one); they read the position as core/grid/rules.py keeps it, and tests/test_codec.py
pins their round trip.
"""

from __future__ import annotations

from carpet.core.game import NO_ACTION

from .board import FIRST_MOVE, REDEAL

REDEAL_CODE, UP, DOWN, NONE_FROM, ANY = 3, 4, 8, 12, 15


def encode(state, action: int) -> int:
    """The code of ``action`` (legal or not) in ``state``."""
    if action == REDEAL:
        return REDEAL_CODE
    v = state.variant
    n_cells = v.cells
    card, cell = divmod(action - FIRST_MOVE, n_cells)
    gaps = state.gaps
    if cell not in gaps:
        return ANY + v.card_count * len(gaps) + action - FIRST_MOVE
    g = gaps.index(cell)
    cells = state.cells
    if g < 4:
        if cell > 0 and cells[cell - 1] >= 0 and cells[cell - 1] + 1 == card:
            return UP + g
        if cell + 1 < n_cells and cells[cell + 1] > 0 and cells[cell + 1] - 1 == card:
            return DOWN + g
    return ANY + card * len(gaps) + g


def decode(state, code: int) -> int:
    """The action ``code`` names in ``state``, or NO_ACTION (whether it is legal is the rules')."""
    if code < NONE_FROM:
        if code == REDEAL_CODE:
            return REDEAL
        gaps = state.gaps
        g = code & 3
        if code < REDEAL_CODE or g >= len(gaps):
            return NO_ACTION
        cell = gaps[g]
        cells = state.cells
        v = state.variant
        if code < DOWN:
            card = cells[cell - 1] + 1 if cell > 0 and cells[cell - 1] >= 0 else -1
        else:
            card = cells[cell + 1] - 1 if cell + 1 < v.cells and cells[cell + 1] > 0 else -1
        return NO_ACTION if card < 0 or card >= v.card_count else FIRST_MOVE + card * v.cells + cell
    if code < ANY:
        return NO_ACTION
    v = state.variant
    gaps = state.gaps
    card, g = divmod(code - ANY, len(gaps))
    if card < v.card_count:
        return FIRST_MOVE + card * v.cells + gaps[g]
    action = code - ANY - v.card_count * len(gaps) + FIRST_MOVE
    return action if action < v.action_count else NO_ACTION  # past the last action: none


def play(state, code: int) -> int:
    """:func:`decode` and ``state.apply`` in one, for the one replay of a log (core/session.py,
    ``play_codes``): the action played, or NO_ACTION where the code names none here or the rules
    refuse it (nothing changed).  The commonest code (the card one above its left neighbour)
    calls the move directly."""
    if UP <= code < DOWN:
        gaps = state.gaps
        g = code - UP
        if g < len(gaps):
            cell = gaps[g]
            if cell:
                card = state.cells[cell - 1] + 1
                v = state.variant
                if 0 < card < v.card_count and state.move(card, cell):
                    return FIRST_MOVE + card * v.cells + cell
        return NO_ACTION
    if code == REDEAL_CODE:
        return REDEAL if state.redeal() else NO_ACTION
    action = decode(state, code)
    if action < FIRST_MOVE:
        return NO_ACTION
    card, cell = divmod(action - FIRST_MOVE, state.variant.cells)
    return action if state.move(card, cell) else NO_ACTION
