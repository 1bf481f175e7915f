"""A game session: one deal, every event played on it, and the counters.

The session is the only place that knows about hint, undo, restart, counted
moves and the clock; variants only know positions.  It reads no clock itself:
every event comes with the reading the caller took (the session clock, in
milliseconds since the attempt began).
"""

from __future__ import annotations

from array import array
from typing import TYPE_CHECKING

from .errors import IllegalAction
from .game import FIRST_ACTION, HINT, LOST, PLAYING, RESTART, UNDO, WON, State, Variant
from .numbering import Deal

if TYPE_CHECKING:  # (loaded only for a game started from a position)
    from .position import Start


def deal_state(variant: Variant, deal: "Deal | Start") -> State:
    """The state a session starts from: its deal number's, or, a game started from a position
    (``deal`` a :class:`carpet.core.position.Start`), that position's."""
    if type(deal) is Deal:
        return variant.new_state(deal)
    return deal.new_state(variant)


#: the largest clock reading (ms, about 34 years) a session takes: what every form of the log holds
CLOCK_LIMIT = 2**40


class Events:
    """The events of a session, (action, clock ms) pairs, kept as two flat arrays.

    Behaves as a list of pairs (``len``, iteration, indexing, slicing, ``append``, ``==``
    with a list) at 12 bytes an event instead of a tuple per event: a log of millions of
    events fits in memory (docs/format.md, "Reading").
    """

    __slots__ = ("actions", "clocks", "memo")

    def __init__(self, pairs=(), *, actions: array | None = None, clocks: array | None = None) -> None:
        self.actions = array("I") if actions is None else actions
        self.clocks = array("q") if clocks is None else clocks
        #: what a reader learnt about exactly these events (formats/log.py keeps its replay here)
        self.memo = None
        for action, clock in pairs:
            self.actions.append(action)
            self.clocks.append(clock)

    def __len__(self) -> int:
        return len(self.actions)

    def __iter__(self):
        return zip(self.actions, self.clocks)

    def __getitem__(self, index):
        if isinstance(index, slice):
            return Events(actions=self.actions[index], clocks=self.clocks[index])
        return self.actions[index], self.clocks[index]

    def append(self, event: tuple[int, int]) -> None:
        self.memo = None
        self.actions.append(event[0])
        self.clocks.append(event[1])

    def __setitem__(self, index: int, event: tuple[int, int]) -> None:
        self.memo = None
        self.actions[index], self.clocks[index] = event

    def __eq__(self, other) -> bool:
        if isinstance(other, Events):
            return self.actions == other.actions and self.clocks == other.clocks
        try:
            return len(other) == len(self) and all(a == b for a, b in zip(self, other))
        except TypeError:
            return NotImplemented

    def __repr__(self) -> str:
        return f"Events({list(self)!r})"


class Session:
    __slots__ = ("variant", "deal", "state", "events", "moves", "bonus", "clock_ms",
                 "earlier_attempts_ms", "_history", "_start", "__weakref__")

    def __init__(self, variant: Variant, deal: "Deal | Start", *, state: State | None = None) -> None:
        self.variant = variant
        self.deal = deal
        if state is None:
            self.state: State = deal_state(variant, deal)
            self._start = self.state.snapshot()
            #: every event accepted, as (action, clock reading in ms)
            self.events: Events | None = Events()
        else:
            #: ``state``: the deal's position made already (the one replay deals by a fast copy of
            #: new_state and plays on at once): the snapshot restart needs is taken before a restart
            #: is played, or dealt again; its events are left to the replay, which fills them
            self.state = state
            self._start = None
            self.events = None
        self.moves = 0
        self.bonus = 0
        self.clock_ms = 0
        #: the clock readings of every restart added up: time spent on earlier attempts
        self.earlier_attempts_ms = 0
        #: for undo: (state snapshot, moves) before each position-changing action
        self._history: list[tuple[object, int]] = []

    def remember_start(self) -> None:
        """Take the snapshot restart brings back from the present position, where it is the deal's:
        a session made on a given state (the one replay's), before it plays events with a restart."""
        if self._start is None:
            self._start = self.state.snapshot()

    @property
    def _initial(self) -> object:
        """The deal's position as a snapshot (what restart brings back)."""
        start = self._start
        if start is None:
            start = self._start = deal_state(self.variant, self.deal).snapshot()
        return start

    # --- reading ------------------------------------------------------------------
    @property
    def status(self) -> str:
        return self.state.status

    @property
    def score(self) -> int:
        return self.state.score + self.bonus

    @property
    def redeals_left(self) -> int | None:
        return self.state.redeals_left

    @property
    def initial_digest(self) -> str:
        fresh = deal_state(self.variant, self.deal)
        return fresh.digest()

    def legal_actions(self) -> list[int]:
        """Variant actions legal now (hint and restart are always possible; undo when history exists)."""
        if self.state.status == WON:
            return []
        return self.state.legal_actions()

    def hint(self) -> int | None:
        """The action a hint names here, or None when the game is over (core/solver.py)."""
        from .solver import hint_action  # the search is loaded only when a hint is asked

        return hint_action(self)

    def attempt_snapshots(self) -> list[object]:
        """Snapshots of the positions this attempt went through to reach the present one, oldest
        first (what undo would bring back; the present position is ``state``)."""
        return [snap for snap, _moves in self._history]

    def can_undo(self) -> bool:
        return bool(self._history) and self.state.status != WON

    def parse(self, text: str) -> int:
        return self.variant.parse(text, self.state)

    # --- playing ------------------------------------------------------------------
    def act(self, action: int, clock_ms: int) -> None:
        """Apply one event.  Raises IllegalAction (or CarpetError) and changes nothing if refused."""
        if clock_ms < self.clock_ms:
            raise IllegalAction(f"clock reading {clock_ms} ms is before the previous one ({self.clock_ms} ms)")
        if clock_ms > CLOCK_LIMIT:  # (refused before anything changes: no log could hold it)
            raise IllegalAction(f"clock reading {clock_ms} ms is beyond 2^40 ms")
        state = self.state
        if action >= FIRST_ACTION:
            if state.status == WON:
                raise IllegalAction("the game is won")
            snap = state.snapshot()
            state.apply(action)  # raises before changing anything
            self._history.append((snap, self.moves))
            self.moves += 1
            if state.status == WON:
                self.bonus = self.variant.win_bonus(self.moves)
        elif action == HINT:
            # What the hint names is not part of the game: only whether there was anything to
            # name (the game still going), which decides if it counts. Verifying a log therefore
            # never runs a hint's search; hint() answers when a person asks.
            if state.status == PLAYING and self.variant.hint_counts:
                self.moves += 1
        elif action == UNDO:
            self._undo()
        elif action == RESTART:
            state.restore(self._initial)
            self._history.clear()
            self.moves = 0
            self.bonus = 0
            self.events.append((action, clock_ms))
            self.earlier_attempts_ms += clock_ms
            self.clock_ms = 0  # the new attempt's clock starts again
            return
        else:
            raise IllegalAction(f"no such action: {action}")
        self.events.append((action, clock_ms))
        self.clock_ms = clock_ms

    def _undo(self) -> None:
        state = self.state
        if state.status == WON:
            raise IllegalAction("the game is won; only restart is possible")
        if not self._history:
            raise IllegalAction("nothing to undo")
        snap, moves_before = self._history.pop()
        used = state.redeals_used
        state.restore(snap)
        if not self.variant.undo_refunds_redeal and state.redeals_used != used:
            state.redeals_used = used
            state.update_status()
        if self.variant.undo_counts:
            self.moves += 1
        else:
            self.moves = moves_before

    def play_text(self, text: str, clock_ms: int) -> int:
        """Parse and apply one action typed by a person; returns the action index."""
        action = self.parse(text)
        self.act(action, clock_ms)
        return action

    # --- derived ------------------------------------------------------------------
    @classmethod
    def replay(cls, variant: Variant, deal: Deal, events) -> "Session":
        """The session after the given (action, clock) events; raises at the first illegal one."""
        session = cls(variant, deal)
        act = session.act
        for action, clock_ms in events:
            act(action, clock_ms)
        return session


def play_codes(state: State, codes, i: int, end: int, actions, play, undone=None, snaps=None,
               base: int = 0) -> int:
    """Play the moves ``codes[i:end]`` (a version-2 log's action codes) on ``state`` by its family's
    rules, written once: ``play(state, code)`` (the family's codes) plays the action a code names
    and returns it, or returns a number below FIRST_ACTION having changed nothing where the code
    names none or the rules refuse it.  Appends each action played to ``actions``; returns the
    index of the first event not played: a session event (the caller's: hint, undo, restart), one
    refused (the caller plays it again for the reason), ``end``, or the event after a win.
    ``undone`` (with ``snaps`` and ``base``): the events a later undo takes back, 1 at their
    index (formats/replay.py, ``undone``); before each, the position is saved in
    ``snaps[base + k]``, k the events played so far in this call."""
    if i >= end or state.status == WON:
        return i
    append = actions.append
    start = i
    mark = -1 if undone is None else undone.find(1, i, end)
    for i in range(i, end):
        code = codes[i]
        if code <= RESTART:
            return i
        if i == mark:
            snaps[base + i - start] = state.snapshot()
            mark = undone.find(1, i + 1, end)
        action = play(state, code)
        if action < FIRST_ACTION:
            return i
        append(action)
        if state.status == WON:
            return i + 1
    return end


__all__ = ["CLOCK_LIMIT", "Events", "Session", "play_codes", "PLAYING", "WON", "LOST"]
