"""The quilt family at the command line: its drawing, its notation, a whole session per game."""

import csv
import json
import re

import pytest
from freezegun import freeze_time

from carpet.cli import draw_quilt
from carpet.cli.cards_style import card_label
from carpet.core import get_game
from carpet.core.quilt import CELLS, TURN, orientation, split
from carpet.formats import read_log, replay, verify

from clitools import doc, plain, run, state_after

from conftest import ROOT

IDS = ("crazy-quilt", "indian-carpet", "persian-carpet")
STOCK_GAMES = ("crazy-quilt", "indian-carpet")

# one drawn quilt cell: |7♥| vertical, -7♥- horizontal, then * available, + a move takes it now
CELL = re.compile(r"(\|..\||-..-)([*+ ]?)|··")


def drawn_quilt(text: str) -> list[tuple[str, str]]:
    """The 64 drawn cells of a drawing, row-major: (edges and card, mark) or ("··", "") for a hole."""
    cells = []
    for line in text.splitlines():
        if len(line) > 2 and line[0] in "abcdefgh" and line[1:3] == "  ":
            row = [(m.group(1) or m.group(0), (m.group(2) or "").strip()) for m in CELL.finditer(line[3:])]
            assert len(row) == 8, line
            cells += row
    assert len(cells) == CELLS
    return cells


def check_drawing(state, text: str) -> None:
    """Every card drawn in its cell with its orientation, the available ones marked, the holes shown."""
    available = set(state.available())
    movable = {split(a)[0] for a in state.legal_actions() if a < TURN}
    for cell, (shape, mark) in enumerate(drawn_quilt(text)):
        card = state.cells[cell]
        if card < 0:
            assert shape == "··"
            continue
        assert shape[1:3] == card_label(card)
        assert shape[0] == shape[3] == ("|" if orientation(cell) == "vertical" else "-")
        expected = ("+" if cell in movable else "*") if cell in available else ""
        assert mark == expected, (cell, shape, mark)


@pytest.fixture(params=IDS)
def log(request, tmp_path):
    path = tmp_path / "g.log"
    with freeze_time("2026-11-29 10:00:00"):
        assert run("new", request.param, "1", "-o", path).exit_code == 0
    return path


# --- drawing ---------------------------------------------------------------------------------
def test_deal_draws_orientation_and_availability():
    result = run("deal", "crazy-quilt", "1")
    assert result.exit_code == 0 and "\x1b" not in result.stdout  # plain characters through a pipe
    lines = result.stdout.splitlines()
    assert "up   A♣ A♠ A♥ A♦   down K♣ K♠ K♥ K♦   (8 of 104)" in lines
    # a chessboard: a1 vertical, a2 horizontal; row a's vertical cards and column 8's horizontal
    # ones are available, and c8's 2♥ has a move (to the up pile of hearts)
    assert any(line.startswith("a  |3♦|*  -5♥-   |J♣|*  -5♠-") for line in lines)
    assert any(line.startswith("b  -A♠-*  |8♣|   -6♣-   |6♥|") for line in lines)
    assert any(line.rstrip().endswith("|7♣|   -2♥-+") for line in lines)
    assert "stock 32   waste empty   redeals left 1" in lines
    assert "|7♥| vert.  -7♥- horiz.  * free  + has a move  ·· hole" in lines
    assert all(len(line) <= 80 for line in lines)
    state = state_after("crazy-quilt", "1")
    check_drawing(state, result.stdout)
    assert sum(1 for _, mark in drawn_quilt(result.stdout) if mark) == 16  # docs/rules.md: 16 at the start


@pytest.mark.parametrize("game,moves", [
    ("crazy-quilt", ("c8>UH", "turn", "h8>w")),
    ("indian-carpet", ("c8>UH", "turn", "h8>w", "turn", "turn")),
    ("persian-carpet", ("c8>UH", "r1>UC", "g8>r6", "r1>DD", "d1>r5", "f8>DS")),
])
def test_played_positions_draw_holes_and_marks(game, moves):
    state = state_after(game, "1", *moves)
    text = plain(draw_quilt.render(state))
    check_drawing(state, text)
    assert drawn_quilt(text)[23] == ("··", "")  # c8
    assert all(len(line.rstrip()) <= 80 for line in text.splitlines())


def test_stock_and_waste_line():
    text = plain(draw_quilt.render(state_after("crazy-quilt", "1", "turn")))
    assert "stock 31   waste 6♣ (1 card)   redeals left 1" in text
    assert drawn_quilt(text)[63] == ("|5♣|", "+")  # h8's 5♣ goes onto the waste's 6♣
    text = plain(draw_quilt.render(state_after("crazy-quilt", "1", *["turn"] * 7)))
    assert "stock 25   waste Q♠+ (7 cards)   redeals left 1" in text  # Q♠ goes to the down pile
    emptied = state_after("indian-carpet", "1", *["turn"] * 32)
    assert "stock 0   waste 6♠ (32 cards)   redeals left 2   (redeal: waste to stock)" in \
        plain(draw_quilt.render(emptied))
    emptied.apply(emptied.variant.parse("redeal", emptied))
    assert "stock 32   waste empty   redeals left 1" in plain(draw_quilt.render(emptied))


def test_persian_carpet_draws_its_reserves():
    lines = run("deal", "persian-carpet", "1").stdout.splitlines()
    # two columns, r1-r4 beside r5-r8, where the width holds them (a 60-column screen does)
    assert any(line.startswith("r1  4  6♣ 9♥ Q♦ [2♣]+   r5  4  ") for line in lines)  # 2♣ goes up at once
    assert any(line.startswith("r2  4  J♥ 3♥ 7♠ [K♥]    r6  4  ") for line in lines)
    assert not any(line.startswith("stock") for line in lines)
    state = state_after("persian-carpet", "1", "r1>UC", "r1>DD")
    state.reserves[0] = ()
    text = plain(draw_quilt.render(state))
    assert "r1  0  empty" in text and "r8  4  " in text
    # a long reserve shows its top cards only, and how many more lie under them
    state.reserves[0] = tuple(state.reserves[1] * 6)
    line = next(line for line in plain(draw_quilt.render(state)).splitlines() if line.startswith("r1 "))
    assert line.startswith("r1 24  … 4 more J♥ 3♥") and line.rstrip().endswith("[K♥]")  # too wide for two


def test_a_won_game_draws_empty_quilt_and_full_foundations():
    state = state_after("crazy-quilt", "1")
    state.cells[:64] = [-1] * 64
    state.found = ([tuple(range(13 * s, 13 * s + 13)) for s in range(4)]
                   + [tuple(range(13 * s + 64, 13 * s + 51, -1)) for s in range(4)])
    state._reindex()
    text = plain(draw_quilt.render(state))
    assert "up   K♣ K♠ K♥ K♦   down A♣ A♠ A♥ A♦   (104 of 104)" in text
    assert drawn_quilt(text) == [("··", "")] * 64


# --- notation ---------------------------------------------------------------------------------
def test_moves_play_back_in_both_spellings(log):
    actions = doc(run("moves", log, "--json"))["actions"]
    assert actions and all("-" not in a for a in actions)
    for action in actions:
        for spelling in (action, action.replace(">", "-")):  # the dash needs no quoting in a shell
            assert run("play", log, spelling, "-q").exit_code == 0, spelling
            assert run("undo", log, "-q").exit_code == 0


def test_shorthands(tmp_path):
    path = tmp_path / "g.log"
    run("new", "crazy-quilt", "1", "-o", path)
    r = run("play", path, "2H", "turn", "5C", "--json")  # the card alone; the waste takes 5♣
    assert r.exit_code == 0 and doc(r)["events"] == 3
    assert doc(r)["layout"]["waste"] == ["6C", "5C"]
    frames = doc(run("replay", path, "--json"))["frames"]
    assert [f["action"] for f in frames[1:]] == ["c8>UH", "turn", "h8>w"]


def test_ambiguity_is_one_clear_line(tmp_path):
    path = tmp_path / "g.log"
    run("new", "persian-carpet", "1", "-o", path)
    before = path.read_bytes()
    for typed in ("g8", "3C", "3♣"):  # g8's 3♣ fits both r1 (2♣) and r6 (4♣)
        r = run("play", path, typed, "-q")
        assert r.exit_code == 1 and path.read_bytes() == before
        lines = r.stderr.strip().splitlines()
        assert len(lines) == 1 and "Traceback" not in r.stderr
        assert f"event 1 ({typed})" in lines[0] and "ambiguous" in lines[0]
        assert "g8>r1, g8>r6" in lines[0]
    assert run("play", path, "g8>r6", "-q").exit_code == 0


def test_illegal_and_unknown_actions(tmp_path):
    path = tmp_path / "g.log"
    run("new", "persian-carpet", "1", "-o", path)
    r = run("play", path, "c8>UH", "a2>UH", "-q")  # a2 is not available: the first stays
    assert r.exit_code == 1 and "event 2 (a2>UH)" in r.stderr and "not available" in r.stderr
    assert doc(run("show", path, "--json"))["events"] == 1
    r = run("play", path, "turn", "-q")
    assert r.exit_code == 1 and "no stock" in r.stderr  # a well-formed action the rules refuse
    assert len(r.stderr.strip().splitlines()) == 1


# --- a whole session, per game ------------------------------------------------------------------
def test_show_json_layout(log):
    d = doc(run("show", log, "--json"))
    layout = d["layout"]
    assert set(layout["foundations"]) == {"up", "down"}
    assert layout["foundations"]["up"] == {"C": "AC", "S": "AS", "H": "AH", "D": "AD"}
    assert layout["foundations"]["down"] == {"C": "KC", "S": "KS", "H": "KH", "D": "KD"}
    assert len(layout["quilt"]) == 8 and all(len(row) == 8 for row in layout["quilt"])
    assert layout["quilt"][0][:3] == ["3D", "5H", "JC"]
    if d["game"] == "persian-carpet":
        assert set(layout) == {"foundations", "quilt", "reserves"} and d["redeals_left"] == 0
        assert layout["reserves"][0] == ["6C", "9H", "QD", "2C"]  # bottom first
    else:
        assert set(layout) == {"foundations", "quilt", "stock", "waste"}
        assert len(layout["stock"]) == 32 and layout["waste"] == []
        stock = layout["stock"]
        r = run("play", log, "turn", "turn", "--json")
        assert doc(r)["layout"]["waste"] == stock[:2]  # stock top first, waste bottom first
        assert doc(r)["layout"]["stock"] == stock[2:]


def test_session_new_play_hint_undo_restart_show_verify_export(log, tmp_path):
    game = doc(run("show", log, "--json"))["game"]
    with freeze_time("2026-11-29 10:00:03"):
        r = run("play", log, "-", "--json", input="c8-UH hint\n")
    last = json.loads(r.stdout.splitlines()[-1])  # a document an action: the hint's is the last
    assert r.exit_code == 0 and last["elapsed_ms"] == 3000
    hinted = last["hint"]
    assert hinted in doc(run("moves", log, "--json"))["actions"]
    assert last["moves"] == 1 and last["score"] == 1  # the hint is free
    with freeze_time("2026-11-29 10:00:04"):
        r = run("play", log, hinted, "--json")
    assert doc(r)["moves"] == 2
    with freeze_time("2026-11-29 10:00:05"):
        r = run("undo", log, "--json")
    assert doc(r)["moves"] == 1 and doc(r)["events"] == 4 and doc(r)["elapsed_ms"] == 5000
    r = run("hint", log)
    assert r.exit_code == 0 and r.stdout.startswith("hint: ") and "up " in r.stdout
    with freeze_time("2026-11-29 10:00:06"):
        r = run("restart", log, "--json")
    assert doc(r)["moves"] == 0 and doc(r)["elapsed_ms"] == 0 and doc(r)["score"] == 0
    assert doc(r)["layout"] == doc(run("deal", game, "1", "--json"))["layout"]
    shown = run("show", log)
    assert shown.exit_code == 0 and "|3♦|" in shown.stdout and "-5♥-" in shown.stdout
    assert doc(run("show", log, "--at", "1", "--json"))["moves"] == 1
    replayed = run("replay", log)
    assert replayed.exit_code == 0 and "event 6: restart" in replayed.stdout
    verified = doc(run("verify", log, "--json"))["results"][0]
    assert verified["ok"] and verified["game"] == game and verified["events"] == 6
    as_json, back = tmp_path / "g.json", tmp_path / "back.log"
    assert run("export", log, "-o", as_json).exit_code == 0
    events = json.loads(as_json.read_text())["events"]
    assert [e[0] for e in events] == ["c8>UH", "hint", hinted, "undo", "hint", "restart"]
    assert run("export", as_json, "-o", back).exit_code == 0
    assert back.read_bytes() == log.read_bytes()
    assert run("verify", as_json, back).exit_code == 0


@pytest.mark.parametrize("game", STOCK_GAMES)
def test_redeals_undo_refunds_them(game, tmp_path):
    path = tmp_path / "g.log"
    run("new", game, "1", "-o", path)
    redeals = get_game(game).redeals
    r = run("redeal", path, "-q")
    assert r.exit_code == 1 and "stock is not empty" in r.stderr
    stock = doc(run("show", path, "--json"))["layout"]["stock"]
    for used in range(redeals):
        d = doc(run("play", path, *["turn"] * 32, "--json"))
        assert d["layout"]["stock"] == [] and d["layout"]["waste"] == stock
        assert "redeal" in doc(run("moves", path, "--json"))["actions"]
        d = doc(run("redeal", path, "--json"))
        assert d["redeals_left"] == redeals - used - 1
        assert d["layout"]["stock"] == stock and d["layout"]["waste"] == []  # unshuffled
        d = doc(run("undo", path, "--json"))  # the redeal is refunded
        assert d["redeals_left"] == redeals - used and d["layout"]["waste"] == stock
        assert doc(run("redeal", path, "--json"))["redeals_left"] == redeals - used - 1
    run("play", path, *["turn"] * 32, "-q")
    r = run("redeal", path, "-q")
    assert r.exit_code == 1 and "no redeals left" in r.stderr
    assert "redeal" not in doc(run("moves", path, "--json"))["actions"]
    d = doc(run("restart", path, "--json"))
    assert d["redeals_left"] == redeals and d["layout"]["stock"] == stock
    assert run("verify", path).exit_code == 0


def test_persian_carpet_has_no_redeal(tmp_path):
    path = tmp_path / "g.log"
    run("new", "persian-carpet", "1", "-o", path)
    r = run("redeal", path, "-q")
    # redeal is a word of every game's interface: here it is simply not allowed (exit 1)
    assert r.exit_code == 1 and "has no redeal" in r.stderr and len(r.stderr.strip().splitlines()) == 1


# --- the recorded games --------------------------------------------------------------------------
FIXTURES = ROOT / "fixtures"
MANIFEST = list(csv.DictReader((FIXTURES / "manifest.tsv").open(encoding="utf-8"), delimiter="\t"))


def test_fixtures_cover_the_family():
    rows = [row for row in MANIFEST if row["game"] in IDS]
    assert {row["game"] for row in rows if row["status"] == "won"} == set(IDS)
    assert any(row["status"] == "lost" for row in rows)
    assert any(row["file"].endswith(".json") for row in rows)
    events = {}
    for row in rows:
        frames = doc(run("replay", FIXTURES / row["file"], "--json"))["frames"]
        events[row["file"]] = [frame["action"] for frame in frames[1:]]
    assert any(actions.count("redeal") == 1 for f, actions in events.items() if f.startswith("crazy-quilt"))
    assert any(actions.count("redeal") >= 2 for f, actions in events.items() if f.startswith("indian-carpet"))
    assert any("restart" in actions for actions in events.values())
    assert any({"hint", "undo"} <= set(actions) for actions in events.values())


@pytest.mark.parametrize("row", [r for r in MANIFEST if r["game"] in IDS], ids=lambda r: r["file"])
def test_recorded_games_draw(row):
    path = FIXTURES / row["file"]
    session = verify(read_log(path))
    shown = run("show", path)
    assert shown.exit_code == 0 and row["status"] in shown.stdout
    check_drawing(session.state, shown.stdout)
    middle = len(session.events) // 2
    halfway = run("show", path, "--at", middle)
    check_drawing(replay(read_log(path), middle).state, halfway.stdout)
