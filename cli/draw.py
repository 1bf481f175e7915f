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


def status_line(session: Session) -> Text:
    left = session.redeals_left
    redeals = "∞" if left is None else str(left)
    status_style = {"won": "bold green", "lost": "bold red"}.get(session.status, "bold")
    seconds = session.clock_ms / 1000
    return Text.assemble(
        (session.variant.id, "bold cyan"), f"  deal {session.deal.both_forms}  ", (session.status, status_style),
        f"\nscore {session.score}  moves {session.moves}  redeals left {redeals}  clock {seconds:.1f}s",
    )


def position(session: Session, caption: str | None = None) -> Group:
    module = _family_module(session.variant.family)
    parts = [status_line(session), module.render(session.state)]
    if caption:
        parts.append(Text(caption, style="dim"))
    legend = getattr(module, "legend", None)
    if legend is not None:
        parts.append(legend())
    return Group(*parts)
