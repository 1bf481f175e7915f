"""Every game id the engine knows, as its Variant, found through the families' registry.

A family's module is imported only when one of its games is asked for, so a command
that reads a kovrik log never loads the quilt family.  Which games there are and where
their rules are is core/families.py's record of each family.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from .errors import UnknownGame
from .families import FAMILY_OF
from .game import Variant

class _Games(Mapping):
    """``{game id: Variant}``, loading each family's module on first use."""

    def __init__(self) -> None:
        self._loaded: dict[str, Variant] = {}

    def __getitem__(self, game_id: str) -> Variant:
        variant = self._loaded.get(game_id)
        if variant is None:
            module = FAMILY_OF[game_id].games[game_id]()  # KeyError for an unknown id
            for v in module.VARIANTS:
                self._loaded[v.id] = v
            variant = self._loaded[game_id]
        return variant

    def __iter__(self) -> Iterator[str]:
        return iter(FAMILY_OF)

    def __len__(self) -> int:
        return len(FAMILY_OF)

    def __contains__(self, game_id: object) -> bool:
        return game_id in FAMILY_OF


GAMES: Mapping[str, Variant] = _Games()


def get_game(game_id: str) -> Variant:
    try:
        return GAMES[game_id.strip().lower()]
    except KeyError:
        raise UnknownGame(f"unknown game {game_id!r}; known: {', '.join(GAMES)}") from None
