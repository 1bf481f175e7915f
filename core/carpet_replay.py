"""The carpet family's actions replayed in bulk: a fast copy of decoding and ``CarpetState.apply``.

As core/grid_replay.py for the grid family.  Each fast copy mirrors a plain definition, and
tests/test_fast_replay.py and tests/test_carpet_fast_extra.py pin it to that one:

- :func:`dealt`: ``CarpetState.__init__`` (with ``_ace_out``, ``_refill_from_stock`` and the
  ``_settle`` at its end);
- :func:`position_bytes`: ``CarpetState.position_bytes``;
- :func:`play_codes` (its own loop where a later undo takes events back, the tighter one of
  :func:`play_moves` where nothing is): decoding (formats/codec.py, ``carpet_action``) and ``CarpetState.apply``
  with the lean replay's ``update_won`` (``_cell_to_foundation``, ``_waste_to_foundation``,
  ``_turn``, ``_waste_fill``, ``_stock_fill``, carpet-foster's ``_refill_from_stock`` and
  ``_settle``), written out in one loop, and anything else through the plain ``decode`` and
  ``apply``: an unusual code, and every event the fast cases do not decide at once.  It stops
  before a session event (hint, undo, restart), after a win, and before an event the plain
  way refuses.
"""

from __future__ import annotations

from array import array

from carpet.core.errors import CarpetError
from carpet.core.game import LOST, PLAYING, PLUS_ONE, RESTART, WON

from .carpet import CELL_TO_FOUNDATION, CELLS, EMPTY, STOCK_FILL, TURN, WASTE_FILL, WASTE_TO_FOUNDATION, CarpetState
from .numbering import fast_dealing_order


ACE = 0
_ACES = bytes(card for card in range(52) if card % 13 == ACE)  # the deal drops them by bytes.translate
_ACE_MARKS = bytes(card < 52 and card % 13 == ACE for card in range(256))  # card -> 1 for an ace, else 0
_NOWHERE = b""  # _NOWHERE.find: a carpet where nothing is found (carpet-foster's first phase)


def plays(variant) -> bool:
    return True


def dealt(variant, deal) -> CarpetState:
    """``variant.new_state(deal)`` (CarpetState.__init__): the shuffle by its fast copy
    (numbering.fast_dealing_order), then carpet and carpet-auto's deal with the aces taken out by
    one filter, carpet-foster's with each ace dealt to the carpet put up and its cell refilled
    from the stock, row by row (aces turned up on the way go up too)."""
    order, _ = fast_dealing_order(deal, 52, generator=False)  # (carpet draws nothing after its deal)
    state = CarpetState.__new__(CarpetState)
    state.variant = variant
    state.redeals_used = 0
    state.waste = []
    if not variant.foster:
        rest = bytes(order).translate(None, _ACES)  # [card for card in order if card % 13 != ACE]
        state.found = [1, 1, 1, 1]
        state.cells = list(rest[:CELLS])
        state.stock = tuple(rest[CELLS:])
        state.drawn = state.score = 0
        state.phase = 2
        # _settle: 28 cards left to turn, so update_status finds an action
        state.status = PLAYING
        return state
    found = [0, 0, 0, 0]
    cells = order[:CELLS]
    stock = tuple(order[CELLS:])
    drawn = 0
    aces = bytes(cells).translate(_ACE_MARKS)  # 1 where an ace was dealt to the carpet
    cell = aces.find(1)
    while cell >= 0:  # row by row
        found[cells[cell] // 13] = 1  # _ace_out
        cells[cell] = EMPTY
        while drawn < len(stock):  # _refill_from_stock
            card = stock[drawn]
            drawn += 1
            if card % 13 != ACE:
                cells[cell] = card
                break
            found[card // 13] = 1  # _ace_out
        cell = aces.find(1, cell + 1)
    state.found, state.cells, state.stock, state.drawn = found, cells, stock, drawn
    state.score = sum(found)  # one for each ace gone up
    # _settle: phase 2 at once where no carpet card can go up (the foundations started hold
    # their ace alone, so the cards wanted are their twos); and as at most 4 of the 32 stock
    # cards are drawn, a card is left to turn in phase 2: update_status finds an action
    a, b, c, d = found
    if a or b or c or d:
        board = bytes(cells)  # (no gap: each ace's cell was refilled, from a stock of 32 cards)
        wanted = (a and 1 in board) or (b and 14 in board) or (c and 27 in board) or (d and 40 in board)
        state.phase = 1 if wanted else 2
    else:
        state.phase = 2
    state.status = PLAYING
    return state


def position_bytes(state) -> bytes:
    """CarpetState.position_bytes, the carpet's cells in bulk (as signed bytes, translated), the
    rest in three pieces joined once."""
    cells = _SIGNED[:]
    cells.fromlist(state.cells)
    waste = state.waste
    stock = bytes(state.stock[state.drawn:])
    return b"".join((cells.tobytes().translate(PLUS_ONE), bytes((*state.found, state.phase, len(stock))), stock,
                     bytes((len(waste), *waste))))


_SIGNED = array("b")  # copied, then filled: quicker than array("b", cells)


def update_status(state) -> None:
    """CarpetState.update_status, the carpet searched as bytes (a gap 255): won, or an action left
    (a turn, the waste top to its foundation or into a gap, a carpet card to its foundation), or lost."""
    found = state.found
    a, b, c, d = found
    if a + b + c + d == 52:
        state.status = WON
        return
    if state.drawn < len(state.stock) and state.phase == 2:
        state.status = PLAYING
        return
    cells = _SIGNED[:]
    cells.fromlist(state.cells)
    board = cells.tobytes()
    waste = state.waste
    if waste:
        top = waste[-1]
        count = found[top // 13]
        if (count and top % 13 == count) or (state.variant.player_fills and 255 in board):
            state.status = PLAYING
            return
    # a carpet card that fits: the card a started, unfinished foundation takes next
    fits = (0 < a < 13 and a in board) or (0 < b < 13 and b + 13 in board) or (0 < c < 13 and c + 26 in board) \
        or (0 < d < 13 and d + 39 in board)
    state.status = PLAYING if fits else LOST


def play_codes(state, codes, i: int, end: int, actions, decode, undone=None, snaps=None, base: int = 0) -> int:
    """Play ``codes[i:end]`` (version-2 carpet codes) on ``state`` until one the fast path and the
    plain way cannot play here; append each event's action index to ``actions``.  Returns the
    index of the first event not played: a session event, one the plain way refuses, ``end``,
    or the event after a win.  ``state`` runs the lean replay's ``apply`` (update_won).
    ``undone`` (with ``snaps`` and ``base``): the events a later undo takes back, 1 at their index
    (replay.undone); before each of them the position is saved in ``snaps[base + k]``, k the
    events played so far in this call, as the caller's undo stack numbers them.

    With nothing taken back (the usual log), the tighter loop of :func:`play_moves`.  Where events are
    taken back, this loop of its own: played in stretches by play_moves, as core/grid_replay.py does, the
    undo-heavy random games lost a fifth of their speed to play_moves's set-up and write-back per stretch
    (measured: carpet's random games, 2.0x the kept copy of 778fb62's path, fell to 1.6x).
    """
    if undone is None:
        return play_moves(state, codes, i, end, actions, decode)
    if i >= end or state.status == WON:
        return i
    v = state.variant
    auto_fill, player_fills, stock_fills = v.auto_fill, v.player_fills, v.stock_fills
    cells, found, waste, stock = state.cells, state.found, state.waste, state.stock
    drawn, score, phase = state.drawn, state.score, state.phase
    nstock, total = len(stock), sum(found)
    apply, append, push, take, where = state.apply, actions.append, waste.append, waste.pop, cells.index
    start = i
    nxt = undone.find(1, i, end)  # (undone is given here: the usual log went to play_moves)
    for i, code in enumerate(codes[i:end], i):
        if i == nxt:  # a later undo takes this event back: the position before it is saved
            state.drawn, state.score = drawn, score
            if i > start:
                state.status = PLAYING  # update_won after the move before
            snaps[base + i - start] = state.snapshot()
            nxt = undone.find(1, i + 1, end)
        if phase == 2:  # carpet-foster's first phase goes the plain way (its holes refill by themselves)
            if code == 8:  # the commonest code first
                # _turn: the stock top onto the waste; an ace (carpet-foster) to its foundation
                if drawn < nstock:
                    card = stock[drawn]
                    drawn += 1
                    append(TURN)
                    if card % 13 != ACE:
                        push(card)
                        continue
                    found[card // 13] = 1  # _ace_out
                    score += 1
                    total += 1  # (never the 52nd card: a card is turned only while one is left)
                    continue
            elif code < 7:
                if code < 3:
                    break  # a session event: the caller's
                # codec: the card the foundation of suit s needs, from the carpet
                s = code - 3
                count = found[s]
                if 0 < count < 13:
                    try:
                        cell = where(s * 13 + count)
                    except ValueError:
                        cell = -1  # not on the carpet: no such action here (the plain way says so)
                    if cell >= 0:
                        # _cell_to_foundation: a carpet card that fits (fits(): the card the
                        # started foundation needs next); its cell refills with auto_fill
                        found[s] = count + 1
                        score += 1
                        total += 1
                        if not auto_fill:
                            cells[cell] = EMPTY
                        elif waste:
                            cells[cell] = take()
                        elif drawn < nstock:
                            cells[cell] = stock[drawn]
                            drawn += 1
                        else:
                            cells[cell] = EMPTY
                        append(CELL_TO_FOUNDATION + cell)
                        if total == 52:  # update_won
                            state.drawn, state.score, state.status = drawn, score, WON
                            return i + 1
                        continue
            elif code == 7:
                # _waste_to_foundation: the waste top, if it fits its foundation
                if waste:
                    card = waste[-1]
                    s = card // 13
                    count = found[s]
                    if count and card % 13 == count:
                        take()
                        found[s] = count + 1
                        score += 1
                        total += 1
                        append(WASTE_TO_FOUNDATION)
                        if total == 52:  # update_won
                            state.drawn, state.score, state.status = drawn, score, WON
                            return i + 1
                        continue
            elif code < 29:
                # _waste_fill into the k-th empty cell (codec: row-major), with the waste top
                if player_fills and waste:
                    cell = -1
                    try:
                        for _ in range(code - 8):
                            cell = where(EMPTY, cell + 1)
                    except ValueError:
                        cell = -1  # fewer empty cells: no such action here
                    if cell >= 0:
                        cells[cell] = take()
                        append(WASTE_FILL + cell)
                        continue
            elif code < 49:
                # _stock_fill into the k-th empty cell, the waste being empty
                if stock_fills and not waste and drawn < nstock:
                    cell = -1
                    try:
                        for _ in range(code - 28):
                            cell = where(EMPTY, cell + 1)
                    except ValueError:
                        cell = -1
                    if cell >= 0:
                        cells[cell] = stock[drawn]
                        drawn += 1
                        append(STOCK_FILL + cell)
                        continue
        elif code < 3:
            break
        elif code < 7:
            # carpet-foster's first phase: a carpet card to its foundation (codec as above), its
            # hole refilled from the stock, aces going up on the way (_refill_from_stock)
            s = code - 3
            count = found[s]
            if 0 < count < 13:
                try:
                    cell = where(s * 13 + count)
                except ValueError:
                    cell = -1
                if cell >= 0:
                    found[s] = count + 1
                    score += 1
                    total += 1
                    cells[cell] = EMPTY
                    while drawn < nstock:
                        card = stock[drawn]
                        drawn += 1
                        if card % 13 != ACE:
                            cells[cell] = card
                            break
                        found[card // 13] = 1  # _ace_out
                        score += 1
                        total += 1
                    append(CELL_TO_FOUNDATION + cell)
                    # _settle: the second phase starts once no carpet card can be played
                    for s, count in enumerate(found):
                        if 0 < count < 13 and s * 13 + count in cells:
                            break
                    else:
                        phase = state.phase = 2
                    if total == 52:  # update_won
                        state.drawn, state.score, state.status = drawn, score, WON
                        return i + 1
                    continue
        # --- the plain way: decode and apply check everything ----------------------------
        state.drawn, state.score = drawn, score
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
        cells, found, waste, stock = state.cells, state.found, state.waste, state.stock
        drawn, score, phase = state.drawn, state.score, state.phase
        nstock, total = len(stock), sum(found)
        push, take, where = waste.append, waste.pop, cells.index
    else:
        i = end
    state.drawn, state.score = drawn, score
    if i > start and state.status != WON:
        state.status = PLAYING  # update_won after the last action
    return i


def _next_ace(aces_at: bytes | None, drawn: int, nstock: int) -> int:
    """The place of the stock's next ace from ``drawn`` on (``aces_at``: 1 where the stock holds an
    ace, None where every foundation is started), ``nstock`` where none is left."""
    if aces_at is None:
        return nstock
    at = aces_at.find(1, drawn)
    return nstock if at < 0 else at


def play_moves(state, codes, i: int, end: int, actions, decode) -> int:
    """:func:`play_codes` with nothing taken back (the usual log): the moves played without the
    undo bookkeeping, and with the position kept in other forms while the loop runs, written back
    when it stops:

    - the carpet as bytes (EMPTY as 255): a card's cell, or the first gap, is one ``find``;
    - the foundations as the card each needs next, ``s * 13 + count`` at index ``3 + s`` (the
      code that plays it).  No ace is ever on the carpet or in the waste (the deal, the refills
      and the turn put them up), so the card of a count 0 or 13 (an ace, or 52) is never found
      there: fits() needs no test of its own, and such a code goes the plain way;
    - the score as the cards gone up: every rule that puts a card up adds one to the score,
      so ``score - sum(found)`` never changes;
    - the event's index as the actions appended (one each);
    - the win unseen until the next event: with every card up no fast case applies (the
      carpet, the waste and the stock are empty), so the event after a win goes the plain way,
      where the win is noticed and the loop stops before it, as update_won would have.

    carpet-foster's first phase (only a carpet card to its foundation, its hole refilled from the
    stock) passes every fast case of the second (nothing is found on the carpet, no card turned)
    and is played in a case of its own where the plain way starts."""
    if i >= end or state.status == WON:
        return i
    variant = state.variant
    auto_fill, stock_fills = variant.auto_fill, variant.stock_fills  # (player_fills: not auto_fill)
    waste, stock, drawn, phase = state.waste, state.stock, state.drawn, state.phase
    nstock = len(stock)
    # need[3 + s]: the card the foundation of suit s takes next (its code's card), s * 13 + count
    # (and 52, a card never dealt, for the session events' codes 0-2: the plain way stops there)
    a, b, c, d = state.found
    need = [52, 52, 52, a, b + 13, c + 26, d + 39]
    lead = state.score - a - b - c - d - 78  # the score less sum(need[3:]): the same after every action
    try:
        board = bytearray(state.cells)  # the cells as bytes, EMPTY 255
    except ValueError:
        board = bytearray(array("b", state.cells))  # (a gap: -1 as a signed byte)
    append, push, take, find = actions.append, waste.append, waste.pop, board.find
    # the aces in the stock (carpet-foster's, while a foundation is not started): a turn before
    # the next one (limit) pushes its card at once, the turn of an ace puts it up and finds the next
    aces_at = None if a and b and c and d else bytes(stock).translate(_ACE_MARKS)
    limit = _next_ace(aces_at, drawn, nstock)
    turnable = nstock
    if phase == 1:  # nothing found, nothing turned: every code to the first phase's case
        find, limit, turnable = _NOWHERE.find, 0, 0
    start, first = i, len(actions) - i  # the next event's index is len(actions) - first
    for code in codes if i == 0 and end == len(codes) else codes[i:end]:  # (a whole log: no copy)
        if code == 8:  # the commonest code first
            # _turn: the stock top onto the waste; an ace (carpet-foster) to its foundation
            if drawn < limit:  # (no ace before limit)
                push(stock[drawn])
                drawn += 1
                append(TURN)
                continue
            if drawn < turnable:
                card = stock[drawn]
                drawn += 1
                append(TURN)
                if card % 13:
                    push(card)
                else:
                    need[card // 13 + 3] += 1  # _ace_out (never the 52nd card: a card is left to turn)
                limit = _next_ace(aces_at, drawn, nstock)
                continue
        elif code < 7:
            # codec: the card the foundation of suit code - 3 needs, from the carpet
            card = need[code]
            cell = find(card)
            if cell >= 0:
                # _cell_to_foundation: a carpet card that fits (fits(): the card the started
                # foundation needs next); its cell refills with auto_fill
                need[code] = card + 1
                if not auto_fill:
                    board[cell] = 255
                elif waste:
                    board[cell] = take()
                elif drawn < nstock:
                    board[cell] = stock[drawn]
                    drawn += 1
                else:
                    board[cell] = 255
                append(CELL_TO_FOUNDATION + cell)
                continue
        elif code == 7:
            # _waste_to_foundation: the waste top, if it fits its foundation
            if waste:
                card = waste[-1]
                s = card // 13 + 3
                if need[s] == card:
                    take()
                    need[s] = card + 1
                    append(WASTE_TO_FOUNDATION)
                    continue
        elif code < 29:
            # _waste_fill into the k-th empty cell (codec: row-major), with the waste top
            if not auto_fill and waste:
                cell = find(255)
                k = code - 9
                while k and cell >= 0:
                    cell = find(255, cell + 1)
                    k -= 1
                if cell >= 0:
                    board[cell] = take()
                    append(WASTE_FILL + cell)
                    continue
        elif code < 49:
            # _stock_fill into the k-th empty cell, the waste being empty
            if stock_fills and not waste and drawn < nstock:
                cell = find(255)
                k = code - 29
                while k and cell >= 0:
                    cell = find(255, cell + 1)
                    k -= 1
                if cell >= 0:
                    board[cell] = stock[drawn]
                    drawn += 1
                    append(STOCK_FILL + cell)
                    continue
        if code < 3:
            break  # a session event: the caller's
        if phase == 1 and code < 7:
            # carpet-foster's first phase: _cell_to_foundation, the hole refilled from the
            # stock, aces going up on the way (_refill_from_stock)
            card = need[code]
            cell = board.find(card)
            if cell >= 0:
                need[code] = card + 1
                board[cell] = 255
                while drawn < nstock:
                    card = stock[drawn]
                    drawn += 1
                    if card % 13:
                        board[cell] = card
                        break
                    need[card // 13 + 3] += 1  # _ace_out
                append(CELL_TO_FOUNDATION + cell)
                # _settle: the second phase starts once no carpet card can go up
                find = board.find
                if find(need[3]) < 0 and find(need[4]) < 0 and find(need[5]) < 0 and find(need[6]) < 0:
                    phase, turnable = 2, nstock
                    aces_at = bytes(stock).translate(_ACE_MARKS)
                    limit = _next_ace(aces_at, drawn, nstock)
                else:
                    find = _NOWHERE.find
                continue
        # --- the plain way: decode and apply check everything ------------------------
        _, _, _, a, b, c, d = need
        state.found, state.cells = [a, b - 13, c - 26, d - 39], array("b", board).tolist()
        state.drawn, state.score, state.phase = drawn, lead + a + b + c + d, phase
        if a + b + c + d == 130:  # won by the event before (after a win no fast case applies)
            state.status = WON
            return len(actions) - first
        action = decode(state, code)
        if action <= RESTART:
            break
        try:
            state.apply(action)
        except CarpetError:
            break  # apply changed nothing; the caller plays it again and reports it
        append(action)
        if state.status == WON:
            return len(actions) - first
        # the position again from the state, and on
        waste, stock, drawn, phase = state.waste, state.stock, state.drawn, state.phase
        nstock = len(stock)
        a, b, c, d = state.found
        need = [52, 52, 52, a, b + 13, c + 26, d + 39]
        board = bytearray(array("b", state.cells))
        push, take, find = waste.append, waste.pop, board.find
        aces_at = None if a and b and c and d else bytes(stock).translate(_ACE_MARKS)
        limit = _next_ace(aces_at, drawn, nstock)
        turnable = nstock
        if phase == 1:
            find, limit, turnable = _NOWHERE.find, 0, 0
    i = len(actions) - first  # (each event played appended one action)
    _, _, _, a, b, c, d = need
    state.found, state.cells = [a, b - 13, c - 26, d - 39], array("b", board).tolist()
    state.drawn, state.score, state.phase = drawn, lead + a + b + c + d, phase
    if i > start:
        state.status = WON if a + b + c + d == 130 else PLAYING  # update_won after the last action
    return i


__all__ = ["dealt", "play_codes", "play_moves", "plays", "position_bytes", "update_status"]
