"""The command in a real shell: ``python -m carpet``, completion, and any terminal encoding.

These run the installed command as a fresh process, since what they check (the entry
points, the streams' encoding, the completion protocol's environment) is what a test
runner would otherwise stand in for.
"""

import json
import os
import shutil
import subprocess
import re
import sys

import pytest

from carpet.cli.terminal import fit, json_for, letters

from conftest import ROOT

SUITS = str.maketrans({"♣": "C", "♠": "S", "♥": "H", "♦": "D"})


def carpet(*args, encoding="utf-8", env=None, cwd=None, module="carpet"):
    environment = {**os.environ, "PYTHONIOENCODING": encoding, **(env or {})}
    environment.pop("COLUMNS", None)
    return subprocess.run([sys.executable, "-m", module, *map(str, args)], capture_output=True,
                          env=environment, cwd=cwd, encoding=encoding)


# --- python -m carpet --------------------------------------------------------------------------
def test_python_m_carpet_is_the_command():
    result = carpet("deal", "kovrik", "1")
    assert result.returncode == 0, result.stderr
    assert result.stdout == carpet("deal", "kovrik", "1", module="carpet.cli").stdout
    assert "Usage: carpet " in carpet("--help").stdout


def package_dir_by_lines(pyproject: str) -> dict[str, str]:
    """pyproject's [tool.setuptools.package-dir] table read by its lines, "package" = "folder"."""
    table = pyproject.split("[tool.setuptools.package-dir]", 1)[1].split("\n[", 1)[0]
    return dict(re.findall(r'^"([^"]+)"\s*=\s*"([^"]+)"', table, re.M))


def package_dir(pyproject: str) -> dict[str, str]:
    """The same table by tomllib where there is one (Python 3.11 on), by its lines on Python 3.10."""
    try:
        import tomllib
    except ModuleNotFoundError:
        return package_dir_by_lines(pyproject)
    return tomllib.loads(pyproject)["tool"]["setuptools"]["package-dir"]


def test_pyproject_package_dir_is_read_alike_with_and_without_tomllib():
    text = (ROOT / "pyproject.toml").read_text()
    assert package_dir_by_lines(text) == package_dir(text)
    assert package_dir_by_lines(text)["carpet.core"] == "core"


def test_python_m_carpet_works_from_an_installed_copy(tmp_path):
    """As a wheel lays the packages out (pyproject's package-dir), not through the editable finder."""
    mapping = package_dir((ROOT / "pyproject.toml").read_text())
    for package, folder in mapping.items():
        target = tmp_path.joinpath(*package.split("."))
        target.mkdir(parents=True)
        for source in (ROOT / folder).glob("*.py"):
            shutil.copy(source, target)
    result = carpet("--version", env={"PYTHONPATH": str(tmp_path)}, cwd=tmp_path)
    assert result.returncode == 0 and result.stdout.startswith("carpet "), result.stderr
    where = subprocess.run([sys.executable, "-c", "import carpet.__main__, carpet.cli.app as a; print(a.__file__)"],
                           capture_output=True, text=True, env={**os.environ, "PYTHONPATH": str(tmp_path)},
                           cwd=tmp_path)
    assert where.stdout.startswith(str(tmp_path)), where.stderr


# --- completion --------------------------------------------------------------------------------
# Typer finds the user's shell among the command's parent processes (shellingham), and then
# takes --show-completion and --install-completion as flags; where no shell is found (a test
# run with no shell above it, as under some CI runners) it takes the shell's name as their value.
# Each way is tested on its own: the name with detection turned off (Typer's own switch for it),
# detection under a bash that stays the parent (two commands, so it does not exec the last).
NAMED = {"_TYPER_COMPLETE_TEST_DISABLE_SHELL_DETECTION": "1"}


def under_bash(*args, env=None):
    return subprocess.run(["bash", "-c", '"$@"; exit $?', "bash", sys.executable, "-m", "carpet", *args],
                          capture_output=True, text=True, timeout=20, env={**os.environ, **(env or {})})


def test_completion_options_are_offered():
    help_text = carpet("--help").stdout
    assert "--install-completion" in help_text and "--show-completion" in help_text
    script = carpet("--show-completion", "bash", env=NAMED)
    assert script.returncode == 0 and "_CARPET_COMPLETE=complete_bash" in script.stdout, script.stderr
    detected = under_bash("--show-completion")
    assert detected.returncode == 0 and "_CARPET_COMPLETE=complete_bash" in detected.stdout, detected.stderr


def test_completion_names_commands_and_game_ids():
    def complete(words, cword):
        return carpet(env={"_CARPET_COMPLETE": "complete_bash", "COMP_WORDS": words, "COMP_CWORD": str(cword)})
    assert complete("carpet ve", 1).stdout.split() == ["verify"]
    assert complete("carpet deal kovrik-s", 2).stdout.split() == ["kovrik-shuffle", "kovrik-shuffle-2"]
    assert complete("carpet rules pers", 2).stdout.split() == ["persian-carpet"]
    assert complete("carpet rules x", 2).stdout.split() == []


@pytest.mark.parametrize("detected", [False, True], ids=["named", "detected"])
def test_install_completion_writes_the_script_and_sources_it(tmp_path, detected):
    if detected:
        result = under_bash("--install-completion", env={"HOME": str(tmp_path)})
    else:
        result = carpet("--install-completion", "bash", env={"HOME": str(tmp_path), **NAMED})
    assert result.returncode == 0, result.stderr
    script = tmp_path / ".bash_completions" / "carpet.sh"
    assert "_CARPET_COMPLETE" in script.read_text()
    assert str(script) in (tmp_path / ".bashrc").read_text()


# --- any terminal encoding ---------------------------------------------------------------------
@pytest.mark.parametrize("encoding", ["ascii", "latin-1", "cp1252"])
@pytest.mark.parametrize("args", [["--help"], ["deal", "kovrik", "1"], ["rules", "kovrik"], ["games"],
                                  ["deal", "carpet", "1"], ["deal", "persian-carpet", "3"], ["play", "--help"],
                                  ["rules", "crazy-quilt"]])
def test_every_encoding_prints_and_exits_0(encoding, args):
    result = carpet(*args, encoding=encoding)
    assert result.returncode == 0 and result.stderr == "", result.stderr
    assert result.stdout.strip() and "\\u" not in result.stdout


@pytest.mark.parametrize("encoding", ["ascii", "latin-1"])
@pytest.mark.parametrize("game", ["kovrik", "carpet", "crazy-quilt", "persian-carpet"])
def test_the_board_falls_back_to_letters_in_the_same_columns(encoding, game):
    full = carpet("deal", game, "7").stdout
    narrow = carpet("deal", game, "7", encoding=encoding)
    assert narrow.returncode == 0
    expected = full.translate(SUITS)
    if encoding == "ascii":
        expected = expected.replace("·", ".")
    assert narrow.stdout == expected


def test_rules_prose_and_help_in_ascii():
    rules = carpet("rules", "kovrik", encoding="ascii").stdout
    assert rules.startswith("kovrik - ") and rules.isascii()
    assert "Kovrik" in carpet("--help", encoding="ascii").stdout  # Коврик, transliterated


def test_json_stays_exact_under_any_encoding():
    full = carpet("rules", "carpet", "--json")
    narrow = carpet("rules", "carpet", "--json", encoding="ascii")
    assert narrow.returncode == 0 and narrow.stdout.isascii()
    assert json.loads(narrow.stdout) == json.loads(full.stdout)
    assert "♦" in json.loads(full.stdout)["rules"]


def test_an_error_line_in_ascii(tmp_path):
    log = tmp_path / "g.log"
    assert carpet("new", "kovrik", "1", "-o", log).returncode == 0
    result = carpet("play", log, "7X", encoding="ascii")
    assert result.returncode == 2 and "10D" in result.stderr and len(result.stderr.splitlines()) == 1


def test_letters():
    assert [letters(c) for c in "♣♠♥♦♡—∞·é"] == ["C", "S", "H", "D", "H", "-", "inf", ".", "e"]
    assert "".join(map(letters, "Коврик")) == "Kovrik"
    assert letters("中") == "?"
    assert fit("7♥ — Коврик", "ascii") == "7H - Kovrik"
    assert fit("7♥ ×", "latin-1") == "7H ×"
    assert fit("7♥", None) == "7♥"


def test_json_for_escapes_only_where_needed():
    class Stream:
        def __init__(self, encoding):
            self.encoding = encoding
    assert json_for(Stream("utf-8"), '"7♥"') == '"7♥"'
    assert json_for(Stream("latin-1"), '"7♥ 🂡"') == '"7\\u2665 \\ud83c\\udca1"'
    assert json.loads(json_for(Stream("ascii"), '"7♥ 🂡"')) == "7♥ 🂡"
