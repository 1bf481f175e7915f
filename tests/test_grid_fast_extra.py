"""More pins of the grid family's fast copies (core/grid_replay.py, numbering._draws) to the plain
rules, for the paths tests/test_fast_replay.py reaches seldom: redeals from generators of every
seed range (the inline shuffle, the draws at once, and the plain shuffle for seeds from 2^32),
redeals at every prefix shape a game reaches, and the premise of the fast lane for codes 4-7.
"""

from __future__ import annotations

import random

import pytest

from carpet.core import GAMES, parse_deal
from carpet.core.game import PLAYING, WON
from carpet.core.grid import REDEAL
from carpet.core.numbering import MicrosoftRandom, _draws, _swap_plan
from carpet.formats.replay import _fast, _lean_class

from replaytools import fields

GRID = [g for g in GAMES if GAMES[g].family == "grid"]
REDEALING = [g for g in GRID if GAMES[g].redeals != 0]
# deal numbers of every generator: Microsoft seeds below 2^31, from 2^31, from 2^32; the Twister
SEEDS = ["5", "31999", "ms2147483647", "ms2147483648", "ms3000000000", "ms4294967295", "ms4294967296",
         "ms8589934591", "123456789012"]




def positions(variant, deal, rng, count, player=False):
    """Positions along a game, as plain snapshots: random card moves, or the built-in player's
    actions, redeals too (long prefixes: few loose cards left to redeal)."""
    state = variant.new_state(deal)
    out = [state.snapshot()]
    for _ in range(count):
        moves = [a for a in state.legal_actions() if a != REDEAL]
        best = state.auto_action() if player else None
        if state.status != PLAYING or (best is None and not moves):
            break
        state.apply(best if best is not None else rng.choice(moves))
        out.append(state.snapshot())
    return out


@pytest.mark.parametrize("game", REDEALING)
def test_a_fast_redeal_equals_the_plain_one_from_every_generator(game):
    variant = GAMES[game]
    fast = _fast(variant)
    lean = _lean_class(type(variant.new_state(parse_deal("1"))))
    rng = random.Random(game)
    for text in SEEDS:
        deal = parse_deal(text)
        for snap in positions(variant, deal, rng, 150)[::9] + positions(variant, deal, rng, 300, True)[::5]:
            plain, quick = variant.new_state(deal), fast.dealt(variant, deal)
            plain.__class__ = quick.__class__ = lean
            plain.restore(snap)
            quick.restore(snap)
            for _ in range(3):  # redeals in a row, as far as the game allows
                allowed = plain.status != WON and plain.can_redeal()
                assert fast.redeal(quick) == allowed, text
                if not allowed:
                    break
                plain.apply(REDEAL)
                assert fields(quick) == fields(plain), text


@pytest.mark.parametrize("game", GRID)
def test_the_fast_lane_premise_holds(game):
    """plays(): the card one above a gap's left neighbour is never in a row's prefix, so a code 4-7
    move never cuts or meets a lock; checked at positions along random games."""
    variant = GAMES[game]
    t = _fast(variant).tables(variant)
    assert t.up_free
    rng = random.Random(f"{game} premise")
    cols = variant.cols
    for text in ("7", "ms3000000000"):
        for snap in positions(variant, parse_deal(text), rng, 300):
            state = variant.new_state(parse_deal(text))
            state.restore(snap)
            for gap in state.gaps:
                if gap % cols == 0 or state.cells[gap - 1] < 0:
                    continue
                card = t.up[state.cells[gap - 1]]
                if card >= 0:
                    source = state.where[card]
                    assert source >= 0 and source % cols >= state.prefix[source // cols]


def test_the_draws_at_once_are_the_generator_draws():
    rng = random.Random(11)
    seeds = [1, 2**31 - 1, 2**31, 2**32 - 1] + [rng.randrange(1, 2**32) for _ in range(30)]
    for seed in seeds:
        for steps in (1, 2, 5, 16, 17, 51, 103):
            _, _, _, _, many_a, many_c = _swap_plan(steps + 1)
            plain = MicrosoftRandom(seed)
            want = [plain.draw() for _ in range(steps)]
            start = MicrosoftRandom(seed)
            assert list(_draws(start.x, start.high, many_a, many_c, steps)) == want, (seed, steps)
