"""``carpet autoplay``: the built-in simple player on one deal (recorded), or on a range of deals
as the alias of ``carpet survey GAME --deals A-B --player simple``."""

from pathlib import Path
from typing import Annotated, Optional

import typer

from carpet.core import Session
from carpet.formats import new_header, record

from . import clock
from .common import PLAYER_TOOL, Failure, Force, GameId, JsonFlag, check_output, game_and_deal, guard, report, say, write_new
from .exits import UNUSABLE


def autoplay(game: GameId,
             number: Annotated[Optional[str], typer.Argument(help="Deal number (a fresh one when left out).",
                                                             show_default=False)] = None,
             output: Annotated[Optional[Path], typer.Option("-o", "--output", help="Record the game in this log.",
                                                            show_default=False)] = None,
             deals: Annotated[Optional[str], typer.Option("--deals", help="Play a range of deals, e.g. 1-1000, "
                                                          "and report the win rate: the same as `carpet survey "
                                                          "GAME --deals A-B --player simple`.", show_default=False)] = None,
             limit: Annotated[int, typer.Option("--limit", min=1, max=10_000_000, help="Stop after this many actions.")] = 5000,
             force: Force = False,
             as_json: JsonFlag = False) -> None:
    """Let the built-in simple player play a deal (recorded like any game) or a range of deals
    (`carpet survey` with `--player simple`: every core, the win rate with its interval)."""
    from carpet.core.autoplay import play_out

    def run():
        if deals is not None:  # the documented alias of `carpet survey GAME --deals A-B --player simple`
            from carpet.core.players import ACTION_CAP

            from .survey import run_survey, show

            if number is not None or output is not None or limit != ACTION_CAP:
                raise Failure("carpet autoplay: with --deals, the range is played as `carpet survey --player "
                              "simple` does (no deal number, -o or --limit)", UNUSABLE)
            tally, identity = run_survey(game, deals, player="simple")
            show(tally, identity, as_json=as_json, html=None)
            return
        variant, deal_ = game_and_deal(game, number if number is not None else clock.fresh_deal_number())
        if output is not None:
            check_output(output, force)
        session = Session(variant, deal_)
        created = clock.now_iso()
        readings = clock.Clock(clock.created_ms(created))
        taken = play_out(session, limit, lambda: readings.read(session))
        if session.status == "playing":
            why = "its action limit" if taken >= limit else "a position it had seen (it would go round in circles)"
            say(f"the built-in player stopped at {why}; the game goes on")
        if output is not None:
            write_new(output, record(session, new_header(session, created=created, tool=PLAYER_TOOL),
                                     clock_jumps=readings.jumps, clock_skipped_ms=readings.skipped_ms), force)
        report(session, as_json, **({"file": str(output)} if output else {}))
    guard(run)
