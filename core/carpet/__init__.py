"""The carpet family (Carpet, Aisleriot's Carpet, Foster's 1914 Carpet), its rules written once.

- board.py: the cells, the action numbers, the foundations' build rule and score, each stated once;
- rules.py: the position, the deal and the transitions as small primitives (``CarpetState``),
  what every path plays: a session, the one replay of a log, the solver, the hint, the players;
- search.py: what a search asks of a position (key, safe actions, dead-end proof, order,
  progress, bound) and the simple player's choice, all through rules.py (``CarpetSearch``, the
  base of ``CarpetState``);
- codes.py: the version-2 log's action codes, relative to the position (docs/format.md,
  "Action codes"), which formats/ asks of the family;
- variants.py: the three games as entries, their action text and parsing, their rules prose.
"""

from .board import (ACTION_COUNT, CELL_NAMES, CELL_TO_FOUNDATION, CELLS, COLS, EMPTY, ROW_NAMES, ROWS,
                    STOCK_FILL, SUIT_NAMES, TURN, WASTE_FILL, WASTE_TO_FOUNDATION, cell_name)
from .rules import CarpetState
from .variants import VARIANTS, CarpetVariant, is_cell, parse_cell

__all__ = ["ACTION_COUNT", "CELL_NAMES", "CELL_TO_FOUNDATION", "CELLS", "COLS", "EMPTY", "ROW_NAMES", "ROWS",
           "STOCK_FILL", "SUIT_NAMES", "TURN", "WASTE_FILL", "WASTE_TO_FOUNDATION", "CarpetState", "cell_name",
           "VARIANTS", "CarpetVariant", "is_cell", "parse_cell"]
