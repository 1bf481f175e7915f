"""The Crazy Quilt board: eight foundations, the 8×8 quilt, and the stock and waste (or the reserves).

Every quilt card shows its orientation and whether it is available in plain characters, so
the drawing reads the same through ``| cat``: a vertical card is drawn ``|7♥|``, a
horizontal one ``-7♥-``; an available card (a short side free) carries a ``*``, or a ``+``
when a legal move takes it now (so do the waste top and the reserve tops).  Colour only
adds emphasis: available cards' edges are bright, a card with a move now is underlined.
"""

from __future__ import annotations

from rich.console import Group
from rich.table import Table
from rich.text import Text

from carpet.core.quilt import (COLS, DECK_CARDS, DOWN, EMPTY, FIRST_MOVE, FIRST_RESERVE, REDEAL, ROW_NAMES,
                               TURN, UP, WASTE, QuiltState, orientation, split)

from .cards_style import board_table, card_text

FITS = "underline"  # a card with a legal move now
DONE = "reverse green"  # a complete foundation
#: the edges drawn round a quilt card: vertical cards stand, horizontal cards lie
EDGES = {"vertical": "||", "horizontal": "--"}
AVAILABLE, MOVES, AVAILABLE_STYLE = "*", "+", "bold yellow"
HOLE = "··"
#: a reserve longer than this shows its top cards only
RESERVE_CARDS = 20


def render(state: QuiltState) -> Group:
    legal = set(state.legal_actions())
    # the source places (cells, the waste, reserves) of the legal moves now
    movable = {split(a)[0] for a in legal if FIRST_MOVE <= a < TURN}
    parts = [_foundations(state), _quilt(state, movable)]
    if state.variant.has_reserves:
        parts.append(_reserves(state, movable))
    else:
        parts.append(_stock_and_waste(state, movable, REDEAL in legal))
    return Group(*parts)


def _foundations(state: QuiltState) -> Text:
    line = Text()
    for label, first in (("up  ", UP), ("down", DOWN)):
        if line:
            line.append("   ")
        line.append(label, style="dim")
        for suit in range(4):
            pile = state.found[first + suit]
            line.append(" ")
            line.append_text(card_text(pile[-1], style=DONE if len(pile) == 13 else ""))
    line.append(f"   ({state.on_found} of {DECK_CARDS})", style="dim")
    return line


def _quilt(state: QuiltState, movable: set[int]) -> Table:
    table = board_table(range(1, COLS + 1), gap=2)
    available = set(state.available())
    for row, name in enumerate(ROW_NAMES):
        cells = [Text(name, style="dim")]
        for cell in range(row * COLS, (row + 1) * COLS):
            cells.append(quilt_cell(state.cells[cell], orientation(cell), cell in available, cell in movable))
        table.add_row(*cells)
    return table


def quilt_cell(card: int, lies: str, available: bool, movable: bool = False) -> Text:
    """One quilt cell, five characters: ``|7♥|*`` (vertical, available), ``-7♥-+`` (horizontal,
    a move takes it now), ``-7♥- `` (not available), `` ··  `` (a hole)."""
    if card == EMPTY:
        return Text(f" {HOLE}  ", style="dim")
    left, right = EDGES[lies]
    edge_style = AVAILABLE_STYLE if available else "dim"
    mark = (MOVES if movable else AVAILABLE) if available else " "
    return Text.assemble((left, edge_style), card_text(card, style=FITS if movable else ""),
                         (right, edge_style), (mark, AVAILABLE_STYLE))


def _stock_and_waste(state: QuiltState, movable: set[int], can_redeal: bool) -> Text:
    line = Text.assemble(("stock ", "dim"), str(len(state.stock)), ("   waste ", "dim"))
    if state.waste:
        line.append_text(_top(state.waste[-1], WASTE in movable))
        size = len(state.waste)
        line.append(f" ({size} card{'s' if size > 1 else ''})", style="dim")
    else:
        line.append("empty", style="dim")
    line.append("   redeals left ", style="dim")
    line.append(str(state.redeals_left))
    if can_redeal:
        line.append("   (redeal: waste to stock)", style="dim")
    return line


def _reserves(state: QuiltState, movable: set[int]) -> "_Reserves":
    """Each reserve bottom first; its top card, the one that moves, last and bracketed."""
    lines = []
    for k, pile in enumerate(state.reserves):
        line = Text.assemble((f"r{k + 1} {len(pile):>2}  ", "dim"))
        if not pile:
            line.append("empty", style="dim")
        else:
            shown = pile[-RESERVE_CARDS:]
            if len(pile) > len(shown):
                line.append(f"… {len(pile) - len(shown)} more ", style="dim")
            for card in shown[:-1]:
                line.append_text(card_text(card))
                line.append(" ")
            line.append_text(_top(shown[-1], FIRST_RESERVE + k in movable, "[]"))
        lines.append(line)
    return _Reserves(lines)


class _Reserves:
    """The reserves' lines in two columns (r1-r4 beside r5-r8) where the width holds them, else one a
    line: a 60 x 20 screen shows all eight beside the quilt."""

    def __init__(self, lines: list[Text]) -> None:
        self.lines = lines

    def __rich_console__(self, console, options):
        half = (len(self.lines) + 1) // 2
        widest = max(line.cell_len for line in self.lines)
        if 2 * widest + 3 > options.max_width:
            yield from self.lines
            return
        grid = Table.grid(padding=(0, 3))
        grid.add_column(min_width=widest, no_wrap=True)
        grid.add_column(no_wrap=True)
        for left, right in zip(self.lines[:half], self.lines[half:] + [Text("")]):
            grid.add_row(left, right)
        yield grid


def _top(card: int, movable: bool, edges: str = "") -> Text:
    """A pile's top card; ``+`` after it when a legal move takes it now."""
    left, right = edges or ("", "")
    return Text.assemble((left, AVAILABLE_STYLE), card_text(card, style=FITS if movable else ""),
                         (right, AVAILABLE_STYLE), (MOVES if movable else "", AVAILABLE_STYLE))


def legend() -> Text:
    return Text.assemble(
        ("|7♥|", "dim"), " vert.  ", ("-7♥-", "dim"), " horiz.  ", (AVAILABLE, AVAILABLE_STYLE),
        " free  ", (MOVES, AVAILABLE_STYLE), " has a move  ", (HOLE, "dim"), " hole",
        style="dim")
