"""A reference of the grid family's rules, kept apart from core/grid/: the oracle its differential
tests compare with (tests/test_grid_oracle.py).

This is the family's plain engine as it stood before its rules were written once (the grid module at
f0b96f7): each transition checks and raises, the deal by the plain shuffle, the redeal by the
generator's own ``shuffle``.  It shares with core/grid/ only the variants' declared settings (the
board, the build rule, the spaces a redeal leaves) and the redeal plan's cell order.
docs/rules.md, "Grid family".
"""

from __future__ import annotations

from carpet.core.cards import ACE, KING
from carpet.core.errors import IllegalAction
from carpet.core.game import LOST, PLAYING, WON
from carpet.core.grid import ANY_SUIT_NEXT, EMPTY, FIRST_MOVE, OUT, REDEAL, SUIT_NEXT, gap_spaces
from carpet.core.grid.board import _redeal_plan
from carpet.core.numbering import Deal, dealing_order


def _twins(v) -> tuple:
    """Each card id -> its copies in every deck (the oracle's own table)."""
    return tuple(tuple(card % 52 + 52 * d for d in range(v.board.decks)) for card in range(v.card_count))


def _of_rank(v) -> tuple:
    """Each rank -> the cards of that rank (the oracle's own table)."""
    return tuple(tuple(c for c in range(v.card_count) if c % 13 == r) for r in range(13))


class OracleState:
    __slots__ = ("variant", "cells", "where", "prefix", "gaps", "rng", "rng_state", "score", "redeals_used", "status")


    def __init__(self, variant: object, deal: Deal) -> None:
        board = variant.board
        order, rng = dealing_order(deal, board.card_count)
        self.variant = variant
        self.rng = rng
        # the generator's state as of the last draw: snapshots share it instead of copying it
        self.rng_state = rng.getstate()
        self.cells = board.deal(order, board)
        self.score = 0
        self.redeals_used = 0
        self.status = PLAYING
        self._index()
        self._find_prefixes()
        self.update_status()

    def _index(self) -> None:
        where = [OUT] * self.variant.card_count
        gaps = []
        for cell, card in enumerate(self.cells):
            if card == EMPTY:
                gaps.append(cell)
            else:
                where[card] = cell
        self.where = where
        self.gaps = gaps  # the empty cells, row-major (one per row in every game here)

    def _find_prefixes(self) -> None:
        self.prefix = [0] * self.variant.board.rows  # length of each row's prefix
        for row in range(self.variant.board.rows):
            self._extend_prefix(row, 0)

    # --- rules ----------------------------------------------------------------------
    def is_locked(self, card: int) -> bool:
        if not self.variant.locking:
            return False
        cell = self.where[card]
        cols = self.variant.cols
        return cell % cols < self.prefix[cell // cols]

    def fits(self, card: int, cell: int) -> bool:
        """Whether the empty ``cell`` accepts ``card`` (the card's own lock is checked elsewhere)."""
        v = self.variant
        cols = v.cols
        col = cell % cols
        if col == 0:
            return card % 13 == v.base
        if (v.build is SUIT_NEXT):  # fits_left_neighbour's commonest case, inline
            left = self.cells[cell - 1]
            if left != EMPTY and left % 13 != KING and (card - left) % 52 == 1:
                return True
        elif self.fits_left_neighbour(card, cell):
            return True
        if v.left_rule and col < cols - 1:
            right = self.cells[cell + 1]
            # (x - y) % 52 == 1: x is y's successor in suit, whichever deck either comes from
            if right != EMPTY and right % 13 != ACE and (right - card) % 52 == 1:
                return True
        return False

    def fits_left_neighbour(self, card: int, cell: int) -> bool:
        """Whether ``card`` fits the empty ``cell`` (not in column 0) by its left neighbour and the build rule."""
        left = self.cells[cell - 1]
        if left == EMPTY or left % 13 == KING:
            return False
        build = self.variant.build
        if build is SUIT_NEXT:
            return (card - left) % 52 == 1
        if build is ANY_SUIT_NEXT:
            return card % 13 == left % 13 + 1
        return card % 52 // 13 == left % 52 // 13 and card % 13 > left % 13  # SUIT_HIGHER

    def _candidates(self, cell: int) -> list[int]:
        """Movable cards that fit the empty ``cell``, lowest card first."""
        v = self.variant
        cols = v.cols
        col = cell % cols
        where = self.where
        if col == 0:
            if v.locking:  # a base card in column 0 is locked
                return [card for card in v.base_cards if where[card] % cols != 0]
            return list(v.base_cards)
        found = []
        left = self.cells[cell - 1]
        if left != EMPTY and left % 13 != KING:
            build = v.build
            if build is SUIT_NEXT:
                found.extend(_twins(v)[left + 1])
            elif build is ANY_SUIT_NEXT:
                found.extend(_of_rank(v)[left % 13 + 1])
            else:
                found.extend(c for r in range(left % 13 + 1, 13) for c in _twins(v)[left - left % 13 + r])
            if v.locking and len(found) > 1:
                found = [c for c in found if not self.is_locked(c)]
        if v.left_rule and col < cols - 1:
            right = self.cells[cell + 1]
            if right != EMPTY and right % 13 > v.base:
                found.extend(c for c in _twins(v)[right - 1] if c not in found and not self.is_locked(c))
        if len(found) > 1:
            found.sort()
        return found

    def has_card_move(self) -> bool:
        """Whether any card move exists: _candidates' rules, stopping at the first (run after every action).

        A left neighbour that is neither empty nor a king always has a movable card that fits
        beside it (never locked: its own lower neighbour would be too); without locks, any
        card that fits is movable.
        """
        v = self.variant
        cols = v.cols
        cells = self.cells
        for gap in self.gaps:
            col = gap % cols
            if col == 0:
                if not v.locking:
                    return True
                where = self.where
                for card in v.base_cards:
                    if where[card] % cols:
                        return True
                continue
            left = cells[gap - 1]
            if left != EMPTY and left % 13 != KING:
                return True
            if v.left_rule and col < cols - 1:
                right = cells[gap + 1]
                if right != EMPTY and right % 13 > v.base:
                    if not v.locking:
                        return True
                    where, prefix = self.where, self.prefix
                    for card in _twins(v)[right - 1]:
                        cell = where[card]
                        if cell % cols >= prefix[cell // cols]:
                            return True
        return False

    def card_moves(self) -> list[int]:
        """Card moves, by target cell in row-major order, then by card."""
        move = self.variant.move
        return [move(card, gap) for gap in self.gaps for card in self._candidates(gap)]

    @property
    def redeals_left(self) -> int | None:
        total = self.variant.redeals
        return None if total is None else total - self.redeals_used

    def can_redeal(self) -> bool:
        left = self.redeals_left
        return self.status != WON and (left is None or left > 0)

    def legal_actions(self) -> list[int]:
        actions = self.card_moves()
        if self.can_redeal():
            actions.append(REDEAL)
        return actions

    def update_status(self) -> None:
        v = self.variant
        if sum(self.prefix) == v.finished:
            self.status = WON
            return
        total = v.redeals
        # can_redeal(), inline (this runs after every action)
        if ((total is None or total > self.redeals_used) and self.status != WON) or self.has_card_move():
            self.status = PLAYING
        else:
            self.status = LOST

    def apply(self, action: int) -> None:
        v = self.variant
        if action == REDEAL:
            self._redeal()
        elif FIRST_MOVE <= action < v.action_count:
            card, cell = divmod(action - FIRST_MOVE, v.cells)
            self._move(card, cell)
        else:
            raise IllegalAction(f"not a {v.id} action: {action}")
        self.update_status()

    def _move(self, card: int, cell: int) -> None:
        v = self.variant
        cells = self.cells
        source = self.where[card]
        if source < 0:  # OUT
            raise IllegalAction(f"{v.card_text(card)} is not in this game")
        if cells[cell] != EMPTY:
            raise IllegalAction(f"{v.board.cell_name(cell)} is not empty")
        cols = v.cols
        prefix = self.prefix
        row = source // cols
        col = source - row * cols
        cut = col < prefix[row]
        if cut and v.locking:
            raise IllegalAction(f"{v.card_text(card)} is locked")
        # fits(), with its commonest case first and inline (this runs on every move):
        # the same suit one rank higher than the left neighbour
        left = cells[cell - 1]
        if not ((v.build is SUIT_NEXT) and cell % cols and left != EMPTY and left % 13 != KING and (card - left) % 52 == 1) \
                and not self.fits(card, cell):
            raise IllegalAction(f"{v.card_text(card)} does not fit {v.board.cell_name(cell)}")
        cells[cell] = card
        cells[source] = EMPTY
        self.where[card] = cell
        gaps = self.gaps
        gaps[gaps.index(cell)] = source
        gaps.sort()
        if cut:  # without locks: the card leaves its row's prefix, cut short there
            self.score -= v.card_points * (prefix[row] - col)
            prefix[row] = col
        row = cell // cols
        start = prefix[row]
        if cell - row * cols == start:
            self._extend_prefix(row, start)

    def _extend_prefix(self, row: int, length: int) -> None:
        """Lengthen the row's prefix from ``length`` as far as the cards allow, and score it."""
        cells = self.cells
        v = self.variant
        cols = v.cols
        start = row * cols
        if length == 0:
            first = cells[start]
            if first == EMPTY or first % 13 != v.base:
                return
            length = 1
        while length < cols:
            card = cells[start + length]
            prev = cells[start + length - 1]
            if card == EMPTY or prev % 13 == KING or (card - prev) % 52 != 1:
                break
            length += 1
        newly = length - self.prefix[row]
        self.prefix[row] = length
        self.score += v.lock_points(newly)

    def _redeal(self) -> None:
        if self.status == WON:
            raise IllegalAction("the game is won")
        if not self.can_redeal():
            raise IllegalAction("no redeals left")
        v = self.variant
        cells = self.cells
        key = tuple(self.prefix)
        plan = v.plans.get(key)
        if plan is None:
            if len(v.plans) >= 4096:
                v.plans.clear()
            plan = v.plans[key] = _redeal_plan(v.board.rows, v.cols, key, not v.shuffled)
        targets, gaps, laying = plan
        loose = [cells[cell] for cell in targets if cells[cell] != EMPTY]
        for cell in targets:
            cells[cell] = EMPTY
        spaces = gaps
        if v.shuffled:
            # the redeal of the rules: shuffle with the deal's generator, choose the spaces, then
            # deal from the end of the list into the other targets in order
            rng = self.rng
            rng.shuffle(loose)
            if v.spaces is not gap_spaces:
                spaces = v.spaces(targets, gaps, len(targets) - len(loose), rng, v.board)
                laying = [cell for cell in targets if cell not in spaces]
            self.rng_state = rng.getstate()
            loose.reverse()
        where = self.where
        for cell, card in zip(laying, loose, strict=True):
            cells[cell] = card
            where[card] = cell
        self.gaps = sorted(spaces)
        self.redeals_used += 1
        if spaces is not gaps:  # a card laid into a row's gap may continue its prefix
            for row, length in enumerate(self.prefix):
                self._extend_prefix(row, length)

    def snapshot(self) -> tuple:
        return (tuple(self.cells), tuple(self.prefix), self.score, self.redeals_used, self.status, self.rng_state)

    def restore(self, snap: tuple) -> None:
        cells, prefix, self.score, self.redeals_used, self.status, rng_state = snap
        self.cells = list(cells)
        self.prefix = list(prefix)
        if rng_state is not self.rng_state:
            self.rng.setstate(rng_state)
            self.rng_state = rng_state
        self._index()


def ranked_actions(state, order: int = 0) -> list[int]:
    """The solver's order of a grid position's actions (GridState.search_actions, which works its
    moves out inline) as it stood written plainly (at a700ad2): each card move of
    ``state.card_moves()`` ranked, sorted by (rank, action), highest action first among equals in
    ``order`` 1, then the redeal where one is left."""
    if state.status != PLAYING:
        return []
    v = state.variant
    cells, where, prefix = state.cells, state.where, state.prefix
    cols, base, locking = v.cols, v.base, v.locking
    clear = not v.locking and v.redeals == 0  # only a move clears the cell after a prefix
    blocking = [-1, -1, -1, -1]
    if clear:
        for row, length in enumerate(prefix):
            if 0 < length < v.board.row_length:
                blocker = cells[row * cols + length]
                if blocker != EMPTY and blocker % 13 > blocking[blocker % 52 // 13]:
                    blocking[blocker % 52 // 13] = blocker % 13
        clear = blocking != [-1, -1, -1, -1]
    ranked = []
    for action in state.card_moves():
        card, cell = divmod(action - FIRST_MOVE, v.cells)
        row, col = divmod(cell, cols)
        left = cells[cell - 1] if col else EMPTY
        follows = (card % 13 == base) if col == 0 else (left != EMPTY and left % 13 != KING and (card - left) % 52 == 1)
        rank = 0
        if col == prefix[row]:
            rank = -16 if follows else 12
        elif col and not state.fits_left_neighbour(card, cell):
            rank = 4
        srow, scol = divmod(where[card], cols)
        if scol:
            behind = cells[where[card] - 1]
            if behind == EMPTY or behind % 13 == KING:
                rank += 1
            elif not locking and (card - behind) % 52 == 1:
                rank += 2
        if not locking:
            if scol < prefix[srow]:
                rank += 8
            if follows:
                rank -= 1
            if clear:
                if scol == prefix[srow] and scol:
                    rank -= 8
                if scol:
                    behind = cells[where[card] - 1]
                    if behind != EMPTY and behind % 13 < blocking[behind % 52 // 13]:
                        rank -= 4
        ranked.append((rank, -action if order else action))
    ranked.sort()
    actions = [abs(action) for _, action in ranked]
    if state.can_redeal():
        actions.append(REDEAL)
    return actions
