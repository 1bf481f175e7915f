"""A recorded game open for play: actions applied one at a time, each recorded when the caller says.

``carpet play FILE ACTION...`` records its actions in one write at the end; ``carpet play
FILE -`` writes once for each batch of lines it reads, and the interactive screen
(cli/screen.py) after every action, each before it shows what it played, holding the log's lock
all the while (formats/files.py, :class:`~carpet.formats.files.Held`), so that nothing a person
or a script saw played is lost to a kill or a closed terminal.

While the lock is held the session in memory is the game: it was read from a log that verified,
and every action since was played by the engine.  So a write costs what the new events cost
(their action codes are found as they are played) plus the bytes of the file; the whole log is
read back and re-played after the first write only, not after each (a pipe of n actions would
otherwise cost n replays of the log).
"""

from __future__ import annotations

import contextlib
from pathlib import Path
from typing import NamedTuple

from carpet.core import HINT
from carpet.core.game import FIRST_ACTION, PLAYING
from carpet.formats import record, upgraded
from carpet.formats.codec import codec

from . import clock
from .common import load, log_lock, writing


@contextlib.contextmanager
def writer(file: Path):
    """The log's lock for play, waited for (cli/common.py ``log_lock``); a log that could not be
    written back (read-only, another user's link...) refused before anything is played."""
    from carpet.formats.files import check_target

    with log_lock(file) as held:
        check_target(file)
        yield held


class Played(NamedTuple):
    action: int
    #: what a hint named (None: not a hint, or nothing to name)
    hint: int | None
    #: False for a hint asked after the end: answered, not recorded
    recorded: bool


class LiveGame:
    """The session of the log at ``file`` (read and verified under ``held``, its lock), and its clock."""

    def __init__(self, file: Path, held, *, peek: bool = False) -> None:
        self.file, self.held = file, held
        #: whether a hint may look at the whole position (hint --peek) or only what the player has seen
        self.peek = peek
        self.reload()

    def reload(self) -> None:
        """Read the log again: the game as it stands on disk (what a failed write leaves)."""
        self.log, self.session = load(self.file, for_play=True)
        self.form = form_of_bytes(self.file)
        self.readings = clock.Clock.of(self.log)
        #: actions applied since the last write
        self.unsaved = 0
        #: the events' version-2 action codes (formats/codec.py), from the first write on, and the
        #: family's encoder that finds each new one
        self.codes = self.encode = None
        #: whether a write was read back and checked (the first is)
        self.checked = False

    def play(self, text: str) -> Played:
        """Parse and apply one action text; CarpetError (nothing changed) when refused."""
        return self.act(self.session.parse(text))

    def act(self, action: int) -> Played:
        session = self.session
        if action == HINT and session.status != PLAYING:
            # the game is over: the hint is answered ("nothing to name") and not recorded
            return Played(action, None, False)
        code = action if action < FIRST_ACTION or self.codes is None else self.encode(session.state, action)
        session.act(action, self.readings.read(session))
        if self.codes is not None:
            self.codes.append(code)
        self.unsaved += 1
        return Played(action, hint_of(session, self.peek) if action == HINT else None, True)

    def save(self, recorded: str) -> None:
        """Write every action applied since the last write (``recorded`` says so if interrupted after)."""
        if not self.unsaved:
            return
        readings, session = self.readings, self.session
        events = session.events
        if self.codes is not None:
            events.memo = (None, self.codes, False)  # (what record() would re-play the events for)
        log = record(session, upgraded(self.log.header), clock_jumps=readings.jumps,
                     clock_skipped_ms=readings.skipped_ms)
        log.notes = self.log.notes  # (the text form's tags and comments that are not data)
        with writing(recorded):
            self.held.write(log, self.form, read_back=not self.checked)
        self.unsaved, self.checked = 0, True
        if self.codes is None:
            self.codes = events.memo[1]
            self.encode = codec(session.variant.family)[0]

    def clock_now(self) -> int:
        """The session clock as the next action would read it now (the clock a screen shows)."""
        readings = self.readings
        return clock.Clock(readings.created_ms, readings.jumps, readings.skipped_ms).read(self.session)


def hint_of(session, peek: bool = False) -> int | None:
    """The action a hint names now: seeing what the player has seen (core/seen.py), or with ``peek``
    the whole position, as the solver does (None: nothing to name)."""
    if peek:
        from carpet.core.hint import hint_action  # the search is loaded only when a hint is asked

        return hint_action(session)
    from carpet.core.seen import seen_hint

    return seen_hint(session)


def form_of_bytes(path: Path) -> str:
    """The form of the log at ``path``, by what it holds: a log is written back as it was."""
    from carpet.formats.log import is_json, is_text

    with open(path, "rb") as f:
        head = f.read(64)
    return "text" if is_text(head) else "json" if is_json(head) else "binary"
