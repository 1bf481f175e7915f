"""``carpet autoplay``: the built-in simple player on one deal or a range of deals."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Optional

import typer

from carpet.core import Session, parse_deal
from carpet.formats import new_header, record

from . import clock
from .common import (TOOL, Force, GameId, JsonFlag, check_output, deal_range, game_and_deal, guard, print_json,
                     report, say, write_new)


def autoplay(game: GameId,
             number: Annotated[Optional[str], typer.Argument(help="Deal number (a fresh one when left out).",
                                                             show_default=False)] = None,
             output: Annotated[Optional[Path], typer.Option("-o", "--output", help="Record the game in this log.",
                                                            show_default=False)] = None,
             deals: Annotated[Optional[str], typer.Option("--deals", help="Play a range of deals, e.g. 1-1000, "
                                                          "and report the win rate.", show_default=False)] = None,
             limit: Annotated[int, typer.Option("--limit", min=1, help="Stop after this many actions.")] = 5000,
             force: Force = False,
             as_json: JsonFlag = False) -> None:
    """Let the built-in simple player play a deal (recorded like any game) or a range of deals."""
    from carpet.core.autoplay import play_out

    def run():
        if deals is not None:
            variant, _ = game_and_deal(game, None)
            numbers = deal_range("--deals", deals)
            won = 0
            for n in numbers:
                session = Session(variant, parse_deal(str(n)))
                play_out(session, limit)
                won += session.status == "won"
            doc = {"game": variant.id, "deals": len(numbers), "won": won,
                   "win_rate": round(won / max(1, len(numbers)), 4)}
            if as_json:
                print_json(doc)
            else:
                print(f"{variant.id}: won {won} of {len(numbers)} deals ({100 * doc['win_rate']:.1f}%)")
            return
        variant, deal_ = game_and_deal(game, number if number is not None else clock.fresh_deal_number())
        if output is not None:
            check_output(output, force)
        session = Session(variant, deal_)
        created = clock.now_iso()
        started = clock.created_ms(created)
        taken = play_out(session, limit, lambda: clock.attempt_ms(session, started))
        if session.status == "playing":
            why = "its action limit" if taken >= limit else "a position it had seen (it would go round in circles)"
            say(f"the built-in player stopped at {why}; the game goes on")
        if output is not None:
            write_new(output, record(session, new_header(session, created=created, tool=TOOL)), force)
        report(session, as_json, **({"file": str(output)} if output else {}))
    guard(run)
