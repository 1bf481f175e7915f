"""The game engine: cards, the PySol numbering, the variants and the session.

No I/O, no clock, no randomness but the seeded generator held in a game state.
"""

from importlib import import_module

__version__ = "0.1.0"

#: each name of the package -> its module: loaded when first asked for (PEP 562), so that a command
#: pays for what it uses (``carpet --version`` and ``from carpet.core.errors import ...`` load no rules)
_HOME = {"BadAction": "errors", "BadDealNumber": "errors", "CarpetError": "errors", "IllegalAction": "errors",
         "UnknownGame": "errors", "HINT": "game", "RESTART": "game", "UNDO": "game", "State": "game",
         "Variant": "game", "GAMES": "games", "get_game": "games", "Deal": "numbering", "parse_deal": "numbering",
         "Session": "session"}


def __getattr__(name: str):
    home = _HOME.get(name)
    if home is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(import_module(f".{home}", __name__), name)
    globals()[name] = value  # (asked once: the next reads find it here)
    return value


__all__ = ["GAMES", "get_game", "Deal", "parse_deal", "Session", "State", "Variant",
           "HINT", "UNDO", "RESTART", "CarpetError", "BadAction", "BadDealNumber",
           "IllegalAction", "UnknownGame", "__version__"]
