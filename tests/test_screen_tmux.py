"""The screen (`carpet play FILE`, cli/screen.py) in a real terminal: tmux, at 80 × 24 and 60 × 20,
for a game of every family.  What the pane shows is read with ``tmux capture-pane``: the first
view says how to get help, no card is cut, and a refused action followed by a legal one plays
the legal one (the input is emptied after the refusal)."""

import os
import shlex
import shutil
import subprocess
import time
from pathlib import Path

import pytest

from carpet.cli.common import load
from carpet.formats import read_log, verify

from clitools import CARPET, run

pytestmark = pytest.mark.skipif(shutil.which("tmux") is None and not os.environ.get("CI"),
                                reason="tmux is not installed here (CI installs it)")

FAMILIES = ("kovrik", "montana", "carpet", "carpet-foster", "crazy-quilt", "persian-carpet")


class Pane:
    """``carpet play FILE`` in a detached tmux session of its own server (a socket in tmp_path)."""

    def __init__(self, tmp_path: Path, file: Path, size: tuple[int, int]) -> None:
        self.socket = str(tmp_path / "tmux.sock")
        command = " ".join(shlex.quote(str(part)) for part in (*CARPET, "play", file))
        self.tmux("new-session", "-d", "-s", "t", "-x", str(size[0]), "-y", str(size[1]),
                  f"env -u COLUMNS -u LINES TERM=xterm-256color {command}; sleep 30")  # (Textual obeys those two)

    def tmux(self, *args: str) -> str:
        return subprocess.run(["tmux", "-S", self.socket, *args], check=True, capture_output=True,
                              text=True, timeout=30).stdout

    def text(self) -> str:
        return self.tmux("capture-pane", "-p", "-J", "-t", "t")  # -J: a line the terminal wrapped, whole

    def wait_for(self, words: str, timeout: float = 40, gone: bool = False) -> str:
        """What the pane shows once ``words`` are on it (or, ``gone``, no longer on it)."""
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            shown = self.text()
            if (words in shown) != gone:
                return shown
            time.sleep(0.1)
        raise AssertionError(f"{words!r} never {'went' if gone else 'appeared'}; the pane showed:\n{self.text()}")

    def type(self, *keys: str) -> None:
        self.tmux("send-keys", "-t", "t", *keys)

    def close(self) -> None:
        subprocess.run(["tmux", "-S", self.socket, "kill-server"], capture_output=True, timeout=30)


def legal_text(file: Path) -> str:
    """An action legal in the game recorded at ``file`` (a move where there is one, not a turn of the stock)."""
    session = load(file)[1]
    return max((session.variant.text(a) for a in session.legal_actions()), key=lambda t: ">" in t)


@pytest.mark.parametrize("size", [(80, 24), (60, 20)])
@pytest.mark.parametrize("game", FAMILIES)
def test_the_screen_in_tmux_says_how_to_get_help_and_plays_after_a_refusal(tmp_path, game, size):
    file = tmp_path / f"{game}.carpet"
    assert run("new", game, "7", "-o", file).exit_code == 0
    action = legal_text(file)
    pane = Pane(tmp_path, file, size)
    try:
        pane.wait_for("f3 new deal")  # the footer, drawn last
        first = pane.wait_for("F1 or ? help")
        assert "deal ms7" in first and "…" not in first
        assert all(len(line) <= size[0] for line in first.splitlines())
        if game == "persian-carpet":
            assert all(f"r{k} " in first for k in range(1, 9))  # every reserve on the screen
        pane.type("z", "z", "9", "Enter")
        pane.wait_for("zz9: ")
        pane.type(*action, "Enter")
        pane.wait_for(f"played {action}")
        pane.type("F1")
        pane.wait_for("Esc closes")
        pane.type("Escape")
        pane.wait_for("Esc closes", gone=True)
        pane.type("C-q")
        pane.wait_for("every one recorded")
    finally:
        pane.close()
    actions = list(verify(read_log(file)).events.actions)
    session = load(file)[1]
    assert len(actions) == 1 and session.variant.text(actions[0]) == action

