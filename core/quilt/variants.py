"""The quilt family's games (Crazy Quilt, Indian Carpet, Persian Carpet) as entries of one variant
class, with their action text, the parsing of what a person types, and their rules in prose
(docs/rules.md, "Quilt family").  The rules themselves: core/quilt/rules.py.
"""

from __future__ import annotations

from carpet.core.cards import CODES, parse_face
from carpet.core.errors import BadAction, IllegalAction
from carpet.core.game import State, Variant
from carpet.core.numbering import Deal

from .board import (ACTION_COUNT, CELL_TO_FOUNDATION, CELL_TO_RESERVE, CELL_TO_WASTE, CELLS, COLS, DOWN,
                    FIRST_RESERVE, REDEAL, REDEAL_KIND, RESERVE_TO_FOUNDATION, RESERVE_TO_RESERVE, ROW_NAMES,
                    SOURCES, TARGETS, TO_RESERVE, TO_WASTE, TURN, TURN_KIND, UP, WASTE, WASTE_TO_FOUNDATION,
                    move_action, source_name, split, target_name)
from .rules import EMPTY, QuiltState


def parse_cell(text: str) -> int:
    t = text.strip().lower()
    if len(t) == 2 and t[0] in ROW_NAMES and t[1] in "12345678":
        return ROW_NAMES.index(t[0]) * COLS + int(t[1]) - 1
    raise BadAction(f"not a quilt cell: {text!r} (cells are a1..h8: row a-h, column 1-8)")



_SUIT_LETTER = {"C": 0, "S": 1, "H": 2, "D": 3, "♣": 0, "♠": 1, "♥": 2, "♦": 3,
                "♧": 0, "♤": 1, "♡": 2, "♢": 3}
_DIRECTION = {"+": UP, "U": UP, "-": DOWN, "D": DOWN}
ANY_FOUNDATION = -1  # the target "F": whichever foundation takes the card


def _parse_reserve(t: str) -> int | None:
    if len(t) == 2 and t[0] == "R" and t[1] in "12345678":
        return int(t[1]) - 1
    return None


def parse_source(text: str) -> int | None:
    """``a1``..``h8``, ``w``, ``r1``..``r8`` -> source place; None when the text is no place."""
    t = text.strip().upper()
    if t == "W":
        return WASTE
    reserve = _parse_reserve(t)
    if reserve is not None:
        return FIRST_RESERVE + reserve
    if len(t) == 2 and t[0].lower() in ROW_NAMES and t[1] in "12345678":
        return parse_cell(t)
    return None


def parse_target(text: str) -> tuple[int | None, int | None]:
    """Target text -> (target, None), or (None, UP/DOWN/ANY_FOUNDATION) when the card decides.

    ``UH``/``+H``/``U♥`` up pile of hearts, ``DH``/``-H`` down pile, ``U``/``D``/``+``/``-``
    the up/down pile of the moving card's suit, ``F`` whichever foundation takes it, ``w``
    the waste, ``r1``..``r8`` a reserve.
    """
    t = text.strip().upper()
    if t == "F":
        return None, ANY_FOUNDATION
    if t == "W":
        return TO_WASTE, None
    reserve = _parse_reserve(t)
    if reserve is not None:
        return TO_RESERVE + reserve, None
    if t in ("UP", "DOWN"):
        t = t[0]
    if t and t[0] in _DIRECTION:
        direction = _DIRECTION[t[0]]
        rest = t[1:]
        if not rest:
            return None, direction
        if rest in _SUIT_LETTER:
            return direction + _SUIT_LETTER[rest], None
    raise BadAction(f"not a target: {text!r} (targets are UC US UH UD up piles, DC DS DH DD "
                    "down piles, F either, w the waste, r1..r8 the reserves)")


class AmbiguousAction(IllegalAction):
    """A shorthand that names more than one legal action here."""


#: has reserves -> the kinds of actions (QuiltVariant.kinds), made when first asked for
_KINDS: dict[bool, list[int]] = {}


class QuiltVariant(Variant):
    family = "quilt"
    action_count = ACTION_COUNT

    def __init__(self, id: str, *, source: str, summary: str, redeals: int, has_reserves: bool) -> None:
        super().__init__(id, source=source, summary=summary, rules=_quilt_rules)
        self.redeals = redeals
        self.has_reserves = has_reserves
        self.hidden_information = not has_reserves  # the stock is face down; reserves are face up
        self.words = {} if has_reserves else {"turn": TURN, "redeal": REDEAL}

    def __getattr__(self, name: str):
        """``kinds`` (action -> its kind, 0 for none), made when a game first asks for it and then kept as a
        plain attribute, where the transitions read it: a command pays for the games it plays alone (the
        games with reserves share one table, those without the other)."""
        if name != "kinds":
            raise AttributeError(name)
        kinds = _KINDS.get(self.has_reserves)
        if kinds is None:
            kinds = _KINDS[self.has_reserves] = self._kinds()
        self.kinds = kinds
        return kinds

    def _kinds(self) -> list[int]:
        kinds = [0] * ACTION_COUNT
        for source in range(SOURCES):
            for target in range(TARGETS):
                kinds[move_action(source, target)] = _kind(source, target, self.has_reserves)
        if not self.has_reserves:
            kinds[TURN] = TURN_KIND
            kinds[REDEAL] = REDEAL_KIND
        return kinds

    def valid_index(self, action: int) -> bool:
        return 0 <= action < ACTION_COUNT and self.kinds[action] != 0

    def new_state(self, deal: Deal) -> QuiltState:
        return QuiltState(self, deal)

    def action_text(self, action: int) -> str:
        if not self.valid_index(action):
            raise BadAction(f"not a {self.id} action: {action}")
        if action == TURN:
            return "turn"
        if action == REDEAL:
            return "redeal"
        source, target = split(action)
        return f"{source_name(source)}>{target_name(target)}"

    def parse_canonical(self, text: str) -> int:
        """Canonical text -> action; the shell-friendly ``c4-UH`` is read as ``c4>UH``."""
        t = text.strip()
        if ">" not in t and "-" in t:
            t = t.replace("-", ">", 1)
        return super().parse_canonical(t)

    def parse_move(self, text: str, state: State) -> int:
        """``c4>UH`` (canonical; ``c4-UH`` too), ``c4>U``/``c4>D`` (the card's own suit), ``c4>F``
        (whichever foundation takes it), ``7H>UH``/``7H>w`` (a card shown at one place),
        ``c4``/``w``/``r3`` (the one move from that place), ``7H`` (the one move of that card,
        to a foundation if it has one).  Foundation moves first; two or more: an error."""
        assert isinstance(state, QuiltState)
        t = text.strip()
        separator = ">" if ">" in t else "-" if "-" in t else None
        if separator is not None:
            left, _, right = t.partition(separator)
            target, direction = parse_target(right)
            source = parse_source(left)
            if source is not None:
                self._check_source(source)
                if target is not None:
                    return self._checked(move_action(source, target))
                if direction == ANY_FOUNDATION:
                    return self._resolve(state, t, lambda s, t_: s == source and t_ < 8,
                                         f"no foundation takes the card at {source_name(source)} now")
                card = state.top(source)
                if card == EMPTY:
                    raise IllegalAction(f"{source_name(source)} is empty")
                return self._checked(move_action(source, direction + card % 52 // 13))
            face = _parse_card(left)

            def wanted(s: int, t_: int) -> bool:
                if state.top(s) % 52 != face:
                    return False
                if target is not None:
                    return t_ == target
                return t_ < 8 if direction == ANY_FOUNDATION else t_ == direction + face // 13
            return self._resolve(state, t, wanted, f"no {CODES[face]} can go to {right.strip()} now")
        source = parse_source(t)
        if source is not None:
            self._check_source(source)
            return self._resolve(state, t, lambda s, t_: s == source,
                                 f"nothing can move from {source_name(source)} now")
        face = _parse_card(t)
        return self._resolve(state, t, lambda s, t_: state.top(s) % 52 == face,
                             f"no {CODES[face]} can move now")

    # a move between places of the family that this game lacks or never joins is illegal (exit 1)
    def _check_source(self, source: int) -> None:
        if source == WASTE and self.has_reserves:
            raise IllegalAction(f"{self.id} has no waste")
        if source >= FIRST_RESERVE and not self.has_reserves:
            raise IllegalAction(f"{self.id} has no reserves")

    def _checked(self, action: int) -> int:
        if not self.valid_index(action):
            source, target = split(action)
            if target == TO_WASTE:
                why = "has no waste" if self.has_reserves else "takes only quilt cards onto the waste"
            elif target >= TO_RESERVE:
                why = "has no reserves" if not self.has_reserves else "moves a reserve's card only onto another reserve"
            else:
                why = "has no such move"
            raise IllegalAction(f"{self.id} {why}: {source_name(source)}>{target_name(target)}")
        return action

    def _resolve(self, state: "QuiltState", text: str, wanted, none_reason: str) -> int:
        """The one legal move ``wanted(source, target)`` picks, foundation moves first."""
        moves = [a for a in state.legal_actions() if a < TURN and wanted(*split(a))]
        to_foundation = [a for a in moves if split(a)[1] < 8]
        for group in (to_foundation, moves):
            if len(group) == 1:
                return group[0]
            if len(group) > 1:
                options = ", ".join(self.action_text(a) for a in group)
                raise AmbiguousAction(f"{text} is ambiguous here: {options}; type the move in full")
        raise IllegalAction(none_reason)


def _parse_card(text: str) -> int:
    try:
        return parse_face(text)
    except BadAction:
        raise BadAction(f"not a quilt action: {text!r} (moves look like c4>UH, w>DS, c4>w, "
                        "r3>r5, or a card alone like 7H)") from None


def _kind(source: int, target: int, has_reserves: bool) -> int:
    if source < CELLS:
        if target < 8:
            return CELL_TO_FOUNDATION
        if target == TO_WASTE:
            return 0 if has_reserves else CELL_TO_WASTE
        return CELL_TO_RESERVE if has_reserves else 0
    if source == WASTE:
        return WASTE_TO_FOUNDATION if target < 8 and not has_reserves else 0
    if not has_reserves:
        return 0
    if target < 8:
        return RESERVE_TO_FOUNDATION
    if target >= TO_RESERVE and target - TO_RESERVE != source - FIRST_RESERVE:
        return RESERVE_TO_RESERVE
    return 0


# --- the rules, in our own words -------------------------------------------------------------

def _wrap(paragraphs: list[str]) -> str:
    """Paragraphs (a leading "- " makes a list item) wrapped to 90 columns."""
    import textwrap  # only when the rules are asked for

    out = []
    for text in paragraphs:
        if text.startswith("- "):
            out.append(textwrap.fill(text, 90, subsequent_indent="  "))
        else:
            if out:
                out.append("")
            out.append(textwrap.fill(text, 90))
    return "\n".join(out) + "\n"


def _quilt_rules(variant: QuiltVariant) -> str:
    """The rules of a quilt game in prose (docs/rules.md): the deal, the quilt, the moves, the end."""
    return _wrap(_quilt_deal(variant.has_reserves) + _quilt_moves(variant) + _quilt_end(variant.has_reserves))


def _quilt_deal(reserves: bool) -> list[str]:
    """The paragraphs on the cards, the foundations, the deal and the quilt."""
    return [
        "Two full decks, 104 cards.",
        "Foundations: eight piles. The ace and the king of each suit from the first deck (card ids "
        "below 52; decision) are the bases: four up piles that start with an ace and are built up in "
        "suit to the king, and four down piles that start with a king and are built down in suit to "
        "the ace (clubs, spades, hearts, diamonds). Of the two copies of every other card, one ends "
        "on the up pile of its suit and the other on the down pile.",
        "Deal (our own; decision): the 104 cards in PySol id order are shuffled with the PySol "
        "generator of the deal number (no Microsoft reorder for 104 cards). Dealing from the top, "
        "the eight bases are taken out wherever they fall; the next 64 cards form the quilt, 8 rows "
        "(a-h) of 8 columns (1-8), dealt row by row from a1 to h8; "
        + ("the other 32 cards are dealt face up to eight reserves r1..r8, one card to each in turn, "
           "four rounds (the rules of Goodsol's \"Persian Rug\"; decision); the last card dealt to a "
           "reserve is its top. There is no stock and no waste."
           if reserves else
           "the other 32 cards are the stock, face down; its top is the next card dealt. The waste "
           "starts empty."),
        "The quilt: a card lies vertically when its row and column, counted from 0, add up to an "
        "even number (a1 is vertical, a2 and b1 horizontal: a chessboard), horizontally otherwise. "
        "A quilt card is available when one of its short sides touches no card: for a vertical card "
        "the cell above or the cell below is empty or beyond the edge; for a horizontal card the "
        "cell to its left or to its right. At the start 16 cards are available (the vertical ones "
        "of rows a and h, the horizontal ones of columns 1 and 8). A cell once emptied stays empty.",
    ]


def _quilt_moves(variant: QuiltVariant) -> list[str]:
    """The paragraphs on the moves of the game (with reserves, or with a stock and its redeals)."""
    text = ["Moves:"]
    if variant.has_reserves:
        text += [
            "- an available quilt card or a reserve's top card goes to a foundation that takes it;",
            "- an available quilt card or a reserve's top card goes onto another reserve's top card "
            "of the same suit and one rank higher or lower (an ace and a king are not neighbours);",
            "- an empty reserve takes any one available quilt card or reserve top card, except a "
            "reserve's only card: moving a lone card from one reserve to another changes nothing "
            "but its number, so it is refused, and a stuck game ends as lost instead of going round "
            "forever (decision).",
            "There is no redeal.",
        ]
    else:
        times = "once per attempt" if variant.redeals == 1 else f"{variant.redeals} times per attempt"
        text += [
            "- an available quilt card or the waste's top card goes to a foundation that takes it;",
            "- an available quilt card goes onto the waste's top card of the same suit and one rank "
            "higher or lower (an ace and a king are not neighbours); an empty waste takes nothing "
            "(decision);",
            "- turn: the stock's top card goes face up onto the waste;",
            f"- redeal ({times}): when the stock is empty and the waste is not, the waste is turned "
            "over as it lies, unshuffled, to be the stock again, so the card first dealt to the "
            "waste is the first dealt again. The quilt cards played onto the waste come back with it.",
        ]
    return text


def _quilt_end(reserves: bool) -> list[str]:
    """The paragraphs on the notation, the end of the game, the counters, the hint and restart."""
    return [
        "A card that fits both the up and the down pile of its suit may go to either: two moves. "
        "Nothing ever leaves a foundation.",
        "Notation: SOURCE>TARGET. Sources: a1..h8 (an available quilt card), "
        + ("r1..r8 (a reserve's top card). " if reserves else "w (the waste's top card). ")
        + "Targets: UC US UH UD (the up piles), DC DS DH DD (the down piles), "
        + ("r1..r8 (onto a reserve). For example c4>UH, r2>DS, c4>r3, r3>r5."
           if reserves else
           "w (onto the waste). For example c4>UH, w>DS, c4>w; and the words turn and redeal.")
        + " A dash is read as > (c4-UH needs no quoting in a shell). Input may be in lower case "
        "and use suit symbols; +H and -H mean UH and DH; c4>U and c4>D take the card's own suit, "
        "c4>F whichever foundation takes the card. Shorthands (decision): a card alone (7H) or a "
        f"place alone (c4, {'r3' if reserves else 'w'}) is the one legal move of that card or from "
        "that place, a move to a foundation first; CARD>TARGET (7H>UH) is the one legal move of a "
        "card with that code to that target. When two or more moves qualify, nothing is played and "
        "the error lists them.",
        "Won: all 104 cards on the foundations. Lost: no legal action left; undo still works. "
        "Score: the cards on the foundations beyond the eight bases (0 to 96).",
        "Counted moves: every move" + ("" if reserves else ", every turn and every redeal")
        + " counts one. Hints and undos are free; an undo takes back the last counted action and "
        "restores everything as it was before it, the counter included"
        + ("" if reserves else ", and gives the redeal back if it was one")
        + "; it never winds back the clock. After a win only restart (and hint) is accepted.",
        "Hint: names one legal action and changes nothing else: the first action of a winning line "
        "when the solver (carpet solve) finds one within the hint's budget, else the action its "
        "search found most promising that does not bring back a position already reached in this "
        "attempt" + ("" if reserves else "; a redeal may be named while card moves exist. That is "
                     "hint --peek, which knows the order of the stock (full information); by default "
                     "the hint sees only what the player has seen (What a hint may look at, at the top "
                     "of docs/rules.md)") + ". With the game over it says so.",
        "Restart plays the same deal again from the start: layout, score, counters"
        + ("" if reserves else ", redeals") + " and clock.",
    ]


VARIANTS = (
    QuiltVariant("crazy-quilt", source="003", redeals=1, has_reserves=False,
                 summary="2 decks, 8x8 quilt, 4 ace-up + 4 king-down foundations, 1 unshuffled redeal"),
    QuiltVariant("indian-carpet", source="003", redeals=2, has_reserves=False,
                 summary="as crazy-quilt with 2 redeals"),
    QuiltVariant("persian-carpet", source="003", redeals=0, has_reserves=True,
                 summary="as crazy-quilt, but the 32 other cards go face up to 8 reserves; no stock"),
)
