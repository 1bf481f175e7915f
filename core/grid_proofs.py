"""Proofs that a grid position can no longer be won (the solver's ``dead_end``, core/game.py).

Plain functions over a :class:`~carpet.core.grid.GridState`'s public attributes (``cells``,
``variant``, ``redeals_used``); the state class hooks them in with one line.

Spaces and Aces (build any higher card of the suit, no redeal, nothing locked) is the game
they serve: it never loses a card for good, so without a proof its search never ends.  The
proof here finds the cells that can never change again and asks whether the win needs them
to change.

**The cells that may change** are worked out as the least set closed under the rules of a
move (a card goes to an empty cell; column 0 takes an ace of any suit; another empty cell a
card of its left neighbour's suit and of a higher rank, nothing beside an empty cell or a
king):

- an empty cell may be filled: in column 0 always (an ace is elsewhere); elsewhere when its
  left neighbour holds a card other than a king, or may change;
- a card may move: an ace when a cell of column 0 other than its own may change (be or
  become empty); another card when some cell that may change, not in column 0, has a left
  neighbour that may change or that holds a lower card of its suit.

By induction on the moves of any line, the first cell to change outside that set would
need one of those conditions to hold with only the cells of the set changed before it: so
every other cell keeps what it holds for good.  A win puts rank c (ace 0) in column c of
every row, one suit to a row, and leaves the last column empty; a cell kept for good that
breaks this proves the position lost.
"""

from __future__ import annotations

from .cards import KING
from .grid import EMPTY, SUIT_HIGHER

#: the rank a winning row puts in a column is the column's number (ace 0 .. king 12)


def applies(variant) -> bool:
    """Whether the proof below is sound for this game: the suit-higher build, no left rule,
    no lock, one deck, an ace base, and no redeal (a redeal changes every cell)."""
    board = variant.board
    return (variant.build is SUIT_HIGHER and not variant.left_rule and not variant.locking
            and board.decks == 1 and board.base == 0 and variant.redeals == 0)


def reach(cells: list[int], cols: int) -> tuple[list[bool], list[int]] | None:
    """(whether each cell may ever change, the lowest rank of each suit each cell may ever
    hold: ``low[cell * 4 + suit]``, 13 for none), the module's least fixed point; None when
    every cell may change and every rank may reach its column (nothing to prove with)."""
    n = len(cells)
    changing = [False] * n
    low = [13] * (4 * n)
    for cell, card in enumerate(cells):
        if card != EMPTY:
            low[cell * 4 + card // 13] = card % 13
    # what the cells that may change offer: the lowest rank of each suit one of them (not in
    # column 0) may have as its left neighbour, and whether one of column 0 may change; like
    # the rest, these only grow, so a pass that changes nothing has reached the fixed point
    offer = [13, 13, 13, 13]
    column_0 = False
    grew = True
    while grew:
        grew = False
        if column_0 and offer == [0, 0, 0, 0]:
            # every card may move (an ace to column 0, any other beside an ace) and every cell
            # then take the rank of its column: the checks of dead_end below all pass
            return None
        for cell in range(n):
            col = cell % cols
            at = 4 * cell
            if not changing[cell]:
                card = cells[cell]
                if card == EMPTY:
                    if col and low[at - 4] >= KING and low[at - 3] >= KING and low[at - 2] >= KING \
                            and low[at - 1] >= KING:
                        continue  # beside an empty cell or a king for good: it stays empty
                elif card % 13 == 0:
                    if not column_0:
                        continue  # an ace moves only to another cell of column 0 that may change
                elif offer[card // 13] >= card % 13:
                    continue  # no cell that may change takes it (so far)
                changing[cell] = grew = True
            # a cell that may change may be (or become) empty and be filled by what fits there
            if col == 0:
                if not column_0:
                    column_0 = grew = True
                for suit in range(at, at + 4):
                    if low[suit]:
                        low[suit] = 0
                        grew = True
                continue
            for suit in range(4):
                left = low[at - 4 + suit]
                if left < offer[suit]:
                    offer[suit] = left
                    grew = True
                if left < KING and left < low[at + suit] - 1:
                    low[at + suit] = left + 1
                    grew = True
    return changing, low


_APPLIES: dict[str, bool] = {}  # game id -> applies(variant), worked out once


def dead_end(state) -> bool:
    """True only when no line wins from ``state`` (Spaces and Aces: see the module)."""
    variant = state.variant
    known = _APPLIES.get(variant.id)
    if known is None:
        known = _APPLIES[variant.id] = applies(variant)
    if not known:
        return False
    cells, cols = state.cells, variant.cols
    reached = reach(cells, cols)
    if reached is None:
        return False
    changing, low = reached
    last = variant.board.row_length  # the column a win leaves empty (13 on Spaces and Aces' board)
    for row in range(variant.board.rows):
        suit = None
        for col in range(cols):
            cell = row * cols + col
            if col < last and min(low[4 * cell:4 * cell + 4]) > col:
                return True  # no card of the rank a win puts here can ever be here
            if changing[cell]:
                continue
            card = cells[cell]
            if card == EMPTY:
                if col < last:
                    return True  # a cell a win fills stays empty for good
                continue
            if col >= last or card % 13 != col:
                return True  # a card stays for good where a win has no card or another rank
            if suit is None:
                suit = card // 13
            elif card // 13 != suit:
                return True  # two suits stay for good in a row a win gives one suit
    return False
