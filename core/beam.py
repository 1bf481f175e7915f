"""The solver's beams (a stage of the plan, core/plan.py): the game played one stage at a time, a
stage ending at an action that turns the stock (the variant's words "turn" and "redeal"), the most
advanced positions of each stage kept and widened into the next.

A depth-first search of a stock game goes deep at once: it spends its nodes near the end of the
stock of the first line it follows and never climbs back.  The beam instead keeps, at each count of
cards turned, ``width`` distinct positions (by the family's key); from each it searches the actions
that do not turn the stock, depth first, up to ``reach`` nodes, and every position it meets there
is a way into the next stage, through its turn (or redeal).  Of all those, ``width`` go on: where
the plan asks, those the family forecasts least lost first (its ``forecast``: a count of what looks
lost, not a proof), and of those each position's most advanced (the family's ``progress``) first,
then each one's second, and so on (:func:`_widest`), so that the beam stays as wide as the lines it
has found.  A way is played (its turn applied, a node) only when it is taken: a turn changes no
progress, and most ways are never taken.  Where the plan says so (``last``), the positions a redeal
leads into the last pass are each searched to the end of the game rather than beamed on: the
beam's stages narrow a pass to its most advanced positions, which die together near its end.

A win it finds is a line of actions from the root, checked by the searcher's ``_won`` as any
other.  It never proves a position unwinnable (it drops positions that are merely less advanced),
so it can only turn an "unknown" into a "won".

A mixin of the solver's searcher, as core/descent.py is: it reads and moves the searcher's state
(``state``, ``nodes``) and calls its bookkeeping (``_tick``, ``_settle``, ``_won``, ``_full``), its
search from a position (``_search_here``, for a last pass searched rather than beamed) and
the family's knowledge as the searcher holds it (``key``, ``actions``, ``proof``, ``progress``,
``given``, ``entries``), and the state's ``forecast``.  It imports nothing of the solver.
"""

from __future__ import annotations

from .game import LOST, WON


class _Ended(Exception):
    """The beam is over: a win found, or its budget spent."""


class Beam:
    """The beam over the stock's stages, as a method of the solver's searcher."""

    def _beam(self, root_line: list[int], limit: int, width: int, reach: int,
              foresee: bool = False, last: int = 0) -> None:
        """From the state (the root, its safe actions played, ``root_line`` the actions to it), stage
        by stage, up to ``limit`` nodes or until no position of a stage is left alive; a win found
        ends it (``out.result``).  ``reach``: the nodes each position gets for the actions that
        keep it in its stage; ``foresee``: rank the ways by the family's ``forecast`` first;
        ``last``: a position its redeal leads into the last pass (no redeal left) is searched to
        the end of the game, depth first with up to ``last`` nodes (``_search_here``), rather than
        beamed, in the order the stage keeps them, until one wins; those searches share one set
        of the positions they met, so that none goes again where an earlier one went in vain."""
        state = self.state
        forecast = state.forecast if foresee else None

        def foreseen(here) -> int:
            # the family's forecast of what looks lost where a way's turn is made (asked only of
            # the ways _widest comes to: it is dear, and most ways are never taken)
            state.restore(here)
            return forecast()

        words = state.variant.words
        onward = tuple(words[word] for word in ("turn", "redeal") if word in words)
        # a path: (path before, actions): the line to a position, shared between positions
        frontier = [(state.snapshot(), (None, list(root_line)))]
        try:
            while frontier:
                ways = self._ways(frontier, onward, limit, reach)
                frontier, finals = self._next_stage(ways, width, limit, words.get("redeal") if last else None,
                                                    foreseen if forecast is not None else None)
                self._last_pass(finals, limit, last)
        except _Ended:
            return

    def _ways(self, frontier: list, onward: tuple, limit: int, reach: int) -> list:
        """The ways into the next stage from the positions of ``frontier``: (-progress, order met,
        parent, snapshot, path, the turn or redeal), each played only if it is kept (a turn changes
        no progress).  From each position, the actions that keep it in its stage, depth first, up
        to ``reach`` nodes; every position met there (new to the stage) is a way on."""
        state, key, actions_of, progress = self.state, self.key, self.actions, self.progress
        dead = self.proof
        snapshot, restore = state.snapshot, state.restore
        ways: list = []
        seen = set(self.given)
        for parent, (here, path) in enumerate(frontier):
            restore(here)
            seen.add(key())
            stack = [[here, path, actions_of(), 0, -progress()]]
            used = 0
            while stack:
                frame = stack[-1]
                actions, i = frame[2], frame[3]
                if i >= len(actions):
                    stack.pop()
                    continue
                frame[3] = i + 1
                action = actions[i]
                if action in onward:
                    ways.append((frame[4], len(ways), parent, frame[0], frame[1], action))
                    continue
                if used >= reach:
                    continue  # (its turn is still a way on from every position met)
                if self.nodes >= limit:
                    raise _Ended
                segment = self._play(frame[0], action)
                used += 1
                if state.status == WON:
                    self._won(path_line((frame[1], segment)))
                    raise _Ended
                if state.status == LOST:
                    continue
                k = key()
                if k in seen:
                    continue
                seen.add(k)
                if len(seen) + len(ways) > self.entries:
                    self._full()
                if dead():
                    continue
                stack.append([snapshot(), (frame[1], segment), actions_of(), 0, -progress()])
        return ways

    def _next_stage(self, ways: list, width: int, limit: int, redeal, foreseen) -> tuple[list, list]:
        """(the next stage's positions, those to search to the end instead): the ways taken in
        :func:`_widest`'s order until ``width`` positions live, each played; a way through
        ``redeal`` (None: none searched) into the last pass goes to the second list."""
        state, key = self.state, self.key
        frontier: list = []
        finals: list = []
        kept = set()
        for here, path, action in _widest(ways, foreseen):
            if len(frontier) + len(finals) >= width:
                break
            if self.nodes >= limit:
                raise _Ended
            segment = self._play(here, action)
            if state.status == WON:
                self._won(path_line((path, segment)))
                raise _Ended
            if state.status == LOST or self.proof():
                continue
            k = key()
            if k not in kept:
                kept.add(k)
                into = finals if redeal is not None and action == redeal and state.redeals_left == 0 else frontier
                into.append((state.snapshot(), (path, segment)))
        return frontier, finals

    def _last_pass(self, finals: list, limit: int, last: int) -> None:
        """Each position of ``finals`` searched to the end of the game with up to ``last`` nodes, in
        turn, until one wins; the searches share one set of the positions they met (most of the
        positions a beam brings to its last redeal are lost, and their searches go through the
        same positions)."""
        state = self.state
        searched = set(self.given)
        for here, path in finals:
            if self.nodes >= limit:
                raise _Ended
            state.restore(here)
            line = self._search_here(min(last, limit - self.nodes), searched)
            if line is not None:
                state.restore(here)
                for action in line:
                    state.apply(action)
                self._won(path_line(path) + line)
                raise _Ended

    def _play(self, here, action: int) -> list[int]:
        """Play ``action`` from the snapshot ``here``, then the safe actions after it, a node
        each: the actions played."""
        self._tick()
        self.state.restore(here)
        self.state.apply(action)
        self.nodes += 1
        segment = [action]
        self._settle(segment)
        return segment


def _widest(ways, forecast=None):
    """(snapshot, path, action) of the ways into the next stage, in the order they go on (a
    generator: the caller stops at its width).  Every position of the stage before's best (the
    most advanced) first, then every one's second best, and so on; of equals, the more advanced
    first, then the first met.  (Kept by progress alone, the beam of a crazy-quilt deal narrows
    within a few stages to the offspring of one position, which differ in nothing that matters,
    and they die together.)

    With ``forecast`` (a way's snapshot -> how much looks lost there), the ways ranked first by
    it, then as above: those with nothing lost, in that order, then the rest by their forecast,
    each way's place among its parent's counting its parent's ways ranked before it.  The
    forecast is asked lazily, of each parent's ways in turn until one with nothing lost, as
    the caller takes them; of all the ways only when those run out."""
    parents: dict = {}  # parent -> its ways, the most advanced first
    for way in sorted(ways, key=lambda way: way[:2]):
        parents.setdefault(way[2], []).append(way)
    # the ways with nothing lost (every way, without a forecast), round by round: each parent's
    # next one, by progress
    lists = list(parents.values())
    at = [0] * len(lists)  # how far each parent's ways have been asked
    lost: dict = {}  # way's order met -> its forecast, where something looks lost
    while True:
        taken = []
        for n, own in enumerate(lists):
            while at[n] < len(own):
                way = own[at[n]]
                at[n] += 1
                looks = forecast(way[3]) if forecast is not None else 0
                if not looks:
                    taken.append(way)
                    break
                lost[way[1]] = looks
        if not taken:
            break
        taken.sort(key=lambda way: way[:2])
        yield from (way[3:] for way in taken)
    # then the rest: every way has been asked by now
    order = []
    for own in lists:
        ranked = sorted(own, key=lambda way: lost.get(way[1], 0))  # (stable: by progress within)
        order += [(lost[way[1]], mine, way[:2], way) for mine, way in enumerate(ranked) if way[1] in lost]
    order.sort(key=lambda item: item[:3])
    yield from (item[3][3:] for item in order)


def path_line(path: tuple) -> list[int]:
    """The actions of a path, first to last: a path is (path before or None, actions, ...), the
    solver's and the beam's alike (core/solver.py reads its paths with this too)."""
    parts = []
    while path is not None:
        parts.append(path[1])
        path = path[0]
    return [action for part in reversed(parts) for action in part]
