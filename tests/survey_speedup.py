"""Benchmark (not a test): ``carpet survey`` with 1 job against 2, in wall time and in CPU time.

    python tests/survey_speedup.py [GAME] [DEALS] [ROUNDS]      # default: carpet 1-20000 5

Runs the two commands interleaved (1, 2, 1, 2, ...) so that whatever else the machine does
weighs on both alike, and prints the medians.  CPU time is the whole process tree's (this
script makes itself the reaper of the survey's orphaned workers, so their time is counted).

- wall speed-up: median wall time with 1 job over median with 2;
- CPU-normalised speed-up: 2 x (CPU seconds with 1 job) / (CPU seconds with 2 jobs): what 2
  jobs would give on two cores of one's own, the work they add (start-up, handing chunks
  round) counted, time spent waiting for a core not.

On a machine shared with other sessions, Linux's autogroup scheduler gives each session an
equal share of the cores whatever its number of processes, so the wall speed-up says more
about the neighbours than about the survey; run it in a session of its own with a raised
share to see what the cores give:

    setsid bash -c 'echo -10 > /proc/self/autogroup; .venv/bin/python tests/survey_speedup.py carpet 1-100000 3'
"""

import ctypes
import os
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path

PR_SET_CHILD_SUBREAPER = 36


def run(game: str, deals: str, jobs: int) -> tuple[float, float]:
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    carpet = Path(sys.executable).with_name("carpet")
    subprocess.run([str(carpet), "survey", game, "--deals", deals, "--jobs", str(jobs), "--json"],
                   check=True, stdout=subprocess.DEVNULL)
    wall = time.perf_counter() - started
    while True:  # reap the workers and the fork server, orphaned to us
        try:
            pid, _ = os.waitpid(-1, 0)
        except ChildProcessError:
            break
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu


def main() -> None:
    game = sys.argv[1] if len(sys.argv) > 1 else "carpet"
    deals = sys.argv[2] if len(sys.argv) > 2 else "1-20000"
    rounds = int(sys.argv[3]) if len(sys.argv) > 3 else 5
    ctypes.CDLL(None, use_errno=True).prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0)
    results: dict[int, list[tuple[float, float]]] = {1: [], 2: []}
    for r in range(rounds):
        for jobs in (1, 2):
            wall, cpu = run(game, deals, jobs)
            results[jobs].append((wall, cpu))
            print(f"round {r + 1}, {jobs} job{'s' * (jobs > 1)}: {wall:.2f} s wall, {cpu:.2f} s CPU, "
                  f"load {os.getloadavg()[0]:.2f}", flush=True)
    wall1, cpu1 = (statistics.median(x[i] for x in results[1]) for i in (0, 1))
    wall2, cpu2 = (statistics.median(x[i] for x in results[2]) for i in (0, 1))
    print(f"{game} {deals}, medians of {rounds}: 1 job {wall1:.2f} s wall / {cpu1:.2f} s CPU; "
          f"2 jobs {wall2:.2f} s wall / {cpu2:.2f} s CPU")
    print(f"wall speed-up {wall1 / wall2:.2f}x; CPU-normalised speed-up {2 * cpu1 / cpu2:.2f}x")


if __name__ == "__main__":
    main()
