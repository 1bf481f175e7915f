"""Interleaved A/B of the solver between two installs of carpet (CPU per deal, same answers?).

    python benchmarks/solver_ab.py --a /tmp/venvf4f/bin/python --b .venv/bin/python \
        --games carpet,carpet-auto --deals 2001-2200 [--nodes 400000] [--repeat 1] [-o out.jsonl]

Each install runs as a worker process (this file with ``--worker``) that solves one deal at a
time on request and prints a JSON line: game, deal, result, nodes, a hash of the line, CPU
seconds (time.process_time around ``solve``).  The driver asks A and B in turn, deal by deal
(the order alternating, so that a change in the machine's load falls on both alike), and at
the end prints per game: deals, results that differ, nodes that differ, and the median CPU
ratio A/B over the deals both decide (won or unwinnable), with the total CPU of each.
It uses only ``carpet.core`` (Session, get_game, parse_deal) and ``carpet.core.solver.solve``,
which every install since f4f9346 has.
"""
from __future__ import annotations

import argparse
import hashlib
import json
import statistics
import subprocess
import sys
import time
from pathlib import Path


def worker(**marks) -> None:
    """Solve the deals the driver asks for on stdin (``GAME N NODES`` a line), a JSON line each on
    stdout: game, deal, result, nodes, a hash of the line, CPU seconds, and ``marks``.  The solver is
    looked up for each deal, so that a caller may have patched it (benchmarks/ablation.py)."""
    from carpet.core import Session, get_game, parse_deal
    from carpet.core import solver

    for request in sys.stdin:
        game, number, nodes = request.split()
        try:
            session = Session(get_game(game), parse_deal(number))
        except Exception as error:  # (an unknown game or deal: the driver says so and stops)
            print(json.dumps({"error": str(error)}), flush=True)
            continue
        start = time.process_time()
        solution = solver.solve(session, nodes=int(nodes))
        cpu = time.process_time() - start
        line = hashlib.sha1(repr(list(solution.line)).encode()).hexdigest()[:12]
        print(json.dumps({"game": game, "deal": int(number), "result": solution.result, **marks,
                          "nodes": solution.nodes, "line": line, "cpu": round(cpu, 5)}), flush=True)


def ask(proc, who: str, game: str, number: int, nodes: int) -> tuple[str, dict]:
    """One deal solved by a worker process: its JSON line and what it holds (a worker that stopped
    or refused the deal ends the run in one line)."""
    proc.stdin.write(f"{game} {number} {nodes}\n")
    proc.stdin.flush()
    answer = proc.stdout.readline()
    if not answer:
        raise SystemExit(f"{Path(sys.argv[0]).name}: {who} stopped")
    found = json.loads(answer)
    if "error" in found:
        raise SystemExit(f"{Path(sys.argv[0]).name}: {who}: {found['error']}")
    return answer, found


def deals(text: str) -> list[int]:
    """The deals of ``2001-2200`` or ``2003,2007-2009``."""
    numbers = []
    try:
        for part in text.split(","):
            lo, _, hi = part.partition("-")
            numbers += range(int(lo), int(hi or lo) + 1)
    except ValueError:
        raise SystemExit(f"{Path(sys.argv[0]).name}: --deals takes ranges like 2001-2200 or 2003,2007-2009, "
                         f"not {text!r}") from None
    return numbers


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--a", help="python of install A (the reference)")
    parser.add_argument("--b", help="python of install B")
    parser.add_argument("--games", default="carpet")
    parser.add_argument("--deals", default="2001-2020")
    parser.add_argument("--nodes", type=int, default=400_000)
    parser.add_argument("--repeat", type=int, default=1, help="solve each deal this many times each")
    parser.add_argument("-o", "--output", help="write every measurement here (JSON lines)")
    args = parser.parse_args()
    if args.worker:
        worker()
        return
    if not args.a or not args.b:
        parser.error("--a and --b are needed")
    numbers = deals(args.deals)
    try:
        procs = {side: subprocess.Popen([python, __file__, "--worker"], stdin=subprocess.PIPE,
                                        stdout=subprocess.PIPE, text=True)
                 for side, python in (("A", args.a), ("B", args.b))}
    except OSError as error:
        raise SystemExit(f"solver_ab.py: cannot start {error.filename}: {error.strerror}") from None
    out = open(args.output, "w") if args.output else None
    rows: dict = {}

    def asked(side: str, game: str, number: int) -> dict:
        _, found = ask(procs[side], f"install {side} ({getattr(args, side.lower())})", game, number, args.nodes)
        found["side"] = side
        if out:
            out.write(json.dumps(found) + "\n")
            out.flush()
        return found

    turn = 0
    for game in args.games.split(","):
        for number in numbers:
            for _ in range(args.repeat):
                order = ("A", "B") if turn % 2 == 0 else ("B", "A")
                turn += 1
                for side in order:
                    found = asked(side, game, number)
                    rows.setdefault((game, number), {}).setdefault(side, []).append(found)
    for proc in procs.values():
        proc.stdin.close()
        proc.wait()
    print("game | deals | results differ | nodes differ | lines differ | both decided | median CPU A/B | CPU A s | CPU B s")
    for game in args.games.split(","):
        mine = {k: v for k, v in rows.items() if k[0] == game}
        differ = [k[1] for k, v in mine.items() if v["A"][0]["result"] != v["B"][0]["result"]]
        nodes = sum(v["A"][0]["nodes"] != v["B"][0]["nodes"] for v in mine.values())
        lines = sum(v["A"][0]["line"] != v["B"][0]["line"] for v in mine.values())
        ratios, cpu_a, cpu_b = [], 0.0, 0.0
        for v in mine.values():
            a = statistics.median(r["cpu"] for r in v["A"])
            b = statistics.median(r["cpu"] for r in v["B"])
            cpu_a, cpu_b = cpu_a + a, cpu_b + b
            if v["A"][0]["result"] != "unknown" and v["B"][0]["result"] != "unknown" and b > 0:
                ratios.append(a / b)
        median = statistics.median(ratios) if ratios else float("nan")
        print(f"{game} | {len(mine)} | {len(differ)} {differ[:10]} | {nodes} | {lines} | {len(ratios)} | "
              f"{median:.2f} | {cpu_a:.2f} | {cpu_b:.2f}")


if __name__ == "__main__":
    main()
