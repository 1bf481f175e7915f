"""The text form (formats/text.py): readable, and back to the identical file."""

import pytest

from carpet.formats import LogError, check
from carpet.formats.text import encode_text

from clitools import run
from conftest import ROOT

FIXTURES = sorted(p for p in (ROOT / "fixtures").iterdir() if p.suffix in (".log", ".json", ".carpet"))


@pytest.mark.parametrize("path", FIXTURES, ids=[p.name for p in FIXTURES])
def test_every_fixture_goes_to_text_and_back_byte_for_byte(path, tmp_path):
    text = tmp_path / (path.name + ".txt")
    back = tmp_path / path.name
    assert run("export", path, "-o", text).exit_code == 0
    assert text.read_bytes().startswith(b'[Format "carpet-log"]')
    version = check(path.read_bytes())[0].header.version  # (import writes the current version unless told)
    r = run("import", text, "-o", back, "--version", version)
    assert r.exit_code == 0, r.stderr
    assert back.read_bytes() == path.read_bytes()


def test_binary_to_json_to_binary_is_identical(tmp_path):
    for path in FIXTURES:
        if path.suffix != ".carpet":
            continue
        assert run("export", path, "-o", tmp_path / "g.carpet.json").exit_code == 0
        assert run("export", tmp_path / "g.carpet.json", "-o", tmp_path / "g.carpet", "--force").exit_code == 0
        assert (tmp_path / "g.carpet").read_bytes() == path.read_bytes()
        (tmp_path / "g.carpet.json").unlink()


def _text():
    return encode_text(check((ROOT / "fixtures" / "kovrik-redeal-undo.carpet").read_bytes())[0]).decode()


def test_the_text_reads_like_pgn():
    text = _text()
    assert '[Game "kovrik"]' in text and '[Result "playing"]' in text and '[Deal "ms2"]' in text
    assert "1. AC>a0 {1.519} 2. AS>b0 {3.038}" in text
    assert all(len(line) <= 80 for line in text.splitlines())


def test_an_illegal_action_is_refused_with_its_line_and_column():
    text = _text().replace("5. 5H>c5", "5. 5H>c6")
    line = next(i for i, l in enumerate(text.splitlines(), 1) if "5H>c6" in l)
    column = text.splitlines()[line - 1].index("5H>c6") + 1
    with pytest.raises(LogError, match=rf"line {line}, column {column}: .*illegal"):
        check(text.encode())


def test_a_wrong_header_is_refused_with_its_line_and_column():
    with pytest.raises(LogError, match=r"line 3, column 8: unknown game 'klondike'"):
        check(_text().replace('[Game "kovrik"]', '[Game "klondike"]').encode())
    with pytest.raises(LogError, match=r"line 2, column 11: unsupported log version 3"):
        check(_text().replace('[Version "2"]', '[Version "3"]').encode())
    with pytest.raises(LogError, match=r"line 11, column 9: Score: not a valid value"):
        check(_text().replace('[Score "75"]', '[Score "lots"]').encode())
    with pytest.raises(LogError, match=r"line \d+, column \d+: not a kovrik action: 'ZZ>a0'"):
        check(_text().replace("AC>a0", "ZZ>a0").encode())
    with pytest.raises(LogError, match="digest mismatch"):  # the digest covers the summary too
        check(_text().replace('[Score "75"]', '[Score "76"]').encode())


def test_the_cli_names_the_place_in_one_line(tmp_path):
    bad = tmp_path / "g.carpet.txt"
    bad.write_text(_text().replace("5. 5H>c5", "5. 5H>c6"))
    r = run("verify", bad)
    assert r.exit_code == 1 and "line " in r.stderr and len(r.stderr.strip().splitlines()) == 1
