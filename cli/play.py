"""``carpet play`` and the meta actions ``hint``, ``undo``, ``redeal``, ``restart``: changing a recorded game."""

import io
import sys
from pathlib import Path
from typing import Annotated, Optional

import typer

from carpet.core import HINT, CarpetError, IllegalAction
from carpet.formats import LogError, position_document

from .common import Failure, JsonFlag, LogFile, PositionText, Quiet, draw, error, fail, guard, print_json, settle
from .exits import FAILED, OK, UNUSABLE
from .live import LiveGame, hint_of, writer


def _play(file: Path, actions: list[str], as_json: bool, quiet: bool = False, peek: bool = False) -> int:
    """Apply actions in order under the file lock; keep all before the first illegal one.  A hint
    sees what the player has seen, or with ``peek`` the whole position (core/seen.py)."""
    try:
        with writer(file) as held:
            session, applied, hints, code, message = _apply(LiveGame(file, held, peek=peek), actions)
    except LogError as exc:  # locking or writing failed: the log on disk is as it was
        raise fail(file, exc) from None
    settle(code)
    if message:
        error(message)
    if as_json:
        extra = {"hint": _hint_text(session, hints[-1]), "information": _information(peek)} if hints else {}
        print_json(position_document(session, applied=applied, **extra))
    else:
        for h in hints:
            print(_hint_line(session, h))
        if not quiet:
            draw(session)
    return code


def _information(peek: bool) -> str:
    """What a hint looked at, for --json: "full" with --peek, else "seen" (also where nothing is
    hidden: the hint then looked at no more than the player sees, docs/rules.md)."""
    return "full" if peek else "seen"


def _after(session) -> str:
    """What a player may still do when the game is over: undo out of a loss, restart either."""
    return "; undo or restart to play on" if session.status == "lost" else "; restart to play again"


def _apply(game: LiveGame, actions: list[str]):
    session = game.session
    applied, hints, code, message = 0, [], OK, None
    for text in actions:
        try:
            played = game.play(text)
        except CarpetError as exc:
            code, message = _refused(game, text, exc)
            break
        applied += 1
        if played.action == HINT:
            hints.append(played.hint)
    game.save(f"{game.file}: {_recorded(game.unsaved, len(actions))}")
    return session, applied, hints, code, message


def _refused(game: LiveGame, text: str, exc: CarpetError) -> tuple[int, str]:
    number = len(game.session.events) + 1
    return (FAILED if isinstance(exc, IllegalAction) else UNUSABLE,
            f"carpet: {game.file}: event {number} ({text}): {exc}; nothing after it was applied")


def _hint_text(session, hint: int | None) -> str | None:
    return None if hint is None else session.variant.text(hint)


def _hint_line(session, hint: int | None) -> str:
    if hint is None:
        return f"hint: nothing to play (the game is {session.status}{_after(session)})"
    return f"hint: {_hint_text(session, hint)}"


def _recorded(recorded: int, given: int) -> str:
    if recorded == given:
        return f"all {given} actions given were recorded" if given > 1 else "the action was recorded"
    return f"{recorded} of the {given} actions given were recorded, not the rest"


def _stream(file: Path, as_json: bool, quiet: bool) -> int:
    """``play FILE -``: the actions of each batch of lines read (cli/batches.py) applied, recorded in
    one write, then answered: with --json each one's position, a document a line, so a program can
    drive a live game through a pipe and find each answered action in the file."""
    code, applied = OK, 0
    try:
        with writer(file) as held:
            game = LiveGame(file, held)
            session = game.session
            for batch in _stdin_batches():
                answers, refused = _apply_batch(game, batch, as_json, applied)
                applied += len(answers)
                game.save(f"{file}: the {applied} action{'s' if applied > 1 else ''} read so far "
                          f"{'were' if applied > 1 else 'was'} recorded")
                _answer(answers, as_json)
                if refused is None and batch.too_long:
                    from .batches import LINE_BOUND

                    refused = UNUSABLE, (f"carpet: {file}: line {batch.too_long} of stdin is longer than "
                                         f"{LINE_BOUND} bytes, not a line of actions; nothing after it was read")
                if refused is not None:
                    code, message = refused
                    settle(code)
                    error(message)
                    break
    except LogError as exc:  # locking or writing failed: the log on disk holds every action answered
        raise fail(file, exc) from None
    if as_json and not applied:  # nothing was played: the position as it stands, as play always gives
        print_json(position_document(session, applied=0))
    elif not as_json and not quiet:
        draw(session)
    return code


def _apply_batch(game: LiveGame, batch, as_json: bool, applied: int):
    """Apply the batch's actions in order up to the first refused; returns the answer of each applied
    (with --json its position document, else a hint's line or None) and the refusal, if any."""
    session, answers = game.session, []
    for text in batch.actions():
        try:
            played = game.play(text)
        except CarpetError as exc:
            return answers, _refused(game, text, exc)
        if as_json:
            extra = {"hint": _hint_text(session, played.hint), "information": "seen"} if played.action == HINT else {}
            answers.append(position_document(session, applied=applied + len(answers) + 1, **extra))
        else:
            answers.append(_hint_line(session, played.hint) if played.action == HINT else None)
    return answers, None


def _answer(answers: list, as_json: bool) -> None:
    for answer in answers:
        if as_json:
            print_json(answer)
        elif answer is not None:
            print(answer)
    sys.stdout.flush()


def _stdin_batches():
    """The batches of stdin (cli/batches.py), read from its descriptor (its Python buffer unused), or
    from the stream where it has none (a test's)."""
    from .batches import Batches

    if sys.stdin is None:  # started with stdin closed: no lines (descriptor 0 may be another file now)
        return Batches(None, io.BytesIO())
    stream = sys.stdin.buffer
    try:
        return Batches(stream.fileno())
    except (OSError, ValueError):  # (io.UnsupportedOperation is an OSError)
        return Batches(None, stream)


def _screen(file: Path, as_json: bool) -> int:
    if as_json or not (sys.stdin.isatty() and sys.stdout.isatty()):
        raise Failure(f"carpet: play {file}: no actions given (on a terminal, without --json, `carpet play FILE` "
                      f"opens the interactive screen; `-` reads actions from stdin)", UNUSABLE)
    from .screen import run_screen  # textual is loaded here and nowhere else

    return run_screen(file)


def play(file: LogFile,
         actions: Annotated[Optional[list[str]], typer.Argument(
             help="Actions in order; `-` reads them from stdin, each played as its line arrives (the lines "
                  "already there recorded together, before they are answered). None, on a terminal: the "
                  "interactive screen.", show_default=False)] = None,
         as_json: JsonFlag = False, quiet: Quiet = False) -> None:
    """Apply actions in order; stop at the first illegal one, keeping all before it. Without actions, on a
    terminal: play on an interactive screen."""
    if not actions:
        guard(lambda: _screen(file, as_json))
    elif actions == ["-"]:
        guard(lambda: _stream(file, as_json, quiet))
    else:
        guard(lambda: _play(file, actions, as_json, quiet))


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
    action = hint_of(session, peek)
    named = None if action is None else session.variant.text(action)
    if as_json:
        print_json(position_document(session, hint=named, information=_information(peek)))
        return
    print(_hint_line(session, action))
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
    print(_hint_line(session, action))
    if not quiet:
        draw(session)


def _stock_as_typed(text: str) -> list[str]:
    """The stock field of a position's text, top first, card by card (``??`` kept)."""
    cards = next(field[2:] for field in text.split(" ") if field.startswith("s:"))
    return [] if cards == "-" else [cards[i:i + 2] for i in range(0, len(cards), 2)]


def undo(file: LogFile,
         times: Annotated[int, typer.Option("-n", "--times", min=1, max=100_000, metavar="N",
                                            help="Undo N times, each recorded (the same as N undo actions).")] = 1,
         as_json: JsonFlag = False, quiet: Quiet = False) -> None:
    """Take back the last action that changed the position (recorded); -n N takes back N of them."""
    guard(lambda: _play(file, ["undo"] * times, as_json, quiet))


redeal = _meta("redeal", "Redeal or shuffle the loose cards, where the game has redeals (recorded).")
restart = _meta("restart", "Play the same deal again from the start (recorded: the attempt it ends stays on "
                           "record, named by show and verify and counted by stats).")
