"""The wall clock, read here and only here (the engine is given readings)."""

from __future__ import annotations

from datetime import datetime, timezone

from carpet.core import Session
from carpet.core.game import PLAYING
from carpet.core.session import CLOCK_LIMIT


def now() -> datetime:
    return datetime.now(timezone.utc)


def now_iso() -> str:
    """The creation time of a new log; a wall clock before 1970 counts as 1970 (the log's origin)."""
    moment = max(now(), datetime(1970, 1, 1, tzinfo=timezone.utc))
    return moment.isoformat(timespec="milliseconds").replace("+00:00", "Z")


def created_ms(text: str) -> int:
    """Milliseconds since the epoch of a header's creation time."""
    try:
        moment = datetime.fromisoformat(text.replace("Z", "+00:00"))
    except ValueError:
        return wall_ms()  # an unreadable time cannot move the clock backwards: treat as now
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=timezone.utc)
    return int(moment.timestamp() * 1000)


def wall_ms() -> int:
    return int(now().timestamp() * 1000)


#: a step of the wall clock longer than this between two actions is taken as a jump
JUMP_MS = 30 * 24 * 3600 * 1000
#: the most time counted between two actions (or between ``new`` and the first): a player gone
#: longer was away, from the shell as on the screen; the rest goes into ``skipped_ms``
IDLE_MS = 60 * 1000


class Clock:
    """The session clock of one log, read from the wall clock (docs/format.md, "The clock").

    The attempt began at the log's creation, plus the time of earlier attempts (the
    readings of the restarts), plus the wall time left out (``skipped_ms``).  Each
    reading is the time since then, never less than the last one.  The rule for
    readings that cannot be right: a step backwards, or forwards by more than
    ``JUMP_MS`` (a clock set years wrong, then corrected), counts as zero elapsed time,
    is added to ``jumps`` and its size to ``skipped_ms``; both go into the log's summary.
    While a game stands finished (won or lost) its clock does not run: the time until
    the next recorded action (a restart, or an undo out of a lost game) is skipped too.
    Between two actions at most ``IDLE_MS`` count: the clock measures play, not the calendar
    of a game played a command at a time; the time beyond is skipped (no jump).
    """

    __slots__ = ("created_ms", "jumps", "skipped_ms")

    def __init__(self, created_ms: int, jumps: int = 0, skipped_ms: int = 0) -> None:
        self.created_ms, self.jumps, self.skipped_ms = created_ms, jumps, skipped_ms

    @classmethod
    def of(cls, log) -> "Clock":
        return cls(created_ms(log.header.created), log.summary.clock_jumps, log.summary.clock_skipped_ms)

    def read(self, session: Session, now_ms: int | None = None) -> int:
        """The reading for the next action of ``session``."""
        began = self.created_ms + session.earlier_attempts_ms + self.skipped_ms
        last = session.clock_ms
        step = (wall_ms() if now_ms is None else now_ms) - began - last
        if session.status != PLAYING:
            self.skipped_ms += step
            return last
        counted = min(step, IDLE_MS)
        if step < 0 or step > JUMP_MS or last + counted > CLOCK_LIMIT:  # no attempt's clock goes past the log's limit
            self.jumps += 1
            self.skipped_ms += step
            return last
        self.skipped_ms += step - counted
        return last + counted


def fresh_deal_number() -> str:
    """A new deal for ``carpet new`` without a number: 12 digits, in PySolFC's Mersenne Twister range."""
    import secrets  # only where a fresh deal number is drawn: it costs about 3 ms to import

    return str(10**11 + secrets.randbelow(9 * 10**11))
