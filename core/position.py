"""Positions as text: one line, like chess's FEN (docs/format.md, "Positions as text").

The first field is the game id; the rest is the family's (the module its record in
core/families.py names: ``grid/position.py``, ``carpet/position.py``, ``quilt/position.py``
read and print them).  What all families share
lives here: splitting a line into fields, reading a run of cards as people type them,
counting the cards of a position (each once, or twice in the two-deck games), the
generator a position names or, where it names none, the one seeded by the position text
itself (docs/rules.md, its opening), and the two objects the rest of the program uses:

- :class:`Position`: a text read and checked.  Its ``state()`` is the game state; a text whose
  stock holds ``??`` (a face-down card the player has not seen) is read all the same, but
  only ``with_order(cards)`` makes a state of it, the unseen cards in an order the caller
  chooses (what a hint that sees only what the player sees samples).
- :class:`Start`: what a game started from a position has in place of a deal number (the
  session's ``deal``): its ``text`` is the position, ``new_state`` deals it again.
"""

from __future__ import annotations

from typing import Callable, Iterable

from .cards import CODES, RANKS, SUITS
from .errors import CarpetError
from .game import WON, State, Variant

EMPTY = -1  #: ``..``: an empty place
UNSEEN = -2  #: ``??``: a face-down card the player has not seen
NONE = "-"  #: an empty pile, stock or waste, written alone (``s:-``)
NUMBERING = "position"  #: a log header's numbering for a game started from a position (docs/format.md)

_SUIT_OF = {letter: s for s, letter in enumerate(SUITS)} | {
    "♣": 0, "♠": 1, "♥": 2, "♦": 3, "♧": 0, "♤": 1, "♡": 2, "♢": 3}
_COUNT_WORDS = {2: "twice", 3: "three times", 4: "four times"}
_TOO_LONG = 4000  # characters: no position of any game is near this long


class BadPosition(CarpetError):
    """Text that is not a position of its game (exit 2): one line saying what is wrong."""


class Position:
    """A position read from text and checked: the game, the canonical text, the unseen cards."""

    __slots__ = ("variant", "text", "unseen", "_make")

    def __init__(self, variant: Variant, text: str, unseen: tuple[int, ...],
                 make: Callable[[tuple[int, ...]], State]) -> None:
        self.variant = variant
        #: the position as this program prints it (``??`` kept where the text had them)
        self.text = text
        #: the cards (faces) the ``??`` of the text stand for, in card order; () when none
        self.unseen = unseen
        self._make = make

    def state(self) -> State:
        """The game state; refused (BadPosition) while the stock holds unseen cards."""
        if self.unseen:
            n = len(self.unseen)
            raise BadPosition(f"the stock holds {n} unseen card{'s' if n > 1 else ''} (??): this needs the true "
                              f"order of the stock, every card named; solve --seen --position and hint --position "
                              f"take unseen cards")
        return self._make(())

    def with_order(self, cards: Iterable[int]) -> State:
        """The state with the ``??`` of the stock, top first, standing for ``cards`` (faces), in order."""
        cards = tuple(cards)
        if sorted(cards) != sorted(self.unseen):
            raise BadPosition("the cards given for ?? are not the unseen cards of the position")
        return self._make(cards)


class Start:
    """The deal of a game started from a position: ``text``, the position (canonical)."""

    __slots__ = ("text",)
    numbering = NUMBERING

    def __init__(self, text: str) -> None:
        object.__setattr__(self, "text", text)

    def __setattr__(self, name, value) -> None:
        raise AttributeError(f"a Start cannot be changed ({name})")

    def __eq__(self, other) -> bool:
        return self.text == other.text if isinstance(other, Start) else NotImplemented

    def __hash__(self) -> int:
        return hash(self.text)

    def __reduce__(self):
        return (Start, (self.text,))

    def __repr__(self) -> str:
        return f"Start({self.text!r})"

    @property
    def both_forms(self) -> str:
        return "from a position"

    def new_state(self, variant: Variant) -> State:
        position = read(self.text, over_ok=True)
        if position.variant is not variant:
            raise BadPosition(f"the position is one of {position.variant.id}, not {variant.id}")
        return position.state()


# --- reading and printing, by family ---------------------------------------------------------
def _family(variant: Variant):
    from .families import FAMILIES

    return FAMILIES[variant.family].positions()


def write(state: State) -> str:
    """The position of ``state`` as one line of text."""
    return _family(state.variant).write(state)


def read(text: str, *, over_ok: bool = False) -> Position:
    """One line of text -> Position; BadPosition saying what is wrong with it.  A game already won
    there is refused (a position is one to play from) unless ``over_ok``: a log's header reads its
    start so, so that a game recorded from such a position still reads and verifies."""
    from .games import get_game

    if not isinstance(text, str) or not text.strip():
        raise BadPosition("empty position: it starts with the game id, e.g. 'carpet ...'")
    if len(text) > _TOO_LONG:
        raise BadPosition(f"a position is one line of at most {_TOO_LONG} characters, not {len(text)}")
    if "\n" in text.strip() or "\r" in text.strip():
        raise BadPosition("a position is one line")
    words = _joined(text.split())
    try:
        variant = get_game(words[0])
    except CarpetError:
        raise BadPosition(f"unknown game {words[0][:40]!r} (the first field of a position is a game id: "
                          f"see carpet games)") from None
    if len(words) < 2:
        raise BadPosition(f"a {variant.id} position needs its cells after the game id")
    position = _family(variant).read(variant, words[1], _named_fields(variant, words[2:]))
    if not over_ok and not position.unseen and position.state().status == WON:
        raise BadPosition(f"the {variant.id} game is already won there: a position is one to play from")
    return position


def _joined(words: list[str]) -> list[str]:
    """The words of a position whose cells were typed with spaces (``carpet 7D 5H 9C QC 6H/KH...``):
    the words after the game id up to the first named field (``s:...``) are the cells, one field."""
    if len(words) < 3:
        return words
    named = next((i for i, word in enumerate(words) if i > 1 and ":" in word), len(words))
    return words[:1] + ["".join(words[1:named])] + words[named:]


def _named_fields(variant: Variant, words: list[str]) -> dict[str, str]:
    """``key:value`` fields -> {key: value}; a field twice or without a name refused."""
    fields: dict[str, str] = {}
    for word in words:
        key, colon, value = word.partition(":")
        key = key.lower()
        if not colon or not key:
            raise BadPosition(f"{word[:40]!r}: after the cells every field of a {variant.id} position is "
                              f"name:value, its cards written without spaces (e.g. s:7H2C)")
        if key in fields:
            raise BadPosition(f"field {key}: appears twice")
        fields[key] = value
    return fields


def take_fields(variant: Variant, fields: dict[str, str], required: tuple[str, ...],
                optional: tuple[str, ...] = ()) -> dict[str, str | None]:
    """The fields a game has, checked: each required one there, no other."""
    for key in fields:
        if key not in required and key not in optional:
            known = " ".join(f"{k}:" for k in required + optional) or "none"
            raise BadPosition(f"{variant.id} has no field {key}: (its fields after the cells: {known})")
    for key in required:
        if key not in fields:
            raise BadPosition(f"a {variant.id} position needs its field {key}:")
    return {key: fields.get(key) for key in required + optional}


# --- cards as people type them -------------------------------------------------------------
#: the two marks that are no card: what each stands for, where it may, and what is said elsewhere
_MARKS = {"..": (EMPTY, "empty", "'..' (an empty cell) has no place here"),
          "??": (UNSEEN, "unseen", "?? (an unseen card) may stand only in a face-down stock")}


def read_cards(run: str, where: str, *, empty: bool = False, unseen: bool = False) -> list[int]:
    """Cards written one after another (``7H10dKs``) -> faces; ``..`` EMPTY where ``empty``,
    ``??`` UNSEEN where ``unseen``, and ``N?`` a run of N of them (``28?``, as FEN counts empty
    squares); ``-`` alone is no card."""
    if run == NONE:
        return []
    cards = []
    i, n = 0, len(run)
    while i < n:
        pair = run[i:i + 2]
        if pair in _MARKS:
            mark, allowed, refusal = _MARKS[pair]
            if not (empty if allowed == "empty" else unseen):
                raise BadPosition(f"{where}: {refusal}")
            cards.append(mark)
            i += 2
            continue
        count = _unseen_run(run, i)
        if count is not None:
            if not unseen:
                raise BadPosition(f"{where}: {_MARKS['??'][2]} ({run[i:i + 4]!r} is a run of them)")
            cards.extend([UNSEEN] * int(count))
            i += len(count) + 1
            continue
        rank_text = "T" if run[i:i + 2] == "10" else run[i].upper()
        i += 2 if rank_text == "T" and run[i] == "1" else 1
        suit_text = run[i:i + 1].upper()
        i += 1
        if rank_text not in RANKS or suit_text not in _SUIT_OF:
            shown = run[max(0, i - 3):i][:3]
            raise BadPosition(f"{where}: {shown!r} is not a card (cards look like 7H, TD, 10♦, qs; .. for an "
                              f"empty cell)")
        cards.append(_SUIT_OF[suit_text] * 13 + RANKS.index(rank_text))
    return cards


def _unseen_run(run: str, i: int) -> str | None:
    """The digits of an ``N?`` beginning at ``i`` in ``run`` (a count of unseen cards), else None."""
    j = i
    while j < len(run) and run[j].isascii() and run[j].isdigit():
        j += 1
    if j == i or run[j:j + 1] != "?" or j - i > 3 or int(run[i:j]) == 0:
        return None
    return run[i:j]


def write_cards(cards: Iterable[int]) -> str:
    """Faces or card ids (EMPTY ``..``, UNSEEN ``??``) -> one run; ``-`` for none."""
    text = "".join(".." if c == EMPTY else "??" if c == UNSEEN else CODES[c % 52] for c in cards)
    return text or NONE


def read_rows(run: str, rows: int, cols: int, name: Callable[[int], str], *, what: str = "cells") -> list[int]:
    """The cells field: ``rows`` rows of ``cols`` cells separated by ``/`` -> faces (EMPTY ``..``)."""
    parts = run.split("/")
    if len(parts) != rows:
        raise BadPosition(f"{what}: {rows} rows separated by /, not {len(parts)}")
    cells: list[int] = []
    for r, part in enumerate(parts):
        row = read_cards(part, f"{what}, row {name(r * cols)[0]}", empty=True)
        if len(row) != cols:
            raise BadPosition(f"{what}: row {name(r * cols)[0]} has {len(row)} cells, not {cols}")
        cells.extend(row)
    return cells


def write_rows(cells: list[int], cols: int) -> str:
    return "/".join(write_cards(cells[r:r + cols]) for r in range(0, len(cells), cols))


def read_count(value: str, field: str, most: int | None) -> int:
    """A field holding a whole number from 0 (to ``most``)."""
    if not (value.isascii() and value.isdigit()) or len(value) > 9:
        raise BadPosition(f"field {field}: {value[:20]!r} is not a whole number")
    n = int(value)
    if most is not None and n > most:
        raise BadPosition(f"field {field}: {n} is more than the game allows ({most})")
    return n


# --- every card in its place ---------------------------------------------------------------
def count_cards(placed: list[tuple[int, str]], copies: int, in_play: Iterable[int]) -> tuple[int, ...]:
    """Check that the cards of a position are the game's: (face, where) for every card seen,
    UNSEEN for each ``??``; each face of ``in_play`` ``copies`` times.  Returns the faces the
    ``??`` stand for (the missing cards), in card order."""
    places: dict[int, list[str]] = {}
    unseen = 0
    for face, where in placed:
        if face == UNSEEN:
            unseen += 1
        else:
            places.setdefault(face, []).append(where)
    wanted = set(in_play)
    for face, where in places.items():
        if face not in wanted:
            raise BadPosition(f"{CODES[face]} is not in this game (it lies in {where[0]})")
        if len(where) > copies:
            times = _COUNT_WORDS.get(len(where), f"{len(where)} times")
            raise BadPosition(f"{CODES[face]} appears {times}: in {_listed(where)}")
    missing = tuple(sorted(face for face in wanted for _ in range(copies - len(places.get(face, ())))))
    if len(missing) != unseen:
        names = ", ".join(CODES[f] for f in missing[:8]) + (", …" if len(missing) > 8 else "")
        if not unseen:
            return _missing(missing, names)
        raise BadPosition(f"{unseen} unseen card{'s' if unseen > 1 else ''} (??) but {len(missing)} "
                          f"card{'s' if len(missing) != 1 else ''} not placed" + (f" ({names})" if missing else ""))
    return missing


def _missing(missing: tuple[int, ...], names: str):
    if len(missing) == 1:
        raise BadPosition(f"{names} is missing")
    raise BadPosition(f"{len(missing)} cards are missing: {names}")


def _listed(where: list[str]) -> str:
    """``c3 and in the stock``, after "in"."""
    return ", in ".join(where[:-1]) + " and in " + where[-1]


def fill_unseen(cards: list[int], order: tuple[int, ...]) -> list[int]:
    """``cards`` with its UNSEEN entries replaced by ``order``, in turn."""
    it = iter(order)
    return [next(it) if c == UNSEEN else c for c in cards]


# --- the generator (grid games whose redeals shuffle) -----------------------------------------
def read_generator(value: str, field: str = "g"):
    """``ms.X.H`` (the Microsoft generator in state x = X, high = H) or ``mt.S.D`` (the Mersenne
    Twister seeded with S, D draws made) -> a generator in that state.  D is bounded (10^7, a
    tenth of a second of CPU to wind at the first draw) but not by the game: a game whose redeals
    are unlimited (kovrik-shuffle), or draw until their spaces differ (spaces), reaches any D."""
    from .numbering import MS_LIMIT, MicrosoftRandom, TwisterRandom

    kind, *numbers = value.lower().split(".")
    if kind not in ("ms", "mt") or len(numbers) != 2 or not all(n.isascii() and n.isdigit() and len(n) < 25
                                                               for n in numbers):
        raise BadPosition(f"field {field}: {value[:40]!r} is not a generator (ms.X.H or mt.SEED.DRAWS)")
    a, b = map(int, numbers)
    if kind == "ms":
        if a >= MS_LIMIT or b > 2:
            raise BadPosition(f"field {field}: the Microsoft generator's state is X below 2^33 and H 0, 1 or 2")
        rng = MicrosoftRandom(1)
        rng.setstate((a, b))
        return rng
    if a >= 1 << 64 or b > 10**7:
        raise BadPosition(f"field {field}: the Mersenne Twister's seed is below 2^64 and its draws at most 10^7")
    return TwisterRandom(a, b)  # (wound at its first draw, in bulk: reading it costs nothing)


def write_generator(rng) -> str:
    from .numbering import MicrosoftRandom

    if isinstance(rng, MicrosoftRandom):
        x, high = rng.getstate()
        return f"ms.{x}.{high}"
    return f"mt.{rng._seed}.{rng.getstate()}"


def seeded_generator(text: str):
    """docs/rules.md, its opening: the generator of a position that names none, seeded by
    the position's text (canonical, without the generator): the Mersenne Twister seeded with the
    first 8 bytes of the text's BLAKE2b digest, read as a big-endian number."""
    from .game import blake2b
    from .numbering import TwisterRandom

    return TwisterRandom(int.from_bytes(blake2b(text.encode(), digest_size=8).digest(), "big"))
