"""The game log: one session as bytes, MessagePack by default, JSON for people and diffs.

Both forms hold the same three parts, ``header``, ``events`` and ``summary``.
An event is an action and the session clock reading (ms) when it was applied.
In MessagePack each event is packed into one unsigned integer,
``delta_ms * action_count + action``, where ``delta_ms`` is the time since the
previous event of the same attempt (a restart starts the clock again), so a
move costs about five bytes.  In JSON each event is ``[action text, clock ms]``,
one per line.  Converting one form to the other and back is lossless.

In MessagePack the header and summary are positional arrays (field order as
declared below; new fields are only ever appended, with defaults), so the
fixed cost of a log stays small; in JSON they are objects with named keys.

``summary.digest`` is a BLAKE2b digest over the MessagePack bytes of the
header and the packed events, so any edit of the file, clock readings
included, is found.  ``verify`` re-plays every event with the engine and checks
the summary against what it finds.
"""

from __future__ import annotations

import hashlib
from typing import Annotated

import msgspec

from carpet.core import (CarpetError, GAMES, RESTART, Session, Variant, get_game, parse_deal)
from carpet.core.game import FIRST_ACTION

FORMAT = "carpet-log"
VERSION = 1
RULES_VERSION = 1
NUMBERING = "pysol"

Count = Annotated[int, msgspec.Meta(ge=0)]
#: a clock reading in ms: up to about 34 years, so a packed event always fits 64 bits
ClockMs = Annotated[int, msgspec.Meta(ge=0, le=2**40)]
Packed = Count  # MessagePack integers stop at 2^64 - 1 by themselves


class Header(msgspec.Struct, forbid_unknown_fields=False):
    format: str
    version: int
    game: str
    rules: int
    numbering: str
    deal: str
    layout: str  # digest of the initial position
    created: str  # ISO 8601, UTC, milliseconds
    tool: str


class Summary(msgspec.Struct):
    status: str
    score: int
    moves: Count
    redeals_left: int | None
    elapsed_ms: ClockMs
    position: str  # digest of the final position
    digest: str  # over header and events


class Log(msgspec.Struct):
    """A log in memory: events as (action, clock ms)."""

    header: Header
    events: list[tuple[int, int]]
    summary: Summary


class _BinaryHeader(Header, array_like=True):
    pass


class _BinarySummary(Summary, array_like=True):
    pass


class _Binary(msgspec.Struct, array_like=True):
    header: _BinaryHeader
    events: list[Packed]
    summary: _BinarySummary


class _Json(msgspec.Struct):
    header: Header
    events: list[tuple[str, ClockMs]]
    summary: Summary


class _PeekHeader(msgspec.Struct):
    format: str
    version: int
    game: str = ""


class _Peek(msgspec.Struct):
    header: _PeekHeader


class _BinaryPeekHeader(_PeekHeader, array_like=True):
    pass


class _BinaryPeek(msgspec.Struct, array_like=True):
    header: _BinaryPeekHeader


_mp_encoder = msgspec.msgpack.Encoder()
_json_encoder = msgspec.json.Encoder()
_mp_peek = msgspec.msgpack.Decoder(_BinaryPeek)
_json_peek = msgspec.json.Decoder(_Peek)
_mp_decoder = msgspec.msgpack.Decoder(_Binary)
_json_decoder = msgspec.json.Decoder(_Json)


class LogError(CarpetError):
    """A log that cannot be used.  ``unreadable`` ones (exit 2) vs failed verification (exit 1)."""

    def __init__(self, message: str, *, unreadable: bool, event: int | None = None) -> None:
        super().__init__(message)
        self.unreadable = unreadable
        self.event = event


# --- packing events ------------------------------------------------------------------
def pack_events(events: list[tuple[int, int]], action_count: int) -> list[int]:
    packed = []
    previous = 0
    for action, clock in events:
        packed.append((clock - previous) * action_count + action)
        previous = 0 if action == RESTART else clock
    return packed


def unpack_events(packed: list[int], action_count: int) -> list[tuple[int, int]]:
    events = []
    previous = 0
    for value in packed:
        delta, action = divmod(value, action_count)
        clock = previous + delta
        events.append((action, clock))
        previous = 0 if action == RESTART else clock
    return events


def _positional(struct: msgspec.Struct) -> tuple:
    return msgspec.structs.astuple(struct)


def seal(header: Header, packed: list[int]) -> str:
    h = hashlib.blake2b(digest_size=16)
    h.update(_mp_encoder.encode(_positional(header)))
    h.update(_mp_encoder.encode(packed))
    return h.hexdigest()


# --- building ------------------------------------------------------------------------
def new_header(session: Session, *, created: str, tool: str) -> Header:
    return Header(format=FORMAT, version=VERSION, game=session.variant.id, rules=RULES_VERSION,
                  numbering=NUMBERING, deal=session.deal.text, layout=session.initial_digest,
                  created=created, tool=tool)


def record(session: Session, header: Header) -> Log:
    """The log of ``session`` under ``header``, with a fresh summary and digest."""
    events = list(session.events)
    packed = pack_events(events, session.variant.action_count)
    summary = Summary(status=session.status, score=session.score, moves=session.moves,
                      redeals_left=session.redeals_left, elapsed_ms=session.clock_ms,
                      position=session.state.digest(), digest=seal(header, packed))
    return Log(header=header, events=events, summary=summary)


# --- bytes ---------------------------------------------------------------------------
def is_json(data: bytes) -> bool:
    return data.lstrip()[:1] == b"{"


def encode(log: Log, *, as_json: bool = False) -> bytes:
    variant = get_game(log.header.game)
    if not as_json:
        return _mp_encoder.encode((_positional(log.header), pack_events(log.events, variant.action_count),
                                   _positional(log.summary)))
    lines = [b'{"header":' + _json_encoder.encode(log.header) + b",", b'"events":[']
    text = variant.text
    last = len(log.events) - 1
    for i, (action, clock) in enumerate(log.events):
        lines.append(_json_encoder.encode((text(action), clock)) + (b"," if i < last else b""))
    lines.append(b"],")
    lines.append(b'"summary":' + _json_encoder.encode(log.summary) + b"}")
    return b"\n".join(lines) + b"\n"


def decode(data: bytes) -> Log:
    """Bytes (either form) -> Log.  Raises LogError(unreadable=True) for anything unusable."""
    if not data.strip():
        raise LogError("empty file, not a carpet log", unreadable=True)
    as_json = is_json(data)
    try:
        peek = (_json_peek if as_json else _mp_peek).decode(data)
    except msgspec.DecodeError as exc:
        raise LogError(f"not a carpet log, or truncated/corrupt ({_short(exc)})", unreadable=True) from None
    if peek.header.format != FORMAT:
        raise LogError(f"not a carpet log (format {peek.header.format!r})", unreadable=True)
    if peek.header.version > VERSION:
        raise LogError(f"unsupported log version {peek.header.version} (this carpet reads up to {VERSION}; "
                       f"a newer carpet wrote it)", unreadable=True)
    if peek.header.version < 1:
        raise LogError(f"bad log version {peek.header.version}", unreadable=True)
    if peek.header.game not in GAMES:
        raise LogError(f"unknown game {peek.header.game!r} in log", unreadable=True)
    variant = get_game(peek.header.game)
    try:
        if as_json:
            raw = _json_decoder.decode(data)
            header, summary = raw.header, raw.summary
            parse = variant.parse_canonical
            events = []
            for i, (text, clock) in enumerate(raw.events, 1):
                try:
                    events.append((parse(text), clock))
                except CarpetError as exc:
                    raise LogError(f"event {i}: {exc}", unreadable=True, event=i) from None
        else:
            raw = _mp_decoder.decode(data)
            header, summary = Header(*_positional(raw.header)), Summary(*_positional(raw.summary))
            events = unpack_events(raw.events, variant.action_count)
            valid = variant.valid_index
            for i, (action, clock) in enumerate(events, 1):  # a packed number may name no action
                if action >= FIRST_ACTION and not valid(action):
                    raise LogError(f"event {i}: no such {variant.id} action ({action})", unreadable=True, event=i)
                if clock > 2**40:
                    raise LogError(f"event {i}: corrupt clock reading beyond 2^40 ms", unreadable=True, event=i)
    except msgspec.DecodeError as exc:
        raise LogError(f"corrupt or truncated log ({_short(exc)})", unreadable=True) from None
    if header.rules != RULES_VERSION:
        raise LogError(f"unsupported rules version {header.rules} (this carpet plays rules {RULES_VERSION})",
                       unreadable=True)
    if header.numbering != NUMBERING:
        raise LogError(f"unknown numbering {header.numbering!r}", unreadable=True)
    return Log(header=header, events=events, summary=summary)


def _short(exc: Exception) -> str:
    return str(exc).splitlines()[0][:120]


# --- checking ------------------------------------------------------------------------
def replay(log: Log, upto: int | None = None) -> Session:
    """Re-play the log's events (the first ``upto``) with the engine; LogError at an illegal one."""
    header = log.header
    variant: Variant = get_game(header.game)
    try:
        deal = parse_deal(header.deal)
    except CarpetError as exc:
        raise LogError(f"bad deal in header: {exc}", unreadable=True) from None
    session = Session(variant, deal)
    if session.state.digest() != header.layout:
        raise LogError(f"initial layout digest {header.layout} does not match deal {deal.text} "
                       f"of {variant.id} ({session.state.digest()})", unreadable=False)
    act = session.act
    events = log.events if upto is None else log.events[:upto]
    for i, (action, clock) in enumerate(events, 1):
        try:
            act(action, clock)
        except CarpetError as exc:
            raise LogError(f"event {i} ({variant.text(action)}): illegal: {exc}", unreadable=False,
                           event=i) from None
    return session


def verify(log: Log) -> Session:
    """Full check: every event legal, summary as replayed, digest intact.  Returns the session."""
    session = replay(log)
    s = log.summary
    found = (session.status, session.score, session.moves, session.redeals_left, session.clock_ms,
             session.state.digest())
    claimed = (s.status, s.score, s.moves, s.redeals_left, s.elapsed_ms, s.position)
    names = ("status", "score", "moves", "redeals_left", "elapsed_ms", "position")
    for name, want, got in zip(names, claimed, found):
        if want != got:
            raise LogError(f"summary {name} says {want!r} but the replay gives {got!r}", unreadable=False)
    expected = seal(log.header, pack_events(log.events, session.variant.action_count))
    if s.digest != expected:
        raise LogError("digest mismatch: the header or events were edited or corrupted", unreadable=False)
    return session
