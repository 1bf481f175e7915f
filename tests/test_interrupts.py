"""Ctrl-C is one true line and exit 130 (issue 21): from the first instant of a run (the imports of
start-up included), and on a survey, whose line says how many deals were done and where they are."""

import os
import signal
import subprocess
import sys
import time

import pytest

#: as from a terminal: a run started in the background inherits SIGINT ignored (tests/test_cli_robust.py)
TERMINAL = "import signal\nsignal.signal(signal.SIGINT, signal.default_int_handler)\n"


@pytest.mark.parametrize("module", ["typer", "carpet.cli.app", "carpet.cli.info", "carpet.core.games"])
def test_ctrl_c_while_carpet_starts_is_one_line_and_130(module):
    # the interrupt arrives just as the module is imported: a real SIGINT, at a chosen instant
    code = TERMINAL + f"""import importlib.abc, os, sys
class Hook(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path, target=None):
        if name == {module!r}:
            os.kill(os.getpid(), signal.SIGINT)
        return None
sys.meta_path.insert(0, Hook())
sys.argv = ["carpet", "games"]
from carpet.cli.start import main
main()
"""
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert r.returncode == 130, r.stderr
    assert r.stderr.splitlines() == ["carpet: interrupted; nothing was recorded: no file was changed"]


def test_every_way_to_start_carpet_goes_through_the_light_entry_point():
    from importlib.metadata import entry_points

    (script,) = [e for e in entry_points(group="console_scripts") if e.name == "carpet"]
    assert script.value == "carpet.cli.start:main"
    import carpet.cli.start  # noqa: F401  (importing it loads nothing heavy)
    code = "import sys, carpet.cli.start; print('typer' in sys.modules, 'rich' in sys.modules)"
    assert subprocess.run([sys.executable, "-c", code], capture_output=True, text=True).stdout.split() == \
        ["False", "False"]


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_ctrl_c_on_a_survey_is_one_true_line(tmp_path, jobs):
    out = tmp_path / "r.jsonl"
    code = TERMINAL + (f"import sys\nsys.argv = ['carpet', 'survey', 'kovrik', '--deals', '1-100000', '--jobs', "
                       f"{jobs!r}, '--chunk', '20', '--out', {str(out)!r}]\n"
                       "from carpet.cli.start import main\nmain()\n")
    p = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                         start_new_session=True)
    deadline = time.monotonic() + 120
    while (not out.exists() or out.stat().st_size < 2000) and time.monotonic() < deadline:
        time.sleep(0.05)
    os.killpg(p.pid, signal.SIGINT)  # to the whole group, workers too, as a terminal does
    _, err = p.communicate(timeout=60)
    assert p.returncode == 130, err
    lines = err.splitlines()
    assert len(lines) == 1 and "Traceback" not in err, err
    kept = len(out.read_text().splitlines())
    assert lines[0] == (f"carpet: interrupted; the survey stopped after {kept:,} of 100,000 deals; their results "
                        f"are in {out}: add --resume to go on")
