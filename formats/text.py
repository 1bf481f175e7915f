"""The text form of a log, like chess's PGN (docs/format.md, "Text form").

Tag pairs first, one a line: ``[Game "kovrik"]``.  They hold every field of the header
and the summary, so that the text converts back to the identical binary file.  Then,
after a blank line, the numbered actions in canonical notation, each followed by its
clock reading in seconds as a comment: ``1. AD>a0 {1.302} 2. 7H>b5 {2.610}``.  A restart
starts the clock of the next attempt again.  Lines are at most 80 characters; a reader
takes any whitespace between tokens.

Reading refuses a wrong tag or an action that is not one, and an action that is not
legal where it stands, with the line and column where it is.
"""

from __future__ import annotations

import re
from array import array

from carpet.core import CarpetError, GAMES, get_game
from carpet.core.session import Events

from .log import FORMAT, TEXT_TAG as TAG, Header, Log, LogError, Summary, is_text, verify  # noqa: F401

#: tag name -> (part, field, kind); in this order, all required
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
_TAG_LINE = re.compile(r'\[([A-Za-z]+) "((?:[^"\\]|\\.)*)"\]\s*$')
_SECONDS = re.compile(r"-?(0|[1-9][0-9]*)\.[0-9]{3}")
_TOKEN_OR_NEWLINE = re.compile(r"[^\s]+|\n")
_NUMBER = re.compile(r"[1-9][0-9]*\.")


def _seconds(ms: int) -> str:
    sign = "-" if ms < 0 else ""
    return f"{sign}{abs(ms) // 1000}.{abs(ms) % 1000:03d}"


def _value(value, kind) -> str:
    if kind == "redeals":
        return "-" if value is None else str(value)
    if kind == "seconds":
        return _seconds(value)
    return str(value)


def encode_text(log: Log) -> bytes:
    """The text form of ``log``: tag pairs, a blank line, numbered actions with their clocks."""
    variant = get_game(log.header.game)
    lines = []
    for tag, part, field, kind in TAGS:
        value = getattr(log.header if part == "header" else log.summary, field)
        text = _value(value, kind).replace("\\", "\\\\").replace('"', '\\"')
        lines.append(f'[{tag} "{text}"]')
    lines.append("")
    line = ""
    events = log.events if isinstance(log.events, Events) else Events(log.events)
    for i, (action, clock) in enumerate(events, 1):
        token = f"{i}. {variant.text(action)} {{{_seconds(clock)}}}"
        if line and len(line) + 1 + len(token) > 80:
            lines.append(line)
            line = token
        else:
            line = f"{line} {token}" if line else token
    if line:
        lines.append(line)
    return ("\n".join(lines) + "\n").encode()


class _Where:
    """Line and column (1-based) of each event's action, to name them in an error."""

    def __init__(self) -> None:
        self.lines, self.columns = array("I"), array("I")

    def add(self, line: int, column: int) -> None:
        self.lines.append(line)
        self.columns.append(column)


def _fail(line: int, column: int, message: str, *, unreadable: bool = True, event: int | None = None) -> LogError:
    return LogError(f"line {line}, column {column}: {message}", unreadable=unreadable, event=event)


def decode_text(data: bytes) -> tuple[Log, _Where]:
    """Text -> Log, and where each action stands.  LogError with line and column for anything wrong."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise LogError(f"not UTF-8 text (byte {exc.start})", unreadable=True) from None
    lines = text.split("\n", len(TAGS) + 40)  # the tag part; the actions are read from the text itself
    values: dict[str, tuple[str, int]] = {}
    n = 0
    for n, raw in enumerate(lines, 1):
        stripped = raw.strip()
        if not stripped:
            if values:
                break
            continue
        if not stripped.startswith("["):
            break
        m = _TAG_LINE.match(stripped)
        column = len(raw) - len(raw.lstrip()) + 1
        if m is None:
            raise _fail(n, column, f"not a tag pair: {stripped[:40]!r} (tags look like [Game \"kovrik\"])")
        name, value = m.group(1), re.sub(r"\\(.)", r"\1", m.group(2))
        if name not in {t[0] for t in TAGS}:
            raise _fail(n, column, f"unknown tag {name!r}")
        if name in values:
            raise _fail(n, column, f"tag {name} given twice")
        values[name] = (value, n)
    header, summary = {}, {}
    for tag, part, field, kind in TAGS:
        if tag not in values:
            raise _fail(n, 1, f"missing tag {tag}")
        value, line = values[tag]
        column = lines[line - 1].index('"') + 2
        try:
            parsed = _parse_value(value, kind)
        except ValueError:
            raise _fail(line, column, f"{tag}: not a valid value: {value[:40]!r}") from None
        (header if part == "header" else summary)[field] = parsed
    _check_tags(header, summary, values, lines)
    variant = get_game(header["game"])
    where = _Where()
    actions, clocks = array("I"), array("q")
    parse = variant.parse_canonical
    expected = 1
    pending = None  # an action still waiting for its clock comment
    # the actions, token by token through the text (no list of lines: a long game stays small)
    offset = sum(len(line) + 1 for line in lines[:n - 1])
    line_no, line_start = n, offset
    for m in _TOKEN_OR_NEWLINE.finditer(text, offset):
        token = m.group(0)
        if token == "\n":
            line_no += 1
            line_start = m.end()
            continue
        column = m.start() - line_start + 1
        if pending is None and _NUMBER.fullmatch(token):
            if int(token[:-1]) != expected:
                raise _fail(line_no, column, f"action number {token} where {expected}. was expected")
            continue
        if token.startswith("{"):
            if pending is None or not token.endswith("}") or not _SECONDS.fullmatch(token[1:-1]):
                raise _fail(line_no, column, f"a clock comment is {{seconds with 3 decimals}} after an action, "
                                             f"not {token[:30]!r}")
            whole, _, ms = token[1:-1].partition(".")
            clocks.append(int(whole) * 1000 + int(ms))
            actions.append(pending)
            pending = None
            expected += 1
            continue
        if pending is not None:
            raise _fail(line_no, column, f"action {expected} has no clock comment before {token[:30]!r}")
        try:
            pending = parse(token)
        except CarpetError as exc:
            raise _fail(line_no, column, f"not a {variant.id} action: {token[:30]!r} ({exc})") from None
        where.add(line_no, column)
    if pending is not None:
        raise _fail(line_no, 1, f"action {expected} has no clock comment")
    try:
        log = Log(header=Header(**header), events=Events(actions=actions, clocks=clocks), summary=Summary(**summary))
    except TypeError as exc:
        raise LogError(f"bad tags: {exc}", unreadable=True) from None
    return log, where


def _parse_value(value: str, kind):
    if kind is int:
        if not re.fullmatch(r"-?(0|[1-9][0-9]*)", value):
            raise ValueError(value)
        return int(value)
    if kind == "redeals":
        return None if value == "-" else _parse_value(value, int)
    if kind == "seconds":
        if not _SECONDS.fullmatch(value):
            raise ValueError(value)
        whole, _, ms = value.lstrip("-").partition(".")
        total = int(whole) * 1000 + int(ms)
        return -total if value.startswith("-") else total
    return value


def _check_tags(header: dict, summary: dict, values: dict, lines: list[str]) -> None:
    def at(tag: str) -> tuple[int, int]:
        line = values[tag][1]
        return line, lines[line - 1].index('"') + 2
    if header["format"] != FORMAT:
        raise _fail(*at("Format"), f"not a carpet log (format {header['format'][:40]!r})")
    from .log import VERSION
    if header["version"] > VERSION:
        raise _fail(*at("Version"), f"unsupported log version {header['version']} (this carpet reads up to "
                                    f"{VERSION}; a newer carpet wrote it)")
    if header["version"] < 1:
        raise _fail(*at("Version"), f"bad log version {header['version']}")
    if header["game"] not in GAMES:
        raise _fail(*at("Game"), f"unknown game {header['game'][:40]!r}")
    from .log import _created_ms, _hex_bytes
    size = 1 if header["version"] == 1 else 0
    checks = [("Layout", header["layout"], 8 << size), ("Position", summary["position"], 8 << size),
              ("Digest", summary["digest"], 16 << size)]
    for tag, value, digits in checks:
        try:
            _hex_bytes(value, digits // 2, tag.lower())
        except LogError as exc:
            raise _fail(*at(tag), str(exc)) from None
    if header["version"] == 2:
        try:
            _created_ms(header["created"])
        except LogError as exc:
            raise _fail(*at("Created"), str(exc)) from None


def check_text(data: bytes, *, keep_history: bool = False):
    """Decode and verify a text-form log; a failure names the line and column of its event."""
    log, where = decode_text(data)
    try:
        return log, verify(log, keep_history=keep_history)
    except LogError as exc:
        i = exc.event
        if i is not None and 0 < i <= len(where.lines):
            raise _fail(where.lines[i - 1], where.columns[i - 1], str(exc), unreadable=exc.unreadable,
                        event=i) from None
        raise LogError(f"{exc} (see the tags)", unreadable=exc.unreadable) from None
