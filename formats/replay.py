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
- no per-event bookkeeping: the clock of each event is summed from the deltas in bulk
  (for a version-2 binary log only when a reader asks for the readings: verification
  needs their sums alone, :class:`DeltaEvents`);
- runs of moves given as version-2 action codes are played in bulk: for a family whose
  rules are written once (each family's package under core/), by the session's loop over
  its codes and its primitives (core/session.py, ``play_codes``): every refusal is the
  rules' own, at the same event.

docs/format.md ("Replaying") states the same rules; tests/test_replay.py pins the
result to ``Session.act`` event by event on random games of every variant, and
tests/test_*_oracle.py each family's rules to a plain reference written apart (every
field of the position, the refused event and its message).
"""

from __future__ import annotations

import re
from array import array
from itertools import accumulate
from typing import Callable

from carpet.core import CarpetError, Session
from carpet.core.families import FAMILIES
from carpet.core.game import HINT, PLAYING, RESTART, UNDO, WON, blake2b  # (core.game.position_digest's)
from carpet.core.numbering import Deal
from carpet.core.session import Events, play_codes

from .codec import NO_ACTION, codec, decoder, shared_decoder


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


#: byte b -> b & 15, b >> 4, and the two added (tables made by bytes operations: start-up pays
#: little); formats/log.py unpacks its half-byte planes by the first two too
_LOW_NIBBLE = bytes(range(16)) * 16
_HIGH_NIBBLE = b"".join(bytes((k,)) * 16 for k in range(16))
_NIBBLE_SUMS = bytes((k & 15) + (k >> 4) for k in range(256))
_LITTLE = __import__("sys").byteorder == "little"


class PackedDeltas:
    """The clock deltas of a version-2 log as its planes hold them (formats/log.py): each event's
    low byte, and the bits above in half-bytes two to a byte (the earlier event's low, a spare last
    half 0).  What verification needs of them, their sum, is read from the planes; they are
    unpacked, as an array of 16 bits, only for a reader of the readings themselves
    (:meth:`unpacked`, :func:`unpacked`)."""

    __slots__ = ("low", "high")
    typecode = "H"  # (the deltas unpacked: none escaped its plane)

    def __init__(self, low: bytes, high: bytes) -> None:
        self.low, self.high = low, high

    def __len__(self) -> int:
        return len(self.low)

    def __iter__(self):  # (a sequence as the array is; a reader of many should unpack them once)
        return iter(self.unpacked())

    def __getitem__(self, index):
        return self.unpacked()[index]

    def total(self) -> int:
        return sum(self.low) + (sum(self.high.translate(_NIBBLE_SUMS)) << 8)

    def unpacked(self) -> array:
        low, high, n = self.low, self.high, len(self.low)
        both = bytearray(2 * n)  # each delta as 16 bits, low byte first: the low plane, the high half-bytes
        both[0::2] = low
        both[1::4] = high.translate(_LOW_NIBBLE)
        both[3::4] = high.translate(_HIGH_NIBBLE)[:n >> 1]
        deltas = array("H")
        deltas.frombytes(both)
        if not _LITTLE:
            deltas.byteswap()
        return deltas


def unpacked(deltas):
    """Clock deltas as a sequence of numbers: :class:`PackedDeltas` unpacked, any other as it is."""
    return deltas.unpacked() if type(deltas) is PackedDeltas else deltas


class DeltaEvents(Events):
    """Events whose clock readings are summed from the clock deltas when first read.

    What a version-2 binary log stores is each event's clock delta; verifying it needs
    only the attempt's last reading and the earlier attempts' time (sums of deltas), so
    the readings themselves are worked out (:func:`clocks_of`) only for a reader that asks.
    """

    __slots__ = ("deltas",)

    def __init__(self, *, actions: array, deltas) -> None:  # Events.__init__, its clocks left unset
        self.actions = actions
        self.memo = None
        self.deltas = deltas

    @property
    def clocks(self) -> array:
        try:
            return _CLOCKS.__get__(self)
        except AttributeError:
            clocks = clocks_of(self.actions, unpacked(self.deltas))
            _CLOCKS.__set__(self, clocks)
            self.deltas = None
            return clocks

    @clocks.setter
    def clocks(self, clocks: array) -> None:
        _CLOCKS.__set__(self, clocks)


_CLOCKS = Events.__dict__["clocks"]  # the slot DeltaEvents.clocks fills


def copy_events(events: Events) -> Events:
    """A copy of ``events`` (its clock readings still to be summed where they were), its memo unset."""
    if type(events) is DeltaEvents and events.deltas is not None:  # (None once the readings are summed)
        return DeltaEvents(actions=events.actions[:], deltas=events.deltas)  # (deltas: never changed)
    return Events(actions=events.actions[:], clocks=events.clocks[:])


def delta_total(deltas) -> int:
    """Every clock delta added up (:class:`PackedDeltas` in their planes)."""
    return deltas.total() if type(deltas) is PackedDeltas else sum(deltas)


def delta_sums(items, deltas, n: int) -> tuple[int, int]:
    """(the clock of the attempt at event n, the earlier attempts' time) from the clock deltas:
    a restart's reading is the sum of its attempt's deltas, its own included."""
    last = -1
    find = getattr(items, "find", None)  # bytes: no exception at the end of the search
    if find is not None:
        at = find(RESTART, 0, n)
        while at >= 0:
            last = at
            at = find(RESTART, at + 1, n)
    else:
        start = 0
        while True:
            try:
                last = items.index(RESTART, start, n)
            except ValueError:
                break
            start = last + 1
    if last < 0 and n == len(deltas):  # (the usual log: one attempt, read to its end)
        return delta_total(deltas), 0
    deltas = unpacked(deltas)
    if last < 0:
        return sum(deltas[:n]), 0
    return (0 if last == n - 1 else sum(deltas[last + 1:n])), sum(deltas[:last + 1])


def _hint_cost(state, full_status) -> int:
    """The counted moves a hint costs where hints count: one while the game is still being
    played (its status, which the lean replay leaves at "playing" short of a win, checked in
    full here), none after the end."""
    if state.status == WON:
        return 0
    full_status(state)
    return 1 if state.status == PLAYING else 0


def _plain(state, items, decode, actions, variant, full_status, session, kernel, win_bonus,
           i: int = 0) -> tuple[int, int]:
    """The events of a log that holds no undo: counted moves and win bonus; raises at a refusal.
    ``i``: the events before it are moves, played already.

    The same rules as the general loop of :func:`run`, without an undo stack.
    """
    apply, hint_counts = state.apply, variant.hint_counts
    moves, bonus = i, (win_bonus(i) if i and state.status == WON else 0)
    n = len(items)
    while i < n:
        item = items[i]
        if item > RESTART:
            if kernel is not None:  # a run of moves, played in bulk where it can be
                j = kernel(state, items, i, n, actions, decode)
                if j > i:
                    moves += j - i
                    if state.status == WON:
                        bonus = win_bonus(moves)
                    i = j
                    continue
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
        else:
            if decode is not None:
                actions.append(item)
            if item == HINT:
                if hint_counts:
                    moves += _hint_cost(state, full_status)
            else:  # RESTART: there is no undo here
                state.restore(session._initial)
                moves = bonus = 0
        i += 1
    return moves, bonus


class _RulesOnce:
    """The bulk replay of a family whose rules are written once: the session's loop
    (core/session.py, ``play_codes``) over its codes' ``play`` (decode and apply in one), and its
    deal."""

    def __init__(self, play) -> None:
        self.play = play

    def play_codes(self, state, codes, i: int, end: int, actions, decode, undone=None, snaps=None,
                   base: int = 0) -> int:
        return play_codes(state, codes, i, end, actions, self.play, undone, snaps, base)

    play_moves = play_codes

    @staticmethod
    def dealt(variant, deal):
        return variant.new_state(deal)


_FAST: dict[str, object] = {}  # game id -> its family's bulk replay, or None where it has none


def _fast(variant):
    """The family's bulk replay (core/families.py): the session's loop over its own codes where its
    rules keep them, else its bulk-replay module where that plays this game, else None."""
    try:
        return _FAST[variant.id]
    except KeyError:
        pass
    family = FAMILIES.get(variant.family)
    module = None if family is None or family.codes is None else _RulesOnce(family.codes().play)
    _FAST[variant.id] = module
    return module


def kernel_of(variant, from_codes: bool) -> Callable | None:
    """The family's bulk replay of a run of moves, or None where it has none."""
    fast = _fast(variant) if from_codes else None
    return None if fast is None else fast.play_codes


def fresh(variant, deal) -> Session:
    """``Session(variant, deal)``, the deal made by the family's fast copy of new_state where it has one."""
    fast = _fast(variant) if type(deal) is Deal else None  # (a game started from a position: the plain way)
    return Session(variant, deal, state=None if fast is None else fast.dealt(variant, deal))


#: game id -> a hash fed the digest's first bytes (the game id) already
_DIGESTS: dict[str, object] = {}


def position_digest_of(state) -> str:
    """``state.digest()`` (core.game.position_digest), hashed by a copy of a hash that holds the game
    id already (a copy is half the cost of making a hash of 8 bytes anew)."""
    game = state.variant.id
    seeded = _DIGESTS.get(game)
    if seeded is None:
        seeded = _DIGESTS[game] = blake2b(game.encode() + b"\0", digest_size=8)
    hashed = seeded.copy()
    hashed.update(state.position_bytes())
    return hashed.hexdigest()


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


_SET_UP: dict[str, tuple] = {}  # game id -> what _run_codes sets up for it, and from which bulk replay


def _set_up(variant, fast) -> tuple:
    """For :func:`_run_codes`: the bulk replay, its family's ``play_codes``, the win bonus, the
    decoder (None where the family makes one for each replay), the bulk replay of moves with nothing
    taken back (the family's ``play_moves``, else ``play_codes``) and the full status at the end (the
    family's copy of ``update_status``, or None), worked out once a game."""
    return (fast, fast.play_codes, variant.win_bonus, shared_decoder(variant.family),
            getattr(fast, "play_moves", fast.play_codes), getattr(fast, "update_status", None))


def _run_codes(session: Session, items, deltas, meta) -> Session | None:
    """:func:`run` of a version-2 log's codes (the clocks as deltas) where nothing is taken back and
    the family has a bulk replay: the usual log, its set-up cut short.  None where the general way
    must play it: an undo, or a refusal (the position is the deal's again, and :func:`run`
    plays from there to name the event)."""
    variant = session.variant
    fast = _FAST[variant.id] if variant.id in _FAST else _fast(variant)
    marks = items if meta is None else meta
    if fast is None or UNDO in marks:
        return None
    set_up = _SET_UP.get(variant.id)
    if set_up is None or set_up[0] is not fast:
        set_up = _SET_UP[variant.id] = _set_up(variant, fast)
    _, kernel, win_bonus, decode, moves_kernel, final_status = set_up
    state = session.state
    if decode is None:
        decode = decoder(state)
    cls = type(state)
    state.__class__ = _LEAN.get(cls) or _lean_class(cls)
    actions = array("I")
    n = len(items)
    try:
        # moves alone (the usual log): one run in bulk, then the plain way on from where it stopped
        moves_only = not (HINT in marks or RESTART in marks)
        j = moves_kernel(state, items, 0, n, actions, decode) if moves_only else 0
        if j == n:
            moves, bonus = n, (win_bonus(n) if state.status == WON else 0)
        else:
            moves, bonus = _plain(state, items, decode, actions, variant, cls.update_status, session, kernel,
                                  win_bonus, j)
    except CarpetError:
        state.restore(session._initial)
        return None
    finally:
        state.__class__ = cls
    (final_status or cls.update_status)(state)  # the status in full at the end
    session.events = DeltaEvents(actions=actions, deltas=deltas)
    session.moves, session.bonus = moves, bonus
    if moves_only:  # one attempt: the clock is every delta summed
        session.clock_ms, session.earlier_attempts_ms = delta_total(deltas), 0
    else:
        session.clock_ms, session.earlier_attempts_ms = delta_sums(marks, deltas, n)
    return session


def run(session: Session, items, clocks: array | None, *, from_codes: bool, upto: int | None = None,
        keep_history: bool = False, want_codes: bool = False,
        step: Callable[[Session, int, int], None] | None = None, deltas=None, meta=None) -> tuple[Session, array | None]:
    """Play ``items`` (action indexes, or action codes with ``from_codes``) on a fresh ``session``.

    ``clocks`` are the events' readings (or None, and ``deltas`` the clock deltas: the
    session's events then sum them when first read, see :class:`DeltaEvents`); ``meta``, bytes
    holding hint, undo and restart where ``items`` does and a larger value elsewhere, is searched
    for them in its place (a version-2 log's codes before its escapes widened them).  Returns
    the session after the first ``upto`` events (its ``events`` filled, its status decided in
    full) and, with ``want_codes``,
    the events' action codes.  ``keep_history`` saves every position an undo could
    still take back (for play after loading); ``step(session, i, action)`` is called
    after each event with the full status decided (for replay frames).  Raises
    ReplayError at the first event that cannot be played.
    """
    if RESTART in (items if meta is None else meta):
        session.remember_start()  # (the deal's position: nothing is played yet)
    if from_codes and clocks is None and upto is None and not keep_history and step is None and not want_codes:
        played = _run_codes(session, items, deltas, meta)
        if played is not None:
            return played, None
    variant, state = session.variant, session.state
    deltas = unpacked(deltas)
    n = len(items) if upto is None else min(upto, len(items))
    if n < len(items):
        items = items[:n]
    meta = items if meta is None else meta[:n] if n < len(meta) else meta
    cls = type(state)
    full_status = cls.update_status
    encode = codec(variant.family)[0] if want_codes else None
    decode = decoder(state) if from_codes else None
    save = keep_history or step is not None
    actions = array("I") if from_codes else None
    codes = array("I") if want_codes else None
    hint_counts, undo_counts, refunds = variant.hint_counts, variant.undo_counts, variant.undo_refunds_redeal
    stack = array("l")  # counted moves before each action an undo may take back
    snaps: dict[int, object] = {}
    moves = bonus = 0
    if step is None:
        state.__class__ = _lean_class(cls)
    apply, snapshot, restore = state.apply, state.snapshot, state.restore
    todo = items
    i, action = -1, None
    kernel = kernel_of(variant, from_codes) if not save and codes is None else None
    win_bonus = variant.win_bonus
    try:
        if not save and codes is None and UNDO not in meta:
            # nothing is taken back (the usual log): no undo stack, no saved position.  At a
            # refusal the general loop below plays again from the deal to name the event.
            try:
                moves, bonus = _plain(state, items, decode, actions, variant, full_status, session, kernel,
                                      win_bonus)
                todo = ()
            except CarpetError:
                restore(session._initial)
                actions = array("I") if from_codes else None
        need = None if save or not todo else undone(meta)
        i, count = 0, len(todo)
        while i < count:
            item = todo[i]
            if item > RESTART:
                if kernel is not None:  # a run of moves in bulk, saving the positions undo needs
                    j = kernel(state, todo, i, count, actions, decode, need, snaps, len(stack))
                    if j > i:
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
                    if hint_counts:
                        moves += _hint_cost(state, full_status)
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
                    restore(session._initial)
                    del stack[:]
                    snaps.clear()
                    moves = bonus = 0
            if step is not None:
                session.moves, session.bonus = moves, bonus
                step(session, i, action)
            i += 1
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
    if clocks is None:
        deltas = deltas[:n] if n < len(deltas) else deltas
        session.events = DeltaEvents(actions=actions if from_codes else array("I", items), deltas=deltas)
        session.moves, session.bonus = moves, bonus
        session.clock_ms, session.earlier_attempts_ms = delta_sums(meta, deltas, n)
        return session, codes
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


__all__ = ["ReplayError", "run", "clocks_of", "undone", "unpacked", "PackedDeltas", "NO_ACTION"]
