"""A long check of the one replay against the plain session: random games of every game, recorded
by ``Session.act`` (the plain rules, one event at a time), must read back through
``formats.check`` (the bulk replays: core/*_replay.py, carpet's rules written once) to the same
position, score, moves and status.  tests/test_fast_replay.py runs a short version of this in every test run.

    python tests/stress/replay_agrees.py --games 600     # 600 games a game id, about 35 s
"""

import argparse
import random
import time

from carpet.cli.bench import CREATED, TOOL, random_game
from carpet.core import GAMES
from carpet.formats import check, encode, new_header, record


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100, help="random games per game id")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    start, done = time.process_time(), 0
    for game, variant in GAMES.items():
        rng = random.Random(f"{args.seed}:{game}")
        for _ in range(args.games):
            deal = rng.choice([rng.randint(1, 31999), rng.randint(32000, 10**6)])  # both generators
            played = random_game(variant, deal, rng.choice([50, 200, 600]), rng)
            blob = encode(record(played, new_header(played, created=CREATED, tool=TOOL)))
            _, read = check(blob)
            want = (played.state.digest(), played.score, played.moves, played.state.status)
            got = (read.state.digest(), read.score, read.moves, read.state.status)
            assert got == want, f"{game} deal {deal}: the replay gives {got}, the session {want}"
            done += 1
    print(f"{done} random games, every game id: the one replay agrees with Session.act "
          f"({time.process_time() - start:.1f} s CPU, seed {args.seed})")


if __name__ == "__main__":
    main()
