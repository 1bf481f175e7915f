"""Hostile files in every form, and hostile positions (issue 48): no internal error, no hang, no
tampering accepted.

Every recorded game of fixtures/ is written in four forms (binary version 1 and 2, JSON, text:
the other version made by recording its replay again), then edited at random, as a damaged disk or
a forger would, and read with ``formats.check`` (what every command reads a file with):

- ``plain``: bytes flipped, inserted, deleted; the file cut short; a stretch repeated;
- ``deep``: JSON nested 4 to 5,000 levels at a random place (in the header, the summary, the
  events, the top), a version-1 binary log with a value nested as deep after its fields;
- ``dup``: a JSON key given again (in the header, the summary, the top), before or after the first;
- ``huge``: a number of any field made 2^63 .. 10^30 (JSON, text tags, version-1 summary) or a
  version-2 log sealed again with a clock delta or summary number past its field.

Each edit must be refused (LogError) or read to the same header, events and summary as the file it
was made from (a sealed log: the text form's game written by hand, without a digest, is sealed anew
by design); anything else is *accepted tampering*.  Any other exception is an *internal error*
(exit 3), any case over 10 s of CPU a *hang*.  Every ``--cli-every`` case also goes through a
command in-process (verify, show, moves, export, replay --json), whose exit must be 0, 1 or 2.

Then ``--positions`` position texts, from deals and random play of every game, edited likewise
(cards, fields, numbers past their bounds, generators wound up to 10^7 and past it, a
persian-carpet reserve heaped up, a p: score past the prefixes, a won game) are read and played a
few actions (redeals included): BadPosition/CarpetError or a game; the unreachable kinds must be
refused.

    python tests/stress/fuzz_forms.py --cases 20000 --positions 5000 --seed 1
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import msgspec  # noqa: E402
from typer.testing import CliRunner  # noqa: E402

from carpet.cli.app import app  # noqa: E402
from carpet.core import GAMES, CarpetError, get_game, parse_deal  # noqa: E402
from carpet.core.position import read as read_position, write as write_position  # noqa: E402
from carpet.formats import LogError, check, encode, new_header, record, verify  # noqa: E402
from carpet.formats import log_v2  # noqa: E402
from carpet.formats.log_verify import codes_and_deltas  # noqa: E402
from carpet.formats.text import encode_text  # noqa: E402
from playthrough import random_session  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
HANG = 10.0  # seconds of CPU


# --- the files -------------------------------------------------------------------------------
def forms() -> list[tuple[str, bytes]]:
    """(form, bytes) of every fixture game in every form."""
    out = []
    for path in sorted((ROOT / "fixtures").iterdir()):
        if path.suffix in (".py", ".tsv") or not path.is_file():
            continue
        try:
            log, session = check(path.read_bytes(), keep_history=True)
        except LogError:
            continue
        out.append(("json", encode(log, as_json=True)))
        out.append(("text", encode_text(log)))
        for version in (1, 2):
            header = new_header(session, created=log.header.created, tool=log.header.tool, version=version)
            again = record(session, header, clock_jumps=log.summary.clock_jumps if version == 2 else 0,
                           clock_skipped_ms=log.summary.clock_skipped_ms if version == 2 else 0)
            out.append((f"v{version}", encode(again)))
    return out


def plain(rng: random.Random, data: bytes) -> bytes:
    kind = rng.random()
    if kind < 0.15:
        return data[:rng.randrange(len(data))]
    if kind < 0.25:
        a, b = sorted((rng.randrange(len(data)), rng.randrange(len(data))))
        return data[:b] + data[a:]
    data = bytearray(data)
    for _ in range(rng.choice([1, 1, 2, 4])):
        where = rng.randrange(len(data))
        value = rng.choice([0, 0x22, 0x5B, 0x5D, 0x7B, 0x7D, 0x3A, 0x2C, 0x7F, 0x80, 0x91, 0xDC, 0xFF, rng.randrange(256)])
        roll = rng.random()
        if roll < 0.6:
            data[where] = value
        elif roll < 0.8:
            data.insert(where, value)
        else:
            del data[where]
    return bytes(data)


def _nested(rng: random.Random, depth: int) -> bytes:
    if rng.random() < 0.5:
        return b"[" * depth + b"]" * depth
    return b'{"k":' * depth + b"1" + b"}" * depth


def deep(rng: random.Random, form: str, data: bytes) -> bytes:
    depth = rng.choice([4, 5, 20, 200, 1000, rng.randint(4, 5000)])
    if form == "json":
        where = rng.choice([b'"header":{', b'"summary":{', b'"events":['])
        at = data.index(where) + len(where)
        extra = (b'"x":' if where != b'"events":[' else b"") + _nested(rng, depth - 2) + b","
        if where == b'"events":[' and rng.random() < 0.5:  # an event itself nested deeper
            extra = b"[" * depth + b'"turn"' + b"]" * depth + b","
        return data[:at] + extra + data[at:]
    if form == "v1":
        return bytes([data[0] + 1]) + data[1:] + b"\x91" * depth + b"\x90"
    return plain(rng, data)


def dup(rng: random.Random, form: str, data: bytes) -> bytes:
    if form != "json":
        if form == "text":  # a tag given twice
            line = rng.choice([ln for ln in data.split(b"\n") if ln.startswith(b"[")])
            return data.replace(line, line + b"\n" + line, 1)
        return plain(rng, data)
    doc = msgspec.json.decode(data)
    part = rng.choice(["header", "summary", None])
    key = rng.choice(sorted(doc[part])) if part else rng.choice(["header", "events", "summary"])
    value = rng.choice([b'"x"', b"0", b"null", b'"won"', b"48", msgspec.json.encode(doc[part][key] if part else [])])
    given = b'"' + key.encode() + b'":' + value
    if part is None:
        return data[:1] + given + b"," + data[1:] if rng.random() < 0.5 else data[:-2] + b"," + given + data[-2:]
    at = data.index(b'"' + part.encode() + b'":{') + len(part) + 4
    return data[:at] + given + b"," + data[at:]


def huge(rng: random.Random, form: str, data: bytes) -> bytes:
    number = str(rng.choice([2**63, 2**63 - 1, 2**64, 2**64 + 1, 10**30, -(2**63), 2**40 + 1])).encode()
    if form in ("json", "text"):
        import re

        runs = [m.span() for m in re.finditer(rb"[0-9]+", data)]
        a, b = rng.choice(runs)
        return data[:a] + number + data[b:]
    if form == "v2":
        start, end = log_v2._unext(data)
        log, _ = check(data)
        header, summary = log.header, msgspec.structs.replace(log.summary, digest="")
        codes, deltas = codes_and_deltas(log, get_game(header.game))
        deltas = list(deltas)
        field = rng.choice(["delta", "score", "moves", "elapsed_ms"])
        value = rng.choice([2**63, 2**64 - 1, 2**41, -(2**63)])
        if field == "delta" and deltas:
            deltas[rng.randrange(len(deltas))] = abs(value)
        elif field != "delta":
            summary = msgspec.structs.replace(summary, **{field: abs(value) if field != "score" else value})
        payload = log_v2._payload_v2(header, codes, deltas, summary)
        seal = log_v2._digest_v2(payload) if rng.random() < 0.7 else bytes(8)
        return log_v2._ext(payload + seal)
    return plain(rng, data)


KINDS = {"plain": lambda rng, form, data: plain(rng, data), "deep": deep, "dup": dup, "huge": huge}


def same(log, original) -> bool:
    return (log.header == original.header and log.summary == original.summary
            and list(zip(log.events.actions, log.events.clocks)) == list(zip(original.events.actions,
                                                                            original.events.clocks)))


# --- positions -------------------------------------------------------------------------------
def position_texts(rng: random.Random) -> list[str]:
    out = []
    for game, variant in sorted(GAMES.items()):
        for _ in range(4):
            session = random_session(variant, rng.randrange(10**6), rng.choice([0, 3, 20, 80]), check=False)
            if session.state.status != "won":
                out.append(write_position(session.state))
    return out


def edit_position(rng: random.Random, text: str) -> tuple[str, str | None]:
    """An edited position, and what it must be refused for (None: either way)."""
    fields = text.split(" ")
    roll = rng.random()
    game = fields[0]
    if roll < 0.15 and any(f.startswith("g:") for f in fields):
        draws = rng.choice([0, 51, 10**6, 10**7, 10**7 + 1, 10**20, 2**64])
        seed = rng.choice([0, 1, 2**64 - 1, 2**64, 10**30])
        text = " ".join(f"g:mt.{seed}.{draws}" if f.startswith("g:") else f for f in fields)
        return text, ("generator" if draws > 10**7 or seed >= 2**64 else None)
    if roll < 0.25 and any(f.startswith("p:") for f in fields):
        points = rng.choice([10**9, 2**63, 10**30, 999999999])
        return " ".join(f"p:{points}" if f.startswith("p:") else f for f in fields), "p:"
    if roll < 0.35 and game == "persian-carpet":
        res = next(f for f in fields if f.startswith("res:"))
        piles = res[4:].split("/")
        k = rng.randrange(8)
        heaped = ["".join(piles)] + ["-"] * 7
        heaped.insert(0, heaped.pop(0)) if k == 0 else heaped.insert(k, heaped.pop(0))
        return " ".join("res:" + "/".join(heaped) if f.startswith("res:") else f for f in fields), "reserve"
    if roll < 0.45:  # a field's number made huge, or a field twice
        i = rng.randrange(1, len(fields))
        if rng.random() < 0.5:
            return " ".join(fields + [fields[i]]), None
        import re

        return " ".join(fields[:i] + [re.sub(r"[0-9]+", str(rng.choice([2**64, 10**30, 10**9])), fields[i], 1)]
                        + fields[i + 1:]), None
    chars = list(text)
    for _ in range(rng.choice([1, 2, 3])):
        where = rng.randrange(len(chars))
        chars[where] = rng.choice(list("AKQJT98765432CSHD./:-? 0123456789x") + ["\x00", "♦", "10"])
    return "".join(chars), None


def one_position(text: str) -> str:
    """'refused' or 'read' (and played a few actions, a redeal among them where there is one)."""
    try:
        position = read_position(text)
        state = position.state()
    except CarpetError:
        return "refused"
    for _ in range(3):
        actions = state.legal_actions()
        if not actions:
            break
        state.apply(actions[-1])  # the last: a redeal where there is one
    return "read"


# --- running ---------------------------------------------------------------------------------
_runner = CliRunner()
_COMMANDS = (["verify", "F"], ["show", "F", "--json"], ["moves", "F"], ["export", "F", "-o", "OUT", "--force"],
             ["replay", "F", "--json"])


def through_cli(rng: random.Random, form: str, data: bytes, folder: Path) -> int:
    name = {"json": "f.carpet.json", "text": "f.carpet.txt"}.get(form, "f.carpet")
    path = folder / name
    path.write_bytes(data)
    args = [str(path) if a == "F" else str(folder / "out.carpet.json") if a == "OUT" else a
            for a in rng.choice(_COMMANDS)]
    return _runner.invoke(app, args).exit_code


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cases", type=int, default=2000)
    parser.add_argument("--positions", type=int, default=500)
    parser.add_argument("--cli-every", type=int, default=20)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    import tempfile

    folder = Path(tempfile.mkdtemp(prefix="fuzz_forms."))
    sources = forms()
    originals = [check(data)[0] for _, data in sources]
    counts = {"refused": 0, "read same": 0, "tampering accepted": 0, "internal error": 0, "hang": 0, "cli runs": 0,
              "cli exit 3": 0}
    by_kind: dict[str, int] = {}
    started = time.process_time()
    slowest = 0.0
    for k in range(args.cases):
        i = rng.randrange(len(sources))
        form, data = sources[i]
        kind = rng.choice(sorted(KINDS))
        edited = KINDS[kind](rng, form, data)
        by_kind[f"{form} {kind}"] = by_kind.get(f"{form} {kind}", 0) + 1
        t = time.process_time()
        try:
            log, _ = check(edited)
            if log.sealed and not same(log, originals[i]):
                counts["tampering accepted"] += 1
                print(f"ACCEPTED case {k} ({form} {kind}): {edited[:300]!r}", flush=True)
            else:
                counts["read same"] += 1
        except LogError:
            counts["refused"] += 1
        except Exception as exc:  # noqa: BLE001 - what the campaign looks for
            counts["internal error"] += 1
            print(f"INTERNAL case {k} ({form} {kind}): {type(exc).__name__}: {exc}: {edited[:300]!r}", flush=True)
        spent = time.process_time() - t
        slowest = max(slowest, spent)
        counts["hang"] += spent > HANG
        if args.cli_every and k % args.cli_every == 0:
            counts["cli runs"] += 1
            code = through_cli(rng, form, edited, folder)
            if code not in (0, 1, 2):
                counts["cli exit 3"] += 1
                print(f"CLI exit {code} case {k} ({form} {kind})", flush=True)
    files_cpu = time.process_time() - started
    print(f"{args.cases} edited files ({len(sources)} sources: {len(sources) // 4} games x 4 forms), seed {args.seed}: "
          + ", ".join(f"{v} {k}" for k, v in counts.items()) + f"; slowest {slowest:.2f} s, {files_cpu:.0f} s CPU")
    print("  by form and kind: " + ", ".join(f"{k} {v}" for k, v in sorted(by_kind.items())))
    texts = position_texts(rng)
    pos = {"refused": 0, "read": 0, "internal error": 0, "hang": 0, "unreachable accepted": 0}
    slowest = 0.0
    started = time.process_time()
    for k in range(args.positions):
        text, must = edit_position(rng, rng.choice(texts))
        t = time.process_time()
        try:
            verdict = one_position(text)
            pos[verdict] += 1
            if verdict == "read" and must is not None:
                pos["unreachable accepted"] += 1
                print(f"ACCEPTED position ({must}): {text}", flush=True)
        except Exception as exc:  # noqa: BLE001
            pos["internal error"] += 1
            print(f"INTERNAL position {k}: {type(exc).__name__}: {exc}: {text!r}", flush=True)
        spent = time.process_time() - t
        slowest = max(slowest, spent)
        pos["hang"] += spent > HANG
    print(f"{args.positions} edited positions ({len(texts)} sources, every game): "
          + ", ".join(f"{v} {k}" for k, v in pos.items())
          + f"; slowest {slowest:.2f} s, {time.process_time() - started:.0f} s CPU")
    bad = counts["tampering accepted"] + counts["internal error"] + counts["hang"] + counts["cli exit 3"]
    bad += pos["internal error"] + pos["hang"] + pos["unreachable accepted"]
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
