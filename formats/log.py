"""The game log: one session as bytes, in a binary form and a JSON form (docs/format.md).

Both forms hold the same three parts, ``header``, ``events`` and ``summary``; an event
is an action and the session clock reading (ms) when it was applied.  Two versions
exist, and every reader reads both:

- **version 2** (written by default): the binary form is one MessagePack ext value
  (type 67) whose payload packs the header, the events and the summary with varints;
  each event is an *action code* (formats/codec.py: the action named relative to its
  position, one byte or half a byte) and the clock delta (12 bits as a rule), kept in
  separate planes so that a reader unpacks them in bulk.  Digests are raw bytes and
  the creation time an integer.  ``summary.digest`` is BLAKE2b (8 bytes) over the
  payload before it.
- **version 1**: MessagePack array ``[header, events, summary]``, each event one
  integer ``delta_ms * action_count + action``; ``summary.digest`` is BLAKE2b
  (16 bytes) over the MessagePack bytes of the header and the packed events.

In JSON (both versions) each event is ``[action text, clock ms]``, one per line.
Converting one form to the other and back gives the same bytes.

Reading a log (:func:`decode` then :func:`verify`, or :func:`check`) runs the one
replay of formats/replay.py once.
"""

from __future__ import annotations

import re
from array import array
from itertools import repeat
from operator import and_, lshift, or_, rshift
from time import gmtime
from typing import TYPE_CHECKING, Annotated
from weakref import ref

import msgspec

from carpet.core import CarpetError, GAMES, Session, Variant, get_game, parse_deal
from carpet.core.game import FIRST_ACTION, RESTART
from carpet.core.numbering import MS_LIMIT, MS_PLAIN_LIMIT, MT_LIMIT, Deal, make_deal
from carpet.core.session import CLOCK_LIMIT, Events, deal_state

if TYPE_CHECKING:  # (a game started from a position: its module is loaded only for one)
    from carpet.core.position import Start

from . import codec as _codec
from .replay import PackedDeltas, ReplayError, clocks_of, copy_events, position_digest_of, run, unpacked
from .replay import _HIGH_NIBBLE, _LITTLE, _LOW_NIBBLE  # (one copy of the half-byte tables: PackedDeltas's too)

try:  # the C module hashlib itself wraps: no OpenSSL loaded for a digest
    from _blake2 import blake2b
except ImportError:  # pragma: no cover - every CPython has it
    from hashlib import blake2b

FORMAT = "carpet-log"
VERSION = 2  #: the version written by default; every version from 1 up to this is read
RULES_VERSION = 1
NUMBERING = "pysol"
EXT_TYPE = 67  #: MessagePack ext type of a version-2 binary log ("C")
#: a clock step the CLI records as zero elapsed time and counts as a jump (cli/clock.py)
STATUSES = ("playing", "won", "lost")

Count = Annotated[int, msgspec.Meta(ge=0)]
ClockMs = Annotated[int, msgspec.Meta(ge=0, le=CLOCK_LIMIT)]
Packed = Count  # MessagePack integers stop at 2^64 - 1 by themselves


def _doc(text: str, **more) -> msgspec.Meta:
    return msgspec.Meta(description=text, **more)


_HEX8_16 = "^([0-9a-f]{8}|[0-9a-f]{16})$"


class Header(msgspec.Struct, forbid_unknown_fields=False):
    """Who and what: the game, its deal, and where the log comes from (docs/format.md, "Header")."""

    format: Annotated[str, _doc('always "carpet-log"')]
    version: Annotated[int, _doc("the log format version: 1 or 2")]
    game: Annotated[str, _doc("the game id, as `carpet games` lists them")]
    rules: Annotated[int, _doc("the version of the rules the game was played by (1)")]
    numbering: Annotated[str, _doc('how deal numbers become cards: "pysol"; "position" for a game started '
                                   'from a position, its text then in deal')]
    deal: Annotated[str, _doc('the deal number in its canonical form: "ms1" for 1..31999, else plain digits')]
    layout: Annotated[str, _doc("digest of the initial position: 16 hex digits in version 1, 8 in version 2",
                                pattern=_HEX8_16)]
    created: Annotated[str, _doc("creation time, UTC, milliseconds: 2026-11-29T12:00:00.000Z")]
    tool: Annotated[str, _doc('the program that wrote the log, e.g. "carpet 0.1.0"')]


class Summary(msgspec.Struct, forbid_unknown_fields=False):
    """What the events come to; ``verify`` re-plays the events and compares (docs/format.md, "Summary")."""

    status: Annotated[str, _doc('"playing", "won" or "lost"')]
    score: Annotated[int, _doc("the score, win bonus included")]
    moves: Annotated[Count, _doc("counted moves of the attempt")]
    redeals_left: Annotated[int | None, _doc("redeals left; null where they are unlimited")]
    elapsed_ms: Annotated[ClockMs, _doc("the clock of the attempt at its last event")]
    position: Annotated[str, _doc("digest of the final position: 16 hex digits in version 1, 8 in version 2",
                                  pattern=_HEX8_16)]
    digest: Annotated[str, _doc("digest of the log: 32 hex digits in version 1, 16 in version 2",
                                pattern="^([0-9a-f]{16}|[0-9a-f]{32})$")]
    clock_jumps: Annotated[Count, _doc("clock steps recorded as zero elapsed time (version 2)")] = 0
    clock_skipped_ms: Annotated[int, _doc("wall time left out of the clock in all (version 2)")] = 0


class Log(msgspec.Struct):
    """A log in memory: events as (action, clock ms) pairs (core.session.Events or a list)."""

    header: Header
    events: object
    summary: Summary
    #: False for a text-form game written by hand without a digest, sealed as it was read (formats/text.py)
    sealed: bool = True


class JsonLog(msgspec.Struct):
    """The JSON form of a log (docs/format.md, "JSON form"; docs/schemas/carpet-log.schema.json)."""

    header: Header
    events: Annotated[list[tuple[str, ClockMs]], _doc("each event: [action in canonical notation, clock ms]")]
    summary: Summary


# --- version 1 as it was written -------------------------------------------------------
class _SummaryV1(msgspec.Struct):
    status: str
    score: int
    moves: Count
    redeals_left: int | None
    elapsed_ms: ClockMs
    position: str
    digest: str


class _BinaryHeaderV1(Header, array_like=True):
    pass


class _BinarySummaryV1(_SummaryV1, array_like=True):
    pass


class _BinaryV1(msgspec.Struct, array_like=True):
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
        }[name]()
        setattr(self, name, made)
        return made


_decoders = _Decoders()


class LogError(CarpetError):
    """A log that cannot be used.  ``unreadable`` ones (exit 2) vs failed verification (exit 1)."""

    def __init__(self, message: str, *, unreadable: bool, event: int | None = None) -> None:
        super().__init__(message)
        self.unreadable = unreadable
        self.event = event
        #: a log refused while it was read (a version-2 file names actions by position): the
        #: events before the refused one, and the refused (action, clock), for a report
        self.partial: Log | None = None
        self.found: tuple[int | None, int] | None = None
        self.total: int | None = None  # the events the file holds


def _bad(message: str) -> LogError:
    return LogError(message, unreadable=True)


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


def seal(header: Header, packed: list[int]) -> str:
    """The version-1 digest."""
    h = blake2b(digest_size=16)
    h.update(_mp_encoder.encode(_positional(header)))
    h.update(_mp_encoder.encode(packed))
    return h.hexdigest()


# --- varints (LEB128: 7 bits a byte, low first, high bit = more follows) ----------------
def _put(out: bytearray, value: int) -> None:
    while value > 0x7F:
        out.append((value & 0x7F) | 0x80)
        value >>= 7
    out.append(value)


def _zigzag(value: int) -> int:
    return value * 2 if value >= 0 else -value * 2 - 1


def _unzigzag(value: int) -> int:
    return value >> 1 if not value & 1 else -((value + 1) >> 1)


class _Reader:
    __slots__ = ("data", "pos", "end")

    def __init__(self, data: bytes, pos: int, end: int) -> None:
        self.data, self.pos, self.end = data, pos, end

    def varint(self, what: str) -> int:
        value, self.pos = _varint_at(self.data, self.pos, self.end, what)
        return value

    def take(self, n: int, what: str) -> bytes:
        if self.pos + n > self.end:
            raise _bad(f"truncated log ({what})")
        chunk = self.data[self.pos:self.pos + n]
        self.pos += n
        return chunk


# --- version 2: the tables the binary form numbers things by ---------------------------
#: game id -> code in the binary form (0: the id follows as text); only ever appended to
GAME_CODES = {"kovrik": 1, "kovrik-hard": 2, "kovrik-shuffle": 3, "kovrik-shuffle-2": 4, "carpet": 5,
              "carpet-auto": 6, "carpet-foster": 7, "crazy-quilt": 8, "indian-carpet": 9, "persian-carpet": 10,
              "montana": 11, "spaces": 12, "station": 13, "free-parking": 14, "blue-moon": 15, "red-moon": 16,
              "galary": 17, "jungle": 18, "spaces-and-aces": 19}
_GAME_BY_CODE = {code: game for game, code in GAME_CODES.items()}
NUMBERINGS = ("pysol", "position")  #: binary code = index; "position": the deal is a position's text
TOOL_PREFIX = "carpet "

# event planes: code width (bits 0-1: 0 -> 8 bits, 1 -> 4 bits) and the delta's high part
# (bits 2-3: 0 -> none, 1 -> 4 bits, 2 -> 8 bits); an all-ones field means "see overflow"
_CODE_WIDTHS = (8, 4)
_HIGH_WIDTHS = (0, 4, 8)


def _ints(typecode: str, values) -> array:
    """An array of ``values`` (``array(t, bytes)`` would read the bytes as raw memory)."""
    out = array(typecode)
    out.extend(iter(values))
    return out


def _nibbles(data: bytes, n: int) -> bytearray:
    """Half-bytes, the low one first: n values out of ceil(n / 2) bytes."""
    out = bytearray(2 * len(data))
    out[0::2] = data.translate(_LOW_NIBBLE)
    out[1::2] = data.translate(_HIGH_NIBBLE)
    if len(out) > n:
        if out[n]:
            raise _bad("corrupt log (a spare half-byte is not zero)")
        del out[n:]
    return out


def _escape_cost(values, limit: int) -> int:
    """Bytes of overflow varints for the values at or above ``limit`` (none, as a rule)."""
    if not values or max(values) < limit:
        return 0
    return sum(_varint_size(v) for v in values if v >= limit)


def _varint_size(value: int) -> int:
    return max(1, (value.bit_length() + 6) // 7)


def _pack_nibbles(values) -> bytes:
    """Two values a byte, the earlier in the low half (values below 16)."""
    values = bytes(values)
    if len(values) % 2:
        values += b"\0"
    return bytes(map(or_, values[0::2], map(lshift, values[1::2], repeat(4))))


def pack_planes(codes, deltas) -> bytes:
    """The events part of a version-2 payload (docs/format.md, "Events"), smallest layout first."""
    n = len(codes)
    best = None
    for code_bits in _CODE_WIDTHS:
        for high_bits in _HIGH_WIDTHS:
            code_max, delta_max = (1 << code_bits) - 1, (1 << (8 + high_bits)) - 1
            cost = ((n * code_bits + 7) // 8 + n + (n * high_bits + 7) // 8
                    + _escape_cost(codes, code_max) + _escape_cost(deltas, delta_max))
            if best is None or cost < best[0]:
                best = (cost, code_bits, high_bits)
    _, code_bits, high_bits = best
    code_max, delta_max = (1 << code_bits) - 1, (1 << (8 + high_bits)) - 1
    out = bytearray((_CODE_WIDTHS.index(code_bits) | _HIGH_WIDTHS.index(high_bits) << 2,))
    capped = bytes(map(min, codes, repeat(code_max)))
    out += _pack_nibbles(capped) if code_bits == 4 else capped
    capped = array("q", map(min, deltas, repeat(delta_max)))
    out += bytes(map(and_, capped, repeat(0xFF)))
    if high_bits == 4:
        out += _pack_nibbles(map(rshift, capped, repeat(8)))
    elif high_bits == 8:
        out += bytes(map(rshift, capped, repeat(8)))
    del capped
    if (codes and max(codes) >= code_max) or (deltas and max(deltas) >= delta_max):
        for c, d in zip(codes, deltas):
            if c >= code_max:
                _put(out, c)
            if d >= delta_max:
                _put(out, d)
    return bytes(out)


def _found(data: bytes, value: int) -> list[int]:
    """The positions of ``value`` in ``data`` (a byte search: escapes are rare)."""
    out = []
    at = data.find(value)
    while at >= 0:
        out.append(at)
        at = data.find(value, at + 1)
    return out


def unpack_planes(r: _Reader, n: int) -> tuple[bytes | bytearray | array, array, bytes | bytearray]:
    """Codes and clock deltas of n events, unpacked in bulk: codes as bytes (an array of 16 bits
    where a code escapes), deltas as an array; the escapes found by byte searches, not per event.
    Third, the codes as bytes before their escapes: hint, undo and restart where the codes have
    them (escapes are larger), for searches quicker than in an array (replay.run's ``meta``)."""
    half = (n + 1) >> 1
    if r.pos < r.end and r.data[r.pos] == _HALF_BYTES and r.pos + 1 + 2 * half + n <= r.end and _LITTLE:
        return _unpack_half_bytes(r, n, half)
    layout = r.take(1, "events")[0]
    if layout & 3 >= len(_CODE_WIDTHS) or layout >> 2 >= len(_HIGH_WIDTHS):
        raise _bad(f"corrupt log (unknown event layout {layout})")
    code_bits, high_bits = _CODE_WIDTHS[layout & 3], _HIGH_WIDTHS[layout >> 2]
    if code_bits == 8:
        codes = r.take(n, "events")
    else:
        codes = _nibbles(r.take((n + 1) // 2, "events"), n)
    low = r.take(n, "events")
    both = bytearray(2 * n)
    if high_bits == 0:
        high = None
        both[0 if _LITTLE else 1::2] = low
        escaped = _found(low, 0xFF)
    else:
        high = _nibbles(r.take((n + 1) // 2, "events"), n) if high_bits == 4 else r.take(n, "events")
        both[0::2], both[1::2] = (low, high) if _LITTLE else (high, low)
        top = (1 << high_bits) - 1
        escaped = [i for i in _found(high, top) if low[i] == 0xFF] if top in high else []
    deltas = array("H")
    deltas.frombytes(both)
    code_max = (1 << code_bits) - 1
    if code_max in codes or escaped:
        return _escapes(r, codes, deltas, code_max, escaped)
    return codes, deltas, codes


#: the layout of codes and the deltas' high parts both in half-bytes (4 + 8 + 4 bits an event)
_HALF_BYTES = _CODE_WIDTHS.index(4) | _HIGH_WIDTHS.index(4) << 2


def _unpack_half_bytes(r: _Reader, n: int, half: int) -> tuple[bytes | bytearray | array, array | PackedDeltas,
                                                                 bytes | bytearray]:
    """:func:`unpack_planes` of the commonest layout (``_HALF_BYTES``), its three planes there in
    full, on a little-endian machine: the code plane split straight into place, the deltas left in
    their planes (:class:`PackedDeltas`: verifying needs their sum alone) unless one escaped."""
    data, pos = r.data, r.pos + 1
    packed_codes = data[pos:pos + half]
    low = data[pos + half:pos + half + n]
    packed_high = data[pos + half + n:pos + 2 * half + n]
    if n & 1 and (packed_codes[-1] | packed_high[-1]) >> 4:
        raise _bad("corrupt log (a spare half-byte is not zero)")
    r.pos = pos + 2 * half + n
    codes = bytearray(2 * half)
    codes[0::2] = packed_codes.translate(_LOW_NIBBLE)
    codes[1::2] = packed_codes.translate(_HIGH_NIBBLE)
    if n & 1:
        del codes[n:]
    deltas = PackedDeltas(low, packed_high)
    # a delta escapes where its low byte and its high half-byte are all ones (low bytes 0xFF are rare)
    escaped = [i for i in _found(low, 0xFF) if (packed_high[i >> 1] >> 4 * (i & 1)) & 15 == 15] if 0xFF in low else []
    if 15 in codes or escaped:
        return _escapes(r, codes, deltas.unpacked() if escaped else deltas, 15, escaped)
    return codes, deltas, codes


def _escapes(r: _Reader, codes, deltas: array, code_max: int,
             escaped: list[int]) -> tuple[bytes | bytearray | array, array, bytes | bytearray]:
    """The codes and deltas that escaped their planes (``code_max``, the events in ``escaped``), read
    from the overflow varints after the planes, in event order; the codes as they were are the third.

    An escaped code is never below ``code_max`` (the writer escapes only what its field cannot
    hold): one that is would be read otherwise than its field says, e.g. an escaped undo (1)
    that the search for session events in the plane does not see, so it is refused.  Where every
    escaped code fits a byte (as in Коврик's logs) the codes stay bytes; else they widen (a code
    too large for any action is kept as it is: the replay refuses it as it refuses any code that
    names no action, at its event)."""
    code_at = _found(codes, code_max)
    if escaped:
        deltas = array("q", deltas)
        delta_at = set(escaped)
        events = sorted(delta_at.union(code_at))  # in event order: an event's code, then its delta
    else:  # (as a rule: codes alone escape)
        delta_at = ()
        events = code_at
    data, pos, end = r.data, r.pos, r.end
    values = []  # the escaped codes, in the order of code_at
    for i in events:
        if codes[i] == code_max:
            code, pos = _varint_at(data, pos, end, "event code")
            if code < code_max:
                raise _bad(f"corrupt log (event {i + 1}: an escaped code, {code}, below {code_max})")
            values.append(code)
        if i in delta_at:
            deltas[i], pos = _varint_at(data, pos, end, "clock delta")
    r.pos = pos
    meta = codes
    if values:
        top = max(values)
        # a copy either way: meta keeps the plane as it was (escapes as code_max, never a session event)
        if top < 256:
            codes = bytearray(codes)
        else:  # (a code past 2^64 names no action either: kept, in a list, for the replay to refuse)
            codes = array("H" if top <= 0xFFFF else "Q", list(codes)) if top < 2**64 else list(codes)
        for i, code in zip(code_at, values):
            codes[i] = code
    return codes, deltas, meta


# --- version 2 payload ---------------------------------------------------------------------
def _created_ms(text: str) -> int:
    from datetime import datetime, timezone

    try:
        moment = datetime.strptime(text, "%Y-%m-%dT%H:%M:%S.%fZ").replace(tzinfo=timezone.utc)
    except ValueError:
        raise _bad(f"creation time {text[:40]!r} is not of the form 2026-11-29T12:00:00.000Z") from None
    ms = round(moment.timestamp() * 1000)
    if ms < 0 or created_text(ms) != text:
        raise _bad(f"creation time {text[:40]!r} is not of the form 2026-11-29T12:00:00.000Z")
    return ms


_TWO_DIGITS = tuple(a + b for a in "0123456789" for b in "0123456789")  # "%02d" % k
_THREE_DIGITS = tuple(a + b for a in "0123456789" for b in _TWO_DIGITS)  # "%03d" % k (a third of its cost)


_DATES: dict[int, str] = {}  # day since 1970 -> its date as the header's text begins it


def created_text(ms: int) -> str:
    """Milliseconds since 1970 (UTC) -> the header's text, e.g. 2026-11-29T12:00:00.000Z.  The
    date is worked out once a day (the logs read together are as a rule of a few days), the time
    of day by arithmetic: a third of the cost of ``gmtime`` for every log read."""
    seconds, part = divmod(ms, 1000)
    day, second = divmod(seconds, 86400)
    date = _DATES.get(day)
    if date is None:
        moment = gmtime(seconds)
        year, month, day_of_month = moment[:3]
        if not 1000 <= year <= 9999:  # (a creation time the binary form allows is in years 1970 to 6429)
            return "%04d-%02d-%02dT%02d:%02d:%02d.%03dZ" % (moment[:6] + (part,))
        if len(_DATES) >= 4096:
            _DATES.clear()
        date = _DATES[day] = f"{year}-{_TWO_DIGITS[month]}-{_TWO_DIGITS[day_of_month]}T"
    hour, second = divmod(second, 3600)
    minute, second = divmod(second, 60)
    two = _TWO_DIGITS  # the digits looked up: no string formatting for every log read
    return f"{date}{two[hour]}:{two[minute]}:{two[second]}.{_THREE_DIGITS[part]}Z"


def _hex_bytes(text: str, size: int, what: str) -> bytes:
    try:
        raw = bytes.fromhex(text)
    except ValueError:
        raw = b""
    if len(raw) != size or raw.hex() != text:
        raise _bad(f"{what} {text[:40]!r} is not {2 * size} lower-case hex digits")
    return raw


def _payload_v2(header: Header, codes, deltas, summary: Summary) -> bytes:
    """The version-2 payload before the digest (docs/format.md, "Binary form, version 2")."""
    out = bytearray()
    _put(out, header.version)
    code = GAME_CODES.get(header.game, 0)
    out.append(code)
    if not code:
        game = header.game.encode()
        _put(out, len(game))
        out += game
    if header.numbering not in NUMBERINGS:
        raise _bad(f"unknown numbering {header.numbering!r}")
    _put(out, header.rules << 2 | NUMBERINGS.index(header.numbering))
    deal = _header_deal(header.deal, header.numbering)
    if type(deal) is Deal:
        _put(out, deal.number << 1 | deal.microsoft)
    else:  # a game started from a position: the text, as varint length + ASCII
        _put(out, len(deal.text))
        out += deal.text.encode()
    out += _hex_bytes(header.layout, 4, "layout digest")
    _put(out, _created_ms(header.created))
    _put_tool(out, header.tool)
    _put(out, len(codes))
    out += pack_planes(codes, deltas)
    if summary.status not in STATUSES:
        raise _bad(f"unknown status {summary.status!r}")
    out.append(STATUSES.index(summary.status))
    _put(out, _zigzag(summary.score))
    _put(out, summary.moves)
    left = summary.redeals_left
    _put(out, 0 if left is None else _zigzag(left) + 1)
    _put(out, summary.elapsed_ms)
    _put(out, summary.clock_jumps << 1 | (summary.clock_skipped_ms != 0))
    if summary.clock_skipped_ms:
        _put(out, _zigzag(summary.clock_skipped_ms))
    out += _hex_bytes(summary.position, 4, "position digest")
    return bytes(out)


#: (patterns are compiled when first used, by re's own cache: start-up pays for none of them)
_TOOL_VERSION = r"carpet (0|[1-9][0-9]{0,5})\.(0|[1-9][0-9]{0,5})\.(0|[1-9][0-9]{0,5})"


def _put_tool(out: bytearray, tool: str) -> None:
    """``carpet M.m.p``: 3 then the three numbers; else the text's length times 2, and the text."""
    m = re.fullmatch(_TOOL_VERSION, tool)
    if m:
        out.append(3)
        for part in m.groups():
            _put(out, int(part))
    else:
        raw = tool.encode()
        _put(out, len(raw) << 1)
        out += raw


def _get_tool(r: "_Reader") -> str:
    size = r.varint("tool")
    if size == 3:
        return TOOL_PREFIX + ".".join(str(r.varint("tool")) for _ in range(3))
    if size & 1:
        raise _bad("corrupt log (tool)")
    try:  # (the digest covers the bytes: text decoded with replacements would not write back the same)
        return r.take(size >> 1, "tool").decode("utf-8")
    except UnicodeDecodeError:
        raise _bad("corrupt log (the tool text is not UTF-8)") from None


_EMPTY_DIGEST = blake2b(digest_size=8)  # copied for each payload: quicker than a hash made anew


def _digest_v2(payload: bytes) -> bytes:
    hashed = _EMPTY_DIGEST.copy()
    hashed.update(payload)
    return hashed.digest()


def _ext(payload: bytes) -> bytes:
    n = len(payload)
    if n < 256:
        head = bytes((0xC7, n))
    elif n < 65536:
        head = bytes((0xC8,)) + n.to_bytes(2, "big")
    else:
        head = bytes((0xC9,)) + n.to_bytes(4, "big")
    return head + bytes((EXT_TYPE,)) + payload


_V2_HEADS = (b"\xc7", b"\xc8", b"\xc9")  # the first byte of a version-2 binary log (an ext)
_EXT_SIZES = {0xC7: 1, 0xC8: 2, 0xC9: 4}  # MessagePack ext 8, 16, 32: bytes of the length


def _unext(data: bytes) -> tuple[int, int]:
    """(start, end) of the payload of a version-2 binary log."""
    size = _EXT_SIZES.get(data[0])
    if size is None or len(data) < 2 + size:
        raise _bad("not a carpet log")
    n = int.from_bytes(data[1:1 + size], "big")
    start = 2 + size
    if data[start - 1] != EXT_TYPE:
        raise _bad(f"not a carpet log (MessagePack ext type {data[start - 1]})")
    if start + n != len(data):
        raise _bad("truncated log" if start + n > len(data) else "corrupt log (bytes after its end)")
    return start, start + n


def _varint_at(data: bytes, pos: int, stop: int, what: str) -> tuple[int, int]:
    """The varint at ``pos`` (before ``stop``) and the position after it: the header's and
    summary's fields read without a reader object (``_Reader.varint`` reads its own by this)."""
    if pos < stop:
        byte = data[pos]
        if byte < 0x80:  # one byte: most fields
            return byte, pos + 1
    value = shift = 0
    while True:
        if pos >= stop:
            raise _bad(f"truncated log ({what})")
        byte = data[pos]
        pos += 1
        value |= (byte & 0x7F) << shift
        if byte < 0x80:
            break
        shift += 7
        if shift > 63:
            raise _bad(f"corrupt log ({what}: number too long)")
    if byte == 0 and shift:
        raise _bad(f"corrupt log ({what}: number not in its shortest form)")
    return value, pos


_COMMON_RULES = RULES_VERSION << 2  # the rules byte of a log of these rules and numbering "pysol"
_TOOLS: dict[bytes, str] = {}  # the three bytes of a tool "carpet M.m.p" -> its text


def _v2_common(data: bytes) -> tuple | None:
    """:func:`_decode_v2_binary` of a log of the common shape, in fewer steps: these rules and
    numbering, a known game's code, a tool of the form carpet M.m.p with one byte a number, no
    clock skipped.  None for any other log and for any log with something wrong: :func:`_decode_v2_binary` then reads it and says what.  Every check of that
    reading is made here too (its bounds by the end check: the summary ends where the digest
    begins); tests/test_log.py pins the two to each other, on good logs and bad."""
    head = data[:1]  # the ext's first byte: its length in one byte (0xC7) or two (0xC8) as a rule
    if head == b"\xc7":
        start = 3
        end = 3 + data[1] if len(data) > 3 else 0
    elif head == b"\xc8":
        start = 4
        end = 4 + (data[1] << 8 | data[2]) if len(data) > 4 else 0
    else:
        return None
    if end != len(data) or end - start < 32 or data[start - 1] != EXT_TYPE or data[start] != 2 \
            or data[start + 2] != _COMMON_RULES:
        return None
    game = _GAME_BY_CODE.get(data[start + 1])
    if game not in GAMES:  # (None: a code no game has)
        return None
    stop = end - 8
    try:
        deal_value, pos = _varint_at(data, start + 3, stop, "deal")
        layout = data[pos:pos + 4]
        created, pos = _varint_at(data, pos + 4, stop, "created")
        if created > 2**47 or pos + 5 > stop or data[pos] != 3 \
                or (data[pos + 1] | data[pos + 2] | data[pos + 3]) >= 0x80:  # _get_tool's "carpet M.m.p"
            return None
        tool = _TOOLS.get(data[pos + 1:pos + 4])  # the same few for every log read: made once each
        if tool is None:
            tool = f"carpet {data[pos + 1]}.{data[pos + 2]}.{data[pos + 3]}"
            if len(_TOOLS) < 64:
                _TOOLS[data[pos + 1:pos + 4]] = tool
        n = data[pos + 4]  # the number of events: one byte as a rule (and each field below)
        if n < 0x80:
            pos += 5
        else:
            n, pos = _varint_at(data, pos + 4, stop, "events")
            if n > stop:
                return None
        r = _Reader(data, pos, stop)
        half = (n + 1) >> 1
        if data[pos] == _HALF_BYTES and pos + 1 + 2 * half + n <= stop and _LITTLE:
            codes, deltas, meta = _unpack_half_bytes(r, n, half)
        else:
            codes, deltas, meta = unpack_planes(r, n)
        pos = r.pos
        status, score, moves, left = data[pos:pos + 4]
        if score | moves | left < 0x80:
            pos += 4
        else:
            score, pos = _varint_at(data, pos + 1, stop, "score")
            moves, pos = _varint_at(data, pos, stop, "moves")
            left, pos = _varint_at(data, pos, stop, "redeals")
        elapsed, pos = _varint_at(data, pos, stop, "clock")
        jumps = data[pos]
        pos += 1
    except (LogError, IndexError, ValueError):  # (ValueError: fewer than four bytes to unpack)
        return None
    if status >= 3 or jumps >= 0x80 or jumps & 1 or pos + 4 != stop or _digest_v2(data[start:stop]) != data[stop:]:
        return None
    header = Header(FORMAT, 2, game, RULES_VERSION, "pysol",
                    f"ms{deal_value >> 1}" if deal_value & 1 else str(deal_value >> 1), layout.hex(),
                    created_text(created), tool)
    summary = Summary(STATUSES[status], _unzigzag(score), moves, None if left == 0 else _unzigzag(left - 1), elapsed,
                      data[pos:stop].hex(), data[stop:].hex(), jumps >> 1, 0)
    return header, summary, GAMES[game], codes, deltas, meta, _deal_of(deal_value)


def _decode_v2_binary(data: bytes) -> tuple[Header, Summary, Variant, bytes | bytearray | array, array,
                                             bytes | bytearray, Deal | None]:
    """A version-2 binary log's header, summary, game, event planes (codes, deltas, meta as
    :func:`unpack_planes` gives them) and deal, its digest checked on the bytes."""
    start, end = _unext(data)
    if end - start < 8:
        raise _bad("truncated log")
    stop = end - 8
    # the header: version, game code and rules, as a rule one byte each (docs/format.md)
    head = data[start:start + 3]
    if len(head) == 3 and head[0] < 0x80 and head[1] and head[2] < 0x80:
        version, code, rules_numbering = head
        pos = start + 3
    else:
        version, pos = _varint_at(data, start, stop, "version")
        code = None
    if version != 2:
        if version > VERSION:
            raise _newer(version)
        raise _bad(f"bad log version {version}")
    if code is None:
        r = _Reader(data, pos, stop)
        code = r.take(1, "game")[0]
        game = None if code else r.take(r.varint("game"), "game").decode("utf-8", "replace")
        rules_numbering = r.varint("rules")
        pos = r.pos
    if code:
        game = _GAME_BY_CODE.get(code)
        if game is None:
            raise _bad(f"unknown game (code {code}) in log")
    if game not in GAMES:
        raise _bad(f"unknown game {game[:40]!r} in log")
    rules, numbering = rules_numbering >> 2, rules_numbering & 3
    if numbering >= len(NUMBERINGS):
        raise _bad(f"unknown numbering (code {numbering})")
    deal_value, pos = _varint_at(data, pos, stop, "deal")
    start_text = None
    if numbering == 1:  # NUMBERINGS: a position's text follows, deal_value its length
        if pos + deal_value > stop:
            raise _bad("truncated log (position)")
        start_text = data[pos:pos + deal_value].decode("ascii", "replace")
        pos += deal_value
    if pos + 4 > stop:
        raise _bad("truncated log (layout)")
    layout = data[pos:pos + 4].hex()
    created, pos = _varint_at(data, pos + 4, stop, "created")
    if created > 2**47:
        raise _bad("corrupt log (creation time)")
    if data[pos:pos + 1] == b"\x03" and pos + 4 <= stop and data[pos + 1] | data[pos + 2] | data[pos + 3] < 0x80:
        tool = f"carpet {data[pos + 1]}.{data[pos + 2]}.{data[pos + 3]}"  # _get_tool, one byte each
        pos += 4
    else:
        r = _Reader(data, pos, stop)
        tool = _get_tool(r)
        pos = r.pos
    n, pos = _varint_at(data, pos, stop, "events")
    if n > end - start:
        raise _bad("corrupt log (more events than bytes)")
    r = _Reader(data, pos, stop)
    codes, deltas, meta = unpack_planes(r, n)
    pos = r.pos
    if pos >= stop:
        raise _bad("truncated log (status)")
    status = data[pos]
    if status >= len(STATUSES):
        raise _bad(f"corrupt log (status {status})")
    score, pos = _varint_at(data, pos + 1, stop, "score")
    moves, pos = _varint_at(data, pos, stop, "moves")
    left, pos = _varint_at(data, pos, stop, "redeals")
    elapsed, pos = _varint_at(data, pos, stop, "clock")
    jumps, pos = _varint_at(data, pos, stop, "clock jumps")
    skipped = 0
    if jumps & 1:
        skipped, pos = _varint_at(data, pos, stop, "clock skipped")
        skipped = _unzigzag(skipped)
        if not skipped:
            raise _bad("corrupt log (clock skipped)")
    jumps >>= 1
    if pos + 4 > stop:
        raise _bad("truncated log (position)")
    if pos + 4 != stop:
        raise _bad("corrupt log (bytes after the summary)")
    position = data[pos:stop].hex()
    digest = data[stop:end]
    if _digest_v2(data[start:stop]) != digest:
        raise LogError("digest mismatch: the log was edited or corrupted", unreadable=False)
    deal = start_text if start_text is not None else f"ms{deal_value >> 1}" if deal_value & 1 else str(deal_value >> 1)
    header = Header(FORMAT, 2, game, rules, NUMBERINGS[numbering], deal, layout, created_text(created), tool)
    summary = Summary(STATUSES[status], _unzigzag(score), moves, None if left == 0 else _unzigzag(left - 1), elapsed,
                      position, digest.hex(), jumps, skipped)
    if rules != RULES_VERSION:  # _check_header
        _check_header(header)
    made = _header_deal(deal, NUMBERINGS[numbering]) if start_text is not None else _deal_of(deal_value)
    return header, summary, GAMES[game], codes, deltas, meta, made


def _deal_of(value: int) -> Deal | None:
    """The deal a binary header's deal field names (number << 1 | microsoft) where its text
    (``ms`` N, or N) is a canonical deal number, as parse_deal makes it; else None, and _fresh
    says what is wrong with the text (tests/test_log.py pins it to parse_deal)."""
    number = value >> 1
    if value & 1:
        return make_deal(number, True) if 0 < number < MS_LIMIT else None
    return make_deal(number, False) if MS_PLAIN_LIMIT <= number < MT_LIMIT else None


def _newer(version: int) -> LogError:
    return _bad(f"unsupported log version {version} (this carpet reads up to {VERSION}; a newer carpet wrote it)")


def _check_header(header: Header) -> None:
    if header.rules != RULES_VERSION:
        raise _bad(f"unsupported rules version {header.rules} (this carpet plays rules {RULES_VERSION})")
    if header.numbering not in NUMBERINGS:
        raise _bad(f"unknown numbering {header.numbering!r}")


# --- building ------------------------------------------------------------------------
def digest_text(session_or_state, version: int = VERSION) -> str:
    """A position's digest as the log writes it: 16 hex digits in version 1, 8 in version 2."""
    state = getattr(session_or_state, "state", session_or_state)
    full = state.digest()
    return full if version == 1 else full[:8]


def new_header(session: Session, *, created: str, tool: str, version: int = VERSION) -> Header:
    fresh = deal_state(session.variant, session.deal)
    return Header(format=FORMAT, version=version, game=session.variant.id, rules=RULES_VERSION,
                  numbering=getattr(session.deal, "numbering", NUMBERING), deal=session.deal.text,
                  layout=digest_text(fresh, version),
                  created=created, tool=tool)


def upgraded(header: Header) -> Header:
    """A version-1 header as version 2 (what ``play`` writes back on a version-1 log)."""
    if header.version == VERSION:
        return header
    return msgspec.structs.replace(header, version=VERSION, layout=header.layout[:8])


def record(session: Session, header: Header, *, clock_jumps: int = 0, clock_skipped_ms: int = 0) -> Log:
    """The log of ``session`` under ``header``, with a fresh summary and digest."""
    events = session.events if isinstance(session.events, Events) else Events(session.events)
    summary = Summary(status=session.status, score=session.score, moves=session.moves,
                      redeals_left=session.redeals_left, elapsed_ms=session.clock_ms,
                      position=digest_text(session, header.version), digest="",
                      clock_jumps=clock_jumps, clock_skipped_ms=clock_skipped_ms)
    log = Log(header=header, events=events, summary=summary)
    if header.version == 1:
        summary.digest = seal(header, pack_events(events, session.variant.action_count))
    else:
        codes, deltas = _codes_and_deltas(log, session.variant)
        summary.digest = _digest_v2(_payload_v2(header, codes, deltas, summary)).hex()
        if session.events is events:
            events.memo = (None, codes, False)  # encode reuses the codes; verify still re-plays
    return log


def reseal(log: Log) -> Log:
    """``log`` with its digest computed afresh (for tools and tests that edit a log on purpose)."""
    variant = get_game(log.header.game)
    events = _as_events(log.events)
    if log.header.version == 1:
        digest = seal(log.header, pack_events(events, variant.action_count))
    else:
        codes, deltas = _codes_and_deltas(log, variant)
        digest = _digest_v2(_payload_v2(log.header, codes, deltas, log.summary)).hex()
    return msgspec.structs.replace(log, events=events, summary=msgspec.structs.replace(log.summary, digest=digest))


# --- bytes ---------------------------------------------------------------------------
_SPACE = rb"\s*"


def _first(data: bytes, n: int) -> bytes:
    """The first n bytes after leading whitespace (without copying a large file)."""
    start = re.match(_SPACE, data).end()
    return data[start:start + n]


def is_json(data: bytes) -> bool:
    return _first(data, 1) == b"{"


#: the first bytes of the text form (formats/text.py)
TEXT_TAG = b'[Format "carpet-log"]'


#: how the text form begins: a tag (any tag: a game written by hand may start with [Event "..."] or
#: leave [Format] out), after whitespace and a UTF-8 byte order mark; no binary or JSON log starts so
_TEXT_HEAD = rb"(?:\xef\xbb\xbf)?\s*\[[A-Za-z]"


def is_text(data: bytes) -> bool:
    return re.match(_TEXT_HEAD, data) is not None


def looks_like_a_log(head: bytes) -> bool:
    """Whether a file's first bytes (a few hundred) look like a carpet log in any form: a
    version-2 binary log starts as a MessagePack ext of its type, every other form names
    the format near its start."""
    size = _EXT_SIZES.get(head[0]) if head else None
    if size is not None and head[1 + size:2 + size] == bytes((EXT_TYPE,)):
        return True
    return FORMAT.encode() in head


def _as_events(events) -> Events:
    return events if isinstance(events, Events) else Events(events)


def _deltas(events: Events) -> array:
    """Each event's clock minus the previous reading of its attempt (docs/format.md)."""
    actions, clocks = events.actions, events.clocks
    deltas = array("q", clocks)
    previous = 0
    for i in range(len(deltas)):
        clock = clocks[i]
        deltas[i] = clock - previous
        previous = 0 if actions[i] == RESTART else clock
    if deltas and min(deltas) < 0:  # (a Log made in code: every reader refuses such a file)
        i = next(k for k, delta in enumerate(deltas) if delta < 0)
        raise LogError(f"event {i + 1}: clock reading {clocks[i]} ms is before the previous one "
                       f"({clocks[i] - deltas[i]} ms), which version 2, storing clock deltas, cannot hold",
                       unreadable=False, event=i + 1)
    return deltas


def _codes_and_deltas(log: Log, variant: Variant) -> tuple[array, array]:
    """The version-2 action codes of the events: a replay, continued in the position of an
    illegal event if there is one (every action has a code in every position)."""
    events = _as_events(log.events)
    memo = events.memo
    if memo is not None and memo[1] is not None:
        return memo[1], _deltas(events)
    session = Session(variant, header_deal(log.header))
    try:
        _, codes = run(session, events.actions, events.clocks, from_codes=False, want_codes=True)
    except ReplayError as exc:
        encode = _codec.codec(variant.family)[0]
        session2 = Session(variant, header_deal(log.header))
        done = exc.event - 1
        _, codes = run(session2, events.actions, events.clocks, from_codes=False, want_codes=True, upto=done)
        state = session2.state
        for action in events.actions[done:]:
            codes.append(action if action < FIRST_ACTION else encode(state, action))
    return codes, _deltas(events)


def encode(log: Log, *, as_json: bool = False) -> bytes:
    """The bytes of a log in the version its header names (no checks: see :func:`to_bytes`)."""
    variant = get_game(log.header.game)
    version = log.header.version
    if as_json:
        return _encode_json(log, variant)
    if version == 1:
        summary = _SummaryV1(*_positional(log.summary)[:7])
        return _mp_encoder.encode((_positional(log.header), pack_events(log.events, variant.action_count),
                                   _positional(summary)))
    codes, deltas = _codes_and_deltas(log, variant)
    payload = _payload_v2(log.header, codes, deltas, log.summary)
    return _ext(payload + bytes.fromhex(log.summary.digest) if _is_hex(log.summary.digest, 8)
                else payload + _digest_v2(payload))


def _is_hex(text: str, size: int) -> bool:
    try:
        return len(bytes.fromhex(text)) == size
    except ValueError:
        return False


def _encode_json(log: Log, variant: Variant) -> bytes:
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


def _read_v2_binary(data: bytes, compare: bool) -> tuple[Log, Session]:
    """A version-2 binary log read and re-played (its actions are named by their position), with
    its summary compared to the replay where ``compare`` (:func:`check`; :func:`decode` leaves
    that to :func:`verify`).  The replay is kept on the events for :func:`verify`."""
    header, summary, variant, codes, deltas, meta, deal = _v2_common(data) or _decode_v2_binary(data)
    items = codes
    clocks = None
    if deltas.typecode != "H" or len(items) * 0xFFFF > CLOCK_LIMIT:
        # a delta escaped its plane (or the log is very long): the readings are worked out
        # and bounded here; else no reading can pass the bound and they are summed when read
        try:
            clocks = clocks_of(items, unpacked(deltas))
        except OverflowError:
            raise _bad("corrupt log (a clock reading beyond 2^40 ms)") from None
        _check_clocks(items, clocks)
    session = _fresh(header, variant, deal)
    try:
        session, _ = run(session, items, clocks, from_codes=True, deltas=deltas, meta=meta)
    except ReplayError as exc:
        if clocks is None:
            clocks = clocks_of(items, unpacked(deltas))
        refused = _illegal(exc, variant, session)
        if exc.decoded is not None:  # what was played before it, for a report of the position there
            before = exc.event - 1
            refused.partial = Log(header=header, summary=summary,
                                  events=Events(actions=exc.decoded[:before], clocks=clocks[:before]))
            action = exc.decoded[before] if len(exc.decoded) > before else exc.action
            refused.found = (action, clocks[before])
            refused.total = len(items)
        raise refused from None
    # the replay kept for verify and replay (the digest was checked on the bytes), without a
    # reference cycle (log.events -> session -> log.events), which only the garbage collector
    # frees (measured: 1.5 us a log, 4 % of a Carpet game's check).  check() hands the session
    # to its caller, so the events hold it weakly; decode() has none to hand it to, so the log
    # gets events of its own (copies: the session's grow as it is played on) and holds it.
    events = session.events
    if compare:
        _compare_summary(summary, session, 2)
        events.memo = (ref(session), codes, True)
    else:
        events = copy_events(events)
        events.memo = (session, codes, True)
    return Log(header, events, summary), session


def decode(data: bytes) -> Log:
    """Bytes (either form, either version) -> Log.  Raises LogError for anything unusable.

    A version-2 binary log names its actions by their position, so decoding it re-plays
    it (formats/replay.py) and refuses an action that cannot be played there; the
    replay is kept for :func:`verify`.
    """
    binary_v2 = data[:1] in _V2_HEADS  # no whitespace before it: neither text nor JSON
    if not binary_v2:
        if not _first(data, 1):
            raise _bad("empty file, not a carpet log")
        if is_text(data):
            from .text import decode_text
            return decode_text(data)[0]
    as_json = not binary_v2 and is_json(data)
    if binary_v2:
        return _read_v2_binary(data, False)[0]
    try:
        peek = (_decoders.json_peek if as_json else _decoders.mp_peek).decode(data)
    except msgspec.DecodeError as exc:
        raise _bad(f"not a carpet log, or truncated/corrupt ({_short(exc)})") from None
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
    actions, clocks = array("I"), array("q")
    previous = 0
    for i, value in enumerate(packed, 1):
        delta, action = divmod(value, count)
        clock = previous + delta
        if action >= FIRST_ACTION and not valid(action):  # a packed number may name no action
            raise LogError(f"event {i}: no such {variant.id} action ({action})", unreadable=True, event=i)
        if clock > CLOCK_LIMIT:
            raise LogError(f"event {i}: corrupt clock reading beyond 2^40 ms", unreadable=True, event=i)
        actions.append(action)
        clocks.append(clock)
        previous = 0 if action == RESTART else clock
    return Events(actions=actions, clocks=clocks)


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


def _short(exc: Exception) -> str:
    return str(exc).splitlines()[0][:120]


# --- checking ------------------------------------------------------------------------
def _header_deal(text: str, numbering: str = NUMBERING) -> "Deal | Start":
    """The deal a header names, refused unless its text is a deal number in canonical form (or,
    numbering "position", a position in the form carpet prints it)."""
    if numbering != NUMBERING:
        return _header_start(text)
    try:
        deal = parse_deal(text)
    except CarpetError as exc:
        raise _bad(f"bad deal in header: {exc}") from None
    if deal.text != text:
        raise _bad(f"deal {text!r} is not in its canonical form ({deal.text})")
    return deal


def header_deal(header: Header) -> "Deal | Start":
    """What a header's game was dealt from: its deal number, or (numbering "position") its position."""
    return _header_deal(header.deal, header.numbering)


def _header_start(text: str) -> "Start":
    """The position a header of numbering "position" names (a core.position.Start), refused unless
    printed as carpet prints it."""
    from carpet.core.position import Start
    from carpet.core.position import read as read_position

    try:
        position = read_position(text)
        position.state()
    except CarpetError as exc:
        raise _bad(f"bad position in header: {exc}") from None
    if position.text != text:
        raise _bad("the position in the header is not in the form carpet prints it")
    return Start(text)


def _fresh(header: Header, variant: Variant, deal: "Deal | Start | None" = None) -> Session:
    """A session of the header's deal, its initial layout checked against the header's digest.
    ``deal``: the header's deal made already (a binary log's, where its text is canonical)."""
    if deal is None:
        deal = _header_deal(header.deal, header.numbering)
    session = Session.to_replay(variant, deal)
    full = position_digest_of(session.state)
    found = full if header.version == 1 else full[:8]
    if found != header.layout:
        where = f"deal {deal.text}" if type(deal) is Deal else "its starting position"
        raise LogError(f"initial layout digest {header.layout} does not match {where} "
                       f"of {variant.id} ({found})", unreadable=False)
    return session


def _illegal(exc: ReplayError, variant: Variant, session: Session | None = None) -> LogError:
    i = exc.event
    action = exc.action
    what = f" ({variant.text(action)})" if action is not None and _nameable(variant, action) else ""
    return LogError(f"event {i}{what}: illegal: {exc}", unreadable=False, event=i)


def _nameable(variant: Variant, action: int) -> bool:
    try:
        variant.text(action)
    except (CarpetError, IndexError, ValueError):
        return False
    return True


def _check_clocks(items, clocks: array) -> None:
    if clocks and max(clocks) > CLOCK_LIMIT:
        i = next(k for k, c in enumerate(clocks) if c > CLOCK_LIMIT) + 1
        raise LogError(f"event {i}: corrupt clock reading beyond 2^40 ms", unreadable=True, event=i)


def _check_order(events: Events, variant: Variant) -> None:
    """Within an attempt, no clock reading before the previous one (Session.act's rule)."""
    actions, clocks = events.actions, events.clocks
    previous = 0
    for i in range(len(actions)):
        clock = clocks[i]
        if clock < previous:
            raise LogError(f"event {i + 1} ({variant.text(actions[i])}): illegal: clock reading {clock} ms is "
                           f"before the previous one ({previous} ms)", unreadable=False, event=i + 1)
        previous = 0 if actions[i] == RESTART else clock


def _replayed(memo: tuple | None) -> Session | None:
    """The session a reader kept in ``Events.memo`` (itself, or a weak reference to it), if any."""
    if memo is None or memo[0] is None:
        return None
    session = memo[0]
    return session() if type(session) is ref else session


def replay(log: Log, upto: int | None = None, *, keep_history: bool = False, step=None) -> Session:
    """Re-play the log's events (the first ``upto``) with the engine; LogError at an illegal one."""
    variant = get_game(log.header.game)
    events = _as_events(log.events)
    session = _fresh(log.header, variant)
    if upto is None and not keep_history and step is None:
        known = _replayed(events.memo)
        if known is not None:
            return known
    _check_order(events if upto is None else events[:upto], variant)
    try:
        session, _ = run(session, events.actions, events.clocks, from_codes=False, upto=upto,
                         keep_history=keep_history, step=step)
    except ReplayError as exc:
        session.events = events
        raise _illegal(exc, variant, session) from None
    return session


def _compare_summary(s: Summary, session: Session, version: int) -> None:
    """The summary's claims against the replay: LogError at the first that differs."""
    state = session.state
    position = position_digest_of(state)
    found = (state.status, state.score + session.bonus, session.moves, state.redeals_left, session.clock_ms,
             position if version == 1 else position[:8])
    claimed = (s.status, s.score, s.moves, s.redeals_left, s.elapsed_ms, s.position)
    if found != claimed:
        names = ("status", "score", "moves", "redeals_left", "elapsed_ms", "position")
        for name, want_, got in zip(names, claimed, found):
            if want_ != got:
                raise LogError(f"summary {name} says {want_!r} but the replay gives {got!r}", unreadable=False)


def verify(log: Log, *, keep_history: bool = False) -> Session:
    """Full check: every event legal, summary as replayed, digest intact.  Returns the session."""
    events = _as_events(log.events)
    memo = events.memo
    confirmed = False
    session = None if keep_history else _replayed(memo)
    if session is not None:
        _, codes, confirmed = memo
        variant = session.variant
    else:
        variant = get_game(log.header.game)
        _check_order(events, variant)
        session = _fresh(log.header, variant)
        want = log.header.version == 2
        try:
            session, codes = run(session, events.actions, events.clocks, from_codes=False,
                                 want_codes=want, keep_history=keep_history)
        except ReplayError as exc:
            session.events = events
            raise _illegal(exc, variant, session) from None
        events.memo = (session, codes, False) if not keep_history else None
    s = log.summary
    if log.header.version != 1 and not confirmed:
        expected = _digest_v2(_payload_v2(log.header, codes, _deltas(events), s)).hex()
        if s.digest != expected:
            raise LogError("digest mismatch: the header, events or summary were edited or corrupted",
                           unreadable=False)
    _compare_summary(s, session, log.header.version)
    if log.header.version == 1 and s.digest != seal(log.header, pack_events(events, variant.action_count)):
        raise LogError("digest mismatch: the header or events were edited or corrupted", unreadable=False)
    return session


def check(data: bytes, *, keep_history: bool = False) -> tuple[Log, Session]:
    """Decode and verify any form: what every reader of a file runs (one replay)."""
    if data[:1] in _V2_HEADS:
        if not keep_history:  # the usual reading: one pass, the summary compared there
            return _read_v2_binary(data, True)
    elif is_text(data):
        from .text import check_text
        return check_text(data, keep_history=keep_history)
    log = decode(data)
    return log, verify(log, keep_history=keep_history)


FORMS = ("binary", "json", "text")

#: the largest magnitude of a signed field (a zigzag varint of at most 64 bits, as readers take)
_FIELD_LIMIT = 2**63


def _writable(log: Log) -> None:
    """LogError for a log (made in code) that no form can hold, before :func:`encode` meets it: the
    header and summary outside the schema's types and bounds, an unknown version, game or deal,
    an action index the game has not, a clock reading outside 0..2^40 ms."""
    try:
        header = msgspec.convert(msgspec.to_builtins(log.header), Header)
        summary = msgspec.convert(msgspec.to_builtins(log.summary), Summary)
    except (msgspec.ValidationError, TypeError) as exc:
        raise _bad(f"a field out of its type or range ({_short(exc)})") from None
    if header.format != FORMAT:
        raise _bad(f"not a carpet log (format {header.format[:40]!r})")
    if header.version not in (1, 2):
        raise _bad(f"unsupported log version {header.version} (this carpet writes 1 and 2)")
    _check_header(header)
    try:
        variant = get_game(header.game)
    except CarpetError as exc:
        raise _bad(str(exc)) from None
    _header_deal(header.deal, header.numbering)
    fields = (summary.score, summary.moves, summary.redeals_left or 0, summary.clock_jumps, summary.clock_skipped_ms)
    if max(map(abs, fields)) >= _FIELD_LIMIT:
        raise _bad("a summary number beyond 2^63")
    try:
        events = _as_events(log.events)
    except (OverflowError, TypeError, ValueError) as exc:
        raise _bad(f"events that are not (action, clock) pairs of whole numbers ({_short(exc)})") from None
    actions, clocks = events.actions, events.clocks
    if actions and max(actions) >= variant.action_count:
        i = next(k for k, a in enumerate(actions) if a >= variant.action_count)
        raise LogError(f"event {i + 1}: no action {actions[i]} in {variant.id}", unreadable=False, event=i + 1)
    if clocks and not 0 <= min(clocks) <= max(clocks) <= CLOCK_LIMIT:
        i = next(k for k, c in enumerate(clocks) if not 0 <= c <= CLOCK_LIMIT)
        raise LogError(f"event {i + 1}: clock reading {clocks[i]} ms outside 0..2^40 ms", unreadable=False,
                       event=i + 1)


def to_bytes(log: Log, *, as_json: bool = False, form: str | None = None) -> bytes:
    """The bytes to write for ``log`` in ``form``, read back and checked first: the writer never
    writes what the reader refuses (digest, limits, summary, every event)."""
    form = form or ("json" if as_json else "binary")
    try:
        _writable(log)
        if form == "text":
            from .text import encode_text
            data = encode_text(log)
        else:
            data = encode(log, as_json=form == "json")
        back, _ = check(data)
    except LogError as exc:
        raise LogError(f"refusing to write a log that would not read back: {exc}", unreadable=True) from None
    if back.header != log.header or back.summary != log.summary or _as_events(back.events) != _as_events(log.events):
        raise LogError("refusing to write a log that would not read back the same", unreadable=True)
    return data
