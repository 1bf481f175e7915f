"""Why a recorded game does not verify, as one report a person can read.

Used by the pytest plugin (``carpet.cli.pytest_plugin``) for a failing game: the verifier's
own line, then which event, what was expected there, what the file has, and the position
there drawn as plain text.  Everything in it is asked of the format and the engine again
(``read_log``, ``replay``, ``record``, ``Session.act``), so it says nothing they would not.
"""

from __future__ import annotations

import io
from pathlib import Path

import msgspec

from carpet.core import CarpetError, Session, get_game
from carpet.formats import header_deal, read_log, record, replay, verify

#: legal actions listed at most, when saying what was expected
SHOWN = 16
INDENT = "    "


def check(path: Path, name: str | None = None) -> str | None:
    """None when the game at ``path`` verifies, else the report of what is wrong (naming it ``name``)."""
    name = name or str(path)
    try:
        log = read_log(path)
    except CarpetError as exc:
        partial = getattr(exc, "partial", None)
        if partial is not None and exc.event is not None:  # refused while read: the events before it
            header = partial.header
            lines = [f"{name}: {exc}", f"  game:     {header.game}, {_dealt(header)}, {exc.total} events"]
            return "\n".join(lines + _at_event(partial, exc.event, exc.found, total=exc.total))
        return f"{name}: {exc}\n  the file cannot be read as a recorded game: nothing to replay"
    try:
        verify(log)
    except CarpetError as exc:
        return _explain(name, log, exc)
    return None


def _dealt(header) -> str:
    """``deal ms1``, or ``from the position ...`` for a game started from one."""
    return f"from the position {header.deal}" if header.numbering == "position" else f"deal {header.deal}"


def _explain(name: str, log, exc: CarpetError) -> str:
    header, events = log.header, log.events
    lines = [f"{name}: {exc}", f"  game:     {header.game}, {_dealt(header)}, {len(events)} events"]
    event = getattr(exc, "event", None)
    if event is not None:
        return "\n".join(lines + _at_event(log, event))
    try:
        session = replay(log)
    except CarpetError:  # the deal itself: the header's layout digest is not this deal's
        return "\n".join(lines + _at_deal(log))
    found = msgspec.structs.asdict(record(session, header).summary)
    claimed = msgspec.structs.asdict(log.summary)
    differ = [name for name in claimed if claimed[name] != found.get(name)]
    if len(differ) > 1 and "digest" in differ:  # a version-2 digest covers the summary: it differs with it
        differ.remove("digest")
    lines.append(f"  at:       the end, after event {len(events)} (the summary, checked against the replay)")
    lines.append("  expected: " + ", ".join(f"{name} {claimed[name]!r}" for name in differ) + "  (the file says)")
    lines.append("  found:    " + ", ".join(f"{name} {found.get(name)!r}" for name in differ) + "  (the replay gives)")
    if differ == ["digest"]:
        lines.append("            every event is legal and the summary matches, but the header or the events "
                     "were edited after the game was written")
    lines.append(f"  position after event {len(events)}:")
    lines.append(drawn(session))
    return "\n".join(lines)


def _at_event(log, event: int, found: tuple | None = None, total: int | str | None = None) -> list[str]:
    """The report at ``event``: ``found`` is that event's (action, clock) when ``log`` ends before it."""
    lines = [f"  event:    {event} of {len(log.events) if total is None else total}"]
    try:
        session = replay(log, event - 1)
    except CarpetError:
        return lines
    action, clock = log.events[event - 1] if found is None else found
    variant = session.variant
    try:
        text = variant.text(action)
    except CarpetError:
        text = f"action {action}"
    legal = [variant.text(a) for a in session.legal_actions()]
    if legal:
        shown = " ".join(legal[:SHOWN]) + (f" ... ({len(legal) - SHOWN} more)" if len(legal) > SHOWN else "")
        lines.append(f"  expected: a legal action here: {shown} (or hint, undo, restart)")
    else:
        lines.append(f"  expected: hint, undo or restart (the game is {session.status})")
    try:
        session.act(action, clock)
        why = "legal here"  # then the failure came from elsewhere; the headline says what
    except CarpetError as refused:
        why = f"illegal: {refused}"
    lines.append(f"  found:    {text} at {clock} ms, {why}")
    lines.append(f"  position before event {event}:")
    lines.append(drawn(session))
    return lines


def _at_deal(log) -> list[str]:
    try:
        session = Session(get_game(log.header.game), header_deal(log.header))
    except CarpetError:
        return []
    return ["  at:       the deal, before event 1",
            f"  expected: the layout digest {log.header.layout} (the file says)",
            f"  found:    {session.state.digest()} (deal {session.deal.text} of {session.variant.id})",
            "  position of the deal:", drawn(session)]


def drawn(session: Session, width: int = 100) -> str:
    """The position as the command draws it, in plain text (no colour), indented."""
    from rich.console import Console

    from .draw import position

    out = io.StringIO()
    Console(file=out, width=width, color_system=None, force_terminal=False, legacy_windows=False,
            highlight=False, emoji=False).print(position(session))
    return "\n".join(INDENT + line.rstrip() for line in out.getvalue().rstrip("\n").splitlines())

