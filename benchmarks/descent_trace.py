"""Where the solver finds a deal's win, or spends its budget: one line per search order.

    python benchmarks/descent_trace.py GAME DEALS [--nodes 400000]

For each deal (DEALS: a range like 3001-3010, or one number) and each of the family's search
orders that ran, and in each the descent by each of its measures of progress that ran, it prints the node counts (within that order's search) at which the guided
descent (core/descent.py, the solver's step 2) began and ended, its steps, why it ended (won,
lost, stuck or out of its share) and the rows' prefix lengths where it ended; then the
solver's answer and nodes, and whether the win came in a descent (or in the beam, core/beam.py,
where the family asks for one: its nodes and why it ended).  It wraps the descent's
method from outside (core/ is not changed) and reads no clock.

Spaces and Aces at the default budget (issue 25): most wins come from the descent; a deal
left unknown is one whose descents (two measures in each of two orders) all ran to the end of
their share.
"""
from __future__ import annotations

import argparse
import functools

from carpet.core import Session, get_game, parse_deal
from carpet.core import solver
from carpet.core.beam import Beam
from carpet.core.descent import Descent
from carpet.core.game import LOST


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("game")
    parser.add_argument("deals")
    parser.add_argument("--nodes", type=int, default=solver.DEFAULT_NODES)
    args = parser.parse_args()
    try:
        game = get_game(args.game)
    except Exception as error:
        raise SystemExit(f"descent_trace.py: {error}") from None
    lo, _, hi = args.deals.partition("-")
    if not (lo.isdigit() and (hi or lo).isdigit()):
        raise SystemExit(f"descent_trace.py: DEALS takes a range like 3001-3010, not {args.deals!r}")
    numbers = range(int(lo), int(hi or lo) + 1)
    traced = Descent._descend
    found: list[str] = []  # what each descent of the current deal did

    inside: list[int] = []  # the beams running: a search of a beam's last pass is the beam's

    def _measure(searcher) -> int:
        # the measure _steered_by set: 0 keeps the state's own progress, else a partial of it
        steer = searcher.progress
        return steer.args[0] if isinstance(steer, functools.partial) else 0

    def descend(self, root_line, limit, lookahead):
        if inside:
            traced(self, root_line, limit, lookahead)
            return
        start = self.nodes
        try:  # (a descent whose share is the whole budget ends by running out of it)
            traced(self, root_line, limit, lookahead)
        finally:
            state = self.state
            why = ("won" if self.out.result == solver.WON_RESULT else "lost" if state.status == LOST
                   else "share" if self.nodes >= min(limit, self.limit) else "stuck")
            prefix = getattr(state, "prefix", None)
            found.append((why, f"  order {self.order}, measure {_measure(self)}: descent nodes {start}-{self.nodes} (share to {limit}), "
                          f"{len(self.pv)} steps, ended {why}" + (f", prefixes {list(prefix)}" if prefix else "")))

    beamed = Beam._beam

    def beam(self, root_line, limit, width, reach, foresee=False, last=0):  # (a beam, core/beam.py)
        start = self.nodes
        inside.append(width)
        try:
            beamed(self, root_line, limit, width, reach, foresee, last)
        finally:
            inside.pop()
            why = ("won" if self.out.result == solver.WON_RESULT else
                   "share" if self.nodes >= min(limit, self.limit) else
                   "no position left, or none of its last pass won" if last else "no position left")
            first = ", forecast first" if foresee else ""
            searched = f", its last pass searched ({last} nodes a position)" if last else ""
            found.append(("beam " + why, f"  the beam, width {width}, {reach} nodes a position{first}{searched}: "
                          f"nodes {start}-{self.nodes} (share to {limit}), ended {why}"))

    Descent._descend = descend
    Beam._beam = beam
    try:
        for number in numbers:
            found.clear()
            session = Session(game, parse_deal(str(number)))
            answer = solver.solve(session, nodes=args.nodes)
            step = "-"
            if answer.result == solver.WON_RESULT:
                step = ("a descent" if any(why == "won" for why, _ in found) else
                        "the beam" if any(why == "beam won" for why, _ in found) else
                        "a quick search, before any descent" if not found else "a search after a descent")
            print(f"{number} {answer.result} {answer.nodes} (win in: {step})", flush=True)
            for _, line in found:
                print(line)
    finally:
        Descent._descend = traced
        Beam._beam = beamed


if __name__ == "__main__":
    main()
