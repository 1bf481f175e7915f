"""``carpet verify``, ``carpet export`` and ``carpet import``: checking a recorded game, and converting its form."""

from pathlib import Path
from typing import Annotated

import typer

from carpet.core import CarpetError
from carpet.formats.documents import Export, Verify, VerifyResult

from .common import (OK, TOOL, Force, JsonFlag, LogFile, error, fail, form_of, guard, load, print_json, say, settle,
                     write_new)
from .outcome import shown


def verify_(files: Annotated[list[Path], typer.Argument(help="Recorded games to check, in any form.",
                                                        show_default=False)],
            as_json: JsonFlag = False) -> None:
    """Re-play each log from its deal number, checking every action and the recorded summary."""
    from carpet.formats import check
    from carpet.formats.files import read_bytes

    results, code = [], OK
    for path in files:
        entry = VerifyResult(file=str(path), ok=False, error=None, events=None, status=None, score=None)
        try:
            log, session = check(read_bytes(path))
        except CarpetError as exc:
            failure = fail(path, exc)
            entry.error = str(exc)
            code = max(code, failure.code)
            settle(code)
            if not as_json:
                error(f"FAIL {path}: {exc}")
        else:
            entry = VerifyResult(file=str(path), ok=True, error=None, events=len(log.events), status=session.status,
                                 score=session.score, game=session.variant.id, deal=session.deal.text,
                                 version=log.header.version)
            if not as_json:
                unsealed = "" if log.sealed else "; unsealed, written by hand (`carpet import` seals it)"
                print(f"ok   {shown(path)}: {session.variant.id} {session.deal.text}, {entry.events} events, "
                      f"{session.status}, score {session.score}, {session.moves} moves{unsealed}")
        results.append(entry)
    if as_json:
        print_json(Verify(results=results))
    if code:
        raise typer.Exit(code)


Output = Annotated[Path, typer.Option("-o", "--output", help="Target: *.carpet binary, *.json JSON, *.txt the text "
                                                             "form, *.html a page that replays the game.",
                                      show_default=False)]


def _convert(file: Path, output: Path, force: bool, as_json: bool) -> None:
    log, _ = load(file)
    if output.suffix.lower() in (".html", ".htm"):
        form = "html"
        _write_page(output, log, force)
    else:
        write_new(output, log, force)
        form = form_of(output)
    size = output.stat().st_size
    if as_json:
        print_json(Export(file=str(file), output=str(output), form=form, version=log.header.version,
                          events=len(log.events), bytes=size))
    else:
        say(f"wrote {output} ({form}, version {log.header.version}, {len(log.events)} events, {size} bytes)")


def export(file: LogFile, output: Output = ..., force: Force = False, as_json: JsonFlag = False) -> None:
    """Convert a recorded game to another form: binary, JSON or text, or a web page that replays it, by the
    output's name."""
    guard(lambda: _convert(file, output, force, as_json))


def import_(file: Annotated[Path, typer.Argument(help="A recorded game in the text form (or any form).",
                                                 show_default=False)],
            output: Output = ..., force: Force = False, as_json: JsonFlag = False) -> None:
    """Read a recorded game in the text form back to the binary (or JSON) file it came from."""
    guard(lambda: _convert(file, output, force, as_json))


def _write_page(output: Path, log, force: bool) -> None:
    """The replay page (formats/html.py) of a log that has just verified."""
    from carpet.formats.files import write_atomic
    from carpet.formats.html import replay_page

    try:
        write_atomic(output, replay_page(log, verified_by=TOOL), overwrite=force)
    except CarpetError as exc:
        raise fail(output, exc) from None
