"""Build grid positions from text for rule tests: 4 lines of 14 cells, `..` for a gap."""

from carpet.core import get_game
from carpet.core.grid import GridState


def grid(game: str, text: str) -> GridState:
    rows = [[None if cell == ".." else cell for cell in line.split()] for line in text.strip().splitlines()]
    return GridState.from_rows(get_game(game), rows)


# a: A♣ 2♣ locked, gap a2, then 4♣ 3♣ (3♣ to a2 locks 3♣ and 4♣ at once)
# b: no prefix, gaps b0, b5 (right of 5♥) and b13 (right of K♥: dead)
# c: A♠..K♠ complete and locked, 6♥ in c13 (unlocked)
# d: A♥ locked alone (A♦ next to it is no 2♥)
BASIC = """
AC 2C .. 4C 3C 5C 6C 7C 8C 9C TC JC QC KD
.. 2H 3H 4H 5H .. 7H 8H 9H TH JH QH KH ..
AS 2S 3S 4S 5S 6S 7S 8S 9S TS JS QS KS 6H
AH AD 2D 3D 4D 5D 6D 7D 8D 9D TD JD QD KC
"""
