"""The quilt family: crazy-quilt, indian-carpet, persian-carpet (docs/rules.md, "Quilt family")."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from carpet.core.hint import hint_action
from carpet.core import GAMES, Session, get_game, parse_deal
from carpet.core.cards import code, parse_face
from carpet.core.errors import BadAction, IllegalAction
from carpet.core.game import FIRST_ACTION, HINT, LOST, PLAYING, UNDO, WON
from carpet.core.numbering import dealing_order
from carpet.core.quilt import (
    ACTION_COUNT, BASES, EMPTY, REDEAL, TURN, AmbiguousAction, QuiltState, cell_name, orientation,
    parse_cell,
)
from carpet.core.autoplay import best_action
from carpet.core.quilt.search import quilt_plans
from carpet.core.solver import solve

#: the orders of its actions the quilt's plan searches in
ORDERS = len({stage.order for stage in quilt_plans()["one redeal"].stages})
from playthrough import perft

QUILT_GAMES = ("crazy-quilt", "indian-carpet", "persian-carpet")
STOCK_GAMES = ("crazy-quilt", "indian-carpet")
CQ, IC, PC = (get_game(g) for g in QUILT_GAMES)

# deals the search wins quickly (see test_search_*); the lead's fixtures use them too
WON_DEALS = {"crazy-quilt": "10", "indian-carpet": "3", "persian-carpet": "4"}
# deals the solver wins within a small budget
SOLVED_DEALS = {"crazy-quilt": "20", "indian-carpet": "3", "persian-carpet": "4"}


def card(text: str, deck: int = 0) -> int:
    """A card id from its code: ``card('7H')``, ``card('7H', 1)`` for the second deck's."""
    return parse_face(text) + 52 * deck


def cell(name: str) -> int:
    return parse_cell(name)


def quilt(**cells: str) -> list:
    """A quilt with the named cells filled (``c4='7H'``, ``c5='7H/1'`` for deck 1), holes elsewhere."""
    out: list = [None] * 64
    for name, text in cells.items():
        face, _, deck = text.partition("/")
        out[cell(name)] = card(face, int(deck or 0))
    return out


def piles(**tops: str) -> list[tuple[int, ...]]:
    """Foundation piles built up (``up_H='5H'``) or down (``down_S='9S'``) from the bases, deck 1 cards."""
    result = []
    for direction in ("up", "down"):
        for suit in "CSHD":
            base = card(("A" if direction == "up" else "K") + suit)
            top = tops.get(f"{direction}_{suit}")
            pile = [base]
            if top is not None:
                last = parse_face(top) % 13
                ranks = range(1, last + 1) if direction == "up" else range(11, last - 1, -1)
                pile += [card("A23456789TJQK"[r] + suit, 1) for r in ranks]
            result.append(tuple(pile))
    return result


def act(state, text: str) -> None:
    state.apply(state.variant.parse(text, state))


def texts(state) -> list[str]:
    return [state.variant.action_text(a) for a in state.legal_actions()]


# --- registry and rules text -------------------------------------------------------------

def test_registered():
    for game in QUILT_GAMES:
        assert game in GAMES
        assert GAMES[game].family == "quilt"
    assert (CQ.redeals, IC.redeals, PC.redeals) == (1, 2, 0)
    assert CQ.words == {"turn": TURN, "redeal": REDEAL} and PC.words == {}


@pytest.mark.parametrize("game", QUILT_GAMES)
def test_rules_text_marks_decisions(game):
    rules = get_game(game).rules
    assert rules.count("decision") >= 4
    for needle in ("104", "a1..h8", "available", "Won", "Lost", "Score", "UH", "DH"):
        assert needle in rules
    assert ("r1..r8" in rules) == (game == "persian-carpet")
    if game == "persian-carpet":
        assert "There is no redeal" in rules and "Goodsol" in rules
    else:
        assert "- redeal (" in rules and "unshuffled" in rules
    assert max(len(line) for line in rules.splitlines()) <= 90


# --- the deal -----------------------------------------------------------------------------

@pytest.mark.parametrize("game", QUILT_GAMES)
@pytest.mark.parametrize("deal", ["1", "2", "31999", "123456", "ms4000000000"])
def test_deal_structure(game, deal):
    variant = get_game(game)
    d = parse_deal(deal)
    state = variant.new_state(d)
    order, _ = dealing_order(d, 104)
    rest = [c for c in order if c not in BASES]
    assert len(rest) == 96
    # bases: deck 0's aces up, kings down, clubs spades hearts diamonds
    assert state.found == [(0,), (13,), (26,), (39,), (12,), (25,), (38,), (51,)]
    assert state.cells[:64] == rest[:64]  # row by row from the top
    assert sorted(state.all_cards()) == list(range(104))
    layout = state.layout()
    assert layout["foundations"] == {"up": {"C": "AC", "S": "AS", "H": "AH", "D": "AD"},
                                     "down": {"C": "KC", "S": "KS", "H": "KH", "D": "KD"}}
    assert [c for row in layout["quilt"] for c in row] == [code(c) for c in rest[:64]]
    if game == "persian-carpet":
        assert set(layout) == {"foundations", "quilt", "reserves"}
        # one card to each reserve in turn, four rounds; the last dealt is the top
        for k in range(8):
            assert list(state.reserves[k]) == [rest[64 + k], rest[72 + k], rest[80 + k], rest[88 + k]]
        assert layout["reserves"][0] == [code(rest[64]), code(rest[72]), code(rest[80]), code(rest[88])]
    else:
        assert set(layout) == {"foundations", "quilt", "stock", "waste"}
        assert layout["stock"] == [code(c) for c in rest[64:]]  # top first: the next card dealt
        assert layout["waste"] == []
    assert state.score == 0 and state.status == PLAYING and state.redeals_used == 0


def test_deal_pinned():
    """ms1, crazy-quilt: the first row, the stock's top and the reserves of persian-carpet."""
    layout = CQ.new_state(parse_deal("1")).layout()
    assert layout["quilt"][0] == ["3D", "5H", "JC", "5S", "5H", "KC", "8D", "JD"]
    assert layout["quilt"][7] == ["4S", "6D", "TD", "9C", "9D", "JS", "4D", "5C"]
    assert layout["stock"][:3] == ["6C", "JH", "6S"]
    persian = PC.new_state(parse_deal("1")).layout()
    assert persian["quilt"] == layout["quilt"]
    assert persian["reserves"][0] == ["6C", "9H", "QD", "2C"]
    assert persian["reserves"][7] == ["2C", "TS", "3D", "6S"]


def test_chessboard_and_start_availability():
    assert orientation(cell("a1")) == "vertical"
    assert orientation(cell("a2")) == "horizontal"
    assert orientation(cell("b1")) == "horizontal"
    assert orientation(cell("b2")) == "vertical"
    assert orientation(cell("h8")) == "vertical"
    for c in range(64):
        r, k = divmod(c, 8)
        assert orientation(c) == ("vertical" if (r + k) % 2 == 0 else "horizontal")
    for game in QUILT_GAMES:
        state = get_game(game).new_state(parse_deal("7"))
        names = sorted(cell_name(c) for c in state.available())
        assert names == sorted(["a1", "a3", "a5", "a7", "h2", "h4", "h6", "h8",
                                "b1", "d1", "f1", "h1", "a8", "c8", "e8", "g8"])
        assert len(names) == 16


def test_cell_names():
    assert [cell_name(c) for c in (0, 7, 8, 63)] == ["a1", "a8", "b1", "h8"]
    for c in range(64):
        assert parse_cell(cell_name(c)) == c
    for bad in ("a0", "a9", "i1", "a", "a10"):
        with pytest.raises(BadAction):
            parse_cell(bad)


# --- availability ---------------------------------------------------------------------------

def test_vertical_card_needs_above_or_below_empty():
    # d4 is row 3, column 3: vertical; its short sides face c4 and e4
    assert orientation(cell("d4")) == "vertical"
    full = dict(c4="2C", e4="3C", d3="4C", d5="5C", d4="6C")
    state = QuiltState.arranged(CQ, quilt=quilt(**full))
    assert not state.is_available(cell("d4"))  # above and below filled
    state = QuiltState.arranged(CQ, quilt=quilt(**{k: v for k, v in full.items() if k != "c4"}))
    assert state.is_available(cell("d4"))
    state = QuiltState.arranged(CQ, quilt=quilt(**{k: v for k, v in full.items() if k != "e4"}))
    assert state.is_available(cell("d4"))
    # left and right empty do not help a vertical card
    state = QuiltState.arranged(CQ, quilt=quilt(c4="2C", e4="3C", d4="6C"))
    assert not state.is_available(cell("d4"))


def test_horizontal_card_needs_left_or_right_empty():
    # d5 is row 3, column 4: horizontal; its short sides face d4 and d6
    assert orientation(cell("d5")) == "horizontal"
    state = QuiltState.arranged(CQ, quilt=quilt(d4="2C", d6="3C", d5="6C", c5="4C", e5="5C"))
    assert not state.is_available(cell("d5"))
    state = QuiltState.arranged(CQ, quilt=quilt(d6="3C", d5="6C", c5="4C", e5="5C"))
    assert state.is_available(cell("d5"))
    state = QuiltState.arranged(CQ, quilt=quilt(d4="2C", d5="6C"))
    assert state.is_available(cell("d5"))
    # above and below empty do not help a horizontal card
    state = QuiltState.arranged(CQ, quilt=quilt(d4="2C", d6="3C", d5="6C"))
    assert not state.is_available(cell("d5"))


def test_edges_count_as_empty():
    state = QuiltState.arranged(CQ, quilt=[card("2C")] * 64)  # every cell filled
    names = {cell_name(c) for c in state.available()}
    assert len(names) == 16 and {"a1", "h8", "b1", "a8"} <= names
    assert not state.is_available(cell("a2"))  # horizontal in row a: its sides a1 and a3 are filled


@settings(max_examples=200, deadline=None)
@given(filled=st.lists(st.booleans(), min_size=64, max_size=64))
def test_a_non_empty_quilt_always_has_an_available_card(filled):
    """What persian-carpet's cheap status check relies on (an empty reserve takes any such card)."""
    state = QuiltState.arranged(CQ, quilt=[card("5C") if f else None for f in filled])
    assert bool(state.available()) == any(filled)


def test_unavailable_card_cannot_move():
    state = QuiltState.arranged(CQ, quilt=quilt(c4="2C", d4="2H", e4="3C"), waste=[card("3H")])
    assert not state.is_available(cell("d4"))
    for text in ("d4>UH", "d4>w"):
        with pytest.raises(IllegalAction, match="not available"):
            act(state, text)


# --- foundations ------------------------------------------------------------------------------

def test_up_and_down_piles():
    state = QuiltState.arranged(CQ, quilt=quilt(a1="2H", a3="QS", a5="3H", a7="JS"))
    assert texts(state) == ["a1>UH", "a3>DS"]
    act(state, "a1>UH")
    act(state, "a3>DS")
    assert texts(state) == ["a5>UH", "a7>DS"]
    assert state.layout()["foundations"]["up"]["H"] == "2H"
    assert state.layout()["foundations"]["down"]["S"] == "QS"
    assert state.score == 2


def test_card_fitting_both_piles_gives_two_actions():
    state = QuiltState.arranged(CQ, quilt=quilt(a1="6H"), foundations=piles(up_H="5H", down_H="7H"))
    assert texts(state) == ["a1>UH", "a1>DH"]
    with pytest.raises(AmbiguousAction, match="a1>UH, a1>DH"):
        CQ.parse("6H", state)
    with pytest.raises(AmbiguousAction):
        CQ.parse("a1", state)
    assert CQ.parse("6H>DH", state) == CQ.parse_canonical("a1>DH")
    assert CQ.parse("a1>d", state) == CQ.parse_canonical("a1>DH")


def test_wrong_suit_rank_and_complete_pile():
    state = QuiltState.arranged(CQ, quilt=quilt(a1="3H", a3="2S", a5="KC/1"),
                                foundations=piles(up_C="QC"))
    with pytest.raises(IllegalAction, match="takes 2H next"):
        act(state, "a1>UH")
    with pytest.raises(IllegalAction):
        act(state, "a3>UH")  # a spade to the hearts
    act(state, "a5>UC")  # the second king ends the up pile
    state2 = QuiltState.arranged(CQ, quilt=quilt(a1="KC/1"), foundations=piles(up_C="KC"))
    with pytest.raises(IllegalAction, match="complete"):
        act(state2, "a1>UC")
    # no wrap: a king does not follow a full down pile, an ace never goes up
    state3 = QuiltState.arranged(CQ, quilt=quilt(a1="KH/1", a3="AH/1"), foundations=piles(down_H="AH"))
    assert texts(state3) == []


def test_waste_top_to_foundation():
    state = QuiltState.arranged(CQ, quilt=quilt(h8="9D"), stock=[card("2C", 1)],
                                waste=[card("QC", 1), card("2D", 1)])
    assert "w>UD" in texts(state) and "w>DC" not in texts(state)
    act(state, "w>UD")
    assert texts(state) == ["w>DC", "turn"]
    act(state, "w")  # the place alone: its one move
    assert state.waste == () and state.score == 2


# --- the waste ---------------------------------------------------------------------------------

def test_quilt_card_onto_waste():
    state = QuiltState.arranged(CQ, quilt=quilt(a1="7S", a3="5S", a5="6H", a7="6S/1"),
                                stock=[card("9C")], waste=[card("6S")])
    assert texts(state) == ["a1>w", "a3>w", "turn"]  # same suit, one rank up or down
    act(state, "a1>w")
    assert state.layout()["waste"] == ["6S", "7S"]
    assert texts(state) == ["a7>w", "turn"]  # the other deck's 6S now goes on the 7S
    act(state, "a7>w")
    assert state.layout()["waste"] == ["6S", "7S", "6S"]
    assert state.waste[-1] == card("6S", 1)


def test_quilt_onto_waste_no_wrap_and_not_onto_empty_waste():
    state = QuiltState.arranged(CQ, quilt=quilt(a1="AS/1", a3="QS"), stock=[card("9C")],
                                waste=[card("KS", 1)], foundations=piles(down_S="TS"))
    assert texts(state) == ["a3>w", "turn"]  # the queen goes on the king, the ace does not
    empty = QuiltState.arranged(CQ, quilt=quilt(a1="5S"), stock=[card("9C")])
    assert texts(empty) == ["turn"]
    with pytest.raises(IllegalAction, match="waste is empty"):
        act(empty, "a1>w")


def test_waste_moves_only_to_foundations():
    for text in ("w>w", "w>r1", "a1>r1"):
        with pytest.raises(BadAction):
            CQ.parse_canonical(text)


# --- stock, turn, redeal ---------------------------------------------------------------------------

def test_turn_and_redeal_order_is_unshuffled():
    state = CQ.new_state(parse_deal("5"))
    stock = state.layout()["stock"]
    with pytest.raises(IllegalAction, match="not empty"):
        act(state, "redeal")
    for _ in range(32):
        act(state, "turn")
    assert state.layout()["waste"] == stock  # the first card turned lies at the bottom
    with pytest.raises(IllegalAction, match="stock is empty"):
        act(state, "turn")
    assert "redeal" in texts(state)
    act(state, "redeal")
    assert state.layout()["stock"] == stock and state.layout()["waste"] == []
    assert state.redeals_left == 0
    for _ in range(32):
        act(state, "turn")
    with pytest.raises(IllegalAction, match="no redeals left"):
        act(state, "redeal")


def test_redeal_brings_quilt_cards_back_in_waste_order():
    state = QuiltState.arranged(CQ, quilt=quilt(a1="7S"), waste=[card("9C"), card("6S")])
    assert state.stock == ()
    act(state, "a1>w")
    act(state, "redeal")
    assert state.layout()["stock"] == ["9C", "6S", "7S"]


@pytest.mark.parametrize("game,count", [("crazy-quilt", 1), ("indian-carpet", 2)])
def test_redeal_counts(game, count):
    variant = get_game(game)
    state = variant.new_state(parse_deal("9"))
    for _ in range(count):
        while state.stock:
            act(state, "turn")
        act(state, "redeal")
    while state.stock:
        act(state, "turn")
    assert state.redeals_left == 0
    assert "redeal" not in texts(state)


def test_redeal_needs_a_waste():
    state = QuiltState.arranged(CQ, quilt=quilt(a1="7S"))
    with pytest.raises(IllegalAction, match="waste is empty"):
        act(state, "redeal")
    assert state.status == LOST


def test_persian_has_no_stock():
    state = PC.new_state(parse_deal("1"))
    for word in ("turn", "w>UH", "a1>w"):
        with pytest.raises(IllegalAction, match="has no"):
            PC.parse(word, state)
    with pytest.raises(IllegalAction, match="has no redeal"):
        PC.parse("redeal", state)
    for action in (TURN, REDEAL):
        assert not PC.valid_index(action)
        with pytest.raises(IllegalAction):
            state.apply(action)
    assert state.redeals_left == 0


# --- persian reserves -------------------------------------------------------------------------------

def test_persian_reserve_moves():
    reserves = [[card("2H")], [card("9S"), card("8S")], [card("7S")], [], [], [], [], []]
    reserves[3:] = [[card("QD", 1)]] * 5
    state = QuiltState.arranged(PC, quilt=quilt(a1="3H", a3="9S/1", d1="JD"), reserves=reserves)
    moves = texts(state)
    assert "r1>UH" in moves  # a reserve top to a foundation
    assert "r2>r3" in moves and "r3>r2" in moves  # 8S onto 7S and back
    assert "a3>r2" in moves  # a quilt card onto a reserve top
    assert "d1>r4" in moves  # JD on QD
    assert "a1>r1" in moves  # 3H on 2H
    act(state, "r1>UH")
    assert state.reserves[0] == ()
    moves = texts(state)
    # an empty reserve takes any quilt card or reserve top, but not a reserve's lone card
    assert {"a1>UH", "a1>r1", "a3>r1", "d1>r1", "r2>r1"} <= set(moves)
    assert "r3>r1" not in moves
    with pytest.raises(IllegalAction, match="changes nothing"):
        act(state, "r3>r1")
    act(state, "r2>r1")
    assert [code(c) for c in state.reserves[0]] == ["8S"]
    with pytest.raises(IllegalAction, match="same suit"):
        act(state, "a1>r3")


def test_persian_lost_when_stuck():
    reserves = [[card("5C")], [card("9S")], [card("7H")], [card("3D")],
                [card("JC")], [card("5S")], [card("4H")], [card("9D")]]
    state = QuiltState.arranged(PC, quilt=quilt(), reserves=reserves)
    assert state.legal_actions() == [] and state.status == LOST
    reserves[0] = [card("9C"), card("5C")]
    state = QuiltState.arranged(PC, quilt=quilt(), reserves=reserves)
    assert state.status == LOST  # no empty reserve, nothing fits
    reserves[7] = []
    state = QuiltState.arranged(PC, quilt=quilt(), reserves=reserves)
    assert texts(state) == ["r1>r8"] and state.status == PLAYING


# --- won, lost, score ---------------------------------------------------------------------------------

def test_won_and_score():
    full = piles(up_C="QC", down_C="2C", up_S="KS", down_S="AS", up_H="KH", down_H="AH",
                 up_D="KD", down_D="AD")
    state = QuiltState.arranged(CQ, quilt=quilt(a1="KC/1"), waste=[card("AC", 1)], foundations=full)
    assert state.score == 94 and state.status == PLAYING
    act(state, "w>DC")
    act(state, "a1>UC")
    assert state.status == WON and state.score == 96 and state.legal_actions() == []
    with pytest.raises(IllegalAction, match="won"):
        act(state, "a1>UC")


def test_lost_stock_game():
    state = QuiltState.arranged(IC, quilt=quilt(d4="5C", c4="9H", e4="9S"), waste=[card("7D")],
                                redeals_used=2)
    assert state.status == LOST and state.legal_actions() == []
    state = QuiltState.arranged(IC, quilt=quilt(d4="5C", c4="9H", e4="9S"), waste=[card("7D")],
                                redeals_used=1)
    assert state.status == PLAYING and texts(state) == ["redeal"]


# --- notation ---------------------------------------------------------------------------------------

@pytest.mark.parametrize("game", QUILT_GAMES)
def test_canonical_round_trip(game):
    variant = get_game(game)
    seen = set()
    count = 0
    for action in range(FIRST_ACTION, ACTION_COUNT):
        if not variant.valid_index(action):
            with pytest.raises(BadAction):
                variant.action_text(action)
            continue
        text = variant.action_text(action)
        assert text and not any(ch.isspace() for ch in text)
        assert variant.parse_canonical(text) == action
        assert variant.parse_canonical(text.replace(">", "-")) == action  # the shell spelling
        seen.add(text)
        count += 1
    assert len(seen) == count
    expected = 64 * 8 + 64 * 8 + 8 * 8 + 8 * 7 if game == "persian-carpet" else 64 * 8 + 64 + 8 + 2
    assert count == expected


def test_parse_forms():
    state = QuiltState.arranged(CQ, quilt=quilt(a1="2H", a3="TD", h8="9D/1"), stock=[card("3C")],
                                waste=[card("JD")])
    canonical = CQ.parse_canonical("a1>UH")
    for text in ("a1>UH", "A1>uh", "a1-UH", "a1>+H", "a1>+♥", "a1>U♥", "a1>u", "a1>+", "a1>F",
                 "a1>up", "2H", "2h", "2♥", "a1", "2H>UH", "2h>F", " a1>UH "):
        assert CQ.parse(text, state) == canonical, text
    assert CQ.parse("10D", state) == CQ.parse_canonical("a3>w")
    assert CQ.parse("TD>w", state) == CQ.parse_canonical("a3>w")
    assert CQ.parse("TURN", state) == TURN
    assert CQ.parse("hint", state) == HINT and CQ.parse("undo", state) == UNDO
    # a well-formed move that is not legal here parses, and apply explains
    assert CQ.parse("h8>UD", state) == CQ.parse_canonical("h8>UD")
    with pytest.raises(IllegalAction, match="takes 2D next"):
        state.apply(CQ.parse("h8>UD", state))
    with pytest.raises(IllegalAction, match="no 9D can move"):
        CQ.parse("9D", state)
    with pytest.raises(IllegalAction, match="nothing can move from h8"):
        CQ.parse("h8", state)
    with pytest.raises(IllegalAction, match="b2 is empty"):
        CQ.parse("b2>U", state)
    for bad in ("", "x9", "a1>x", "a1>UX", "11H", "a1>r9", "a1>"):
        with pytest.raises(BadAction):
            CQ.parse(bad, state)
    for refused in ("r1>UH", "a1>r1", "w>w"):  # places of the family this game lacks or never joins
        with pytest.raises(IllegalAction, match="no reserves|only quilt cards"):
            CQ.parse(refused, state)


def test_shorthand_ambiguity_between_two_copies():
    state = QuiltState.arranged(CQ, quilt=quilt(a1="2H", h8="2H/1"), stock=[card("3C")])
    with pytest.raises(AmbiguousAction) as info:
        CQ.parse("2H", state)
    assert "a1>UH" in str(info.value) and "h8>UH" in str(info.value)
    assert isinstance(info.value, IllegalAction)
    assert CQ.parse("h8", state) == CQ.parse_canonical("h8>UH")


def test_shorthand_prefers_foundation():
    state = QuiltState.arranged(CQ, quilt=quilt(a1="2H"), waste=[card("3H")], stock=[card("3C")])
    assert texts(state) == ["a1>UH", "a1>w", "turn"]
    assert CQ.parse("2H", state) == CQ.parse_canonical("a1>UH")
    assert CQ.parse("2H>w", state) == CQ.parse_canonical("a1>w")


# --- illegal actions change nothing ------------------------------------------------------------------

@pytest.mark.parametrize("game", QUILT_GAMES)
def test_illegal_changes_nothing(game):
    variant = get_game(game)
    state = variant.new_state(parse_deal("11"))
    rng = random.Random(3)
    for _ in range(60):
        legal = set(state.legal_actions())
        before = (state.snapshot(), state.digest(), state.score)
        for action in rng.sample(range(ACTION_COUNT), 80):
            if action in legal:
                continue
            with pytest.raises(IllegalAction) as info:
                state.apply(action)
            assert "\n" not in str(info.value) and str(info.value)
            assert (state.snapshot(), state.digest(), state.score) == before
        if not legal:
            break
        state.apply(rng.choice(sorted(legal)))


# --- random play through the session ----------------------------------------------------------------

def _check_position(state) -> None:
    assert sorted(state.all_cards()) == list(range(104))
    legal = state.legal_actions()
    assert legal == sorted(legal)  # canonical order is index order
    assert legal == [a for a in range(FIRST_ACTION, ACTION_COUNT) if state.is_legal(a)]
    assert state.has_action() == bool(legal)
    assert state.status == (WON if state.on_found == 104 else PLAYING if legal else LOST)
    assert state.score == sum(len(p) for p in state.found) - 8
    assert set(state.available()) == {c for c in range(64) if state.is_available(c)}


def _random_session(game: str, deal: str, seed: int, steps: int, check_every: int = 1) -> Session:
    variant = get_game(game)
    session = Session(variant, parse_deal(deal))
    rng = random.Random(seed)
    clock = 0
    for step in range(steps):
        state = session.state
        if step % check_every == 0:
            _check_position(state)
        legal = session.legal_actions()
        if rng.random() < 0.1 and session.can_undo():
            session.act(UNDO, clock)
            continue
        if not legal:
            break
        before = (state.digest(), session.score, session.moves, state.redeals_left, state.snapshot())
        action = rng.choice(legal)
        session.act(action, clock)
        clock += 7
        if rng.random() < 0.2:
            session.act(UNDO, clock)
            assert (state.digest(), session.score, session.moves, state.redeals_left,
                    state.snapshot()) == before
            session.act(action, clock)
    _check_position(session.state)
    return session


@pytest.mark.parametrize("game", QUILT_GAMES)
@pytest.mark.parametrize("seed", range(3))
def test_random_play(game, seed):
    _random_session(game, str(seed + 1), seed, 400)


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(game=st.sampled_from(QUILT_GAMES), deal=st.integers(1, 10**6), seed=st.integers(0, 10**6))
def test_random_play_property(game, deal, seed):
    _random_session(game, str(deal), seed, 250, check_every=5)


def test_undo_refunds_redeal():
    session = Session(CQ, parse_deal("2"))
    for _ in range(32):
        session.play_text("turn", 0)
    session.play_text("redeal", 0)
    assert session.redeals_left == 0 and session.moves == 33
    session.act(UNDO, 0)
    assert session.redeals_left == 1 and session.moves == 32
    assert session.state.layout()["stock"] == []


def test_snapshot_is_immutable_and_restore_does_not_alias():
    state = CQ.new_state(parse_deal("3"))
    snap = state.snapshot()
    hash(snap)  # tuples all the way down
    digest = state.digest()
    state.restore(snap)
    act(state, "turn")
    state.cells[0] = EMPTY
    state.restore(snap)
    assert state.digest() == digest
    state.cells[5] = EMPTY  # changing the restored state leaves the snapshot alone
    state.restore(snap)
    assert state.digest() == digest


@pytest.mark.parametrize("game", QUILT_GAMES)
def test_a_copy_is_the_position_and_shares_nothing_that_changes(game):
    # what the solver works on (working_copy): the same as dealing the deal again and restoring
    state = get_game(game).new_state(parse_deal("11"))
    rng = random.Random(3)
    for _ in range(30):
        state.apply(rng.choice(state.legal_actions()))
    dealt = get_game(game).new_state(parse_deal("11"))
    dealt.restore(state.snapshot())
    copy = state.copy()
    for name in ("variant", "status", "score", "redeals_used") + QuiltState.__slots__:
        assert getattr(copy, name) == getattr(dealt, name), name
    digest, snap = state.digest(), state.snapshot()
    for _ in range(40):  # playing the copy on leaves the state alone
        if copy.status != PLAYING:
            break
        copy.apply(rng.choice(copy.legal_actions()))
    assert state.digest() == digest and state.snapshot() == snap


def test_position_bytes_tell_the_decks_apart():
    one = QuiltState.arranged(CQ, quilt=quilt(a1="7S"))
    two = QuiltState.arranged(CQ, quilt=quilt(a1="7S/1"))
    assert one.layout() == two.layout()
    assert one.digest() != two.digest()


def test_determinism():
    for game in QUILT_GAMES:
        a = _random_session(game, "77", 5, 150)
        b = _random_session(game, "77", 5, 150)
        assert a.state.digest() == b.state.digest() and a.events == b.events
        replayed = Session.replay(get_game(game), parse_deal("77"), a.events)
        assert replayed.state.digest() == a.state.digest()
        assert (replayed.score, replayed.moves, replayed.status) == (a.score, a.moves, a.status)


# --- perft: pins the move generator -------------------------------------------------------------------



@pytest.mark.parametrize("game,expected", [("crazy-quilt", (2, 4, 8, 10)), ("indian-carpet", (2, 4, 8, 10)),
                                           ("persian-carpet", (14, 182, 2228))])
def test_perft(game, expected):
    state = get_game(game).new_state(parse_deal("1"))
    assert tuple(perft(state, d) for d in range(1, len(expected) + 1)) == expected


# --- search and hint ------------------------------------------------------------------------------------

@pytest.mark.parametrize("game", QUILT_GAMES)
def test_solver_finds_a_win(game):
    variant = get_game(game)
    deal = parse_deal(SOLVED_DEALS[game])
    session = Session(variant, deal)
    digest = session.state.digest()
    result = solve(session, nodes=200_000)
    assert result.result == "won" and result.score == 96
    assert session.state.digest() == digest and session.status == PLAYING  # left as found
    again = solve(Session(variant, deal), nodes=200_000)
    assert again.line == result.line and again.nodes == result.nodes  # deterministic
    # the line, as canonical text, wins through a session
    for i, text in enumerate(variant.action_text(a) for a in result.line):
        session.act(variant.parse_canonical(text), i)
    assert session.status == WON and session.score == 96 and session.moves == len(result.line)
    if game != "persian-carpet":
        assert "redeal" in (variant.action_text(a) for a in result.line)


def test_waste_blocked_in_the_last_pass():
    # the waste, top down: 3H 2H 5H 4H; the 3H and the 2H block each other, and the 5H and
    # the 4H cannot both follow on the same two piles
    waste = [card("4H"), card("5H"), card("2H"), card("3H")]
    last_pass = QuiltState.arranged(CQ, quilt=quilt(a1="9C"), stock=[card("8S")], waste=waste,
                                    redeals_used=1)
    assert last_pass.waste_blocked() and last_pass.dead_end() and last_pass.status == PLAYING
    assert not QuiltState.arranged(CQ, quilt=quilt(a1="9C"), stock=[card("8S")], waste=waste).waste_blocked()
    fine = [card("4H"), card("5H"), card("3H"), card("2H")]  # 2H up, then 3H, then 5H down, 4H down
    assert not QuiltState.arranged(CQ, quilt=quilt(a1="9C"), waste=fine, redeals_used=1).waste_blocked()


def test_dead_end_when_a_suit_cannot_finish_even_with_the_quilt_free():
    # everything is up but five hearts: JH QH KH for the up pile, 2H AH for the down pile
    up = [[s * 13 + r for r in range(12)] + [52 + s * 13 + 12] for s in range(4)]
    down = [[s * 13 + 12] + [52 + s * 13 + r for r in range(11, -1, -1)] for s in range(4)]
    up[2] = [26 + r for r in range(10)]  # AH..TH: JH next
    down[2] = [38] + [52 + 26 + r for r in range(11, 1, -1)]  # KH..3H: 2H next

    def position(order: str, redeals_used: int) -> QuiltState:
        cards = {"JH": card("JH"), "QH": card("QH"), "KH": card("KH", 1), "2H": card("2H", 1),
                 "AH": card("AH", 1)}
        return QuiltState.arranged(CQ, quilt=[None] * 64, stock=[cards[c] for c in order.split()],
                                   foundations=up + down, redeals_used=redeals_used)
    # QH is dealt first and buried under KH, which only the up pile takes after the QH: with no
    # redeal left that is the end; a redeal would bring them back in order
    assert position("QH KH JH 2H AH", 1).dead_end()
    assert not position("QH KH JH 2H AH", 0).dead_end()
    assert not position("JH QH KH 2H AH", 1).dead_end()
    assert not position("KH QH JH 2H AH", 1).dead_end()  # the waste gives them back in order


def test_solver_respects_its_limit():
    result = solve(Session(CQ, parse_deal("1")), nodes=500)
    assert result.result == "unknown" and result.nodes <= 500 + 104  # safe plays finish a step
    assert result.line == []


@pytest.mark.parametrize("game", QUILT_GAMES)
def test_hint_is_legal_fast_and_silent(game):
    session = Session(get_game(game), parse_deal("6"))
    rng = random.Random(1)
    for step in range(6):
        state = session.state
        if state.status != PLAYING:
            break
        digest, moves = state.digest(), session.moves
        session.act(HINT, step)
        hinted = hint_action(session)
        assert hinted in state.legal_actions()
        assert (state.digest(), session.moves) == (digest, moves)
        session.act(rng.choice([hinted] + state.legal_actions()), step)


def test_hint_when_lost():
    state = QuiltState.arranged(CQ, quilt=quilt(a1="7S"))
    assert state.status == LOST
    assert best_action(state) is None
    session_state = QuiltState.arranged(CQ, quilt=quilt(a1="2H"))
    assert best_action(session_state) == CQ.parse_canonical("a1>UH")




# --- the solver's other orders (QuiltState.search_actions, the plan's) ---------------------------

@pytest.mark.parametrize("game", QUILT_GAMES)
def test_search_orders_are_the_legal_actions_reordered_deterministically(game):
    state = get_game(game).new_state(parse_deal("7"))
    rng = random.Random(5)
    for _ in range(40):
        if state.status != PLAYING:
            break
        legal = state.legal_actions()
        # order 0: the plain ranking, ties in canonical order (the solver's default)
        assert state.search_actions() == sorted(legal, key=state.action_rank, reverse=True)
        assert state.search_actions(0) == state.search_actions()
        for order in range(1, ORDERS):
            again = state.search_actions(order)
            assert sorted(again) == sorted(legal) and again == state.search_actions(order)
        state.apply(rng.choice(legal))


def test_search_orders_differ_and_follow_the_key():
    # a deal's start, and the same with every card swapped for its other deck's copy: one key,
    # the same orders
    one = CQ.new_state(parse_deal("1"))
    other = [c if c == EMPTY else (c + 52) % 104 for c in one.cells[:64]]
    two = QuiltState.arranged(CQ, quilt=other, stock=[(c + 52) % 104 for c in reversed(one.stock)])
    while len(one.legal_actions()) < 4:  # on to where there is a choice
        action = one.search_actions()[0]
        one.apply(action)
        two.apply(action)
    assert one.search_key() == two.search_key() and one.snapshot() != two.snapshot()
    orders = [one.search_actions(k) for k in range(ORDERS)]
    assert orders == [two.search_actions(k) for k in range(ORDERS)]
    assert len({tuple(o) for o in orders}) > 1  # the orders are not all alike


def test_the_other_orders_win_what_the_plain_order_leaves_unknown(monkeypatch):
    # crazy-quilt 3023: the plain order's search (an eighth of the default budget) and the beam
    # after it leave it unknown, order 1's search wins it.  (Deal 1, here until stop 38, was won
    # by a later order, which the wide beam has replaced: unknown at the default budget now.)
    from carpet.core import solver

    searched, plain = [], solver._Searcher.run

    def run(self):
        out = plain(self)
        searched.append((self.order, out.result))
        return out

    monkeypatch.setattr(solver._Searcher, "run", run)
    session = Session(CQ, parse_deal("3023"))
    result = solve(session)
    assert result.result == "won" and result.nodes <= 400_000
    assert searched == [(0, "unknown"), (1, "won")]
    for i, action in enumerate(result.line):
        session.act(action, i)
    assert session.status == WON


@pytest.mark.parametrize("game,deal", [("persian-carpet", "2009"), ("crazy-quilt", "2003"),
                                       ("indian-carpet", "2002")])
def test_the_first_action_told_alone_changes_nothing_the_search_finds(game, deal, monkeypatch):
    # the solver plays search_first's action before listing the others, and lists them when it
    # comes back (these deals come back thousands of times): the same nodes and line as when
    # the family tells no first action and every position's actions are listed at once
    told = solve(Session(get_game(game), parse_deal(deal)), nodes=50_000)
    monkeypatch.setattr(QuiltState, "search_first", lambda self, order=0: None)
    listed = solve(Session(get_game(game), parse_deal(deal)), nodes=50_000)
    assert told.result == "won" and told.nodes > 900
    assert (told.result, told.nodes, told.line) == (listed.result, listed.nodes, listed.line)


def test_taken_before_follows_the_build_rule():
    # board.taken_before says as id ranges what board.pile_need says face by face: the faces a
    # pile takes from its next face on before a given face, or None where it never takes it
    from carpet.core.quilt.board import PILE_NEED, taken_before

    checked = 0
    for pile in range(8):
        order = PILE_NEED[pile][:13]  # the faces in the order the pile takes them
        for held in range(14):
            need = PILE_NEED[pile][held]
            for face in order:
                span = taken_before(pile, need, face)
                if need < 0 or order.index(face) < held:
                    assert span is None
                else:
                    assert span is not None
                    assert set(range(*span)) == set(order[held:order.index(face)])
                    checked += 1
    assert checked == 8 * 91
