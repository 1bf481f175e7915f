"""The quilt family's version-2 log codes: each action named relative to the position it is played
in (docs/format.md, "Action codes"), so that a game's actions fit a byte.

Codes 0-2 are the session's (hint, undo, restart) in every game; from 3 on:

    3              turn
    4              redeal
    5 + 2 * s + d  the card at source s (quilt cell 0..63, waste 64, reserve 65..72) to the up
                   (d = 0) or down (d = 1) pile of its own suit
    151 + cell     a quilt card onto the waste (crazy-quilt, indian-carpet)
    151 + 4 * r + k  onto the top card T of reserve r (persian-carpet), the card being, by k, the
                   first deck's card one rank below T, the second deck's, the first deck's one rank
                   above, the second deck's
    215 + a - 3    the action index a itself (any action, in any position)

formats/ asks the family for :func:`encode` and :func:`decode` (formats/codec.py, ``codec``), and the
one replay for :func:`play` (decode and apply in one); they read the position as
core/quilt/rules.py keeps it, and tests/test_codec.py pins their round trip.
"""

from __future__ import annotations

from carpet.core.game import FIRST_ACTION, NO_ACTION

from .board import CELLS, FIRST_MOVE, REDEAL, RESERVES, TARGETS, TO_RESERVE, TO_WASTE, TURN, WASTE, adjacent

TURN_CODE, REDEAL_CODE, UP_CODE, ONTO, INDEX = 3, 4, 5, 151, 215
_LAST_UP = UP_CODE + 2 * (WASTE + 1 + RESERVES)  # 151: the up codes end where ONTO starts


def encode(state, action: int) -> int:
    """The code of ``action`` (legal or not) in ``state``."""
    if action == TURN:
        return TURN_CODE
    if action == REDEAL:
        return REDEAL_CODE
    source, target = divmod(action - FIRST_MOVE, TARGETS)
    if target < 8:
        card = state.top(source)
        if card >= 0 and card % 52 // 13 == target % 4:
            return UP_CODE + 2 * source + target // 4
    elif target == TO_WASTE:
        if source < CELLS and not state.variant.has_reserves:
            return ONTO + source
    elif state.variant.has_reserves:
        r = target - TO_RESERVE
        card, top = state.top(source), state.top(WASTE + 1 + r)
        if card >= 0 and top >= 0 and adjacent(card % 52, top % 52):
            return ONTO + 4 * r + (0 if card % 52 < top % 52 else 2) + card // 52
    return INDEX + action - FIRST_ACTION


def _onto_reserve(state, code: int) -> int:
    """The action of code ONTO + 4 * r + k (persian-carpet), or NO_ACTION."""
    r, k = divmod(code - ONTO, 4)
    top = state.top(WASTE + 1 + r) if r < RESERVES else -1
    if top < 0:
        return NO_ACTION
    face = top % 52 + (-1 if k < 2 else 1)
    if not (0 <= face < 52 and adjacent(face, top % 52)):
        return NO_ACTION
    card = face + 52 * (k % 2)
    source = state.loc[card]
    if source < 0:
        reserves = state.reserves
        for j in range(RESERVES):
            if reserves[j] and reserves[j][-1] == card:
                source = WASTE + 1 + j
                break
        else:
            return NO_ACTION
    return FIRST_MOVE + source * TARGETS + TO_RESERVE + r


def decode(state, code: int) -> int:
    """The action ``code`` names in ``state``, or NO_ACTION (whether it is legal is the rules')."""
    if code < _LAST_UP:
        if code >= UP_CODE:
            source, d = divmod(code - UP_CODE, 2)
            card = state.top(source)
            return NO_ACTION if card < 0 else FIRST_MOVE + source * TARGETS + d * 4 + card % 52 // 13
        return TURN if code == TURN_CODE else REDEAL if code == REDEAL_CODE else NO_ACTION
    if code < INDEX:
        if not state.variant.has_reserves:
            return FIRST_MOVE + (code - ONTO) * TARGETS + TO_WASTE
        return _onto_reserve(state, code)
    action = code - INDEX + FIRST_ACTION
    return action if action < state.variant.action_count else NO_ACTION


def play(state, code: int) -> int:
    """:func:`decode` and the rules' transition in one, for the one replay of a log (core/session.py,
    ``play_codes``): the action played, or NO_ACTION where the code names none here or the rules
    refuse it (nothing changed).  The commonest codes call their transition directly."""
    if UP_CODE <= code < _LAST_UP:
        source = (code - UP_CODE) >> 1
        card = state.cells[source] if source < CELLS else state.top(source)
        if card < 0:
            return NO_ACTION
        pile = ((code - UP_CODE) & 1) * 4 + card % 52 // 13
        return FIRST_MOVE + source * TARGETS + pile if state._up(source, pile) else NO_ACTION
    if code == TURN_CODE:
        return TURN if state._turn() else NO_ACTION
    if ONTO <= code < ONTO + CELLS and not state.variant.has_reserves:
        return FIRST_MOVE + (code - ONTO) * TARGETS + TO_WASTE if state._onto_waste(code - ONTO) else NO_ACTION
    action = decode(state, code)
    return action if action >= FIRST_ACTION and state.step(action) else NO_ACTION
