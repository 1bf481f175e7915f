"""A survey's statistics: how many deals came out, the win rate and its interval, and the
spread of counted moves and score over the won deals.

The interval is Wilson's score interval at 95 %.  Deals the solver left undecided
(``unknown``) are counted both ways, as Solvitaire does: the low bound counts them lost,
the high bound counts them won, so the interval holds the true rate of the range whatever
they turn out to be.  The rate itself counts them as not won; ``unwinnable`` (proven)
counts as lost for the rate but is kept apart from a player's plain ``lost``.
"""

from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass, field

#: the normal quantile for a two-sided 95 % interval
Z95 = 1.959963984540054


def wilson(successes: int, n: int, z: float = Z95) -> tuple[float, float]:
    """Wilson's score interval for ``successes`` out of ``n`` (``(0, 1)`` when n is 0)."""
    if n <= 0:
        return 0.0, 1.0
    p = successes / n
    z2 = z * z
    centre = (p + z2 / (2 * n)) / (1 + z2 / n)
    half = z * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n)) / (1 + z2 / n)
    low, high = centre - half, centre + half
    # exact at the ends (rounding would otherwise leave 1e-17 outside [0, 1])
    return (0.0 if successes == 0 else max(0.0, low)), (1.0 if successes == n else min(1.0, high))


def undecided_interval(won: int, undecided: int, n: int) -> tuple[float, float]:
    """95 % Wilson for ``won`` of ``n``, where ``undecided`` more may yet be won or not: counted
    lost for the low bound and won for the high (a survey's unknown deals, a record's games
    still playing)."""
    return wilson(won, n)[0], wilson(won + undecided, n)[1]


@dataclass
class Spread:
    """Mean, standard deviation (of the sample), median, least and most of some counts."""

    mean: float
    sd: float
    median: float
    min: int
    max: int

    @classmethod
    def of(cls, counts: Counter) -> "Spread | None":
        n = sum(counts.values())
        if n == 0:
            return None
        values = sorted(counts)
        mean = sum(v * c for v, c in counts.items()) / n
        var = sum(c * (v - mean) ** 2 for v, c in counts.items()) / (n - 1) if n > 1 else 0.0
        return cls(mean, math.sqrt(var), _median(values, counts, n), values[0], values[-1])


def _median(values: list[int], counts: Counter, n: int) -> float:
    def nth(k: int) -> int:  # the k-th value (0-based) in sorted order
        seen = 0
        for v in values:
            seen += counts[v]
            if seen > k:
                return v
        raise IndexError(k)

    return float(nth(n // 2)) if n % 2 else (nth(n // 2 - 1) + nth(n // 2)) / 2


@dataclass
class Tally:
    """The deals of a survey, counted as they come (in any order: the totals do not depend on it)."""

    counts: Counter = field(default_factory=Counter)
    #: counted moves and score of the won deals, value -> how many
    moves: Counter = field(default_factory=Counter)
    scores: Counter = field(default_factory=Counter)
    first: int | None = None
    last: int | None = None

    def add(self, deal: int, result: str, moves: int, score: int) -> None:
        self.counts[result] += 1
        if result == "won":
            self.moves[moves] += 1
            self.scores[score] += 1
        if self.first is None or deal < self.first:
            self.first = deal
        if self.last is None or deal > self.last:
            self.last = deal

    @property
    def deals(self) -> int:
        return sum(self.counts.values())

    @property
    def won(self) -> int:
        return self.counts["won"]

    @property
    def unknown(self) -> int:
        return self.counts["unknown"]

    @property
    def rate(self) -> float:
        """Won deals over all deals (unknown and unwinnable ones count as not won)."""
        return self.won / self.deals if self.deals else 0.0

    @property
    def interval(self) -> tuple[float, float]:
        """95 % Wilson, unknown deals counted lost for the low bound and won for the high."""
        return undecided_interval(self.won, self.unknown, self.deals)
