"""``carpet verify FILE...`` through the command, this code against another install (commit 778fb62).

What a user runs: one ``carpet verify`` over many files, timed as the child's CPU time (user and
system, ``resource.getrusage(RUSAGE_CHILDREN)``), the two installs interleaved (the order turned
each round), rounds repeated and the medians compared.  The same games and clocks on both sides:
``N`` of the built-in player's games per game id (a person's pace, 0.1-4 s between actions) and
a few random games full of hints, undos and restarts, recorded by this code as version-2 files
(read by this install) and as version-1 files (read by the other).  Each side also verifies one
file alone, so the per-file cost (start-up taken out) is reported too, and version-1 files are
timed on this install against the other's reading them.

    python benchmarks/verify_files.py --old /tmp/venv778/bin/carpet --files 200 --rounds 11

``--new`` is this install's command (default: the ``carpet`` beside this interpreter).  Speed is
measured, not asserted: say the machine's load with the figures.
"""

from __future__ import annotations

import argparse
import random
import resource
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from bench import CREATED, TOOL, player_game, random_game  # noqa: E402

from carpet.core import GAMES  # noqa: E402
from carpet.formats import encode, new_header, record  # noqa: E402

PLAYERS = "kovrik,kovrik-hard,kovrik-shuffle,kovrik-shuffle-2,carpet,carpet-auto,carpet-foster,crazy-quilt," \
          "indian-carpet,persian-carpet"


def write_games(root: Path, game: str, files: int, randoms: int, random_events: int) -> dict[str, Path]:
    """The folders of one game's files: player's and random games, version 2 and version 1."""
    variant = GAMES[game]
    rng = random.Random(20261129)
    kinds = {"player": [player_game(variant, n) for n in range(1, files + 1)],
             "random": [random_game(variant, 1 + 7919 * k, random_events, rng) for k in range(randoms)]}
    folders = {}
    for kind, sessions in kinds.items():
        for version in (2, 1):
            folder = root / f"{game}-{kind}-v{version}"
            folder.mkdir()
            for k, session in enumerate(sessions):
                header = new_header(session, created=CREATED, tool=TOOL, version=version)
                (folder / f"{k:04}.carpet").write_bytes(encode(record(session, header)))
            folders[f"{kind}-v{version}"] = folder
    return folders


def child_cpu(command: list[str]) -> float:
    """CPU seconds (user and system) of one run of ``command``, which must succeed."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    done = subprocess.run(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode:
        raise SystemExit(f"{' '.join(command[:3])} ...: exit {done.returncode}: "
                         f"{done.stderr.decode(errors='replace').strip()[-300:]}")
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def measure(sides: dict[str, list[str]], rounds: int) -> dict[str, float]:
    """Median CPU of each named command, run interleaved (the order turned every round)."""
    times: dict[str, list[float]] = {name: [] for name in sides}
    names = list(sides)
    for name in names:  # warm the page cache and the .pyc files before timing
        child_cpu(sides[name])
    for r in range(rounds):
        for name in (names if r % 2 == 0 else names[::-1]):
            times[name].append(child_cpu(sides[name]))
    return {name: statistics.median(values) for name, values in times.items()}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--old", default="/tmp/venv778/bin/carpet", help="the other install's carpet command")
    parser.add_argument("--new", default=str(Path(sys.executable).parent / "carpet"), help="this install's")
    parser.add_argument("--games", default=PLAYERS, help="game ids, comma separated")
    parser.add_argument("--files", type=int, default=200, help="player's games per game id")
    parser.add_argument("--randoms", type=int, default=50, help="random games per game id")
    parser.add_argument("--random-events", type=int, default=1000, help="events of each random game")
    parser.add_argument("--rounds", type=int, default=11)
    args = parser.parse_args()
    unknown = [game for game in args.games.split(",") if game not in GAMES]
    if unknown:
        parser.error(f"no such game: {', '.join(unknown)}")
    for side in (args.old, args.new):
        if not Path(side).is_file():
            parser.error(f"no carpet command at {side}")
    if min(args.files, args.randoms, args.rounds) < 1 or args.random_events < 1:
        parser.error("--files, --randoms, --random-events and --rounds must be at least 1")
    print(f"carpet verify FILE..., child CPU, median of {args.rounds} interleaved rounds; new: {args.new} "
          f"(version 2; v1: the same games as version 1), old: {args.old} (version 1)")
    print(f"{'game':<17} {'kind':<7} {'files':>5} {'new ms':>8} {'old ms':>8} {'ratio':>6}   "
          f"{'per file new/old us':>20} {'ratio':>6}   {'v1 new ms':>9} {'v1/old':>6}")
    with tempfile.TemporaryDirectory() as tmp:
        for game in args.games.split(","):
            root = Path(tmp) / game
            root.mkdir()
            folders = write_games(root, game, args.files, args.randoms, args.random_events)
            for kind in ("player", "random"):
                new_files = sorted(map(str, folders[f"{kind}-v2"].iterdir()))
                old_files = sorted(map(str, folders[f"{kind}-v1"].iterdir()))
                sides = {"new": [args.new, "verify", *new_files], "old": [args.old, "verify", *old_files],
                         "new1": [args.new, "verify", new_files[0]], "old1": [args.old, "verify", old_files[0]],
                         "v1": [args.new, "verify", *old_files]}
                t = measure(sides, args.rounds)
                count = len(new_files)
                per_new = (t["new"] - t["new1"]) / max(1, count - 1) * 1e6
                per_old = (t["old"] - t["old1"]) / max(1, count - 1) * 1e6
                print(f"{game:<17} {kind:<7} {count:>5} {t['new'] * 1e3:>8.1f} {t['old'] * 1e3:>8.1f} "
                      f"{t['old'] / t['new']:>5.2f}x   {per_new:>9.0f}/{per_old:<9.0f} "
                      f"{_ratio(per_old, per_new)}   "
                      f"{t['v1'] * 1e3:>9.1f} {t['old'] / t['v1']:>5.2f}x", flush=True)


def _ratio(old: float, new: float) -> str:
    """old/new as "1.23x"; " noise" where a per-file figure came out at or below zero (the one-file
    run took as long as the whole: too few files or rounds for this machine's noise)."""
    return f"{old / new:>5.2f}x" if old > 0 and new > 0 else " noise"


if __name__ == "__main__":
    main()
