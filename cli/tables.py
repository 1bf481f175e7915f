"""The tables of ``carpet survey`` and ``carpet stats``, said one way: outcome counts with their
shares, the win rate with its 95 % interval, and how counted moves and score spread over wins."""

from __future__ import annotations


def counts_table(rows: list[tuple[str, int]], total: int, unit: str):
    """Each outcome's count and share of ``total``, and the total (``unit``: deals, games)."""
    from rich.table import Table

    t = Table(show_header=True, box=None, pad_edge=False)
    t.add_column("")
    t.add_column(unit, justify="right")
    t.add_column("share", justify="right")
    for name, count in rows:
        t.add_row(name, f"{count:,}", f"{100 * count / total:.2f} %" if total else "")
    t.add_row("all", f"{total:,}", "")
    return t


def rate_lines(doc, undecided: str | None) -> list[str]:
    """The rate and its interval; ``undecided`` names what the interval counts both ways (None: nothing)."""
    low, high = doc.interval
    lines = [f"win rate {100 * doc.rate:.2f} %, 95 % interval {100 * low:.2f}–{100 * high:.2f} % (Wilson)"]
    if undecided:
        lines.append(f"  ({undecided} counted lost for the low bound, won for the high)")
    return lines


def spread_lines(doc, over: str) -> list[str]:
    """Counted moves and score over the won ones (``over``: won deals, won games), where any was won."""
    return [f"{what} over {over}: mean {s.mean:.1f}, sd {s.sd:.1f}, median {s.median:g}, {s.min}–{s.max}"
            for what, s in (("counted moves", doc.moves), ("score", doc.score)) if s is not None]
