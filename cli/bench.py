"""``carpet bench``: the figures the project promises, measured on this machine.

- events verified per second: random legal games (hints, undos, restarts among
  them) of every game id are recorded, encoded, then decoded and fully
  verified; the time covers decode + replay + summary and digest checks.
- bytes per event: the binary log's size over its events, for the whole file
  and for the events alone (the marginal cost of one more event); clock
  readings between events are drawn between 0.1 s and 4 s, like a person or a
  script pacing itself.
- start-up: wall time of `carpet show LOG --json` and `carpet play LOG hint`
  as fresh processes, the way a shell loop calls them.
"""

from __future__ import annotations

import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from typing import Annotated

import typer

from carpet.core import GAMES, HINT, RESTART, UNDO, Session, parse_deal
from carpet.formats import decode, encode, new_header, record, verify

from .common import JsonFlag

CREATED = "2026-01-01T00:00:00.000Z"


def random_game(variant, deal_number: int, events: int, rng: random.Random) -> Session:
    """A random legal session of about ``events`` events (meta actions included)."""
    session = Session(variant, parse_deal(str(deal_number)))
    clock = 0
    while len(session.events) < events:
        clock += rng.randint(100, 4000)
        roll = rng.random()
        actions = session.legal_actions()
        if roll < 0.03:
            action = HINT
        elif roll < 0.10 and session.can_undo():
            action = UNDO
        elif not actions or roll < 0.002:
            action = RESTART
        else:
            action = rng.choice(actions)
        session.act(action, clock)
        if action == RESTART:
            clock = 0
    return session


def _measure_verify(variant, total_events: int, rng: random.Random) -> tuple[float, int, int, int]:
    blobs, count, size, bare = [], 0, 0, 0
    deal_number = 1
    while count < total_events:
        session = random_game(variant, deal_number, min(2000, total_events - count), rng)
        log = record(session, new_header(session, created=CREATED, tool="bench"))
        blob = encode(log)
        empty = record(Session(variant, session.deal), log.header)
        blobs.append(blob)
        count += len(log.events)
        size += len(blob)
        bare += len(blob) - len(encode(empty))
        deal_number += 7919
    start = time.perf_counter()
    for blob in blobs:
        verify(decode(blob))
    elapsed = time.perf_counter() - start
    return count / elapsed, count, size, bare


def _startup_ms(args: list[str], runs: int = 7) -> float:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        subprocess.run([sys.executable, "-m", "carpet.cli", *args], check=True,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times)


def run_bench(events: int, as_json: bool) -> None:
    rng = random.Random(20261129)
    rows = []
    for variant in GAMES.values():
        rate, count, size, bare = _measure_verify(variant, events, rng)
        rows.append({"game": variant.id, "events": count, "events_per_second": round(rate),
                     "bytes_per_event": round(size / count, 2), "bytes_per_event_marginal": round(bare / count, 2)})
        if not as_json:
            print(f"{variant.id:<18} verify {rate:>10,.0f} events/s   {size / count:5.2f} bytes/event "
                  f"({bare / count:4.2f} for the events alone), {count:,} events")
    with tempfile.TemporaryDirectory() as tmp:
        log_path = Path(tmp) / "bench.log"
        session = random_game(GAMES["kovrik"], 1, 200, random.Random(1))
        log = record(session, new_header(session, created=CREATED, tool="bench"))
        log_path.write_bytes(encode(log))
        env_note = os.environ.get("VIRTUAL_ENV", "")
        startup = {
            "show_json_ms": round(_startup_ms(["show", str(log_path), "--json"]), 1),
            "play_hint_ms": round(_startup_ms(["play", str(log_path), "hint", "-q"]), 1),
            "version_ms": round(_startup_ms(["--version"]), 1),
        }
    total_events = sum(r["events"] for r in rows)
    overall = total_events / sum(r["events"] / r["events_per_second"] for r in rows)
    doc = {"python": sys.version.split()[0], "verify": rows, "events_per_second_overall": round(overall),
           "startup": startup, "venv": bool(env_note)}
    if as_json:
        print(json.dumps(doc))
    else:
        print(f"overall verify: {overall:,.0f} events/s on one core")
        print(f"start-up: show --json {startup['show_json_ms']} ms, play hint {startup['play_hint_ms']} ms, "
              f"--version {startup['version_ms']} ms (median of 7 fresh processes)")


def bench(events: Annotated[int, typer.Option("--events", min=1000, help="Events to verify per game id.")] = 100_000,
          solve: Annotated[bool, typer.Option("--solve", help="Measure the solver instead (cli/bench_solve.py): "
                                                              "answers, CPU time per deal, nodes per second.")] = False,
          games: Annotated[str, typer.Option("--games", help="With --solve: game ids, comma separated.")]
          = "kovrik,kovrik-hard,carpet,carpet-auto,carpet-foster,crazy-quilt,indian-carpet,persian-carpet",
          deals: Annotated[str, typer.Option("--deals", help="With --solve: a range of deals, e.g. 1-200.")] = "1-50",
          nodes: Annotated[int, typer.Option("--nodes", min=1, help="With --solve: the budget per deal.")] = 400_000,
          as_json: JsonFlag = False) -> None:
    """Measure: events verified per second, bytes per event of the log, start-up time of a command
    (or, with --solve, the solver)."""
    if solve:
        from .bench_solve import run_solve_bench
        from .common import UNUSABLE, Failure, guard

        def run():
            try:
                first, _, last = deals.partition("-")
                numbers = range(int(first), int(last or first) + 1)
            except ValueError:
                raise Failure(f"carpet: --deals {deals!r}: use a range like 1-200", UNUSABLE) from None
            run_solve_bench([g.strip() for g in games.split(",") if g.strip()], numbers, nodes, as_json)
        guard(run)
        return
    run_bench(events, as_json)
