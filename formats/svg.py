"""Positions as SVG pictures, with the standard library only (after python-chess's ``chess.svg``).

A picture is a fixed *board* per family and board size -- the places where a card may lie
(slots), their names, the caption -- filled with one position's *values*: a short string per
slot and a text per caption field.  Another position of the same game is the same board with
other values, so pictures of one game line up card for card, and the HTML replay
(:mod:`carpet.formats.html`) embeds one board and then only swaps values: its JavaScript
``applySlot`` does what :func:`apply_slot` does here (a browser test holds the two to the same
result).

A slot value is space-separated tokens: an optional card code (``7H``), an optional ``#N``
(the card's place in its pile, bottom first, from 0) and the slot's marks, e.g. ``7H locked``,
``gap live``, ``9C #3 top moves``.  Every mark comes from the engine: locked prefixes
and runs (``GridState.prefix``), free quilt cards (``QuiltState.available``), and the legal actions'
canonical texts (``7H>b5``: 7H has a move and b5 takes a card); no rule is decided here.

What a program can read back from a picture (tests do): every slot is a ``<g>`` in
``<g class="slots">`` whose class starts with its kind (``cell``, ``foundation``, ``waste``,
``reserve``, ``stock``), then ``card red``/``card black`` when a card lies there, then the
marks; a card's code is ``data-card``, its place ``data-cell`` (``b5``), ``data-foundation``
(``H``, or ``UH``/``DH`` in the quilt), ``data-waste`` or ``data-reserve`` (``r3``) with
``data-index`` (place in the pile, bottom first).  Caption values are ``<tspan data-field=...>``
(``status``, ``score``, ``moves``, ``redeals``, ``clock``, ``note``; and ``stock``, ``waste``,
``home``, ``phase``, ``r1``..``r8`` where the family has them).
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from dataclasses import dataclass, field

from carpet.core import Session

SVG_NS = "http://www.w3.org/2000/svg"
XML_SPACE = "{http://www.w3.org/XML/1998/namespace}space"
RANKS = "A23456789TJQK"
SUITS = "CSHD"
RANK_LABELS = {r: ("10" if r == "T" else r) for r in RANKS}
ROW_LETTERS = "abcdefghijklmnopqrstuvwxyz"

#: the suits as paths in a 100×100 box (no font needed for the symbols)
SUIT_PATHS = {
    "C": ("M50 4a21 21 0 0 1 19.5 28.8A21 21 0 1 1 56 70q2 14 14 26H30q12-12 14-26"
          "A21 21 0 1 1 30.5 32.8 21 21 0 0 1 50 4z"),
    "S": ("M50 2C64 22 96 38 96 62c0 14-10 24-23 24-9 0-15-5-18-10q2 14 14 22H31q12-8 14-22"
          "c-3 5-9 10-18 10C14 86 4 76 4 62 4 38 36 22 50 2z"),
    "H": "M50 96C38 80 4 58 4 32C4 16 15 6 28 6C38 6 46 12 50 21C54 12 62 6 72 6C85 6 96 16 96 32C96 58 62 80 50 96z",
    "D": "M50 2Q70 30 90 50 70 70 50 98 30 70 10 50 30 30 50 2z",
}

STYLE = """
.felt{fill:#2f6b4c}
text{fill:#f4f4ee}
.dim{fill:#b9d3c2}
.title{font-weight:bold}
.won{fill:#9ff09f;font-weight:bold}.lost{fill:#ffab9c;font-weight:bold}.playing{font-weight:bold}
.label{fill:#b9d3c2;font-size:13px}
.place{fill:none;stroke:#bcd6c5;stroke-opacity:.45;stroke-dasharray:4 3}
.ghost{fill:#bcd6c5;fill-opacity:.3}
g g rect{fill:#fff;stroke:#3c3c3c;stroke-width:1}
g g text{font-weight:bold;letter-spacing:-2px}
.black text,.black use{fill:#1b1b1b}
.red text,.red use{fill:#cc1f1a}
.empty{display:none}
.gap rect{fill:none;stroke:#bcd6c5;stroke-opacity:.4;stroke-dasharray:4 3}
.gap.live rect{fill:#f6c945;fill-opacity:.18;stroke:#f6c945;stroke-opacity:1;stroke-width:2.5;stroke-dasharray:6 3}
.locked rect,.run rect{fill:#d3ecd5;stroke:#1e7a34;stroke-width:2}
.blocked rect{fill:#c9c9c4}
.blocked text,.blocked use{fill-opacity:.6}
.free rect{stroke:#1b1b1b;stroke-width:1.5}
.moves rect{stroke:#f6c945;stroke-width:3.5}
.done rect{fill:#d3ecd5;stroke:#1e7a34;stroke-width:3}
.back rect{fill:#24508f;stroke:#fff;stroke-width:3}
.back.moves rect{stroke:#f6c945}
.redeal rect{fill:none;stroke:#f6c945;stroke-width:2.5;stroke-dasharray:6 3}
"""

STATUS_CLASSES = ("playing", "won", "lost")


# --- the board ----------------------------------------------------------------------------
@dataclass
class Slot:
    kind: str
    x: float
    y: float
    w: float
    h: float
    data: dict[str, str]


@dataclass
class Board:
    """A family's fixed layout: size, slots in drawing order, and what else is drawn."""

    width: int
    height: int
    title: str = ""
    slots: list[Slot] = field(default_factory=list)
    #: (x, y, text, class, anchor) drawn once: row and column names, pile names
    labels: list[tuple] = field(default_factory=list)
    #: (x, y, w, h, suit or None): an empty place's outline (and its suit), under the slot
    places: list[tuple] = field(default_factory=list)
    #: (x, y, [(prefix text, field name or None, class)], anchor): lines of text with fields
    lines: list[tuple] = field(default_factory=list)
    #: (sample slot value, card size, text): the legend under the board
    legend: list[tuple] = field(default_factory=list)


@dataclass
class Picture:
    """One board drawn as an SVG tree; :meth:`fill` sets a position's values into it."""

    board: Board
    root: ET.Element
    slots: list[ET.Element]
    fields: dict[str, ET.Element]

    def fill(self, values: list[str], fields: dict[str, str]) -> None:
        for el, value in zip(self.slots, values, strict=True):
            apply_slot(el, value)
        for name, text in fields.items():
            apply_field(self.fields[name], name, text)

    def tostring(self) -> str:
        return ET.tostring(self.root, encoding="unicode")


def is_code(token: str) -> bool:
    return len(token) == 2 and token[0] in RANKS and token[1] in SUITS


def apply_slot(el: ET.Element, value: str) -> None:
    """Set one slot to its value: classes, data-card, data-index, rank text and suit symbols.

    Mirrored by ``applySlot`` in replay.js: the slot's kind is the first class, kept.
    """
    kind = el.get("class", "").split(" ")[0]
    classes, card, index = [kind], None, None
    for token in value.split():
        if token[0] == "#":
            index = token[1:]
        elif is_code(token):
            card = token
        else:
            classes.append(token)
    if card:
        classes[1:1] = ["card", "red" if card[1] in "HD" else "black"]
    elif len(classes) == 1:
        classes.append("empty")
    el.set("class", " ".join(classes))
    _set(el, "data-card", card)
    _set(el, "data-index", index)
    rank, pip, big = el[1], el[2], el[3]
    rank.text = RANK_LABELS[card[0]] if card else None
    for use in (pip, big):
        _set(use, "href", f"#s{card[1]}" if card else None)


def apply_field(el: ET.Element, name: str, text: str) -> None:
    """A caption field's text; the status field also takes its value as its class."""
    el.text = text
    if name == "status":
        el.set("class", text if text in STATUS_CLASSES else "playing")


def _set(el: ET.Element, name: str, value: str | None) -> None:
    if value is None:
        el.attrib.pop(name, None)
    else:
        el.set(name, value)


def _num(v: float) -> str:
    return f"{v:g}"


def draw(board: Board) -> Picture:
    root = ET.Element("svg", {
        "xmlns": SVG_NS, "version": "1.1", "class": "carpet-position",
        "viewBox": f"0 0 {board.width} {board.height}",
        "width": str(board.width), "height": str(board.height),
        "font-family": "DejaVu Sans, Verdana, Helvetica, Arial, sans-serif", "font-size": "14",
    })
    ET.SubElement(root, "title").text = board.title
    ET.SubElement(root, "style").text = STYLE
    defs = ET.SubElement(root, "defs")
    for suit, path in SUIT_PATHS.items():
        symbol = ET.SubElement(defs, "symbol", {"id": f"s{suit}", "viewBox": "0 0 100 100"})
        ET.SubElement(symbol, "path", {"d": path})
    ET.SubElement(root, "rect", {"class": "felt", "width": "100%", "height": "100%"})
    fields: dict[str, ET.Element] = {}
    for x, y, parts, *anchor in board.lines:
        text = ET.SubElement(root, "text", {"x": _num(x), "y": _num(y), XML_SPACE: "preserve"})
        if anchor:
            text.set("text-anchor", anchor[0])
        for prefix, name, cls in parts:
            span = ET.SubElement(text, "tspan", {"class": cls} if cls else {})
            span.text = prefix
            if name:
                fields[name] = ET.SubElement(text, "tspan", {"data-field": name})
    for x, y, label, cls, anchor in board.labels:
        attrs = {"x": _num(x), "y": _num(y), "class": cls}
        if anchor != "start":
            attrs["text-anchor"] = anchor
        ET.SubElement(root, "text", attrs).text = label
    for x, y, w, h, suit in board.places:
        ET.SubElement(root, "rect", {"class": "place", "x": _num(x), "y": _num(y), "width": _num(w),
                                     "height": _num(h), "rx": "4"})
        if suit:
            side = min(w, h) * 0.5
            ET.SubElement(root, "use", {"class": "ghost", "href": f"#s{suit}", "x": _num(x + (w - side) / 2),
                                        "y": _num(y + (h - side) / 2), "width": _num(side),
                                        "height": _num(side)})
    group = ET.SubElement(root, "g", {"class": "slots"})
    slots = []
    for slot in board.slots:
        el = _card_element(group, slot.kind, slot.x, slot.y, slot.w, slot.h)
        for name, value in slot.data.items():
            el.set(f"data-{name}", value)
        slots.append(el)
    legend = ET.SubElement(root, "g", {"class": "legend"})
    x, y = 28, board.height - 34
    for value, (w, h), text in board.legend:
        sample = _card_element(legend, value.split()[0], x, y, w, h)
        apply_slot(sample, value.split(" ", 1)[1])
        ET.SubElement(legend, "text", {"x": _num(x + w + 6), "y": _num(y + h / 2 + 5), "class": "label"}).text = text
        x += w + 14 + 7.2 * len(text)
    return Picture(board, root, slots, fields)


def _card_element(parent: ET.Element, kind: str, x: float, y: float, w: float, h: float) -> ET.Element:
    """A slot's element: a face (rect), a rank (text), a small suit under the rank and a big suit (use)."""
    g = ET.SubElement(parent, "g", {"class": f"{kind} empty", "transform": f"translate({_num(x)} {_num(y)})"})
    ET.SubElement(g, "rect", {"width": _num(w), "height": _num(h), "rx": "4"})
    if h >= w:  # standing: index in the top left corner, big suit low on the right
        size = round(w * 0.4)
        small = round(w * 0.3)
        big = round(w * 0.52)
        rank = (3, size + 2)
        pip = (4, size + 6, small)
        big_at = (w - big - 4, h - big - 5, big)
    else:  # lying (quilt): index on the left, big suit on the right
        size = round(h * 0.42)
        small = round(h * 0.3)
        big = round(h * 0.62)
        rank = (4, size + 2)
        pip = (5, size + 5, small)
        big_at = (w - big - 5, (h - big) / 2, big)
    ET.SubElement(g, "text", {"x": _num(rank[0]), "y": _num(rank[1]), "font-size": str(size)})
    for px, py, side in (pip, big_at):
        ET.SubElement(g, "use", {"x": _num(px), "y": _num(py), "width": _num(side), "height": _num(side)})
    return g


# --- the caption --------------------------------------------------------------------------
MARGIN = 28
CAPTION = 62  # the caption's height: two lines


def _caption(board: Board, session: Session) -> None:
    board.title = f"{session.variant.id}, deal {session.deal.both_forms}"
    title = f"{session.variant.id}   deal {session.deal.both_forms}   "
    board.lines.append((MARGIN - 16, 22, [(title, None, "title"), ("", "status", None),
                                          ("   ", "note", "dim")]))
    board.lines.append((MARGIN - 16, 44, [("score ", None, "dim"), ("", "score", None),
                                          ("   moves ", None, "dim"), ("", "moves", None),
                                          ("   redeals left ", None, "dim"), ("", "redeals", None),
                                          ("   clock ", None, "dim"), ("", "clock", None)]))


def caption_fields(session: Session, note: str = "") -> dict[str, str]:
    left = session.redeals_left
    return {
        "status": session.status,
        "note": note,
        "score": str(session.score),
        "moves": str(session.moves),
        "redeals": "∞" if left is None else str(left),
        "clock": clock_text(session.clock_ms),
    }


def clock_text(ms: int) -> str:
    seconds = ms // 1000
    return f"{seconds // 60}:{seconds % 60:02d}.{ms % 1000 // 100}"


def _known(names: set[str], board_names: set[str]) -> None:
    """The places legal actions name must be places on the board: a family that names its
    cells otherwise must be drawn otherwise too, never silently without its marks."""
    unknown = names - board_names
    if unknown:
        raise ValueError(f"the picture has no place named {sorted(unknown)[0]}")


def _legal_texts(session: Session) -> list[str]:
    text = session.variant.text
    return [text(a) for a in session.legal_actions()]


def _stock_and_waste(board, x: float, stock_y: float, label_y: float, waste_y: float, w: float, h: float,
                     shown: int) -> None:
    """The stock (its count labelled above it) and the waste fanned ``shown`` cards wide, at ``x``."""
    board.lines.append((x, label_y, [("stock ", None, "label"), ("", "stock", "label")]))
    board.places.append((x, stock_y, w, h, None))
    board.slots.append(Slot("stock", x, stock_y, w, h, {"stock": "s"}))
    board.lines.append((x, waste_y - 8, [("waste ", None, "label"), ("", "waste", "label")]))
    board.places.append((x, waste_y, w, h, None))
    for k in range(shown):
        board.slots.append(Slot("waste", x + k * FAN, waste_y, w, h, {"waste": "w"}))


def _row_name(r: int) -> str:
    return ROW_LETTERS[r]


# --- grid ---------------------------------------------------------------------------------
GRID_CARD, GRID_PITCH = (48, 66), (54, 74)


def _grid_board(session: Session) -> Board:
    rows = session.state.layout()["grid"]
    n_rows, n_cols = len(rows), len(rows[0])
    w, h = GRID_CARD
    px, py = GRID_PITCH
    top = CAPTION + 22
    board = Board(width=MARGIN + n_cols * px + 12, height=top + n_rows * py + 54)
    _caption(board, session)
    for c in range(n_cols):
        board.labels.append((MARGIN + c * px + w / 2, top - 8, str(c), "label", "middle"))
    for r in range(n_rows):
        board.labels.append((MARGIN - 10, top + r * py + h / 2 + 5, _row_name(r), "label", "middle"))
        for c in range(n_cols):
            board.slots.append(Slot("cell", MARGIN + c * px, top + r * py, w, h, {"cell": f"{_row_name(r)}{c}"}))
    small = (24, 33)
    run = ("cell 4C locked", small, "locked prefix") if session.variant.locking else \
        ("cell 4C run", small, "in its row's run")  # nothing locks in the Montana games
    board.legend = [run, ("cell 7H moves", small, "has a move"),
                    ("cell gap live", small, "a card fits this gap"), ("cell gap dead", small, "nothing fits")]
    return board


def _grid_values(session: Session) -> tuple[list[str], dict[str, str]]:
    state = session.state
    rows = state.layout()["grid"]
    movers, live = set(), set()
    for text in _legal_texts(session):
        card, sep, cell = text.partition(">")
        if sep:
            movers.add(card)
            live.add(cell)
    prefix = state.prefix  # each row's run from column 0 (locked in the kovrik games)
    run = "locked" if session.variant.locking else "run"
    _known(live, {f"{_row_name(r)}{c}" for r in range(len(rows)) for c in range(len(rows[0]))})
    values = []
    for r, row in enumerate(rows):
        for c, card in enumerate(row):
            if card is None:
                values.append("gap live" if f"{_row_name(r)}{c}" in live else "gap dead")
            else:
                marks = [card]
                if c < prefix[r]:
                    marks.append(run)
                if card in movers:
                    marks.append("moves")
                values.append(" ".join(marks))
    return values, {}


# --- carpet -------------------------------------------------------------------------------
CARPET_CARD, CARPET_PITCH = (56, 78), (64, 88)
CARPET_WASTE = 5  # waste cards shown, fanned
FAN = 22


def _carpet_board(session: Session) -> Board:
    w, h = CARPET_CARD
    px, py = CARPET_PITCH
    found_y = CAPTION + 26
    top = found_y + h + 44
    side = MARGIN + 5 * px + 24
    board = Board(width=side + w + (CARPET_WASTE - 1) * FAN + 48, height=top + 4 * py + 54)
    _caption(board, session)
    board.labels.append((MARGIN, found_y - 8, "foundations", "label", "start"))
    for s, suit in enumerate(SUITS):
        x = MARGIN + s * px
        board.places.append((x, found_y, w, h, suit))
        board.slots.append(Slot("foundation", x, found_y, w, h, {"foundation": suit}))
    for c in range(5):
        board.labels.append((MARGIN + c * px + w / 2, top - 8, str(c + 1), "label", "middle"))
    for r in range(4):
        board.labels.append((MARGIN - 10, top + r * py + h / 2 + 5, _row_name(r), "label", "middle"))
        for c in range(5):
            board.slots.append(Slot("cell", MARGIN + c * px, top + r * py, w, h, {"cell": f"{_row_name(r)}{c + 1}"}))
    _stock_and_waste(board, side, found_y, found_y - 8, top, w, h, CARPET_WASTE)
    if session.variant.foster:
        board.lines.append((side, top + py + 24, [("", "phase", "label")]))
        board.lines.append((side, top + py + 42, [("", "phase-note", "label")]))
    small = (24, 33)
    board.legend = [("cell 7H moves", small, "to its foundation"), ("cell gap live", small, "a fill can take it"),
                    ("cell gap dead", small, "nothing fills it")]
    return board


def _fan(pile: list[str], shown: int, top_marks: str = "") -> list[str]:
    """A pile's last ``shown`` cards as slot values, bottom first; the top one marked."""
    start = max(0, len(pile) - shown)
    values = []
    for k in range(shown):
        i = start + k
        if i >= len(pile):
            values.append("")
        elif i == len(pile) - 1:
            values.append(f"{pile[i]} #{i} top {top_marks}".strip())
        else:
            values.append(f"{pile[i]} #{i}")
    return values


PHASES = {1: ("phase 1:", "holes refill from the stock"), 2: ("phase 2:", "fill holes from the waste")}


def _carpet_values(session: Session) -> tuple[list[str], dict[str, str]]:
    state = session.state
    layout = state.layout()
    texts = _legal_texts(session)
    fits = {t[:-2] for t in texts if t.endswith(">F")}
    fillable = {t[2:] for t in texts if t[:2] in ("w>", "s>") and t[2:] != "F"}
    _known(fits | fillable, {f"{_row_name(r)}{c + 1}" for r in range(4) for c in range(5)} | {"w"})
    values = []
    for suit in SUITS:
        top = layout["foundations"][suit]
        values.append("" if top is None else top + (" done" if top[0] == "K" else ""))
    for r, row in enumerate(layout["carpet"]):
        for c, card in enumerate(row):
            name = f"{_row_name(r)}{c + 1}"
            if card is None:
                values.append("gap live" if name in fillable else "gap dead")
            else:
                values.append(card + (" moves" if name in fits else ""))
    stock, waste = layout["stock"], layout["waste"]
    values.append(("back moves" if "turn" in texts else "back") if stock else "")
    values += _fan(waste, CARPET_WASTE, "moves" if "w" in fits else "")
    fields = {"stock": _count(len(stock)), "waste": _count(len(waste))}
    if session.variant.foster:
        fields["phase"], fields["phase-note"] = PHASES[state.phase]
    return values, fields


def _count(n: int) -> str:
    return "empty" if n == 0 else f"{n} card{'s' if n > 1 else ''}"


# --- quilt --------------------------------------------------------------------------------
QUILT_PITCH = 60
QUILT_CARD = (42, 57)  # standing; lying cards turn it
QUILT_WASTE = 6
RESERVE_SHOWN = 12
RESERVE_FAN = 22


def _quilt_board(session: Session) -> Board:
    variant = session.variant
    w, h = QUILT_CARD
    p = QUILT_PITCH
    found_y = CAPTION + 30
    top = found_y + h + 46
    side = MARGIN + 8 * p + 26
    if variant.has_reserves:
        width = side + 30 + w + (RESERVE_SHOWN - 1) * RESERVE_FAN + 16
    else:
        width = side + w + (QUILT_WASTE - 1) * FAN + 24
    board = Board(width=width, height=top + 8 * p + 48)
    _caption(board, session)
    board.labels.append((MARGIN, found_y - 10, "up: ace to king", "label", "start"))
    board.labels.append((MARGIN + 4 * p, found_y - 10, "down: king to ace", "label", "start"))
    for k in range(8):
        name = ("U" if k < 4 else "D") + SUITS[k % 4]
        x = MARGIN + k * p + (p - w) / 2
        board.places.append((x, found_y, w, h, SUITS[k % 4]))
        board.slots.append(Slot("foundation", x, found_y, w, h, {"foundation": name}))
        board.labels.append((x + w / 2, found_y + h + 16, name, "label", "middle"))
    for c in range(8):
        board.labels.append((MARGIN + c * p + p / 2, top - 8, str(c + 1), "label", "middle"))
    for r in range(8):
        board.labels.append((MARGIN - 10, top + r * p + p / 2 + 5, _row_name(r), "label", "middle"))
        for c in range(8):
            cw, ch = (w, h) if session.state.orientation(r * 8 + c) == "vertical" else (h, w)
            x, y = MARGIN + c * p + (p - cw) / 2, top + r * p + (p - ch) / 2
            board.slots.append(Slot("cell", x, y, cw, ch, {"cell": f"{_row_name(r)}{c + 1}"}))
    if variant.has_reserves:
        for k in range(8):
            y = top + k * p + (p - h) / 2
            board.labels.append((side, y + 20, f"r{k + 1}", "label", "start"))
            board.lines.append((side, y + 38, [("", f"r{k + 1}", "label")]))
            board.places.append((side + 30, y, w, h, None))
            for j in range(RESERVE_SHOWN):
                board.slots.append(Slot("reserve", side + 30 + j * RESERVE_FAN, y, w, h, {"reserve": f"r{k + 1}"}))
    else:
        _stock_and_waste(board, side, found_y, found_y - 10, top, w, h, QUILT_WASTE)
    home_y = found_y + 24 if variant.has_reserves else top + h + 30  # under the waste
    board.lines.append((side, home_y, [("", "home", None), (" of 104 cards home", None, "label")]))
    small = (24, 33)
    board.legend = [("cell 7H free", small, "free to take"), ("cell 7H blocked", small, "held at both ends"),
                    ("cell 7H free moves", small, "has a move now"), ("cell gap", small, "hole")]
    return board


def _quilt_values(session: Session) -> tuple[list[str], dict[str, str]]:
    state = session.state
    layout = state.layout()
    texts = set(_legal_texts(session))
    sources = {t.partition(">")[0] for t in texts if ">" in t}
    _known(sources, {f"{_row_name(r)}{c + 1}" for r in range(8) for c in range(8)}
           | {"w"} | {f"r{k}" for k in range(1, 9)})
    values = []
    for pile, (direction, suit) in enumerate((d, s) for d in ("up", "down") for s in SUITS):
        top = layout["foundations"][direction][suit]
        values.append(top + (" done" if state.need[pile] < 0 else ""))  # (-1: the pile complete)
    free = set(state.available())  # cells whose card has a short side free
    cols = len(layout["quilt"][0])
    for r, row in enumerate(layout["quilt"]):
        for c, card in enumerate(row):
            name = f"{_row_name(r)}{c + 1}"
            if card is None:
                values.append("gap")
            else:
                marks = [card, "free" if r * cols + c in free else "blocked"]
                if name in sources:
                    marks.append("moves")
                values.append(" ".join(marks))
    fields = {"home": str(state.on_found)}
    if session.variant.has_reserves:
        for k, pile in enumerate(layout["reserves"]):
            values += _fan(pile, RESERVE_SHOWN, "moves" if f"r{k + 1}" in sources else "")
            hidden = len(pile) - RESERVE_SHOWN
            fields[f"r{k + 1}"] = f"{len(pile)}" + (f" (+{hidden})" if hidden > 0 else "")
    else:
        stock, waste = layout["stock"], layout["waste"]
        values.append(("back moves" if "turn" in texts else "back") if stock else
                      "redeal moves" if "redeal" in texts else "")
        values += _fan(waste, QUILT_WASTE, "moves" if "w" in sources else "")
        fields["stock"] = _count(len(stock)) + (": redeal" if "redeal" in texts else "")
        fields["waste"] = _count(len(waste))
    return values, fields


# --- the families -------------------------------------------------------------------------
FAMILIES = {
    "grid": (_grid_board, _grid_values),
    "carpet": (_carpet_board, _carpet_values),
    "quilt": (_quilt_board, _quilt_values),
}


def board(session: Session) -> Board:
    return FAMILIES[session.variant.family][0](session)


def values(session: Session, note: str = "") -> tuple[list[str], dict[str, str]]:
    """The position's slot values and caption fields, in the board's order."""
    slot_values, fields = FAMILIES[session.variant.family][1](session)
    return slot_values, caption_fields(session, note) | fields


def picture(session: Session, note: str = "") -> Picture:
    """The position drawn: the family's board filled with the session's values."""
    pic = draw(board(session))
    pic.fill(*values(session, note))
    return pic


def position_svg(session: Session, note: str = "") -> bytes:
    """The position as a standalone SVG document (UTF-8), ``note`` beside the status."""
    return (picture(session, note).tostring() + "\n").encode()
