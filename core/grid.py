"""Коврик: the grid family (Montana / Gaps / Spaces and Aces) on 4 rows × 14 columns.

Rules as in RULES.md, "Grid family".  Cells are numbered row-major,
``row * 14 + column``; column 0 is where the aces go.
"""

from __future__ import annotations

import functools

from .cards import ACE, KING, code, parse_face
from .errors import BadAction, IllegalAction
from .game import FIRST_ACTION, LOST, PLAYING, WON, State, Variant
from .numbering import Deal, dealing_order

ROWS, COLS = 4, 14
CELLS = ROWS * COLS
EMPTY = -1
ROW_NAMES = "abcd"

REDEAL = FIRST_ACTION
FIRST_MOVE = FIRST_ACTION + 1  # move = FIRST_MOVE + card * CELLS + cell


def move_action(card: int, cell: int) -> int:
    return FIRST_MOVE + card * CELLS + cell


def cell_name(cell: int) -> str:
    return f"{ROW_NAMES[cell // COLS]}{cell % COLS}"


def parse_cell(text: str) -> int:
    t = text.strip().lower()
    if len(t) >= 2 and t[0] in ROW_NAMES and t[1:].isdigit() and int(t[1:]) < COLS:
        return ROW_NAMES.index(t[0]) * COLS + int(t[1:])
    raise BadAction(f"not a cell: {text!r} (cells are a0..d13: row a-d, column 0-13)")


def _column_major(cell: int) -> int:
    return (cell % COLS) * ROWS + cell // COLS


@functools.lru_cache(maxsize=4096)
def _redeal_plan(locked: tuple[int, ...], shuffled: bool) -> tuple[tuple, tuple, tuple]:
    """For the given prefix lengths: the unlocked cells (row-major), each row's gap (its first
    unlocked cell) and the cells the loose cards are laid into, in laying order."""
    unlocked = tuple(row * COLS + col for row in range(ROWS) for col in range(locked[row], COLS))
    gaps = tuple(row * COLS + locked[row] for row in range(ROWS))
    targets = [cell for cell in unlocked if cell not in gaps]
    if not shuffled:
        targets.sort(key=_column_major)  # fixed order: laid column by column
    return unlocked, gaps, tuple(targets)


class GridState(State):
    __slots__ = ("cells", "where", "locked", "gaps", "rng", "rng_state")

    variant: "GridVariant"

    def __init__(self, variant: "GridVariant", deal: Deal) -> None:
        order, rng = dealing_order(deal, 52)
        self.variant = variant
        self.rng = rng
        # the generator's state as of the last shuffle: snapshots share it instead of copying it
        self.rng_state = rng.getstate()
        self.cells = [EMPTY] * CELLS
        for i, card in enumerate(order):
            self.cells[(i // 13) * COLS + 1 + i % 13] = card
        self.locked = [0, 0, 0, 0]  # length of each row's locked prefix
        self.score = 0
        self.redeals_used = 0
        self.status = PLAYING
        self._index()
        self.update_status()

    @classmethod
    def from_rows(cls, variant: "GridVariant", rows: list[list[str | None]]) -> "GridState":
        """A position given as 4 rows of 14 card codes (None for a gap); for tests and puzzles.

        Locks are found as the rules define them; score and redeals start at 0, and the
        generator is deal ms1's.
        """
        state = cls(variant, Deal(1, True))
        cells = [EMPTY if c is None else parse_face(c) for row in rows for c in row]
        if len(rows) != ROWS or len(cells) != CELLS or sorted(c for c in cells if c != EMPTY) != list(range(52)):
            raise BadAction("a grid position needs 4 rows of 14 cells holding each card once")
        if any(cells[row * COLS] not in (EMPTY, *range(0, 52, 13)) for row in range(ROWS)):
            raise BadAction("column 0 holds only aces")
        state.cells = cells
        state.locked = [0] * ROWS
        for row in range(ROWS):
            if cells[row * COLS] != EMPTY:
                state._extend_lock(row, 0)
        state.score = 0
        state._index()
        state.update_status()
        return state

    def _index(self) -> None:
        where = [0] * 52
        gaps = []
        for cell, card in enumerate(self.cells):
            if card == EMPTY:
                gaps.append(cell)
            else:
                where[card] = cell
        self.where = where
        self.gaps = gaps  # always four, row-major

    # --- rules ----------------------------------------------------------------------
    def is_locked(self, card: int) -> bool:
        cell = self.where[card]
        return cell % COLS < self.locked[cell // COLS]

    def fits(self, card: int, cell: int) -> bool:
        """Whether the empty ``cell`` accepts ``card`` (the card's own lock is checked elsewhere)."""
        col = cell % COLS
        if col == 0:
            return card % 13 == ACE
        left = self.cells[cell - 1]
        if left != EMPTY and left % 13 != KING and card == left + 1:
            return True
        if self.variant.left_rule and col < COLS - 1:
            right = self.cells[cell + 1]
            if right != EMPTY and right % 13 != ACE and card == right - 1:
                return True
        return False

    def _candidates(self, cell: int) -> list[int]:
        """Unlocked cards that fit the empty ``cell``, lowest card first."""
        col = cell % COLS
        found = []
        if col == 0:
            for ace in (0, 13, 26, 39):
                if self.where[ace] % COLS != 0:  # an ace in column 0 is locked
                    found.append(ace)
            return found
        left = self.cells[cell - 1]
        if left != EMPTY and left % 13 != KING:
            found.append(left + 1)  # never locked: its lower neighbour would be too
        if self.variant.left_rule and col < COLS - 1:
            right = self.cells[cell + 1]
            if right != EMPTY and right % 13 != ACE and not self.is_locked(right - 1):
                if right - 1 not in found:
                    found.append(right - 1)
                    found.sort()
        return found

    def has_card_move(self) -> bool:
        """Whether any card move exists: _candidates' rules, stopping at the first (run after every action)."""
        cells, where, locked = self.cells, self.where, self.locked
        left_rule = self.variant.left_rule
        for gap in self.gaps:
            col = gap % COLS
            if col == 0:
                if where[0] % COLS or where[13] % COLS or where[26] % COLS or where[39] % COLS:
                    return True
                continue
            left = cells[gap - 1]
            if left != EMPTY and left % 13 != KING:
                return True
            if left_rule and col < COLS - 1:
                right = cells[gap + 1]
                if right != EMPTY and right % 13 != ACE:
                    cell = where[right - 1]
                    if cell % COLS >= locked[cell // COLS]:
                        return True
        return False

    def card_moves(self) -> list[int]:
        """Card moves, by target cell in row-major order, then by card."""
        return [move_action(card, gap) for gap in self.gaps for card in self._candidates(gap)]

    def can_redeal(self) -> bool:
        left = self.redeals_left
        return self.status != WON and (left is None or left > 0)

    def legal_actions(self) -> list[int]:
        actions = self.card_moves()
        if self.can_redeal():
            actions.append(REDEAL)
        return actions

    def update_status(self) -> None:
        if sum(self.locked) == 52:
            self.status = WON
        elif self.can_redeal() or self.has_card_move():
            self.status = PLAYING
        else:
            self.status = LOST

    def apply(self, action: int) -> None:
        if action == REDEAL:
            self._redeal()
        elif FIRST_MOVE <= action < self.variant.action_count:
            card, cell = divmod(action - FIRST_MOVE, CELLS)
            self._move(card, cell)
        else:
            raise IllegalAction(f"not a {self.variant.id} action: {action}")
        self.update_status()

    def _move(self, card: int, cell: int) -> None:
        cells = self.cells
        if cells[cell] != EMPTY:
            raise IllegalAction(f"{cell_name(cell)} is not empty")
        source = self.where[card]
        if source % COLS < self.locked[source // COLS]:
            raise IllegalAction(f"{code(card)} is locked")
        if not self.fits(card, cell):
            raise IllegalAction(f"{code(card)} does not fit {cell_name(cell)}")
        cells[cell] = card
        cells[source] = EMPTY
        self.where[card] = cell
        gaps = self.gaps
        gaps.remove(cell)
        gaps.append(source)
        gaps.sort()
        row = cell // COLS
        start = self.locked[row]
        if cell % COLS == start:
            self._extend_lock(row, start)

    def _extend_lock(self, row: int, length: int) -> None:
        cells = self.cells
        base = row * COLS
        if length == 0:
            length = 1  # only aces ever stand in column 0
        while length < COLS:
            card = cells[base + length]
            prev = cells[base + length - 1]
            if card == EMPTY or card != prev + 1 or prev % 13 == KING:
                break
            length += 1
        newly = length - self.locked[row]
        self.locked[row] = length
        self.score += self.variant.lock_points(newly)

    def _redeal(self) -> None:
        if self.status == WON:
            raise IllegalAction("the game is won")
        if not self.can_redeal():
            raise IllegalAction("no redeals left")
        cells = self.cells
        unlocked, gaps, targets = _redeal_plan(tuple(self.locked), self.variant.shuffled)
        loose = [cells[cell] for cell in unlocked if cells[cell] != EMPTY]
        for cell in unlocked:
            cells[cell] = EMPTY
        if self.variant.shuffled:
            # PySolFC's Montana redeal: shuffle, then deal from the end, row by row
            self.rng.shuffle(loose)
            self.rng_state = self.rng.getstate()
            loose.reverse()
        where = self.where
        for cell, card in zip(targets, loose, strict=True):
            cells[cell] = card
            where[card] = cell
        self.gaps = list(gaps)
        self.redeals_used += 1

    # --- hint ---------------------------------------------------------------------
    def _ranked_move(self) -> tuple[int | None, int]:
        """The most promising card move and its rank (lower is better).

        A move that locks cards comes first; a move by the left rule alone (which can
        undo an earlier move and so go round in circles) and a move that leaves a hole
        behind a king come last.
        """
        best, best_rank = None, 99
        cells = self.cells
        for action in self.card_moves():
            card, cell = divmod(action - FIRST_MOVE, CELLS)
            source = self.where[card]
            rank = 0
            if cell % COLS == self.locked[cell // COLS]:
                rank -= 4
            left = cells[cell - 1] if cell % COLS else EMPTY
            if cell % COLS and not (left != EMPTY and left + 1 == card and left % 13 != KING):
                rank += 2  # the left rule alone allows it
            if source % COLS and cells[source - 1] != EMPTY and cells[source - 1] % 13 == KING:
                rank += 1
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
        return (tuple(self.cells), tuple(self.locked), self.score, self.redeals_used, self.status, self.rng_state)

    def restore(self, snap: tuple) -> None:
        cells, locked, self.score, self.redeals_used, self.status, rng_state = snap
        self.cells = list(cells)
        self.locked = list(locked)
        if rng_state is not self.rng_state:
            self.rng.setstate(rng_state)
            self.rng_state = rng_state
        self._index()

    def layout(self) -> dict:
        return {"grid": [[None if c == EMPTY else code(c) for c in self.cells[r * COLS:(r + 1) * COLS]]
                         for r in range(ROWS)]}

    def position_bytes(self) -> bytes:
        return bytes(c + 1 for c in self.cells)

    def all_cards(self) -> list[int]:
        return [c for c in self.cells if c != EMPTY]

    # --- what a solver may use (core/game.py, "What a solver may use") ------------------
    def search_key(self) -> bytes | tuple:
        # The cells decide the locks and what moves; the redeals used and (for the shuffle
        # games) the generator decide what redeals can still do.  The score is not part of
        # the future (a win's score is counted along the line).
        key = bytes(c + 1 for c in self.cells) + bytes((self.redeals_used,))
        return (key, self.rng_state) if self.variant.shuffled else key

    def search_actions(self) -> list[int]:
        """Card moves, most promising first, then the redeal.

        First a move that locks cards, then a move that puts a card right of the card one
        lower, then one by the left rule alone; a move that leaves its cell behind a king
        or a gap (where nothing can follow it) comes after the others of its kind.
        """
        if self.status != PLAYING:
            return []
        cells, where, locked = self.cells, self.where, self.locked
        ranked = []
        for action in self.card_moves():
            card, cell = divmod(action - FIRST_MOVE, CELLS)
            col = cell % COLS
            rank = 0
            if col == locked[cell // COLS]:
                rank -= 8  # locks at least one card
            elif col and not (cells[cell - 1] == card - 1 and card % 13 != ACE):
                rank += 4  # the left rule alone
            source = where[card]
            if source % COLS:
                left = cells[source - 1]
                if left == EMPTY or left % 13 == KING:
                    rank += 1  # the cell left behind is dead
            ranked.append((rank, action))
        ranked.sort()
        actions = [action for _rank, action in ranked]
        if self.can_redeal():
            actions.append(REDEAL)
        return actions

    def progress(self) -> int:
        return sum(self.locked)

    def win_score_bound(self, moves: int) -> int:
        """kovrik, kovrik-hard: every card locked (15 each) and the bonus of the fewest moves
        a win could still take (each loose card not yet where it ends must move at least
        once); shuffle games: +10 for each loose card at most."""
        loose = 52 - sum(self.locked)
        if self.variant.shuffled:
            return self.score + 10 * loose
        cells, locked = self.cells, self.locked
        misplaced = 0
        for row in range(ROWS):
            for col in range(locked[row], COLS):
                card = cells[row * COLS + col]
                if card != EMPTY and card % 13 != col:
                    misplaced += 1
        return 15 * 52 + self.variant.win_bonus(moves + misplaced)


class GridVariant(Variant):
    family = "grid"
    action_count = FIRST_MOVE + 52 * CELLS
    words = {"redeal": REDEAL}

    def __init__(self, id: str, *, source: str, summary: str, rules: str, left_rule: bool,
                 shuffled: bool, redeals: int | None, bonus_factor: int) -> None:
        super().__init__(id, source=source, summary=summary, rules=rules)
        self.left_rule = left_rule
        self.shuffled = shuffled
        self.redeals = redeals
        self.bonus_factor = bonus_factor
        # 001 counts hints and undos as moves; 004 does not (RULES.md, grid family)
        self.hint_counts = self.undo_counts = not shuffled
        self.undo_refunds_redeal = False
        # the outcome of a seeded shuffle to come is fixed by the deal: a solver sees it
        self.hidden_information = shuffled

    def new_state(self, deal: Deal) -> GridState:
        return GridState(self, deal)

    def lock_points(self, newly_locked: int) -> int:
        if self.shuffled:
            return 10 if newly_locked else 0
        return 15 * newly_locked

    def win_bonus(self, moves: int) -> int:
        if self.shuffled:
            return 0
        bonus = sum(5 if k < 100 else 3 if k < 200 else 1 for k in range(moves, 300))
        return bonus * self.bonus_factor

    def action_text(self, action: int) -> str:
        if action == REDEAL:
            return "redeal"
        card, cell = divmod(action - FIRST_MOVE, CELLS)
        return f"{code(card)}>{cell_name(cell)}"

    def parse_canonical(self, text: str) -> int:
        return super().parse_canonical(text.replace("-", ">"))

    def parse_move(self, text: str, state: State) -> int:
        separator = ">" if ">" in text else "-" if "-" in text else None
        if separator:  # "7H>b5"; "7H-b5" too, which needs no quoting in a shell
            card_text, _, cell_text = text.partition(separator)
            return move_action(parse_face(card_text), parse_cell(cell_text))
        card = parse_face(text)  # the click: first fitting empty cell, row-major
        assert isinstance(state, GridState)
        if state.is_locked(card):
            raise IllegalAction(f"{code(card)} is locked")
        for gap in state.gaps:
            if state.fits(card, gap):
                return move_action(card, gap)
        raise IllegalAction(f"{code(card)} fits no empty cell")


_GRID_COMMON = """\
Board: 4 rows (a-d) x 14 columns (0-13). The deal leaves column 0 empty and lays the 52
cards row by row into columns 1-13 (the same cards as PySolFC's "Spaces and Aces" of the
same number). Aces stay where they fall.

A move takes one unlocked card to an empty cell. Column 0 takes any ace and nothing else.
Any other empty cell takes the card of the same suit one rank higher than its left
neighbour.{left_rule} A cell right of a king or of an empty cell takes nothing by that rule.

Locked: an ace in column 0 and the unbroken run of its suit rising by one to its right.
Locked cards never move again; one move may lock several cards at once.

Notation: CARD>CELL, e.g. 7H>b5 (cells a0..d13); 7H-b5 is read the same way and needs
no quoting in a shell, where > would write to a file. A card alone, e.g. 7H, is the click:
{click}
"""

_FIXED_REDEAL = """\
Redeal ({redeals} per attempt, any time before the game is won): every unlocked card is
collected row by row (row a left to right, then b, ...) and laid out again column by
column (column 0 top to bottom, then column 1, ...) into the unlocked cells, leaving each
row one gap: its first unlocked cell. There is no randomness: the same position always
redeals the same way.

Counted moves: every card move, every redeal, every hint and every undo counts one move,
and the counter never goes down. Undo takes back the last card move or redeal (position and
score); it never gives back a redeal and never winds back the clock.

Score: 15 for every newly locked card (an ace placed in column 0 included). On a win, a
bonus by the number of counted moves m: each k with m <= k < 300 earns 5 when k < 100, 3
when 100 <= k < 200, 1 when 200 <= k < 300 (0 moves would earn 900, 100 moves 400, 300 or
more nothing){double}. The score of a won game includes its bonus.
"""

_SHUFFLE_REDEAL = """\
Shuffle ({redeals}, any time before the game is won): every unlocked card is collected row
by row, shuffled with the deal's own generator (PySolFC's Montana redeal), and dealt from
the end of the shuffled list into the unlocked cells row by row, each row keeping one gap:
its first unlocked cell. The generator's state is part of the game: undo restores it, so a
log always replays the same cards.

Counted moves: every card move and every shuffle counts one move; hints are free, and an
undo takes the counter back to what it was before the undone action. Undo never gives back
a shuffle and never winds back the clock.

Score: +10 for each move that lengthens a locked prefix, however many cards it locks
(placing an ace in column 0 starts a prefix and counts, decision). Shuffles cost nothing;
the best result of a deal is the win with the fewest moves.
"""

_GRID_END = """\
Won: all 52 cards locked. Lost: no card move and no redeal left; undo still works.
Hint: names one legal action and changes nothing else: the first action of a winning line
when the solver (carpet solve) finds one within the hint's budget, else the action its
search found most promising that does not bring back a position already reached in this
attempt; a redeal may be named while card moves exist.
With the game over the hint says so{hint_cost}.
After a win only restart (and hint) is accepted: the win and its score are final (decision).
Restart plays the same deal again from the start: layout, score, counters, redeals, clock.
"""


def _grid_rules(left_rule: bool, shuffled: bool, redeals: int | None, double: bool) -> str:
    left = (" In this game it also takes the card of the same suit one rank lower than its"
            " right neighbour (the left rule); one fitting neighbour is enough. Rows never"
            " wrap: column 13 has no right neighbour.") if left_rule else ""
    click = ("the card goes to its only fitting cell (an ace to the topmost empty cell of column 0)."
             if shuffled else
             "the card goes to the first fitting empty cell in row-major order.")
    text = _GRID_COMMON.format(left_rule=left, click=click) + "\n"
    if shuffled:
        count = "unlimited" if redeals is None else f"{redeals} per attempt"
        text += _SHUFFLE_REDEAL.format(redeals=count)
    else:
        text += _FIXED_REDEAL.format(redeals=redeals,
                                     double="; this game doubles the bonus (decision)" if double else "")
    text += "\n" + _GRID_END.format(hint_cost=" and is not counted" if not shuffled else "")
    return text


VARIANTS = (
    GridVariant("kovrik", source="001", left_rule=True, shuffled=False, redeals=3, bonus_factor=1,
                summary="4x14, aces to column 0, build right of one lower or left of one higher, 3 fixed-order redeals",
                rules=_grid_rules(True, False, 3, False)),
    GridVariant("kovrik-hard", source="001", left_rule=False, shuffled=False, redeals=3, bonus_factor=2,
                summary="as kovrik but right-of-one-lower only, move bonus doubled",
                rules=_grid_rules(False, False, 3, True)),
    GridVariant("kovrik-shuffle", source="004 easy", left_rule=False, shuffled=True, redeals=None, bonus_factor=0,
                summary="right-of-one-lower only, unlimited seeded shuffles, +10 per prefix-lengthening move",
                rules=_grid_rules(False, True, None, False)),
    GridVariant("kovrik-shuffle-2", source="004 hard", left_rule=False, shuffled=True, redeals=2, bonus_factor=0,
                summary="as kovrik-shuffle with 2 shuffles",
                rules=_grid_rules(False, True, 2, False)),
)
