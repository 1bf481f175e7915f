"""Not a test: re-check a survey's "unwinnable" answers by a search written differently.

    carpet survey carpet --deals 1-10000 --player solve -o carpet.jsonl
    python tests/stress/cross_check_unwinnable.py carpet carpet.jsonl [LIMIT] [MOST]

For each deal the solver called unwinnable (the first MOST of them, default all), a plain
breadth-first search from the deal (``tests/test_solver.py``: every legal action, no pruning,
no forced moves, no move order) looks for a win: over exact positions while they stay under
20,000, else over the family's canonical key, up to LIMIT positions (default 400,000).  Each
deal's answer is printed as it comes (False = confirmed unwinnable, True = contradicted,
None = too big), then a summary; the exit status is 1 if any answer is contradicted.
"""

import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from test_solver import breadth_first, exact_key  # noqa: E402

from carpet.core import get_game, parse_deal  # noqa: E402


def main(argv: list[str]) -> int:
    game, path = argv[0], argv[1]
    limit = int(argv[2]) if len(argv) > 2 else 400_000
    most = int(argv[3]) if len(argv) > 3 else None
    deals = [r["deal"] for r in map(json.loads, open(path, encoding="utf-8")) if r["result"] == "unwinnable"]
    deals = deals[:most]
    counts = {False: 0, True: 0, None: 0}
    started = time.process_time()
    for number in deals:
        state = get_game(game).new_state(parse_deal(str(number)))
        found = breadth_first(state, exact_key, 20_000)
        if found is None:  # too many exact positions: the family's key (no pruning, no forced moves)
            found = breadth_first(state, lambda s: s.search_key(), limit)
        counts[found] += 1
        print(f"{game} {number} {found}", flush=True)
    print(f"{game}: {len(deals)} unwinnable deals re-searched breadth first (up to {limit:,} positions): "
          f"{counts[False]} confirmed, {counts[True]} contradicted, {counts[None]} too big; "
          f"{time.process_time() - started:.0f} s CPU")
    return 1 if counts[True] else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
