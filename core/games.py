"""Every game id the engine knows, and the module that states its rules.

A family's module is imported only when one of its games is asked for, so a command
that reads a kovrik log never loads the quilt family.  A new variant is a new entry
below and a ``VARIANTS`` tuple in its module.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from importlib import import_module

from .errors import UnknownGame
from .game import Variant

#: game id -> module of this package whose VARIANTS holds it, in the order `carpet games` lists them
WHERE: dict[str, str] = {
    "kovrik": "grid",
    "kovrik-hard": "grid",
    "kovrik-shuffle": "grid",
    "kovrik-shuffle-2": "grid",
    "montana": "montana",
    "spaces": "montana",
    "station": "montana",
    "free-parking": "montana",
    "blue-moon": "montana",
    "red-moon": "montana",
    "galary": "montana",
    "jungle": "montana",
    "spaces-and-aces": "montana",
    "carpet": "carpet",
    "carpet-auto": "carpet",
    "carpet-foster": "carpet",
    "crazy-quilt": "quilt",
    "indian-carpet": "quilt",
    "persian-carpet": "quilt",
}


class _Games(Mapping):
    """``{game id: Variant}``, loading each family's module on first use."""

    def __init__(self) -> None:
        self._loaded: dict[str, Variant] = {}

    def __getitem__(self, game_id: str) -> Variant:
        variant = self._loaded.get(game_id)
        if variant is None:
            module = import_module(f".{WHERE[game_id]}", __package__)  # KeyError for an unknown id
            for v in module.VARIANTS:
                self._loaded[v.id] = v
            variant = self._loaded[game_id]
        return variant

    def __iter__(self) -> Iterator[str]:
        return iter(WHERE)

    def __len__(self) -> int:
        return len(WHERE)

    def __contains__(self, game_id: object) -> bool:
        return game_id in WHERE


GAMES: Mapping[str, Variant] = _Games()


def get_game(game_id: str) -> Variant:
    try:
        return GAMES[game_id.strip().lower()]
    except KeyError:
        raise UnknownGame(f"unknown game {game_id!r}; known: {', '.join(GAMES)}") from None
