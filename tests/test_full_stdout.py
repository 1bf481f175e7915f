"""A full stdout (``> /dev/full``) after a recorded action: one line saying what was recorded, exit 2,
never an internal error (issue 21); the action stays recorded."""

import os
import subprocess

import pytest

from carpet.formats import read_log

from clitools import CARPET

pytestmark = pytest.mark.skipif(not os.path.exists("/dev/full"), reason="needs /dev/full (Linux)")


def _full(*args, cwd):
    with open("/dev/full", "w") as full:
        return subprocess.run([*CARPET, *map(str, args)], stdout=full, stderr=subprocess.PIPE, text=True,
                              cwd=cwd, timeout=60)


def test_a_hint_recorded_then_a_full_stdout(tmp_path):
    assert subprocess.run([*CARPET, "new", "kovrik", "5", "-o", tmp_path / "g.carpet"],
                          capture_output=True).returncode == 0
    r = _full("play", "g.carpet", "hint", cwd=tmp_path)
    assert r.returncode == 2, r.stderr
    assert r.stderr.strip() == ("carpet: cannot write to stdout (No space left on device); "
                                "g.carpet: the action was recorded")
    assert len(read_log(tmp_path / "g.carpet").events) == 1


@pytest.mark.parametrize("args", [("games",), ("rules", "kovrik"), ("deal", "kovrik", "3"), ("--version",),
                                  ("solve", "kovrik", "3", "--nodes", "100"), ("deal", "kovrik", "3", "--svg", "-")])
def test_commands_that_only_print(tmp_path, args):
    r = _full(*args, cwd=tmp_path)
    assert r.returncode == 2 and "internal error" not in r.stderr and len(r.stderr.splitlines()) == 1, r.stderr
    assert "nothing was recorded" in r.stderr
