"""The ``carpet`` command: deal, play, record, replay and verify games of the Carpet family.

This layer parses arguments, reads the clock, calls the engine and the log
format, and draws.  It holds no rules.  Every error is one line on stderr and
an exit code (cli/exits.py: 0 ok, 1 illegal action or failed verification, 2 bad usage or an
unusable file, 3 a bug in carpet (the line asks for a report), 130 interrupted
(the line says what was recorded)).  A closed stdout ends a run quietly with the
code it had earned.

Each command lives in its own module and is imported only when it runs (a
command's start-up pays for itself alone): :data:`COMMANDS` names them in the
order ``carpet --help`` lists them.  Command modules leave out ``from __future__ import
annotations``: Typer would otherwise evaluate every parameter's annotation string each time a
command is built, about half of that time.
"""

import codecs
import contextlib
import os
import sys
from importlib import import_module
from typing import Annotated

import typer
from typer.core import TyperGroup

from . import outcome
from .exits import BUG, INTERRUPTED, OK, UNUSABLE
from .start import collect_from_here

#: command name -> "module:function" in this package, in the order --help shows them
COMMANDS = {
    "games": "info:games",
    "rules": "info:rules",
    "deal": "deal:deal",
    "new": "deal:new",
    "show": "show:show",
    "moves": "show:moves",
    "play": "play:play",
    "hint": "play:hint",
    "undo": "play:undo",
    "redeal": "play:redeal",
    "restart": "play:restart",
    "replay": "show:replay_",
    "verify": "verify:verify_",
    "export": "verify:export",
    "import": "verify:import_",
    "solve": "solve:solve",
    "survey": "survey:survey",
    "stats": "stats:stats",
    "autoplay": "autoplay:autoplay",
    "bench": "bench:bench",
    "serve": "serve:serve",
}
#: commands left out of ``carpet --help``'s list (they still run): bench is a developer's tool, run from a checkout
HIDDEN = {"bench"}
#: each command's examples, shown at the end of its --help (survey's are in its own text); run in this
#: order in one empty folder they all succeed (tests/test_help.py), but the screen, which needs a terminal
EXAMPLES = {
    "games": ["carpet games", "carpet games --json"],
    "rules": ["carpet rules kovrik"],
    "deal": ["carpet deal kovrik 5", "carpet deal carpet 1 --position"],
    "new": ["carpet new carpet 7   (records carpet-ms7.carpet here)", "carpet new kovrik -o mine.carpet"],
    "show": ["carpet show carpet-ms7.carpet", "carpet show carpet-ms7.carpet --position"],
    "moves": ["carpet moves carpet-ms7.carpet"],
    "play": ["carpet play carpet-ms7.carpet   (the screen, on a terminal)", "carpet play carpet-ms7.carpet 'b5>F' turn turn"],
    "hint": ["carpet hint carpet-ms7.carpet", "carpet hint --position 'carpet JD2D9HJC5D/7H7C5HKDKC/9S5SQCKH3H/"
             "2SKS9DQDJS f:ACASAHAD s:28? w:-'"],
    "undo": ["carpet undo carpet-ms7.carpet", "carpet undo carpet-ms7.carpet -n 2"],
    "redeal": ["carpet redeal mine.carpet"],
    "restart": ["carpet restart carpet-ms7.carpet"],
    "replay": ["carpet replay carpet-ms7.carpet --delay 0.5"],
    "verify": ["carpet verify *.carpet", "carpet verify carpet-ms7.carpet --json"],
    "export": ["carpet export carpet-ms7.carpet -o carpet-ms7.carpet.txt", "carpet export carpet-ms7.carpet -o game.html"],
    "import": ["carpet import carpet-ms7.carpet.txt -o copy.carpet"],
    "solve": ["carpet solve carpet 7", "carpet solve carpet-ms7.carpet --seen"],
    "stats": ["carpet stats .", "carpet stats ~/games --game kovrik   (every game under a folder)"],
    "autoplay": ["carpet autoplay kovrik 5 -o kovrik-5.carpet", "carpet autoplay carpet --deals 1-1000"],
    "serve": ["carpet serve   (the referee on 127.0.0.1:8000, games kept in carpet-games.db here)",
              "carpet serve --port 9000 --db postgresql://me@dbhost/games"],
    "bench": ["carpet bench --games 5   (from a checkout: it runs benchmarks/bench.py)"],
}
#: more lines at the end of a command's --help
NOTES = {
    "verify": "Exit codes: 0 every file verifies; 1 a file fails verification (an illegal action, a summary "
              "that is not what the replay gives); 2 a file that cannot be read as a recorded game (2 wins "
              "over 1).",
    "import": "import does what export does: either reads any form and writes the form the output's name says.",
}


class CarpetGroup(TyperGroup):
    """Loads each command when it is asked for, and turns every failure into one line and an exit code."""

    def list_commands(self, ctx) -> list[str]:
        return list(COMMANDS)

    def get_command(self, ctx, name: str):
        target = COMMANDS.get(name)
        if target is None:
            return None
        module_name, function = target.split(":")
        try:
            module = import_module(f".{module_name}", __package__)
        except KeyboardInterrupt:  # (click would print an empty line first)
            raise _Interrupted() from None
        single = typer.Typer(add_completion=False, context_settings=CONTEXT)
        single.command(name=name, epilog=_epilog(name), hidden=name in HIDDEN)(getattr(module, function))
        command = _labelled(typer.main.get_command(single))
        command.callback = _collecting(command.callback)
        return command

    def make_context(self, *args, **kwargs):
        try:
            return super().make_context(*args, **kwargs)
        except KeyboardInterrupt:  # while the arguments were read: one line, not click's empty one first
            raise _Interrupted() from None

    def invoke(self, ctx):
        # typer would turn these into a silent exit 130 and an exit 1: say what they mean instead
        try:
            return super().invoke(ctx)
        except KeyboardInterrupt:
            raise _Interrupted() from None
        except BrokenPipeError:
            raise _ClosedOutput() from None
        except SystemExit as exc:  # rich's answer to a closed stdout
            if isinstance(exc.__context__, BrokenPipeError):
                raise _ClosedOutput() from None
            if isinstance(exc.__context__, _OutputFailed):
                raise exc.__context__ from None
            raise

    def main(self, args=None, prog_name=None, complete_var=None, standalone_mode=True, **extra):
        from carpet.core import CarpetError

        outcome.begin()
        _tolerant_stdout()
        args = sys.argv[1:] if args is None else [str(a) for a in args]
        stdout = sys.stdout
        if stdout is not None:
            sys.stdout = _Guarded(stdout)
        try:
            if any("\x00" in a for a in args):  # only a caller in Python can pass one; the OS refuses it in a path
                raise CarpetError("an argument holds a NUL character, which no file name or action can contain")
            code = super().main(args=args, prog_name=prog_name or "carpet", complete_var=complete_var,
                                standalone_mode=False, **extra)
            if code == INTERRUPTED:  # Ctrl-C while the arguments were read
                raise _Interrupted()
            _flush_stdout()
        except (_Interrupted, typer.Abort, KeyboardInterrupt):
            _error(f"carpet: interrupted; {outcome.current.recorded}")
            code = INTERRUPTED
        except (_ClosedOutput, BrokenPipeError):
            _quiet_stdout()
            code = outcome.current.code
        except _OutputFailed as exc:  # a full disk, an I/O error: what was recorded stays, and is said
            _quiet_stdout()
            _error(f"carpet: cannot write to stdout ({exc}); {outcome.current.recorded}")
            code = max(outcome.current.code, UNUSABLE)
        except SystemExit as exc:  # typer's answer to a closed stdout while it printed help
            if not isinstance(exc.__context__, BrokenPipeError):
                raise
            _quiet_stdout()
            code = outcome.current.code
        except CarpetError as exc:
            _error(f"carpet: {exc}")
            code = UNUSABLE
        except Exception as exc:
            code = _report_unexpected(exc)
        finally:
            if stdout is not None:
                sys.stdout = stdout
        if not standalone_mode:
            return code
        sys.exit(code if isinstance(code, int) else OK)


def _collecting(callback):
    """The command's body, the garbage collector on again from its first line (cli/start.py: start-up
    runs without it)."""
    def body(*args, **kwargs):
        collect_from_here()
        return callback(*args, **kwargs)
    return body


def _epilog(name: str) -> str | None:
    """The end of a command's --help: its examples, then its notes (one paragraph each)."""
    examples = EXAMPLES.get(name, [])
    lines = [f"{'Example' if len(examples) == 1 else 'Examples'}: " + ";  ".join(examples)] if examples else []
    return "\n\n".join(lines + ([NOTES[name]] if name in NOTES else [])) or None


#: the label of a value by its type, where a parameter names none (FILE, N): one style in every --help
_TYPE_LABELS = {"integer": "N", "int": "N", "int range": "N", "integer range": "N", "float": "X", "path": "FILE"}


def _labelled(command):
    """Every parameter labelled as click labels them, in capitals (``FILE``, ``GAME``, ``N``), and a
    required argument written bare in the usage line (``carpet show [OPTIONS] FILE``)."""
    import copy

    for param in command.params:
        if getattr(param, "is_flag", False) or getattr(param.type, "name", "") == "choice":
            continue
        argument = param.param_type_name == "argument"
        if param.metavar is None:
            label = _TYPE_LABELS.get(param.type.name) or (param.name or "").upper()
            if argument and param.name == "number":
                label = "N"
            param.metavar = label + ("..." if argument and param.nargs != 1 else "")
        if argument:
            param.make_metavar = _bare_metavar(param)
            param.type = copy.copy(param.type)  # its label is the metavar: no <str> or <path> beside it
            param.type.get_metavar = lambda *args, **kwargs: ""
    return command


def _bare_metavar(param):
    def make_metavar(ctx=None, *, usage: bool = False) -> str:
        label = param.metavar
        return f"[{label}]" if usage and not param.required and not label.startswith("[") else label
    return make_metavar


class _Interrupted(Exception):
    """Ctrl-C during a command."""


class _ClosedOutput(Exception):
    """Whoever read stdout has gone (``carpet show g | head -1``)."""


class _OutputFailed(Exception):
    """stdout refused a write for another reason than a closed pipe (a full disk: ``> /dev/full``)."""

    def __init__(self, exc: OSError) -> None:
        super().__init__(exc.strerror or str(exc))


class _Guarded:
    """stdout (or its buffer) as it is, but a failed write is told apart from every other OSError."""

    def __init__(self, stream) -> None:
        self._stream = stream

    def __getattr__(self, name: str):
        return getattr(self._stream, name)

    def __iter__(self):
        return iter(self._stream)

    @property
    def buffer(self):
        return _Guarded(self._stream.buffer)

    def _call(self, method, *args):
        try:
            return method(*args)
        except BrokenPipeError:
            raise
        except OSError as exc:
            raise _OutputFailed(exc) from None

    def write(self, data):
        return self._call(self._stream.write, data)

    def writelines(self, lines):
        return self._call(self._stream.writelines, lines)

    def flush(self):
        return self._call(self._stream.flush)


def _tolerant_stdout() -> None:
    """What stdout cannot encode is written escaped, never fatal: a file name's stray bytes go out as they
    came in (UTF-8), a card symbol on a Latin-1 terminal as ``\\u2666`` (which keeps JSON valid too)."""
    with contextlib.suppress(AttributeError, LookupError, OSError, TypeError, ValueError):
        if codecs.lookup(sys.stdout.encoding).name == "utf-8":
            sys.stdout.reconfigure(errors="surrogateescape")
        elif sys.stdout.errors == "strict":  # main() already spells what the terminal lacks in letters
            sys.stdout.reconfigure(errors="backslashreplace")


def _flush_stdout() -> None:
    """Flush now, so that a closed stdout is found here and not at exit; the run's code stands."""
    try:
        if sys.stdout is not None:
            sys.stdout.flush()
    except BrokenPipeError:
        _quiet_stdout()
    # (any other failure, _OutputFailed, is main's to say)


def _quiet_stdout() -> None:
    """Point stdout at the null device, so that what is left in its buffer goes nowhere, quietly."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    except (OSError, ValueError, AttributeError):  # not a real file (a test's runner)
        pass


def _error(line: str) -> None:
    if sys.stderr is None:  # started with stderr closed: the exit code says it
        return
    with contextlib.suppress(OSError, ValueError):  # stderr gone too (2>&1 | head), or full (2>/dev/full)
        print(outcome.one_line(line), file=sys.stderr)


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
    _error(f"carpet: internal error, a bug in carpet: {type(exc).__name__}: {exc} -- please report it, with the "
           f"command that caused it (CARPET_DEBUG=1 shows where it happened)")
    return BUG


CONTEXT = {"help_option_names": ["-h", "--help"]}

app = typer.Typer(cls=CarpetGroup, no_args_is_help=True, context_settings=CONTEXT,
                  help="Deal, play, record, replay, verify and solve Carpet, Коврик, Crazy Quilt and Montana games.\n\n"
                       "Deal numbers follow PySolFC: a deal here is the same deal there.")


def _version(value: bool) -> None:
    """The version of the code that runs, ``carpet.core.__version__``, where it is written once (the
    package's metadata takes it from there, pyproject.toml; reading the metadata instead would load
    importlib.metadata, more than ``carpet --version`` costs without it, and say an older number
    for a checkout changed since it was installed)."""
    if value:
        from carpet.core import __version__

        print(f"carpet {__version__}")
        raise typer.Exit()


@app.callback()
def _root(version: Annotated[bool, typer.Option("--version", callback=_version, is_eager=True,
                                                help="Print the version and exit.")] = False) -> None:
    pass


def main() -> None:
    from .terminal import fit_output

    fit_output()  # any terminal encoding: what it lacks is written as letters
    app()
