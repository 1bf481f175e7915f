"""``carpet play`` and the meta actions ``hint``, ``undo``, ``redeal``, ``restart``: changing a recorded game."""

import sys
from pathlib import Path
from typing import Annotated

import typer

from carpet.core import HINT, CarpetError, IllegalAction
from carpet.core.game import PLAYING
from carpet.formats import LogError, locked, position_document, record, upgraded, write_log

from . import clock
from .common import (FAILED, OK, UNUSABLE, JsonFlag, LogFile, Quiet, draw, error, fail, guard, load,
                     print_json, settle, writing)


def _play(file: Path, actions: list[str], as_json: bool, quiet: bool = False) -> int:
    """Apply actions in order under the file lock; keep all before the first illegal one."""
    try:
        with locked(file):
            session, applied, hints, code, message = _apply(file, actions)
    except LogError as exc:  # locking or writing failed: the log on disk is as it was
        raise fail(file, exc) from None
    settle(code)
    if message:
        error(message)
    hint_texts = [None if h is None else session.variant.text(h) for h in hints]
    if as_json:
        extra = {"hint": hint_texts[-1]} if hints else {}
        print_json(position_document(session, applied=applied, **extra))
    else:
        for h in hint_texts:
            print(f"hint: {h}" if h else f"hint: nothing to play (the game is {session.status}{_after(session)})")
        if not quiet:
            draw(session)
    return code


def _after(session) -> str:
    """What a player may still do when the game is over: undo out of a loss, restart either."""
    return "; undo or restart to play on" if session.status == "lost" else "; restart to play again"


def _apply(file: Path, actions: list[str]):
    log, session = load(file, for_play=True)
    form = form_of_bytes(file)
    readings = clock.Clock.of(log)
    applied, recorded, hints, code, message = 0, 0, [], OK, None
    for text in actions:
        number = len(session.events) + 1
        try:
            action = session.parse(text)
            if action == HINT and session.status != PLAYING:
                # the game is over: the hint is answered ("nothing to name") and not recorded
                applied += 1
                hints.append(None)
                continue
            session.act(action, readings.read(session))
        except CarpetError as exc:
            code = FAILED if isinstance(exc, IllegalAction) else UNUSABLE
            message = f"carpet: {file}: event {number} ({text}): {exc}; nothing after it was applied"
            break
        applied += 1
        recorded += 1
        if action == HINT:
            hints.append(session.hint())
    if recorded:
        with writing(f"{file}: {_recorded(recorded, len(actions))}"):
            write_log(file, record(session, upgraded(log.header), clock_jumps=readings.jumps,
                                   clock_skipped_ms=readings.skipped_ms), form=form)
    return session, applied, hints, code, message


def _recorded(recorded: int, given: int) -> str:
    if recorded == given:
        return f"all {given} actions given were recorded" if given > 1 else "the action was recorded"
    return f"{recorded} of the {given} actions given were recorded, not the rest"


def form_of_bytes(path: Path) -> str:
    """The form of the log at ``path``, by what it holds: a log is written back as it was."""
    from carpet.formats.log import is_json, is_text

    with open(path, "rb") as f:
        head = f.read(64)
    return "text" if is_text(head) else "json" if is_json(head) else "binary"


def _read_actions(actions: list[str]) -> list[str]:
    if actions == ["-"]:  # bytes that are not UTF-8 become actions nobody knows, named in the error
        return sys.stdin.buffer.read().decode("utf-8", "surrogateescape").split()
    return actions


def play(file: LogFile,
         actions: Annotated[list[str], typer.Argument(help="Actions in order; `-` reads them from stdin.",
                                                      show_default=False)],
         as_json: JsonFlag = False, quiet: Quiet = False) -> None:
    """Apply actions in order; stop at the first illegal one, keeping all before it."""
    guard(lambda: _play(file, _read_actions(actions), as_json, quiet))


def _meta(word: str, doc: str):
    def command(file: LogFile, as_json: JsonFlag = False, quiet: Quiet = False) -> None:
        guard(lambda: _play(file, [word], as_json, quiet))
    command.__doc__ = doc
    command.__name__ = word
    return command


hint = _meta("hint", "Name one legal action (recorded; in kovrik and kovrik-hard a hint counts as a move).")
undo = _meta("undo", "Take back the last action that changed the position (recorded).")
redeal = _meta("redeal", "Redeal or shuffle the loose cards, where the game has redeals (recorded).")
restart = _meta("restart", "Play the same deal again from the start (recorded; the new attempt is the one that counts).")
