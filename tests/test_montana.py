"""The Montana family against PySolFC's layouts and against a second, independent reading of
its rules (docs/rules.md, the sections of the Montana games) written here: its own generators,
deals, redeal and move rule, sharing no code with the engine but the card codes it compares."""

from __future__ import annotations

import copy
import random
import subprocess
import sys

import pytest
from freezegun import freeze_time

from carpet.core import UNDO, IllegalAction, Session, get_game, parse_deal
from carpet.core.game import LOST, PLAYING, WON
from carpet.core.grid import REDEAL
from carpet.formats import new_header, record, verify

from clitools import doc, run

FAMILY = ["montana", "spaces", "station", "free-parking", "blue-moon", "red-moon", "galary", "jungle",
          "spaces-and-aces"]
VECTOR_CASES = [(g, n) for g in ("montana", "spaces", "station", "blue-moon", "red-moon", "galary", "jungle")
                for n in ("1", "123456789012")]

# --- the reference: the rules read again, from scratch ---------------------------------------------
RANKS, SUITS = "A23456789TJQK", "CSHD"


def face(card_id: int) -> str:
    return RANKS[card_id % 13] + SUITS[card_id // 13]


def rank(code: str) -> int:
    return RANKS.index(code[0])


class Microsoft:
    def __init__(self, seed: int) -> None:
        self.big = seed >= 2**32
        self.x = seed - 2**32 if self.big else seed
        self.high = 0x8000 if 2**31 <= seed < 2**32 else 0

    def randint(self, a: int, b: int) -> int:
        self.x = (self.x * 214013 + 2531011) % 2**33
        r = ((self.x >> 16) & 0xFFFF) + 1 if self.big else ((self.x >> 16) & 0x7FFF) | self.high
        return a + r % (b - a + 1)


class Twister:
    def __init__(self, seed: int) -> None:
        self.r = random.Random(seed)

    def randint(self, a: int, b: int) -> int:
        return a + int(self.r.random() * (b - a + 1))


def generator(text: str):
    if text.startswith("ms"):
        return Microsoft(int(text[2:])), True
    n = int(text)
    return (Microsoft(n), True) if n < 32000 else (Twister(n), False)


def shuffle(items: list, gen) -> None:
    for n in range(len(items) - 1, 0, -1):
        j = gen.randint(0, n)
        items[n], items[j] = items[j], items[n]


# what the rules say of each game: (columns, base rank, deal, build, left rule, redeals, spaces)
GAME = {
    "montana": (13, 1, "aces out", "next", False, 2, "gap"),
    "spaces": (13, 1, "aces out", "next", False, 2, "random"),
    "station": (13, 1, "aces out", "next", False, 2, "last"),
    "free-parking": (13, 1, "aces out", "next", True, 2, "gap"),
    "blue-moon": (14, 0, "aces moved", "next", False, 2, "gap"),
    "red-moon": (14, 0, "aces first", "next", False, 2, "gap"),
    "galary": (14, 0, "aces first", "next", True, 2, "gap"),
    "jungle": (14, 0, "aces moved", "any suit", False, 1, "gap"),
    "spaces-and-aces": (14, 0, "kovrik", "higher", False, 0, "gap"),
}


def ref_deal(game: str, number: str):
    """The grid (rows of codes, None for empty) and the generator after the deal."""
    gen, ms = generator(number)
    ids = list(range(52))
    if ms:
        ids = [ids[r + s * 13] for r in range(13) for s in (0, 3, 2, 1)]  # rank-major, ♣ ♦ ♥ ♠
    shuffle(ids, gen)
    dealt = [face(i) for i in reversed(ids)]  # the last element is dealt first
    cols, _, how, *_ = GAME[game]
    grid = [[None] * cols for _ in range(4)]
    if how == "aces out":
        for i, code in enumerate(dealt):
            if code[0] != "A":
                grid[i // 13][i % 13] = code
    elif how in ("aces moved", "kovrik"):
        for i, code in enumerate(dealt):
            grid[i // 13][1 + i % 13] = code
        if how == "aces moved":
            found = [(r, c) for r in range(4) for c in range(14) if grid[r][c] and grid[r][c][0] == "A"]
            for row, (r, c) in enumerate(found):
                grid[row][0], grid[r][c] = grid[r][c], None
    else:  # aces first, in suit order ♣ ♠ ♥ ♦, then 12 cards per row into columns 2..13
        for row, suit in enumerate("CSHD"):
            grid[row][0] = "A" + suit
        rest = [code for code in dealt if code[0] != "A"]
        for i, code in enumerate(rest):
            grid[i // 12][2 + i % 12] = code
    return grid, gen


def ref_run(grid, game: str, row: int) -> int:
    base = GAME[game][1]
    line = grid[row]
    if line[0] is None or rank(line[0]) != base:
        return 0
    n = 1
    while n < len(line) and line[n] and line[n][1] == line[0][1] and rank(line[n]) == base + n:
        n += 1
    return n


def ref_redeal(grid, game: str, gen) -> None:
    cols, _, _, _, _, _, spaces_rule = GAME[game]
    targets, loose, gaps = [], [], []
    for row in range(4):
        run_ = ref_run(grid, game, row)
        gaps.append((row, run_))
        for col in range(run_, cols):
            targets.append((row, col))
            if grid[row][col]:
                loose.append(grid[row][col])
                grid[row][col] = None
    shuffle(loose, gen)
    if spaces_rule == "gap":
        spaces = gaps
    elif spaces_rule == "last":
        spaces = [(row, cols - 1) for row in range(4)]
    else:
        spaces = []
        while len(spaces) != 4:
            cell = targets[gen.randint(0, len(targets) - 1)]
            if cell not in spaces:
                spaces.append(cell)
    for row, col in targets:
        if (row, col) not in spaces:
            grid[row][col] = loose.pop()
    assert not loose


def ref_fits(grid, game: str, code: str, row: int, col: int) -> bool:
    cols, base, _, build, left_rule, _, _ = GAME[game]
    if col == 0:
        return rank(code) == base
    left = grid[row][col - 1]
    if left and left[0] != "K":
        if build == "next" and left[1] == code[1] and rank(code) == rank(left) + 1:
            return True
        if build == "any suit" and rank(code) == rank(left) + 1:
            return True
        if build == "higher" and left[1] == code[1] and rank(code) > rank(left):
            return True
    if left_rule and col + 1 < cols:
        right = grid[row][col + 1]
        if right and right[1] == code[1] and rank(code) == rank(right) - 1:
            return True
    return False


def ref_moves(grid, game: str) -> set[str]:
    """Every card move, by brute force: every card on the board against every empty cell."""
    cols = GAME[game][0]
    cards = [grid[r][c] for r in range(4) for c in range(cols) if grid[r][c]]
    return {f"{code}>{'abcd'[r]}{c}" for r in range(4) for c in range(cols) if grid[r][c] is None
            for code in cards if ref_fits(grid, game, code, r, c)}


def ref_move(grid, text: str) -> None:
    code, _, cell = text.partition(">")
    (r, c), = [(r, c) for r in range(4) for c in range(len(grid[0])) if grid[r][c] == code]
    grid[r][c], grid["abcd".index(cell[0])][int(cell[1:])] = None, code


def engine_moves(session: Session) -> set[str]:
    return {session.variant.text(a) for a in session.legal_actions() if a != REDEAL}


def grid_of(session: Session):
    return session.state.layout()["grid"]


def deals(count: int, seed: int) -> list[str]:
    rng = random.Random(seed)
    numbers = [str(rng.randint(1, 31999)) for _ in range(count)]
    numbers += [str(rng.randint(32000, 10**20 - 1)) for _ in range(count)]
    numbers += ["ms" + str(rng.randint(2**31, 2**32 - 1)), "ms" + str(rng.randint(2**32, 2**33 - 1))]
    return numbers


# --- PySolFC's own layouts ---------------------------------------------------------------------
@pytest.mark.parametrize("game,number", VECTOR_CASES)
def test_deal_and_one_redeal_are_pysolfc(vectors, game, number):
    session = Session(get_game(game), parse_deal(number))
    assert grid_of(session) == vectors[game][number]["grid"]
    session.act(REDEAL, 0)
    assert grid_of(session) == vectors[game][number]["after_redeal_1"]


@pytest.mark.parametrize("game,number", VECTOR_CASES)
def test_the_reference_agrees_with_pysolfc(vectors, game, number):
    """The reading of the rules in this file is itself pinned to PySolFC's layouts."""
    grid, gen = ref_deal(game, number)
    assert grid == vectors[game][number]["grid"]
    ref_redeal(grid, game, gen)
    assert grid == vectors[game][number]["after_redeal_1"]


def test_spaces_and_aces_deals_as_kovrik(vectors):
    for number in ("1", "123456789012"):
        assert grid_of(Session(get_game("spaces-and-aces"), parse_deal(number))) == vectors["kovrik"][number]["grid"]


@pytest.mark.parametrize("game,number", VECTOR_CASES)
def test_through_the_command_line(vectors, tmp_path, game, number):
    dealt = doc(run("deal", game, number, "--json"))
    assert dealt["layout"]["grid"] == vectors[game][number]["grid"] and dealt["redeals_left"] == GAME[game][5]
    path = tmp_path / "g.log"
    with freeze_time("2026-11-30 10:00:00"):
        assert run("new", game, number, "-o", path).exit_code == 0
        played = run("play", path, "redeal", "--json")
    assert played.exit_code == 0, played.stderr
    shown = doc(run("show", path, "--json"))
    assert shown["layout"]["grid"] == doc(played)["layout"]["grid"] == vectors[game][number]["after_redeal_1"]
    assert (shown["moves"], shown["redeals_left"]) == (1, GAME[game][5] - 1)
    assert run("verify", path).exit_code == 0


# --- the reference, on numbers of both generators ---------------------------------------------------
@pytest.mark.parametrize("game", FAMILY)
def test_deals_and_every_redeal_agree_with_the_reference(game):
    """Deals and the redeals made at once from them, both generators, every seed range."""
    variant = get_game(game)
    for number in deals(12, FAMILY.index(game)):
        session = Session(variant, parse_deal(number))
        grid, gen = ref_deal(game, number)
        assert grid_of(session) == grid, number
        for _ in range(variant.redeals):
            session.act(REDEAL, 0)
            ref_redeal(grid, game, gen)
            assert grid_of(session) == grid, number


@pytest.mark.parametrize("game", FAMILY)
def test_random_play_agrees_with_the_reference_move_for_move(game):
    """Random legal play (moves, redeals, undos) against the reference: the legal moves by brute
    force over every cell, the grid after each action, score, status and the click."""
    variant = get_game(game)
    rng = random.Random(game)
    cols, _, _, _, _, redeals, _ = GAME[game]
    for number in deals(4, rng.randint(0, 99)):
        session = Session(variant, parse_deal(number))
        grid, gen = ref_deal(game, number)
        history = []
        for _ in range(120):
            assert grid_of(session) == grid
            moves = ref_moves(grid, game)
            assert engine_moves(session) == moves
            state = session.state  # the single-move check (explicit moves, the click) agrees too
            assert {f"{variant.text(variant.move(card, gap)).split('>')[0]}>{variant.board.cell_name(gap)}"
                    for gap in state.gaps for card in state.all_cards() if state.fits(card, gap)} == moves
            runs = [ref_run(grid, game, row) for row in range(4)]
            assert session.score == sum(runs)
            redeals_left = redeals - session.state.redeals_used
            expected = WON if sum(runs) == 4 * (cols - 1) else PLAYING if moves or redeals_left else LOST
            assert session.status == expected
            for code in {m.split(">")[0] for m in moves}:  # the click: first fitting empty cell, row-major
                first = min((m for m in moves if m.startswith(code + ">")),
                            key=lambda m: ("abcd".index(m.split(">")[1][0]), int(m.split(">")[1][1:])))
                assert variant.text(session.parse(code)) == first
            if expected != PLAYING:
                break
            roll = rng.random()
            if roll < 0.1 and history:
                session.act(UNDO, 0)
                grid, gen = history.pop()
                continue
            history.append((copy.deepcopy(grid), copy.deepcopy(gen)))
            if roll < 0.2 and redeals_left:
                session.act(REDEAL, 0)
                ref_redeal(grid, game, gen)
            elif moves:
                move = rng.choice(sorted(moves))
                session.act(session.parse(move), 0)
                ref_move(grid, move)
            else:
                session.act(REDEAL, 0)
                ref_redeal(grid, game, gen)


# --- undo and redeal ------------------------------------------------------------------------------
@pytest.mark.parametrize("game", [g for g in FAMILY if GAME[g][5]])
@pytest.mark.parametrize("number", ["7", "123456", "ms3000000000"])
def test_undo_of_a_redeal_then_the_same_redeal_gives_the_same_grid(game, number):
    session = Session(get_game(game), parse_deal(number))
    session.act(session.state.hint(), 0)  # a move first, so the redeal is not from the deal itself
    session.act(REDEAL, 0)
    first = grid_of(session)
    session.act(UNDO, 0)
    assert session.redeals_left == GAME[game][5] and session.moves == 1  # the redeal is given back, uncounted
    session.act(REDEAL, 0)
    assert grid_of(session) == first
    if GAME[game][5] > 1:
        session.act(REDEAL, 0)
        second = grid_of(session)
        session.act(UNDO, 0)
        session.act(UNDO, 0)
        session.act(REDEAL, 0)
        assert grid_of(session) == first
        session.act(REDEAL, 0)
        assert grid_of(session) == second
        assert session.redeals_left == 0
        with pytest.raises(IllegalAction, match="no redeals left"):
            session.act(REDEAL, 0)


def test_a_log_with_redeals_and_undos_verifies_and_replays_the_same_cards():
    session = Session(get_game("spaces"), parse_deal("98765432101"))
    for action in (REDEAL, UNDO, REDEAL, REDEAL, UNDO, REDEAL):
        session.act(action, 0)
    log = record(session, new_header(session, created="2026-11-30T12:00:00.000Z", tool="test"))
    again = verify(log)
    assert grid_of(again) == grid_of(session) and again.redeals_left == 0 and again.moves == 2


def test_hints_and_undos_are_free_and_undo_restores_the_score():
    session = Session(get_game("montana"), parse_deal("1"))
    session.act(0, 0)  # hint
    assert session.moves == 0
    before = session.score
    session.act(session.state.hint(), 0)
    session.act(UNDO, 0)
    assert (session.moves, session.score) == (0, before)


# --- rules on chosen positions ----------------------------------------------------------------------
def position(game: str, text: str):
    from carpet.core.grid import GridState
    rows = [[None if c == ".." else c for c in line.split()] for line in text.strip().splitlines()]
    return GridState.from_rows(get_game(game), rows)


STUCK = """
2C 3C 4C 5C 6C 7C 8C 9C TC JC QC KC ..
2S 3S 4S 5S 6S 7S 8S 9S TS JS QS KH ..
2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KS ..
2D 3D 4D 5D 6D 7D 8D 9D TD JD QD KD ..
"""


def test_lost_when_no_card_move_and_no_redeal_left():
    state = position("montana", STUCK)
    assert state.card_moves() == [] and state.status == PLAYING and state.score == 46
    state.redeals_used = 2
    state.update_status()
    assert state.status == LOST and state.legal_actions() == []


@pytest.mark.parametrize("game", ["free-parking", "galary"])
def test_rows_do_not_wrap(game):
    """a12 (d13 in galary) is empty right of a king: PySolFC's code would let it take the card one
    lower than the first card of the next row (4S, left of 5S); our rules do not (decision)."""
    montana = """
2C 3C 4C 5C 6C 7C 8C 9C TC JC QC KC ..
5S 2S 3S 4S .. 6S 7S 8S 9S TS JS QS KS
2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH ..
2D 3D 4D 5D 6D 7D 8D 9D TD JD QD KD ..
"""
    moon = """
AC 2C 3C 4C 5C 6C 7C 8C 9C TC JC QC KC ..
5S AS 2S 3S 4S .. 6S 7S 8S 9S TS JS QS KS
AH 2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH ..
AD 2D 3D 4D 5D 6D 7D 8D 9D TD JD QD KD ..
"""
    state = position(game, montana if game == "free-parking" else moon)
    texts = {state.variant.text(a) for a in state.card_moves()}
    assert texts == ({"5S>b4"} if game == "free-parking" else {"5S>b5"})
    assert ref_moves(state.layout()["grid"], game) == texts


def test_jungle_builds_any_suit_and_spaces_and_aces_any_higher():
    jungle = position("jungle", """
AC 2C 3C 4C 5C 6C 7C 8C 9C TC JC QC .. KC
AS 2S 3S 4S 5S 6S 7S 8S 9S TS JS QS KS ..
AH 2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH ..
AD 2D 3D 4D 5D 6D 7D 8D 9D TD JD QD KD ..
""")
    assert {jungle.variant.text(a) for a in jungle.card_moves()} == {"KC>a12", "KS>a12", "KH>a12", "KD>a12"}
    higher = position("spaces-and-aces", """
AC 2C 3C 4C 5C 6C 7C 8C 9C .. TC JC QC KC
AS 2S 3S 4S 5S 6S 7S 8S 9S TS JS QS KS ..
AH 2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH ..
AD 2D 3D 4D 5D 6D 7D 8D 9D TD JD QD KD ..
""")
    assert {higher.variant.text(a) for a in higher.card_moves()} == {"TC>a9", "JC>a9", "QC>a9", "KC>a9"}


def test_aces_are_out_of_the_montana_games():
    session = Session(get_game("montana"), parse_deal("1"))
    for text in ("AS", "AS>a12"):
        with pytest.raises(IllegalAction, match="not in this game"):
            session.play_text(text, 0)
    assert session.events == []


def test_spaces_and_aces_has_no_redeal():
    session = Session(get_game("spaces-and-aces"), parse_deal("1"))
    assert session.redeals_left == 0 and REDEAL not in session.legal_actions()
    with pytest.raises(IllegalAction, match="has no redeal"):
        session.play_text("redeal", 0)


def test_bad_moves_on_the_command_line_are_one_line(tmp_path):
    path = tmp_path / "m.log"
    assert run("new", "montana", "1", "-o", path).exit_code == 0
    for args, code, needle in [(["AS"], 1, "not in this game"), (["KS>a13"], 1, "no cell a13 on this board"),
                               (["KS>e1"], 2, "not a cell"), (["KS>a14"], 2, "not a cell"),
                               (["KS>a²"], 2, "not a cell"), (["9H>a12"], 1, "does not fit")]:
        result = run("play", path, *args)
        assert result.exit_code == code and needle in result.stderr
        assert len(result.stderr.strip().splitlines()) == 1 and "Traceback" not in result.output


@pytest.mark.parametrize("game", FAMILY)
def test_rules_mark_decisions(game):
    text = get_game(game).rules
    assert "(decision" in text and "PySolFC" in text


def test_rules_are_built_when_asked_for_not_at_import():
    lazy = subprocess.run([sys.executable, "-c", "import carpet.core.grid.montana as m, carpet.core.grid as g; "
                           "print(all(callable(v.__dict__['_rules']) for v in m.VARIANTS + g.VARIANTS))"],
                          capture_output=True, text=True)
    assert lazy.stdout.strip() == "True"


def test_the_built_in_player_wins_some_montana_games():
    from carpet.core.autoplay import play_out
    won = 0
    for n in range(1, 41):
        session = Session(get_game("montana"), parse_deal(str(n)))
        play_out(session)
        won += session.status == WON
        assert session.status != PLAYING or len(session.events) > 0
    assert won >= 1


def test_pictures_mark_runs_not_locks_in_the_montana_games():
    import pictures
    from carpet.formats import read_log, replay
    from carpet.formats.svg import position_svg
    from conftest import ROOT
    session = replay(read_log(ROOT / "fixtures" / "montana-won.log"), 100)
    root = pictures.parse(position_svg(session).decode())
    classes = {g.get("data-cell"): g.get("class").split() for g in pictures.slots(root)}
    assert len(classes) == 52 and {"a12", "d12"} <= set(classes) and "a13" not in classes
    prefix = session.state.prefix
    for name, cls in classes.items():
        row, col = "abcd".index(name[0]), int(name[1:])
        assert ("run" in cls) == (col < prefix[row] and "card" in cls) and "locked" not in cls
    assert sum(prefix) > 0
