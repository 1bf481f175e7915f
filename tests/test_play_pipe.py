"""``carpet play FILE -`` (issue 47): each batch of lines read is applied, written once, then answered;
a program that waits for each answer finds each action in the file; kill -9 loses nothing answered; a
line has a bound; a forced writer waits behind the pipe and never loses its game to it."""

import io
import os
import signal
import subprocess
import time

from hypothesis import given, settings, strategies as st

from carpet.cli.batches import LINE_BOUND, Batches
from clitools import CARPET, carpet, doc, events, one_line, run, temporaries

MOVE_AND_BACK = ["AC>a0", "undo"]  # kovrik deal 1: legal again after each undo


def _driver(path, *extra):
    return subprocess.Popen([*CARPET, "play", str(path), "-", "--json", *extra], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, bufsize=1)


def test_a_driver_finds_each_answered_action_in_the_file_before_it_sends_the_next(game):
    pipe = _driver(game)
    try:
        for k in range(1, 13):
            pipe.stdin.write(MOVE_AND_BACK[k % 2 - 1] + "\n")
            pipe.stdin.flush()
            answer = pipe.stdout.readline()
            assert doc_line(answer)["applied"] == k and doc_line(answer)["events"] == k
            assert events(game) == k  # on disk, and verifying, before the next line is sent
        pipe.stdin.write("AC>a0 undo\n")  # two actions on one line: two answers, both on disk first
        pipe.stdin.flush()
        assert [doc_line(pipe.stdout.readline())["applied"] for _ in range(2)] == [13, 14]
        assert events(game) == 14
    finally:
        pipe.stdin.close()
        assert pipe.wait(timeout=20) == 0, pipe.stderr.read()
    assert events(game) == 14 and temporaries(game.parent) == []


def doc_line(line: str) -> dict:
    import json

    return json.loads(line)


def test_kill_9_after_k_answers_leaves_a_log_with_at_least_k_actions(game):
    for k, sent in ((5, 5), (40, 300)):  # line by line; and a bulk send, answers read part way
        fresh = game.with_name(f"k{k}.log")
        fresh.write_bytes(game.read_bytes())
        pipe = _driver(fresh)
        pipe.stdin.write("".join(MOVE_AND_BACK[i % 2] + "\n" for i in range(sent)))
        pipe.stdin.flush()
        for _ in range(k):
            assert pipe.stdout.readline()
        pipe.send_signal(signal.SIGKILL)
        pipe.wait(timeout=20)
        assert events(fresh) >= k


def test_a_line_past_its_bound_is_one_line_and_exit_2_keeping_what_came_before(game):
    r = run("play", game, "-", "-q", input="AC>a0\nundo " + "x" * LINE_BOUND + "\nundo\n")
    line = one_line(r, 2)
    assert f"line 2 of stdin is longer than {LINE_BOUND} bytes" in line
    assert events(game) == 1
    r = carpet("play", game, "-", "-q", input="undo\n" + "AC>a0 " * 20000)  # no newline ever: not read whole
    assert r.returncode == 2 and "line 2 of stdin" in r.stderr and len(r.stderr.splitlines()) == 1, r.stderr
    assert events(game) == 2


def test_an_illegal_action_in_a_batch_keeps_and_answers_those_before_it(game):
    r = run("play", game, "-", "--json", input="AC>a0\nundo\nundo\nAC>a0\n")
    assert r.exit_code == 1 and "event 3 (undo)" in r.stderr
    assert [doc_line(x)["applied"] for x in r.stdout.splitlines()] == [1, 2]
    assert events(game) == 2


@settings(max_examples=60, deadline=None)
@given(st.lists(st.sampled_from(["AC>a0", "undo", " ", "\t", "\n", "\n\n", "é", "x" * 70]), max_size=60),
       st.integers(1, 7))
def test_batches_give_every_action_in_order_whatever_the_pieces(words, cut):
    text = "".join(words).encode()
    want = text.decode().split()
    from_stream = [a for batch in Batches(None, io.BytesIO(text)) for a in batch.actions()]
    assert from_stream == want
    read, write = os.pipe()
    try:
        for start in range(0, len(text), cut):  # (all fits the pipe's buffer)
            os.write(write, text[start:start + cut])
        os.close(write)
        assert [a for batch in Batches(read) for a in batch.actions()] == want
    finally:
        os.close(read)


def test_new_force_over_a_file_a_pipe_is_playing_waits_and_its_game_stays(game):
    """Decision: a forced writer of a whole file waits for the pipe (saying so once), then writes; the
    pipe's writes never put the old game back over it."""
    pipe = _driver(game)
    pipe.stdin.write("AC>a0\n")
    pipe.stdin.flush()
    assert doc_line(pipe.stdout.readline())["applied"] == 1
    forced = subprocess.Popen([*CARPET, "new", "kovrik", "2", "-o", str(game), "--force"], stderr=subprocess.PIPE,
                              text=True)
    time.sleep(1.5)
    assert forced.poll() is None  # waiting behind the pipe
    pipe.stdin.write("undo\n")
    pipe.stdin.flush()
    assert doc_line(pipe.stdout.readline())["applied"] == 2
    pipe.stdin.close()
    assert pipe.wait(timeout=20) == 0
    assert forced.wait(timeout=20) == 0
    said = forced.stderr.read()
    assert said.count("waiting until it is done") == 1, said
    shown = doc(run("show", game, "--json"))
    assert shown["deal"] == "ms2" and shown["events"] == 0  # the new game, after the pipe's last write


def test_export_and_solve_force_wait_for_the_lock_too(game, tmp_path):
    other = tmp_path / "other.log"
    assert run("new", "kovrik", "3", "-o", other).exit_code == 0
    pipe = _driver(game)
    pipe.stdin.write("AC>a0\n")
    pipe.stdin.flush()
    pipe.stdout.readline()
    exported = subprocess.Popen([*CARPET, "export", str(other), "-o", str(game), "--force"],
                                stderr=subprocess.PIPE, text=True)
    time.sleep(1.5)
    assert exported.poll() is None
    pipe.stdin.close()
    assert pipe.wait(timeout=20) == 0 and exported.wait(timeout=20) == 0
    assert doc(run("show", game, "--json"))["deal"] == "ms3"


@settings(max_examples=12, deadline=None)
@given(st.sampled_from(["kovrik", "kovrik-shuffle", "montana", "carpet", "carpet-foster", "crazy-quilt",
                        "persian-carpet"]), st.integers(1, 40), st.randoms(use_true_random=False))
def test_writes_after_the_first_are_not_read_back_and_still_verify_in_every_family(game_id, deal, rnd):
    """The live game finds each new event's action code as it plays it and writes without a replay
    (cli/live.py): the file after many such writes verifies and holds the session's events."""
    import tempfile
    from pathlib import Path

    from carpet.cli.live import LiveGame, writer
    from carpet.core.game import HINT, RESTART, UNDO
    from carpet.formats import read_log, verify

    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / f"g{rnd.choice(['.carpet', '.carpet.json', '.carpet.txt'])}"
        assert run("new", game_id, str(deal), "-o", path).exit_code == 0
        with writer(path) as held:
            game = LiveGame(path, held)
            for _ in range(8):  # batches
                for _ in range(rnd.randint(1, 12)):
                    session = game.session
                    legal = session.legal_actions()
                    extra = [UNDO] * session.can_undo() + [HINT] + [RESTART] * (rnd.random() < 0.05)
                    game.act(rnd.choice(legal + extra if legal else extra))
                game.save("recorded")
            want = game.session.events
        assert list(verify(read_log(path)).events) == list(want)
