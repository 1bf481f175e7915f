"""Crazy Quilt: the quilt family (Crazy Quilt, Indian Carpet, Persian Carpet), two decks.

Rules as in docs/rules.md, "Quilt family".  The quilt's cells are numbered row-major,
``row * 8 + column`` (both from 0), and named ``a1``..``h8``.

Actions name places, never cards (the two decks give every code twice): a move is
``SOURCE>TARGET`` with the sources ``a1``..``h8`` (quilt cells), ``w`` (the waste top)
and ``r1``..``r8`` (reserve tops), and the targets ``UC`` ``US`` ``UH`` ``UD`` (the up
piles, ace to king), ``DC`` ``DS`` ``DH`` ``DD`` (the down piles, king to ace), ``w``
(onto the waste top) and ``r1``..``r8`` (onto a reserve top).  As in the other
families, ``-`` is read as ``>`` (``c4-UH`` needs no quoting in a shell).  The stock games add the
words ``turn`` and ``redeal``.  The action index is ``FIRST_MOVE + source * 17 + target``
(sources: cells 0..63, waste 64, reserves 65..72; targets: up piles 0..3, down piles
4..7, waste 8, reserves 9..16), then ``TURN`` and ``REDEAL``; index order is the
canonical order of :meth:`QuiltState.legal_actions`.
"""

from __future__ import annotations

import zlib

from .cards import CODES, SUITS, code, parse_face
from .errors import BadAction, IllegalAction
from .game import FIRST_ACTION, LOST, PLAYING, WON, State, Variant
from .numbering import Deal, dealing_order

ROWS = COLS = 8
CELLS = ROWS * COLS  # 64
OFF = CELLS  # a sentinel cell off the quilt, always empty
EMPTY = -1
ROW_NAMES = "abcdefgh"
DECK_CARDS = 104
RESERVES = 8

# places
WASTE = CELLS  # source 64
FIRST_RESERVE = CELLS + 1  # sources 65..72
SOURCES = CELLS + 1 + RESERVES  # 73
UP, DOWN = 0, 4  # target = UP + suit or DOWN + suit
TO_WASTE = 8
TO_RESERVE = 9  # targets 9..16
TARGETS = 9 + RESERVES  # 17

FIRST_MOVE = FIRST_ACTION
TURN = FIRST_MOVE + SOURCES * TARGETS
REDEAL = TURN + 1
ACTION_COUNT = REDEAL + 1

# the eight bases: deck 0's aces (up piles) and kings (down piles), clubs spades hearts diamonds
UP_BASES = (0, 13, 26, 39)
DOWN_BASES = (12, 25, 38, 51)
BASES = frozenset(UP_BASES + DOWN_BASES)

# kinds of action
CELL_TO_FOUNDATION, CELL_TO_WASTE, WASTE_TO_FOUNDATION = 1, 2, 3
CELL_TO_RESERVE, RESERVE_TO_FOUNDATION, RESERVE_TO_RESERVE = 4, 5, 6
TURN_KIND, REDEAL_KIND = 7, 8


def move_action(source: int, target: int) -> int:
    return FIRST_MOVE + source * TARGETS + target


def split(action: int) -> tuple[int, int]:
    """A move action -> (source, target)."""
    return divmod(action - FIRST_MOVE, TARGETS)


# --- cells --------------------------------------------------------------------------------

def cell_name(cell: int) -> str:
    return f"{ROW_NAMES[cell // COLS]}{cell % COLS + 1}"


def parse_cell(text: str) -> int:
    t = text.strip().lower()
    if len(t) == 2 and t[0] in ROW_NAMES and t[1] in "12345678":
        return ROW_NAMES.index(t[0]) * COLS + int(t[1]) - 1
    raise BadAction(f"not a quilt cell: {text!r} (cells are a1..h8: row a-h, column 1-8)")


def orientation(cell: int) -> str:
    """``'vertical'`` when row + column (both from 0) is even, else ``'horizontal'``."""
    return "vertical" if (cell // COLS + cell % COLS) % 2 == 0 else "horizontal"


def _short_side_neighbours(cell: int) -> tuple[int, int]:
    """The two cells touching the card's short sides (OFF beyond the quilt's edge)."""
    r, c = divmod(cell, COLS)
    if (r + c) % 2 == 0:  # vertical: above and below
        return (cell - COLS if r > 0 else OFF, cell + COLS if r < ROWS - 1 else OFF)
    return (cell - 1 if c > 0 else OFF, cell + 1 if c < COLS - 1 else OFF)


_NEIGHBOURS = tuple(_short_side_neighbours(cell) for cell in range(CELLS))
_N1 = tuple(n[0] for n in _NEIGHBOURS)
_N2 = tuple(n[1] for n in _NEIGHBOURS)
_PLUS_ONE = tuple(range(1, DECK_CARDS + 1)) + (0,)  # card id + 1; EMPTY (-1) -> 0
_FACE_PLUS_ONE = tuple(c % 52 + 1 for c in range(DECK_CARDS)) + (0,)  # face + 1; EMPTY (-1) -> 0
_FACE_OR_NONE = tuple(c % 52 for c in range(DECK_CARDS)) + (255,)  # face; EMPTY (-1) -> 255
_FACE_TABLE = bytes(b % 52 if b < DECK_CARDS else b for b in range(256))  # card id -> face, for translate
# face -> its rank when of the given suit, else 255 (to drop): per suit, for translate
_SUIT_RANKS = tuple(bytes(b - 13 * s if 13 * s <= b < 13 * s + 13 else 255 for b in range(256))
                    for s in range(4))


def source_name(source: int) -> str:
    if source < CELLS:
        return cell_name(source)
    if source == WASTE:
        return "w"
    return f"r{source - FIRST_RESERVE + 1}"


def target_name(target: int) -> str:
    if target < 8:
        return ("U" if target < DOWN else "D") + SUITS[target % 4]
    if target == TO_WASTE:
        return "w"
    return f"r{target - TO_RESERVE + 1}"


_SUIT_LETTER = {"C": 0, "S": 1, "H": 2, "D": 3, "♣": 0, "♠": 1, "♥": 2, "♦": 3,
                "♧": 0, "♤": 1, "♡": 2, "♢": 3}
_DIRECTION = {"+": UP, "U": UP, "-": DOWN, "D": DOWN}
ANY_FOUNDATION = -1  # the target "F": whichever foundation takes the card


def _parse_reserve(t: str) -> int | None:
    if len(t) == 2 and t[0] == "R" and t[1] in "12345678":
        return int(t[1]) - 1
    return None


def parse_source(text: str) -> int | None:
    """``a1``..``h8``, ``w``, ``r1``..``r8`` -> source place; None when the text is no place."""
    t = text.strip().upper()
    if t == "W":
        return WASTE
    reserve = _parse_reserve(t)
    if reserve is not None:
        return FIRST_RESERVE + reserve
    if len(t) == 2 and t[0].lower() in ROW_NAMES and t[1] in "12345678":
        return parse_cell(t)
    return None


def parse_target(text: str) -> tuple[int | None, int | None]:
    """Target text -> (target, None), or (None, UP/DOWN/ANY_FOUNDATION) when the card decides.

    ``UH``/``+H``/``U♥`` up pile of hearts, ``DH``/``-H`` down pile, ``U``/``D``/``+``/``-``
    the up/down pile of the moving card's suit, ``F`` whichever foundation takes it, ``w``
    the waste, ``r1``..``r8`` a reserve.
    """
    t = text.strip().upper()
    if t == "F":
        return None, ANY_FOUNDATION
    if t == "W":
        return TO_WASTE, None
    reserve = _parse_reserve(t)
    if reserve is not None:
        return TO_RESERVE + reserve, None
    if t in ("UP", "DOWN"):
        t = t[0]
    if t and t[0] in _DIRECTION:
        direction = _DIRECTION[t[0]]
        rest = t[1:]
        if not rest:
            return None, direction
        if rest in _SUIT_LETTER:
            return direction + _SUIT_LETTER[rest], None
    raise BadAction(f"not a target: {text!r} (targets are UC US UH UD up piles, DC DS DH DD "
                    "down piles, F either, w the waste, r1..r8 the reserves)")


_PILE_NAMES = ("clubs", "spades", "hearts", "diamonds")


def pile_name(target: int) -> str:
    return f"the {'up' if target < DOWN else 'down'} pile of {_PILE_NAMES[target % 4]}"


class AmbiguousAction(IllegalAction):
    """A shorthand that names more than one legal action here."""


# --- the position -------------------------------------------------------------------------

class QuiltState(State):
    """A quilt position.

    ``cells`` holds 65 entries, the last (``OFF``) always empty, so that availability is
    two look-ups.  ``stock`` (top last), ``waste`` (top last), the foundation piles and
    the reserves (top last) are tuples, replaced when they change, so that a snapshot can
    share them.  ``loc[card]`` is the card's quilt cell or -1; ``need[pile]`` the face the
    pile takes next (-1 once complete).
    """

    __slots__ = ("cells", "stock", "waste", "found", "reserves", "loc", "need", "in_quilt",
                 "on_found")

    variant: "QuiltVariant"

    def __init__(self, variant: "QuiltVariant", deal: Deal | None) -> None:
        self.variant = variant
        self.redeals_used = 0
        self.status = PLAYING
        if deal is None:
            return  # filled by arranged()
        order, _rng = dealing_order(deal, DECK_CARDS)  # no draw after the deal: rng not kept
        rest = [card for card in order if card not in BASES]
        self.cells = rest[:CELLS] + [EMPTY]
        others = rest[CELLS:]
        if variant.has_reserves:
            self.stock = ()
            self.waste = ()
            self.reserves = [tuple(others[k::RESERVES]) for k in range(RESERVES)]
        else:
            self.stock = tuple(reversed(others))  # the next card dealt is the last
            self.waste = ()
            self.reserves = [()] * RESERVES
        self.found = [(card,) for card in UP_BASES + DOWN_BASES]
        self._reindex()
        self.update_status()

    @classmethod
    def arranged(cls, variant: "QuiltVariant", *, quilt, stock=(), waste=(), foundations=None,
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
        self.score = self.on_found - 8

    def _pile_need(self, pile: int) -> int:
        n = len(self.found[pile])
        if n >= 13:
            return -1
        suit = pile % 4
        return suit * 13 + (n if pile < DOWN else 12 - n)

    # --- the quilt ------------------------------------------------------------------------
    def is_available(self, cell: int) -> bool:
        """Whether a card lies in ``cell`` and one of its short sides touches no card."""
        cells = self.cells
        return cells[cell] != EMPTY and (cells[_N1[cell]] == EMPTY or cells[_N2[cell]] == EMPTY)

    def available(self) -> list[int]:
        """The cells whose cards are available now, row-major."""
        cells = self.cells
        return [cell for cell in range(CELLS)
                if cells[cell] != EMPTY and (cells[_N1[cell]] == EMPTY or cells[_N2[cell]] == EMPTY)]

    orientation = staticmethod(orientation)

    def top(self, source: int) -> int:
        """The card at a source place (a cell, the waste top, a reserve top), or EMPTY."""
        if source < CELLS:
            return self.cells[source]
        pile = self.waste if source == WASTE else self.reserves[source - FIRST_RESERVE]
        return pile[-1] if pile else EMPTY

    # --- legality -------------------------------------------------------------------------
    def _why_not(self, action: int) -> str | None:
        """None when ``action`` is legal here, else the reason, one line."""
        variant = self.variant
        if self.status == WON:
            return "the game is won"
        kind = variant.kinds[action] if 0 <= action < ACTION_COUNT else 0
        if not kind:
            return f"not a {variant.id} action: {action}"
        if kind == TURN_KIND:
            if self.stock:
                return None
            if self.waste and self.redeals_used < variant.redeals:
                return "the stock is empty: redeal to turn the waste over"
            return "the stock is empty"
        if kind == REDEAL_KIND:
            if self.stock:
                return "the stock is not empty yet: a redeal turns the waste over only when it is"
            if not self.waste:
                return "nothing to redeal: the waste is empty"
            if self.redeals_used >= variant.redeals:
                return "no redeals left"
            return None
        source, target = split(action)
        card = self.top(source)
        if card == EMPTY:
            if source < CELLS:
                return f"{cell_name(source)} is empty"
            return "the waste is empty" if source == WASTE else f"{source_name(source)} is empty"
        if source < CELLS and not (self.cells[_N1[source]] == EMPTY or self.cells[_N2[source]] == EMPTY):
            return f"{cell_name(source)} ({code(card)}) is not available: both its short sides touch cards"
        face = card % 52
        if target < 8:
            if self.need[target] == face:
                return None
            if self.need[target] < 0:
                return f"{code(card)} cannot go to {pile_name(target)}: it is complete"
            return (f"{code(card)} does not fit {pile_name(target)}: it takes "
                    f"{CODES[self.need[target]]} next")
        if target == TO_WASTE:
            if not self.waste:
                return "the waste is empty: a quilt card goes only onto a waste card"
            under = self.waste[-1] % 52
            if under // 13 == face // 13 and (face - under == 1 or under - face == 1):
                return None
            return f"{code(card)} does not go on the waste's {code(under)}: same suit, one rank up or down"
        reserve = self.reserves[target - TO_RESERVE]
        if not reserve:
            if source >= FIRST_RESERVE and len(self.reserves[source - FIRST_RESERVE]) == 1:
                return f"{source_name(source)} holds one card: moving it to an empty reserve changes nothing"
            return None
        under = reserve[-1] % 52
        if under // 13 == face // 13 and (face - under == 1 or under - face == 1):
            return None
        return (f"{code(card)} does not go on {target_name(target)}'s {code(under)}: "
                "same suit, one rank up or down")

    def is_legal(self, action: int) -> bool:
        return self._why_not(action) is None

    def legal_actions(self) -> list[int]:
        if self.status == WON:
            return []
        cells, need = self.cells, self.need
        reserves_game = self.variant.has_reserves
        actions = []
        if reserves_game:
            onto, empty = self._reserve_targets()
        waste_face = self.waste[-1] % 52 if self.waste else -1
        if reserves_game and empty:
            movable = self.available()  # any of them may go to an empty reserve
        else:
            # only a card that some pile takes can move: look those cards up
            wanted = [f for f in need if f >= 0]
            if reserves_game:
                wanted += onto
            elif waste_face >= 0:
                wanted += (f for f in (waste_face - 1, waste_face + 1) if _adjacent(f, waste_face))
            loc = self.loc
            movable = []
            for face in wanted:
                for card in (face, face + 52):
                    cell = loc[card]
                    if cell >= 0 and (cells[_N1[cell]] == EMPTY or cells[_N2[cell]] == EMPTY):
                        movable.append(cell)
            movable = sorted(set(movable))
        for cell in movable:
            face = cells[cell] % 52
            base = FIRST_MOVE + cell * TARGETS
            if face in need:
                for pile in range(8):
                    if need[pile] == face:
                        actions.append(base + pile)
            if reserves_game:
                fitting = onto.get(face)
                if fitting:
                    targets = sorted(fitting + empty) if empty else fitting
                else:
                    targets = empty
                for k in targets:
                    actions.append(base + TO_RESERVE + k)
            elif waste_face >= 0 and _adjacent(face, waste_face):
                actions.append(base + TO_WASTE)
        if waste_face >= 0 and waste_face in need:
            base = FIRST_MOVE + WASTE * TARGETS
            for pile in range(8):
                if need[pile] == waste_face:
                    actions.append(base + pile)
        if reserves_game:
            for k, reserve in enumerate(self.reserves):
                if not reserve:
                    continue
                face = reserve[-1] % 52
                base = FIRST_MOVE + (FIRST_RESERVE + k) * TARGETS
                if face in need:
                    for pile in range(8):
                        if need[pile] == face:
                            actions.append(base + pile)
                fitting = onto.get(face, [])
                targets = fitting if len(reserve) == 1 or not empty else sorted(fitting + empty)
                for j in targets:
                    actions.append(base + TO_RESERVE + j)
        elif self.stock:
            actions.append(TURN)
        elif self.waste and self.redeals_used < self.variant.redeals:
            actions.append(REDEAL)
        return actions

    def _reserve_targets(self) -> tuple[dict[int, list[int]], list[int]]:
        """(face -> reserves whose top it fits, in order; the empty reserves)."""
        onto: dict[int, list[int]] = {}
        empty = []
        for k, reserve in enumerate(self.reserves):
            if not reserve:
                empty.append(k)
                continue
            top = reserve[-1] % 52
            rank = top % 13
            if rank:
                onto.setdefault(top - 1, []).append(k)
            if rank != 12:
                onto.setdefault(top + 1, []).append(k)
        return onto, empty

    def has_action(self) -> bool:
        """Whether any action is legal (cheap: the usual cases are decided at once)."""
        if self.variant.has_reserves:
            return self._reserve_game_has_action()
        if self.stock or (self.waste and self.redeals_used < self.variant.redeals):
            return True
        need, loc, cells = self.need, self.loc, self.cells
        wanted = [f for f in need if f >= 0]
        if self.waste:
            face = self.waste[-1] % 52
            if face in wanted:
                return True
            if face % 13 != 12:
                wanted.append(face + 1)
            if face % 13 != 0:
                wanted.append(face - 1)
        for face in wanted:
            for card in (face, face + 52):
                cell = loc[card]
                if cell >= 0 and (cells[_N1[cell]] == EMPTY or cells[_N2[cell]] == EMPTY):
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
            for pile in reserves:
                if len(pile) > 1:
                    return True
        tops = {pile[-1] % 52 for pile in reserves if pile}
        if not tops.isdisjoint(need):
            return True
        loc, cells = self.loc, self.cells
        wanted = [face for face in need if face >= 0]
        for face in tops:
            rank = face % 13
            if rank != 12:
                if face + 1 in tops:
                    return True  # the two tops go onto each other
                wanted.append(face + 1)
            if rank:
                wanted.append(face - 1)
        for face in wanted:
            cell = loc[face]
            if cell >= 0 and (cells[_N1[cell]] == EMPTY or cells[_N2[cell]] == EMPTY):
                return True
            cell = loc[face + 52]
            if cell >= 0 and (cells[_N1[cell]] == EMPTY or cells[_N2[cell]] == EMPTY):
                return True
        return False

    def update_status(self) -> None:
        if self.on_found == DECK_CARDS:
            self.status = WON
        elif self.has_action():  # cheap where it can be: a stock to turn decides at once
            self.status = PLAYING
        else:
            self.status = LOST

    def update_won(self) -> None:
        self.status = WON if self.on_found == DECK_CARDS else PLAYING

    # --- playing --------------------------------------------------------------------------
    def apply(self, action: int) -> None:
        kinds = self.variant.kinds
        kind = kinds[action] if 0 <= action < ACTION_COUNT else 0
        if kind == TURN_KIND:
            stock = self.stock
            if not stock or self.status == WON:
                raise IllegalAction(self._why_not(action))
            self.waste += (stock[-1],)
            self.stock = stock[:-1]
        elif kind == CELL_TO_FOUNDATION:
            # the hot path, written out
            cell, pile = divmod(action - FIRST_MOVE, TARGETS)
            cells = self.cells
            card = cells[cell]
            if (card == EMPTY or self.need[pile] != card % 52
                    or not (cells[_N1[cell]] == EMPTY or cells[_N2[cell]] == EMPTY)):
                raise IllegalAction(self._why_not(action))
            cells[cell] = EMPTY
            self.loc[card] = -1
            self.in_quilt -= 1
            self._found_push(pile, card)
        else:
            reason = self._why_not(action)
            if reason is not None:
                raise IllegalAction(reason)
            if kind == REDEAL_KIND:
                self.stock = self.waste[::-1]  # the card first dealt to the waste comes first
                self.waste = ()
                self.redeals_used += 1
            else:
                source, target = split(action)
                card = self._take(source)
                if target < 8:
                    self._found_push(target, card)
                elif target == TO_WASTE:
                    self.waste += (card,)
                else:
                    k = target - TO_RESERVE
                    self.reserves[k] += (card,)
        self.update_status()

    def _take(self, source: int) -> int:
        if source < CELLS:
            card = self.cells[source]
            self.cells[source] = EMPTY
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
        return card

    def _found_push(self, pile: int, card: int) -> None:
        found = self.found[pile] + (card,)
        self.found[pile] = found
        n = len(found)
        if n >= 13:
            self.need[pile] = -1
        else:
            self.need[pile] += 1 if pile < DOWN else -1
        self.on_found += 1
        self.score = self.on_found - 8

    # --- what a solver may use (core/game.py, "What a solver may use") --------------------
    def action_rank(self, action: int) -> int:
        """How promising an action looks at a glance (higher first); the simple player's
        look-ahead (core/autoplay.py) and the solver order actions by it."""
        if action == TURN:
            return 20
        if action == REDEAL:
            return 1
        source, target = split(action)
        if target < 8:
            rank = 100
            if source < CELLS:
                rank += self._frees(source)
            return rank
        if target == TO_WASTE:
            return 50 + self._frees(source)
        # onto a reserve
        onto = self.reserves[target - TO_RESERVE]
        if source < CELLS:
            return (40 if onto else 10) + self._frees(source)
        pile = self.reserves[source - FIRST_RESERVE]
        need = self.need
        for depth in range(1, min(len(pile), 40)):
            if pile[-1 - depth] % 52 in need:
                return 60 - depth  # digs towards a card a foundation takes
        if len(pile) == 1:
            return 30  # empties a reserve (onto a card: a lone card never goes to an empty one)
        return 3 if onto else 2

    #: how many orders of the actions :meth:`search_actions` offers (order 0 the usual one)
    search_orders = 8
    #: the spread of the other orders: a jitter of up to this much on action_rank's scale
    ORDER_JITTER = 60

    def search_actions(self, order: int = 0) -> list[int]:
        """The legal actions, by :meth:`action_rank` (order 0), or by the rank plus a jitter
        (up to ORDER_JITTER) fixed by the position, the action and ``order`` (its CRC-32).

        The ranks are rough: which of two near-equal moves comes first (build on the waste or
        turn, this foundation move or that) decides much, and an order that always makes the
        same choice goes the same wrong way from every position of a deal.  Orders 1.. rank
        the near-equals as other players would, each the same on every machine; with the
        same position key (copies of a card alike) they give the same order.
        """
        actions = self.legal_actions()
        if len(actions) > 1:
            rank = self.action_rank
            if order:
                salt = zlib.crc32(self.search_key(), order)
                scale = self.ORDER_JITTER / 4294967296

                def rank(action: int, plain=rank) -> float:
                    return plain(action) + zlib.crc32(action.to_bytes(2, "little"), salt) * scale
            actions.sort(key=rank, reverse=True)
        return actions

    def dead_end(self) -> bool:
        """True when the game can no longer be won (for the search; False may still be a dead
        end): the waste is blocked for good (:meth:`waste_blocked`), or some suit could not be
        finished even if every quilt card were free to play at any time (:func:`_suit_stuck`)."""
        if self.variant.has_reserves:
            return False
        if self.waste_blocked():
            return True
        need, redeals = self.need, self.variant.redeals - self.redeals_used
        cells = bytes(map(_FACE_OR_NONE.__getitem__, self.cells))
        waste = bytes(self.waste).translate(_FACE_TABLE)
        stock = bytes(reversed(self.stock)).translate(_FACE_TABLE)
        for suit in range(4):
            ranks = _SUIT_RANKS[suit]
            in_waste = waste.translate(ranks).replace(b"\xff", b"")
            in_stock = stock.translate(ranks).replace(b"\xff", b"")
            if not in_waste and not in_stock:
                continue  # only quilt cards left: free in this relaxation
            free = bytes(sorted(cells.translate(ranks).replace(b"\xff", b"")))
            up, down = need[UP + suit], need[DOWN + suit]
            if _suit_stuck(13 if up < 0 else up % 13, -1 if down < 0 else down % 13, free, in_waste,
                           in_stock, redeals):
                return True
        return False

    def waste_blocked(self) -> bool:
        """With no redeal left the waste only ever loses its top card, to a foundation, so the
        waste's cards of one suit, read top down, must split into a rising run for the up
        pile (above what it holds) and a falling run for the down pile (below what it holds);
        True when they cannot.  (The simple player's look-ahead uses this test alone.)
        """
        if self.variant.has_reserves or self.redeals_used < self.variant.redeals or len(self.waste) < 2:
            return False
        runs: list[list[int]] = [[], [], [], []]
        for card in reversed(self.waste):
            face = card % 52
            runs[face // 13].append(face % 13)
        for suit, run in enumerate(runs):
            if len(run) < 2:
                continue
            # (highest rank on the up pile, lowest on the down pile) still possible
            ends = {(len(self.found[UP + suit]) - 1, 13 - len(self.found[DOWN + suit]))}
            for r in run:
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

    def _frees(self, cell: int) -> int:
        """How many cards become available when ``cell`` empties (0..4)."""
        cells = self.cells
        freed = 0
        r, c = divmod(cell, COLS)
        for n in ((cell - COLS) if r else -1, (cell + COLS) if r < ROWS - 1 else -1,
                  (cell - 1) if c else -1, (cell + 1) if c < COLS - 1 else -1):
            if n >= 0 and cells[n] != EMPTY:
                # n's short side touches cell only if they are aligned that way
                if cell in (_N1[n], _N2[n]) and cells[_N1[n] if _N2[n] == cell else _N2[n]] != EMPTY:
                    freed += 1
        return freed

    #: every win scores the same, so a safe action never costs a win any score
    safe_keeps_score = True

    def search_key(self) -> bytes:
        """The position by faces: the two decks' copies of a card obey the same rules, so
        positions that differ only in which copy lies where have the same future; the
        reserves (Persian Carpet) are all alike, so their order does not matter either."""
        parts = [bytes(map(_FACE_PLUS_ONE.__getitem__, self.cells)), bytes(map(len, self.found)),
                 bytes(self.stock).translate(_FACE_TABLE), bytes(self.waste).translate(_FACE_TABLE)]
        if self.variant.has_reserves:
            parts += sorted(bytes(pile).translate(_FACE_TABLE) for pile in self.reserves)
        parts.append(bytes((self.redeals_used,)))
        return b"\xff".join(parts)

    def safe_action(self) -> int | None:
        """A card to its foundation where that cannot spoil a win: the card's suit is
        *crossed*, its up pile needing a higher rank than its down pile.

        Then every card of the suit still in play has one copy left and one pile to go to,
        and nothing placed on the card (on the waste or a reserve) could ever do better than
        go up itself: a run built on it must go up (or down) in order anyway.
        """
        need = self.need
        for suit in range(4):
            up, down = need[UP + suit], need[DOWN + suit]
            if (13 if up < 0 else up % 13) <= (-1 if down < 0 else down % 13):
                continue
            for pile in (UP + suit, DOWN + suit):
                face = need[pile]
                if face < 0:
                    continue
                action = self._play_of(face, pile)
                if action is not None:
                    return action
        return None

    def _play_of(self, face: int, pile: int) -> int | None:
        """A legal move of a card with ``face`` to ``pile``, from the quilt, the waste or a reserve."""
        cells, loc = self.cells, self.loc
        for card in (face, face + 52):
            cell = loc[card]
            if cell >= 0 and (cells[_N1[cell]] == EMPTY or cells[_N2[cell]] == EMPTY):
                return move_action(cell, pile)
        if self.waste and self.waste[-1] % 52 == face:
            return move_action(WASTE, pile)
        for k, reserve in enumerate(self.reserves):
            if reserve and reserve[-1] % 52 == face:
                return move_action(FIRST_RESERVE + k, pile)
        return None

    def progress(self) -> int:
        return self.on_found * 4 - self.in_quilt

    def win_score_bound(self, moves: int) -> int:
        return DECK_CARDS - 8  # every win puts every card up: its score is fixed

    # --- saving ---------------------------------------------------------------------------
    def snapshot(self) -> tuple:
        return (tuple(self.cells), self.stock, self.waste, tuple(self.found), tuple(self.reserves),
                self.redeals_used, self.status)

    def restore(self, snap: tuple) -> None:
        cells, self.stock, self.waste, found, reserves, self.redeals_used, self.status = snap
        self.cells = list(cells)
        self.found = list(found)
        self.reserves = list(reserves)
        self._reindex()

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
        positions exactly.
        """
        parts = [bytes(map(_PLUS_ONE.__getitem__, self.cells[:CELLS])), bytes(reversed(self.stock)),
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


#: answers of _suit_stuck already worked out (the same suit situation recurs all through a search)
_STUCK: dict = {}
#: positions _suit_stuck may look at before it gives up (and says "not stuck")
_STUCK_BUDGET = 20000


def _suit_stuck(up: int, down: int, free: tuple, waste: tuple, stock: tuple, redeals: int) -> bool:
    """Whether one suit could not be finished even if its quilt cards were free to play at any
    moment (a relaxation: every real win gives a win here, so True proves a dead end).

    ``up``/``down``: the ranks the two piles take next (13 and -1 once complete); ``free``:
    the ranks of the suit's quilt cards, sorted; ``waste`` (bottom first) and ``stock`` (next
    first): the ranks of the suit's cards there, the other suits left out (they only block
    more); ``redeals`` left.  Ranks come as bytes.  The
    relaxed game is searched exhaustively, up to _STUCK_BUDGET positions (then: not stuck).
    """
    memo = (up, down, free, waste, stock, redeals)
    known = _STUCK.get(memo)
    if known is not None:
        return known
    counts = [0] * 13
    for rank in free:
        counts[rank] += 1
    start = (up, down, tuple(counts), tuple(waste), tuple(stock), redeals)
    seen = {start}
    todo = [start]
    stuck = True
    while todo:
        if len(seen) > _STUCK_BUDGET:
            stuck = False  # gave up: no proof
            break
        u, d, fr, wa, st, rd = todo.pop()
        # plays that cannot hurt here, made at once: a card whose rank only one pile still
        # takes (the suit crossed), a quilt card when both copies are in the quilt, the waste
        # top when the other copy is in the quilt (it can serve the other pile at any time)
        while True:
            crossed = u > d
            if wa and wa[-1] == u and (crossed or fr[u]):
                u, wa = u + 1, wa[:-1]
            elif wa and wa[-1] == d and (crossed or fr[d]):
                d, wa = d - 1, wa[:-1]
            elif u <= 12 and fr[u] and (crossed or fr[u] == 2):
                fr, u = fr[:u] + (fr[u] - 1,) + fr[u + 1:], u + 1
            elif d >= 0 and fr[d] and (crossed or fr[d] == 2):
                fr, d = fr[:d] + (fr[d] - 1,) + fr[d + 1:], d - 1
            else:
                break
        if u > 12 and d < 0:
            stuck = False
            break
        children = []
        if wa:
            top = wa[-1]
            if top == u:
                children.append((u + 1, d, fr, wa[:-1], st, rd))
            if top == d:
                children.append((u, d - 1, fr, wa[:-1], st, rd))
        if u <= 12 and fr[u]:
            children.append((u + 1, d, fr[:u] + (fr[u] - 1,) + fr[u + 1:], wa, st, rd))
        if d >= 0 and fr[d]:
            children.append((u, d - 1, fr[:d] + (fr[d] - 1,) + fr[d + 1:], wa, st, rd))
        if st:
            children.append((u, d, fr, wa + st[:1], st[1:], rd))
        elif wa and rd:
            children.append((u, d, fr, (), wa, rd - 1))  # the first dealt to the waste comes first
        for child in children:
            if child not in seen:
                seen.add(child)
                todo.append(child)
    if len(_STUCK) > 200_000:
        _STUCK.clear()
    _STUCK[memo] = stuck
    return stuck


def _adjacent(face: int, other: int) -> bool:
    """Same suit and one rank apart (ace and king are not)."""
    return face // 13 == other // 13 and (face - other == 1 or other - face == 1)


# --- the variants -------------------------------------------------------------------------

class QuiltVariant(Variant):
    family = "quilt"
    action_count = ACTION_COUNT

    def __init__(self, id: str, *, source: str, summary: str, redeals: int, has_reserves: bool) -> None:
        super().__init__(id, source=source, summary=summary, rules=_quilt_rules)
        self.redeals = redeals
        self.has_reserves = has_reserves
        self.hidden_information = not has_reserves  # the stock is face down; reserves are face up
        self.words = {} if has_reserves else {"turn": TURN, "redeal": REDEAL}
        self.kinds = self._kinds()

    def _kinds(self) -> list[int]:
        kinds = [0] * ACTION_COUNT
        for source in range(SOURCES):
            for target in range(TARGETS):
                kinds[move_action(source, target)] = _kind(source, target, self.has_reserves)
        if not self.has_reserves:
            kinds[TURN] = TURN_KIND
            kinds[REDEAL] = REDEAL_KIND
        return kinds

    def valid_index(self, action: int) -> bool:
        return 0 <= action < ACTION_COUNT and self.kinds[action] != 0

    def new_state(self, deal: Deal) -> QuiltState:
        return QuiltState(self, deal)

    def action_text(self, action: int) -> str:
        if not self.valid_index(action):
            raise BadAction(f"not a {self.id} action: {action}")
        if action == TURN:
            return "turn"
        if action == REDEAL:
            return "redeal"
        source, target = split(action)
        return f"{source_name(source)}>{target_name(target)}"

    def parse_canonical(self, text: str) -> int:
        """Canonical text -> action; the shell-friendly ``c4-UH`` is read as ``c4>UH``."""
        t = text.strip()
        if ">" not in t and "-" in t:
            t = t.replace("-", ">", 1)
        return super().parse_canonical(t)

    def parse_move(self, text: str, state: State) -> int:
        """``c4>UH`` (canonical; ``c4-UH`` too), ``c4>U``/``c4>D`` (the card's own suit), ``c4>F``
        (whichever foundation takes it), ``7H>UH``/``7H>w`` (a card shown at one place),
        ``c4``/``w``/``r3`` (the one move from that place), ``7H`` (the one move of that card,
        to a foundation if it has one).  Foundation moves first; two or more: an error."""
        assert isinstance(state, QuiltState)
        t = text.strip()
        separator = ">" if ">" in t else "-" if "-" in t else None
        if separator is not None:
            left, _, right = t.partition(separator)
            target, direction = parse_target(right)
            source = parse_source(left)
            if source is not None:
                self._check_source(source)
                if target is not None:
                    return self._checked(move_action(source, target))
                if direction == ANY_FOUNDATION:
                    return self._resolve(state, t, lambda s, t_: s == source and t_ < 8,
                                         f"no foundation takes the card at {source_name(source)} now")
                card = state.top(source)
                if card == EMPTY:
                    raise IllegalAction(f"{source_name(source)} is empty")
                return self._checked(move_action(source, direction + card % 52 // 13))
            face = _parse_card(left)

            def wanted(s: int, t_: int) -> bool:
                if state.top(s) % 52 != face:
                    return False
                if target is not None:
                    return t_ == target
                return t_ < 8 if direction == ANY_FOUNDATION else t_ == direction + face // 13
            return self._resolve(state, t, wanted, f"no {CODES[face]} can go to {right.strip()} now")
        source = parse_source(t)
        if source is not None:
            self._check_source(source)
            return self._resolve(state, t, lambda s, t_: s == source,
                                 f"nothing can move from {source_name(source)} now")
        face = _parse_card(t)
        return self._resolve(state, t, lambda s, t_: state.top(s) % 52 == face,
                             f"no {CODES[face]} can move now")

    # a move between places of the family that this game lacks or never joins is illegal (exit 1)
    def _check_source(self, source: int) -> None:
        if source == WASTE and self.has_reserves:
            raise IllegalAction(f"{self.id} has no waste")
        if source >= FIRST_RESERVE and not self.has_reserves:
            raise IllegalAction(f"{self.id} has no reserves")

    def _checked(self, action: int) -> int:
        if not self.valid_index(action):
            source, target = split(action)
            if target == TO_WASTE:
                why = "has no waste" if self.has_reserves else "takes only quilt cards onto the waste"
            elif target >= TO_RESERVE:
                why = "has no reserves" if not self.has_reserves else "moves a reserve's card only onto another reserve"
            else:
                why = "has no such move"
            raise IllegalAction(f"{self.id} {why}: {source_name(source)}>{target_name(target)}")
        return action

    def _resolve(self, state: "QuiltState", text: str, wanted, none_reason: str) -> int:
        """The one legal move ``wanted(source, target)`` picks, foundation moves first."""
        moves = [a for a in state.legal_actions() if a < TURN and wanted(*split(a))]
        to_foundation = [a for a in moves if split(a)[1] < 8]
        for group in (to_foundation, moves):
            if len(group) == 1:
                return group[0]
            if len(group) > 1:
                options = ", ".join(self.action_text(a) for a in group)
                raise AmbiguousAction(f"{text} is ambiguous here: {options}; type the move in full")
        raise IllegalAction(none_reason)


def _parse_card(text: str) -> int:
    try:
        return parse_face(text)
    except BadAction:
        raise BadAction(f"not a quilt action: {text!r} (moves look like c4>UH, w>DS, c4>w, "
                        "r3>r5, or a card alone like 7H)") from None


def _kind(source: int, target: int, has_reserves: bool) -> int:
    if source < CELLS:
        if target < 8:
            return CELL_TO_FOUNDATION
        if target == TO_WASTE:
            return 0 if has_reserves else CELL_TO_WASTE
        return CELL_TO_RESERVE if has_reserves else 0
    if source == WASTE:
        return WASTE_TO_FOUNDATION if target < 8 and not has_reserves else 0
    if not has_reserves:
        return 0
    if target < 8:
        return RESERVE_TO_FOUNDATION
    if target >= TO_RESERVE and target - TO_RESERVE != source - FIRST_RESERVE:
        return RESERVE_TO_RESERVE
    return 0


# --- the rules, in our own words -------------------------------------------------------------

def _wrap(paragraphs: list[str]) -> str:
    """Paragraphs (a leading "- " makes a list item) wrapped to 90 columns."""
    import textwrap  # only when the rules are asked for

    out = []
    for text in paragraphs:
        if text.startswith("- "):
            out.append(textwrap.fill(text, 90, subsequent_indent="  "))
        else:
            if out:
                out.append("")
            out.append(textwrap.fill(text, 90))
    return "\n".join(out) + "\n"


def _quilt_rules(variant: QuiltVariant) -> str:
    reserves = variant.has_reserves
    text = [
        "Two full decks, 104 cards.",
        "Foundations: eight piles. The ace and the king of each suit from the first deck (card ids "
        "below 52; decision) are the bases: four up piles that start with an ace and are built up in "
        "suit to the king, and four down piles that start with a king and are built down in suit to "
        "the ace (clubs, spades, hearts, diamonds). Of the two copies of every other card, one ends "
        "on the up pile of its suit and the other on the down pile.",
        "Deal (our own; decision): the 104 cards in PySol id order are shuffled with the PySol "
        "generator of the deal number (no Microsoft reorder for 104 cards). Dealing from the top, "
        "the eight bases are taken out wherever they fall; the next 64 cards form the quilt, 8 rows "
        "(a-h) of 8 columns (1-8), dealt row by row from a1 to h8; "
        + ("the other 32 cards are dealt face up to eight reserves r1..r8, one card to each in turn, "
           "four rounds (the rules of Goodsol's \"Persian Rug\"; decision); the last card dealt to a "
           "reserve is its top. There is no stock and no waste."
           if reserves else
           "the other 32 cards are the stock, face down; its top is the next card dealt. The waste "
           "starts empty."),
        "The quilt: a card lies vertically when its row and column, counted from 0, add up to an "
        "even number (a1 is vertical, a2 and b1 horizontal: a chessboard), horizontally otherwise. "
        "A quilt card is available when one of its short sides touches no card: for a vertical card "
        "the cell above or the cell below is empty or beyond the edge; for a horizontal card the "
        "cell to its left or to its right. At the start 16 cards are available (the vertical ones "
        "of rows a and h, the horizontal ones of columns 1 and 8). A cell once emptied stays empty.",
        "Moves:",
    ]
    if reserves:
        text += [
            "- an available quilt card or a reserve's top card goes to a foundation that takes it;",
            "- an available quilt card or a reserve's top card goes onto another reserve's top card "
            "of the same suit and one rank higher or lower (an ace and a king are not neighbours);",
            "- an empty reserve takes any one available quilt card or reserve top card, except a "
            "reserve's only card: moving a lone card from one reserve to another changes nothing "
            "but its number, so it is refused, and a stuck game ends as lost instead of going round "
            "forever (decision).",
            "There is no redeal.",
        ]
    else:
        times = "once per attempt" if variant.redeals == 1 else f"{variant.redeals} times per attempt"
        text += [
            "- an available quilt card or the waste's top card goes to a foundation that takes it;",
            "- an available quilt card goes onto the waste's top card of the same suit and one rank "
            "higher or lower (an ace and a king are not neighbours); an empty waste takes nothing "
            "(decision);",
            "- turn: the stock's top card goes face up onto the waste;",
            f"- redeal ({times}): when the stock is empty and the waste is not, the waste is turned "
            "over as it lies, unshuffled, to be the stock again, so the card first dealt to the "
            "waste is the first dealt again. The quilt cards played onto the waste come back with it.",
        ]
    text += [
        "A card that fits both the up and the down pile of its suit may go to either: two moves. "
        "Nothing ever leaves a foundation.",
        "Notation: SOURCE>TARGET. Sources: a1..h8 (an available quilt card), "
        + ("r1..r8 (a reserve's top card). " if reserves else "w (the waste's top card). ")
        + "Targets: UC US UH UD (the up piles), DC DS DH DD (the down piles), "
        + ("r1..r8 (onto a reserve). For example c4>UH, r2>DS, c4>r3, r3>r5."
           if reserves else
           "w (onto the waste). For example c4>UH, w>DS, c4>w; and the words turn and redeal.")
        + " A dash is read as > (c4-UH needs no quoting in a shell). Input may be in lower case "
        "and use suit symbols; +H and -H mean UH and DH; c4>U and c4>D take the card's own suit, "
        "c4>F whichever foundation takes the card. Shorthands (decision): a card alone (7H) or a "
        f"place alone (c4, {'r3' if reserves else 'w'}) is the one legal move of that card or from "
        "that place, a move to a foundation first; CARD>TARGET (7H>UH) is the one legal move of a "
        "card with that code to that target. When two or more moves qualify, nothing is played and "
        "the error lists them.",
        "Won: all 104 cards on the foundations. Lost: no legal action left; undo still works. "
        "Score: the cards on the foundations beyond the eight bases (0 to 96).",
        "Counted moves: every move" + ("" if reserves else ", every turn and every redeal")
        + " counts one. Hints and undos are free; an undo takes back the last counted action and "
        "restores everything as it was before it, the counter included"
        + ("" if reserves else ", and gives the redeal back if it was one")
        + "; it never winds back the clock. After a win only restart (and hint) is accepted.",
        "Hint: names one legal action and changes nothing else: the first action of a winning line "
        "when the solver (carpet solve) finds one within the hint's budget, else the action its "
        "search found most promising that does not bring back a position already reached in this "
        "attempt" + ("" if reserves else "; a redeal may be named while card moves exist. That is "
                     "hint --peek, which knows the order of the stock (full information); by default "
                     "the hint sees only what the player has seen (What a hint may look at, at the top "
                     "of docs/rules.md)") + ". With the game over it says so.",
        "Restart plays the same deal again from the start: layout, score, counters"
        + ("" if reserves else ", redeals") + " and clock.",
    ]
    return _wrap(text)


VARIANTS = (
    QuiltVariant("crazy-quilt", source="003", redeals=1, has_reserves=False,
                 summary="2 decks, 8x8 quilt, 4 ace-up + 4 king-down foundations, 1 unshuffled redeal"),
    QuiltVariant("indian-carpet", source="003", redeals=2, has_reserves=False,
                 summary="as crazy-quilt with 2 redeals"),
    QuiltVariant("persian-carpet", source="003", redeals=0, has_reserves=True,
                 summary="as crazy-quilt, but the 32 other cards go face up to 8 reserves; no stock"),
)
