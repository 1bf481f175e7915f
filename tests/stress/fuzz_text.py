"""Fuzz the text form (issue 21): generated ``*.carpet.txt`` files through ``carpet import``, ``carpet verify``
and the pytest plugin; only exits 0, 1 and 2, one-line errors, never an internal error or a traceback.

The files are made by hypothesis from the text of real games (every family, both versions), edited as a
person or a broken tool would: a tag's value replaced by junk (huge, negative, control characters, emoji,
quotes and backslashes), a tag removed, doubled or unknown, the Digest removed (a game "written by hand"),
comments (braces over lines, ``;`` and ``%``) put anywhere, clock readings removed, changed or made huge,
action numbers changed or huge, tokens dropped, doubled or swapped, bytes flipped, the file cut short.

Each file goes through ``import`` (to a binary file, which must then verify if it was written) and
``verify`` in-process, and through :func:`carpet.cli.explain.check` (what the plugin runs for a game);
every ``--plugin-every`` files a folder of them is run by pytest itself with the plugin, whose run must
end with exit 0 or 1 (never "no tests ran", an internal error or a collection error), one item a file.

    python tests/stress/fuzz_text.py --examples 10000           # the long run
    python tests/stress/fuzz_text.py --examples 300 --derandomize  # what CI runs (tests/test_fuzz_text.py)
"""

from __future__ import annotations

import argparse
import os
import random
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from hypothesis import HealthCheck, given, settings, strategies as st
from typer.testing import CliRunner

from carpet.cli.app import app
from carpet.cli.explain import check as explain
from carpet.cli.outcome import LONGEST_LINE
from carpet.core import Session, get_game, parse_deal
from carpet.formats import check, new_header, record, to_bytes

CREATED = "2026-11-29T12:00:00.000Z"
_runner = CliRunner()


def _game(game: str, deal: str, steps: int, version: int) -> bytes:
    session = Session(get_game(game), parse_deal(deal))
    rng = random.Random(f"{game}{deal}")
    clock = 0
    for _ in range(steps):
        actions = session.legal_actions()
        if not actions or session.status != "playing":
            break
        clock += rng.randrange(0, 3000)
        session.act(rng.choice(actions), clock)
    return to_bytes(record(session, new_header(session, created=CREATED, tool="fuzz", version=version)),
                    form="text")


#: real games in the text form, one of each family in both versions
TEXTS = [_game(g, d, n, v) for g, d, n in (("kovrik", "1", 40), ("montana", "7", 40), ("carpet", "3", 30),
                                            ("carpet-foster", "4", 30), ("crazy-quilt", "5", 25),
                                            ("persian-carpet", "2", 20), ("kovrik-shuffle-2", "9", 30))
         for v in (1, 2)]

JUNK = st.one_of(
    st.sampled_from(["-1", "-0", "0", "1", "2", "9" * 20, "9" * 4301, "-" + "9" * 30, "1e9", "nan", "inf", "",
                     " 1", "1 ", "0x10", "1_000", "99999999999999999999.000", "-0.961", "1.5", "\\", '\\"',
                     "\\x1b[2K", "\U0001F600", "playing", "won", "lost", "banana", "ms1", "ms0", "msx",
                     "carpet-log", "pysol", "1970-01-01T00:00:00.000Z", "ffffffff", "FFFFFFFF", "-"]),
    st.text(max_size=30),
    st.integers(-(2**70), 2**70).map(str),
)
COMMENT = st.one_of(st.sampled_from(["{}", "{a comment}", "{over\nlines}", "; to the end\n", "\n% escape\n",
                                     "{1.000}", "{-1.000}", "{1.5}", "{99999999999999999999.000}", "{", "}",
                                     "{{nested}}", "[Tag \"x\"]"]),
                    st.text(max_size=20).map(lambda t: "{" + t.replace("}", ")") + "}"))


def _tag_lines(text: str) -> list[int]:
    return [i for i, line in enumerate(text.split("\n")) if line.startswith("[")]


@st.composite
def fuzzed_text(draw) -> bytes:
    text = draw(st.sampled_from(TEXTS)).decode()
    for _ in range(draw(st.integers(1, 4))):
        lines = text.split("\n")
        tags = _tag_lines(text)
        kind = draw(st.sampled_from(["value", "drop_tag", "double_tag", "unknown_tag", "hand", "comment",
                                     "clock", "number", "token", "bytes", "cut"]))
        if kind == "value" and tags:
            i = draw(st.sampled_from(tags))
            name = lines[i][1:].split(" ", 1)[0]
            value = draw(JUNK).replace("\\", "\\\\").replace('"', '\\"')
            lines[i] = f'[{name} "{value}"]'
        elif kind == "drop_tag" and tags:
            del lines[draw(st.sampled_from(tags))]
        elif kind == "double_tag" and tags:
            i = draw(st.sampled_from(tags))
            lines.insert(i, lines[i])
        elif kind == "unknown_tag":
            lines.insert(draw(st.integers(0, len(tags))), f'[{draw(st.sampled_from(["Player", "Event", "X1"]))} '
                                                         f'"{draw(JUNK)}"]')
        elif kind == "hand":  # what a person writes: no digest, maybe no clocks, few tags
            keep = draw(st.sampled_from([("Game", "Deal"), ("Game", "Deal", "Result"), ("Deal", "Game", "Moves"),
                                         ("Game", "Deal", "Digest")]))
            lines = [line for i, line in enumerate(lines) if i not in tags or lines[i][1:].split(" ", 1)[0] in keep]
            if draw(st.booleans()):
                import re
                lines = [re.sub(r" \{[0-9.]+\}", "", line) for line in lines]
        elif kind == "comment":
            i = draw(st.integers(0, max(0, len(lines) - 1)))
            line = lines[i]
            at = draw(st.integers(0, len(line)))
            lines[i] = line[:at] + draw(COMMENT) + line[at:]
        elif kind in ("clock", "number", "token"):
            body = [i for i in range(len(lines)) if lines[i] and not lines[i].startswith("[")]
            if body:
                i = draw(st.sampled_from(body))
                words = lines[i].split(" ")
                j = draw(st.integers(0, len(words) - 1))
                if kind == "clock":
                    words[j] = "{" + draw(JUNK) + "}"
                elif kind == "number":
                    words[j] = draw(JUNK) + "."
                else:
                    how = draw(st.sampled_from(["drop", "double", "swap", "junk"]))
                    if how == "drop":
                        del words[j]
                    elif how == "double":
                        words.insert(j, words[j])
                    elif how == "swap" and j + 1 < len(words):
                        words[j], words[j + 1] = words[j + 1], words[j]
                    else:
                        words[j] = draw(JUNK)
                lines[i] = " ".join(words)
        text = "\n".join(lines)
        if kind == "bytes":
            data = bytearray(text.encode("utf-8", "surrogatepass"))
            for _ in range(draw(st.integers(1, 3))):
                if data:
                    data[draw(st.integers(0, len(data) - 1))] = draw(st.integers(0, 255))
            text = data.decode("utf-8", "surrogateescape")
        elif kind == "cut":
            text = text[:draw(st.integers(0, len(text)))]
    return text.encode("utf-8", "surrogateescape")


def _check(args: list[str], result, files: int = 1) -> int:
    shown = repr(args)[:200]
    out, err = result.stdout, result.stderr
    assert result.exception is None or isinstance(result.exception, SystemExit), f"{shown}: {result.exception!r}"
    assert result.exit_code in (0, 1, 2), f"{shown}: exit {result.exit_code}: {err[:500]}"
    assert "Traceback" not in out + err and "internal error" not in err, f"{shown}: {err[-1500:]}"
    lines = err.splitlines()
    assert len(lines) <= files, f"{shown}: {len(lines)} lines: {err[:800]}"
    assert all(len(line) <= LONGEST_LINE + 20 for line in lines), f"{shown}: a long line"
    return result.exit_code


class Stats:
    def __init__(self) -> None:
        self.codes = {0: 0, 1: 0, 2: 0}
        self.imported = 0
        self.plugin_runs = 0
        self.plugin_items = 0


def one(data: bytes, root: Path, stats: Stats) -> None:
    game = root / "g.carpet.txt"
    game.write_bytes(data)
    out = root / "g.carpet"
    if out.exists():
        out.unlink()
    code = _check(["verify", str(game)], _runner.invoke(app, ["verify", str(game)]))
    stats.codes[code] += 1
    imported = _check(["import", str(game)], _runner.invoke(app, ["import", str(game), "-o", str(out)]))
    if imported == 0:
        check(out.read_bytes())  # what import wrote verifies
        stats.imported += 1
    assert (imported == 0) == (code == 0), f"verify said {code}, import {imported}"
    report = explain(game, "g.carpet.txt")  # what the pytest plugin runs for a game
    assert (report is None) == (code == 0), f"verify said {code}, the plugin's check {report!r:.300}"


def plugin_run(folder: Path, expected: int, stats: Stats) -> None:
    """pytest itself, with the plugin, over a folder of the generated files."""
    r = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "--carpet-games", str(folder),
                        str(folder)], capture_output=True, text=True, timeout=900, cwd=folder)
    tail = r.stdout[-3000:] + r.stderr[-2000:]
    assert r.returncode in (0, 1), f"pytest exit {r.returncode}: {tail}"
    assert "INTERNALERROR" not in r.stdout and "Traceback" not in r.stdout + r.stderr, tail
    import re
    counted = sum(int(n) for n in re.findall(r"(\d+) (?:passed|failed)", r.stdout.splitlines()[-1]))
    assert counted == expected, f"{counted} items for {expected} files: {tail}"
    stats.plugin_runs += 1
    stats.plugin_items += counted


def fuzz(examples: int, *, seed: int | None = None, plugin_every: int = 0, root: Path | None = None) -> Stats:
    stats = Stats()
    own = root is None
    root = Path(tempfile.mkdtemp(prefix="carpet-fuzz-text-")) if own else root
    folder = root / "games"
    folder.mkdir(exist_ok=True)
    kept = [0]
    try:
        @settings(max_examples=examples, deadline=None, database=None, derandomize=seed is None,
                  suppress_health_check=list(HealthCheck))
        @given(fuzzed_text())
        def run(data):
            one(data, root, stats)
            if plugin_every:
                kept[0] += 1
                (folder / f"f{kept[0]:06d}.carpet.txt").write_bytes(data)
                if kept[0] % plugin_every == 0:
                    plugin_run(folder, plugin_every, stats)
                    shutil.rmtree(folder)
                    folder.mkdir()
        if seed is not None:
            from hypothesis import seed as hypothesis_seed
            run = hypothesis_seed(seed)(run)
        run()
    finally:
        if own:
            shutil.rmtree(root, ignore_errors=True)
    return stats


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--examples", type=int, default=5000)
    parser.add_argument("--seed", type=int, default=None)
    parser.add_argument("--derandomize", action="store_true")
    parser.add_argument("--plugin-every", type=int, default=500, help="files per pytest run of the plugin (0: none)")
    opts = parser.parse_args()
    seed = None if opts.derandomize else (opts.seed if opts.seed is not None else int.from_bytes(os.urandom(4), "big"))
    started = time.perf_counter()
    cpu = time.process_time()
    stats = fuzz(opts.examples, seed=seed, plugin_every=opts.plugin_every)
    print(f"text form: {opts.examples} files, exits {stats.codes}, {stats.imported} imported, "
          f"{stats.plugin_runs} pytest runs of the plugin over {stats.plugin_items} files, no failure, "
          f"{time.perf_counter() - started:.1f} s wall, {time.process_time() - cpu:.1f} s CPU (seed {seed})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
