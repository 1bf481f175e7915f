"""What the carpet family offers a search (core/knowledge.py) and the simple
player: the key of a position, its safe actions, its dead-end proof, the order of its actions,
its progress and bound, and the simple player's choice.  :class:`CarpetSearch` is the base of
core/carpet/rules.py's ``CarpetState``; it plays nothing itself and asks the rules for every move.
"""

from __future__ import annotations

import functools
from typing import TYPE_CHECKING

from carpet.core.game import PLAYING, State

if TYPE_CHECKING:  # (core/plan.py is loaded by the first plan asked for, not by the rules)
    from carpet.core.plan import Plan

from .board import (CELL_TO_FOUNDATION, EMPTY, NEXT_CARD, PULL_STOCK, PULL_WASTE, TURN, WASTE_FILL,
                    WASTE_TO_FOUNDATION, held_score, stock_places)


#: no card above any: copied, then each waste card's count of cards above it (dead_end)
_NOTHING_ABOVE = [0] * 52
class CarpetSearch(State):
    __slots__ = ()

    def auto_action(self) -> int | None:
        """The simple player's action (core/autoplay.py): a card to its foundation when one fits
        (the first cell row-major, then the waste top), else the waste top into the first gap, else
        turn the stock (only what the variant allows); None when the game is over.  A stock fill is
        never needed: turning comes first, and with the stock empty there is nothing to fill from."""
        if self.status != PLAYING:
            return None
        playable = self.playable_cells()
        if playable:
            return CELL_TO_FOUNDATION + playable[0]
        if self.waste_fits():
            return WASTE_TO_FOUNDATION
        if self.can_fill() and EMPTY in self.cells:
            return WASTE_FILL + self.cells.index(EMPTY)
        if self.can_turn():
            return TURN
        return None

    # --- what a solver may use (core/knowledge.py) --------------
    #: every win scores the same, so a safe action never costs a win any score
    safe_keeps_score = True

    def search_key(self) -> bytes:
        # No rule looks at a cell's place, and the carpet holds exactly the cards that are
        # neither on the foundations, nor in the stock, nor in the waste: the foundations,
        # the cards drawn, the waste and the phase are the whole position.
        return bytes((*self.found, self.drawn, self.phase, *self.waste))

    def search_key_after(self, key: bytes, action: int) -> bytes | None:
        """The :meth:`search_key` after ``action`` (legal here; ``key`` this position's), without
        playing it: carpet-auto only, and only where the stock still holds a card afterwards
        (else a safe action may follow); None otherwise.  A card up adds one to its
        foundation and pulls its cell's new card (_pulled_from); a turn puts the stock top on
        the waste (carpet-auto's stock holds no ace)."""
        if not self.variant.auto_fill:
            return None
        stock, drawn = self.stock, self.drawn
        found = bytearray(key)
        if action == TURN:
            if drawn + 1 >= len(stock):
                return None  # the stock empty after it: a safe action may follow
            found[4] += 1
            found.append(stock[drawn])
            return bytes(found)
        if action == WASTE_TO_FOUNDATION:
            found[self.waste[-1] // 13] += 1
            del found[-1]
        else:
            found[self.cells[action - CELL_TO_FOUNDATION] // 13] += 1
            source = self._pulled_from()
            if source is PULL_WASTE:
                del found[-1]
            elif source is PULL_STOCK:
                found[4] += 1
                drawn += 1
        if drawn >= len(stock):
            return None  # the stock empty: a safe action may follow
        return bytes(found)

    def safe_action(self) -> int | None:
        """A card to its foundation, where that can never spoil a win.

        In carpet and carpet-foster nothing is built on a carpet or waste card and a gap
        need never be filled, so a card that goes up leaves every other action open
        (carpet-foster's phase 1 plays also commute: its end is the same whatever order
        they come in).  In carpet-auto a play pulls the waste top into its cell and which
        card to pull is a choice while the stock holds cards (a turn changes the waste top),
        so no play is safe there then.  Once the stock is empty it is no choice: every card
        that goes up, from the carpet or the waste, takes the waste's top card off it (into
        the cell, or up), so after n cards up the waste has lost its top n cards whichever
        they were, and a card is free to go up once its suit reaches it and it lies in the
        carpet or among those n + 1: playing one never makes another unplayable, and any
        card that fits may go up.
        """
        if self.variant.auto_fill and self.drawn < len(self.stock):
            return None
        playable = self.playable_cells()
        if playable:
            return CELL_TO_FOUNDATION + playable[0]  # the first row-major
        if self.waste_fits():
            return WASTE_TO_FOUNDATION
        # a memo, not a change: nothing goes up here, as search_actions would find again (every
        # transition and restore clears it, core/carpet/rules.py)
        self.calm = True
        return None

    @property
    def plan(self) -> Plan:
        """The solver's plan for a carpet game (core/plan.py), made when first asked for."""
        return carpet_plan()
    #: (no cheaper first action, no forecast, no copy but the deal dealt again: core/knowledge.py)
    search_first = forecast = copy = None

    def dead_end(self) -> bool:
        """True when some card can never come off the waste.

        A waste card comes off only from the top: up, or into a gap (by hand, or in
        carpet-auto pulled there when a carpet card goes up), and every card drawn from the
        stock while it lies there is laid on top of it (a turn; an ace of carpet-foster's goes
        up instead, and counts on both sides below).  A gap is one open now or one a carpet
        card leaves going up.  So a card with j cards above it now is reached only once
        (gaps open now + cards gone up since - cards drawn since) has reached j.  Any line
        therefore puts a card up only once its suit reaches it and, for a stock card, once
        it is drawn, and for a waste card, once that count has reached the cards above it at
        some moment.  Putting up what these allow, and drawing only when nothing can go up
        (a card up never hurts, a draw only lowers the count), puts up every card some line
        could; where that is not every card, no line wins."""
        waste = self.waste
        last = len(waste) - 1
        if last < 1:
            return False  # (no card lies under another)
        above = _NOTHING_ABOVE[:]
        depth = last
        for card in waste:
            above[card] = depth
            depth -= 1
        off = self.cells.count(EMPTY)  # gaps open + cards up since - cards drawn since
        if off >= last:
            return False
        reach = off  # the most ``off`` has been
        stock, drawn = self.stock, self.drawn
        at = stock_places(stock)
        upto = drawn  # the stock drawn up to here
        counts = list(self.found)  # each foundation's count as the cards go up
        while True:
            moved = True
            while moved:
                moved = False
                for suit in range(4):
                    nexts = NEXT_CARD[suit]
                    count = start = counts[suit]
                    while count < 13 and at[nexts[count]] < upto and above[nexts[count]] <= reach:
                        count += 1
                        off += 1
                        if off > reach:
                            reach = off
                    if count != start:
                        if reach >= last:
                            return False  # every waste card reached: the rest is free
                        counts[suit] = count
                        moved = True
            # nothing goes up: draw on to the first card a suit needs from the stock
            draw = min([at[NEXT_CARD[suit][count]] for suit, count in enumerate(counts)
                        if count < 13 and at[NEXT_CARD[suit][count]] >= upto], default=-1)
            if draw < 0:
                return True
            off -= draw + 1 - upto
            upto = draw + 1

    def search_actions(self, order: int = 0, key=None) -> list[int]:
        """The actions worth trying, most promising first.

        Left out: all fills but one (every gap is the same, the key ignores cell places)
        and a fill from the stock (turning and then filling from the waste reaches the
        same position).  (``key``, the position's key where the solver has it, goes unused.)
        """
        if self.status != PLAYING:
            return []
        if self.calm:  # (safe_action found nothing to put up in this very position: none)
            actions = []
        else:
            actions = self.playable_cells(CELL_TO_FOUNDATION)
            if self.waste_fits():
                actions.insert(0, WASTE_TO_FOUNDATION)
        cells = self.cells
        if self.can_fill() and EMPTY in cells:
            actions.append(WASTE_FILL + cells.index(EMPTY))
        if self.can_turn():
            actions.append(TURN)
        return actions

    def progress(self, measure: int = 0) -> int:
        """The cards on the foundations (one measure)."""
        return sum(self.found)

    def win_score_bound(self, moves: int) -> int:
        # every win puts the same cards up: its score is fixed, that of the full foundations
        return held_score((13, 13, 13, 13), self.variant.foster)


@functools.cache
def carpet_plan() -> Plan:
    """The solver's plan for the carpet games (core/plan.py): the proof (:meth:`CarpetSearch.dead_end`)
    costs about as much as the rest of a node and most deals are won in a few hundred nodes
    without it, so only the last rounds, the ones that prove, ask it."""
    from carpet.core.plan import Brief, Descents, Rounds, searches

    return searches(1, (Brief(proof=False), Descents(proof=False), Rounds()))
