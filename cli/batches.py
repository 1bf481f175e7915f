"""The lines of ``carpet play FILE -``, read from stdin in batches.

A batch is every whole line that has arrived: the reader waits for the first line, then
takes what else is there without waiting (``select`` with no timeout), up to
:data:`BATCH_BYTES`.  ``play`` applies a batch, writes the log once and then prints the
answers, so a bulk pipe costs a few writes, while a program that waits for each answer
sends one line a batch and finds each action in the file before its answer.

A line holds at most :data:`LINE_BOUND` bytes: past it, the batch ends at the line
before, and the reader says so (:attr:`Batch.too_long`), without reading the rest of
the line into memory.
"""

from __future__ import annotations

import os
from typing import NamedTuple

#: the most bytes a line of actions may hold (an action is a few bytes; a line of many is fine)
LINE_BOUND = 64 * 1024
#: the most bytes one batch takes (a file given as stdin is read in batches of this size)
BATCH_BYTES = 1 << 20
_READ = 1 << 16


class Batch(NamedTuple):
    #: the whole lines, as bytes
    lines: list[bytes]
    #: the number (from 1) of a line that is longer than LINE_BOUND after these; 0 if none
    too_long: int

    def actions(self):
        """The actions of the lines, whitespace separated (bytes that are not UTF-8 become actions nobody
        knows)."""
        for line in self.lines:
            yield from line.decode("utf-8", "surrogateescape").split()


class Batches:
    """The batches of lines read from the descriptor ``fd``, until its end or a line too long."""

    def __init__(self, fd: int | None, stream=None) -> None:
        #: the descriptor read, or None: ``stream`` is read instead, a binary file object without
        #: one (a test's stdin), that many reads at a time
        self.fd, self.stream = fd, stream
        self.pending = bytearray()
        self.eof = False
        #: lines given so far
        self.lines = 0

    def __iter__(self):
        while True:
            batch = self.next()
            if batch.lines or batch.too_long:
                yield batch
            if batch.too_long or (self.eof and not self.pending):
                return

    def next(self) -> Batch:
        pending = self.pending
        searched = 0
        while not self.eof and pending.find(b"\n", searched) < 0:
            if len(pending) > LINE_BOUND:
                break  # the line is too long already: its end is not waited for
            searched = len(pending)
            self._read(wait=True)
        while not self.eof and len(pending) < BATCH_BYTES and self._read(wait=False):
            pass
        end = len(pending) if self.eof else pending.rfind(b"\n") + 1
        lines = bytes(pending[:end]).split(b"\n")
        if not self.eof or (lines and not lines[-1]):
            lines.pop()  # (the empty piece after the last newline)
        del pending[:end]
        for i, line in enumerate(lines):
            if len(line) > LINE_BOUND:
                return self._cut(lines[:i])
        if len(pending) > LINE_BOUND:  # a line not yet ended, already too long
            return self._cut(lines)
        self.lines += len(lines)
        return Batch(lines, 0)

    def _cut(self, lines: list[bytes]) -> Batch:
        self.lines += len(lines)
        self.pending.clear()
        return Batch(lines, self.lines + 1)

    def _read(self, *, wait: bool) -> bool:
        """Read what is there (with ``wait``, what comes first); False at the end, or if nothing was there."""
        if not wait and (self.fd is None or not _ready(self.fd)):
            return False
        data = self.stream.read1(_READ) if self.fd is None else _read_fd(self.fd)
        if not data:
            self.eof = True
            return False
        self.pending += data
        return True


def _read_fd(fd: int) -> bytes:
    while True:
        try:
            return os.read(fd, _READ)
        except BlockingIOError:  # a descriptor left non-blocking by whoever gave it: wait for it
            _ready(fd, None)
        except OSError:  # closed, or not readable at all: as its end
            return b""


def _ready(fd: int, timeout: float | None = 0) -> bool:
    """Whether a read of ``fd`` would not wait (a file always; where select cannot tell: no)."""
    import select

    try:
        return bool(select.select([fd], [], [], timeout)[0])
    except (OSError, ValueError):
        return False
