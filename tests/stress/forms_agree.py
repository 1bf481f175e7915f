"""Every form of a log gets the same verdict: read to the same summary, or refused at the same event.

The same events and summary, sealed with a good digest, are written in each form: binary
version 1 (action indexes), binary version 2 (action codes, relative to the position), JSON
and text of version 2 (action names).  Their readers share the one replay but reach it by
different ways (codes decoded in the position, or indexes, or names parsed), so each log is
read in every form and the verdicts compared:

- read in every form, to the same summary and the same events (actions and clock readings); or
- refused in every form, and where a form names the refused event (an illegal action, a clock
  reading out of order), every form names the same one.

The events are a random game's (with undos and restarts, or moves alone), then edited: an action replaced (by any index, legal or not,
or a session event), one inserted or dropped, a clock reading moved; the summary is the
original's or the one the plain session reaches on the edited events.

usage: python tests/stress/forms_agree.py [--examples N] [--seed S]
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from array import array
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import msgspec  # noqa: E402

from carpet.core import GAMES, CarpetError, Session, parse_deal  # noqa: E402
from carpet.core.session import Events  # noqa: E402
from carpet.formats import LogError, check, encode, new_header, record  # noqa: E402
from carpet.formats.log_types import upgraded  # noqa: E402
from carpet.formats.log_verify import reseal  # noqa: E402
from carpet.formats.text import encode_text  # noqa: E402
from playthrough import random_session  # noqa: E402

CREATED = "2026-11-29T12:00:00.000Z"


_VALID: dict[str, list[int]] = {}


def edited_events(rng: random.Random, session: Session) -> Events:
    actions, clocks = list(session.events.actions), list(session.events.clocks)
    variant = session.variant
    valid = _VALID.get(variant.id)
    if valid is None:  # (the indexes that name an action of the game: JSON and text can write them)
        valid = _VALID[variant.id] = [a for a in range(3, variant.action_count) if variant.valid_index(a)]
    for _ in range(rng.choice([1, 1, 2])):
        if not actions:
            break
        k = rng.randrange(len(actions))
        kind = rng.random()
        new = rng.choice([0, 1, 2, rng.choice(valid), rng.choice(valid)])
        if kind < 0.5:
            actions[k] = new
        elif kind < 0.7:
            actions.insert(k, new)
            clocks.insert(k, clocks[k])
        elif kind < 0.85:
            del actions[k], clocks[k]
        else:
            clocks[k] += rng.choice([1, 5000])  # (forward only: version 2 stores deltas, never negative)
    return Events(actions=array("I", actions), clocks=array("q", clocks))


def moves_only(variant, rng: random.Random, steps: int) -> Session:
    """A game of random legal moves (and a hint now and then), nothing taken back."""
    session = Session(variant, parse_deal(str(rng.randint(1, 10**7))))
    clock = 0
    for _ in range(steps):
        actions = session.legal_actions()
        if not actions:
            break
        clock += rng.randint(0, 3000)
        session.act(0 if rng.random() < 0.03 else rng.choice(actions), clock)
    return session


def replayed(variant, deal, events: Events) -> Session | None:
    """The plain session on these events, or None where one is refused."""
    session = Session(variant, deal)
    try:
        for action, clock in events:
            session.act(action, clock)
    except CarpetError:
        return None
    return session


def in_order(events: Events) -> bool:
    """No clock reading before the one before it within an attempt (a restart starts from 0)."""
    previous = 0
    for action, clock in events:
        if clock < previous:
            return False
        previous = 0 if action == 2 else clock
    return True


def verdict(data: bytes) -> tuple:
    try:
        log, _ = check(data)
    except LogError as exc:
        return ("refused", exc.event)
    s = log.summary
    events = log.events
    return ("read", (s.status, s.score, s.moves, s.redeals_left, s.elapsed_ms, s.position[:8]),
            tuple(events.actions), tuple(events.clocks))


def forms(log) -> dict[str, bytes]:
    """The log in the four forms, each sealed with a good digest.  Version 1 keeps 16 hex digits
    of each position: the final one is the replay's where version 2 reads the log, else any."""
    variant = GAMES[log.header.game]
    v2 = reseal(msgspec.structs.replace(log, header=upgraded(log.header)))
    binary = encode(v2)
    try:
        position = check(binary)[1].state.digest()
    except LogError:
        position = log.summary.position[:8] + "00000000"
    deal = parse_deal(log.header.deal)
    v1 = msgspec.structs.replace(
        log, header=msgspec.structs.replace(log.header, version=1, layout=Session(variant, deal).state.digest()),
        summary=msgspec.structs.replace(log.summary, position=position, clock_jumps=0, clock_skipped_ms=0))
    return {"v1 binary": encode(reseal(v1)), "v2 binary": binary, "v2 json": encode(v2, as_json=True),
            "v2 text": encode_text(v2)}


def out_of_order(log) -> tuple[str, dict]:
    """A log with a clock reading before the one before it: the version-2 writer refuses it at that
    event, and version 1 refuses it when read ("skipped": not compared in 4 forms)."""
    previous, at = 0, None
    for i, (action, clock) in enumerate(log.events):
        if clock < previous:
            at = i + 1
            break
        previous = 0 if action == 2 else clock
    try:
        reseal(msgspec.structs.replace(log, header=upgraded(log.header)))
        written = ("written", None)
    except LogError as exc:
        written = ("refused", exc.event)
    variant = GAMES[log.header.game]
    v1 = msgspec.structs.replace(
        log, header=msgspec.structs.replace(
            log.header, version=1, layout=Session(variant, parse_deal(log.header.deal)).state.digest()),
        summary=msgspec.structs.replace(log.summary, position="0" * 16, clock_jumps=0, clock_skipped_ms=0))
    verdicts = {"v2 writer": written, "v1 binary": verdict(encode(reseal(v1)))[:2]}
    # (v1's reader may refuse an earlier event first, an illegal action before the clock goes back,
    # or the file as corrupt: version 1 packs each event's clock step too, and may not hold it either)
    found = verdicts["v1 binary"]
    agree = written == ("refused", at) and found[0] == "refused" and (found[1] is None or found[1] <= at)
    return ("skipped" if agree else "DISAGREE"), verdicts


def one(rng: random.Random, variant) -> tuple[str, dict]:
    if rng.random() < 0.5:  # with undos and restarts (the replays' undo-aware loops)
        session = random_session(variant, rng.randrange(10**6), rng.choice([5, 20, 60]), check=False)
    else:  # moves alone (the replays' tighter loops, for logs where nothing is taken back)
        session = moves_only(variant, rng, rng.choice([5, 20, 60, 120]))
    events = edited_events(rng, session)
    again = replayed(variant, session.deal, events)
    base = record(session, new_header(session, created=CREATED, tool="carpet 0.1.0"))
    if again is not None and rng.random() < 0.8:  # the edited game's own summary, as often as not
        base = record(again, base.header)
    log = msgspec.structs.replace(base, events=events)
    if not in_order(events):  # version 2 stores deltas: it cannot hold such a log (version 1 refuses it)
        return out_of_order(log)
    verdicts = {form: verdict(data) for form, data in forms(log).items()}
    return ("agree" if len(set(verdicts.values())) == 1 else "DISAGREE"), verdicts


def run(examples: int, seed: int) -> dict[str, int]:
    """``examples`` edited games (the games in turn): how many were read, refused, left out.
    AssertionError, naming every form's verdict, where the forms disagree."""
    rng = random.Random(seed)
    games = sorted(GAMES)
    counts = {"read": 0, "refused": 0, "skipped": 0}
    for k in range(examples):
        game = games[k % len(games)]
        how, verdicts = one(rng, GAMES[game])
        if how == "skipped":  # checked in out_of_order, not in 4 forms
            counts["skipped"] += 1
            continue
        assert how == "agree", f"example {k} ({game}): the forms disagree: " + "; ".join(
            f"{form} {found}" for form, found in verdicts.items())
        counts[next(iter(verdicts.values()))[0]] += 1
    return counts


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--examples", type=int, default=3000)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    started = time.process_time()
    try:
        counts = run(args.examples, args.seed)
    except AssertionError as exc:
        print(f"FAILED: {exc}", flush=True)
        return 1
    print(f"{args.examples} edited games in 4 forms: the forms agree on each ({counts['read']} read, "
          f"{counts['refused']} refused, {counts['skipped']} with a clock out of order refused by the "
          f"version-2 writer and the version-1 reader; "
          f"{time.process_time() - started:.1f} s CPU)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
