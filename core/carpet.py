"""Carpet: the carpet family (Carpet, Aisleriot's Carpet, Foster's 1914 Carpet).

Rules as in docs/rules.md, "Carpet family".  The carpet is 4 rows (a-d) × 5 columns
(1-5); cells are numbered row-major, ``row * 5 + column - 1``.  Foundations are
kept as a count per suit (PySol order ♣ ♠ ♥ ♦), so the card a foundation needs
next is ``suit * 13 + count``.  The stock never gets cards back: it is the
dealt tuple (top first) and the number of cards already drawn from it.  The
waste is a list, bottom first.

Actions (numbered from FIRST_ACTION, the same in every position)::

    a1>F .. d5>F   a carpet card to its foundation        CELL_TO_FOUNDATION + cell
    w>F            the waste top to its foundation         WASTE_TO_FOUNDATION
    turn           the stock top onto the waste            TURN
    w>a1 .. w>d5   fill a gap with the waste top           WASTE_FILL + cell
    s>a1 .. s>d5   fill a gap with the stock top           STOCK_FILL + cell

``carpet-auto`` has no fill actions and ``carpet-foster`` no stock fills: those
indexes are holes in their index spaces (``valid_index``).

The separator is ``>``, as in the grid family's ``7H>b5`` (docs/format.md, "Notation"); ``-`` is
read the same way, since in a shell ``>`` needs quoting (``carpet play g.log b3>F``
would write a file named F).  Input also takes a card for its place: ``7H>F`` (the
click), ``9C>b3`` (a fill with the waste top), ``s>w`` (turn).
"""

from __future__ import annotations


from .cards import ACE, SUITS, code, parse_face
from .errors import BadAction, IllegalAction
from .game import FIRST_ACTION, LOST, PLAYING, WON, State, Variant
from .numbering import Deal, dealing_order

ROWS, COLS = 4, 5
CELLS = ROWS * COLS
EMPTY = -1
ROW_NAMES = "abcd"
SUIT_NAMES = ("clubs", "spades", "hearts", "diamonds")

CELL_TO_FOUNDATION = FIRST_ACTION  # + cell
WASTE_TO_FOUNDATION = CELL_TO_FOUNDATION + CELLS
TURN = WASTE_TO_FOUNDATION + 1
WASTE_FILL = TURN + 1  # + cell
STOCK_FILL = WASTE_FILL + CELLS  # + cell
ACTION_COUNT = STOCK_FILL + CELLS


def cell_name(cell: int) -> str:
    return f"{ROW_NAMES[cell // COLS]}{cell % COLS + 1}"


CELL_NAMES = tuple(cell_name(c) for c in range(CELLS))
_PLUS_ONE = tuple(range(1, 53)) + (0,)  # card id + 1; EMPTY (-1) -> 0, for position_bytes
_CELL_BY_NAME = {name: c for c, name in enumerate(CELL_NAMES)}


def parse_cell(text: str) -> int:
    cell = _CELL_BY_NAME.get(text.strip().lower())
    if cell is None:
        raise BadAction(f"not a carpet cell: {text!r} (cells are a1..d5: row a-d, column 1-5)")
    return cell


def is_cell(text: str) -> bool:
    return text.strip().lower() in _CELL_BY_NAME


class CarpetState(State):
    __slots__ = ("cells", "found", "stock", "drawn", "waste", "phase")

    variant: "CarpetVariant"

    def __init__(self, variant: "CarpetVariant", deal: Deal) -> None:
        order, _rng = dealing_order(deal, 52)  # no draw after the deal: the generator is not kept
        self.variant = variant
        self.status = PLAYING
        self.redeals_used = 0
        self.waste: list[int] = []
        self.drawn = 0
        self.score = 0
        #: 1 while holes refill from the stock by themselves (carpet-foster), else 2
        self.phase = 2
        if variant.foster:
            self.found = [0, 0, 0, 0]
            self.cells = order[:CELLS]
            self.stock: tuple[int, ...] = tuple(order[CELLS:])
            self.phase = 1
            for cell in range(CELLS):  # aces dealt to the carpet, row by row (decision)
                card = self.cells[cell]
                if card % 13 == ACE:
                    self.cells[cell] = EMPTY
                    self._ace_out(card)
                    self._refill_from_stock(cell)
        else:
            rest = [card for card in order if card % 13 != ACE]
            self.found = [1, 1, 1, 1]
            self.cells = rest[:CELLS]
            self.stock = tuple(rest[CELLS:])
        self._settle()

    # --- rules ----------------------------------------------------------------------
    def fits(self, card: int) -> bool:
        """Whether ``card`` goes on its foundation now (aces are never played by hand)."""
        count = self.found[card // 13]
        return count > 0 and card % 13 == count

    def _needed(self) -> list[int]:
        """The card each started, unfinished foundation takes next."""
        return [s * 13 + f for s, f in enumerate(self.found) if 0 < f < 13]

    def playable_cells(self) -> list[int]:
        """Carpet cells whose card fits its foundation, row-major."""
        cells = self.cells
        return sorted(cells.index(card) for card in self._needed() if card in cells)

    def _carpet_can_play(self) -> bool:
        cells = self.cells
        for s, f in enumerate(self.found):
            if 0 < f < 13 and s * 13 + f in cells:
                return True
        return False

    @property
    def stock_left(self) -> int:
        return len(self.stock) - self.drawn

    def legal_actions(self) -> list[int]:
        if self.status == WON:
            return []
        actions = [CELL_TO_FOUNDATION + cell for cell in self.playable_cells()]
        if self.phase == 1:
            return actions
        waste = self.waste
        if waste and self.fits(waste[-1]):
            actions.append(WASTE_TO_FOUNDATION)
        if self.drawn < len(self.stock):
            actions.append(TURN)
        variant = self.variant
        if variant.player_fills and EMPTY in self.cells:
            gaps = [cell for cell, card in enumerate(self.cells) if card == EMPTY]
            if waste:
                actions.extend(WASTE_FILL + gap for gap in gaps)
            elif variant.stock_fills and self.drawn < len(self.stock):
                actions.extend(STOCK_FILL + gap for gap in gaps)
        return actions

    def _has_action(self) -> bool:
        if self.drawn < len(self.stock) and self.phase == 2:
            return True  # turn (and in carpet a stock fill may be legal too)
        waste = self.waste
        if waste:
            if self.fits(waste[-1]):
                return True
            if self.variant.player_fills and EMPTY in self.cells:
                return True
        return self._carpet_can_play()

    def update_status(self) -> None:
        if sum(self.found) == 52:
            self.status = WON
        elif self._has_action():
            self.status = PLAYING
        else:
            self.status = LOST

    def update_won(self) -> None:
        self.status = WON if sum(self.found) == 52 else PLAYING

    def _settle(self) -> None:
        """After the deal and after every action: foster's phase 2 starts by itself; status."""
        if self.phase == 1 and not self._carpet_can_play():
            self.phase = 2
        self.update_status()

    def apply(self, action: int) -> None:
        variant = self.variant
        if action < WASTE_TO_FOUNDATION:
            if action < CELL_TO_FOUNDATION:
                raise IllegalAction(f"not a {variant.id} action: {action}")
            self._cell_to_foundation(action - CELL_TO_FOUNDATION)
        elif self.phase == 1 and action < ACTION_COUNT and variant.valid_index(action):
            raise IllegalAction("phase 1: the only action is a carpet card to its foundation"
                                " (the stock is turned once no carpet card can be played)")
        elif action == WASTE_TO_FOUNDATION:
            self._waste_to_foundation()
        elif action == TURN:
            self._turn()
        elif action < STOCK_FILL:
            if not variant.player_fills:
                raise IllegalAction(f"not a {variant.id} action: {action} (gaps fill by themselves)")
            self._waste_fill(action - WASTE_FILL)
        elif action < ACTION_COUNT and variant.stock_fills:
            self._stock_fill(action - STOCK_FILL)
        else:
            raise IllegalAction(f"not a {variant.id} action: {action}")
        self._settle()

    def _refuse_foundation(self, card: int) -> IllegalAction:
        s = card // 13
        count = self.found[s]
        if count == 0:
            return IllegalAction(f"{code(card)} cannot go up: there is no {SUIT_NAMES[s]} foundation yet")
        return IllegalAction(f"{code(card)} does not fit: the {SUIT_NAMES[s]} foundation needs "
                             f"{code(s * 13 + count)}")

    def _cell_to_foundation(self, cell: int) -> None:
        card = self.cells[cell]
        if card == EMPTY:
            raise IllegalAction(f"{cell_name(cell)} is empty")
        if not self.fits(card):
            raise self._refuse_foundation(card)
        self.found[card // 13] += 1
        self.score += 1
        self.cells[cell] = EMPTY
        if self.variant.auto_fill:
            waste = self.waste
            if waste:
                self.cells[cell] = waste.pop()
            elif self.drawn < len(self.stock):
                self.cells[cell] = self.stock[self.drawn]
                self.drawn += 1
        elif self.phase == 1:
            self._refill_from_stock(cell)

    def _refill_from_stock(self, cell: int) -> None:
        """carpet-foster, phase 1: the stock top fills the hole; aces go up on the way."""
        stock, drawn = self.stock, self.drawn
        while drawn < len(stock):
            card = stock[drawn]
            drawn += 1
            if card % 13 == ACE:
                self._ace_out(card)
            else:
                self.cells[cell] = card
                break
        self.drawn = drawn

    def _ace_out(self, ace: int) -> None:
        self.found[ace // 13] = 1
        self.score += 1

    def _waste_to_foundation(self) -> None:
        waste = self.waste
        if not waste:
            raise IllegalAction("the waste is empty")
        card = waste[-1]
        if not self.fits(card):
            raise self._refuse_foundation(card)
        waste.pop()
        self.found[card // 13] += 1
        self.score += 1

    def _turn(self) -> None:
        if self.drawn >= len(self.stock):
            raise IllegalAction("the stock is empty (it is gone through once)")
        card = self.stock[self.drawn]
        self.drawn += 1
        if card % 13 == ACE:  # only carpet-foster deals its aces into the stock
            self._ace_out(card)
        else:
            self.waste.append(card)

    def _waste_fill(self, cell: int) -> None:
        if self.cells[cell] != EMPTY:
            raise IllegalAction(f"{cell_name(cell)} is not empty")
        if not self.waste:
            raise IllegalAction("the waste is empty" + (", fill from the stock: s>" + cell_name(cell)
                                                         if self.variant.stock_fills and self.stock_left
                                                         else ""))
        self.cells[cell] = self.waste.pop()

    def _stock_fill(self, cell: int) -> None:
        if self.cells[cell] != EMPTY:
            raise IllegalAction(f"{cell_name(cell)} is not empty")
        if self.waste:
            raise IllegalAction(f"the waste is not empty: a gap takes the waste top (w>{cell_name(cell)})")
        if self.drawn >= len(self.stock):
            raise IllegalAction("the stock is empty")
        self.cells[cell] = self.stock[self.drawn]
        self.drawn += 1

    # --- what a solver may use (core/game.py, "What a solver may use") --------------
    #: every win scores the same, so a safe action never costs a win any score
    safe_keeps_score = True

    def search_key(self) -> bytes:
        # No rule looks at a cell's place, and the carpet holds exactly the cards that are
        # neither on the foundations, nor in the stock, nor in the waste: the foundations,
        # the cards drawn, the waste and the phase are the whole position.
        return bytes(self.found) + bytes((self.drawn, self.phase)) + bytes(self.waste)

    def safe_action(self) -> int | None:
        """A card to its foundation, where that can never spoil a win.

        In carpet and carpet-foster nothing is built on a carpet or waste card and a gap
        need never be filled, so a card that goes up leaves every other action open
        (carpet-foster's phase 1 plays also commute: its end is the same whatever order
        they come in).  In carpet-auto a play pulls the waste top into its cell and which
        card to pull is a choice, so no play is safe there while anything can be pulled.
        """
        if self.variant.auto_fill and (self.waste or self.drawn < len(self.stock)):
            return None
        found, cells = self.found, self.cells
        for cell, card in enumerate(cells):
            if card != EMPTY and card % 13 == found[card // 13] and found[card // 13]:
                return CELL_TO_FOUNDATION + cell
        if self.phase == 2 and self.waste and self.fits(self.waste[-1]):
            return WASTE_TO_FOUNDATION
        return None

    def search_actions(self) -> list[int]:
        """The actions worth trying, most promising first.

        Left out: all fills but one (every gap is the same, the key ignores cell places)
        and a fill from the stock (turning and then filling from the waste reaches the
        same position).
        """
        if self.status != PLAYING:
            return []
        actions = [CELL_TO_FOUNDATION + cell for cell in self.playable_cells()]
        if self.phase == 1:
            return actions
        waste = self.waste
        if waste and self.fits(waste[-1]):
            actions.insert(0, WASTE_TO_FOUNDATION)
        turn = [TURN] if self.drawn < len(self.stock) else []
        if self.variant.player_fills and waste and EMPTY in self.cells:
            return actions + [WASTE_FILL + self.cells.index(EMPTY)] + turn
        return actions + turn

    def progress(self) -> int:
        return sum(self.found)

    def win_score_bound(self, moves: int) -> int:
        # every win puts the same cards up: its score is fixed
        return 52 if self.variant.foster else 48

    # --- saving ---------------------------------------------------------------------
    def snapshot(self) -> tuple:
        return (tuple(self.cells), tuple(self.found), self.stock, self.drawn, tuple(self.waste),
                self.phase, self.score, self.status)

    def restore(self, snap: tuple) -> None:
        cells, found, self.stock, self.drawn, waste, self.phase, self.score, self.status = snap
        self.cells = list(cells)
        self.found = list(found)
        self.waste = list(waste)

    def foundation_top(self, suit: int) -> int | None:
        count = self.found[suit]
        return suit * 13 + count - 1 if count else None

    def layout(self) -> dict:
        foundations = {}
        for s, letter in enumerate(SUITS):
            top = self.foundation_top(s)
            foundations[letter] = None if top is None else code(top)
        return {
            "foundations": foundations,
            "carpet": [[None if c == EMPTY else code(c) for c in self.cells[r * COLS:(r + 1) * COLS]]
                       for r in range(ROWS)],
            "stock": [code(c) for c in self.stock[self.drawn:]],
            "waste": [code(c) for c in self.waste],
        }

    def position_bytes(self) -> bytes:
        stock = self.stock[self.drawn:]
        return (bytes(map(_PLUS_ONE.__getitem__, self.cells)) + bytes(self.found)
                + bytes((self.phase, len(stock))) + bytes(stock)
                + bytes((len(self.waste),)) + bytes(self.waste))

    def all_cards(self) -> list[int]:
        cards = [c for c in self.cells if c != EMPTY]
        for s, count in enumerate(self.found):
            cards.extend(range(s * 13, s * 13 + count))
        cards.extend(self.stock[self.drawn:])
        cards.extend(self.waste)
        return cards


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
