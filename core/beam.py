"""The solver's beam (core/solver.py, between its first search and the others): the game played
one stage at a time, a stage ending at an action that turns the stock (the variant's words "turn"
and "redeal"), the most advanced positions of each stage kept and widened into the next.

A depth-first search of a stock game goes deep at once: it spends its nodes near the end of the
stock of the first line it follows and never climbs back (issue 25: on crazy-quilt's unknown deals
99 % of the first pass's nodes went to its last 11 stock cards).  The beam instead keeps, at each
count of cards turned, the ``width`` distinct positions (by the family's key) that look most
advanced (its ``progress``); from each it searches the actions that do not turn the stock, depth
first, up to BEAM_NODES nodes, and every position it meets there is a way into the next stage,
through its turn (or redeal).  Of all those, again the ``width`` most advanced go on.

A win it finds is a line of actions from the root, checked by the searcher's ``_won`` as any
other.  It never proves a position unwinnable (it drops positions that are merely less advanced),
so it can only turn an "unknown" into a "won".

A mixin of the solver's searcher, as core/descent.py is: it reads and moves the searcher's state
(``state``, ``nodes``) and calls its bookkeeping (``_tick``, ``_settle``, ``_won``, ``_full``) and
the family's knowledge as the searcher holds it (``key``, ``actions``, ``proof``, ``progress``,
``given``, ``entries``).  It imports nothing of the solver.
"""

from __future__ import annotations

from .game import LOST, WON

#: each position of a stage gets at most this many nodes for the actions that keep it in its stage
BEAM_NODES = 200


class Beam:
    """The beam over the stock's stages, as a method of the solver's searcher."""

    def _beam(self, root_line: list[int], limit: int, width: int) -> None:
        """From the state (the root, its safe actions played, ``root_line`` the actions to it), stage
        by stage, up to ``limit`` nodes or until no position of a stage is left alive; a win found
        ends it (``out.result``)."""
        state, key, actions_of, progress = self.state, self.key, self.actions, self.progress
        dead = self.proof
        words = state.variant.words
        onward = tuple(words[word] for word in ("turn", "redeal") if word in words)
        apply, snapshot, restore = state.apply, state.snapshot, state.restore
        # a path: (path before, actions): the line to a position, shared between positions
        frontier = [(snapshot(), (None, list(root_line)))]
        while frontier:
            # the next stage's positions: key -> (-progress, order met, snapshot, path)
            reached: dict = {}
            seen = set(self.given)
            for here, path in frontier:
                restore(here)
                seen.add(key())
                stack = [[here, path, actions_of(), 0]]
                used = 0
                while stack:
                    frame = stack[-1]
                    actions, i = frame[2], frame[3]
                    if i >= len(actions):
                        stack.pop()
                        continue
                    frame[3] = i + 1
                    action = actions[i]
                    turns = action in onward
                    if not turns and used >= BEAM_NODES:
                        continue  # (its turn is still tried from every position met)
                    if self.nodes >= limit:
                        return
                    self._tick()
                    restore(frame[0])
                    apply(action)
                    self.nodes += 1
                    used += 1
                    segment = [action]
                    self._settle(segment)
                    if state.status == WON:
                        self._won(_line((frame[1], segment)))
                        return
                    if state.status == LOST:
                        continue
                    k = key()
                    if turns:
                        if k not in reached and not dead():
                            reached[k] = (-progress(), len(reached), snapshot(), (frame[1], segment))
                        continue
                    if k in seen:
                        continue
                    seen.add(k)
                    if len(seen) + len(reached) > self.entries:
                        self._full()
                    if dead():
                        continue
                    stack.append([snapshot(), (frame[1], segment), actions_of(), 0])
            best = sorted(reached.values(), key=lambda entry: entry[:2])[:width]
            frontier = [(entry[2], entry[3]) for entry in best]


def _line(path: tuple) -> list[int]:
    """The actions of a path, first to last."""
    parts = []
    while path is not None:
        path, segment = path
        parts.append(segment)
    return [action for part in reversed(parts) for action in part]
