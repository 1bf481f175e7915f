"""The ways a request to the engine can be wrong, each its own type.

The CLI turns each into one line and an exit code; nothing here prints.
"""

from __future__ import annotations


class CarpetError(ValueError):
    """Anything the engine refuses.  The message is one line, for a person."""


class UnknownGame(CarpetError):
    """A game id that no variant has."""


class BadDealNumber(CarpetError):
    """Deal-number text outside the PySol numbering."""


class BadAction(CarpetError):
    """Text that is not an action of this game at all."""


class IllegalAction(CarpetError):
    """A well-formed action that the rules do not allow in this position."""
