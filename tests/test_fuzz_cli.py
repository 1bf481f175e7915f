"""The command line under fuzzing, bounded for CI: 3,000 generated argument vectors, log files and stdin
batches, each answered with exit 0, 1 or 2 and one-line errors, nothing bricked (stress/fuzz_cli.py says what
is generated and checked, and runs the long version).  Derandomised: the same cases on every run.  The
argument vectors run here, the files and stdin batches in a second process alongside (CI has two cores)."""

import subprocess
import sys

from stress import fuzz_cli


def test_fuzzed_input_gets_one_line_and_exit_0_1_or_2(tmp_path):
    other = subprocess.Popen([sys.executable, fuzz_cli.__file__, "--derandomize", "--examples", "750",
                              "--kind", "files", "--kind", "stdin", "--real", "0"],
                             stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        assert fuzz_cli.fuzz("args", 1500, real_every=150, root=tmp_path) == 1500
    finally:
        out = other.communicate(timeout=600)[0]
    assert other.returncode == 0, out
    assert "files: 750 cases, no failure" in out and "stdin: 750 cases, no failure" in out
