"""The carpet family's rules, written once: the position, the deal, and each transition as a
small primitive that plays its action or refuses it.

Every path runs these: ``Session.act`` (through :meth:`CarpetState.apply`), the one replay of a
log (``Session.play_events``, through :meth:`CarpetState.step` and core/carpet/codes.py), the solver,
the hint and the survey players.  A primitive (``_up``, ``_waste_up``, ``_turn``,
``_waste_fill``, ``_stock_fill``) checks its rule and plays it, returning True, or returns False
having changed nothing; the reason for a refusal is worked out only then (:meth:`why_not`).

The position (docs/rules.md, "Carpet family"): the carpet is 4 rows (a-d) × 5 columns (1-5),
``cells`` a list of 20 card ids row-major (``row * 5 + column - 1``), EMPTY (-1) for a gap.
Foundations are kept as a count per suit (PySol order ♣ ♠ ♥ ♦), so the card a foundation
needs next is ``suit * 13 + count``.  The stock never gets cards back: it is the dealt tuple
(top first) and the number of cards already drawn from it.  The waste is a list, bottom first.

Actions (numbered from FIRST_ACTION, the same in every position)::

    a1>F .. d5>F   a carpet card to its foundation        CELL_TO_FOUNDATION + cell
    w>F            the waste top to its foundation         WASTE_TO_FOUNDATION
    turn           the stock top onto the waste            TURN
    w>a1 .. w>d5   fill a gap with the waste top           WASTE_FILL + cell
    s>a1 .. s>d5   fill a gap with the stock top           STOCK_FILL + cell

``carpet-auto`` has no fill actions and ``carpet-foster`` no stock fills: those indexes are
holes in their index spaces (``CarpetVariant.valid_index``).
"""

from __future__ import annotations

from array import array
from typing import TYPE_CHECKING

from carpet.core.cards import ACE, SUITS, code
from carpet.core.errors import IllegalAction
from carpet.core.game import LOST, PLAYING, PLUS_ONE, WON
from carpet.core.numbering import Deal, fast_dealing_order

from .board import (ACTION_COUNT, CELL_TO_FOUNDATION, CELLS, COLS, EMPTY, NEXT_CARD, PULL_STOCK, PULL_WASTE, ROWS,
                    STOCK_FILL, SUIT_NAMES, TURN, WASTE_FILL, WASTE_TO_FOUNDATION, cell_name)
from .search import CarpetSearch

if TYPE_CHECKING:  # (variants.py imports this file)
    from .variants import CarpetVariant

_ACES = bytes(card for card in range(52) if card % 13 == ACE)  # the deal drops them by bytes.translate
_SIGNED = array("b")  # copied, then filled: the cells as signed bytes (a gap -1, 255 as a byte)
_OFF_CARPET = (EMPTY,) * 53  # copied, then filled: no card on the carpet (CarpetState.place)
_NEXT_0, _NEXT_1, _NEXT_2, _NEXT_3 = NEXT_CARD


class CarpetState(CarpetSearch):
    #: ``calm``: True only where safe_action has looked at this very position and found no card to
    #: put up (no carpet card, not the waste top), so that search_actions, asked next, need not look
    #: again; every transition (through update_status, or the replay's update_won), restore and
    #: settle make it False
    #: ``place``: for each card id (and 52, past the last suit), the cell it lies in, or EMPTY where
    #: it is not on the carpet: made from the cells by settle (the deal, a position given as text),
    #: then kept by the transitions as they move a card on or off the carpet, and by restore
    __slots__ = ("cells", "found", "stock", "drawn", "waste", "phase", "calm", "place")

    variant: CarpetVariant  # (core/carpet/variants.py)

    def __init__(self, variant, deal: Deal) -> None:
        order, _ = fast_dealing_order(deal, 52, generator=False)  # no draw after the deal
        self.variant = variant
        self.status = PLAYING
        self.redeals_used = 0
        self.waste: list[int] = []
        self.place = list(_OFF_CARPET)  # (made from the cells by settle, after the deal)
        self.drawn = 0
        self.score = 0
        #: 1 while holes refill from the stock by themselves (carpet-foster), else 2
        self.phase = 2
        if variant.foster:
            self.found = [0, 0, 0, 0]
            self.cells = order[:CELLS]
            self.stock: tuple[int, ...] = tuple(order[CELLS:])
            self.phase = 1
            cells = self.cells
            for cell in range(CELLS):  # aces dealt to the carpet, row by row (decision)
                if self._ace_up(cells[cell]):
                    self._refill(cell)
        else:
            rest = bytes(order).translate(None, _ACES)  # the four aces start the foundations
            self.found = [1, 1, 1, 1]
            self.cells = list(rest[:CELLS])
            self.stock = tuple(rest[CELLS:])
        self.settle()

    def settle(self) -> None:
        """After the deal (or a position given as text): carpet-foster's phase 2 at once where no
        carpet card fits, and the status."""
        self.place_cells()
        if self.phase == 1 and not self._carpet_can_play():
            self.phase = 2
        self.update_status()

    def place_cells(self) -> None:
        """Make ``place`` from the cells (settle asks it; so must a hand-made change of the cells)."""
        place = list(_OFF_CARPET)
        for cell, card in enumerate(self.cells):
            if card != EMPTY:
                place[card] = cell
        self.place = place

    # --- what the rules ask of a position ------------------------------------------
    def fits(self, card: int) -> bool:
        """Whether ``card`` goes on its foundation now (aces are never played by hand)."""
        suit = card // 13
        count = self.found[suit]
        return count > 0 and card == NEXT_CARD[suit][count]

    def _needed(self) -> tuple[int, int, int, int]:
        """The card each foundation takes next (:func:`next_card`)."""
        a, b, c, d = self.found
        return _NEXT_0[a], _NEXT_1[b], _NEXT_2[c], _NEXT_3[d]

    def playable_cells(self, plus: int = 0) -> list[int]:
        """Carpet cells whose card fits its foundation, row-major (each plus ``plus``: the
        actions that play them with CELL_TO_FOUNDATION).

        The cell of each card needed is read from ``place``, the carpet not searched (the solver
        asks this of every position), and the cards needed from NEXT_CARD, not through
        :meth:`_needed`: a call fewer on the solver's hot path."""
        place = self.place
        a, b, c, d = self.found
        a, b, c, d = place[_NEXT_0[a]], place[_NEXT_1[b]], place[_NEXT_2[c]], place[_NEXT_3[d]]
        playable = []  # (four tests written out)
        if a >= 0:
            playable.append(a + plus)
        if b >= 0:
            playable.append(b + plus)
        if c >= 0:
            playable.append(c + plus)
        if d >= 0:
            playable.append(d + plus)
        if len(playable) > 1:
            playable.sort()
        return playable

    def _carpet_can_play(self) -> bool:
        place = self.place
        a, b, c, d = self.found  # (the cards needed, from NEXT_CARD as in playable_cells)
        return (place[_NEXT_0[a]] >= 0 or place[_NEXT_1[b]] >= 0 or place[_NEXT_2[c]] >= 0
                or place[_NEXT_3[d]] >= 0)

    @property
    def stock_left(self) -> int:
        return len(self.stock) - self.drawn

    # --- when each action other than a carpet card up is legal: each stated once, asked by its
    # transition below and by every path that lists or looks for actions ----------------------
    def can_turn(self) -> bool:
        """turn: a card left in the stock, in phase 2 (carpet-foster's phase 1 turns nothing)."""
        return self.drawn < len(self.stock) and self.phase == 2

    def waste_fits(self) -> bool:
        """w>F: the waste top fits its foundation (an empty waste has none)."""
        waste = self.waste
        return bool(waste) and self.fits(waste[-1])

    def can_fill(self) -> bool:
        """w>a1, for any gap: the waste holds a card and the player fills gaps (not carpet-auto)."""
        return bool(self.waste) and self.variant.player_fills

    def can_fill_from_stock(self) -> bool:
        """s>a1, for any gap (carpet only): the waste empty and a card left in the stock."""
        return not self.waste and self.drawn < len(self.stock) and self.variant.stock_fills

    # --- the transitions ------------------------------------------------------------
    # Each checks its whole rule (the variant's and the phase's included), plays it, brings the
    # status up to date and returns True; or returns False having changed nothing.  apply (by
    # action) and codes.play (by log code) only choose which one to call.  In carpet-foster's
    # phase 1 the waste is empty (nothing is turned before phase 2), so only _turn needs the
    # phase's own test: the waste's primitives refuse by theirs, and a stock fill is not foster's.
    def _up(self, cell: int) -> bool:
        """a1>F: the carpet card at ``cell`` to its foundation if it fits; its cell then refills
        as the variant says (carpet-auto from the waste top, else the stock top; carpet-foster's
        phase 1 from the stock, phase 2 starting once no carpet card can go up) or stays a gap."""
        cells = self.cells
        card = cells[cell]
        if card < 0 or not self.fits(card):
            return False
        self._put_up(card)
        place = self.place
        place[card] = EMPTY
        if self.variant.auto_fill:
            source = self._pulled_from()
            if source is PULL_WASTE:
                card = cells[cell] = self.waste.pop()
                place[card] = cell
            elif source is PULL_STOCK:
                card = cells[cell] = self.stock[self.drawn]
                place[card] = cell
                self.drawn += 1
            else:
                cells[cell] = EMPTY
        elif self.phase == 1:
            self._refill(cell)
            if not self._carpet_can_play():
                self.phase = 2
        else:
            cells[cell] = EMPTY
        self.update_status()
        return True

    def _put_up(self, card: int) -> None:
        """``card`` onto its foundation (the transitions have checked that it goes there): one
        more card on it, and one more point (the score counts every card put up)."""
        self.found[card // 13] += 1
        self.score += 1

    def _ace_up(self, card: int) -> bool:
        """An ace that comes to light (carpet-foster's deal, its refills, a turn) goes to its
        foundation at once, starting it: True having put it up; False, changing nothing, for any
        other card."""
        if card % 13 != ACE:
            return False
        self._put_up(card)
        return True

    def _pulled_from(self) -> str | None:
        """carpet-auto: where the card comes from that fills the cell a card leaves for its
        foundation: the waste top (PULL_WASTE), else the stock top (PULL_STOCK), else nowhere
        (None: it stays a gap).  Play (_up) and the solver's key of an action's position
        (search_key_after) both ask it."""
        if self.waste:
            return PULL_WASTE
        if self.drawn < len(self.stock):
            return PULL_STOCK
        return None

    def _refill(self, cell: int) -> None:
        """carpet-foster, phase 1 (and its deal): the stock top fills the hole; an ace turned up
        on the way goes to its foundation and the next card is taken."""
        stock, drawn = self.stock, self.drawn
        self.cells[cell] = EMPTY
        while drawn < len(stock):
            card = stock[drawn]
            drawn += 1
            if not self._ace_up(card):
                self.cells[cell] = card
                self.place[card] = cell
                break
        self.drawn = drawn

    def _waste_up(self) -> bool:
        """w>F: the waste top to its foundation if it fits."""
        if not self.waste_fits():
            return False
        card = self.waste.pop()
        self._put_up(card)
        self.update_status()
        return True

    def _turn(self) -> bool:
        """turn (phase 2): the stock top onto the waste; an ace (only carpet-foster deals them
        into the stock) to its foundation."""
        if not self.can_turn():
            return False
        drawn = self.drawn
        card = self.stock[drawn]
        self.drawn = drawn + 1
        if not self._ace_up(card):
            self.waste.append(card)
        self.update_status()
        return True

    def _waste_fill(self, cell: int) -> bool:
        """w>a1: the waste top into a gap (not in carpet-auto, whose gaps fill by themselves)."""
        if self.cells[cell] != EMPTY or not self.can_fill():
            return False
        card = self.cells[cell] = self.waste.pop()
        self.place[card] = cell
        self.update_status()
        return True

    def _stock_fill(self, cell: int) -> bool:
        """s>a1 (carpet only): the stock top into a gap, only while the waste is empty."""
        if self.cells[cell] != EMPTY or not self.can_fill_from_stock():
            return False
        card = self.cells[cell] = self.stock[self.drawn]
        self.place[card] = cell
        self.drawn += 1
        self.update_status()
        return True

    def apply(self, action: int) -> None:
        """Play ``action``, or raise IllegalAction (the reason worked out then) having changed nothing."""
        if action < WASTE_TO_FOUNDATION:
            done = action >= CELL_TO_FOUNDATION and self._up(action - CELL_TO_FOUNDATION)
        elif action == TURN:
            done = self._turn()
        elif action == WASTE_TO_FOUNDATION:
            done = self._waste_up()
        elif action < STOCK_FILL:
            done = self._waste_fill(action - WASTE_FILL)
        else:
            done = action < ACTION_COUNT and self._stock_fill(action - STOCK_FILL)
        if not done:
            raise IllegalAction(self.why_not(action))

    def step(self, action: int) -> bool:
        """:meth:`apply` without the exception: whether ``action`` was played (if not, nothing changed)."""
        try:
            self.apply(action)
        except IllegalAction:
            return False
        return True

    def why_not(self, action: int) -> str:
        """Why ``action`` is refused here (called only on a refusal)."""
        variant = self.variant
        if action < WASTE_TO_FOUNDATION:
            if action < CELL_TO_FOUNDATION:
                return f"not a {variant.id} action: {action}"
            cell = action - CELL_TO_FOUNDATION
            card = self.cells[cell]
            return f"{cell_name(cell)} is empty" if card == EMPTY else self._no_fit(card)
        if self.phase == 1 and action < ACTION_COUNT and variant.valid_index(action):
            return ("phase 1: the only action is a carpet card to its foundation"
                    " (the stock is turned once no carpet card can be played)")
        if action == WASTE_TO_FOUNDATION:
            return "the waste is empty" if not self.waste else self._no_fit(self.waste[-1])
        if action == TURN:
            return "the stock is empty (it is gone through once)"
        if action < STOCK_FILL:
            if not variant.player_fills:
                return f"not a {variant.id} action: {action} (gaps fill by themselves)"
            cell = action - WASTE_FILL
            if self.cells[cell] != EMPTY:
                return f"{cell_name(cell)} is not empty"
            return "the waste is empty" + (", fill from the stock: s>" + cell_name(cell)
                                           if variant.stock_fills and self.stock_left else "")
        if action < ACTION_COUNT and variant.stock_fills:
            cell = action - STOCK_FILL
            if self.cells[cell] != EMPTY:
                return f"{cell_name(cell)} is not empty"
            if self.waste:
                return f"the waste is not empty: a gap takes the waste top (w>{cell_name(cell)})"
            return "the stock is empty"
        return f"not a {variant.id} action: {action}"

    def _no_fit(self, card: int) -> str:
        s = card // 13
        count = self.found[s]
        if count == 0:
            return f"{code(card)} cannot go up: there is no {SUIT_NAMES[s]} foundation yet"
        return f"{code(card)} does not fit: the {SUIT_NAMES[s]} foundation needs {code(NEXT_CARD[s][count])}"

    # --- status ---------------------------------------------------------------------
    def _all_up(self) -> bool:
        """Won: all 52 cards on the foundations."""
        found = self.found
        return found[0] + found[1] + found[2] + found[3] == 52

    def update_status(self) -> None:
        self.calm = False  # (a new position: see __slots__)
        # PLAYING while some action is legal (a stock fill is legal only where a turn is: not
        # asked), never once all is up: then nothing is left to play
        if (self.can_turn() or self.waste_fits() or (self.can_fill() and EMPTY in self.cells)
                or self._carpet_can_play()):
            self.status = PLAYING
        elif self._all_up():
            self.status = WON
        else:
            self.status = LOST

    def update_won(self) -> None:
        self.calm = False
        self.status = WON if self._all_up() else PLAYING

    # --- what every path reads ------------------------------------------------------
    def legal_actions(self) -> list[int]:
        if self.status == WON:
            return []
        actions = self.playable_cells(CELL_TO_FOUNDATION)
        if self.waste_fits():
            actions.append(WASTE_TO_FOUNDATION)
        if self.can_turn():
            actions.append(TURN)
        if EMPTY in self.cells:
            first = WASTE_FILL if self.can_fill() else STOCK_FILL if self.can_fill_from_stock() else None
            if first is not None:
                actions.extend(first + cell for cell, card in enumerate(self.cells) if card == EMPTY)
        return actions

    def snapshot(self) -> tuple:
        return (tuple(self.cells), tuple(self.found), self.stock, self.drawn, tuple(self.waste),
                self.phase, self.score, self.status, tuple(self.place))

    def restore(self, snap: tuple) -> None:
        cells, found, self.stock, self.drawn, waste, self.phase, self.score, self.status, place = snap
        self.calm = False
        self.place = list(place)
        self.cells = list(cells)
        self.found = list(found)
        self.waste = list(waste)

    def foundation_top(self, suit: int) -> int | None:
        count = self.found[suit]
        return NEXT_CARD[suit][count - 1] if count else None  # (the card it took last)

    def layout(self) -> dict:
        foundations = {}
        for s, letter in enumerate(SUITS):
            top = self.foundation_top(s)
            foundations[letter] = None if top is None else code(top)
        return {
            "foundations": foundations,
            "carpet": [[None if c == EMPTY else code(c) for c in self.cells[r * COLS:(r + 1) * COLS]]
                       for r in range(ROWS)],
            "stock": [code(c) for c in self.stock[self.drawn:]],
            "waste": [code(c) for c in self.waste],
        }

    def position_bytes(self) -> bytes:
        """The carpet's cells as id + 1 (a gap 0: signed bytes translated), the foundations, the
        phase, the stock left and the waste, each with its length."""
        cells = _SIGNED[:]
        cells.fromlist(self.cells)
        waste = self.waste
        stock = bytes(self.stock[self.drawn:])
        return b"".join((cells.tobytes().translate(PLUS_ONE), bytes((*self.found, self.phase, len(stock))), stock,
                         bytes((len(waste), *waste))))

    def all_cards(self) -> list[int]:
        cards = [c for c in self.cells if c != EMPTY]
        for s, count in enumerate(self.found):
            cards.extend(NEXT_CARD[s][:count])  # (the cards it took)
        cards.extend(self.stock[self.drawn:])
        cards.extend(self.waste)
        return cards
