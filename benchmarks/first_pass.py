"""Where a quilt stock game's first pass spends its nodes: the first pass alone, searched once.

    python benchmarks/first_pass.py GAME DEALS [--nodes 400000]

For each deal (DEALS: a range like 3001-3010, or one number) it searches the pass before the
first redeal depth first, as the solver's passes do (its usual order of actions, the safe actions
played after each, the transposition set, the family's dead-end proof), but once, without the
solver's caps, orders or rounds, up to NODES applies.  It prints how many nodes went to each
stock length (the number of stock cards left before the action), how many led to new positions,
to positions seen already, or to dead ones; which proof called each dead position dead (a suit's
own test, the quilt lock, the cards to come); and what becomes of each redeal point once
redealt: dead at once, by which proof, or alive.  A first pass searched to its end with no redeal
point alive proves the deal lost.  It reads no clock but for the CPU it prints.

Issue 25 (crazy-quilt at the default budget): on 3016 the first 400,000 nodes of that search go
to the last dozen stock cards of one corner of the pass (the depth-first search never gets back
up), every redeal point reached is dead once redealt (a single suit's relaxed last pass), and the
pass is not searched to its end.
"""
from __future__ import annotations

import argparse
import time
from collections import Counter

from carpet.core import Session, get_game, parse_deal
from carpet.core.cards import SUITS
from carpet.core.game import LOST, PLAYING, WON
from carpet.core.quilt.search import QUILT_UNLOCKED
from carpet.core.solver import working_copy


def settle(state) -> int:
    """Play the position's safe actions; how many."""
    played = 0
    while state.status == PLAYING:
        action = state.safe_action()
        if action is None:
            break
        state.apply(action)
        played += 1
    return played


def proof(state) -> str:
    """Which of the family's proofs calls ``state`` dead (asked afresh, one at a time), or
    "alive"; a position the rules end is "lost" (or "won")."""
    if state.status != PLAYING:
        return "won" if state.status == WON else "lost"
    redeals = state.variant.redeals - state.redeals_used
    for suit in range(4):
        look = state.copy()
        look.unstuck = 31 & ~(1 << suit) | QUILT_UNLOCKED  # this suit's tests alone
        if look._cards_stuck(redeals):
            return f"suit {SUITS[suit]}"
    look = state.copy()
    look.unstuck = 15  # the lock alone
    if look._cards_stuck(redeals):
        return "lock"
    look = state.copy()
    look.unstuck = 31 | QUILT_UNLOCKED
    if look.dead_end():
        return "cards to come" if redeals else "last pass"
    return "alive"


def first_pass(state, nodes: int) -> dict:
    """The first pass from ``state`` searched depth first, up to ``nodes`` applies: the counts."""
    redeal = state.variant.words["redeal"]
    settle(state)
    seen = {state.search_key()}
    rows = {name: Counter() for name in ("nodes", "new", "seen", "dead")}
    dead_by, redealt = Counter(), Counter()
    stack = [(state.snapshot(), state.search_actions(0), [0])]
    used, won = 0, False
    while stack and used < nodes and not won:
        snap, actions, at = stack[-1]
        if at[0] >= len(actions):
            stack.pop()
            continue
        action = actions[at[0]]
        at[0] += 1
        state.restore(snap)
        if action == redeal:
            state.apply(action)
            settle(state)
            redealt[proof(state)] += 1
            continue
        left = len(state.stock)
        state.apply(action)
        used += 1 + settle(state)
        rows["nodes"][left] += 1
        won = state.status == WON
        if state.status == LOST:
            rows["dead"][left] += 1
            dead_by["lost"] += 1
            continue
        key = state.search_key()
        if key in seen:
            rows["seen"][left] += 1
            continue
        seen.add(key)
        if state.dead_end():
            rows["dead"][left] += 1
            dead_by[proof(state)] += 1
            continue
        rows["new"][left] += 1
        stack.append((state.snapshot(), state.search_actions(0), [0]))
    return {"nodes": used, "positions": len(seen), "exhausted": not stack, "won": won, "rows": rows,
            "dead_by": dead_by, "redealt": redealt}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("game")
    parser.add_argument("deals")
    parser.add_argument("--nodes", type=int, default=400_000)
    args = parser.parse_args()
    try:
        game = get_game(args.game)
    except Exception as error:
        raise SystemExit(f"first_pass.py: {error}") from None
    if game.family != "quilt" or game.has_reserves:
        raise SystemExit(f"first_pass.py: {args.game} is not a quilt game with a stock")
    lo, _, hi = args.deals.partition("-")
    if not (lo.isdigit() and (hi or lo).isdigit()):
        raise SystemExit(f"first_pass.py: DEALS takes a range like 3001-3010, not {args.deals!r}")
    for number in range(int(lo), int(hi or lo) + 1):
        state = working_copy(Session(game, parse_deal(str(number))))
        cpu = time.process_time()
        found = first_pass(state, args.nodes)
        cpu = time.process_time() - cpu
        end = "won" if found["won"] else "searched to its end" if found["exhausted"] else "not searched to its end"
        print(f"{number}: {found['nodes']} nodes, {found['positions']} positions, {end} ({cpu:.1f} s of CPU)")
        rows = found["rows"]
        for left in sorted(rows["nodes"], reverse=True):
            print(f"  stock {left:2d}: nodes {rows['nodes'][left]:8d}, new {rows['new'][left]:8d}, "
                  f"seen {rows['seen'][left]:8d}, dead {rows['dead'][left]:7d}")
        print("  dead by: " + (", ".join(f"{k} {n}" for k, n in sorted(found["dead_by"].items())) or "-"))
        print(f"  redeal points {sum(found['redealt'].values())}, once redealt: "
              + (", ".join(f"{k} {n}" for k, n in sorted(found["redealt"].items())) or "-"), flush=True)


if __name__ == "__main__":
    main()
