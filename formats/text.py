"""The text form of a log, like chess's PGN (docs/format.md, "Text form").

Tag pairs first, one a line: ``[Game "kovrik"]``.  They hold every field of the header
and the summary, so that the text converts back to the identical binary file.  Then
the numbered actions in canonical notation, each followed by its clock reading in
seconds as a comment: ``1. AD>a0 {1.302} 2. 7H>b5 {2.610}``.  A restart starts the
clock of the next attempt again.  Lines are written at most 80 characters; a reader
takes any whitespace between tokens.

It is open to people, as PGN is: tags it does not know are not read as data, and neither
are comments (``{any text}`` that is not a clock reading, ``; to the end of the line``, and
lines starting with ``%``); numbers before the actions and clock readings may be left out (an
action without one is read at the clock of the one before it in its attempt, 0 at the
start).  Those words are the person's and are kept (:class:`Notes`, ``Log.notes``): a game
played on and written back in the text form holds each where it stood, an unknown tag after
the known tag it followed, a comment after the action it followed.

A game with no ``Digest`` tag is *unsealed*: written by hand, it needs only ``Game`` and
``Deal``; every move is checked, every summary tag it gives is compared with
the replay, and the log read is sealed afresh (``carpet import`` writes it).  A sealed
game must hold every tag, and its digest covers all of them; version 1's digest does not
cover the clock tags, so a version-1 text holds them at 0.

Reading refuses a wrong tag or an action that is not one, and an action that is not
legal where it stands, with the line and column where it is.  Every value is checked
where it is read: its form, its bounds, its meaning.
"""

from __future__ import annotations

import codecs
import re
from array import array
from typing import NamedTuple

from carpet.core import TOOL, CarpetError, GAMES, get_game, parse_deal
from carpet.core.game import RESTART
from carpet.core.session import CLOCK_LIMIT, Events, deal_state

from .log_types import (FORMAT, NUMBERING, NUMBERINGS, RULES_VERSION, STATUSES, VERSION, Header, Log, LogError, Summary,
                        _created_ms, _header_deal, _hex_bytes, digest_text)
from .log_verify import record, replay, verify

#: tag name -> (part, field, kind); in this order; all required in a sealed game (one with a Digest)
TAGS = (
    ("Format", "header", "format", str), ("Version", "header", "version", int), ("Game", "header", "game", str),
    ("Rules", "header", "rules", int), ("Numbering", "header", "numbering", str),
    ("Deal", "header", "deal", str), ("Layout", "header", "layout", str), ("Created", "header", "created", str),
    ("Tool", "header", "tool", str),
    ("Result", "summary", "status", str), ("Score", "summary", "score", int), ("Moves", "summary", "moves", int),
    ("RedealsLeft", "summary", "redeals_left", "redeals"), ("Elapsed", "summary", "elapsed_ms", "seconds"),
    ("ClockJumps", "summary", "clock_jumps", int), ("ClockSkipped", "summary", "clock_skipped_ms", "seconds"),
    ("Position", "summary", "position", str), ("Digest", "summary", "digest", str),
)
_KNOWN = {t[0]: t for t in TAGS}
#: what a game written by hand (no Digest) must name
HAND_REQUIRED = ("Game", "Deal")
#: the creation time of a game written by hand without a Created tag: unknown, said as the epoch
UNKNOWN_CREATED = "1970-01-01T00:00:00.000Z"
#: the largest magnitude of a number in a tag (what the binary form holds), and of a clock in ms
_LIMIT = 2**63

_TAG_LINE = re.compile(r'\[([A-Za-z][A-Za-z0-9_]*)\s+"((?:[^"\\]|\\.)*)"\s*\]\s*$')
_INTEGER = re.compile(r"-?(0|[1-9][0-9]{0,18})")  # at most 19 digits: nothing huge is ever made an int
_SECONDS = re.compile(r"(-?)(0|[1-9][0-9]{0,15})\.([0-9]{3})")
#: the action part, as bytes: a % line, a comment in braces (maybe over lines), a ; comment, a line break, a token
_TOKENS = re.compile(rb"(?m)^%[^\n]*|\{[^}]*\}?|;[^\n]*|\n|[^\s{;]+")
#: a comment that reads as a clock reading: then it must be one
_CLOCKLIKE = re.compile(rb"\{\s*([-+]?[0-9]+(?:\.[0-9]*)?)\s*\}")
_NUMBER = re.compile(rb"[1-9][0-9]*\.")
_BOM = b"\xef\xbb\xbf"
_ESCAPE = {"\\": "\\\\", '"': '\\"', "\n": "\\n", "\r": "\\r", "\t": "\\t"}
_ESCAPE.update({chr(c): f"\\x{c:02x}" for c in (*range(0x20), 0x7F) if chr(c) not in _ESCAPE})
_UNESCAPE = {"n": "\n", "r": "\r", "t": "\t"}


def _seconds(ms: int) -> str:
    sign = "-" if ms < 0 else ""
    return f"{sign}{abs(ms) // 1000}.{abs(ms) % 1000:03d}"


def _value(value, kind) -> str:
    if kind == "redeals":
        return "-" if value is None else str(value)
    if kind == "seconds":
        return _seconds(value)
    return str(value)


def _escaped(text: str) -> str:
    """A tag's value as written: ``\\``, ``"`` and control characters escaped (a tool text may hold a newline)."""
    return "".join(_ESCAPE.get(c, c) for c in text)


def _unescaped(text: str) -> str:
    def one(m: re.Match) -> str:
        c = m.group(1)
        return chr(int(c[1:], 16)) if len(c) == 3 else _UNESCAPE.get(c, c)
    return re.sub(r"\\(x[0-9a-fA-F]{2}|.)", one, text)


class Notes(NamedTuple):
    """The words of a text-form game that are not data, kept for its rewrite in the text form."""

    #: the header's lines that are not known tags (unknown tags, ``;`` and ``%`` lines) as written,
    #: each with the known tag it follows (None: before them all), in their order
    header: tuple[tuple[str | None, str], ...]
    #: the action part's comments as written (``{...}``, ``; ...``, ``%...``), each with the number
    #: of actions before it, in their order
    comments: tuple[tuple[int, str], ...]


def encode_text(log: Log) -> bytes:
    """The text form of ``log``: tag pairs, a blank line, numbered actions with their clocks; the
    log's :class:`Notes` (if it has them) in their places."""
    variant = get_game(log.header.game)
    notes = log.notes if isinstance(log.notes, Notes) else Notes((), ())
    after: dict[str | None, list[str]] = {}
    for anchor, text in notes.header:
        after.setdefault(anchor, []).append(text)
    if after.get(None, ["["])[0][:1] != "[":  # a text starts with a tag pair, or is not read as one
        after["Format"] = after.pop(None) + after.get("Format", [])
    lines = list(after.get(None, ()))
    for tag, part, field, kind in TAGS:
        value = getattr(log.header if part == "header" else log.summary, field)
        lines.append(f'[{tag} "{_escaped(_value(value, kind))}"]')
        lines.extend(after.get(tag, ()))
    lines.append("")
    events = log.events if isinstance(log.events, Events) else Events(log.events)
    comments, k = notes.comments, 0
    out = _Lines(lines)
    for i, (action, clock) in enumerate(events, 1):
        while k < len(comments) and comments[k][0] < i:
            out.add(comments[k][1])
            k += 1
        out.add(f"{i}. {variant.text(action)} {{{_seconds(clock)}}}")
    for _, comment in comments[k:]:
        out.add(comment)
    out.end()
    return ("\n".join(lines) + "\n").encode()


class _Lines:
    """The action part's lines, at most 80 characters where the tokens allow: a ``;`` comment ends its
    line, and a ``%`` line stands alone."""

    def __init__(self, lines: list[str]) -> None:
        self.lines, self.line = lines, ""

    def add(self, token: str) -> None:
        if token[:1] == "%":
            self.end()
            self.lines.append(token)
            return
        line = self.line
        if line and len(line) + 1 + len(token) > 80:
            self.lines.append(line)
            line = ""
        self.line = f"{line} {token}" if line else token
        if token[:1] == ";":
            self.end()

    def end(self) -> None:
        if self.line:
            self.lines.append(self.line)
            self.line = ""


class _Where:
    """Line and column (1-based) of each event's action, to name them in an error."""

    def __init__(self) -> None:
        self.lines, self.columns = array("I"), array("I")

    def add(self, line: int, column: int) -> None:
        self.lines.append(line)
        self.columns.append(column)


def _fail(line: int, column: int, message: str, *, unreadable: bool = True, event: int | None = None) -> LogError:
    return LogError(f"line {line}, column {column}: {message}", unreadable=unreadable, event=event)


def _check_utf8(data: bytes) -> None:
    """Refuse bytes that are not UTF-8, naming the place, without holding the whole text as a str."""
    decoder = codecs.getincrementaldecoder("utf-8")()
    step = 16384
    for start in range(0, len(data) + 1, step):
        try:
            decoder.decode(data[start:start + step], final=start + step >= len(data))
        except UnicodeDecodeError as exc:
            at = max(0, start + exc.start - len(decoder.getstate()[0]))
            line = data.count(b"\n", 0, at) + 1
            column = at - (data.rfind(b"\n", 0, at) + 1) + 1
            raise _fail(line, column, f"not UTF-8 text (byte {at})") from None


class _Tags:
    """The tag part: each known tag's text and where it stands."""

    def __init__(self) -> None:
        self.values: dict[str, tuple[str, int, int]] = {}  # tag -> (value, line, column of the value)
        self.notes: list[tuple[str | None, str]] = []  # (the known tag before, the line) of the others
        self.trailing = 0  # how many of the notes come after the last tag line

    def at(self, tag: str) -> tuple[int, int]:
        return self.values[tag][1:]

    def fail(self, tag: str, message: str, **kw) -> LogError:
        return _fail(*self.at(tag), message, **kw)


def _read_tags(data: bytes, pos: int) -> tuple[_Tags, int, int]:
    """The tag lines from ``pos``: returns them, and the offset and number of the first line after them.
    The lines that are not known tags are kept in ``tags.notes`` with the known tag before them, and
    ``tags.trailing`` is how many of them come after the last tag line (comments before the actions)."""
    tags = _Tags()
    anchor = None
    line_no = 1
    end = len(data)
    while pos < end:
        stop = data.find(b"\n", pos)
        stop = end if stop < 0 else stop
        raw = data[pos:stop]
        stripped = raw.strip()
        if stripped and not stripped.startswith((b"[", b";", b"%")):
            break
        if stripped.startswith(b"["):
            text = raw.decode("utf-8")
            column = len(text) - len(text.lstrip()) + 1
            m = _TAG_LINE.match(text.strip())
            if m is None:
                raise _fail(line_no, column, f"not a tag pair: {text.strip()[:40]!r} (tags look like "
                                             f"[Game \"kovrik\"])")
            name = m.group(1)
            tags.trailing = 0
            if name in _KNOWN:  # a tag this reader does not know is kept as a note, not read, as in PGN
                if name in tags.values:
                    raise _fail(line_no, column, f"tag {name} given twice")
                tags.values[name] = (_unescaped(m.group(2)), line_no, text.index('"') + 2)
                anchor = name
            else:
                tags.notes.append((anchor, text.strip()))
        elif stripped:  # a ; or % line
            tags.notes.append((anchor, raw.decode("utf-8").strip()))
            tags.trailing += 1
        pos = stop + 1
        line_no += 1
    return tags, pos, line_no


def _integer(tags: _Tags, tag: str, low: int, high: int) -> int:
    value = tags.values[tag][0]
    if not _INTEGER.fullmatch(value):
        raise tags.fail(tag, f"{tag}: not a valid value: {value[:40]!r} (a whole number)")
    number = int(value)
    if not low <= number <= high:
        raise tags.fail(tag, f"{tag}: {value} is out of range ({low} to {high})")
    return number


def _seconds_tag(tags: _Tags, tag: str, low: int, high: int) -> int:
    value = tags.values[tag][0]
    m = _SECONDS.fullmatch(value)
    if m is None:
        raise tags.fail(tag, f"{tag}: not a valid value: {value[:40]!r} (seconds with 3 decimals)")
    ms = int(m.group(2)) * 1000 + int(m.group(3))
    ms = -ms if m.group(1) else ms
    if not low <= ms <= high:
        raise tags.fail(tag, f"{tag}: {value} is out of range ({_seconds(low)} to {_seconds(high)} seconds)")
    return ms


def _fields(tags: _Tags, sealed: bool) -> tuple[dict, dict]:
    """The header and summary fields the tags give, each checked where it stands."""
    header: dict = {}
    summary: dict = {}
    has = tags.values.__contains__

    def text(tag: str) -> str:
        return tags.values[tag][0]
    if has("Format") and text("Format") != FORMAT:
        raise tags.fail("Format", f"not a carpet log (format {text('Format')[:40]!r})")
    header["format"] = FORMAT
    version = VERSION
    if has("Version"):
        value = text("Version")
        if _INTEGER.fullmatch(value) and int(value) > VERSION:
            raise tags.fail("Version", f"unsupported log version {value} (this carpet reads up to {VERSION}; a "
                                       f"newer carpet wrote it)")
        if not _INTEGER.fullmatch(value) or int(value) < 1:
            raise tags.fail("Version", f"bad log version {value[:40]!r}")
        version = int(value)
    if not sealed:
        version = VERSION  # a game sealed now is sealed in the current version
    header["version"] = version
    game = text("Game")
    if game not in GAMES:
        raise tags.fail("Game", f"unknown game {game[:40]!r}")
    header["game"] = game
    header["rules"] = _integer(tags, "Rules", RULES_VERSION, RULES_VERSION) if has("Rules") else RULES_VERSION
    numbering = text("Numbering") if has("Numbering") else NUMBERING
    if numbering not in NUMBERINGS:
        raise tags.fail("Numbering", f"unknown numbering {numbering[:40]!r} (one of {', '.join(NUMBERINGS)})")
    header["numbering"] = numbering
    header["deal"] = _deal_tag(tags, text("Deal"), numbering, sealed)
    size = 4 if version == 2 else 8
    for tag, part, field, name in (("Layout", header, "layout", "layout digest"),
                                   ("Position", summary, "position", "position digest"),
                                   ("Digest", summary, "digest", "digest")):
        if has(tag):
            try:
                _hex_bytes(text(tag), size * (2 if tag == "Digest" else 1), name)
            except LogError as exc:
                raise tags.fail(tag, str(exc)) from None
            part[field] = text(tag)
    if has("Created"):
        if version == 2:
            try:
                _created_ms(text("Created"))
            except LogError as exc:
                raise tags.fail("Created", str(exc)) from None
        header["created"] = text("Created")
    elif not sealed:
        header["created"] = UNKNOWN_CREATED
    if has("Tool"):
        header["tool"] = text("Tool")
    elif not sealed:
        header["tool"] = TOOL
    if has("Result"):
        if text("Result") not in STATUSES:
            raise tags.fail("Result", f"unknown status {text('Result')[:40]!r} (one of {', '.join(STATUSES)})")
        summary["status"] = text("Result")
    if has("Score"):
        summary["score"] = _integer(tags, "Score", 1 - _LIMIT, _LIMIT - 1)
    if has("Moves"):
        summary["moves"] = _integer(tags, "Moves", 0, _LIMIT - 1)
    if has("RedealsLeft"):
        summary["redeals_left"] = None if text("RedealsLeft") == "-" else _integer(tags, "RedealsLeft", 1 - _LIMIT,
                                                                                   _LIMIT - 1)
    if has("Elapsed"):
        summary["elapsed_ms"] = _seconds_tag(tags, "Elapsed", 0, CLOCK_LIMIT)
    if has("ClockJumps"):
        summary["clock_jumps"] = _integer(tags, "ClockJumps", 0, _LIMIT - 1)
    if has("ClockSkipped"):
        summary["clock_skipped_ms"] = _seconds_tag(tags, "ClockSkipped", 1 - _LIMIT, _LIMIT - 1)
    if sealed and version == 1:  # version 1's digest covers neither: a value there would be unchecked
        for tag, field in (("ClockJumps", "clock_jumps"), ("ClockSkipped", "clock_skipped_ms")):
            if summary.get(field):
                raise tags.fail(tag, f"{tag}: version 1 holds no clock jumps (its digest would not cover them): 0 only")
    return header, summary



def _deal_tag(tags, value: str, numbering: str, sealed: bool) -> str:
    """The Deal tag's text as the header holds it: a deal number (numbering "pysol") or a position
    (numbering "position", docs/format.md "Positions as text"), in the canonical form a sealed game
    must already have and a game written by hand is given."""
    if numbering == NUMBERING:
        try:
            canonical = parse_deal(value).text
        except CarpetError as exc:
            raise tags.fail("Deal", f"bad deal: {exc}") from None
        what = "deal"
    else:
        from carpet.core.position import read as read_position

        try:
            position = read_position(value, over_ok=True)
            position.state()
        except CarpetError as exc:
            raise tags.fail("Deal", f"bad position: {exc}") from None
        canonical, what = position.text, "position"
    if sealed and canonical != value:
        raise tags.fail("Deal", f"{what} {value[:40]!r} is not in its canonical form ({canonical[:80]})")
    return canonical


def _actions(data: bytes, pos: int, line_no: int, variant, comments: list) -> tuple[Events, _Where]:
    """The action part, token by token through the bytes (no list of lines, no str of the whole text);
    its comments are added to ``comments``, each after the number of actions before it."""
    where = _Where()
    actions, clocks = array("I"), array("q")
    parse = variant.parse_canonical
    line_start = pos
    previous = 0  # the clock reading before, in this attempt
    clocked = True  # whether the last action has its reading yet
    for m in _TOKENS.finditer(data, pos):
        token = m.group(0)
        start = m.start()
        column = start - line_start + 1
        first = token[:1]
        if token == b"\n":
            line_no += 1
            line_start = m.end()
            continue
        if first == b";" or (first == b"%" and column == 1):
            comments.append((len(actions), token.rstrip().decode("utf-8")))
            continue
        if first == b"{":
            if not token.endswith(b"}"):
                raise _fail(line_no, column, "a comment opened with { is never closed with }")
            breaks = token.count(b"\n")
            clock = _CLOCKLIKE.fullmatch(token)
            if breaks:
                line_no += breaks
                line_start = start + token.rfind(b"\n") + 1
            if clock is None:
                comments.append((len(actions), token.decode("utf-8")))
                continue
            reading = clock.group(1).decode()
            if clocked:
                raise _fail(line_no, column, f"a clock reading {{{reading[:30]}}} with no action before it "
                                             f"(one reading after each action)")
            m2 = _SECONDS.fullmatch(reading)
            if re.fullmatch(r"[0-9]{17,}\.[0-9]{3}", reading):
                raise _fail(line_no, column, f"clock reading {reading[:30]} s is beyond 2^40 ms")
            if m2 is None or m2.group(1):
                raise _fail(line_no, column, f"a clock reading is seconds with 3 decimals, never negative, "
                                             f"not {{{reading[:30]}}}")
            ms = int(m2.group(2)) * 1000 + int(m2.group(3))
            if ms > CLOCK_LIMIT:
                raise _fail(line_no, column, f"clock reading {reading[:30]} s is beyond 2^40 ms")
            clocks[-1] = ms
            previous = 0 if actions[-1] == RESTART else ms
            clocked = True
            continue
        if _NUMBER.fullmatch(token):
            if token[:-1] != str(len(actions) + 1).encode():
                raise _fail(line_no, column, f"action number {token[:30].decode()} where {len(actions) + 1}. "
                                             f"was expected")
            continue
        text = token.decode("utf-8")
        try:
            action = parse(text)
        except CarpetError as exc:
            raise _fail(line_no, column, f"not a {variant.id} action: {text[:30]!r} ({exc})") from None
        where.add(line_no, column)
        actions.append(action)  # at the reading before it in its attempt, unless a clock comment follows
        clocks.append(previous)
        clocked = False
        if action == RESTART:
            previous = 0
    return Events(actions=actions, clocks=clocks), where


def _start(data: bytes) -> int:
    return len(_BOM) if data.startswith(_BOM) else 0


def decode_text(data: bytes) -> tuple[Log, _Where]:
    """Text -> Log, and where each action stands.  LogError with line and column for anything wrong.

    A game without a Digest tag (written by hand) is re-played here, its summary tags compared,
    and comes back sealed: ``log.sealed`` is False.
    """
    _check_utf8(data)
    tags, pos, line_no = _read_tags(data, _start(data))
    sealed = "Digest" in tags.values
    wanted = [t[0] for t in TAGS] if sealed else HAND_REQUIRED
    for tag in wanted:
        if tag not in tags.values:
            need = "" if sealed else " (a game written by hand names at least its Game and Deal)"
            raise _fail(line_no, 1, f"missing tag {tag}{need}")
    header, summary = _fields(tags, sealed)
    variant = get_game(header["game"])
    cut = len(tags.notes) - tags.trailing
    comments = [(0, text) for _, text in tags.notes[cut:]]  # comment lines after the tags: before the actions
    events, where = _actions(data, pos, line_no, variant, comments)
    notes = Notes(tuple(tags.notes[:cut]), tuple(comments)) if tags.notes or comments else None
    if sealed:
        return Log(header=Header(**header), events=events, summary=Summary(**summary), notes=notes), where
    log = _seal(tags, header, summary, events, where)
    log.notes = notes
    return log, where


def _at_event(exc: LogError, where: _Where) -> LogError:
    """A replay's error at its event's line and column."""
    i = exc.event
    if i is not None and 0 < i <= len(where.lines):
        return _fail(where.lines[i - 1], where.columns[i - 1], str(exc), unreadable=exc.unreadable, event=i)
    return LogError(f"{exc} (see the tags)", unreadable=exc.unreadable)


def _seal(tags: _Tags, header: dict, summary: dict, events: Events, where: _Where) -> Log:
    """A game written by hand: every move checked, every summary tag given compared, sealed afresh."""
    from carpet.core import Session

    variant = get_game(header["game"])
    fresh = deal_state(variant, _header_deal(header["deal"], header["numbering"]))  # a number or a position
    layout = digest_text(fresh, VERSION)
    if header.setdefault("layout", layout) != layout:
        where = f"deal {header['deal']}" if header["numbering"] == NUMBERING else "its starting position"
        raise tags.fail("Layout", f"initial layout digest {header['layout']} does not match {where} "
                                  f"of {variant.id} ({layout})", unreadable=False)
    head = Header(**header)
    try:
        session = replay(Log(header=head, events=events, summary=Summary("playing", 0, 0, None, 0, "", "")))
    except LogError as exc:
        raise _at_event(exc, where) from None
    assert isinstance(session, Session)
    log = record(session, head, clock_jumps=summary.get("clock_jumps", 0),
                 clock_skipped_ms=summary.get("clock_skipped_ms", 0))
    found = log.summary
    for tag, field in (("Result", "status"), ("Score", "score"), ("Moves", "moves"), ("RedealsLeft", "redeals_left"),
                       ("Elapsed", "elapsed_ms"), ("Position", "position")):
        if field in summary and summary[field] != getattr(found, field):
            raise tags.fail(tag, f"{tag} says {tags.values[tag][0][:40]!r} but the replay gives "
                                 f"{_value(getattr(found, field), 'seconds' if tag == 'Elapsed' else str)!r}",
                            unreadable=False)
    log.sealed = False
    return log


def check_text(data: bytes, *, keep_history: bool = False):
    """Decode and verify a text-form log; a failure names the line and column of its event."""
    log, where = decode_text(data)
    try:
        return log, verify(log, keep_history=keep_history)
    except LogError as exc:
        raise _at_event(exc, where) from None
