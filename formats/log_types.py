"""The log as a document: its Structs (``Header``, ``Summary``, ``Log``, ``JsonLog``: the schema of
docs/schemas/carpet-log.schema.json), :class:`LogError`, and the header's fields as every form holds them:
the deal or position a header names, its creation time, its digests (docs/format.md, "Logical content").

The forms (formats/log_v2.py, formats/log_v1_json.py, formats/text.py) read and write these; nothing here
knows bytes of any form or re-plays a game.
"""

from __future__ import annotations

from time import gmtime
from typing import TYPE_CHECKING, Annotated

import msgspec

from carpet.core import CarpetError, Session, parse_deal
from carpet.core.numbering import Deal
from carpet.core.session import CLOCK_LIMIT, Events, deal_state

if TYPE_CHECKING:  # (a game started from a position: its module is loaded only for one)
    from carpet.core.position import Start

FORMAT = "carpet-log"
VERSION = 2  #: the version written by default; every version from 1 up to this is read
RULES_VERSION = 1
NUMBERING = "pysol"
STATUSES = ("playing", "won", "lost")
NUMBERINGS = ("pysol", "position")  #: binary code = index; "position": the deal is a position's text

_SIGNED = 2**63 - 1  #: the largest magnitude of a number in a header or summary (what every form holds)
Count = Annotated[int, msgspec.Meta(ge=0, le=_SIGNED)]
Signed = Annotated[int, msgspec.Meta(ge=-_SIGNED, le=_SIGNED)]
ClockMs = Annotated[int, msgspec.Meta(ge=0, le=CLOCK_LIMIT)]


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
    score: Annotated[Signed, _doc("the score, win bonus included")]
    moves: Annotated[Count, _doc("counted moves of the attempt")]
    redeals_left: Annotated[Signed | None, _doc("redeals left; null where they are unlimited")]
    elapsed_ms: Annotated[ClockMs, _doc("the clock of the attempt at its last event")]
    position: Annotated[str, _doc("digest of the final position: 16 hex digits in version 1, 8 in version 2",
                                  pattern=_HEX8_16)]
    digest: Annotated[str, _doc("digest of the log: 32 hex digits in version 1, 16 in version 2",
                                pattern="^([0-9a-f]{16}|[0-9a-f]{32})$")]
    clock_jumps: Annotated[Count, _doc("clock steps recorded as zero elapsed time (version 2)")] = 0
    clock_skipped_ms: Annotated[Signed, _doc("wall time left out of the clock in all (version 2)")] = 0


class Log(msgspec.Struct):
    """A log in memory: events as (action, clock ms) pairs (core.session.Events or a list)."""

    header: Header
    events: object
    summary: Summary
    #: False for a text-form game written by hand without a digest, sealed as it was read (formats/text.py)
    sealed: bool = True
    #: the text form's words that are not data, its tags unknown here and its comments, kept for a
    #: rewrite of the same text file (formats/text.py ``Notes``; None: none, or another form)
    notes: object = None


class JsonLog(msgspec.Struct):
    """The JSON form of a log (docs/format.md, "JSON form"; docs/schemas/carpet-log.schema.json)."""

    header: Header
    events: Annotated[list[tuple[str, ClockMs]], _doc("each event: [action in canonical notation, clock ms]")]
    summary: Summary


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


def _newer(version: int) -> LogError:
    return _bad(f"unsupported log version {version} (this carpet reads up to {VERSION}; a newer carpet wrote it)")


def _check_header(header: Header) -> None:
    if header.rules != RULES_VERSION:
        raise _bad(f"unsupported rules version {header.rules} (this carpet plays rules {RULES_VERSION})")
    if header.numbering not in NUMBERINGS:
        raise _bad(f"unknown numbering {header.numbering!r}")


def _short(exc: Exception) -> str:
    return str(exc).splitlines()[0][:120]


# --- the header's fields ------------------------------------------------------------------
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
        position = read_position(text, over_ok=True)
        position.state()
    except CarpetError as exc:
        raise _bad(f"bad position in header: {exc}") from None
    if position.text != text:
        raise _bad("the position in the header is not in the form carpet prints it")
    return Start(text)


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


# --- building ------------------------------------------------------------------------------
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


def _as_events(events) -> Events:
    return events if isinstance(events, Events) else Events(events)
