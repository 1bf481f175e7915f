"""The carpet family's dead-end proof and carpet-auto's forced end game (core/carpet/search.py,
``dead_end`` and ``safe_action``), cross-checked against searches without them.

The proof rests on one count: a card with j cards above it in the waste is reached only once
(gaps open now + cards gone up since - cards drawn since) has reached j.  The tests check that
count along random lines, then that a position the proof calls dead has no win by a plain
breadth-first search (tests/test_solver.py: every legal action, no pruning, no forced moves, no
order), and that the solver, which prunes by it, answers as that search does near the end of
real games.  Carpet-auto's end game with the stock empty
(every card that fits may go up at once) is checked the same way.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from carpet.core import Session, get_game, parse_deal
from carpet.core.carpet import EMPTY, CarpetState
from carpet.core.game import PLAYING, WON
from carpet.core.position import read as read_position
from carpet.core.solver import solve

from test_solver import breadth_first, exact_key, first_dead_end, play_at_random

GAMES = ("carpet", "carpet-auto", "carpet-foster")
quick = settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def walk(game: str, deal: int, rng: random.Random, steps: int) -> CarpetState:
    """The deal's position after up to ``steps`` random legal actions."""
    return play_at_random(get_game(game).new_state(parse_deal(str(deal))), rng, steps)


def family_key(state) -> bytes:
    return state.search_key()


@quick
@given(game=st.sampled_from(GAMES), deal=st.integers(1, 5000), seed=st.integers(0, 2**32),
       steps=st.integers(0, 60))
def test_a_waste_card_is_reached_only_after_as_many_cards_off_as_lay_above_it(game, deal, seed, steps):
    # the count the proof rests on, along a random line from a random position: (gaps open then +
    # cards up since - cards drawn since) has reached a waste card's cards above by the time it is
    # on top or off the waste
    rng = random.Random(seed)
    state = walk(game, deal, rng, steps)
    waste = list(state.waste)
    above = {card: len(waste) - 1 - place for place, card in enumerate(waste)}
    gaps, up_before, drawn_before = state.cells.count(EMPTY), sum(state.found), state.drawn
    most = gaps
    for _ in range(80):
        if state.status != PLAYING:
            break
        state.apply(rng.choice(state.legal_actions()))
        most = max(most, gaps + sum(state.found) - up_before - (state.drawn - drawn_before))
        for card, lying_above in above.items():
            if card not in state.waste or state.waste[-1] == card:
                assert most >= lying_above, (card, lying_above, most)


@quick
@given(game=st.sampled_from(GAMES), deal=st.integers(1, 5000), seed=st.integers(0, 2**32))
def test_a_position_called_dead_has_no_win(game, deal, seed):
    rng = random.Random(seed)  # play at random until the proof speaks, then search without it
    state = first_dead_end(walk(game, deal, rng, 0), rng, 200)
    if state is not None:
        assert breadth_first(state, exact_key, limit=5_000) is not True


@pytest.mark.parametrize("game", GAMES)
def test_dead_positions_reached_in_play_confirmed_breadth_first(game):
    rng = random.Random(5)
    confirmed = 0
    for deal in range(1, 60):
        state = first_dead_end(walk(game, deal, rng, 0), rng, 200)
        if state is not None:
            found = breadth_first(state, exact_key, limit=5_000)
            assert found is not True, deal
            confirmed += found is False
    assert confirmed >= 25


#: carpet-auto, the stock empty: spades and hearts end with QS, KS and KH on the carpet, and
#: each of them up takes one card off the waste (3D 2C 3C 4C 5C 6C, bottom first)
BURIED = "carpet-auto 7C8C9CTCJC/QCKC4D5D6D/7D8D9DTDJD/QDKDKHQSKS f:ACJSQH2D s:- w:3D2C3C4C5C6C"


def test_a_card_under_more_cards_than_can_come_off_is_dead():
    # three cards up take 6C, 5C, 4C off; 2C stays under 3C, and 3D under both: nothing more goes up
    state = read_position(BURIED).state()
    assert state.status == PLAYING and state.dead_end()
    assert breadth_first(state, exact_key) is False


def test_the_same_cards_with_the_two_of_clubs_higher_up_are_not_dead():
    # 2C second from the top: KH up takes 6C off, then 2C goes up, and the clubs follow
    state = read_position(BURIED.replace("w:3D2C3C4C5C6C", "w:3D5C3C4C2C6C")).state()
    assert not state.dead_end()
    assert breadth_first(state, exact_key) is True


def test_a_gap_lets_a_card_off_the_waste():
    # carpet, with a gap where carpet-auto had KD (KD in the stock): one card more can come off
    state = read_position("carpet 7C8C9CTCJC/QCKC4D5D6D/7D8D9DTDJD/QD..KHQSKS f:ACJSQH2D s:KD "
                          "w:3D2C3C4C5C6C").state()
    assert state.dead_end() is False
    assert breadth_first(state, exact_key) is True


def _stock_emptied(deal: int, rng: random.Random) -> CarpetState | None:
    """A carpet-auto position reached by random play whose stock is empty, still playing."""
    state = walk("carpet-auto", deal, rng, 0)
    while state.status == PLAYING and state.drawn < len(state.stock):
        state.apply(rng.choice(state.legal_actions()))
    return state if state.status == PLAYING else None


def test_carpet_auto_with_the_stock_empty_playing_what_fits_decides():
    # the solver's safe action there is any card that fits: playing them to the end wins exactly
    # when some line wins (breadth first, every legal action)
    rng = random.Random(11)
    answers = []
    for deal in range(1, 120):
        state = _stock_emptied(deal, rng)
        if state is None:
            continue
        truth = breadth_first(state, family_key, limit=5_000)
        if truth is None:
            continue
        start = state.snapshot()
        while state.status == PLAYING:
            action = state.safe_action()
            assert action is not None and action in state.legal_actions()
            state.apply(action)
        assert (state.status == WON) == truth, deal
        state.restore(start)
        answers.append(truth)
    assert answers.count(True) >= 10 and answers.count(False) >= 20


def test_carpet_auto_plays_nothing_safe_while_the_stock_holds_cards():
    state = get_game("carpet-auto").new_state(parse_deal("2"))
    assert state.drawn < len(state.stock) and state.safe_action() is None


def endgames(game: str, deals: range, seed: int = 0):
    """Positions off the won lines of some deals: a cut of the line, then a few random actions."""
    rng = random.Random(seed)
    for deal in deals:
        session = Session(get_game(game), parse_deal(str(deal)))
        line = solve(session, nodes=50_000).line
        for cut in range(10, len(line), 9):
            state = get_game(game).new_state(parse_deal(str(deal)))
            for action in line[:cut]:
                state.apply(action)
            if play_at_random(state, rng, rng.randrange(1, 8)).status == PLAYING:
                yield deal, state


@pytest.mark.parametrize("game", GAMES)
def test_solver_answers_off_won_lines_agree_with_breadth_first(game):
    # the solver prunes by the proof (and in carpet-auto plays its end game by the safe action):
    # on small positions its answer is the plain search's
    answers = []
    for deal, state in endgames(game, range(1, 9)):
        truth = breadth_first(state, family_key, limit=5_000)
        if truth is None:
            continue
        session = Session(state.variant, parse_deal(str(deal)))
        session.state.restore(state.snapshot())
        assert solve(session, nodes=400_000).result == ("won" if truth else "unwinnable"), deal
        answers.append(truth)
    assert answers.count(True) >= 10 and answers.count(False) >= 2


def test_the_proof_is_asked_only_by_the_last_search(monkeypatch):
    # the carpet family's proof costs about a node: a deal won by the brief first search never asks
    # it beyond the root (its plan's brief search and descent go without it); the last search, which proves,
    # prunes by it
    asked = []
    proof = CarpetState.dead_end

    def counted(state):
        asked.append(1)
        return proof(state)

    monkeypatch.setattr(CarpetState, "dead_end", counted)
    quick = solve(Session(get_game("carpet-auto"), parse_deal("2")))
    assert quick.result == "won" and len(asked) <= 1
    lost = solve(Session(get_game("carpet-auto"), parse_deal("45")))
    assert lost.result == "unwinnable" and len(asked) > 2
    # the same answer from a search that never asks it
    from dataclasses import replace

    from carpet.core.carpet.search import carpet_plan

    monkeypatch.setattr(CarpetState, "plan", replace(carpet_plan(), proof=False))
    assert solve(Session(get_game("carpet-auto"), parse_deal("45")), nodes=1_000_000).result == "unwinnable"
