"""The solver's guided descent (core/solver.py, its step 2): from the start, one action at a
time, each chosen by a short look-ahead.

A mixin of the solver's searcher, kept in its own file: it reads and moves the searcher's state
(``state``, ``nodes``, ``pv``, ``out``) and calls its bookkeeping (``_tick``, ``_settle``,
``_won``, ``_note``) and the family's knowledge as the searcher holds it (``key``, ``actions``,
``safe``, ``progress``, ``guide_dead``, ``given``, and ``safe_none``, ``guide_dead_none``: whether
the family offers none).  It imports nothing of the solver.
"""

from __future__ import annotations

from .game import LOST, PLAYING, WON


class Descent:
    """The guided descent and its look-ahead, as methods of the solver's searcher."""

    def _descend(self, root_line: list[int], limit: int, lookahead: int) -> None:
        """Play on from the root, one action at a time, each chosen by a short look-ahead: every
        action gets an equal share of ``lookahead`` nodes for a depth-first search from where it
        leads; one whose search wins ends the descent with a win, else the one whose search saw
        the most progress is played.  It stops when stuck, back at a position it has been in,
        or out of its budget.  Each choice depends on the position alone, so the descent from
        any position on its way goes the same way: a hint that follows it wins what it wins.
        """
        state, key = self.state, self.key
        line = list(root_line)
        been = set(self.given)
        been.add(key())
        first = True
        while self.nodes < limit and state.status == PLAYING:
            here = state.snapshot()
            actions = self.actions()
            if not actions:
                return
            share = max(1, lookahead // len(actions))
            best = None
            for action in actions:
                self._tick()
                state.restore(here)
                state.apply(action)
                self.nodes += 1
                segment = [action]
                self._settle(segment)
                if state.status == WON:
                    self._won(line + segment)
                    return
                if state.status == LOST or key() in been or self.guide_dead():
                    value = None
                else:
                    value, win = self._look(share)
                    if win is not None:
                        for step in win:  # (the look-ahead left the state where it began)
                            state.apply(step)
                        self._won(line + segment + win)
                        return
                if self.track and first:
                    self._note(action, -1 if value is None else value)
                if value is not None and (best is None or value > best[0]):
                    best = (value, segment)
            if best is None:
                return
            if first:
                self.out.guide = best[1][0]
                first = False
            self.pv.append(best[1][0])
            state.restore(here)
            for action in best[1]:
                state.apply(action)
                self.nodes += 1
            line += best[1]
            been.add(key())

    def _look(self, limit: int) -> tuple[int, list[int] | None]:
        """(the most progress seen, a winning line or None): a plain depth-first search of
        ``limit`` nodes from the state, its own transpositions only; the state is left as found."""
        state, key, progress, actions_of = self.state, self.key, self.progress, self.actions
        # (the family's safe action and proof, None where it offers none: the loop skips the call)
        safe = None if self.safe_none else self.safe
        dead = None if self.guide_dead_none else self.guide_dead
        apply, snapshot, restore = state.apply, state.snapshot, state.restore
        start = snapshot()
        top = progress()
        seen = {key()}
        used = 0
        limit = min(limit, self.limit - self.nodes)
        stack = [[start, actions_of(), 0]]
        path: list[int] = []
        marks = [0]
        at = True
        try:
            while stack:
                frame = stack[-1]
                actions, i = frame[1], frame[2]
                if i >= len(actions):
                    stack.pop()
                    del path[marks.pop():]
                    at = False
                    continue
                if used >= limit:
                    break
                action = actions[i]
                frame[2] = i + 1
                if not at:
                    restore(frame[0])
                at = False
                apply(action)
                used += 1
                mark = len(path)
                path.append(action)
                while safe is not None and state.status == PLAYING:
                    extra = safe()
                    if extra is None:
                        break
                    apply(extra)
                    used += 1
                    path.append(extra)
                if state.status == WON:
                    return progress(), list(path)
                k = key()
                if state.status == LOST or k in seen or (dead is not None and dead()):
                    del path[mark:]
                    continue  # a position that cannot be won counts for nothing
                value = progress()
                if value > top:
                    top = value
                seen.add(k)
                stack.append([snapshot(), actions_of(key=k), 0])
                marks.append(mark)
                at = True
            return top, None
        finally:
            self.nodes += used
            restore(start)
