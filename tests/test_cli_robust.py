"""Issue 8, "nothing lost, nothing forked, nothing bricked": the command line under real-world abuse.

Each test names the case of the issue it reproduces; each failed on commit 778fb62.
Pipes and signals are real where it matters: the command runs as a process of
its own with its stdout closed, or is sent SIGINT.
"""

import json
import os
import signal
import subprocess
import sys
import time

import pytest

from clitools import CARPET, carpet, doc, events, one_line, run, temporaries


# --- "Internal errors (exit 3) on replay --delay nan, inf and 1e308, and on a 300-character file name" -------
@pytest.mark.parametrize("delay", ["nan", "inf", "-inf", "1e308", "-1", "3601"])
def test_replay_delay_out_of_range_is_usage(game, delay):
    line = one_line(run("replay", game, "--delay", delay), 2)
    assert "--delay" in line


def test_replay_delay_in_range_still_works(game):
    assert run("replay", game, "--delay", "0.001").exit_code == 0


@pytest.mark.parametrize("command", [["new", "kovrik", "1", "-o", "{long}"], ["show", "{long}"],
                                     ["verify", "{long}"], ["play", "{long}", "hint"],
                                     ["export", "{game}", "-o", "{long}"], ["autoplay", "kovrik", "1", "-o", "{long}"]])
def test_a_file_name_too_long_for_the_system_is_one_line(game, tmp_path, command):
    long = tmp_path / ("a" * 300 + ".log")
    args = [str(a).format(long=long, game=game) for a in command]
    line = one_line(run(*args), 2)
    assert "too long" in line and len(line) < 400


@pytest.mark.parametrize("name", ["bad\x00name.log", "\udcff\udcfe.log", "x/" * 2100 + "g.log"])
def test_names_the_system_refuses_are_one_line(tmp_path, name):
    for command in (["new", "kovrik", "1", "-o", tmp_path / name], ["show", tmp_path / name]):
        result = run(*command)
        assert result.exit_code in (0, 2)
        assert result.exit_code == 0 or len(result.stderr.splitlines()) == 1


def test_a_file_name_that_is_not_utf8_still_gives_json(tmp_path):
    result = run("new", "kovrik", "1", "-o", tmp_path / "\udcff.log", "--json")
    assert result.exit_code == 0 and doc(result)["file"].endswith("\ufffd.log")

# --- "A 100 kB argument is echoed back in one error line of 200 kB" ---------------------------------------
@pytest.mark.parametrize("command", [["show", "{big}"], ["play", "{game}", "{big}"], ["deal", "{big}", "1"],
                                     ["deal", "kovrik", "{big}"], ["{big}"], ["show", "{game}", "--at", "{big}"],
                                     ["new", "kovrik", "1", "-o", "{big}"], ["play", "{game}", "AD>a0", "{big}"],
                                     ["autoplay", "kovrik", "--deals", "{big}"], ["verify", "{game}", "{big}"]])
def test_a_huge_argument_comes_back_short(game, command):
    big = "7" * 50_000 + "\n" + "x" * 50_000
    result = run(*[a.format(big=big, game=game) for a in command])
    assert result.exit_code in (1, 2)
    assert len(result.stderr) < 1000 and result.stderr.count("\n") <= 2  # verify: a line for each file


def test_control_characters_in_input_are_shown_escaped(game):
    line = one_line(run("play", game, "\x1b[2Jboom\rx"), 2)
    assert "\x1b" not in line and "\r" not in line and "\\x1b[2Jboom\\rx" in line

# --- "A broken pipe (carpet show g | head -1) exits 1, though everything was recorded" -------------------
def closed_stdout(*args):
    """Run carpet with stdout a pipe nobody reads: closed before it writes its first byte."""
    p = subprocess.Popen([*CARPET, *map(str, args)], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    p.stdout.close()
    err = p.stderr.read().decode()
    return p.wait(timeout=30), err


@pytest.mark.parametrize("command", [["show", "{g}"], ["show", "{g}", "--json"], ["replay", "{g}"], ["moves", "{g}"],
                                     ["deal", "kovrik", "1"], ["games"], ["rules", "kovrik"], ["verify", "{g}"]])
def test_a_closed_stdout_ends_quietly_with_the_code_earned(game, command):
    code, err = closed_stdout(*[a.format(g=game) for a in command])
    assert (code, err) == (0, "")


def test_a_closed_stdout_after_play_says_what_happened_to_the_log(game):
    assert closed_stdout("play", game, "AD>a0", "hint") == (0, "")
    assert events(game) == 2  # every action recorded: exit 0
    code, err = closed_stdout("play", game, "AC", "7H>a5", "hint")
    assert code == 1 and err.count("\n") == 1 and "event 4 (7H>a5)" in err  # AC kept, 7H>a5 illegal: exit 1
    assert events(game) == 3

# --- "Ctrl-C exits 130 without a word" --------------------------------------------------------------------
def test_ctrl_c_while_waiting_for_actions_says_nothing_was_recorded(game, tmp_path):
    ready = tmp_path / "ready"
    # as from a terminal: a run started in the background (nohup, `&`) inherits SIGINT ignored
    code = ("import sys, pathlib, signal\nsignal.signal(signal.SIGINT, signal.default_int_handler)\n"
            "from carpet.cli.app import main\n"
            f"pathlib.Path({str(ready)!r}).touch()\nsys.argv[1:] = ['play', {str(game)!r}, '-']\nmain()\n")
    p = subprocess.Popen([sys.executable, "-c", code], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 30
    while not ready.exists() and time.monotonic() < deadline:
        time.sleep(0.02)
    time.sleep(0.5)  # into the read of stdin
    p.stdin.write("AD>a0 hint ")
    p.stdin.flush()
    p.send_signal(signal.SIGINT)
    out, err = p.communicate(timeout=30)
    assert p.returncode == 130
    assert err.splitlines() == ["carpet: interrupted; nothing was recorded: no file was changed"]
    assert events(game) == 0


def test_ctrl_c_after_the_write_says_what_was_recorded(game, monkeypatch):
    def interrupted(*args, **kwargs):
        raise KeyboardInterrupt
    monkeypatch.setattr("carpet.cli.play.draw", interrupted)
    line = one_line(run("play", game, "AD>a0", "hint"), 130)
    assert line == f"carpet: interrupted; {game}: all 2 actions given were recorded"
    assert events(game) == 2
    result = run("play", game, "AC", "7H>a5")  # interrupted while drawing, after the illegal action's line
    assert result.exit_code == 130 and len(result.stderr.splitlines()) == 2
    assert result.stderr.splitlines()[-1] == \
        f"carpet: interrupted; {game}: 1 of the 2 actions given were recorded, not the rest"
    assert events(game) == 3


def test_ctrl_c_during_the_write_waits_for_it_and_says_so(game, monkeypatch):
    real_fsync = os.fsync
    sent = []

    def fsync_and_ctrl_c(fd):
        if not sent:  # once: a second one, after the write, would interrupt the test run itself
            sent.append(1)
            os.kill(os.getpid(), signal.SIGINT)  # a real SIGINT, mid-write
        real_fsync(fd)
    monkeypatch.setattr(os, "fsync", fsync_and_ctrl_c)
    inherited = signal.signal(signal.SIGINT, signal.default_int_handler)  # as from a terminal (see above)
    try:
        line = one_line(run("hint", game, "-q"), 130)
    finally:
        signal.signal(signal.SIGINT, inherited)
    monkeypatch.undo()
    assert line == f"carpet: interrupted; {game}: the action was recorded"
    assert events(game) == 1 and temporaries(game.parent) == []

# --- "exit 3 stays for a genuine bug, with a line asking to report it" ---------------------------------------
def test_a_genuine_bug_is_exit_3_with_a_line_asking_for_a_report(game, monkeypatch):
    def bug(*args, **kwargs):
        raise ZeroDivisionError("division by zero")
    monkeypatch.setattr("carpet.cli.show.load", bug)
    line = one_line(run("show", game), 3)
    assert "a bug in carpet" in line and "please report it" in line and "ZeroDivisionError" in line


# --- found on the way: more input that used to end in exit 3 or a silent nonsense answer --------------------
def test_a_terminal_that_cannot_show_the_suits_gets_them_in_letters(game):
    latin1 = {**os.environ, "PYTHONIOENCODING": "latin-1"}
    drawn, as_json = carpet("show", game, env=latin1), carpet("deal", "crazy-quilt", "1", "--json", env=latin1)
    assert (drawn.returncode, drawn.stderr, as_json.returncode, as_json.stderr) == (0, "", 0, "")
    assert "AD" in drawn.stdout and "\\u2666" not in drawn.stdout  # A♦, in letters (cli/terminal.py)
    assert json.loads(as_json.stdout)["game"] == "crazy-quilt"  # still JSON


@pytest.mark.parametrize("deals", ["5-1", "0-3", "1-", "-4", "a-b", "1-99999999999999999999999"])
def test_a_range_of_deals_that_is_none_is_refused(deals):
    line = one_line(run("autoplay", "kovrik", "--deals", deals), 2)
    assert "--deals" in line


def test_a_closed_stdout_while_help_is_printed_is_quiet_too():
    p = subprocess.Popen([*CARPET, "play", "--help"], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    p.stdout.close()
    assert (p.wait(timeout=30), p.stderr.read()) == (0, b"")


def test_autoplay_refuses_its_output_before_it_plays(game):
    # Found by the fuzz: the player's note, then "file exists" - two lines, and a game played for nothing.
    result = run("autoplay", "kovrik", "-o", game)
    assert "file exists" in one_line(result, 2) and result.stdout == ""
