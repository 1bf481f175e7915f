"""Hint, undo, restart, counted moves and the clock: the session above every variant."""

import pytest

from carpet.core.hint import hint_action
from carpet.core import HINT, RESTART, UNDO, IllegalAction, Session, get_game, parse_deal
from carpet.core.grid import REDEAL


def fresh(game="kovrik", number="1") -> Session:
    return Session(get_game(game), parse_deal(number))


def first_move(session) -> int:
    return next(a for a in session.legal_actions() if a != REDEAL)


def test_kovrik_counts_hints_and_undos_and_never_goes_down():
    s = fresh("kovrik")
    s.act(first_move(s), 100)
    s.act(HINT, 200)
    assert s.moves == 2 and hint_action(s) is not None
    s.act(UNDO, 300)
    assert s.moves == 3  # the undone move stays counted, the undo adds one
    assert s.score == 0


def test_shuffle_variants_hint_free_and_undo_restores_counter():
    s = fresh("kovrik-shuffle")
    s.act(first_move(s), 100)
    s.act(HINT, 150)
    assert s.moves == 1
    s.act(UNDO, 200)
    assert s.moves == 0


def test_undo_never_refunds_a_redeal_in_grid_games():
    for game in ("kovrik", "kovrik-shuffle-2"):
        s = fresh(game)
        before = s.state.snapshot()
        s.act(REDEAL, 10)
        s.act(UNDO, 20)
        assert s.state.cells == list(before[0])
        assert s.state.redeals_used == 1


def test_undo_of_a_shuffle_restores_the_generator():
    s = fresh("kovrik-shuffle", "40000")
    s.act(REDEAL, 1)
    after_first = list(s.state.cells)
    s.act(REDEAL, 2)
    s.act(UNDO, 3)
    assert s.state.cells == after_first
    s.act(REDEAL, 4)  # the same second shuffle again
    again = list(s.state.cells)
    t = fresh("kovrik-shuffle", "40000")
    t.act(REDEAL, 1)
    t.act(REDEAL, 2)
    assert t.state.cells == again


def test_undo_after_last_redeal_can_leave_the_game_lost():
    # After the last redeal is spent, undoing it brings back the position before it,
    # now with no redeal left: the status is computed afresh.
    s = fresh("kovrik-shuffle-2")
    s.act(REDEAL, 1)
    s.act(REDEAL, 2)
    s.act(UNDO, 3)
    assert s.redeals_left == 0
    assert s.status in ("playing", "lost")
    assert (s.status == "lost") == (not s.state.card_moves())


def test_nothing_to_undo_is_illegal_and_changes_nothing():
    s = fresh()
    with pytest.raises(IllegalAction, match="nothing to undo"):
        s.act(UNDO, 5)
    assert s.events == [] and s.moves == 0


def test_restart_resets_everything_and_undo_cannot_cross_it():
    s = fresh("kovrik")
    s.act(first_move(s), 100)
    s.act(REDEAL, 200)
    s.act(RESTART, 300)
    assert s.moves == 0 and s.score == 0 and s.redeals_left == 3 and s.clock_ms == 0
    assert s.state.digest() == s.initial_digest
    with pytest.raises(IllegalAction, match="nothing to undo"):
        s.act(UNDO, 10)


def test_clock_never_runs_backwards_within_an_attempt():
    s = fresh()
    s.act(HINT, 500)
    with pytest.raises(IllegalAction, match="clock"):
        s.act(HINT, 499)
    s.act(first_move(s), 600)
    s.act(UNDO, 700)  # undo never winds the clock back
    assert s.clock_ms == 700
    s.act(RESTART, 800)
    s.act(HINT, 5)  # a new attempt's clock starts at 0
    assert s.clock_ms == 5


def test_hint_after_the_game_is_over_is_free():
    s = fresh("kovrik-hard")
    s.state.redeals_used = 3
    s.state.cells = list(s.state.cells)
    # play the hint player to the end, then ask again
    from carpet.core.autoplay import play_out
    play_out(s, 3000)
    assert s.status in ("won", "lost")
    moves = s.moves
    s.act(HINT, s.clock_ms)
    assert hint_action(s) is None and s.moves == moves


def test_won_game_accepts_only_restart_and_hint():
    s = fresh("kovrik-hard", "1")
    from carpet.core.autoplay import play_out
    play_out(s, 3000)
    assert s.status == "won"
    assert s.score == 52 * 15 + get_game("kovrik-hard").win_bonus(s.moves)
    with pytest.raises(IllegalAction, match="won"):
        s.act(UNDO, s.clock_ms)
    with pytest.raises(IllegalAction, match="won"):
        s.act(REDEAL, s.clock_ms)
    s.act(RESTART, s.clock_ms)
    assert s.status == "playing" and s.score == 0


def test_the_built_in_player_stops_when_it_would_go_round_in_circles():
    from carpet.core.autoplay import play_out
    s = fresh("kovrik", "9")  # after its last redeal only left-rule moves remain, back and forth
    taken = play_out(s, 3000)
    assert s.status == "playing" and taken < 300
    assert play_out(s, 3000) <= 10  # asked again, it goes once round the circle and stops


@pytest.mark.parametrize("game", ["kovrik", "carpet", "persian-carpet"])
@pytest.mark.parametrize("kind", ["move", "hint", "undo", "restart"])
@pytest.mark.parametrize("clock", [2**40 + 1, 2**63, 2**70])
def test_a_clock_reading_no_log_can_hold_is_refused_and_changes_nothing(game, kind, clock):
    """Past 2^40 ms (what every form of the log holds) a reading is refused before anything
    changes: before, a reading of 2^63 or more moved the position and then failed to record it."""
    from carpet.core.session import CLOCK_LIMIT

    session = fresh(game)
    session.act(first_move(session), 1000)
    before = (session.state.digest(), list(session.events), session.moves, session.clock_ms, session.can_undo())
    action = {"move": first_move(session), "hint": HINT, "undo": UNDO, "restart": RESTART}[kind]
    with pytest.raises(IllegalAction, match="beyond 2\\^40 ms"):
        session.act(action, clock)
    assert (session.state.digest(), list(session.events), session.moves, session.clock_ms,
            session.can_undo()) == before
    session.act(action, CLOCK_LIMIT)  # the limit itself is a reading like any other
    assert session.events[-1] == (action, CLOCK_LIMIT)
