"""Which files hold recorded games: what ``carpet stats`` looks for in folders and what the
pytest plugin (cli/pytest_plugin.py) collects.

A file named ``*.carpet``, ``*.carpet.json`` or ``*.carpet.txt`` is a recorded game: one that
does not read or verify is a failure.  A ``*.log`` or ``*.json`` file is one when its first
bytes look like a carpet log (formats/log.py, ``looks_like_a_log``); other such files are left
alone.  This module imports only the standard library (the pytest plugin pays nothing for it).
"""

from __future__ import annotations

import os
from pathlib import Path

#: files with these names are recorded games: one that does not read or verify fails
GAME_SUFFIXES = (".carpet", ".carpet.json", ".carpet.txt")
#: files with these names are games when they look like one (their first bytes)
MAYBE_SUFFIXES = (".log", ".json")
SNIFF_BYTES = 256


def named_as_game(name: str) -> bool:
    return name.endswith(GAME_SUFFIXES)


def may_be_game(name: str) -> bool:
    return name.endswith(GAME_SUFFIXES + MAYBE_SUFFIXES)


def looks_like_a_game(head: bytes) -> bool:
    """Whether a ``.log`` or ``.json`` file's first bytes (:data:`SNIFF_BYTES` of them) are a carpet log's."""
    from carpet.formats.log import looks_like_a_log

    return looks_like_a_log(head[:SNIFF_BYTES])


def walk(folder: Path, problem) -> list[Path]:
    """The files under ``folder`` (sub-folders too, symlinked ones not entered) whose names may be
    recorded games, sorted; ``problem(path, why)`` hears of a folder that cannot be read."""
    found = []

    def unreadable(exc: OSError) -> None:
        problem(Path(exc.filename) if exc.filename else folder, exc.strerror or str(exc))

    for top, dirs, files in os.walk(folder, onerror=unreadable):
        dirs.sort()
        found.extend(Path(top, name) for name in sorted(files) if may_be_game(name))
    return found
