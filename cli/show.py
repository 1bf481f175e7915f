"""``carpet show``, ``carpet moves`` and ``carpet replay``: reading a recorded game."""

from __future__ import annotations

from typing import Annotated, Optional

import typer

from carpet.core import Session, get_game, parse_deal
from carpet.formats import position_document, replay

from .common import UNUSABLE, Failure, JsonFlag, LogFile, console, guard, load, print_json, report, say, seconds


def show(file: LogFile,
         at: Annotated[Optional[int], typer.Option("--at", min=0, help="The position after event N (0 = the deal).")] = None,
         as_json: JsonFlag = False) -> None:
    """The position now (or after event N): score, moves, redeals left, clock, status."""
    def run():
        log, session = load(file)
        if at is not None:
            if at > len(log.events):
                raise Failure(f"carpet: {file}: --at {at}: the log has only {len(log.events)} events", UNUSABLE)
            session = replay(log, at)
        report(session, as_json)
    guard(run)


def moves(file: LogFile, as_json: JsonFlag = False) -> None:
    """Every legal action now, in canonical notation."""
    def run():
        _, session = load(file)
        texts = [session.variant.text(a) for a in session.legal_actions()]
        if as_json:
            print_json({"actions": texts, "undo": session.can_undo(), "status": session.status})
        elif texts:
            print(" ".join(texts))
        else:
            say(f"no legal action: the game is {session.status}" +
                (" (undo or restart)" if session.can_undo() else " (restart)"))
    guard(run)


def replay_(file: LogFile,
            to: Annotated[Optional[int], typer.Option("--to", min=0, help="Stop after event N.")] = None,
            delay: Annotated[float, typer.Option("--delay", callback=seconds(3600), help="Seconds between positions.")] = 0.0,
            as_json: JsonFlag = False) -> None:
    """Re-enact the recorded game position by position."""
    def run():
        import time

        log, _ = load(file)
        last = len(log.events) if to is None else min(to, len(log.events))
        session = Session(get_game(log.header.game), parse_deal(log.header.deal))
        text = session.variant.text
        frames = []
        out = None if as_json else console()
        animate = out is not None and delay > 0 and out.is_terminal
        for i in range(last + 1):
            action = None
            if i:
                session.act(*log.events[i - 1])
                action = text(log.events[i - 1][0])
            if as_json:
                frames.append({"event": i, "action": action, "position": position_document(session)})
                continue
            from .draw import position
            if animate:
                out.clear()
            out.print(position(session, "the deal" if i == 0 else f"event {i}: {action}"))
            if delay and i < last:
                time.sleep(delay)
        if as_json:
            print_json({"file": str(file), "frames": frames})
    guard(run)
