"""The one registry of game families: one record per family, which every layer asks.

A family's record says which games it holds and where their rules are, where its log codes
are kept, how the one replay plays its logs in bulk, what its simple player is, the hint's
budget, the survey's chunk sizes and the module that draws its board (cli/).  Modules are
loaded by functions, so that a family is imported only when one of its games is used, and
nothing is found by a module name in a string except what the survey's forkserver preloads
(its API takes names).  A new family is one record here; a new variant of a family is one
entry in its package.
"""

from __future__ import annotations

from types import ModuleType
from typing import Callable


class Family:
    """One family's record (a plain class with slots: a dataclass costs every command about 2.5 ms
    of start-up to build, and this module is loaded by every command that reads a game)."""

    __slots__ = ("name", "games", "renderer", "codes", "positions", "hint_nodes", "chunks", "preload", "_code_table")

    def __init__(self, name: str, games: dict[str, Callable[[], ModuleType]], *, renderer: str,
                 codes: Callable[[], ModuleType], positions: Callable[[], ModuleType],
                 hint_nodes: int, chunks: dict[str, int] | None = None,
                 preload: tuple[str, ...] = ()) -> None:
        self.name = name
        #: game id -> the function that loads the module whose VARIANTS holds it (`carpet games` order)
        self.games = games
        #: the module of cli/ that draws its board (render(state), legend())
        self.renderer = renderer
        #: the module of its log codes, kept with its rules (encode, decode, and play: decode and apply
        #: in one, which the one replay's loop runs)
        self.codes = codes
        #: the module that prints and reads its positions as text (write, read: docs/format.md,
        #: "Positions as text"), which core/position.py asks
        self.positions = positions
        #: the hint's node budget: about a quarter of a second of CPU on the development machine,
        #: so many nodes as the family's nodes cost (one knob of the solver's: docs/solver.md)
        self.hint_nodes = hint_nodes
        #: deals a survey hands out at a time, by player (core/players.py): about a tenth of a second
        #: to a second of work each, so a chunk outweighs handing it to a process, yet an interruption
        #: loses little; a player not named takes its own default (the hint's chunks are small: a hint
        #: may search at every move)
        self.chunks = {} if chunks is None else chunks
        #: the modules a survey's worker processes load before their first deal (names: forkserver's API)
        self.preload = preload
        self._code_table: ModuleType | None = None

    def code_table(self) -> ModuleType:
        """Its codes module (``encode``, ``decode``, ``play``), loaded at the first call and kept: the one
        place every reader and writer of a version-2 log asks (core/session.py, formats/codec.py)."""
        table = self._code_table
        if table is None:
            table = self._code_table = self.codes()
        return table

    def __repr__(self) -> str:
        return f"<Family {self.name}>"


def _grid() -> ModuleType:
    from . import grid
    return grid


def _montana() -> ModuleType:
    from .grid import montana
    return montana


def _grid_codes() -> ModuleType:
    from .grid import codes
    return codes


def _carpet() -> ModuleType:
    from . import carpet
    return carpet


def _carpet_codes() -> ModuleType:
    from .carpet import codes
    return codes


def _grid_positions() -> ModuleType:
    from .grid import position
    return position


def _carpet_positions() -> ModuleType:
    from .carpet import position
    return position


def _quilt_positions() -> ModuleType:
    from .quilt import position
    return position


def _quilt() -> ModuleType:
    from . import quilt
    return quilt


def _quilt_codes() -> ModuleType:
    from .quilt import codes
    return codes


_KOVRIK = ("kovrik", "kovrik-hard", "kovrik-shuffle", "kovrik-shuffle-2")
_MONTANA = ("montana", "spaces", "station", "free-parking", "blue-moon", "red-moon", "galary", "jungle",
            "spaces-and-aces")

FAMILIES: dict[str, Family] = {family.name: family for family in (
    Family("grid", {**{game: _grid for game in _KOVRIK}, **{game: _montana for game in _MONTANA}},
           renderer="draw_grid", positions=_grid_positions, codes=_grid_codes, hint_nodes=50_000,
           chunks={"simple": 200, "hint": 10, "seen": 1},
           preload=("carpet.core.grid", "carpet.core.grid.montana")),
    Family("carpet", {game: _carpet for game in ("carpet", "carpet-auto", "carpet-foster")},
           renderer="draw_carpet", positions=_carpet_positions, codes=_carpet_codes, hint_nodes=80_000,
           chunks={"simple": 400, "hint": 25, "seen": 10},
           preload=("carpet.core.carpet",)),
    Family("quilt", {game: _quilt for game in ("crazy-quilt", "indian-carpet", "persian-carpet")},
           renderer="draw_quilt", positions=_quilt_positions, codes=_quilt_codes, hint_nodes=15_000,
           chunks={"simple": 2, "hint": 1, "seen": 1},
           preload=("carpet.core.quilt",)),
)}

#: game id -> its family, in the order `carpet games` lists them
FAMILY_OF: dict[str, Family] = {game: family for family in FAMILIES.values() for game in family.games}
