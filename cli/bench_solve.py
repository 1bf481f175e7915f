"""``carpet bench --solve``: the solver's speed on this machine, per game and per family.

For each game, every deal of the range is solved from its start at the given budget; the
figures are CPU time (``time.process_time``), so other work on the machine disturbs them
little: answers (won / unwinnable / unknown), CPU seconds in all, per deal (median, 90th
percentile, worst) and nodes per second.  The answers themselves never depend on the
machine; only the times do.
"""

from __future__ import annotations

import json
import statistics
import time

from carpet.core import Session, get_game, parse_deal
from carpet.core.solver import solve


def _percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


def measure(game: str, numbers: range, nodes: int) -> dict:
    variant = get_game(game)
    counts = {"won": 0, "unwinnable": 0, "unknown": 0}
    times, total_nodes = [], 0
    for number in numbers:
        session = Session(variant, parse_deal(str(number)))
        start = time.process_time()
        solution = solve(session, nodes=nodes)
        times.append(time.process_time() - start)
        counts[solution.result] += 1
        total_nodes += solution.nodes
    spent = sum(times)
    return {"game": variant.id, "family": variant.family, "deals": f"{numbers.start}-{numbers.stop - 1}",
            "nodes_budget": nodes, **counts, "decided": counts["won"] + counts["unwinnable"],
            "cpu_seconds": round(spent, 2), "median_seconds": round(statistics.median(times), 4),
            "p90_seconds": round(_percentile(times, 0.9), 4), "max_seconds": round(max(times), 3),
            "nodes": total_nodes, "nodes_per_second": round(total_nodes / spent) if spent else None}


def run_solve_bench(games: list[str], numbers: range, nodes: int, as_json: bool) -> None:
    rows = []
    for game in games:
        row = measure(game, numbers, nodes)
        rows.append(row)
        if not as_json:
            print(f"{row['game']:<17} deals {row['deals']}: won {row['won']}, unwinnable {row['unwinnable']}, "
                  f"unknown {row['unknown']}; {row['cpu_seconds']} s CPU, per deal median "
                  f"{row['median_seconds']} s, p90 {row['p90_seconds']} s, max {row['max_seconds']} s; "
                  f"{row['nodes_per_second']:,} nodes/s", flush=True)
    families: dict[str, list] = {}
    for row in rows:
        families.setdefault(row["family"], []).append(row)
    per_family = {family: round(sum(r["nodes"] for r in group) / max(1e-9, sum(r["cpu_seconds"] for r in group)))
                  for family, group in families.items()}
    if as_json:
        print(json.dumps({"solve": rows, "nodes_per_second_by_family": per_family}))
    else:
        print("nodes/s by family: " + ", ".join(f"{f} {n:,}" for f, n in per_family.items()))
