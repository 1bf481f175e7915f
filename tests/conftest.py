import json
from pathlib import Path

import pytest

pytest_plugins = ["pytester"]  # tests/test_pytest_plugin.py runs pytest on folders of games

DATA = Path(__file__).parent / "data"
ROOT = Path(__file__).parent.parent


@pytest.fixture(scope="session")
def vectors():
    return json.loads((DATA / "vectors.json").read_text())


@pytest.fixture(scope="session")
def pysol_orders():
    return json.loads((DATA / "pysol_orders.json").read_text())["orders"]


# --- no test leaves a file in the repository ----------------------------------------------
def _untracked() -> set[str] | None:
    import subprocess

    try:
        listed = subprocess.run(["git", "ls-files", "--others", "--exclude-standard"], cwd=ROOT,
                                capture_output=True, text=True, timeout=60)
    except (OSError, subprocess.SubprocessError):
        return None
    return set(listed.stdout.split("\n")) if listed.returncode == 0 else None


def pytest_sessionstart(session):
    session.config._carpet_untracked = _untracked()


def pytest_sessionfinish(session, exitstatus):
    before = getattr(session.config, "_carpet_untracked", None)
    after = _untracked()
    if before is None or after is None:
        return  # not a git checkout: nothing to compare
    left = sorted(after - before)
    if left:
        print(f"\ntests left {len(left)} new file(s) in the repository: {', '.join(left[:8])}")
        session.exitstatus = pytest.ExitCode.TESTS_FAILED


def positions_reached(session):
    """A working copy of the session's state, its search key, and the keys of every position
    of the current attempt (to check that a hint never brings one back)."""
    from carpet.core.solver import working_copy

    state = working_copy(session)
    key = state.search_key
    reached = {key()}
    for snap in session.attempt_snapshots():
        state.restore(snap)
        reached.add(key())
    return state, key, reached


@pytest.fixture
def game(tmp_path):
    """A new recorded kovrik game (deal 1, created at a frozen time): tests' ``game`` file,
    unless a test parametrizes ``game`` itself."""
    from freezegun import freeze_time

    from clitools import run

    path = tmp_path / "g.log"
    with freeze_time("2026-11-29 10:00:00"):
        assert run("new", "kovrik", "1", "-o", path).exit_code == 0
    return path
