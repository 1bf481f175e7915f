"""Bounds stated and enforced (issue 21): the solver's memory (--memory; "unknown" on reaching it, never a
killed process), --jobs capped at a multiple of the cores, and no number option taking nan, inf or an
absurd value."""

import json

import pytest

from carpet.core import GAMES, Session, parse_deal
from carpet.core.solver import BYTES_PER_ENTRY, solve

from clitools import run


def test_the_solver_stops_at_its_memory_bound_with_unknown():
    session = Session(GAMES["spaces-and-aces"], parse_deal("13"))  # (unknown at the default budget)
    out = solve(session, nodes=10_000_000, memory=1 << 20)
    assert out.result == "unknown" and out.memory_full and out.nodes < 400_000
    entries = (1 << 20) // BYTES_PER_ENTRY
    assert entries < out.nodes  # it remembered no more positions than the bound allows, and stopped there
    # the default bound leaves a default search alone
    assert not solve(session, nodes=20_000).memory_full


def test_solve_memory_on_the_command_line():
    r = run("solve", "spaces-and-aces", "13", "--nodes", "10000000", "--memory", "1", "--json")
    assert r.exit_code == 0, r.output
    doc = json.loads(r.stdout)
    assert doc["result"] == "unknown" and doc["memory_full"] is True and doc["nodes"] < 10_000_000
    r = run("solve", "spaces-and-aces", "13", "--nodes", "10000000", "--memory", "1")
    assert r.exit_code == 0 and r.stdout.startswith("unknown:") and "memory bound (1 MB, --memory)" in r.stderr


def test_best_mode_with_a_big_budget_is_no_internal_error():
    # its redeal points were cut and sorted again: a repeated order made sort compare snapshots (None)
    out = solve(Session(GAMES["kovrik"], parse_deal("4563")), nodes=10_000_000, memory=4 << 20, best=True)
    assert out.result in ("won", "unknown")


@pytest.mark.parametrize("args", [
    ("solve", "kovrik", "3", "--time", "nan"), ("solve", "kovrik", "3", "--time", "inf"),
    ("solve", "kovrik", "3", "--time", "-1"), ("solve", "kovrik", "3", "--nodes", "9" * 30),
    ("solve", "kovrik", "3", "--memory", "0"), ("solve", "kovrik", "3", "--memory", "99999999"),
    ("replay", "fixtures/kovrik-won.carpet", "--delay", "nan"),
    ("survey", "carpet", "--deals", "1-3", "--dask", "tcp://x:1", "--dask-timeout", "nan"),
    ("survey", "carpet", "--deals", "1-3", "--dask", "tcp://x:1", "--dask-timeout", "inf"),
    ("survey", "carpet", "--deals", "1-3", "--chunk", "9" * 20), ("survey", "carpet", "--deals", "1-3", "--nodes",
                                                                  "9" * 20),
    ("autoplay", "carpet", "3", "--limit", "9" * 20), ("bench", "--rounds", "9" * 20),
])
def test_number_options_refuse_nan_inf_and_absurd_values(args):
    r = run(*args)
    assert r.exit_code == 2 and r.stderr.count("\n") == 1 and "Invalid value" in r.stderr, r.output


def test_jobs_are_capped_at_a_multiple_of_the_cores_and_it_is_said():
    r = run("survey", "carpet", "--deals", "1-5", "--jobs", "100000", "--json")
    assert r.exit_code == 0, r.output
    assert "--jobs 100,000 capped at" in r.stderr and " a core" in r.stderr
    assert json.loads(r.stdout)["deals"] == 5


def test_redeal_points_count_against_the_memory_bound(monkeypatch):
    # a pass's redeal points are remembered positions too: never more of both than the bound allows
    from carpet.core import solver

    held = []
    point = solver._Searcher._point

    def noted(self, points, frame, action):
        point(self, points, frame, action)
        held.append(len(points) + len(self.seen))

    monkeypatch.setattr(solver._Searcher, "_point", noted)
    memory = 1 << 20
    out = solve(Session(GAMES["kovrik"], parse_deal("4563")), nodes=10_000_000, memory=memory)
    assert out.result == "unknown" and out.memory_full
    assert held and max(held) <= memory // BYTES_PER_ENTRY
