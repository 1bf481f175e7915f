"""Positions as text (issue 22; docs/format.md, "Positions as text"): the round trip for every
position of every game, the forgiving reader, the strict one, and the commands that take one."""

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from carpet.core import GAMES, Session, parse_deal
from carpet.core.position import UNSEEN, BadPosition, Start, read, read_cards, write
from carpet.core.solver import solve
from carpet.formats import decode, encode, new_header, record, verify

from clitools import doc, one_line, run
from playthrough import random_session

ALL = sorted(GAMES)
FAMILIES = {"grid": "kovrik-shuffle", "carpet": "carpet-foster", "quilt": "crazy-quilt"}
CREATED = "2026-11-29T12:00:00.000Z"
quick = settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def texts(state) -> list[str]:
    return [state.variant.text(a) for a in state.legal_actions()]


def same_position(state, again, *, read_now: bool = True) -> None:
    """What the text promises: the same legal actions, status, score, redeals left and digest
    (in the quilt family the digest of the copies as the reader places them, ``again`` being read
    just now: docs/format.md)."""
    assert texts(again) == texts(state)
    assert (again.status, again.score, again.redeals_left) == (state.status, state.score, state.redeals_left)
    assert write(again) == write(state)
    if state.variant.family == "quilt":
        assert again.layout() == state.layout()
        assert not read_now or read(write(again)).state().digest() == again.digest()
    else:
        assert again.digest() == state.digest()


# --- the round trip ---------------------------------------------------------------------------
@pytest.mark.parametrize("game", ALL)
@quick
@given(seed=st.integers(0, 2**32), steps=st.integers(0, 150))
def test_print_then_read_gives_the_same_position_and_the_same_future(game, seed, steps):
    session = random_session(GAMES[game], seed, steps, check=False)
    state = session.state
    again = read(write(state)).state()
    same_position(state, again)
    rng = random.Random(seed)
    for _ in range(12):  # the same actions on both: the same positions (the generator's draws too)
        actions = state.legal_actions()
        if not actions:
            break
        action = rng.choice(actions)
        state.apply(action)
        again.apply(action)
        same_position(state, again, read_now=False)


@pytest.mark.parametrize("game", ALL)
def test_a_deals_text_reads_back_for_many_deals(game):
    variant = GAMES[game]
    for number in (1, 2, 617, 31999, 123456789):
        state = variant.new_state(parse_deal(str(number)))
        same_position(state, read(write(state)).state())


def test_the_reader_forgives_case_ten_symbols_and_spaces():
    text = write(GAMES["carpet"].new_state(parse_deal("1")))
    typed = ("  Carpet   jd2♦9HJ♣5d/7h7c5hkdkc/9S5SQCKH3H/2SKS9DQDJS  F:A♣A♠A♥A♦ "
             "s:3C4C5C10♠QH4H4D7S3S10D4STH8H2CJH7D6D8S8DQS6C3D8CTC6S9C2H6H     W:-   ")
    assert read(typed).text == text
    assert read_cards("10♦t♥kS2c", "test") == [3 * 13 + 9, 2 * 13 + 9, 1 * 13 + 12, 1]


def test_the_texts_of_each_family_are_as_documented():
    assert write(GAMES["carpet"].new_state(parse_deal("1"))) == (
        "carpet JD2D9HJC5D/7H7C5HKDKC/9S5SQCKH3H/2SKS9DQDJS f:ACASAHAD "
        "s:3C4C5CTSQH4H4D7S3STD4STH8H2CJH7D6D8S8DQS6C3D8CTC6S9C2H6H w:-")
    dealt = GAMES["montana"].new_state(parse_deal("1"))
    x, high = dealt.rng.getstate()
    assert write(dealt).split(" ")[2:] == ["r:2", f"g:ms.{x}.{high}"]
    mt = GAMES["montana"].new_state(parse_deal("123456"))
    assert write(mt).split(" ")[3] == f"g:mt.123456.{mt.rng.getstate()}"
    assert write(GAMES["kovrik"].new_state(parse_deal("1"))).endswith(" r:3")
    assert write(GAMES["spaces-and-aces"].new_state(parse_deal("1"))).count(" ") == 1
    persian = write(GAMES["persian-carpet"].new_state(parse_deal("1")))
    assert persian.split(" ")[2:4] == ["u:ACASAHAD", "d:KCKSKHKD"] and persian.split(" ")[4].count("/") == 7


def test_a_generator_left_out_is_seeded_by_the_text():
    text = write(GAMES["kovrik-shuffle"].new_state(parse_deal("5")))
    bare = " ".join(f for f in text.split(" ") if not f.startswith("g:"))
    first, second = read(bare), read(bare)
    assert first.text == second.text and " g:mt." in first.text
    moved = GAMES["kovrik-shuffle"].new_state(parse_deal("5"))
    moved.apply(moved.card_moves()[0])
    other = read(" ".join(f for f in write(moved).split(" ") if not f.startswith("g:")))  # another text: another generator
    assert other.text.split(" g:")[0] != first.text.split(" g:")[0]
    assert other.text.split(" g:")[1].split(" ")[0] != first.text.split(" g:")[1].split(" ")[0]
    a, b = first.state(), second.state()
    a.apply(3)  # redeal
    b.apply(3)
    assert write(a) == write(b)


# --- unseen cards -------------------------------------------------------------------------------
@pytest.mark.parametrize("game", ["carpet", "carpet-auto", "carpet-foster", "crazy-quilt", "indian-carpet"])
def test_unseen_cards_read_and_make_a_state_only_with_an_order(game):
    state = GAMES[game].new_state(parse_deal("7"))
    text = write(state)
    stock = next(f for f in text.split(" ") if f.startswith("s:"))
    hidden = text.replace(stock, "s:" + "??" * ((len(stock) - 2) // 2))
    position = read(hidden)
    assert position.text == hidden
    with pytest.raises(BadPosition, match="unseen"):
        position.state()
    order = read_cards(stock[2:], "s")
    assert sorted(position.unseen) == sorted(order)
    same_position(state, position.with_order(order))
    partly = text.replace(stock, stock[:6] + "??" * ((len(stock) - 6) // 2))
    assert read(partly).with_order(order[2:]).digest() == read(text).state().digest()
    with pytest.raises(BadPosition):
        position.with_order(order[1:])


def test_unseen_cards_are_refused_outside_a_stock():
    text = write(GAMES["carpet"].new_state(parse_deal("1")))
    with pytest.raises(BadPosition, match="face-down stock"):
        read(text.replace("JD2D", "??2D", 1))
    with pytest.raises(BadPosition, match="face-down stock"):
        read(write(GAMES["kovrik"].new_state(parse_deal("1"))).replace("AC", "??", 1))
    assert read_cards("??", "s", unseen=True) == [UNSEEN]


# --- the strict reader --------------------------------------------------------------------------
def grid(game: str, first: str, aces: bool) -> str:
    """A grid position: row a is ``first`` then 3C up to KC; rows b-d the twos to kings of spades,
    hearts and diamonds, their ace first where ``aces``; each row's last cell empty."""
    rows = [first + "3C4C5C6C7C8C9CTCJCQCKC.."] + [
        ("A" + s if aces else "") + "".join(r + s for r in "23456789TJQK") + ".." for s in "SHD"]
    return f"{game} " + "/".join(rows)


CARPET1 = ("carpet JD2D9HJC5D/7H7C5HKDKC/9S5SQCKH3H/2SKS9DQDJS f:ACASAHAD "
           "s:3C4C5CTSQH4H4D7S3STD4STH8H2CJH7D6D8S8DQS6C3D8CTC6S9C2H6H w:-")
BAD = {
    "cut": (CARPET1[:70], "needs its field w:"),
    "a cell cut": (CARPET1.replace("JD2D9HJC5D", "JD2D9HJC"), "row a has 4 cells, not 5"),
    "padded": (CARPET1 + " x:1", "no field x:"),
    "a word": (CARPET1 + " extra", "name:value"),
    "a row too many": (CARPET1.replace("/2SKS", "/../2SKS"), "4 rows"),
    "a card twice": (CARPET1.replace("JD2D", "JDJD"), "JD appears twice: in a1 and in a2"),
    "a card missing": (CARPET1.replace("s:3C", "s:"), "3C is missing"),
    "two missing": (CARPET1.replace("s:3C4C", "s:"), "2 cards are missing: 3C, 4C"),
    "a foundation out of order": (CARPET1.replace("f:AC", "f:3C"), "2C appears twice: in the clubs foundation"),
    "a foundation twice": (CARPET1.replace("f:AC", "f:ACAC"), "names the clubs foundation twice"),
    "a foundation missing": (CARPET1.replace("f:AC", "f:"), "clubs foundation is missing"),
    "no card": (CARPET1.replace("JD2D", "XD2D"), "is not a card"),
    "an ace on the carpet": (CARPET1.replace("carpet ", "carpet-foster ").replace("JD2D", "AD2D")
                             .replace("f:ACASAHAD", "f:ACASAH").replace("s:", "s:JD") + " phase:2",
                             "AD cannot lie in a1"),
    "a field twice": (CARPET1 + " w:-", "field w: appears twice"),
    "unknown game": ("carpets " + CARPET1[7:], "unknown game 'carpets'"),
    "empty": ("", "empty position"),
    "game alone": ("carpet", "needs its cells"),
    "two lines": (CARPET1 + "\ncarpet", "one line"),
    "too long": ("carpet " + "x" * 5000, "at most"),
    "bad phase": (CARPET1.replace("carpet ", "carpet-foster ") + " phase:3", "more than the game allows"),
    "auto with a gap": (CARPET1.replace("carpet ", "carpet-auto ").replace("JD2D", "..2D").replace("s:3C", "s:3CJD"),
                        "fills a gap at once"),
    "grid: an ace column": (grid("kovrik", "2CAC", True) + " r:3", "2C cannot lie in a0"),
    "grid: redeals": (grid("montana", "2C", False) + " r:9", "more than the game allows"),
    "grid: an ace in montana": (grid("montana", "AC", False) + " r:2", "AC is not in this game"),
    "grid: a bad generator": (grid("montana", "2C", False) + " r:2 g:xx.1.2", "is not a generator"),
}


@pytest.mark.parametrize("case", sorted(BAD))
def test_a_bad_text_gets_one_line_naming_what_is_wrong(case):
    text, words = BAD[case]
    with pytest.raises(BadPosition) as caught:
        read(text)
    assert words in str(caught.value) and "\n" not in str(caught.value)
    line = one_line(run("moves", "--position", text), 2)
    assert words in line and line.startswith("carpet: --position: ")


def test_the_two_deck_games_want_each_card_twice():
    text = write(GAMES["crazy-quilt"].new_state(parse_deal("1")))
    cells = text.split(" ")[1]
    first, second = cells[:2], cells[2:4]
    assert first != second
    with pytest.raises(BadPosition, match=f"{first} appears three times"):
        read(text.replace(cells, first + first + cells[4:]))
    with pytest.raises(BadPosition, match="is missing"):
        read(text.replace(cells, cells.replace(first, "..", 1)))
    persian = write(GAMES["persian-carpet"].new_state(parse_deal("1")))
    with pytest.raises(BadPosition, match="8 reserves"):
        read(persian.replace("res:", "res:/"))


def test_a_game_started_from_a_position_deals_it_again():
    text = write(GAMES["kovrik"].new_state(parse_deal("9")))
    start = Start(text)
    assert start.new_state(GAMES["kovrik"]).digest() == GAMES["kovrik"].new_state(parse_deal("9")).digest()
    with pytest.raises(BadPosition, match="not kovrik-hard"):
        start.new_state(GAMES["kovrik-hard"])


# --- solving, playing, recording ------------------------------------------------------------------
@pytest.mark.parametrize("game, number", [("carpet", "1"), ("carpet", "36"), ("kovrik", "77"), ("montana", "3"),
                                          ("carpet-foster", "2"), ("persian-carpet", "4"), ("spaces-and-aces", "5")])
def test_solving_a_deals_position_gives_the_deals_answer(game, number):
    variant = GAMES[game]
    by_number = solve(Session(variant, parse_deal(number)), nodes=30000)
    text = write(variant.new_state(parse_deal(number)))
    by_text = solve(Session(variant, Start(read(text).text)), nodes=30000)
    assert (by_text.result, by_text.line, by_text.nodes) == (by_number.result, by_number.line, by_number.nodes)


def test_solve_position_on_the_command_line_is_solve_game_n():
    text = run("deal", "carpet", "36", "--position").stdout.strip()
    by_text, by_number = doc(run("solve", "--position", text, "--json")), doc(run("solve", "carpet", "36", "--json"))
    assert by_text["position"] == text
    for key in ("result", "line", "moves", "score", "nodes", "information"):
        assert by_text[key] == by_number[key]


@pytest.mark.parametrize("family", sorted(FAMILIES))
@quick
@given(seed=st.integers(0, 2**32))
def test_a_game_from_a_position_records_plays_and_verifies(family, seed):
    session = random_session(GAMES[FAMILIES[family]], seed, 40, check=False)
    start = Session(session.variant, Start(read(write(session.state)).text))
    rng = random.Random(seed)
    for clock in range(0, 30000, 1000):
        actions = start.legal_actions()
        if not actions:
            break
        start.act(rng.choice(actions + [1] * start.can_undo()), clock)  # (undo now and then)
    start.act(2, 30000)  # restart: the starting position again
    assert write(start.state) == start.deal.text
    log = record(start, new_header(start, created=CREATED, tool="test"))
    assert log.header.numbering == "position" and log.header.deal == start.deal.text
    for as_json in (False, True):
        data = encode(log, as_json=as_json)
        assert encode(decode(data), as_json=as_json) == data
        assert verify(decode(data)).state.digest() == start.state.digest()


def test_the_commands_on_a_game_started_from_a_position(tmp_path):
    text = run("deal", "crazy-quilt", "3", "--position").stdout.strip()
    assert read(text).text == text
    path = tmp_path / "g.carpet"
    made = run("new", "--position", text, "-o", path, "--json")
    assert made.exit_code == 0, made.output
    assert doc(made)["position"] == text and doc(made)["deal"] == text
    assert run("moves", path).stdout == run("moves", "--position", text).stdout
    first = run("moves", path).stdout.split()[0]
    assert run("play", path, first, "-q").exit_code == 0
    after = run("show", path, "--position").stdout.strip()
    assert run("moves", "--position", after).stdout == run("moves", path).stdout
    assert run("show", path, "--position", "--at", "0").stdout.strip() == text
    assert doc(run("show", path, "--json"))["position"] == after
    for name in ("g.carpet.json", "g.carpet.txt", "g.html"):
        assert run("export", path, "-o", tmp_path / name).exit_code == 0
    tagged = (tmp_path / "g.carpet.txt").read_text()
    assert '[Numbering "position"]' in tagged and f'[Deal "{text}"]' in tagged
    assert text in (tmp_path / "g.html").read_text()
    checked = run("verify", path, tmp_path / "g.carpet.json", tmp_path / "g.carpet.txt")
    assert checked.exit_code == 0 and checked.stdout.count("from a position") == 3, checked.output
    assert run("import", tmp_path / "g.carpet.txt", "-o", tmp_path / "back.carpet").exit_code == 0
    assert (tmp_path / "back.carpet").read_bytes() == path.read_bytes()
    frames = doc(run("replay", path, "--json"))["frames"]
    assert [f["position"]["position"] for f in frames] == [text, after]
    hinted = doc(run("hint", "--position", after, "--json"))
    assert hinted["hint"] in run("moves", "--position", after).stdout.split()
    default = tmp_path / "here"
    default.mkdir()
    import os
    cwd = os.getcwd()
    os.chdir(default)
    try:
        assert run("new", "--position", text).exit_code == 0
    finally:
        os.chdir(cwd)
    assert [p.name for p in default.iterdir()] == [f"crazy-quilt-position-{read(text).state().digest()[:8]}.carpet"]


def test_commands_refuse_a_position_with_unseen_cards_and_mixed_arguments(tmp_path):
    text = run("deal", "carpet", "1", "--position").stdout.strip()
    hidden = text.replace("s:3C4C", "s:????")
    for args in (("solve", "--position", hidden), ("moves", "--position", hidden),
                 ("hint", "--position", hidden, "--peek"), ("new", "--position", hidden, "-o", tmp_path / "x.carpet")):
        assert "unseen card" in one_line(run(*args), 2)
    # the hint that sees only what the player has seen answers (tests/test_seen.py)
    assert run("hint", "--position", hidden).exit_code == 0
    assert not (tmp_path / "x.carpet").exists()
    one_line(run("new", "carpet", "1", "--position", text, "-o", tmp_path / "y.carpet"), 2)
    one_line(run("solve", "carpet", "--position", text), 2)
    one_line(run("moves"), 2)
    one_line(run("solve"), 2)
    one_line(run("new"), 2)


def test_a_log_started_from_a_deal_number_is_unchanged():
    session = Session(GAMES["kovrik"], parse_deal("3"))
    session.act(session.legal_actions()[0], 100)
    log = record(session, new_header(session, created=CREATED, tool="carpet 0.1.0"))
    assert log.header.numbering == "pysol" and log.header.deal == "ms3"
    assert encode(log)[3:6] == bytes((2, 1, 4))  # version 2, kovrik, rules 1 and numbering 0 (pysol)


def test_the_readme_examples_of_positions_run_and_say_what_the_readme_shows(tmp_path, monkeypatch):
    import shlex

    from conftest import ROOT

    monkeypatch.chdir(tmp_path)
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    section = text.split("## Positions as text", 1)[1].split("\n## ", 1)[0]
    lines = [line for block in section.split("```sh\n")[1:] for line in block.split("```")[0].splitlines()]
    assert len(lines) >= 10
    shown = []
    for line in lines:
        if line.startswith("# "):
            said = line[2:]
            expected = said.split(" (")[0] if "nodes" in said else said  # (the time varies)
            assert any(out.startswith(expected) for out in shown), (shown, said)
            continue
        result = run(*shlex.split(line)[1:])
        assert result.exit_code == 0, (line, result.output)
        shown = result.stdout.splitlines() or [""]


# --- positions typed from a real table ----------------------------------------------------------
@pytest.mark.parametrize("game", ["carpet", "carpet-foster", "crazy-quilt", "indian-carpet"])
def test_an_unseen_stock_may_be_given_by_its_count(game):
    text = write(GAMES[game].new_state(parse_deal("3")))
    stock = next(f for f in text.split(" ") if f.startswith("s:"))
    n = (len(stock) - 2) // 2
    by_count = read(text.replace(stock, f"s:{n}?"))
    assert by_count.text == read(text.replace(stock, "s:" + "??" * n)).text
    assert len(by_count.unseen) == n
    mixed = read(text.replace(stock, stock[:6] + f"{n - 3}?" + "??"))
    assert mixed.text == text.replace(stock, stock[:6] + "??" * (n - 2))
    with pytest.raises(BadPosition, match="unseen card"):
        read(text.replace(stock, f"s:{n - 1}?"))
    assert read_cards("2H3?10C", "s", unseen=True)[1:4] == [UNSEEN] * 3


def test_a_count_of_unseen_cards_is_refused_outside_a_stock():
    text = write(GAMES["carpet"].new_state(parse_deal("1")))
    with pytest.raises(BadPosition, match="face-down stock"):
        read(text.replace("JD2D", "2?2D", 1))


def test_spaces_inside_the_cells_are_read_and_inside_a_field_refused_saying_so():
    text = write(GAMES["carpet"].new_state(parse_deal("1")))
    cells = text.split(" ")[1]
    spaced = text.replace(cells, " ".join(cells[i:i + 2] for i in range(0, len(cells), 2)).replace(" / ", " /"))
    assert spaced != text and read(spaced).text == text
    stock = next(f for f in text.split(" ") if f.startswith("s:"))
    with pytest.raises(BadPosition, match="without spaces"):
        read(text.replace(stock, stock[:4] + " " + stock[4:]))


def test_solve_seen_answers_a_carpet_table_whose_stock_is_given_by_its_count():
    text = write(GAMES["carpet"].new_state(parse_deal("1")))
    stock = next(f for f in text.split(" ") if f.startswith("s:"))
    table = text.replace(stock, f"s:{(len(stock) - 2) // 2}?")
    result = run("solve", "--position", table, "--seen", "--samples", "4")
    assert result.exit_code == 0, result.output
    assert "what the player has seen" in result.stdout
    for command in (("moves", "--position", table), ("solve", "--position", table)):
        assert "solve --seen" in one_line(run(*command), 2)
