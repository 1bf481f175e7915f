"""docs/format.md and docs/schemas/ agree with the code."""

import re

import msgspec
import pytest

from carpet.core import GAMES
from carpet.formats import log_types as L, log_v2
from carpet.formats.schemas import schemas

from conftest import ROOT

DOC = (ROOT / "docs" / "format.md").read_text(encoding="utf-8")


def test_the_schemas_in_docs_are_current():
    folder = ROOT / "docs" / "schemas"
    generated = schemas()
    assert sorted(p.name for p in folder.iterdir()) == sorted(generated), "run python -m carpet.formats.schemas"
    for name, data in generated.items():
        assert (folder / name).read_bytes() == data, f"{name} is stale: run python -m carpet.formats.schemas"


def test_the_game_codes_of_the_doc_are_the_code_s():
    rows = re.findall(r"^\| (\d+) \| ([a-z0-9-]+) \| ?(\d*) ?\| ?([a-z0-9-]*) ?\|$", DOC, re.M)
    table = {game: int(code) for row in rows for code, game in ((row[0], row[1]), (row[2], row[3])) if game}
    assert table == log_v2.GAME_CODES


def test_the_action_counts_and_constants_of_the_doc():
    for family, counts in (("grid", {2916, 2708}), ("carpet", {65}), ("quilt", {1246})):
        assert {v.action_count for v in GAMES.values() if v.family == family} == counts
        for count in counts:
            assert f"| {count} |" in DOC or f"= {count} |" in DOC
    assert f"ext** value of type **{log_v2.EXT_TYPE}**" in DOC
    assert "0 playing, 1 won, 2 lost" in DOC and L.STATUSES == ("playing", "won", "lost")


def test_every_field_is_documented():
    for struct in (L.Header, L.Summary):
        for field in msgspec.structs.fields(struct):
            assert f"`{field.name}`" in DOC, field.name


@pytest.mark.parametrize("folder", ["formats", "cli"])
def test_code_cites_only_documents_in_the_repository(folder):
    for path in (ROOT / folder).glob("*.py"):
        text = path.read_text(encoding="utf-8")
        assert "INTERFACE.md" not in text and "RULES.md" not in text, path.name
        for cited in re.findall(r"docs/[a-z_./-]+\.(?:md|json)", text):
            assert (ROOT / cited).exists() or cited == "docs/rules.md", (path.name, cited)
