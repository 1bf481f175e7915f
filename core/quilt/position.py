"""The quilt family's positions as text (docs/format.md, "Positions as text").

The cells field is the quilt, rows a-h separated by ``/``, eight cells each (``..`` a hole).
``u:`` holds the top cards of the four up piles and ``d:`` those of the four down piles, any
order (each pile holds its base at least: the ace, the king).  crazy-quilt and indian-carpet
add ``s:`` the stock, top first (``??`` for a card not seen), ``w:`` the waste, bottom first,
and ``r:N`` the redeals left; persian-carpet adds ``res:``, its eight reserves separated by
``/``, each bottom first (``-`` an empty one).  The score is what the foundations hold.

Every card is written by its face: the text does not say which of the two decks a card
comes from, and no rule asks.  The reader gives the first copy of a face it meets deck 0's
card and the second deck 1's, in a fixed order of places (the eight bases first, then the
foundations, the quilt row by row, the stock, the waste, the reserves), so the same text
always makes the same state, and printing that state and reading it again gives it back,
its digest included.  A state reached in play may hold the copies the other way round: its
text names the same position, the digest of which is that of the copies as read.
"""

from __future__ import annotations

from carpet.core.position import (EMPTY, BadPosition, Position, count_cards, fill_unseen, read_cards, read_count,
                       read_rows, take_fields, write_cards, write_rows)
from .board import CELLS, COLS, DOWN, DOWN_BASES, PILE_NEED, RESERVES, ROWS, UP, UP_BASES, adjacent, cell_name
from .rules import QuiltState
from .variants import QuiltVariant

_SUIT_NAMES = ("clubs", "spades", "hearts", "diamonds")


def _pile_name(pile: int) -> str:
    return f"the {'up' if pile < DOWN else 'down'} {_SUIT_NAMES[pile % 4]} pile"


def write(state: QuiltState) -> str:
    v = state.variant
    fields = [v.id, write_rows(state.cells[:CELLS], COLS),
              "u:" + write_cards(state.found[UP + s][-1] for s in range(4)),
              "d:" + write_cards(state.found[DOWN + s][-1] for s in range(4))]
    if v.has_reserves:
        fields.append("res:" + "/".join(write_cards(pile) for pile in state.reserves))
    else:
        fields += [f"s:{write_cards(reversed(state.stock))}", f"w:{write_cards(state.waste)}",
                   f"r:{state.redeals_left}"]
    return " ".join(fields)


def read(variant: QuiltVariant, cells_text: str, fields: dict[str, str]) -> Position:
    reserves_game = variant.has_reserves
    got = take_fields(variant, fields, ("u", "d") + (("res",) if reserves_game else ("s", "w", "r")))
    cells = read_rows(cells_text, ROWS, COLS, cell_name)
    piles = [_pile(got["u"], "u:", UP), _pile(got["d"], "d:", DOWN)]
    found = [pile for half in piles for pile in half]
    stock = waste = ()
    reserves: list[list[int]] = [[] for _ in range(RESERVES)]
    used = 0
    if reserves_game:
        parts = got["res"].split("/")
        if len(parts) != RESERVES:
            raise BadPosition(f"field res: {RESERVES} reserves separated by /, not {len(parts)}")
        reserves = [read_cards(part, f"reserve {k + 1}") for k, part in enumerate(parts)]
        for k, pile in enumerate(reserves):
            _reachable_reserve(pile, k)
    else:
        stock = read_cards(got["s"], "the stock (s:)", unseen=True)
        waste = read_cards(got["w"], "the waste (w:)")
        used = variant.redeals - read_count(got["r"], "r:", variant.redeals)
    placed = [(c, _pile_name(p)) for p, pile in enumerate(found) for c in pile]
    placed += [(c, cell_name(i)) for i, c in enumerate(cells) if c != EMPTY]
    placed += [(c, "the stock") for c in stock] + [(c, "the waste") for c in waste]
    placed += [(c, f"reserve {k + 1}") for k, pile in enumerate(reserves) for c in pile]
    unseen = count_cards(placed, 2, range(52))

    def make(order: tuple[int, ...]) -> QuiltState:
        copies = _Copies()
        bases = [copies.take(card) for card in UP_BASES + DOWN_BASES]
        piles = [[base] + [copies.take(c) for c in pile[1:]] for base, pile in zip(bases, found)]
        quilt = [copies.take(c) for c in cells]
        full_stock = [copies.take(c) for c in fill_unseen(list(stock), order)]
        return QuiltState.arranged(variant, quilt=quilt, stock=full_stock, waste=[copies.take(c) for c in waste],
                                   foundations=piles, reserves=[[copies.take(c) for c in p] for p in reserves],
                                   redeals_used=used)

    text = write(make(unseen))
    if unseen:  # the stock as given: the order of the cards ?? stands for is not known
        text = " ".join(f"s:{write_cards(stock)}" if f.startswith("s:") else f for f in text.split(" "))
    return Position(variant, text, unseen, make)


#: the cards the deal gives each reserve (the 32 cards left after the quilt, one to each in turn)
_DEALT = 4


def _reachable_reserve(pile: list[int], k: int) -> None:
    """A reserve as play can leave it: what the deal gave it (at most :data:`_DEALT` cards, from the
    bottom), then cards each laid onto the one below by the rules (same suit, one rank apart);
    so every card above the fourth is such a card.  A reserve of 32 cards is refused here."""
    for i in range(_DEALT, len(pile)):
        if not adjacent(pile[i], pile[i - 1]):
            raise BadPosition(f"reserve {k + 1}: no play leaves {len(pile)} cards there with its card {i + 1} "
                              f"on one that is not of its suit and one rank apart (the deal gives a reserve "
                              f"{_DEALT} cards; only such cards go onto them)")


def _pile(text: str, field: str, first: int) -> list[list[int]]:
    """``u:`` or ``d:`` -> the four piles (faces, bottom first) of that direction, by suit."""
    tops: list[int | None] = [None] * 4
    for top in read_cards(text, f"field {field}"):
        s = top // 13
        if tops[s] is not None:
            raise BadPosition(f"field {field} names {_pile_name(first + s)} twice")
        tops[s] = top
    if None in tops:
        raise BadPosition(f"field {field} needs the top of {_pile_name(first + tops.index(None))} (at least its "
                          f"base, the {'ace' if first == UP else 'king'})")
    # each pile as the build rule lays it, from its base up to its top
    needs = [PILE_NEED[first + s] for s in range(4)]
    return [list(need[:need.index(top) + 1]) for need, top in zip(needs, tops)]


class _Copies:
    """Card ids for faces, in the order asked: a face's first copy deck 0's card, its second deck 1's."""

    def __init__(self) -> None:
        self.taken: set[int] = set()

    def take(self, face: int) -> int:
        if face == EMPTY:
            return EMPTY
        card = face if face not in self.taken else face + 52
        self.taken.add(card)
        return card


__all__ = ["read", "write"]
