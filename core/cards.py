"""Cards as small integers, and their text.

A card is its PySol id: ``deck * 52 + suit * 13 + rank`` with suits in PySol's
order ♣ ♠ ♥ ♦ (0..3) and ranks A..K (0..12).  Two cards of a two-deck game
that differ only in deck share a *face* (``card % 52``) and so a code.
"""

from __future__ import annotations

from .errors import BadAction

RANKS = "A23456789TJQK"
SUITS = "CSHD"  # PySol order: clubs, spades, hearts, diamonds
SUIT_SYMBOLS = "♣♠♥♦"
ACE, KING = 0, 12
CLUBS, SPADES, HEARTS, DIAMONDS = range(4)
RED_SUITS = frozenset((HEARTS, DIAMONDS))

_SYMBOL_TO_LETTER = dict(zip(SUIT_SYMBOLS, SUITS)) | {"♤": "S", "♡": "H", "♢": "D", "♧": "C"}


def rank(card: int) -> int:
    return card % 13


def suit(card: int) -> int:
    return card // 13 % 4


def face(card: int) -> int:
    """The card as it looks: deck dropped."""
    return card % 52


def make(suit_: int, rank_: int, deck: int = 0) -> int:
    return deck * 52 + suit_ * 13 + rank_


CODES: tuple[str, ...] = tuple(RANKS[r] + SUITS[s] for s in range(4) for r in range(13))


def code(card: int) -> str:
    """``'TD'`` for the ten of diamonds, whichever deck it comes from."""
    return CODES[card % 52]


_FACE_BY_TEXT: dict[str, int] = {}
for _face, _code in enumerate(CODES):
    _FACE_BY_TEXT[_code] = _face


def parse_face(text: str) -> int:
    """A card code typed by a person, as a face (0..51).

    Accepts ``TD``, ``10D``, lower case and suit symbols (``10♦``, ``t♦``).
    """
    t = text.strip().upper()
    if t and t[-1] in _SYMBOL_TO_LETTER:
        t = t[:-1] + _SYMBOL_TO_LETTER[t[-1]]
    if t.startswith("10"):
        t = "T" + t[2:]
    found = _FACE_BY_TEXT.get(t)
    if found is None:
        raise BadAction(f"not a card: {text!r} (cards look like 7H, TD, 10♦, as)")
    return found


def looks_like_card(text: str) -> bool:
    try:
        parse_face(text)
    except BadAction:
        return False
    return True
