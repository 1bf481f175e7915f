"""``carpet deal`` and ``carpet new``: a deal's starting layout, and a new recorded game."""

from pathlib import Path
from typing import Annotated, Optional

import typer

from carpet.core import Session
from carpet.formats import new_header, record

from . import clock
from .outcome import shown
from .common import TOOL, Force, GameId, JsonFlag, Quiet, SvgFile, game_and_deal, guard, report, say, write_new


def deal(game: GameId,
         number: Annotated[str, typer.Argument(help="Deal number: N or msN, as in PySolFC.", show_default=False)],
         as_json: JsonFlag = False,
         svg: SvgFile = None,
         force: Force = False) -> None:
    """Show the starting layout of a deal."""
    def run():
        variant, deal_ = game_and_deal(game, number)
        report(Session(variant, deal_), as_json, svg, note="the deal", force=force)
    guard(run)


def new(game: GameId,
        number: Annotated[Optional[str], typer.Argument(help="Deal number (a fresh one when left out).",
                                                        show_default=False)] = None,
        output: Annotated[Optional[Path], typer.Option("-o", "--output", help="The file to create (default: "
                                                       "GAME-DEAL.carpet here; .json for JSON, .txt for text).",
                                                       show_default=False)] = None,
        force: Force = False,
        as_json: JsonFlag = False,
        quiet: Quiet = False) -> None:
    """Start a recorded game, in GAME-DEAL.carpet here unless -o names the file."""
    def run():
        variant, deal_ = game_and_deal(game, number if number is not None else clock.fresh_deal_number())
        session = Session(variant, deal_)
        path = output if output is not None else Path(f"{variant.id}-{deal_.text}.carpet")
        write_new(path, record(session, new_header(session, created=clock.now_iso(), tool=TOOL)), force)
        note = f"new {variant.id} game, deal {deal_.both_forms}, log {shown(path)}"
        if as_json or quiet:
            say(note)
        if as_json:
            report(session, as_json, file=str(path))
        elif not quiet:
            print(note)
            report(session, as_json, file=str(path))
    guard(run)
