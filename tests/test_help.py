"""Each command's --help as people who use terminal tools expect it: an example, one label style
(FILE, GAME, N, as click writes them), the defaults, the exit codes of verify; the version is
the installed one; a developer's tool is not in the user's list."""

import re
import subprocess
import sys
from importlib.metadata import version

import pytest

from carpet.cli.app import COMMANDS, EXAMPLES, HIDDEN

from clitools import run

LISTED = [name for name in COMMANDS if name not in HIDDEN]
#: labels of another style than FILE, GAME, N: {file}, <path>, <int range>
OTHER_LABELS = re.compile(r"\{[a-z_]+\}|<[a-z][a-z ]*>")


def listed_commands() -> list[str]:
    """The commands ``carpet --help`` lists, read from its panel of commands."""
    shown = run("--help").stdout
    return [m.group(1) for m in re.finditer(r"^│ (\w+)\s", shown, re.M)]


def test_the_list_holds_the_users_commands_and_not_bench():
    shown = listed_commands()
    assert shown == LISTED and "bench" not in shown
    assert run("bench", "--help").exit_code == 0  # still there for who knows it


@pytest.mark.parametrize("name", LISTED)
def test_every_listed_command_has_an_example_and_one_label_style(name):
    result = run(name, "--help")
    assert result.exit_code == 0
    text = result.stdout
    assert re.search(r"\bExamples?: carpet " + name + r"\b", text), text
    assert not OTHER_LABELS.search(text), OTHER_LABELS.search(text).group()
    usage = text[text.index("Usage:"):].splitlines()[0]
    assert "{" not in usage and "<" not in usage


def test_every_example_runs_a_listed_command():
    for name, examples in EXAMPLES.items():
        assert all(example.startswith(f"carpet {name}") for example in examples), name


def test_verify_lists_its_exit_codes_and_solve_its_default_budget():
    text = " ".join(run("verify", "--help").stdout.split())
    assert "Exit codes: 0" in text and "1 a file fails verification" in text and "2 a file that cannot" in text
    assert "default: (400,000" in " ".join(run("solve", "--help").stdout.split())


def test_import_says_it_is_another_name_for_export():
    assert "Another name for export" in " ".join(run("import", "--help").stdout.split())
    assert re.search(r"│ import +Another name for export", run("--help").stdout)  # in the list too


def test_the_version_is_the_installed_one():
    result = subprocess.run([sys.executable, "-m", "carpet", "--version"], capture_output=True, text=True)
    assert result.returncode == 0
    assert result.stdout == f"carpet {version('carpet')}\n"
    from carpet.core import __version__

    assert __version__ == version("carpet")  # pyproject.toml reads it from there: written once


def test_the_examples_run_in_order_in_an_empty_folder(tmp_path, monkeypatch):
    """Each example as a person would type it, in the order of ``carpet --help``: all succeed but the
    screen's (it needs a terminal: tests/test_screen_tmux.py), the server's (it runs until stopped:
    tests/test_serve.py) and the developer's bench."""
    import glob
    import shlex

    monkeypatch.chdir(tmp_path)
    (tmp_path / "games").mkdir()
    ran = skipped = 0
    for name in COMMANDS:
        for example in EXAMPLES.get(name, []):
            if name in ("bench", "serve") or "(the screen" in example:
                skipped += 1
                continue
            words = shlex.split(example.split("   (")[0].replace("~/games", "games"))[1:]
            args = [a for w in words for a in (sorted(glob.glob(w)) if "*" in w else [w])]
            result = run(*args)
            assert result.exit_code == 0, (example, result.stderr)
            ran += 1
    assert ran == sum(len(v) for v in EXAMPLES.values()) - skipped and skipped == 4
