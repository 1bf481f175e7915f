"""Resealed edits of version-2 binary logs: the reader's answer is refusal or a coherent reading.

A flipped byte in a log is caught by its digest before anything else is read.  This run edits
the payload and then seals it again (a good digest, a good length), so that every edit reaches
the parts after the digest check: the header's fields, the event planes, the overflow, the
replay of the codes and the summary.  For each edited log:

- ``check`` either refuses it with LogError or reads it; nothing else (an internal error) may
  come out;
- a log it reads is coherent: its events as action indexes (what JSON and text show),
  re-played from the deal by the path that reads indexes rather than codes, reach the summary
  it was read with.  A reading of a code that differs from what the code means (such as an
  escaped undo taken for a restart) shows here.  (Its JSON form is not asked for: a binary log
  in a layout the writer would not pick reads, but its digest cannot be made again from JSON.)

usage: python tests/stress/resealed.py [--examples N] [--seed S]
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from carpet.core import GAMES  # noqa: E402
from carpet.formats import LogError, check, encode, new_header, record  # noqa: E402
from array import array  # noqa: E402

from carpet.core.session import Events  # noqa: E402
from carpet.formats.log_types import Log  # noqa: E402
from carpet.formats.log_v2 import _digest_v2, _ext, _unext  # noqa: E402
from carpet.formats.log_verify import _compare_summary, replay  # noqa: E402
from playthrough import random_session  # noqa: E402

TOOLS = ("carpet 0.1.0", "test")


def sources(rng: random.Random, count: int) -> list[bytes]:
    out = []
    games = sorted(GAMES)
    for k in range(count):
        variant = GAMES[games[k % len(games)]]
        session = random_session(variant, rng.randrange(10**6), rng.choice([5, 20, 60, 150]), check=False)
        header = new_header(session, created="2026-11-29T12:00:00.000Z", tool=rng.choice(TOOLS))
        out.append(encode(record(session, header)))
    return out


def edit(rng: random.Random, payload: bytes) -> bytes:
    data = bytearray(payload)
    for _ in range(rng.choice([1, 1, 1, 2, 3])):
        where = rng.randrange(len(data) + 1)
        kind = rng.random()
        value = rng.choice([0, 1, 2, 3, 14, 15, 16, 0x7F, 0x80, 0xFE, 0xFF, rng.randrange(256)])
        if kind < 0.6 and where < len(data):
            data[where] = value
        elif kind < 0.8:
            data.insert(where, value)
        elif where < len(data):
            del data[where]
    return bytes(data)


def sealed(payload: bytes) -> bytes:
    return _ext(payload + _digest_v2(payload))


def one(data: bytes) -> str:
    """'refused', 'read', or raises AssertionError for an incoherent reading."""
    try:
        log, session = check(data)
    except LogError:
        return "refused"
    events = Events(actions=array("I", log.events.actions), clocks=array("q", log.events.clocks))
    try:
        again = replay(Log(log.header, events, log.summary))
        _compare_summary(log.summary, again, 2)
    except LogError as exc:
        raise AssertionError(f"read, but its events as action indexes say otherwise: {exc}") from None
    assert again.events.actions == events.actions
    return "read"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--examples", type=int, default=20000)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    logs = sources(rng, 120)
    counts = {"refused": 0, "read": 0}
    started = time.process_time()
    for k in range(args.examples):
        data = rng.choice(logs)
        start, end = _unext(data)
        payload = data[start:end - 8]
        edited = sealed(edit(rng, payload))
        try:
            counts[one(edited)] += 1
        except Exception as exc:  # an internal error or an incoherent reading: print it whole
            print(f"FAILED at example {k}: {type(exc).__name__}: {exc}\n  log: {edited.hex()}", flush=True)
            return 1
    print(f"{args.examples} resealed edits: {counts['refused']} refused, {counts['read']} read coherently "
          f"({time.process_time() - started:.1f} s CPU)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
