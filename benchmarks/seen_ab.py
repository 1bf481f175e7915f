"""Interleaved A/B of the seen player between two installs of carpet: the same actions? CPU per game?

    python benchmarks/seen_ab.py --a /tmp/vmain33/bin/python --b .venv/bin/python \
        --games carpet:5001-5010,montana:3001-3003 [--mode seen|meta|simple-seen] [--repeat 1] [-o out.jsonl]

Each install runs as a worker process (this file with ``--worker``) that plays one game at a
time on request and prints a JSON line: game, deal, mode, result, every action played (the
events, in order), CPU seconds (time.process_time around the whole game).  The driver asks A
and B in turn, game by game (the order alternating, so that a change in the machine's load
falls on both alike), and at the end prints per game: games, games whose actions differ (the
first difference of each is printed as it is found), and the median CPU of each with the
median ratio B/A over the games.  Exits 1 when any game's actions differ.

Modes: ``seen`` plays as the survey's seen player (core/players.py: play_out with the seen hint,
actions below FIRST_ACTION ending the game); ``simple-seen`` as the survey's simple-seen player;
``meta`` plays the seen hint's actions with an undo after every 9th action and a restart after
the 25th (once), over at most 150 events: the seen hint's memory is reset there.
Uses only carpet.core (Session, get_game, parse_deal, autoplay.play_out, seen.seen_hint,
seen.simple_seen_action), which every install since session 32 has.
"""
from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import time

MODES = ("seen", "meta", "simple-seen")
META_EVENTS = 150


def play(game: str, number: str, mode: str) -> dict:
    from carpet.core import Session, get_game, parse_deal
    from carpet.core.autoplay import play_out
    from carpet.core.game import FIRST_ACTION, PLAYING, RESTART, UNDO
    from carpet.core.players import ACTION_CAP
    from carpet.core.seen import seen_hint, simple_seen_action

    session = Session(get_game(game), parse_deal(number))
    played: list[int] = []

    def choose(session) -> int | None:
        action = (simple_seen_action if mode == "simple-seen" else seen_hint)(session)
        if mode == "seen" and (action is None or action < FIRST_ACTION):
            return None
        if action is not None:
            played.append(action)
        return action

    start = time.process_time()
    if mode == "meta":
        done = restarted = 0
        while len(played) < META_EVENTS and session.status == PLAYING:
            action = choose(session)
            if action is None:
                break
            session.act(action, 0)
            done += 1
            if done % 9 == 0 and session.can_undo():
                played.append(UNDO)
                session.act(UNDO, 0)
            if done == 25 and not restarted:
                restarted = 1
                played.append(RESTART)
                session.act(RESTART, 0)
    else:
        play_out(session, ACTION_CAP, choose=choose)
    cpu = time.process_time() - start
    return {"game": game, "deal": int(number), "mode": mode, "result": session.status,
            "actions": played, "cpu": round(cpu, 5)}


def worker() -> None:
    for request in sys.stdin:
        game, number, mode = request.split()
        try:
            row = play(game, number, mode)
        except Exception as error:  # (an unknown game or deal: the driver says so and stops)
            row = {"error": f"{type(error).__name__}: {error}"}
        print(json.dumps(row), flush=True)


def games(text: str) -> list[tuple[str, int]]:
    out = []
    for item in text.split(","):
        game, _, span = item.partition(":")
        lo, _, hi = span.partition("-")
        try:
            out.extend((game, number) for number in range(int(lo), int(hi or lo) + 1))
        except ValueError:
            raise SystemExit(f"seen_ab.py: --games takes GAME:FIRST-LAST,..., not {item!r}") from None
    return out


class Install:
    """One install's worker process: asked for one game at a time."""

    def __init__(self, side: str, python: str, mode: str, out) -> None:
        self.side, self.python, self.mode, self.out = side, python, mode, out
        try:
            self.proc = subprocess.Popen([python, __file__, "--worker"], stdin=subprocess.PIPE,
                                         stdout=subprocess.PIPE, text=True)
        except OSError as error:
            raise SystemExit(f"seen_ab.py: cannot start {error.filename}: {error.strerror}") from None

    def play(self, game: str, number: int) -> dict:
        self.proc.stdin.write(f"{game} {number} {self.mode}\n")
        self.proc.stdin.flush()
        row = json.loads(self.proc.stdout.readline() or '{"error": "the worker stopped"}')
        if "error" in row:
            raise SystemExit(f"seen_ab.py: {self.side} ({self.python}) on {game} {number}: {row['error']}")
        row["side"] = self.side
        if self.out:
            print(json.dumps(row), file=self.out, flush=True)
        return row

    def close(self) -> None:
        self.proc.stdin.close()
        self.proc.wait()


def compare(a: dict, b: dict) -> bool:
    """Print how the two plays of one game compare; whether they differ."""
    game, number = a["game"], a["deal"]
    if a["actions"] == b["actions"] and a["result"] == b["result"]:
        print(f"same {game} {number}: {a['result']} in {len(a['actions'])} actions, "
              f"CPU A {a['cpu']:.3f} s B {b['cpu']:.3f} s", flush=True)
        return False
    at = next((i for i, (x, y) in enumerate(zip(a["actions"], b["actions"])) if x != y),
              min(len(a["actions"]), len(b["actions"])))
    print(f"DIFFER {game} {number}: at action {at} (A {a['actions'][at:at + 3]} B {b['actions'][at:at + 3]}), "
          f"A {a['result']} in {len(a['actions'])}, B {b['result']} in {len(b['actions'])}", flush=True)
    return True


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    option = parser.add_argument
    option("--worker", action="store_true", help=argparse.SUPPRESS)
    option("--a", help="python of install A (the reference)")
    option("--b", help="python of install B")
    option("--games", default="carpet:5001-5003", help="GAME:FIRST-LAST,...")
    option("--mode", choices=MODES, default="seen")
    option("--repeat", type=int, default=1, help="play each game this many times each")
    option("-o", "--output", help="write every game here (JSON lines)")
    args = parser.parse_args()
    if args.worker:
        return worker()
    if not args.a or not args.b:
        parser.error("--a and --b are needed")
    todo = games(args.games)
    out = open(args.output, "w") if args.output else None
    installs = {side: Install(side, python, args.mode, out) for side, python in (("A", args.a), ("B", args.b))}
    cpu: dict = {}
    differ: dict = {}
    turn = 0
    for game, number in todo:
        for _ in range(args.repeat):
            sides = ("A", "B") if turn % 2 == 0 else ("B", "A")
            turn += 1
            rows = {side: installs[side].play(game, number) for side in sides}
            cpu.setdefault(game, []).append((rows["A"]["cpu"], rows["B"]["cpu"]))
            differ[game] = differ.get(game, 0) + compare(rows["A"], rows["B"])
    for install in installs.values():
        install.close()
    print(f"mode {args.mode}, repeat {args.repeat}")
    for game, pairs in cpu.items():
        ratios = [b / a for a, b in pairs if a > 0]
        print(f"{game}: {len(pairs)} games, {differ[game]} differ; CPU median A "
              f"{statistics.median(a for a, _ in pairs):.3f} s B {statistics.median(b for _, b in pairs):.3f} s, "
              f"median ratio B/A {statistics.median(ratios) if ratios else float('nan'):.3f}, "
              f"total A {sum(a for a, _ in pairs):.2f} s B {sum(b for _, b in pairs):.2f} s")
    sys.exit(1 if any(differ.values()) else 0)


if __name__ == "__main__":
    main()
