"""The game engine: cards, the PySol numbering, the variants and the session.

No I/O, no clock, no randomness but the seeded generator held in a game state.
"""

import sys
from importlib import import_module

__version__ = "0.1.0"
TOOL = f"carpet {__version__}"  # what a log's header names as the program that wrote it


def lazy_names(package: str, homes: dict[str, str]):
    """A package's ``__getattr__`` (PEP 562): each name of ``homes`` loaded from its module when first asked
    for, then kept in the package, so that a command pays for what it uses (``carpet --version`` and
    ``from carpet.core.errors import ...`` load no rules)."""
    def __getattr__(name: str):
        home = homes.get(name)
        if home is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        value = getattr(import_module(f".{home}", package), name)
        setattr(sys.modules[package], name, value)  # (asked once: the next reads find it there)
        return value
    return __getattr__


__getattr__ = lazy_names(__name__, {
    "BadAction": "errors", "BadDealNumber": "errors", "CarpetError": "errors", "IllegalAction": "errors",
    "UnknownGame": "errors", "HINT": "game", "RESTART": "game", "UNDO": "game", "State": "game", "Variant": "game",
    "GAMES": "games", "get_game": "games", "Deal": "numbering", "parse_deal": "numbering", "Session": "session"})

__all__ = ["GAMES", "get_game", "Deal", "parse_deal", "Session", "State", "Variant",
           "HINT", "UNDO", "RESTART", "CarpetError", "BadAction", "BadDealNumber",
           "IllegalAction", "UnknownGame", "TOOL", "__version__"]
