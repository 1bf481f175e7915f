"""The carpet family's board: the carpet's cells and their names, the action numbers, and the
foundations' one build rule (:func:`next_card`, with its table ``NEXT_CARD``) and the score they
stand for, each stated once.  core/carpet/rules.py plays the transitions over them; core/carpet/search.py
says what a search asks of a position.
"""

from __future__ import annotations

from carpet.core.game import FIRST_ACTION


ROWS, COLS = 4, 5
CELLS = ROWS * COLS
EMPTY = -1
ROW_NAMES = "abcd"
SUIT_NAMES = ("clubs", "spades", "hearts", "diamonds")

CELL_TO_FOUNDATION = FIRST_ACTION  # + cell
WASTE_TO_FOUNDATION = CELL_TO_FOUNDATION + CELLS
TURN = WASTE_TO_FOUNDATION + 1
WASTE_FILL = TURN + 1  # + cell
STOCK_FILL = WASTE_FILL + CELLS  # + cell
ACTION_COUNT = STOCK_FILL + CELLS
PULL_WASTE, PULL_STOCK = "waste", "stock"  # CarpetState._pulled_from


def cell_name(cell: int) -> str:
    return f"{ROW_NAMES[cell // COLS]}{cell % COLS + 1}"


CELL_NAMES = tuple(cell_name(c) for c in range(CELLS))
def next_card(suit: int, count: int) -> int:
    """The carpet family's one build rule: the card a foundation of ``suit`` holding ``count``
    cards takes next (up in suit from the ace: ``suit * 13 + count``).  Where it holds none that
    is its ace, and where it is finished (13) the next suit's ace (or 52): no ace ever lies on the
    carpet or in the waste (the deal, the refills and the turn put them up), so such a card is
    never found there and needs no test of its own."""
    return suit * 13 + count


def held_score(found, foster: bool) -> int:
    """The score foundations holding ``found`` cards (a count per suit) stand for, as play keeps
    it (``CarpetState._put_up``: one for every card put up): every card on them but the four aces
    carpet deals there (carpet-foster's aces go up in play, and count)."""
    return sum(found) - (0 if foster else 4)


#: suit -> count -> :func:`next_card`, made once: what every path reads (fits, _needed, playable_cells, the codes)
NEXT_CARD = tuple(tuple(next_card(suit, count) for count in range(14)) for suit in range(4))

#: (stock, its table) for the stock last asked about: see stock_places (None at first: an empty
#: stock, read from a position's text, is the one empty tuple and needs its table made too)
_PLACES: tuple = (None, ())


def stock_places(stock: tuple[int, ...]) -> list[int]:
    """For each card id (and 52, past the last suit): its place in ``stock``, or -1 where it is
    not in the stock.  Made once per stock tuple (a deal's stock is one tuple for the whole
    game); the last one is kept."""
    global _PLACES
    last = _PLACES
    if last[0] is stock:
        return last[1]
    table = [-1] * 53
    for place, card in enumerate(stock):
        table[card] = place
    _PLACES = (stock, table)
    return table
