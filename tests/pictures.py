"""Reading a position back out of a picture (an SVG file, or the replay page's DOM), and
holding it against ``show --json``: the checks the SVG and browser tests share."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET

SVG = "{http://www.w3.org/2000/svg}"


def parse(svg_text: str) -> ET.Element:
    root = ET.fromstring(svg_text)
    assert root.tag == f"{SVG}svg"
    return root


def svg_from_page(page: str) -> str:
    """The picture's <svg> element out of a dumped page (the DOM serialised as HTML)."""
    match = re.search(r'<svg [^>]*class="carpet-position".*?</svg>\s*(?=</div>)', page, re.S)
    assert match, "no picture in the page"
    return match.group(0)


def slots(root: ET.Element) -> list[ET.Element]:
    group = root.find(f"{SVG}g[@class='slots']")
    assert group is not None
    return list(group)


def fields(root: ET.Element) -> dict[str, str]:
    return {t.get("data-field"): "".join(t.itertext()) for t in root.iter(f"{SVG}tspan") if t.get("data-field")}


def read(root: ET.Element) -> dict:
    """What the picture shows, in the terms of ``show --json``'s layout."""
    seen: dict = {"cells": {}, "foundations": {}, "waste": {}, "reserves": {}, "stock": None}
    for g in slots(root):
        kind = g.get("class").split()[0]
        card = g.get("data-card")
        if kind == "cell":
            seen["cells"][g.get("data-cell")] = card
        elif kind == "foundation":
            seen["foundations"][g.get("data-foundation")] = card
        elif kind == "stock":
            seen["stock"] = "back" in g.get("class").split()
        elif card is not None:
            pile = seen["waste"] if kind == "waste" else seen["reserves"].setdefault(g.get("data-reserve"), {})
            pile[int(g.get("data-index"))] = card
    seen["fields"] = fields(root)
    return seen


def _cells(rows, first_column: int) -> dict[str, str | None]:
    return {f"{'abcdefgh'[r]}{c + first_column}": card for r, row in enumerate(rows) for c, card in enumerate(row)}


def _tail(pile: list[str], seen: dict[int, str]) -> None:
    """The shown cards are the pile's top ones, each at its index, the top one included."""
    assert all(pile[i] == card for i, card in seen.items()), (pile, seen)
    if pile:
        assert len(pile) - 1 in seen
        assert sorted(seen) == list(range(min(seen), len(pile)))
    else:
        assert not seen


def count_text(n: int) -> str:
    return "empty" if n == 0 else f"{n} card{'s' if n > 1 else ''}"


def check(root: ET.Element, doc: dict) -> None:
    """Every card, pile and caption value in the picture is what ``show --json`` says."""
    seen = read(root)
    layout = doc["layout"]
    f = seen["fields"]
    redeals = "∞" if doc["redeals_left"] is None else str(doc["redeals_left"])
    assert (f["status"], f["score"], f["moves"], f["redeals"]) == \
        (doc["status"], str(doc["score"]), str(doc["moves"]), redeals)
    if "grid" in layout:
        assert seen["cells"] == _cells(layout["grid"], 0)
        return
    if "carpet" in layout:
        assert seen["cells"] == _cells(layout["carpet"], 1)
        assert seen["foundations"] == layout["foundations"]
    else:
        assert seen["cells"] == _cells(layout["quilt"], 1)
        found = layout["foundations"]
        assert seen["foundations"] == {("U" if d == "up" else "D") + s: found[d][s] for d in found for s in found[d]}
    if "reserves" in layout:
        for k, pile in enumerate(layout["reserves"], 1):
            _tail(pile, seen["reserves"].get(f"r{k}", {}))
            assert f[f"r{k}"].split()[0] == str(len(pile))
    else:
        _tail(layout["waste"], seen["waste"])
        assert seen["stock"] == bool(layout["stock"])
        assert f["waste"] == count_text(len(layout["waste"]))
        assert f["stock"].split(":")[0] == count_text(len(layout["stock"]))


def drawing(root: ET.Element) -> list:
    """Everything a position sets in a picture, slot by slot and field by field: two pictures of
    one position must agree on all of it (Python's SVG and the page's DOM after its script ran)."""
    out = []
    for g in slots(root):
        rank = g.find(f"{SVG}text")
        uses = g.findall(f"{SVG}use")
        out.append((g.get("class"), g.get("data-card"), g.get("data-index"), rank.text or "",
                    tuple(u.get("href") for u in uses)))
    status = next(t for t in root.iter(f"{SVG}tspan") if t.get("data-field") == "status")
    return [out, fields(root), status.get("class")]
