"""The Montana family as PySolFC plays it: Montana, Spaces, Station, Free Parking, Blue Moon,
Red Moon, Galary, Jungle, Spaces and Aces (docs/rules.md, "Grid family": their sections).

Every game here is a grid game (core/grid/rules.py plays them all); this module states what makes
each one itself: its board and deal, its build rule, its redeals and where they leave
their spaces.  Nothing locks in these games: any card may move, even out of a row's run.
"""

from __future__ import annotations

import functools
import textwrap

from carpet.core.cards import ACE

from .board import ANY_SUIT_NEXT, EMPTY, ROW_NAMES, SUIT_HIGHER, Board, deal_beside_column_0, gap_spaces
from .variants import GridVariant

TWO = 1  # the rank index of a two


# --- boards and deals ------------------------------------------------------------------
def deal_aces_out(order: list[int], board: Board) -> list[int]:
    """Card i of the dealing order to cell i, row-major; an ace goes nowhere and leaves its cell empty."""
    return [EMPTY if card % 13 == ACE else card for card in order]


def deal_aces_to_column_0(order: list[int], board: Board) -> list[int]:
    """Row by row into columns 1 onwards; then the aces, in the order a row-major scan finds
    them, move to column 0 of rows a, b, c, d, leaving their cells empty."""
    cells = deal_beside_column_0(order, board)
    aces = [cell for cell, card in enumerate(cells) if card != EMPTY and card % 13 == ACE]
    for row, cell in enumerate(aces):
        cells[row * board.cols], cells[cell] = cells[cell], EMPTY
    return cells


def deal_aces_first(order: list[int], board: Board) -> list[int]:
    """The aces are dealt first, in suit order (♣ ♠ ♥ ♦) to column 0 of rows a, b, c, d; the
    other cards follow in their shuffled order, row by row into columns 2 onwards."""
    cells = [EMPTY] * board.cells
    aces = sorted(card for card in order if card % 13 == ACE)  # card ids run ♣ ♠ ♥ ♦
    for row, ace in enumerate(aces):
        cells[row * board.cols] = ace
    per_row = board.cols - 2
    for i, card in enumerate(card for card in order if card % 13 != ACE):
        cells[(i // per_row) * board.cols + 2 + i % per_row] = card
    return cells


MONTANA = Board(cols=13, base=TWO, deal=deal_aces_out)  # 4 × 13, twos to column 0
BLUE_MOON = Board(deal=deal_aces_to_column_0)  # 4 × 14, aces to column 0
RED_MOON = Board(deal=deal_aces_first)
SPACES_AND_ACES = Board()  # Коврик's own deal: column 0 empty, aces where they fall


# --- where a redeal leaves its spaces (step 3; each row's gap is grid.gap_spaces) ---------
def last_cell_spaces(targets: list[int], gaps: tuple[int, ...], count: int, rng, board: Board) -> list[int]:
    """The last cell of each row."""
    return [row * board.cols + board.cols - 1 for row in range(board.rows)]


def random_spaces(targets: list[int], gaps: tuple[int, ...], count: int, rng, board: Board) -> list[int]:
    """``count`` different targets, drawn with the deal's generator: choice(targets), again
    until that many different ones are drawn, where choice(seq) = seq[randint(0, len(seq) - 1)]."""
    spaces: list[int] = []
    last = len(targets) - 1
    while len(spaces) < count:
        cell = targets[rng.randint(0, last)]
        if cell not in spaces:
            spaces.append(cell)
    return spaces


# --- the games ---------------------------------------------------------------------------
#: game id -> (PySolFC's name, its game number there)
PYSOL = {"montana": ("Montana", 53), "spaces": ("Spaces", 116), "station": ("Station", 858),
         "free-parking": ("Free Parking", 276), "blue-moon": ("Blue Moon", 63), "red-moon": ("Red Moon", 117),
         "galary": ("Galary", 275), "jungle": ("Jungle", 380), "spaces-and-aces": ("Spaces and Aces", 381)}


def _game(id: str, board: Board, summary: str, *, redeals: int = 2, **differences) -> GridVariant:
    """A game of the family: no locks, the common undo (a redeal given back), score 1 per card in a run."""
    name, number = PYSOL[id]
    variant = GridVariant(id, source=f"PySol {number}", summary=summary, rules=_rules, board=board,
                          redeals=redeals, card_points=1, **differences)
    if not redeals:
        variant.words = {}  # "redeal" is then refused as a word this game does not have
    return variant


# --- the rules in our own words, built when first asked for -----------------------------------
_DEALS = {
    deal_aces_out: ("The 52 cards are dealt row by row into all {cells} cells, in PySolFC's order; the four aces"
                    " take no part: each leaves empty the cell it would have taken."),
    deal_aces_to_column_0: ("Column 0 is left empty and the 52 cards are dealt row by row into columns 1-{last};"
                            " then, scanning row by row, the first ace found moves to a0, the second to b0, the"
                            " third to c0 and the fourth to d0, each leaving its cell empty."),
    deal_aces_first: ("The four aces are dealt first, in PySolFC's suit order: AC to a0, AS to b0, AH to c0,"
                      " AD to d0. The other 48 cards follow in their shuffled order, 12 to each row, into"
                      " columns 2-{last}: column 1 of every row starts empty."),
    deal_beside_column_0: ("Column 0 is left empty and the 52 cards are dealt row by row into columns 1-{last}"
                           " (the deal of kovrik); the aces stay where they fall."),
}

_NO_WRAP = """ Rows never wrap: column {last} has no right neighbour (decision:
PySolFC's own code lets the last cell of a row look at the first cell of the next row; we
do not)."""

_BUILD = {
    "suit-next": "the card of the same suit one rank higher than its left neighbour",
    "any-suit-next": "a card one rank higher than its left neighbour, of any suit",
    "suit-higher": "a card of the same suit as its left neighbour and of any higher rank",
}

_SPACES = {
    gap_spaces: "each row's gap stays empty",
    last_cell_spaces: "the last cell of each row stays empty ({ends})",
    random_spaces: ("four targets drawn at random stay empty: a target is drawn with the deal's generator,"
                    " choice(targets) = targets[randint(0, len(targets) - 1)] over the targets in the order of"
                    " step 1, again and again until four different ones are drawn"),
}


def _rules(v: GridVariant) -> str:
    name, number = PYSOL[v.id]
    b = v.board
    last = b.cols - 1
    rows = ROW_NAMES[:b.rows]
    base, first = ("a two", "2") if b.base == TWO else ("an ace", "A")
    move = "" if not v.left_rule else (
        ", or the card of the same suit one rank lower than its right neighbour; one fitting neighbour is enough."
        f" Rows never wrap: column {last} has no right neighbour (decision: PySolFC's own code lets the last cell"
        " of a row look at the first cell of the next row; we do not)")
    paragraphs = [
        f"{name}, as PySolFC plays it (its game {number}): a deal number here gives the same cards as the same "
        "number there, redeals included.",
        f"Board: {b.rows} rows ({rows[0]}-{rows[-1]}) x {b.cols} columns (0-{last}). "
        + _DEALS[b.deal].format(cells=b.cells, last=last),
        f"A row's run: column 0 holding {base} and the unbroken run of its suit rising by one to its right. A row "
        f"is finished when its run reaches the king ({first} to K in columns 0-{last - 1}); the game is won when "
        "every row is.",
        "A move takes one card to an empty cell. Nothing is locked: any card may move, even one out of a row's run "
        f"(the run is then cut there). Column 0 takes {base} of any suit and nothing else. Any other empty cell "
        f"takes {_BUILD[v.build]}{move}. A cell right of an empty cell or of a king takes nothing by its left "
        "neighbour.",
        f"Notation: CARD>CELL, e.g. 7H>b5 (cells a0..{rows[-1]}{last}); 7H-b5 is read the same way and needs no "
        "quoting in a shell. A card alone, e.g. 7H, is the click: the card goes to the first fitting empty cell in "
        "row-major order.",
    ]
    items = []
    if v.redeals:
        count = "one redeal" if v.redeals == 1 else f"{v.redeals} redeals"
        spaces = _SPACES[v.spaces].format(ends=", ".join(f"{r}{last}" for r in rows))
        lengthen = " A card dealt into a gap may lengthen its row's run." if v.spaces is not gap_spaces else ""
        paragraphs.append(f"Redeal ({count} per attempt, any time before the game is won, not only when stuck):")
        items = [
            f"1. In each row, {rows[0]} to {rows[-1]}, every cell after its run is a target, scanned left to "
            "right; the first is the row's gap. The targets' cards are collected in that order.",
            "2. They are shuffled with the deal's own generator, continuing it (PySolFC's shuffle).",
            f"3. The spaces: {spaces}.",
            f"4. The cards are dealt from the end of the shuffled list into the other targets, in the order of "
            f"step 1.{lengthen}",
        ]
        after = [
            "The generator's state is part of the game: undo restores it, so a log always replays the same cards, "
            "and a redeal undone and made again gives the same cards again (decision: PySolFC's Spaces draws new "
            "spaces after an undo and a redo).",
            "Counted moves: every card move and every redeal; hints and undos are free. Undo takes back the last "
            "card move or redeal and everything with it: a redeal is given back and the generator restored; it "
            "never winds back the clock.",
        ]
    else:
        after = [
            "There is no redeal in this game.",
            "Counted moves: every card move; hints and undos are free. Undo takes back the last card move and "
            "everything with it; it never winds back the clock.",
        ]
    after += [
        "Score (decision: PySolFC keeps none): the number of cards in the rows' runs, so it may start above 0 and "
        f"goes down when a card leaves a run; {b.rows * b.row_length} when the game is won.",
        "Won: every row finished. Lost: no card move and no redeal left; undo still works.",
        "Hint: names one legal action and changes nothing else: the first action of a winning line when the "
        "solver (carpet solve) finds one within the hint's budget, else the action its search found most "
        "promising that does not bring back a position already reached in this attempt"
        + ("; a redeal may be named while card moves exist. That is hint --peek, which knows what each "
           "shuffle will deal (the deal number fixes it); by default the hint sees only what the player "
           "has seen (What a hint may look at, at the top of docs/rules.md)" if v.redeals else "")
        + ". With the game over it says so.",
        "After a win only restart (and hint) is accepted: the win and its score are final (decision). Restart "
        "plays the same deal again from the start: layout, score, counters, redeals, clock.",
    ]
    wrap = functools.partial(textwrap.fill, width=90)
    text = "\n\n".join(wrap(p) for p in paragraphs)
    if items:
        text += "\n" + "\n".join(wrap(item, subsequent_indent="   ") for item in items)
    return text + "\n\n" + "\n\n".join(wrap(p) for p in after) + "\n"


VARIANTS = (
    _game("montana", MONTANA, "4x13, aces out, twos to column 0, build up in suit, 2 redeals leaving each row's gap"),
    _game("spaces", MONTANA, "as montana, but each redeal leaves four spaces drawn at random",
          spaces=random_spaces),
    _game("station", MONTANA, "as montana, but each redeal leaves the last cell of each row empty",
          spaces=last_cell_spaces),
    _game("free-parking", MONTANA, "as montana, and a card may also go left of its successor in suit",
          left_rule=True),
    _game("blue-moon", BLUE_MOON, "4x14, aces dealt then moved to column 0, build up in suit, 2 redeals"),
    _game("red-moon", RED_MOON, "as blue-moon, but the aces start in column 0 and column 1 is left empty"),
    _game("galary", RED_MOON, "as red-moon, and a card may also go left of its successor in suit",
          left_rule=True),
    _game("jungle", BLUE_MOON, "as blue-moon, but build up by rank in any suit, 1 redeal",
          build=ANY_SUIT_NEXT, redeals=1),
    _game("spaces-and-aces", SPACES_AND_ACES, "4x14 as kovrik's deal, build any higher card of the suit, no redeal",
          build=SUIT_HIGHER, redeals=0),
)
