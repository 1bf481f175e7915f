"""The verdict on one recorded game, in any form: what ``carpet verify``, ``carpet.verify`` and the
server (``carpet serve``) all answer, from the one check every reader runs (formats/log.py, ``check``).

A game's *digest* is its identity, the same for every copy of it: the binary, JSON and text forms and
both format versions of one game share it.  It is BLAKE2b (16 bytes, 32 hex digits) over what makes
the game what it is: its game id, numbering, deal and creation time, every event (action, clock ms)
and the clock jumps it records.  The log's own ``summary.digest`` is not it: that seals one version's
bytes (version 1 and 2 of one game differ there) and is 8 bytes long in version 2.

The documents here (``Verdict``, ``Kept``, ``BestGame``) are the server's answers too; their schemas are
in docs/schemas (formats/schemas.py).
"""

from __future__ import annotations

import sys
from array import array
from carpet.core.game import blake2b  # (the C module, no OpenSSL: core/game.py)

import msgspec

from carpet.core import CarpetError, IllegalAction

from .log import check, encode, is_json, is_text
from .log_types import Log, LogError

#: ``code``: as the exit of ``carpet verify`` (cli/exits.py)
OK, FAILED, UNUSABLE = 0, 1, 2


class Verdict(msgspec.Struct, frozen=True, omit_defaults=False):
    """``carpet.verify(data)`` and ``POST /verify``: one game's verdict.  Every field but ``ok``,
    ``code`` and ``error`` is null when the game fails."""

    #: true when every event is legal and the summary is what the replay gives
    ok: bool
    #: 0 verified, 1 failed verification (an illegal event, a summary or digest that does not match),
    #: 2 not a readable game at all: the exit code of `carpet verify`
    code: int
    #: the one line saying why it failed (null when ok)
    error: str | None
    game: str | None = None
    #: the deal in its canonical form ("ms1", "123456"), or the starting position's text
    deal: str | None = None
    status: str | None = None
    score: int | None = None
    #: counted moves of the attempt
    moves: int | None = None
    elapsed_ms: int | None = None
    #: the game's identity, 32 hex digits: the same for every form and format version of one game
    digest: str | None = None


class Kept(Verdict, frozen=True):
    """``POST /games``: the verdict, and whether this request stored the game (false: already kept)."""

    stored: bool = False


class BestGame(msgspec.Struct, frozen=True):
    """One won game of a deal, in ``GET /deals/GAME/DEAL/best``."""

    player: str
    score: int
    moves: int
    elapsed_ms: int
    digest: str


class Judged(msgspec.Struct, frozen=True):
    """A verdict and what the server keeps of a good game: the player's game created when, and its bytes
    in the binary form (re-verifiable later)."""

    verdict: Verdict
    created: str | None = None
    binary: bytes | None = None


def code_of(exc: CarpetError) -> int:
    """1 for an illegal action or a log that fails verification, 2 for anything unusable."""
    failed = isinstance(exc, IllegalAction) or (isinstance(exc, LogError) and not exc.unreadable)
    return FAILED if failed else UNUSABLE


def digest_of(log: Log) -> str:
    """The game's identity (see the module's docstring): the same for every form and version."""
    header, summary, events = log.header, log.summary, log.events
    h = blake2b(digest_size=16, person=b"carpet-game")
    h.update(msgspec.msgpack.encode((header.game, header.numbering, header.deal, header.created, len(events),
                                     summary.clock_jumps, summary.clock_skipped_ms)))
    for typecode, values in (("I", events.actions), ("q", events.clocks)):
        plane = values if values.typecode == typecode else array(typecode, values)
        if sys.byteorder != "little":
            plane = array(typecode, plane)
            plane.byteswap()
        h.update(memoryview(plane).cast("B"))
    return h.hexdigest()


def refused(exc: CarpetError) -> Verdict:
    """The verdict on a game that does not read or verify: its code and one line."""
    line = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
    return Verdict(ok=False, code=code_of(exc), error=line)


def judge(data: bytes, *, keep: bool = False) -> tuple[Verdict, Log | None, object]:
    """(verdict, log, session) of the game in ``data``, any form: the one check (log and session None
    when it fails).  Never raises for bad data."""
    try:
        log, session = check(data)
    except CarpetError as exc:
        return refused(exc), None, None
    except RecursionError:  # a reader that nests without bound: unreadable, not a crash
        return Verdict(ok=False, code=UNUSABLE, error="not a carpet log (nested too deeply)"), None, None
    verdict = Verdict(ok=True, code=OK, error=None, game=session.variant.id, deal=session.deal.text,
                      status=session.status, score=session.score, moves=session.moves,
                      elapsed_ms=session.clock_ms, digest=digest_of(log))
    return verdict, log, session


def judged(data: bytes) -> Judged:
    """The verdict and, for a good game, what the server keeps of it (run in its worker processes)."""
    verdict, log, _ = judge(data)
    if log is None:
        return Judged(verdict)
    textual = is_json(data) or is_text(data)
    return Judged(verdict, created=log.header.created, binary=encode(log) if textual else data)
