"""The one replay: a log's events re-played with the engine, as every reader needs it.

``verify``, ``show --at``, ``replay``, ``export`` and loading a log before ``play`` all
run :func:`run`.  It keeps every check that makes verification worth trusting: each
action is legal where it stands (the variant's own ``apply``), counted moves, undo and
restart as :class:`carpet.core.session.Session` defines them, and the clock.  It drops
only work that cannot change the result:

- the status is decided in full only where it matters (a hint that counts as a move,
  and the end); after other actions only a win is looked for (``State.update_won``),
  since no rule's legality depends on a game being lost;
- a position is saved only before an action that a later undo takes back (found by a
  pass over the events first), so memory follows the undo depth actually used, not
  the length of the log;
- no per-event bookkeeping: the clock of each event is summed from the deltas in bulk.

docs/format.md ("Replaying") states the same rules; tests/test_replay.py pins the
result to ``Session.act`` event by event on random games of every variant.
"""

from __future__ import annotations

from array import array
from itertools import accumulate
from typing import Callable

from carpet.core import CarpetError, Session
from carpet.core.game import HINT, PLAYING, RESTART, UNDO, WON
from carpet.core.session import Events

from .codec import NO_ACTION, codec, decoder

#: the largest clock reading a log may hold (about 34 years), in both versions
CLOCK_LIMIT = 2**40


class ReplayError(CarpetError):
    """An event that cannot be played: ``event`` is its number (1-based)."""

    def __init__(self, message: str, event: int, action: int | None = None) -> None:
        super().__init__(message)
        self.event = event
        #: with action codes: the action indexes decoded up to the refusal (a report shows the position there)
        self.decoded: array | None = None
        #: the action index of that event, where it is known
        self.action = action


_LEAN: dict[type, type] = {}


def _lean_class(cls: type) -> type:
    """``cls`` with ``update_status`` replaced by ``update_won`` (same slots: a state can switch)."""
    lean = _LEAN.get(cls)
    if lean is None:
        lean = _LEAN[cls] = type(cls.__name__, (cls,), {"__slots__": (), "update_status": cls.update_won})
    return lean


def undone(items) -> bytearray | None:
    """Which events a later undo takes back (1 at their index), or None when no undo is played."""
    if UNDO not in items:
        return None
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


def clocks_of(items, deltas) -> array:
    """Each event's clock reading: deltas summed within an attempt (a restart starts it again)."""
    clocks = array("q")
    start, n = 0, len(items)
    while start < n:
        try:
            end = items.index(RESTART, start) + 1
        except ValueError:
            end = n
        clocks.extend(accumulate(deltas[start:end]))
        start = end
    return clocks


def _plain(state, items, decode, actions, variant, full_status, initial) -> tuple[int, int]:
    """The events of a log that holds no undo: counted moves and win bonus; raises at a refusal.

    The same rules as the general loop of :func:`run`, without an undo stack.
    """
    apply, hint_counts, win_bonus = state.apply, variant.hint_counts, variant.win_bonus
    moves = bonus = 0
    for item in items:
        if item > RESTART:
            if decode is not None:
                action = decode(state, item)
                if action <= RESTART:
                    raise CarpetError("no such action")
                actions.append(action)
            else:
                action = item
            if state.status == WON:
                raise CarpetError("the game is won")
            apply(action)
            moves += 1
            if state.status == WON:
                bonus = win_bonus(moves)
            continue
        if decode is not None:
            actions.append(item)
        if item == HINT:
            if hint_counts and state.status != WON:
                full_status(state)
                if state.status == PLAYING:
                    moves += 1
        else:  # RESTART: there is no undo here
            state.restore(initial)
            moves = bonus = 0
    return moves, bonus


def _earlier(items, clocks, n: int) -> int:
    """The clock readings of the restarts among the first n events: the earlier attempts' time."""
    total, start = 0, 0
    while True:
        try:
            i = items.index(RESTART, start, n)
        except ValueError:
            return total
        total += clocks[i]
        start = i + 1


def run(session: Session, items, clocks: array, *, from_codes: bool, upto: int | None = None,
        keep_history: bool = False, want_codes: bool = False,
        step: Callable[[Session, int, int], None] | None = None) -> tuple[Session, array | None]:
    """Play ``items`` (action indexes, or action codes with ``from_codes``) on a fresh ``session``.

    ``clocks`` are the events' readings.  Returns the session after the first ``upto``
    events (its ``events`` filled, its status decided in full) and, with ``want_codes``,
    the events' action codes.  ``keep_history`` saves every position an undo could
    still take back (for play after loading); ``step(session, i, action)`` is called
    after each event with the full status decided (for replay frames).  Raises
    ReplayError at the first event that cannot be played.
    """
    variant, state = session.variant, session.state
    n = len(items) if upto is None else min(upto, len(items))
    if n < len(items):
        items = items[:n]
    cls = type(state)
    full_status = cls.update_status
    encode = codec(variant.family)[0]
    decode = decoder(state) if from_codes else None
    save = keep_history or step is not None
    actions = array("I") if from_codes else None
    codes = array("I") if want_codes else None
    hint_counts, undo_counts, refunds = variant.hint_counts, variant.undo_counts, variant.undo_refunds_redeal
    win_bonus = variant.win_bonus
    stack = array("l")  # counted moves before each action an undo may take back
    snaps: dict[int, object] = {}
    moves = bonus = 0
    if step is None:
        state.__class__ = _lean_class(cls)
    apply, snapshot, restore = state.apply, state.snapshot, state.restore
    initial = session._initial
    todo = items
    i, action = -1, None
    try:
        if not save and codes is None and UNDO not in items:
            # nothing is taken back (the usual log): no undo stack, no saved position.  At a
            # refusal the general loop below plays again from the deal to name the event.
            try:
                moves, bonus = _plain(state, items, decode, actions, variant, full_status, initial)
                todo = ()
            except CarpetError:
                restore(initial)
                actions = array("I") if from_codes else None
        need = None if save or not todo else undone(todo)
        for i, item in enumerate(todo):
            if item > RESTART:
                if from_codes:
                    action = decode(state, item)
                    if action <= RESTART:
                        raise ReplayError(f"no such {variant.id} action here (code {item})", i + 1)
                    actions.append(action)
                else:
                    action = item
                if state.status == WON:
                    raise ReplayError("the game is won", i + 1, action)
                if codes is not None:
                    codes.append(encode(state, action))
                if save or (need is not None and need[i]):
                    snaps[len(stack)] = snapshot()
                stack.append(moves)
                apply(action)
                moves += 1
                if state.status == WON:
                    bonus = win_bonus(moves)
            else:
                action = item
                if from_codes:
                    actions.append(item)
                if codes is not None:
                    codes.append(item)
                if item == HINT:
                    if hint_counts and state.status != WON:
                        full_status(state)
                        if state.status == PLAYING:
                            moves += 1
                elif item == UNDO:
                    if state.status == WON:
                        raise ReplayError("the game is won; only restart is possible", i + 1, UNDO)
                    if not stack:
                        raise ReplayError("nothing to undo", i + 1, UNDO)
                    moves_before = stack.pop()
                    used = state.redeals_used
                    restore(snaps.pop(len(stack)))
                    if not refunds and state.redeals_used != used:
                        state.redeals_used = used
                        state.update_status()
                    moves = moves + 1 if undo_counts else moves_before
                else:  # RESTART
                    restore(initial)
                    del stack[:]
                    snaps.clear()
                    moves = bonus = 0
            if step is not None:
                session.moves, session.bonus = moves, bonus
                step(session, i, action)
    except ReplayError as exc:
        exc.decoded = actions
        raise
    except CarpetError as exc:
        refused = ReplayError(str(exc), i + 1, action)
        refused.decoded = actions
        raise refused from None
    finally:
        state.__class__ = cls
    full_status(state)
    clocks = clocks[:n] if n < len(clocks) else clocks
    if from_codes:
        session.events = Events(actions=actions, clocks=clocks)
    else:
        shared = isinstance(items, array) and items.typecode == "I" and not keep_history
        copy = items
        if not shared:
            copy = array("I")
            copy.extend(iter(items))
        session.events = Events(actions=copy, clocks=clocks if shared else array("q", clocks))
    session.moves, session.bonus = moves, bonus
    session.earlier_attempts_ms = _earlier(items, clocks, n)
    session.clock_ms = 0 if n == 0 or items[n - 1] == RESTART else clocks[n - 1]
    if keep_history:
        session._history = [(snaps[k], stack[k]) for k in range(len(stack))]
    return session, codes


__all__ = ["CLOCK_LIMIT", "ReplayError", "run", "clocks_of", "undone", "NO_ACTION"]
