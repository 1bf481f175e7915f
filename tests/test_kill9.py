"""Kill -9 during writes, bounded for CI: three writers on one log killed at random moments, a dozen times
over; the log always verifies, holds every acknowledged action, keeps its mode, and the next write leaves no
temporary file (see stress/kill9.py, which also runs the long version)."""

from stress.kill9 import run


def test_writers_killed_at_random_lose_nothing_acknowledged_and_leave_nothing_behind(tmp_path):
    figures = run(36, workers=3, seed=8, fresh=6, directory=tmp_path)
    assert figures.failures == []
    assert figures.kills == 36 and figures.logs == 2  # a binary log and a JSON one
    assert figures.acknowledged_actions > 0  # the workers got writes in before the kills
