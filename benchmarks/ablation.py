"""Ablation of the solver's plan: each variant (a stage or step removed, a knob changed) against
the unchanged plan, in one install, interleaved deal by deal, CPU per deal.

    python benchmarks/ablation.py --games spaces-and-aces --deals 12001-12040 \
        --variant=-Brief --variant measures=0 [--nodes 400000] [-o out.jsonl]

A variant (``--variant=EDITS``: an edit may start with a dash) is a comma-separated list of
edits, applied in-process to the game's plan (``dataclasses.replace``; core/plan.py) or to a
module's constant:

    -Brief, -Descents                 drop that step from every search
    +Brief:N, +Brief:N:after          a brief search without the proof, 1/N of the budget, after
                                      the glance (or first), or after the descents
    measures=0                        the descents by these measures of progress only (0 or 0:1)
    descent-share=N                   each descent 1/N of its search's budget
    lookahead=N                       the descent's look-ahead, N nodes a step
    orders=N                          the searches in the first N orders only (shares N, N-1, ..., 1)
    -beam:K                           drop the K-th beam (0: the first); the wide beams' shares renumbered
    beam1-after=N                     the first beam after the first N searches
    wide-measures=0:0:0               the wide beams' measures of progress
    carpet.core.quilt.search._STUCK_BUDGET=5000  any module's (or class's) number

Each variant and the plain plan (``base``) run as worker processes (this file with ``--worker``,
the edits as its argument) that solve one deal at a time on request; the driver asks every worker
in turn, deal by deal, the order rotating, so that a change in the machine's load falls on all
alike.  At the end it prints per game and variant: the deals the base decides (won or
unwinnable) and the variant decides, the deals lost (the base decides, the variant does not),
gained and decided differently, the median CPU ratio variant/base over the deals both decide, and
the total CPU of each.
"""
from __future__ import annotations

import argparse
import dataclasses
import importlib
import statistics
import subprocess
import sys

from solver_ab import ask, deals
from solver_ab import worker as solve_asked


def _edit(plan, edit: str):
    """The plan with one edit (see the module's docstring); a module constant is set in place."""
    from carpet.core.plan import Beam, Descents, Search

    name, _, value = edit.partition("=")
    if name.startswith("-") and ":" not in name:
        return dataclasses.replace(plan, steps=tuple(s for s in plan.steps if type(s).__name__ != name[1:]))
    if name.startswith("+Brief:"):
        from carpet.core.plan import Brief, Descents, Glance

        share, _, after = name[7:].partition(":")
        at = (next(i for i, s in enumerate(plan.steps) if isinstance(s, Descents)) + 1 if after
              else sum(isinstance(s, Glance) for s in plan.steps))
        brief = Brief(share=int(share), proof=False)
        return dataclasses.replace(plan, steps=plan.steps[:at] + (brief,) + plan.steps[at:])
    if name in ("measures", "descent-share", "lookahead"):
        field = {"measures": "measures", "descent-share": "share", "lookahead": "lookahead"}[name]
        number = tuple(int(m) for m in value.split(":")) if name == "measures" else int(value)
        return dataclasses.replace(plan, steps=tuple(dataclasses.replace(s, **{field: number})
                                                     if isinstance(s, Descents) else s for s in plan.steps))
    if name == "orders":
        n = int(value)
        stages = tuple(dataclasses.replace(s, share=n - s.order) if isinstance(s, Search) else s
                       for s in plan.stages if not isinstance(s, Search) or s.order < n)
        return dataclasses.replace(plan, stages=stages)
    if name == "wide-measures":
        measures = iter(int(m) for m in value.split(":"))
        return dataclasses.replace(plan, stages=tuple(dataclasses.replace(s, measure=next(measures))
                                                      if isinstance(s, Beam) and s.last else s for s in plan.stages))
    if name.startswith("-beam:"):
        beams = [s for s in plan.stages if isinstance(s, Beam)]
        gone = beams[int(name[6:])]
        stages = [s for s in plan.stages if s is not gone]
        wide = [s for s in stages if isinstance(s, Beam) and s.last]
        stages = [dataclasses.replace(s, share=len(wide) - wide.index(s)) if s in wide else s for s in stages]
        return dataclasses.replace(plan, stages=tuple(stages))
    if name == "beam1-after":
        first = next(s for s in plan.stages if isinstance(s, Beam))
        stages = [s for s in plan.stages if s is not first]
        at = [i for i, s in enumerate(stages) if isinstance(s, Search)][int(value) - 1] + 1 if int(value) else 0
        return dataclasses.replace(plan, stages=tuple(stages[:at] + [first] + stages[at:]))
    if value:
        path, _, attr = name.rpartition(".")
        parts = path.split(".")
        for cut in range(len(parts), 0, -1):
            try:
                owner = importlib.import_module(".".join(parts[:cut]))
            except ImportError:
                continue
            for part in parts[cut:]:
                owner = getattr(owner, part)
            if not hasattr(owner, attr):
                raise SystemExit(f"ablation.py: {path} has no {attr}")
            setattr(owner, attr, type(getattr(owner, attr))(value))
            return plan
    raise SystemExit(f"ablation.py: no such edit {edit!r}")


def worker(variant: str) -> None:
    """benchmarks/solver_ab.py's worker, the solver's plans edited as ``variant`` says."""
    from carpet.core import solver

    edits = [e for e in variant.split(",") if e and variant != "base"]
    plain = solver.plan_of
    cache: dict = {}

    def plan_of(state):
        plan = plain(state)
        if plan not in cache:
            edited = plan
            for edit in edits:
                edited = _edit(edited, edit)
            cache[plan] = edited
        return cache[plan]

    solver.plan_of = plan_of
    solve_asked(variant=variant)


def report(rows: dict, games: list[str], variants: list[str]) -> None:
    """Per game and variant, against the base: decided, lost, gained, CPU (see the docstring)."""
    print("game | variant | deals | decided base | decided variant | lost | gained | differ | "
          "median CPU variant/base | CPU base s | CPU variant s")
    for game in games:
        mine = {deal: found for (g, deal), found in rows.items() if g == game}
        for variant in variants[1:]:
            lost, gained, differ, ratios, cpu = [], [], [], [], [0.0, 0.0]
            decided = [0, 0]
            for deal, found in sorted(mine.items()):
                a, b = found["base"], found[variant]
                da, db = a["result"] != "unknown", b["result"] != "unknown"
                decided[0] += da
                decided[1] += db
                cpu[0] += a["cpu"]
                cpu[1] += b["cpu"]
                if da and not db:
                    lost.append(deal)
                elif db and not da:
                    gained.append(deal)
                elif da and a["result"] != b["result"]:
                    differ.append(deal)
                elif da and a["cpu"] > 0:
                    ratios.append(b["cpu"] / a["cpu"])
            median = statistics.median(ratios) if ratios else float("nan")
            print(f"{game} | {variant} | {len(mine)} | {decided[0]} | {decided[1]} | {len(lost)} {lost[:8]} | "
                  f"{len(gained)} {gained[:8]} | {len(differ)} {differ[:8]} | {median:.3f} | "
                  f"{cpu[0]:.1f} | {cpu[1]:.1f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--worker", help=argparse.SUPPRESS)
    parser.add_argument("--python", default=sys.executable, help="the install's python")
    parser.add_argument("--games", default="spaces-and-aces")
    parser.add_argument("--deals", default="12001-12020")
    parser.add_argument("--nodes", type=int, default=400_000)
    parser.add_argument("--variant", action="append", default=[], help="edits, comma-separated (repeatable)")
    parser.add_argument("-o", "--output", help="write every measurement here (JSON lines)")
    args = parser.parse_args()
    if args.worker:
        worker(args.worker)
        return
    variants = ["base"] + args.variant
    procs = {v: subprocess.Popen([args.python, __file__, f"--worker={v}"], stdin=subprocess.PIPE,
                                 stdout=subprocess.PIPE, text=True) for v in variants}
    out = open(args.output, "w") if args.output else None
    rows: dict = {}
    turn = 0
    games = args.games.split(",")
    for game in games:
        for number in deals(args.deals):
            for i in range(len(variants)):
                variant = variants[(turn + i) % len(variants)]
                answer, found = ask(procs[variant], f"the worker of {variant!r}", game, number, args.nodes)
                rows.setdefault((game, number), {})[variant] = found
                if out:
                    out.write(answer)
                    out.flush()
            turn += 1
    for proc in procs.values():
        proc.stdin.close()
        proc.wait()
    report(rows, games, variants)


if __name__ == "__main__":
    main()
