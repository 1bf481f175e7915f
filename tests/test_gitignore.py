"""A recorded game can be committed in a Python project: GitHub's Python .gitignore leaves it alone.

tests/data/Python.gitignore is GitHub's standard file (its source is in its first lines). It
ignores ``*.log``, the extension games had first, so ``git add kovrik-won.log`` failed in most
Python repositories. The names games have now (the default ``GAME-N.carpet`` that ``carpet
new`` writes, N the canonical deal text, and the JSON and text forms beside it) must
pass it, in the folders where projects keep fixtures. git itself decides, in a fresh repository.
"""

import shutil
import subprocess

import pytest

from carpet.core import GAMES, parse_deal

from conftest import DATA, ROOT

SUFFIXES = (".carpet", ".carpet.json", ".carpet.txt")
FOLDERS = ("", "fixtures/", "tests/fixtures/", "tests/data/", "games/", "docs/")


def default_name(game: str, number: str, suffix: str = ".carpet") -> str:
    return f"{game}-{parse_deal(number).text}{suffix}"


@pytest.fixture
def repository(tmp_path):
    """A fresh git repository whose .gitignore is GitHub's Python one."""
    subprocess.run(["git", "init", "-q", str(tmp_path)], check=True)
    shutil.copy(DATA / "Python.gitignore", tmp_path / ".gitignore")
    return tmp_path


def ignored(repository, names) -> list[str]:
    """The names git would ignore there (git check-ignore: exit 0 some ignored, 1 none)."""
    result = subprocess.run(["git", "check-ignore", "--no-index", "--stdin"], cwd=repository,
                            input="\n".join(names) + "\n", capture_output=True, text=True)
    assert result.returncode in (0, 1), result.stderr
    return result.stdout.split()


def every_name() -> list[str]:
    return [folder + default_name(game, number, suffix) for game in GAMES for number in ("1", "123456789012")
            for suffix in SUFFIXES for folder in FOLDERS]


def test_the_data_is_githubs_file():
    text = (DATA / "Python.gitignore").read_text()
    assert "github.com/github/gitignore/blob/" in text.splitlines()[1]
    assert {"*.log", "__pycache__/", "*.py[cod]", "*.spec", "*.manifest"} <= set(text.splitlines())


def test_default_names_and_the_other_forms_are_not_ignored(repository):
    names = every_name()
    assert "kovrik-ms1.carpet" in names and "fixtures/crazy-quilt-ms1.carpet.json" in names
    assert ignored(repository, names) == []


def test_the_old_log_extension_was_ignored(repository):
    """The check can fail: the name games had before is exactly what this .gitignore refuses."""
    assert ignored(repository, ["kovrik-ms1.log", "fixtures/kovrik-won.log", "kovrik-ms1.carpet"]) == \
        ["kovrik-ms1.log", "fixtures/kovrik-won.log"]


def test_git_add_takes_a_recorded_game(repository):
    games = repository / "fixtures"
    games.mkdir()
    for suffix in SUFFIXES:
        (games / default_name("kovrik", "1", suffix)).write_bytes(b"game")
    (games / "kovrik-ms1.log").write_bytes(b"game")
    assert subprocess.run(["git", "add", "fixtures/kovrik-ms1.carpet", "fixtures/kovrik-ms1.carpet.json",
                           "fixtures/kovrik-ms1.carpet.txt"], cwd=repository, capture_output=True).returncode == 0
    refused = subprocess.run(["git", "add", "fixtures/kovrik-ms1.log"], cwd=repository, capture_output=True, text=True)
    assert refused.returncode != 0 and "ignored" in refused.stderr


def test_this_projects_own_gitignore_keeps_them_too(tmp_path):
    subprocess.run(["git", "init", "-q", str(tmp_path)], check=True)
    shutil.copy(ROOT / ".gitignore", tmp_path / ".gitignore")
    assert ignored(tmp_path, every_name()) == []
