"""The PySol numbering, pinned: PySolFC's own layouts and an independent implementation's orders."""

import pytest

from carpet.core import BadDealNumber, Session, get_game, parse_deal
from carpet.core.cards import code, parse_face
from carpet.core.numbering import dealing_order, shuffle


@pytest.mark.parametrize("number", ["1", "123456789012"])
def test_kovrik_deal_is_pysolfc_spaces_and_aces(vectors, number):
    layout = Session(get_game("kovrik"), parse_deal(number)).state.layout()
    assert layout == vectors["kovrik"][number]


@pytest.mark.parametrize("game", ["kovrik", "kovrik-hard", "kovrik-shuffle", "kovrik-shuffle-2"])
def test_every_grid_variant_deals_the_same_cards(vectors, game):
    assert Session(get_game(game), parse_deal("1")).state.layout() == vectors["kovrik"]["1"]


def test_dealing_orders_match_an_independent_implementation(pysol_orders):
    """pysol_cards (MIT) orders for both generators, every seed range, 52 and 104 cards,
    and the generator's continuation (what a shuffled redeal draws)."""
    assert len(pysol_orders) >= 40
    for case in pysol_orders:
        order, rng = dealing_order(parse_deal(case["deal"]), case["cards"])
        assert [code(c) + ("'" if c >= 52 else "") for c in order] == case["order"], case["deal"]
        rest = list(range(40))
        shuffle(rest, rng)
        assert rest == case["then"], case["deal"]


@pytest.mark.parametrize("text,canonical,microsoft", [
    ("1", "ms1", True), ("#1", "ms1", True), ("ms1", "ms1", True), ("MS1", "ms1", True),
    ("31999", "ms31999", True), ("32000", "32000", False), ("ms32000", "ms32000", True),
    ("8589934591", "8589934591", False), ("ms8589934591", "ms8589934591", True),
    ("99999999999999999999", "99999999999999999999", False), (" 42 ", "ms42", True),
])
def test_deal_number_forms(text, canonical, microsoft):
    deal = parse_deal(text)
    assert deal.text == canonical and deal.microsoft is microsoft
    assert parse_deal(deal.text) == deal


def test_plain_and_ms_numbers_below_32000_are_the_same_deal():
    assert dealing_order(parse_deal("617"), 52)[0] == dealing_order(parse_deal("ms617"), 52)[0]
    assert parse_deal("617").both_forms == "ms617 (= #617)"


@pytest.mark.parametrize("text", ["0", "ms0", "-1", "-5", "1.5", "abc", "", "ms", "#",
                                  "100000000000000000000", "ms8589934592", "1" * 5000, "ms-3", "1e5"])
def test_bad_deal_numbers_are_refused(text):
    with pytest.raises(BadDealNumber):
        parse_deal(text)


@pytest.mark.parametrize("typed,expected", [("TD", "TD"), ("10d", "TD"), ("10♦", "TD"), ("t♦", "TD"),
                                            ("as", "AS"), ("A♠", "AS"), ("kh", "KH"), ("2♣", "2C")])
def test_card_input_forms(typed, expected):
    assert code(parse_face(typed)) == expected
