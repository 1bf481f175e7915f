"""Action codes of the binary log, version 2 (docs/format.md, "Action codes").

A version-2 binary log stores each event's action as a small *code* that names it
relative to the position it is played in, so that the usual actions fit one byte (and
the actions of a Carpet game half a byte).  Codes 0, 1, 2 are hint, undo and restart
in every game; from 3 on each family has its own table below.  Every action has a
code (the last rows are a fallback that carries the action index itself), and every
code names one action or none, so a writer never meets an action it cannot store and
a reader never guesses.

The functions read the position's public lists (``cells``, ``gaps``, ``waste``,
``reserves``); tests/test_codec.py pins every family's round trip.  A family whose rules keep
their own codes (core/families.py, ``Family.codes``: carpet, grid) is asked for them instead.
"""

from __future__ import annotations

from typing import Callable

from carpet.core.families import FAMILIES
from carpet.core.game import FIRST_ACTION

#: decode result for a code that names no action in this position
NO_ACTION = -1


# --- quilt -------------------------------------------------------------------------------
# 3: turn; 4: redeal; 5 + 2 * source + d: the card at source (quilt cell 0..63, waste 64,
# reserve 65..72) to the up (d = 0) or down (d = 1) pile of its own suit; 151 + cell:
# quilt card onto the waste (crazy-quilt, indian-carpet); 151 + 4 * r + k: onto the top
# card T of reserve r (persian-carpet), the card being, by k, the first deck's card one
# rank below T, the second deck's, the first deck's one rank above, the second deck's;
# 215 + (a - 3): the action index a itself.
_Q_TARGETS, _Q_CELLS, _Q_WASTE, _Q_TURN, _Q_REDEAL, _Q_TO_WASTE = 17, 64, 64, 1244, 1245, 8  # core/quilt.py


def _quilt_top(state, source: int) -> int:
    if source < _Q_CELLS:
        return state.cells[source]
    if source == _Q_WASTE:
        waste = state.waste
        return waste[-1] if waste else -1
    pile = state.reserves[source - _Q_WASTE - 1]
    return pile[-1] if pile else -1


def quilt_code(state, action: int) -> int:
    if action == _Q_TURN:
        return 3
    if action == _Q_REDEAL:
        return 4
    source, target = divmod(action - FIRST_ACTION, _Q_TARGETS)
    if target < 8:
        card = _quilt_top(state, source)
        if card >= 0 and card % 52 // 13 == target % 4:
            return 5 + 2 * source + target // 4
    elif target == _Q_TO_WASTE:
        if source < _Q_CELLS and not state.variant.has_reserves:
            return 151 + source
    elif state.variant.has_reserves:
        r = target - _Q_TO_WASTE - 1
        card, top = _quilt_top(state, source), _quilt_top(state, _Q_WASTE + 1 + r)
        if card >= 0 and top >= 0 and card % 52 // 13 == top % 52 // 13 and abs(card % 52 - top % 52) == 1:
            return 151 + 4 * r + (0 if card % 52 < top % 52 else 2) + card // 52
    return 215 + action - FIRST_ACTION


def quilt_action(state, code: int) -> int:
    if code == 3:
        return _Q_TURN
    if code == 4:
        return _Q_REDEAL
    if code < 151:
        source, d = divmod(code - 5, 2)
        card = _quilt_top(state, source)
        if card < 0:
            return NO_ACTION
        return FIRST_ACTION + source * _Q_TARGETS + d * 4 + card % 52 // 13
    if code < 215:
        if not state.variant.has_reserves:
            return FIRST_ACTION + (code - 151) * _Q_TARGETS + _Q_TO_WASTE
        r, k = divmod(code - 151, 4)
        if r >= 8:
            return NO_ACTION
        top = _quilt_top(state, _Q_WASTE + 1 + r)
        if top < 0:
            return NO_ACTION
        face = top % 52 + (-1 if k < 2 else 1)
        if face // 13 != top % 52 // 13 or not 0 <= face < 52:
            return NO_ACTION
        card = face + 52 * (k % 2)
        source = state.loc[card]
        if source < 0:
            reserves = state.reserves
            for j in range(8):
                if reserves[j] and reserves[j][-1] == card:
                    source = _Q_WASTE + 1 + j
                    break
            else:
                return NO_ACTION
        return FIRST_ACTION + source * _Q_TARGETS + _Q_TO_WASTE + 1 + r
    action = code - 215 + FIRST_ACTION
    return action if action < state.variant.action_count else NO_ACTION


def _raw(state, value: int) -> int:
    return value


#: family -> (action -> code, code -> action) for the families whose rules do not keep their own
#: codes yet (core/families.py, ``Family.codes``: carpet's are in core/carpet/codes.py, grid's in
#: core/grid/codes.py)
CODECS: dict[str, tuple[Callable, Callable]] = {
    "quilt": (quilt_code, quilt_action),
}
#: family -> a maker of its decoder for one replay, where working things out once pays
_DECODERS: dict[str, Callable] = {}


def codec(family: str) -> tuple[Callable, Callable]:
    known = CODECS.get(family)
    if known is None:  # the family's own codes (loaded with its rules), or action indexes stored as they are
        own = FAMILIES[family].codes if family in FAMILIES else None
        codes = None if own is None else own()
        known = CODECS[family] = (_raw, _raw) if codes is None else (codes.encode, codes.decode)
    return known


def shared_decoder(family: str) -> Callable | None:
    """The family's decoder where one serves every replay (what :func:`decoder` gives), else None."""
    return None if family in _DECODERS else codec(family)[1]


def decoder(state) -> Callable:
    """code -> action for replaying from ``state`` on (the same function as ``codec``'s, made once)."""
    family = state.variant.family
    make = _DECODERS.get(family)
    return make(state) if make else codec(family)[1]
