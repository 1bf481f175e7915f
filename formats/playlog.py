"""Playing a log's events, as every reader needs it: what is about the log's bytes, around the
session's own loop.

``verify``, ``show --at``, ``replay``, ``export`` and loading a log before ``play`` all
run :func:`run`, which plays the events by :meth:`carpet.core.session.Session.play_events`
(Session alone owns hint, undo, restart, counted moves and the win bonus; runs of
version-2 action codes are played in bulk by the family's rules, written once) and adds
what belongs to the log's form:

- the clock: each event's reading summed from the deltas in bulk, and for a version-2
  binary log only when a reader asks for the readings (verification needs their sums
  alone, :class:`DeltaEvents`, :class:`PackedDeltas`, :func:`clocks_of`);
- the position digest, hashed by a seeded copy (:func:`position_digest_of`).

docs/format.md ("Replaying") states the same rules; tests/test_replay.py pins the
result to ``Session.act`` event by event on random games of every variant, and
tests/test_*_oracle.py each family's rules to a plain reference written apart (every
field of the position, the refused event and its message).
"""

from __future__ import annotations

from array import array
from itertools import accumulate
from typing import Callable

from carpet.core import Session
from carpet.core.game import RESTART, blake2b  # (core.game.position_digest's)
from carpet.core.session import Events, ReplayError, undone

from .codec import NO_ACTION, codec


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


def first_reading(events: Events) -> int:
    """The first event's clock reading, without summing the others' (a version-2 binary log keeps
    its deltas packed: the first reading is the first delta)."""
    if type(events) is DeltaEvents and events.deltas is not None:
        deltas = events.deltas
        if type(deltas) is PackedDeltas:
            return deltas.low[0] | (deltas.high[0] & 15) << 8
        return deltas[0]
    return events.clocks[0]


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


def run(session: Session, items, clocks: array | None, *, from_codes: bool, upto: int | None = None,
        keep_history: bool = False, want_codes: bool = False,
        step: Callable[[Session, int, int], None] | None = None, deltas=None, meta=None) -> tuple[Session, array | None]:
    """Play ``items`` (action indexes, or action codes with ``from_codes``) on a fresh ``session``
    (:meth:`Session.play_events`: ``upto``, ``keep_history``, ``step`` and ``meta`` are its) and
    give it the events' clock.

    ``clocks`` are the events' readings (or None, and ``deltas`` the clock deltas: the
    session's events then sum them when first read, see :class:`DeltaEvents`).  Returns the
    session after the first ``upto`` events (its ``events`` filled, its status decided in full)
    and, with ``want_codes``, the events' action codes.  Raises ReplayError at the first event
    that cannot be played.
    """
    encode = codec(session.variant.family)[0] if want_codes else None
    actions, codes = session.play_events(items, from_codes=from_codes, upto=upto, keep_history=keep_history,
                                         step=step, encode=encode, meta=meta)
    n = len(items) if upto is None else min(upto, len(items))
    if n < len(items):
        items = items[:n]
    if clocks is None:
        if n < len(deltas):
            deltas = deltas[:n]
        session.events = DeltaEvents(actions=actions if from_codes else array("I", items), deltas=deltas)
        session.clock_ms, session.earlier_attempts_ms = delta_sums(items if meta is None else meta, deltas, n)
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
    session.earlier_attempts_ms = _earlier(items, clocks, n)
    session.clock_ms = 0 if n == 0 or items[n - 1] == RESTART else clocks[n - 1]
    return session, codes


__all__ = ["ReplayError", "run", "clocks_of", "undone", "unpacked", "PackedDeltas", "NO_ACTION"]
