"""The wall clock, read here and only here (the engine is given readings)."""

from __future__ import annotations

import secrets
from datetime import datetime, timezone

from carpet.core import Session


def now() -> datetime:
    return datetime.now(timezone.utc)


def now_iso() -> str:
    return now().isoformat(timespec="milliseconds").replace("+00:00", "Z")


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


def attempt_ms(session: Session, created: int) -> int:
    """The session clock now: wall time since the attempt began, never less than the last reading.

    The attempt began at the log's creation plus the time spent in earlier attempts
    (the clock readings of the restarts).
    """
    began = created + session.earlier_attempts_ms
    return max(session.clock_ms, wall_ms() - began)


def fresh_deal_number() -> str:
    """A new deal for ``carpet new`` without a number: 12 digits, in PySolFC's Mersenne Twister range."""
    return str(10**11 + secrets.randbelow(9 * 10**11))
