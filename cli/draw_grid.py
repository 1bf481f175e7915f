"""A grid board of any size (Коврик 4 × 14, Montana 4 × 13, ...): prefixes marked, gaps visible."""

from __future__ import annotations

from rich.table import Table
from rich.text import Text

from carpet.core.grid import EMPTY, ROW_NAMES, GridState

from .cards_style import board_table, card_text


def render(state: GridState) -> Table:
    board = state.variant.board
    cols = board.cols
    table = board_table(range(cols))
    for row in range(board.rows):
        cells = [Text(ROW_NAMES[row], style="dim")]
        for col in range(cols):
            cell = row * cols + col
            card = state.cells[cell]
            if card == EMPTY:
                # a gap is the place to play: bright when something fits it, dim when dead
                live = bool(state._candidates(cell))
                cells.append(Text("[] " if live else ".. ", style="bold yellow" if live else "dim"))
            elif col < state.prefix[row]:
                # marked by a character too, so the prefix shows without colour (| cat, logs)
                cells.append(card_text(card, style="reverse green") + Text("*", style="green"))
            else:
                cells.append(card_text(card) + Text(" "))
        table.add_row(*cells)
    return table


def legend() -> Text:
    """Short enough for a 60-column screen; the run's mark alone, so that no sample reads as a card of the deal."""
    return Text.assemble(("*", "green"), " in its row's run  ", ("[]", "bold yellow"), " gap a card fits  ",
                         ("..", "dim"), " dead gap", style="dim")
