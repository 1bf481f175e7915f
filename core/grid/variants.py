"""The grid family's variant: what each grid game states about itself (:class:`GridVariant`), its
action text and parsing, and the Коврик games as one declarative entry each, with their rules in
prose (docs/rules.md, "Grid family").  The Montana games are entries of the same class in
core/grid/montana.py; the rules they all play are core/grid/rules.py's.
"""

from __future__ import annotations

from typing import Callable

from carpet.core.cards import code, parse_face
from carpet.core.errors import IllegalAction
from carpet.core.game import State, Variant
from carpet.core.numbering import Deal

from .board import BUILDS, EMPTY, FIRST_MOVE, OUT, REDEAL, SUIT_NEXT, Board, RuleTables, gap_spaces
from .rules import GridState

def _figures(board: Board) -> tuple:
    """A board's cards: those its deal puts in play, and those of the base rank among them."""
    cards_in_play = tuple(sorted(c for c in board.deal(list(range(board.card_count)), board) if c != EMPTY))
    return cards_in_play, tuple(c for c in cards_in_play if c % 13 == board.base)


_FIGURES: dict[Board, tuple] = {}
_TABLES: dict[tuple[Board, str], RuleTables] = {}
#: the variant's attributes that hold the rules' tables (GridVariant.build_tables)
_TABLE_NAMES = frozenset(RuleTables.__slots__)


class GridVariant(Variant):
    """One grid game: its board and the rules that differ between the games (see the module)."""

    family = "grid"
    words = {"redeal": REDEAL}
    #: the rules' tables (:meth:`build_tables`)
    after: tuple[tuple[int, ...], ...]
    after_set: tuple[frozenset[int], ...]
    before: tuple[tuple[int, ...], ...]
    before_set: tuple[frozenset[int], ...]
    nexts: tuple[tuple[int, ...], ...]
    nexts_set: tuple[frozenset[int], ...]

    def __init__(self, id: str, *, source: str, summary: str, rules, board: Board = Board(),
                 build: str = SUIT_NEXT, left_rule: bool = False, locking: bool = False,
                 shuffled: bool = True, spaces: Callable = gap_spaces, redeals: int | None = 0,
                 card_points: int = 0, move_points: int = 0, bonus_factor: int = 0,
                 hints_and_undos_count: bool = False, undo_refunds_redeal: bool = True) -> None:
        super().__init__(id, source=source, summary=summary, rules=rules)
        self.board = board
        self.build = build
        self.left_rule = left_rule
        self.locking = locking
        self.shuffled = shuffled
        self.spaces = spaces
        self.plans: dict[tuple[int, ...], tuple] = {}  # prefix lengths -> _redeal_plan (a cache)
        #: order -> the cells (search_actions' key) -> the card moves in that order (a cache)
        self.ranked: dict[int, dict[bytes, tuple]] = {}
        self.redeals = redeals
        self.card_points = card_points  # per card joining a prefix (taken back when it leaves)
        self.move_points = move_points  # per move that lengthens a prefix
        self.bonus_factor = bonus_factor
        self.hint_counts = self.undo_counts = hints_and_undos_count
        self.undo_refunds_redeal = undo_refunds_redeal
        # the board's figures, where the hot paths read them
        self.cols = board.cols
        self.cells = board.cells
        self.base = board.base
        self.finished = board.rows * board.row_length
        self.action_count = FIRST_MOVE + board.card_count * board.cells
        self.card_count = board.card_count
        figures = _FIGURES.get(board)
        if figures is None:  # worked out once a board: the games of one board share them
            figures = _FIGURES[board] = _figures(board)
        self.cards_in_play, self.base_cards = figures
        # the outcome of a seeded shuffle to come is fixed by the deal: a solver sees it
        self.hidden_information = shuffled and redeals != 0

    def build_tables(self) -> None:
        """The rules' tables (core/grid/board.py, :class:`RuleTables`: ``after``, ``before``,
        ``nexts`` and their sets), made when the game's first position is (GridState, and
        core/grid/position.py's positions) and then kept as plain attributes, where the hot paths
        read them: a command that reads one game's log pays for that game's alone (the games of
        one board and build share them).  Not made by a ``__getattr__``: CPython never specialises
        an attribute read on an instance of a class that has one, and every read of the variant
        in the rules and the search (about 40 a position searched) would then take the slow way."""
        if "after" in self.__dict__:
            return
        key = (self.board, self.build)
        tables = _TABLES.get(key)
        if tables is None:
            tables = _TABLES[key] = RuleTables(self.board.card_count, self.cards_in_play, BUILDS[self.build])
        for table in _TABLE_NAMES:
            setattr(self, table, getattr(tables, table))

    def new_state(self, deal: Deal) -> GridState:
        return GridState(self, deal)

    def move(self, card: int, cell: int) -> int:
        return FIRST_MOVE + card * self.cells + cell

    def lock_points(self, newly_locked: int) -> int:
        """Points for cards joining a row's prefix in one action."""
        if not newly_locked:
            return 0
        return self.card_points * newly_locked + self.move_points

    def win_bonus(self, moves: int) -> int:
        if not self.bonus_factor:
            return 0
        bonus = sum(5 if k < 100 else 3 if k < 200 else 1 for k in range(moves, 300))
        return bonus * self.bonus_factor

    def card_text(self, card: int) -> str:
        """A card's code; a second deck's card is marked with ' (two-deck boards only)."""
        return code(card) + ("'" if card >= 52 else "")

    def parse_card(self, text: str) -> int:
        t = text.strip()
        if self.board.decks > 1 and t.endswith("'"):
            return parse_face(t[:-1]) + 52
        return parse_face(t)

    def action_text(self, action: int) -> str:
        if action == REDEAL:
            return "redeal"
        card, cell = divmod(action - FIRST_MOVE, self.cells)
        return f"{self.card_text(card)}>{self.board.cell_name(cell)}"

    def parse_canonical(self, text: str) -> int:
        return super().parse_canonical(text.replace("-", ">"))

    def parse_move(self, text: str, state: State) -> int:
        separator = ">" if ">" in text else "-" if "-" in text else None
        if separator:  # "7H>b5"; "7H-b5" too, which needs no quoting in a shell
            card_text, _, cell_text = text.partition(separator)
            return self.move(self.parse_card(card_text), self.board.parse_cell(cell_text))
        card = self.parse_card(text)  # the click: first fitting empty cell, row-major
        assert isinstance(state, GridState)
        if state.where[card] == OUT:
            raise IllegalAction(f"{self.card_text(card)} is not in this game")
        if state.is_locked(card):
            raise IllegalAction(f"{self.card_text(card)} is locked")
        for gap in state.gaps:
            if state.fits(card, gap):
                return self.move(card, gap)
        raise IllegalAction(f"{self.card_text(card)} fits no empty cell")


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


def _kovrik_rules(v: GridVariant) -> str:
    """The rules text of a kovrik game, built from its settings when first asked for."""
    left = (" In this game it also takes the card of the same suit one rank lower than its"
            " right neighbour (the left rule); one fitting neighbour is enough. Rows never"
            " wrap: column 13 has no right neighbour.") if v.left_rule else ""
    click = ("the card goes to its only fitting cell (an ace to the topmost empty cell of column 0)."
             if v.shuffled else
             "the card goes to the first fitting empty cell in row-major order.")
    text = _GRID_COMMON.format(left_rule=left, click=click) + "\n"
    if v.shuffled:
        count = "unlimited" if v.redeals is None else f"{v.redeals} per attempt"
        text += _SHUFFLE_REDEAL.format(redeals=count)
    else:
        text += _FIXED_REDEAL.format(redeals=v.redeals,
                                     double="; this game doubles the bonus (decision)" if v.bonus_factor == 2 else "")
    text += "\n" + _GRID_END.format(hint_cost=" and is not counted" if not v.shuffled else "")
    return text


# Коврик (docs/rules.md, "Grid family"): locked prefixes; 001 counts hints and undos as moves, 004 does
# not; no game of the family gives back a redeal on undo
_KOVRIK = dict(board=Board(), locking=True, undo_refunds_redeal=False, rules=_kovrik_rules)

VARIANTS = (
    GridVariant("kovrik", source="001", left_rule=True, shuffled=False, redeals=3, card_points=15, bonus_factor=1,
                hints_and_undos_count=True, **_KOVRIK,
                summary="4x14, aces to column 0, build right of one lower or left of one higher, 3 fixed-order redeals"),
    GridVariant("kovrik-hard", source="001", shuffled=False, redeals=3, card_points=15, bonus_factor=2,
                hints_and_undos_count=True, **_KOVRIK,
                summary="as kovrik but right-of-one-lower only, move bonus doubled"),
    GridVariant("kovrik-shuffle", source="004 easy", redeals=None, move_points=10, **_KOVRIK,
                summary="right-of-one-lower only, unlimited seeded shuffles, +10 per prefix-lengthening move"),
    GridVariant("kovrik-shuffle-2", source="004 hard", redeals=2, move_points=10, **_KOVRIK,
                summary="as kovrik-shuffle with 2 shuffles"),
)
