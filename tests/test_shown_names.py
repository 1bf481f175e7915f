"""Names shown to a terminal have their escape sequences escaped (issue 21), and survey --summary refuses
results it could not have written: unknown games, impossible deal numbers, players that are no names."""

import json
import shutil

import pytest

from clitools import run
from conftest import ROOT

ESC = "\x1b[2K\x1b[1A"  # erase the line, go up one: what would hide a FAIL line above


def test_the_verify_ok_line_escapes_the_file_name(tmp_path):
    name = tmp_path / f"a{ESC}b.carpet"
    shutil.copy(ROOT / "fixtures" / "kovrik-won.carpet", name)
    r = run("verify", name)
    assert r.exit_code == 0 and "\x1b" not in r.stdout and "a\\x1b[2K\\x1b[1Ab.carpet" in r.stdout


def test_new_names_its_file_escaped(tmp_path):
    r = run("new", "kovrik", "3", "-o", tmp_path / f"g{ESC}.carpet")
    assert r.exit_code == 0 and "\x1b" not in r.output, r.output


def _line(**change):
    line = {"deal": 1, "result": "won", "moves": 3, "score": 4, "actions": 3, "nodes": 0, "seconds": 0.01,
            "game": "carpet", "player": "simple", "budget": None}
    line.update(change)
    return json.dumps(line) + "\n"


@pytest.mark.parametrize("change, words", [
    ({"game": f"carpet{ESC}"}, "unknown game"), ({"game": "klondike"}, "unknown game"),
    ({"deal": 10**25}, "beyond the numbering"), ({"player": f"simple{ESC}"}, "not a player's name"),
    ({"seconds": -1.0}, "out of range"), ({"budget": 0}, "out of range"),
])
def test_survey_summary_refuses_what_no_survey_writes(tmp_path, change, words):
    results = tmp_path / "r.jsonl"
    results.write_text(_line() + _line(**{"deal": 2, **change}))
    r = run("survey", "--summary", results)
    assert r.exit_code == 2 and r.stderr.count("\n") == 1 and "line 2" in r.stderr and words in r.stderr, r.stderr
    assert "\x1b" not in r.output


@pytest.mark.parametrize("deals", ["1_000-1_002", "+5", "1-1_0", "٣-٥"])
def test_survey_deals_are_plain_digits(deals):
    r = run("survey", "carpet", "--deals", deals, "--jobs", "1")
    assert r.exit_code == 2 and "use a range of deal numbers" in r.stderr, r.stderr
