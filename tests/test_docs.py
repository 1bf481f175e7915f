"""The project's own documents: docs/rules.md says what `carpet rules` says; comments cite what exists."""

import ast
import io
import re
import subprocess
import sys
import tokenize

import pytest

from carpet.core import GAMES

from clitools import run
from conftest import ROOT

RULES = ROOT / "docs" / "rules.md"
SECTION = re.compile(r"^### (\S+)\n\n```text\n(.*?)```$", re.MULTILINE | re.DOTALL)


def sections() -> dict[str, str]:
    return dict(SECTION.findall(RULES.read_text(encoding="utf-8")))


# --- docs/rules.md -----------------------------------------------------------------------
def test_rules_document_is_what_the_generator_writes_now():
    result = subprocess.run([sys.executable, str(ROOT / "docs" / "make_rules.py"), "--check"],
                            capture_output=True, text=True)
    assert result.returncode == 0, result.stderr


def test_every_game_has_one_section_in_the_order_carpet_games_lists_them():
    assert list(sections()) == list(GAMES)


@pytest.mark.parametrize("game", list(GAMES))
def test_each_section_is_exactly_what_carpet_rules_prints(game):
    result = run("rules", game)
    assert result.exit_code == 0
    assert sections()[game] == result.stdout


def test_sections_are_grouped_by_family_and_linked_from_the_table():
    text = RULES.read_text(encoding="utf-8")
    for variant in GAMES.values():
        assert f"| [`{variant.id}`](#{variant.id}) |" in text
        family = text.index(f"## {variant.family.capitalize()} family")
        assert family < text.index(f"### {variant.id}\n")


# --- citations in comments -----------------------------------------------------------------
#: a path's last part that stands for any file (usage lines: fixtures/recipes/NAME.recipe)
PLACEHOLDERS = {"NAME", "GAME", "FILE", "N", "OUT", "DIR"}
TOP = ("core", "formats", "cli", "docs", "tests", "fixtures", "seeds", ".ci")
DOCUMENT = re.compile(r"(?<![\w/.-])((?:[\w.-]+/)*[\w.-]+\.md)\b")
PATH = re.compile(r"(?<![\w/.-])((?:%s)/(?:[\w.-]+/)*[\w.-]+\.\w+)" % "|".join(re.escape(t) for t in TOP))


def tracked_python_files():
    listed = subprocess.run(["git", "ls-files", "*.py"], cwd=ROOT, capture_output=True, text=True, check=True)
    return [ROOT / name for name in listed.stdout.split()]


def comments_and_docstrings(source: str):
    """(line, text) of every comment and docstring."""
    for token in tokenize.generate_tokens(io.StringIO(source).readline):
        if token.type == tokenize.COMMENT:
            yield token.start[0], token.string
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
            body = node.body
            if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant) \
                    and isinstance(body[0].value.value, str):
                yield body[0].lineno, body[0].value.value


def cited(text: str) -> set[str]:
    found = set(DOCUMENT.findall(text)) | set(PATH.findall(text))
    return {name for name in found if name.rsplit("/", 1)[-1].split(".")[0] not in PLACEHOLDERS}


def exists(name: str, beside) -> bool:
    if (ROOT / name).exists() or (beside / name).exists():
        return True
    return "/" not in name and any(ROOT.glob(f"**/{name}"))  # a document named alone: README.md


def test_no_comment_cites_a_file_missing_from_the_repository():
    missing = []
    files = tracked_python_files()
    assert len(files) > 30
    for path in files:
        for line, text in comments_and_docstrings(path.read_text(encoding="utf-8")):
            missing += [f"{path.relative_to(ROOT)}:{line}: {name}" for name in sorted(cited(text))
                        if not exists(name, path.parent)]
    assert not missing, "comments cite files that are not in the repository:\n" + "\n".join(missing)


def test_the_citation_finder_finds_citations():
    assert cited('Rules as in RULES.md, "Grid family"') == {"RULES.md"}
    assert cited("see docs/format.md and cli/draw.py; fixtures/recipes/NAME.recipe") == {"docs/format.md", "cli/draw.py"}
    assert cited("INTERFACE.md's 7H>b5, msgspec.json and g.log") == {"INTERFACE.md"}
    assert not exists("RULES.md", ROOT) and not exists("docs/format.md.missing", ROOT)
    assert exists("README.md", ROOT / "core") and exists("rules.md", ROOT / "tests")
