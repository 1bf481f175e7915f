"""The carpet family's games: carpet, carpet-auto (Aisleriot) and carpet-foster (Foster's 1914 Hoyle),
each one declarative entry; their action text, what a person may type, and the rules prose.

The separator is ``>``, as in the grid family's ``7H>b5`` (docs/format.md, "Notation"); ``-`` is
read the same way, since in a shell ``>`` needs quoting (``carpet play g.log b3>F``
would write a file named F).  Input also takes a card for its place: ``7H>F`` (the
click), ``9C>b3`` (a fill with the waste top), ``s>w`` (turn).
"""

from __future__ import annotations

from carpet.core.cards import code, parse_face
from carpet.core.errors import BadAction, IllegalAction
from carpet.core.game import FIRST_ACTION, State, Variant
from carpet.core.numbering import Deal

from .board import (ACTION_COUNT, CELL_NAMES, CELL_TO_FOUNDATION, STOCK_FILL, TURN, WASTE_FILL,
                    WASTE_TO_FOUNDATION, cell_name)
from .rules import CarpetState

_CELL_BY_NAME = {name: c for c, name in enumerate(CELL_NAMES)}


def parse_cell(text: str) -> int:
    cell = _CELL_BY_NAME.get(text.strip().lower())
    if cell is None:
        raise BadAction(f"not a carpet cell: {text!r} (cells are a1..d5: row a-d, column 1-5)")
    return cell


def is_cell(text: str) -> bool:
    return text.strip().lower() in _CELL_BY_NAME


class CarpetVariant(Variant):
    family = "carpet"
    action_count = ACTION_COUNT
    redeals = 0
    words = {"turn": TURN}
    hidden_information = True  # the stock is face down

    def __init__(self, id: str, *, source: str, summary: str, rules, foster: bool = False,
                 auto_fill: bool = False) -> None:
        super().__init__(id, source=source, summary=summary, rules=rules)
        self.foster = foster
        self.auto_fill = auto_fill
        #: the player fills gaps from the waste (carpet; foster in phase 2)
        self.player_fills = not auto_fill
        #: the player fills gaps from the stock when the waste is empty (carpet only)
        self.stock_fills = not auto_fill and not foster

    def new_state(self, deal: Deal) -> CarpetState:
        return CarpetState(self, deal)

    def valid_index(self, action: int) -> bool:
        if action < FIRST_ACTION or action >= ACTION_COUNT:
            return False
        if action >= STOCK_FILL:
            return self.stock_fills
        if action >= WASTE_FILL:
            return self.player_fills
        return True

    def action_text(self, action: int) -> str:
        if not self.valid_index(action):
            raise BadAction(f"not a {self.id} action: {action}")
        if action < WASTE_TO_FOUNDATION:
            return f"{CELL_NAMES[action - CELL_TO_FOUNDATION]}>F"
        if action == WASTE_TO_FOUNDATION:
            return "w>F"
        if action == TURN:
            return "turn"
        if action < STOCK_FILL:
            return f"w>{CELL_NAMES[action - WASTE_FILL]}"
        return f"s>{CELL_NAMES[action - STOCK_FILL]}"

    def parse_canonical(self, text: str) -> int:
        """Canonical text -> action; the shell-friendly ``-`` spelling is read too."""
        return super().parse_canonical(text.replace("-", ">"))

    def _help(self) -> str:
        fills = {(True, True): ", w>b3, s>b3", (True, False): ", w>b3", (False, False): ""}
        return f"a1>F, w>F, turn{fills[(self.player_fills, self.stock_fills)]} or a card such as 7H"

    def parse_move(self, text: str, state: State) -> int:
        assert isinstance(state, CarpetState)
        t = text.strip()
        separator = ">" if ">" in t else "-" if "-" in t else None  # "b3-F" too: no quoting in a shell
        if separator is None:
            if is_cell(t):
                raise BadAction(f"a cell alone is not an action: {t.lower()}>F sends its card to "
                                f"its foundation")
            try:
                card = parse_face(t)
            except BadAction:
                raise BadAction(f"not a {self.id} action: {text!r} (try {self._help()})") from None
            return self._click(card, state)
        source, _, target = (part.strip().lower() for part in t.partition(separator))
        if target == "f":
            if source == "w":
                return WASTE_TO_FOUNDATION
            if source == "s":
                raise IllegalAction("the stock top never goes to a foundation directly: turn it first")
            if is_cell(source):
                return CELL_TO_FOUNDATION + parse_cell(source)
            return self._click(self._card(source, text), state)
        if source == "s" and target == "w":
            return TURN
        # a well-formed move the rules refuse is illegal (exit 1); text that is no move, bad (exit 2)
        card = None if source in ("w", "s") or is_cell(source) else self._card(source, text)
        if target == "w":
            raise IllegalAction("only the stock top goes onto the waste: that is turn (s>w)")
        cell = parse_cell(target)
        if is_cell(source):
            raise IllegalAction("carpet cards never move to another cell, only to their foundation")
        if not self.player_fills:
            raise IllegalAction(f"{self.id} fills its gaps by itself: there is no fill action")
        if source == "w":
            return WASTE_FILL + cell
        if source == "s":
            if not self.stock_fills:
                raise IllegalAction(f"{self.id} never fills a gap from the stock by hand; "
                                    f"only the waste top fills a gap (w>{cell_name(cell)})")
            return STOCK_FILL + cell
        if not state.waste or state.waste[-1] != card:
            raise IllegalAction(f"{code(card)} is not the waste top: only the waste top fills a gap by hand")
        return WASTE_FILL + cell

    def _card(self, source: str, text: str) -> int:
        try:
            return parse_face(source)
        except BadAction:
            raise BadAction(f"not a {self.id} action: {text!r} (try {self._help()})") from None

    def _click(self, card: int, state: CarpetState) -> int:
        """A card alone: it goes to its foundation from wherever it is available."""
        if card in state.cells:
            return CELL_TO_FOUNDATION + state.cells.index(card)
        waste = state.waste
        if waste and waste[-1] == card:
            return WASTE_TO_FOUNDATION
        name = code(card)
        if card % 13 < state.found[card // 13]:
            raise IllegalAction(f"{name} is already on its foundation")
        if card in waste:
            under = len(waste) - 1 - waste.index(card)
            raise IllegalAction(f"{name} is in the waste under {under} card{'s' if under > 1 else ''};"
                                f" only the waste top can be played")
        raise IllegalAction(f"{name} is still in the stock")


_CARPET_DEAL = """\
Cards: one 52-card deck. Deal numbers are PySol's: the same number shows the same cards as
PySolFC's "Carpet" (#ms1 for 1).

Deal: the four aces are taken out of the shuffled deck and start the four foundations
(clubs, spades, hearts, diamonds). The carpet, 4 rows (a-d) x 5 columns (1-5), is dealt
row by row from the remaining cards in order; the other 28 cards are the stock, face down,
its top the next card. The waste starts empty (PySolFC turns the first stock card at once;
here it stays on the stock).
"""

_FOSTER_DEAL = """\
Cards: one 52-card deck. Deal numbers are PySol's: the deck is shuffled exactly as for
carpet (decision: the same number shuffles the same deck).

Deal: the aces stay in the deck. The carpet, 4 rows (a-d) x 5 columns (1-5), is dealt row
by row from the whole shuffled deck; the other 32 cards are the stock, its top the next
card. Then, cell by cell in row-major order (decision), an ace in the carpet goes up to
start its foundation and its cell is refilled from the stock top; if that card is an ace
too, it goes up as well and the cell takes the next one, and so on. A foundation exists
only once its ace is out (the others show empty).
"""

_FOUNDATIONS = """\
Foundations build up in suit from the ace to the king. Every carpet card is available;
cards never go onto carpet cards and carpet cards never move to another cell, only to their
foundation. Only the waste's top card can be played. The stock is gone through once: the
waste is never turned over, and there are no redeals.
"""

_CARPET_PLAY = """\
Actions:
  b3>F   a carpet card to its foundation
  w>F    the waste top to its foundation
  turn   the stock's top card onto the waste: always onto the waste, even when it would fit
         a foundation (playing it is a second action)
  w>b3   fill a gap with the waste top
  s>b3   fill a gap with the stock top, only when the waste is empty
A gap may stay open as long as the player likes, and the stock may be turned with gaps
open. A card alone, e.g. 7H, sends that card to its foundation from the carpet or the top
of the waste.
"""

_AUTO_PLAY = """\
Actions:
  b3>F   a carpet card to its foundation
  w>F    the waste top to its foundation
  turn   the stock's top card onto the waste: always onto the waste, even when it would fit
         a foundation (playing it is a second action)
The player never fills a gap: the moment a carpet card goes to its foundation, its cell is
filled with the waste top, or with the stock top when the waste is empty, or stays empty
when both are empty (then no card is ever left to fill it). The card that fills a gap just
lies there, even when it fits a foundation (decision): playing it is the player's action.
A card alone, e.g. 7H, sends that card to its foundation from the carpet or the waste top.
"""

_FOSTER_PLAY = """\
Phase 1. The player's only action is a carpet card to its foundation (b3>F). Every hole is
refilled at once from the stock top; an ace that comes up that way goes to its foundation
and the next stock card fills the hole. When the stock runs out, holes stay empty.

Phase 2 starts by itself, and lasts to the end, as soon as no carpet card can be played
(checked after the deal and after every action). Holes are no longer refilled by
themselves (a carpet card played leaves its hole empty). The extra pile is the waste.
Actions:
  b3>F   a carpet card to its foundation
  w>F    the pile's top to its foundation
  turn   the stock's top card onto the pile; an ace goes straight to its foundation, any
         other card onto the pile, even when it would fit a foundation (playing it is a
         second action)
  w>b3   fill a hole with the pile's top card, whenever the player likes (never from the
         stock)
A card alone, e.g. 7H, sends that card to its foundation from the carpet or the top of the
pile.
"""

_NOTATION = ("Notation: cells a1..d5 (row a-d, column 1-5); F is the card's own foundation; w the "
             "waste top{stock}. Input also accepts lower case, 10 for T and suit symbols (10♦, t♦); "
             "a card may stand for its place: 7H>F is the same as 7H alone{fill}; s>w means turn. "
             "The canonical separator is > (as in the grid games' 7H>b5); - is read the same way, "
             "so b3-F needs no quoting in a shell, where > would write to a file.")
_WON_LOST = "Won: all 52 cards on the foundations. Lost: no legal action left (undo still works)."
_LOST_FILLS = (" While a gap is open and the waste holds a card, a fill is legal, so the game is not "
               "lost yet even when no card can reach a foundation (decision: \"no legal action\" taken "
               "as it stands; a fill may uncover a waste card that fits).")
_COUNTED = ("Counted moves: every action ({counted}) counts one; hints and undos are free, and an "
            "undo restores everything as it was before the action it takes back - position, score "
            "and counter - except the clock. After a win only restart (and hint) is accepted: the "
            "win and its score are final (decision, as in every family). Restart plays the same "
            "deal again from the start.")
_HINT = ("Hint: names one legal action and changes nothing else: the first action of a winning "
         "line when the solver (carpet solve) finds one within the hint's budget, else the action "
         "its search found most promising that does not bring back a position already reached in "
         "this attempt. That is hint --peek, which knows the order of the stock (full information); "
         "by default the hint sees only what the player has seen (What a hint may look at, at the "
         "top of docs/rules.md). With the game over it says so. The built-in player "
         "of carpet autoplay is simpler: a card to its foundation (the first cell row-major, then "
         "the waste top){more}.")


def _paragraphs(*texts: str) -> str:
    import textwrap  # only when the rules are asked for

    return "\n\n".join(textwrap.fill(text, 90) for text in texts) + "\n"


def _carpet_rules(kind: str) -> str:
    deal = _FOSTER_DEAL if kind == "foster" else _CARPET_DEAL
    play = {"carpet": _CARPET_PLAY, "auto": _AUTO_PLAY, "foster": _FOSTER_PLAY}[kind]
    if kind == "foster":
        score = ("Score: every card on the foundations counts one, the aces included (max 52; the "
                 "aces that go up during the deal count from the start, decision).")
    else:
        score = "Score: 1 for every card put on a foundation; the four aces of the deal do not count (max 48)."
    more = {
        "carpet": (", else the waste top into the first gap, else turn the stock. A stock fill is "
                   "never needed: turning comes first, and with the stock empty there is nothing "
                   "to fill from"),
        "auto": ", else turn the stock",
        "foster": "; in phase 2 else the pile's top into the first hole, else turn the stock",
    }[kind]
    end = _paragraphs(
        _NOTATION.format(stock="; s the stock top" if kind == "carpet" else "",
                         fill="" if kind == "auto" else ", and 9C>b3 fills b3 with the 9C on top of the "
                                                        "waste"),
        _WON_LOST + ("" if kind == "auto" else _LOST_FILLS),
        score,
        _COUNTED.format(counted="card to a foundation, turn" + ("" if kind == "auto" else ", fill")),
        _HINT.format(more=more),
    )
    return "\n".join((deal, _FOUNDATIONS, play, end))


VARIANTS = (
    CarpetVariant("carpet", source="000",
                  summary="4x5 carpet, aces on foundations, gaps filled by the player from waste "
                          "(stock if waste empty)",
                  rules=lambda v: _carpet_rules("carpet")),
    CarpetVariant("carpet-auto", source="002", auto_fill=True,
                  summary="as carpet, but a gap is filled at once, automatically (Aisleriot)",
                  rules=lambda v: _carpet_rules("auto")),
    CarpetVariant("carpet-foster", source="000 variant", foster=True,
                  summary="aces stay in the deck; holes filled from the stock until stuck, "
                          "then only from an extra pile",
                  rules=lambda v: _carpet_rules("foster")),
)
