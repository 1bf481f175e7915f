"""The grid family's moves replayed in bulk: a fast copy of decoding and ``GridState.apply``.

The one replay (formats/replay.py) hands a run of a version-2 log's action codes to
:func:`play_codes`.  It plays the card moves it can on a fast path, with decoding
(formats/codec.py, ``_grid_decoder``), the legality checks and the transition of
``GridState._move`` written out in one loop over the events, redeals by :func:`redeal`,
and every other event (an unusual code, anything the fast path does not decide at once)
through the plain ``decode`` and ``apply``.  It stops before a session event (hint, undo,
restart), after a win, and before an event the plain way refuses, so that the caller plays
that one again and reports it in its own words.  The module also deals (:func:`dealt`),
saves and restores positions and works out the win bonus, fast.

What each fast copy mirrors is named where it is written; tests/test_fast_replay.py pins
every one to the plain rule over random and player games of every grid variant
(every field of the position, and the refused event, with illegal events mixed in).
"""

from __future__ import annotations

from array import array

from carpet.core.cards import ACE, KING
from carpet.core.errors import CarpetError
from carpet.core.game import PLAYING, RESTART, WON

from .grid import (ANY_SUIT_NEXT, EMPTY, FIRST_MOVE, REDEAL, SUIT_NEXT, GridState, _redeal_plan, deal_beside_column_0,
                   gap_spaces)
from .numbering import fast_dealing_order, fast_shuffle

NONE = -2  # in the tables: no such card


class _Tables:
    """A board's figures as look-up tables (a list index is quicker than ``%`` and ``//``)."""

    __slots__ = ("col", "row", "up", "down", "move", "base_rank", "layout", "by_left", "by_right")

    def __init__(self, v) -> None:
        cols, cards = v.cols, v.card_count
        self.col = tuple(cell % cols for cell in range(v.cells))
        self.row = tuple(cell // cols for cell in range(v.cells))
        # the card one above / below a card in its suit where there is one, else NONE; EMPTY
        # (-1) reads the last entry, NONE too (NONE is no card and not EMPTY either)
        self.up = tuple(card + 1 if card % 13 != KING else NONE for card in range(cards)) + (NONE,)
        self.down = tuple(card - 1 if card % 13 != ACE else NONE for card in range(cards)) + (NONE,)
        self.move = tuple(FIRST_MOVE + card * v.cells for card in range(cards))  # + cell: the action
        self.base_rank = tuple(card % 13 == v.base for card in range(cards))
        # the cards that fit an empty cell (not in column 0) beside a card on its left
        # (fits_left_neighbour: nothing beside a king; the build rule), and by the left rule
        # beside a card on its right (fits: nothing beside an ace; its predecessor in suit);
        # tests/test_fast_replay.py asks GridState.fits of every pair
        by_left, by_right = [], []
        for n in range(cards):
            rank, suit = n % 13, n % 52 // 13
            if rank == KING:
                by_left.append(frozenset())
            elif v.build is SUIT_NEXT:
                by_left.append(frozenset(v.twins[n + 1]))
            elif v.build is ANY_SUIT_NEXT:
                by_left.append(frozenset(v.of_rank[rank + 1]))
            else:  # SUIT_HIGHER
                by_left.append(frozenset(c for c in range(cards) if c % 52 // 13 == suit and c % 13 > rank))
            by_right.append(frozenset(v.twins[n - 1]) if v.left_rule and rank != ACE else frozenset())
        self.by_left = tuple(by_left) + (frozenset(),)  # EMPTY (-1) reads the last: nothing fits
        self.by_right = tuple(by_right) + (frozenset(),)
        # Коврик's deal lays the k-th card of the dealing order into a fixed cell: for each
        # cell, that k (or the index of an EMPTY put after the order)
        self.layout = None
        if v.board.deal is deal_beside_column_0:
            laid = deal_beside_column_0(list(range(cards)), v.board)
            self.layout = tuple(cards if k == EMPTY else k for k in laid)


_TABLES: dict[str, _Tables] = {}


def tables(v) -> _Tables:
    t = _TABLES.get(v.id)
    if t is None:
        t = _TABLES[v.id] = _Tables(v)
    return t


def plays(variant) -> bool:
    """Whether the fast path holds for this game: one deck (with two, a card's successor in
    suit may be either deck's, which the tables here do not say)."""
    return variant.board.decks == 1


def dealt(variant, deal) -> GridState:
    """``variant.new_state(deal)`` (GridState.__init__), dealt by fast copies: the shuffle
    (numbering.fast_dealing_order) and Коврик's deal as a table (deal_beside_column_0)."""
    board = variant.board
    order, rng = fast_dealing_order(deal, board.card_count)
    state = GridState.__new__(GridState)
    state.variant = variant
    state.rng = rng
    state.rng_state = rng.getstate()
    layout = (_TABLES.get(variant.id) or tables(variant)).layout
    if layout is None:
        state.cells = board.deal(order, board)
    else:
        order.append(EMPTY)
        state.cells = list(map(order.__getitem__, layout))
    state.score = 0
    state.redeals_used = 0
    state.status = PLAYING
    state._index()
    state._find_prefixes()
    state.update_status()
    return state


#: byte b -> b + 1 (mod 256): a cell's card id as a signed byte (EMPTY -1 is 255) -> its id + 1, EMPTY 0
PLUS_ONE = bytes((b + 1) & 0xFF for b in range(256))


def position_bytes(state) -> bytes:
    """GridState.position_bytes (each cell's card id + 1, 0 for an empty cell), in bulk: the cells
    as signed bytes, translated."""
    return array("b", state.cells).tobytes().translate(PLUS_ONE)


def win_bonus(variant, moves: int) -> int:
    """GridVariant.win_bonus in closed form: 5 for each k from ``moves`` to 99, 3 to 199, 1 to 299."""
    if not variant.bonus_factor:
        return 0
    bonus = 5 * max(0, 100 - moves) + 3 * max(0, 200 - max(100, moves)) + max(0, 300 - max(200, moves))
    return bonus * variant.bonus_factor


def redeal(state) -> bool:
    """``GridState._redeal`` and update_won, fast (the deal's generator by numbering.fast_shuffle);
    False, with nothing changed, where the plain way decides: a redeal it refuses."""
    v = state.variant
    total = v.redeals
    if state.status == WON or (total is not None and state.redeals_used >= total):  # can_redeal
        return False
    prefix = state.prefix
    key = tuple(prefix)
    plan = v.plans.get(key)
    if plan is None:  # as _redeal makes and keeps it
        if len(v.plans) >= 4096:
            v.plans.clear()
        plan = v.plans[key] = _redeal_plan(v.board.rows, v.cols, key, not v.shuffled)
    targets, gaps, laying = plan
    cells = state.cells
    loose = [card for card in map(cells.__getitem__, targets) if card != EMPTY]
    spaces = gaps
    if v.shuffled:
        rng = state.rng
        fast_shuffle(loose, rng)
        if v.spaces is not gap_spaces:
            spaces = v.spaces(targets, gaps, len(targets) - len(loose), rng, v.board)
            laying = list(targets)  # [cell for cell in targets if cell not in spaces]
            try:
                for cell in spaces:
                    laying.remove(cell)
            except ValueError:  # a space that is no target (no game here makes one)
                laying = [cell for cell in targets if cell not in spaces]
        state.rng_state = rng.getstate()
        loose.reverse()
    # every target ends either laid (laying) or empty (spaces): no need to empty them first
    where = state.where
    for cell, card in zip(laying, loose, strict=True):
        cells[cell] = card
        where[card] = cell
    for cell in spaces:
        cells[cell] = EMPTY
    state.gaps = sorted(spaces)
    state.redeals_used += 1
    if spaces is not gaps:  # a card laid into a row's gap may continue its prefix
        for row, length in enumerate(prefix):
            state._extend_prefix(row, length)
    state.status = WON if sum(prefix) == v.finished else PLAYING
    return True


def snapshot(state) -> tuple:
    """GridState.snapshot with ``where`` and ``gaps`` kept too, so that :func:`restore` needs no _index."""
    return (tuple(state.cells), tuple(state.prefix), state.score, state.redeals_used, state.status,
            state.rng_state, tuple(state.where), tuple(state.gaps))


def restore(state, snap: tuple) -> None:
    """GridState.restore of a :func:`snapshot` (or, by the plain restore, of a GridState.snapshot)."""
    if len(snap) != 8:
        state.restore(snap)
        return
    cells, prefix, state.score, state.redeals_used, state.status, rng_state, where, gaps = snap
    state.cells = list(cells)
    state.prefix = list(prefix)
    if rng_state is not state.rng_state:
        state.rng.setstate(rng_state)
        state.rng_state = rng_state
    state.where = list(where)
    state.gaps = list(gaps)


def play_codes(state, codes, i: int, end: int, actions, decode, undone=None, snaps=None, base: int = 0) -> int:
    """Play ``codes[i:end]`` (version-2 grid codes) on ``state`` until one the fast path and the
    plain way cannot play here; append each event's action index to ``actions``.  Returns the
    index of the first event not played: a session event, one the plain way refuses, ``end``,
    or the event after a win.  ``state`` runs the lean replay's ``apply`` (update_won).
    ``undone`` (with ``snaps`` and ``base``): the events a later undo takes back, 1 at their index
    (replay.undone); before each of them the position is saved in ``snaps[base + k]``, k the
    events played so far in this call, as the caller's undo stack numbers them.
    """
    if i >= end or state.status == WON:
        return i
    v = state.variant
    t = _TABLES.get(v.id) or tables(v)
    COL, ROW, UP, DOWN, MOVE, BASE = t.col, t.row, t.up, t.down, t.move, t.base_rank
    BY_LEFT, BY_RIGHT = t.by_left, t.by_right
    cells, where, gaps, prefix = state.cells, state.where, state.gaps, state.prefix
    ngaps, cols, cards = len(gaps), v.cols, v.card_count
    last_col = cols - 1
    locking, left_rule = v.locking, v.left_rule
    card_points, move_points, finished = v.card_points, v.move_points, v.finished
    apply, append = state.apply, actions.append
    score, total = state.score, sum(prefix)
    start = i
    nxt = -1 if undone is None else undone.find(1, i, end)
    for i, code in enumerate(codes[i:end], i):
        if i == nxt:  # a later undo takes this event back: the position before it is saved
            state.score = score
            if i > start:
                state.status = PLAYING  # update_won after the move before
            snaps[base + i - start] = snapshot(state)
            nxt = undone.find(1, i + 1, end)
        # --- decode (codec._grid_decoder), with the fit the code promises -----------------
        if code < 8:
            if code > 3:  # the card one above its left neighbour, into the g-th empty cell
                g = code - 4
                if g < ngaps:
                    cell = gaps[g]
                    col = COL[cell]
                    # _move's fit (fits / fits_left_neighbour): beside a card that is not a king,
                    # the card one above it fits by every build rule; column 0 takes the base
                    # rank only, so a code pointing there goes the plain way
                    card = UP[cells[cell - 1]] if col else -1
                else:
                    card = -1
            elif code < 3:
                break  # a session event: the caller's
            else:  # redeal
                state.score = score
                if redeal(state):
                    append(REDEAL)
                    if state.status == WON:
                        return i + 1
                    gaps, ngaps, score, total = state.gaps, len(state.gaps), state.score, sum(prefix)
                    continue
                card = -1  # the plain way decides
        elif code < 12:
            g = code - 8
            if left_rule and g < ngaps:  # the card one below its right neighbour
                cell = gaps[g]
                col = COL[cell]
                # fits() by the left rule: a right neighbour that is no ace takes the card below it
                card = DOWN[cells[cell + 1]] if 0 < col < last_col else -1
            else:
                card = -1
        elif code >= 15:  # card * G + g: any card into the g-th empty cell
            card, g = divmod(code - 15, ngaps)
            if card < cards:
                cell = gaps[g]
                col = COL[cell]
                if col:  # fits(): by the left neighbour and the build rule, or by the left rule
                    if card not in BY_LEFT[cells[cell - 1]] and not (
                            left_rule and col < last_col and card in BY_RIGHT[cells[cell + 1]]):
                        card = -1
                elif not BASE[card]:  # column 0 takes the base rank
                    card = -1
            else:
                card = -1
        else:
            card = -1
        if card >= 0:
            source = where[card]
            if source >= 0:
                # _move: a gap is empty (gaps lists the empty cells), the card is on the board;
                # locked (Коврик) goes the plain way, which refuses it
                srow = ROW[source]
                cut = prefix[srow] - COL[source]
                if cut > 0 and locking:
                    card = -1
            else:
                card = -1
        if card < 0:
            # --- the plain way: decode and apply check everything ------------------------
            state.score = score
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
            cells, where, gaps, prefix = state.cells, state.where, state.gaps, state.prefix
            ngaps, score, total = len(gaps), state.score, sum(prefix)
            continue
        # --- the transition (GridState._move) ---------------------------------------------
        append(MOVE[card] + cell)
        cells[cell] = card
        cells[source] = EMPTY
        where[card] = cell
        gaps[g] = source
        gaps.sort()
        if cut > 0:  # without locks: the card leaves its row's prefix, cut short there
            score -= card_points * cut
            total -= cut
            prefix[srow] = COL[source]
        row = ROW[cell]
        length = prefix[row]
        if col == length:  # _extend_prefix(row, length), from the card just placed
            first = cell - col
            # in column 0 the card is of the base rank (nothing else reaches it here); elsewhere
            # it lengthens the prefix if it follows its left neighbour in suit
            if not col or UP[cells[cell - 1]] == card:
                length += 1
            while col < length < cols:
                if UP[cells[first + length - 1]] != cells[first + length]:
                    break
                length += 1
            newly = length - prefix[row]
            if newly:  # Variant.lock_points
                prefix[row] = length
                score += card_points * newly + move_points
                total += newly
                if total == finished:  # update_won
                    state.score = score
                    state.status = WON
                    return i + 1
    else:
        i = end
    state.score = score
    if i > start and state.status != WON:
        state.status = PLAYING  # update_won after the last move
    return i


__all__ = ["dealt", "play_codes", "plays", "position_bytes", "redeal", "restore", "snapshot", "win_bonus"]
