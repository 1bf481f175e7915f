"""A log's events against the engine: :func:`replay`, :func:`verify`, :func:`record` and
:func:`reseal`, and the reading of a version-2 binary log, whose actions are named by their position
and so are read by re-playing them.  Every call into the one replay (formats/playlog.py) is made here.
"""

from __future__ import annotations

from array import array
from typing import TYPE_CHECKING
from weakref import ref

import msgspec

from carpet.core import CarpetError, Session, Variant, get_game
from carpet.core.game import FIRST_ACTION, RESTART
from carpet.core.numbering import Deal
from carpet.core.session import CLOCK_LIMIT, Events

from . import codec as _codec
from .log_types import Header, Log, LogError, Summary, _as_events, _bad, _header_deal, digest_text, header_deal
from .log_v2 import clock_deltas, decode_v2_binary, seal_v2
from .playlog import ReplayError, clocks_of, copy_events, position_digest_of, run, unpacked

if TYPE_CHECKING:
    from carpet.core.position import Start


def _fresh(header: Header, variant: Variant, deal: "Deal | Start | None" = None) -> Session:
    """A session of the header's deal, its initial layout checked against the header's digest.
    ``deal``: the header's deal made already (a binary log's, where its text is canonical)."""
    if deal is None:
        deal = _header_deal(header.deal, header.numbering)
    session = Session.to_replay(variant, deal)
    full = position_digest_of(session.state)
    found = full if header.version == 1 else full[:8]
    if found != header.layout:
        where = f"deal {deal.text}" if type(deal) is Deal else "its starting position"
        raise LogError(f"initial layout digest {header.layout} does not match {where} "
                       f"of {variant.id} ({found})", unreadable=False)
    return session


def _illegal(exc: ReplayError, variant: Variant, session: Session | None = None) -> LogError:
    i = exc.event
    action = exc.action
    what = f" ({variant.text(action)})" if action is not None and _nameable(variant, action) else ""
    return LogError(f"event {i}{what}: illegal: {exc}", unreadable=False, event=i)


def _nameable(variant: Variant, action: int) -> bool:
    try:
        variant.text(action)
    except (CarpetError, IndexError, ValueError):
        return False
    return True


def _check_clocks(items, clocks: array) -> None:
    if clocks and max(clocks) > CLOCK_LIMIT:
        i = next(k for k, c in enumerate(clocks) if c > CLOCK_LIMIT) + 1
        raise LogError(f"event {i}: corrupt clock reading beyond 2^40 ms", unreadable=True, event=i)


def _check_order(events: Events, variant: Variant) -> None:
    """Within an attempt, no clock reading before the previous one (Session.act's rule)."""
    if getattr(events, "packed", None) is not None:
        return  # a version-1 binary log's events as read: they hold none (log_v1_json.PackedEvents)
    actions, clocks = events.actions, events.clocks
    previous = 0
    for i in range(len(actions)):
        clock = clocks[i]
        if clock < previous:
            raise LogError(f"event {i + 1} ({variant.text(actions[i])}): illegal: clock reading {clock} ms is "
                           f"before the previous one ({previous} ms)", unreadable=False, event=i + 1)
        previous = 0 if actions[i] == RESTART else clock


def _replayed(memo: tuple | None) -> Session | None:
    """The session a reader kept in ``Events.memo`` (itself, or a weak reference to it), if any."""
    if memo is None or memo[0] is None:
        return None
    session = memo[0]
    return session() if type(session) is ref else session


def replay(log: Log, upto: int | None = None, *, keep_history: bool = False, step=None) -> Session:
    """Re-play the log's events (the first ``upto``) with the engine; LogError at an illegal one."""
    variant = get_game(log.header.game)
    events = _as_events(log.events)
    session = _fresh(log.header, variant)
    if upto is None and not keep_history and step is None:
        known = _replayed(events.memo)
        if known is not None:
            return known
    _check_order(events if upto is None else events[:upto], variant)
    try:
        session, _ = run(session, events.actions, events.clocks, from_codes=False, upto=upto,
                         keep_history=keep_history, step=step)
    except ReplayError as exc:
        session.events = events
        raise _illegal(exc, variant, session) from None
    return session


def _compare_summary(s: Summary, session: Session, version: int) -> None:
    """The summary's claims against the replay: LogError at the first that differs."""
    state = session.state
    position = position_digest_of(state)
    found = (state.status, state.score + session.bonus, session.moves, state.redeals_left, session.clock_ms,
             position if version == 1 else position[:8])
    claimed = (s.status, s.score, s.moves, s.redeals_left, s.elapsed_ms, s.position)
    if found != claimed:
        names = ("status", "score", "moves", "redeals_left", "elapsed_ms", "position")
        for name, want_, got in zip(names, claimed, found):
            if want_ != got:
                raise LogError(f"summary {name} says {want_!r} but the replay gives {got!r}", unreadable=False)


def verify(log: Log, *, keep_history: bool = False) -> Session:
    """Full check: every event legal, summary as replayed, digest intact.  Returns the session."""
    events = _as_events(log.events)
    memo = events.memo
    confirmed = False
    session = None if keep_history else _replayed(memo)
    if session is not None:
        _, codes, confirmed = memo
        variant = session.variant
    else:
        variant = get_game(log.header.game)
        _check_order(events, variant)
        session = _fresh(log.header, variant)
        want = log.header.version == 2
        try:
            session, codes = run(session, events.actions, events.clocks, from_codes=False,
                                 want_codes=want, keep_history=keep_history)
        except ReplayError as exc:
            session.events = events
            raise _illegal(exc, variant, session) from None
        events.memo = (session, codes, False) if not keep_history else None
    s = log.summary
    if log.header.version != 1 and not confirmed:
        expected = seal_v2(log.header, codes, clock_deltas(events), s)
        if s.digest != expected:
            raise LogError("digest mismatch: the header, events or summary were edited or corrupted",
                           unreadable=False)
    _compare_summary(s, session, log.header.version)
    if log.header.version == 1 and s.digest != _seal_v1(log.header, events, variant):
        raise LogError("digest mismatch: the header or events were edited or corrupted", unreadable=False)
    return session


def _seal_v1(header: Header, events: Events, variant: Variant) -> str:
    from .log_v1_json import seal_v1  # (loaded for a version-1 log only: start-up pays for none of it)

    return seal_v1(header, events, variant.action_count)


def record(session: Session, header: Header, *, clock_jumps: int = 0, clock_skipped_ms: int = 0) -> Log:
    """The log of ``session`` under ``header``, with a fresh summary and digest."""
    events = session.events if isinstance(session.events, Events) else Events(session.events)
    summary = Summary(status=session.status, score=session.score, moves=session.moves,
                      redeals_left=session.redeals_left, elapsed_ms=session.clock_ms,
                      position=digest_text(session, header.version), digest="",
                      clock_jumps=clock_jumps, clock_skipped_ms=clock_skipped_ms)
    log = Log(header=header, events=events, summary=summary)
    if header.version == 1:
        summary.digest = _seal_v1(header, events, session.variant)
    else:
        codes, deltas = codes_and_deltas(log, session.variant)
        summary.digest = seal_v2(header, codes, deltas, summary)
        if session.events is events:
            events.memo = (None, codes, False)  # encode reuses the codes; verify still re-plays
    return log


def reseal(log: Log) -> Log:
    """``log`` with its digest computed afresh (for tools and tests that edit a log on purpose)."""
    variant = get_game(log.header.game)
    events = _as_events(log.events)
    if log.header.version == 1:
        digest = _seal_v1(log.header, events, variant)
    else:
        codes, deltas = codes_and_deltas(log, variant)
        digest = seal_v2(log.header, codes, deltas, log.summary)
    return msgspec.structs.replace(log, events=events, summary=msgspec.structs.replace(log.summary, digest=digest))


def codes_and_deltas(log: Log, variant: Variant) -> tuple[array, array]:
    """The version-2 action codes of the events: a replay, continued in the position of an
    illegal event if there is one (every action has a code in every position)."""
    events = _as_events(log.events)
    memo = events.memo
    if memo is not None and memo[1] is not None:
        return memo[1], clock_deltas(events)
    session = Session(variant, header_deal(log.header))
    try:
        _, codes = run(session, events.actions, events.clocks, from_codes=False, want_codes=True)
    except ReplayError as exc:
        encode = _codec.codec(variant.family)[0]
        session2 = Session(variant, header_deal(log.header))
        done = exc.event - 1
        _, codes = run(session2, events.actions, events.clocks, from_codes=False, want_codes=True, upto=done)
        state = session2.state
        for action in events.actions[done:]:
            codes.append(action if action < FIRST_ACTION else encode(state, action))
    return codes, clock_deltas(events)


def read_v2_binary(data: bytes, compare: bool) -> tuple[Log, Session]:
    """A version-2 binary log read and re-played (its actions are named by their position), with
    its summary compared to the replay where ``compare`` (:func:`check`; :func:`decode` leaves
    that to :func:`verify`).  The replay is kept on the events for :func:`verify`."""
    header, summary, variant, codes, deltas, meta, deal = decode_v2_binary(data)
    items = codes
    clocks = None
    if deltas.typecode != "H" or len(items) * 0xFFFF > CLOCK_LIMIT:
        # a delta escaped its plane (or the log is very long): the readings are worked out
        # and bounded here; else no reading can pass the bound and they are summed when read
        try:
            clocks = clocks_of(items, unpacked(deltas))
        except OverflowError:
            raise _bad("corrupt log (a clock reading beyond 2^40 ms)") from None
        _check_clocks(items, clocks)
    session = _fresh(header, variant, deal)
    try:
        session, _ = run(session, items, clocks, from_codes=True, deltas=deltas, meta=meta)
    except ReplayError as exc:
        if clocks is None:
            clocks = clocks_of(items, unpacked(deltas))
        refused = _illegal(exc, variant, session)
        if exc.decoded is not None:  # what was played before it, for a report of the position there
            before = exc.event - 1
            refused.partial = Log(header=header, summary=summary,
                                  events=Events(actions=exc.decoded[:before], clocks=clocks[:before]))
            action = exc.decoded[before] if len(exc.decoded) > before else exc.action
            refused.found = (action, clocks[before])
            refused.total = len(items)
        raise refused from None
    # the replay kept for verify and replay (the digest was checked on the bytes), without a
    # reference cycle (log.events -> session -> log.events), which only the garbage collector
    # frees (measured: 1.5 us a log, 4 % of a Carpet game's check).  check() hands the session
    # to its caller, so the events hold it weakly; decode() has none to hand it to, so the log
    # gets events of its own (copies: the session's grow as it is played on) and holds it.
    events = session.events
    if compare:
        _compare_summary(summary, session, 2)
        events.memo = (ref(session), codes, True)
    else:
        events = copy_events(events)
        events.memo = (session, codes, True)
    return Log(header, events, summary), session
