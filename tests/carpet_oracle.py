"""A reference of the carpet family's rules, written plainly and apart from core/carpet/: the oracle
its differential tests compare with (tests/test_carpet_oracle.py).

A position is a dict; an action is its canonical text (``b3>F``, ``w>F``, ``turn``, ``w>b3``,
``s>b3``), so nothing here shares the engine's numbers or code.  docs/rules.md, "Carpet family".
"""

from __future__ import annotations

import copy

from carpet.core.numbering import dealing_order

NAMES = [f"{row}{column}" for row in "abcd" for column in range(1, 6)]


def deal(variant, deal) -> dict:
    order, _ = dealing_order(deal, 52)
    if variant.foster:
        p = dict(cells=order[:20], stock=order[20:], found=[0] * 4, waste=[], drawn=0, score=0, phase=1)
        for cell in range(20):
            if p["cells"][cell] % 13 == 0:
                _up(p, p["cells"][cell])
                _refill(p, cell)
    else:
        rest = [card for card in order if card % 13]
        p = dict(cells=rest[:20], stock=rest[20:], found=[1] * 4, waste=[], drawn=0, score=0, phase=2)
    _phase(p)
    return p


def _fits(p, card: int) -> bool:
    count = p["found"][card // 13]
    return count > 0 and card % 13 == count


def _up(p, card: int) -> None:
    p["found"][card // 13] += 1
    p["score"] += 1


def _draw(p) -> int | None:
    if p["drawn"] == len(p["stock"]):
        return None
    p["drawn"] += 1
    return p["stock"][p["drawn"] - 1]


def _refill(p, cell: int) -> None:
    p["cells"][cell] = -1
    card = _draw(p)
    while card is not None and card % 13 == 0:
        _up(p, card)
        card = _draw(p)
    if card is not None:
        p["cells"][cell] = card


def _phase(p) -> None:
    if p["phase"] == 1 and not any(card >= 0 and _fits(p, card) for card in p["cells"]):
        p["phase"] = 2


def play(variant, p, text: str) -> dict | None:
    """The position after ``text``, or None where the rules refuse it (``p`` unchanged)."""
    p = copy.deepcopy(p)
    cells, waste, left = p["cells"], p["waste"], p["drawn"] < len(p["stock"])
    source, _, target = text.partition(">")
    if text != "turn" and target != "F" or text in ("turn", "w>F"):
        if p["phase"] == 1:
            return None
    if text == "turn":
        if not left:
            return None
        card = _draw(p)
        _up(p, card) if card % 13 == 0 else waste.append(card)
    elif text == "w>F":
        if not waste or not _fits(p, waste[-1]):
            return None
        _up(p, waste.pop())
    elif target == "F":
        cell = NAMES.index(source)
        if cells[cell] < 0 or not _fits(p, cells[cell]):
            return None
        _up(p, cells[cell])
        cells[cell] = -1
        if variant.auto_fill:
            if waste:
                cells[cell] = waste.pop()
            elif left:
                cells[cell] = _draw(p)
        elif p["phase"] == 1:
            _refill(p, cell)
    else:
        cell = NAMES.index(target)
        if variant.auto_fill or cells[cell] >= 0:
            return None
        if source == "w":
            if not waste:
                return None
            cells[cell] = waste.pop()
        elif variant.foster or waste or not left:
            return None
        else:
            cells[cell] = _draw(p)
    _phase(p)
    return p


def texts(variant) -> list[str]:
    """Every action text of the variant."""
    out = [f"{name}>F" for name in NAMES] + ["w>F", "turn"]
    if not variant.auto_fill:
        out += [f"w>{name}" for name in NAMES]
        if not variant.foster:
            out += [f"s>{name}" for name in NAMES]
    return out


def status(variant, p) -> str:
    if sum(p["found"]) == 52:
        return "won"
    return "playing" if any(play(variant, p, text) is not None for text in texts(variant)) else "lost"
