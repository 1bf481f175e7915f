"""Issue 21's smaller items: hint on a lost game says undo, game ids and players as choices in help,
new -q, the LICENSE, the README's install lines and default file name."""

import shutil

from clitools import run
from conftest import ROOT

from carpet.core import GAMES


def test_a_hint_on_a_lost_game_mentions_undo(tmp_path):
    game = tmp_path / "g.log"
    shutil.copy(ROOT / "fixtures" / "carpet-lost.log", game)
    r = run("hint", game, "-q")
    assert r.exit_code == 0 and "the game is lost; undo or restart to play on" in r.stdout, r.output


def test_game_ids_and_players_are_choices_in_help():
    text = " ".join(run("deal", "--help").stdout.split())
    assert all(game in text for game in GAMES)
    from clitools import app, runner
    wide = runner.invoke(app, ["survey", "--help"], env={"COLUMNS": "120"})  # (at 80 Rich folds the choices)
    assert "[simple|hint|seen|solve|simple-seen]" in wide.stdout
    from carpet.cli.survey import _player_names
    from carpet.core.players import PLAYERS
    assert _player_names() == ["simple", "hint", "seen", "solve", "simple-seen"] == list(PLAYERS)


def test_new_has_quiet(tmp_path):
    r = run("new", "kovrik", "3", "-o", tmp_path / "g.carpet", "-q")
    assert r.exit_code == 0 and r.stdout == "" and "new kovrik game" in r.stderr


def test_the_license_is_the_mit_license_pyproject_declares():
    assert (ROOT / "LICENSE").read_text().startswith("MIT License")
    text = (ROOT / "pyproject.toml").read_text()
    assert 'license = "MIT"' in text and 'license-files = ["LICENSE"]' in text  # an SPDX expression
    from importlib.metadata import metadata

    assert metadata("carpet")["License-Expression"] == "MIT"


def test_the_readme_installs_from_the_clone_and_names_the_default_file_right():
    readme = (ROOT / "README.md").read_text()
    assert "pip install 'carpet[dask]'" not in readme and "pip install '.[dask]'" in readme  # not on an index
    assert "`GAME-N.carpet`" not in readme
    assert "kovrik-ms123.carpet" in readme


def test_the_json_schemas_hold_enums_and_descriptions():
    import json

    folder = ROOT / "docs" / "schemas"
    log = json.loads((folder / "carpet-log.schema.json").read_text())
    assert log["$defs"]["Summary"]["properties"]["status"]["enum"] == ["playing", "won", "lost"]  # no "banana"
    assert log["$defs"]["Header"]["properties"]["game"]["enum"] == list(GAMES)
    solve = json.loads((folder / "solve.schema.json").read_text())["$defs"]["Solve"]["properties"]
    assert solve["result"]["enum"] == ["won", "unwinnable", "unknown"]
    assert "description" in solve["nodes"] and "description" in solve["memory_full"]
    rules = json.loads((folder / "rules.schema.json").read_text())["$defs"]["Rules"]["properties"]
    assert "enum" not in rules["rules"]  # the rules text, not the rules version
