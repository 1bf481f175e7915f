"""The one replay (formats/playlog.py) gives exactly what Session.act gives, with less work."""

import tracemalloc

import pytest

from carpet.core import GAMES, RESTART, Session, parse_deal
from carpet.formats import check, decode, encode, new_header, record, replay, to_bytes, verify
from carpet.formats.log_types import digest_text
from carpet.formats.playlog import run, undone

from playthrough import observe, random_session

ALL = list(GAMES)
CREATED = "2026-11-29T12:00:00.000Z"


def lean(variant, deal, events, **kw):
    session = Session(variant, deal)
    actions = [a for a, _ in events]
    clocks = [c for _, c in events]
    from array import array
    return run(session, array("I", actions), array("q", clocks), from_codes=False, **kw)[0]


@pytest.mark.parametrize("game", ALL)
@pytest.mark.parametrize("seed", range(4))
def test_lean_replay_equals_session_at_every_prefix(game, seed):
    variant = GAMES[game]
    session = random_session(variant, seed, 250, check=False)
    events = list(session.events)
    for n in sorted({0, 1, 7, len(events) // 3, len(events) // 2, len(events) - 1, len(events)}):
        want = Session.replay(variant, session.deal, events[:n])
        got = lean(variant, session.deal, events[:n])
        assert observe(got) == observe(want), n
        assert (got.clock_ms, got.earlier_attempts_ms, got.state.digest()) == \
            (want.clock_ms, want.earlier_attempts_ms, want.state.digest())
        assert list(got.events) == events[:n]


@pytest.mark.parametrize("game", ALL)
def test_after_loading_every_undo_still_works(game):
    variant = GAMES[game]
    session = random_session(variant, 11, 200, check=False)
    loaded = lean(variant, session.deal, list(session.events), keep_history=True)
    while session.can_undo():
        assert loaded.can_undo()
        session.act(1, session.clock_ms)
        loaded.act(1, loaded.clock_ms)
        assert observe(loaded) == observe(session)
    assert not loaded.can_undo()


def test_only_positions_a_later_undo_takes_back_are_saved():
    need = undone([5, 6, 1, 7, 8, 9, 1, 1, RESTART, 4, 1])
    assert list(need) == [0, 1, 0, 0, 1, 1, 0, 0, 0, 1, 0]
    assert undone([5, 6, 7]) is None


@pytest.mark.parametrize("version", (1, 2))
@pytest.mark.parametrize("form", ("binary", "json", "text"))
def test_redeals_never_taken_back_cost_no_saved_positions(version, form):
    variant = GAMES["kovrik-shuffle"]
    session = Session(variant, parse_deal("1"))
    for i in range(4000):
        session.act(3, 1000 * i)  # a shuffle
    log = record(session, new_header(session, created=CREATED, tool="t", version=version))
    data = to_bytes(log, form=form)
    tracemalloc.start()
    check(data)
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    assert peak / 4000 < 100  # bytes per event above what was there before (the file read in)


@pytest.mark.parametrize("game", ALL)
def test_replay_prefix_and_verify_agree(game):
    session = random_session(GAMES[game], 5, 150, check=False)
    for version in (1, 2):
        log = record(session, new_header(session, created=CREATED, tool="t", version=version))
        for as_json in (False, True):
            back = decode(encode(log, as_json=as_json))
            checked = verify(back)
            assert observe(checked) == observe(session)
            assert digest_text(replay(back, 10), version) == digest_text(Session.replay(
                session.variant, session.deal, list(session.events)[:10]), version)


def test_every_reader_goes_through_the_one_replay(tmp_path, monkeypatch):
    """verify, show (--at), moves, replay and export never step a Session event by event."""
    from clitools import run as cli

    from importlib import import_module

    from carpet.core import session as session_module
    replay_module = import_module("carpet.formats.playlog")

    path = tmp_path / "g.carpet"
    assert cli("new", "carpet", "2", "-o", path).exit_code == 0
    assert cli("play", path, "turn", "turn", "undo", "hint", "-q").exit_code == 0
    calls = []
    original = replay_module.run

    def counted(*args, **kwargs):
        calls.append(1)
        return original(*args, **kwargs)

    def refused(self, action, clock_ms):
        raise AssertionError("a reader stepped a Session")

    monkeypatch.setattr(session_module.Session, "act", refused)
    monkeypatch.setattr("carpet.formats.log_verify.run", counted)
    for command in (["verify", path], ["show", path, "--json"], ["show", path, "--at", "2", "--json"],
                    ["moves", path], ["replay", path, "--json"], ["export", path, "-o", tmp_path / "g.txt"]):
        calls.clear()
        r = cli(*command)
        assert r.exit_code == 0, (command, r.stderr, r.exception)
        assert calls, command
