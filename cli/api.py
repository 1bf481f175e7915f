"""The Python API that ``import carpet`` offers (docs/api.md): verify a recorded game, play one in code,
solve a position.  ``carpet/__init__.py`` loads this module on the first use of one of its names.

It is a front end beside the command, as thin as the commands are: the check is formats/verdict.py's
(the one ``carpet verify`` and ``carpet serve`` run), the game is core's Session, the bytes are the log's
forms (formats/log.py), the clock is cli/clock.py's.  Typer and Rich are not loaded here.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Union

from carpet.core import HINT, TOOL, CarpetError, Session, get_game, parse_deal
from carpet.formats.verdict import Verdict

Source = Union[bytes, bytearray, memoryview, str, "os.PathLike[str]"]

#: a str that begins so (after whitespace and a byte order mark) is a game's text, JSON or the text
#: form; any other str is a path
_TEXT_START = re.compile(r"\A\ufeff?\s*[\[{]")


def _bytes_of(source: Source) -> bytes:
    """The bytes of a recorded game given as bytes, as its text (JSON or the text form) or by its path;
    LogError (a CarpetError) for a file that cannot be read."""
    if isinstance(source, (bytes, bytearray, memoryview)):
        return bytes(source)
    if isinstance(source, str) and _TEXT_START.match(source):
        return source.encode("utf-8", "surrogateescape")
    if not isinstance(source, (str, os.PathLike)):
        raise TypeError(f"a recorded game as bytes, str or a path, not {type(source).__name__}")
    from carpet.formats.files import read_bytes

    return read_bytes(Path(source))


def verify(data: Source) -> Verdict:
    """The verdict on one recorded game in any form (bytes, its text, or a path): never raises for bad
    data; ``ok``, ``code`` (0, 1 or 2, as ``carpet verify`` exits) and ``error`` say how it went."""
    from carpet.formats.verdict import judge, refused

    try:
        raw = _bytes_of(data)
    except CarpetError as exc:
        return refused(exc)
    return judge(raw)[0]


class Game:
    """A game to play in code: made by :func:`new` or :func:`open`.  Each action is recorded with the
    wall clock's reading, as ``carpet play`` records it; :meth:`to_bytes` gives the log."""

    def __init__(self, session: Session, header, readings) -> None:
        self._session, self._header, self._readings = session, header, readings

    @property
    def game(self) -> str:
        return self._session.variant.id

    @property
    def deal(self) -> str:
        return self._session.deal.text

    @property
    def status(self) -> str:
        """"playing", "won" or "lost"."""
        return self._session.status

    @property
    def score(self) -> int:
        return self._session.score

    @property
    def moves(self) -> int:
        """Counted moves of the attempt."""
        return self._session.moves

    def play(self, text: str) -> str | None:
        """Play actions (whitespace separated) in order: moves in the game's notation, or ``hint``,
        ``undo``, ``redeal``, ``restart``.  An illegal one raises CarpetError, those before it played.
        Returns what the last ``hint`` names (None for any other action, or nothing to name)."""
        named = None
        for word in text.split():
            session = self._session
            action = session.parse(word)
            session.act(action, self._readings.read(session))
            named = self._hint() if action == HINT else None
        return named

    def _hint(self) -> str | None:
        from carpet.core.seen import seen_hint

        action = seen_hint(self._session)
        return None if action is None else self._session.variant.text(action)

    def legal_moves(self) -> list[str]:
        """The moves legal now, in the game's notation (empty once the game is won)."""
        session = self._session
        return [session.variant.text(a) for a in session.legal_actions()]

    def position(self) -> str:
        """The position as one line of text (docs/format.md, "Positions as text")."""
        from carpet.core.position import write

        return write(self._session.state)

    def to_bytes(self, form: str = "binary") -> bytes:
        """The game as a recorded game: ``binary``, ``json`` or ``text`` (docs/format.md)."""
        from carpet.formats import record, to_bytes, upgraded

        if form not in ("binary", "json", "text"):
            raise CarpetError(f"form {form!r}: one of binary, json, text")
        readings = self._readings
        log = record(self._session, upgraded(self._header), clock_jumps=readings.jumps,
                     clock_skipped_ms=readings.skipped_ms)
        return to_bytes(log, form=form)

    def __repr__(self) -> str:
        return f"<carpet.Game {self.game} {self.deal}: {self.status}, score {self.score}, {self.moves} moves>"


def new(game: str, deal: int | str) -> Game:
    """A new game of ``game`` (an id, as ``carpet games`` lists them), deal ``deal`` (a number, or ``ms1``)."""
    from carpet.formats import new_header

    from .clock import Clock, created_ms, now_iso

    session = Session(get_game(game), parse_deal(str(deal)))
    created = now_iso()
    header = new_header(session, created=created, tool=TOOL)
    return Game(session, header, Clock(created_ms(created)))


def open(source: Source) -> Game:  # noqa: A001  (carpet.open, as the API names it)
    """The recorded game (bytes, its text, or a path), verified, to play on; CarpetError for one that
    does not read or verify."""
    from carpet.formats import check

    from .clock import Clock

    log, session = check(_bytes_of(source), keep_history=True)
    return Game(session, log.header, Clock.of(log))


@dataclass(frozen=True)
class Solution:
    """The solver's answer: ``result`` "won", "unwinnable" or "unknown"; ``line`` the winning actions
    in the game's notation (empty unless won); ``nodes`` the actions tried."""

    result: str
    line: list[str]
    nodes: int


def solve(target: Game | str, *, nodes: int | None = None) -> Solution:
    """Search a game's position (a :class:`Game`) or a position's text for a win, within ``nodes``
    actions tried (the command's default budget when None).  The same input and budget give the same
    answer on every machine."""
    from carpet.core.solver import DEFAULT_NODES, solve as search

    if isinstance(target, Game):
        session = target._session
    elif isinstance(target, str):
        from carpet.core.position import Start, read

        position = read(target)
        position.state()  # (refuses a stock with unseen cards, ??: the solver sees every card)
        session = Session(position.variant, Start(position.text))
    else:
        raise TypeError(f"a carpet.Game or a position's text, not {type(target).__name__}")
    found = search(session, nodes=DEFAULT_NODES if nodes is None else nodes)
    return Solution(result=found.result, line=[session.variant.text(a) for a in found.line], nodes=found.nodes)
