"""What a family knows about its own game, for the solver, the hint and the players: a Protocol.

Every family's state (core/carpet/search.py, core/grid/search.py, core/quilt/search.py) offers
each member; where it knows nothing, it says so with ``None`` in place of the method (no safe
action, no cheap key after an action, no cheaper first action, no forecast) and the solver
skips the call.  How to search (which stages, their budgets, widths, orders and measures) is not
here but in the game's plan (core/plan.py), ``plan``.

Each answer must be *sound*: a wrong one can make the solver call a winnable position
"unwinnable".  Every member reads the position only: none changes the state or what another
member answers (a cache is fine where asking afresh gives the same answer).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable, Hashable, Optional, Protocol

if TYPE_CHECKING:
    from .game import Variant
    from .plan import Plan


class Knowledge(Protocol):
    """The position's own answers (a family's ``State``), beside the State API of core/game.py."""

    @property
    def variant(self) -> Variant:
        """The game's rules (core/game.py)."""

    @property
    def plan(self) -> Plan:
        """The solver's plan for this game (core/plan.py)."""

    @property
    def safe_keeps_score(self) -> bool:
        """True when a safe action never costs a win any score either (every win scoring the same),
        so that ``carpet solve --best`` plays safe actions too."""

    def search_key(self) -> Hashable:
        """The position for transpositions: two positions with the same key have the same future
        (the same actions win from both, up to names of places)."""

    @property
    def search_key_after(self) -> Optional[Callable[[Any, int], Optional[Hashable]]]:
        """``(key, action) ->`` the ``search_key()`` after the legal ``action``, given this position's
        ``key``, without playing it; None where it cannot tell cheaply, and wherever a safe action
        would follow.  The search then skips playing an action into a position it has seen
        (counting its node all the same)."""

    @property
    def safe_action(self) -> Optional[Callable[[], Optional[int]]]:
        """``() ->`` a legal action that can never turn a winnable position into a lost one (a
        card to its foundation where nothing else could use it), or None; the solver plays it
        without trying anything else."""

    def search_actions(self, order: int = 0, key: Optional[Hashable] = None) -> list[int]:
        """The legal actions worth trying, most promising first, in the family's order ``order``
        (0 the usual one; the others rank near-equals differently).  It may leave out an action only
        when one it lists (or a short sequence of them) reaches the same key.  ``key``: the
        position's ``search_key()`` where the caller has it at hand (None: not given), for a family
        that keeps its answers by it."""

    @property
    def search_first(self) -> Optional[Callable[[int], Optional[int]]]:
        """``(order) ->`` ``search_actions(order)[0]`` where told without listing and ranking every
        action, else None.  The search plays it first and lists the rest only when it comes back."""

    def dead_end(self) -> bool:
        """True only when no win is possible from this position (False proves nothing)."""

    def progress(self, measure: int = 0) -> int:
        """How far along the game looks, higher better, by the family's measure ``measure``: what
        the descent's look-ahead compares, the order redeal points are tried in, what a beam
        ranks by and what the hint steers by when no win is found."""

    @property
    def forecast(self) -> Optional[Callable[[], int]]:
        """``() ->`` how many parts of the game look lost as the position lies (a forecast, never a
        proof), which a beam's ways are ranked by first; None where the family has none."""

    def win_score_bound(self, moves: int) -> Optional[int]:
        """The highest score any win from here could end with after ``moves`` counted moves so far,
        win bonus included (``carpet solve --best``); None where no bound is known."""

    @property
    def copy(self) -> Optional[Callable[[], Knowledge]]:
        """``() ->`` a new state in this position that shares nothing that changes; None where the
        deal dealt again and restored is the copy."""


__all__ = ["Knowledge"]
