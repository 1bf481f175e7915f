"""Helpers the CLI tests share: run the app, read its JSON, draw a renderable without colour."""

import io
import json

from rich.console import Console
from typer.testing import CliRunner

from carpet.cli.app import app
from carpet.core import get_game, parse_deal

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
