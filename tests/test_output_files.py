"""Every file the tool writes follows the log's file rules (issue 21): survey --out and --html, --svg,
export: regular files only (a named pipe refused at once, never hung on), atomic, no overwrite without
--force, nothing half-written."""

import os

import pytest

from clitools import carpet, run
from conftest import ROOT

GAME = ROOT / "fixtures" / "kovrik-won.carpet"


def _one_line(r, code=2):
    assert r.returncode == code, (r.returncode, r.stderr)
    assert len(r.stderr.strip().splitlines()) == 1 and "Traceback" not in r.stderr, r.stderr
    return r.stderr.strip()


@pytest.fixture
def fifo(tmp_path):
    path = tmp_path / "pipe"
    os.mkfifo(path)
    return path


@pytest.mark.parametrize("option", ["--out", "--html"])
def test_a_survey_output_that_is_a_named_pipe_is_refused_at_once(tmp_path, fifo, option):
    r = carpet("survey", "carpet", "--deals", "1-3", "--jobs", "1", option, fifo, timeout=30)
    assert "a named pipe" in _one_line(r)


def test_a_results_file_to_read_that_is_a_named_pipe_is_refused_at_once(fifo):
    assert "a named pipe" in _one_line(carpet("survey", "--summary", fifo, timeout=30))


def test_survey_html_never_overwrites_a_recorded_game_without_force(tmp_path):
    keep = tmp_path / "keep.carpet"
    keep.write_bytes(GAME.read_bytes())
    r = run("survey", "carpet", "--deals", "1-3", "--jobs", "1", "--html", keep)
    assert r.exit_code == 2 and "file exists (use --force to overwrite)" in r.stderr, r.stderr
    assert keep.read_bytes() == GAME.read_bytes()
    r = run("survey", "carpet", "--deals", "1-3", "--jobs", "1", "--html", keep, "--force")
    assert r.exit_code == 0 and keep.read_text().startswith("<!DOCTYPE html>")
    assert not [p for p in tmp_path.iterdir() if p.name.endswith(".tmp")]


@pytest.mark.parametrize("command", [("deal", "kovrik", "3"), ("show", GAME)])
def test_an_svg_picture_replaces_a_file_only_with_force(tmp_path, command):
    target = tmp_path / "g.svg"
    target.write_text("mine")
    r = run(*command, "--svg", target)
    assert r.exit_code == 2 and "file exists" in r.stderr and target.read_text() == "mine"
    assert run(*command, "--svg", target, "--force").exit_code == 0
    assert target.read_text().startswith("<svg")


def test_an_svg_to_a_named_pipe_is_refused_at_once(fifo):
    assert "a named pipe" in _one_line(carpet("deal", "kovrik", "3", "--svg", fifo, "--force", timeout=30))
