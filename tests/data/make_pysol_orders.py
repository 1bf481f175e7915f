"""Builds pysol_orders.json beside this file from pysol_cards, an independent MIT-licensed
implementation of PySol's numbering, so the tests check our numbering against code that
is not ours. Development only: `pip install pysol_cards` first; the project never imports it.
"""

import json
import pathlib

from pysol_cards.cards import ms_rearrange
from pysol_cards.random import LCRandom31, MTRandom

RANKS, SUITS = "A23456789TJQK", "CSHD"
DEALS = ["1", "2", "617", "11982", "31999", "32000", "32001", "100000", "123456", "999999999999",
         "123456789012", "99999999999999999999", "ms1", "ms31999", "ms32000", "ms2147483647",
         "ms2147483648", "ms3000000000", "ms4294967295", "ms4294967296", "ms5000000000", "ms8589934591"]


def code(card: int) -> str:
    face = card % 52
    return RANKS[face % 13] + SUITS[face // 13] + ("'" if card >= 52 else "")


def generator(text: str):
    """PySol's choice: msN and plain N below 32000 -> Microsoft, other plain N -> Twister."""
    if text.startswith("ms") or int(text) < 32000:
        rng = LCRandom31()
        rng.setSeed(int(text.removeprefix("ms")))
        return rng, True
    return MTRandom(int(text)), False


def main() -> None:
    out = {"note": "Dealing orders (first dealt first) from pysol_cards 0.24.0, an independent "
                   "implementation of PySol's numbering; 'then' is a further shuffle of [0..39] with "
                   "the same generator.", "orders": []}
    for text in DEALS:
        for count in (52, 104):
            rng, microsoft = generator(text)
            ids = list(range(count))
            if microsoft and count == 52:
                ids = ms_rearrange(ids)
            rng.shuffle(ids)
            then = list(range(40))
            rng.shuffle(then)
            out["orders"].append({"deal": text, "cards": count, "order": [code(c) for c in reversed(ids)],
                                  "then": then})
    path = pathlib.Path(__file__).with_name("pysol_orders.json")
    with open(path, "w") as f:
        json.dump(out, f, indent=0)


if __name__ == "__main__":
    main()
