"""Issue 47: a text-form game keeps the person's words, its unknown tags and its comments, in their places
through play, undo, hint and a pipe of actions (formats/text.py, ``Notes``); verify still passes."""

from hypothesis import given, settings, strategies as st

from carpet.formats import check
from carpet.formats.text import Notes, encode_text
from clitools import run

HAND = """[Event "club night"]
[Game "kovrik"]
[Player "Ann"]
[Deal "1"]
; the deal Bob dealt
[Site "kitchen"]

; before the first move
% a percent line
1. AC>a0 {a good start} 2. undo {changed my mind}
3. AC>a0 ; an end-of-line comment
"""


def _lines(path) -> list[str]:
    return path.read_text().splitlines()


def _header(lines: list[str]) -> list[str]:
    return lines[:lines.index("")]


def test_tags_and_comments_stay_in_place_through_play_undo_hint_and_a_pipe(tmp_path):
    game = tmp_path / "hand.carpet.txt"
    game.write_text(HAND)
    for command in (("play", game, "undo", "-q"), ("hint", game, "-q"), ("play", game, "AC>a0", "-q"),
                    ("undo", game, "-q"), ("play", game, "-", "-q")):
        r = run(*command, input="AC>a0\nhint\nundo\n" if "-" in command else None)
        assert r.exit_code == 0, (command, r.output)
        lines = _lines(game)
        header = _header(lines)
        mine = [x for x in header if x.startswith((";", "%")) or x.split()[0] in ("[Event", "[Player", "[Site")]
        assert mine == ['[Event "club night"]', '[Player "Ann"]', "; the deal Bob dealt", '[Site "kitchen"]']
        assert header[0] == '[Event "club night"]'  # before every tag, as written
        assert header[header.index('[Game "kovrik"]') + 1] == '[Player "Ann"]'  # after the tag it followed
        assert header[header.index('[Deal "ms1"]') + 1] == "; the deal Bob dealt"
        assert header.index('[Site "kitchen"]') == header.index("; the deal Bob dealt") + 1
        actions = "\n".join(lines[len(header) + 1:])
        assert actions.startswith("; before the first move\n% a percent line\n1. AC>a0 {")
        assert "1. AC>a0 {0.000} {a good start} 2. undo {0.000} {changed my mind}" in actions
        assert "3. AC>a0 {0.000} ; an end-of-line comment\n4. " in actions
        verified = run("verify", game)
        assert verified.exit_code == 0 and verified.stdout.startswith("ok"), verified.output
    assert "10. undo" in game.read_text()  # every action went in (3 by hand, 7 played)


def test_a_sealed_text_game_with_comments_added_by_hand_keeps_them(game, tmp_path):
    text = tmp_path / "g.carpet.txt"
    assert run("export", game, "-o", text).exit_code == 0
    written = text.read_text()
    text.write_text(written.replace("[Format", '[Annotator "Bo"]\n[Format', 1) + "{nothing played yet}\n")
    assert run("verify", text).exit_code == 0  # the digest covers the data, not the words around it
    assert run("play", text, "AC>a0", "-q").exit_code == 0
    lines = _lines(text)
    assert lines[0] == '[Annotator "Bo"]' and lines[-1].startswith("{nothing played yet} 1. AC>a0 {")
    assert run("verify", text).exit_code == 0


_COMMENT = st.one_of(
    st.text(st.characters(blacklist_characters="{}\n\r", blacklist_categories=("Cs",)), max_size=30)
    .filter(lambda t: not t.strip().replace(".", "", 1).lstrip("-+").isdigit()).map(lambda t: "{" + t + "}"),
    st.text(st.characters(blacklist_characters="\n\r", blacklist_categories=("Cs",)), max_size=30)
    .map(lambda t: (";" + t).rstrip()),
    st.text(st.characters(blacklist_characters="\n\r", blacklist_categories=("Cs",)), max_size=30)
    .map(lambda t: ("%" + t).rstrip()))


@settings(max_examples=80, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 3), _COMMENT), max_size=8),  # (HAND has 3 actions)
       st.lists(st.tuples(st.sampled_from([None, "Format", "Game", "Deal", "Digest"]),
                          st.sampled_from(['[Player "Ann"]', '[Event "x \\" y"]', "; a note", "% seen"])),
                max_size=4))
def test_notes_read_back_as_they_were_written(comments, header):
    log, _ = check(HAND.encode())
    comments = tuple(sorted(comments, key=lambda c: c[0]))
    log.notes = Notes(tuple(header), comments)
    back, _ = check(encode_text(log))
    assert back.events == log.events and back.summary == log.summary
    written = _in_written_order(header)
    trailing = len(written)  # the comment lines after the last tag line are read as before the first action
    while trailing and written[trailing - 1][0] == "Digest" and written[trailing - 1][1][0] in ";%":
        trailing -= 1
    assert (back.notes.header if back.notes else ()) == tuple(written[:trailing])
    assert (back.notes.comments if back.notes else ()) == tuple((0, h[1]) for h in written[trailing:]) + comments


def _in_written_order(header):
    """Header notes in the order encode_text writes them: those before every tag (comment lines there
    after the Format tag, which a text starts with), then by tag."""
    order = {None: 0, "Format": 2, "Game": 3, "Deal": 4, "Digest": 5}
    first = [h for h in header if h[0] is None]
    if first and first[0][1][0] != "[":
        order[None] = 1.5  # (after the Format tag, before the notes that follow it)
    return [(h[0] if order[h[0]] != 1.5 else "Format", h[1]) for h in sorted(header, key=lambda h: order[h[0]])]
