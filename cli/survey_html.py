"""A survey as one self-contained HTML page: the win rate with its interval, and how counted
moves and score spread over the won deals, drawn as inline SVG with the standard library.

No script, no style sheet or font from elsewhere: the page opens the same with no network.
"""

from __future__ import annotations

import html
import math
import xml.etree.ElementTree as ET
from collections import Counter

WIDTH = 640
INK, PALE, ACCENT, BAND = "#222", "#888", "#2b6cb0", "#bcd3ee"


def page(doc, tally) -> str:
    """The page for a survey document and the tally it came from (for the distributions)."""
    from carpet.formats.survey import describe

    title = f"Survey: {describe(doc.game, doc.player, doc.budget)}"
    span = f"deal {doc.first}" if doc.first == doc.last else f"deals {doc.first:,}–{doc.last:,}"
    low, high = doc.interval
    counts = [("won", doc.won), ("lost", doc.lost), ("unwinnable", doc.unwinnable), ("unknown", doc.unknown)]
    rows = "".join(f"<tr><th>{name}</th><td>{count:,}</td><td>{100 * count / doc.deals:.2f} %</td></tr>"
                   for name, count in counts if count or name in ("won", "lost"))
    parts = [
        "<!DOCTYPE html>",
        '<html lang="en"><head><meta charset="utf-8">',
        f"<title>{html.escape(title)}</title>",
        "<style>body{font-family:system-ui,sans-serif;max-width:680px;margin:2em auto;color:#222}"
        "table{border-collapse:collapse}th,td{padding:2px 12px 2px 0;text-align:right}"
        "th{text-align:left;font-weight:normal}svg{display:block;margin:0.5em 0 1.5em}"
        "figure{margin:0}figcaption{color:#555;font-size:90%}</style></head><body>",
        f"<h1>{html.escape(title)}</h1>",
        f"<p>{span} ({doc.deals:,} deals). Win rate <strong>{100 * doc.rate:.2f} %</strong>, "
        f"95 % interval {100 * low:.2f}–{100 * high:.2f} % (Wilson"
        + ("; unknown deals counted lost for the low bound and won for the high one" if doc.unknown else "")
        + ").</p>",
        f'<table class="counts">{rows}<tr><th>all</th><td>{doc.deals:,}</td><td></td></tr></table>',
        '<figure id="rate">', _svg(rate_chart(doc)),
        "<figcaption>The win rate (dot) and its 95 % interval (band), from 0 to 100 % and, below, zoomed in "
        "round the interval.</figcaption>",
        "</figure>",
    ]
    for key, name, counts_, spread in (("moves", "Counted moves", tally.moves, doc.moves),
                                       ("score", "Score", tally.scores, doc.score)):
        parts.append(f"<h2>{name} over the won deals</h2>")
        if spread is None:
            parts.append("<p>No deal was won.</p>")
            continue
        parts.append(f'<figure id="{key}">')
        parts.append(_svg(histogram(counts_, name.lower())))
        parts.append(f"<figcaption>mean {spread.mean:.1f}, standard deviation {spread.sd:.1f}, median "
                     f"{spread.median:g}, from {spread.min} to {spread.max}.</figcaption></figure>")
    parts.append("</body></html>\n")
    return "\n".join(parts)


def _svg(root: ET.Element) -> str:
    return ET.tostring(root, encoding="unicode")


def _new_svg(width: int, height: int, label: str) -> ET.Element:
    return ET.Element("svg", {"xmlns": "http://www.w3.org/2000/svg", "width": str(width), "height": str(height),
                              "viewBox": f"0 0 {width} {height}", "role": "img", "aria-label": label})


def _text(parent: ET.Element, x: float, y: float, text: str, anchor: str = "middle", **attrs) -> None:
    el = ET.SubElement(parent, "text", {"x": f"{x:.1f}", "y": f"{y:.1f}", "text-anchor": anchor,
                                        "font-size": "12", "fill": INK, **attrs})
    el.text = text


def rate_chart(doc) -> ET.Element:
    """The rate (a dot) and its interval (a band): on a 0–100 % scale, and below it on a scale
    zoomed in round the interval, where a narrow interval can be seen."""
    low, high = doc.interval
    pad = max((high - low) / 2, 0.005)
    zoom_low, zoom_high = max(0.0, low - pad), min(1.0, high + pad)
    svg = _new_svg(WIDTH, 130, f"win rate {100 * doc.rate:.2f} %, interval {100 * low:.2f}–{100 * high:.2f} %")
    _scale(svg, doc, 40, 0.0, 1.0, [t / 10 for t in range(11)], 0)
    step = _nice_step((zoom_high - zoom_low) / 6)
    ticks = [t * step for t in range(math.ceil(zoom_low / step), math.floor(zoom_high / step) + 1)]
    _scale(svg, doc, 100, zoom_low, zoom_high, ticks, 2 if step < 0.01 else 1 if step < 0.1 else 0)
    # how the zoomed scale sits on the whole one
    left, right = 20, WIDTH - 20
    for a, b in ((zoom_low, left), (zoom_high, right)):
        ET.SubElement(svg, "line", {"x1": f"{left + (right - left) * a:.2f}", "y1": "66", "x2": str(b), "y2": "92",
                                    "stroke": PALE, "stroke-dasharray": "2,3"})
    return svg


def _nice_step(raw: float) -> float:
    """1, 2 or 5 times a power of ten, at least ``raw``."""
    power = 10 ** math.floor(math.log10(raw))
    return next(m * power for m in (1, 2, 5, 10) if m * power >= raw)


def _scale(svg: ET.Element, doc, y: int, start: float, end: float, ticks: list[float], decimals: int) -> None:
    left, right = 20, WIDTH - 20
    at = lambda value: left + (right - left) * (value - start) / (end - start)  # noqa: E731
    ET.SubElement(svg, "line", {"x1": str(left), "x2": str(right), "y1": str(y), "y2": str(y), "stroke": PALE})
    for tick in ticks:
        x = at(tick)
        ET.SubElement(svg, "line", {"x1": f"{x:.1f}", "x2": f"{x:.1f}", "y1": str(y - 4), "y2": str(y + 4),
                                    "stroke": PALE})
        _text(svg, x, y + 20, f"{100 * tick:.{decimals}f}%", fill=PALE)
    low, high = doc.interval
    x_low, x_high = at(max(low, start)), at(min(high, end))
    ET.SubElement(svg, "rect", {"class": "interval", "x": f"{x_low:.2f}", "y": str(y - 7),
                                "width": f"{max(1.0, x_high - x_low):.2f}", "height": "14", "fill": BAND})
    x_rate = at(doc.rate)
    ET.SubElement(svg, "circle", {"class": "rate", "cx": f"{x_rate:.2f}", "cy": str(y), "r": "4", "fill": ACCENT})
    if start == 0.0 and end == 1.0:
        _text(svg, x_rate, y - 12, f"{100 * doc.rate:.2f} %", fill=ACCENT)


def histogram(counts: Counter, what: str, bins: int = 40) -> ET.Element:
    """Bars of how many won deals had each value (values grouped into at most ``bins`` bins)."""
    lo, hi = min(counts), max(counts)
    width = max(1, -(-(hi - lo + 1) // bins))  # values per bin
    grouped: Counter = Counter()
    for value, n in counts.items():
        grouped[(value - lo) // width] += n
    nbins = (hi - lo) // width + 1
    top = max(grouped.values())
    left, right, base, height = 50, WIDTH - 10, 170, 150
    svg = _new_svg(WIDTH, 200, f"{what} over won deals")
    bar = min(40.0, (right - left) / nbins)
    for i in range(nbins):
        n = grouped.get(i, 0)
        h = height * n / top
        first = lo + i * width
        label = f"{first}" if width == 1 else f"{first}–{first + width - 1}"
        rect = ET.SubElement(svg, "rect", {"class": "bar", "x": f"{left + i * bar + 0.5:.2f}",
                                           "y": f"{base - h:.2f}", "width": f"{max(0.5, bar - 1):.2f}",
                                           "height": f"{h:.2f}", "fill": ACCENT})
        ET.SubElement(rect, "title").text = f"{what} {label}: {n:,} deals"
    ET.SubElement(svg, "line", {"x1": str(left), "x2": str(right), "y1": str(base), "y2": str(base), "stroke": PALE})
    _text(svg, left, base + 16, str(lo), anchor="start")
    if hi != lo:
        _text(svg, left + nbins * bar, base + 16, str(hi), anchor="end")
    _text(svg, (left + right) / 2, base + 16, what, fill=PALE)
    _text(svg, left - 6, base - height + 4, f"{top:,}", anchor="end")
    _text(svg, left - 6, base, "0", anchor="end")
    return svg
