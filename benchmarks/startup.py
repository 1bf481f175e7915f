"""Start-up of the everyday commands against ``python -c "import typer"``, the floor of any Typer app.

Each command runs as a fresh process of an installed ``carpet`` (the console script beside the
interpreter given), paired with ``python -c "import typer"`` on the same interpreter, the order
turned each round; the child's CPU time (user and system, ``resource.getrusage(RUSAGE_CHILDREN)``)
is taken, and the median of the ratios reported.  Several installs (``--python``, repeated) are
measured in the same rounds, interleaved, so that a busy machine moves them alike:

    python benchmarks/startup.py --runs 15 --python /tmp/before/bin/python --python /tmp/after/bin/python

Measure a non-editable install (``pip install .``): an editable one goes through a finder at import.
Speed is measured, not asserted: say the machine's load with the figures.  ``--instructions`` counts
the instructions each run executes instead (``valgrind --tool=cachegrind``, hash seed 0: the same
count on a busy machine as on an idle one, one run each, about 50 times slower than the run).
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures"


def commands(log: Path) -> dict[str, list[str]]:
    """The everyday commands measured: name -> arguments of ``carpet``."""
    return {"--version": ["--version"], "show --json": ["show", str(log), "--json"], "verify": ["verify", str(log)],
            "moves": ["moves", str(log)], "deal --json": ["deal", "kovrik", "1", "--json"]}


def cpu(cmd: list[str]) -> float:
    """The CPU time (user and system) of one run of ``cmd`` as a child process."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def measure(pythons: list[str], log: Path, runs: int) -> dict[str, dict[str, dict[str, float]]]:
    """python -> command -> {ratio, ms, typer_ms}: medians over ``runs`` interleaved pairs."""
    ratios = {p: {name: [] for name in commands(log)} for p in pythons}
    times = {p: {name: [] for name in commands(log)} for p in pythons}
    floors = {p: [] for p in pythons}
    for r in range(runs):
        for p in (pythons if r % 2 == 0 else pythons[::-1]):
            carpet = str(Path(p).parent / "carpet")
            base = [p, "-c", "import typer"]
            for name, args in commands(log).items():
                if r % 2:
                    b, c = cpu(base), cpu([carpet, *args])
                else:
                    c, b = cpu([carpet, *args]), cpu(base)
                ratios[p][name].append(c / b if b > 0 else float("nan"))
                times[p][name].append(c)
                floors[p].append(b)
    return {p: {name: {"ratio": round(statistics.median(ratios[p][name]), 3),
                       "ms": round(1000 * statistics.median(times[p][name]), 1),
                       "typer_ms": round(1000 * statistics.median(floors[p]), 1)}
                for name in commands(log)} for p in pythons}


def instructions(cmd: list[str]) -> int:
    """The instructions one run of ``cmd`` executes, as valgrind counts them."""
    result = subprocess.run(["valgrind", "--tool=cachegrind", "--cache-sim=no", "--cachegrind-out-file=/dev/null",
                             *cmd], capture_output=True, text=True, env={**os.environ, "PYTHONHASHSEED": "0"})
    line = next(line for line in result.stderr.splitlines() if "I refs:" in line or "I   refs:" in line)
    return int(line.split(":")[1].replace(",", ""))


def count(pythons: list[str], log: Path) -> None:
    """Each command's instructions against ``import typer``'s, for each install."""
    for p in pythons:
        base = instructions([p, "-c", "import typer"])
        print(f"{p}: import typer {base / 1e6:.1f}M instructions")
        for name, args in commands(log).items():
            n = instructions([p, str(Path(p).parent / "carpet"), *args])
            print(f"  {name:<12} {n / base:5.3f}x  +{(n - base) / 1e6:.1f}M")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--python", action="append", help="an interpreter with carpet installed (repeatable; "
                                                           "default: this one)")
    parser.add_argument("--runs", type=int, default=15, help="interleaved pairs per command")
    parser.add_argument("--log", type=Path, default=FIXTURES / "kovrik-hard-won.carpet",
                        help="the recorded game shown, verified and listed")
    parser.add_argument("--instructions", action="store_true", help="count instructions (valgrind) instead")
    args = parser.parse_args()
    pythons = args.python or [sys.executable]
    with tempfile.TemporaryDirectory() as tmp:  # (a copy: the checkout's files are never touched)
        log = Path(tmp) / args.log.name
        log.write_bytes(args.log.read_bytes())
        if args.instructions:
            return count(pythons, log)
        for p in pythons:  # once each first: the page cache warm
            carpet = str(Path(p).parent / "carpet")
            for cmd in commands(log).values():
                cpu([carpet, *cmd])
        found = measure(pythons, log, args.runs)
    print(f"CPU time against python -c 'import typer', median of {args.runs} interleaved pairs ({args.log.name})")
    for p, rows in found.items():
        print(p)
        for name, row in rows.items():
            print(f"  {name:<12} {row['ratio']:5.2f}x  {row['ms']:6.1f} ms  (import typer {row['typer_ms']} ms)")


if __name__ == "__main__":
    main()
