"""``carpet play FILE -`` (actions piped on stdin) against ``carpet play FILE ACTION...`` (the same
actions on the command line): the CPU time of each, as the child's user and system time
(``resource.getrusage(RUSAGE_CHILDREN)``), the two interleaved (the order turned each round),
rounds repeated, the medians and their ratio printed.  After each pair the two logs must hold the
same actions (their clocks are the wall clock's, so they differ).

The actions: a kovrik deal's first legal move and an undo, repeated (each a move in kovrik's
count), ``--actions`` in all, written in one go to the pipe (a bulk pipe: the reader takes what has
arrived, one write a batch), in each form of the log (``--forms``).

    nice python benchmarks/play_pipe.py --actions 20000 --rounds 5

``--driven N`` also times a program that sends N actions one line at a time, each after the
answer to the one before (``play FILE - --json``): one write an action, so its cost grows with
the log (each write is the whole file), but no action is re-played.

One command line holds the actions whole: 20,000 of them are about 150 KB of arguments, well
within ARG_MAX (2 MB on Linux; checked below).
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

from carpet.formats import read_log, verify

SUFFIX = {"binary": ".carpet", "json": ".carpet.json", "text": ".carpet.txt"}


def child_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def timed(command: list[str], stdin: bytes | None = None) -> float:
    before = child_cpu()
    done = subprocess.run(command, input=stdin, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    if done.returncode:
        raise SystemExit(f"{' '.join(command[:4])} ...: exit {done.returncode}: {done.stderr.decode()[:300]}")
    return child_cpu() - before


def actions_of(log_path: Path) -> list[int]:
    return list(verify(read_log(log_path)).events.actions)


def driven(carpet: str, log: Path, actions: list[str]) -> float:
    """The CPU time of ``play FILE - --json`` driven line by line, each line sent after the last answer."""
    before = child_cpu()
    pipe = subprocess.Popen([carpet, "play", str(log), "-", "--json"], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, bufsize=1)
    for action in actions:
        pipe.stdin.write(action + "\n")
        pipe.stdin.flush()
        if not pipe.stdout.readline():
            raise SystemExit(f"no answer: {pipe.stderr.read()[:300]}")
    pipe.stdin.close()
    if pipe.wait():
        raise SystemExit(f"exit {pipe.returncode}")
    return child_cpu() - before


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--actions", type=int, default=20_000)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--forms", default="binary,text,json")
    parser.add_argument("--driven", type=int, default=0, help="also time N actions sent one line at a time")
    parser.add_argument("--carpet", default=str(Path(sys.executable).with_name("carpet")))
    args = parser.parse_args()
    carpet = args.carpet
    actions = ["AC>a0", "undo"] * (args.actions // 2)
    arg_bytes = sum(len(a) + 1 + 8 for a in actions)  # each argument, its NUL and its pointer
    if arg_bytes > os.sysconf("SC_ARG_MAX") // 2:
        raise SystemExit(f"{arg_bytes} bytes of arguments: too many for one command line here")
    piped = "\n".join(actions).encode() + b"\n"
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        for form in args.forms.split(","):
            fresh = root / f"fresh{SUFFIX[form]}"
            subprocess.run([carpet, "new", "kovrik", "1", "-o", str(fresh)], check=True, capture_output=True)
            times = {"line": [], "pipe": []}
            for r in range(args.rounds):
                order = ("line", "pipe") if r % 2 == 0 else ("pipe", "line")
                logs = {}
                for way in order:
                    log = logs[way] = root / f"{way}{SUFFIX[form]}"
                    shutil.copyfile(fresh, log)
                    if way == "line":
                        times[way].append(timed([carpet, "play", str(log), *actions, "-q"]))
                    else:
                        times[way].append(timed([carpet, "play", str(log), "-", "-q"], piped))
                assert actions_of(logs["line"]) == actions_of(logs["pipe"]), "the two logs differ"
                assert len(actions_of(logs["pipe"])) == len(actions)
            line, pipe = statistics.median(times["line"]), statistics.median(times["pipe"])
            print(f"{form:6} {len(actions)} actions, {args.rounds} rounds: command line median {line:.3f} s "
                  f"(all {', '.join(f'{t:.2f}' for t in times['line'])}); pipe median {pipe:.3f} s "
                  f"(all {', '.join(f'{t:.2f}' for t in times['pipe'])}); pipe/line {pipe / line:.2f}")
            if args.driven:
                log = root / f"driven{SUFFIX[form]}"
                shutil.copyfile(fresh, log)
                spent = driven(carpet, log, actions[:args.driven])
                assert actions_of(log) == actions_of(logs["line"])[:args.driven]
                print(f"{form:6} {args.driven} actions driven one line at a time: {spent:.3f} s")


if __name__ == "__main__":
    main()
