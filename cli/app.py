"""The ``carpet`` command: deal, play, record, replay and verify games of the Carpet family.

This layer parses arguments, reads the clock, calls the engine and the log
format, and draws.  It holds no rules.  Every error is one line on stderr and
an exit code: 0 ok, 1 illegal action or failed verification, 2 bad usage or an
unusable file.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Annotated, Callable, Optional

import msgspec
import typer
from typer.core import TyperGroup

from carpet.core import GAMES, HINT, CarpetError, IllegalAction, Session, get_game, parse_deal, __version__
from carpet.formats import (LogError, locked, new_header, position_document, read_log, record, replay,
                            verify, write_log)
from carpet.formats.files import wants_json

from . import clock

OK, FAILED, UNUSABLE = 0, 1, 2
TOOL = f"carpet {__version__}"


class CarpetGroup(TyperGroup):
    """Turns every failure into one line and an exit code, for the shell and for tests alike."""

    def main(self, args=None, prog_name=None, complete_var=None, standalone_mode=True, **extra):
        try:
            code = super().main(args=args, prog_name=prog_name or "carpet", complete_var=complete_var,
                                standalone_mode=False, **extra)
        except (typer.Abort, KeyboardInterrupt):
            _error("carpet: interrupted")
            code = 130
        except BrokenPipeError:
            code = OK
        except CarpetError as exc:
            _error(f"carpet: {exc}")
            code = UNUSABLE
        except Exception as exc:
            code = _report_unexpected(exc)
        if not standalone_mode:
            return code
        sys.exit(code if isinstance(code, int) else OK)


def _report_unexpected(exc: Exception) -> int:
    # click's usage errors (typer's own copy of click, or click itself) carry these two
    if hasattr(exc, "format_message") and hasattr(exc, "exit_code"):
        if type(exc).__name__ == "NoArgsIsHelpError":
            print(exc.format_message())
            return UNUSABLE
        ctx = getattr(exc, "ctx", None)
        where = ctx.command_path if ctx is not None else "carpet"
        _error(f"{where}: {exc.format_message()} (see {where} --help)")
        return exc.exit_code
    if os.environ.get("CARPET_DEBUG"):  # a bug: still one line, never a traceback
        raise exc
    _error(f"carpet: internal error: {type(exc).__name__}: {exc}")
    return 3


app = typer.Typer(cls=CarpetGroup, no_args_is_help=True, add_completion=False,
                  context_settings={"help_option_names": ["-h", "--help"]},
                  help="Deal, play, record, replay and verify Carpet, Коврик and Crazy Quilt games.\n\n"
                       "Deal numbers follow PySolFC: a deal here is the same deal there.")

JsonFlag = Annotated[bool, typer.Option("--json", help="Print one JSON document on stdout.")]
LogFile = Annotated[Path, typer.Argument(help="A game log (binary, or JSON when it ends in .json).",
                                         show_default=False)]
GameId = Annotated[str, typer.Argument(help="A game id: see `carpet games`.", show_default=False)]


# --- output ----------------------------------------------------------------------------
def _error(line: str) -> None:
    print(line, file=sys.stderr)


def _say(text: str) -> None:
    """A note for people (not the command's result): on stderr, so stdout stays clean for scripts."""
    print(text, file=sys.stderr)


def _json(doc) -> None:
    sys.stdout.write(msgspec.json.encode(doc).decode() + "\n")


def _console():
    from rich.console import Console
    return Console(highlight=False)


def _draw(session: Session, caption: str | None = None) -> None:
    from .draw import position
    _console().print(position(session, caption))


def _report(session: Session, as_json: bool, **extra) -> None:
    """The position: as INTERFACE.md's JSON object, or drawn."""
    if as_json:
        _json(position_document(session, **extra))
    else:
        _draw(session)


class Failure(Exception):
    """A command's failure already described: message line and exit code."""

    def __init__(self, line: str, code: int) -> None:
        super().__init__(line)
        self.code = code


def _fail(path: Path | str, exc: CarpetError) -> Failure:
    """Exit 1 for an illegal action or a log that fails verification; 2 for anything unusable."""
    failed = isinstance(exc, IllegalAction) or (isinstance(exc, LogError) and not exc.unreadable)
    return Failure(f"carpet: {path}: {exc}", FAILED if failed else UNUSABLE)


def _guard(run: Callable[[], int | None]) -> None:
    """Run a command body; a Failure becomes its line and exit code."""
    try:
        code = run()
    except Failure as exc:
        _error(str(exc))
        raise typer.Exit(exc.code) from None
    if code:
        raise typer.Exit(code)


def _load(path: Path) -> tuple:
    """Read and fully verify a log: a log that does not verify is never played on."""
    try:
        log = read_log(path)
        return log, verify(log)
    except CarpetError as exc:
        raise _fail(path, exc) from None


def _parse_game_and_deal(game: str, number: str | None):
    try:
        variant = get_game(game)
        deal = parse_deal(number) if number is not None else None
    except CarpetError as exc:
        raise Failure(f"carpet: {exc}", UNUSABLE) from None
    return variant, deal


# --- commands --------------------------------------------------------------------------
@app.command()
def games(as_json: JsonFlag = False) -> None:
    """List the variants: id, family, source, one-line rule."""
    rows = [{"id": v.id, "family": v.family, "source": v.source, "summary": v.summary,
             "redeals": v.redeals} for v in GAMES.values()]
    if as_json:
        _json({"games": rows})
        return
    width = max(len(r["id"]) for r in rows)
    for r in rows:
        print(f"{r['id']:<{width}}  {r['family']:<6}  {r['source']:<9}  {r['summary']}")


@app.command()
def rules(game: GameId, as_json: JsonFlag = False) -> None:
    """The variant's rules in our own words, with every decision made where the sources are silent."""
    def run():
        variant, _ = _parse_game_and_deal(game, None)
        if as_json:
            _json({"game": variant.id, "family": variant.family, "source": variant.source,
                   "summary": variant.summary, "rules": variant.rules})
        else:
            print(f"{variant.id} — {variant.summary}\n")
            print(variant.rules.rstrip())
    _guard(run)


@app.command()
def deal(game: GameId,
         number: Annotated[str, typer.Argument(help="Deal number: N or msN, as in PySolFC.", show_default=False)],
         as_json: JsonFlag = False) -> None:
    """Show the starting layout of a deal."""
    def run():
        variant, deal_ = _parse_game_and_deal(game, number)
        _report(Session(variant, deal_), as_json)
    _guard(run)


@app.command()
def new(game: GameId,
        number: Annotated[Optional[str], typer.Argument(help="Deal number (a fresh one when left out).",
                                                        show_default=False)] = None,
        output: Annotated[Path, typer.Option("-o", "--output", help="The log file to create.",
                                             show_default=False)] = ...,
        force: Annotated[bool, typer.Option("--force", help="Overwrite an existing file.")] = False,
        as_json: JsonFlag = False) -> None:
    """Start a recorded game; its log is the file given with -o."""
    def run():
        variant, deal_ = _parse_game_and_deal(game, number if number is not None else clock.fresh_deal_number())
        session = Session(variant, deal_)
        log = record(session, new_header(session, created=clock.now_iso(), tool=TOOL))
        try:
            write_log(output, log, overwrite=force)
        except CarpetError as exc:
            raise _fail(output, exc) from None
        note = f"new {variant.id} game, deal {deal_.both_forms}, log {output}"
        if as_json:
            _say(note)
        else:
            print(note)
        _report(session, as_json, file=str(output))
    _guard(run)


@app.command()
def show(file: LogFile,
         at: Annotated[Optional[int], typer.Option("--at", min=0, help="The position after event N (0 = the deal).")] = None,
         as_json: JsonFlag = False) -> None:
    """The position now (or after event N): score, moves, redeals left, clock, status."""
    def run():
        log, session = _load(file)
        if at is not None:
            if at > len(log.events):
                raise Failure(f"carpet: {file}: --at {at}: the log has only {len(log.events)} events", UNUSABLE)
            session = replay(log, at)
        _report(session, as_json)
    _guard(run)


@app.command()
def moves(file: LogFile, as_json: JsonFlag = False) -> None:
    """Every legal action now, in canonical notation."""
    def run():
        _, session = _load(file)
        texts = [session.variant.text(a) for a in session.legal_actions()]
        if as_json:
            _json({"actions": texts, "undo": session.can_undo(), "status": session.status})
        elif texts:
            print(" ".join(texts))
        else:
            _say(f"no legal action: the game is {session.status}" +
                 (" (undo or restart)" if session.can_undo() else " (restart)"))
    _guard(run)


def _play(file: Path, actions: list[str], as_json: bool, quiet: bool = False) -> int:
    """Apply actions in order under the file lock; keep all before the first illegal one."""
    try:
        with locked(file):
            session, applied, hints, code, message = _apply(file, actions)
    except LogError as exc:  # locking or writing failed: the log on disk is as it was
        raise _fail(file, exc) from None
    if message:
        _error(message)
    hint_texts = [None if h is None else session.variant.text(h) for h in hints]
    if as_json:
        extra = {"hint": hint_texts[-1]} if hints else {}
        _json(position_document(session, applied=applied, **extra))
    else:
        for h in hint_texts:
            print(f"hint: {h}" if h else f"hint: nothing to play (the game is {session.status})")
        if not quiet:
            _draw(session)
    return code


def _apply(file: Path, actions: list[str]):
    log, session = _load(file)
    started = clock.created_ms(log.header.created)
    applied, hints, code, message = 0, [], OK, None
    for text in actions:
        number = len(session.events) + 1
        try:
            action = session.play_text(text, clock.attempt_ms(session, started))
        except CarpetError as exc:
            code = FAILED if isinstance(exc, IllegalAction) else UNUSABLE
            message = f"carpet: {file}: event {number} ({text}): {exc}; nothing after it was applied"
            break
        applied += 1
        if action == HINT:
            hints.append(session.hint())
    if applied:
        write_log(file, record(session, log.header))
    return session, applied, hints, code, message


def _read_actions(actions: list[str]) -> list[str]:
    if actions == ["-"]:
        return sys.stdin.read().split()
    return actions


Quiet = Annotated[bool, typer.Option("-q", "--quiet", help="Do not draw the position afterwards.")]


@app.command()
def play(file: LogFile,
         actions: Annotated[list[str], typer.Argument(help="Actions in order; `-` reads them from stdin.",
                                                      show_default=False)],
         as_json: JsonFlag = False, quiet: Quiet = False) -> None:
    """Apply actions in order; stop at the first illegal one, keeping all before it."""
    _guard(lambda: _play(file, _read_actions(actions), as_json, quiet))


def _meta(word: str, doc: str):
    def command(file: LogFile, as_json: JsonFlag = False, quiet: Quiet = False) -> None:
        _guard(lambda: _play(file, [word], as_json, quiet))
    command.__doc__ = doc
    command.__name__ = word
    app.command(name=word)(command)


_meta("hint", "Name one legal action (recorded; in kovrik and kovrik-hard a hint counts as a move).")
_meta("undo", "Take back the last action that changed the position (recorded).")
_meta("redeal", "Redeal or shuffle the loose cards, where the game has redeals (recorded).")
_meta("restart", "Play the same deal again from the start (recorded; the new attempt is the one that counts).")


@app.command("replay")
def replay_(file: LogFile,
            to: Annotated[Optional[int], typer.Option("--to", min=0, help="Stop after event N.")] = None,
            delay: Annotated[float, typer.Option("--delay", min=0.0, help="Seconds between positions.")] = 0.0,
            as_json: JsonFlag = False) -> None:
    """Re-enact the recorded game position by position."""
    def run():
        import time

        log, _ = _load(file)
        last = len(log.events) if to is None else min(to, len(log.events))
        session = Session(get_game(log.header.game), parse_deal(log.header.deal))
        text = session.variant.text
        frames = []
        console = None if as_json else _console()
        animate = console is not None and delay > 0 and console.is_terminal
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
                console.clear()
            console.print(position(session, "the deal" if i == 0 else f"event {i}: {action}"))
            if delay and i < last:
                time.sleep(delay)
        if as_json:
            _json({"file": str(file), "frames": frames})
    _guard(run)


@app.command("verify")
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
            failure = _fail(path, exc)
            entry["error"] = str(exc)
            code = max(code, failure.code)
            if not as_json:
                _error(f"FAIL {path}: {exc}")
        else:
            if not as_json:
                print(f"ok   {path}: {session.variant.id} {session.deal.text}, {entry['events']} events, "
                      f"{session.status}, score {session.score}, {session.moves} moves")
        results.append(entry)
    if as_json:
        _json({"results": results})
    if code:
        raise typer.Exit(code)


@app.command()
def export(file: LogFile,
           output: Annotated[Path, typer.Option("-o", "--output", help="Target: .json for JSON, else binary.",
                                                show_default=False)] = ...,
           force: Annotated[bool, typer.Option("--force", help="Overwrite an existing file.")] = False,
           as_json: JsonFlag = False) -> None:
    """Convert a log between its binary and JSON forms (chosen by the output's extension)."""
    def run():
        log, _ = _load(file)
        try:
            write_log(output, log, overwrite=force)
        except CarpetError as exc:
            raise _fail(output, exc) from None
        form = "json" if wants_json(output) else "msgpack"
        if as_json:
            _json({"file": str(file), "output": str(output), "form": form, "events": len(log.events),
                   "bytes": output.stat().st_size})
        else:
            _say(f"wrote {output} ({form}, {len(log.events)} events, {output.stat().st_size} bytes)")
    _guard(run)


@app.command()
def autoplay(game: GameId,
             number: Annotated[Optional[str], typer.Argument(help="Deal number (a fresh one when left out).",
                                                             show_default=False)] = None,
             output: Annotated[Optional[Path], typer.Option("-o", "--output", help="Record the game in this log.",
                                                            show_default=False)] = None,
             deals: Annotated[Optional[str], typer.Option("--deals", help="Play a range of deals, e.g. 1-1000, "
                                                          "and report the win rate.", show_default=False)] = None,
             limit: Annotated[int, typer.Option("--limit", min=1, help="Stop after this many actions.")] = 5000,
             force: Annotated[bool, typer.Option("--force", help="Overwrite an existing file.")] = False,
             as_json: JsonFlag = False) -> None:
    """Let the built-in simple player play a deal (recorded like any game) or a range of deals."""
    from carpet.core.autoplay import play_out

    def run():
        if deals is not None:
            variant, _ = _parse_game_and_deal(game, None)
            try:
                first, _, last = deals.partition("-")
                numbers = range(int(first), int(last or first) + 1)
            except ValueError:
                raise Failure(f"carpet: --deals {deals!r}: use a range like 1-1000", UNUSABLE) from None
            won = 0
            for n in numbers:
                session = Session(variant, parse_deal(str(n)))
                play_out(session, limit)
                won += session.status == "won"
            doc = {"game": variant.id, "deals": len(numbers), "won": won,
                   "win_rate": round(won / max(1, len(numbers)), 4)}
            if as_json:
                _json(doc)
            else:
                print(f"{variant.id}: won {won} of {len(numbers)} deals ({100 * doc['win_rate']:.1f}%)")
            return
        variant, deal_ = _parse_game_and_deal(game, number if number is not None else clock.fresh_deal_number())
        session = Session(variant, deal_)
        created = clock.now_iso()
        started = clock.created_ms(created)
        taken = play_out(session, limit, lambda: clock.attempt_ms(session, started))
        if session.status == "playing":
            why = "its action limit" if taken >= limit else "a position it had seen (it would go round in circles)"
            _say(f"the built-in player stopped at {why}; the game goes on")
        if output is not None:
            log = record(session, new_header(session, created=created, tool=TOOL))
            try:
                write_log(output, log, overwrite=force)
            except CarpetError as exc:
                raise _fail(output, exc) from None
        _report(session, as_json, **({"file": str(output)} if output else {}))
    _guard(run)


@app.command()
def bench(events: Annotated[int, typer.Option("--events", min=1000, help="Events to verify per game id.")] = 100_000,
          as_json: JsonFlag = False) -> None:
    """Measure: events verified per second, bytes per event of the log, start-up time of a command."""
    from .bench import run_bench
    run_bench(events, as_json)


def _version(value: bool) -> None:
    if value:
        print(TOOL)
        raise typer.Exit()


@app.callback()
def _root(version: Annotated[bool, typer.Option("--version", callback=_version, is_eager=True,
                                                help="Print the version and exit.")] = False) -> None:
    pass


def main() -> None:
    app()
