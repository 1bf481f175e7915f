"""The game engine: cards, the PySol numbering, the variants and the session.

No I/O, no clock, no randomness but the seeded generator held in a game state.
"""

from .errors import BadAction, BadDealNumber, CarpetError, IllegalAction, UnknownGame
from .game import HINT, RESTART, UNDO, State, Variant
from .games import GAMES, get_game
from .numbering import Deal, parse_deal
from .session import Session

__version__ = "0.1.0"

__all__ = ["GAMES", "get_game", "Deal", "parse_deal", "Session", "State", "Variant",
           "HINT", "UNDO", "RESTART", "CarpetError", "BadAction", "BadDealNumber",
           "IllegalAction", "UnknownGame", "__version__"]
