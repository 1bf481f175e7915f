"""Benchmark (not a test): ``carpet stats`` over a player's history of N recorded games.

    python tests/stats_speed.py [N] [ROUNDS] [FOLDER]      # default: 10000 3, a folder in /tmp

First makes the history, once (kept in FOLDER for the next run): N games played by the
built-in player (core/autoplay.py) on deals 1.. of a few games in turn, each recorded as
``carpet play`` records a game (binary, version 2), a clock reading every 1.5 s and the
creation times a minute apart.  Then, interleaved ROUNDS times: ``carpet stats FOLDER --json``
(the CPU time of the process, user + system from getrusage of the child, start-up included,
and its wall time), and in this process the library's check alone (formats/log.py ``check``
over every file's bytes, time.process_time): what reading and verifying cost, and what stats
adds to it.  Prints the medians.  The tests make small histories with :func:`make_history` too.
"""

from __future__ import annotations

import resource
import statistics
import subprocess
import sys
import tempfile
import time
from itertools import count
from pathlib import Path

from carpet.core import Session, get_game, parse_deal
from carpet.core.autoplay import play_out
from carpet.formats import new_header, record, to_bytes
from carpet.formats.log_types import created_text

#: the games played in turn (the quilt family's player looks ahead: slower to make, not to read)
GAMES = ("carpet", "kovrik", "kovrik-shuffle", "montana", "carpet-foster", "spaces")
#: 2026-11-29T12:00:00.000Z, the fixtures' creation time
START_MS = 1_795_953_600_000


def play(game: str, deal: int, created_ms: int, version: int = 2, first_ms: int = 1500):
    """One game played by the built-in player and recorded, the first clock reading ``first_ms``
    and one every 1.5 s after it: (log, session)."""
    session = Session(get_game(game), parse_deal(str(deal)))
    ticks = count(first_ms, 1500)
    play_out(session, clock=lambda: next(ticks))
    header = new_header(session, created=created_text(created_ms), tool="carpet stats_speed", version=version)
    return record(session, header), session


def make_history(folder: Path, n: int, games=GAMES, start_ms: int = START_MS) -> list:
    """``n`` recorded games in ``folder`` (sub-folders of 1,000), binary; returns their (path, session)."""
    made = []
    for i in range(n):
        game = games[i % len(games)]
        log, session = play(game, i // len(games) + 1, start_ms + 60_000 * i)
        where = folder / f"{i // 1000:03d}"
        where.mkdir(parents=True, exist_ok=True)
        path = where / f"{i:05d}-{game}.carpet"
        path.write_bytes(to_bytes(log))
        made.append((path, session))
    return made


def main(argv: list[str]) -> int:
    n = int(argv[0]) if argv else 10_000
    rounds = int(argv[1]) if len(argv) > 1 else 3
    folder = Path(argv[2]) if len(argv) > 2 else Path(tempfile.gettempdir()) / f"carpet-stats-{n}"
    if not folder.exists():
        started = time.process_time()
        make_history(folder, n)
        print(f"made {n:,} games in {folder} ({time.process_time() - started:.1f} s CPU)")
    carpet = Path(sys.executable).parent / "carpet"
    cpu, wall, alone = [], [], []
    for _ in range(rounds):
        alone.append(_check_alone(folder))
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        t0 = time.perf_counter()
        done = subprocess.run([str(carpet), "stats", str(folder), "--json"], capture_output=True)
        wall.append(time.perf_counter() - t0)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpu.append(after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime)
        if done.returncode:
            print(done.stderr.decode(), file=sys.stderr)
            return done.returncode
    print(done.stderr.decode().strip())
    print(f"carpet stats over {n:,} games: CPU median {statistics.median(cpu):.2f} s "
          f"({', '.join(f'{c:.2f}' for c in cpu)}), wall median {statistics.median(wall):.2f} s")
    print(f"the library's check alone over the same files, in one process: CPU median "
          f"{statistics.median(alone):.2f} s ({', '.join(f'{c:.2f}' for c in alone)})")
    return 0


def _check_alone(folder: Path) -> float:
    from carpet.formats import check
    from carpet.formats.files import read_bytes

    started = time.process_time()
    for path in sorted(folder.rglob("*.carpet")):
        check(read_bytes(path))
    return time.process_time() - started


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
