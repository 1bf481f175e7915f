"""Positions drawn with rich.  Each family brings its own board renderer; the frame is shared."""

from __future__ import annotations

from importlib import import_module

from rich.console import Group
from rich.text import Text

from carpet.core import Session
from carpet.core.families import FAMILIES

def _family_module(family: str):
    """The module of this package that draws the family's board (core/families.py, ``Family.renderer``)."""
    return import_module(f".{FAMILIES[family].renderer}", __package__)


def status_line(session: Session, clock_ms: int | None = None) -> Text:
    left = session.redeals_left
    redeals = "∞" if left is None else str(left)
    status_style = {"won": "bold green", "lost": "bold red"}.get(session.status, "bold")
    seconds = (session.clock_ms if clock_ms is None else clock_ms) / 1000
    return Text.assemble(
        (session.variant.id, "bold cyan"), f"  deal {session.deal.both_forms}  ", (session.status, status_style),
        f"\nscore {session.score}  moves {session.moves}  redeals left {redeals}  clock {seconds:.1f}s",
    )


def position(session: Session, caption: str | None = None, *, clock_ms: int | None = None,
             legend: bool = True) -> Group:
    """The position as ``show`` draws it; ``clock_ms`` a live clock in place of the last reading."""
    module = _family_module(session.variant.family)
    parts = [status_line(session, clock_ms), module.render(session.state)]
    if caption:
        parts.append(Text(caption, style="dim"))
    key = legend_of(session) if legend else None
    if key is not None:
        parts.append(key)
    return Group(*parts)


def legend_of(session: Session) -> Text | None:
    """What the marks of the family's drawing mean (one dim line), if it has any."""
    legend = getattr(_family_module(session.variant.family), "legend", None)
    return None if legend is None else legend()
