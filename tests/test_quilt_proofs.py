"""The quilt family's dead-end proofs (core/quilt/search.py), cross-checked against searches without them.

Four proofs: a suit's waste cards blocked for good in the last pass (``_run_blocked``), a suit
that could not be finished even with every quilt card free (``_suit_stuck``), a quilt card
that can never leave the quilt (``_quilt_locked``; on small end games laid out at random, on
issue 25's example, and never on a winning line found without it), and a pass
whose cards to come are stuck till the redeal, the redeal's position dead (``_to_come_stuck``
and ``_redealt``; on small end games of a pass with its stock dealt or nearly).  A position any
calls dead has no win by a plain breadth-first search (tests/test_solver.py: every legal action,
no pruning, no order).  The state keeps what the search worked out about its position (the suits
that passed, ``unstuck``; the key, ``keyed``; the quilt by faces, ``faces``): along any line,
undone or not, each equals what a fresh look at the same position gives, and so do the search's
actions, which it keeps by position, and the flags of the available cells (``free``), kept as
cards leave the quilt.  The search's order ranks the actions as ``action_rank`` ranks each alone,
and the first action it tells alone (``search_first``) is the first of that order.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from carpet.core import Session, get_game, parse_deal
from carpet.core.game import PLAYING
from carpet.core.plan import Beam
from carpet.core.quilt import QuiltState
from carpet.core.quilt import search as quilt_search
from carpet.core.quilt.board import CELLS, TURN, WASTE, available_in, free_flags, split
from carpet.core.quilt.search import QUILT_UNLOCKED, QuiltSearch
from carpet.core.solver import solve

from test_solver import breadth_first, endgames, first_dead_end

STOCK_GAMES = ("crazy-quilt", "indian-carpet")
quick = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def search_key(state) -> bytes:
    return state.search_key()


def fresh(state: QuiltState) -> QuiltState:
    """The same position in a new state that has worked nothing out yet."""
    again = state.variant.new_state(parse_deal("1"))
    again.restore(state.snapshot())
    again.unstuck, again.keyed = 0, None
    return again


def worked_out(state: QuiltState, order: int) -> list[int]:
    """search_actions as worked out afresh (nothing kept from before, nothing left behind)."""
    kept = dict(quilt_search._ACTIONS)
    quilt_search._ACTIONS.clear()
    try:
        return state.search_actions(order)
    finally:
        quilt_search._ACTIONS.clear()
        quilt_search._ACTIONS.update(kept)


def faces_of(state: QuiltState) -> bytes:
    return bytes(0 if card < 0 else card % 52 + 1 for card in state.cells)


# --- what the state keeps is what a fresh look gives -----------------------------------------

@quick
@given(game=st.sampled_from(STOCK_GAMES + ("persian-carpet",)), deal=st.integers(1, 5000),
       seed=st.integers(0, 2**32))
def test_kept_verdicts_keys_and_faces_match_a_fresh_look(game, deal, seed):
    rng = random.Random(seed)
    state = get_game(game).new_state(parse_deal(str(deal)))
    snaps = [state.snapshot()]
    for _ in range(300):
        if state.status != PLAYING or rng.random() < 0.05:
            state.restore(rng.choice(snaps))  # back to an earlier position, as the search does
            if state.status != PLAYING:
                continue
        look = fresh(state)
        assert state.dead_end() == look.dead_end()
        assert state.search_key() == look.search_key()
        assert bytes(state.faces) == faces_of(state)
        assert bytes(state.free) == bytes(free_flags(state.cells))  # kept as cards leave
        assert state.available() == [c for c in range(CELLS) if available_in(state.cells, c)]
        alone = sorted(look.legal_actions(alike=True), key=look.action_rank, reverse=True)  # stable
        assert worked_out(look, 0) == alone
        order = rng.choice((0, 0, 3))
        assert state.search_actions(order) == worked_out(look, order)
        # the first action told without the others is the first of them; order 0 tells it
        # whenever a card can go to a foundation (those outrank every other action)
        to_foundation = [a for a in look.legal_actions() if a < TURN and split(a)[1] < 8]
        assert state.foundation_moves() == to_foundation
        first = state.search_first(order)
        assert first is None or first == worked_out(look, order)[0]
        assert (first is not None) == (order == 0 and bool(to_foundation))
        if rng.random() < 0.3:
            snaps.append(state.snapshot())
        state.apply(rng.choice(state.legal_actions()))
        assert bytes(state.faces) == faces_of(state)
        assert bytes(state.free) == bytes(free_flags(state.cells))  # kept as cards leave
        assert state.available() == [c for c in range(CELLS) if available_in(state.cells, c)]


def test_a_suit_passed_is_asked_again_once_one_of_its_cards_moves():
    state = get_game("crazy-quilt").new_state(parse_deal("3"))
    everything = 15 | QUILT_UNLOCKED
    assert not state.dead_end() and state.unstuck == everything
    state.apply(TURN)
    turned = state.waste[-1] % 52 // 13
    assert state.unstuck == everything & ~(1 << turned)  # the turned card's suit only (a turn keeps the quilt's bit)
    assert not state.dead_end() and state.unstuck == everything
    snap = state.snapshot()
    state.apply(TURN)
    assert state.unstuck != everything
    state.restore(snap)
    assert state.unstuck == everything  # a restore brings back what was known there
    # a card to a foundation clears its suit's bit and the quilt's
    up = state.foundation_moves()[0]
    suit = state.top(split(up)[0]) % 52 // 13
    state.apply(up)
    assert state.unstuck == everything & ~(1 << suit) & ~QUILT_UNLOCKED


@quick
@given(deal=st.integers(1, 5000), seed=st.integers(0, 2**32))
def test_moves_left_out_to_alike_reserves_lead_where_a_kept_one_does(deal, seed):
    # Persian Carpet's search offers a move to the first empty reserve only: every move to
    # another empty reserve reaches a position of the same key as one it offers
    rng = random.Random(seed)
    variant = get_game("persian-carpet")
    dealt = variant.new_state(parse_deal(str(deal)))
    # the deal with two to five reserves emptied and a few holes in the quilt (cards left out:
    # the rules never count them)
    emptied = rng.sample(range(8), rng.randint(2, 5))
    holes = rng.sample(range(64), rng.randint(0, 12))
    state = QuiltState.arranged(variant, quilt=[None if c in holes else dealt.cells[c] for c in range(64)],
                                reserves=[() if k in emptied else pile for k, pile in enumerate(dealt.reserves)])
    compared = 0
    for _ in range(100):
        if state.status != PLAYING:
            break
        legal, offered = state.legal_actions(), state.search_actions()
        assert set(offered) <= set(legal)
        if len(offered) < len(legal):
            snap = state.snapshot()
            reached = set()
            for action in offered:
                state.apply(action)
                reached.add(state.search_key())
                state.restore(snap)
            for action in set(legal) - set(offered):
                state.apply(action)
                assert state.search_key() in reached
                state.restore(snap)
                compared += 1
        state.apply(rng.choice(legal))
    assert compared  # two empty reserves at the start: some move was left out


# --- a position called dead has no win --------------------------------------------------------

def test_dead_positions_near_the_end_confirmed_breadth_first():
    # positions off a won line, played on at random until the proof speaks, then searched
    # breadth first without it: every one exhausted without a win, each proof among them
    by_proof = {"waste run": 0, "suit relaxed": 0}
    for game in STOCK_GAMES:
        rng = random.Random(7)
        for state in endgames(game, cuts=(10, 20, 30, 40), walks=8):
            if first_dead_end(state, rng, 60) is not None:
                assert breadth_first(state, search_key, limit=20_000) is False, game
                by_proof["waste run" if state.waste_blocked() else "suit relaxed"] += 1
    assert by_proof["waste run"] >= 5 and by_proof["suit relaxed"] >= 5, by_proof


@quick
@given(game=st.sampled_from(STOCK_GAMES), deal=st.integers(1, 5000), seed=st.integers(0, 2**32))
def test_a_position_called_dead_has_no_win(game, deal, seed):
    # from a deal, played at random until the proof speaks, searched without it (where a
    # search that small can tell)
    state = get_game(game).new_state(parse_deal(str(deal)))
    if first_dead_end(state, random.Random(seed), 400) is not None:
        assert breadth_first(state, search_key, limit=3_000) is not True


# --- the quilt lock: a card that can never leave the quilt ------------------------------------

def undealt(game: str, rng: random.Random, cards: int, redeals_used: int) -> QuiltState:
    """A stock game near its end: every pile complete but for ``cards`` cards taken off the top
    of two or three random piles (a suit's cards together: they decide each other's way up),
    laid back at random in a corner of the quilt (3 by 3 cells, where they block each other),
    in the stock or on the waste."""
    piles = [list(range(s * 13, s * 13 + 12)) + [s * 13 + 12 + 52] for s in range(4)]  # up: A..Q, the other K
    piles += [[s * 13 + 12] + [s * 13 + r + 52 for r in range(11, -1, -1)] for s in range(4)]  # down: K, Q..A
    taken_from = rng.sample(piles, rng.choice((2, 3)))
    corner = [row * 8 + col for row in range(1, 4) for col in range(1, 4)]
    rng.shuffle(corner)
    quilt, stock, waste = [None] * CELLS, [], []
    for _ in range(cards):
        pile = rng.choice([p for p in taken_from if len(p) > 1])
        card = pile.pop()
        place = rng.random()
        if place < 0.7 and corner:
            quilt[corner.pop()] = card
        elif place < 0.8:
            stock.append(card)
        else:
            waste.append(card)
    variant = get_game(game)
    return QuiltState.arranged(variant, quilt=quilt, stock=stock, waste=waste, foundations=piles,
                               redeals_used=min(redeals_used, variant.redeals))


def test_issue_25s_example_a_jack_under_its_queen_and_its_king():
    # the diamonds' up pile needs the jack, which lies under the queen and the king, both to go
    # up after it (the other queen and the other jack are on the down pile already): no card can
    # take the queen or the king on the waste, so the jack never comes free.  Each suit alone
    # could finish (its quilt cards free at any time); the quilt lock sees it
    piles = [list(range(0, 11)), list(range(13, 25)) + [77], list(range(26, 38)) + [90], list(range(39, 49))]
    piles += [[s * 13 + 12] + [s * 13 + r + 52 for r in range(11, -1, -1)] for s in range(3)]
    piles.append([51] + [39 + r + 52 for r in range(11, 0, -1)])  # K, Q..2: the deck-1 ace still out
    quilt = [None] * CELLS
    quilt[44], quilt[52], quilt[60] = 50, 49, 103  # f5 QD, g5 JD (vertical: f5 and h5 on its short sides), h5 KD
    state = QuiltState.arranged(get_game("crazy-quilt"), quilt=quilt, stock=[11, 64, 91], foundations=piles)
    assert state.status == PLAYING and sorted(state.all_cards()) == list(range(104))
    assert state._quilt_locked() and state.dead_end()
    state.unstuck = QUILT_UNLOCKED  # the other tests alone: no proof
    assert not state.dead_end()
    assert breadth_first(state, search_key, limit=20_000) is False


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(game=st.sampled_from(STOCK_GAMES), seed=st.integers(0, 2**32), cards=st.integers(3, 12),
       redeals_used=st.integers(0, 2))
def test_a_quilt_called_locked_has_no_win(game, seed, cards, redeals_used):
    # small end games, searched breadth first without any proof: locked means no win
    state = undealt(game, random.Random(seed), cards, redeals_used)
    if state.status == PLAYING and state._quilt_locked():
        assert breadth_first(state, search_key, limit=50_000) is False


def test_the_quilt_lock_fires_on_small_end_games_and_only_where_nothing_wins():
    # the property above, over a fixed sample, and counted: the lock speaks often, and every
    # position it calls locked is lost; of the rest some are won
    rng = random.Random(25)
    locked = won = 0
    for k in range(400):
        state = undealt(STOCK_GAMES[k % 2], rng, 4 + k % 9, k % 3)
        if state.status != PLAYING:
            continue
        answer = breadth_first(state, search_key, limit=50_000)
        if state._quilt_locked():
            assert answer is False
            locked += 1
        won += answer is True
    assert locked >= 5 and won >= 100, (locked, won)


def test_no_position_of_a_winning_line_is_called_locked():
    # wins found with the lock switched off: no position on them is locked
    lines = 0
    for game, deals in (("crazy-quilt", (1, 2, 3, 4)), ("indian-carpet", (1, 2, 3))):
        for deal in deals:
            session = Session(get_game(game), parse_deal(str(deal)))
            with pytest.MonkeyPatch.context() as patch:
                patch.setattr(QuiltSearch, "_quilt_locked", lambda self: False)
                solution = solve(session, nodes=100_000)
            if solution.result != "won":
                continue
            state = get_game(game).new_state(parse_deal(str(deal)))
            for action in solution.line:
                state.apply(action)
                assert state.status != PLAYING or not state._quilt_locked(), (game, deal)
            lines += 1
    assert lines >= 4, lines  # (4 of these 7 deals are won within the budget: their lines are the test)


# --- the end of a pass: the cards to come stuck till the redeal ---------------------------------

def stock_dealt(game: str, rng: random.Random, cards: int) -> QuiltState:
    """A stock game near the end of a pass with a redeal left: every pile complete but for
    ``cards`` cards taken off the top of three or four random piles (as :func:`undealt`), a few
    laid back in a corner of the quilt and the rest on the waste, in a random order (several
    suits mixed there, where they block each other), the stock empty or holding one card."""
    piles = [list(range(s * 13, s * 13 + 12)) + [s * 13 + 12 + 52] for s in range(4)]  # up: A..Q, the other K
    piles += [[s * 13 + 12] + [s * 13 + r + 52 for r in range(11, -1, -1)] for s in range(4)]  # down: K, Q..A
    taken_from = rng.sample(piles, rng.choice((3, 4)))
    corner = [row * 8 + col for row in range(1, 4) for col in range(1, 4)]
    rng.shuffle(corner)
    quilt, waste = [None] * CELLS, []
    for _ in range(cards):
        card = rng.choice([p for p in taken_from if len(p) > 1]).pop()
        if rng.random() < 0.2 and corner:
            quilt[corner.pop()] = card
        else:
            waste.append(card)
    rng.shuffle(waste)
    stock = [waste.pop()] if waste and rng.random() < 0.3 else []  # (the proof's part sound with a card to come too)
    variant = get_game(game)
    return QuiltState.arranged(variant, quilt=quilt, stock=stock, waste=waste, foundations=piles,
                               redeals_used=rng.randint(0, variant.redeals - 1))


def top_stuck_dead(state: QuiltState) -> bool:
    """The proof alone: a redeal left, the cards to come stuck, the position after dealing them
    and redealing dead."""
    return (state.redeals_used < state.variant.redeals and bool(state.waste or state.stock)
            and state._to_come_stuck() and state._redealt().dead_end())


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(game=st.sampled_from(STOCK_GAMES), seed=st.integers(0, 2**32), cards=st.integers(3, 14))
def test_a_pass_ended_with_its_top_stuck_and_its_redeal_dead_has_no_win(game, seed, cards):
    state = stock_dealt(game, random.Random(seed), cards)
    if state.status == PLAYING and top_stuck_dead(state):
        assert breadth_first(state, search_key, limit=50_000) is False


def test_the_stuck_top_proof_fires_where_nothing_wins_and_where_the_others_do_not():
    # over a fixed sample of passes ended: every position it calls dead is lost by a plain
    # breadth-first search (without any proof), some where no other proof calls the position
    # itself lost, and dead_end says lost wherever it fires
    rng = random.Random(33)
    fired = alone = won = 0
    for k in range(400):
        state = stock_dealt(STOCK_GAMES[k % 2], rng, 4 + k % 11)
        if state.status != PLAYING:
            continue
        answer = breadth_first(state, search_key, limit=50_000)
        won += answer is True
        if top_stuck_dead(state):
            assert answer is False, k
            fired += 1
            look = fresh(state)
            alone += not look._cards_stuck(look.variant.redeals - look.redeals_used)
            assert fresh(state).dead_end() or state.stock, k  # (dead_end asks it once the stock is dealt)
    assert fired >= 20 and alone >= 5 and won >= 100, (fired, alone, won)



# --- the forecast (not a proof): what the waste as it lies would do after the redeal -----------

def hearts_on_the_waste(waste: str, redeals_used: int) -> QuiltState:
    """Everything up but five hearts: the up pile needs the J♥, the down pile the 2♥; the 2♥
    and the A♥ (deck 1's) lie free in the quilt, ``waste`` (bottom first) holds the other three."""
    up = [[s * 13 + r for r in range(12)] + [52 + s * 13 + 12] for s in range(4)]
    down = [[s * 13 + 12] + [52 + s * 13 + r for r in range(11, -1, -1)] for s in range(4)]
    up[2] = [26 + r for r in range(10)]  # A♥..T♥: the J♥ next
    down[2] = [38] + [52 + 26 + r for r in range(11, 1, -1)]  # K♥..3♥: the 2♥ next
    faces = {"JH": 36, "QH": 37, "KH": 38 + 52}
    cells = [None] * CELLS
    cells[0], cells[1] = 26 + 1 + 52, 26 + 52  # a1: the 2♥, a2: the A♥ (both free: the top edge, a hole)
    state = QuiltState.arranged(get_game("crazy-quilt"), quilt=cells, waste=[faces[c] for c in waste.split()],
                                foundations=up + down, redeals_used=redeals_used)
    assert sorted(state.all_cards()) == list(range(104)) and state.status == PLAYING
    return state


def test_the_forecast_reads_the_waste_as_if_it_stayed_till_the_redeal():
    # the waste, bottom first: Q♥ K♥ J♥.  Turned over now, the Q♥ comes first, before the J♥ it
    # waits for, and the K♥ buries it: lost.  The proof cannot say so (the J♥ on top may go up
    # first, and then the Q♥ and the K♥ come in order); the forecast says the hearts look lost
    state = hearts_on_the_waste("QH KH JH", 0)
    assert not state.dead_end() and state.forecast() == 1
    assert state._redealt().dead_end()  # turned over as it lies: the end
    # the J♥ up: nothing looks lost any more, and the redeal now wins
    state.apply(next(a for a in state.legal_actions() if split(a)[0] == WASTE))
    assert state.forecast() == 0 and not state._redealt().dead_end()
    assert breadth_first(state._redealt(), search_key, limit=10_000) is True
    # an order the second pass plays, and a waste with no redeal left: nothing to forecast
    assert hearts_on_the_waste("KH QH JH", 0).forecast() == 0
    assert hearts_on_the_waste("QH KH JH", 1).forecast() == 0


@quick
@given(game=st.sampled_from(STOCK_GAMES + ("persian-carpet",)), deal=st.integers(1, 5000),
       seed=st.integers(0, 2**32))
def test_the_forecast_sees_at_least_what_the_proof_sees_and_no_more_than_the_redeal_now(game, deal, seed):
    """Along random play: the forecast counts suits with cards on the waste, 0 where no redeal is
    left (or no stock, Persian Carpet); every suit with waste cards the proof's relaxation calls
    stuck it calls lost (it only takes plays away); and where it calls a suit lost, the waste
    and the stock turned over as they lie (the stock dealt unplayed, then the redeal) is a dead
    end."""
    rng = random.Random(seed)
    state = get_game(game).new_state(parse_deal(str(deal)))
    for _ in range(250):
        if state.status != PLAYING:
            break
        state.apply(rng.choice(state.legal_actions()))
        lost = state.forecast()
        if not state.redeals_left or state.variant.has_reserves:
            assert lost == 0
            continue
        waste, stock = bytes(state.waste), bytes(reversed(state.stock))
        ranks = [(quilt_search._ranks_of(waste, s), quilt_search._ranks_of(stock, s)) for s in range(4)]
        proved = sum(bool(w) and state._suit_stuck(s, w, k, state.redeals_left) for s, (w, k) in enumerate(ranks))
        assert proved <= lost <= sum(bool(w) for w, _ in ranks)
        if lost:
            assert state._redealt().dead_end()


@quick
@given(game=st.sampled_from(STOCK_GAMES), deal=st.integers(1, 5000), seed=st.integers(0, 2**32))
def test_the_wide_beams_progress_counts_the_quilt_for_early_in_the_first_pass_and_in_the_last(game, deal, seed):
    """Along random play: progress(0) is 4 for each card up less 1 for each card in the quilt;
    progress(1), two of the wide beams' (the plan's), counts the quilt cards for instead while
    more than _KEEP_QUILT_STOCK cards are to deal in the first pass, and in the last pass, and is
    progress(0) elsewhere (the first pass's end, where measure 0 ranks)."""
    rng = random.Random(seed)
    state = get_game(game).new_state(parse_deal(str(deal)))
    assert 1 in {stage.measure for stage in state.plan.stages if isinstance(stage, Beam)}
    seen = set()
    for _ in range(300):
        if state.status != PLAYING:
            break
        up = sum(1 for loc in state.loc if loc == -1)  # (cards on no cell, in no stock or waste)
        up -= len(state.stock) + len(state.waste) + sum(len(pile) for pile in state.reserves)
        in_quilt = sum(1 for cell in state.cells if cell >= 0)
        assert in_quilt == state.in_quilt and up == state.on_found
        assert state.progress() == state.progress(0) == 4 * up - in_quilt
        early = state.redeals_left and len(state.stock) > quilt_search._KEEP_QUILT_STOCK
        if early or not state.redeals_left:
            assert state.progress(1) == 4 * up + in_quilt
        else:
            assert state.progress(1) == state.progress(0)
        seen.add((bool(early), state.redeals_left))
        state.apply(rng.choice(state.legal_actions()))
    assert (True, 1) in seen  # (the deal starts with more than 16 cards to deal)
