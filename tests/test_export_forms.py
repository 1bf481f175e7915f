"""export and import (issue 21): the form a target's name asks for or --form, never binary in silence;
-o - is stdout; binary and JSON targets in the current format version unless --version 1; solve -o on a
version-1 log writes the current version."""

import json

import pytest

from carpet.formats import check

from clitools import run
from conftest import ROOT

V1 = ROOT / "fixtures" / "kovrik-won.log"


@pytest.mark.parametrize("name", ["g.svg", "g.png", "g", "g.carpet.bak"])
def test_a_target_of_no_known_kind_is_refused(tmp_path, name):
    r = run("export", V1, "-o", tmp_path / name)
    assert r.exit_code == 2 and "cannot tell the form from the name" in r.stderr and not (tmp_path / name).exists()
    assert run("export", V1, "-o", tmp_path / name, "--form", "json").exit_code == 0
    assert (tmp_path / name).read_bytes().startswith(b'{"header"')


def test_dash_is_stdout_never_a_file_named_dash(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    r = run("export", V1, "-o", "-")
    assert r.exit_code == 0 and r.stdout.startswith('[Format "carpet-log"]') and not (tmp_path / "-").exists()
    r = run("export", V1, "-o", "-", "--form", "json")
    assert r.exit_code == 0 and json.loads(r.stdout)["header"]["game"] == "kovrik"
    assert run("export", V1, "-o", "-", "--json").exit_code == 2


@pytest.mark.parametrize("name, form", [("new.carpet", "binary"), ("new.carpet.json", "json")])
def test_an_old_log_is_exported_in_the_current_version(tmp_path, name, form):
    r = run("export", V1, "-o", tmp_path / name, "--json")
    assert r.exit_code == 0 and json.loads(r.stdout)["version"] == 2
    log, session = check((tmp_path / name).read_bytes())
    old, old_session = check(V1.read_bytes())
    assert log.header.version == 2 and list(log.events) == list(old.events)
    assert (session.status, session.score, session.moves) == (old_session.status, old_session.score, old_session.moves)
    assert run("export", V1, "-o", tmp_path / ("old-" + name), "--version", "1").exit_code == 0
    assert check((tmp_path / ("old-" + name)).read_bytes())[0].header.version == 1


def test_a_version_1_text_is_imported_in_the_current_version(tmp_path):
    assert run("export", V1, "-o", tmp_path / "g.carpet.txt").exit_code == 0
    assert '[Version "1"]' in (tmp_path / "g.carpet.txt").read_text()  # the text shows the log as it is
    assert run("import", tmp_path / "g.carpet.txt", "-o", tmp_path / "g.carpet").exit_code == 0
    assert check((tmp_path / "g.carpet").read_bytes())[0].header.version == 2


def test_solve_on_a_version_1_log_writes_the_current_version(tmp_path):
    game = ROOT / "fixtures" / "kovrik-redeal-undo.log"  # version 1, in play
    assert check(game.read_bytes())[0].header.version == 1
    r = run("solve", game, "-o", tmp_path / "won.carpet")
    assert r.exit_code == 0 and r.stdout.startswith("won"), r.output
    log, session = check((tmp_path / "won.carpet").read_bytes())
    assert log.header.version == 2 and session.status == "won"


def test_text_replay_frames_show_each_event_s_clock():
    """Issue 21: every text frame said clock 0.0s; the JSON frames and show --at were right."""
    r = run("replay", ROOT / "fixtures" / "kovrik-won.carpet")
    shown = [line.split("clock ")[1].split("s")[0] for line in r.stdout.splitlines() if "clock " in line]
    frames = json.loads(run("replay", ROOT / "fixtures" / "kovrik-won.carpet", "--json").stdout)["frames"]
    assert len(shown) == len(frames) > 100
    assert shown == [f'{f["position"]["elapsed_ms"] / 1000:.1f}' for f in frames]
    assert len(set(shown)) > 50
