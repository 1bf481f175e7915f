"""Kill -9 writers at random points: the log always verifies and holds every acknowledged action.

A round starts a few worker processes on one log.  Each worker calls carpet's
own entry point in a loop, ``carpet play LOG hint [hint [hint]] -q`` (1 to 3
actions a command), and before and after each command prints a line to the
parent, on a pipe of their own: ``start K`` and ``done CODE``.  A command that printed ``done 0`` is
acknowledged: the user was told it is recorded.  At a random moment every
worker is killed with SIGKILL, wherever it is: starting up, waiting for the
lock, replaying, writing the temporary file, renaming it.

Then the log must:

- decode and verify (digest, every event legal, the summary as replayed);
- hold every acknowledged action: its events are at least those before the
  round plus all acknowledged ones, and at most that plus the actions of the
  commands in flight when the kill came (a command lands whole or not at all);
- keep its mode (0640 here) and stay the one file it was;
- after the next write, have no temporary file beside it (what a kill left is
  cleaned up by that write).

Every ``--fresh`` rounds a new log is started (binary and JSON in turn), so
the replay before each write stays short.

    python tests/stress/kill9.py --kills 2000 --workers 3       # the long run
    python tests/stress/kill9.py --kills 60 --seed 5

CI runs a bounded part of it (``tests/test_kill9.py``).
"""

from __future__ import annotations

import argparse
import contextlib
import io
import os
import random
import signal
import stat
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

WORKER = """
import os, random, sys
from carpet.cli.app import app
import carpet.cli.play  # loaded before the clock starts: the kills fall among the commands, not the imports
log, rng, report = sys.argv[1], random.Random(int(sys.argv[2])), int(sys.argv[3])
say = lambda line: os.write(report, line.encode() + b"\\n")  # one write of a few bytes: a kill cannot cut it
sys.stdout = open(os.devnull, "w")  # what play prints is not the parent's business
say("ready")
while True:
    k = rng.randint(1, 3)
    say(f"start {k}")
    try:
        app(["play", log, *["hint"] * k, "-q"])
        code = 0
    except SystemExit as exc:
        code = exc.code
    say(f"done {code}")
"""

@dataclass
class Figures:
    rounds: int = 0
    kills: int = 0
    kills_mid_command: int = 0  # a command had started and not finished
    temporaries_left_by_kills: int = 0  # a kill came while a temporary file was on disk
    acknowledged_actions: int = 0
    landed_unacknowledged: int = 0  # in flight when killed, and on disk all the same
    logs: int = 0
    seconds: float = 0.0
    failures: list[str] = field(default_factory=list)

    def line(self) -> str:
        return (f"{self.kills} kills in {self.rounds} rounds on {self.logs} logs, {self.kills_mid_command} mid-command, "
                f"{self.temporaries_left_by_kills} temporary files left by kills (all cleaned by the next write), "
                f"{self.acknowledged_actions} acknowledged actions all on disk, {self.landed_unacknowledged} "
                f"in-flight actions landed whole, {len(self.failures)} failures, {self.seconds:.1f} s")


def _events(path: Path) -> int:
    from carpet.formats import read_log, verify

    return len(verify(read_log(path)).events)


def _temporaries(directory: Path) -> list[str]:
    return [n for n in os.listdir(directory) if n.endswith(".tmp")]


def _new_log(path: Path) -> None:
    from carpet.cli.app import app

    with contextlib.redirect_stdout(io.StringIO()):
        code = app(["new", "kovrik", "1", "-o", str(path), "--force"], standalone_mode=False)
    assert code in (0, None), code
    os.chmod(path, 0o640)


def run(kills: int, *, workers: int = 2, seed: int = 0, fresh: int = 40, window: tuple[float, float] = (0.0, 0.4),
        directory: Path | None = None) -> Figures:
    """Kill ``kills`` workers (``workers`` a round) at random moments; check the log after every round."""
    from carpet.cli.app import app

    rng = random.Random(seed)
    figures = Figures()
    started = time.perf_counter()
    with tempfile.TemporaryDirectory(dir=directory) as tmp:
        root = Path(tmp)
        path = None
        before = 0
        while figures.kills < kills:
            if figures.rounds % fresh == 0:
                path = root / f"g{figures.logs}.{'json' if figures.logs % 2 else 'log'}"
                _new_log(path)
                figures.logs += 1
                before = 0
            figures.rounds += 1
            procs, reports = [], []
            for _ in range(workers):
                read, write = os.pipe()
                procs.append(subprocess.Popen([sys.executable, "-c", WORKER, str(path), str(rng.randrange(2**32)),
                                               str(write)], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                                              pass_fds=(write,)))
                os.close(write)
                reports.append(os.fdopen(read, "rb"))
            for report in reports:
                report.readline()  # "ready"
            time.sleep(rng.uniform(*window))
            for p in procs:
                p.send_signal(signal.SIGKILL)
            acked = in_flight = 0
            for p, report in zip(procs, reports):
                p.wait()
                out = report.read().decode().split("\n")
                report.close()
                figures.kills += 1
                pending = None
                for line in out:
                    word, _, value = line.partition(" ")
                    if word == "start" and not value.isdigit():
                        figures.failures.append(f"round {figures.rounds}: a worker said {line!r}: {out[-12:]}")
                    elif word == "start":
                        pending = int(value)
                    elif word == "done":
                        if value == "0":
                            acked += pending
                        else:
                            figures.failures.append(f"round {figures.rounds}: a worker's play exited {value}")
                        pending = None
                if pending is not None:
                    figures.kills_mid_command += 1
                    in_flight += pending
            left = _temporaries(root)
            figures.temporaries_left_by_kills += len(left)
            where = f"round {figures.rounds} ({path.name})"
            try:
                now = _events(path)
            except Exception as exc:  # noqa: BLE001 - any failure to read back is the finding
                figures.failures.append(f"{where}: the log no longer verifies: {exc}")
                break
            if not before + acked <= now <= before + acked + in_flight:
                figures.failures.append(f"{where}: {now} events, expected {before} + {acked} acknowledged "
                                        f"(+ up to {in_flight} in flight)")
            figures.acknowledged_actions += acked
            figures.landed_unacknowledged += now - before - acked
            if stat.S_IMODE(os.stat(path).st_mode) != 0o640 or not stat.S_ISREG(os.lstat(path).st_mode):
                figures.failures.append(f"{where}: the log's mode or kind changed")
            with contextlib.redirect_stdout(io.StringIO()):
                code = app(["hint", str(path), "-q"], standalone_mode=False)  # the next write
            if code not in (0, None):
                figures.failures.append(f"{where}: the write after the kill exited {code}")
            before = now + 1
            if _temporaries(root):
                figures.failures.append(f"{where}: temporary files stayed after the next write: {_temporaries(root)}")
            if figures.failures:
                break
    figures.seconds = time.perf_counter() - started
    return figures


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--kills", type=int, default=1000)
    parser.add_argument("--workers", type=int, default=3, help="writers a round, all killed (default 3)")
    parser.add_argument("--seed", type=int, default=None, help="default: a fresh one, printed")
    parser.add_argument("--fresh", type=int, default=40, help="a new log every this many rounds")
    opts = parser.parse_args()
    seed = opts.seed if opts.seed is not None else int.from_bytes(os.urandom(4), "big")
    figures = run(opts.kills, workers=opts.workers, seed=seed, fresh=opts.fresh)
    print(f"{figures.line()} (seed {seed})")
    for failure in figures.failures:
        print("FAIL", failure)
    return 1 if figures.failures else 0


if __name__ == "__main__":
    sys.exit(main())
