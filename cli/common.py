"""What every command shares: one-line errors and exit codes, JSON output, drawing, loading a log.

Exit codes: cli/exits.py (1 for an illegal action or a failed verification, 2 for bad usage
or an unusable file: :func:`fail`).  Every error is one line on stderr.
"""

from __future__ import annotations

import contextlib
import math
import sys
from pathlib import Path
from typing import Annotated, Callable, Optional

import typer

from carpet.core import GAMES, TOOL, CarpetError, Session, get_game, parse_deal

from . import outcome
from .exits import UNUSABLE
from .outcome import settle

#: how a log's ``tool`` says a program, not a person, played its moves (``solve -o``, ``autoplay -o``),
#: and the word ``stats`` sets such a game apart with
MACHINE_MARKS = ((" (solver)", "solver"), (" (built-in player)", "player"))
SOLVER_TOOL = TOOL + MACHINE_MARKS[0][0]
PLAYER_TOOL = TOOL + MACHINE_MARKS[1][0]

JsonFlag = Annotated[bool, typer.Option("--json", help="Print one JSON document on stdout.")]
LogFile = Annotated[Path, typer.Argument(help="A recorded game: binary (.carpet), JSON (.carpet.json) or text "
                                              "(.carpet.txt); told apart by what it holds.", show_default=False)]


def _game_ids(incomplete: str) -> list[str]:
    """Shell completion of a game id (``carpet deal kov<TAB>``)."""
    return [game for game in GAMES if game.startswith(incomplete)]


GameId = Annotated[str, typer.Argument(help=f"A game id: {', '.join(GAMES)} (see `carpet games`).",
                                       show_default=False, autocompletion=_game_ids)]
PositionFlag = Annotated[bool, typer.Option("--position", help="Print the position as one line of text "
                                                               "(docs/format.md, \"Positions as text\").")]
PositionText = Annotated[Optional[str], typer.Option(
    "--position", metavar="TEXT", show_default=False,
    help="A position as one line of text, the game id first (docs/format.md, \"Positions as text\"): "
         "`carpet deal GAME N --position` prints one.")]
Quiet = Annotated[bool, typer.Option("-q", "--quiet", help="Do not draw the position afterwards.")]
Force = Annotated[bool, typer.Option("--force", help="Overwrite an existing file.")]
SvgFile = Annotated[Optional[Path], typer.Option("--svg", metavar="FILE", show_default=False,
                                                 help="Write the position as an SVG picture to FILE (a new file, "
                                                      "or --force; - for stdout), instead of drawing it.")]


# --- output ----------------------------------------------------------------------------
def error(line: str) -> None:
    """An error: one line on stderr, echoed input cut to a readable length."""
    _to_stderr(outcome.one_line(line))


def say(text: str) -> None:
    """A note for people (not the command's result): on stderr, so stdout stays clean for scripts."""
    _to_stderr(outcome.one_line(text))


def _to_stderr(line: str) -> None:
    """The line on stderr, or nowhere: stderr closed (None), gone (a closed pipe) or failing (a full
    disk, ``2>/dev/full``) loses the line, never the command's exit code."""
    if sys.stderr is not None:
        with contextlib.suppress(OSError, ValueError):
            print(line, file=sys.stderr)


def print_json(doc) -> None:
    sys.stdout.write(json_line(doc) + "\n")


def json_line(doc) -> str:
    """A document as the one line of JSON :func:`print_json` prints."""
    import msgspec

    try:
        text = msgspec.json.encode(doc)
    except UnicodeEncodeError:  # a file name with bytes that are not UTF-8: JSON shows them as U+FFFD
        text = msgspec.json.encode(_valid_text(msgspec.to_builtins(doc)))
    from .terminal import json_for

    return json_for(sys.stdout, text.decode())


def _valid_text(value):
    if isinstance(value, str):
        try:
            return value.encode("utf-8", "surrogateescape").decode("utf-8", "replace")
        except UnicodeEncodeError:
            return value.encode("utf-8", "replace").decode()
    if isinstance(value, dict):
        return {_valid_text(k): _valid_text(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_valid_text(v) for v in value]
    return value


def console():
    from rich.console import Console
    return Console(highlight=False)


def draw(session: Session, caption: str | None = None) -> None:
    from .draw import position
    console().print(position(session, caption))


def report(session: Session, as_json: bool, svg: Path | None = None, note: str = "", force: bool = False,
           **extra) -> None:
    """The position: as the JSON document of docs/format.md, or drawn (on the terminal, or as SVG to ``svg``)."""
    if svg is not None:
        write_svg(svg, session, note, force)
    if as_json:
        from carpet.formats import position_document

        print_json(position_document(session, **extra))
    elif svg is None:
        draw(session)


def attempts_words(session: Session) -> str:
    """What each attempt of the session came to, for people: ``attempt 1 won, score 48 in 120 moves
    (2:00.0); attempt 2 is this one``; empty for a game never restarted."""
    earlier = session.earlier_attempts()
    if not earlier:
        return ""
    from carpet.formats.svg import clock_text

    words = [f"attempt {i} {'left playing' if a.status == 'playing' else a.status}, score {a.score} in "
             f"{a.moves} move{'s' * (a.moves != 1)} ({clock_text(a.elapsed_ms)})" for i, a in enumerate(earlier, 1)]
    return "; ".join(words + [f"attempt {len(earlier) + 1} is this one"])


def write_svg(path: Path, session: Session, note: str = "", force: bool = False) -> None:
    """The position as an SVG picture, written whole or not at all, over a file only with ``force`` (``-``:
    stdout)."""
    from carpet.formats.svg import position_svg

    data = position_svg(session, note)
    if str(path) == "-":
        sys.stdout.buffer.write(data)
        sys.stdout.flush()
        return
    write_file(path, data, force)
    say(f"wrote {path} ({len(data)} bytes)")


# --- failing ---------------------------------------------------------------------------
class Failure(Exception):
    """A command's failure already described: message line and exit code."""

    def __init__(self, line: str, code: int) -> None:
        super().__init__(line)
        self.code = code


def fail(path: Path | str, exc: CarpetError) -> Failure:
    """Exit 1 for an illegal action or a log that fails verification; 2 for anything unusable."""
    from carpet.formats.verdict import code_of

    return Failure(f"carpet: {path}: {exc}", code_of(exc))


def guard(run: Callable[[], int | None]) -> None:
    """Run a command body; a Failure becomes its line and exit code."""
    try:
        code = run()
    except Failure as exc:
        error(str(exc))
        raise typer.Exit(exc.code) from None
    if code:
        raise typer.Exit(code)


# --- reading ---------------------------------------------------------------------------
def load(path: Path, *, for_play: bool = False) -> tuple:
    """Read and fully verify a log: a log that does not verify is never played on.

    ``for_play`` keeps every position an undo could take back (the one replay saves
    only those a later undo in the log needs, ``Session.play_events``).
    """
    from carpet.formats import check
    from carpet.formats.files import read_bytes

    try:
        return check(read_bytes(path), keep_history=for_play)
    except CarpetError as exc:
        raise fail(path, exc) from None


def game_and_deal(game: str, number: str | None):
    try:
        variant = get_game(game)
        deal = parse_deal(number) if number is not None else None
    except CarpetError as exc:
        raise Failure(f"carpet: {exc}", UNUSABLE) from None
    return variant, deal


def position_session(text: str) -> Session:
    """A session starting from a position given as text (its ``deal`` a Start); one line and exit
    2 for a text that is not a position, or one whose stock holds cards not seen (``??``)."""
    from carpet.core.position import Start, read

    try:
        position = read(text)
        position.state()
    except CarpetError as exc:
        raise Failure(f"carpet: --position: {exc}", UNUSABLE) from None
    return Session(position.variant, Start(position.text))


def position_line(session: Session) -> str:
    """The position of ``session`` as one line of text."""
    from carpet.core.position import write

    return write(session.state)


def form_of(path: Path) -> str:
    """The form a file is written in, by its name (docs/format.md, "File names")."""
    name = path.name.lower()
    return "json" if name.endswith(".json") else "text" if name.endswith(".txt") else "binary"


def write_new(path: Path, log, force: bool) -> None:
    """Write a new log to ``path`` in the form its name says; never over an existing file unless ``force``."""
    from carpet.formats import to_bytes

    try:
        data = to_bytes(log, form=form_of(path))
    except CarpetError as exc:
        raise fail(path, exc) from None
    write_file(path, data, force)


def write_file(path: Path, data: bytes, force: bool) -> None:
    """Write a whole file (a log, a picture, a page) to ``path``, atomically; over an existing file only
    with ``force``, and then under the file's lock, as every writer of a log: behind a pipe or a screen
    playing it, this waits (said once on stderr) and replaces what that writer left (formats/files.py)."""
    from carpet.formats.files import check_target, write_atomic

    try:
        if not force:  # a new file only: made by name, never over one (nothing to lock)
            with writing(f"{path} was written"):
                write_atomic(path, data, overwrite=False)
            return
        check_target(path)  # (refused before any wait: a pipe, a directory, a read-only file, a foreign link)
        with log_lock(path, new_ok=True) as held, writing(f"{path} was written"):
            held.replace(data)
    except CarpetError as exc:
        raise fail(path, exc) from None


@contextlib.contextmanager
def log_lock(file: Path, *, new_ok: bool = False):
    """The log's lock (formats/files.py ``locked``), waited for as every writer does; a wait behind
    another writer (an open screen, a pipe still playing) is said on stderr first, once, so that it
    does not look like a hang."""
    from carpet.formats.files import Busy, locked

    with contextlib.ExitStack() as stack:
        try:
            held = stack.enter_context(locked(file, wait=False, new_ok=new_ok))
        except Busy:
            say(f"carpet: {file}: another carpet process is playing it (a screen or a pipe?); waiting until it "
                f"is done (Ctrl-C gives up, changing nothing)")
            held = stack.enter_context(locked(file, new_ok=new_ok))
        yield held


def check_output(path: Path, force: bool) -> None:
    """Fail now, before the work, if a new log could not be written to ``path`` (exists, not a file, ...)."""
    from carpet.formats.files import check_target

    try:
        check_target(path, overwrite=force)
    except CarpetError as exc:
        raise fail(path, exc) from None


@contextlib.contextmanager
def writing(recorded: str):
    """Write a file under this: Ctrl-C waits until the write is whole or undone, then says ``recorded`` if it was."""
    with outcome.interrupts_held():
        yield
        settle(recorded=recorded)


# --- checking options ------------------------------------------------------------------
#: bounds of number options, beyond which a value is a mistake (issue 21: no option means "no limit" by
#: an absurd value): a node budget of ten thousand million (some days of CPU time), a week of seconds
MOST_NODES = 10**10
MOST_SECONDS = 7 * 24 * 3600


def seconds(most: float, least: float = 0.0):
    """A Typer option callback: a number of seconds from ``least`` to ``most`` (nan and inf refused)."""
    def check(value: float | None) -> float | None:
        if value is not None and not (math.isfinite(value) and least <= value <= most):
            raise typer.BadParameter(f"{value} is not a number of seconds from {least:g} to {most:g}")
        return value
    return check
