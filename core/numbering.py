"""PySol deal numbering: deal-number text -> generator -> order of the cards.

The same number gives the same cards as PySolFC (docs/rules.md: each game's deal).
Both generators keep their whole state in plain values so that a game state
can save and restore it (undo) and a log can be replayed on any machine.
"""

from __future__ import annotations

import re
import sys
from operator import mod

from .errors import BadDealNumber

MS_LIMIT = 1 << 33  # msN: 1 <= N < 2**33
MS_PLAIN_LIMIT = 32000  # plain N below this uses the Microsoft generator
MT_LIMIT = 10**20  # plain N from 32000 up to this uses the Mersenne Twister

_DEAL_RE = r"#?(ms)?([0-9]+)"  # compiled when first used (re caches it)


class Deal:
    """A parsed deal number.  ``text`` is canonical: ``ms1`` for 1, ``123456`` for MT.

    An immutable value (written out rather than a frozen dataclass: every command
    imports this module, and a dataclass is built at import).
    """

    __slots__ = ("number", "microsoft")
    number: int
    microsoft: bool

    def __init__(self, number: int, microsoft: bool) -> None:
        object.__setattr__(self, "number", number)
        object.__setattr__(self, "microsoft", microsoft)

    def __setattr__(self, name, value) -> None:
        raise AttributeError(f"a Deal cannot be changed ({name})")

    def __eq__(self, other) -> bool:
        if not isinstance(other, Deal):
            return NotImplemented
        return self.number == other.number and self.microsoft == other.microsoft

    def __hash__(self) -> int:
        return hash((self.number, self.microsoft))

    def __reduce__(self):  # copy, deepcopy and pickle (a survey's worker processes) rebuild it
        return (Deal, (self.number, self.microsoft))

    def __repr__(self) -> str:
        return f"Deal(number={self.number!r}, microsoft={self.microsoft!r})"

    @property
    def text(self) -> str:
        return f"ms{self.number}" if self.microsoft else str(self.number)

    @property
    def both_forms(self) -> str:
        """``ms1 (= #1)`` where a plain number names the same deal."""
        if self.microsoft and self.number < MS_PLAIN_LIMIT:
            return f"{self.text} (= #{self.number})"
        return self.text

    def generator(self) -> "MicrosoftRandom | TwisterRandom":
        return MicrosoftRandom(self.number) if self.microsoft else TwisterRandom(self.number)

    def __str__(self) -> str:
        return self.text


_new_object = object.__new__
_set_number, _set_microsoft = Deal.number.__set__, Deal.microsoft.__set__  # (the slots' own setters)


def make_deal(number: int, microsoft: bool) -> Deal:
    """``Deal(number, microsoft)``, its slots filled without the call of its class and ``__init__``
    (every log read makes one)."""
    deal = _new_object(Deal)
    _set_number(deal, number)
    _set_microsoft(deal, microsoft)
    return deal


def parse_deal(text: str) -> Deal:
    """``'1'``, ``'#1'``, ``'ms1'`` -> the same deal; anything else outside the numbering fails."""
    t = str(text).strip().lower()
    m = re.fullmatch(_DEAL_RE, t)
    if m is None:
        raise BadDealNumber(f"not a deal number: {text!r} (use N or msN, N a whole number from 1)")
    digits = m.group(2)
    if len(digits) > 40:
        raise BadDealNumber(f"deal number too large: {digits[:12]}… (plain numbers stop below 10^20)")
    n = int(digits)
    if n < 1:
        raise BadDealNumber(f"deal numbers start at 1: {text!r}")
    if m.group(1):
        if n >= MS_LIMIT:
            raise BadDealNumber(f"deal number too large: ms{n} (ms numbers stop below 2^33 = {MS_LIMIT})")
        return Deal(n, True)
    if n < MS_PLAIN_LIMIT:
        return Deal(n, True)
    if n >= MT_LIMIT:
        raise BadDealNumber(f"deal number too large: {n} (plain numbers stop below 10^20)")
    return Deal(n, False)


class MicrosoftRandom:
    """The Microsoft C runtime's generator as PySol extends it to 33-bit seeds."""

    __slots__ = ("x", "high")

    def __init__(self, seed: int) -> None:
        self.x, self.high = self.start(seed)

    @staticmethod
    def start(seed: int) -> tuple[int, int]:
        """The state a seed starts the generator in: x, and high: 0 for seeds below 2^31, 1 for
        2^31..2^32-1 (0x8000 or-ed in), 2 above."""
        if seed < 1 << 32:
            return seed, 1 if seed >= 1 << 31 else 0
        return seed - (1 << 32), 2

    def draw(self) -> int:
        self.x = (self.x * 214013 + 2531011) & (MS_LIMIT - 1)
        if self.high == 2:
            return ((self.x >> 16) & 0xFFFF) + 1
        r = (self.x >> 16) & 0x7FFF
        return r | 0x8000 if self.high else r

    def randint(self, a: int, b: int) -> int:
        return a + self.draw() % (b - a + 1)

    def shuffle(self, items: list) -> None:
        # draw(), written out: every deal of every log replayed runs this loop
        x, high = self.x, self.high
        mask = MS_LIMIT - 1
        for n in range(len(items) - 1, 0, -1):
            x = (x * 214013 + 2531011) & mask
            if high == 2:
                r = ((x >> 16) & 0xFFFF) + 1
            else:
                r = (x >> 16) & 0x7FFF
                if high:
                    r |= 0x8000
            j = r % (n + 1)
            items[n], items[j] = items[j], items[n]
        self.x = x

    def getstate(self) -> tuple:
        return (self.x, self.high)

    def setstate(self, state: tuple) -> None:
        self.x, self.high = state


class TwisterRandom:
    """Python's Mersenne Twister, used only through its stable int seeding and random().

    Its state is kept as the number of draws since seeding (a draw: one ``random()``, two 32-bit
    outputs of the twister): a plain int is cheap to save with every undo step and to write in a
    position (``g:mt.SEED.DRAWS``).  The twister itself is made at the first draw, wound there by
    bulk outputs (``getrandbits``: a C loop, not a Python one a draw), and its state at that count
    is kept, so that a saved state is brought back from there (an undo, the solver's every step
    back) and not wound again from the seed: reading a generator costs nothing until it draws,
    and going back costs no more than the draws made since it was first used.
    """

    __slots__ = ("_mt", "_seed", "draws", "_base")

    def __init__(self, seed: int, draws: int = 0) -> None:
        self._seed = seed
        self.draws = draws
        self._mt = None  # made at the first draw (:meth:`_twister`)
        self._base: tuple | None = None  # (draws, twister state) where it was first made

    def _twister(self):
        mt = self._mt
        if mt is None:
            from random import Random  # imported here: a command that deals no such number never loads it

            mt = Random(self._seed)
            if self._base is None or self._base[0] > self.draws:
                _wind(mt, self.draws)
                self._base = (self.draws, mt.getstate())
            else:
                mt.setstate(self._base[1])
                _wind(mt, self.draws - self._base[0])
            self._mt = mt
        return mt

    def randint(self, a: int, b: int) -> int:
        value = self._twister().random()
        self.draws += 1
        return a + int(value * (b - a + 1))

    def shuffle(self, items: list) -> None:
        rand = self._twister().random
        for n in range(len(items) - 1, 0, -1):
            j = int(rand() * (n + 1))
            items[n], items[j] = items[j], items[n]
        self.draws += max(0, len(items) - 1)

    def getstate(self) -> int:
        return self.draws

    def setstate(self, draws: int) -> None:
        if draws > self.draws and self._mt is not None:
            _wind(self._mt, draws - self.draws)
        elif draws != self.draws:
            self._mt = None  # made again at the next draw, from where it was first made
        self.draws = draws


def _wind(mt, draws: int) -> None:
    """``draws`` calls of ``mt.random()`` (two 32-bit outputs each), made as bulk outputs."""
    while draws > 0:
        step = min(draws, 1 << 14)
        mt.getrandbits(64 * step)
        draws -= step


def shuffle(items: list, rng: "MicrosoftRandom | TwisterRandom") -> None:
    """PySol's in-place shuffle: for n from the end down to 1, swap items[n] and items[randint(0, n)]."""
    rng.shuffle(items)


def microsoft_reorder(ids: list[int]) -> list[int]:
    """Rank-major order with suits ♣ ♦ ♥ ♠, as PySol does before an ms shuffle of 52 cards."""
    return [ids[i] for i in _MS_ORDER]


#: microsoft_reorder's positions, worked out once (every replay deals)
_MS_ORDER = tuple(r + s * 13 for r in range(13) for s in (0, 3, 2, 1))


def dealing_order(deal: Deal, card_count: int) -> tuple[list[int], "MicrosoftRandom | TwisterRandom"]:
    """The cards in the order they are dealt (first dealt first), and the generator after it.

    PySol keeps the shuffled list as a talon and deals from its end; this returns the
    list reversed so callers can simply read from the front.
    """
    rng = deal.generator()
    if deal.microsoft and card_count == 52:
        ids = list(_MS_ORDER)  # microsoft_reorder(list(range(52)))
    else:
        ids = list(range(card_count))
    shuffle(ids, rng)
    ids.reverse()
    return ids, rng


# --- the deal, fast: what the one replay deals from (formats/playlog.py) ---------------------
_SWAPS: dict[int, tuple] = {}


def fast_dealing_order(deal: Deal, card_count: int, *, generator: bool = True
                       ) -> tuple[list[int], "MicrosoftRandom | TwisterRandom | None"]:
    """:func:`dealing_order`, the same cards and the same generator after it (None without
    ``generator``, for a game that draws nothing after its deal), its shuffle by :func:`fast_shuffle`;
    pinned to it by tests/test_fast_replay.py over deal numbers of every range."""
    if not deal.microsoft:
        items, rng = dealing_order(deal, card_count)
        return items, rng if generator else None
    items = list(_MS_ORDER) if card_count == 52 else list(range(card_count))
    if generator:
        rng = MicrosoftRandom(deal.number)
        fast_shuffle(items, rng)
    else:
        rng = None
        _ms_shuffle(items, *MicrosoftRandom.start(deal.number))
    items.reverse()
    return items, rng


def fast_shuffle(items: list, rng: "MicrosoftRandom | TwisterRandom") -> None:
    """``rng.shuffle(items)``: for the Microsoft generator a fast copy, pinned to it by
    tests/test_fast_replay.py.  draw() is written out once for each kind of seed, and the
    generator is stepped modulo 2^31 (2^32 for the largest seeds): a draw reads bits 16-30
    (16-31) of its state, and the low bits of x' = a x + c depend on the low bits of x alone.
    The state after the shuffle, modulo 2^33, is then one jump: x_k = A_k x + C_k.

    For seeds below 2^32 every draw of the shuffle is worked out at once (:func:`_draws`),
    so that the loop only swaps (for lists of more than 16 items, where that is quicker)."""
    if not isinstance(rng, MicrosoftRandom):
        rng.shuffle(items)
        return
    x0 = rng.x
    _, jump_a, jump_c, *_ = _ms_shuffle(items, x0, rng.high)
    rng.x = (jump_a * x0 + jump_c) % MS_LIMIT


def _ms_shuffle(items: list, x0: int, high: int) -> tuple:
    """:func:`fast_shuffle` of a Microsoft generator in state (x0, high), the generator left as it
    was; returns the plan of the shuffle (:func:`_swap_plan`: the jump over it among the rest)."""
    count = len(items)
    plan = _SWAPS.get(count)
    if plan is None:
        plan = _swap_plan(count)
    swaps, _, _, sizes, many_a, many_c = plan
    if high < 2 and count > 16:  # (the loop below is quicker for fewer: measured on CPython 3.11)
        for n, j in zip(range(count - 1, 0, -1), map(mod, _draws(x0, high, many_a, many_c, count - 1), sizes)):
            items[n], items[j] = items[j], items[n]
    elif high == 0:
        x = x0 & 0x7FFFFFFF
        for n, size in swaps:
            x = (x * 214013 + 2531011) & 0x7FFFFFFF
            j = (x >> 16) % size
            items[n], items[j] = items[j], items[n]
    elif high == 1:
        x = x0 & 0x7FFFFFFF
        for n, size in swaps:
            x = (x * 214013 + 2531011) & 0x7FFFFFFF
            j = (x >> 16 | 0x8000) % size
            items[n], items[j] = items[j], items[n]
    else:
        x = x0 & 0xFFFFFFFF
        for n, size in swaps:
            x = (x * 214013 + 2531011) & 0xFFFFFFFF
            j = ((x >> 16) + 1) % size
            items[n], items[j] = items[j], items[n]
    return plan


def _swap_plan(count: int) -> tuple:
    """For a shuffle of ``count`` items: the swaps (n, n + 1) for n from the end down to 1, the
    jump over them (A, C), the sizes n + 1 alone, and every step's (A_k, C_k) packed as 64-bit
    words of two integers (:func:`_draws`)."""
    a, c = 1, 0
    many_a = many_c = 0
    for k in range(count - 1):
        a, c = a * 214013 % MS_LIMIT, (c * 214013 + 2531011) % MS_LIMIT
        many_a |= (a & 0xFFFFFFFF) << (64 * k)
        many_c |= (c & 0xFFFFFFFF) << (64 * k)
    plan = _SWAPS[count] = (tuple(zip(range(count - 1, 0, -1), range(count, 1, -1))), a, c,
                            tuple(range(count, 1, -1)), many_a, many_c)
    return plan


_LITTLE = sys.byteorder == "little"
_MASKS: dict[int, tuple[int, int]] = {}  # steps -> (0x7FFFFFFF in every 64-bit word, 0x80000000 in every word)


def _draws(x0: int, high: int, many_a: int, many_c: int, steps: int):
    """The first ``steps`` draws of a Microsoft generator in state x0 (seed below 2^32), at once.

    Step k's state modulo 2^32 is A_k x0 + C_k, below 2^64 for x0, A_k, C_k below 2^32: with
    the A_k and C_k as the 64-bit words of two integers, one product and one sum give every
    state, word by word without carries.  A draw is bits 16-30 of its state, with bit 15 set for
    seeds from 2^31: each word's bit 31 is cleared (or set) by a mask, and the draws are the
    second 16-bit half of every word."""
    masks = _MASKS.get(steps)
    if masks is None:
        masks = _MASKS[steps] = (int.from_bytes(b"\xff\xff\xff\x7f\0\0\0\0" * steps, "little"),
                                 int.from_bytes(b"\0\0\0\x80\0\0\0\0" * steps, "little"))
    words = ((x0 & 0xFFFFFFFF) * many_a + many_c) & masks[0]
    if high:
        words |= masks[1]
    data = words.to_bytes(8 * steps, "little")
    if _LITTLE:
        return memoryview(data).cast("H")[1::4]
    return [data[k] | data[k + 1] << 8 for k in range(2, 8 * steps, 8)]
