"""The bulk replay (the session's loop over a family's codes and primitives, core/session.py) pinned to the plain way of decoding and ``State.apply``, event by
event, over many games of every variant they play.

Each game's version-2 action codes are played twice from the same deal: by the family's
``play_codes`` and by :func:`plain_codes` (decode and apply, one event at a time, as the
one replay does without them).  Both must stop at the same event, have decoded the same
actions, and leave the same position, score and status, down to every field of the
state.  The games: the built-in player's (what people's logs look like), random legal
play, and both with codes changed at random (unusual codes, illegal events, codes that
name nothing), continuing after each refusal.  Whole logs with hints, undos and
restarts go through ``run`` with and without the bulk replay.
"""

from __future__ import annotations

import random
from array import array

import pytest

from carpet.cli.bench import harness
from carpet.core import GAMES, Session, parse_deal
from carpet.core.autoplay import play_out
from carpet.core.game import WON
from carpet.core.numbering import dealing_order, fast_dealing_order
from carpet.formats import check, decode, encode, new_header, record
from carpet.formats.codec import decoder
from carpet.core import session as session_module
from carpet.core.session import lean_class
from carpet.formats.playlog import ReplayError, position_digest_of, run

from replaytools import plain_family_codes, bulk_of, codes_of, fields, plain_codes

FAST = list(GAMES)  # every family plays its logs in bulk
CREATED = "2026-11-29T12:00:00.000Z"


def lean_state(variant, deal):
    state = variant.new_state(deal)
    state.__class__ = lean_class(type(state))
    return state


def moves_only(variant, deal, rng, steps, player) -> Session:
    """A game of moves alone (no hint, undo or restart): the built-in player's, or random."""
    session = Session(variant, deal)
    if player:
        play_out(session, steps)
    else:
        for _ in range(steps):
            actions = session.legal_actions()
            if not actions:
                break
            session.act(rng.choice(actions), 0)
    return session


def mutated(codes, rng, rate) -> list[int]:
    out = list(codes)
    for k in range(len(out)):
        if rng.random() < rate:
            out[k] = rng.choice((rng.randrange(3, 16), rng.randrange(3, 256), rng.randrange(256, 3000)))
    return out


def compare(variant, deal, codes) -> None:
    fast, slow = lean_state(variant, deal), lean_state(variant, deal)
    play = bulk_of(variant)
    got, want = array("I"), array("I")
    i = 0
    while i < len(codes):
        j = play(fast, codes, i, len(codes), got, decoder(fast))
        k = plain_codes(slow, codes, i, len(codes), want, decoder(slow))
        assert (j, list(got)) == (k, list(want)), f"stopped at {j} instead of {k}"
        assert fields(fast) == fields(slow), f"after events {i}..{j}"
        i = j + 1 if j == i else j  # past a refused or session event, as a caller would go on


@pytest.mark.parametrize("game", FAST)
@pytest.mark.parametrize("player", (True, False))
def test_bulk_replay_equals_plain_apply(game, player):
    variant = GAMES[game]
    rng = random.Random(f"{game} {player}")
    slow = player and variant.family == "quilt"  # the quilt player's hint searches ahead
    for k in range(3 if slow else 12):
        deal = parse_deal(str(rng.choice((rng.randint(1, 31999), rng.randint(32000, 10**12)))))
        session = moves_only(variant, deal, rng, 400, player)
        codes = codes_of(session)
        compare(variant, deal, codes)
        for rate in (0.01, 0.05, 0.3):
            compare(variant, deal, mutated(codes, rng, rate))
        # a won game played on: every later move is refused
        if session.status == WON:
            compare(variant, deal, codes + codes[:5])


def random_log_session(variant, seed, events) -> Session:
    """A random session with hints, undos and restarts: the bench's random game, from a seeded deal."""
    rng = random.Random(seed)
    return harness().random_game(variant, rng.randint(1, 31999), events, rng)


@pytest.mark.parametrize("game", FAST)
def test_run_with_bulk_replay_equals_run_without(game, monkeypatch):
    variant = GAMES[game]
    for seed in range(6):
        session = random_log_session(variant, f"{game} {seed}", 300)
        codes = array("I", codes_of(session))
        clocks = session.events.clocks
        for upto in (None, 40, 151):
            fast, _ = run(Session(variant, session.deal), codes, clocks, from_codes=True, upto=upto)
            with monkeypatch.context() as m:
                m.setattr(session_module, "_family_codes", plain_family_codes)
                slow, _ = run(Session(variant, session.deal), codes, clocks, from_codes=True, upto=upto)
            assert fields(fast.state) == fields(slow.state)
            assert (fast.moves, fast.bonus, fast.clock_ms, fast.earlier_attempts_ms, list(fast.events)) == \
                (slow.moves, slow.bonus, slow.clock_ms, slow.earlier_attempts_ms, list(slow.events))


@pytest.mark.parametrize("game", FAST)
def test_a_refused_event_is_named_alike(game, monkeypatch):
    """A log changed at one event: the same refusal, the same event, with and without."""
    variant = GAMES[game]
    rng = random.Random(game)
    for seed in range(8):
        session = random_log_session(variant, f"{game} refused {seed}", 200)
        codes = codes_of(session)
        for _ in range(6):
            bad = list(codes)
            k = rng.randrange(len(bad))
            bad[k] = rng.randrange(3, 256)
            clocks = session.events.clocks
            outcomes = []
            for kernels in (session_module._family_codes, plain_family_codes):
                with monkeypatch.context() as m:
                    m.setattr(session_module, "_family_codes", kernels)
                    try:
                        s, _ = run(Session(variant, session.deal), array("I", bad), clocks, from_codes=True)
                        outcomes.append(("played", fields(s.state), s.moves, s.bonus))
                    except ReplayError as exc:
                        outcomes.append((str(exc), exc.event, exc.action, list(exc.decoded)))
            assert outcomes[0] == outcomes[1]


@pytest.mark.parametrize("game", FAST)
def test_player_logs_verify_alike(game, monkeypatch):
    variant = GAMES[game]
    for number in (1,) if variant.family == "quilt" else (1, 2, 3):
        session = Session(variant, parse_deal(str(number)))
        play_out(session, 5000)
        data = encode(record(session, new_header(session, created=CREATED, tool="carpet 0.1.0")))
        log, fast = check(data)
        with monkeypatch.context() as m:
            m.setattr(session_module, "_family_codes", plain_family_codes)
            _, slow = check(data)
        assert fields(fast.state) == fields(slow.state)
        assert list(decode(data).events) == list(session.events)


DEALS = [str(n) for n in range(1, 31)] + ["31999", "32000", "123456789012", "ms2147483647", "ms2147483648",
                                           "ms3000000000", "ms4294967296", "ms8589934591", "99999999999999999999"]


@pytest.mark.parametrize("cards", (52, 104))
def test_the_fast_shuffle_equals_the_plain_one(cards):
    for text in DEALS + [f"ms{n}" for n in range(2**31 - 40, 2**31 + 40)] + [f"ms{2**32 + n}" for n in range(40)]:
        deal = parse_deal(text)
        order, rng = dealing_order(deal, cards)
        fast_order, fast_rng = fast_dealing_order(deal, cards)
        assert (fast_order, type(fast_rng), fast_rng.getstate()) == (order, type(rng), rng.getstate()), text
        assert fast_dealing_order(deal, cards, generator=False) == (order, None), text


@pytest.mark.parametrize("game", FAST)
def test_the_fast_deal_equals_new_state(game):
    variant = GAMES[game]
    for text in DEALS:
        deal = parse_deal(text)
        plain, dealt = variant.new_state(deal), Session.to_replay(variant, deal).state
        assert type(dealt) is type(plain) and fields(dealt) == fields(plain), text
        assert position_digest_of(dealt) == plain.digest()


def every_code(variant, rng) -> list[int]:
    """Codes to try at one position: every small code, each family's fallback codes for the actions
    that matter most, and a sample of the rest."""
    top = {"grid": 15 + variant.action_count * 2, "carpet": 49 + variant.action_count,
           "quilt": 215 + variant.action_count}[variant.family]
    codes = list(range(3, min(top, 260)))
    if variant.family == "quilt":  # every action onto a reserve, by its index (215 + a - 3)
        codes += [215 + source * 17 + target for source in range(73) for target in range(9, 17)]
    codes += rng.sample(range(260, top), min(200, max(0, top - 260)))
    return codes


@pytest.mark.parametrize("game", FAST)
def test_every_code_at_many_positions_alike(game):
    """One event, every code, at positions along random games: the same outcome both ways."""
    variant = GAMES[game]
    rng = random.Random(f"{game} every code")
    player = Session(variant, parse_deal("2"))
    play_out(player, 200)  # the player's positions: emptied reserves, long runs, late game
    for session in (random_log_session(variant, f"{game} positions 0", 120),
                    random_log_session(variant, f"{game} positions 1", 120), player):
        replayed = Session(variant, session.deal)
        for k, (action, clock) in enumerate(session.events):
            replayed.act(action, clock)
            if k % 15:
                continue
            snap = replayed.state.snapshot()
            fast, slow = lean_state(variant, session.deal), lean_state(variant, session.deal)
            play = bulk_of(variant)
            for code in every_code(variant, rng):
                fast.restore(snap)
                slow.restore(snap)
                got, want = array("I"), array("I")
                j = play(fast, [code], 0, 1, got, decoder(fast))
                assert (j, list(got)) == (plain_codes(slow, [code], 0, 1, want, decoder(slow)), list(want)), code
                assert fields(fast) == fields(slow), code


def test_the_fast_shuffle_of_any_list_equals_the_plain_one():
    """Lists of every length a redeal shuffles, from generators of every seed range, part-drawn."""
    from carpet.core.numbering import MicrosoftRandom, TwisterRandom, fast_shuffle
    rng = random.Random(4)
    for seed in [1, 2, 31999, 2**31 - 1, 2**31, 2**32 - 1, 2**32, 2**33 - 1] + [rng.randrange(1, 2**33) for _ in range(20)]:
        for count in range(0, 110, 3):
            plain, fast = MicrosoftRandom(seed), MicrosoftRandom(seed)
            for _ in range(seed % 7):
                plain.draw()
                fast.draw()
            a, b = list(range(count)), list(range(count))
            plain.shuffle(a)
            fast_shuffle(b, fast)
            assert (b, fast.getstate()) == (a, plain.getstate()), (seed, count)
    plain, fast = TwisterRandom(10**12), TwisterRandom(10**12)
    a, b = list(range(40)), list(range(40))
    plain.shuffle(a)
    fast_shuffle(b, fast)
    assert (b, fast.getstate()) == (a, plain.getstate())


def test_undone_over_bytes_equals_undone_over_a_list():
    rng = random.Random(3)
    for _ in range(300):
        items = [rng.choice((0, 1, 1, 2) if rng.random() < 0.3 else (3, 7, 200)) for _ in range(rng.randrange(60))]
        want = session_module.undone(items)
        assert session_module.undone(bytes(items)) == want
        assert session_module.undone(bytearray(items)) == want


@pytest.mark.parametrize("game,family", [("kovrik", "grid"), ("carpet", "carpet"), ("crazy-quilt", "quilt")])
def test_reading_a_log_loads_its_own_family_alone(tmp_path, game, family):
    """The bulk replays keep the families apart: reading a log imports no other family's modules."""
    import subprocess
    import sys
    session = Session(GAMES[game], parse_deal("1"))
    play_out(session, 30)
    path = tmp_path / "game.carpet"
    path.write_bytes(encode(record(session, new_header(session, created=CREATED, tool="carpet 0.1.0"))))
    code = ("import sys; from carpet.formats import check; check(open(sys.argv[1], 'rb').read()); "
            "print(' '.join(sorted(m.split('.')[-1] for m in sys.modules if m.startswith('carpet.core.'))))")
    loaded = set(subprocess.run([sys.executable, "-c", code, str(path)], check=True, capture_output=True,
                                text=True).stdout.split())
    others = {"grid", "montana", "carpet", "quilt"} - {family}
    # every family's rules are written once: its package, its rules and its codes
    own = {family, "rules", "codes"}
    assert own <= loaded and not loaded & (others | {f"{f}_replay" for f in others})
