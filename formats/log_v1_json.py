"""The forms msgspec reads whole (docs/format.md): version 1's binary form, a MessagePack array
``[header, events, summary]`` whose events are each one integer ``delta_ms * action_count + action``,
sealed by BLAKE2b (16 bytes) over the header and the packed events; and the JSON form of both
versions, each event ``[action text, clock ms]`` on its own line.

What is in the bytes is checked here (types, bounds, actions the game has); that the events are legal
and the summary true is formats/log_verify.py's.
"""

from __future__ import annotations

import re
from array import array
from typing import Annotated

import msgspec

from carpet.core import CarpetError, GAMES, Variant, get_game
from carpet.core.game import FIRST_ACTION, RESTART
from carpet.core.session import CLOCK_LIMIT, Events

from .log_types import (FORMAT, VERSION, ClockMs, Count, Header, Log, LogError, Signed, Summary, _as_events, _bad,
                        _check_header, _created_ms, _hex_bytes, _newer, _short)

try:  # the C module hashlib itself wraps: no OpenSSL loaded for a digest
    from _blake2 import blake2b
except ImportError:  # pragma: no cover - every CPython has it
    from hashlib import blake2b

Packed = Annotated[int, msgspec.Meta(ge=0)]  # MessagePack integers stop at 2^64 - 1 by themselves


# --- version 1 as it was written -------------------------------------------------------
class _SummaryV1(msgspec.Struct):
    status: str
    score: Signed
    moves: Count
    redeals_left: Signed | None
    elapsed_ms: ClockMs
    position: str
    digest: str


# (version 1 is what it was: nothing after its fields, so nothing a decoder skips, however deep)
class _BinaryHeaderV1(Header, array_like=True, forbid_unknown_fields=True):
    pass


class _BinarySummaryV1(_SummaryV1, array_like=True, forbid_unknown_fields=True):
    pass


class _BinaryV1(msgspec.Struct, array_like=True, forbid_unknown_fields=True):
    header: _BinaryHeaderV1
    events: list[Packed]
    summary: _BinarySummaryV1


class _JsonHead(msgspec.Struct):
    header: Header
    events: msgspec.Raw
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


class _Decoders:
    """The msgspec decoders, each built when first used: reading a version-2 binary log needs none."""

    def __getattr__(self, name: str):
        made = {
            "mp_peek": lambda: msgspec.msgpack.Decoder(_BinaryPeek),
            "json_peek": lambda: msgspec.json.Decoder(_Peek),
            "mp_v1": lambda: msgspec.msgpack.Decoder(_BinaryV1),
            "json_head": lambda: msgspec.json.Decoder(_JsonHead),
            "json_events": lambda: msgspec.json.Decoder(list[tuple[str, ClockMs]]),
            "json_keys": lambda: msgspec.json.Decoder(dict[str, msgspec.Raw]),
            "json_items": lambda: msgspec.json.Decoder(list[msgspec.Raw]),
        }[name]()
        setattr(self, name, made)
        return made


_decoders = _Decoders()

# --- version 1 packing -----------------------------------------------------------------
def pack_events(events, action_count: int) -> list[int]:
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


def seal_v1(header: Header, events, action_count: int) -> str:
    """The version-1 digest of a header and its events."""
    packed = getattr(events, "packed", None)  # (PackedEvents: kept as read)
    h = blake2b(digest_size=16)
    h.update(_mp_encoder.encode(_positional(header)))
    h.update(_mp_encoder.encode(pack_events(events, action_count)) if packed is None else packed)
    return h.hexdigest()


class PackedEvents(Events):
    """The events of a version-1 binary log as read, with what its digest hashes of them kept:
    ``packed``, the packed events as MessagePack (:func:`pack_events`, encoded again as this program
    writes them), dropped when an event changes.  Each packed event holds a clock delta of 0 or
    more, so no reading comes before the previous one of its attempt (verify asks no more)."""

    __slots__ = ("packed",)

    def __init__(self, *, actions: array, clocks: array, packed: bytes) -> None:
        super().__init__(actions=actions, clocks=clocks)
        self.packed = packed

    def append(self, event: tuple[int, int]) -> None:
        self.packed = None
        super().append(event)

    def __setitem__(self, index: int, event: tuple[int, int]) -> None:
        self.packed = None
        super().__setitem__(index, event)


# --- the shape of a JSON document, checked before msgspec reads it ----------------------------
#: a JSON string (its escapes skipped whole), and the bytes of a document that are not its structure
_JSON_STRING = rb'"[^"\\]*(?:\\.[^"\\]*)*"'
_NOT_STRUCTURE = bytes(sorted(set(range(256)) - set(b'"[]{}:')))
#: an array or object with nothing nested in it (strings folded to one quote, all but the structure
#: gone); after the first level, what a level was folded to (``e``) counts as nothing nested
_INNERMOST = (rb'\[[":]*\]|\{[":]*\}', rb'\[[":e]*\]|\{[":e]*\}')
#: the deepest a JSON log nests: the document, its events, an event
JSON_DEPTH = 3


def check_json_shape(data: bytes) -> None:
    """Refuse a JSON document nested deeper than :data:`JSON_DEPTH` or holding a key twice in an
    object, before a decoder meets it (msgspec recurses into what it skips, and keeps the last of
    two equal keys where another reader may keep the first).

    Strings are folded to one quote and all but the structure dropped (``bytes.translate``); then
    each level's innermost arrays and objects are folded to ``e``, three times (an event, ``["]``,
    by ``bytes.replace``): a document left with brackets is deeper.  The keys (a string then ``:``)
    are counted and compared with those its objects hold once read.  About 4 % of reading a JSON log."""
    shape = _structure(data)
    keys = shape.count(b'":')
    shape = re.sub(_INNERMOST[0], b"e", shape.replace(b'["]', b"e"))
    for _ in range(JSON_DEPTH - 1):
        shape = re.sub(_INNERMOST[1], b"e", shape)
    if b"[" in shape or b"{" in shape:
        if shape.count(b"[") == shape.count(b"]") and shape.count(b"{") == shape.count(b"}"):
            raise _bad(f"nested deeper than the {JSON_DEPTH} levels of a carpet log")
        return  # brackets that do not pair: not JSON, which the decoder says (a deep one caught there)
    try:
        held = _held_keys(data)
    except (msgspec.DecodeError, RecursionError):
        return  # not JSON: the decoder says where
    if held != keys:
        raise _bad("a key given twice in one JSON object (a carpet log names each field once)")


_CHUNK = 8192  #: bytes folded at a time (a line more): a long log's strings never all held as objects at once


def _structure(data: bytes) -> bytes:
    """The document's structure: each string one quote, and ``[]{}:`` alone besides.  Without escapes
    the quotes alone bound the strings, and the document is folded a few lines at a time, cut after
    a line whose quotes pair (else the rest at once: a string across lines is no JSON)."""
    if b"\\" in data:
        return re.sub(_JSON_STRING, b'"', data).translate(None, _NOT_STRUCTURE)
    out = []
    start, end = 0, len(data)
    while start < end:
        stop = data.find(b"\n", start + _CHUNK)
        stop = end if stop < 0 else stop + 1
        if data.count(b'"', start, stop) & 1:
            stop = end
        out.append(b'"'.join(data[start:stop].split(b'"')[0::2]).translate(None, _NOT_STRUCTURE))
        start = stop
    return b"".join(out)


def _held_keys(raw: bytes) -> int:
    """The keys of every object in a JSON value, each counted once (an array with no object not read)."""
    raw = raw.strip()
    if raw[:1] == b"{":
        fields = _decoders.json_keys.decode(raw)
        return len(fields) + sum(_held_keys(bytes(value)) for value in fields.values())
    if raw[:1] == b"[" and b"{" in raw:
        return sum(_held_keys(bytes(value)) for value in _decoders.json_items.decode(raw))
    return 0


def _peek(data: bytes, as_json: bool):
    """The header's format, version and game, read first for the clearest refusal."""
    try:
        return (_decoders.json_peek if as_json else _decoders.mp_peek).decode(data)
    except msgspec.DecodeError as exc:
        raise _bad(f"not a carpet log, or truncated/corrupt ({_short(exc)})") from None
    except RecursionError:  # (a MessagePack value nested past what the decoder walks)
        raise _bad("nested deeper than a carpet log") from None


def decode_tree(data: bytes, as_json: bool) -> Log:
    """A version-1 binary log (``as_json`` False) or a JSON log of either version -> Log: its
    header and summary as the schema says, its events as actions of its game."""
    if as_json:
        check_json_shape(data)
    peek = _peek(data, as_json)
    if peek.header.format != FORMAT:
        raise _bad(f"not a carpet log (format {peek.header.format[:40]!r})")
    if peek.header.version > VERSION:
        raise _newer(peek.header.version)
    if peek.header.version < 1 or (peek.header.version == 2 and not as_json):
        raise _bad(f"bad log version {peek.header.version}")
    if peek.header.game not in GAMES:
        raise _bad(f"unknown game {peek.header.game[:40]!r} in log")
    variant = get_game(peek.header.game)
    try:
        if as_json:
            head = _decoders.json_head.decode(data)
            header, summary = head.header, head.summary
            events = _json_events_of(bytes(head.events), variant)
            if header.version == 1 and (summary.clock_jumps or summary.clock_skipped_ms):
                raise _bad("clock_jumps and clock_skipped_ms are version-2 fields")
            if header.version == 2:
                _created_ms(header.created)
                _hex_bytes(header.layout, 4, "layout digest")
                _hex_bytes(summary.position, 4, "position digest")
                _hex_bytes(summary.digest, 8, "digest")
        else:
            raw = _decoders.mp_v1.decode(data)
            header, summary = Header(*_positional(raw.header)), Summary(*_positional(raw.summary))
            events = _unpack_v1(raw.events, variant)
            del raw
    except msgspec.DecodeError as exc:
        raise _bad(f"corrupt or truncated log ({_short(exc)})") from None
    _check_header(header)
    return Log(header=header, events=events, summary=summary)


def _unpack_v1(packed: list[int], variant: Variant) -> Events:
    count = variant.action_count
    valid = variant.valid_index
    known = set(range(FIRST_ACTION))  # the actions found valid so far (the meta actions always are)
    actions, clocks = array("I"), array("q")
    previous = 0
    for i, value in enumerate(packed, 1):
        delta, action = divmod(value, count)
        clock = previous + delta
        if action not in known:
            if not valid(action):  # a packed number may name no action
                raise LogError(f"event {i}: no such {variant.id} action ({action})", unreadable=True, event=i)
            known.add(action)
        if clock > CLOCK_LIMIT:
            raise LogError(f"event {i}: corrupt clock reading beyond 2^40 ms", unreadable=True, event=i)
        actions.append(action)
        clocks.append(clock)
        previous = 0 if action == RESTART else clock
    return PackedEvents(actions=actions, clocks=clocks, packed=_mp_encoder.encode(packed))


#: one event of the JSON form as this program writes it; anything else goes to msgspec
_JSON_EVENT = rb'\s*\[\s*"([^"\\]*)"\s*,\s*(0|[1-9][0-9]{0,15})\s*\]\s*(,|\]\s*$)'


def _json_events_of(raw: bytes, variant: Variant) -> Events:
    """The events array of the JSON form, read without a Python object per event."""
    parse = variant.parse_canonical
    actions, clocks = array("I"), array("q")
    body = raw.strip()
    if body == b"[]":
        return Events()
    pos, end, match = 1, len(body), re.compile(_JSON_EVENT).match
    i = 0
    if not body.startswith(b"[") or b"\\" in body:
        pairs = _decoders.json_events.decode(body)
    else:
        pairs = None
    if pairs is None:
        while pos < end:
            m = match(body, pos)
            if m is None:  # a form this reader does not take apart itself: the full decoder
                pairs = _decoders.json_events.decode(body)
                actions, clocks = array("I"), array("q")
                break
            i += 1
            _json_event(i, m.group(1).decode("utf-8", "replace"), int(m.group(2)), parse, actions, clocks, variant)
            pos = m.end()
            if m.group(3) != b",":
                if pos != end:
                    raise _bad("corrupt JSON events")
                break
    if pairs is not None:
        for i, (text, clock) in enumerate(pairs, 1):
            _json_event(i, text, clock, parse, actions, clocks, variant)
    return Events(actions=actions, clocks=clocks)


def _json_event(i: int, text: str, clock: int, parse, actions: array, clocks: array, variant: Variant) -> None:
    if clock > CLOCK_LIMIT:
        raise LogError(f"event {i}: corrupt clock reading beyond 2^40 ms", unreadable=True, event=i)
    try:
        action = parse(text)
    except CarpetError as exc:
        raise LogError(f"event {i}: {exc}", unreadable=True, event=i) from None
    actions.append(action)
    clocks.append(clock)


def encode_v1(log: Log, variant: Variant) -> bytes:
    """The version-1 binary form of ``log``."""
    summary = _SummaryV1(*_positional(log.summary)[:7])
    return _mp_encoder.encode((_positional(log.header), pack_events(log.events, variant.action_count),
                               _positional(summary)))


def encode_json(log: Log, variant: Variant) -> bytes:
    summary = _SummaryV1(*_positional(log.summary)[:7]) if log.header.version == 1 else log.summary
    lines = [b'{"header":' + _json_encoder.encode(log.header) + b",", b'"events":[']
    text = variant.text
    events = _as_events(log.events)
    last = len(events) - 1
    for i, (action, clock) in enumerate(events):
        lines.append(_json_encoder.encode((text(action), clock)) + (b"," if i < last else b""))
    lines.append(b"],")
    lines.append(b'"summary":' + _json_encoder.encode(summary) + b"}")
    return b"\n".join(lines) + b"\n"
