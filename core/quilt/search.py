"""What the solver, the hint and the simple player ask of a quilt position (core/knowledge.py):
how promising an action looks, the search's orders, dead ends, safe actions and
the position as the search keys it.  A mixin of ``QuiltState`` (core/quilt/rules.py), which holds
the position and the rules these ask through it.
"""

from __future__ import annotations

import functools
import zlib
from operator import add
from typing import TYPE_CHECKING

from carpet.core.game import State

if TYPE_CHECKING:  # (core/plan.py is loaded by the first plan asked for, not by the rules)
    from carpet.core.plan import Plan

from .board import (_N1, _N2, CELLS, DECK_CARDS, DOWN, FIRST_MOVE, FIRST_RESERVE, TO_RESERVE, TO_WASTE,
                    NEXT_TO, TOUCHING, TURN, UP, WASTE, held_score, move_action, split, taken_before, taken_row)


# card id -> its rank when of the given suit, else 255 (to drop): per suit, for translate
_CARD_RANKS = tuple(bytes(b % 13 if b < DECK_CARDS and b % 52 // 13 == s else 255 for b in range(256))
                    for s in range(4))
_IN_QUILT = (1,) * CELLS + (0,)  # a card's cell (loc) -> 1 when it lies in the quilt; -1 (not there) -> 0
_FACE_TABLE = bytes(b % 52 if b < DECK_CARDS else b for b in range(256))  # card id -> face, for translate
#: the bit of ``unstuck`` (above the four suits') saying the quilt lock test (_quilt_locked) passed
#: and nothing since can have changed its answer: a card to a waste or a turn keeps it (the test
#: counts a card leaving the quilt, and stock and waste cards alike), a card to a foundation not
QUILT_UNLOCKED = 16
_REDEALS_USED = tuple(bytes((n,)) for n in range(256))  # a count as one byte, made once


def _ranks_of(cards: bytes, suit: int) -> bytes:
    """The ranks of ``suit``'s cards among ``cards`` (card ids), in their order."""
    return cards.translate(_CARD_RANKS[suit]).replace(b"\xff", b"")


# cell -> (n, n's other short-side neighbour) for each quilt cell n whose short side touches it
_SHORT_SIDES_ON = tuple(tuple((n, _N2[n] if _N1[n] == cell else _N1[n]) for n in TOUCHING[cell])
                        for cell in range(CELLS))
_SPLIT = (None,) * FIRST_MOVE + tuple(split(action) for action in range(FIRST_MOVE, TURN))  # action -> split(action)


class QuiltSearch(State):
    __slots__ = ()

    def action_rank(self, action: int) -> int:
        """How promising an action looks at a glance (higher first); the simple player's
        look-ahead (core/autoplay.py) and the solver order actions by it (:meth:`_ranks`)."""
        return self._ranks((action,))[0]

    def _ranks(self, actions) -> list[int]:
        """:meth:`action_rank` of each of ``actions`` (which this states), what a source's rank
        owes to the source alone (the cards its emptying frees, what a reserve's pile digs to)
        worked out once for its run of actions (index order puts a source's actions together).
        A move to a foundation ranks 100 and up, every other action below 60
        (:meth:`search_first` relies on it)."""
        ranks = []
        append = ranks.append
        reserves, cells = self.reserves, self.cells
        last, own = -1, None
        for action in actions:
            if action >= TURN:
                append(20 if action == TURN else 1)
                continue
            source, target = _SPLIT[action]
            if source != last:
                last, own = source, None
                if source < CELLS:
                    # the cards emptying it frees (0..4): those whose short side touches it
                    # and whose other short side touches a card
                    own = 0
                    for n, other in _SHORT_SIDES_ON[source]:
                        if cells[n] >= 0 and cells[other] >= 0:
                            own += 1
            if source < CELLS:
                if target < 8:
                    append(100 + own)
                elif target == TO_WASTE:
                    append(50 + own)
                else:  # onto a reserve
                    append((40 if reserves[target - TO_RESERVE] else 10) + own)
            elif target < 8:
                append(100)
            else:  # from a reserve onto another
                if own is None:
                    own = self._dig(reserves[source - FIRST_RESERVE])
                append(own if own else 3 if reserves[target - TO_RESERVE] else 2)
        return ranks

    def _dig(self, pile: tuple) -> int:
        """The rank of moving a reserve's top card onto another reserve for what it uncovers,
        or 0 when that depends on the reserve it goes onto (3 onto a card, 2 onto none)."""
        need = self.need
        for depth in range(1, min(len(pile), 40)):
            if pile[-1 - depth] % 52 in need:
                return 60 - depth  # digs towards a card a foundation takes
        if len(pile) == 1:
            return 30  # empties a reserve (onto a card: a lone card never goes to an empty one)
        return 0

    #: the spread of the other orders: a jitter of up to this much on action_rank's scale
    ORDER_JITTER = 60

    def search_actions(self, order: int = 0, key=None) -> list[int]:
        """The legal actions, by :meth:`action_rank` (order 0), or by the rank plus a jitter
        (up to ORDER_JITTER) fixed by the position, the action and ``order`` (its CRC-32).

        The ranks are rough: which of two near-equal moves comes first (build on the waste or
        turn, this foundation move or that) decides much, and an order that always makes the
        same choice goes the same wrong way from every position of a deal.  Orders 1.. rank
        the near-equals as other players would, each the same on every machine; with the
        same position key (copies of a card alike) they give the same order.  (``key``, the
        position's key where the solver has it, goes unused: the table below keys by its own.)
        """
        # the actions and their order depend on the position by faces alone (the key; in
        # Persian Carpet the reserves as they lie, too): a position met again (the look-ahead,
        # the other orders) is answered from _ACTIONS
        memo = (self.variant.id, self.search_key(), order,
                tuple(self.reserves) if self.variant.has_reserves else None)
        known = _ACTIONS.get(memo)
        if known is not None:
            return list(known)
        # the reserves are all alike (search_key): of the moves of a card to an empty
        # reserve, the one to the first empty reserve stands for all of them
        actions = self.legal_actions(alike=True)
        if len(actions) > 1:
            ranks = self._ranks(actions)
            if order:
                salt = zlib.crc32(self.search_key(), order)
                scale = self.ORDER_JITTER / 4294967296
                crc32 = zlib.crc32
                ranks = [rank + crc32(action.to_bytes(2, "little"), salt) * scale
                         for rank, action in zip(ranks, actions)]
            # (stable: equal ranks keep the index order, reverse=True included)
            actions = [actions[i] for i in sorted(range(len(actions)), key=ranks.__getitem__, reverse=True)]
        if len(_ACTIONS) >= _ACTIONS_KEPT:
            _ACTIONS.clear()
        _ACTIONS[memo] = tuple(actions)
        return actions

    def search_first(self, order: int = 0) -> int | None:
        """``search_actions(order)[0]`` where it is a move to a foundation, told without listing
        and ranking every action (the solver lists the rest only if it comes back here); None
        where it is not (no foundation move, or another order, whose jitter may put another
        action first).  Every move to a foundation outranks every other action (:meth:`_ranks`:
        100 and up against 60 at most), and of equal ranks the first in index order comes first,
        as the stable sort in :meth:`search_actions` keeps them."""
        if order:
            return None
        moves = self.foundation_moves()
        if len(moves) < 2:
            return moves[0] if moves else None
        ranks = self._ranks(moves)
        return moves[ranks.index(max(ranks))]

    def dead_end(self) -> bool:
        """True when the game can no longer be won (for the search; False may still be a dead
        end): some suit's waste cards are blocked for good (:meth:`_run_blocked`), or the suit
        could not be finished even if every quilt card were free to play at any time
        (:func:`_suit_stuck`), or some quilt card can never leave the quilt
        (:meth:`_quilt_locked`), or, with the stock dealt and a redeal left, the waste's top card
        cannot move till the redeal (:meth:`_to_come_stuck`) and the position after the redeal is
        dead (:meth:`_redealt`; asked with a card still in the stock as well, it decided no more
        deals: docs/solver.md).  Each suit's tests depend on its own cards alone, so a suit that
        passed them stays passed (``unstuck``) until one of its cards moves; the quilt lock test
        stays passed (bit QUILT_UNLOCKED) until a card goes to a foundation."""
        if self.variant.has_reserves:
            return False
        redeals = self.redeals_left
        if self.unstuck != 31 and self._cards_stuck(redeals):
            return True
        # sound: with the waste's top stuck till a redeal, every line plays quilt cards up,
        # then redeals; those plays can follow the redeal
        return (redeals > 0 and not self.stock and bool(self.waste) and self._to_come_stuck()
                and self._redealt().dead_end())

    def _to_come_stuck(self) -> bool:
        """Whether the waste's top card and every stock card, each once it lies on top, can
        neither go up nor take a card until the waste is turned over.  While they lie on top,
        only quilt cards can go up, so the quilt cards that may go up are found as the least set
        grown until it stays the same (a card joins once a short side of it may be bare, a hole
        or a card of the set, and a pile of its suit may reach it, every face before it on the
        way having a copy in the set).  Each of those cards is stuck when neither pile of its
        suit may reach it that way and no card of its suit one rank apart lies in the quilt
        where it may come free.  Then nothing but turns and quilt cards to their piles can be
        played before the redeal, and those plays can as well be made after it."""
        loc, need, free = self.loc, self.need, self.free
        to_come = self.stock + self.waste[-1:]
        for card in to_come:  # first what is plain at once: a card a pile takes, or a free card it takes
            face = card % 52
            if face in need:
                return False
            for f in NEXT_TO[face]:
                if free[loc[f]] or free[loc[f + 52]]:
                    return False
        cells = self.cells
        bare = self.faces.translate(_BARE)  # 1 where a cell is bare or its card may go up (OFF bare)
        got = bytearray(52)  # copies of each face that may go up

        ups = [taken_row(UP + suit, need[UP + suit]) for suit in range(4)]
        downs = [taken_row(DOWN + suit, need[DOWN + suit]) for suit in range(4)]

        def reachable(f: int) -> bool:
            """Whether a pile of face ``f``'s suit may reach it, a copy of every face before it on
            the way in ``got``."""
            up = ups[f // 13][f]
            if up is not None and got.find(0, *up) < 0:
                return True
            down = downs[f // 13][f]
            return down is not None and got.find(0, *down) < 0

        todo = [cell for cell in range(CELLS) if cells[cell] >= 0]
        grown = True
        while grown:
            grown = False
            for cell in todo:
                if bare[cell] or not (bare[_N1[cell]] or bare[_N2[cell]]):
                    continue
                f = cells[cell] % 52
                if reachable(f):
                    bare[cell] = 1
                    got[f] += 1
                    grown = True
        for card in to_come:
            face = card % 52
            if reachable(face):
                return False  # a pile may reach it
            for f in NEXT_TO[face]:
                for cell in (loc[f], loc[f + 52]):
                    if cell >= 0 and (bare[_N1[cell]] or bare[_N2[cell]]):
                        return False  # a card it may take
        return True

    def _redealt(self) -> "QuiltSearch":
        """A copy of this position with its stock dealt and its waste turned over (by the
        rules' turn and redeal)."""
        after = self.copy()
        while after.stock:
            after._turn()
        after._redeal()
        return after

    def _cards_stuck(self, redeals: int) -> bool:
        """:meth:`dead_end`'s tests of each suit (those ``unstuck`` does not say passed) and of
        the quilt lock; what passes is noted in ``unstuck``."""
        unstuck = self.unstuck
        waste, stock = bytes(self.waste), None
        for suit in range(4):
            if unstuck >> suit & 1:
                continue
            in_waste = _ranks_of(waste, suit)
            if not redeals and self._run_blocked(suit, in_waste):
                return True
            if stock is None:
                stock = bytes(reversed(self.stock))
            in_stock = _ranks_of(stock, suit)
            # (with only quilt cards left, all free in this relaxation, the suit is not stuck)
            if (in_waste or in_stock) and self._suit_stuck(suit, in_waste, in_stock, redeals):
                return True
            unstuck |= 1 << suit
        if not unstuck & QUILT_UNLOCKED:
            if self._quilt_locked():
                return True
            unstuck |= QUILT_UNLOCKED
        self.unstuck = unstuck
        return False

    def _suit_stuck(self, suit: int, waste: bytes, stock: bytes, redeals: int, frozen: int = 0) -> bool:
        """:func:`_suit_stuck` of ``suit`` in this position, its waste and stock cards' ranks
        given (``waste`` bottom first, ``stock`` next first), with ``redeals`` left and ``frozen``
        waste cards."""
        base, loc, need = 13 * suit, self.loc, self.need
        # how many copies of each rank lie in the quilt
        free = bytes(map(add, map(_IN_QUILT.__getitem__, loc[base:base + 13]),
                         map(_IN_QUILT.__getitem__, loc[base + 52:base + 65])))
        up, down = need[UP + suit], need[DOWN + suit]
        return _suit_stuck(13 if up < 0 else up % 13, -1 if down < 0 else down % 13, free, waste, stock,
                           redeals, frozen)

    def _quilt_locked(self) -> bool:
        """Whether some quilt card can never leave the quilt (then the game is lost).

        Worked out as the least set of quilt cards that may ever leave, grown until it stays
        the same: a card may leave once one of its short sides may be bare (a hole, the edge,
        or a card that may leave) and it may go somewhere, which is (a) up or down its suit's
        pile, where each rank the pile needs before it has a copy that may turn up (in the
        stock or the waste, or a quilt card that may leave), or (b) onto the waste, where a card
        of its suit one rank apart may turn up.  Every card that really leaves meets these when
        it does (each card that left before it is in the set), so the set holds every card that
        ever leaves: a card outside it stays, and a win needs every card up.  (Issue 25's
        example: a jack under both its queen and its king, both to go up after it, and no
        other jack or queen outside the quilt to take them on the waste.)
        """
        cells, need = self.cells, self.need
        have = bytearray(52)  # copies of each face that may turn up: stock, waste, then quilt cards freed
        for card in self.stock:
            have[card % 52] += 1
        for card in self.waste:
            have[card % 52] += 1
        bare = self.faces.translate(_BARE)  # 1 where a cell is bare or its card may leave (OFF bare)
        # each card is looked at once, then again only when what it waits for comes: a cell of
        # its short sides bared (``on_cell``), a first copy of a face it may need (``on_face``)
        on_cell: dict = {}
        on_face: dict = {}
        # what each pile takes before each face (the piles do not change here)
        ups = [taken_row(UP + suit, need[UP + suit]) for suit in range(4)]
        downs = [taken_row(DOWN + suit, need[DOWN + suit]) for suit in range(4)]
        todo = [cell for cell in range(CELLS) if cells[cell] >= 0]
        left = len(todo)
        while todo:
            cell = todo.pop()
            if bare[cell]:
                continue  # (woken twice: already out)
            n1, n2 = _N1[cell], _N2[cell]
            if not (bare[n1] or bare[n2]):
                on_cell.setdefault(n1, []).append(cell)
                on_cell.setdefault(n2, []).append(cell)
                continue
            face = cells[cell] % 52
            suit = face // 13
            # the first rank the up pile lacks a copy of before this card (none: it may go up),
            # and the same going down
            lacks = []
            before = ups[suit][face]
            if before is not None:
                k = have.find(0, *before)
                if k < 0:
                    lacks = None
                else:
                    lacks.append(k)
            before = downs[suit][face]
            if lacks is not None and before is not None:
                k = have.find(0, *before)
                if k < 0:
                    lacks = None
                else:
                    lacks.append(k)
            if lacks is not None:
                for f in NEXT_TO[face]:
                    if have[f]:
                        lacks = None  # onto the waste
                        break
            if lacks is not None:
                lacks += NEXT_TO[face]
                for k in lacks:
                    on_face.setdefault(k, []).append(cell)
                continue
            bare[cell] = 1
            left -= 1
            woken = on_cell.pop(cell, None)
            if woken:
                todo += woken
            have[face] += 1
            if have[face] == 1:
                woken = on_face.pop(face, None)
                if woken:
                    todo += woken
        return left > 0  # a card that may never leave

    def waste_blocked(self) -> bool:
        """Whether the waste is blocked for good in the last pass (:meth:`_run_blocked`, for
        every suit).  (The simple player's look-ahead uses this test alone.)"""
        if self.variant.has_reserves or self.redeals_left or len(self.waste) < 2:
            return False
        waste = bytes(self.waste)
        return any(self._run_blocked(suit, _ranks_of(waste, suit))
                   for suit in range(4))

    def _run_blocked(self, suit: int, run: bytes) -> bool:
        """With no redeal left the waste only ever loses its top card, to a foundation, so the
        waste's cards of one suit (``run``: their ranks, bottom first), read top down, must
        split into a rising run for the up pile (above what it holds) and a falling run for
        the down pile (below what it holds); True when they cannot."""
        if len(run) < 2:
            return False
        # (highest rank on the up pile, lowest on the down pile) still possible
        ends = {(len(self.found[UP + suit]) - 1, 13 - len(self.found[DOWN + suit]))}
        for r in reversed(run):
            after = set()
            for up, down in ends:
                if r > up:
                    after.add((r, down))
                if r < down:
                    after.add((up, r))
            if not after:
                return True
            ends = after
        return False

    #: every win scores the same, so a safe action never costs a win any score
    safe_keeps_score = True

    def search_key(self) -> bytes:
        """The position by faces: the two decks' copies of a card obey the same rules, so
        positions that differ only in which copy lies where have the same future; the
        reserves (Persian Carpet) are all alike, so their order does not matter either.  Worked
        out once per position (``keyed``): the search asks it again for the orders' jitter."""
        if self.keyed is not None:
            return self.keyed
        parts = [bytes(self.faces), bytes(map(len, self.found)),
                 bytes(self.stock).translate(_FACE_TABLE), bytes(self.waste).translate(_FACE_TABLE)]
        if self.variant.has_reserves:
            # each pile by faces, sorted (card ids are below 0xfe: the piles split again there)
            parts += sorted(b"\xfe".join(map(bytes, self.reserves)).translate(_FACE_TABLE).split(b"\xfe"))
        parts.append(_REDEALS_USED[self.redeals_used])
        self.keyed = key = b"\xff".join(parts)
        return key

    def safe_action(self) -> int | None:
        """A card to its foundation where that cannot spoil a win: the card's suit is
        *crossed*, its up pile needing a higher rank than its down pile.

        Then every card of the suit still in play has one copy left and one pile to go to,
        and nothing placed on the card (on the waste or a reserve) could ever do better than
        go up itself: a run built on it must go up (or down) in order anyway.
        """
        need, loc, free, waste = self.need, self.loc, self.free, self.waste
        tops = None  # the reserves' top faces (255: empty), once asked for
        for suit in range(4):
            up, down = need[UP + suit], need[DOWN + suit]
            if taken_before(UP + suit, up, down) is not None:
                continue  # not crossed: the up pile is still to take what the down pile takes next
            for face, pile in ((up, UP + suit), (down, DOWN + suit)):
                if face < 0:
                    continue
                # a card with that face: in the quilt (-1, not there, reads OFF's 0), on the
                # waste's top, on a reserve's top
                if free[loc[face]]:
                    return move_action(loc[face], pile)
                if free[loc[face + 52]]:
                    return move_action(loc[face + 52], pile)
                if waste:
                    if waste[-1] % 52 == face:
                        return move_action(WASTE, pile)
                    continue  # (a stock game: no reserves)
                if tops is None:
                    tops = bytes([reserve[-1] % 52 if reserve else 255 for reserve in self.reserves])
                k = tops.find(face)
                if k >= 0:
                    return move_action(FIRST_RESERVE + k, pile)
        return None

    def forecast(self) -> int:
        """How many suits look lost by the waste as it lies: a suit's cards could not all go up,
        even with its quilt cards free to play at any moment (the relaxation of
        :func:`_suit_stuck`), if none of its cards on the waste went up before the waste is next
        turned over (the stock's cards may, as they come).  A forecast, not a proof (the waste's
        top may still go up, after a quilt card that is not free yet); 0 where no redeal is left
        (the proofs speak there, :meth:`dead_end`).

        The solver's beams keep the ways with fewer first (core/beam.py): a beam ranked by
        progress alone keeps positions that have all laid some suit's cards on the waste, in
        the first pass, in an order the second cannot play, and they die together after the
        redeal.  (The stock's cards are not frozen too: as if dealt to the waste unplayed, a
        winning line would look lost at nearly every step.)"""
        redeals = self.redeals_left
        if not redeals or self.variant.has_reserves:
            return 0
        waste, stock = bytes(self.waste), bytes(reversed(self.stock))
        lost = 0
        for suit in range(4):
            in_waste = _ranks_of(waste, suit)
            if in_waste and self._suit_stuck(suit, in_waste, _ranks_of(stock, suit), redeals, len(in_waste)):
                lost += 1
        return lost

    def progress(self, measure: int = 0) -> int:
        """How far the game has come: 4 for each card up, less 1 for each card in the quilt
        (measure 0, everywhere the solver ranks positions); measure 1 (two of the wide beams of
        :func:`quilt_plans` rank by it) counts the cards in the quilt for, not against,
        while more than :data:`_KEEP_QUILT_STOCK` cards are left to deal in the first pass and
        in the last pass."""
        if measure and (len(self.stock) > _KEEP_QUILT_STOCK or not self.redeals_left):
            return self.on_found * 4 + self.in_quilt
        return self.on_found * 4 - self.in_quilt

    #: (no key after an action without playing it: core/knowledge.py)
    search_key_after = None

    @property
    def plan(self) -> Plan:
        """The solver's plan for this game (:func:`quilt_plans`)."""
        variant = self.variant
        return quilt_plans()["reserves" if variant.has_reserves else
                             "one redeal" if variant.redeals == 1 else "two redeals"]

    def win_score_bound(self, moves: int) -> int:
        return held_score(DECK_CARDS)  # every win puts every card up: its score is fixed



#: search_actions' answers already worked out, by (game, key, order, the reserves as they lie)
_ACTIONS: dict = {}
#: how many of them are kept at most (then all are dropped: about 300 bytes each)
_ACTIONS_KEPT = 50_000

#: answers of _suit_stuck already worked out (the same suit situation recurs all through a search)
_STUCK: dict = {}
#: positions _suit_stuck may look at before it gives up (and says "not stuck")
_STUCK_BUDGET = 20000
#: the stock cards left to deal in the first pass past which progress(1) counts quilt cards for
_KEEP_QUILT_STOCK = 16
_LESS = (b"", b"\x00", b"\x01")  # a count, less one, as bytes
_BARE = bytes((1,)) + bytes(255)  # a cell's face + 1 -> 1 when it holds no card (_quilt_locked)


def _keep(answers: dict, memo, stuck: bool) -> bool:
    """``stuck``, kept in ``answers`` by ``memo`` (all of them dropped first past 200,000)."""
    if len(answers) > 200_000:
        answers.clear()
    answers[memo] = stuck
    return stuck


def _suit_stuck(up: int, down: int, free: bytes, waste: bytes, stock: bytes, redeals: int,
                frozen: int = 0) -> bool:
    """Whether one suit could not be finished even if its quilt cards were free to play at any
    moment (a relaxation: every real win gives a win here, so True proves a dead end).

    ``up``/``down``: the ranks the two piles take next (13 and -1 once complete); ``free``:
    how many copies of each rank (13 counts, bytes) lie in the quilt; ``waste`` (bottom
    first) and ``stock`` (next first): the ranks of the suit's cards there (bytes), the other suits left
    out (they only block more); ``redeals`` left.  The relaxed game is searched exhaustively,
    up to _STUCK_BUDGET positions (then: not stuck).

    ``frozen``: how many of the waste's cards, from the bottom, may not go up before the waste is
    next turned over (0 for the proof; QuiltSearch.forecast asks with the whole waste frozen,
    a forecast, no proof).
    """
    memo = (up, down, free, waste, stock, redeals, frozen)
    known = _STUCK.get(memo)
    if known is not None:
        return known
    start = memo  # (bytes all: their hashes are kept, and slicing them is cheap)
    seen = {start}
    todo = [start]
    stuck = True
    while todo:
        if len(seen) > _STUCK_BUDGET:
            stuck = False  # gave up: no proof
            break
        u, d, fr, wa, st, rd, fz = todo.pop()
        # plays that cannot hurt here, made at once: a card whose rank only one pile still
        # takes (the suit crossed), a quilt card when both copies are in the quilt, the waste
        # top when the other copy is in the quilt (it can serve the other pile at any time)
        while True:
            crossed = u > d
            if len(wa) > fz and wa[-1] == u and (crossed or fr[u]):
                u, wa = u + 1, wa[:-1]
            elif len(wa) > fz and wa[-1] == d and (crossed or fr[d]):
                d, wa = d - 1, wa[:-1]
            elif u <= 12 and fr[u] and (crossed or fr[u] == 2):
                fr, u = fr[:u] + _LESS[fr[u]] + fr[u + 1:], u + 1
            elif d >= 0 and fr[d] and (crossed or fr[d] == 2):
                fr, d = fr[:d] + _LESS[fr[d]] + fr[d + 1:], d - 1
            else:
                break
        if u > 12 and d < 0:
            stuck = False
            break
        children = []
        if len(wa) > fz:
            top = wa[-1]
            if top == u:
                children.append((u + 1, d, fr, wa[:-1], st, rd, fz))
            if top == d:
                children.append((u, d - 1, fr, wa[:-1], st, rd, fz))
        if u <= 12 and fr[u]:
            children.append((u + 1, d, fr[:u] + _LESS[fr[u]] + fr[u + 1:], wa, st, rd, fz))
        if d >= 0 and fr[d]:
            children.append((u, d - 1, fr[:d] + _LESS[fr[d]] + fr[d + 1:], wa, st, rd, fz))
        if st:
            children.append((u, d, fr, wa + st[:1], st[1:], rd, fz))
        elif wa and rd:
            # the first dealt to the waste comes first; nothing is frozen any more
            children.append((u, d, fr, b"", wa, rd - 1, 0))
        # the plays last, to be searched first: a win, where there is one, comes sooner (the
        # order never changes the answer: "stuck" is said only of a search that ran to its end)
        for child in reversed(children):
            if child not in seen:
                seen.add(child)
                todo.append(child)
    return _keep(_STUCK, memo, stuck)


@functools.cache
def quilt_plans() -> dict[str, Plan]:
    """The solver's plans for the quilt games (core/plan.py), made when first asked for: with a
    stock and one redeal (Crazy Quilt), with a stock and two (Indian Carpet), with reserves
    (Persian Carpet)."""
    from carpet.core.plan import BEAM_REACH, Beam, Brief, Descents, Rounds, searches

    # a quilt game with a stock: eight searches, each in an order of its own
    # (:meth:`QuiltSearch.search_actions`), each a descent first (a brief search before it cost
    # these games CPU and decided no deal more); after the third, three wide beams of 333, five
    # nodes a position, each ranked by a measure of progress of its own
    # (:meth:`QuiltSearch.progress`) and searching in an order of its own, each position of their
    # last pass searched with 200 nodes; with one redeal, a beam of 100 after the first search too
    # (the depth-first passes spend their nodes near the end of the stock of one line: it wins
    # crazy-quilt deals the rest leave unknown, 216, 300, 336, 378 and 390 of 1-1,000); with two
    # it decides no deal more and costs the deals that reach it half their CPU (docs/solver.md)
    wide = tuple(Beam(333, reach=5, share=3 - n, last=BEAM_REACH, measure=measure, order=3 + n)
                 for n, measure in enumerate((1, 0, 1)))
    steps = (Descents(), Rounds())
    # the plan with reserves (Persian Carpet): no stock to turn, no beam; the brief search first
    # (it decides most deals: 19 times the CPU without it)
    return {"one redeal": searches(8, steps, beams={1: (Beam(100, share=4),), 3: wide}),
            "two redeals": searches(8, steps, beams={3: wide}),
            "reserves": searches(8, (Brief(), *steps))}
