"""Коврик rules, one by one, on chosen positions (docs/rules.md, "Grid family")."""

import pytest

from carpet.core import IllegalAction, Session, get_game, parse_deal
from carpet.core.cards import parse_face
from carpet.core.game import LOST, PLAYING, WON
from carpet.core.grid import REDEAL

from grid_positions import BASIC, grid


KOVRIK = get_game("kovrik")


def mv(card: str, cell: str) -> int:
    return KOVRIK.move(parse_face(card), KOVRIK.board.parse_cell(cell))


def texts(state) -> set[str]:
    return {state.variant.action_text(a) for a in state.legal_actions()}


def test_locks_are_found_from_column_zero():
    assert grid("kovrik", BASIC).prefix == [2, 0, 13, 1]


def test_legal_actions_of_a_position():
    assert texts(grid("kovrik", BASIC)) == {"3C>a2", "AD>b0", "6H>b5", "redeal"}
    assert texts(grid("kovrik-hard", BASIC)) == {"3C>a2", "AD>b0", "6H>b5", "redeal"}


def test_canonical_order_is_by_target_cell_then_card():
    st = grid("kovrik", BASIC)
    assert [st.variant.action_text(a) for a in st.legal_actions()] == ["3C>a2", "AD>b0", "6H>b5", "redeal"]


def test_left_rule_only_move():
    text = """
AC 2C 3C 4C 5C 6C 7C 8C 9C TC JC QC KC ..
AH 2H 3H 4H 5H KD .. 7H 8H 9H TH JH QH KH
AS 2S 3S 4S 5S 6S 7S 8S 9S TS JS QS KS ..
AD 2D 3D 4D 5D 6D 7D 8D 9D TD JD QD 6H ..
"""
    easy, hard = grid("kovrik", text), grid("kovrik-hard", text)
    # b6 is right of K♦ (dead by the right rule) and left of 7♥: the left rule offers 6♥
    assert "6H>b6" in texts(easy)
    assert "6H>b6" not in texts(hard)
    with pytest.raises(IllegalAction, match="does not fit"):
        hard.apply(mv("6H", "b6"))
    easy.apply(mv("6H", "b6"))
    assert easy.prefix[1] == 5  # 6♥ at b6 is not next to 5♥ (K♦ is between): nothing locks
    # d12 is now empty: right of Q♦ it takes K♦ by the right rule, in both games
    assert "KD>d12" in texts(easy)


def test_left_rule_offers_card_one_lower_than_right_neighbour():
    text = """
.. 2C 3C 4C 5C 6C 7C 8C 9C TC JC QC KC AC
AH .. 3H 4H 5H 6H 7H 8H 9H TH JH QH KH 2H
AS 2S 3S 4S 5S 6S 7S 8S 9S TS JS QS KS ..
AD 2D 3D 4D 5D 6D 7D 8D 9D TD JD QD KD ..
"""
    easy, hard = grid("kovrik", text), grid("kovrik-hard", text)
    # b1: left neighbour A♥ (right rule: 2♥); right neighbour 3♥ (left rule: 2♥ too)
    assert "2H>b1" in texts(easy) and "2H>b1" in texts(hard)
    # a0 takes an ace only, even though its right neighbour is 2♣ (the left rule never applies there)
    assert texts(hard) >= {"AC>a0"}
    # c13 (right of K♠) and d13: nothing by the right rule; the left rule has no right neighbour
    assert not any(t.endswith("c13") or t.endswith("d13") for t in texts(easy))


def test_left_rule_only_example():
    text = """
AC 2C 3C 4C 5C 6C 7C 8C 9C TC JC QC KC ..
AH 2H 3H 4H 5H 6H 7H 8H 9H TH JH QH .. KH
AS 2S 3S 4S 5S 6S 7S 8S 9S TS JS .. KS QS
AD 2D 3D 4D 5D 6D 7D 8D 9D TD JD QD KD ..
"""
    easy, hard = grid("kovrik", text), grid("kovrik-hard", text)
    assert "QS>c11" in texts(easy)  # right of J♠ (right rule) and left of K♠ (left rule)
    assert "QS>c11" in texts(hard)
    # b12: right of Q♥ takes K♥ (right rule)
    assert "KH>b12" in texts(hard)


def test_a_move_that_locks_several_cards_scores_each():
    st = grid("kovrik", BASIC)
    before = st.score
    st.apply(mv("3C", "a2"))
    assert st.prefix[0] == 4  # 3♣ joins 4♣ already in place... a3 held 4♣
    assert st.score - before == 2 * 15
    with pytest.raises(IllegalAction, match="locked"):
        st.apply(mv("4C", "a4"))


def test_shuffle_variant_scores_ten_per_lengthening_move():
    st = grid("kovrik-shuffle", BASIC)
    st.apply(mv("3C", "a2"))
    assert st.score == 10


def test_ace_to_column_zero_locks_and_scores():
    st = grid("kovrik", BASIC)
    st.apply(mv("AD", "b0"))
    assert st.prefix[1] == 1  # A♦, and 2♥ beside it is not 2♦
    assert st.score == 15
    st = grid("kovrik-shuffle", BASIC)
    st.apply(mv("AD", "b0"))
    assert st.score == 10  # starting a prefix lengthens it (decision)


def test_illegal_moves_change_nothing():
    st = grid("kovrik", BASIC)
    snap = st.snapshot()
    for action, reason in [(mv("5H", "b0"), "does not fit"), (mv("2C", "a2"), "locked"),
                           (mv("9H", "a0"), "not empty"), (mv("QD", "b13"), "does not fit"),
                           (mv("AH", "b0"), "locked"), (mv("7C", "b5"), "does not fit")]:
        with pytest.raises(IllegalAction, match=reason):
            st.apply(action)
        assert st.snapshot() == snap


def test_click_goes_to_first_fitting_cell_row_major():
    st = grid("kovrik", BASIC)
    v = st.variant
    assert v.action_text(v.parse("AD", st)) == "AD>b0"
    assert v.action_text(v.parse("3c", st)) == "3C>a2"
    assert v.action_text(v.parse("6♥", st)) == "6H>b5"
    with pytest.raises(IllegalAction, match="locked"):
        v.parse("2C", st)
    with pytest.raises(IllegalAction, match="fits no empty cell"):
        v.parse("9C", st)


def test_fixed_redeal_order():
    st = grid("kovrik", BASIC)
    locked_before = list(st.prefix)
    loose = [c for cell, c in enumerate(st.cells) if c >= 0 and cell % 14 >= st.prefix[cell // 14]]
    st.apply(REDEAL)
    assert st.prefix == locked_before and st.redeals_used == 1
    # each row's gap is its first unlocked cell
    for row in range(4):
        assert st.cells[row * 14 + st.prefix[row]] == -1
    # laid column by column into the unlocked non-gap cells
    targets = [r * 14 + c for c in range(14) for r in range(4) if c > locked_before[r]]
    assert [st.cells[t] for t in targets] == loose


def test_fixed_redeal_is_deterministic_and_limited_to_three():
    a, b = grid("kovrik", BASIC), grid("kovrik", BASIC)
    for _ in range(3):
        a.apply(REDEAL)
        b.apply(REDEAL)
        assert a.cells == b.cells
    assert a.redeals_left == 0
    assert REDEAL not in a.legal_actions()
    with pytest.raises(IllegalAction, match="no redeals left"):
        a.apply(REDEAL)


def test_shuffle_redeal_uses_and_advances_the_deal_generator():
    a = Session(get_game("kovrik-shuffle"), parse_deal("5"))
    b = Session(get_game("kovrik-shuffle"), parse_deal("5"))
    a.act(REDEAL, 0)
    b.act(REDEAL, 0)
    assert a.state.cells == b.state.cells
    first = list(a.state.cells)
    a.act(REDEAL, 0)
    assert a.state.cells != first  # the generator moved on
    for row in range(4):
        assert a.state.cells[row * 14 + a.state.prefix[row]] == -1


def test_kovrik_shuffle_two_has_two_shuffles_and_unlimited_has_none_counted():
    two = Session(get_game("kovrik-shuffle-2"), parse_deal("9"))
    two.act(REDEAL, 0)
    two.act(REDEAL, 0)
    assert two.redeals_left == 0
    with pytest.raises(IllegalAction):
        two.act(REDEAL, 0)
    free = Session(get_game("kovrik-shuffle"), parse_deal("9"))
    for _ in range(10):
        free.act(REDEAL, 0)
    assert free.redeals_left is None and free.status == PLAYING


def test_lost_when_no_card_move_and_no_redeal():
    text = """
AC 2C 3C 4C 5C 6C 7C 8C 9C TC JC QC KC ..
AH 2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KS ..
AS 2S 3S 4S 5S 6S 7S 8S 9S TS JS QS KH ..
AD 2D 3D 4D 5D 6D 7D 8D 9D TD JD QD KD ..
"""
    st = grid("kovrik-hard", text)
    assert st.card_moves() == []
    assert st.status == PLAYING  # redeals remain
    st.redeals_used = 3
    st.update_status()
    assert st.status == LOST and st.legal_actions() == []


def test_won_when_all_locked():
    text = """
AC 2C 3C 4C 5C 6C 7C 8C 9C TC JC QC KC ..
AH 2H 3H 4H 5H 6H 7H 8H 9H TH JH QH .. KH
AS 2S 3S 4S 5S 6S 7S 8S 9S TS JS QS KS ..
AD 2D 3D 4D 5D 6D 7D 8D 9D TD JD QD KD ..
"""
    session = Session(get_game("kovrik"), parse_deal("1"))
    session.state = grid("kovrik", text)
    session.act(mv("KH", "b12"), 10)
    assert session.status == WON
    assert session.state.score == 15  # only the K♥ was newly locked here
    assert session.bonus == 5 * 100 + 3 * 100 + 100 - 5  # one counted move: k = 1..299


@pytest.mark.parametrize("moves,bonus", [(0, 900), (100, 400), (250, 50), (300, 0), (1000, 0), (99, 405),
                                         (199, 103)])
def test_move_bonus(moves, bonus):
    assert get_game("kovrik").win_bonus(moves) == bonus
    assert get_game("kovrik-hard").win_bonus(moves) == 2 * bonus
    assert get_game("kovrik-shuffle").win_bonus(moves) == 0


def test_cell_names_round_trip():
    board = KOVRIK.board
    for cell in range(56):
        assert board.parse_cell(board.cell_name(cell)) == cell


def test_dash_is_read_as_the_separator():
    """Canonical is 7H>b5 (docs/format.md); 7H-b5 needs no quoting in a shell and means the same."""
    st = grid("kovrik", BASIC)
    v = st.variant
    for action in st.legal_actions():
        text = v.action_text(action)
        assert "-" not in text
        assert v.parse(text.replace(">", "-"), st) == action == v.parse_canonical(text.replace(">", "-"))


@pytest.mark.parametrize("game", ["kovrik", "kovrik-hard", "kovrik-shuffle"])
def test_fast_move_check_agrees_with_the_move_list(game):
    import random
    rng = random.Random(game)
    for number in ("1", "2", "40000"):
        session = Session(get_game(game), parse_deal(number))
        for _ in range(300):
            state = session.state
            assert state.has_card_move() == bool(state.card_moves())
            actions = session.legal_actions()
            if not actions:
                break
            session.act(rng.choice(actions), 0)


# --- the board is the variant's: other sizes share the engine -------------------------------------

from carpet.core.grid import EMPTY, Board, GridVariant  # noqa: E402

from playthrough import random_session  # noqa: E402


def _aces_out(order, board):
    """Card i to cell i; an ace goes nowhere (a Montana-style deal)."""
    return [EMPTY if card % 13 == 0 else card for card in order]


GAPS = GridVariant("test-gaps", source="test", summary="4x13, twos to column 0", rules="(decision: none)",
                   board=Board(cols=13, base=1, deal=_aces_out), redeals=2, card_points=1)
# a new member of the family is its differences: here twice the rows and two decks
DOUBLE = GridVariant("test-double", source="test", summary="8x13, two decks", rules="(decision: none)",
                     board=GAPS.board.replace(rows=8, decks=2), redeals=2, card_points=1)


@pytest.mark.parametrize("variant", [GAPS, DOUBLE], ids=lambda v: v.id)
def test_other_boards_play_on_the_same_engine(variant):
    board = variant.board
    state = variant.new_state(parse_deal("5"))
    assert len(state.cells) == board.rows * board.cols
    assert state.gaps == [c for c, card in enumerate(state.cells) if card == EMPTY]
    assert len(state.gaps) == board.rows  # the aces left out: one gap per row
    assert len(state.all_cards()) == 48 * board.decks
    for seed in range(6):
        session = random_session(variant, seed, 150)  # cards kept, undo inverts, at every step
        for action in session.legal_actions():
            assert variant.parse(variant.text(action), session.state) == action


def test_two_decks_build_on_either_twin():
    state = DOUBLE.new_state(parse_deal("5"))
    gap = next(g for g in state.gaps if g % 13 and state.cells[g - 1] != EMPTY and state.cells[g - 1] % 13 != 12)
    left = state.cells[gap - 1]
    fitting = {card for card in range(104) if state.where[card] >= 0 and state.fits(card, gap)}
    assert fitting == {left % 52 + 1, left % 52 + 53}  # the same face from either deck
    text = DOUBLE.text(DOUBLE.move(left % 52 + 53, gap))
    assert text.split(">")[0].endswith("'") and DOUBLE.parse_canonical(text) == DOUBLE.move(left % 52 + 53, gap)


def _gaps_position(text):
    from carpet.core.grid import GridState
    return GridState.from_rows(GAPS, [[None if c == ".." else c for c in line.split()]
                                      for line in text.strip().splitlines()])


def test_without_locks_a_move_may_lengthen_a_row_several_cards_at_once():
    state = _gaps_position("""
2C 3C 4C .. 6C 7C 8C 9C TC JC QC KC 5C
2S 3S 4S 5S 6S 7S 8S 9S TS JS QS KS ..
2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH ..
2D 3D 4D 5D 6D 7D 8D 9D TD JD QD KD ..
""")
    assert state.prefix == [3, 12, 12, 12] and state.score == 39  # the score counts the rows' runs
    state.apply(GAPS.move(parse_face("5C"), GAPS.board.parse_cell("a3")))
    assert state.prefix == [12, 12, 12, 12] and state.score == 48 and state.status == WON


def test_without_locks_a_card_may_leave_its_row_and_the_run_is_cut_there():
    state = _gaps_position("""
2C 3C 4C 5C 6C 7C 8C 9C TC JC QC KC ..
.. 3S 4S 5S 6S 7S 8S 9S TS JS QS KS 2S
2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH ..
2D 3D 4D 5D 6D 7D 8D 9D TD JD QD KD ..
""")
    assert state.prefix == [12, 0, 12, 12] and state.score == 36
    assert not state.is_locked(parse_face("2C"))
    state.apply(GAPS.move(parse_face("2C"), GAPS.board.parse_cell("b0")))  # column 0 takes any two
    assert state.prefix == [0, 1, 12, 12] and state.score == 25
    with pytest.raises(IllegalAction, match="not in this game"):
        state.apply(GAPS.move(parse_face("AS"), GAPS.board.parse_cell("a0")))


def test_a_board_is_an_immutable_value():
    board = Board()
    assert board == Board() and hash(board) == hash(Board())
    assert board.replace(cols=13) == Board(cols=13) != board
    with pytest.raises(AttributeError):
        board.cols = 13
    assert board.cols == 14


def test_a_board_copies_and_pickles():
    import copy
    import pickle

    board = GAPS.board.replace(rows=8, decks=2)
    assert copy.deepcopy(board) == board == pickle.loads(pickle.dumps(board))
