"""``carpet bench``: its verify comparison, against the copy of 778fb62's path kept in
benchmarks/old778.py and against another install of carpet (``--old-python``); the harness found
in a checkout's benchmarks/ folder, never shipped in the package.  Timings are not asserted (the machine
is shared): only that the figures are there and the two sides read the same games."""

import sys

from clitools import doc, run

SMALL = ("bench", "--games", "2", "--random-events", "200", "--rounds", "1", "--startup-runs", "0")


def test_verify_against_the_kept_copy_of_the_old_path():
    rows = doc(run(*SMALL, "--game", "carpet,kovrik", "--json"))["verify"]
    assert [row["game"] for row in rows] == ["kovrik", "carpet"]  # in the order of `carpet games`
    for row in rows:
        for kind in ("player", "random"):
            figures = row[kind]
            assert figures["ratio"] > 0 and figures["new_events_per_second"] > 0
            assert figures["bytes_per_event"] < figures["bytes_per_event_v1"]


def test_verify_against_another_install_runs_each_side_in_its_own_process():
    # this same install plays the old side: the probe reads its version-1 files as 778fb62 would
    result = run(*SMALL, "--game", "carpet-auto", "--old-python", sys.executable, "--json")
    assert result.exit_code == 0, result.output
    row = doc(result)["verify"][0]
    assert not row["player"].get("old_refused")
    assert row["player"]["old_events_per_second"] > 0 and row["player"]["events"] > 0


def test_an_old_python_that_cannot_verify_is_one_line_and_exit_2(tmp_path):
    result = run(*SMALL, "--game", "carpet", "--old-python", tmp_path / "no-such-python")
    assert result.exit_code == 2
    assert "--old-python" in result.stderr and "Traceback" not in result.output


def test_a_game_the_old_install_refuses_is_reported_with_its_reason(tmp_path):
    # an "old python" that refuses every log, as 778fb62 refuses a Montana game's
    old = tmp_path / "old-python"
    old.write_text("#!/bin/sh\necho 'refused LogError unknown game montana in log'\n")
    old.chmod(0o755)
    result = run(*SMALL, "--game", "montana", "--old-python", old, "--json")
    assert result.exit_code == 0, result.output
    row = doc(result)["verify"][0]
    assert row["player"]["old_refused"] == "LogError unknown game montana in log"
    text = run(*SMALL, "--game", "montana", "--old-python", old).stdout
    assert "that version refuses these logs: LogError unknown game montana" in text


def test_an_unknown_game_is_one_line_and_exit_2():
    for games in ("nope", ",", "carpet,nope"):
        result = run(*SMALL, "--game", games)
        assert result.exit_code == 2 and "not a game id" in result.stderr, games


def test_start_up_is_paired_with_import_typer_in_wall_and_cpu_time():
    result = run("bench", "--games", "1", "--random-events", "100", "--rounds", "1", "--startup-runs", "3",
                 "--redeals", "200", "--game", "carpet", "--json")
    assert result.exit_code == 0, result.output
    start = doc(result)["startup"]
    for command in ("show_json", "version"):
        figures = start[command]
        assert figures["ms"] > 0
        # (a command does at least what `import typer` does: well above half its time, by either clock)
        assert figures["ratio_to_import_typer"] > 0.5 and figures["cpu_ratio_to_import_typer"] > 0.5, figures
    text = run("bench", "--games", "1", "--random-events", "100", "--rounds", "1", "--startup-runs", "1",
               "--redeals", "200", "--game", "carpet").stdout
    assert "wall time; CPU time in brackets" in text


def test_the_harness_is_not_in_the_installed_package():
    """benchmarks/ (the harness and the frozen old copy) is not a package setuptools installs, and
    nothing under cli/, core/ or formats/ holds the copy."""
    import tomllib
    from pathlib import Path

    root = Path(__file__).parent.parent
    packages = tomllib.loads((root / "pyproject.toml").read_text())["tool"]["setuptools"]["packages"]
    assert not any("bench" in name for name in packages)
    assert (root / "benchmarks" / "old778.py").is_file()
    for folder in ("cli", "core", "formats"):
        for path in (root / folder).rglob("*.py"):
            assert "class OldSession" not in path.read_text() and "_OldSession" not in path.read_text(), path


def test_bench_outside_a_checkout_is_one_line_and_exit_2(tmp_path, monkeypatch):
    from carpet.cli import bench

    monkeypatch.setattr(bench, "__file__", str(tmp_path / "site-packages" / "carpet" / "cli" / "bench.py"))
    monkeypatch.chdir(tmp_path)
    result = run(*SMALL, "--game", "carpet")
    assert result.exit_code == 2 and "Traceback" not in result.output
    assert "benchmarks/" in result.stderr and len(result.stderr.strip().splitlines()) == 1


def test_the_harness_runs_as_a_script_with_the_commands_options(tmp_path):
    import subprocess
    from pathlib import Path

    script = Path(__file__).parent.parent / "benchmarks" / "bench.py"
    done = subprocess.run([sys.executable, str(script), *SMALL[1:], "--game", "carpet", "--json"], cwd=tmp_path,
                          capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert [row["game"] for row in __import__("json").loads(done.stdout)["verify"]] == ["carpet"]
