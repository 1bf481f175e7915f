"""What ``carpet stats --json`` prints: a player's record over recorded games, per game id
(core/stats.py counts it; docs/schemas/stats.schema.json is generated from these Structs).

The rate, its interval and the spreads are the survey document's pieces (formats/survey.py),
so both documents say them the same way.
"""

from __future__ import annotations

from typing import Annotated

import msgspec

from carpet.core.stats import Best as _Best, Record

from .survey import Interval, Spread, rate_fields, spread_of

Count = Annotated[int, msgspec.Meta(ge=0)]


class Best(msgspec.Struct):
    """A best result and the file that holds it (the game created first, where several tie)."""

    value: int
    file: str
    #: which attempt of the file's game (1 and up: each restart begins the next)
    attempt: Count = 1


class Streak(msgspec.Struct):
    """Runs of won games in order of creation; games still playing neither lengthen nor break one."""

    #: the wins since the last lost game
    current: Count
    longest: Count


class GameRecord(msgspec.Struct):
    game: str
    #: every game counted: won + lost + playing
    games: Count
    won: Count
    lost: Count
    playing: Count
    #: won / games
    rate: float
    interval: Interval
    confidence: float
    #: the highest score of any game counted
    best_score: Best | None
    #: the fewest counted moves and the fastest clock (ms) of a won game (null when none was won)
    fewest_moves: Best | None
    fastest_ms: Best | None
    streak: Streak
    #: counted moves and score over the won games (null when none was won)
    moves: Spread | None
    score: Spread | None
    #: attempts restarted while still being played: not games, not counted in any of the above
    restarted: Count = 0


class Failed(msgspec.Struct):
    file: str
    error: str
    #: true when the file could not be read as a log at all (exit 2), false when it failed verification (exit 1)
    unreadable: bool


class Apart(msgspec.Struct):
    """A recorded game not counted unless asked (--all): nobody played it from a numbered deal."""

    file: str
    #: "position" (started from a position), "solver" (written by `carpet solve -o`) or
    #: "player" (played by the built-in player, `carpet autoplay -o`)
    why: str


class StatsDocument(msgspec.Struct):
    """``carpet stats PATH... --json``: one record per game id, in order of the id."""

    #: recorded games found (named, or found in the folders named)
    files: Count
    #: recorded games counted: verified, of the game asked for (--game), each game once (each of
    #: their attempts then counted in ``games``)
    counted: Count
    #: files holding a game already counted (another form or copy of it, or a game that shares
    #: its beginning), counted once
    copies: Count
    #: files that were not counted because they failed to read or to verify
    failed: list[Failed]
    games: list[GameRecord]
    #: games set apart, not counted (started from a position, or played by a program); --all counts them
    apart: list[Apart] = []


def _best(best: _Best | None) -> Best | None:
    return None if best is None else Best(best.value, best.game.file, best.game.attempt)


def game_record(record: Record) -> GameRecord:
    current, longest = record.streaks()
    c = record.counts
    return GameRecord(game=record.game, games=record.games, won=c["won"], lost=c["lost"], playing=c["playing"],
                      **rate_fields(record.rate, record.interval), best_score=_best(record.best_score),
                      fewest_moves=_best(record.fewest_moves), fastest_ms=_best(record.fastest),
                      streak=Streak(current, longest), moves=spread_of(record.moves),
                      score=spread_of(record.scores), restarted=c["restarted"])
