"""The position as the CLI prints it (docs/format.md, "Documents the CLI prints"): deal, show, play."""

from __future__ import annotations

from carpet.core import Session

from .documents import AttemptResult, Position


def position_document(session: Session, **extra) -> Position:
    from carpet.core.position import write  # (loaded by the first document, not by every command)

    return Position(game=session.variant.id, deal=session.deal.text, status=session.status, score=session.score,
                    moves=session.moves, redeals_left=session.redeals_left, elapsed_ms=session.clock_ms,
                    layout=session.state.layout(), events=len(session.events),
                    position=write(session.state), **extra)


def attempt_results(session: Session) -> list[AttemptResult]:
    """What each earlier attempt of the session came to (core/session.py, ``earlier_attempts``)."""
    return [AttemptResult(*attempt) for attempt in session.earlier_attempts()]
