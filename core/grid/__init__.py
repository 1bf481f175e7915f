"""The grid family (Коврик and the Montana games), its rules written once.

- board.py: the board, the deal, the action numbers and the relations the rules are made of,
  each stated once, with the tables of what each allows;
- rules.py: the position and the transitions as small primitives (``GridState``), what every
  path plays: a session, the one replay of a log, the solver, the hint, the players;
- search.py: what a search asks of a position (key, order of actions, progress, bounds) and the
  ranking the hint and the built-in player follow, all through rules.py (``GridSearch``, the
  base of ``GridState``); proofs.py: Spaces and Aces' dead ends;
- codes.py: the version-2 log's action codes, relative to the position (docs/format.md,
  "Action codes"), which formats/ asks of the family;
- variants.py: ``GridVariant``, the action text and parsing, the Коврик games as entries and
  their rules prose; montana.py: the Montana games, one entry each;
- position.py: positions as text.
"""

from .board import (ANY_SUIT_NEXT, EMPTY, FIRST_MOVE, NOTATION_COLS, NOTATION_ROWS, OUT, REDEAL, ROW_NAMES,
                    SUIT_HIGHER, SUIT_NEXT, Board, deal_beside_column_0, gap_spaces)
from .rules import GridState
from .variants import VARIANTS, GridVariant

__all__ = ["ANY_SUIT_NEXT", "EMPTY", "FIRST_MOVE", "NOTATION_COLS", "NOTATION_ROWS", "OUT", "REDEAL", "ROW_NAMES",
           "SUIT_HIGHER", "SUIT_NEXT", "Board", "GridState", "deal_beside_column_0", "gap_spaces", "VARIANTS",
           "GridVariant"]
