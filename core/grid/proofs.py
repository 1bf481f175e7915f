"""Proofs that a grid position can no longer be won (the solver's ``dead_end``, core/game.py).

Plain functions over a :class:`~carpet.core.grid.rules.GridState`'s public attributes (``cells``,
``variant``); the state class hooks them in with one line.

Spaces and Aces (build any higher card of the suit, no redeal, nothing locked) is the game
they serve: it never loses a card for good, so without a proof its search never ends.  The
proof finds the cells that can never change again, and the lowest rank of each suit that
each cell can ever hold, and asks whether the win needs more.

They are worked out as the least fixed point of these rules, which follow the rules of a
move (a card goes to an empty cell; column 0 takes an ace of any suit; another empty cell a
card of its left neighbour's suit and of a higher rank, nothing beside an empty cell or a
king):

- an empty cell may change (be filled): in column 0 always (an ace is elsewhere); elsewhere
  when its left neighbour may hold a card other than a king;
- a card may move: an ace when a cell of column 0 other than its own may change; another
  card when some cell that may change, not in column 0, has a left neighbour that may hold
  a lower card of its suit;
- every cell may hold its own card; a cell that may change also any ace (column 0), or a card
  of each suit one rank above the lowest its left neighbour may hold (elsewhere).

By induction on the moves of any line: a move's target is empty and its card fits the left
neighbour there, so the target is a cell that may change and the card's rank is at least
the target's lowest; its source is a cell that may change by the second rule.  So a cell
outside the set keeps its card (or its emptiness) for good, and no cell ever holds a card
below its lowest.  A win puts rank c (ace 0) in column c of every row, one suit to a row
(the suit of the row's ace, when that ace stays in column 0 for good), and leaves the last
column empty: a position where that cannot happen is lost.
"""

from __future__ import annotations

from carpet.core.cards import KING
from .board import EMPTY, SUIT_HIGHER


def applies(variant) -> bool:
    """Whether the proof below is sound for this game: the suit-higher build, no left rule,
    no lock, one deck, an ace base, and no redeal (a redeal changes every cell)."""
    board = variant.board
    return (variant.build is SUIT_HIGHER and not variant.left_rule and not variant.locking
            and board.decks == 1 and board.base == 0 and variant.redeals == 0)


def reach(cells: list[int], cols: int) -> tuple[list[bool], list[int]] | None:
    """(whether each cell may ever change, the lowest rank of each suit each cell may ever
    hold: ``low[cell * 4 + suit]``, 13 for none), the module's least fixed point; None when
    every cell may change and every rank may reach its column (nothing to prove with).

    Worked out from the cells known to change, one at a time: each such cell's lows follow
    from its left neighbour's, and what it offers (its left neighbour's lows) frees the
    fixed cards it takes; a change of lows passes on to the right neighbour.
    """
    n = len(cells)
    changing = [False] * n
    low = [13] * (4 * n)
    # the fixed cards of each suit but aces, lowest rank first (released from the end), and the aces
    fixed: list[list[tuple[int, int]]] = [[], [], [], []]
    aces = []
    todo = []
    for cell, card in enumerate(cells):
        if card == EMPTY:
            left = cells[cell - 1] if cell % cols else EMPTY
            # an empty cell of column 0 can be filled (an ace is elsewhere); one elsewhere when
            # its left neighbour is a card other than a king (a higher card of its suit fits)
            if cell % cols == 0 or (left != EMPTY and left % 13 != KING):
                changing[cell] = True
                todo.append(cell)
        else:
            rank = card % 13
            low[4 * cell + card // 13] = rank
            if rank:
                fixed[card // 13].append((rank, cell))
            else:
                aces.append(cell)
    for cards in fixed:
        cards.sort()
    # what the cells that may change offer: the lowest rank of each suit one of them (not in
    # column 0) may have as its left neighbour, and whether one of column 0 may change
    offer = [13, 13, 13, 13]
    column_0 = False
    while todo:
        cell = todo.pop()
        col = cell % cols
        at = 4 * cell
        lowered = False
        if col == 0:
            for i in range(at, at + 4):
                if low[i]:
                    low[i] = 0  # any ace may come here
                    lowered = True
            if not column_0:
                column_0 = True  # every ace may move to a cell of column 0 other than its own
                for ace in aces:
                    if not changing[ace]:
                        changing[ace] = True
                        todo.append(ace)
        else:
            for suit in range(4):
                left = low[at - 4 + suit]
                if left < offer[suit]:
                    offer[suit] = left  # it takes any card of the suit above its left neighbour
                    cards = fixed[suit]
                    while cards and cards[-1][0] > left:
                        freed = cards.pop()[1]
                        if not changing[freed]:
                            changing[freed] = True
                            todo.append(freed)
                if left < KING and left + 1 < low[at + suit]:
                    low[at + suit] = left + 1  # the card that fills it, when it empties
                    lowered = True
        if column_0 and offer == [0, 0, 0, 0]:
            # every card may move (an ace to column 0, any other beside an ace) and every cell
            # then take the rank of its column: the checks of dead_end below all pass
            return None
        right = cell + 1
        if col + 1 < cols and (lowered or not changing[right]):
            if changing[right]:
                todo.append(right)  # its lows and what it offers follow this cell's
            elif cells[right] == EMPTY and min(low[at:at + 4]) < KING:
                changing[right] = True  # an empty cell beside one that may hold a card it takes
                todo.append(right)
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
        start = row * cols
        ace = cells[start]
        # the suit this row must finish in, when its ace stays in column 0 for good
        fixed_suit = ace // 13 if ace != EMPTY and not changing[start] else None
        suit = None
        for col in range(cols):
            cell = start + col
            if col < last:
                if fixed_suit is not None:
                    if low[4 * cell + fixed_suit] > col:
                        return True  # the card of the row's suit a win puts here can never be here
                elif min(low[4 * cell:4 * cell + 4]) > col:
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
