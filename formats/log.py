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
replay of formats/playlog.py once.

This module is where every reader and writer comes in: it tells the forms apart and sends each to
its module, and it refuses to write what would not read back (:func:`to_bytes`).  The document
types and the header's fields are formats/log_types.py's; version 2's binary form is
formats/log_v2.py's; version 1's binary form and the JSON form are formats/log_v1_json.py's; the
text form is formats/text.py's; what re-plays the events (verify, replay, record, reseal) is
formats/log_verify.py's.  The dependencies go one way: this module, then text.py, then
log_verify.py, then the forms, then log_types.py.
"""

from __future__ import annotations

import re

import msgspec

from carpet.core import CarpetError, Session, get_game
from carpet.core.session import CLOCK_LIMIT

from .log_types import FORMAT, Header, Log, LogError, Summary, _as_events, _bad, _check_header, _header_deal, _short
from .log_v2 import _EXT_SIZES, _V2_HEADS, EXT_TYPE, encode_v2
from .log_verify import codes_and_deltas, read_v2_binary, verify

# --- bytes ---------------------------------------------------------------------------
_SPACE = rb"\s*"


def _first(data: bytes, n: int) -> bytes:
    """The first n bytes after leading whitespace (without copying a large file)."""
    start = re.match(_SPACE, data).end()
    return data[start:start + n]


def is_json(data: bytes) -> bool:
    return _first(data, 1) == b"{"


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


def encode(log: Log, *, as_json: bool = False) -> bytes:
    """The bytes of a log in the version its header names (no checks: see :func:`to_bytes`)."""
    variant = get_game(log.header.game)
    if as_json or log.header.version == 1:
        from .log_v1_json import encode_json, encode_v1  # (loaded for these forms only, as text.py is)

        return encode_json(log, variant) if as_json else encode_v1(log, variant)
    codes, deltas = codes_and_deltas(log, variant)
    return encode_v2(log.header, codes, deltas, log.summary)


def decode(data: bytes) -> Log:
    """Bytes (either form, either version) -> Log.  Raises LogError for anything unusable.

    A version-2 binary log names its actions by their position, so decoding it re-plays
    it (formats/playlog.py) and refuses an action that cannot be played there; the
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
        return read_v2_binary(data, False)[0]
    from .log_v1_json import decode_tree

    return decode_tree(data, as_json)


def check(data: bytes, *, keep_history: bool = False) -> tuple[Log, Session]:
    """Decode and verify any form: what every reader of a file runs (one replay)."""
    if data[:1] in _V2_HEADS:
        if not keep_history:  # the usual reading: one pass, the summary compared there
            return read_v2_binary(data, True)
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


def to_bytes(log: Log, *, as_json: bool = False, form: str | None = None, read_back: bool = True) -> bytes:
    """The bytes to write for ``log`` in ``form``, read back and checked first: the writer never
    writes what the reader refuses (digest, limits, summary, every event).

    ``read_back=False`` leaves out the read-back (a replay of every event): for a writer that
    rewrites a log it holds locked, whose session (played by the engine, one action at a time)
    is the game, and whose first write was read back (cli/live.py).  The limits are still checked.
    """
    form = form or ("json" if as_json else "binary")
    try:
        _writable(log)
        if form == "text":
            from .text import encode_text
            data = encode_text(log)
        else:
            data = encode(log, as_json=form == "json")
        if not read_back:
            return data
        back, _ = check(data)
    except LogError as exc:
        raise LogError(f"refusing to write a log that would not read back: {exc}", unreadable=True) from None
    if back.header != log.header or back.summary != log.summary or _as_events(back.events) != _as_events(log.events):
        raise LogError("refusing to write a log that would not read back the same", unreadable=True)
    return data
