"""The real ``carpet play FILE`` in a pseudo-terminal (the pty module: nothing to install): keys typed in,
what the terminal was sent read back as text."""

import fcntl
import os
import pty
import re
import select
import signal
import struct
import subprocess
import sys
import termios
import time

CARPET = [sys.executable, "-m", "carpet.cli"]
#: escape sequences (CSI, OSC, two-byte ones): what is left is the text the screen wrote
_ESCAPES = re.compile(r"\x1b\[[0-?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)|\x1b[@-Z\\-_]|[\x00-\x08\x0e-\x1f]")


class Terminal:
    """A process on a pseudo-terminal of ``columns`` × ``rows``."""

    def __init__(self, *args, columns: int = 80, rows: int = 24, env=None) -> None:
        master, slave = pty.openpty()
        fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", rows, columns, 0, 0))
        environment = {**os.environ, "TERM": "xterm-256color", "COLUMNS": str(columns), "LINES": str(rows),
                       **(env or {})}
        self.process = subprocess.Popen([*CARPET, *map(str, args)], stdin=slave, stdout=slave, stderr=slave,
                                        env=environment, start_new_session=True, close_fds=True)
        os.close(slave)
        self.master = master
        self.output = b""

    def read(self, timeout: float = 0.2) -> None:
        """Take in what the process wrote within ``timeout`` seconds."""
        end = time.monotonic() + timeout
        while (left := end - time.monotonic()) > 0:
            ready, _, _ = select.select([self.master], [], [], left)
            if not ready:
                return
            try:
                data = os.read(self.master, 65536)
            except OSError:  # the process has gone and its side of the terminal with it
                return
            if not data:
                return
            self.output += data

    @property
    def text(self) -> str:
        """Everything written so far, escapes removed."""
        return _ESCAPES.sub("", self.output.decode("utf-8", "replace"))

    def wait_for(self, words: str, timeout: float = 30) -> str:
        """Read until ``words`` appear in what was written after the last call (the screen's text)."""
        start = len(self.output)
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            self.read(0.2)
            seen = _ESCAPES.sub("", self.output[start:].decode("utf-8", "replace"))
            if words in seen.replace("\r", "").replace("\n", ""):
                return seen
            if self.process.poll() is not None:
                self.read(0.2)
                break
        raise AssertionError(f"{words!r} never appeared; the terminal showed:\n{self.text[-3000:]}")

    def type(self, keys: str) -> None:
        """Type ``keys``; a control key (Ctrl+U ...) goes alone, as a person's would (Textual reads the
        characters that arrive with one in the same read as part of it)."""
        for chunk in re.split(r"([\x00-\x08\x0b-\x0c\x0e-\x1f])", keys):
            if chunk:
                os.write(self.master, chunk.encode())
                if len(chunk) == 1 and chunk < " " and chunk not in "\r\n":
                    time.sleep(0.3)

    def finish(self, timeout: float = 30) -> int:
        """Wait for the process to end, reading what it writes meanwhile; its exit code."""
        end = time.monotonic() + timeout
        while self.process.poll() is None and time.monotonic() < end:
            self.read(0.2)
        self.read(0.2)
        return self.process.wait(timeout=1)

    def kill(self) -> None:
        os.killpg(self.process.pid, signal.SIGKILL)
        self.process.wait(timeout=10)

    def close(self) -> None:
        if self.process.poll() is None:
            self.kill()
        os.close(self.master)
