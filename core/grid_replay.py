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
from operator import itemgetter, mod

from carpet.core.cards import ACE, KING
from carpet.core.errors import CarpetError
from carpet.core.game import PLAYING, PLUS_ONE, RESTART, WON

from .grid import (ANY_SUIT_NEXT, EMPTY, FIRST_MOVE, OUT, REDEAL, SUIT_NEXT, GridState, _redeal_plan,
                   deal_beside_column_0, gap_spaces)
from .numbering import _MS_ORDER, _SWAPS, MS_LIMIT, MicrosoftRandom, _draws, _swap_plan, fast_dealing_order, fast_shuffle

NONE = -2  # in the tables: no such card
_MONTANA = __package__ + ".montana"


class _Tables:
    """A board's figures as look-up tables (a list index is quicker than ``%`` and ``//``)."""

    __slots__ = ("col", "row", "up", "down", "move", "base_rank", "layout", "by_left", "by_right", "deal_getter",
                 "cell_of", "deal_gaps", "up_free", "spaces_kind", "random_spaces", "kits", "gathers", "rows",
                 "consts", "ace_out", "deal_kind", "aces", "dest")

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
        deal = v.board.deal
        # the Montana family's deals and spaces are known by identity; their module is loaded
        # only for a variant that uses one of them (a Коврик log never loads it)
        montana = None
        if _MONTANA in (getattr(deal, "__module__", None), getattr(v.spaces, "__module__", None)):
            from . import montana
        self.deal_kind = "beside" if deal is deal_beside_column_0 else "plain"
        if montana is not None:
            self.deal_kind = {montana.deal_aces_out: "aces out", montana.deal_aces_to_column_0: "aces to column 0",
                              montana.deal_aces_first: "aces first"}.get(deal, self.deal_kind)
        self.layout = None
        if self.deal_kind in ("beside", "aces to column 0"):  # deal_beside_column_0 first
            laid = deal_beside_column_0(list(range(cards)), v.board)
            self.layout = tuple(cards if k == EMPTY else k for k in laid)
            # the same, for dealt: the cells by one itemgetter, the cell of each k, the cells left empty
            self.deal_getter = itemgetter(*self.layout)
            cell_of = [EMPTY] * cards
            for cell, k in enumerate(laid):
                if k != EMPTY:
                    cell_of[k] = cell
            self.cell_of = tuple(cell_of)
            self.deal_gaps = tuple(cell for cell, k in enumerate(laid) if k == EMPTY)
            if EMPTY in cell_of:  # a card the deal leaves out: the plain deal and _index
                self.layout = None
                self.deal_kind = "plain"
        self.aces = tuple(card for card in range(cards) if card % 13 == ACE)
        # the cell each card of the shuffled list lands in (the list is dealt from its end: its
        # n-th card is the dealing order's (cards - 1 - n)-th), where the deal lays it by its place
        # in the order alone: for _deal's shuffle, which lays each card as soon as it is decided
        self.dest = None
        if self.layout is not None:
            self.dest = tuple(self.cell_of[cards - 1 - n] for n in range(cards))
        elif self.deal_kind == "aces out" and cards == v.cells:
            self.dest = tuple(cards - 1 - n for n in range(cards))
        if self.deal_kind == "aces first":  # deal_aces_first: the other cards from column 2 on, in order
            per_row = v.cols - 2
            laid_at = tuple((i // per_row) * v.cols + 2 + i % per_row for i in range(cards - len(self.aces)))
            # cells from the other cards + [EMPTY] + the aces in suit order (ids run ♣ ♠ ♥ ♦)
            perm = [len(laid_at)] * v.cells
            for i, cell in enumerate(laid_at):
                perm[cell] = i
            for row in range(len(self.aces)):
                perm[row * v.cols] = len(laid_at) + 1 + row
            self.deal_getter, self.cell_of = itemgetter(*perm), laid_at
            self.deal_gaps = tuple(cell for cell in range(v.cells) if perm[cell] == len(laid_at))
            if v.board.rows != len(self.aces) or len(laid_at) > v.board.rows * per_row:
                self.deal_kind = "plain"
        in_play = set(v.cards_in_play)
        # the card one above a card in play is never in a row's prefix (so a move of it by code 4-7
        # cuts none): were it, its left neighbour would be the card below it, not a gap.  That holds
        # where such a card is never of the base rank (its prefix's first card) and is in play
        self.up_free = all(self.up[c] in in_play and self.up[c] % 13 != v.base for c in in_play if self.up[c] >= 0)
        # the redeal's spaces: 0 each row's gap, 1 the last cell of each row (both known from the
        # prefixes alone, so that a redeal is one plan per prefix shape), 2 drawn (random_spaces) or
        # any other rule (asked each time)
        self.spaces_kind = 0 if v.spaces is gap_spaces else 2
        if montana is not None and v.spaces is montana.last_cell_spaces:
            self.spaces_kind = 1
        self.random_spaces = montana is not None and v.spaces is montana.random_spaces
        # montana.deal_aces_out as a table: card -> itself, an ace -> EMPTY
        self.ace_out = None
        if self.deal_kind == "aces out":
            self.ace_out = tuple(EMPTY if card % 13 == ACE else card for card in range(cards))
        # every redeal plan needs the empty cells to be one per row (a space each): as on every board here
        self.kits: dict | None = {} if v.board.rows == v.cells - len(v.cards_in_play) and self.spaces_kind < 2 \
            else None
        self.gathers: dict = {}  # prefix lengths -> (targets, gaps, an itemgetter of the targets) for other redeals
        self.rows = v.board.rows
        self.consts = (self.col, self.row, self.up, self.down, self.move, self.base_rank, self.by_left,
                       self.by_right, v.cols, v.cols - 1, cards, v.locking, v.left_rule, v.card_points,
                       v.move_points, v.finished)

    def kit(self, v, key: tuple) -> tuple:
        """The redeal of ``_redeal`` for these prefix lengths where its spaces are known from them
        (spaces_kind 0 or 1), small and quick to make (a long game meets hundreds of shapes):

        - the targets as slices of the cells (a row's cells after its prefix), read in the order
          _redeal collects the loose cards, and for each row the index there of its column 0
          (so that an empty cell is taken out by its row and column);
        - the cells the loose cards are laid into, in laying order (_redeal_plan, or the targets
          but the spaces); the spaces, sorted; whether a prefix may grow (a card laid into a
          row's gap); the number of loose cards.
        """
        if len(self.kits) >= 4096:
            self.kits.clear()
        cols = v.cols
        targets, gaps, laying = _redeal_plan(v.board.rows, cols, key, not v.shuffled)
        spaces = gaps
        if self.spaces_kind == 1:  # montana.last_cell_spaces
            spaces = tuple(row * cols + cols - 1 for row in range(v.board.rows))
            laying = tuple(cell for cell in targets if cell not in spaces)
        slices, offsets, read = [], [], 0
        for row, length in enumerate(key):
            offsets.append(read - length)
            read += cols - length
            if slices and length == 0 and slices[-1].stop == row * cols:  # one slice on from the row before
                slices[-1] = slice(slices[-1].start, (row + 1) * cols)
            else:
                slices.append(slice(row * cols + length, (row + 1) * cols))
        kit = self.kits[key] = (tuple(slices), tuple(offsets), laying, sorted(spaces), self.spaces_kind != 0,
                                len(laying))
        return kit


_TABLES: dict[str, _Tables] = {}


def tables(v) -> _Tables:
    t = _TABLES.get(v.id)
    if t is None:
        t = _TABLES[v.id] = _Tables(v)
    return t


def plays(variant) -> bool:
    """Whether the fast path holds for this game: one deck (with two, a card's successor in
    suit may be either deck's, which the tables here do not say)."""
    return variant.board.decks == 1 and tables(variant).up_free


def dealt(variant, deal) -> GridState:
    """``variant.new_state(deal)`` (GridState.__init__), dealt by fast copies: the shuffle
    (numbering.fast_dealing_order); the deal as tables (grid.deal_beside_column_0,
    montana.deal_aces_out, deal_aces_to_column_0, deal_aces_first), with ``where`` and the empty
    cells as the deal lays them (GridState._index), or _index by :func:`_index`; _find_prefixes
    by :func:`_prefixes`."""
    board = variant.board
    t = _TABLES.get(variant.id) or tables(variant)
    state = GridState.__new__(GridState)
    state.variant = variant
    kind = t.deal_kind
    if t.dest is not None and deal.microsoft and deal.number < 1 << 32:
        state.rng = rng = MicrosoftRandom(deal.number)
        _deal(state, t, rng, board)
        state.rng_state = rng.getstate()
        if kind == "aces out":  # deal_aces_out: an ace leaves its cell empty
            gaps = []
            for card in t.aces:
                gaps.append(state.where[card])
                state.where[card] = OUT
            gaps.sort()
            for cell in gaps:
                state.cells[cell] = EMPTY
            state.gaps = gaps
        elif kind == "aces to column 0":
            _aces_to_column_0(state, t, board.cols)
        else:
            state.gaps = list(t.deal_gaps)
        order = None
    else:
        order, rng = fast_dealing_order(deal, board.card_count)
        state.rng = rng
        state.rng_state = rng.getstate()
    if order is None:
        pass
    elif t.layout is not None:  # deal_beside_column_0: every card to a cell of its own; where read backwards
        where = [OUT] * board.card_count
        for card, cell in zip(order, t.cell_of):
            where[card] = cell
        order.append(EMPTY)
        cells = list(t.deal_getter(order))
        state.cells, state.where = cells, where
        if kind == "aces to column 0":
            _aces_to_column_0(state, t, board.cols)
        else:
            state.gaps = list(t.deal_gaps)
    elif kind == "aces first":  # the aces (in suit order) to column 0, the others from column 2, in order
        for card in t.aces:
            order.remove(card)
        where = [OUT] * board.card_count
        for card, cell in zip(order, t.cell_of):
            where[card] = cell
        cols = board.cols
        for row, card in enumerate(t.aces):
            where[card] = row * cols
        order.append(EMPTY)
        order += t.aces
        state.cells, state.where, state.gaps = list(t.deal_getter(order)), where, list(t.deal_gaps)
    else:
        if kind == "aces out":  # deal_aces_out: card i to cell i, an ace leaving it empty
            state.cells = list(map(t.ace_out.__getitem__, order))
        else:
            state.cells = board.deal(order, board)
        _index(state, board.card_count)
    state.score = 0
    state.redeals_used = 0
    state.status = PLAYING
    state.prefix = [0] * board.rows
    _prefixes(state, t)
    state.update_status()
    return state


def _deal(state, t, rng: MicrosoftRandom, board) -> None:
    """fast_dealing_order (dealing_order: the Microsoft reorder, the shuffle, read from the end)
    and the deal by its place in the order alone (t.dest), at once: the shuffle's swap at n leaves
    the n-th card as it stays (later swaps are below n), and it is laid there and then."""
    cards = board.card_count
    items = list(_MS_ORDER) if cards == 52 else list(range(cards))
    cells = [EMPTY] * board.cells
    where = [OUT] * cards
    dest = t.dest
    _, jump_a, jump_c, sizes, many_a, many_c = _SWAPS.get(cards) or _swap_plan(cards)
    x0 = rng.x
    for n, j, cell in zip(range(cards - 1, 0, -1), map(mod, _draws(x0, rng.high, many_a, many_c, cards - 1), sizes),
                          dest[cards - 1:0:-1]):
        card = items[j]
        items[j] = items[n]
        cells[cell] = card
        where[card] = cell
    card = items[0]
    cells[dest[0]] = card
    where[card] = dest[0]
    rng.x = (jump_a * x0 + jump_c) % MS_LIMIT
    state.cells, state.where = cells, where


def _aces_to_column_0(state, t, cols: int) -> None:
    """montana.deal_aces_to_column_0 after deal_beside_column_0: the aces, in row-major order, to
    column 0 of rows a, b, ..., each leaving its cell empty."""
    cells, where = state.cells, state.where
    gaps = sorted(map(where.__getitem__, t.aces))
    for row, cell in enumerate(gaps):
        card = cells[cell]
        cells[row * cols] = card
        cells[cell] = EMPTY
        where[card] = row * cols
    state.gaps = gaps


def _index(state, cards: int) -> None:
    """GridState._index: ``where`` (a cell for each card, OUT for a card not dealt) and the empty cells."""
    cells = state.cells
    where = [OUT] * (cards + 1)
    for cell, card in enumerate(cells):
        where[card] = cell  # EMPTY (-1) writes the extra last entry
    where.pop()
    gaps = []
    cell = -1
    for _ in range(cells.count(EMPTY)):
        cell = cells.index(EMPTY, cell + 1)
        gaps.append(cell)
    state.where = where
    state.gaps = gaps


def _prefixes(state, t) -> int:
    """``_extend_prefix(row, prefix[row])`` for every row, with the tables (one deck: a card follows
    another in suit when it is the UP of it): returns the points scored, added to state.score."""
    cells, prefix = state.cells, state.prefix
    up, base_rank = t.up, t.base_rank
    v = state.variant
    cols, card_points, move_points = v.cols, v.card_points, v.move_points
    points = 0
    start = 0
    for row in range(t.rows):
        old = length = prefix[row]
        if not length:
            first = cells[start]
            if first != EMPTY and base_rank[first]:
                length = 1
        if length:
            while length < cols and up[cells[start + length - 1]] == cells[start + length]:
                length += 1
            if length != old:  # Variant.lock_points
                prefix[row] = length
                points += card_points * (length - old) + move_points
        start += cols
    state.score += points
    return points


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
    False, with nothing changed, where the plain way decides: a redeal it refuses.

    Where the spaces are known from the prefixes (each row's gap, or the last cell of each row),
    the redeal is a small plan per prefix shape (:meth:`_Tables.kit`): the loose cards gathered
    by slices, and with a Microsoft generator the shuffle and the laying in one loop."""
    v = state.variant
    total = v.redeals
    if state.status == WON or (total is not None and state.redeals_used >= total):  # can_redeal
        return False
    t = _TABLES.get(v.id) or tables(v)
    prefix = state.prefix
    key = tuple(prefix)
    cells = state.cells
    kits = t.kits
    if kits is not None:
        kit = kits.get(key) or t.kit(v, key)
        slices, offsets, laying, spaces, extend, count = kit
        loose = []
        for part in slices:
            loose += cells[part]
        row_of, col_of = t.row, t.col
        for cell in reversed(state.gaps):  # every empty cell is a target (a prefix holds cards)
            del loose[offsets[row_of[cell]] + col_of[cell]]
        where = state.where
        rng = state.rng
        if v.shuffled and type(rng) is MicrosoftRandom and rng.high < 2:
            # numbering.fast_shuffle (MicrosoftRandom.shuffle), and each card laid as soon as the
            # shuffle has decided it: the swap at n leaves loose[n] as it stays (later swaps are
            # below n), and _redeal deals the list from its end: loose[n] goes to laying[count - 1 - n].
            # That swap's other half alone is kept in the list.
            swaps, jump_a, jump_c, sizes, many_a, many_c = _SWAPS.get(count) or _swap_plan(count)
            x0 = rng.x
            if count > 16 or rng.high:  # (fewer: the loop below is quicker, as measured)
                for n, j, cell in zip(range(count - 1, 0, -1), map(mod, _draws(x0, rng.high, many_a, many_c, count - 1),
                                                                     sizes), laying):
                    card = loose[j]
                    loose[j] = loose[n]
                    cells[cell] = card
                    where[card] = cell
            else:
                x = x0 & 0x7FFFFFFF
                for (n, size), cell in zip(swaps, laying):
                    x = (x * 214013 + 2531011) & 0x7FFFFFFF
                    j = (x >> 16) % size
                    card = loose[j]
                    loose[j] = loose[n]
                    cells[cell] = card
                    where[card] = cell
            if count:
                card = loose[0]
                cell = laying[-1]
                cells[cell] = card
                where[card] = cell
            rng.x = (jump_a * x0 + jump_c) % MS_LIMIT
            state.rng_state = rng.getstate()
        else:
            if v.shuffled:
                fast_shuffle(loose, rng)
                state.rng_state = rng.getstate()
                loose.reverse()
            for cell, card in zip(laying, loose):
                cells[cell] = card
                where[card] = cell
        for cell in spaces:
            cells[cell] = EMPTY
        state.gaps = list(spaces)
        state.redeals_used += 1
        if extend:  # a card laid into a row's gap may continue its prefix
            _prefixes(state, t)
        state.status = WON if sum(prefix) == v.finished else PLAYING
        return True
    known = t.gathers.get(key)
    if known is None:  # the plan as _redeal makes and keeps it
        plan = v.plans.get(key)
        if plan is None:
            if len(v.plans) >= 4096:
                v.plans.clear()
            plan = v.plans[key] = _redeal_plan(v.board.rows, v.cols, key, not v.shuffled)
        if len(t.gathers) >= 4096:
            t.gathers.clear()
        known = t.gathers[key] = (plan, itemgetter(*plan[0]))
    (targets, gaps, laying), gather = known
    loose = list(gather(cells))
    for _ in state.gaps:
        loose.remove(EMPTY)
    spaces = gaps
    if v.shuffled:
        rng = state.rng
        fast_shuffle(loose, rng)
        if v.spaces is not gap_spaces:
            if t.random_spaces and type(rng) is MicrosoftRandom:
                spaces = _random_spaces(targets, len(targets) - len(loose), rng)
            else:
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
        _prefixes(state, t)
    state.status = WON if sum(prefix) == v.finished else PLAYING
    return True


def _random_spaces(targets, count: int, rng: MicrosoftRandom) -> list[int]:
    """montana.random_spaces with a Microsoft generator, its draw() written out: choice(targets)
    (targets[randint(0, len - 1)]) until ``count`` different targets are drawn."""
    x, high = rng.x, rng.high
    size = len(targets)
    spaces: list[int] = []
    while len(spaces) < count:
        x = (x * 214013 + 2531011) & (MS_LIMIT - 1)
        if high == 2:
            r = ((x >> 16) & 0xFFFF) + 1
        else:
            r = (x >> 16) & 0x7FFF
            if high:
                r |= 0x8000
        cell = targets[r % size]
        if cell not in spaces:
            spaces.append(cell)
    rng.x = x
    return spaces


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

    Every event played appends one action, so the events played so far are the actions added;
    the events run in stretches between those an undo takes back, each saved before it is played.
    """
    if i >= end or state.status == WON:
        return i
    v = state.variant
    t = _TABLES.get(v.id) or tables(v)
    (COL, ROW, UP, DOWN, MOVE, BASE, BY_LEFT, BY_RIGHT, cols, last_col, cards, locking, left_rule,
     card_points, move_points, finished) = t.consts
    cells, where, gaps, prefix = state.cells, state.where, state.gaps, state.prefix
    ngaps = len(gaps)
    apply, append = state.apply, actions.append
    score, total = state.score, sum(prefix)
    start = i
    played = i - len(actions)  # + the actions now: the index of the next event
    stop = end if undone is None else undone.find(1, i, end)
    if stop < 0:
        stop = end
    while True:
        for code in codes[i:stop]:
            if code < 8:
                if code > 3:  # the card one above its left neighbour, into the g-th empty cell
                    g = code - 4
                    if g < ngaps:
                        cell = gaps[g]
                        col = COL[cell]
                        # column 0 takes the base rank only: a code pointing there goes the plain way
                        if col:
                            card = UP[cells[cell - 1]]
                            if card >= 0:
                                # _move, where it always holds (plays: up_free): the card is on the
                                # board and in no prefix (its lower neighbour is beside the gap), so
                                # nothing locks it and no prefix is cut; it fits beside the card
                                # below it by every build rule
                                source = where[card]
                                append(MOVE[card] + cell)
                                cells[cell] = card
                                cells[source] = EMPTY
                                where[card] = cell
                                gaps[g] = source
                                gaps.sort()
                                row = ROW[cell]
                                length = prefix[row]
                                if col == length:  # _extend_prefix: the card continues the prefix
                                    first = cell - col
                                    length += 1
                                    while length < cols and UP[cells[first + length - 1]] == cells[first + length]:
                                        length += 1
                                    newly = length - prefix[row]
                                    prefix[row] = length
                                    score += card_points * newly + move_points  # Variant.lock_points
                                    total += newly
                                    if total == finished:  # update_won
                                        state.score = score
                                        state.status = WON
                                        return played + len(actions)
                                continue
                    card = -1
                elif code < 3:
                    break  # a session event: the caller's
                else:  # redeal
                    state.score = score
                    if redeal(state):
                        append(REDEAL)
                        if state.status == WON:
                            return played + len(actions)
                        gaps, score, total = state.gaps, state.score, sum(prefix)
                        ngaps = len(gaps)
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
                    return played + len(actions)
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
                        return played + len(actions)
        else:  # the stretch played out
            i = stop
            if stop < end:  # a later undo takes the next event back: the position before it is saved
                state.score = score
                if i > start:
                    state.status = PLAYING  # update_won after the move before
                snaps[base + i - start] = snapshot(state)
                stop = undone.find(1, i + 1, end)
                if stop < 0:
                    stop = end
                continue
            break
        i = played + len(actions)  # stopped before this event
        break
    state.score = score
    if i > start and state.status != WON:
        state.status = PLAYING  # update_won after the last move
    return i


__all__ = ["dealt", "play_codes", "plays", "position_bytes", "redeal", "restore", "snapshot", "win_bonus"]
