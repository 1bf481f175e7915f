"""The quilt family's rules, written once: the position, the deal, and each transition as a
small primitive that plays its action or refuses it.

Every path runs these: ``Session.act`` (through :meth:`QuiltState.apply`), the one replay of a
log (``Session.play_events``, through core/quilt/codes.py's ``play``), the solver, the hint and the
survey players.  A primitive (``_up``, ``_onto_waste``, ``_onto_reserve``, ``_turn``,
``_redeal``) checks its whole rule (the variant's included), plays it, brings the status up to
date and returns True, or returns False having changed nothing; the reason for a refusal is
worked out only then (:meth:`QuiltState.why_not`).  The board, its places and action numbers:
core/quilt/board.py; the search's questions: core/quilt/search.py.
"""

from __future__ import annotations

from array import array
from itertools import compress
from typing import TYPE_CHECKING

from carpet.core.cards import CODES, SUITS, code
from carpet.core.errors import IllegalAction
from carpet.core.game import LOST, PLAYING, PLUS_ONE, WON
from carpet.core.numbering import Deal, fast_dealing_order

from .board import (ACTION_COUNT, BASES, CELL_TO_FOUNDATION, CELL_TO_RESERVE, CELL_TO_WASTE, CELLS, COLS,
                    DECK_CARDS, DOWN, DOWN_BASES, EMPTY, FIRST_MOVE, FIRST_RESERVE, HELD_SCORE, NEXT_TO, PILE_NEED, REDEAL_KIND,
                    REDEAL, RESERVE_TO_FOUNDATION, RESERVE_TO_RESERVE, RESERVES, ROWS, TARGETS, TO_RESERVE, TO_WASTE,
                    TOUCHING, TURN, TURN_KIND, UP, UP_BASES, WASTE, WASTE_TO_FOUNDATION, adjacent,
                    cell_name, free_flags, orientation, pile_name, pile_need, source_name, split, taken_before,
                    target_name)
from .search import QUILT_UNLOCKED, QuiltSearch

if TYPE_CHECKING:  # (variants.py imports this file)
    from .variants import QuiltVariant

_BASES = bytes(sorted(BASES))  # card ids are bytes: the deal drops the bases by bytes.translate
# what a pile holding its base alone takes next: the up piles the two, the down piles the queen
_FIRST_NEED = tuple(PILE_NEED[pile][1] for pile in range(8))
# card id -> the mask ``unstuck`` is and-ed with when the card moves: its suit's bit cleared
# (the quilt's bit, QUILT_UNLOCKED, kept: a card to a foundation clears it, _found_push)
_CLEAR_SUIT = tuple(31 & ~(1 << (card % 52 // 13)) for card in range(DECK_CARDS))
_CELL_NUMBERS = range(CELLS)


def _faces_of(cells) -> bytearray:
    """The quilt as ``QuiltState.faces`` holds it."""
    return bytearray([0 if card < 0 else card % 52 + 1 for card in cells])


class QuiltState(QuiltSearch):
    """A quilt position.

    ``cells`` holds 65 entries, the last (``OFF``) always empty, so that availability is
    two look-ups; ``free`` (a bytearray, OFF's 0 included) holds it worked out for every cell
    (:func:`~.board.free_flags`), kept as cards leave: the cards a leaving card's cell touches
    become available (:data:`~.board.TOUCHING`), so that ``free[loc[card]]`` says whether a card
    lies available (``loc`` -1 reads OFF's 0).  ``stock`` (top last), ``waste`` (top last), the foundation piles and
    the reserves (top last) are tuples, replaced when they change, so that a snapshot can
    share them.  ``loc[card]`` is the card's quilt cell or -1; ``need[pile]`` the face the
    pile takes next (-1 once complete).

    For the search (core/quilt/search.py): ``faces`` is the quilt as the search keys it (a
    bytearray: each cell's face + 1, 0 for a hole, OFF's 0 included); ``keyed`` the search
    key of this position once worked out (None until then: every transition and a restore
    clear it); ``unstuck`` a mask of the suits (bit ``suit``) whose dead-end tests passed in
    this position (a transition that moves a suit's card clears its bit, a redeal all of them),
    and of the quilt lock test (bit ``QUILT_UNLOCKED``, core/quilt/search.py: only a card to a
    foundation clears it).
    """

    __slots__ = ("cells", "stock", "waste", "found", "reserves", "loc", "need", "in_quilt",
                 "on_found", "unstuck", "faces", "keyed", "free")

    variant: QuiltVariant  # (core/quilt/variants.py)

    def __init__(self, variant, deal: Deal | None) -> None:
        self.variant = variant
        self.redeals_used = 0
        self.status = PLAYING
        self.unstuck = 0
        self.keyed = None
        if deal is None:
            return  # filled by arranged()
        order, _ = fast_dealing_order(deal, DECK_CARDS, generator=False)  # no draw after the deal
        rest = list(bytes(order).translate(None, _BASES))  # the eight bases start the foundations
        self.cells = rest[:CELLS] + [EMPTY]
        self.faces = _faces_of(self.cells)
        self.free = free_flags(self.cells)
        others = rest[CELLS:]
        if variant.has_reserves:
            self.stock = ()
            self.reserves = [tuple(others[k::RESERVES]) for k in range(RESERVES)]
        else:
            others.reverse()
            self.stock = tuple(others)  # the next card dealt is the last
            self.reserves = [()] * RESERVES
        self.waste = ()
        self.found = [(card,) for card in UP_BASES + DOWN_BASES]
        loc = [-1] * DECK_CARDS
        for cell, card in enumerate(rest[:CELLS]):
            loc[card] = cell
        self.loc = loc
        self.in_quilt = CELLS
        self.need = list(_FIRST_NEED)
        self.on_found = len(BASES)
        self.score = HELD_SCORE[self.on_found]
        self.update_status()

    @classmethod
    def arranged(cls, variant, *, quilt, stock=(), waste=(), foundations=None,
                 reserves=None, redeals_used: int = 0) -> "QuiltState":
        """A chosen position (for tests and puzzles); card ids, EMPTY/None for holes.

        ``quilt``: 64 cells row-major (or 8 rows of 8); ``stock``: top first; ``waste``:
        bottom first; ``foundations``: 8 piles bottom first (up ♣ ♠ ♥ ♦, down ♣ ♠ ♥ ♦),
        just the bases when omitted; ``reserves``: 8 piles bottom first.  Cards are not
        checked for completeness.
        """
        state = cls(variant, None)
        quilt = list(quilt)
        cells = [c for row in quilt for c in row] if len(quilt) == ROWS else quilt
        if len(cells) != CELLS:
            raise ValueError("a quilt has 64 cells")
        state.cells = [EMPTY if c is None else c for c in cells] + [EMPTY]
        state.stock = tuple(reversed(stock))
        state.waste = tuple(waste)
        if foundations is None:
            foundations = [(card,) for card in UP_BASES + DOWN_BASES]
        state.found = [tuple(pile) for pile in foundations]
        state.reserves = [tuple(p) for p in reserves] if reserves is not None else [()] * RESERVES
        state.redeals_used = redeals_used
        state._reindex()
        state.update_status()
        return state

    def _reindex(self) -> None:
        self.faces = _faces_of(self.cells)
        self.free = free_flags(self.cells)
        loc = [-1] * DECK_CARDS
        n = 0
        for cell in range(CELLS):
            card = self.cells[cell]
            if card != EMPTY:
                loc[card] = cell
                n += 1
        self.loc = loc
        self.in_quilt = n
        self.need = [self._pile_need(pile) for pile in range(8)]
        self.on_found = sum(len(p) for p in self.found)
        self.score = HELD_SCORE[self.on_found]

    def _pile_need(self, pile: int) -> int:
        return pile_need(pile, len(self.found[pile]))

    # --- what the rules ask of a position --------------------------------------------------
    def is_available(self, cell: int) -> bool:
        """Whether a card lies in ``cell`` and one of its short sides touches no card."""
        return self.free[cell] == 1

    def available(self) -> list[int]:
        """The cells whose cards are available now, row-major."""
        return list(compress(_CELL_NUMBERS, self.free))

    orientation = staticmethod(orientation)

    def top(self, source: int) -> int:
        """The card at a source place (a cell, the waste top, a reserve top), or EMPTY."""
        if source < CELLS:
            return self.cells[source]
        pile = self.waste if source == WASTE else self.reserves[source - FIRST_RESERVE]
        return pile[-1] if pile else EMPTY

    # --- the transitions -------------------------------------------------------------------
    # Each checks its whole rule, plays it, brings the status up to date and returns True; or
    # returns False having changed nothing.  apply (by action) and codes.play (by log code)
    # only choose which one to call.  A stock game's reserves are always empty and a reserve
    # game's stock and waste too, so a source or a target the game lacks refuses by itself,
    # but for the one move that takes an empty place: onto an empty reserve (_onto_reserve).
    def _up(self, source: int, pile: int) -> bool:
        """SOURCE>UC..DD: the card at ``source`` (an available quilt card, the waste top, a
        reserve's top) to foundation ``pile`` if the pile takes it next."""
        cells = self.cells
        if source < CELLS:
            card = cells[source]
            if card < 0 or self.need[pile] != card % 52 or not self.free[source]:
                return False
        else:
            card = self.top(source)
            if card < 0 or self.need[pile] != card % 52:
                return False
        self._take(source)
        self._found_push(pile, card)
        self.update_status()
        return True

    def _onto_waste(self, cell: int) -> bool:
        """a1>w (stock games): an available quilt card onto the waste top, same suit, one rank apart
        (an empty waste takes nothing)."""
        waste = self.waste
        if not waste or not self.free[cell] or not adjacent(self.cells[cell] % 52, waste[-1] % 52):
            return False
        self.waste = waste + (self._take(cell),)
        self.update_status()
        return True

    def _onto_reserve(self, source: int, r: int) -> bool:
        """SOURCE>r1..r8 (persian-carpet): an available quilt card or another reserve's top onto
        reserve ``r``'s top, same suit, one rank apart; an empty reserve takes any of them but a
        reserve's only card (moving it would change nothing but its number)."""
        if not self.variant.has_reserves or source == WASTE or source == FIRST_RESERVE + r:
            return False
        card = self.top(source)
        if card < 0 or (source < CELLS and not self.free[source]):
            return False
        onto = self.reserves[r]
        if onto:
            if not adjacent(card % 52, onto[-1] % 52):
                return False
        elif source >= FIRST_RESERVE and not self.leaves_for_empty(source - FIRST_RESERVE):
            return False
        self._take(source)
        self.reserves[r] = onto + (card,)
        self.update_status()
        return True

    def leaves_for_empty(self, k: int) -> bool:
        """Whether reserve ``k``'s top may go onto an empty reserve: a card lies under it (a
        reserve's only card never does: moving it would change nothing but its number)."""
        return len(self.reserves[k]) > 1

    def _turn(self) -> bool:
        """turn: the stock's top onto the waste."""
        stock = self.stock
        if not stock:
            return False
        card = stock[-1]
        self.waste += (card,)
        self.stock = stock[:-1]
        self.unstuck &= _CLEAR_SUIT[card]
        self.keyed = None
        self.update_status()
        return True

    def can_redeal(self) -> bool:
        """Whether a redeal is legal: the stock empty, the waste not, and a redeal left."""
        return not self.stock and bool(self.waste) and self.redeals_used < self.variant.redeals

    def _redeal(self) -> bool:
        """redeal: with the stock empty, the waste turned over as it lies to be the stock again
        (the card first dealt to the waste comes first), while redeals are left (:meth:`can_redeal`)."""
        if not self.can_redeal():
            return False
        self.stock = self.waste[::-1]
        self.waste = ()
        self.redeals_used += 1
        self.unstuck &= QUILT_UNLOCKED  # (the lock test counts stock and waste cards alike)
        self.keyed = None
        self.update_status()
        return True

    def _take(self, source: int) -> int:
        if source < CELLS:
            cells = self.cells
            card = cells[source]
            cells[source] = EMPTY
            self.faces[source] = 0
            free = self.free
            free[source] = 0
            for cell in TOUCHING[source]:  # (a card only becomes available when a neighbour leaves)
                if cells[cell] >= 0:
                    free[cell] = 1  # a short side of it touches no card now (TOUCHING)
            self.loc[card] = -1
            self.in_quilt -= 1
        elif source == WASTE:
            card = self.waste[-1]
            self.waste = self.waste[:-1]
        else:
            k = source - FIRST_RESERVE
            pile = self.reserves[k]
            card = pile[-1]
            self.reserves[k] = pile[:-1]
        self.unstuck &= _CLEAR_SUIT[card]
        self.keyed = None
        return card

    def _found_push(self, pile: int, card: int) -> None:
        # the one kind of move that may lock the quilt (core/quilt/search.py, _quilt_locked),
        # unless the card's other copy is in the stock or the waste: whatever the test counted
        # this card for (a copy of its face for the other pile, a waste card to build on), it
        # counts that copy for from the start
        other = card + 52 if card < 52 else card - 52
        other_pile = pile + 4 if pile < DOWN else pile - 4
        if self.loc[other] >= 0 or taken_before(other_pile, self.need[other_pile], card % 52) is None:
            self.unstuck &= ~QUILT_UNLOCKED  # (the other copy in the quilt, or on the other pile)
        found = self.found[pile] + (card,)
        self.found[pile] = found
        self.need[pile] = PILE_NEED[pile][len(found)]
        self.on_found += 1
        self.score = HELD_SCORE[self.on_found]

    def step(self, action: int) -> bool:
        """Play ``action`` if the rules allow it here: whether it was played (if not, nothing changed)."""
        kind = self.variant.kinds[action] if 0 <= action < ACTION_COUNT else 0
        if kind == CELL_TO_FOUNDATION or kind == WASTE_TO_FOUNDATION or kind == RESERVE_TO_FOUNDATION:
            source, target = divmod(action - FIRST_MOVE, TARGETS)
            return self._up(source, target)
        if kind == TURN_KIND:
            return self._turn()
        if kind == CELL_TO_WASTE:
            return self._onto_waste((action - FIRST_MOVE) // TARGETS)
        if kind == CELL_TO_RESERVE or kind == RESERVE_TO_RESERVE:
            source, target = divmod(action - FIRST_MOVE, TARGETS)
            return self._onto_reserve(source, target - TO_RESERVE)
        if kind == REDEAL_KIND:
            return self._redeal()
        return False

    def apply(self, action: int) -> None:
        """Play ``action``, or raise IllegalAction (the reason worked out then) having changed nothing."""
        if not self.step(action):
            raise IllegalAction(self.why_not(action))

    def why_not(self, action: int) -> str:
        """Why ``action`` is refused here (called only on a refusal)."""
        variant = self.variant
        if self.status == WON:
            return "the game is won"
        kind = variant.kinds[action] if 0 <= action < ACTION_COUNT else 0
        if not kind:
            return f"not a {variant.id} action: {action}"
        if kind == TURN_KIND:
            if self.can_redeal():
                return "the stock is empty: redeal to turn the waste over"
            return "the stock is empty"
        if kind == REDEAL_KIND:
            if self.stock:
                return "the stock is not empty yet: a redeal turns the waste over only when it is"
            if not self.waste:
                return "nothing to redeal: the waste is empty"
            return "no redeals left"
        source, target = split(action)
        card = self.top(source)
        if card == EMPTY:
            if source < CELLS:
                return f"{cell_name(source)} is empty"
            return "the waste is empty" if source == WASTE else f"{source_name(source)} is empty"
        if source < CELLS and not self.free[source]:
            return f"{cell_name(source)} ({code(card)}) is not available: both its short sides touch cards"
        if target < 8:
            if self.need[target] < 0:
                return f"{code(card)} cannot go to {pile_name(target)}: it is complete"
            return (f"{code(card)} does not fit {pile_name(target)}: it takes "
                    f"{CODES[self.need[target]]} next")
        if target == TO_WASTE:
            if not self.waste:
                return "the waste is empty: a quilt card goes only onto a waste card"
            return (f"{code(card)} does not go on the waste's {code(self.waste[-1] % 52)}: "
                    "same suit, one rank up or down")
        reserve = self.reserves[target - TO_RESERVE]
        if not reserve:
            return f"{source_name(source)} holds one card: moving it to an empty reserve changes nothing"
        return (f"{code(card)} does not go on {target_name(target)}'s {code(reserve[-1] % 52)}: "
                "same suit, one rank up or down")

    def is_legal(self, action: int) -> bool:
        if self.status == WON:
            return False
        snap = self.snapshot()
        if not self.step(action):
            return False
        self.restore(snap)
        return True

    # --- what every path reads --------------------------------------------------------------
    def legal_actions(self, alike: bool = False) -> list[int]:
        """The legal actions, in index order; with ``alike`` (for the search, which keys the
        reserves as alike) a move to an empty reserve only to the first of them."""
        if self.status == WON:
            return []
        actions = self.foundation_moves()
        if self.variant.has_reserves:
            others = self._reserve_moves(alike)
        elif self.waste:
            # an available quilt card of the waste top's suit, one rank apart, onto it
            others = [FIRST_MOVE + cell * TARGETS + TO_WASTE for cell in self._movable(NEXT_TO[self.waste[-1] % 52])]
        else:
            others = None
        if others:
            actions += others
            actions.sort()  # index order
        if self.stock:
            actions.append(TURN)
        elif self.can_redeal():
            actions.append(REDEAL)
        return actions

    def foundation_moves(self) -> list[int]:
        """The legal moves to a foundation, in index order: an available quilt card (either
        copy), the waste top or a reserve's top whose face a pile takes next (``need``: only
        its suit's two piles can); what legal_actions lists, and the search asks alone
        (core/quilt/search.py, ``search_first``)."""
        need, loc, free = self.need, self.loc, self.free
        moves = []
        append = moves.append
        for pile in range(8):
            face = need[pile]
            if face >= 0:
                cell = loc[face]  # (-1, not in the quilt, reads OFF's 0)
                if free[cell]:
                    append(FIRST_MOVE + cell * TARGETS + pile)
                cell = loc[face + 52]
                if free[cell]:
                    append(FIRST_MOVE + cell * TARGETS + pile)
        if len(moves) > 1:
            moves.sort()
        if self.waste:
            tops = ((WASTE, self.waste),)
        elif self.variant.has_reserves:
            tops = zip(range(FIRST_RESERVE, FIRST_RESERVE + RESERVES), self.reserves)
        else:
            return moves
        for source, pile in tops:
            if pile:
                face = pile[-1] % 52
                suit = face // 13
                if need[UP + suit] == face:
                    append(FIRST_MOVE + source * TARGETS + UP + suit)
                if need[DOWN + suit] == face:
                    append(FIRST_MOVE + source * TARGETS + DOWN + suit)
        return moves

    def _reserve_moves(self, alike: bool) -> list[int]:
        """The legal moves onto a reserve (persian-carpet), in no particular order: onto a
        reserve's top an available quilt card (either copy) or another reserve's top of the
        same suit, one rank apart; onto an empty reserve any of them (``alike``: onto the first
        empty reserve only) but a reserve's only card (:meth:`_onto_reserve`)."""
        reserves, loc, free = self.reserves, self.loc, self.free
        tops = [pile[-1] % 52 if pile else -1 for pile in reserves]
        moves = []
        append = moves.append
        empty = []
        for k in range(RESERVES):
            top = tops[k]
            if top < 0:
                empty.append(TO_RESERVE + k)
                continue
            onto = FIRST_MOVE + TO_RESERVE + k
            for face in NEXT_TO[top]:
                cell = loc[face]  # (-1, not in the quilt, reads OFF's 0)
                if free[cell]:
                    append(onto + cell * TARGETS)
                cell = loc[face + 52]
                if free[cell]:
                    append(onto + cell * TARGETS)
                if face in tops:
                    for j in range(RESERVES):
                        if tops[j] == face:
                            append(onto + (FIRST_RESERVE + j) * TARGETS)
        if empty:
            if alike:
                del empty[1:]
            for target in empty:
                moves += [FIRST_MOVE + cell * TARGETS + target for cell in compress(_CELL_NUMBERS, free)]
                moves += [FIRST_MOVE + (FIRST_RESERVE + k) * TARGETS + target for k in range(RESERVES)
                          if self.leaves_for_empty(k)]
        return moves

    def _movable(self, faces) -> list[int]:
        """The cells, in order, of the available quilt cards (either deck's copy) of ``faces``
        (-1, a complete pile's need, stands for no card)."""
        loc, free = self.loc, self.free
        found = set()
        for face in faces:
            if face >= 0:
                cell = loc[face]  # deck 0's copy
                if free[cell]:
                    found.add(cell)
                cell = loc[face + 52]  # deck 1's
                if free[cell]:
                    found.add(cell)
        return sorted(found)

    def has_action(self) -> bool:
        """Whether any action is legal (cheap: the usual cases are decided at once)."""
        if self.variant.has_reserves:
            return self._reserve_game_has_action()
        if self.stock or self.can_redeal():
            return True
        wanted = [f for f in self.need if f >= 0]
        if self.waste:
            face = self.waste[-1] % 52
            if face in wanted:
                return True
            wanted += NEXT_TO[face]  # (a quilt card onto the waste top)
        return self._any_available(wanted)

    def _any_available(self, faces) -> bool:
        """Whether a copy (either deck's) of one of ``faces`` lies available on the quilt."""
        loc, free = self.loc, self.free
        for face in faces:
            if free[loc[face]] or free[loc[face + 52]]:
                return True
        return False

    def _reserve_game_has_action(self) -> bool:
        reserves, need = self.reserves, self.need
        if () in reserves:
            # an empty reserve takes any available quilt card, and a non-empty quilt always
            # has one: in its topmost non-empty row a vertical card has nothing above it, and
            # a row of horizontal cards only has holes beside them; it also takes any
            # reserve's top card with another card under it
            if self.in_quilt:
                return True
            for k in range(RESERVES):
                if self.leaves_for_empty(k):
                    return True
        tops = [pile[-1] % 52 for pile in reserves if pile]
        loc, free = self.loc, self.free
        for face in need:  # an available quilt card or a reserve's top to a foundation
            if face >= 0 and (free[loc[face]] or free[loc[face + 52]] or face in tops):
                return True
        for top in tops:  # an available quilt card or another reserve's top onto a reserve's top
            for face in NEXT_TO[top]:
                if free[loc[face]] or free[loc[face + 52]] or face in tops:
                    return True
        return False

    def all_up(self) -> bool:
        """Won: all 104 cards on the foundations."""
        return self.on_found == DECK_CARDS

    def update_status(self) -> None:
        if self.all_up():
            self.status = WON
        elif self.has_action():  # cheap where it can be: a stock to turn decides at once
            self.status = PLAYING
        else:
            self.status = LOST

    def update_won(self) -> None:
        self.status = WON if self.all_up() else PLAYING

    # --- saving ---------------------------------------------------------------------------
    def snapshot(self) -> tuple:
        """The position, with what :meth:`_reindex` would work out kept too (a restore needs none)."""
        return (tuple(self.cells), self.stock, self.waste, tuple(self.found), tuple(self.reserves),
                self.redeals_used, self.status, tuple(self.loc), self.in_quilt, tuple(self.need), self.on_found,
                self.unstuck, bytes(self.faces), bytes(self.free))

    def restore(self, snap: tuple) -> None:
        cells, self.stock, self.waste, found, reserves, self.redeals_used, self.status, loc, self.in_quilt, \
            need, on_found, self.unstuck, faces, free = snap
        self.faces = bytearray(faces)
        self.free = bytearray(free)
        self.keyed = None
        self.cells = list(cells)
        self.found = list(found)
        self.reserves = list(reserves)
        self.loc = list(loc)
        self.need = list(need)
        self.on_found = on_found
        self.score = HELD_SCORE[on_found]

    def copy(self) -> "QuiltState":
        """A new state in this position, sharing nothing that changes (what the solver works on:
        core/solver.py, ``working_copy``); cheaper than dealing the deal again."""
        state = QuiltState(self.variant, None)
        state.restore(self.snapshot())
        return state

    def layout(self) -> dict:
        found = {
            "up": {SUITS[s]: code(self.found[UP + s][-1]) for s in range(4)},
            "down": {SUITS[s]: code(self.found[DOWN + s][-1]) for s in range(4)},
        }
        quilt = [[None if c == EMPTY else code(c) for c in self.cells[r * COLS:(r + 1) * COLS]]
                 for r in range(ROWS)]
        if self.variant.has_reserves:
            return {"foundations": found, "quilt": quilt,
                    "reserves": [[code(c) for c in r] for r in self.reserves]}
        return {"foundations": found, "quilt": quilt,
                "stock": [code(c) for c in reversed(self.stock)],
                "waste": [code(c) for c in self.waste]}

    def position_bytes(self) -> bytes:
        """Cells (card id + 1, 0 for a hole), then each pile bottom first (card ids), with
        255 between the parts, then the redeals used.

        Card ids, not codes: the two decks' copies differ, so equal bytes mean equal
        positions exactly.  (The cells as signed bytes, a hole -1, translated by PLUS_ONE.)
        """
        parts = [array("b", self.cells[:CELLS]).tobytes().translate(PLUS_ONE), bytes(reversed(self.stock)),
                 bytes(self.waste), *map(bytes, self.found)]
        if self.variant.has_reserves:
            parts += map(bytes, self.reserves)
        parts.append(bytes((self.redeals_used,)))
        return b"\xff".join(parts)

    def all_cards(self) -> list[int]:
        cards = [c for c in self.cells[:CELLS] if c != EMPTY]
        cards += self.stock
        cards += self.waste
        for pile in self.found:
            cards += pile
        for pile in self.reserves:
            cards += pile
        return cards
