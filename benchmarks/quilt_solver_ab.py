"""The quilt solver against an older install, deal by deal (CPU, interleaved): issue 20's and 25's measure.

Two worker processes, one per install (``--base``: a Python whose ``carpet`` is the old one, e.g.
a venv of f4f9346; ``--new``: this one), solve the same deals in turn, the order alternating from
deal to deal, each timing its own solve with ``time.process_time``.  Per game it prints how many
deals give the same answer (won / unwinnable / unknown), the answers that differ, and over the
deals both decide the median of the per-deal CPU ratios (base over new) and the ratio of the
totals.  Each round solves every deal once more, in new workers (the per-deal CPU is the median
over the rounds); ``-o FILE`` keeps every solve as a JSON line.

    python benchmarks/quilt_solver_ab.py --base /tmp/venvf4f/bin/python \\
        --games crazy-quilt,indian-carpet,persian-carpet --deals 2001-2060 --rounds 2

A won deal's line may differ between the two (another order of moves finds another win); an
answer may not, but where one side says "unknown" (its budget ran out) and the other decides.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys

WORKER = r"""
import hashlib, json, sys, time
from carpet.core import Session, get_game, parse_deal
from carpet.core.solver import solve
for request in sys.stdin:
    game, deal, nodes = request.split()
    session = Session(get_game(game), parse_deal(deal))
    start = time.process_time()
    solution = solve(session, nodes=int(nodes))
    cpu = time.process_time() - start
    line = hashlib.sha1(repr(list(solution.line)).encode()).hexdigest()[:12]
    print(json.dumps({"game": game, "deal": int(deal), "result": solution.result,
                      "nodes": solution.nodes, "line": line, "cpu": cpu}), flush=True)
"""


def _worker(python: str) -> subprocess.Popen:
    try:
        return subprocess.Popen([python, "-c", WORKER], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    except OSError as error:
        raise SystemExit(f"cannot run {python}: {error.strerror}") from None


def _ask(worker: subprocess.Popen, game: str, deal: int, nodes: int) -> dict:
    worker.stdin.write(f"{game} {deal} {nodes}\n")
    worker.stdin.flush()
    answer = worker.stdout.readline()
    if not answer:
        raise SystemExit(f"a worker ended early (exit {worker.wait()})")
    return json.loads(answer)


def _deals(text: str) -> range:
    low, _, high = text.partition("-")
    if not low.isdigit() or not (high or low).isdigit() or int(low) < 1 or int(high or low) < int(low):
        raise argparse.ArgumentTypeError(f"not a range of deal numbers like 2001-2060: {text!r}")
    return range(int(low), int(high or low) + 1)


QUILT_GAMES = ("crazy-quilt", "indian-carpet", "persian-carpet")


def _games(text: str) -> list[str]:
    games = text.split(",")
    for game in games:
        if game not in QUILT_GAMES:
            raise argparse.ArgumentTypeError(f"not a quilt game: {game!r} (they are {', '.join(QUILT_GAMES)})")
    return games


def _positive(text: str) -> int:
    if not text.isdigit() or int(text) < 1:
        raise argparse.ArgumentTypeError(f"not a whole number above 0: {text!r}")
    return int(text)


def _quartiles(values: list[float]) -> str:
    if len(values) < 2:
        return "-"
    return " ".join(f"{q:.2f}" for q in statistics.quantiles(values, n=4))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--base", required=True, help="the Python of the install to compare with")
    parser.add_argument("--new", default=sys.executable, help="the Python of this install (default: this one)")
    parser.add_argument("--games", type=_games, default="crazy-quilt,indian-carpet,persian-carpet",
                        help="quilt games, comma-separated")
    parser.add_argument("--deals", type=_deals, default="2001-2060", help="a range, e.g. 2001-2060")
    parser.add_argument("--nodes", type=_positive, default=400_000, help="the budget per deal (default: the solver's)")
    parser.add_argument("--rounds", type=_positive, default=1)
    parser.add_argument("-o", "--out", help="append every solve here (JSON lines, with a 'side' field)")
    args = parser.parse_args(argv)
    out = open(args.out, "a") if args.out else None
    runs: dict[tuple, dict[str, list[dict]]] = {}
    turn = 0
    for _round in range(args.rounds):
        # new workers each round: what a solve keeps for the next (the quilt search's tables)
        # serves other deals, as in a survey, never the same deal again
        workers = {"base": _worker(args.base), "new": _worker(args.new)}
        for game in args.games:
            for deal in args.deals:
                sides = ("base", "new") if turn % 2 == 0 else ("new", "base")
                turn += 1
                for side in sides:
                    answer = _ask(workers[side], game, deal, args.nodes)
                    runs.setdefault((game, deal), {"base": [], "new": []})[side].append(answer)
                    if out:
                        out.write(json.dumps({"side": side, **answer}) + "\n")
                        out.flush()
        for worker in workers.values():
            worker.stdin.close()
            worker.wait()
    for game in args.games:
        keys = [k for k in runs if k[0] == game]
        differ, ratios, totals = [], [], [0.0, 0.0]
        for key in keys:
            base, new = runs[key]["base"][0], runs[key]["new"][0]
            if base["result"] != new["result"]:
                differ.append((key[1], base["result"], new["result"]))
            elif base["result"] != "unknown":
                cpu_base = statistics.median(r["cpu"] for r in runs[key]["base"])
                cpu_new = statistics.median(r["cpu"] for r in runs[key]["new"])
                ratios.append(cpu_base / cpu_new)
                totals[0] += cpu_base
                totals[1] += cpu_new
        results = {r: sum(runs[k]["new"][0]["result"] == r for k in keys) for r in ("won", "unwinnable", "unknown")}
        base_results = {r: sum(runs[k]["base"][0]["result"] == r for k in keys)
                        for r in ("won", "unwinnable", "unknown")}
        print(f"{game}: {len(keys)} deals, the same answer on {len(keys) - len(differ)}; "
              f"base {base_results}, new {results}")
        if differ:
            print(f"  differ (deal, base, new): {differ}")
        if ratios:
            print(f"  both decide {len(ratios)}: CPU ratio base/new median {statistics.median(ratios):.2f} "
                  f"(quartiles {_quartiles(ratios)}), "
                  f"totals {totals[0]:.2f} s / {totals[1]:.2f} s = {totals[0] / totals[1]:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
