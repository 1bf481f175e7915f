"""``carpet stats``: a player's record over a folder of real recorded games, every file verified first."""

from __future__ import annotations

import csv
import json
import os
import shutil
from collections import Counter
from pathlib import Path

import msgspec
from hypothesis import given, strategies as st

from carpet.core import Session
from carpet.core.stats import Played, Record, records
from carpet.core.survey import undecided_interval, wilson
from carpet.formats import new_header, read_log, record, to_bytes
from carpet.formats.stats import StatsDocument

from clitools import doc, run
from conftest import ROOT
from stats_speed import make_history, play

FIXTURES = ROOT / "fixtures"
#: what each fixture holds, as fixtures/make.py wrote it: the oracle the record is checked against
MANIFEST = {row["file"]: row for row in csv.DictReader((FIXTURES / "manifest.tsv").open(encoding="utf-8"),
                                                       delimiter="\t")}
#: won, lost and still-playing games of three games, in every form: binary versions 1 and 2, JSON, text
CHOSEN = ["kovrik-won.log", "kovrik-won.carpet", "kovrik-redeal-undo.carpet", "kovrik-hard-lost.log",
          "kovrik-hard-won.carpet", "montana-redeals.carpet.txt", "montana-won.log", "persian-carpet-reserves.json",
          "persian-carpet-won.carpet", "persian-carpet-lost.log"]


def folder_of_games(tmp_path: Path) -> Path:
    """The chosen fixtures copied into sub-folders, a JSON copy of a won game whose score was
    raised by hand, and files that are not games."""
    games = tmp_path / "games"
    for i, name in enumerate(CHOSEN):
        where = games / ("2025" if i % 2 else "2026/winter")
        where.mkdir(parents=True, exist_ok=True)
        shutil.copy(FIXTURES / name, where / name)
    cheat = json.loads(to_bytes(read_log(FIXTURES / "kovrik-hard-won.carpet"), form="json"))
    cheat["summary"]["score"] += 1000
    (games / "kovrik-hard-best.carpet.json").write_text(json.dumps(cheat), encoding="utf-8")
    (games / "notes.json").write_text('{"not": "a game"}', encoding="utf-8")
    (games / "build.log").write_text("nothing to see\n", encoding="utf-8")
    (games / "readme.txt").write_text("a text file\n", encoding="utf-8")
    return games


def by_game(document: dict) -> dict:
    return {entry["game"]: entry for entry in document["games"]}


def test_the_record_over_a_folder_counts_what_the_games_say_and_leaves_the_tampered_one_out(tmp_path):
    games = folder_of_games(tmp_path)
    result = run("stats", games, "--json")
    assert result.exit_code == 1, result.stderr
    # the tampered file named on stderr in one line, not counted
    failing = [line for line in result.stderr.splitlines() if line.startswith("FAIL")]
    assert len(failing) == 1 and "kovrik-hard-best.carpet.json" in failing[0] and "Traceback" not in result.stderr
    d = doc(result)
    msgspec.json.decode(json.dumps(d), type=StatsDocument)  # the document its schema describes
    assert [f["file"] for f in d["failed"]] == [str(games / "kovrik-hard-best.carpet.json")]
    assert d["failed"][0]["unreadable"] is False
    # kovrik-won.log and kovrik-won.carpet are one game in two forms: counted once
    assert (d["files"], d["counted"], d["copies"]) == (len(CHOSEN) + 1, len(CHOSEN) - 1, 1)
    record = by_game(d)
    assert list(record) == ["kovrik", "kovrik-hard", "montana", "persian-carpet"]
    for game, entry in record.items():
        rows = [row for name, row in MANIFEST.items() if name in CHOSEN and row["game"] == game
                and name != "kovrik-won.log"]
        statuses = Counter(row["status"] for row in rows)
        assert (entry["games"], entry["won"], entry["lost"], entry["playing"]) == (
            len(rows), statuses["won"], statuses["lost"], statuses["playing"])
        assert entry["rate"] == round(statuses["won"] / len(rows), 6)
        low, high = undecided_interval(statuses["won"], statuses["playing"], len(rows))
        assert entry["interval"] == [round(low, 6), round(high, 6)] and entry["confidence"] == 0.95
        top = max(rows, key=lambda row: int(row["score"]))
        assert entry["best_score"]["value"] == int(top["score"])
        won = [row for row in rows if row["status"] == "won"]
        fewest = min(won, key=lambda row: int(row["moves"]))
        assert entry["fewest_moves"] == {"value": int(fewest["moves"]),
                                         "file": str(next(games.rglob(fewest["file"]))), "attempt": 1}
        assert entry["moves"]["min"] == int(fewest["moves"])
        assert entry["fastest_ms"]["value"] == min(read_log(FIXTURES / row["file"]).summary.elapsed_ms
                                                   for row in won)
    # the cheat's claimed score is nowhere
    assert record["kovrik-hard"]["best_score"] == {"value": 1400, "attempt": 1,
                                                   "file": str(next(games.rglob("kovrik-hard-won.carpet")))}
    # persian-carpet: won, lost, playing; the game still playing counted both ways in the interval
    assert record["persian-carpet"]["interval"][0] == round(wilson(1, 3)[0], 6)
    assert record["persian-carpet"]["interval"][1] == round(wilson(2, 3)[1], 6)


def test_the_table_says_the_same_for_people(tmp_path):
    games = folder_of_games(tmp_path)
    (games / "kovrik-hard-best.carpet.json").unlink()
    result = run("stats", games)
    assert result.exit_code == 0, result.stderr
    out = result.stdout
    assert "kovrik-hard: 2 games" in out and "win rate 50.00 %, 95 % interval 9.45–90.55 % (Wilson)" in out
    assert f"best score: 1400 ({next(games.rglob('kovrik-hard-won.carpet'))})" in out
    assert "fewest moves in a win: 118" in out  # persian-carpet-won
    assert "(games still playing counted lost for the low bound, won for the high)" in out
    assert "winning streak: current" in out
    assert "10 recorded games found, 9 counted, 1 copy of a game counted once" in result.stderr


def test_game_filters_and_named_files_count_whatever_their_names(tmp_path):
    games = folder_of_games(tmp_path)
    only = doc(run("stats", games, "--game", "MONTANA", "--json"))
    assert [entry["game"] for entry in only["games"]] == ["montana"]
    assert only["games"][0]["won"] == 1 and only["games"][0]["lost"] == 1
    # a file named on the command line is read whatever its name; named twice, or inside a folder named, once
    renamed = tmp_path / "saved-game.bin"
    shutil.copy(FIXTURES / "kovrik-shuffle-won.carpet", renamed)
    d = doc(run("stats", renamed, renamed, tmp_path, "--game", "kovrik-shuffle", "--json"))
    assert d["games"][0]["games"] == 1 and d["games"][0]["best_score"]["file"] == str(renamed)


def test_a_version_2_binary_log_named_log_is_found_in_a_folder(tmp_path):
    shutil.copy(FIXTURES / "station-won.carpet", tmp_path / "history.log")
    d = doc(run("stats", tmp_path, "--json"))
    assert d["counted"] == 1 and d["games"][0]["game"] == "station"


def test_bad_input_is_one_line_and_an_unreadable_file_wins_over_a_failed_one(tmp_path):
    games = folder_of_games(tmp_path)
    (games / "empty.carpet").write_bytes(b"")
    os.mkfifo(games / "pipe.log")  # refused before it is opened: it never hangs the command
    result = run("stats", games, "--json")
    assert result.exit_code == 2, result.stderr
    d = doc(result)
    assert {Path(f["file"]).name: f["unreadable"] for f in d["failed"]} == {
        "empty.carpet": True, "pipe.log": True, "kovrik-hard-best.carpet.json": False}
    assert (d["files"], d["counted"]) == (len(CHOSEN) + 3, len(CHOSEN) - 1)
    missing = run("stats", tmp_path / "nowhere")
    assert missing.exit_code == 2 and missing.stderr.count("\n") == 2  # the file, then the closing note
    assert "nowhere: no such file" in missing.stderr and "Traceback" not in missing.stderr
    unknown = run("stats", games, "--game", "chess")
    assert unknown.exit_code == 2 and unknown.stderr.count("\n") == 1 and "chess" in unknown.stderr
    assert run("stats").exit_code == 2
    nothing = run("stats", tmp_path / "games" / "2025", "--game", "carpet")
    assert nothing.exit_code == 0 and "no games counted" in nothing.stdout


def test_a_file_name_with_control_characters_is_named_escaped_on_one_line(tmp_path):
    bad = tmp_path / "odd\nname\x1b[31m.carpet"
    bad.write_bytes(b"\x00garbage")
    result = run("stats", tmp_path)
    assert result.exit_code == 2
    lines = result.stderr.splitlines()
    assert len(lines) == 2 and "\x1b" not in result.stderr and "odd" in lines[0] and "name" in lines[0]


def test_streaks_follow_the_creation_time_and_games_in_play_do_not_break_them(tmp_path):
    # carpet ms2 is won by the built-in player, ms1 lost (fixtures/carpet-won.log, carpet-lost.log)
    sequence = ["won", "won", "playing", "won", "lost", "won", "won"]
    deal = {"won": 2, "lost": 1, "playing": 3}
    for i, status in enumerate(sequence):
        # the same deal played again, its clock not the same to the millisecond: not a copy
        log, session = play("carpet", deal[status], 1_800_000_000_000 + 3_600_000 * i, first_ms=1500 + i)
        if status == "playing":  # stopped after three actions
            early = Session.replay(session.variant, session.deal, list(session.events)[:3])
            log = record(early, new_header(early, created=log.header.created, tool="test"))
        assert log.summary.status == status
        # the names run against the order of creation: only the header's time orders the games
        (tmp_path / f"{len(sequence) - i}-{status}.carpet").write_bytes(to_bytes(log))
    entry = doc(run("stats", tmp_path, "--json"))["games"][0]
    assert entry["streak"] == {"current": 2, "longest": 3}
    assert (entry["won"], entry["lost"], entry["playing"]) == (5, 1, 1)


def test_the_speed_histories_verify_and_count_as_they_were_played(tmp_path):
    made = make_history(tmp_path, 12)
    d = doc(run("stats", tmp_path, "--json"))
    assert d["counted"] == 12 and not d["failed"]
    for entry in d["games"]:
        sessions = [s for _, s in made if s.variant.id == entry["game"]]
        assert entry["games"] == len(sessions)
        assert entry["won"] == sum(s.status == "won" for s in sessions)
        assert entry["best_score"]["value"] == max(s.score for s in sessions)


# --- the counting, by itself ----------------------------------------------------------------
outcomes = st.lists(st.tuples(st.sampled_from(["won", "lost", "playing"]), st.integers(0, 50),
                              st.integers(0, 300), st.integers(0, 10**6)), max_size=40)


def as_played(rows) -> list[Played]:
    return [Played(file=f"g{i:03d}", game="carpet", created=f"2026-01-01T00:00:{i:02d}.000Z", status=status,
                   score=score, moves=moves, elapsed_ms=ms) for i, (status, score, moves, ms) in enumerate(rows)]


@given(outcomes, st.randoms())
def test_a_record_does_not_depend_on_the_order_games_come_in(rows, rnd):
    games = as_played(rows)
    shuffled = games[:]
    rnd.shuffle(shuffled)
    a, b = records(games), records(shuffled)
    assert a.keys() == b.keys()
    for key in a:
        x, y = a[key], b[key]
        assert (x.counts, x.moves, x.scores, x.streaks()) == (y.counts, y.moves, y.scores, y.streaks())
        assert (x.best_score, x.fewest_moves, x.fastest) == (y.best_score, y.fewest_moves, y.fastest)


@given(outcomes)
def test_streaks_and_bests_match_a_plain_count(rows):
    record = Record("carpet")
    games = as_played(rows)
    for played in games:
        record.add(played)
    finished = "".join("W" if p.status == "won" else "L" for p in games if p.status != "playing")
    runs = [len(run) for run in finished.split("L")]
    assert record.streaks() == (runs[-1], max(runs))
    if games:
        top = max(p.score for p in games)
        assert record.best_score.value == top
        assert record.best_score.game == next(p for p in games if p.score == top)  # the first to reach it
    won = [p for p in games if p.status == "won"]
    if won:
        assert record.fewest_moves.value == min(p.moves for p in won)
        assert record.fastest.value == min(p.elapsed_ms for p in won)
    else:
        assert record.fewest_moves is None and record.fastest is None


def test_stats_and_survey_documents_share_their_pieces():
    schemas = {name: json.loads((ROOT / "docs" / "schemas" / f"{name}.schema.json").read_text(encoding="utf-8"))
               for name in ("stats", "survey")}
    stats, survey = schemas["stats"]["$defs"], schemas["survey"]["$defs"]
    assert stats["Spread"] == survey["Spread"]
    game = stats["GameRecord"]["properties"]
    assert game["interval"] == survey["SurveyDocument"]["properties"]["interval"]
    assert "Wilson" in game["interval"]["description"]
    assert {"rate", "confidence", "moves", "score"} <= set(game)
