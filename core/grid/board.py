"""The grid family's board: the cells and their names, the action numbers, the deal, where a
redeal leaves its spaces, and the relations the rules are made of (a card following another in
suit; each build rule), each stated once, with the tables of what each allows that every path
reads (:class:`RuleTables`).  core/grid/rules.py plays the transitions over them.
"""

from __future__ import annotations

from typing import Callable

from carpet.core.cards import ACE, KING
from carpet.core.errors import BadAction, IllegalAction
from carpet.core.game import FIRST_ACTION


EMPTY = -1
OUT = -1  # where[card] of a card not on the board (the aces of the Montana deal)

ROW_NAMES = "abcdefghijklmnop"
# the cells the family's notation names (a0..d13, the largest board of its games): one of them
# that a game's board lacks is an illegal action there, anything else no action at all
NOTATION_ROWS, NOTATION_COLS = 4, 14

REDEAL = FIRST_ACTION
FIRST_MOVE = FIRST_ACTION + 1  # move = FIRST_MOVE + card * board.cells + cell

# build rules: which card an empty cell takes beside its left neighbour
SUIT_NEXT = "suit-next"  # the same suit, one rank higher
ANY_SUIT_NEXT = "any-suit-next"  # any suit, one rank higher
SUIT_HIGHER = "suit-higher"  # the same suit, any higher rank


# --- the relations the rules are made of, each stated once; the variant's tables (RuleTables)
# list what each allows, and every path reads them there -----------------------------------------
def follows(card: int, prev: int) -> bool:
    """Whether ``card`` is ``prev``'s successor in suit, whichever deck either comes from: a row's
    prefix grows by it, the suit-next build is it, and the left rule is it seen from the right."""
    return prev != EMPTY and card != EMPTY and prev % 13 != KING and (card - prev) % 52 == 1


def _next_rank(card: int, left: int) -> bool:
    return left != EMPTY and card != EMPTY and left % 13 != KING and card % 13 == left % 13 + 1


def _higher_in_suit(card: int, left: int) -> bool:
    return left != EMPTY and card != EMPTY and card % 52 // 13 == left % 52 // 13 and card % 13 > left % 13


#: each build rule: (card, its left neighbour) -> whether the card may go there
BUILDS: dict[str, Callable[[int, int], bool]] = {SUIT_NEXT: follows, ANY_SUIT_NEXT: _next_rank,
                                                 SUIT_HIGHER: _higher_in_suit}


class RuleTables:
    """What the relations above allow on one board, listed once for every card: indexed by a card
    id, or by EMPTY (-1, the last entry), each a tuple of the cards in play, lowest first, and the
    same as a frozenset.

    - ``after[left]``: the cards the build rule puts right of ``left``;
    - ``before[right]``: the cards the left rule puts left of ``right`` (those ``right`` follows);
    - ``nexts[prev]``: the cards that continue a prefix ending in ``prev`` (those that follow it).
    """

    __slots__ = ("after", "after_set", "before", "before_set", "nexts", "nexts_set")

    def __init__(self, cards: int, in_play: tuple[int, ...], build: Callable[[int, int], bool]) -> None:
        slots = (*range(cards), EMPTY)
        self.nexts = tuple(tuple(c for c in in_play if follows(c, prev)) for prev in slots)
        # each relation asked once a pair (the first action a command replays makes these tables): the
        # suit-next build is ``follows`` itself, and the left rule is ``nexts`` seen from the right
        self.after = self.nexts if build is follows else tuple(tuple(c for c in in_play if build(c, left))
                                                               for left in slots)
        before: list[list[int]] = [[] for _ in slots]
        for c in in_play:  # (lowest first)
            for right in self.nexts[c]:
                before[right].append(c)
        self.before = tuple(map(tuple, before))
        self.after_set = tuple(map(frozenset, self.after))
        self.before_set = tuple(map(frozenset, self.before))
        self.nexts_set = tuple(map(frozenset, self.nexts))


def deal_beside_column_0(order: list[int], board: "Board") -> list[int]:
    """Row by row into columns 1 onwards, column 0 left empty; aces stay where they fall."""
    cells = [EMPTY] * board.cells
    cols, per_row = board.cols, board.cols - 1
    for i, card in enumerate(order):
        cells[(i // per_row) * cols + 1 + i % per_row] = card
    return cells


class Board:
    """A grid game's board and deal.  Коврик's is the default: 4 × 14, aces to column 0.

    An immutable value (written out rather than a frozen dataclass: a command that reads a
    grid game's log loads this module, and a dataclass is built at import)."""

    __slots__ = ("rows", "cols", "decks", "base", "deal")

    def __init__(self, rows: int = 4, cols: int = 14, decks: int = 1, base: int = ACE,
                 deal: Callable[[list[int], "Board"], list[int]] = deal_beside_column_0) -> None:
        set_ = object.__setattr__
        set_(self, "rows", rows)
        set_(self, "cols", cols)
        set_(self, "decks", decks)
        #: the rank column 0 takes (0 = ace); a row's prefix runs from it up to the king
        set_(self, "base", base)
        #: the dealing order (first dealt first) -> the cells, EMPTY where no card lies
        set_(self, "deal", deal)

    def __setattr__(self, name: str, value) -> None:
        raise AttributeError(f"a Board is immutable: cannot set {name}")

    def _key(self) -> tuple:
        return (self.rows, self.cols, self.decks, self.base, self.deal)

    def __reduce__(self):  # copy and pickle make a new one (no attribute may be set afterwards)
        return (Board, self._key())

    def replace(self, **changes) -> "Board":
        """This board with some fields changed (as ``dataclasses.replace``)."""
        fields = dict(zip(self.__slots__, self._key()))
        fields.update(changes)
        return Board(**fields)

    def __eq__(self, other) -> bool:
        return self._key() == other._key() if isinstance(other, Board) else NotImplemented

    def __hash__(self) -> int:
        return hash(self._key())

    def __repr__(self) -> str:
        return (f"Board(rows={self.rows}, cols={self.cols}, decks={self.decks}, base={self.base}, "
                f"deal={self.deal.__name__})")

    @property
    def cells(self) -> int:
        return self.rows * self.cols

    @property
    def card_count(self) -> int:
        """Cards shuffled for the deal (some may be left out of the game by it)."""
        return 52 * self.decks

    @property
    def row_length(self) -> int:
        """Cards in a finished row's prefix: base .. king."""
        return 13 - self.base

    def cell_name(self, cell: int) -> str:
        return f"{ROW_NAMES[cell // self.cols]}{cell % self.cols}"

    def parse_cell(self, text: str) -> int:
        """``b5`` -> its cell.  A cell of the family's notation that this board lacks (``a13`` on a
        4 × 13 board) is an illegal action; anything else (``b14``) is not a cell at all."""
        t = text.strip().lower()
        last = ROW_NAMES[self.rows - 1]
        cells = f"cells are a0..{last}{self.cols - 1}: row a-{last}, column 0-{self.cols - 1}"
        if len(t) >= 2 and t[0] in ROW_NAMES and t[1:].isascii() and t[1:].isdigit():
            row, col = ROW_NAMES.index(t[0]), int(t[1:])
            if row < self.rows and col < self.cols:
                return row * self.cols + col
            if row < NOTATION_ROWS and col < NOTATION_COLS:
                raise IllegalAction(f"no cell {t} on this board ({cells})")
        raise BadAction(f"not a cell: {text!r} ({cells})")


# --- where a shuffled redeal leaves its spaces (a Montana game's redeal, step 3) ----------------
def gap_spaces(targets: list[int], gaps: tuple[int, ...], count: int, rng, board: Board) -> tuple[int, ...]:
    """Each row's gap: its first cell after the prefix."""
    return gaps


def _redeal_plan(rows: int, cols: int, prefix: tuple[int, ...], column_major: bool) -> tuple[tuple, tuple, tuple]:
    """For the given prefix lengths: the targets (every cell after a prefix, row-major), each
    row's gap (its first target), and the cells the loose cards are laid into when the gaps
    stay empty, in laying order."""
    targets = tuple(row * cols + col for row in range(rows) for col in range(prefix[row], cols))
    gaps = tuple(row * cols + prefix[row] for row in range(rows))
    laying = [cell for cell in targets if cell not in gaps]
    if column_major:
        laying.sort(key=lambda cell: (cell % cols, cell // cols))  # fixed order: column by column
    return targets, gaps, tuple(laying)
