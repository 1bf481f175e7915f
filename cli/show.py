"""``carpet show``, ``carpet moves`` and ``carpet replay``: reading a recorded game."""

import sys
from pathlib import Path
from typing import Annotated, Optional

import typer

from carpet.core import Session, get_game
from carpet.core.game import RESTART
from carpet.formats import header_deal, replay

from .common import (Failure, Force, JsonFlag, attempts_words, LogFile, PositionFlag, PositionText, SvgFile, console, guard, load,
                     position_line, position_session, print_json, report, say, seconds)
from .exits import UNUSABLE

OptionalLogFile = Annotated[Optional[Path], typer.Argument(
    help="A recorded game: binary (.carpet), JSON (.carpet.json) or text (.carpet.txt); or --position TEXT.",
    show_default=False)]


def show(file: LogFile,
         at: Annotated[Optional[int], typer.Option("--at", min=0, help="The position after event N (0 = the deal).")] = None,
         as_json: JsonFlag = False,
         svg: SvgFile = None,
         force: Force = False,
         position: PositionFlag = False) -> None:
    """The position now (or after event N): score, moves, redeals left, clock, status."""
    def run():
        log, session = load(file)
        if at is not None:
            if at > len(log.events):
                raise Failure(f"carpet: {file}: --at {at}: the log has only {len(log.events)} events", UNUSABLE)
            session = replay(log, at)
        if position and not as_json:
            print(position_line(session))
            if svg is None:
                return
        from carpet.formats.report import attempt_results

        report(session, as_json, svg, note=event_note(session, len(log.events)), force=force,
               attempts=attempt_results(session))
        attempts = attempts_words(session)
        if attempts and not as_json and svg is None:
            print(attempts)
    guard(run)


def file_or_position(command: str, file: Path | None, text: str | None) -> Session:
    """The session a command works on: the verified log's, or one started from ``--position``."""
    if (file is None) == (text is None):
        raise Failure(f"carpet {command}: give a recorded game or --position TEXT (one of them)", UNUSABLE)
    if text is not None:
        return position_session(text)
    return load(file)[1]


def event_note(session: Session, total: int) -> str:
    """``after event 12 of 130: 7H>b5`` (or ``the deal``) for a picture's caption."""
    done = len(session.events)
    if not done:
        return f"the deal (of {total} events)"
    return f"after event {done} of {total}: {session.variant.text(session.events[-1][0])}"


def moves(file: OptionalLogFile = None, as_json: JsonFlag = False, position: PositionText = None) -> None:
    """Every legal action now (in a recorded game, or a position given as text), in canonical notation."""
    def run():
        session = file_or_position("moves", file, position)
        texts = [session.variant.text(a) for a in session.legal_actions()]
        if as_json:
            from carpet.formats.documents import Moves
            print_json(Moves(actions=texts, undo=session.can_undo(), status=session.status))
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

        import msgspec

        from carpet.formats import position_document
        from carpet.formats.documents import Frame

        log, _ = load(file)
        last = len(log.events) if to is None else min(to, len(log.events))
        text = get_game(log.header.game).text
        out = None if as_json else console()
        animate = out is not None and delay > 0 and out.is_terminal
        encoder = msgspec.json.Encoder()
        if as_json:  # one document, written frame by frame: memory stays that of one position
            sys.stdout.write('{"file":' + encoder.encode(str(file)).decode() + ',"frames":[')

        def show_frame(session, i: int, action) -> None:
            caption = "the deal" if i < 0 else f"event {i + 1}: {text(action)}"
            if i >= 0:  # the reading of this event (0 after a restart), drawn or in JSON alike
                session.clock_ms = 0 if log.events.actions[i] == RESTART else log.events.clocks[i]
            if as_json:
                frame = Frame(event=i + 1, action=None if i < 0 else text(action),
                              position=position_document(session))
                sys.stdout.write(("," if i >= 0 else "") + encoder.encode(frame).decode())
                return
            from .draw import position
            if animate:
                out.clear()
            out.print(position(session, caption))
            if delay and i + 1 < last:
                time.sleep(delay)

        first = Session(get_game(log.header.game), header_deal(log.header))
        first.events = log.events[:0]
        show_frame(first, -1, None)
        if last:
            def step(session, i, action):
                session.events = _Count(i + 1)
                show_frame(session, i, action)
            replay(log, last, step=step)
        if as_json:
            sys.stdout.write("]}\n")
    guard(run)


class _Count:
    """Stands in for a session's events where only their number is read (a frame's ``events``)."""

    __slots__ = ("n",)

    def __init__(self, n: int) -> None:
        self.n = n

    def __len__(self) -> int:
        return self.n
