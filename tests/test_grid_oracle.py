"""The grid family's rules, written once (core/grid/), against the oracle (tests/grid_oracle.py: the
family's plain engine as it stood before), for every game of the family: the deal, every move into
every gap (and the redeal, and action indexes at random) in positions along random and player
games, the redeal from generators of every seed range, and the one replay's loop over a log's
codes (core/session.py play_codes, on core/grid/codes.py) against the oracle played event by event."""

from __future__ import annotations

import random
from array import array

import pytest

from carpet.core import GAMES, Session, parse_deal
from carpet.core.autoplay import play_out
from carpet.core.errors import IllegalAction
from carpet.core.game import FIRST_ACTION, PLAYING, WON
from carpet.core.grid import REDEAL
from carpet.core.numbering import MicrosoftRandom, _draws, _swap_plan
from carpet.formats.codec import decoder

from grid_oracle import OracleState, ranked_actions
from replaytools import bulk_of, codes_of

GRID = [g for g in GAMES if GAMES[g].family == "grid"]
REDEALING = [g for g in GRID if GAMES[g].redeals != 0]
# deal numbers of every generator: Microsoft seeds below 2^31, from 2^31, from 2^32; the Twister
SEEDS = ["5", "31999", "ms2147483647", "ms2147483648", "ms3000000000", "ms4294967295", "ms4294967296",
         "ms8589934591", "123456789012"]


def seen(state) -> tuple:
    """Every field of a position, the engine's or the oracle's."""
    return (list(state.cells), list(state.where), list(state.prefix), list(state.gaps), state.score,
            state.redeals_used, state.status, state.rng.getstate())


def outcome(state, action):
    """The position after ``action``, or the refusal's message (the position then unchanged)."""
    before = seen(state)
    try:
        state.apply(action)
    except IllegalAction as refused:
        assert seen(state) == before  # a refusal changes nothing
        return str(refused)
    return seen(state)


@pytest.mark.parametrize("game", GRID)
def test_the_deal_is_the_oracles(game):
    variant = GAMES[game]
    rng = random.Random(game)
    for text in SEEDS + [str(rng.randint(1, 31999)) for _ in range(20)]:
        deal = parse_deal(text)
        assert seen(variant.new_state(deal)) == seen(OracleState(variant, deal)), text


@pytest.mark.parametrize("game", GRID)
@pytest.mark.parametrize("player", (True, False))
def test_every_move_into_every_gap_is_the_oracles(game, player):
    """In each position of a game, every card into every empty cell, the redeal and some action
    indexes at random: the rules play what the oracle plays and reach its position, and refuse
    what it refuses with its reason; legal_actions are the moves accepted, and the status is the oracle's."""
    variant = GAMES[game]
    rng = random.Random(f"{game} {player}")
    statuses = set()
    for text in rng.sample(SEEDS, 2):
        deal = parse_deal(text)
        session = Session(variant, deal)
        if player:
            play_out(session, 80)
            line = [a for a, _ in session.events]
            session = Session(variant, deal)
        mirror = OracleState(variant, deal)
        for k in range(80):
            state = session.state
            assert seen(state) == seen(mirror), (text, k)
            statuses.add(state.status)
            if state.status == WON:
                break
            tried = [variant.move(card, gap) for card in range(variant.card_count) for gap in state.gaps]
            tried += [REDEAL] + [rng.randrange(FIRST_ACTION - 1, variant.action_count + 2) for _ in range(10)]
            accepted = []
            for action in tried:
                snap, mirror_snap = state.snapshot(), mirror.snapshot()
                got, want = outcome(state, action), outcome(mirror, action)
                assert got == want, (text, k, action)
                if not isinstance(got, str):
                    accepted.append(action)
                    state.restore(snap)
                    mirror.restore(mirror_snap)
                    assert seen(state) == seen(mirror)
            assert sorted(state.legal_actions()) == sorted(set(accepted))
            if not accepted:
                break
            action = line[k] if player and k < len(line) else rng.choice(accepted)
            session.act(action, 0)
            mirror.apply(action)
    assert PLAYING in statuses


def walk(variant, deal, rng, count, player):
    """Positions along a game, as snapshots: random card moves, or the built-in player's actions."""
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


@pytest.mark.parametrize("game", GRID)
def test_the_solvers_order_of_actions_is_the_plain_ranking(game):
    """search_actions (its moves worked out inline, in both orders) is the oracle's card moves and
    redeal ranked as the family's rule says, written plainly (grid_oracle.ranked_actions), in
    positions along random and player games and after redeals."""
    variant = GAMES[game]
    rng = random.Random(f"{game} ranked")
    orders = sorted({stage.order for stage in variant.new_state(parse_deal("5")).plan.stages})
    checked = 0
    for text in rng.sample(SEEDS, 3):
        deal = parse_deal(text)
        state = variant.new_state(deal)
        for snap in walk(variant, deal, rng, 120, False)[::3] + walk(variant, deal, rng, 200, True)[::4]:
            state.restore(snap)
            for redeal in range(2):
                mirror = OracleState(variant, deal)
                mirror.restore(state.snapshot()[:5] + (mirror.rng_state,))  # (the generator is not ranked)
                for order in orders:
                    assert state.search_actions(order) == ranked_actions(mirror, order), (text, order)
                checked += 1
                if state.status != PLAYING or not state.can_redeal():
                    break
                state.apply(REDEAL)
    assert checked > 50


@pytest.mark.parametrize("game", REDEALING)
def test_the_redeal_is_the_oracles_from_every_generator(game):
    """Redeals in a row (as far as the game allows) from positions of every prefix shape a game
    reaches, with generators of every seed range (the shuffle's draws at once, inline, and the plain
    shuffle for seeds from 2^32)."""
    variant = GAMES[game]
    rng = random.Random(f"{game} redeal")
    for text in SEEDS:
        deal = parse_deal(text)
        for snap in walk(variant, deal, rng, 150, False)[::15] + walk(variant, deal, rng, 300, True)[::10]:
            state, mirror = variant.new_state(deal), OracleState(variant, deal)
            state.restore(snap)
            mirror.restore(snap[:6])  # (the engine's snapshot keeps where and the gaps too)
            for _ in range(3):
                assert outcome(state, REDEAL) == outcome(mirror, REDEAL), text
                if state.status != PLAYING:
                    break


@pytest.mark.parametrize("game", GRID)
def test_a_log_replayed_in_bulk_is_the_oracle_event_by_event(game):
    """The one replay's loop over a log's codes stops where the oracle refuses and leaves the
    oracle's position, codes changed at random on the way."""
    variant = GAMES[game]
    rng = random.Random(f"bulk {game}")
    play = bulk_of(variant)
    for text in rng.sample(SEEDS, 4):
        deal = parse_deal(text)
        session = Session(variant, deal)
        play_out(session, 400)
        codes = codes_of(session)
        for rate in (0, 0.05):
            mixed = [rng.randrange(3, 300) if rng.random() < rate else code for code in codes]
            state = variant.new_state(deal)
            actions = array("I")
            stop = play(state, mixed, 0, len(mixed), actions, decoder(state))
            mirror = OracleState(variant, deal)
            for action in actions:
                mirror.apply(action)
            assert seen(state) == seen(mirror), text
            if stop < len(mixed) and mixed[stop] > 2 and mirror.status != WON:
                action = decoder(state)(state, mixed[stop])  # what stopped it: no action, or one refused
                assert action < FIRST_ACTION or isinstance(outcome(mirror, action), str)


def test_the_draws_at_once_are_the_generator_draws():
    """numbering._draws, which the redeal's shuffle (numbering.fast_shuffle) runs, against draw()."""
    rng = random.Random(11)
    seeds = [1, 2**31 - 1, 2**31, 2**32 - 1] + [rng.randrange(1, 2**32) for _ in range(30)]
    for seed in seeds:
        for steps in (1, 2, 5, 16, 17, 51, 103):
            _, _, _, _, many_a, many_c = _swap_plan(steps + 1)
            plain = MicrosoftRandom(seed)
            want = [plain.draw() for _ in range(steps)]
            start = MicrosoftRandom(seed)
            assert list(_draws(start.x, start.high, many_a, many_c, steps)) == want, (seed, steps)


# --- perft: the grid's move generator pinned by tree sizes (python-chess's habit) ---------------
# Positions reachable in exactly 1, 2, 3 (and 4) legal actions from two deals of every grid game,
# worked out by the engine and equal to the oracle's (kept apart: tests/grid_oracle.py) when pinned;
# a change in what any build rule, gap or redeal allows changes a count.
PERFT = {
    "kovrik": ([17, 201, 1805, 14322], [17, 209, 2063, 17871]),
    "kovrik-hard": ([17, 193, 1521, 9393], [17, 193, 1549, 10004]),
    "kovrik-shuffle": ([17, 193, 1529, 9699], [17, 193, 1549, 9993]),
    "kovrik-shuffle-2": ([17, 193, 1528, 9634], [17, 193, 1548, 9928]),
    "montana": ([4, 30, 336, 3933], [5, 33, 289, 2795]),
    "spaces": ([4, 18, 89, 456], [5, 24, 111, 495]),
    "station": ([4, 18, 84, 389], [5, 24, 113, 526]),
    "free-parking": ([6, 50, 541, 6510], [9, 82, 803, 8422]),
    "blue-moon": ([4, 18, 84, 390], [5, 24, 112, 511]),
    "red-moon": ([5, 25, 124, 602], [5, 25, 124, 608]),
    "galary": ([9, 81, 715, 6191], [9, 81, 730, 6586]),
    "jungle": ([13, 184, 2772], [17, 276, 4360]),
    "spaces-and-aces": ([16, 316, 6252], [16, 252, 4088]),
}


def test_perft_covers_every_grid_game():
    assert sorted(PERFT) == sorted(GRID)


@pytest.mark.parametrize("game", GRID)
def test_perft(game):
    from playthrough import perft

    variant = GAMES[game]
    for text, counts in zip(("1", "123456789012"), PERFT[game]):
        deal = parse_deal(text)
        state = variant.new_state(deal)
        before = seen(state)
        depths = range(1, len(counts) + 1)
        assert [perft(state, depth) for depth in depths] == counts, (game, text)
        assert seen(state) == before  # every action undone by restore
        # the oracle agrees below the deepest count (its plain engine is slower)
        assert [perft(OracleState(variant, deal), depth) for depth in depths[:3]] == counts[:3], (game, text)
