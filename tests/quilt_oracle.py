"""A reference of the quilt family's rules, written plainly and apart from core/quilt/: the oracle
its differential tests compare with (tests/test_quilt_oracle.py).

A position is a dict; an action is its canonical text (``c4>UH``, ``w>DS``, ``c4>w``, ``r3>r5``,
``turn``, ``redeal``), so nothing here shares the engine's numbers or code.  docs/rules.md,
"Quilt family".
"""

from __future__ import annotations

import copy

from carpet.core.numbering import dealing_order

NAMES = [f"{row}{column}" for row in "abcdefgh" for column in range(1, 9)]
PILES = [f"{way}{suit}" for way in "UD" for suit in "CSHD"]  # up piles ace to king, down piles king to ace
BASES = [0, 13, 26, 39, 12, 25, 38, 51]  # the first deck's aces and kings, in PILES' order


def deal(variant, deal) -> dict:
    order, _ = dealing_order(deal, 104)
    rest = [card for card in order if card not in BASES]
    others = rest[64:]
    p = dict(cells=rest[:64], stock=[], waste=[], found=[[base] for base in BASES], reserves=[[] for _ in range(8)],
             redeals=0)
    if variant.has_reserves:
        p["reserves"] = [others[k::8] for k in range(8)]  # dealt round the reserves, the last on top
    else:
        p["stock"] = others[::-1]  # top last: the next card dealt is the list's end
    return p


def _free(p, cell: int) -> bool:
    """A quilt card with one of its short sides touching no card (beyond the edge counts as none)."""
    if p["cells"][cell] < 0:
        return False
    row, column = divmod(cell, 8)
    if (row + column) % 2 == 0:  # lying vertically: its short sides are above and below
        ends = [(row - 1, column), (row + 1, column)]
    else:
        ends = [(row, column - 1), (row, column + 1)]
    return any(not (0 <= r < 8 and 0 <= c < 8) or p["cells"][r * 8 + c] < 0 for r, c in ends)


def _neighbours(a: int, b: int) -> bool:
    a, b = a % 52, b % 52
    return a // 13 == b // 13 and abs(a % 13 - b % 13) == 1


def _takes(p, pile: str, card: int) -> bool:
    cards = p["found"][PILES.index(pile)]
    step = 1 if pile[0] == "U" else -1
    return len(cards) < 13 and card % 52 == cards[-1] % 52 + step


def _source(variant, p, text: str) -> int | None:
    """The card a source offers now (a free quilt card, the waste top, a reserve top), else None."""
    if text in NAMES:
        cell = NAMES.index(text)
        return p["cells"][cell] if _free(p, cell) else None
    pile = p["waste"] if text == "w" else p["reserves"][int(text[1]) - 1]
    return pile[-1] if pile else None


def legal(variant, p, text: str) -> bool:
    if sum(map(len, p["found"])) == 104:
        return False
    if text == "turn":
        return bool(p["stock"])
    if text == "redeal":
        return not p["stock"] and bool(p["waste"]) and p["redeals"] < variant.redeals
    source, _, target = text.partition(">")
    card = _source(variant, p, source)
    if card is None:
        return False
    if target in PILES:
        return _takes(p, target, card)
    if target == "w":
        return bool(p["waste"]) and _neighbours(card, p["waste"][-1])
    onto = p["reserves"][int(target[1]) - 1]
    if onto:
        return _neighbours(card, onto[-1])
    return not (source[0] == "r" and len(p["reserves"][int(source[1]) - 1]) == 1)


def play(variant, p, text: str) -> dict | None:
    """The position after ``text``, or None where the rules refuse it."""
    if not legal(variant, p, text):
        return None
    p = copy.deepcopy(p)
    if text == "turn":
        p["waste"].append(p["stock"].pop())
        return p
    if text == "redeal":
        p["stock"], p["waste"] = p["waste"][::-1], []
        p["redeals"] += 1
        return p
    source, _, target = text.partition(">")
    if source in NAMES:
        cell = NAMES.index(source)
        card, p["cells"][cell] = p["cells"][cell], -1
    else:
        card = (p["waste"] if source == "w" else p["reserves"][int(source[1]) - 1]).pop()
    if target in PILES:
        p["found"][PILES.index(target)].append(card)
    else:
        (p["waste"] if target == "w" else p["reserves"][int(target[1]) - 1]).append(card)
    return p


def texts(variant) -> list[str]:
    """Every action text of the variant."""
    reserves = [f"r{k}" for k in range(1, 9)]
    sources = NAMES + (reserves if variant.has_reserves else ["w"])
    out = [f"{source}>{pile}" for source in sources for pile in PILES]
    if variant.has_reserves:
        out += [f"{source}>{target}" for source in NAMES + reserves for target in reserves if source != target]
    else:
        out += [f"{name}>w" for name in NAMES] + ["turn", "redeal"]
    return out


def status(variant, p) -> str:
    if sum(map(len, p["found"])) == 104:
        return "won"
    return "playing" if any(legal(variant, p, text) for text in texts(variant)) else "lost"
