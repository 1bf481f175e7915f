"""The seen hint of the grid games whose redeals shuffle (core/seen.py): it never reads the
generator, and after the last shuffle, where nothing is hidden, what it remembers of its searches
(a winning line followed, a position called lost) changes no outcome.

The deals here are used by no other test (8801-8840)."""

import random
import re
from collections import deque

import pytest

from carpet.core import Session, get_game, parse_deal
from carpet.core import seen as seen_module
from carpet.core.autoplay import play_out
from carpet.core.game import PLAYING, WON
from carpet.core.players import get_player
from carpet.core.position import Start, write
from carpet.core.seen import seen_hint, seen_of
from carpet.core.solver import solve, working_copy


def generator_changed(text: str, seed: int) -> str:
    """A grid position's text with another generator: what the shuffles to come would deal."""
    return re.sub(r" g:\S+", f" g:mt.{seed}.0", text)


@pytest.mark.parametrize("game,number", [("montana", 8801), ("spaces", 8802), ("free-parking", 8803),
                                         ("kovrik-shuffle-2", 8804)])
def test_the_seen_hints_of_a_first_pass_are_the_same_whatever_the_generator(game, number):
    """Two games differing only in the generator get the same hints, step by step, up to the
    first shuffle (after it the tables differ)."""
    text = write(get_game(game).new_state(parse_deal(str(number))))
    other = generator_changed(text, 987654321)
    assert other != text
    sessions = [Session(get_game(game), Start(t)) for t in (text, other)]
    steps = 0
    while sessions[0].status == PLAYING and steps < 60:
        assert seen_of(sessions[0]) == seen_of(sessions[1])
        hints = [seen_hint(s) for s in sessions]
        assert hints[0] == hints[1], steps
        if hints[0] is None or get_game(game).action_text(hints[0]) == "redeal":
            break
        for s in sessions:
            s.act(hints[0], 0)
        steps += 1
    assert steps > 0


def open_endgames(game: str, number: int, cuts, walks: int, seed: int):
    """Texts of positions near the end of a won line with no redeal left (``r:0``: nothing hidden),
    some pushed off the line by a few random actions (card moves: no redeal is left)."""
    variant = get_game(game)
    session = Session(variant, parse_deal(str(number)))
    found = solve(session, nodes=150_000)
    assert found.result == "won", (game, number)
    rng = random.Random(seed)
    for cut in cuts:
        for walk in range(walks):
            state = working_copy(session)
            for action in found.line[:len(found.line) - cut]:
                state.apply(action)
            text = re.sub(r" r:\d+", " r:0", write(state))
            position = Session(variant, Start(text)).state
            for _ in range(10 * walk):
                if position.status != PLAYING:
                    break
                position.apply(rng.choice(position.legal_actions()))
            if position.status == PLAYING:
                yield re.sub(r" r:\d+", " r:0", write(position))


def wins_avoiding(state, avoided: set) -> bool:
    """Plain breadth-first search, every legal action, no pruning: whether a win is reachable from
    ``state`` through no position of ``avoided`` (search keys)."""
    start = state.snapshot()
    seen = set(avoided) | {state.search_key()}
    queue = deque([start])
    try:
        while queue:
            snap = queue.popleft()
            for action in (state.restore(snap), state.legal_actions())[1]:
                state.restore(snap)
                state.apply(action)
                if state.status == WON:
                    return True
                key = state.search_key()
                if key not in seen:
                    seen.add(key)
                    queue.append(state.snapshot())
        return False
    finally:
        state.restore(start)


@pytest.mark.parametrize("game,number", [("free-parking", 8812), ("red-moon", 8813)])
def test_after_the_last_shuffle_the_seen_player_wins_what_the_full_hint_wins_and_calls_lost_only_what_is(game, number):
    """Small positions with no redeal left (every search decides there): the seen player ends as
    the full hint's player (``hint``) does, and every position it remembered as lost has no win
    avoiding the attempt's earlier positions, by a plain breadth-first search."""
    variant = get_game(game)
    called_lost = outcomes = 0
    for text in open_endgames(game, number, cuts=(8, 14, 20), walks=4, seed=number):
        assert not seen_of(Session(variant, Start(text))).hidden
        by_hint = get_player("hint").function()(Session(variant, Start(text)), None)
        by_seen = get_player("seen").function()(Session(variant, Start(text)), None)
        assert by_seen.result == by_hint.result, text
        session = Session(variant, Start(text))
        play_out(session, 5000, choose=seen_hint)
        outcomes += 1
        memo = seen_module._RECORDS[session]
        path = session.attempt_snapshots() + [session.state.snapshot()]
        state = working_copy(session)
        before = set()
        for snap in path:
            state.restore(snap)
            if state.status == PLAYING and state.search_key() in memo.lost:
                assert not wins_avoiding(state, before), text
                called_lost += 1
            before.add(state.search_key())
    assert outcomes >= 4 and called_lost > 0, (outcomes, called_lost)


def test_the_attempts_keys_are_kept_exactly_through_undo_and_restart():
    """The keys the seen hint keeps between calls (an undo or a restart starts them afresh) are
    always those of the attempt's positions, worked out again from scratch."""
    session = Session(get_game("carpet"), parse_deal("8821"))
    rng = random.Random(8821)
    for step in range(40):
        state = working_copy(session)
        kept = seen_module._attempt(session).reached(session, state)
        fresh = {state.search_key()}
        for snap in session.attempt_snapshots():
            state.restore(snap)
            fresh.add(state.search_key())
        assert kept == fresh, step
        if session.status != PLAYING:
            session.play_text("restart", 0)
        elif step % 7 == 6 and session.can_undo():
            session.play_text("undo", 0)
        elif step % 13 == 12:
            session.play_text("restart", 0)
        else:
            session.act(rng.choice(session.state.legal_actions()), 0)
