"""How a card looks on the terminal: rank and suit symbol, red or black."""

from __future__ import annotations

from rich.table import Table
from rich.text import Text

from carpet.core.cards import SUIT_SYMBOLS, RANKS, rank, suit

RED, BLACK = "bold red", "bold"


def card_label(card: int) -> str:
    return RANKS[rank(card)] + SUIT_SYMBOLS[suit(card)]


def card_text(card: int | None, *, style: str = "", empty: str = "··") -> Text:
    """One card as a two-character cell; ``None`` draws an empty place."""
    if card is None or card < 0:
        return Text(empty, style="dim")
    colour = RED if suit(card) in (2, 3) else BLACK
    return Text(card_label(card), style=f"{colour} {style}".strip())


def board_table(column_labels, gap: int = 1) -> Table:
    """A borderless table with a dim label column and one column per board column, ``gap`` spaces
    between columns (the grid's and the carpet's cells are three wide, a card and its mark or a
    space: with one space 14 columns fit a 60-column screen)."""
    table = Table(show_header=True, header_style="dim", box=None, pad_edge=False, padding=(0, gap, 0, 0))
    table.add_column("", style="dim")
    for label in column_labels:
        table.add_column(str(label), justify="left")
    return table
