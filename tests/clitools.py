"""Helpers the CLI tests share: run the app, read its JSON, draw a renderable without colour."""

import io
import json
import subprocess
import sys

from rich.console import Console
from typer.testing import CliRunner

from carpet.cli.app import app
from carpet.core import get_game, parse_deal
from carpet.formats import read_log, verify

runner = CliRunner()


def run(*args, input=None):
    return runner.invoke(app, [str(a) for a in args], input=input)


def doc(result):
    return json.loads(result.stdout)


def plain(renderable) -> str:
    out = io.StringIO()
    Console(file=out, width=100, color_system=None).print(renderable)
    return out.getvalue()


def state_after(game: str, deal: str, *moves: str):
    state = get_game(game).new_state(parse_deal(deal))
    for move in moves:
        state.apply(state.variant.parse(move, state))
    return state


# --- files and processes (issue 8's tests) ----------------------------------------------
CARPET = [sys.executable, "-m", "carpet.cli"]


def one_line(result, code):
    """The one line on stderr of a run that exited ``code``."""
    assert result.exit_code == code, result.output
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and "Traceback" not in result.output, result.stderr
    return lines[0]


def events(path) -> int:
    """How many events the log at ``path`` holds, after checking it verifies."""
    return len(verify(read_log(path)).events)


def temporaries(directory) -> list[str]:
    return sorted(p.name for p in directory.iterdir() if p.name.endswith(".tmp"))


def carpet(*args, timeout=20, **kw):
    """The command as a process of its own: real pipes, real signals, real encodings."""
    return subprocess.run([*CARPET, *map(str, args)], capture_output=True, text=True, timeout=timeout, **kw)
