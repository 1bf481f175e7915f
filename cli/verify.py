"""``carpet verify``, ``carpet export`` and ``carpet import``: checking a recorded game, and converting its form."""

import sys
from pathlib import Path
from typing import Annotated, Optional

import typer

from carpet.core import CarpetError, Deal
from carpet.core.session import deal_state
from carpet.formats.documents import Export, Verify, VerifyResult
from carpet.formats.log_types import VERSION, LogError
from carpet.formats.report import attempt_results

from .common import TOOL, Failure, attempts_words, Force, JsonFlag, LogFile, error, fail, guard, load, print_json, say, settle, write_file
from .exits import OK, UNUSABLE
from .outcome import shown


def verify_(files: Annotated[list[Path], typer.Argument(help="Recorded games to check, in any form; - reads one "
                                                             "from stdin.", show_default=False)],
            as_json: JsonFlag = False) -> None:
    """Re-play each log from its deal number, checking every action and the recorded summary."""
    results, code = [], OK
    for path in files:
        verdict, log, session = judge_file(path)
        if not verdict.ok:
            code = max(code, verdict.code)
            settle(code)
            if not as_json:
                error(f"FAIL {path}: {verdict.error}")
            results.append(VerifyResult(file=str(path), ok=False, error=verdict.error, events=None, status=None,
                                        score=None))
            continue
        entry = VerifyResult(file=str(path), ok=True, error=None, events=len(log.events), status=session.status,
                             score=session.score, game=session.variant.id, deal=session.deal.text,
                             version=log.header.version, sealed=log.sealed, attempts=attempt_results(session))
        if not as_json:
            unsealed = "" if log.sealed else "; unsealed, written by hand (`carpet import` seals it)"
            attempts = attempts_words(session)
            print(f"ok   {shown(path)}: {session.variant.id} {_deal_words(session.deal)}, {entry.events} events, "
                  f"{session.status}, score {session.score}, {session.moves} moves{unsealed}"
                  f"{'; ' * bool(attempts)}{attempts}")
        results.append(entry)
    if as_json:
        print_json(Verify(results=results))
    if code:
        raise typer.Exit(code)


def judge_file(path: Path):
    """(verdict, log, session) of the game in the file, or on stdin for ``-`` (formats/verdict.py,
    ``judge``); a file that cannot be read is judged unreadable."""
    from carpet.formats.files import read_bytes
    from carpet.formats.verdict import judge, refused

    try:
        data = _stdin_bytes() if str(path) == "-" else read_bytes(path)
    except CarpetError as exc:
        return refused(exc), None, None
    return judge(data)


def _stdin_bytes() -> bytes:
    """All of stdin, up to the bound of a log (formats/files.py); LogError beyond it."""
    from carpet.formats.files import MAX_LOG_BYTES

    stream = sys.stdin.buffer if sys.stdin is not None else None
    if stream is None:
        raise LogError("no stdin to read", unreadable=True)
    try:
        data = stream.read(MAX_LOG_BYTES + 1)
    except OSError as exc:
        raise LogError(f"cannot read stdin: {exc.strerror or exc}", unreadable=True) from None
    if len(data) > MAX_LOG_BYTES:
        raise LogError("stdin too large to be a carpet log", unreadable=True)
    return data


Output = Annotated[Path, typer.Option("-o", "--output", help="Target: *.carpet (or *.log) binary, *.json JSON, *.txt "
                                                             "the text form, *.html a page that replays the game; "
                                                             "- for stdout (the text form unless --form says).",
                                      show_default=False)]
Form = Annotated[Optional[str], typer.Option("--form", help="binary, json, text or html, whatever the target's name "
                                                            "(needed for - or a name of no known kind).",
                                             show_default=False, autocompletion=lambda: list(FORMS))]
Version = Annotated[Optional[int], typer.Option("--version", min=1, max=VERSION,
                                                help=f"The format version of a binary or JSON target "
                                                     f"\\[default: {VERSION}, the current one; 1 for readers "
                                                     f"before it]. A text target keeps the log's own version "
                                                     f"unless given.", show_default=False)]

#: the form a target's name asks for (docs/format.md, "File names"); any other name needs --form
_BY_NAME = ((".carpet", "binary"), (".log", "binary"), (".json", "json"), (".txt", "text"), (".html", "html"),
            (".htm", "html"))
FORMS = ("binary", "json", "text", "html")


def _target_form(output: Path, form: Optional[str]) -> str:
    if form is not None:
        if form.lower() not in FORMS:
            raise Failure(f"carpet: --form {form[:40]!r}: one of {', '.join(FORMS)}", UNUSABLE)
        return form.lower()
    if str(output) == "-":
        return "text"  # stdout: the form people read, as --svg - is a picture
    name = output.name.lower()
    found = next((kind for suffix, kind in _BY_NAME if name.endswith(suffix)), None)
    if found is None:
        raise Failure(f"carpet: {shown(output.name)}: cannot tell the form from the name; name it *.carpet, "
                      f"*.carpet.json, *.carpet.txt or *.html, or give --form", UNUSABLE)
    return found


def _in_version(log, session, version: int):
    """The log as version ``version`` writes it: the same events and summary, its digests made afresh."""
    if version == log.header.version:
        return log
    import msgspec

    from carpet.formats import record
    from carpet.formats.log_types import digest_text

    summary = log.summary
    if version == 1 and (summary.clock_jumps or summary.clock_skipped_ms):
        raise Failure(f"carpet: version 1 holds no clock jumps, and this log records {summary.clock_jumps}: "
                      f"write it in version {VERSION}", UNUSABLE)
    fresh = deal_state(session.variant, session.deal)
    header = msgspec.structs.replace(log.header, version=version, layout=digest_text(fresh, version))
    return record(session, header, clock_jumps=summary.clock_jumps, clock_skipped_ms=summary.clock_skipped_ms)


def _convert(file: Path, output: Path, force: bool, as_json: bool, form: Optional[str] = None,
             version: Optional[int] = None) -> None:
    from carpet.formats import to_bytes
    from carpet.formats.files import check_target

    to_stdout = str(output) == "-"
    if to_stdout and as_json:
        raise Failure("carpet: -o - writes the game to stdout; --json would mix a document into it", UNUSABLE)
    if not to_stdout:
        try:
            check_target(output, overwrite=force)  # refused before the work: exists, a pipe, a directory...
        except CarpetError as exc:
            raise fail(output, exc) from None
    log, session = load(file)
    kind = _target_form(output, form)
    if kind == "html":
        from carpet.formats.html import replay_page

        try:
            data = replay_page(log, verified_by=TOOL)
        except CarpetError as exc:
            raise fail(output, exc) from None
    else:
        wanted = version or (log.header.version if kind == "text" else VERSION)
        log = _in_version(log, session, wanted)
        try:
            data = to_bytes(log, form=kind)
        except CarpetError as exc:
            raise fail(output, exc) from None
    if to_stdout:
        sys.stdout.flush()
        sys.stdout.buffer.write(data)
        sys.stdout.flush()
    else:
        write_file(output, data, force)
    where = "stdout" if to_stdout else str(output)
    if as_json:
        print_json(Export(file=str(file), output=where, form=kind, version=log.header.version,
                          events=len(log.events), bytes=len(data)))
    else:
        say(f"wrote {where} ({kind}, version {log.header.version}, {len(log.events)} events, {len(data)} bytes)")


def export(file: LogFile, output: Output = ..., force: Force = False, form: Form = None, version: Version = None,
           as_json: JsonFlag = False) -> None:
    """Convert a recorded game to another form: binary, JSON or text, or a web page that replays it, by the
    output's name (or --form); binary and JSON in the current format version unless --version says."""
    guard(lambda: _convert(file, output, force, as_json, form, version))


def import_(file: Annotated[Path, typer.Argument(help="A recorded game in the text form (or any form).",
                                                 show_default=False)],
            output: Output = ..., force: Force = False, form: Form = None, version: Version = None,
            as_json: JsonFlag = False) -> None:
    """Another name for export, kept for the scripts that use it: a recorded game in the text form back to
    a binary (or JSON) file, in the current format version unless --version says; a game written by hand
    (no Digest tag) is sealed."""
    guard(lambda: _convert(file, output, force, as_json, form, version))


def _deal_words(deal) -> str:
    """``ms1`` for a deal number; ``from a position`` for a game started from one (its text is long)."""
    return deal.text if type(deal) is Deal else deal.both_forms
