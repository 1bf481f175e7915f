"""Helpers the tests of the bulk replay share (the session's loop over a family's codes against the plain
rules)."""

from carpet.core import RESTART, CarpetError, Session
from carpet.core.families import FAMILIES
from carpet.core.game import WON
from carpet.core.session import play_codes
from carpet.formats.codec import codec


def plain_codes(state, codes, i, end, actions, decode) -> int:
    """What a family's ``play_codes`` does, the plain way: one event at a time, decode then apply."""
    for i in range(i, end):
        code = codes[i]
        if code <= RESTART or state.status == WON:
            return i
        action = decode(state, code)
        if action <= RESTART:
            return i
        try:
            state.apply(action)
        except CarpetError:
            return i
        actions.append(action)
        if state.status == WON:
            return i + 1
    return end


def fields(state) -> dict:
    """Every field of a state (the generator by its state), for an exact comparison."""
    out = {}
    for cls in type(state).__mro__:
        for name in getattr(cls, "__slots__", ()):
            if hasattr(state, name):
                value = getattr(state, name)
                out[name] = value.getstate() if hasattr(value, "getstate") else value
    return out


def codes_of(session) -> list[int]:
    """The session's events as version-2 action codes (played again from its deal)."""
    encode = codec(session.variant.family)[0]
    fresh = Session(session.variant, session.deal)
    out = []
    for action, clock in session.events:
        out.append(action if action <= RESTART else encode(fresh.state, action))
        fresh.act(action, clock)
    return out


def bulk_of(variant):
    """The session's bulk loop over a run of a family's codes (core/session.py ``play_codes`` with the
    family's ``play``), as ``Session.play_events`` runs it; ``decode`` is accepted and unused (the
    plain way's signature)."""
    play = FAMILIES[variant.family].codes().play

    def bulk(state, codes, i, end, actions, decode=None, undone=None, snaps=None, base=0):
        return play_codes(state, codes, i, end, actions, play, undone, snaps, base)
    return bulk


def plain_family_codes(variant):
    """What ``Session.play_events`` asks of a family (core/session.py ``_family_codes``) without its bulk
    ``play``: every event decoded and applied one at a time, the plain way throughout."""
    return None, FAMILIES[variant.family].codes().decode
