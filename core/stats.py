"""A player's record over recorded games (``carpet stats``): per game, how many were won, lost
and are still being played, the win rate with its interval, the best results and the winning
streaks.

Pure counting: the caller reads and verifies each game (formats/log.py) and hands over what
its verified summary says.  Nothing here reads a file or the clock.

- The rate is won games over all games; a game still being played is undecided, so the 95 %
  Wilson interval counts it lost for its low bound and won for its high (as a survey counts
  the deals its solver left unknown, core/survey.py).
- Best score: over every game counted (a lost game scores too); fewest counted moves and
  fastest time (the attempt's clock): over won games.  A tie goes to the game created first.
- Streaks: the won and lost games in order of creation (the header's time, then the file
  name, then the attempt: a file's attempts are in the order its events played them, whatever
  its time says); a game still being played is not over, so it neither lengthens nor breaks one.
  The current streak is the wins since the last lost game.
- Attempts: each attempt of a recorded game a restart ended is a game of its own when it was
  won or lost (a won attempt is a win, whatever came after it); one restarted while still
  being played (status "restarted" here) is not a game, only counted as such.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from .survey import undecided_interval

WON, LOST, PLAYING, RESTARTED = "won", "lost", "playing", "restarted"


@dataclass(frozen=True)
class Played:
    """One recorded game, as its verified log says it stands."""

    file: str
    game: str
    #: the header's creation time, ISO 8601 UTC with milliseconds (sorts as it reads)
    created: str
    status: str
    score: int
    moves: int
    elapsed_ms: int
    #: which attempt of the file's game (1 and up: each restart begins the next)
    attempt: int = 1

    @property
    def order(self) -> tuple[str, str, int]:
        return (self.created, self.file, self.attempt)


@dataclass
class Best:
    """The best value of something and the game that holds it."""

    value: int
    game: Played


@dataclass
class Record:
    """The games of one game id, counted as they come (in any order: nothing depends on it)."""

    game: str
    counts: Counter = field(default_factory=Counter)
    #: counted moves and score of the won games, value -> how many
    moves: Counter = field(default_factory=Counter)
    scores: Counter = field(default_factory=Counter)
    best_score: Best | None = None
    fewest_moves: Best | None = None
    fastest: Best | None = None
    _finished: list = field(default_factory=list)

    def add(self, played: Played) -> None:
        self.counts[played.status] += 1
        if played.status == RESTARTED:
            return
        self.best_score = _better(self.best_score, played.score, played, higher=True)
        if played.status == WON:
            self.moves[played.moves] += 1
            self.scores[played.score] += 1
            self.fewest_moves = _better(self.fewest_moves, played.moves, played, higher=False)
            self.fastest = _better(self.fastest, played.elapsed_ms, played, higher=False)
        if played.status in (WON, LOST):
            self._finished.append((played.order, played.status == WON))

    @property
    def games(self) -> int:
        c = self.counts
        return c[WON] + c[LOST] + c[PLAYING]

    @property
    def won(self) -> int:
        return self.counts[WON]

    @property
    def rate(self) -> float:
        return self.won / self.games if self.games else 0.0

    @property
    def interval(self) -> tuple[float, float]:
        return undecided_interval(self.won, self.counts[PLAYING], self.games)

    def streaks(self) -> tuple[int, int]:
        """(current, longest) run of won games in order of creation."""
        current = longest = 0
        for _order, won in sorted(self._finished):
            current = current + 1 if won else 0
            longest = max(longest, current)
        return current, longest


def _better(best: Best | None, value: int, played: Played, *, higher: bool) -> Best:
    if best is None:
        return Best(value, played)
    if value == best.value:
        return best if best.game.order <= played.order else Best(value, played)
    return Best(value, played) if (value > best.value) == higher else best


def records(games) -> dict[str, Record]:
    """Each game id's record over ``games`` (Played), by game id in sorted order."""
    out: dict[str, Record] = {}
    for played in games:
        record = out.get(played.game)
        if record is None:
            record = out[played.game] = Record(played.game)
        record.add(played)
    return dict(sorted(out.items()))
