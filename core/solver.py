"""The solver: is this position winnable, and how?  (What ``carpet hint`` names, from its search: core/hint.py.)

It works on any variant through the :class:`~carpet.core.game.State` API (``snapshot``,
``restore``, ``legal_actions``, ``apply``, ``status``, ``score``) and what the family knows of
its own game (core/knowledge.py: keys, safe actions, orders of actions, proofs, progress).  How
it searches is the game's plan (core/plan.py), read by :func:`_search`: its stages run in turn,
each with its share of the nodes the ones before it left, until one decides.  A search stage runs
the plan's steps over the pass-by-pass depth-first search below, the guided descent
(core/descent.py) and, between searches, beams (core/beam.py); docs/solver.md tells the whole
search in order, with the reason for each stage.

Three answers, never a guess:

- ``won``: a line of actions from the position that wins (replayable as it stands);
- ``unwinnable``: every position reachable from here was searched (or proved dead)
  without a win: a proof, as long as the family's pruning is sound;
- ``unknown``: the node budget (or the caller's ``stop``, or the memory bound) ended the
  search first.

``best=True`` (``carpet solve --best``) ranks wins as the games rank them: the highest score
first, then the fewest counted moves.  It goes on after the first win, cutting off a position
only when no win from it can rank higher (its score bound below the best, or equal with no fewer
moves left to make), and calls its answer proven best only when that search was complete; it
says apart whether the score alone is proven highest.

**Memory.** What the search holds grows with the positions it remembers (one entry each).  Their
number is bounded by ``memory`` bytes over :data:`BYTES_PER_ENTRY`, an estimate from
measurement; reaching it ends the search as the budget does, with "unknown".

A node is one ``apply``.  The search reads no clock, draws no random number and never iterates
a set, so the same position and budget give the same answer and line on every machine and in
every run (whatever PYTHONHASHSEED).
"""

from __future__ import annotations

import contextlib
import functools
from dataclasses import dataclass, field, replace
from typing import Callable

from . import plan as _plan
from .beam import Beam, path_line as _line
from .descent import Descent
from .game import LOST, PLAYING, WON, State
from .plan import ROUNDS, Plan
from .session import Session, deal_state

#: the default budget of ``carpet solve`` (about 2 s of CPU for a grid game on the
#: development machine, less elsewhere)
DEFAULT_NODES = 400_000
#: how often the caller's ``stop`` is asked (in nodes)
STOP_EVERY = 1024
#: the search's memory by default (bytes): what it holds is counted in entries, never asked of the OS
DEFAULT_MEMORY = 1 << 30
#: bytes a remembered position costs, all told (key, set slot, the search's other structures): measured
#: with tracemalloc at 180-300 over long searches (kovrik 4563, spaces 241, spaces-and-aces 3 at
#: 400,000 nodes: 179, 191, 188; crazy-quilt 5: 299), with a margin
BYTES_PER_ENTRY = 320

WON_RESULT, UNWINNABLE, UNKNOWN = "won", "unwinnable", "unknown"


@dataclass
class Solution:
    """What :func:`solve` found.

    ``line`` holds action indexes from the session's position (empty unless won);
    ``moves`` and ``score`` are the session's counted moves and score at the end of
    the line (its position when not won), win bonus included.  When asked for
    (``best=True``): ``best`` says whether no win from here ranks higher (scores more, or
    as much in fewer counted moves); ``best_score`` whether no win scores more.
    """

    result: str
    line: list[int] = field(default_factory=list)
    nodes: int = 0
    moves: int = 0
    score: int = 0
    best: bool | None = None
    information: str = "open"
    best_score: bool | None = None
    #: the search ended at its memory bound (``memory``), not at its budget
    memory_full: bool = False


# --- the family's knowledge (core/knowledge.py) ---------------------------------------------

def _NO_SAFE() -> None:
    """No safe action (the default)."""
    return None


def _NO_DEAD() -> bool:
    """No dead-end proof (the default)."""
    return False


def _knowledge(state, best: bool = False, order: int = 0, proof: bool = True):
    """(key, safe, actions, dead, progress) as callables on ``state`` (a family's state,
    core/knowledge.py), a no-op in place of a safe action or proof the family lacks.

    With ``best``, safe actions are used only where the family says they never cost score
    (``safe_keeps_score``): safe means safe for winning, not for the best win.  Those
    families' safe actions are taken to cost no counted move either, and a proof of the
    fewest moves rests on it: each is a card to its foundation that any win plays once
    (in the carpet family it commutes with every other action).  ``order``: which of the
    family's orders of actions to use; 0 the usual one.  ``proof``: whether the family's
    ``dead_end`` applies in this game (the plan's ``proof``).
    """
    safe = state.safe_action
    if safe is None or (best and not state.safe_keeps_score):
        safe = _NO_SAFE
    actions = functools.partial(state.search_actions, order) if order else state.search_actions
    dead = state.dead_end if proof else _NO_DEAD  # (the plan says whether the proof applies in this game)
    return state.search_key, safe, actions, dead, state.progress


def information(variant) -> str:
    """``"full"`` when the solver sees what a player cannot (a face-down stock, the
    outcome of a seeded shuffle), else ``"open"``."""
    return "full" if variant.hidden_information else "open"


def working_copy(session: Session) -> State:
    """A fresh state in the session's position (the session is never touched): the family's
    ``copy()`` where it offers one (core/game.py), else the deal dealt again, the position restored."""
    copy = session.state.copy
    if copy is not None:
        return copy()
    state = deal_state(session.variant, session.deal)
    state.restore(session.state.snapshot())
    return state


# --- the search -------------------------------------------------------------------------------
#
# Depth first with a transposition set, one *pass* at a time.  A redeal starts a new pass
# (the variant's "redeal" word: grid games lay the loose cards out again, quilt games turn
# the waste over); what it leads to depends on the whole position it is made from, so trying
# it wherever it is legal, as a plain depth-first search would, sends the search into the
# next pass from the first position it happens to reach and never back.  Instead, the
# search explores a pass without redealing and notes every position a redeal could be made
# from; then it redeals from them, the most advanced (``progress``) first, each new pass
# searched the same way.  Every redeal is still tried (unless the budget or the memory bound
# cuts the search short, in which case it never claims "unwinnable"): a redeal point is
# remembered as a position is, and counts against the memory bound as one.


class _Outcome:
    __slots__ = ("result", "line", "nodes", "best_line", "best_score", "best_moves", "children",
                 "exhausted", "guide", "memory_full", "end_score")

    def __init__(self) -> None:
        self.result = UNKNOWN
        self.line: list[int] = []
        self.nodes = 0
        #: with best=True: the best win so far, its score and its counted moves from the root
        self.best_line: list[int] | None = None
        self.best_score: int | None = None
        self.best_moves: int | None = None
        #: for the hint: root action -> [exhausted, best progress after it, order first seen]
        self.children: dict[int, list] = {}
        #: whether the whole reachable space was searched
        self.exhausted = False
        #: the guided descent's first choice at the root (what the hint falls back on)
        self.guide: int | None = None
        #: the search stopped at its memory bound
        self.memory_full = False
        #: outside best mode, after a win: the score at the end of ``line``, win bonus included
        self.end_score: int | None = None


class _OutOfBudget(Exception):
    pass


@dataclass(frozen=True)
class _Job:
    """What every stage of one search shares: the position, the caller's ``stop``, memory bound and
    positions ``seen`` already, the mode (``best``, ``track``: the hint's), the counted ``moves``
    so far and the variant's win ``bonus``, a win to beat (``incumbent``) and the ``plan``."""
    state: State
    plan: Plan
    stop: Callable[[], bool] | None = None
    seen: set | None = None
    best: bool = False
    moves: int = 0
    bonus: Callable[[int], int] | None = None
    track: bool = False
    incumbent: tuple | None = None
    memory: int = DEFAULT_MEMORY

    def search(self, order: int, limit: int) -> tuple[_Outcome, _Searcher]:
        """The plan's search (its ``steps``) in the family's order ``order``, within ``limit`` nodes."""
        searcher = _Searcher(self, limit, order)
        return searcher.run(), searcher

    def beam(self, stage: _plan.Beam, limit: int) -> tuple[_Outcome, _Searcher]:
        """The beam ``stage`` within ``limit`` nodes: a win or "unknown"."""
        searcher = _Searcher(replace(self, best=False, track=False, incumbent=None), limit, stage.order)
        return searcher.run_beam(stage), searcher


class _Searcher(Descent, Beam):
    def __init__(self, job: _Job, limit: int, order: int = 0) -> None:
        state, memory, seen, best = job.state, job.memory, job.seen, job.best
        self.job = job
        self.state = state
        self.entries = max(1, memory // BYTES_PER_ENTRY)  # positions it may remember at once
        self.memory = memory
        self.limit = limit
        self.stop = job.stop
        self.next_stop = STOP_EVERY
        self.given = set() if seen is None else seen
        self.seen = set(self.given)
        self.share = ROUNDS[0]
        self.best = best
        self.moves = job.moves
        self.bonus = job.bonus
        self.track = job.track
        self.steps = job.plan.steps
        self.key, self.safe, self.actions, self.dead, self.progress = _knowledge(state, best, order, job.plan.proof)
        # the family's first action without the others (``search_first``), for the passes: they
        # list the others only when they come back to the position
        self.first, self.order = state.search_first, order
        # what the family does not offer, known once (the inner loop skips the call)
        self.safe_none = self.safe is _NO_SAFE
        self.dead_none = self.dead is _NO_DEAD
        # the proof the family offers; each step of the plan says whether it asks it
        self.proof = self.dead
        self.guide_dead, self.guide_dead_none = self.dead, self.dead_none
        self.bound = state.win_score_bound if best else None
        self.redeal = state.variant.words.get("redeal")
        self.arrivals: dict = {}  # best mode: key -> (score, moves) of the best arrival so far
        self.pv: list[int] = []  # the guided descent's choices, step by step
        self.nodes = 0
        self.complete = True  # no cap or cut has left part of the space unsearched
        self.stopped = False  # the caller's stop() said so
        self.out = _Outcome()
        incumbent = job.incumbent
        if incumbent is not None:  # best mode: a win known already, (line, score), to beat
            self.out.best_line, self.out.best_score = incumbent
            self.out.best_moves = len(incumbent[0])

    # --- bookkeeping ---------------------------------------------------------------------
    def _tick(self) -> None:
        if self.nodes >= self.limit:
            raise _OutOfBudget
        if self.stop is not None and self.nodes >= self.next_stop:
            self.next_stop = self.nodes + STOP_EVERY
            if self.stop():
                self.stopped = True
                raise _OutOfBudget

    def _settle(self, segment: list[int]) -> None:
        """Play the position's safe actions, appending them to ``segment``."""
        state, safe = self.state, self.safe
        while state.status == PLAYING:
            action = safe()
            if action is None:
                return
            state.apply(action)
            self.nodes += 1
            segment.append(action)

    def _won(self, line: list[int]) -> bool:
        """Note a win; True when the search can stop (not looking for the best)."""
        out = self.out
        score = self.state.score + (self.bonus(self.moves + len(line)) if self.bonus else 0)
        if not self.best:
            out.line = line
            out.result = WON_RESULT
            out.end_score = score  # (the state is at the line's end: no need to play it again)
            return True
        if out.best_score is None or (score, -len(line)) > (out.best_score, -out.best_moves):
            out.best_line, out.best_score, out.best_moves = line, score, len(line)
        return False

    def _admit(self, depth: int) -> bool:
        """Whether the position just reached is new (or, in best mode, better reached): then it
        is marked and worth searching on."""
        state = self.state
        if state.status == LOST:
            return False
        k = self.key()
        if self.best:
            mine = (state.score, depth)
            before = self.arrivals.get(k)
            if before is not None:
                if before[0] >= mine[0] and before[1] <= depth:
                    return False  # reached before at least as well
            elif k in self.seen:
                return False
            self.arrivals[k] = mine
            if len(self.arrivals) > self.entries:
                self._full()
            out = self.out
            if out.best_score is not None and self.bound is not None:
                top = self.bound(self.moves + depth)
                # a win from here takes one move more at least: cut off when it could neither
                # score more than the best so far nor score as much in fewer moves
                if top is not None and (top < out.best_score or
                                        (top == out.best_score and depth + 1 >= out.best_moves)):
                    return False
        else:
            if k in self.seen:
                return False
            self.seen.add(k)
            if len(self.seen) > self.entries:
                self._full()
        return not self.dead()

    def _full(self) -> None:
        self.out.memory_full = True
        raise _OutOfBudget

    def _note(self, child, value: int) -> None:
        entry = self.out.children.get(child)
        if entry is None:
            self.out.children[child] = [False, value, len(self.out.children)]
        elif value > entry[1]:
            entry[1] = value

    # --- one pass ------------------------------------------------------------------------
    def _ordered(self, on: int) -> list[int]:
        """The actions here, the guided descent's choice first when the position is its
        step ``on`` (-1: off its line)."""
        actions = self.actions()
        pv = self.pv
        if 0 <= on < len(pv):
            choice = pv[on]
            if choice in actions and actions[0] != choice:
                actions.remove(choice)
                actions.insert(0, choice)
        return actions

    def _pass(self, path: tuple, child, cap: int, on: int = -1) -> list | None:
        """Depth first from the state (its key already admitted), never redealing: the redeal points
        found (:meth:`_point`, most advanced first), or None after a win that ends the search.  A
        path is (path before, actions, length).  Along the descent's line (``on``: its step here) its
        choices come first.  The inner loop: ``_tick``, ``_settle``'s call and ``_admit`` written out here."""
        state, actions_of, redeal, progress = self.state, self.actions, self.redeal, self.progress
        key, seen, apply, snapshot, restore = self.key, self.seen, state.apply, state.snapshot, state.restore
        safe, dead = None if self.safe_none else self.safe, None if self.dead_none else self.dead
        entries, limit, stop, track, first = self.entries, self.limit, self.stop, self.track, self.first
        # (progress only orders redeal points and feeds the hint; outside best mode and the hint, plain)
        measure, plain = track or redeal is not None, not track and not self.best
        peek = state.search_key_after if plain else None  # (a key without playing the action)
        points: list = []
        # a frame: [snapshot, actions, next index, path to it, root action it descends from, progress,
        #           step of the descent (-1: off its line), its key (with peek)]
        stack = [[snapshot(), self._ordered(on), 0, path, child, progress(), on, key() if peek is not None else None]]
        at, nodes = True, self.nodes
        try:
            while stack:
                frame = stack[-1]
                actions, i = frame[1], frame[2]
                if i >= len(actions):
                    at = self._frame_done(stack, at, points, child is None)
                    continue
                if nodes >= cap:
                    self.complete = False
                    break
                if nodes >= limit:  # (_tick)
                    raise _OutOfBudget
                if stop is not None and nodes >= self.next_stop:
                    self.nodes = nodes
                    self._tick()
                frame[2], action = i + 1, actions[i]
                if action == redeal:
                    self._point(points, frame, action)
                    continue
                if not at:
                    restore(frame[0])
                    at = True
                peeked = None if peek is None else peek(frame[7], action)
                if peeked is not None and peeked in seen:
                    nodes += 1  # (a position searched already: counted as the apply it stands for)
                    continue
                apply(action)
                at, segment, nodes = False, [action], nodes + 1
                if safe is not None and peeked is None:  # (_settle: no safe action follows a peeked one)
                    while state.status == PLAYING and (extra := safe()) is not None:
                        apply(extra)
                        nodes += 1
                        segment.append(extra)
                status = state.status
                if status == WON:
                    self.nodes = nodes
                    if self._won(_line((frame[3], segment, frame[3][2] + len(segment)))):
                        return None
                    continue
                root_child = action if frame[4] is None else frame[4]
                if plain:  # (_admit; a peeked key is the key here, no safe action followed, and was looked up)
                    if status == LOST or ((k := key() if peeked is None else peeked) is not peeked and k in seen):
                        continue
                    seen.add(k)
                    if len(seen) > entries:
                        self.nodes = nodes
                        self._full()
                    if dead is not None and dead():
                        continue
                    value = progress() if measure else 0
                    here = (frame[3], segment, frame[3][2] + len(segment))
                else:
                    self.nodes, k = nodes, None
                    here, value = self._admit_noted(frame, segment, root_child, measure, child is None and len(stack) == 1)
                    if here is None:
                        continue
                step = frame[6]  # (off the descent's line, with no first action told apart: all of them)
                step, moves = (step, actions_of(key=k)) if step < 0 and first is None else self._moves_after(step, action)
                stack.append([snapshot(), moves, 0, here, root_child, value, step, k if peek is not None else None])
                at = True
        finally:
            self.nodes = nodes
        return sorted(points)

    def _frame_done(self, stack: list, at: bool, points: list, root_pass: bool) -> bool:
        """The top frame has tried every action it holds: where that was only the family's first
        action (``search_first``, a tuple), all of them now; else it is popped (and, for the hint, a
        root action searched to its end with nothing deferred is noted so).  Returns whether the
        state is at the top frame's position."""
        frame = stack[-1]
        if frame[1].__class__ is tuple:  # only search_first's action so far: all of them now
            if not at:
                self.state.restore(frame[0])
            frame[1] = self.actions()
            return True
        stack.pop()
        if self.track and root_pass and len(stack) == 1:
            done = frame[4]
            if not any(p[4] == done for p in points):
                self.out.children[done][0] = True  # searched to the end, nothing deferred
        return False

    def _point(self, points: list, frame: list, action: int) -> None:
        """Note a redeal point, (-progress, order met, snapshot, path, root action, step of the
        descent): the frame's position, from which ``action`` redeals (remembered as a position is:
        the points and the positions met count against the memory bound)."""
        if len(points) + len(self.seen) + len(self.arrivals) >= self.entries:
            self._full()
        step, pv = frame[6], self.pv
        follows = 0 <= step < len(pv) and pv[step] == action
        # (the order met never repeats within a pass, so sorting never compares the snapshots)
        points.append((-frame[5], len(points), frame[0], frame[3],
                       action if frame[4] is None else frame[4], step + 1 if follows else -1))

    def _admit_noted(self, frame: list, segment: list[int], root_child: int, measure: bool,
                     at_root: bool) -> tuple[tuple | None, int]:
        """(the path here, its progress), the path None where ``_admit`` turns it away: ``_pass``'s
        admission in best mode or for the hint, which notes each root action's best progress (and a
        root action lost at once as searched to its end)."""
        parent = frame[3]
        here = (parent, segment, parent[2] + len(segment))
        value = self.progress() if measure else 0
        if self.track:
            self._note(root_child, value)
        if self._admit(here[2]):
            return here, value
        if self.track and at_root and (self.state.status == LOST or self.dead()):
            self.out.children[root_child][0] = True  # lost at once
        return None, value

    def _moves_after(self, step: int, action: int) -> tuple[int, list[int] | tuple[int]]:
        """(the descent's step, the actions to try) at the position ``action`` led to from one at
        the descent's ``step``: along its line, its choice first; off it, the family's first
        action alone where it can tell it (``search_first``), else all of them."""
        pv = self.pv
        if 0 <= step < len(pv):
            step = step + 1 if pv[step] == action else -1
            return step, self._ordered(step)
        first = self.first
        moves = None if first is None else first(self.order)
        return -1, self.actions() if moves is None else (moves,)

    # --- the whole search ----------------------------------------------------------------
    def run(self) -> _Outcome:
        """The plan's steps in turn from the root (its safe actions played), until one answers."""
        state, out = self.state, self.out
        start = state.snapshot()
        try:
            root_line: list[int] = []
            self._settle(root_line)
            if state.status == WON:
                self._won(root_line)
                out.result, out.line, out.exhausted = WON_RESULT, root_line, True
                return out
            if state.status == LOST or self.dead():
                out.result, out.exhausted = UNWINNABLE, True
                return out
            self.start, self.root, self.root_key = start, (None, root_line, len(root_line)), self.key()
            self.total = self.limit
            for step in self.steps:
                answer = step.run(self)
                if answer is not None:
                    return answer
            return self.decided()
        except _OutOfBudget:
            if self.best and out.best_line is not None:
                out.result, out.line = WON_RESULT, out.best_line
        finally:
            out.nodes = self.nodes
            state.restore(start)
        return out

    def rounds(self, limit: int, proof: bool, give_up: bool = False) -> _Outcome | None:
        """The pass-by-pass search in rounds (:meth:`_rounds`) up to ``limit`` nodes, asking the
        family's proof with ``proof``: the answer where it decided, else None (with ``give_up``,
        it ends the search where the caller's stop or the memory bound ended the rounds)."""
        self.limit = limit
        self._prune_by(self.proof if proof else _NO_DEAD)
        decided = self._rounds(self.start, self.root, self.root_key)
        self._prune_by(self.proof)
        if decided:
            return self.decided()
        if give_up and (self.stopped or self.out.memory_full):
            raise _OutOfBudget
        return None

    def run_beam(self, stage: _plan.Beam) -> _Outcome:
        """The beam ``stage`` alone (core/beam.py) within the budget: a win or "unknown", never a
        proof.  (Asked only where a search left the root undecided: with its safe actions played,
        it is neither won nor lost.)"""
        start, root_line = self.state.snapshot(), []
        try:
            self._settle(root_line)
            with self._steered_by(stage.measure):
                self._beam(root_line, self.limit, stage.width, stage.reach, stage.foresee, stage.last)
        except _OutOfBudget:
            pass
        finally:
            self.out.nodes = self.nodes
            self.state.restore(start)
        return self.out

    def _search_here(self, nodes: int, seen: set) -> list[int] | None:
        """The beam's searched last pass (core/beam.py): one depth-first pass from the state, where
        no redeal is left, with the proof and up to ``nodes`` nodes (counted here), through positions
        not in ``seen``, each one it meets added (the beam shares one set between the positions of
        its last pass: what the search of one met in vain, the next does not search again): the
        line of its win, or None.  (The solver's whole search, its brief rounds and guided descents,
        found the same wins on crazy-quilt's hardest deals of 3001-3600 with more nodes.)"""
        state = self.state
        sub = _Searcher(replace(self.job, seen=None, best=False, track=False, incumbent=None), nodes)
        sub.seen, sub.share = seen, 1  # (share 1: the pass may use every node)
        start, line = state.snapshot(), []
        try:
            sub._settle(line)
            if state.status == WON:
                sub._won(line)
            elif sub._admit(len(line)):
                sub._pass((None, line, len(line)), None, nodes)
        except _OutOfBudget:
            pass
        finally:
            self.nodes += sub.nodes
            state.restore(start)
        if sub.stopped or sub.out.memory_full:
            self.stopped, self.out.memory_full = sub.stopped, sub.out.memory_full
            raise _OutOfBudget
        return sub.out.line if sub.out.result == WON_RESULT else None

    @contextlib.contextmanager
    def _steered_by(self, measure: int):
        """Within the block, ``progress`` is the family's ``progress(measure)`` (a family with
        other measures of progress has its own ``progress(measure)``); measure 0 keeps the usual
        one.  The descents steer by each measure in turn, a beam ranks by the one it is given."""
        usual = self.progress
        if measure:
            self.progress = functools.partial(self.state.progress, measure)
        try:
            yield
        finally:
            self.progress = usual

    def descents(self, step: _plan.Descents) -> _Outcome | None:
        """The guided descent by each of the step's measures in turn, each from the root with
        1/``share`` of the budget, until one wins (its answer); the last search then tries first
        the choices of the descent by the first measure (``pv``)."""
        state, first, total = self.state, None, self.total
        self.limit = total
        self.guide_dead = self.proof if step.proof else _NO_DEAD
        self.guide_dead_none = self.guide_dead is _NO_DEAD
        root_line = self.root[1]
        for measure in step.measures:
            state.restore(self.start)
            self._settle([])  # back to the root, its safe actions played again
            self.pv = []
            with self._steered_by(measure):
                self._descend(root_line, self.nodes + total // step.share, step.lookahead)
            if self.out.result == WON_RESULT:
                return self.out
            if first is None:
                first = self.pv
        self.pv = first or []
        return None

    def _prune_by(self, dead) -> None:
        """The dead-end proof the passes ask from now on (``_NO_DEAD``: none)."""
        self.dead = dead
        self.dead_none = dead is _NO_DEAD

    def _rounds(self, start, root: tuple, root_key) -> bool:
        """The pass-by-pass search in rounds, up to ``self.limit`` nodes; True when it decided
        (a win, or a complete round: the whole space searched)."""
        state, out = self.state, self.out
        root_line = root[1]
        try:
            for share in ROUNDS:
                self.share, self.complete = share, True
                self.seen = set(self.given)
                self.seen.add(root_key)
                self.arrivals = {root_key: (state.score, len(root_line))} if self.best else {}
                state.restore(start)
                self._settle([])  # the root's safe actions again (counted: they are applies)
                self._explore(root)
                if out.result == WON_RESULT or self.complete:
                    return True
        except _OutOfBudget:
            self.complete = False
        return False

    def decided(self) -> _Outcome:
        """The search's answer: its win, or a proof where its last round was complete."""
        out = self.out
        if out.result != WON_RESULT:
            if self.best and out.best_line is not None:
                out.result, out.line = WON_RESULT, out.best_line
            elif self.complete:
                out.result = UNWINNABLE
        out.exhausted = self.complete
        return out

    def _explore(self, root: tuple) -> None:
        """Passes depth first: each pass searched, then each of its redeal points in turn."""
        state = self.state
        points = self._pass(root, None, self._cap(), 0)
        if points is None:
            return
        pending = [iter(points)]
        while pending:
            point = next(pending[-1], None)
            if point is None:
                pending.pop()
                continue
            _value, _order, snap, route, child, step = point
            self._tick()
            state.restore(snap)
            state.apply(self.redeal)
            self.nodes += 1
            segment = [self.redeal]
            self._settle(segment)
            here = (route, segment, route[2] + len(segment))
            if state.status == WON:
                if self._won(_line(here)):
                    return
                continue
            if self.track:
                self._note(child, self.progress())
            if not self._admit(here[2]):
                continue
            points = self._pass(here, child, self._cap(), step)
            if points is None:
                return
            pending.append(iter(points))

    def _cap(self) -> int:
        """The node count a pass may search up to: all that is left in a game without
        redeals, else a share of it (the last pass too: other redeal points deserve a try)."""
        if self.redeal is None:
            return self.limit
        return self.nodes + max(1, (self.limit - self.nodes) // self.share)


def _search(state: State, limit: int, *, stop: Callable[[], bool] | None = None,
            seen: set | None = None, best: bool = False, moves: int = 0, bonus=None,
            track_children: bool = False, incumbent: tuple | None = None,
            memory: int = DEFAULT_MEMORY) -> _Outcome:
    """Search for a win from ``state`` within ``limit`` nodes (the state is left as found): the
    stages of the family's plan in turn, each with its share of what the ones before it left,
    until one decides (a proof from any order is a proof: the order never changes what a
    complete search covers) or the budget, the caller's ``stop`` or the memory bound ends it.

    ``seen``: keys to treat as already searched (the hint passes the positions of the
    attempt, so that no line goes back to one).  ``best``: go on after the first win, for
    the highest score, then the fewest moves (``moves`` counted so far, ``bonus(moves)`` the
    win bonus).  ``track_children``: the hint's search (its plan, its notes on the root's actions).
    """
    plan = plan_of(state)
    plan = plan.hint() if track_children else plan.best() if best else plan
    job = _Job(state, plan, stop, seen, best, moves, bonus, track_children, incumbent, memory)
    used = 0
    for stage in plan.stages:
        out, searcher = stage.run(job, max(1, (limit - used) // stage.share))
        used += out.nodes
        if out.result != UNKNOWN or searcher.stopped or out.memory_full or used >= limit:
            break
    out.nodes = used
    return out


def plan_of(state) -> Plan:
    """The plan of the state's game (its family's ``plan``, core/plan.py)."""
    return state.plan


# --- the public API ---------------------------------------------------------------------------

def solve(session: Session, *, nodes: int = DEFAULT_NODES, best: bool = False,
          stop: Callable[[], bool] | None = None, memory: int = DEFAULT_MEMORY) -> Solution:
    """Search the session's position for a win within ``nodes`` applies (the session is untouched).

    ``best``: after the first win, go on for the best win (the highest score, then the
    fewest counted moves), and say whether it is proven best.  ``stop``: a callable asked
    now and then; when it returns True the search gives up (``unknown``, or the best win
    so far).  ``memory``: the bytes the search may hold (counted in positions remembered,
    see the module's docstring); reaching it ends the search as ``stop`` does, and
    ``memory_full`` says so.
    """
    variant = session.variant
    info = information(variant)
    if session.status == WON:
        return Solution(WON_RESULT, [], 0, session.moves, session.score, True if best else None, info,
                        True if best else None)
    state = working_copy(session)
    out = _search(state, nodes, stop=stop, moves=session.moves, bonus=variant.win_bonus, memory=memory)
    proven = False  # a search that stops at its first win proves nothing about the best
    if best and out.result == WON_RESULT and out.nodes < nodes and not out.memory_full:
        # the usual search finds a first win soonest; the search for the best starts from it,
        # so that its answer never ranks below that win, and cuts off what cannot beat it
        first, incumbent = out.nodes, (out.line, _line_end(state, out.line, session.moves)[1])
        out = _search(state, nodes - first, stop=stop, best=True, moves=session.moves,
                      bonus=variant.win_bonus, incumbent=incumbent, memory=memory)
        out.nodes += first
        proven = out.exhausted
    if out.result != WON_RESULT:
        return Solution(out.result, [], out.nodes, session.moves, session.score,
                        (False if best else None), info, (False if best else None),
                        memory_full=out.memory_full)
    if not best:
        # every variant action is one counted move (as _line_end counts them)
        return Solution(WON_RESULT, out.line, out.nodes, session.moves + len(out.line), out.end_score, None, info,
                        memory_full=out.memory_full)
    moves, score = _line_end(state, out.line, session.moves)
    # the score alone is proven highest by a complete search, or when it meets the bound; the
    # fewest moves only by a complete search (nothing bounds a win's moves from below)
    bound = state.win_score_bound(session.moves)
    top_score = proven or (bound is not None and bound == score)
    return Solution(WON_RESULT, out.line, out.nodes, moves, score, proven, info, top_score,
                    memory_full=out.memory_full)


def _line_end(state: State, line: list[int], moves: int) -> tuple[int, int]:
    """(counted moves, score) at the end of ``line`` from ``state``, as a Session counts them."""
    start = state.snapshot()
    try:
        for action in line:
            state.apply(action)
            moves += 1  # every variant action is one counted move
        score = state.score
        if state.status == WON:
            score += state.variant.win_bonus(moves)
        return moves, score
    finally:
        state.restore(start)


__all__ = ["solve", "Solution", "DEFAULT_NODES",
           "information", "working_copy"]
