"""Action codes of the binary log, version 2 (docs/format.md, "Action codes").

A version-2 binary log stores each event's action as a small *code* that names it
relative to the position it is played in, so that the usual actions fit one byte (and
the actions of a Carpet game half a byte).  Codes 0, 1, 2 are hint, undo and restart
in every game; from 3 on each family has its own table, kept with its rules
(core/families.py, ``Family.codes``: core/grid/codes.py, core/carpet/codes.py,
core/quilt/codes.py), as a position's notation belongs with the position.  Every action has
a code (the last rows are a fallback that carries the action index itself), and every code
names one action or none, so a writer never meets an action it cannot store and a reader
never guesses.  This module only finds a family's table; tests/test_codec.py pins every
family's round trip.
"""

from __future__ import annotations

from typing import Callable

from carpet.core.families import FAMILIES
from carpet.core.game import NO_ACTION

__all__ = ["NO_ACTION", "codec", "decoder"]


def codec(family: str) -> tuple[Callable, Callable]:
    """The family's (encode, decode): its codes module, loaded with its rules and kept by its record."""
    table = FAMILIES[family].code_table()
    return table.encode, table.decode


def decoder(of) -> Callable:
    """The family's decoder (code -> action): one serves every replay; ``of`` is the family's name,
    or a state of one of its games (a replay asks by the position it starts from)."""
    return codec(of if type(of) is str else of.variant.family)[1]
