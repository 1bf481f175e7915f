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
FILES = sorted(p for p in FIXTURES.iterdir() if p.suffix in (".log", ".json", ".carpet"))


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
