"""benchmarks/descent_trace.py: where the solver found a win (run as a script, as its users do)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

SCRIPT = Path(__file__).resolve().parent.parent / "benchmarks" / "descent_trace.py"


def trace(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, str(SCRIPT), *args], capture_output=True, text=True, timeout=600)


def test_a_win_found_by_the_descent_is_traced_to_it():
    done = trace("spaces-and-aces", "5002")
    assert done.returncode == 0, done.stderr
    first, *orders = done.stdout.splitlines()
    number, result, nodes, rest = first.split(" ", 3)
    assert (number, result, rest) == ("5002", "won", "(win in: a descent)")
    # order 0's descent won, after the glance and the brief search (1/16 of the order's 200,000)
    assert len(orders) == 1 and orders[0].startswith("  order 0, measure 0: descent nodes 12500-" + nodes + " ")
    assert orders[0].endswith("ended won, prefixes [13, 13, 13, 13]")


def test_a_win_found_by_the_beam_is_traced_to_it():
    done = trace("crazy-quilt", "448")
    assert done.returncode == 0, done.stderr
    first, *steps = done.stdout.splitlines()
    assert first == "448 won 95365 (win in: the beam)"
    # order 0's descent got stuck; the beam after it, with a quarter of what was left, won
    assert len(steps) == 2 and steps[0].startswith("  order 0, measure 0: descent ") and steps[0].endswith("ended stuck")
    assert steps[1] == ("  the beam, width 100, 200 nodes a position, forecast first: nodes 0-45365 (share to 87500),"
                        " ended won")


def test_bad_input_is_one_line_and_a_non_zero_exit():
    for args in (("no-such-game", "1"), ("spaces-and-aces", "x")):
        done = trace(*args)
        assert done.returncode != 0 and done.stdout == ""
        assert len(done.stderr.splitlines()) == 1 and done.stderr.startswith("descent_trace.py: "), done.stderr
