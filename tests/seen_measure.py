"""Measure the seen hint (core/seen.py): win rate and CPU per game for several numbers of samples
and per-sample budgets, interleaved deal by deal, on deals no test uses.

    python tests/seen_measure.py GAME FIRST LAST K:NODES[:VOTES] [K:NODES[:VOTES] ...]

VOTES, the quilt family's look-ahead votes (core/seen.py, ``LOOKAHEAD_VOTES``), is the module's
when not given.  Prints, per setting, the games won, the median and 90th percentile of CPU per
game (s) and the median CPU per hint (ms).  Not a test: the figures in docs/rules.md and the
README come from it.
"""

import statistics
import sys
import time

from carpet.core.autoplay import play_out
from carpet.core.games import get_game
from carpet.core.numbering import parse_deal
from carpet.core import seen
from carpet.core.seen import seen_hint
from carpet.core.session import Session


def main(argv: list[str]) -> None:
    game, first, last, *settings = argv
    variant = get_game(game)
    settings = [(*map(int, s.split(":")), seen.LOOKAHEAD_VOTES)[:3] for s in settings]
    won = {s: 0 for s in settings}
    games = {s: [] for s in settings}
    hints = {s: [] for s in settings}
    for number in range(int(first), int(last) + 1):
        for k, nodes, votes in settings:  # interleaved: the machine's load falls on every setting alike
            seen.LOOKAHEAD_VOTES = votes
            session = Session(variant, parse_deal(str(number)))
            times = []

            def choose(session, k=k, nodes=nodes, times=times):
                started = time.process_time()
                action = seen_hint(session, k, nodes)
                times.append(time.process_time() - started)
                return action

            started = time.process_time()
            play_out(session, 5000, choose=choose)
            games[k, nodes, votes].append(time.process_time() - started)
            hints[k, nodes, votes].extend(times)
            won[k, nodes, votes] += session.status == "won"
    count = int(last) - int(first) + 1
    for s in settings:
        spent = sorted(games[s])
        print(f"{game} {first}-{last} samples {s[0]} nodes {s[1]} votes {s[2]}: won {won[s]} of {count}, "
              f"CPU per game "
              f"median {statistics.median(spent):.3f} s p90 {spent[int(0.9 * (len(spent) - 1))]:.3f} s, "
              f"per hint median {1000 * statistics.median(hints[s]):.2f} ms")


if __name__ == "__main__":
    main(sys.argv[1:])
