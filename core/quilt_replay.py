"""The quilt family's moves replayed in bulk: a fast copy of decoding and ``QuiltState.apply``.

As the grid family's bulk replay did (before its rules were written once): :func:`play_codes` plays a run of a log's
version-2 action codes with decoding (formats/codec.py, ``quilt_action``), the legality
checks (``QuiltState._why_not``) and the transitions of ``QuiltState.apply`` written out
in one loop, and anything else through the plain ``decode`` and ``apply``: a redeal, a
move to an empty reserve, an unusual code, and every event the fast path does not
decide at once.  Within the loop the stock and the waste are lists (a turn moves one card,
not two tuples) and go back into the state as tuples.  It stops before a session event
(hint, undo, restart), after a win, and before an event the plain way refuses.
tests/test_fast_replay.py pins it to the plain ``apply`` over random games of every
quilt variant.
"""

from __future__ import annotations

from array import array

from carpet.core.errors import CarpetError
from carpet.core.game import FIRST_ACTION, PLAYING, PLUS_ONE, RESTART, WON

from .numbering import fast_dealing_order
from .quilt import (_N1, _N2, BASES, CELLS, DECK_CARDS, DOWN_BASES, EMPTY, RESERVES, TARGETS, TO_RESERVE, TO_WASTE,
                    TURN, UP_BASES, WASTE, QuiltState)


_FACE = tuple(card % 52 for card in range(DECK_CARDS))
_SUIT = tuple(card % 52 // 13 for card in range(DECK_CARDS))
_BASES = bytes(sorted(BASES))  # card ids are bytes: the deal drops the bases by bytes.translate
_FIRST_RESERVE = WASTE + 1
# QuiltState._pile_need of a pile holding its base alone: the up piles take the two, the down piles the queen
_FIRST_NEED = tuple(base + 1 for base in UP_BASES) + tuple(base - 1 for base in DOWN_BASES)


def plays(variant) -> bool:
    return True


def dealt(variant, deal) -> QuiltState:
    """``variant.new_state(deal)`` (QuiltState.__init__): the shuffle by its fast copy
    (numbering.fast_dealing_order), the bases taken out by one filter."""
    order, _ = fast_dealing_order(deal, DECK_CARDS, generator=False)  # (no draw after the deal)
    state = QuiltState(variant, None)
    rest = list(bytes(order).translate(None, _BASES))  # [card for card in order if card not in BASES]
    state.cells = rest[:CELLS] + [EMPTY]
    others = rest[CELLS:]
    if variant.has_reserves:
        state.stock = ()
        state.waste = ()
        state.reserves = [tuple(others[k::RESERVES]) for k in range(RESERVES)]
    else:
        others.reverse()
        state.stock = tuple(others)  # the next card dealt is the last
        state.waste = ()
        state.reserves = [()] * RESERVES
    state.found = [(card,) for card in UP_BASES + DOWN_BASES]
    # _reindex, for a full quilt and the bases alone on the piles
    loc = [-1] * DECK_CARDS
    for cell, card in enumerate(rest[:CELLS]):
        loc[card] = cell
    state.loc = loc
    state.in_quilt = CELLS
    state.need = list(_FIRST_NEED)
    state.on_found = len(state.found)
    state.score = 0
    state.update_status()
    return state


def position_bytes(state) -> bytes:
    """QuiltState.position_bytes, the quilt's cells in bulk (as signed bytes, translated)."""
    parts = [array("b", state.cells[:CELLS]).tobytes().translate(PLUS_ONE), bytes(reversed(state.stock)),
             bytes(state.waste), *map(bytes, state.found)]
    if state.variant.has_reserves:
        parts += map(bytes, state.reserves)
    parts.append(bytes((state.redeals_used,)))
    return b"\xff".join(parts)


def snapshot(state) -> tuple:
    """QuiltState.snapshot with what _reindex works out kept too, so that :func:`restore` needs none."""
    return (tuple(state.cells), state.stock, state.waste, tuple(state.found), tuple(state.reserves),
            state.redeals_used, state.status, tuple(state.loc), state.in_quilt, tuple(state.need), state.on_found)


def restore(state, snap: tuple) -> None:
    """QuiltState.restore of a :func:`snapshot` (or, by the plain restore, of a QuiltState.snapshot)."""
    if len(snap) != 11:
        state.restore(snap)
        return
    cells, state.stock, state.waste, found, reserves, state.redeals_used, state.status, loc, state.in_quilt, need, \
        on_found = snap
    state.cells = list(cells)
    state.found = list(found)
    state.reserves = list(reserves)
    state.loc = list(loc)
    state.need = list(need)
    state.on_found = on_found
    state.score = on_found - 8


def play_codes(state, codes, i: int, end: int, actions, decode, undone=None, snaps=None, base: int = 0) -> int:
    """Play ``codes[i:end]`` (version-2 quilt codes) on ``state`` until one the fast path and the
    plain way cannot play here; append each event's action index to ``actions``.  Returns the
    index of the first event not played: a session event, one the plain way refuses, ``end``,
    or the event after a win.  ``state`` runs the lean replay's ``apply`` (update_won).
    ``undone`` (with ``snaps`` and ``base``): the events a later undo takes back, 1 at their index
    (replay.undone); before each of them the position is saved in ``snaps[base + k]``, k the
    events played so far in this call, as the caller's undo stack numbers them.
    """
    if i >= end or state.status == WON:
        return i
    FACE, SUIT, N1, N2 = _FACE, _SUIT, _N1, _N2
    reserves_game = state.variant.has_reserves
    cells, loc, need, found, reserves = state.cells, state.loc, state.need, state.found, state.reserves
    stock, waste = list(state.stock), list(state.waste)
    in_quilt, on_found = state.in_quilt, state.on_found
    apply, append = state.apply, actions.append
    start = i
    nxt = -1 if undone is None else undone.find(1, i, end)
    for i, code in enumerate(codes[i:end], i):
        if i == nxt:  # a later undo takes this event back: the position before it is saved
            state.stock, state.waste = tuple(stock), tuple(waste)
            state.in_quilt, state.on_found, state.score = in_quilt, on_found, on_found - 8
            if i > start:
                state.status = PLAYING  # update_won after the move before
            snaps[base + i - start] = snapshot(state)
            nxt = undone.find(1, i + 1, end)
        # --- decode (codec.quilt_action) and the legality of QuiltState._why_not ----------
        if code < 133:
            if code > 4:  # a quilt card to the up (d = 0) or down pile of its suit
                source = (code - 5) >> 1
                card = cells[source]
                if card >= 0:
                    face = FACE[card]
                    pile = ((code - 5) & 1) * 4 + SUIT[card]
                    # apply's hot path: the pile takes the card's face, and the card is
                    # available (a short side touching no card; OFF is always empty)
                    if need[pile] == face and (cells[N1[source]] < 0 or cells[N2[source]] < 0):
                        cells[source] = EMPTY  # _take
                        loc[card] = -1
                        in_quilt -= 1
                        append(FIRST_ACTION + source * TARGETS + pile)
                    else:
                        card = -1
            elif code == 3:  # turn: the stock top onto the waste
                if stock and not reserves_game:
                    waste.append(stock.pop())
                    append(TURN)
                    continue
                card = -1
            elif code < 3:
                break  # a session event: the caller's
            else:
                card = -1  # redeal: the plain way
        elif code < 151:  # the waste top (64) or a reserve's (65..72) to a pile of its suit
            source = (code - 5) >> 1
            if source == WASTE:
                card = waste[-1] if waste and not reserves_game else -1
            else:
                top = reserves[source - _FIRST_RESERVE] if reserves_game else ()
                card = top[-1] if top else -1
            if card >= 0:
                face = FACE[card]
                pile = ((code - 5) & 1) * 4 + SUIT[card]
                if need[pile] == face:
                    if source == WASTE:  # _take
                        waste.pop()
                    else:
                        reserves[source - _FIRST_RESERVE] = top[:-1]
                    append(FIRST_ACTION + source * TARGETS + pile)
                else:
                    card = -1
        elif code < 215:
            if not reserves_game:  # a quilt card onto the waste top: same suit, one rank apart
                source = code - 151
                card = cells[source]
                if card >= 0 and waste and (cells[N1[source]] < 0 or cells[N2[source]] < 0):
                    face, under = FACE[card], FACE[waste[-1]]
                    if SUIT[card] == SUIT[waste[-1]] and (face - under == 1 or under - face == 1):
                        cells[source] = EMPTY  # _take
                        loc[card] = -1
                        in_quilt -= 1
                        waste.append(card)
                        append(FIRST_ACTION + source * TARGETS + TO_WASTE)
                        continue
                card = -1
            else:  # onto reserve r's top T: by k, either deck's card one rank below or above T
                r, k = divmod(code - 151, 4)
                onto = reserves[r] if r < RESERVES else ()
                card = -1
                if onto:
                    top = FACE[onto[-1]]
                    face = top + (-1 if k < 2 else 1)
                    if 0 <= face < 52 and face // 13 == top // 13:
                        card = face + 52 * (k % 2)
                        source = loc[card]
                        if source >= 0:  # a quilt card: available
                            if cells[N1[source]] < 0 or cells[N2[source]] < 0:
                                cells[source] = EMPTY  # _take
                                loc[card] = -1
                                in_quilt -= 1
                            else:
                                card = -1
                        else:  # another reserve's top (never r's own: its face is T's)
                            for j in range(RESERVES):
                                pile = reserves[j]
                                if pile and pile[-1] == card:
                                    reserves[j] = pile[:-1]  # _take
                                    source = _FIRST_RESERVE + j
                                    break
                            else:
                                card = -1
                        if card >= 0:
                            reserves[r] = onto + (card,)
                            append(FIRST_ACTION + source * TARGETS + TO_RESERVE + r)
                            continue
        elif reserves_game and code < 215 + TURN - FIRST_ACTION:
            # an action index itself (codec: 215 + a - 3): the one kind played here, a quilt card or
            # a reserve's top to an empty reserve (_why_not: any card goes there but a reserve's only one)
            source, target = divmod(code - 215, TARGETS)
            r = target - TO_RESERVE
            card = -1
            if r >= 0 and not reserves[r]:
                if source < CELLS:
                    card = cells[source]
                    if card >= 0 and (cells[N1[source]] < 0 or cells[N2[source]] < 0):
                        cells[source] = EMPTY  # _take
                        loc[card] = -1
                        in_quilt -= 1
                    else:
                        card = -1
                elif source > WASTE and source - _FIRST_RESERVE != r:
                    pile = reserves[source - _FIRST_RESERVE]
                    if len(pile) > 1:
                        card = pile[-1]
                        reserves[source - _FIRST_RESERVE] = pile[:-1]  # _take
                if card >= 0:
                    reserves[r] = (card,)
                    append(FIRST_ACTION + source * TARGETS + target)
                    continue
        else:
            card = -1
        if card >= 0:  # to a pile: QuiltState._found_push
            pushed = found[pile] + (card,)
            found[pile] = pushed
            if len(pushed) >= 13:
                need[pile] = -1
            else:
                need[pile] += 1 if pile < 4 else -1
            on_found += 1
            if on_found == DECK_CARDS:  # update_won
                state.stock, state.waste = tuple(stock), tuple(waste)
                state.in_quilt, state.on_found, state.score = in_quilt, on_found, on_found - 8
                state.status = WON
                return i + 1
            continue
        # --- the plain way: decode and apply check everything ----------------------------
        state.stock, state.waste = tuple(stock), tuple(waste)
        state.in_quilt, state.on_found, state.score = in_quilt, on_found, on_found - 8
        action = decode(state, code)
        if action <= RESTART:
            break
        try:
            apply(action)
        except CarpetError:
            break  # apply changed nothing; the caller plays it again and reports it
        append(action)
        if state.status == WON:
            return i + 1
        cells, loc, need, found, reserves = state.cells, state.loc, state.need, state.found, state.reserves
        stock, waste = list(state.stock), list(state.waste)
        in_quilt, on_found = state.in_quilt, state.on_found
    else:
        i = end
    state.stock, state.waste = tuple(stock), tuple(waste)
    state.in_quilt, state.on_found, state.score = in_quilt, on_found, on_found - 8
    if i > start and state.status != WON:
        state.status = PLAYING  # update_won after the last move
    return i


__all__ = ["dealt", "play_codes", "plays", "position_bytes", "restore", "snapshot"]
