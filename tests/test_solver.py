"""The solver (core/solver.py): answers pinned, proofs cross-checked, lines replayed, determinism."""

from __future__ import annotations

import random
from collections import deque
from pathlib import Path

import pytest

from carpet.core import GAMES, Session, get_game, parse_deal
from carpet.core.game import LOST, PLAYING, WON
from carpet.core.hint import hint_action
from carpet.core.plan import Beam, Brief, Descents, Rounds, searches
from carpet.core.solver import DEFAULT_NODES, Solution, solve, working_copy
from carpet.formats import new_header, record, verify

from conftest import positions_reached

#: carpet deals 1-200 that no play wins, even with the stock known: two independent exhaustive
#: searches agree (one of them Solvitaire's, with waste cards kept off carpet cards)
CARPET_UNWINNABLE = (36, 45, 46, 65, 100, 101, 146, 155, 159, 170, 180, 192)
CREATED = "2026-11-29T12:00:00.000Z"


def session_of(game: str, deal) -> Session:
    return Session(get_game(game), parse_deal(str(deal)))


def replays_to_a_win(session: Session, solution: Solution) -> None:
    """The line, played on a copy of the session and recorded, is a won game that verifies."""
    played = Session.replay(session.variant, session.deal, session.events)
    for action in solution.line:
        played.act(action, played.clock_ms)
    assert played.status == WON
    assert (played.moves, played.score) == (solution.moves, solution.score)
    log = record(played, new_header(played, created=CREATED, tool="test"))
    again = verify(log)
    assert again.status == WON and again.score == solution.score


# --- an exhaustive search written differently: breadth first, every legal action, no pruning --

def exact_key(state) -> bytes:
    """The position exactly (cells by place, cards by deck), the redeals used and the generator."""
    extra = repr(getattr(state, "rng_state", None)).encode()
    return state.position_bytes() + bytes((state.redeals_used,)) + extra


def breadth_first(state, key=exact_key, limit: int = 400_000) -> bool | None:
    """Whether any line wins from ``state``; None when more than ``limit`` positions would be needed."""
    start = state.snapshot()
    seen = {key(state)}
    queue = deque([start])
    try:
        while queue:
            snap = queue.popleft()
            state.restore(snap)
            for action in state.legal_actions():
                state.restore(snap)
                state.apply(action)
                if state.status == WON:
                    return True
                k = key(state)
                if k not in seen:
                    seen.add(k)
                    if len(seen) > limit:
                        return None
                    queue.append(state.snapshot())
        return False
    finally:
        state.restore(start)


# --- carpet: the twelve -------------------------------------------------------------------------

def test_carpet_deals_1_to_200_twelve_unwinnable_the_rest_won_and_replayed():
    unwinnable = []
    for number in range(1, 201):
        session = session_of("carpet", number)
        solution = solve(session)
        assert solution.result in ("won", "unwinnable"), number
        assert solution.information == "full" and solution.best is None
        if solution.result == "unwinnable":
            unwinnable.append(number)
            assert solution.line == [] and (solution.moves, solution.score) == (0, 0)
        else:
            replays_to_a_win(session, solution)
            assert solution.score == 48
    assert tuple(unwinnable) == CARPET_UNWINNABLE


@pytest.mark.parametrize("number", CARPET_UNWINNABLE)
def test_carpet_unwinnable_confirmed_breadth_first(number):
    state = get_game("carpet").new_state(parse_deal(str(number)))
    # exact positions where that stays small; the place-free key of the family elsewhere
    key = exact_key if number in (36, 100, 159, 192) else (lambda s: s.search_key())
    assert breadth_first(state, key) is False


@pytest.mark.parametrize("game,numbers", [("carpet-auto", (36, 100, 159, 192)),
                                          ("carpet-foster", (1, 6, 14, 16, 18, 20))])
def test_other_carpets_answers_confirmed_breadth_first(game, numbers):
    for number in numbers:
        solution = solve(session_of(game, number))
        state = get_game(game).new_state(parse_deal(str(number)))
        assert solution.result == "unwinnable"
        assert breadth_first(state, lambda s: s.search_key()) is False


# --- every family: lines replay; small positions cross-checked -------------------------------

QUICK_WINS = {"kovrik": 1, "kovrik-hard": 1, "kovrik-shuffle": 1, "kovrik-shuffle-2": 3, "carpet": 2,
              "carpet-auto": 2, "carpet-foster": 2, "crazy-quilt": 20, "indian-carpet": 3,
              "persian-carpet": 4, "montana": 1, "spaces": 1, "station": 1, "free-parking": 1,
              "blue-moon": 1, "red-moon": 1, "galary": 1, "jungle": 1, "spaces-and-aces": 6}
OPEN = {"kovrik", "kovrik-hard", "persian-carpet", "spaces-and-aces"}


@pytest.mark.parametrize("game", sorted(GAMES))
def test_a_won_line_replays_and_verifies(game):
    session = session_of(game, QUICK_WINS[game])
    solution = solve(session, nodes=150_000)
    assert solution.result == "won"
    replays_to_a_win(session, solution)
    assert solution.information == ("open" if game in OPEN else "full")


def play_at_random(state, rng: random.Random, steps: int):
    """``state`` after up to ``steps`` random legal actions (fewer where the game ends first)."""
    for _ in range(steps):
        if state.status != PLAYING:
            break
        state.apply(rng.choice(state.legal_actions()))
    return state


def first_dead_end(state, rng: random.Random, steps: int):
    """Random legal actions from ``state``, up to ``steps``, until the family's ``dead_end`` says a
    position still playing is lost: that position, or None."""
    for _ in range(steps):
        if state.status != PLAYING:
            return None
        state.apply(rng.choice(state.legal_actions()))
        if state.status == PLAYING and state.dead_end():
            return state
    return None


def endgames(game: str, cuts=(6, 12, 20), walks=4, seed=0):
    """Positions near the end of a won line, some pushed off it by a few random actions."""
    session = session_of(game, QUICK_WINS[game])
    line = solve(session, nodes=150_000).line
    rng = random.Random(seed)
    for cut in cuts:
        for walk in range(walks):
            state = working_copy(session)
            for action in line[:len(line) - cut]:
                state.apply(action)
            yield play_at_random(state, rng, walk * 3)


@pytest.mark.parametrize("game,cuts", [("kovrik", (8, 16)), ("kovrik-hard", (8, 16, 24, 32)),
                                       ("montana", (8, 16, 24)), ("spaces", (8, 16)), ("jungle", (3, 5)),
                                       ("galary", (8, 16)),
                                       ("kovrik-shuffle-2", (8, 16, 24)), ("carpet-auto", (8, 16, 24)),
                                       ("carpet-foster", (8, 16, 24)), ("crazy-quilt", (8, 16, 24, 32)),
                                       ("indian-carpet", (8, 16, 24, 32)), ("persian-carpet", (4, 8))])
def test_answers_on_small_positions_agree_with_breadth_first(game, cuts):
    # quilt positions counted exactly grow too many: there the family's key (copies of a card
    # alike, reserves in any order) keeps the breadth-first search small
    key = (lambda s: s.search_key()) if get_game(game).family == "quilt" else exact_key
    checked = []
    for state in endgames(game, cuts):
        if state.status != PLAYING:
            continue
        truth = breadth_first(state, key, limit=30_000)
        if truth is None:
            continue
        session = Session(state.variant, parse_deal(str(QUICK_WINS[game])))
        session.state.restore(state.snapshot())
        answer = solve(session, nodes=2_000_000).result
        assert answer == ("won" if truth else "unwinnable"), game
        checked.append(truth)
    assert checked.count(True) >= 3


# --- the interface ----------------------------------------------------------------------------

def test_deterministic_and_session_untouched():
    for game, number in (("kovrik-hard", 5), ("crazy-quilt", 1), ("carpet-auto", 55)):
        session = session_of(game, number)
        digest = session.state.digest()
        a = solve(session, nodes=30_000)
        b = solve(session, nodes=30_000)
        assert (a.result, a.line, a.nodes) == (b.result, b.line, b.nodes)
        assert session.state.digest() == digest and session.events == [] and session.moves == 0


def test_unknown_within_a_small_budget_and_stop():
    session = session_of("crazy-quilt", 1)
    solution = solve(session, nodes=1000)
    assert solution.result == "unknown" and solution.line == [] and solution.nodes <= 1000 + 104
    asked = []

    def stop():
        asked.append(1)
        return len(asked) >= 2

    stopped = solve(session, stop=stop)
    assert stopped.result == "unknown" and stopped.nodes < 5000


def test_from_a_position_reached_and_from_the_end():
    session = session_of("kovrik", 1)
    for text in ("AC>a0", "hint", "AS>b0"):
        session.play_text(text, 0)
    solution = solve(session)
    assert solution.result == "won" and solution.moves == session.moves + len(solution.line)
    replays_to_a_win(session, solution)
    for action in solution.line:
        session.act(action, 0)
    done = solve(session)
    assert (done.result, done.line, done.nodes, done.score) == ("won", [], 0, session.score)
    lost = session_of("carpet", 36)
    lost.state.status = LOST  # as the rules would have it once nothing is left
    assert solve(lost).result == "unwinnable"


def test_best_score():
    carpet = solve(session_of("carpet", 1), best=True)
    assert carpet.result == "won" and carpet.best is True and carpet.score == 48
    # kovrik: fewer moves, bigger bonus; near the end the search can prove its best
    session = session_of("kovrik", 1)
    line = solve(session).line
    for action in line[:-8]:
        session.act(action, 0)
    first = solve(session)
    best = solve(session, best=True)
    assert best.result == "won" and best.best is True and best.score >= first.score
    assert best.moves <= first.moves
    replays_to_a_win(session, best)
    assert solve(session, best=True, nodes=3).best is not True


def plan_of(game: str):
    """The solver's plan for ``game`` (its family's, core/plan.py)."""
    return get_game(game).new_state(parse_deal("1")).plan


def beam_alone(session: Session, limit: int, stage: Beam):
    """The beam ``stage`` alone from the session's position, within ``limit`` nodes: (its outcome,
    the state it ran on)."""
    from carpet.core import solver

    state = working_copy(session)
    job = solver._Job(state, plan_of(session.variant.id), bonus=session.variant.win_bonus)
    return solver._Searcher(job, limit, stage.order).run_beam(stage), state


def test_a_familys_other_orders_are_searched_in_turn_within_the_budget(monkeypatch):
    from carpet.core.quilt import QuiltState

    asked = []
    plain = QuiltState.search_actions

    def counted(self, order=0, key=None):
        if order not in asked:
            asked.append(order)
        return plain(self, order, key)
    monkeypatch.setattr(QuiltState, "search_actions", counted)
    # decided in the usual order: no other order is asked for
    assert solve(session_of("crazy-quilt", 10)).result == "won" and asked == [0]
    # undecided: every order in turn, the budget shared (a step of safe plays may go over)
    asked.clear()
    solution = solve(session_of("persian-carpet", 2), nodes=1600)
    assert solution.result == "unknown" and solution.nodes <= 1600 + 104
    assert asked == [stage.order for stage in plan_of("persian-carpet").stages] == list(range(8))
    # where the plan has beams, the wide beams after the third order's search take what is left,
    # each searching in an order of its own (here all of it: the orders' searches after them get
    # nothing)
    stages = plan_of("crazy-quilt").stages
    last_beam = max(n for n, stage in enumerate(stages) if isinstance(stage, Beam))
    asked.clear()
    solution = solve(session_of("crazy-quilt", 1), nodes=8000)
    assert solution.result == "unknown" and solution.nodes <= 8000 + 104
    assert asked == list(dict.fromkeys(stage.order for stage in stages[:last_beam + 1])) == list(range(6))
    # the hint keeps to the usual order
    asked.clear()
    hint_action(session_of("crazy-quilt", 1), nodes=2000)
    assert asked == [0]


def test_a_familys_measures_of_progress_each_steer_a_descent(monkeypatch):
    from carpet.core.grid import GridState

    plain, calls = GridState.progress, []  # the measure of each call, in turn
    monkeypatch.setattr(GridState, "progress", lambda self, measure=0: calls.append(measure) or plain(self, measure))
    # undecided: in each order a descent by the usual measure, then (the first stuck after 48,612
    # nodes) one by the other
    solution = solve(session_of("spaces-and-aces", 13), nodes=120_000)
    assert solution.result == "unknown" and list(dict.fromkeys(calls)) == [0, 1]
    # one measure where the family offers one; and the hint keeps to the usual measure
    calls.clear()
    solve(session_of("kovrik", 4563), nodes=20_000)
    hint_action(session_of("spaces-and-aces", 13), nodes=2000)
    assert calls and set(calls) == {0}


def test_a_descent_may_take_the_whole_search_and_the_hints_a_quarter(monkeypatch):
    from carpet.core import solver
    from carpet.core.plan import HINT_DESCENT
    from carpet.core.quilt import QuiltState

    plain, spans = solver._Searcher._descend, []  # (the descent's budget, the search's) of each descent

    def descend(self, root_line, limit, lookahead):
        spans.append((limit - self.nodes, self.limit))
        return plain(self, root_line, limit, lookahead)

    monkeypatch.setattr(solver._Searcher, "_descend", descend)
    monkeypatch.setattr(QuiltState, "plan", searches(1, (Brief(), Descents(), Rounds())))
    # crazy-quilt 3040 (unknown at the default budget with a quarter for the descent, 8 orders):
    # in one order of 50,000 nodes the descent with the whole budget wins, one with a quarter not
    session = session_of("crazy-quilt", 3040)
    won = solve(session, nodes=50_000)
    assert won.result == "won" and spans and all(span == total for span, total in spans)
    replays_to_a_win(session, won)
    spans.clear()
    with monkeypatch.context() as patched:
        patched.setattr(QuiltState, "plan", searches(1, (Brief(), Descents(share=4), Rounds())))
        assert solve(session, nodes=50_000).result == "unknown"
    assert spans and all(span == total // 4 for span, total in spans)
    # every game's plan lets its descents take the whole search
    monkeypatch.undo()
    monkeypatch.setattr(solver._Searcher, "_descend", descend)
    assert {step.share for game in GAMES for step in plan_of(game).steps if isinstance(step, Descents)} == {1}
    spans.clear()
    solve(session_of("kovrik", 4563), nodes=20_000)
    assert spans and all(span == total for span, total in spans)
    # the hint's descent takes 1/HINT_DESCENT of its budget, the rest left to its rounds
    spans.clear()
    hint_action(session_of("crazy-quilt", 3040), nodes=2000)
    hint_action(session_of("kovrik", 4563), nodes=2000)
    assert HINT_DESCENT > 1 and spans and all(span == total // HINT_DESCENT for span, total in spans)


def test_the_beam_wins_lines_that_replay_and_only_where_a_family_asks(monkeypatch):
    """The beam (core/beam.py): its win is a line that replays to a won game; the solver runs it
    after the first order's search where the game's plan has one (core/plan.py), and crazy-quilt
    448, unknown at the default budget without it (main at f82c337: 400,000 nodes), is won by it;
    every other family keeps its nodes to the node (the figures of f82c337 at 20,000 nodes).  Both
    beams rank their ways by the family's forecast first; the wide beams search their last pass
    (200 nodes a position), the first beam beams it."""
    from carpet.core import solver

    runs = []  # (width, nodes a position, forecast first, last pass, result, nodes) of each beam
    measures = []  # the measure of progress each beam ranks by
    orders = []  # the order of actions each beam searches its stages in

    def run_beam(self, stage):
        out = plain(self, stage)
        runs.append((stage.width, stage.reach, stage.foresee, stage.last, out.result, out.nodes))
        measures.append(stage.measure)
        orders.append(self.order)
        return out

    plain = solver._Searcher.run_beam
    monkeypatch.setattr(solver._Searcher, "run_beam", run_beam)
    # the beam alone on crazy-quilt 448, at most 60,000 nodes: a win that replays
    session = session_of("crazy-quilt", 448)
    first, *wide = [stage for stage in plan_of("crazy-quilt").stages if isinstance(stage, Beam)]
    assert (first.width, first.reach, first.foresee, first.last, first.measure, first.order) == (100, 200, True, 0, 0, 0)
    out, state = beam_alone(session, 60_000, first)
    assert out.result == "won" and 0 < out.nodes <= 60_000
    assert state.snapshot() == session.state.snapshot()  # the state left as found
    replays_to_a_win(session, Solution("won", out.line, out.nodes, len(out.line), out.end_score))
    # in the solver: won by the same beam, after order 0's search (50,000 nodes, an eighth)
    won = solve(session)
    assert won.result == "won" and runs == [(100, 200, True, 0, "won", out.nodes)] * 2
    assert won.nodes == DEFAULT_NODES // 8 + out.nodes
    replays_to_a_win(session, won)
    # a beam that ends without a win leaves the search's answer to the orders after it; after
    # the third order's search the wide beams take what is left, and the budget holds
    runs.clear()
    measures.clear()
    orders.clear()
    unknown = solve(session_of("crazy-quilt", 3001), nodes=20_000)
    assert unknown.result == "unknown" and unknown.nodes <= 20_000
    assert [run[:5] for run in runs] == [(100, 200, True, 0, "unknown")] + [(333, 5, True, 200, "unknown")] * 3
    # the first beam ranks by the usual progress, the wide beams by measures 1, 0, 1 in turn,
    # each in an order of its own, from the third on
    assert measures == [0, 1, 0, 1] == [stage.measure for stage in (first, *wide)]
    assert orders == [0, 3, 4, 5]
    assert 0 < runs[0][5] <= (20_000 - 20_000 // 8) // first.share
    # the quilt's stock games have beams (Indian Carpet, with two redeals, not the first), Persian
    # Carpet and the other families none
    assert [sum(isinstance(stage, Beam) for stage in plan_of(game).stages)
            for game in ("crazy-quilt", "indian-carpet", "persian-carpet", "carpet", "kovrik", "montana")] == \
        [4, 3, 0, 0, 0, 0]
    assert [stage for stage in plan_of("indian-carpet").stages if isinstance(stage, Beam)] == wide
    runs.clear()
    nodes = {(game, deal): solve(session_of(game, deal), nodes=20_000).nodes
             for game, deal in (("carpet", 2001), ("kovrik", 2001), ("montana", 2001), ("persian-carpet", 2))}
    assert nodes == {("carpet", 2001): 97, ("kovrik", 2001): 424, ("montana", 2001): 838,
                     ("persian-carpet", 2): 7632} and not runs


def test_the_wide_beam_wins_where_the_orders_searches_do_not(monkeypatch):
    """Crazy-quilt 26: order 0's search, the beam after it and orders 1 and 2 leave it unknown
    (stop 37's solver, which searched orders 3-7 instead, left it unknown at the default
    budget); the first of the wide beams, with its third of what is left, wins it in its searched
    last pass, in a line that replays to a won game, and no order after the third is searched."""
    from carpet.core import solver

    orders, beams, last_pass = [], [], []  # (last_pass: the wide beam's searches, won or not)
    searched, beamed, here = solver._Searcher.run, solver._Searcher.run_beam, solver._Searcher._search_here

    def run(self):
        if not last_pass or last_pass[-1] is not None:  # (not a search of the last pass)
            orders.append(self.order)
        return searched(self)

    def search_here(self, nodes, seen):
        last_pass.append(None)
        line = here(self, nodes, seen)
        last_pass[-1] = line is not None
        return line

    def run_beam(self, stage):
        out = beamed(self, stage)
        beams.append((stage.width, stage.reach, out.result))
        return out

    monkeypatch.setattr(solver._Searcher, "run", run)
    monkeypatch.setattr(solver._Searcher, "run_beam", run_beam)
    session = session_of("crazy-quilt", 26)
    with monkeypatch.context() as patched:
        patched.setattr(solver._Searcher, "_search_here", search_here)
        won = solve(session)
    assert won.result == "won" and won.nodes <= DEFAULT_NODES
    assert orders == [0, 1, 2]
    assert beams == [(100, 200, "unknown"), (333, 5, "won")]
    # won in the first wide beam's last pass, searched: the last search of it won, none before
    assert len(last_pass) > 1 and last_pass == [False] * (len(last_pass) - 1) + [True]
    replays_to_a_win(session, won)


def test_the_beam_searches_its_last_pass_and_its_wins_replay(monkeypatch):
    """The beam's searched last pass (``last``): a position its redeal leads into the last pass
    is searched depth first with at most ``last`` nodes, in the stage's order, until one wins
    (the searches sharing one set of the positions met);
    the win replays, the nodes are counted, the state is left as found.  (Crazy-quilt 5007, a
    deal no survey counts: the beam alone, 100 wide, wins it with and without.)"""
    from carpet.core import solver

    searches = []  # (redeals left, nodes given, nodes used, won) of each search of the last pass
    sets = []  # (the set of positions met each search is given, its size before and after)
    plain = solver._Searcher._search_here

    def search_here(self, nodes, seen):
        before, left, known = self.nodes, self.state.redeals_left, len(seen)
        line = plain(self, nodes, seen)
        searches.append((left, nodes, self.nodes - before, line is not None))
        sets.append((seen, known, len(seen)))
        return line

    monkeypatch.setattr(solver._Searcher, "_search_here", search_here)
    session = session_of("crazy-quilt", 5007)
    answers = {}
    for last in (0, 1000):
        out, state = beam_alone(session, 80_000, Beam(100, last=last))
        assert out.result == "won" and 0 < out.nodes <= 80_000
        assert state.snapshot() == session.state.snapshot()
        replays_to_a_win(session, Solution("won", out.line, out.nodes, len(out.line), out.end_score))
        answers[last] = out.nodes
    # beamed to the end: no search; searched: every search from the last pass, within its
    # nodes, only the last one won
    assert searches and all(left == 0 and given <= 1000 and 0 < used <= given
                            for left, given, used, _won in searches)
    # one set of positions met, shared by the searches of a beam's last pass: each search adds
    # what it meets to what the earlier ones met
    # (``sets`` and ``searches`` grow together: the beam of ``last`` 0 makes no search)
    assert len(sets) == len(searches) and all(seen is sets[0][0] for seen, _before, _after in sets)
    assert all(after > before for _seen, before, after in sets)
    assert all(sets[n][2] == sets[n + 1][1] for n in range(len(sets) - 1))
    assert [won for *_rest, won in searches] == [False] * (len(searches) - 1) + [True]
    assert answers[1000] != answers[0]
    # a budget too small for the last pass: unknown, within the budget
    searches.clear()
    out, _state = beam_alone(session, 20_000, Beam(100, last=1000))
    assert out.result == "unknown" and out.nodes <= 20_000 + 104


def test_a_hint_searches_less_than_a_solve():
    from carpet.core.families import FAMILIES
    from carpet.core.hint import hint_nodes

    budgets = {family.name: family.hint_nodes for family in FAMILIES.values()}
    assert all(0 < nodes < DEFAULT_NODES for nodes in budgets.values()), budgets
    assert hint_nodes(get_game("montana")) == budgets["grid"]
    assert hint_nodes(get_game("crazy-quilt")) == budgets["quilt"]


# --- the hint -----------------------------------------------------------------------------------

def test_the_hint_a_person_asks_for_is_the_solvers():
    from carpet.cli.live import hint_of

    session = session_of("kovrik-hard", 2)
    assert hint_of(session, peek=True) == hint_action(session)
    assert hint_action(session) in session.legal_actions()


def test_the_session_does_not_load_the_solver():
    """No circle: the solver imports the session, never the other way round (the hint is asked of
    core/hint.py, ``hint_action``)."""
    import subprocess
    import sys

    code = "import sys, carpet.core.session; print('carpet.core.solver' in sys.modules)"
    assert subprocess.run([sys.executable, "-c", code], capture_output=True, text=True).stdout.strip() == "False"
    import carpet.core.session as module

    source = Path(module.__file__).read_text()
    assert "solver import" not in source


def test_hint_never_returns_to_a_position_of_the_attempt():
    # kovrik's left rule lets a card go back where it came from; the hint never names that
    session = session_of("kovrik", 1)
    rng = random.Random(3)
    for _ in range(30):
        session.act(rng.choice(session.legal_actions()), 0)
    state, key, reached = positions_reached(session)
    action = hint_action(session, nodes=2000)
    state.restore(session.state.snapshot())
    state.apply(action)
    assert key() not in reached


@pytest.mark.parametrize("game", ["carpet", "carpet-foster", "kovrik"])
def test_following_the_hint_ends_and_wins_what_the_solver_wins(game):
    for number in (1, 2, 3):
        session = session_of(game, number)
        won = solve(session).result == "won"
        steps = 0
        while session.status == PLAYING and steps < 400:
            session.act(hint_action(session), 0)
            steps += 1
        assert session.status != PLAYING
        assert session.status == WON or not won


@pytest.mark.parametrize("game", ["carpet", "carpet-foster", "kovrik-hard"])
def test_a_hint_never_turns_a_won_position_into_a_proven_loss(game):
    rng = random.Random(11)
    for number in range(1, 7):
        session = session_of(game, number)
        for _ in range(rng.randrange(0, 40)):
            actions = session.legal_actions()
            if session.status != PLAYING or not actions:
                break
            session.act(rng.choice(actions), 0)
        if session.status != PLAYING or solve(session).result != "won":
            continue
        session.act(hint_action(session), 0)
        assert solve(session).result != "unwinnable"


def _best_by_brute_force(session: Session, depth: int) -> tuple[int, int] | None:
    """(score, -moves) of the best win within ``depth`` actions, every line tried (no pruning)."""
    state = working_copy(session)
    found = []

    def walk(moves: int) -> None:
        if state.status == WON:
            found.append((state.score + state.variant.win_bonus(session.moves + moves), -moves))
            return
        if state.status != PLAYING or moves == depth:
            return
        here = state.snapshot()
        for action in state.legal_actions():
            state.apply(action)
            walk(moves + 1)
            state.restore(here)

    walk(0)
    return max(found, default=None)


def test_best_ranks_wins_by_score_then_fewest_moves_and_proves_only_a_complete_search():
    # kovrik-shuffle: every prefix-lengthening move scores 10, so most wins score alike; the seed's
    # best is then the fewest moves (deal 14: the first win takes 136, a shorter one 129)
    session = session_of("kovrik-shuffle", 14)
    first = solve(session, nodes=20_000)
    best = solve(session, best=True, nodes=20_000)
    assert best.result == "won" and best.score == first.score and best.moves < first.moves
    # the score meets the game's bound, so it is proven highest; the fewest moves are not
    assert best.best_score is True and best.best is False
    replays_to_a_win(session, best)
    # near the end the search is complete: proven, and every line within reach agrees
    near = session_of("kovrik-shuffle", 14)
    for action in first.line[:-8]:
        near.act(action, 0)
    proven = solve(near, best=True)
    assert proven.best is True and proven.best_score is True
    brute = _best_by_brute_force(near, 10)
    assert brute == (proven.score, -(proven.moves - near.moves))
    # the same search stopped one node short proves nothing about the moves
    short = solve(near, best=True, nodes=proven.nodes - 1)
    assert short.result == "won" and short.best is False and short.best_score is True


@pytest.mark.parametrize("deal", range(1, 9))
def test_best_never_ranks_below_the_first_win_and_is_not_proven_on_a_budget(deal):
    session = session_of("kovrik-shuffle", deal)
    first = solve(session, nodes=5_000)
    best = solve(session, best=True, nodes=5_000)
    assert first.result == best.result == "won"
    assert (best.score, -best.moves) >= (first.score, -first.moves)
    # unlimited shuffles: no search of 5,000 nodes is complete, so nothing about the moves is proven
    assert best.best is False
    replays_to_a_win(session, best)


@pytest.mark.parametrize("game", ["kovrik", "kovrik-hard", "carpet-auto", "carpet-foster", "spaces"])
def test_a_wins_moves_and_score_are_what_replaying_its_line_gives(game):
    # the solver reads them off the won position it reached (it no longer plays the line again):
    # they must be what a session that plays the line counts, win bonus included
    won = 0
    for deal in range(1, 7):
        session = session_of(game, deal)
        solution = solve(session, nodes=60_000)
        if solution.result == "won":
            replays_to_a_win(session, solution)
            won += 1
    assert won >= 3


@pytest.mark.parametrize("game, deal", [("kovrik-hard", 27), ("carpet-auto", 51), ("montana", 2)])
def test_a_win_the_descents_look_ahead_finds_has_the_moves_and_score_of_its_line(game, deal):
    # at this budget the guided descent's look-ahead finds the win (the look-ahead leaves the state
    # where it began: the solver plays the win's end again to read its score)
    session = session_of(game, deal)
    solution = solve(session, nodes=60_000)
    assert solution.result == "won"
    replays_to_a_win(session, solution)


#: the games whose family peeks (a single-deck grid game; carpet-auto), and those where it never can
PEEKING = [g for g in sorted(GAMES) if get_game(g).family == "grid" and get_game(g).card_count == 52] + ["carpet-auto"]
NOT_PEEKING = ["carpet", "carpet-foster"]


@pytest.mark.parametrize("game", PEEKING + NOT_PEEKING)
def test_a_peeked_key_is_the_key_the_action_leads_to_and_no_safe_action_follows(game):
    # the search skips the apply of an action whose peeked key it has seen (core/solver.py, _pass):
    # sound only if the peek is exactly the key after the action, and counted right (one node)
    # only if no safe action would be played after it
    rng = random.Random(game)
    peeked = 0
    for deal in range(1, 6):
        state = get_game(game).new_state(parse_deal(str(deal)))
        for _ in range(150):
            if state.status != PLAYING:
                break
            here, key = state.snapshot(), state.search_key()
            actions = state.search_actions()
            for action in actions:
                state.restore(here)
                after = state.search_key_after(key, action)
                assert state.snapshot() == here  # (it reads the position only)
                state.apply(action)
                if after is not None:
                    peeked += 1
                    assert after == state.search_key(), (deal, action)
                    safe = getattr(state, "safe_action", None)
                    assert state.status != PLAYING or safe is None or safe() is None, (deal, action)
            state.restore(here)
            if not actions:
                break
            state.apply(rng.choice(actions))
    assert peeked > 100 if game in PEEKING else peeked == 0


def test_spaces_and_aces_glances_searches_briefly_then_descends_the_others_search_briefly_first(monkeypatch):
    # the ablation (docs/solver.md): a glance with the proof wins what the others leave where the
    # proof prunes at once (959); a brief search of 1/16 wins about one deal in 1,800 that the
    # descents leave (7035, 5930); in the other grid games the brief search pays (without it they
    # take 2.3 to 13 times the CPU)
    from dataclasses import replace

    from carpet.core import solver
    from carpet.core.grid import GridState
    from carpet.core.plan import Brief, Glance

    steps = []  # each step of the search as it runs: "rounds" or "descents"
    rounds, descents = solver._Searcher.rounds, solver._Searcher.descents
    monkeypatch.setattr(solver._Searcher, "rounds",
                        lambda self, *a, **k: steps.append("rounds") or rounds(self, *a, **k))
    monkeypatch.setattr(solver._Searcher, "descents",
                        lambda self, step: steps.append("descents") or descents(self, step))
    assert solve(session_of("spaces-and-aces", 13), nodes=240_000).result == "unknown"
    # (the glance, the brief search, then as named, in each of its two orders)
    assert steps == ["rounds", "rounds", "descents", "rounds"] * 2
    steps.clear()
    assert solve(session_of("kovrik", 2001), nodes=20_000).result == "won" and steps == ["rounds"]
    monkeypatch.undo()
    for deal, most in ((7035, 1_000), (5930, 400_000 // 2 // 16)):
        session = session_of("spaces-and-aces", deal)
        won = solve(session)
        assert won.result == "won" and won.nodes < most
        replays_to_a_win(session, won)
    plan = session.state.plan
    assert [type(step) for step in plan.steps[:2]] == [Glance, Brief]
    monkeypatch.setattr(GridState, "plan", replace(plan, steps=plan.steps[:1] + plan.steps[2:]))
    assert solve(session_of("spaces-and-aces", 7035)).result == "unknown"  # (without the brief search)
    monkeypatch.undo()
    # spaces-and-aces 959: the glance wins it at once, and the rest do not within the budget
    session = session_of("spaces-and-aces", 959)
    won = solve(session)
    assert won.result == "won" and won.nodes < 1_000
    replays_to_a_win(session, won)
    plan = session.state.plan
    assert isinstance(plan.steps[0], Glance)
    monkeypatch.setattr(GridState, "plan", replace(plan, steps=plan.steps[1:]))
    assert solve(session, nodes=40_000).result == "unknown"
    monkeypatch.undo()
    # spaces-and-aces 14, which the glance no longer wins at once, is won at the default budget
    session = session_of("spaces-and-aces", 14)
    won = solve(session)
    assert won.result == "won"
    replays_to_a_win(session, won)
