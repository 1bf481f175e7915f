"""The ``carpet`` command: deal, play, record, replay and verify games of the Carpet family.

This layer parses arguments, reads the clock, calls the engine and the log
format, and draws.  It holds no rules.  Every error is one line on stderr and
an exit code: 0 ok, 1 illegal action or failed verification, 2 bad usage or an
unusable file.

Each command lives in its own module and is imported only when it runs (a
command's start-up pays for itself alone): :data:`COMMANDS` names them in the
order ``carpet --help`` lists them.
"""

from __future__ import annotations

import os
import sys
from importlib import import_module
from typing import Annotated

import typer
from typer.core import TyperGroup

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
    "solve": "solve:solve",
    "autoplay": "autoplay:autoplay",
    "bench": "bench:bench",
}

OK, UNUSABLE = 0, 2


class CarpetGroup(TyperGroup):
    """Loads each command when it is asked for, and turns every failure into one line and an exit code."""

    def list_commands(self, ctx) -> list[str]:
        return list(COMMANDS)

    def get_command(self, ctx, name: str):
        target = COMMANDS.get(name)
        if target is None:
            return None
        module_name, function = target.split(":")
        module = import_module(f".{module_name}", __package__)
        single = typer.Typer(add_completion=False, context_settings=CONTEXT)
        single.command(name=name)(getattr(module, function))
        return typer.main.get_command(single)

    def main(self, args=None, prog_name=None, complete_var=None, standalone_mode=True, **extra):
        from carpet.core import CarpetError

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


def _error(line: str) -> None:
    print(line, file=sys.stderr)


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


CONTEXT = {"help_option_names": ["-h", "--help"]}

app = typer.Typer(cls=CarpetGroup, no_args_is_help=True, add_completion=False, context_settings=CONTEXT,
                  help="Deal, play, record, replay and verify Carpet, Коврик and Crazy Quilt games.\n\n"
                       "Deal numbers follow PySolFC: a deal here is the same deal there.")


def _version(value: bool) -> None:
    if value:
        from carpet.core import __version__

        print(f"carpet {__version__}")
        raise typer.Exit()


@app.callback()
def _root(version: Annotated[bool, typer.Option("--version", callback=_version, is_eager=True,
                                                help="Print the version and exit.")] = False) -> None:
    pass


def main() -> None:
    app()
