"""The text form open to people (issue 21): every tag checked where it is read (one line, exit 2, never
an internal error), comments and unknown tags ignored, a game written by hand checked move by move and
sealed by ``carpet import``, and every tag the digest must cover covered in both versions."""

import json
import tracemalloc

import pytest
from hypothesis import given, settings, strategies as st

from carpet.core import GAMES, Session, parse_deal
from carpet.formats import LogError, check, new_header, record, to_bytes
from carpet.formats.text import encode_text

from clitools import run
from conftest import ROOT

TEXT = (ROOT / "fixtures" / "montana-redeals.carpet.txt").read_text()
V1 = (ROOT / "fixtures" / "kovrik-won.log").read_bytes()


def _tag(text: str, tag: str, value: str) -> str:
    start = text.index(f"[{tag} ")
    end = text.index("\n", start)
    return text[:start] + f'[{tag} "{value}"]' + text[end:]


def _verify(tmp_path, text: str, name: str = "g.carpet.txt"):
    path = tmp_path / name
    path.write_bytes(text.encode() if isinstance(text, str) else text)
    return run("verify", path)


def _one_line(result, code):
    assert result.exit_code == code, (result.exit_code, result.output)
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and "internal error" not in result.stderr, result.stderr
    return lines[0]


@pytest.mark.parametrize("tag, value", [
    ("Moves", "-1"), ("Rules", "-1"), ("ClockJumps", "-1"), ("Elapsed", "-1.000"), ("Version", "-1"),
    ("Score", "9" * 30), ("Moves", "9" * 4301), ("RedealsLeft", "-" + "9" * 25), ("ClockSkipped", "9" * 40 + ".000"),
    ("Elapsed", "99999999999999999999.000"), ("Rules", "2"), ("Numbering", "microsoft"), ("Result", "banana"),
])
def test_every_tag_is_checked_where_it_is_read(tmp_path, tag, value):
    line = _one_line(_verify(tmp_path, _tag(TEXT, tag, value)), 2)
    number = next(i for i, l in enumerate(TEXT.splitlines(), 1) if l.startswith(f"[{tag} "))
    assert f"line {number}, column " in line and ("range" in line or "not a valid" in line or "version" in line
                                                  or "numbering" in line or "status" in line), line


def test_a_huge_clock_or_action_number_is_refused_in_one_line(tmp_path):
    head = '[Game "montana"]\n[Deal "123456"]\n\n'
    for body, words in (("1. TC>a4 {99999999999999999999.000}", "beyond 2^40 ms"),
                        ("9" * 4301 + ". TC>a4", "action number"),
                        ("1. TC>a4 {-0.961}", "never negative")):
        line = _one_line(_verify(tmp_path, head + body), 2)
        assert "line 4, column " in line and words in line, line


def test_play_on_a_hand_edited_text_never_exits_3(tmp_path):
    for tag, value in (("Moves", "-1"), ("ClockJumps", "-1"), ("Rules", "-1")):
        path = tmp_path / "g.carpet.txt"
        path.write_text(_tag(TEXT, tag, value))
        _one_line(run("play", path, "undo", "-q"), 2)


HAND = """[Event "club night"]
[Player "Ann"]
[Game "montana"]
[Deal "123456"]

{the opening} 1. TC>a4 2. 7C>a9 {a comment
over two lines} 3. QS>b3 ; to the end of the line
% a line left out
4. 5H>b5 {9.5 seconds?} 5. 8D>c12
"""


def test_a_game_written_by_hand_is_checked_and_sealed_by_import(tmp_path):
    hand = tmp_path / "hand.carpet.txt"
    hand.write_text(HAND)
    r = run("verify", hand)
    assert r.exit_code == 0 and "unsealed" in r.stdout, r.output
    assert json.loads(run("verify", hand, "--json").stdout)["results"][0]["sealed"] is False
    r = run("import", hand, "-o", tmp_path / "hand.carpet")
    assert r.exit_code == 0, r.output
    log, session = check((tmp_path / "hand.carpet").read_bytes())
    assert log.sealed and log.header.version == 2 and len(log.events) == 5
    assert list(log.events.clocks) == [0] * 5  # no clock readings: 0
    assert session.moves == 5 and session.variant.id == "montana"
    # the sealed file is a game like any other: an edit of it is found
    back = encode_text(log).decode()
    assert "unsealed" not in run("verify", tmp_path / "hand.carpet").stdout
    _one_line(_verify(tmp_path, back.replace("1. TC>a4 {0.000}", "1. TC>a4 {0.001}"), "e.carpet.txt"), 1)


def test_a_hand_written_move_that_breaks_a_rule_is_named_by_line_and_column(tmp_path):
    line = _one_line(_verify(tmp_path, HAND.replace("3. QS>b3", "3. QS>b4")), 1)
    assert line.startswith("FAIL") and "line 7, column 20:" in line and "illegal" in line, line
    line = _one_line(_verify(tmp_path, '[Game "montana"]\n[Deal "123456"]\n[Score "999"]\n1. TC>a4\n'), 1)
    assert "line 3, column 9: Score says '999'" in line
    line = _one_line(_verify(tmp_path, '[Player "Ann"]\n1. TC>a4\n'), 2)
    assert "missing tag Game" in line


def test_unknown_tags_and_comments_are_ignored_in_a_sealed_game_too(tmp_path):
    text = '[Player "Ann"]\n' + TEXT.replace("\n\n", '\n[Annotator "Bo"]\n\n{a note}\n', 1)
    text = text.replace("3. QS>b3 {4.557}", "3. QS>b3 {4.557} {good}").replace("5H>b5 {5.376}\n", "5H>b5 {5.376} ; fine\n")
    r = _verify(tmp_path, text)
    assert r.exit_code == 0, r.output
    assert "unsealed" not in r.stdout


def test_tag_escapes_carry_a_newline_in_the_tool_text(tmp_path):
    session = Session(GAMES["kovrik"], parse_deal("5"))
    log = record(session, new_header(session, created="2026-11-29T12:00:00.000Z", tool='my "tool"\nline 2\\'))
    data = to_bytes(log, form="text")
    assert b'[Tool "my \\"tool\\"\\nline 2\\\\"]' in data
    assert check(data)[0].header.tool == 'my "tool"\nline 2\\'


@pytest.mark.parametrize("tag, value", [("ClockJumps", "3"), ("ClockSkipped", "5.000"), ("ClockSkipped", "-5.000")])
def test_version_1_clock_tags_cannot_be_edited_past_the_digest(tmp_path, tag, value):
    (tmp_path / "v1.carpet.txt").write_text("")
    assert run("export", ROOT / "fixtures" / "kovrik-won.log", "-o", tmp_path / "v1.carpet.txt", "--force").exit_code == 0
    text = (tmp_path / "v1.carpet.txt").read_text()
    assert '[Version "1"]' in text
    line = _one_line(_verify(tmp_path, _tag(text, tag, value), "e.carpet.txt"), 2)
    assert tag in line and "version 1" in line
    path = tmp_path / "e.carpet.txt"
    _one_line(run("play", path, "undo", "-q"), 2)  # and nothing is sealed over the edit
    assert path.read_text() == _tag(text, tag, value)


def test_a_tag_with_an_emoji_costs_no_more_memory_an_event():
    variant = GAMES["kovrik-shuffle"]
    session = Session(variant, parse_deal("1"))
    for i in range(4000):
        session.act(3, 1000 * i)
    log = record(session, new_header(session, created="2026-11-29T12:00:00.000Z", tool="tool \U0001F600"))
    data = to_bytes(log, form="text")
    tracemalloc.start()
    check(data)
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    assert peak / 4000 < 100


@settings(max_examples=150, deadline=None)
@given(st.text(max_size=60), st.integers(0, 2))
def test_any_text_in_a_tag_or_comment_is_refused_or_read_never_a_crash(junk, where):
    text = [_tag(TEXT, "Tool", junk.replace("\\", "\\\\").replace('"', '\\"')),
            TEXT.replace("\n\n", "\n\n{" + junk.replace("}", ")") + "}\n", 1),
            TEXT.replace("2. 7C>a9", "2. " + junk + " 7C>a9")][where]
    try:
        check(text.encode("utf-8", "surrogatepass"))
    except LogError:
        pass


def test_a_binary_tool_text_that_is_not_utf8_is_refused_not_read_with_replacements(tmp_path):
    """Issue 21: it verified (read with U+FFFD), then play wrote it back and found a digest mismatch."""
    from carpet.formats.log_v2 import _digest_v2, _ext, _unext

    session = Session(GAMES["kovrik"], parse_deal("5"))
    data = to_bytes(record(session, new_header(session, created="2026-11-29T12:00:00.000Z", tool="abcd")))
    start, end = _unext(data)
    payload = data[start:end - 8]
    assert payload.count(b"abcd") == 1
    payload = payload.replace(b"abcd", b"ab\xff\xfe")
    path = tmp_path / "g.carpet"
    path.write_bytes(_ext(payload + _digest_v2(payload)))  # sealed again: the digest is right
    r = run("verify", path)
    assert r.exit_code == 2 and "tool text is not UTF-8" in r.stderr, r.output
    r = run("play", path, "hint", "-q")
    assert r.exit_code == 2 and "digest" not in r.stderr
