"""What every variant provides: a rules object and a position (state).

Shaped after OpenSpiel: a :class:`Variant` is the rules of one game id and makes
states; a :class:`State` answers ``legal_actions()``, ``apply(action)``, its status
and score, and can save and restore itself.  History, undo, hints, restarts,
counted moves and the clock belong to :class:`carpet.core.session.Session`,
written once above all variants.

Actions are small integers, fixed per variant and independent of the position,
so that a log stores one number per action.  0..2 are the session's own
(hint, undo, restart); a variant numbers its actions from ``FIRST_ACTION``.
"""

from __future__ import annotations

try:  # the C module hashlib wraps: a digest without loading OpenSSL (start-up, docs/format.md)
    from _blake2 import blake2b
except ImportError:  # pragma: no cover
    from hashlib import blake2b
from typing import Callable, ClassVar

from .errors import BadAction, IllegalAction
from .numbering import Deal

HINT, UNDO, RESTART = 0, 1, 2
#: what a family's decode or play gives for a log code that names no action in its position
NO_ACTION = -1
FIRST_ACTION = 3
META_WORDS = {"hint": HINT, "undo": UNDO, "restart": RESTART}
META_TEXT = {v: k for k, v in META_WORDS.items()}

PLAYING, WON, LOST = "playing", "won", "lost"


class State:
    """One position of one variant.  Subclasses keep it in flat lists for speed."""

    __slots__ = ("variant", "status", "score", "redeals_used")

    variant: "Variant"
    status: str
    score: int
    redeals_used: int

    # --- what a variant must provide -------------------------------------------------
    def legal_actions(self) -> list[int]:
        """Every legal variant action (never hint/undo/restart), in canonical order."""
        raise NotImplementedError

    def apply(self, action: int) -> None:
        """Play one variant action.  Raises IllegalAction and changes nothing if it is not legal."""
        raise NotImplementedError

    def snapshot(self) -> object:
        """Everything that undo must bring back: position, score, redeals used, generator, status."""
        raise NotImplementedError

    def restore(self, snap: object) -> None:
        raise NotImplementedError

    def update_status(self) -> None:
        """Recompute ``status`` from the position (after a restore changed the redeal count)."""
        raise NotImplementedError

    def update_won(self) -> None:
        """The cheap half of :meth:`update_status`: ``status`` becomes WON or PLAYING, never LOST.

        A replay that needs the full status only at some events (``Session.play_events``) runs
        the variant's ``apply`` with this in place of ``update_status``; legality never
        depends on LOST (a lost position simply has no legal action).  The default is
        the full check.
        """
        self.update_status()

    def layout(self) -> dict:
        """The position as the ``layout`` object of docs/format.md ("Documents the CLI prints"): card
        codes, None for empty."""
        raise NotImplementedError

    def position_bytes(self) -> bytes:
        """A canonical byte form of the position, for digests."""
        raise NotImplementedError

    def all_cards(self) -> list[int]:
        """Every card id in the position, wherever it lies (for the conservation property)."""
        raise NotImplementedError

    # --- what a solver may use ---------------------------------------------------------
    #
    # A family states what it knows about its own game (keys, safe actions, orders of actions,
    # proofs, progress, bounds) in the members of core/knowledge.py's ``Knowledge`` protocol, and
    # how the solver is to search it in its plan (core/plan.py).  Each answer must be *sound*,
    # and every member reads the position only.

        # --- shared ----------------------------------------------------------------------
    @property
    def redeals_left(self) -> int | None:
        total = self.variant.redeals
        return None if total is None else total - self.redeals_used

    def digest(self) -> str:
        return position_digest(self.variant.id, self.position_bytes())


#: byte b -> b + 1 (mod 256): a cell's card id as a signed byte (EMPTY -1 is 255) -> its id + 1,
#: EMPTY 0, as position_bytes writes a cell; the bulk replays translate whole boards by it
PLUS_ONE = bytes(range(1, 256)) + b"\0"


def position_digest(game_id: str, position: bytes) -> str:
    return blake2b(game_id.encode() + b"\0" + position, digest_size=8).hexdigest()


class Variant:
    """The rules of one game id.  Subclass per family; instances per variant."""

    id: str
    family: str
    source: str
    summary: str
    #: size of the action index space, meta actions included
    action_count: int
    #: redeals per attempt: None unlimited, 0 none
    redeals: int | None = 0
    #: words this family adds to hint/undo/restart, e.g. {"redeal": 3}
    words: ClassVar[dict[str, int]] = {}

    # session policy (docs/rules.md: every game's "Counted moves")
    hint_counts: bool = False  # a hint is a counted move
    undo_counts: bool = False  # an undo is a counted move and the counter never goes down
    undo_refunds_redeal: bool = True
    #: whether a solver sees what the player cannot: face-down cards (a stock), or the
    #: outcome of a seeded shuffle to come; ``carpet solve`` reports "full" information then
    hidden_information: bool = False

    def __init__(self, id: str, *, source: str, summary: str, rules: "str | Callable[[Variant], str]") -> None:
        self.id = id
        self.source = source
        self.summary = summary
        self.rules = rules

    @property
    def rules(self) -> str:
        """The rules in our own words, decisions marked, shown by ``carpet rules``.

        A variant may be given a function of itself instead of the text: the text is then
        built the first time it is asked for, not when the game is loaded.
        """
        text = self._rules
        if callable(text):
            text = self._rules = text(self)
        return text

    @rules.setter
    def rules(self, text: "str | Callable[[Variant], str]") -> None:
        self._rules = text

    def new_state(self, deal: Deal) -> State:
        raise NotImplementedError

    def action_text(self, action: int) -> str:
        """The canonical text of a variant action (what ``carpet moves`` prints)."""
        raise NotImplementedError

    def parse_move(self, text: str, state: State) -> int:
        """A canonical move or the family's shorthand (a card alone) -> action.

        Words (``redeal``, ``turn``) are handled by :meth:`parse`; this sees the rest.
        May consult the position to resolve a shorthand; raises BadAction or IllegalAction.
        """
        raise NotImplementedError

    def win_bonus(self, moves: int) -> int:
        """Points added to the score when the game is won after ``moves`` counted moves."""
        return 0

    # --- shared ----------------------------------------------------------------------
    def text(self, action: int) -> str:
        if action in META_TEXT:
            return META_TEXT[action]
        return self.action_text(action)

    def parse(self, text: str, state: State) -> int:
        """Any action text a person may type -> action index."""
        word = text.strip().lower()
        if not word:
            raise BadAction("empty action")
        if word in META_WORDS:
            return META_WORDS[word]
        if word in self.words:
            return self.words[word]
        if word == "redeal":  # a word of every game's interface, even where the rules have none
            raise IllegalAction(f"{self.id} has no redeal")
        if word == "turn":  # likewise
            raise IllegalAction(f"{self.id} has no stock: there is nothing to turn")
        return self.parse_move(text.strip(), state)

    def parse_canonical(self, text: str) -> int:
        """Canonical text -> action, without a position (for logs in JSON)."""
        word = text.strip()
        if word in META_WORDS:
            return META_WORDS[word]
        if word in self.words:
            return self.words[word]
        action = self._canonical_index().get(word)
        if action is None:
            raise BadAction(f"not a {self.id} action: {text!r}")
        return action

    def _canonical_index(self) -> dict[str, int]:
        index = self.__dict__.get("_index")
        if index is None:
            index = {self.action_text(a): a for a in range(FIRST_ACTION, self.action_count)
                     if self.valid_index(a)}
            self.__dict__["_index"] = index
        return index

    def valid_index(self, action: int) -> bool:
        """Whether an action index names an action at all (some index spaces have holes)."""
        return FIRST_ACTION <= action < self.action_count

    def __repr__(self) -> str:
        return f"<Variant {self.id}>"


def illegal(reason: str) -> IllegalAction:
    return IllegalAction(reason)
