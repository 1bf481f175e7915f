"""The Carpet board: four foundations, the 4×5 carpet with its gaps, the stock and the waste."""

from __future__ import annotations

from rich.console import Group
from rich.table import Table
from rich.text import Text

from carpet.core.cards import SUIT_SYMBOLS
from carpet.core.carpet import (CELL_TO_FOUNDATION, COLS, EMPTY, ROW_NAMES, STOCK_FILL, WASTE_FILL,
                                WASTE_TO_FOUNDATION, CarpetState)

from .cards_style import board_table, card_text

FITS = "underline"  # a card that goes to its foundation now, marked by MARK too (so it shows without colour)
MARK = "+"
LIVE_GAP, DEAD_GAP = ("[]", "bold yellow"), ("..", "dim")

PHASES = {
    1: "phase 1: only a carpet card to its foundation; holes refill from the stock",
    2: "phase 2: turn the stock onto the pile; fill holes from the pile's top",
}


def render(state: CarpetState) -> Group:
    legal = set(state.legal_actions())
    parts = [_foundations(state), _carpet(state, legal), _piles(state, legal)]
    if state.variant.foster:
        parts.append(Text(PHASES[state.phase], style="dim"))
    return Group(*parts)


def _foundations(state: CarpetState) -> Text:
    line = Text.assemble(("foundations", "dim"))
    for suit, symbol in enumerate(SUIT_SYMBOLS):
        line.append("  ")
        top = state.foundation_top(suit)
        if top is None:  # carpet-foster: its ace is not out yet
            line.append("·" + symbol, style="dim")
        else:
            line.append_text(card_text(top, style="reverse green" if state.found[suit] == 13 else ""))
    if 0 in state.found:
        line.append("   (· no ace yet)", style="dim")
    return line


def _carpet(state: CarpetState, legal: set[int]) -> Table:
    table = board_table(range(1, COLS + 1))
    for row, name in enumerate(ROW_NAMES):
        cells = [Text(name, style="dim")]
        for cell in range(row * COLS, (row + 1) * COLS):
            card = state.cells[cell]
            if card == EMPTY:
                # bright when a fill is legal now, dim when nothing can fill it now
                live = WASTE_FILL + cell in legal or STOCK_FILL + cell in legal
                cells.append(Text(*(LIVE_GAP if live else DEAD_GAP)).append(" "))  # three wide, as a card
            else:
                cells.append(_marked(card, CELL_TO_FOUNDATION + cell in legal))
        table.add_row(*cells)
    return table


def _piles(state: CarpetState, legal: set[int]) -> Text:
    line = Text.assemble(("stock ", "dim"), str(state.stock_left), ("   waste ", "dim"))
    if state.waste:
        line.append_text(_marked(state.waste[-1], WASTE_TO_FOUNDATION in legal, ""))
        line.append(f" ({len(state.waste)} card{'s' if len(state.waste) > 1 else ''})", style="dim")
    else:
        line.append("empty", style="dim")
    return line


def _marked(card: int, fits: bool, unmarked: str = " ") -> Text:
    """A card followed by MARK when it goes to its foundation now (``7♥+``), else by ``unmarked``."""
    return card_text(card, style=FITS if fits else "") + Text(MARK if fits else unmarked, style="bold green")


def legend() -> Text:
    """Short enough for a 60-column screen."""
    return Text.assemble((MARK, "bold green"), " to its foundation now  ", LIVE_GAP, " gap a fill takes  ",
                         DEAD_GAP, " dead gap", style="dim")
