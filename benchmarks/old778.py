"""A frozen copy of the verify path of commit 778fb62 (its Session.act and binary reader), which
``bench.py`` compares this code's verify with in one process.  Kept here, out of the installed
package: it is a yardstick, not part of carpet.  It runs this engine's plain rules
(``new_state``, ``State.apply``), so the ratio is that of the reading path alone."""

import msgspec

from carpet.core import HINT, RESTART, UNDO, IllegalAction, parse_deal
from carpet.core.game import FIRST_ACTION, PLAYING, WON


class OldSession:
    """Session.act and _undo as they were: a snapshot before every action, events as tuples."""

    __slots__ = ("variant", "deal", "state", "_initial", "events", "moves", "bonus", "clock_ms",
                 "earlier_attempts_ms", "_history")

    def __init__(self, variant, deal) -> None:
        self.variant, self.deal = variant, deal
        self.state = variant.new_state(deal)
        self._initial = self.state.snapshot()
        self.events: list[tuple[int, int]] = []
        self.moves = self.bonus = self.clock_ms = self.earlier_attempts_ms = 0
        self._history: list = []

    def act(self, action: int, clock_ms: int) -> None:
        if clock_ms < self.clock_ms:
            raise IllegalAction("clock reading before the previous one")
        state = self.state
        if action >= FIRST_ACTION:
            if state.status == WON:
                raise IllegalAction("the game is won")
            snap = state.snapshot()
            state.apply(action)
            self._history.append((snap, self.moves))
            self.moves += 1
            if state.status == WON:
                self.bonus = self.variant.win_bonus(self.moves)
        elif action == HINT:
            if state.status == PLAYING and self.variant.hint_counts:
                self.moves += 1
        elif action == UNDO:
            if state.status == WON or not self._history:
                raise IllegalAction("cannot undo")
            snap, moves_before = self._history.pop()
            used = state.redeals_used
            state.restore(snap)
            if not self.variant.undo_refunds_redeal and state.redeals_used != used:
                state.redeals_used = used
                state.update_status()
            self.moves = self.moves + 1 if self.variant.undo_counts else moves_before
        elif action == RESTART:
            state.restore(self._initial)
            self._history.clear()
            self.moves = self.bonus = 0
            self.events.append((action, clock_ms))
            self.earlier_attempts_ms += clock_ms
            self.clock_ms = 0
            return
        self.events.append((action, clock_ms))
        self.clock_ms = clock_ms


class _OldH(msgspec.Struct, array_like=True):
    format: str
    version: int
    game: str
    rules: int
    numbering: str
    deal: str
    layout: str
    created: str
    tool: str

class _OldS(msgspec.Struct, array_like=True):
    status: str
    score: int
    moves: int
    redeals_left: int | None
    elapsed_ms: int
    position: str
    digest: str

class _OldB(msgspec.Struct, array_like=True):
    header: _OldH
    events: list[int]
    summary: _OldS

class _OldPH(msgspec.Struct, array_like=True):
    format: str
    version: int
    game: str = ""

class _OldP(msgspec.Struct, array_like=True):
    header: _OldPH


def old_reader():
    """decode + verify of formats/log.py at 778fb62 (binary form), with its own msgspec types."""
    import hashlib

    from carpet.core import get_game

    peek, full, enc = msgspec.msgpack.Decoder(_OldP), msgspec.msgpack.Decoder(_OldB), msgspec.msgpack.Encoder()

    def verify(data: bytes):
        p = peek.decode(data)
        variant = get_game(p.header.game)
        raw = full.decode(data)
        header, summary = raw.header, raw.summary
        count = variant.action_count
        events, previous = [], 0
        for value in raw.events:
            delta, action = divmod(value, count)
            clock = previous + delta
            events.append((action, clock))
            previous = 0 if action == RESTART else clock
        valid = variant.valid_index
        for i, (action, clock) in enumerate(events, 1):
            if action >= FIRST_ACTION and not valid(action):
                raise ValueError(f"event {i}: no such action")
            if clock > 2**40:
                raise ValueError(f"event {i}: clock")
        session = OldSession(variant, parse_deal(header.deal))
        if session.state.digest() != header.layout:
            raise ValueError("layout")
        act = session.act
        for action, clock in events:
            act(action, clock)
        state = session.state
        found = (state.status, state.score + session.bonus, session.moves, state.redeals_left, session.clock_ms,
                 state.digest())
        if found != (summary.status, summary.score, summary.moves, summary.redeals_left, summary.elapsed_ms,
                     summary.position):
            raise ValueError("summary")
        packed, previous = [], 0
        for action, clock in session.events:
            packed.append((clock - previous) * count + action)
            previous = 0 if action == RESTART else clock
        h = hashlib.blake2b(digest_size=16)
        h.update(enc.encode(msgspec.structs.astuple(header)))
        h.update(enc.encode(packed))
        if h.hexdigest() != summary.digest:
            raise ValueError("digest")
        return session
    return verify
