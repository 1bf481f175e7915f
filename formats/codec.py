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
their own codes (core/families.py, ``Family.codes``: carpet, quilt) is asked for them instead.
"""

from __future__ import annotations

from typing import Callable

from carpet.core.families import FAMILIES
from carpet.core.game import FIRST_ACTION

#: decode result for a code that names no action in this position
NO_ACTION = -1


# --- grid (Коврик, Montana) --------------------------------------------------------------
# 3: redeal.  4 + g: into the g-th empty cell (row-major, g < 4) the card one above the
# card on its left (the cell before it); 8 + g: the card one below the card on its right.
# 12-14: none.  15 + card * G + g: card to the g-th empty cell (G empty cells now).  Past
# 15 + cards * G: the action index a, as code 15 + cards * G + (a - 4).  In every family a code
# past the last action names none.
def _grid_layout(state) -> tuple[int, int]:
    cells = len(state.cells)
    return cells, (state.variant.action_count - FIRST_ACTION - 1) // cells


def grid_code(state, action: int) -> int:
    if action == FIRST_ACTION:
        return FIRST_ACTION
    n_cells, cards = _grid_layout(state)
    card, cell = divmod(action - FIRST_ACTION - 1, n_cells)
    gaps = state.gaps
    if cell not in gaps:
        return 15 + cards * len(gaps) + action - FIRST_ACTION - 1
    g = gaps.index(cell)
    cells = state.cells
    if g < 4:
        if cell > 0 and cells[cell - 1] >= 0 and cells[cell - 1] + 1 == card:
            return 4 + g
        if cell + 1 < n_cells and cells[cell + 1] > 0 and cells[cell + 1] - 1 == card:
            return 8 + g
    return 15 + card * len(gaps) + g


def grid_action(state, code: int) -> int:
    return _grid_decoder(state)(state, code)


def _grid_decoder(state) -> Callable:
    """grid_action with the board's size worked out once (a replay decodes every event)."""
    n_cells, cards = _grid_layout(state)
    first_move = FIRST_ACTION + 1
    count = state.variant.action_count

    def decode(state, code: int) -> int:
        if code < 12:
            if code == FIRST_ACTION:
                return FIRST_ACTION
            gaps = state.gaps
            g = code & 3
            if g >= len(gaps):
                return NO_ACTION
            cell = gaps[g]
            cells = state.cells
            if code < 8:
                card = cells[cell - 1] + 1 if cell > 0 and cells[cell - 1] >= 0 else -1
            else:
                card = cells[cell + 1] - 1 if cell + 1 < n_cells and cells[cell + 1] > 0 else -1
            return NO_ACTION if card < 0 or card >= cards else first_move + card * n_cells + cell
        if code < 15:
            return NO_ACTION
        gaps = state.gaps
        card, g = divmod(code - 15, len(gaps))
        if card < cards:
            return first_move + card * n_cells + gaps[g]
        action = code - 15 - cards * len(gaps) + first_move
        return action if action < count else NO_ACTION  # past the last action: none
    return decode


def _raw(state, value: int) -> int:
    return value


#: family -> (action -> code, code -> action) for the families whose rules do not keep their own
#: codes yet (core/families.py, ``Family.codes``: carpet's are in core/carpet/codes.py, quilt's in
#: core/quilt/codes.py)
CODECS: dict[str, tuple[Callable, Callable]] = {
    "grid": (grid_code, grid_action),
}
#: family -> a maker of its decoder for one replay, where working things out once pays
_DECODERS = {"grid": _grid_decoder}


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
