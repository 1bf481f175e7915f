"""Pictures of positions (formats/svg.py) and the replay page (formats/html.py), without a browser."""

from __future__ import annotations

import json
import re
import shutil

import msgspec
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import pictures
from carpet.core import GAMES, Session, parse_deal
from carpet.formats import decode, new_header, read_log, record, replay
from carpet.formats.html import frames, replay_page
from carpet.formats.report import position_document
from carpet.formats.svg import board, position_svg, values
from clitools import doc, run
from conftest import ROOT
from playthrough import random_session

ALL = sorted(GAMES)
CREATED = "2026-11-29T12:00:00.000Z"
quick = settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def _json(session: Session) -> dict:
    return msgspec.to_builtins(position_document(session))


@pytest.mark.parametrize("game", ALL)
@quick
@given(seed=st.integers(0, 2**32), steps=st.integers(0, 250))
def test_every_picture_is_xml_with_a_viewbox_and_shows_the_position(game, seed, steps):
    session = random_session(GAMES[game], seed, steps, check=False)
    data = position_svg(session)
    root = pictures.parse(data.decode())
    x, y, w, h = map(float, root.get("viewBox").split())
    assert (x, y) == (0, 0) and w > 0 and h > 0
    pictures.check(root, _json(session))


@pytest.mark.parametrize("game", ALL)
def test_pictures_of_one_game_line_up(game):
    """A fixed board per game: every position puts the same slots at the same places."""
    def shape(session):
        root = pictures.parse(position_svg(session).decode())
        return root.get("viewBox"), [(g.get("transform"), g.get("data-cell"), g.get("data-foundation"))
                                     for g in pictures.slots(root)]
    first = shape(Session(GAMES[game], parse_deal("1")))
    for seed in (1, 2):
        assert shape(random_session(GAMES[game], seed, 150, check=False)) == first
    assert shape(Session(GAMES[game], parse_deal("99999"))) == first


def test_marks_come_from_the_engine():
    """Locks, live gaps, free and blocked quilt cards and moves, as the state says."""
    kovrik = replay(read_log(ROOT / "fixtures" / "kovrik-won.log"), 40)
    root = pictures.parse(position_svg(kovrik).decode())
    classes = {g.get("data-cell"): g.get("class").split() for g in pictures.slots(root)}
    state = kovrik.state
    for name, cls in classes.items():
        row, col = "abcd".index(name[0]), int(name[1:])
        assert ("locked" in cls) == (col < state.prefix[row] and "card" in cls)
    movers = {kovrik.variant.text(a).split(">")[0] for a in kovrik.legal_actions() if ">" in kovrik.variant.text(a)}
    shown = {g.get("data-card") for g in pictures.slots(root) if "moves" in g.get("class").split()}
    assert shown == movers and movers
    live = {kovrik.variant.text(a).split(">")[1] for a in kovrik.legal_actions() if ">" in kovrik.variant.text(a)}
    assert {n for n, c in classes.items() if "live" in c} == live

    quilt = replay(read_log(ROOT / "fixtures" / "crazy-quilt-won.log"), 60)
    root = pictures.parse(position_svg(quilt).decode())
    free = {f"{'abcdefgh'[c // 8]}{c % 8 + 1}" for c in quilt.state.available()}
    cells = {g.get("data-cell"): g.get("class").split() for g in pictures.slots(root) if g.get("data-cell")}
    assert {n for n, c in cells.items() if "free" in c} == free
    assert {n for n, c in cells.items() if "blocked" in c} == {n for n, c in cells.items() if "card" in c} - free
    assert {g.get("data-cell") for g in pictures.slots(root)}.issuperset({"a1", "h8"})


def test_a_grid_board_of_any_size():
    """The grid is drawn from the layout's own size (4×13 boards too), columns named from 0."""
    session = Session(GAMES["kovrik"], parse_deal("5"))
    wide = board(session)
    rows = session.state.layout()["grid"]

    class Narrow:
        def layout(self):
            return {"grid": [row[1:] for row in rows]}
    session.state, real = Narrow(), session.state
    narrow = board(session)
    session.state = real
    assert len(wide.slots) == 56 and len(narrow.slots) == 52
    assert narrow.width < wide.width
    assert {s.data["cell"] for s in narrow.slots} == {f"{r}{c}" for r in "abcd" for c in range(13)}


def test_frames_rebuild_every_position():
    """The page's data, rebuilt as its script does, is the engine's position after every event."""
    log = read_log(ROOT / "fixtures" / "carpet-restart.log")
    _, data = frames(log)
    session = Session(GAMES[log.header.game], parse_deal(log.header.deal))
    slots, fields = [], {}
    for k, (slot_changes, field_changes) in enumerate(data):
        if k:
            session.act(*log.events[k - 1])
        for i, v in zip(slot_changes[::2], slot_changes[1::2]):
            if i == len(slots):
                slots.append(v)
            else:
                slots[i] = v
        fields.update(field_changes)
        want_slots, want_fields = values(session)
        assert slots == want_slots
        assert {n: v for n, v in fields.items() if n != "note"} == {n: v for n, v in want_fields.items() if n != "note"}
    assert len(data) == len(log.events) + 1


def _page_parts(page: bytes) -> tuple[str, dict]:
    text = page.decode()
    data = json.loads(re.search(r'<script type="application/json" id="replay-data">(.*?)</script>', text, re.S).group(1))
    return text, data


@pytest.mark.parametrize("name", ["kovrik-hard-won.log", "carpet-gaps-open.log", "crazy-quilt-won.log",
                                  "persian-carpet-won.log"])
def test_a_130_event_game_makes_a_page_under_200_kb(name):
    log = read_log(ROOT / "fixtures" / name)
    events = list(log.events[:130])
    if len(events) < 130:  # extend with the game's own further play: hints are always legal
        events = events + [(0, events[-1][1] + 1000 * i) for i in range(1, 131 - len(events))]
    session = replay(log, 0)
    for event in events:
        session.act(*event)
    short = record(session, new_header(session, created=CREATED, tool="test"))
    page = replay_page(short, verified_by="test")
    assert len(short.events) == 130
    assert len(page) < 200_000, len(page)


def test_the_page_is_self_contained():
    page = replay_page(read_log(ROOT / "fixtures" / "persian-carpet-won.log"), verified_by="carpet test")
    text, data = _page_parts(page)
    assert not re.search(r'(src|href)="(https?:)?//', text) and "@import" not in text and "url(http" not in text
    assert "<script src" not in text and "<link" not in text
    assert len(data["events"]) == 118 and data["events"][0][0] == "r7>DS"
    assert "yes, every event re-played by carpet test" in text
    assert text.count('<svg xmlns="http://www.w3.org/2000/svg" version="1.1" class="carpet-position"') == 1
    assert text.count("<li data-k=") == 118


def test_script_data_cannot_end_its_element():
    from carpet.formats.html import _script_json
    assert "</script>" not in _script_json({"x": "</script><script>alert(1)</script>"})


# --- the command line ---------------------------------------------------------------------------
def test_deal_and_show_write_svg(tmp_path):
    out = tmp_path / "deal.svg"
    result = run("deal", "crazy-quilt", "10", "--svg", out)
    assert result.exit_code == 0 and result.stdout == ""
    assert f"wrote {out}" in result.stderr
    root = pictures.parse(out.read_text(encoding="utf-8"))
    pictures.check(root, doc(run("deal", "crazy-quilt", "10", "--json")))
    assert pictures.fields(root)["note"] == "the deal"

    log = tmp_path / "g.log"
    shutil.copy(ROOT / "fixtures" / "carpet-won.log", log)
    out = tmp_path / "at.svg"
    assert run("show", log, "--at", 30, "--svg", out).exit_code == 0
    root = pictures.parse(out.read_text(encoding="utf-8"))
    pictures.check(root, doc(run("show", log, "--at", 30, "--json")))
    assert pictures.fields(root)["note"] == "after event 30 of 92: turn"
    # --json still prints the document, and - writes the picture to stdout
    both = run("show", log, "--json", "--svg", tmp_path / "now.svg")
    assert doc(both)["status"] == "won" and (tmp_path / "now.svg").exists()
    piped = run("deal", "kovrik", "1", "--svg", "-")
    assert piped.exit_code == 0 and pictures.parse(piped.stdout).get("viewBox")


def test_svg_errors_are_one_line(tmp_path):
    result = run("deal", "kovrik", "1", "--svg", tmp_path / "no" / "such" / "dir.svg")
    assert result.exit_code == 2
    assert result.stderr.count("\n") == 1 and "cannot write" in result.stderr and "Traceback" not in result.stderr
    result = run("deal", "kovrik", "1", "--svg", tmp_path)  # a directory
    assert result.exit_code == 2 and result.stderr.count("\n") == 1
    log = tmp_path / "g.log"
    shutil.copy(ROOT / "fixtures" / "kovrik-redeal-undo.log", log)
    result = run("show", log, "--at", 20, "--svg", tmp_path / "x.svg")
    assert result.exit_code == 2 and "only 19 events" in result.stderr and not (tmp_path / "x.svg").exists()


def test_export_html(tmp_path):
    log = tmp_path / "g.log"
    shutil.copy(ROOT / "fixtures" / "kovrik-redeal-undo.log", log)
    page = tmp_path / "g.html"
    result = run("export", log, "-o", page, "--json")
    assert result.exit_code == 0
    assert doc(result)["form"] == "html" and doc(result)["bytes"] == page.stat().st_size
    text, data = _page_parts(page.read_bytes())
    assert [e[0] for e in data["events"]][:3] == [e for e in decode_texts(log)][:3]
    # never over an existing file unless --force
    again = run("export", log, "-o", page)
    assert again.exit_code == 2 and "exists" in again.stderr
    assert run("export", log, "-o", page, "--force").exit_code == 0
    # a log that does not verify makes no page
    bad = tmp_path / "bad.log"
    data = bytearray(log.read_bytes())
    data[-3] ^= 0xFF
    bad.write_bytes(bytes(data))
    result = run("export", bad, "-o", tmp_path / "bad.html")
    assert result.exit_code in (1, 2) and not (tmp_path / "bad.html").exists()
    assert result.stderr.count("\n") == 1


def decode_texts(path):
    log = decode(path.read_bytes())
    variant = GAMES[log.header.game]
    return [variant.text(a) for a, _ in log.events]


def test_the_pictures_in_docs_are_what_the_commands_make(tmp_path, monkeypatch):
    folder = ROOT / "docs" / "pictures"
    text = (folder / "README.md").read_text(encoding="utf-8")
    commands = [line.split() for line in text.splitlines() if line.startswith("carpet ")]
    assert len(commands) == 5
    monkeypatch.chdir(ROOT)
    for args in commands:
        target = args[args.index("--svg") + 1]
        args[args.index("--svg") + 1] = str(tmp_path / "made.svg")
        result = run(*args[1:])
        assert result.exit_code == 0, result.stderr
        assert (tmp_path / "made.svg").read_bytes() == (ROOT / target).read_bytes(), \
            f"{target} is stale: run the commands in docs/pictures/README.md"
