"""`carpet solve` and the solver-backed `carpet hint` at the command line."""

from __future__ import annotations

import json
import os
import subprocess
import sys

from freezegun import freeze_time
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from carpet.core import Session, get_game, parse_deal
from carpet.core.game import PLAYING
from carpet.core.hint import hint_action

from clitools import doc, run
from conftest import positions_reached

#: the keys of docs/schemas/solve.schema.json
SOLVE_KEYS = {"game", "deal", "result", "line", "moves", "score", "nodes", "seconds", "information",
              "best", "best_score", "file", "events", "output", "memory_full", "position"}


def test_solve_json_schema():
    d = doc(run("solve", "carpet", "1", "--json"))
    assert set(d) == SOLVE_KEYS
    assert d["position"] == run("deal", "carpet", "1", "--position").stdout.strip()  # the position solved
    assert (d["game"], d["deal"], d["result"], d["information"], d["best"]) == ("carpet", "ms1", "won", "full", None)
    assert isinstance(d["line"], list) and all(isinstance(a, str) for a in d["line"]) and d["line"]
    assert d["moves"] == len(d["line"]) and d["score"] == 48
    assert isinstance(d["nodes"], int) and isinstance(d["seconds"], float)
    assert (d["file"], d["events"], d["output"]) == (None, 0, None)
    lost = doc(run("solve", "carpet", "36", "--json"))
    assert (lost["result"], lost["line"], lost["moves"], lost["score"]) == ("unwinnable", [], 0, 0)
    unknown = doc(run("solve", "crazy-quilt", "1", "--nodes", "500", "--json"))
    assert unknown["result"] == "unknown" and unknown["line"] == []
    assert doc(run("solve", "kovrik", "1", "--json"))["information"] == "open"
    best = doc(run("solve", "carpet", "1", "--best", "--json"))
    assert best["best"] is True and best["result"] == "won"


def test_every_answer_exits_0_and_says_what_it_found():
    for args, word in ((("carpet", "1"), "won:"), (("carpet", "36"), "unwinnable:"),
                       (("crazy-quilt", "1", "--nodes", "500"), "unknown:")):
        r = run("solve", *args)
        assert r.exit_code == 0 and r.stdout.startswith(word)
    assert "full information" in run("solve", "carpet", "36").stdout
    assert "open information" in run("solve", "kovrik-hard", "1").stdout


def test_the_line_is_canonical_and_plays_back(tmp_path):
    d = doc(run("solve", "kovrik-hard", "2", "--json"))
    variant = get_game("kovrik-hard")
    session = Session(variant, parse_deal("2"))
    for i, text in enumerate(d["line"]):
        session.act(variant.parse_canonical(text), i)
    assert session.status == "won" and (session.moves, session.score) == (d["moves"], d["score"])


def test_output_writes_a_game_that_verifies(tmp_path):
    out = tmp_path / "won.log"
    d = doc(run("solve", "kovrik", "7", "-o", out, "--json"))
    assert d["output"] == str(out) and d["result"] == "won"
    verified = doc(run("verify", out, "--json"))["results"][0]
    assert verified["ok"] and verified["status"] == "won" and verified["score"] == d["score"]
    assert verified["events"] == len(d["line"])
    assert run("solve", "kovrik", "7", "-o", out).exit_code == 2  # never over a file without --force
    assert run("solve", "kovrik", "7", "-o", out, "--force").exit_code == 0
    nothing = run("solve", "carpet", "36", "-o", tmp_path / "none.log")
    assert nothing.exit_code == 0 and not (tmp_path / "none.log").exists()


def test_solving_a_recorded_game_continues_it(tmp_path):
    game = tmp_path / "g.json"
    with freeze_time("2026-11-29 10:00:00"):
        assert run("new", "carpet", "4", "-o", game).exit_code == 0
    with freeze_time("2026-11-29 10:00:05"):
        assert run("play", game, "turn", "hint", "turn", "-q").exit_code == 0
    out = tmp_path / "solved.json"
    d = doc(run("solve", game, "-o", out, "--json"))
    assert d["file"] == str(game) and d["events"] == 3 and d["result"] == "won"
    assert d["moves"] == 2 + len(d["line"])
    verified = doc(run("verify", out, "--json"))["results"][0]
    assert verified["ok"] and verified["events"] == 3 + len(d["line"]) and verified["status"] == "won"
    kept = json.loads(out.read_text())
    # the same game, played on; its tool says the solver played (carpet stats sets it apart)
    assert kept["header"] == {**json.loads(game.read_text())["header"], "tool": "carpet 0.1.0 (solver)"}
    assert [e[0] for e in kept["events"][:3]] == ["turn", "hint", "turn"]


def test_bad_usage_is_one_line_and_exit_2(tmp_path):
    for args in (("kovrik",), ("nogame", "1"), ("kovrik", "0"), ("kovrik", "1", "--nodes", "0"),
                 (tmp_path / "missing.log",), ("kovrik", "1", "--time", "-1")):
        r = run("solve", *args)
        assert r.exit_code == 2, args
        assert "Traceback" not in r.output and len(r.stderr.strip().splitlines()) == 1, args


def test_time_limit_gives_up():
    r = doc(run("solve", "crazy-quilt", "1", "--time", "0", "--json"))
    assert r["result"] == "unknown" and r["nodes"] < 5000  # it asks every 1024 nodes or so


def test_same_answer_whatever_the_hash_seed():
    code = ("import sys; from carpet.cli.app import app\n"
            "app(['solve', sys.argv[1], sys.argv[2], '--nodes', '20000', '--json'])\n")
    outputs = set()
    for seed in ("0", "4242"):
        env = dict(os.environ, PYTHONHASHSEED=seed)
        for game, number in (("crazy-quilt", "2"), ("kovrik", "3"), ("persian-carpet", "4")):
            done = subprocess.run([sys.executable, "-c", code, game, number], env=env,
                                  capture_output=True, text=True, check=False)
            d = json.loads(done.stdout)
            outputs.add((seed, game, d["result"], tuple(d["line"]), d["nodes"]))
    assert len({o[1:] for o in outputs}) == 3  # each game: one answer for both seeds


def test_hint_names_the_solvers_action(tmp_path):
    game = tmp_path / "g.log"
    with freeze_time("2026-11-29 10:00:00"):
        assert run("new", "kovrik-hard", "2", "-o", game).exit_code == 0
    named = doc(run("hint", game, "--json"))["hint"]
    expected = hint_action(Session(get_game("kovrik-hard"), parse_deal("2")))
    assert named == get_game("kovrik-hard").text(expected)


quick = settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@quick
@given(game=st.sampled_from(["kovrik", "kovrik-hard", "carpet", "carpet-auto", "persian-carpet"]),
       number=st.integers(1, 31999), walk=st.integers(0, 60), seed=st.integers(0, 2**16))
@example(game="kovrik", number=1478, walk=56, seed=248)  # ends where every action brings a position back
def test_following_the_hint_from_any_position_never_comes_back(game, number, walk, seed):
    """From a random position, every hinted action leads to a position not reached before in
    the attempt while there is such an action, so following the hint always ends (a follower
    stops where every action brings a position back)."""
    session = Session(get_game(game), parse_deal(str(number)))
    rng = __import__("random").Random(seed)
    for _ in range(walk):
        actions = session.legal_actions()
        if session.status != PLAYING or not actions:
            break
        session.act(rng.choice(actions), 0)
    state, key, reached = positions_reached(session)
    for _ in range(25):
        if session.status != PLAYING:
            break
        legal = session.legal_actions()
        fresh = []
        for candidate in legal:
            state.restore(session.state.snapshot())
            state.apply(candidate)
            if key() not in reached:
                fresh.append(candidate)
        action = hint_action(session, nodes=1500)
        assert action in legal
        if not fresh:
            break  # every action brings a position back: nothing to name that keeps the claim
        assert action in fresh
        session.act(action, 0)
        state.restore(session.state.snapshot())
        reached.add(key())


def test_bench_solve_reports_answers_and_speed():
    d = json.loads(run("bench", "--solve", "carpet,kovrik", "--deals", "35-36", "--json").stdout)
    rows = {row["game"]: row for row in d["solve"]}
    assert (rows["carpet"]["won"], rows["carpet"]["unwinnable"]) == (1, 1)
    assert rows["kovrik"]["decided"] == 2 and set(d["nodes_per_second_by_family"]) == {"carpet", "grid"}
    assert run("bench", "--solve", "all", "--deals", "x").exit_code == 2


def test_best_says_what_was_proven():
    # kovrik-shuffle 14: the score meets the game's bound, the fewest moves are not proven in 20,000 nodes
    text = run("solve", "kovrik-shuffle", "14", "--best", "--nodes", "20000")
    assert text.exit_code == 0
    assert "129 moves, score 520, the highest score (proven); the fewest moves for it best found within the " \
           "budget, not proven" in text.stdout
    d = doc(run("solve", "kovrik-shuffle", "14", "--best", "--nodes", "20000", "--json"))
    assert (d["moves"], d["score"], d["best"], d["best_score"]) == (129, 520, False, True)
    first = doc(run("solve", "kovrik-shuffle", "14", "--nodes", "20000", "--json"))
    assert first["moves"] > d["moves"] and (first["best"], first["best_score"]) == (None, None)
    proven = run("solve", "carpet", "1", "--best")
    assert "proven best (no win scores more, or as much in fewer moves)" in proven.stdout


# --- many deals in one process: solve GAME A-B ---------------------------------------------
def test_a_range_answers_each_deal_as_its_own_run_does():
    """One document a line, in order, each the one ``solve GAME N --json`` prints (the time apart):
    nothing one search leaves behind changes the next."""
    for game, deals, nodes in (("carpet", (3, 4, 5, 6), "3000"), ("kovrik", (1, 2, 3), "2000"),
                               ("crazy-quilt", (2, 3), "1500")):
        result = run("solve", game, f"{deals[0]}-{deals[-1]}", "--nodes", nodes, "--json")
        assert result.exit_code == 0, result.output
        lines = [json.loads(line) for line in result.stdout.splitlines()]
        alone = [doc(run("solve", game, str(n), "--nodes", nodes, "--json")) for n in deals]
        for d in lines + alone:
            assert set(d) == SOLVE_KEYS
            d.pop("seconds")
        assert lines == alone
        assert [d["deal"] for d in lines] == [f"ms{n}" for n in deals]
    assert {d["result"] for d in lines} <= {"won", "unwinnable", "unknown"}


def test_a_range_in_text_is_a_line_a_deal():
    text = run("solve", "carpet", "35-37", "--nodes", "2000").stdout.splitlines()
    assert [line.split(":")[0] for line in text] == [doc(run("solve", "carpet", str(n), "--nodes", "2000", "--json"))
                                                    ["result"] for n in (35, 36, 37)]
    assert [f"carpet ms{n} " in line for n, line in zip((35, 36, 37), text)] == [True] * 3


def test_a_range_that_is_not_one_is_one_line_and_exit_2():
    from clitools import one_line

    assert "first deal comes after the last" in one_line(run("solve", "carpet", "5-3"), 2)
    assert "a range of deal numbers" in one_line(run("solve", "carpet", "1-x"), 2)
    assert "writes no file" in one_line(run("solve", "carpet", "1-3", "-o", "x.carpet"), 2)
    assert "not a range" in one_line(run("solve", "carpet", "1-3", "--seen"), 2)
    assert "unknown game" in one_line(run("solve", "nope", "1-3"), 2)


def test_solve_plan_prints_the_games_plan_one_stage_a_line():
    from carpet.core.solver import plan_of

    result = run("solve", "--plan", "crazy-quilt")
    assert result.exit_code == 0
    lines = result.stdout.splitlines()
    plan = plan_of(get_game("crazy-quilt").new_state(parse_deal("1")))
    assert lines == ["crazy-quilt:", *plan.describe()]
    assert sum(line[0].isdigit() for line in lines) == len(plan.stages) == 12
    assert "beam of 100" in lines[4] and all("beam of 333" in line for line in lines[7:10])
    spaces = run("solve", "--plan", "spaces-and-aces").stdout.splitlines()  # (a glance, a brief search, descents)
    assert "- glance" in spaces[2] and "- brief: rounds, 1/16" in spaces[3]
    assert "- descents by progress measure(s) 0, 1" in spaces[4]
    bad = run("solve", "--plan", "no-such-game")
    assert bad.exit_code == 2 and "--plan takes a game id" in bad.stderr
    # docs/solver.md shows the plan as the command prints it (its "..." standing for lines left out)
    from conftest import ROOT

    doc = (ROOT / "docs" / "solver.md").read_text(encoding="utf-8")
    shown = doc.split("    $ carpet solve --plan crazy-quilt\n", 1)[1].split("\n\n", 1)[0].splitlines()
    shown = [line[4:] for line in shown]
    assert "..." in shown and len(shown) > 8
    cut = shown.index("...")
    assert shown[:cut] == lines[:cut] and shown[cut + 1:] == lines[len(lines) - len(shown) + cut + 1:]
