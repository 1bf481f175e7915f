"""The position as a JSON object (what ``deal``/``show``/``play --json`` print)."""

from __future__ import annotations

from carpet.core import Session


def position_document(session: Session, **extra) -> dict:
    doc = {
        "game": session.variant.id,
        "deal": session.deal.text,
        "status": session.status,
        "score": session.score,
        "moves": session.moves,
        "redeals_left": session.redeals_left,
        "elapsed_ms": session.clock_ms,
        "layout": session.state.layout(),
        "events": len(session.events),
    }
    doc.update(extra)
    return doc
