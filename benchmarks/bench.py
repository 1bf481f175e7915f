"""The benchmark harness: the figures the project promises, measured on this machine (README,
"Benchmarks").  Not installed: run ``python benchmarks/bench.py ...`` from a checkout (or ``carpet
bench ...``, which finds this folder in a checkout); its options are ``carpet bench``'s.

Every timing is CPU time of this process (``time.process_time``), the runs of what is
compared interleaved and repeated, and the median taken, so that another program busy
on the machine moves both sides alike.

- **verify, new against old**: the same games encoded in format version 2 (read by the
  one replay, formats/playlog.py) and in version 1 (read by a copy, kept in old778.py, of the
  verify path of commit 778fb62: msgspec decode, a Session.act per event with a
  snapshot before every action and the status after it).  The old side runs this
  engine's plain rules (``new_state``, ``State.apply``), so the ratio is that of the
  reading path alone: every family's rules are written once (core/carpet/, core/grid/,
  core/quilt/), so both sides run the same rules and the ratio is the reading path's alone.
  Games: the built-in player's games with human-paced clocks (0.1-4 s between
  actions), and random 2,000-event games full of hints, undos and restarts.
  ``--old-python`` compares with another install of carpet itself instead (commit 778fb62
  in a venv of its own): each side verifies the same games, version 1 there and version 2
  here, timed inside a process of its own by one probe (:data:`_VERIFY_PROBE`).
- **bytes per event**: the whole binary file over its events, version 2 and version 1,
  on the player's games.
- **start-up**: ``carpet show FILE --json`` and ``carpet --version`` as fresh processes
  against ``python -c "import typer"`` on the same interpreter, paired runs, median of
  the ratios: of wall times (what a user waits for) and of the children's CPU times (user
  and system: steadier on a shared machine).
- **memory**: the peak memory ``verify`` allocates (``tracemalloc``) above what the
  process held with the file read in, per event, on a log of redeals never taken back.
"""

import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

try:
    import resource
except ImportError:  # pragma: no cover - Windows: start-up in wall time alone
    resource = None

import msgspec

from carpet.cli.common import UNUSABLE, Failure, print_json
from carpet.core import GAMES, HINT, RESTART, UNDO, Session, __version__, parse_deal
from carpet.core.autoplay import play_out
from carpet.formats import check, encode, new_header, record

sys.path.insert(0, str(Path(__file__).parent))  # (its sibling, however this file was loaded)
from old778 import old_reader  # noqa: E402

CREATED = "2026-01-01T00:00:00.000Z"
TOOL = f"carpet {__version__}"  # what a real log says (the binary form stores it in 4 bytes)


# --- games ------------------------------------------------------------------------------
def player_game(variant, number: int) -> Session:
    """The built-in player's game of a deal, a person's pace: 0.1 to 4 s between actions."""
    rng = random.Random(number)
    session = Session(variant, parse_deal(str(number)))
    clock = [0]

    def tick() -> int:
        clock[0] += rng.randint(100, 4000)
        return clock[0]
    play_out(session, 5000, tick)
    return session


def random_game(variant, deal_number: int, events: int, rng: random.Random) -> Session:
    """A random legal session of about ``events`` events: hints, undos and restarts among them."""
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


# --- measuring --------------------------------------------------------------------------
def _both(session: Session) -> tuple[bytes, bytes]:
    new = record(session, new_header(session, created=CREATED, tool=TOOL))
    old = record(session, new_header(session, created=CREATED, tool=TOOL, version=1))
    return encode(new), encode(old)


def _cpu(run, blobs) -> float:
    start = time.process_time()
    for blob in blobs:
        run(blob)
    return time.process_time() - start


_VERIFY_PROBE = """
import sys, time
import msgspec
blobs = msgspec.msgpack.decode(open(sys.argv[1], "rb").read())
reps = int(sys.argv[2])
try:
    from carpet.formats import check as run
except ImportError:  # before check existed (commit 778fb62): decode, then verify
    from carpet.formats import decode, verify
    run = lambda blob: verify(decode(blob))
try:
    for blob in blobs:  # every log verifies before it is timed
        run(blob)
except Exception as exc:
    print("refused", type(exc).__name__, str(exc)[:100])
    sys.exit(0)
start = time.process_time()
for _ in range(reps):
    for blob in blobs:
        run(blob)
print(time.process_time() - start)
"""


def _probe_cpu(python: str, path: Path, reps: int) -> float | str:
    """CPU seconds that ``python`` (an install of carpet) spends verifying the logs in ``path``
    ``reps`` times over, measured inside that process; or, if that carpet refuses them, why."""
    try:
        done = subprocess.run([python, "-c", _VERIFY_PROBE, str(path), str(reps)], capture_output=True, text=True)
    except OSError as exc:
        done = subprocess.CompletedProcess([], 1, "", str(exc))
    if done.returncode:
        why = (done.stderr.strip().splitlines() or ["no message"])[-1][:160]
        raise Failure(f"carpet bench: --old-python {python}: it could not verify the logs ({why})", UNUSABLE)
    out = done.stdout.strip()
    return out[len("refused "):] if out.startswith("refused") else float(out)


def compare(sessions: list[Session], rounds: int, old_python: str | None = None) -> dict:
    """Events per second, new and old, interleaved rounds, medians; bytes per event.

    With ``old_python`` (the interpreter of another install of carpet, such as commit
    778fb62) the old side is that program itself reading the version-1 files, and the new
    side this one, each timed inside a process of its own by the same probe."""
    pairs = [_both(s) for s in sessions]
    new_blobs, old_blobs = [p[0] for p in pairs], [p[1] for p in pairs]
    events = sum(len(s.events) for s in sessions)
    new_t, old_t = [], []
    if old_python is None:
        old_verify = old_reader()
        for blob in new_blobs:  # the two readers agree before they are timed
            check(blob)
        for blob in old_blobs:
            old_verify(blob)
        for r in range(rounds):
            order = ((new_t, lambda b: check(b)), (old_t, old_verify))
            for times, run in (order if r % 2 == 0 else order[::-1]):
                times.append(_cpu(run, new_blobs if times is new_t else old_blobs))
    else:
        reps = max(1, 100_000 // max(1, events))  # about a tenth of a second a measurement
        with tempfile.TemporaryDirectory() as tmp:
            new_path, old_path = Path(tmp) / "new.msgpack", Path(tmp) / "old.msgpack"
            new_path.write_bytes(msgspec.msgpack.encode(new_blobs))
            old_path.write_bytes(msgspec.msgpack.encode(old_blobs))
            sides = ((new_t, sys.executable, new_path), (old_t, old_python, old_path))
            for r in range(rounds):
                for times, python, path in (sides if r % 2 == 0 else sides[::-1]):
                    spent = _probe_cpu(python, path, reps)
                    if isinstance(spent, str):
                        if times is new_t:  # this install refusing its own logs: never a figure
                            from carpet.cli.app import BUG

                            raise Failure(f"carpet bench: this carpet refused its own logs ({spent})", BUG)
                        # (a game that version does not have, as a rule)
                        return {"games": len(sessions), "events": events, "old_refused": spent}
                    times.append(spent / reps)
    new_s, old_s = statistics.median(new_t), statistics.median(old_t)
    # the target's range: human-paced games of 60 to 200 events
    per_game = [len(n) / len(s.events) for n, s in zip(new_blobs, sessions) if 60 <= len(s.events) <= 200] or [0]
    return {"games": len(sessions), "events": events,
            "new_events_per_second": round(events / new_s), "old_events_per_second": round(events / old_s),
            "ratio": round(old_s / new_s, 2),
            "bytes_per_event": round(sum(map(len, new_blobs)) / events, 2),
            "bytes_per_event_worst_game": round(max(per_game), 2),
            "games_of_60_to_200_events": len(per_game) if per_game != [0] else 0,
            "bytes_per_event_v1": round(sum(map(len, old_blobs)) / events, 2)}


def startup(log_path: Path, runs: int) -> dict:
    """Fresh processes, paired with ``python -c "import typer"``: the median ratio of their wall
    times (what a user waits) and of their CPU times (the child's user and system time, steadier
    on a shared machine), and the median wall time."""
    carpet = [sys.executable, "-c", "from carpet.cli.start import main; main()"]  # the console script's own
    base = [sys.executable, "-c", "import typer"]
    commands = {"show_json": carpet + ["show", str(log_path), "--json"], "version": carpet + ["--version"]}

    def timed(cmd) -> tuple[float, float]:
        before = resource.getrusage(resource.RUSAGE_CHILDREN) if resource else None
        start = time.perf_counter()
        subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        wall = time.perf_counter() - start
        if before is None:  # (no resource module: Windows)
            return wall, wall
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    out = {}
    timed(base)
    for name, cmd in commands.items():
        timed(cmd)
        ratios, cpu_ratios, times = [], [], []
        for r in range(runs):
            if r % 2:
                b, c = timed(base), timed(cmd)
            else:
                c, b = timed(cmd), timed(base)
            ratios.append(c[0] / b[0])
            cpu_ratios.append(c[1] / b[1] if b[1] > 0 else float("nan"))
            times.append(c[0])
        out[name] = {"ms": round(1000 * statistics.median(times), 1),
                     "ratio_to_import_typer": round(statistics.median(ratios), 2),
                     "cpu_ratio_to_import_typer": round(statistics.median(cpu_ratios), 2)}
    return out


_MEMORY_PROBE = """
import resource, sys, time, tracemalloc
from carpet.formats import check


def peak_rss():  # this process's own peak (ru_maxrss may carry the parent's across fork and exec)
    try:
        with open("/proc/self/status") as f:
            return next(int(line.split()[1]) for line in f if line.startswith("VmHWM:")) * 1024
    except (OSError, StopIteration):
        return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024


data = open(sys.argv[1], "rb").read()
rss = peak_rss()
t = time.process_time()
log, session = check(data)
t = time.process_time() - t
rss = peak_rss() - rss
events = len(log.events)
peak = -1
if events <= 300_000:  # tracemalloc is exact but slow
    del log, session
    tracemalloc.start()
    check(data)
    peak = tracemalloc.get_traced_memory()[1]
print(events, peak if peak >= 0 else rss, t, len(data), "tracemalloc" if peak >= 0 else "peak-RSS")
"""


def memory(redeals: int, tmp: Path) -> dict:
    """Peak memory of verify above what the process held with the file read in, per event, on
    redeals never taken back (tracemalloc up to 300,000 events, the process's peak RSS beyond); its CPU time."""
    from array import array

    from carpet.formats.playlog import run

    variant = GAMES["kovrik-shuffle"]
    rng = random.Random(1)
    clocks, clock = array("q"), 0
    for _ in range(redeals):  # a person's pace: 0.1 to 4 s between actions
        clock += rng.randint(100, 4000)
        clocks.append(clock)
    session, _ = run(Session(variant, parse_deal("1")), array("I", [3]) * redeals, clocks, from_codes=False)
    path = tmp / "redeals.carpet"
    path.write_bytes(encode(record(session, new_header(session, created=CREATED, tool=TOOL))))
    out = subprocess.run([sys.executable, "-c", _MEMORY_PROBE, str(path)], check=True, capture_output=True,
                         text=True).stdout.split()
    events, grown, seconds, size = int(out[0]), int(out[1]), float(out[2]), int(out[3])
    return {"events": events, "file_bytes": size, "peak_bytes_per_event": round(grown / events, 1),
            "measured_by": out[4], "verify_seconds": round(seconds, 2)}


def _ratio_text(row: dict) -> str:
    if row.get("old_refused"):
        return f"(that version refuses these logs: {row['old_refused'][:60]})"
    return f"{row['new_events_per_second']:>9,} vs {row['old_events_per_second']:>9,} = {row['ratio']:4.2f}x"


def run_bench(games: int, random_events: int, rounds: int, startup_runs: int, redeals: int, as_json: bool,
              old_python: str | None = None, only: list[str] | None = None) -> None:
    rows = []
    say = (lambda *a: None) if as_json else print
    against = f"the install of {old_python}, version-1 files" if old_python else "778fb62's path"
    say(f"verify, events/s CPU (median of {rounds} interleaved rounds): format 2 + one replay vs {against}")
    for variant in GAMES.values():
        if only and variant.id not in only:
            continue
        player = compare([player_game(variant, n) for n in range(1, games + 1)], rounds, old_python)
        rng = random.Random(20261129)
        randoms = compare([random_game(variant, 1 + 7919 * k, random_events, rng) for k in range(2)], rounds,
                          old_python)
        rows.append({"game": variant.id, "player": player, "random": randoms})
        bytes_text = "" if player.get("old_refused") else (
            f"   bytes/event {player['bytes_per_event']:.2f} (worst of {player['games_of_60_to_200_events']} "
            f"games of 60-200 events {player['bytes_per_event_worst_game']:.2f}, "
            f"version 1 {player['bytes_per_event_v1']:.2f})")
        say(f"{variant.id:<17} player {_ratio_text(player)}   random {_ratio_text(randoms)}{bytes_text}")
    if startup_runs == 0:
        if as_json:
            from carpet.formats.documents import Bench
            print_json(Bench(python=sys.version.split()[0], verify=rows, startup={}, memory={}))
        return
    with tempfile.TemporaryDirectory() as tmp:
        tmp_path = Path(tmp)
        log_path = tmp_path / "bench.carpet"
        log_path.write_bytes(_both(player_game(GAMES["kovrik"], 1))[0])
        start = startup(log_path, startup_runs)
        mem = memory(redeals, tmp_path)
    say(f"start-up against python -c 'import typer' (median of {startup_runs} paired runs, wall time; CPU time "
        f"in brackets): show --json {start['show_json']['ratio_to_import_typer']}x "
        f"({start['show_json']['cpu_ratio_to_import_typer']}x; {start['show_json']['ms']} ms), "
        f"--version {start['version']['ratio_to_import_typer']}x ({start['version']['cpu_ratio_to_import_typer']}x; "
        f"{start['version']['ms']} ms)")
    say(f"memory: verify of {mem['events']:,} redeals never taken back ({mem['file_bytes']:,} bytes): "
        f"{mem['peak_bytes_per_event']} bytes/event above start-up ({mem['measured_by']}), "
        f"{mem['verify_seconds']} s CPU")
    if as_json:
        from carpet.formats.documents import Bench
        print_json(Bench(python=sys.version.split()[0], verify=rows, startup=start, memory=mem))


if __name__ == "__main__":  # python benchmarks/bench.py [carpet bench's options]
    import typer

    from carpet.cli.bench import bench

    typer.run(bench)
