"""The binary form of version 2 (docs/format.md, "Binary form, version 2"): one MessagePack ext value
(type 67) whose payload packs the header, the events and the summary with varints, and ends with the
BLAKE2b digest (8 bytes) of what comes before it.  Each event is an action code (formats/codec.py) and a
clock delta, kept in planes (codes, low bytes of the deltas, their high parts) that a reader unpacks in
bulk; the values a plane cannot hold escape to varints after the planes.

This module owns those bytes alone: the varints, the planes and their escapes, the payload written
(:func:`encode_v2`) and the payload read (:func:`decode_v2_binary`, which parses the header once).
The codes themselves come from a replay (formats/log_verify.py).
"""

from __future__ import annotations

import re
from array import array
from bisect import bisect_left
from itertools import repeat
from operator import and_, lshift, or_, rshift

from carpet.core import GAMES, Variant
from carpet.core.game import RESTART
from carpet.core.numbering import MS_LIMIT, MS_PLAIN_LIMIT, MT_LIMIT, Deal, make_deal
from carpet.core.session import CLOCK_LIMIT, Events

from .log_types import (FORMAT, NUMBERINGS, RULES_VERSION, STATUSES, VERSION, Header, LogError, Summary, _bad,
                        _check_header, _created_ms, _header_deal, _hex_bytes, _newer, created_text)
from .playlog import PackedDeltas
from .playlog import _HIGH_NIBBLE, _LITTLE, _LOW_NIBBLE  # (one copy of the half-byte tables: PackedDeltas's too)

try:  # the C module hashlib itself wraps: no OpenSSL loaded for a digest
    from _blake2 import blake2b
except ImportError:  # pragma: no cover - every CPython has it
    from hashlib import blake2b

EXT_TYPE = 67  #: MessagePack ext type of a version-2 binary log ("C")

# --- version 2: the tables the binary form numbers things by ---------------------------
#: game id -> code in the binary form (0: the id follows as text); only ever appended to
GAME_CODES = {"kovrik": 1, "kovrik-hard": 2, "kovrik-shuffle": 3, "kovrik-shuffle-2": 4, "carpet": 5,
              "carpet-auto": 6, "carpet-foster": 7, "crazy-quilt": 8, "indian-carpet": 9, "persian-carpet": 10,
              "montana": 11, "spaces": 12, "station": 13, "free-parking": 14, "blue-moon": 15, "red-moon": 16,
              "galary": 17, "jungle": 18, "spaces-and-aces": 19}
_GAME_BY_CODE = {code: game for game, code in GAME_CODES.items()}
TOOL_PREFIX = "carpet "


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


# event planes: code width (bits 0-1: 0 -> 8 bits, 1 -> 4 bits) and the delta's high part
# (bits 2-3: 0 -> none, 1 -> 4 bits, 2 -> 8 bits); an all-ones field means "see overflow"
_CODE_WIDTHS = (8, 4)
_HIGH_WIDTHS = (0, 4, 8)

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


def _escape_costs(values, limits) -> tuple[int, dict[int, int]]:
    """The most of ``values``, and for each limit the bytes of overflow varints of the values at or
    above it (none, as a rule).  A varint has a byte, and one more for each 7 bits from the 8th on, so
    the bytes above a limit are the values counted once above it and once above each 2**7k: counted
    in one sorted copy, whatever the layouts compared."""
    peak = max(values, default=0)
    if peak < min(limits):
        return peak, dict.fromkeys(limits, 0)
    ordered = sorted(values)
    costs = {}
    for limit in limits:
        cost, threshold, bits = 0, limit, 7
        while threshold <= peak:
            cost += len(ordered) - bisect_left(ordered, threshold)
            threshold, bits = max(limit, 1 << bits), bits + 7
        costs[limit] = cost
    return peak, costs


def _pack_nibbles(values) -> bytes:
    """Two values a byte, the earlier in the low half (values below 16)."""
    values = bytes(values)
    if len(values) % 2:
        values += b"\0"
    return bytes(map(or_, values[0::2], map(lshift, values[1::2], repeat(4))))


def pack_planes(codes, deltas) -> bytes:
    """The events part of a version-2 payload (docs/format.md, "Events"), smallest layout first."""
    n = len(codes)
    code_peak, code_escapes = _escape_costs(codes, [(1 << bits) - 1 for bits in _CODE_WIDTHS])
    delta_peak, delta_escapes = _escape_costs(deltas, [(1 << (8 + bits)) - 1 for bits in _HIGH_WIDTHS])
    best = None
    for code_bits in _CODE_WIDTHS:
        for high_bits in _HIGH_WIDTHS:
            cost = ((n * code_bits + 7) // 8 + n + (n * high_bits + 7) // 8
                    + code_escapes[(1 << code_bits) - 1] + delta_escapes[(1 << (8 + high_bits)) - 1])
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
    if code_peak >= code_max or delta_peak >= delta_max:
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
            delta, pos = _varint_at(data, pos, end, "clock delta")
            if delta > CLOCK_LIMIT:
                raise _bad(f"corrupt log (event {i + 1}: a clock delta beyond 2^40 ms)")
            deltas[i] = delta
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


# --- the payload ---------------------------------------------------------------------------
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


def seal_v2(header: Header, codes, deltas, summary: Summary) -> str:
    """The version-2 digest of a log's parts, as its summary holds it."""
    return _digest_v2(_payload_v2(header, codes, deltas, summary)).hex()


def encode_v2(header: Header, codes, deltas, summary: Summary) -> bytes:
    """The bytes of a version-2 binary log: the summary's digest where it is one, else the payload's own."""
    payload = _payload_v2(header, codes, deltas, summary)
    return _ext(payload + bytes.fromhex(summary.digest) if _is_hex(summary.digest, 8) else payload + _digest_v2(payload))


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
        if shift == 63 and byte > 1:  # the tenth byte holds the 64th bit alone
            raise _bad(f"corrupt log ({what}: number beyond 64 bits)")
        value |= (byte & 0x7F) << shift
        if byte < 0x80:
            break
        shift += 7
    if byte == 0 and shift:
        raise _bad(f"corrupt log ({what}: number not in its shortest form)")
    return value, pos


_TOOLS: dict[bytes, str] = {}  # the three bytes of a tool "carpet M.m.p" -> its text (the same few in every log)
#: the largest magnitude of a summary number (what the schema and the text form hold)
_SIGNED = 2**63 - 1


def decode_v2_binary(data: bytes) -> tuple[Header, Summary, Variant, bytes | bytearray | array, array,
                                           bytes | bytearray, Deal | None]:
    """A version-2 binary log's header, summary, game, event planes (codes, deltas, meta as
    :func:`unpack_planes` gives them) and deal.

    The version is read first (a newer one is refused as such), then the digest checked on the
    bytes, before any other field is read: a damaged log is refused as damaged, whatever its
    fields came to hold.  Then one pass, front to back: each field of the header and the summary
    is taken in its one-byte form where it has one (as in the logs ``play`` writes: these rules,
    a known game, a tool "carpet M.m.p", small numbers) and as a varint otherwise, each number
    bounded by its field before it is used."""
    start, end = _unext(data)
    if end - start < 8:
        raise _bad("truncated log")
    stop = end - 8
    version = data[start] if data[start] < 0x80 else _varint_at(data, start, stop, "version")[0]
    if version != 2:
        if version > VERSION:
            raise _newer(version)
        raise _bad(f"bad log version {version}")
    digest = data[stop:end]
    if _digest_v2(data[start:stop]) != digest:
        raise LogError("digest mismatch: the log was edited or corrupted", unreadable=False)
    game, rules, numbering, deal_value, start_text, layout, created, tool, pos = _header_v2(data, start, stop)
    n, pos = _varint_at(data, pos, stop, "events")
    if n > end - start:
        raise _bad("corrupt log (more events than bytes)")
    r = _Reader(data, pos, stop)
    codes, deltas, meta = unpack_planes(r, n)
    summary = _summary_v2(data, r.pos, stop, digest.hex())
    deal = start_text if start_text is not None else f"ms{deal_value >> 1}" if deal_value & 1 else str(deal_value >> 1)
    header = Header(FORMAT, 2, game, rules, NUMBERINGS[numbering], deal, layout, created_text(created), tool)
    if rules != RULES_VERSION:  # _check_header
        _check_header(header)
    made = _header_deal(deal, NUMBERINGS[numbering]) if start_text is not None else _deal_of(deal_value)
    return header, summary, GAMES[game], codes, deltas, meta, made


def _header_v2(data: bytes, start: int, stop: int) -> tuple:
    """The header's fields after the version: (game, rules, numbering, deal value, position text or
    None, layout, creation ms, tool, the position after them)."""
    head = data[start:start + 3]  # version, game code and rules: as a rule one byte each (docs/format.md)
    if len(head) == 3 and head[0] < 0x80 and head[1] and head[2] < 0x80:
        _, code, rules_numbering = head
        pos = start + 3
    else:
        r = _Reader(data, _varint_at(data, start, stop, "version")[1], stop)
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
    numbering = rules_numbering & 3
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
        tool = _TOOLS.get(data[pos + 1:pos + 4])  # _get_tool's "carpet M.m.p", one byte a number
        if tool is None:
            tool = f"carpet {data[pos + 1]}.{data[pos + 2]}.{data[pos + 3]}"
            if len(_TOOLS) < 64:
                _TOOLS[data[pos + 1:pos + 4]] = tool
        pos += 4
    else:
        r = _Reader(data, pos, stop)
        tool = _get_tool(r)
        pos = r.pos
    return game, rules_numbering >> 2, numbering, deal_value, start_text, layout, created, tool, pos


def _summary_v2(data: bytes, pos: int, stop: int, digest: str) -> Summary:
    """The summary after the events, every number within its field's bounds; the position digest
    ends the payload."""
    if pos >= stop:
        raise _bad("truncated log (status)")
    status = data[pos]
    if status >= len(STATUSES):
        raise _bad(f"corrupt log (status {status})")
    small = data[pos + 1:pos + 4]  # score, moves and redeals left: one byte each as a rule
    if len(small) == 3 and small[0] | small[1] | small[2] < 0x80:
        score, moves, left = small
        pos += 4
    else:
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
    score, left = _unzigzag(score), None if left == 0 else _unzigzag(left - 1)
    if max(abs(score), moves, abs(left or 0), jumps, abs(skipped)) > _SIGNED or elapsed > CLOCK_LIMIT:
        raise _bad("corrupt log (a summary number beyond its field's range)")
    if pos + 4 > stop:
        raise _bad("truncated log (position)")
    if pos + 4 != stop:
        raise _bad("corrupt log (bytes after the summary)")
    return Summary(STATUSES[status], score, moves, left, elapsed, data[pos:stop].hex(), digest, jumps, skipped)


def _deal_of(value: int) -> Deal | None:
    """The deal a binary header's deal field names (number << 1 | microsoft) where its text
    (``ms`` N, or N) is a canonical deal number, as parse_deal makes it; else None, and _fresh
    says what is wrong with the text (tests/test_log.py pins it to parse_deal)."""
    number = value >> 1
    if value & 1:
        return make_deal(number, True) if 0 < number < MS_LIMIT else None
    return make_deal(number, False) if MS_PLAIN_LIMIT <= number < MT_LIMIT else None


def clock_deltas(events: Events) -> array:
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


def _is_hex(text: str, size: int) -> bool:
    try:
        return len(bytes.fromhex(text)) == size
    except ValueError:
        return False
