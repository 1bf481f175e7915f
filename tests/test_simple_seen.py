"""The survey's ``simple-seen`` player (core/players.py, core/seen.py ``simple_seen_action``): the
simple player's choice made on one order of the unseen cards drawn from what the player has seen.

The deals here are used by no other test (9301-9330)."""

import json
import random

import pytest

from carpet.core import Session, get_game, parse_deal
from carpet.core.autoplay import simple_action
from carpet.core.players import get_player
from carpet.core.position import Start, read, write
from carpet.core.seen import seen_of, simple_seen_action

from clitools import doc, run


def deal_text(game: str, number: int) -> str:
    return write(get_game(game).new_state(parse_deal(str(number))))


def stock_mixed(text: str, keep: int, seed: int) -> str:
    """A position's text with its stock's first ``keep`` cards (the top ones, turned first) as
    dealt and the rest in another order (reversed when ``seed`` is None, else shuffled)."""
    field = next(f for f in text.split(" ") if f.startswith("s:"))
    cards = [field[j:j + 2] for j in range(2, len(field), 2)]
    rest = cards[keep:][::-1] if seed is None else random.Random(seed).sample(cards[keep:], len(cards) - keep)
    assert rest != cards[keep:]
    return text.replace(field, "s:" + "".join(cards[:keep] + rest))


@pytest.mark.parametrize("game,number,keep,seed", [("crazy-quilt", 9302, 12, 1), ("crazy-quilt", 9305, 12, 2),
                                                   ("indian-carpet", 9301, 12, 3), ("crazy-quilt", 9303, 0, None),
                                                   ("carpet", 9304, 9, 4)])
def test_it_never_reads_a_face_down_card(game, number, keep, seed):
    """Two games whose stocks differ only below their top ``keep`` cards: while what the player has
    seen agrees, the player takes the same actions in both, where the simple player (which peeks
    in the quilt) takes different ones in some positions of the quilt games."""
    variant = get_game(game)
    text = deal_text(game, number)
    sessions = [Session(variant, Start(read(t).text)) for t in (text, stock_mixed(text, keep, seed))]
    steps = peeked = 0
    while sessions[0].status == "playing" and seen_of(sessions[0]) == seen_of(sessions[1]):
        assert seen_of(sessions[0]).hidden
        chosen = [simple_seen_action(s) for s in sessions]
        assert chosen[0] == chosen[1] is not None, (steps, chosen)
        peeked += simple_action(sessions[0].state) != simple_action(sessions[1].state)
        for session in sessions:
            session.act(chosen[0], 0)
        steps += 1
    assert steps > keep, steps  # every card kept was turned, and more was played
    # the seen positions part only when a card below the first keep is turned
    assert sessions[0].status == "playing" and seen_of(sessions[0]) != seen_of(sessions[1])
    stock = next(f for f in text.split(" ") if f.startswith("s:"))
    assert seen_of(sessions[0]).text.count("??") == (len(stock) - 2) // 2 - keep - 1
    if variant.family == "quilt" and keep:
        assert peeked, "the simple player made the same choices too: this deal shows nothing"


@pytest.mark.parametrize("game", ["carpet", "carpet-auto", "carpet-foster", "kovrik", "kovrik-shuffle",
                                  "kovrik-shuffle-2", "montana", "spaces", "red-moon", "persian-carpet"])
def test_where_the_simple_player_reads_nothing_hidden_it_plays_as_simple(game):
    """The carpet and grid families' simple player reads the table, the waste and the stock's size,
    never the stock's order nor what a shuffle will deal: the drawn order changes nothing, and the
    two players take the same actions to the same end.  Persian Carpet hides nothing at all."""
    variant = get_game(game)
    for number in range(9311, 9316):
        deal = parse_deal(str(number))
        a, b = Session(variant, deal), Session(variant, deal)
        assert seen_of(a).hidden == (game not in ("kovrik", "persian-carpet"))  # a stock's order, shuffles to come
        by_simple = get_player("simple").function()(a, None)
        by_seen = get_player("simple-seen").function()(b, None)
        assert by_seen == by_simple, number
        assert [e[0] for e in b.events] == [e[0] for e in a.events], number


def test_in_the_quilt_it_is_not_the_simple_player_and_is_deterministic():
    """crazy-quilt: the first pass hides the stock, and there the two players part; the same deal
    played twice is played alike."""
    variant = get_game("crazy-quilt")
    differ = 0
    for number in (9306, 9307):
        deal = parse_deal(str(number))
        runs = [Session(variant, deal) for _ in range(3)]
        names = ("simple-seen", "simple-seen", "simple")
        played = [get_player(name).function()(s, None) for name, s in zip(names, runs)]
        assert played[0] == played[1] and runs[0].events == runs[1].events
        differ += runs[0].events != runs[2].events
    assert differ


def test_the_survey_plays_it_on_worker_processes_as_here(tmp_path):
    """`carpet survey GAME --player simple-seen` on two processes: each deal's result is what the
    player gives in this process (the draws depend on the seen position alone)."""
    out = tmp_path / "r.jsonl"
    shown = run("survey", "crazy-quilt", "--deals", "9321-9324", "--player", "simple-seen", "--jobs", "2",
                "--chunk", "1", "--out", out, "--json")
    assert shown.exit_code == 0, shown.output
    summary = doc(shown)
    assert summary["player"] == "simple-seen" and summary["deals"] == 4 and summary["budget"] is None
    rows = sorted((json.loads(line) for line in out.read_text().splitlines()), key=lambda r: r["deal"])
    player = get_player("simple-seen").function()
    for row in rows:
        here = player(Session(get_game("crazy-quilt"), parse_deal(str(row["deal"]))), None)
        assert (row["result"], row["moves"], row["score"], row["actions"], row["nodes"]) == tuple(here)
        assert row["player"] == "simple-seen"
    assert summary["won"] == sum(row["result"] == "won" for row in rows)


def test_the_help_lists_it_and_a_budget_is_refused():
    text = " ".join(run("survey", "--help").stdout.split())
    assert "simple-seen" in text
    out = run("survey", "carpet", "--deals", "1-2", "--player", "simple-seen", "--nodes", "100")
    assert out.exit_code == 2 and "the simple-seen player has none" in out.stderr
