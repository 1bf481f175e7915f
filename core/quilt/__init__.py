"""The quilt family (Crazy Quilt, Indian Carpet, Persian Carpet), two decks, its rules written once.

- board.py: the quilt's places and action numbers, and what makes a quilt card available and two
  cards neighbours in a suit, each said once;
- rules.py: the position, the deal and the transitions as small primitives (``QuiltState``),
  what every path plays: a session, the one replay of a log, the solver, the hint, the players;
- search.py: what the solver, the hint and the simple player ask of a position;
- codes.py: the version-2 log's action codes, relative to the position (docs/format.md,
  "Action codes"), which formats/ asks of the family;
- variants.py: the three games as entries, their action text and parsing, their rules prose;
- position.py: positions as text (docs/format.md, "Positions as text").
"""

from .board import (ACTION_COUNT, BASES, CELL_TO_FOUNDATION, CELL_TO_RESERVE, CELL_TO_WASTE, CELLS, COLS,
                    DECK_CARDS, DOWN, DOWN_BASES, EMPTY, FIRST_MOVE, FIRST_RESERVE, OFF, REDEAL, REDEAL_KIND,
                    RESERVE_TO_FOUNDATION, RESERVE_TO_RESERVE, RESERVES, ROW_NAMES, ROWS, SOURCES, TARGETS,
                    TO_RESERVE, TO_WASTE, TURN, TURN_KIND, UP, UP_BASES, WASTE, WASTE_TO_FOUNDATION, adjacent,
                    available_in, cell_name, move_action, orientation, pile_name, source_name, split, target_name)
from .rules import QuiltState
from .variants import (ANY_FOUNDATION, VARIANTS, AmbiguousAction, QuiltVariant, parse_cell, parse_source,
                       parse_target)

__all__ = ["ACTION_COUNT", "BASES", "CELL_TO_FOUNDATION", "CELL_TO_RESERVE", "CELL_TO_WASTE", "CELLS", "COLS",
           "DECK_CARDS", "DOWN", "DOWN_BASES", "EMPTY", "FIRST_MOVE", "FIRST_RESERVE", "OFF", "REDEAL",
           "REDEAL_KIND", "RESERVE_TO_FOUNDATION", "RESERVE_TO_RESERVE", "RESERVES", "ROW_NAMES", "ROWS",
           "SOURCES", "TARGETS", "TO_RESERVE", "TO_WASTE", "TURN", "TURN_KIND", "UP", "UP_BASES", "WASTE",
           "WASTE_TO_FOUNDATION", "adjacent", "available_in", "cell_name", "move_action", "orientation",
           "pile_name", "source_name", "split", "target_name", "QuiltState", "ANY_FOUNDATION", "VARIANTS",
           "AmbiguousAction", "QuiltVariant", "parse_cell", "parse_source", "parse_target"]
