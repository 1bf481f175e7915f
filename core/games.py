"""Every game id the engine knows.  A new variant is a new module whose VARIANTS join here."""

from __future__ import annotations

from . import carpet, grid, quilt
from .errors import UnknownGame
from .game import Variant

GAMES: dict[str, Variant] = {v.id: v for v in (*grid.VARIANTS, *carpet.VARIANTS, *quilt.VARIANTS)}


def get_game(game_id: str) -> Variant:
    try:
        return GAMES[game_id.strip().lower()]
    except KeyError:
        raise UnknownGame(f"unknown game {game_id!r}; known: {', '.join(GAMES)}") from None
