"""The grid family's rules, written once: the board, the deal, the position and each transition as
a small primitive that plays its action or refuses it.

Every path runs these: ``Session.act`` (through :meth:`GridState.apply`), the one replay of a log
(``Session.play_events``: the session's loop over core/grid/codes.py's ``play``), the solver, the hint
and the survey players.  A primitive (:meth:`GridState.move`, :meth:`GridState.redeal`) checks its
whole rule and plays it, bringing the status up to date, and returns True, or returns False having
changed nothing; the reason for a refusal is worked out only then (:meth:`GridState.why_not`).

A grid game is a board of rows × columns; cells are numbered row-major,
``row * cols + column``, and named ``a0``, ``b5`` (row letter, column from 0).
What differs between the games is stated by each variant (core/grid/variants.py: Коврик;
core/grid/montana.py: Montana and its relatives), not by this module:

- the :class:`Board`: rows, columns, decks, the *base* rank column 0 takes, and how the
  deal lays the cards (which also decides which cells start empty);
- the variant's arguments: the build rule, the left rule, whether a row's
  prefix locks, the redeal (fixed order or shuffled) and the spaces a shuffled redeal
  leaves, the number of redeals, the score and the session's counting policy.

A row's **prefix** is column 0 holding a base-rank card and the unbroken run of its suit
rising by one to its right (the locked prefix of Коврик, the run of the Montana games).
A row is finished when its prefix reaches the king, and the game is won when every row
is.  Rules as in docs/rules.md, "Grid family" (each game's section).
"""

from __future__ import annotations

from struct import Struct
from typing import Callable

from carpet.core.cards import ACE, KING, code, parse_face
from carpet.core.errors import BadAction, IllegalAction
from carpet.core.game import FIRST_ACTION, LOST, PLAYING, WON, State
from carpet.core.numbering import Deal, fast_dealing_order, fast_shuffle

EMPTY = -1
OUT = -1  # where[card] of a card not on the board (the aces of the Montana deal)
_FACE_PLUS_ONE = tuple(range(1, 53)) * 2 + (0,)  # card id -> face + 1; EMPTY (-1) -> 0
_PLUS_ONE = tuple(range(1, 105)) + (0,)  # card id -> id + 1 (position_bytes); EMPTY (-1) -> 0
# _FACE_PLUS_ONE as a table of bytes.translate over the cells as signed bytes (EMPTY is 255 there)
_FACE_BYTES = bytes(b % 52 + 1 if b < 104 else 0 for b in range(256))


class _CellPackers(dict):
    """A board's cell count -> ``struct.pack`` of its cells as signed bytes (EMPTY is 255 there),
    made when first asked: about twice as fast as filling an ``array("b")`` (search_key and
    search_actions' table ask it at every node of a search)."""

    def __missing__(self, count: int):
        pack = self[count] = Struct(f"{count}b").pack
        return pack


_PACK_CELLS = _CellPackers()

ROW_NAMES = "abcdefghijklmnop"
#: the most positions a variant's table of search_actions' answers holds (then it starts afresh)
RANKED_MEMO = 1 << 16
_RANK_OFFSET = 64  # GridState.search_actions: a move's rank (-29..27) plus this is never negative
# the cells the family's notation names (a0..d13, the largest board of its games): one of them
# that a game's board lacks is an illegal action there, anything else no action at all
NOTATION_ROWS, NOTATION_COLS = 4, 14

REDEAL = FIRST_ACTION
FIRST_MOVE = FIRST_ACTION + 1  # move = FIRST_MOVE + card * board.cells + cell

# build rules: which card an empty cell takes beside its left neighbour
SUIT_NEXT = "suit-next"  # the same suit, one rank higher
ANY_SUIT_NEXT = "any-suit-next"  # any suit, one rank higher
SUIT_HIGHER = "suit-higher"  # the same suit, any higher rank


# --- the relations the rules are made of, each stated once; the variant's tables (rule_tables)
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
        self.after = tuple(tuple(c for c in in_play if build(c, left)) for left in slots)
        self.before = tuple(tuple(c for c in in_play if follows(right, c)) for right in slots)
        self.nexts = tuple(tuple(c for c in in_play if follows(c, prev)) for prev in slots)
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


def clears_by_hand(variant) -> bool:
    """Whether only a move can clear the cell after a row's prefix: no redeal lays the cards out
    again and no lock holds the prefix (Spaces and Aces); the search orders and measures
    progress by it (:meth:`GridState.search_actions`)."""
    return not variant.locking and variant.redeals == 0


class GridState(State):
    __slots__ = ("cells", "where", "prefix", "gaps", "rng", "rng_state")

    variant: "GridVariant"  # (core/grid/variants.py)

    def __init__(self, variant: "GridVariant", deal: Deal) -> None:
        board = variant.board
        order, rng = fast_dealing_order(deal, board.card_count)
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

    @classmethod
    def from_rows(cls, variant: "GridVariant", rows: list[list[str | None]]) -> "GridState":
        """A position given as rows of card codes (None for a gap); for tests and puzzles.

        Prefixes are found as the rules define them; score and redeals start at 0, and the
        generator is deal ms1's.  Single-deck boards only.
        """
        board = variant.board
        state = cls(variant, Deal(1, True))
        cells = [EMPTY if c is None else parse_face(c) for row in rows for c in row]
        if len(rows) != board.rows or len(cells) != board.cells or sorted(c for c in cells if c != EMPTY) != \
                list(variant.cards_in_play):
            raise BadAction(f"a {variant.id} position needs {board.rows} rows of {board.cols} cells "
                            f"holding each card in play once")
        if variant.locking and any(cells[r * board.cols] not in (EMPTY, *variant.base_cards) for r in range(board.rows)):
            raise BadAction("column 0 holds only base-rank cards")
        state.cells = cells
        state._index()
        state._find_prefixes()
        if variant.locking:
            state.score = 0
        state.update_status()
        return state

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
        """Whether the empty ``cell`` accepts ``card`` (the card's own lock is checked elsewhere):
        column 0 the base rank, any other cell the build rule beside its left neighbour or, in
        the games with the left rule, the card its right neighbour follows."""
        v = self.variant
        cols = v.cols
        col = cell % cols
        if col == 0:
            return card % 13 == v.base
        if card in v.after_set[self.cells[cell - 1]]:
            return True
        return v.left_rule and col < cols - 1 and card in v.before_set[self.cells[cell + 1]]

    def fits_left_neighbour(self, card: int, cell: int) -> bool:
        """Whether ``card`` fits the empty ``cell`` (not in column 0) by its left neighbour and the build rule."""
        return card in self.variant.after_set[self.cells[cell - 1]]

    def _candidates(self, cell: int) -> list[int]:
        """Movable cards that fit the empty ``cell``, lowest card first (:meth:`fits`' rule, from
        the variant's tables)."""
        v = self.variant
        cols = v.cols
        col = cell % cols
        if col == 0:
            if v.locking:  # a base card in column 0 is locked
                where = self.where
                return [card for card in v.base_cards if where[card] % cols != 0]
            return list(v.base_cards)
        found = list(v.after[self.cells[cell - 1]])
        if v.locking and len(found) > 1:
            found = [c for c in found if not self.is_locked(c)]
        if v.left_rule and col < cols - 1:
            extra = [c for c in v.before[self.cells[cell + 1]] if c not in found and not self.is_locked(c)]
            if extra:
                found.extend(extra)
                found.sort()
        return found

    def has_card_move(self) -> bool:
        """Whether any card move exists: :meth:`_candidates`, stopping at the first (run after every action).

        A card the build rule puts beside a left neighbour is never locked (a locked card has
        its predecessor in suit on its left, not beside this gap), and without locks any card
        that fits is movable: so a gap whose left neighbour takes a card has a move.
        """
        v = self.variant
        cols = v.cols
        cells = self.cells
        after = v.after
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
            if after[cells[gap - 1]]:
                return True
            if v.left_rule and col < cols - 1:
                for card in v.before[cells[gap + 1]]:
                    if not self.is_locked(card):
                        return True
        return False

    def card_moves(self) -> list[int]:
        """Card moves, by target cell in row-major order, then by card."""
        move = self.variant.move
        return [move(card, gap) for gap in self.gaps for card in self._candidates(gap)]

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
        if self.can_redeal() or self.has_card_move():
            self.status = PLAYING
        else:
            self.status = LOST

    def apply(self, action: int) -> None:
        """Play ``action``, or raise IllegalAction (the reason worked out then) having changed nothing."""
        if action == REDEAL:
            done = self.redeal()
        elif FIRST_MOVE <= action < self.variant.action_count:
            card, cell = divmod(action - FIRST_MOVE, self.variant.cells)
            done = self.move(card, cell)
        else:
            done = False
        if not done:
            raise IllegalAction(self.why_not(action))

    def why_not(self, action: int) -> str:
        """Why ``action`` is refused here (called only on a refusal)."""
        v = self.variant
        if action == REDEAL:
            return "the game is won" if self.status == WON else "no redeals left"
        if not FIRST_MOVE <= action < v.action_count:
            return f"not a {v.id} action: {action}"
        card, cell = divmod(action - FIRST_MOVE, v.cells)
        source = self.where[card]
        if source < 0:  # OUT
            return f"{v.card_text(card)} is not in this game"
        if self.cells[cell] != EMPTY:
            return f"{v.board.cell_name(cell)} is not empty"
        if self.is_locked(card):
            return f"{v.card_text(card)} is locked"
        return f"{v.card_text(card)} does not fit {v.board.cell_name(cell)}"

    def move(self, card: int, cell: int) -> bool:
        """``card`` to the empty ``cell``: played (True), or refused (False, nothing changed) where
        the card is not on the board, the cell is not empty, the card is locked or does not fit."""
        cells = self.cells
        source = self.where[card]
        if source < 0 or cells[cell] != EMPTY:  # OUT; not empty
            return False
        v = self.variant
        cols = v.cols
        prefix = self.prefix
        row = source // cols
        col = source - row * cols
        cut = col < prefix[row]
        if cut and v.locking:
            return False
        if not self.fits(card, cell):
            return False
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
        self.update_status()
        return True

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
        nexts = v.nexts_set
        while length < cols and cells[start + length] in nexts[cells[start + length - 1]]:
            length += 1
        newly = length - self.prefix[row]
        self.prefix[row] = length
        self.score += v.lock_points(newly)

    def redeal(self) -> bool:
        """The redeal: played (True), or refused (False, nothing changed) once the game is won or
        no redeal is left."""
        if not self.can_redeal():  # (False once the game is won)
            return False
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
            fast_shuffle(loose, rng)
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
        self.update_status()
        return True

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

    # --- saving ---------------------------------------------------------------------
    def snapshot(self) -> tuple:
        """The position; ``where`` and the empty cells kept too, so that :meth:`restore` need not
        work them out again (an undo, and the solver at every step back)."""
        return (tuple(self.cells), tuple(self.prefix), self.score, self.redeals_used, self.status, self.rng_state,
                tuple(self.where), tuple(self.gaps))

    def restore(self, snap: tuple) -> None:
        cells, prefix, self.score, self.redeals_used, self.status, rng_state, where, gaps = snap
        self.cells = list(cells)
        self.prefix = list(prefix)
        if rng_state is not self.rng_state:
            self.rng.setstate(rng_state)
            self.rng_state = rng_state
        self.where = list(where)
        self.gaps = list(gaps)

    def layout(self) -> dict:
        cols = self.variant.cols
        return {"grid": [[None if c == EMPTY else code(c) for c in self.cells[r * cols:(r + 1) * cols]]
                         for r in range(self.variant.board.rows)]}

    def position_bytes(self) -> bytes:
        return bytes(map(_PLUS_ONE.__getitem__, self.cells))

    def all_cards(self) -> list[int]:
        return [c for c in self.cells if c != EMPTY]

    def update_won(self) -> None:
        self.status = WON if sum(self.prefix) == self.variant.finished else PLAYING

    # --- what a solver may use (core/game.py, "What a solver may use") ------------------
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

    def search_actions(self, order: int = 0) -> list[int]:
        """Card moves, most promising first, then the redeal; ``order`` 1 (see
        :attr:`search_orders`) takes moves of equal rank highest action first instead of lowest.

        First a move that lengthens a row's prefix; then the others, a move that blocks the
        cell after a prefix with a card that does not continue it last of all, and among
        the rest a move by the left rule alone after one by the left neighbour, a move that
        leaves behind a cell nothing can fill (right of a king or a gap) after one that does
        not, and where nothing locks, a move that takes a card from its predecessor in suit or
        out of a prefix after one that puts it beside its predecessor.

        Where neither a redeal nor a lock ever clears the cell after a prefix (Spaces and Aces),
        only moving its card away does: a move that takes that card away ranks just after a
        move that lengthens a prefix, and a move that empties a cell such a card fits (beside
        a lower card of its suit) comes next.  Measured on Spaces and Aces' deals 3015-3032 at
        the default budget: 4 won of 18 without these two, all 18 with them (README, issue 25).
        """
        if self.status != PLAYING:
            return []
        v = self.variant
        # the card moves and their order depend on the cells and the prefixes alone: worked out
        # once a position and order while the variant's table holds them (a seen game's searches
        # list the same positions again and again: 4 calls in 5 in free-parking, jungle, montana)
        cells = self.cells
        memo = _PACK_CELLS[len(cells)](*cells) + bytes(self.prefix) + bytes((order,))
        moves = v.ranked.get(memo)
        if moves is None:
            ranked = v.ranked
            if len(ranked) >= RANKED_MEMO:
                ranked.clear()
            moves = ranked[memo] = self._ranked_moves(order)
        actions = list(moves)
        if self.can_redeal():
            actions.append(REDEAL)
        return actions

    def _ranked_moves(self, order: int) -> tuple[int, ...]:
        """The card moves of :meth:`search_actions`, in its order."""
        v = self.variant
        cells, where, prefix = self.cells, self.where, self.prefix
        cols, base, locking, after_set, nexts = v.cols, v.base, v.locking, v.after_set, v.nexts_set
        # each move as one int, (rank + _RANK_OFFSET) << 16 | action: sorted as (rank, action)
        first, move = _RANK_OFFSET << 16, v.move
        flip = 0xFFFF if order else 0  # order 1: an action's bits flipped, so the highest sorts first
        ranked = []
        # clearing by hand (see above): the highest rank of each suit's cards that sit in the cell
        # after a prefix (-1: none), and whether any does
        clear = clears_by_hand(v)
        blocking = [-1, -1, -1, -1]
        if clear:
            done = v.board.row_length
            for row, length in enumerate(prefix):
                if 0 < length < done:
                    blocker = cells[row * cols + length]
                    if blocker != EMPTY and blocker % 13 > blocking[blocker % 52 // 13]:
                        blocking[blocker % 52 // 13] = blocker % 13
            clear = blocking != [-1, -1, -1, -1]
        for cell in self.gaps:  # card_moves(), its actions made here, each with its rank
            row = cell // cols
            col = cell - row * cols
            left = cells[cell - 1] if col else EMPTY
            at_prefix = col == prefix[row]
            for card in self._candidates(cell):
                follows = (card % 13 == base) if col == 0 else card in nexts[left]
                rank = 0
                if at_prefix:
                    rank = -16 if follows else 12  # lengthens the prefix / blocks it
                elif col and card not in after_set[left]:
                    rank = 4  # the left rule alone
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
                    if clear:
                        if scol == prefix[srow] and scol:
                            rank -= 8  # it clears the cell after a prefix
                        if scol:
                            behind = cells[source - 1]
                            if behind != EMPTY and behind % 13 < blocking[behind % 52 // 13]:
                                rank -= 4  # a card that sits after a prefix will fit where it leaves
                ranked.append((rank << 16) + first + (move(card, cell) ^ flip))
        ranked.sort()
        return tuple([(ranked_action & 0xFFFF) ^ flip for ranked_action in ranked])

    @property
    def search_orders(self) -> int:
        """Two orders where only a move clears the cell after a prefix (order 1 breaks the ties the
        other way: another row for each ace, other gaps first), else one.  Without a redeal the
        search's first choices decide where it goes, and the solver gives each order half the
        budget: on Spaces and Aces' deals 3001-3011, unknown with one order, 3001 and 3004
        are won in the second (README)."""
        return 2 if clears_by_hand(self.variant) else 1

    def dead_end(self) -> bool:
        from .proofs import dead_end  # (loaded by the search alone, not by every reader of a grid game)

        return dead_end(self)

    #: Spaces and Aces' proof costs several times a node: the solver's first brief search, its
    #: descent and the descent's look-ahead (which steers by progress) go without it; the last
    #: search, which alone can go through every position, prunes by it
    dead_end_guides = False

    @property
    def dead_end_proves(self) -> bool:
        """Whether :meth:`dead_end` can ever say True in this game (else the solver skips it)."""
        from .proofs import applies

        return applies(self.variant)

    @property
    def progress_measures(self) -> int:
        """Two measures of progress where only a move clears the cell after a prefix (see
        :meth:`progress`), else one."""
        return 2 if clears_by_hand(self.variant) else 1

    def progress(self, measure: int = 0) -> int:
        """The cards in the rows' prefixes; where only a move clears the cell after a prefix
        (no redeal, no lock: see :meth:`search_actions`), four a card, two more for each
        such cell that is empty (the next card of the row may go there at once), and less for
        the gaps that take nothing: three for each one right of a king or of another gap, and
        eight more for each one right of a finished row (or of a row whose next cell, empty,
        takes only its king), which stays dead as long as the row stays finished.  Measure 1
        (see :attr:`progress_measures`) leaves the gaps out: the cards and the cleared cells alone,
        the measure before the gaps were counted; each wins deals the other misses (either one
        wins 610 of deals 1-622, README), and the solver makes a descent by each: held out,
        deals 623-1000 at the default budget, 372 won where one measure wins 354 (18 more, none
        fewer; benchmarks/solver_ab.py, README).

        Without a redeal the guided descent (core/descent.py) finds most wins, by this measure;
        counting the cards alone, it finished rows early, left their last cells empty and ran
        out of gaps (issue 25).  Spaces and Aces at the default budget: deals 3001-3100, 96 won
        (92 before: 7 more won, 3 lost); held out, 301-622, 303 (298 before: 16 more won, 11
        lost), within the noise of which deals a greedy descent happens to win (README).
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

