"""A game session: one deal, every event played on it, and the counters.

The session is the only place that knows about hint, undo, restart, counted
moves and the clock; variants only know positions.  It reads no clock itself:
every event comes with the reading the caller took (the session clock, in
milliseconds since the attempt began).
"""

from __future__ import annotations

import re
from array import array
from typing import TYPE_CHECKING, Callable, NamedTuple

from .errors import CarpetError, IllegalAction
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


class ReplayError(CarpetError):
    """An event that cannot be played: ``event`` is its number (1-based)."""

    def __init__(self, message: str, event: int, action: int | None = None) -> None:
        super().__init__(message)
        self.event = event
        #: with action codes: the action indexes decoded up to the refusal (a report shows the position there)
        self.decoded: array | None = None
        #: the action index of that event, where it is known
        self.action = action


class Attempt(NamedTuple):
    """What an attempt ended by a restart came to: its status then (a game restarted while still
    being played is "playing"), its score, counted moves and clock (the restart's reading)."""

    status: str
    score: int
    moves: int
    elapsed_ms: int


_WON_MOVE = "the game is won"
_WON_UNDO = "the game is won; only restart is possible"
_NO_UNDO = "nothing to undo"


class Session:
    __slots__ = ("variant", "deal", "state", "events", "moves", "bonus", "clock_ms",
                 "earlier_attempts_ms", "_history", "_start", "_ended", "__weakref__")

    def __init__(self, variant: Variant, deal: "Deal | Start", *, state: State | None = None) -> None:
        self.variant = variant
        self.deal = deal
        if state is None:
            self.state: State = deal_state(variant, deal)
            self._start = self.state.snapshot()
            #: every event accepted, as (action, clock reading in ms)
            self.events: Events | None = Events()
        else:
            #: ``state``: the deal's position made already (a session to play a whole log on,
            #: :meth:`to_replay`): the snapshot restart needs is taken before a restart is played,
            #: or dealt again; its events are left to the reader, which fills them
            self.state = state
            self._start = None
            self.events = None
        self.moves = 0
        self.bonus = 0
        self.clock_ms = 0
        #: the clock readings of every restart added up: time spent on earlier attempts
        self.earlier_attempts_ms = 0
        #: each attempt a restart ended: (status, score, counted moves, the restart's event index)
        self._ended: list[tuple[str, int, int, int]] = []
        #: for undo: (state snapshot, moves) before each position-changing action
        self._history: list[tuple[object, int]] = []

    @classmethod
    def to_replay(cls, variant: Variant, deal: "Deal | Start") -> "Session":
        """A session of ``deal`` to play a whole log on (:meth:`play_events`): no snapshot of the
        deal until a restart needs it, its events left to the reader."""
        return cls(variant, deal, state=deal_state(variant, deal))

    def remember_start(self) -> None:
        """Take the snapshot restart brings back from the present position, where it is the deal's:
        a session made on a given state (:meth:`to_replay`), before it plays events with a restart."""
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

    def attempt_snapshots(self) -> list[object]:
        """Snapshots of the positions this attempt went through to reach the present one, oldest
        first (what undo would bring back; the present position is ``state``)."""
        return [snap for snap, _moves in self._history]

    @property
    def attempt(self) -> int:
        """The number of the attempt being played: 1, and one more after each restart."""
        return len(self._ended) + 1

    def earlier_attempts(self) -> list[Attempt]:
        """What each attempt a restart ended came to, oldest first: the events hold them (a restart
        is an event), so a log of any version tells them, and no restart erases a finished game."""
        clocks = self.events.clocks if self._ended else ()
        return [Attempt(status, score, moves, clocks[at]) for status, score, moves, at in self._ended]

    def can_undo(self) -> bool:
        return bool(self._history) and self.state.status != WON

    def parse(self, text: str) -> int:
        return self.variant.parse(text, self.state)

    # --- the session's policy, written once: act and play_events both run these -------
    def _hint_counts(self) -> bool:
        """Whether a hint is a counted move now: where the variant counts hints, while the game is
        still being played (its status decided in full here: play_events leaves it "playing" short
        of a win).  What the hint names is not part of the game, only whether there was anything to
        name: playing a log never runs a hint's search (core/hint.py, ``hint_action``, answers
        when a person asks)."""
        state = self.state
        if not self.variant.hint_counts or state.status == WON:
            return False
        full_status = _FULL_STATUS.get(type(state))  # (a state played the usual way has it in full)
        if full_status is not None:
            full_status(state)
        return state.status == PLAYING

    def _undo_to(self, depth: int, snap, moves: int, moves_before: int) -> int:
        """An undo, ``depth`` moves of this attempt to take back: ``snap`` (the position before the
        last of them) comes back, a redeal is not refunded where the variant says so.  Returns the
        counted moves after it (``moves`` now, ``moves_before`` that move); refuses when the game is
        won or nothing is left to take back, changing nothing."""
        state = self.state
        if state.status == WON:
            raise IllegalAction(_WON_UNDO)
        if not depth:
            raise IllegalAction(_NO_UNDO)
        used = state.redeals_used
        state.restore(snap)
        if not self.variant.undo_refunds_redeal and state.redeals_used != used:
            state.redeals_used = used
            state.update_status()
        return moves + 1 if self.variant.undo_counts else moves_before

    def _restart(self, moves: int, bonus: int, event: int) -> None:
        """A restart, event number ``event`` (0-based), ending an attempt of ``moves`` counted moves
        and ``bonus``: what the attempt came to is kept (its status decided in full), then the deal's
        position again, no counted move, no bonus, nothing to undo."""
        state = self.state
        full_status = _FULL_STATUS.get(type(state))  # (play_events plays with the status half-decided)
        if full_status is not None:
            full_status(state)
        self._ended.append((state.status, state.score + bonus, moves, event))
        state.restore(self._initial)
        self._history.clear()
        self.moves = self.bonus = 0

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
                raise IllegalAction(_WON_MOVE)
            snap = state.snapshot()
            state.apply(action)  # raises before changing anything
            self._history.append((snap, self.moves))
            self.moves += 1
            if state.status == WON:
                self.bonus = self.variant.win_bonus(self.moves)
        elif action == HINT:
            if self._hint_counts():
                self.moves += 1
        elif action == UNDO:
            history = self._history
            snap, before = history[-1] if history else (None, 0)
            self.moves = self._undo_to(len(history), snap, self.moves, before)
            history.pop()
        elif action == RESTART:
            self._restart(self.moves, self.bonus, len(self.events))
            self.events.append((action, clock_ms))
            self.earlier_attempts_ms += clock_ms
            self.clock_ms = 0  # the new attempt's clock starts again
            return
        else:
            raise IllegalAction(f"no such action: {action}")
        self.events.append((action, clock_ms))
        self.clock_ms = clock_ms

    def play_text(self, text: str, clock_ms: int) -> int:
        """Parse and apply one action typed by a person; returns the action index."""
        action = self.parse(text)
        self.act(action, clock_ms)
        return action

    def play_events(self, items, *, from_codes: bool, upto: int | None = None, keep_history: bool = False,
                    step: Callable[["Session", int, int], None] | None = None,
                    encode: Callable | None = None, meta=None) -> tuple[array, array | None]:
        """Play a whole sequence of events (a log's) on this session as it was dealt: the same
        policy as :meth:`act` (hint, undo, restart, counted moves, win bonus), at bulk speed.

        ``items``: action indexes, or with ``from_codes`` a version-2 log's action codes (the
        family's, core/families.py ``Family.codes``), runs of moves played by :func:`play_codes`
        over the family's ``play``; ``meta`` (bytes holding hint, undo and restart where ``items``
        does and a larger value elsewhere) is searched for them in its place.  Only the first
        ``upto`` events are played.  Work that cannot change the result is dropped: the status is
        decided in full only where it matters (a hint that counts, and the end: after a move only a
        win is looked for, ``State.update_won``, since no rule's legality depends on a game being
        lost); a position is saved only before a move a later undo takes back (:func:`undone`),
        and no undo stack is kept for a log without undo.  ``keep_history`` saves every position
        an undo could still take back (for play after loading); ``step(session, i, action)`` is
        called after each event, the status in full (for replay frames); ``encode(state, action)``
        gives each event's code, returned (a version-2 log written from actions).

        Sets the state, ``moves`` and ``bonus`` (the clock and ``events`` are the reader's); returns
        the actions decoded from codes (None from action indexes) and the codes (None without
        ``encode``).  Raises :class:`ReplayError` at the first event that cannot be played."""
        n = len(items) if upto is None else min(upto, len(items))
        if n < len(items):
            items = items[:n]
        meta = items if meta is None else meta[:n] if n < len(meta) else meta
        if RESTART in meta:
            self.remember_start()  # (the deal's position: nothing is played yet)
        state = self.state
        cls = type(state)
        if step is None:
            state.__class__ = _LEAN.get(cls) or lean_class(cls)
        try:
            moves, bonus, stack, snaps, actions, codes = self._play_all(items, n, meta, from_codes, keep_history,
                                                                        step, encode)
        finally:
            state.__class__ = cls
        cls.update_status(state)  # the status in full at the end
        self.moves, self.bonus = moves, bonus
        if keep_history:
            self._history = [(snaps[k], stack[k]) for k in range(len(stack))]
        return actions, codes

    def _play_all(self, items, n: int, meta, from_codes: bool, keep_history: bool, step, encode) -> tuple:
        """:meth:`play_events`'s loop over its first ``n`` events, the state's class set for it.  Returns
        (moves, bonus, the undo stack, the positions saved, the actions decoded, the codes)."""
        variant, state = self.variant, self.state
        save = keep_history or step is not None
        play, decode = _family_codes(variant) if from_codes else (None, None)
        kernel = play if not save and encode is None else None  # runs of moves in bulk
        need = None if save else undone(meta)  # the moves a later undo takes back
        actions = array("I") if from_codes else None
        codes = array("I") if encode is not None else None
        stack = array("l")  # counted moves before each move an undo may take back
        snaps: dict[int, object] = {}
        win_bonus = variant.win_bonus
        moves = bonus = 0
        apply, snapshot = state.apply, state.snapshot
        i, action = 0, None
        try:
            while i < n:
                item = items[i]
                if item > RESTART:
                    if kernel is not None:  # a run of moves in bulk, saving the positions undo needs
                        j = play_codes(state, items, i, n, actions, kernel, need, snaps, len(stack))
                        if j > i:
                            if need is not None:
                                stack.extend(range(moves, moves + j - i))
                            moves += j - i
                            if state.status == WON:
                                bonus = win_bonus(moves)
                            i = j
                            continue
                    if from_codes:
                        action = decode(state, item)
                        if action <= RESTART:
                            raise ReplayError(f"no such {variant.id} action here (code {item})", i + 1)
                        actions.append(action)
                    else:
                        action = item
                    if state.status == WON:
                        raise ReplayError(_WON_MOVE, i + 1, action)
                    if codes is not None:
                        codes.append(encode(state, action))
                    if save or (need is not None and need[i]):
                        snaps[len(stack)] = snapshot()
                    apply(action)
                    if save or need is not None:
                        stack.append(moves)
                    moves += 1
                    if state.status == WON:
                        bonus = win_bonus(moves)
                else:
                    action = item
                    if from_codes:
                        actions.append(item)
                    if codes is not None:
                        codes.append(item)
                    moves, bonus = self._session_event(item, i, moves, bonus, stack, snaps)
                if step is not None:
                    self.moves, self.bonus = moves, bonus
                    step(self, i, action)
                i += 1
        except ReplayError as exc:
            exc.decoded = actions
            raise
        except CarpetError as exc:
            refused = ReplayError(str(exc), i + 1, action)
            refused.decoded = actions
            raise refused from None
        return moves, bonus, stack, snaps, actions, codes

    def _session_event(self, item: int, i: int, moves: int, bonus: int, stack: array,
                       snaps: dict) -> tuple[int, int]:
        """Hint, undo or restart, event ``i`` of :meth:`play_events` (its counted moves, bonus, undo
        stack and saved positions): the same policy as :meth:`act`.  Returns (moves, bonus) after it."""
        if item == HINT:
            if self._hint_counts():
                moves += 1
        elif item == UNDO:
            depth = len(stack)
            moves = self._undo_to(depth, snaps.pop(depth - 1, None), moves, stack.pop() if depth else 0)
        else:
            self._restart(moves, bonus, i)
            del stack[:]
            snaps.clear()
            moves = bonus = 0
        return moves, bonus

    # --- derived ------------------------------------------------------------------
    @classmethod
    def replay(cls, variant: Variant, deal: Deal, events) -> "Session":
        """The session after the given (action, clock) events; raises at the first illegal one."""
        session = cls(variant, deal)
        act = session.act
        for action, clock_ms in events:
            act(action, clock_ms)
        return session


#: the lean class of a state's class (:func:`lean_class`) -> the full ``update_status`` it replaces
_FULL_STATUS: dict[type, Callable] = {}
_LEAN: dict[type, type] = {}


def lean_class(cls: type) -> type:
    """``cls`` with ``update_status`` replaced by ``update_won`` (same slots: a state can switch),
    what :meth:`Session.play_events` plays moves with."""
    lean = _LEAN.get(cls)
    if lean is None:
        lean = _LEAN[cls] = type(cls.__name__, (cls,), {"__slots__": (), "update_status": cls.update_won})
        _FULL_STATUS[lean] = cls.update_status
    return lean


def _family_codes(variant: Variant) -> tuple[Callable, Callable]:
    """The family's ``play`` (decode and apply a log code in one) and ``decode``: the rules' own."""
    from .families import FAMILIES

    table = FAMILIES[variant.family].code_table()
    return table.play, table.decode


def undone(items) -> bytearray | None:
    """Which events a later undo takes back (1 at their index), or None when no undo is played."""
    if UNDO not in items:
        return None
    if isinstance(items, (bytes, bytearray)):
        return _undone_in_runs(items)
    need = bytearray(len(items))
    stack = array("l")
    push, pop = stack.append, stack.pop
    for i, item in enumerate(items):
        if item > RESTART:
            push(i)
        elif item == UNDO:
            if stack:
                need[pop()] = 1
        elif item == RESTART:
            del stack[:]
    return need


_SESSION_EVENT = rb"[\x00-\x02]"  # hint, undo, restart among bytes of codes


def _undone_in_runs(items: bytes) -> bytearray:
    """:func:`undone` for bytes: only the session events are visited (found by a regular
    expression), the moves between them kept on the stack as runs [first, end)."""
    need = bytearray(len(items))
    runs: list[list[int]] = []
    last = 0
    for found in re.finditer(_SESSION_EVENT, items):
        at = found.start()
        if at > last:
            runs.append([last, at])
        last = at + 1
        item = items[at]
        if item == UNDO:
            if runs:
                top = runs[-1]
                top[1] -= 1
                need[top[1]] = 1
                if top[1] == top[0]:
                    runs.pop()
        elif item == RESTART:
            runs.clear()
    return need


def play_codes(state: State, codes, i: int, end: int, actions, play, undone=None, snaps=None,
               base: int = 0) -> int:
    """Play the moves ``codes[i:end]`` (a version-2 log's action codes) on ``state`` by its family's
    rules, written once: ``play(state, code)`` (the family's codes) plays the action a code names
    and returns it, or returns a number below FIRST_ACTION having changed nothing where the code
    names none or the rules refuse it.  Appends each action played to ``actions``; returns the
    index of the first event not played: a session event (the caller's: hint, undo, restart), one
    refused (the caller plays it again for the reason), ``end``, or the event after a win.
    ``undone`` (with ``snaps`` and ``base``): the events a later undo takes back, 1 at their
    index (:func:`undone`); before each, the position is saved in
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


__all__ = ["Attempt", "CLOCK_LIMIT", "Events", "ReplayError", "Session", "lean_class", "play_codes", "undone", "PLAYING", "WON",
           "LOST"]
