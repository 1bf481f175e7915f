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
FILES = sorted(p for p in FIXTURES.iterdir() if p.suffix in (".log", ".json"))


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


def test_fixtures_are_reproducible_from_their_recipes():
    result = subprocess.run([sys.executable, str(FIXTURES / "make.py"), "--check"], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr


def test_every_grid_variant_has_a_won_fixture_and_kovrik_shows_its_bonus():
    won = {row["game"] for row in MANIFEST if row["status"] == "won"}
    assert {"kovrik", "kovrik-hard", "kovrik-shuffle", "kovrik-shuffle-2"} <= won
    kovrik = next(row for row in MANIFEST if row["game"] == "kovrik" and row["status"] == "won")
    assert int(kovrik["score"]) == 52 * 15 + GAMES["kovrik"].win_bonus(int(kovrik["moves"]))
    assert any(row["status"] == "lost" for row in MANIFEST)
