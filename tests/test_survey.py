"""`carpet survey`: win rates over ranges of deals, on one core, many, or a Dask cluster;
results kept line by line, resumed after a kill, summarised again; honest intervals."""

import json
import os
import pty
import select
import signal
import subprocess
import sys
import time
from collections import Counter

import pytest

from carpet.core import Session, get_game, parse_deal
from carpet.core.players import ACTION_CAP, PLAYERS, Player, get_player
from carpet.core.survey import Spread, Tally, wilson
from carpet.formats.survey import LINE_START, DealResult, encode_line, read_results
from carpet.cli.survey_run import chunk_size, chunks, pending_runs

from clitools import doc, run
from conftest import ROOT


def survey(*args):
    r = run("survey", *args)
    assert r.exit_code == 0, r.stderr
    return r


def summary(*args):
    return doc(survey(*args, "--json"))


def lines(path):
    return [json.loads(line) for line in path.read_text().splitlines()]


def needs_distributed():
    """The dask extra's ``distributed``: a skip where it is not installed, but never on CI (.ci/run installs it)."""
    if os.environ.get("CI"):
        import distributed
        return distributed
    return pytest.importorskip("distributed", reason="the dask extra is not installed: pip install -e '.[dask]'")


@pytest.fixture
def test_players(monkeypatch):
    """The test-only players of tests/survey_players.py, added to the registry."""
    monkeypatch.setitem(PLAYERS, "parity", Player("parity", "survey_players:parity", "test", default_chunk=7))
    monkeypatch.setitem(PLAYERS, "whose", Player("whose", "survey_players:whose", "test"))


# --- statistics ------------------------------------------------------------------------
def test_wilson_interval_matches_known_values():
    low, high = wilson(5, 10)
    assert (round(low, 4), round(high, 4)) == (0.2366, 0.7634)
    low, high = wilson(0, 10)
    assert low == 0.0 and round(high, 4) == 0.2775
    low, high = wilson(10, 10)
    assert high == 1.0 and round(low, 4) == 0.7225
    low, high = wilson(7152, 10000)
    assert low < 0.7152 < high and round(high - low, 4) == 0.0177
    assert wilson(0, 0) == (0.0, 1.0)


def test_unknown_deals_are_counted_both_ways():
    t = Tally()
    for deal in range(1, 101):
        t.add(deal, "won" if deal <= 60 else "unknown" if deal <= 70 else "unwinnable", 5, 1)
    assert t.rate == 0.6
    low, high = t.interval
    assert low == wilson(60, 100)[0]  # the unknown deals as lost
    assert high == wilson(70, 100)[1]  # ... and as won
    assert low < 0.6 < 0.7 < high


def test_spread_of_counts():
    s = Spread.of(Counter({1: 1, 2: 2, 10: 1}))  # 1 2 2 10
    assert (s.mean, s.median, s.min, s.max) == (3.75, 2.0, 1, 10)
    assert round(s.sd, 4) == 4.1932  # statistics.stdev([1, 2, 2, 10])
    assert Spread.of(Counter({4: 3})).sd == 0.0
    assert Spread.of(Counter({1: 1, 3: 1})).median == 2.0
    assert Spread.of(Counter()) is None


# --- the plan ------------------------------------------------------------------------------
def test_chunks_cover_the_pending_deals_once_in_order():
    runs = pending_runs(1, 20, [3, 4, 10, 25])
    assert runs == [(1, 3), (5, 10), (11, 21)]
    parts = list(chunks(runs, 4))
    assert parts[0] == ((1, 3), (5, 7))
    played = [n for part in parts for first, stop in part for n in range(first, stop)]
    assert played == [n for n in range(1, 21) if n not in (3, 4, 10)]
    assert all(sum(stop - first for first, stop in part) == 4 for part in parts[:-1])
    assert pending_runs(5, 6, [5, 6]) == []
    assert chunk_size(100_000, 2, 400) == 400 and chunk_size(40, 2, 400) == 5 and chunk_size(1, 8, 400) == 1


# --- players -----------------------------------------------------------------------------
def test_the_simple_player_is_autoplay():
    from carpet.core.autoplay import play_out

    for n in (1, 2, 3):
        a, b = (Session(get_game("carpet"), parse_deal(str(n))) for _ in range(2))
        played = get_player("simple").function()(a, None)
        taken = play_out(b, ACTION_CAP)
        assert played == (b.status, b.moves, b.score, taken, 0)


def test_the_hint_player_follows_the_hint_and_stops_going_round():
    hint = get_player("hint").function()
    session = Session(get_game("kovrik-shuffle"), parse_deal("1"))
    played = hint(session, None)
    assert played.result == "won" and played.actions == session.moves > 0
    # kovrik's hint can go round in circles: the player stops there, far below the cap
    results = [hint(Session(get_game("kovrik"), parse_deal(str(n))), None) for n in range(1, 6)]
    assert all(p.actions < ACTION_CAP for p in results) and {p.result for p in results} <= {"won", "lost"}


def test_the_solve_player_reports_what_the_solver_says():
    from carpet.core.solver import solve  # the solver's branch brings it

    player = get_player("solve").function()
    for n in (1, 2, 3):
        played = player(Session(get_game("carpet"), parse_deal(str(n))), 20_000)
        solution = solve(Session(get_game("carpet"), parse_deal(str(n))), nodes=20_000)
        assert played == (solution.result, solution.moves, solution.score, len(solution.line), solution.nodes)
    one = summary("carpet", "--deals", "1-30", "--player", "solve", "--nodes", "20000", "--jobs", "1")
    two = summary("carpet", "--deals", "1-30", "--player", "solve", "--nodes", "20000", "--jobs", "2")
    assert one == two and one["budget"] == 20_000 and one["lost"] == 0
    assert one["won"] + one["unwinnable"] + one["unknown"] == 30


# --- running -------------------------------------------------------------------------------
def test_the_summary_is_the_same_for_one_job_and_two(tmp_path):
    one = summary("kovrik", "--deals", "1-240", "--jobs", "1", "--out", tmp_path / "one.jsonl")
    two = summary("kovrik", "--deals", "1-240", "--jobs", "2", "--out", tmp_path / "two.jsonl")
    assert one == two
    assert one["game"] == "kovrik" and one["player"] == "simple" and one["deals"] == 240
    assert one["won"] + one["lost"] == 240 and one["unknown"] == one["unwinnable"] == 0
    assert 0 < one["rate"] < 1 and one["interval"][0] < one["rate"] < one["interval"][1]
    a, b = lines(tmp_path / "one.jsonl"), lines(tmp_path / "two.jsonl")
    assert sorted(x["deal"] for x in a) == list(range(1, 241))
    strip = lambda rows: sorted((r["deal"], r["result"], r["moves"], r["score"], r["actions"]) for r in rows)
    assert strip(a) == strip(b)
    won = [r for r in a if r["result"] == "won"]
    assert one["won"] == len(won) and one["moves"]["min"] == min(r["moves"] for r in won)


def test_each_line_names_its_survey(tmp_path):
    out = tmp_path / "r.jsonl"
    survey("carpet", "--deals", "7-9", "--player", "hint", "--jobs", "1", "--out", out)
    first = out.read_bytes().splitlines()[0]
    assert first.startswith(LINE_START)
    row = json.loads(first)
    assert set(row) == {"deal", "result", "moves", "score", "actions", "nodes", "seconds", "game", "player",
                        "budget"}
    assert (row["deal"], row["game"], row["player"], row["budget"], row["nodes"]) == (7, "carpet", "hint", None, 0)
    assert row["seconds"] >= 0 and row["actions"] > 0


def test_two_jobs_play_on_other_processes(test_players, tmp_path):
    out = tmp_path / "w.jsonl"
    survey("carpet", "--deals", "1-40", "--player", "whose", "--jobs", "2", "--chunk", "1", "--out", out)
    pids = {r["actions"] for r in lines(out)}
    assert os.getpid() not in pids and 1 <= len(pids) <= 2
    survey("carpet", "--deals", "1-3", "--player", "whose", "--jobs", "1", "--out", tmp_path / "here.jsonl")
    assert {r["actions"] for r in lines(tmp_path / "here.jsonl")} == {os.getpid()}


def test_a_test_player_with_unknown_deals(test_players, tmp_path):
    d = summary("carpet", "--deals", "1-100", "--player", "parity", "--jobs", "2")
    # even: won (50); odd multiples of 5: unknown (10); other odd: lost (40)
    assert (d["won"], d["unknown"], d["lost"], d["unwinnable"]) == (50, 10, 40, 0)
    assert d["rate"] == 0.5
    assert d["interval"] == [round(wilson(50, 100)[0], 6), round(wilson(60, 100)[1], 6)]
    assert d["moves"]["min"] == 1 and d["moves"]["max"] == 9  # n % 10 + 1 over even n
    assert d == summary("carpet", "--deals", "1-100", "--player", "parity", "--jobs", "1")
    table = survey("carpet", "--deals", "1-100", "--player", "parity", "--jobs", "1").stdout
    assert "unknown" in table and "counted lost for the low bound" in table


def test_resume_plays_only_the_missing_deals(test_players, tmp_path):
    out = tmp_path / "r.jsonl"
    survey("carpet", "--deals", "1-30", "--player", "parity", "--out", out)
    survey("carpet", "--deals", "1-60", "--player", "parity", "--out", out, "--resume")
    deals = [r["deal"] for r in lines(out)]
    assert sorted(deals) == list(range(1, 61))  # each once
    assert summary("--summary", out) == summary("carpet", "--deals", "1-60", "--player", "parity")
    # a resumed run's summary is of its own range only
    assert summary("carpet", "--deals", "11-20", "--player", "parity", "--out", out, "--resume")["deals"] == 10
    assert len(lines(out)) == 60


def test_a_torn_last_line_is_dropped_and_repaired_on_resume(test_players, tmp_path):
    out = tmp_path / "r.jsonl"
    survey("carpet", "--deals", "1-20", "--player", "parity", "--out", out)
    whole = out.read_bytes()
    last = whole.splitlines(keepends=True)[-1]
    out.write_bytes(whole[:-len(last)] + last[:25])  # killed mid-write: half a line, no newline
    assert summary("--summary", out)["deals"] == 19  # the torn line is ignored
    r = run("survey", "carpet", "--deals", "1-20", "--player", "parity", "--out", out, "--resume", "--json")
    assert r.exit_code == 0 and "torn" in r.stderr
    assert out.read_bytes().endswith(b"\n") and len(lines(out)) == 20  # repaired: every line whole
    assert doc(r) == summary("carpet", "--deals", "1-20", "--player", "parity")


def test_a_whole_last_line_without_its_newline_is_kept(test_players, tmp_path):
    out = tmp_path / "r.jsonl"
    survey("carpet", "--deals", "1-5", "--player", "parity", "--out", out)
    out.write_bytes(out.read_bytes().rstrip(b"\n"))
    survey("carpet", "--deals", "1-8", "--player", "parity", "--out", out, "--resume")
    assert sorted(r["deal"] for r in lines(out)) == list(range(1, 9))


def test_a_resumed_run_after_kill_9_gives_the_same_summary(tmp_path):
    out = tmp_path / "killed.jsonl"
    deals = "1-1200"
    command = [sys.executable, "-m", "carpet.cli", "survey", "kovrik", "--deals", deals, "--jobs", "2",
               "--chunk", "10", "--out", str(out)]
    proc = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, start_new_session=True)
    try:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and proc.poll() is None:
            if out.exists() and out.read_bytes().count(b"\n") >= 150:
                break
            time.sleep(0.01)
        assert proc.poll() is None, "the survey ended before it could be killed"
        os.kill(proc.pid, signal.SIGKILL)  # the survey alone: its workers see it gone and stop
        assert proc.wait(timeout=10) == -signal.SIGKILL
        deadline = time.monotonic() + 15
        while time.monotonic() < deadline:
            try:
                os.killpg(proc.pid, 0)
            except ProcessLookupError:
                break
            time.sleep(0.05)
        else:
            pytest.fail("the killed survey's worker processes are still running")
    finally:
        try:
            os.killpg(proc.pid, signal.SIGKILL)  # its workers and fork server, orphaned
        except ProcessLookupError:
            pass
    kept = out.read_bytes().count(b"\n")
    assert 150 <= kept < 1200
    resumed = doc(run("survey", "kovrik", "--deals", deals, "--jobs", "2", "--out", out, "--resume", "--json"))
    whole = summary("kovrik", "--deals", deals, "--jobs", "2")
    assert resumed == whole and resumed["deals"] == 1200
    assert sorted(r["deal"] for r in lines(out)) == list(range(1, 1201))


# --- summaries of files ----------------------------------------------------------------------
def test_summary_of_concatenated_files(test_players, tmp_path):
    a, b, c = tmp_path / "a.jsonl", tmp_path / "b.jsonl", tmp_path / "c.jsonl"
    survey("carpet", "--deals", "1-50", "--player", "parity", "--jobs", "1", "--out", a)
    survey("carpet", "--deals", "41-90", "--player", "parity", "--out", b)  # overlaps a
    whole = summary("carpet", "--deals", "1-90", "--player", "parity")
    assert summary("--summary", a, b) == whole
    r = run("survey", "--summary", a, b)
    assert "10 deals found more than once" in r.stderr
    assert "carpet, player parity" in r.stdout and "deals 1–90" in r.stdout
    # one machine's file cut short by a kill (its last line, deal 50, torn), then another's
    # concatenated after it: the torn line is skipped and the line glued to it recovered
    survey("carpet", "--deals", "51-90", "--player", "parity", "--jobs", "1", "--out", c)
    both = tmp_path / "both.jsonl"
    both.write_bytes(a.read_bytes()[:-30] + c.read_bytes())
    r = run("survey", "--summary", both, "--json")
    assert r.exit_code == 0 and "skipped 1 torn line" in r.stderr
    d = doc(r)
    assert (d["deals"], d["won"], d["first"], d["last"]) == (89, 44, 1, 90)  # all but deal 50
    assert summary("--summary", both, a) == whole


def test_summary_refuses_files_of_another_survey(test_players, tmp_path):
    a, b = tmp_path / "a.jsonl", tmp_path / "b.jsonl"
    survey("carpet", "--deals", "1-5", "--player", "parity", "--out", a)
    survey("kovrik", "--deals", "1-5", "--player", "parity", "--out", b)
    r = run("survey", "--summary", a, b)
    assert r.exit_code == 2 and r.stderr.count("\n") == 1 and "kovrik" in r.stderr and str(b) in r.stderr
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"deal": 1, "result": "maybe"}\n')
    r = run("survey", "--summary", bad)
    assert r.exit_code == 2 and r.stderr.count("\n") == 1 and "line 1" in r.stderr
    notes = tmp_path / "notes.txt"
    notes.write_text("hello\n")
    assert run("survey", "--summary", notes).exit_code == 2
    empty = tmp_path / "empty.jsonl"
    empty.write_text("")
    r = run("survey", "--summary", empty)
    assert r.exit_code == 2 and "no results" in r.stderr
    r = run("survey", "--summary", tmp_path / "missing.jsonl")
    assert r.exit_code == 2 and "no such file" in r.stderr
    # the same deal with two different results: not the same engine
    row = DealResult(3, "won", 1, 1, 1, 0, 0.0, "carpet", "parity")
    other = DealResult(3, "lost", 1, 1, 1, 0, 0.0, "carpet", "parity")
    clash = tmp_path / "clash.jsonl"
    clash.write_bytes(encode_line(row) + encode_line(other))
    r = run("survey", "--summary", clash)
    assert r.exit_code == 2 and "deal 3" in r.stderr


def test_read_results_tells_torn_lines_from_foreign_ones(tmp_path):
    path = tmp_path / "r.jsonl"
    good = encode_line(DealResult(1, "won", 1, 1, 1, 0, 0.0, "carpet", "simple"))
    for torn in (good[:3], good[:20], good[:-2]):
        path.write_bytes(good + torn)
        assert len(list(read_results(path))) == 1
    path.write_bytes(good + b"garbage")
    with pytest.raises(Exception, match="line 2"):
        list(read_results(path))


def test_a_results_file_of_another_survey_is_refused(test_players, tmp_path):
    out = tmp_path / "r.jsonl"
    survey("carpet", "--deals", "1-5", "--player", "parity", "--out", out)
    before = out.read_bytes()
    for args in (("kovrik", "--player", "parity"), ("carpet", "--player", "simple")):
        r = run("survey", args[0], "--deals", "1-10", *args[1:], "--out", out, "--resume")
        assert r.exit_code == 2 and r.stderr.count("\n") == 1 and "parity" in r.stderr, r.stderr
    assert out.read_bytes() == before  # nothing appended to another survey's file


# --- bad input ---------------------------------------------------------------------------------
@pytest.mark.parametrize("args, says", [
    (("carpet", "--deals", "5-1"), "empty"),
    (("carpet", "--deals", "-"), "range"),
    (("carpet", "--deals", "x-3"), "range"),
    (("carpet", "--deals", "0-3"), "start at 1"),
    (("carpet", "--deals", "1-3", "--player", "random"), "unknown player"),
    (("carpet", "--deals", "1-3", "--jobs", "0"), "--jobs"),
    (("nosuch", "--deals", "1-3"), "unknown game"),
    (("carpet",), "--deals"),
    (("carpet", "--deals", "1-3", "--nodes", "100"), "--nodes"),
    (("carpet", "--deals", "1-3", "--resume"), "--out"),
    (("carpet", "--deals", "1-3", "--dask", "tcp://127.0.0.1:9", "--jobs", "2"), "--jobs"),
    (("--summary",), "results files"),
    (("--summary", "x.jsonl", "--deals", "1-3"), "--deals"),
])
def test_bad_input_is_one_line_and_exit_2(args, says):
    r = run("survey", *args)
    assert r.exit_code == 2, r.stderr
    assert r.stderr.count("\n") == 1 and says in r.stderr and "Traceback" not in r.stderr


def test_an_existing_results_file_needs_resume(tmp_path):
    out = tmp_path / "r.jsonl"
    survey("carpet", "--deals", "1-3", "--jobs", "1", "--out", out)
    r = run("survey", "carpet", "--deals", "1-3", "--out", out)
    assert r.exit_code == 2 and "--resume" in r.stderr and len(lines(out)) == 3


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="needs /dev/full (Linux) for a full disk")
def test_a_full_disk_is_one_line():
    r = run("survey", "carpet", "--deals", "1-5", "--jobs", "1", "--out", "/dev/full")
    # (a device is no results file: refused before a write, under the log's file rules since issue 21)
    assert r.exit_code == 2 and r.stderr.count("\n") == 1 and "a character device" in r.stderr, r.stderr


def test_a_dask_address_that_does_not_answer(tmp_path):
    needs_distributed()
    import socket

    with socket.socket() as s:  # a port nobody listens on
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    started = time.monotonic()
    r = run("survey", "carpet", "--deals", "1-3", "--dask", f"tcp://127.0.0.1:{port}", "--dask-timeout", "1",
            "--out", tmp_path / "r.jsonl")
    assert r.exit_code == 2 and r.stderr.count("\n") == 1 and "no Dask scheduler answers" in r.stderr
    assert time.monotonic() - started < 15
    assert not (tmp_path / "r.jsonl").exists()  # nothing started


def test_a_dask_cluster_gives_the_same_summary_as_a_local_run(test_players, tmp_path):
    distributed = needs_distributed()
    local = summary("kovrik", "--deals", "1-300", "--jobs", "2")
    out = tmp_path / "d.jsonl"
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as c:
        remote = summary("kovrik", "--deals", "1-300", "--dask", c.scheduler_address, "--out", out)
        whose = tmp_path / "w.jsonl"
        survey("carpet", "--deals", "1-20", "--player", "whose", "--chunk", "1", "--dask", c.scheduler_address,
               "--out", whose)
        # a task that fails on the cluster (here: a player the workers cannot import)
        PLAYERS["missing"] = Player("missing", "no_such_module:play", "test")
        try:
            r = run("survey", "carpet", "--deals", "1-3", "--player", "missing", "--dask", c.scheduler_address)
        finally:
            del PLAYERS["missing"]
    assert r.exit_code == 2 and r.stderr.count("\n") == 1 and "failed on the cluster" in r.stderr, r.stderr
    assert remote == local
    assert sorted(r["deal"] for r in lines(out)) == list(range(1, 301))
    pids = {r["actions"] for r in lines(whose)}
    assert os.getpid() not in pids and 1 <= len(pids) <= 2  # the cluster's worker processes played


# --- what people see ---------------------------------------------------------------------------
def test_no_progress_when_stderr_is_not_a_terminal():
    r = survey("carpet", "--deals", "1-50", "--jobs", "1", "--json")
    assert r.stderr == "" and json.loads(r.stdout)["deals"] == 50


def test_a_progress_bar_on_a_terminal_and_nothing_of_it_on_stdout():
    controller, terminal = pty.openpty()
    proc = subprocess.Popen([sys.executable, "-m", "carpet.cli", "survey", "kovrik", "--deals", "1-600",
                             "--jobs", "1", "--chunk", "10", "--json"],
                            stdout=subprocess.PIPE, stderr=terminal, stdin=subprocess.DEVNULL,
                            env={**os.environ, "COLUMNS": "160", "TERM": "xterm"})
    os.close(terminal)
    seen = b""
    while True:
        ready, _, _ = select.select([controller], [], [], 30)
        if not ready:
            break
        try:
            chunk = os.read(controller, 65536)
        except OSError:  # the terminal closed
            break
        if not chunk:
            break
        seen += chunk
    stdout = proc.stdout.read()
    assert proc.wait(timeout=30) == 0
    os.close(controller)
    assert json.loads(stdout)["deals"] == 600  # stdout: the JSON alone
    text = seen.decode(errors="replace")
    assert "deals/s" in text and "won" in text and "/600" in text


def test_the_table_for_people(tmp_path):
    out = survey("carpet", "--deals", "1-200", "--jobs", "1").stdout
    assert "carpet, player simple: deals 1–200" in out
    assert "won" in out and "lost" in out and "95 % interval" in out
    assert "counted moves over won deals: mean" in out
    assert "unknown" not in out  # nothing the simple player can give


def test_the_html_report_is_self_contained(test_players, tmp_path):
    page = tmp_path / "report.html"
    d = summary("carpet", "--deals", "1-100", "--player", "parity", "--html", page)
    html = page.read_text()
    assert html.startswith("<!DOCTYPE html>") and html.count("<svg") == 3
    assert "http://" not in html.replace('xmlns="http://www.w3.org/2000/svg"', "") and "https://" not in html
    assert "<script" not in html and "50.00 %" in html
    # a bar per value: moves 1..9 and scores 0..6 over the won (even) deals
    assert html.count('class="bar"') == 9 + 7
    assert 'class="interval"' in html and 'class="rate"' in html
    assert "counted lost for the low bound" in html  # the unknown deals
    assert d["won"] == 50
    # from results files too
    out = tmp_path / "r.jsonl"
    survey("carpet", "--deals", "1-300", "--jobs", "1", "--out", out)
    survey("--summary", out, "--html", page, "--force")  # (an existing page is replaced only with --force)
    assert "carpet, player simple" in page.read_text()


def test_autoplay_deals_is_survey_with_the_simple_player():
    assert summary("carpet", "--deals", "1-60", "--player", "simple") == \
        doc(run("autoplay", "carpet", "--deals", "1-60", "--json"))
    r = run("autoplay", "carpet", "--deals", "1-6", "--limit", "10")
    assert r.exit_code == 2 and r.stderr.count("\n") == 1


def test_ci_installs_the_dask_extra():
    ci = (ROOT / ".ci" / "run").read_text()
    assert "[dask]" in ci or ",dask]" in ci


def test_two_surveys_never_append_to_one_file(tmp_path):
    from carpet.formats.survey import ResultsWriter

    out = tmp_path / "r.jsonl"
    with ResultsWriter(out):  # a survey writing to it
        r = run("survey", "carpet", "--deals", "1-5", "--out", out, "--resume")
        assert r.exit_code == 2 and "another survey is writing to it" in r.stderr
    assert run("survey", "carpet", "--deals", "1-5", "--out", out, "--resume").exit_code == 0
