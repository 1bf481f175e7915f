"""``carpet play`` and the meta actions ``hint``, ``undo``, ``redeal``, ``restart``: changing a recorded game."""

import sys
from pathlib import Path
from typing import Annotated, Optional

import typer

from carpet.core import HINT, CarpetError, IllegalAction
from carpet.core.game import PLAYING
from carpet.formats import LogError, locked, position_document, record, upgraded, write_log

from . import clock
from .common import (FAILED, OK, UNUSABLE, JsonFlag, LogFile, PositionText, Quiet, draw, error, fail, guard, load,
                     print_json, settle, writing)


def _play(file: Path, actions: list[str], as_json: bool, quiet: bool = False, peek: bool = False) -> int:
    """Apply actions in order under the file lock; keep all before the first illegal one.  A hint
    sees what the player has seen, or with ``peek`` the whole position (core/seen.py)."""
    try:
        with locked(file):
            session, applied, hints, code, message = _apply(file, actions, peek)
    except LogError as exc:  # locking or writing failed: the log on disk is as it was
        raise fail(file, exc) from None
    settle(code)
    if message:
        error(message)
    hint_texts = [None if h is None else session.variant.text(h) for h in hints]
    if as_json:
        extra = {"hint": hint_texts[-1], "information": _information(peek)} if hints else {}
        print_json(position_document(session, applied=applied, **extra))
    else:
        for h in hint_texts:
            print(f"hint: {h}" if h else f"hint: nothing to play (the game is {session.status})")
        if not quiet:
            draw(session)
    return code


def _information(peek: bool) -> str:
    """What a hint looked at, for --json: "full" with --peek, else "seen" (also where nothing is
    hidden: the hint then looked at no more than the player sees, docs/rules.md)."""
    return "full" if peek else "seen"


def _hint(session, peek: bool) -> int | None:
    if peek:
        return session.hint()
    from carpet.core.seen import seen_hint

    return seen_hint(session)


def _apply(file: Path, actions: list[str], peek: bool = False):
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
            hints.append(_hint(session, peek))
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


Peek = Annotated[bool, typer.Option("--peek", help="Let the hint look at the whole position, the order of "
                                                   "face-down cards and what shuffles will deal included, as "
                                                   "the solver does (\"information\": \"full\").")]


def hint(file: Annotated[Optional[Path], typer.Argument(
             help="A recorded game: binary (.carpet), JSON (.carpet.json) or text (.carpet.txt); or --position TEXT.",
             show_default=False)] = None,
         as_json: JsonFlag = False, quiet: Quiet = False, position: PositionText = None, peek: Peek = False) -> None:
    """Name one legal action (recorded; in kovrik and kovrik-hard a hint counts as a move).

    The hint sees what the player has seen: the cards face up now or earlier in this attempt,
    never the order of face-down cards or what a shuffle will deal (it weighs sampled orders);
    --peek lets it see everything. With --position TEXT: for that position, nothing recorded;
    its stock counts as unseen, and unseen cards may be written ??."""
    if file is not None and position is None:
        guard(lambda: _play(file, ["hint"], as_json, quiet, peek))
    else:
        guard(lambda: _hint_at(file, position, as_json, quiet, peek))


def _hint_at(file: Optional[Path], text: Optional[str], as_json: bool, quiet: bool, peek: bool) -> None:
    from .show import file_or_position

    if text is not None and file is None and not peek:
        return _hint_at_text(text, as_json, quiet)
    session = file_or_position("hint", file, text)
    action = _hint(session, peek)
    named = None if action is None else session.variant.text(action)
    if as_json:
        print_json(position_document(session, hint=named, information=_information(peek)))
        return
    print(f"hint: {named}" if named else f"hint: nothing to play (the game is {session.status})")
    if not quiet:
        draw(session)
def _hint_at_text(text: str, as_json: bool, quiet: bool) -> None:
    """The seen hint for a position typed as text, its unseen cards perhaps written ??: the
    answer never depends on the order the text gives the stock (core/seen.py).  The document and
    the picture show the ?? as typed."""
    from carpet.core import Session
    from carpet.core.position import Start, read
    from carpet.core.session import Events
    from carpet.core.seen import position_hint

    from .common import Failure

    try:
        position = read(text)
    except CarpetError as exc:
        raise Failure(f"carpet: --position: {exc}", UNUSABLE) from None
    # (the ?? in card order, for the status, the document and the picture; no hint reads it)
    session = Session(position.variant, Start(position.text), state=position.with_order(sorted(position.unseen)))
    session.events = Events()
    action = position_hint(position)
    named = None if action is None else position.variant.text(action)
    if as_json:
        document = position_document(session, hint=named, information="seen")
        if position.unseen:
            document.position = position.text
            document.layout["stock"] = _stock_as_typed(position.text)
        print_json(document)
        return
    print(f"hint: {named}" if named else f"hint: nothing to play (the game is {session.status})")
    if not quiet:
        draw(session)


def _stock_as_typed(text: str) -> list[str]:
    """The stock field of a position's text, top first, card by card (``??`` kept)."""
    cards = next(field[2:] for field in text.split(" ") if field.startswith("s:"))
    return [] if cards == "-" else [cards[i:i + 2] for i in range(0, len(cards), 2)]


undo = _meta("undo", "Take back the last action that changed the position (recorded).")
redeal = _meta("redeal", "Redeal or shuffle the loose cards, where the game has redeals (recorded).")
restart = _meta("restart", "Play the same deal again from the start (recorded; the new attempt is the one that counts).")
