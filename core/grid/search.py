"""What the grid family offers a search (core/knowledge.py) and its players: the
key of a position, the order of its actions, its progress, its proofs and bounds, and the ranking
the hint and the built-in player follow.  :class:`GridSearch` is the base of
core/grid/rules.py's ``GridState``; it plays nothing itself and asks the rules for every move.
"""

from __future__ import annotations

from struct import Struct
from typing import TYPE_CHECKING

from carpet.core.cards import KING
from carpet.core.game import PLAYING, State

if TYPE_CHECKING:  # (core/plan.py is loaded by the first plan asked for, not by the rules)
    from carpet.core.plan import Plan

from .board import EMPTY, FIRST_MOVE, REDEAL


# card id -> face + 1 (EMPTY -> 0), as a table of bytes.translate over the cells as signed bytes
# (EMPTY is 255 there): the search key names faces, since only faces matter to the rules
_FACE_BYTES = bytes(b % 52 + 1 if b < 104 else 0 for b in range(256))


class _CellPackers(dict):
    """A board's cell count -> ``struct.pack`` of its cells as signed bytes (EMPTY is 255 there),
    made when first asked: about twice as fast as filling an ``array("b")`` (search_key and
    search_actions' table ask it at every node of a search)."""

    def __missing__(self, count: int):
        pack = self[count] = Struct(f"{count}b").pack
        return pack


_PACK_CELLS = _CellPackers()

#: the most positions a variant's table of search_actions' answers holds (then it starts afresh)
RANKED_MEMO = 1 << 16
_RANK_OFFSET = 64  # GridState.search_actions: a move's rank (-29..27) plus this is never negative


def _blocking(cells: list[int], prefix: list[int], cols: int, done: int) -> list[int] | None:
    """Of the cards in the cell after each unfinished, begun prefix, the highest rank of each suit
    (-1: none of that suit there); None where no such cell holds a card."""
    blocking = [-1, -1, -1, -1]
    found = False
    for row, length in enumerate(prefix):
        if 0 < length < done:
            blocker = cells[row * cols + length]
            if blocker != EMPTY and blocker % 13 > blocking[blocker % 52 // 13]:
                blocking[blocker % 52 // 13] = blocker % 13
                found = True
    return blocking if found else None

def clears_by_hand(variant) -> bool:
    """Whether only a move can clear the cell after a row's prefix: no redeal lays the cards out
    again and no lock holds the prefix (Spaces and Aces); the search orders and measures
    progress by it (:meth:`GridState.search_actions`)."""
    return not variant.locking and variant.redeals == 0


#: the share of a search's budget that Spaces and Aces' brief search takes, before its descents
#: (its measured worth, and why not the usual 1/8: docs/solver.md, "The search, in order")
BRIEF_BY_HAND = 16


def grid_plan(variant) -> Plan:
    """The solver's plan for a grid game.  Where only a move clears the cell after a prefix (no
    redeal, no lock: Spaces and Aces), the search's first choices decide where it goes: two orders
    of the actions (:meth:`GridSearch.search_actions`), each with half the budget, and a descent by
    each of two measures of progress (:meth:`GridSearch.progress`), after a brief search of
    1/``BRIEF_BY_HAND`` of the budget.  In the other games the brief search decides most deals
    (without it they take 2.3 to 13 times the CPU).  The proof (core/grid/proofs.py), where it
    applies, costs several times a node: the brief search and the descent go without it, a
    glance asks it first (where it prunes at once it wins in a few hundred nodes what the others
    leave: Spaces and Aces 959), and the last rounds, which alone can go through every position,
    prune by it."""
    from carpet.core.plan import Brief, Descents, Glance, Rounds, searches

    from .proofs import applies

    if clears_by_hand(variant):
        proof = applies(variant)
        glance = (Glance(),) if proof else ()
        steps = (*glance, Brief(share=BRIEF_BY_HAND, proof=False), Descents(measures=(0, 1), proof=False), Rounds())
        return searches(2, steps, proof)
    return searches(1, (Brief(proof=False), Descents(proof=False), Rounds()), applies(variant))


#: the plan of each grid game, by id, made once
_PLANS: dict[str, Plan] = {}


class GridSearch(State):
    __slots__ = ()

    # --- hint ---------------------------------------------------------------------
    def _ranked_move(self) -> tuple[int | None, int]:
        """The most promising card move and its rank (lower is better).

        A move into a row's first cell after its prefix comes first (one that lengthens the
        prefix, in the games without locks, where any other card there blocks the row; in
        Коврик any, as its recorded games have it); a move by the left rule alone (which can
        undo an earlier move and so go round in circles) and a move that leaves a hole behind
        a king come last, and last of all one that takes a card out of a prefix (possible only
        where nothing locks).
        """
        v = self.variant
        best, best_rank = None, 99
        cells, where, prefix = self.cells, self.where, self.prefix
        cols, n, nexts = v.cols, v.cells, v.nexts_set
        for action in self.card_moves():
            card, cell = divmod(action - FIRST_MOVE, n)
            source = where[card]
            row, col = divmod(cell, cols)
            by_left = col == 0 or self.fits_left_neighbour(card, cell)
            rank = 0
            if col == prefix[row]:
                if v.locking or (by_left and (col == 0 or card in nexts[cells[cell - 1]])):
                    rank -= 4  # it lengthens the run (in Коврик any move there ranks so, as its games have it)
                else:
                    rank += 3  # it blocks the cell after a run with a card that does not continue it
            if not by_left:
                rank += 2  # the left rule alone allows it
            if source % cols and cells[source - 1] != EMPTY and cells[source - 1] % 13 == KING:
                rank += 1
            if source % cols < prefix[source // cols]:
                rank += 8
            if not v.locking:  # where cards may stand beside others than their predecessor in suit
                if col and card in nexts[cells[cell - 1]]:
                    rank -= 1  # it follows its predecessor in suit
                if source % cols and card in nexts[cells[source - 1]]:
                    rank += 2  # it leaves its predecessor in suit
            if rank < best_rank:
                best, best_rank = action, rank
        return best, best_rank

    def hint(self) -> int | None:
        """A card move (see _ranked_move), or a redeal when no card move exists."""
        best, _ = self._ranked_move()
        if best is None and self.can_redeal():
            return REDEAL
        return best

    def auto_action(self) -> int | None:
        """The built-in player: as the hint, but it redeals rather than play the left rule alone."""
        best, rank = self._ranked_move()
        if (best is None or rank >= 2) and self.can_redeal():
            return REDEAL
        return best

    # --- what a solver may use (core/knowledge.py) ------------------
    def search_key(self) -> bytes | tuple:
        # The cells decide the prefixes and what moves, and only faces matter to the rules
        # (a two-deck board's copies are alike); the redeals used and, where redeals shuffle,
        # the generator decide what redeals can still do.  The score is not part of the
        # future (a win's score is counted along the line).
        cells = self.cells
        key = _PACK_CELLS[len(cells)](*cells).translate(_FACE_BYTES) + bytes((self.redeals_used,))
        return (key, self.rng_state) if self.variant.shuffled else key

    def search_key_after(self, key, action: int):
        """The :meth:`search_key` after ``action`` (legal here; ``key`` this position's), without
        playing it: a card move takes the card's byte from its cell to the empty one, the rest
        of the key unchanged (no move changes the redeals or the generator).  None for a
        redeal, and on two-deck boards (where a card's byte, its face, would not say its cell).
        (No grid game has a safe action.)"""
        if action == REDEAL:
            return None
        v = self.variant
        if v.card_count != 52:
            return None
        card, cell = divmod(action - FIRST_MOVE, v.cells)
        source = self.where[card]
        if v.shuffled:
            cells, rng_state = key
            after = bytearray(cells)
            after[cell], after[source] = after[source], 0
            return (bytes(after), rng_state)
        after = bytearray(key)
        after[cell], after[source] = after[source], 0
        return bytes(after)

    def search_actions(self, order: int = 0, key=None) -> list[int]:
        """Card moves, most promising first, then the redeal; ``order`` 1 (the plan's second
        search, :func:`grid_plan`) takes moves of equal rank highest action first instead of lowest.

        First a move that lengthens a row's prefix; then the others, a move that blocks the
        cell after a prefix with a card that does not continue it last of all, and among
        the rest a move by the left rule alone after one by the left neighbour, a move that
        leaves behind a cell nothing can fill (right of a king or a gap) after one that does
        not, and where nothing locks, a move that takes a card from its predecessor in suit or
        out of a prefix after one that puts it beside its predecessor.

        Where neither a redeal nor a lock ever clears the cell after a prefix (Spaces and Aces),
        only moving its card away does: a move that takes that card away ranks just after a
        move that lengthens a prefix, and a move that empties a cell such a card fits (beside
        a lower card of its suit) comes next (on Spaces and Aces' deals 3015-3032 at the default
        budget, 4 won of 18 without these two, all 18 with them).

        ``key``: this position's :meth:`search_key` where the caller has it (else worked out here).
        """
        if self.status != PLAYING:
            return []
        v = self.variant
        # the card moves and their order depend on the cells alone (the prefixes follow from them):
        # worked out once a position and order while the variant's table holds them (a seen game's
        # searches list the same positions again and again: 4 calls in 5 in free-parking, jungle,
        # montana), kept by the search key's cells (faces: on a one-deck board they name the cards)
        if v.card_count == 52:
            if key is None:
                key = self.search_key()
            memo = key[0] if v.shuffled else key
        else:
            memo = _PACK_CELLS[len(self.cells)](*self.cells)
        ranked = v.ranked.get(order)
        if ranked is None:
            ranked = v.ranked[order] = {}
        moves = ranked.get(memo)
        if moves is None:
            if len(ranked) >= RANKED_MEMO:
                ranked.clear()
            moves = ranked[memo] = self._ranked_moves(order)
        return [*moves, REDEAL] if self.can_redeal() else list(moves)

    def _ranked_moves(self, order: int) -> tuple[int, ...]:
        """The card moves of :meth:`search_actions`, in its order."""
        v = self.variant
        cells, where, prefix, gaps = self.cells, self.where, self.prefix, self.gaps
        cols, base, locking, after_set, nexts, n = v.cols, v.base, v.locking, v.after_set, v.nexts_set, v.cells
        # each move as one int, (rank + _RANK_OFFSET) << 16 | action: sorted as (rank, action)
        flip = 0xFFFF if order else 0  # order 1: an action's bits flipped, so the highest sorts first
        first = (_RANK_OFFSET << 16) + flip
        # clearing by hand (see above): the highest rank of each suit's cards that sit in the cell
        # after a prefix (-1: none), or None where none does
        blocking = _blocking(cells, prefix, cols, v.board.row_length) if clears_by_hand(v) else None
        ranked = []
        for cell, cards in zip(gaps, self.candidates(gaps)):  # card_moves(), each with its rank
            if not cards:
                continue
            row = cell // cols
            col = cell - row * cols
            at_prefix = col == prefix[row]
            to_cell = FIRST_MOVE + cell  # (a move's action, the variant's move(card, cell), is card * n + to_cell)
            if col:
                left = cells[cell - 1]
                continues, by_left = nexts[left], after_set[left]
            for card in cards:
                follows = card in continues if col else card % 13 == base
                if at_prefix:
                    rank = -16 if follows else 12  # lengthens the prefix / blocks it
                elif col and card not in by_left:
                    rank = 4  # the left rule alone
                else:
                    rank = 0
                source = where[card]
                srow = source // cols
                scol = source - srow * cols
                if scol:
                    behind = cells[source - 1]
                    if behind == EMPTY or behind % 13 == KING:
                        rank += 1  # the cell left behind is dead
                    elif not locking and card in nexts[behind]:
                        rank += 2  # it leaves its predecessor in suit
                if not locking:
                    if scol < prefix[srow]:
                        rank += 8  # it takes a card out of a prefix
                    if follows:
                        rank -= 1
                    if blocking is not None and scol:
                        if scol == prefix[srow]:
                            rank -= 8  # it clears the cell after a prefix
                        if behind != EMPTY and behind % 13 < blocking[behind % 52 // 13]:
                            rank -= 4  # a card that sits after a prefix will fit where it leaves
                ranked.append((rank << 16) + first ^ (card * n + to_cell))
        if len(ranked) < 2:
            return (ranked[0] & 0xFFFF ^ flip,) if ranked else ()
        ranked.sort()
        return tuple([(ranked_action & 0xFFFF) ^ flip for ranked_action in ranked])

    def dead_end(self) -> bool:
        from .proofs import dead_end  # (loaded by the search alone, not by every reader of a grid game)

        return dead_end(self)

    #: (no safe action, no cheaper first action, no forecast, no copy but the deal dealt again:
    #: core/knowledge.py; a safe action would cost a best win score)
    safe_action = search_first = forecast = copy = None
    safe_keeps_score = False

    @property
    def plan(self) -> Plan:
        """The solver's plan for this game (core/plan.py, :func:`grid_plan`)."""
        variant = self.variant
        plan = _PLANS.get(variant.id)
        if plan is None:
            plan = _PLANS[variant.id] = grid_plan(variant)
        return plan

    def progress(self, measure: int = 0) -> int:
        """The cards in the rows' prefixes; where only a move clears the cell after a prefix
        (no redeal, no lock: see :meth:`search_actions`), four a card, two more for each
        such cell that is empty (the next card of the row may go there at once), and less for
        the gaps that take nothing: three for each one right of a king or of another gap, and
        eight more for each one right of a finished row (or of a row whose next cell, empty,
        takes only its king), which stays dead as long as the row stays finished.  Measure 1
        leaves the gaps out: the cards and the cleared cells alone.  Each wins deals the other
        misses, and the plan makes a descent by each (:func:`grid_plan`; docs/solver.md).

        Without a redeal the guided descent (core/descent.py) finds most wins, by this measure;
        counting the cards alone, it finishes rows early, leaves their last cells empty and runs
        out of gaps.
        """
        v = self.variant
        if not clears_by_hand(v):
            return sum(self.prefix)
        cells, cols, done = self.cells, v.cols, v.board.row_length
        value = 0
        for row, length in enumerate(self.prefix):
            start = row * cols
            value += 4 * length
            if 0 < length < done and cells[start + length] == EMPTY:
                value += 2
            if measure:
                continue
            if done < cols and cells[start + done] == EMPTY and (
                    length == done or (length == done - 1 and cells[start + length] == EMPTY)):
                value -= 8
        if measure:
            return value
        for gap in self.gaps:
            if gap % cols:
                left = cells[gap - 1]
                if left == EMPTY or left % 13 == KING:
                    value -= 3
        return value

    def win_score_bound(self, moves: int) -> int:
        """The score of a win at most: every card of the prefixes counted, a point per move
        for each card still to join one (at most one move per card), and the move bonus of
        the fewest moves a win could still take (each card outside the prefixes and away
        from its column must move at least once)."""
        v = self.variant
        joined = sum(self.prefix)
        to_join = v.finished - joined
        bound = self.score + v.card_points * to_join + v.move_points * to_join
        if v.bonus_factor:
            cells, prefix, cols, base = self.cells, self.prefix, v.cols, v.base
            away = 0
            for row in range(v.board.rows):
                start = row * cols
                for col in range(prefix[row], cols):
                    card = cells[start + col]
                    if card != EMPTY and card % 13 - base != col:
                        away += 1
            bound += v.win_bonus(moves + away)
        return bound
