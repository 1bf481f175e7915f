"""The hint that sees only what the player has seen (core/seen.py), ``hint --peek``, ``hint
--position`` with ``??``, ``solve --seen`` and the survey's ``seen`` player.

The deals here are used by no other test (9101-9180)."""

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from carpet.core.hint import hint_action
from carpet.core import Session, get_game, parse_deal
from carpet.core.position import read, write
from carpet.core.seen import chances, position_hint, seen_hint, seen_of, seen_of_position
from carpet.core.solver import solve

from clitools import doc, run


def stock_written(text: str, how: str) -> str:
    """A position's text with its stock as dealt, reversed or every card ``??``."""
    fields = text.split(" ")
    for i, field in enumerate(fields):
        if field.startswith("s:") and field != "s:-":
            cards = [field[j:j + 2] for j in range(2, len(field), 2)]
            cards = {"dealt": cards, "reversed": cards[::-1], "unseen": ["??"] * len(cards)}[how]
            fields[i] = "s:" + "".join(cards)
    return " ".join(fields)


def deal_text(game: str, number: int) -> str:
    return write(get_game(game).new_state(parse_deal(str(number))))


@pytest.mark.parametrize("game,number", [("carpet", 9101), ("carpet", 9102), ("carpet-foster", 9103),
                                         ("carpet-foster", 9104), ("carpet-auto", 9105)])
def test_the_seen_hint_is_the_same_whatever_the_stocks_order(game, number):
    text = deal_text(game, number)
    hints = {how: position_hint(read(stock_written(text, how))) for how in ("dealt", "reversed", "unseen")}
    assert len(set(hints.values())) == 1, hints
    assert hints["dealt"] is not None
    # and the command says so, and what it looked at
    shown = {how: doc(run("hint", "--position", stock_written(text, how), "--json")) for how in ("dealt", "unseen")}
    assert shown["dealt"]["hint"] == shown["unseen"]["hint"] == get_game(game).text(hints["dealt"])
    assert shown["dealt"]["information"] == shown["unseen"]["information"] == "seen"
    assert "??" in shown["unseen"]["position"] and "??" in shown["unseen"]["layout"]["stock"]


def test_two_games_differing_only_in_unseen_order_get_the_same_hint_and_chances():
    """Played on from a position, with turns and an undo: the cards turned are seen, the rest not."""
    text = deal_text("carpet", 9106)
    cards = [f for f in text.split(" ") if f.startswith("s:")][0][2:]
    top, rest = cards[:8], [cards[i:i + 2] for i in range(8, len(cards), 2)]
    other = text.replace("s:" + cards, "s:" + top + "".join(rest[::-1]))
    assert other != text
    from carpet.core.position import Start

    sessions = []
    for t in (text, other):
        session = Session(get_game("carpet"), Start(read(t).text))
        for word in ("turn", "turn", "turn", "turn", "undo"):
            session.play_text(word, 0)
        sessions.append(session)
    seen = [seen_of(s) for s in sessions]
    assert seen[0] == seen[1]
    # the four cards turned are named (three on the waste, the one undone back on the stock), the rest ??
    stock = [f for f in seen[0].text.split(" ") if f.startswith("s:")][0][2:]
    assert stock[:2] == top[6:8] and set(stock[2:]) == {"?"}
    assert seen_hint(sessions[0]) == seen_hint(sessions[1]) is not None
    counts = [chances(s, samples=20, nodes=5_000) for s in seen]
    assert counts[0] == counts[1] and counts[0].samples == 20
    assert counts[0].won + counts[0].unwinnable + counts[0].unknown == 20


def test_one_record_per_session_the_memory_kept_through_an_undo_the_attempt_afresh():
    """The seen hint keeps one record per session (core/seen.py, ``_Record``) in two parts: what the
    player has seen goes on through an undo (the copy of the session is not played again, the card
    turned and undone stays named), the attempt's search keys start afresh there and are always
    those of the attempt's positions; after a restart the whole stock is unseen again."""
    import carpet.core.seen as seen_module
    from carpet.core.solver import working_copy

    def unseen(session) -> int:
        return seen_of(session).text.count("??")

    def attempt_keys(session) -> set:
        state = working_copy(session)
        keys = {state.search_key()}
        for snap in session.attempt_snapshots():
            state.restore(snap)
            keys.add(state.search_key())
        return keys

    session = Session(get_game("carpet"), parse_deal("9118"))
    dealt = unseen(session)
    assert dealt > 8
    for word in ("turn", "turn", "turn", "turn"):
        session.play_text(word, 0)
        assert seen_hint(session) is not None
    record = seen_module._RECORDS[session]
    shadow = record.shadow
    assert unseen(session) == dealt - 4 and record.keys | {working_copy(session).search_key()} == attempt_keys(session)
    session.play_text("undo", 0)
    assert seen_hint(session) is not None
    assert seen_module._RECORDS[session] is record and record.shadow is shadow
    assert record.done == len(session.events)
    assert unseen(session) == dealt - 4  # the card undone is back on the stock, named
    assert len(record.snaps) == 3 and record.keys | {working_copy(session).search_key()} == attempt_keys(session)
    session.play_text("restart", 0)
    assert seen_hint(session) is not None
    assert seen_module._RECORDS[session] is record and record.shadow is shadow
    assert unseen(session) == dealt and record.snaps == [] and record.keys == set()


def test_nothing_hidden_the_seen_hint_is_the_full_one():
    session = Session(get_game("kovrik"), parse_deal("9107"))
    assert not seen_of(session).hidden
    assert seen_hint(session) == hint_action(session)
    persian = Session(get_game("persian-carpet"), parse_deal("9108"))
    assert not seen_of(persian).hidden and seen_hint(persian) == hint_action(persian)


def test_a_grid_game_whose_redeals_shuffle_hides_its_generator():
    text = deal_text("montana", 9109)
    assert " g:" in text
    seen = seen_of_position(read(text))
    assert seen.hidden and " g:" not in seen.text
    other = text.split(" g:")[0] + " g:mt.12345.0"
    assert seen_of_position(read(other)) == seen
    assert position_hint(read(text)) == position_hint(read(other))


def test_hint_json_says_seen_and_peek_says_full(tmp_path):
    game = tmp_path / "g.carpet"
    assert run("new", "carpet", "9110", "-o", game).exit_code == 0
    seen = run("hint", game, "--json")
    assert seen.exit_code == 0 and doc(seen)["information"] == "seen" and doc(seen)["hint"]
    full = run("hint", game, "--json", "--peek")
    assert full.exit_code == 0 and doc(full)["information"] == "full"
    played = run("play", game, "hint", "--json")
    assert doc(played)["information"] == "seen"
    # both hints were recorded, and cost what any hint costs (nothing in carpet)
    assert doc(run("show", game, "--json"))["events"] == 3 and doc(played)["moves"] == 0


def test_solve_seen_counts_orders_with_an_interval():
    text = deal_text("carpet", 9111)
    out = run("solve", "--seen", "--position", stock_written(text, "unseen"), "--samples", "30")
    assert out.exit_code == 0
    assert out.stdout.startswith("won in ") and " of 30 orders (" in out.stdout
    docs = [doc(run("solve", "--seen", "--position", stock_written(text, how), "--samples", "30", "--json"))
            for how in ("dealt", "reversed", "unseen")]
    keys = ("samples", "won", "unwinnable", "unknown", "interval", "seen")
    assert all({k: d[k] for k in keys} == {k: docs[0][k] for k in keys} for d in docs)
    first = docs[0]
    assert first["information"] == "seen" and first["samples"] == 30
    assert first["won"] + first["unwinnable"] + first["unknown"] == 30
    assert first["interval"][0] <= first["rate"] <= first["interval"][1]
    by_deal = doc(run("solve", "carpet", "9111", "--seen", "--samples", "30", "--json"))
    assert {k: by_deal[k] for k in keys} == {k: first[k] for k in keys}


def test_solve_seen_bad_usage_is_one_line_and_exit_2():
    for args in (["solve", "carpet", "9112", "--seen", "--best"], ["solve", "carpet", "9112", "--seen", "-o", "x.carpet"],
                 ["solve", "--seen", "--position", "carpet nonsense"], ["solve", "carpet", "9112", "--seen",
                                                                        "--samples", "0"]):
        out = run(*args)
        assert out.exit_code == 2, args
        assert "Traceback" not in out.output


def test_hint_position_with_unseen_cards_bad_text_is_one_line_and_exit_2():
    out = run("hint", "--position", "carpet 8S2DQS4C9H/2S3D5C9CKH f:ACASAHAD s:?? w:-")
    assert out.exit_code == 2 and "Traceback" not in out.output


def test_the_seen_player_never_beats_full_information_and_beats_the_simple_player():
    """carpet-foster, 30 deals: a deal the seen player wins the solver wins too (else the seen
    hint peeks), and the seen player wins more deals than the simple player."""
    from carpet.core.players import get_player

    variant = get_game("carpet-foster")
    seen_won = simple_won = 0
    for number in range(9121, 9151):
        deal = parse_deal(str(number))
        by_seen = get_player("seen").function()(Session(variant, deal), None)
        by_simple = get_player("simple").function()(Session(variant, deal), None)
        if by_seen.result == "won":
            assert solve(Session(variant, deal)).result == "won", number
        seen_won += by_seen.result == "won"
        simple_won += by_simple.result == "won"
    assert seen_won > simple_won, (seen_won, simple_won)


@settings(max_examples=40, deadline=None)
@given(game=st.sampled_from(["carpet", "carpet-foster", "crazy-quilt", "indian-carpet"]),
       number=st.integers(9200, 9999), seed=st.integers(0, 2**32))
def test_what_the_player_sees_never_holds_the_unseen_order(game, number, seed):
    """Any order of a typed position's stock: the same seen text, the same samples."""
    text = deal_text(game, number)
    field = next(f for f in text.split(" ") if f.startswith("s:"))
    cards = [field[j:j + 2] for j in range(2, len(field), 2)]
    random.Random(seed).shuffle(cards)
    shuffled = text.replace(field, "s:" + "".join(cards))
    seen, again = seen_of_position(read(text)), seen_of_position(read(shuffled))
    assert seen == again and seen.hidden and "??" in seen.text
    assert [(p.text, o) for p, o in seen.samples(3)] == [(p.text, o) for p, o in again.samples(3)]


def test_a_hint_costs_the_same_seen_or_peeking(tmp_path):
    """kovrik counts a hint as a move: both kinds count it once."""
    game = tmp_path / "k.carpet"
    assert run("new", "kovrik", "9113", "-o", game).exit_code == 0
    assert doc(run("hint", game, "--json"))["moves"] == 1
    assert doc(run("hint", game, "--json", "--peek"))["moves"] == 2


@pytest.mark.parametrize("game,number", [("crazy-quilt", 9114), ("indian-carpet", 9115)])
def test_the_quilt_seen_hint_is_the_same_whatever_the_stocks_order(game, number):
    """A quilt deal's whole stock is face down: dealt, reversed or ``??``, the same hint, played
    on for a few actions (each new position typed again with its stock three ways)."""
    text = deal_text(game, number)
    for _ in range(4):
        hints = {how: position_hint(read(stock_written(text, how))) for how in ("dealt", "reversed", "unseen")}
        assert len(set(hints.values())) == 1, hints
        if hints["dealt"] is None:
            break
        state = read(text).state()
        state.apply(hints["dealt"])
        text = write(state)


def _weighed(monkeypatch):
    """Every vote of the seen hint, weighed again here by the spec: (candidates, the action named,
    per candidate the samples won and proved lost after it)."""
    import carpet.core.seen as seen

    votes = []
    vote_each = seen._vote_each

    def check(drawn, candidates, nodes):
        named = vote_each(drawn, candidates, nodes)
        won, lost = {}, {}
        for action in candidates:
            won[action] = lost[action] = 0
            for position, order, state in drawn:
                start = state.snapshot()
                state.apply(action)
                found = solve(Session(position.variant, seen._Sampled(position, order), state=state), nodes=nodes)
                state.restore(start)
                won[action] += found.result == "won"
                lost[action] += found.result == "unwinnable"
        votes.append((list(candidates), named, won, lost))
        return named

    monkeypatch.setattr(seen, "_vote_each", check)
    return votes


def test_a_quilt_vote_keeps_the_fewest_dead_ends_then_the_action_the_look_ahead_names_most(monkeypatch):
    """A quilt game followed by the seen hint: a vote is held only between two or more actions
    worth trying, over 16 orders; the action named is among those after which the fewest orders
    are lost or dead ends (the family's own test), and among those it is named by the simple
    player's look-ahead (600 nodes) in the most of the first 4 orders, the first such in the
    family's order.  Weighed again here on fresh states of each order."""
    import carpet.core.seen as seen
    from carpet.core.autoplay import best_action, play_out

    votes = []
    vote = seen._look_ahead_vote

    def check(drawn, candidates, nodes):
        named = vote(drawn, candidates, nodes)
        dead = {}
        for action in candidates:
            dead[action] = 0
            for position, order, _ in drawn:
                state = position.with_order(order)
                state.apply(action)
                dead[action] += state.status == "lost" or (state.status == "playing" and state.dead_end())
        kept = [a for a in candidates if dead[a] == min(dead.values())]
        named_by = [best_action(position.with_order(order), nodes) for position, order, _ in drawn[:4]]
        most = max(named_by.count(a) for a in kept)
        votes.append((len(drawn), nodes, list(candidates), dead, kept))
        assert named == next(a for a in kept if named_by.count(a) == most), (candidates, dead, named_by, named)
        return named

    monkeypatch.setattr(seen, "_look_ahead_vote", check)
    session = Session(get_game("crazy-quilt"), parse_deal("9116"))
    play_out(session, 70, choose=seen_hint)
    assert votes
    assert all(count == 16 and nodes == 600 and len(candidates) >= 2 for count, nodes, candidates, _, _ in votes)
    assert any(len(set(dead.values())) > 1 for *_, dead, _ in votes), "no vote where dead ends differ"
    assert any(len(kept) >= 2 for *_, kept in votes), "no vote left to the look-ahead"


def test_one_action_worth_trying_is_named_without_a_vote(monkeypatch):
    """carpet-foster: many positions have one action worth trying (the others reach the same
    positions); none of them goes to a vote, and the game is played as before."""
    from carpet.core.autoplay import play_out

    votes = _weighed(monkeypatch)
    session = Session(get_game("carpet-foster"), parse_deal("9117"))
    play_out(session, 5000, choose=seen_hint)
    assert votes and all(len(candidates) >= 2 for candidates, *_ in votes)


@settings(max_examples=300, deadline=None)
@given(votes=st.lists(st.integers(0, 4), min_size=2, max_size=5), left=st.integers(0, 3))
def test_the_quilt_vote_stops_exactly_when_no_votes_left_could_change_its_answer(votes, left):
    """``_settled`` against every way the votes left could fall (on any kept action, or none)."""
    from itertools import product

    from carpet.core.seen import _settled

    candidates = list(range(10, 10 + len(votes)))
    counted = dict(zip(candidates, votes))
    first = max(candidates, key=counted.__getitem__)
    answers = set()
    for falls in product(candidates + [None], repeat=left):
        after = dict(counted)
        for action in falls:
            if action is not None:
                after[action] += 1
        answers.add(max(candidates, key=after.__getitem__))
    assert _settled(candidates, counted, left) == (answers == {first}), (counted, left, answers)
