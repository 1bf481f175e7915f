"""The grid family (Коврик and the Montana games), its rules written once.

- rules.py: the board, the deal, the position and the transitions as small primitives
  (``GridState``), what every path plays: a session, the one replay of a log, the solver, the
  hint, the players;
- codes.py: the version-2 log's action codes, relative to the position (docs/format.md,
  "Action codes"), which formats/ asks of the family;
- variants.py: ``GridVariant``, the action text and parsing, the Коврик games as entries and
  their rules prose; montana.py: the Montana games, one entry each;
- position.py: positions as text.
"""

from .rules import (ANY_SUIT_NEXT, EMPTY, FIRST_MOVE, NOTATION_COLS, NOTATION_ROWS, OUT, REDEAL, ROW_NAMES,
                    SUIT_HIGHER, SUIT_NEXT, Board, GridState, _redeal_plan, deal_beside_column_0, gap_spaces)
from .variants import VARIANTS, GridVariant

__all__ = ["ANY_SUIT_NEXT", "EMPTY", "FIRST_MOVE", "NOTATION_COLS", "NOTATION_ROWS", "OUT", "REDEAL", "ROW_NAMES",
           "SUIT_HIGHER", "SUIT_NEXT", "Board", "GridState", "deal_beside_column_0", "gap_spaces", "VARIANTS",
           "GridVariant"]
