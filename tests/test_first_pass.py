"""benchmarks/first_pass.py: where a quilt stock game's first pass spends its nodes (run as a
script, as its users do, and its search called directly)."""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from pathlib import Path

from carpet.core import Session, get_game, parse_deal
from carpet.core.solver import solve, working_copy

SCRIPT = Path(__file__).resolve().parent.parent / "benchmarks" / "first_pass.py"


def run(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, str(SCRIPT), *args], capture_output=True, text=True, timeout=600)


def first_pass_module():
    spec = importlib.util.spec_from_file_location("first_pass", SCRIPT)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_a_lost_deals_first_pass_is_searched_to_its_end_and_counted_whole():
    # crazy-quilt 550 is proved lost by the solver: its first pass alone is searched to its end,
    # no redeal point alive once redealt, and the counts add up (every node leads to a new, a
    # seen or a dead position; a dead one is dead by some proof)
    found = first_pass_module().first_pass(working_copy(Session(get_game("crazy-quilt"), parse_deal("550"))),
                                           400_000)
    assert solve(Session(get_game("crazy-quilt"), parse_deal("550")), nodes=400_000).result == "unwinnable"
    assert found["exhausted"] and not found["won"]
    rows = found["rows"]
    for left, nodes in rows["nodes"].items():
        assert nodes == rows["new"][left] + rows["seen"][left] + rows["dead"][left]
    assert sum(rows["dead"].values()) == sum(found["dead_by"].values())
    assert "alive" not in found["dead_by"] and "alive" not in found["redealt"]
    # every position met once: the start, and each new or dead one (but those the rules end)
    assert 1 + sum(rows["new"].values()) + sum(rows["dead"].values()) - found["dead_by"]["lost"] == found["positions"]


def test_the_script_prints_a_row_per_stock_length_and_a_line_for_the_redeal_points():
    done = run("crazy-quilt", "3016", "--nodes", "20000")
    assert done.returncode == 0, done.stderr
    head, *rows = done.stdout.splitlines()
    assert head.startswith("3016: 20") and "positions, not searched to its end (" in head
    stock = [row for row in rows if row.startswith("  stock")]
    assert stock and rows[-2].startswith("  dead by: ") and rows[-1].startswith("  redeal points ")
    lengths = [int(row.split(":")[0].split()[1]) for row in stock]
    assert lengths == sorted(lengths, reverse=True) and lengths[0] == 32  # the whole stock to deal at first


def test_bad_input_is_one_line_and_a_non_zero_exit():
    for args in (("no-such-game", "1"), ("crazy-quilt", "x"), ("persian-carpet", "1")):
        done = run(*args)
        assert done.returncode != 0 and done.stdout == ""
        assert len(done.stderr.splitlines()) == 1 and done.stderr.startswith("first_pass.py: "), done.stderr
