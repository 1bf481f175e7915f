"""The text form under fuzzing, bounded for CI (issue 21): generated *.carpet.txt files through import,
verify and the pytest plugin (stress/fuzz_text.py says what is generated; it runs the long version), only
exits 0, 1 and 2 and one-line errors.  Derandomised: the same files on every run."""

from stress import fuzz_text


def test_fuzzed_text_files_get_exit_0_1_or_2_and_one_line(tmp_path):
    stats = fuzz_text.fuzz(300, plugin_every=150, root=tmp_path)
    assert sum(stats.codes.values()) == 300 and stats.plugin_runs == 2 and stats.plugin_items == 300
    assert stats.codes[0] and stats.codes[1] and stats.codes[2]  # the generated files reach every outcome
