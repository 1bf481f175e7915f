"""The carpet family's positions as text (docs/format.md, "Positions as text").

::

    carpet-foster 7D5H9CQC6H/KH6D3H8H3S/2CJHKS2HTD/7SQDQS8DQH f:AS4D s:KC5C5D4C7H9H9SJDKDTH3C2S7C4H9D8SAH6CTS5SACTC8CJC6S4S w:JS phase:2

The cells field is the carpet, rows a-d separated by ``/``, five cells each (``..`` a gap);
``f:`` the foundations' top cards, any order (a suit not there has no foundation yet: only
in carpet-foster, whose aces stay in the deck); ``s:`` the stock, top first (``??`` for a
card not seen); ``w:`` the waste, bottom first (its top last); carpet-foster adds ``phase:1``
or ``phase:2``.  ``-`` is an empty stock, waste or set of foundations.  The score is what
the foundations hold (the rules' score is a count of the cards put up).
"""

from __future__ import annotations

from carpet.core.cards import ACE, CODES
from carpet.core.game import PLAYING
from carpet.core.position import (NONE, UNSEEN, BadPosition, Position, count_cards, fill_unseen, read_cards,
                                  read_count, read_rows, take_fields, write_cards, write_rows)

from .board import CELL_NAMES, COLS, EMPTY, NEXT_CARD, ROWS, SUIT_NAMES, held_score
from .rules import CarpetState
from .variants import CarpetVariant


def write(state: CarpetState) -> str:
    found = "".join(CODES[state.foundation_top(s)] for s, n in enumerate(state.found) if n) or NONE
    fields = [state.variant.id, write_rows(state.cells, COLS), f"f:{found}",
              f"s:{write_cards(state.stock[state.drawn:])}", f"w:{write_cards(state.waste)}"]
    if state.variant.foster:
        fields.append(f"phase:{state.phase}")
    return " ".join(fields)


def read(variant: CarpetVariant, cells_text: str, fields: dict[str, str]) -> Position:
    foster = variant.foster
    got = take_fields(variant, fields, ("f", "s", "w") + (("phase",) if foster else ()))
    cells = read_rows(cells_text, ROWS, COLS, CELL_NAMES.__getitem__)
    found = [0, 0, 0, 0]
    for top in read_cards(got["f"], "field f:"):
        s = top // 13
        if found[s]:
            raise BadPosition(f"field f: names the {SUIT_NAMES[s]} foundation twice")
        found[s] = NEXT_CARD[s].index(top) + 1  # (the cards it took up to its top)
    if not foster and not all(found):
        missing = SUIT_NAMES[found.index(0)]
        raise BadPosition(f"{variant.id} starts every foundation with its ace: the {missing} foundation is "
                          f"missing from f:")
    stock = read_cards(got["s"], "the stock (s:)", unseen=True)
    waste = read_cards(got["w"], "the waste (w:)")
    phase = read_count(got["phase"], "phase:", 2) if foster else 2
    if phase == 0:
        raise BadPosition("field phase: is 1 or 2")
    placed = [(c, CELL_NAMES[i]) for i, c in enumerate(cells) if c != EMPTY]
    placed += [(c, f"the {SUIT_NAMES[s]} foundation") for s in range(4) for c in NEXT_CARD[s][:found[s]]]
    placed += [(c, "the stock") for c in stock] + [(c, "the waste") for c in waste]
    unseen = count_cards(placed, 1, range(52))
    for cell, card in enumerate(cells):
        if card != EMPTY and card % 13 == ACE:
            raise BadPosition(f"{CODES[card]} cannot lie in {CELL_NAMES[cell]}: an ace goes to its foundation at once")
    for card in waste:
        if card % 13 == ACE:
            raise BadPosition(f"{CODES[card]} cannot lie in the waste: an ace goes to its foundation at once")
    aces = [c for c in stock if c != UNSEEN and c % 13 == ACE]
    if aces and not foster:
        raise BadPosition(f"{CODES[aces[0]]} cannot lie in the stock: {variant.id} deals its aces to the foundations")
    gaps = EMPTY in cells
    if phase == 1 and waste:
        raise BadPosition("in phase 1 the waste is empty (the stock is turned only in phase 2)")
    if gaps and phase == 1 and stock:
        raise BadPosition("in phase 1 a gap is refilled from the stock at once: a gap with cards in the stock "
                          "is a phase 2 position")
    if gaps and variant.auto_fill and (stock or waste):
        raise BadPosition(f"{variant.id} fills a gap at once from the waste or the stock: a gap with cards "
                          f"left there is no {variant.id} position")

    def make(order: tuple[int, ...]) -> CarpetState:
        state = CarpetState.__new__(CarpetState)
        state.variant = variant
        state.status = PLAYING
        state.redeals_used = 0
        state.cells = list(cells)
        state.found = list(found)
        state.stock = tuple(fill_unseen(stock, order))
        state.drawn = 0
        state.waste = list(waste)
        state.phase = phase
        state.score = held_score(found, foster)
        state.settle()  # (phase 1 ends by itself where no carpet card can be played; the status)
        return state

    text = write(make(unseen))
    if unseen:  # the stock as given: the order of the cards ?? stands for is not known
        fields = text.split(" ")
        fields[3] = f"s:{write_cards(stock)}"
        text = " ".join(fields)
    return Position(variant, text, unseen, make)
