"""The players a survey can put on a deal: a small registry, name -> how to play one deal.

Each player takes a fresh :class:`Session` and a budget (the solver's nodes per deal; None
for players that have none), plays or searches, and says how the deal came out:

- ``simple``: the built-in simple player (``State.auto_action``, :func:`.autoplay.play_out`);
- ``hint``: follows the hint (:func:`carpet.core.hint.hint_action`) until the game ends or the hint names nothing;
- ``seen``: follows the seen hint (:func:`carpet.core.seen.seen_hint`: only what the player
  has seen) the same way;
- ``solve``: the solver (:func:`carpet.core.solver.solve`) with a node budget;
- ``simple-seen``: the simple player's choice made on one order of the unseen cards drawn from
  what the player has seen (:func:`carpet.core.seen.simple_seen_action`), drawn afresh at every
  step.  It is ``simple`` wherever the simple player reads nothing hidden (the carpet and grid
  families); in the quilt family, whose simple player's look-ahead reads the true stock, it is
  the yardstick that does not peek.

A player's loss is not a proof: ``simple``, ``hint``, ``seen`` and ``simple-seen`` end ``won`` or
``lost``; only the solver proves a deal ``unwinnable``, and says ``unknown`` when its budget ran out first.

A player is found by name in :data:`PLAYERS` and its function by import path, so that a
worker process (or a Dask worker on another machine) finds the same function from the name
alone; a test can add a player of its own.  No clock here: the runner times each deal.
"""

from __future__ import annotations

from dataclasses import dataclass
from importlib import import_module
from typing import Callable, NamedTuple

from .errors import CarpetError
from .families import FAMILIES
from .game import FIRST_ACTION, WON
from .session import Session

#: the most actions the simple and hint players take on one deal
ACTION_CAP = 5000

#: how a deal ends, for a survey
RESULTS = ("won", "lost", "unwinnable", "unknown")


class Played(NamedTuple):
    """How one deal came out under one player."""

    #: "won", "lost" (the player failed: no proof), "unwinnable" (proven), "unknown" (budget spent)
    result: str
    #: counted moves (the session's counter; the solver's for its line)
    moves: int
    score: int
    #: actions the player applied (the length of the solver's line)
    actions: int
    #: search nodes spent (0 for players that do not search)
    nodes: int


@dataclass(frozen=True)
class Player:
    name: str
    #: "module:function" of a function (session, budget) -> Played
    target: str
    #: what the player does, for --help
    summary: str
    #: whether it takes a node budget (--nodes)
    budget: bool = False
    #: deals per chunk where the family names no figure for this player
    default_chunk: int = 1

    def chunk_for(self, family: str) -> int:
        """Deals per chunk for this player in a game of ``family`` (core/families.py, ``Family.chunks``)."""
        return FAMILIES[family].chunks.get(self.name, self.default_chunk)

    def function(self) -> Callable[[Session, "int | None"], Played]:
        module, _, name = self.target.partition(":")
        return getattr(import_module(module), name)


class UnknownPlayer(CarpetError):
    pass


def get_player(name: str) -> Player:
    try:
        return PLAYERS[name.strip().lower()]
    except KeyError:
        raise UnknownPlayer(f"unknown player {name!r}; known: {', '.join(PLAYERS)}") from None


def _ended(session: Session, actions: int) -> Played:
    result = "won" if session.status == WON else "lost"
    return Played(result, session.moves, session.score, actions, 0)


def simple(session: Session, budget: int | None = None) -> Played:
    """The built-in simple player, as ``carpet autoplay`` plays."""
    from .autoplay import play_out

    return _ended(session, play_out(session, ACTION_CAP))


def hint(session: Session, budget: int | None = None) -> Played:
    """Play what the hint (core/hint.py, ``hint_action``) names until the game ends, it names nothing, or
    :data:`ACTION_CAP` actions.

    A hint depends on the position alone, so a position coming back means the hint would
    go round the same circle for ever: play stops there too (:func:`.autoplay.play_out`).
    """
    from .autoplay import play_out

    return _ended(session, play_out(session, ACTION_CAP, choose=_hinted))


def _hinted(session: Session) -> int | None:
    """The action the hint names, or None when it names none."""
    from .hint import hint_action

    action = hint_action(session)
    return None if action is None or action < FIRST_ACTION else action


def seen(session: Session, budget: int | None = None) -> Played:
    """Play what the seen hint names (core/seen.py), as :func:`hint` plays the hint."""
    from .autoplay import play_out
    from .seen import seen_hint

    def choose(session: Session) -> int | None:
        action = seen_hint(session)
        return None if action is None or action < FIRST_ACTION else action

    return _ended(session, play_out(session, ACTION_CAP, choose=choose))


def simple_seen(session: Session, budget: int | None = None) -> Played:
    """The simple player on an order of the unseen cards drawn from what it has seen
    (core/seen.py, ``simple_seen_action``): the fair yardstick where the simple player peeks."""
    from .autoplay import play_out
    from .seen import simple_seen_action

    return _ended(session, play_out(session, ACTION_CAP, choose=simple_seen_action))


def solve(session: Session, budget: int | None = None) -> Played:
    """The solver, within ``budget`` nodes (its default when None)."""
    from .solver import DEFAULT_NODES, solve as solver

    solution = solver(session, nodes=DEFAULT_NODES if budget is None else budget)
    return Played(solution.result, solution.moves, solution.score, len(solution.line), solution.nodes)


#: name -> player, in the order --help lists them
PLAYERS: dict[str, Player] = {
    "simple": Player("simple", f"{__name__}:simple", "the built-in simple player (autoplay)"),
    "hint": Player("hint", f"{__name__}:hint", "follows the hint until the game ends"),
    "seen": Player("seen", f"{__name__}:seen", "follows the hint that sees only what the player has seen"),
    "solve": Player("solve", f"{__name__}:solve", "the solver, --nodes per deal", budget=True),
    "simple-seen": Player("simple-seen", f"{__name__}:simple_seen", "the simple player, choosing on an order "
                          "of the unseen cards drawn from what it has seen", default_chunk=10),
}
