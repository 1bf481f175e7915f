"""Start-up without the cyclic garbage collector (cli/start.py): the process entry point turns it off while
Typer and the command load, and every command's body runs with it on again, start-up's objects frozen.
A program that runs the app itself (here, Typer's test runner) keeps its collector as it had it."""

import gc
import os
import subprocess
import sys
from pathlib import Path

from clitools import run

FILE = Path(__file__).resolve().parent.parent / "fixtures" / "kovrik-hard-won.carpet"

#: the command's body reports the collector's state on stderr; the command runs through the entry point
PROBE = """
import functools, gc, sys
import carpet.cli.show as show_module
command = show_module.show
print("loading:", gc.isenabled(), file=sys.stderr)
@functools.wraps(command)
def show(*args, **kwargs):
    print("body:", gc.isenabled(), gc.get_freeze_count(), file=sys.stderr)
    return command(*args, **kwargs)
show_module.show = show
sys.argv = ["carpet", *sys.argv[1:]]
from carpet.cli.start import main
main()
"""


def test_the_entry_point_turns_the_collector_on_for_the_command_body():
    result = subprocess.run([sys.executable, "-c", PROBE, "show", str(FILE), "--json"], capture_output=True,
                            text=True, timeout=120, env={**os.environ, "PYTHONWARNINGS": "ignore"})
    assert result.returncode == 0, result.stderr
    lines = dict(line.split(": ", 1) for line in result.stderr.splitlines())
    assert lines["loading"] == "True"  # (the probe's own imports, before the entry point)
    enabled, frozen = lines["body"].split()
    assert enabled == "True"
    assert int(frozen) > 10_000  # Typer's, click's and the command's objects, never walked again
    assert '"game":"kovrik-hard"' in result.stdout


def test_start_up_itself_runs_without_the_collector():
    code = ("import gc, sys; import carpet.cli.app as app\n"
            "seen = []\n"
            "real = app.CarpetGroup.get_command\n"
            "app.CarpetGroup.get_command = lambda *a: seen.append(gc.isenabled()) or real(*a)\n"
            "sys.argv = ['carpet', 'games', '--json']\n"
            "from carpet.cli.start import main\n"
            "try:\n    main()\nfinally:\n    print(seen, file=sys.stderr)\n")
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert result.returncode == 0 and result.stderr.strip().startswith("[False"), result.stderr


def test_running_the_app_in_a_program_leaves_its_collector_alone():
    frozen = gc.get_freeze_count()
    assert gc.isenabled()
    result = run("show", FILE, "--json")
    assert result.exit_code == 0, result.output
    assert gc.isenabled() and gc.get_freeze_count() == frozen
