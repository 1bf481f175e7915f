"""What every command shares: one-line errors and exit codes, JSON output, drawing, loading a log.

Exit codes: 0 ok, 1 an illegal action or a failed verification, 2 bad usage or an
unusable file.  Every error is one line on stderr.
"""

from __future__ import annotations

import contextlib
import math
import sys
from pathlib import Path
from typing import Annotated, Callable

import typer

from carpet.core import CarpetError, IllegalAction, Session, __version__, get_game, parse_deal
from carpet.formats import LogError, position_document, read_log, verify

from . import outcome
from .outcome import settle

OK, FAILED, UNUSABLE = 0, 1, 2
TOOL = f"carpet {__version__}"

JsonFlag = Annotated[bool, typer.Option("--json", help="Print one JSON document on stdout.")]
LogFile = Annotated[Path, typer.Argument(help="A game log (binary, or JSON when it ends in .json).",
                                         show_default=False)]
GameId = Annotated[str, typer.Argument(help="A game id: see `carpet games`.", show_default=False)]
Quiet = Annotated[bool, typer.Option("-q", "--quiet", help="Do not draw the position afterwards.")]
Force = Annotated[bool, typer.Option("--force", help="Overwrite an existing file.")]


# --- output ----------------------------------------------------------------------------
def error(line: str) -> None:
    """An error: one line on stderr, echoed input cut to a readable length."""
    _to_stderr(outcome.one_line(line))


def say(text: str) -> None:
    """A note for people (not the command's result): on stderr, so stdout stays clean for scripts."""
    _to_stderr(outcome.one_line(text))


def _to_stderr(line: str) -> None:
    if sys.stderr is not None:  # None when started with stderr closed
        with contextlib.suppress(BrokenPipeError):
            print(line, file=sys.stderr)


def print_json(doc) -> None:
    import msgspec

    try:
        text = msgspec.json.encode(doc)
    except UnicodeEncodeError:  # a file name with bytes that are not UTF-8: JSON shows them as U+FFFD
        text = msgspec.json.encode(_valid_text(msgspec.to_builtins(doc)))
    sys.stdout.write(text.decode() + "\n")


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


def report(session: Session, as_json: bool, **extra) -> None:
    """The position: as INTERFACE.md's JSON object, or drawn."""
    if as_json:
        print_json(position_document(session, **extra))
    else:
        draw(session)


# --- failing ---------------------------------------------------------------------------
class Failure(Exception):
    """A command's failure already described: message line and exit code."""

    def __init__(self, line: str, code: int) -> None:
        super().__init__(line)
        self.code = code


def fail(path: Path | str, exc: CarpetError) -> Failure:
    """Exit 1 for an illegal action or a log that fails verification; 2 for anything unusable."""
    failed = isinstance(exc, IllegalAction) or (isinstance(exc, LogError) and not exc.unreadable)
    return Failure(f"carpet: {path}: {exc}", FAILED if failed else UNUSABLE)


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
def load(path: Path) -> tuple:
    """Read and fully verify a log: a log that does not verify is never played on."""
    try:
        log = read_log(path)
        return log, verify(log)
    except CarpetError as exc:
        raise fail(path, exc) from None


def game_and_deal(game: str, number: str | None):
    try:
        variant = get_game(game)
        deal = parse_deal(number) if number is not None else None
    except CarpetError as exc:
        raise Failure(f"carpet: {exc}", UNUSABLE) from None
    return variant, deal


def write_new(path: Path, log, force: bool) -> None:
    """Write a new log to ``path``; never over an existing file unless ``force``."""
    from carpet.formats import write_log

    try:
        with writing(f"{path} was written"):
            write_log(path, log, overwrite=force)
    except CarpetError as exc:
        raise fail(path, exc) from None


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
def seconds(most: float):
    """A Typer option callback: a number of seconds from 0 to ``most`` (nan and inf refused)."""
    def check(value: float | None) -> float | None:
        if value is not None and not (math.isfinite(value) and 0 <= value <= most):
            raise typer.BadParameter(f"{value} is not a number of seconds from 0 to {most:g}")
        return value
    return check


def deal_range(option: str, text: str) -> range:
    """``A-B`` (or a single ``N``) as the deal numbers A..B, both valid deals, A <= B."""
    first, dash, last = text.strip().partition("-")
    try:
        low = parse_deal(first).number if first.strip() else None
        high = parse_deal(last).number if dash else low
    except CarpetError as exc:
        raise Failure(f"carpet: {option} {text}: {exc}", UNUSABLE) from None
    if low is None or high is None or low > high:
        raise Failure(f"carpet: {option} {text}: use a range of deal numbers like 1-1000", UNUSABLE)
    return range(low, high + 1)
