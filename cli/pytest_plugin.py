"""Recorded carpet games as pytest tests: each game in the folders you name is one test.

Installed with carpet and registered through pytest's ``pytest11`` entry point (as
``carpet``; ``-p no:carpet`` switches it off).  It does nothing until a project names
folders of games, in its pytest configuration::

    [tool.pytest.ini_options]            # pyproject.toml; in pytest.ini or tox.ini:
    carpet_games = ["fixtures"]          #   carpet_games = fixtures

or on the command line, ``pytest --carpet-games fixtures`` (repeatable).  Every folder named is
collected whenever pytest runs, whether or not it was given paths (``pytest tests`` checks the
games too: a folder of games is never passed over because a CI file names its tests).
Sub-folders count too.  A symlink in a folder of games is followed: a linked file is checked
(its target, wherever it lies) and a linked sub-folder entered, except one that leads back to
a folder it is inside (a loop), which fails saying so.

Collected: ``*.carpet``, ``*.carpet.json`` and ``*.carpet.txt`` (the text form) files, and
``*.log`` and ``*.json`` files whose first bytes name the carpet log format (other ``.log`` and
``.json`` files are left alone and listed in one line at the end of the run).  A name of the
first kind that pytest would pass over because it is no regular file (a dangling symlink, a
symlink loop, a named pipe, a socket, a device) is collected all the same, and fails saying
why: a folder of games never passes by checking nothing.

Each game is one test item named after its file (``games/kovrik-won.carpet::kovrik-won.carpet``).
It passes when the game verifies as ``carpet verify`` checks it, and fails with one report:
the verifier's line, which event, what was expected there, what the file has, and the
position there drawn as plain text (:mod:`carpet.cli.explain`).

This module imports only pytest and the standard library: a pytest run of any project
with carpet installed pays nothing for it until a game is collected.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

from .recorded import SNIFF_BYTES, looks_like_a_game, may_be_game, named_as_game

_FOLDERS = pytest.StashKey[list]()
_REACHED = pytest.StashKey[list]()  # the folders as named, their links not resolved
_LEFT_ALONE = pytest.StashKey[list]()


def pytest_addoption(parser) -> None:
    group = parser.getgroup("carpet", "recorded carpet games")
    group.addoption("--carpet-games", action="append", default=[], metavar="DIR",
                    help="verify every recorded carpet game under DIR as a test (may be repeated)")
    parser.addini("carpet_games", type="paths", default=[],
                  help="folders of recorded carpet games, each game verified as a test")


def pytest_configure(config) -> None:
    config.stash[_FOLDERS] = []
    config.stash[_REACHED] = []
    config.stash[_LEFT_ALONE] = []
    if getattr(config.option, "help", False) or getattr(config.option, "version", False):
        return
    given = [Path(config.invocation_params.dir, d) for d in config.getoption("carpet_games")]
    named = [Path(p) for p in config.getini("carpet_games")]
    folders = []
    for folder in given + named:
        folder = folder.resolve()
        if not folder.exists():
            raise pytest.UsageError(f"carpet games: no such folder: {folder}")
        if folder not in folders:
            folders.append(folder)
    if not folders:
        return
    config.stash[_FOLDERS] = folders
    config.stash[_REACHED] = sorted({Path(os.path.abspath(f)) for f in given + named} | set(folders))
    # Collect them all, whatever paths pytest was given: pytest has no hook to add a path to
    # collect, so the folders join the paths it was about to collect.
    for folder in folders:
        if not _covered(folder, config.args, config.invocation_params.dir):
            config.args.append(str(folder))


def _covered(folder: Path, args, base: Path) -> bool:
    for arg in args:
        path = Path(base, str(arg).split("::")[0]).resolve()
        if path == folder or path in folder.parents:
            return True
    return False


def _inside(path: Path, config) -> bool:
    """Whether ``path``, as pytest reached it (through any symlink in a folder of games), is in one."""
    folders = config.stash.get(_FOLDERS, None)
    if not folders:
        return False
    seen = (Path(os.path.abspath(path)), path.resolve())
    return any(p == f or f in p.parents for p in seen for f in config.stash[_REACHED])


def pytest_report_header(config):
    folders = config.stash.get(_FOLDERS, None)
    if folders:
        return "carpet games: " + ", ".join(_shown(config, f) for f in folders)
    return None


def pytest_collect_file(file_path: Path, parent):
    folders = parent.config.stash.get(_FOLDERS, None)
    name = file_path.name
    if not folders or not may_be_game(name):
        return None
    if not _inside(file_path, parent.config):
        return None
    if not named_as_game(name) and not _looks_like_a_game(file_path):
        parent.config.stash[_LEFT_ALONE].append(file_path)
        return None
    return GameFile.from_parent(parent, path=file_path)


@pytest.hookimpl(hookwrapper=True)
def pytest_make_collect_report(collector):
    """A folder's games pytest passes over (it collects regular files only) join the folder's items."""
    outcome = yield
    folders = collector.config.stash.get(_FOLDERS, None)
    directory = getattr(pytest, "Directory", None)
    if not folders or directory is None or not isinstance(collector, directory):
        return
    report = outcome.get_result()
    path = Path(collector.path)
    if not report.passed or not _inside(path, collector.config):
        return
    try:
        entries = sorted(os.scandir(path), key=lambda e: e.name)
    except OSError:
        return
    _fail_loops(collector, report, entries)
    for entry in entries:
        if not named_as_game(entry.name):
            continue
        try:
            regular_or_folder = entry.is_file() or entry.is_dir()
        except OSError:
            regular_or_folder = False
        if not regular_or_folder:  # then reading it fails in its test, which says why
            report.result.append(GameFile.from_parent(collector, path=Path(entry.path)))


def _fail_loops(collector, report, entries) -> None:
    """A symlinked sub-folder that leads back to a folder the collector is inside (pytest would enter
    it again and again): not entered, and one failing item in its place, saying so."""
    ancestors = None
    for entry in entries:
        try:
            if not entry.is_symlink() or not entry.is_dir():
                continue
        except OSError:
            continue
        if ancestors is None:  # the folders this one is inside, as reached and resolved
            here = Path(collector.path)
            ancestors = {p.resolve() for p in (here, *here.parents)}
        if Path(entry.path).resolve() in ancestors:
            report.result[:] = [node for node in report.result if Path(node.path) != Path(entry.path)]
            report.result.append(LinkLoop.from_parent(collector, path=Path(entry.path)))


def _looks_like_a_game(path: Path) -> bool:
    """A ``.log`` or ``.json`` file is a game when its first bytes look like a carpet log's."""
    try:
        with open(path, "rb") as f:
            head = f.read(SNIFF_BYTES)
    except OSError:
        return True  # then reading it fails in the test, which says why
    return looks_like_a_game(head)


def pytest_terminal_summary(terminalreporter, exitstatus, config) -> None:
    left = config.stash.get(_LEFT_ALONE, [])
    if left:
        names = ", ".join(_shown(config, p) for p in sorted(set(left)))
        terminalreporter.write_line(f"carpet games: {len(set(left))} file(s) left alone, not carpet logs: {names}")


def _shown(config, path: Path) -> str:
    try:
        return str(Path(path).relative_to(config.rootpath))
    except ValueError:
        return str(path)


class GameDoesNotVerify(Exception):
    """A recorded game that fails; the message is the whole report."""


class GameFile(pytest.File):
    """A recorded game: one item, named after the file (as pytest's doctest plugin names a text file's)."""

    def collect(self):
        yield GameItem.from_parent(self, name=self.path.name)


class LinkLoop(pytest.File):
    """A symlinked sub-folder of a folder of games that leads back to a folder it is inside."""

    def collect(self):
        yield LinkLoopItem.from_parent(self, name=self.path.name)


class LinkLoopItem(pytest.Item):
    def runtest(self) -> None:
        from .outcome import shown

        target = os.readlink(self.path)
        raise GameDoesNotVerify(f"{shown(_shown(self.config, self.path))}: a symlink to {shown(target)}, a folder "
                                f"it is inside: a loop, not entered (link the games themselves, or a folder "
                                f"outside this one)")

    def repr_failure(self, excinfo, style=None):
        if isinstance(excinfo.value, GameDoesNotVerify):
            return str(excinfo.value)
        return super().repr_failure(excinfo, style)

    def reportinfo(self):
        return self.path, None, f"carpet games folder link {self.name}"


class GameItem(pytest.Item):
    """Passes when the game verifies: every event legal, the summary as replayed, the digest intact."""

    def runtest(self) -> None:
        from .explain import check
        from .outcome import shown

        name = shown(_shown(self.config, self.path))  # a name's escape sequences escaped, as every line shown
        try:
            report = check(self.path, name)
        except Exception as exc:  # a bug in carpet: still this game's one failure, never a stray traceback
            report = f"{name}: internal error in carpet, please report it: {type(exc).__name__}: {exc}"
        if report is not None:
            raise GameDoesNotVerify(report)

    def repr_failure(self, excinfo, style=None):
        if isinstance(excinfo.value, GameDoesNotVerify):
            from .terminal import fit

            return fit(str(excinfo.value), getattr(sys.__stdout__, "encoding", None))
        return super().repr_failure(excinfo, style)

    def reportinfo(self):
        return self.path, None, f"carpet game {self.name}"
