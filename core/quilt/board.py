"""The quilt family's board: its places, its action numbers, and the two facts of the quilt
every rule asks, each said once here: which cards touch a card's short sides (:data:`_N1`,
:data:`_N2`: a quilt card is available when one of them is empty, :func:`available_in`), and which
two cards lie next to each other in a suit (:func:`adjacent`).

The quilt's cells are numbered row-major, ``row * 8 + column`` (both from 0), and named
``a1``..``h8``.  Actions name places, never cards (the two decks give every code twice): a move is
``SOURCE>TARGET`` with the sources ``a1``..``h8`` (quilt cells), ``w`` (the waste top) and
``r1``..``r8`` (reserve tops), and the targets ``UC`` ``US`` ``UH`` ``UD`` (the up piles, ace to
king), ``DC`` ``DS`` ``DH`` ``DD`` (the down piles, king to ace), ``w`` (onto the waste top) and
``r1``..``r8`` (onto a reserve top).  The stock games add the words ``turn`` and ``redeal``.  The
action index is ``FIRST_MOVE + source * 17 + target`` (sources: cells 0..63, waste 64, reserves
65..72; targets: up piles 0..3, down piles 4..7, waste 8, reserves 9..16), then ``TURN`` and
``REDEAL``; index order is the canonical order of ``QuiltState.legal_actions``.
"""

from __future__ import annotations

from itertools import repeat

from carpet.core.cards import SUITS
from carpet.core.game import FIRST_ACTION

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


def cell_name(cell: int) -> str:
    return f"{ROW_NAMES[cell // COLS]}{cell % COLS + 1}"


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


def available_in(cells, cell: int) -> bool:
    """Whether the card in ``cell`` (of a quilt ``cells``, OFF included) is available: a card lies
    there and one of its short sides touches no card (the quilt's one rule of freedom)."""
    return cells[cell] >= 0 and (cells[_N1[cell]] < 0 or cells[_N2[cell]] < 0)


#: cell -> the cells whose short side touches it: emptying ``cell`` makes their cards available
#: (:func:`available_in`: one of a card's short sides then touches no card), and no other's
def _touching() -> tuple[tuple[int, ...], ...]:
    touching: list[list[int]] = [[] for _ in range(CELLS + 1)]
    for n, sides in enumerate(_NEIGHBOURS):  # (lowest first)
        for cell in sides:
            touching[cell].append(n)
    return tuple(map(tuple, touching[:CELLS]))


TOUCHING = _touching()


def free_flags(cells) -> bytearray:
    """:func:`available_in` of every cell of a quilt, OFF's (always 0) included: what
    ``QuiltState.free`` keeps, brought up to date cell by cell as cards leave (:data:`TOUCHING`)."""
    return bytearray(map(available_in, repeat(cells), range(CELLS + 1)))


def pile_need(pile: int, held: int) -> int:
    """The quilt family's one build rule of the foundations: the face pile ``pile`` takes next
    when it holds ``held`` cards (its base included; with none, the base itself): an up pile
    (UP + suit) builds up in suit from the ace, a down pile (DOWN + suit) down from the king;
    -1 once it holds 13 (complete)."""
    if held >= 13:
        return -1
    suit = pile % 4
    return suit * 13 + (held if pile < DOWN else 12 - held)


#: pile -> cards held (0..13) -> :func:`pile_need`, made once: what the transitions read
PILE_NEED = tuple(tuple(pile_need(pile, held) for held in range(14)) for pile in range(8))


def taken_before(pile: int, need: int, face: int) -> tuple[int, int] | None:
    """The faces foundation ``pile`` takes before ``face`` (of its suit), from ``need`` on (the
    face it takes next; -1: complete), as the ids ``start`` .. ``stop - 1`` (a pile takes its
    suit's faces one by one in order, :func:`pile_need`, and a suit's faces are consecutive
    ids); None where it never takes ``face`` now (complete, or past it)."""
    if need < 0:
        return None
    if pile < DOWN:
        return (need, face) if need <= face else None
    return (face + 1, need + 1) if need >= face else None


#: (pile, need) -> :func:`taken_before` of each face 0..51, worked out when first asked: the
#: search's proofs read a suit's two rows all through a pass over the quilt
_TAKEN_ROWS: dict = {}


def taken_row(pile: int, need: int) -> tuple:
    """:func:`taken_before` of ``pile`` and ``need`` for every face 0..51 (index it by faces
    of the pile's suit), made once."""
    row = _TAKEN_ROWS.get((pile, need))
    if row is None:
        row = _TAKEN_ROWS[pile, need] = tuple(taken_before(pile, need, face) for face in range(52))
    return row


def held_score(on_found: int) -> int:
    """The score of foundations holding ``on_found`` cards: one for every card put up, the eight
    bases of the deal not counted."""
    return on_found - len(BASES)


#: cards on the foundations (0..104) -> :func:`held_score`, made once: what the transitions read
HELD_SCORE = tuple(held_score(n) for n in range(DECK_CARDS + 1))


def adjacent(face: int, other: int) -> bool:
    """Same suit and one rank apart (ace and king are not): what goes onto the waste or a reserve."""
    return face // 13 == other // 13 and (face - other == 1 or other - face == 1)


#: face -> the faces that go onto it on the waste or a reserve (and it onto them), made once from
#: :func:`adjacent`, lower first: what every path that looks for such a card reads
NEXT_TO = tuple(tuple(other for other in (face - 1, face + 1) if 0 <= other < 52 and adjacent(face, other))
                for face in range(52))


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


_PILE_NAMES = ("clubs", "spades", "hearts", "diamonds")


def pile_name(target: int) -> str:
    return f"the {'up' if target < DOWN else 'down'} pile of {_PILE_NAMES[target % 4]}"
