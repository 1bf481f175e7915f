"""``carpet verify`` and ``carpet export``: checking a recorded game, and converting its form."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from carpet.core import CarpetError
from carpet.formats import read_log, verify
from carpet.formats.files import wants_json

from .common import OK, Force, JsonFlag, LogFile, error, fail, guard, load, print_json, say, settle, write_new


def verify_(files: Annotated[list[Path], typer.Argument(help="Logs to check.", show_default=False)],
            as_json: JsonFlag = False) -> None:
    """Re-play each log from its deal number, checking every action and the recorded summary."""
    results, code = [], OK
    for path in files:
        entry = {"file": str(path), "ok": False, "error": None, "events": None, "status": None, "score": None}
        try:
            log = read_log(path)
            entry["events"] = len(log.events)
            session = verify(log)
            entry.update(ok=True, status=session.status, score=session.score,
                         game=session.variant.id, deal=session.deal.text)
        except CarpetError as exc:
            failure = fail(path, exc)
            entry["error"] = str(exc)
            code = max(code, failure.code)
            settle(code)
            if not as_json:
                error(f"FAIL {path}: {exc}")
        else:
            if not as_json:
                print(f"ok   {path}: {session.variant.id} {session.deal.text}, {entry['events']} events, "
                      f"{session.status}, score {session.score}, {session.moves} moves")
        results.append(entry)
    if as_json:
        print_json({"results": results})
    if code:
        raise typer.Exit(code)


def export(file: LogFile,
           output: Annotated[Path, typer.Option("-o", "--output", help="Target: .json for JSON, else binary.",
                                                show_default=False)] = ...,
           force: Force = False,
           as_json: JsonFlag = False) -> None:
    """Convert a log between its binary and JSON forms (chosen by the output's extension)."""
    def run():
        log, _ = load(file)
        write_new(output, log, force)
        form = "json" if wants_json(output) else "msgpack"
        if as_json:
            print_json({"file": str(file), "output": str(output), "form": form, "events": len(log.events),
                        "bytes": output.stat().st_size})
        else:
            say(f"wrote {output} ({form}, {len(log.events)} events, {output.stat().st_size} bytes)")
    guard(run)
