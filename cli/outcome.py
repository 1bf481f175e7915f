"""How a run ends: its exit code, what it recorded, and its error lines kept to one readable line.

Commands say here what they have done to files (through :func:`settle` and
:func:`carpet.cli.common.writing`); the root group (``app.py``) reads it when a
run ends early: a closed stdout ends the run quietly with the exit code of what
happened to the log, and Ctrl-C prints one line saying what was and was not
recorded.  Imports nothing heavy: the root group loads it before any command.
"""

from __future__ import annotations

import contextlib
import re
import signal
import threading

from .exits import OK

NOTHING = "nothing was recorded: no file was changed"


class Outcome:
    """What this run has done so far."""

    def __init__(self) -> None:
        self.code = OK  # the exit code if the run stopped now
        self.recorded = NOTHING  # what is on disk because of this run, for people


current = Outcome()


def begin() -> None:
    global current
    current = Outcome()


def settle(code: int | None = None, recorded: str | None = None) -> None:
    """Note the exit code the run has earned so far, and what it has recorded."""
    if code is not None:
        current.code = code
    if recorded is not None:
        current.recorded = recorded


@contextlib.contextmanager
def interrupts_held():
    """Ctrl-C inside the block waits until the block is done, then interrupts as usual.

    Around a write and the note that it happened, so that what an interrupted
    run reports is exactly what is on disk.
    """
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    caught: list[int] = []
    try:
        previous = signal.signal(signal.SIGINT, lambda number, frame: caught.append(number))
    except (ValueError, OSError):  # no signals here (an embedding that owns them)
        yield
        return
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)
        if caught and callable(previous):
            previous(signal.SIGINT, None)  # Python's own handler raises KeyboardInterrupt


# --- one readable line ---------------------------------------------------------------
#: the longest word (a path, an action, a number as typed) an error line shows whole
LONGEST_WORD = 120
#: the longest error line
LONGEST_LINE = 600

_ESCAPES = {code: f"\\x{code:02x}" for code in (*range(0x20), 0x7F, *range(0x80, 0xA0))}
_ESCAPES.update({ord("\n"): "\\n", ord("\r"): "\\r", ord("\t"): " "})
_LONG_WORD = r"\S{%d,}" % (LONGEST_WORD + 1)  # (compiled by re's cache when first used, not at start-up)


def _shorten(match: re.Match) -> str:
    word = match.group(0)
    return f"{word[:60]}…[{len(word):,} characters]…{word[-40:]}"


def shown(text) -> str:
    """``text`` with its control characters escaped, to print to a terminal: a file name holding an escape
    sequence is shown as ``\\x1b[2K...``, never sent to the terminal to erase a line or set a title."""
    return str(text).translate(_ESCAPES)


def one_line(text: str) -> str:
    """``text`` as one line a terminal shows as it is: control characters escaped, echoed input cut short.

    A 100 kB argument comes back as its start and end and its length, not as
    itself; a line longer than :data:`LONGEST_LINE` loses its middle.
    """
    line = re.sub(_LONG_WORD, _shorten, str(text).translate(_ESCAPES))
    if len(line) > LONGEST_LINE:
        cut = len(line) - LONGEST_LINE + 40
        line = f"{line[:LONGEST_LINE - 200]} …[{cut:,} characters]… {line[-160:]}"
    return line
