"""The grid family's rules, written once: the position and each transition as a small primitive
that plays its action or refuses it, over the board, the deal and the relations of
core/grid/board.py (what a search asks of a position is core/grid/search.py's).

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

from typing import TYPE_CHECKING, Iterable, Sequence

from carpet.core.cards import code, parse_face
from carpet.core.errors import BadAction, IllegalAction
from carpet.core.game import LOST, PLAYING, WON
from carpet.core.numbering import Deal, fast_dealing_order, fast_shuffle

from .board import EMPTY, FIRST_MOVE, OUT, REDEAL, _redeal_plan, gap_spaces
from .search import GridSearch

if TYPE_CHECKING:  # (variants.py imports this file)
    from .variants import GridVariant

_PLUS_ONE = tuple(range(1, 105)) + (0,)  # card id -> id + 1 (position_bytes); EMPTY (-1) -> 0


class GridState(GridSearch):
    __slots__ = ("cells", "where", "prefix", "gaps", "rng", "rng_state")

    variant: GridVariant  # (core/grid/variants.py)

    def __init__(self, variant: GridVariant, deal: Deal) -> None:
        board = variant.board
        order, rng = fast_dealing_order(deal, board.card_count)
        variant.build_tables()
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
    def from_rows(cls, variant: GridVariant, rows: list[list[str | None]]) -> GridState:
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

    def _candidates(self, cell: int) -> Sequence[int]:
        """Movable cards that fit the empty ``cell``, lowest card first (:meth:`candidates`)."""
        return self.candidates((cell,))[0]

    def candidates(self, gaps: Iterable[int]) -> list[Sequence[int]]:
        """For each empty cell of ``gaps``, the movable cards that fit it, lowest card first
        (:meth:`fits`' rule, from the variant's tables; a tuple of them may be the table's own)."""
        v = self.variant
        cols, cells, after, locking = v.cols, self.cells, v.after, v.locking
        left_rule = v.left_rule
        found_all: list[Sequence[int]] = []
        for cell in gaps:
            col = cell % cols
            if col == 0:
                if locking:  # a base card in column 0 is locked
                    where = self.where
                    found_all.append([card for card in v.base_cards if where[card] % cols != 0])
                else:
                    found_all.append(v.base_cards)
                continue
            found: Sequence[int] = after[cells[cell - 1]]
            if locking and len(found) > 1:
                found = [c for c in found if not self.is_locked(c)]
            if left_rule and col < cols - 1:
                extra = [c for c in v.before[cells[cell + 1]] if c not in found and not self.is_locked(c)]
                if extra:
                    found = sorted([*found, *extra])
            found_all.append(found)
        return found_all

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
        move, gaps = self.variant.move, self.gaps
        return [move(card, gap) for gap, cards in zip(gaps, self.candidates(gaps)) for card in cards]

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
