"""The Коврик board: 4 rows × 14 columns, locked prefixes marked, gaps visible."""

from __future__ import annotations

from rich.table import Table
from rich.text import Text

from carpet.core.grid import COLS, EMPTY, ROW_NAMES, GridState

from .cards_style import board_table, card_text


def render(state: GridState) -> Table:
    table = board_table(range(COLS))
    for row, name in enumerate(ROW_NAMES):
        cells = [Text(name, style="dim")]
        for col in range(COLS):
            card = state.cells[row * COLS + col]
            if card == EMPTY:
                # a gap is the place to play: bright when something fits it, dim when dead
                live = bool(state._candidates(row * COLS + col))
                cells.append(Text("[] " if live else ".. ", style="bold yellow" if live else "dim"))
            elif col < state.locked[row]:
                # marked by a character too, so the lock shows without colour (| cat, logs)
                cells.append(card_text(card, style="reverse green") + Text("*", style="green"))
            else:
                cells.append(card_text(card) + Text(" "))
        table.add_row(*cells)
    return table


def legend() -> Text:
    return Text.assemble(("A♣", "reverse green"), ("*", "green"), " locked  ", ("[]", "bold yellow"),
                         " gap a card fits  ", ("..", "dim"), " dead gap", style="dim")
