"""Recorded games kept as regression fixtures: each verifies and says what the manifest says."""

import csv
import subprocess
import sys

import pytest
from typer.testing import CliRunner

from carpet.cli.app import app
from carpet.core import GAMES
from carpet.formats import read_log, verify

from conftest import ROOT

FIXTURES = ROOT / "fixtures"
MANIFEST = list(csv.DictReader((FIXTURES / "manifest.tsv").open(encoding="utf-8"), delimiter="\t"))
FILES = sorted(p for p in FIXTURES.iterdir() if p.suffix in (".log", ".json", ".carpet") or p.name.endswith(".carpet.txt"))


def test_manifest_lists_every_fixture():
    assert sorted(row["file"] for row in MANIFEST) == [p.name for p in FILES]


@pytest.mark.parametrize("row", MANIFEST, ids=[r["file"] for r in MANIFEST])
def test_fixture_verifies_as_the_manifest_says(row):
    session = verify(read_log(FIXTURES / row["file"]))
    assert (session.variant.id, session.deal.text, session.status, str(session.score), str(session.moves)) == \
        (row["game"], row["deal"], row["status"], row["score"], row["moves"])


def test_carpet_verify_accepts_every_fixture():
    result = CliRunner().invoke(app, ["verify", *map(str, FILES)])
    assert result.exit_code == 0, result.stderr
    assert result.stdout.count("ok ") == len(FILES)


def test_pytest_runs_every_fixture_as_a_game_of_its_own():
    """pyproject's carpet_games: plain `pytest` collects each fixture once, through the plugin."""
    result = subprocess.run([sys.executable, "-m", "pytest", "--collect-only", "-q", "-p", "no:cacheprovider"],
                            cwd=ROOT, capture_output=True, text=True)
    games = [line for line in result.stdout.splitlines() if line.startswith("fixtures/")]
    assert games == [f"fixtures/{row['file']}::{row['file']}" for row in sorted(MANIFEST, key=lambda r: r["file"])]


#: the games that had fixtures when format version 2 came: each keeps version-1 fixtures and has version-2 ones
FIRST_GAMES = {"kovrik", "kovrik-hard", "kovrik-shuffle", "kovrik-shuffle-2", "carpet", "carpet-auto",
               "carpet-foster", "crazy-quilt", "indian-carpet", "persian-carpet"}


def test_every_game_has_version_1_and_version_2_fixtures_in_both_forms():
    versions = {(row["game"], row["format"]) for row in MANIFEST}
    assert FIRST_GAMES <= {game for game, version in versions if version == "2"}
    assert FIRST_GAMES <= {game for game, version in versions if version == "1"}
    assert any(row["file"].endswith(".carpet.json") for row in MANIFEST)
    assert any(row["file"].endswith(".json") and row["format"] == "1" for row in MANIFEST)


def test_fixtures_are_reproducible_from_their_recipes():
    result = subprocess.run([sys.executable, str(FIXTURES / "make.py"), "--check"], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr


def test_every_grid_variant_has_a_won_fixture_and_kovrik_shows_its_bonus():
    won = {row["game"] for row in MANIFEST if row["status"] == "won"}
    assert {"kovrik", "kovrik-hard", "kovrik-shuffle", "kovrik-shuffle-2"} <= won
    kovrik = next(row for row in MANIFEST if row["game"] == "kovrik" and row["status"] == "won")
    assert int(kovrik["score"]) == 52 * 15 + GAMES["kovrik"].win_bonus(int(kovrik["moves"]))
    assert any(row["status"] == "lost" for row in MANIFEST)


MONTANA_FAMILY = ["montana", "spaces", "station", "free-parking", "blue-moon", "red-moon", "galary", "jungle",
                  "spaces-and-aces"]


def test_every_montana_game_has_a_won_fixture():
    won = {row["game"]: row for row in MANIFEST if row["status"] == "won"}
    for game in MONTANA_FAMILY:
        assert game in won, game
        assert int(won[game]["score"]) == (48 if GAMES[game].board.cols == 13 else 52)


@pytest.mark.parametrize("game", ["montana", "spaces", "station"])
def test_both_redeals_and_an_undone_redeal_are_recorded(game):
    from carpet.core import UNDO
    from carpet.core.grid import REDEAL
    rows = [row for row in MANIFEST if row["game"] == game and row["status"] != "won"]
    assert rows, game
    log = read_log(FIXTURES / rows[0]["file"])
    actions = [action for action, _ in log.events]
    session = verify(log)
    assert session.redeals_left == 0
    undone = [i for i in range(len(actions) - 1) if actions[i] == REDEAL and actions[i + 1] == UNDO]
    assert undone and actions[undone[0] + 2] == REDEAL
    from carpet.formats import replay
    i = undone[0]
    assert replay(log, i + 1).state.layout() == replay(log, i + 3).state.layout()  # the same cards again
