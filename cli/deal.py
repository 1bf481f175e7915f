"""``carpet deal`` and ``carpet new``: a deal's starting layout, and a new recorded game."""

from pathlib import Path
from typing import Annotated, Optional

import typer

from carpet.core import Session

from .common import (TOOL, Failure, Force, GameId, JsonFlag, PositionFlag, PositionText, Quiet, SvgFile, game_and_deal,
                     guard, position_line, position_session, report, say, write_new)
from .exits import UNUSABLE
from .outcome import shown



def deal(game: GameId,
         number: Annotated[str, typer.Argument(help="Deal number: N or msN, as in PySolFC.", show_default=False)],
         as_json: JsonFlag = False,
         svg: SvgFile = None,
         force: Force = False,
         position: PositionFlag = False) -> None:
    """Show the starting layout of a deal."""
    def run():
        variant, deal_ = game_and_deal(game, number)
        session = Session(variant, deal_)
        if position and not as_json:
            print(position_line(session))
            if svg is None:
                return
        report(session, as_json, svg, note="the deal", force=force)
    guard(run)


def new_session(game: str, number: str | None) -> Session:
    """A new game of ``game``, deal ``number`` or a fresh one (``carpet new``, the screen's new-deal key)."""
    from . import clock

    variant, deal_ = game_and_deal(game, number if number is not None else clock.fresh_deal_number())
    return Session(variant, deal_)


def default_path(game: str, name: str, folder: Path | None = None) -> Path:
    """Where ``carpet new`` records a game when -o names no file: GAME-DEAL.carpet in ``folder`` (here)."""
    file = f"{game}-{name}.carpet"
    return folder / file if folder is not None else Path(file)


def record_new(session: Session, path: Path, force: bool = False) -> None:
    """Write the new game's log to ``path`` (created now, under the log's lock; never over a file unless ``force``)."""
    from carpet.formats import new_header, record  # (not loaded by `deal`)

    from . import clock

    write_new(path, record(session, new_header(session, created=clock.now_iso(), tool=TOOL)), force)


def new(game: Annotated[Optional[str], typer.Argument(help="A game id: see `carpet games` (not with --position).",
                                                      show_default=False)] = None,
        number: Annotated[Optional[str], typer.Argument(help="Deal number (a fresh one when left out).",
                                                        show_default=False)] = None,
        output: Annotated[Optional[Path], typer.Option("-o", "--output", help="The file to create (default: "
                                                       "GAME-DEAL.carpet here; .json for JSON, .txt for text).",
                                                       show_default=False)] = None,
        force: Force = False,
        as_json: JsonFlag = False,
        quiet: Quiet = False,
        position: PositionText = None) -> None:
    """Start a recorded game, in GAME-DEAL.carpet here unless -o names the file; or from a position (--position)."""
    def run():
        if position is not None:
            if game is not None or number is not None:
                raise Failure("carpet new: give a game and deal number, or --position TEXT, not both", UNUSABLE)
            session = position_session(position)
            variant, name = session.variant, f"position-{session.state.digest()[:8]}"
        else:
            if game is None:
                raise Failure("carpet new: which game? carpet new GAME [NUMBER], or carpet new --position TEXT",
                              UNUSABLE)
            session = new_session(game, number)
            variant, name = session.variant, session.deal.text
        path = output if output is not None else default_path(variant.id, name)
        record_new(session, path, force)
        note = f"new {variant.id} game, deal {session.deal.both_forms}, log {shown(path)}"
        if as_json or quiet:
            say(note)
        if as_json:
            report(session, as_json, file=str(path))
        elif not quiet:
            print(note)
            report(session, as_json, file=str(path))
    guard(run)
