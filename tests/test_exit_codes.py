"""Well-formed action text that breaks a rule is an illegal action (exit 1), never bad usage (exit 2).

"Well-formed" is taken from the games themselves, so that a new variant is covered as soon as
it is in GAMES: the canonical text of every action of every game of the family, every source
of the family's moves joined to every target (``a1>a2`` in carpet, ``r1>w`` in the quilt
games), every card alone, and the words of every game. Each is tried in several positions of
each game (the deal, mid-game, the end of the built-in player's game); typing it may be
legal or illegal there, but it is never "not an action".
"""

import copy

import pytest

from carpet.core import GAMES, BadAction, IllegalAction, Session, parse_deal
from carpet.core.autoplay import play_out
from carpet.core.cards import CODES
from carpet.core.game import FIRST_ACTION, META_WORDS

from clitools import run

ALL = sorted(GAMES)


def _canonical(variant) -> set[str]:
    return {variant.text(a) for a in range(FIRST_ACTION, variant.action_count) if variant.valid_index(a)}


def well_formed(game: str) -> list[str]:
    variant = GAMES[game]
    family = [v for v in GAMES.values() if v.family == variant.family]
    texts = set().union(*map(_canonical, family))
    moves = [t.split(">") for t in texts if ">" in t]
    sources, targets = {m[0] for m in moves}, {m[1] for m in moves}
    texts |= {f"{s}>{t}" for s in sources for t in targets}
    texts |= set(CODES)  # a card alone: the click, or the one move of that card
    texts |= set(META_WORDS) | {word for v in GAMES.values() for word in v.words}
    return sorted(texts)


def positions(game: str) -> list[Session]:
    """The deal, 3 and 25 actions of the built-in player in, and where its game ends; two deals."""
    found = []
    for number in ("1", "2"):
        session = Session(GAMES[game], parse_deal(number))
        done = 0
        for stop in (0, 3, 25, 5000):
            done += play_out(session, limit=stop - done)
            found.append(copy.deepcopy(session))
    return found


@pytest.mark.parametrize("game", ALL)
def test_well_formed_text_is_legal_or_illegal_never_bad(game):
    texts = well_formed(game)
    wrong = {}
    for pristine in positions(game):
        session = copy.deepcopy(pristine)
        for text in texts:
            try:
                session.act(session.parse(text), session.clock_ms)
            except IllegalAction:
                continue
            except BadAction as exc:
                wrong.setdefault(text, f"{type(exc).__name__}: {exc}")
                continue
            session = copy.deepcopy(pristine)  # it was legal: back to the position under test
    assert not wrong, f"{game}: {len(wrong)} well-formed texts refused as bad: " + "; ".join(
        f"{t} -> {why}" for t, why in list(wrong.items())[:12])


def test_the_family_notation_is_what_the_test_takes_it_to_be():
    """The generator above finds the notation people are told about (README's notation)."""
    assert {"a1>a2", "s>F", "w>a2", "s>a2", "turn", "redeal", "7H"} <= set(well_formed("carpet-auto"))
    assert {"w>UH", "r1>r2", "r1>w", "c4>w", "c4>r3", "turn", "w>w"} <= set(well_formed("persian-carpet"))
    assert {"7H>b5", "AH>a0", "redeal", "turn"} <= set(well_formed("kovrik"))
    assert "a1>xx" not in well_formed("carpet") and "7H>F" not in well_formed("kovrik")


@pytest.mark.parametrize("game, action", [
    ("carpet", "a1>a2"), ("carpet-auto", "w>a2"), ("carpet-auto", "s>a2"), ("carpet-foster", "s>a1"),
    ("persian-carpet", "turn"), ("persian-carpet", "w>UH"), ("crazy-quilt", "r1>r2"), ("crazy-quilt", "a1>r1"),
    ("carpet", "s>F"), ("carpet", "a1-w"), ("kovrik", "turn"), ("carpet-auto", "9C>b3"),
])
def test_the_cli_exits_1_for_a_rule_broken(tmp_path, game, action):
    log = tmp_path / "g.log"
    assert run("new", game, "1", "-o", log).exit_code == 0
    result = run("play", log, action)
    assert result.exit_code == 1, result.stderr
    assert result.stderr.count("\n") == 1 and "Traceback" not in result.stderr


@pytest.mark.parametrize("game, action", [
    ("carpet", "a1>zz"), ("carpet", "zz>F"), ("carpet-auto", "xyz>b3"), ("carpet", "a1"),
    ("kovrik", "7H>F"), ("kovrik", "7H>b14"), ("crazy-quilt", "c4>zz"), ("persian-carpet", "q9>r1"),
    ("kovrik", "shuffle"), ("carpet", "7X"),
])
def test_text_that_is_no_action_still_exits_2(tmp_path, game, action):
    log = tmp_path / "g.log"
    assert run("new", game, "1", "-o", log).exit_code == 0
    result = run("play", log, action)
    assert result.exit_code == 2, result.stderr
    assert result.stderr.count("\n") == 1
