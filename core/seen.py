"""The hint that sees only what the player has seen (docs/rules.md, "What a hint may look at").

A player sees every card face up now and remembers every card that was face up earlier in
the attempt; the order of the cards still face down (the carpet and quilt stocks) and what a
seeded shuffle will deal next (the grid games whose redeals shuffle) are unknown to them.
This module answers as such a player would, through public APIs only (the position as text,
:class:`~carpet.core.session.Session`, :func:`carpet.core.solver.solve`):

1. :func:`seen_of` writes down what the player has seen: the position as text
   (core/position.py) with every stock card never face up in this attempt written ``??`` and
   the grid generator left out.  Cards enter a stock only at its top (an undo puts back a card
   just turned; a quilt redeal turns the waste over when the stock is empty) and leave it only
   from the top, so the cards never seen are the bottom ones, as many as the fewest the stock
   has held in the attempt (its events replayed, undone positions included: they were seen).
   A position typed as text has no attempt behind it: its whole stock is unseen, named or
   written ``??``.
2. :meth:`Seen.samples` deals ``k`` orders consistent with it: the unseen cards shuffled (a
   grid game: a generator drawn) by a generator seeded from that text alone, so the same seen
   position gives the same samples on every machine, whatever the true order.
3. :func:`seen_hint` plays each action the family finds worth trying in every sample, solves
   the position after it at a small budget (``SAMPLE_NODES``; a line that won an earlier sample
   is replayed first), and names the action winnable in most samples.  Ties go to the first in
   the family's order.  When no sample is won after any action, the simple player's action in
   the first sample (core/autoplay.py).  The quilt family solves no sample (``LOOKAHEAD_FAMILIES``):
   of 16 orders it counts, per action, those where the position after it is a dead end by the
   family's own test, keeps the actions with the fewest, and names the one the simple player's
   look-ahead picks in most of the first 4 orders.  Where only one action is worth trying
   there is no vote: it is named.  Where nothing is hidden it is the full-information hint
   (core/hint.py), which then sees no more than the player; in a grid game after its last
   shuffle, that hint with what its searches found earlier in the attempt remembered
   (:func:`_planned`).
4. :func:`chances` (``carpet solve --seen``) counts the samples won, unwinnable and unknown.
5. :func:`simple_seen_action` (the survey's ``simple-seen`` player) is the simple player's action
   in the first of those samples: the yardstick that does not peek where the simple player does
   (the quilt's look-ahead), and the simple player itself where it reads nothing hidden.

Like the full hint, it never names an action that brings back a position of this attempt
while another exists.  Whether an action does is read on the true position, but it never
depends on the unseen order: an action that shows an unseen card leads to a position the
attempt has not had (that card was never face up in it).

No clock, no randomness but the seeded generator: the answer depends on the seen position,
the attempt's positions and the budgets alone.
"""

from __future__ import annotations

import weakref
from dataclasses import dataclass

from .errors import IllegalAction
from .game import LOST, PLAYING, RESTART, WON, State
from .position import Position, read, seeded_generator, write
from .session import Session

#: the samples one seen hint solves, and the solver's budget in each (nodes), by family where
#: a node costs more.  Chosen by measurement (docs/rules.md, "What a hint may look at";
#: tests/seen_measure.py): the carpet family 8 orders of 1,000 nodes (a Carpet game 0.2 s of CPU);
#: the grid games 2 of 100 (montana 3001-3012: 8:500 won 4 of 12 at 14.6 s, 4:250 6 at 4.4 s,
#: 4:100 4 at 2.9 s, 2:150 6 at 3.9 s; in a second run 3:100 3 at 2.5 s, 2:100 5 at 1.4 s, 2:60 4
#: at 1.2 s, 4:60 4 at 2.2 s; the machine loaded).  The quilt family solves no sample
#: (:data:`LOOKAHEAD_FAMILIES`): its figures are the orders drawn and the look-ahead's budget.
SAMPLES = 8
SAMPLE_NODES = 1_000
SAMPLES_BY_FAMILY = {"quilt": 16, "grid": 2}
SAMPLE_NODES_BY_FAMILY = {"quilt": 600, "grid": 100}
#: the families whose seen hint weighs the actions by dead ends and the simple player's look-ahead
#: instead of solving each sample (:func:`_look_ahead_vote`): the quilt family.  There a node costs
#: about six times a carpet node and the first pass, the only one with cards unseen, is rarely won
#: within a small search, so the solver's vote (2 orders of 60 nodes) was nearly always empty and
#: its fall-back, the look-ahead on one guessed order, lost more than the peeking simple player.
#: Crazy-quilt 3007-3036, interleaved, the machine loaded: that vote won 3, the dead ends over 16
#: orders alone 6, with the look-ahead's vote in 4 (this rule) 7, the simple player 11; over
#: 3001-3083 this rule won 20 and the simple player 27, indian-carpet 3001-3088 72 and 76, at
#: 4.0 and 3.6 s of CPU a seen game at the median (docs/rules.md, "What a hint may look at").
#: Over 3001-3100 it won 22 and 82, the simple player, which peeks, 31 and 87, and the one that
#: does not (``simple_seen_action``) 8 and 61.  With the counting and the vote stopped once
#: settled, crazy-quilt 3001-3040 cost 2.65 s a game at the median against 3.51 s, the same games.
LOOKAHEAD_FAMILIES = {"quilt"}
#: of the orders drawn in such a family, how many the look-ahead votes in (the first ones)
LOOKAHEAD_VOTES = 4
#: the families whose seen hint remembers its searches within an attempt once nothing is hidden
#: any more in a game that hid something (a grid game after its last shuffle: :func:`_planned`):
#: the full hint's search (core/hint.py) at every step of a long lost game was nearly all of a
#: seen game's cost (free-parking deal 1: 297 s of CPU, 551 actions)
PLANNING_FAMILIES = {"grid"}
#: there, after a search that ends unknown, the next searches get 1/RETRY_SHARE of the hint's
#: budget until the family's progress passes the most any search at the full budget saw
RETRY_SHARE = 64
#: ``carpet solve --seen``: the orders sampled, and the budget in each
CHANCE_SAMPLES = 100
CHANCE_NODES = 20_000

UNSEEN_TEXT = "??"


@dataclass(frozen=True)
class Seen:
    """What the player has seen of a position: its text with ``??`` for every unseen stock card
    and no generator; ``hidden`` whether anything is hidden at all."""

    text: str
    hidden: bool

    def samples(self, k: int) -> list[tuple[Position, tuple[int, ...]]]:
        """``k`` (position, order of the unseen cards) pairs consistent with what was seen: each
        makes a state by ``position.with_order(order)``.  Drawn from a generator seeded by the
        text alone."""
        rng = seeded_generator("seen " + self.text)
        position = read(self.text) if UNSEEN_TEXT in self.text else None
        out = []
        for _ in range(k):
            if position is not None:  # a face-down stock: its unseen cards shuffled
                order = list(position.unseen)
                rng.shuffle(order)
                out.append((position, tuple(order)))
            else:  # a grid game whose redeals shuffle: the generator drawn afresh
                seed = rng.randint(1, 2**62)
                out.append((read(f"{self.text} g:mt.{seed}.0"), ()))
        return out


class _Sampled:
    """The "deal" of a session on a sample: what :func:`carpet.core.session.deal_state` asks."""

    __slots__ = ("position", "order")

    def __init__(self, position: Position, order: tuple[int, ...]) -> None:
        self.position, self.order = position, order

    def new_state(self, variant) -> State:
        return self.position.with_order(self.order)


# --- what the player has seen ---------------------------------------------------------------
def seen_text(text: str, unseen: int) -> Seen:
    """A position's text -> what the player sees when the bottom ``unseen`` cards of its stock
    were never face up (a grid game: the generator, where the text names one, is hidden)."""
    fields = text.split(" ")
    hidden = False
    kept = []
    for field in fields:
        if field.startswith("g:"):
            hidden = hidden or "r:0" not in fields  # what the shuffles to come will deal, if any
            continue
        if field.startswith("s:") and unseen:
            cards = field[2:]
            shown = cards[:len(cards) - 2 * unseen] if cards != "-" else ""
            field = "s:" + shown + UNSEEN_TEXT * unseen
            hidden = True
        kept.append(field)
    return Seen(" ".join(kept), hidden)


def _stock_size(text: str) -> int:
    for field in text.split(" "):
        if field.startswith("s:"):
            return 0 if field == "s:-" else (len(field) - 2) // 2
    return 0


def seen_of(session: Session) -> Seen:
    """What the player of ``session`` has seen: its position, the bottom cards of the stock that
    were never face up in this attempt (an undone position was seen too) written ``??``."""
    text = write(session.state)
    size = _stock_size(text)
    if size and session.events is not None:
        size = min(size, _record(session).fewest(session))
    return seen_text(text, size)


def seen_of_position(position: Position) -> Seen:
    """What a player sees of a position typed as text: its whole stock face down, unseen."""
    text = position.text
    return seen_text(text, _stock_size(text))


# --- the hint ---------------------------------------------------------------------------------
def sample_nodes(variant) -> int:
    """The solver's budget in each sample of a seen hint of this game."""
    return SAMPLE_NODES_BY_FAMILY.get(variant.family, SAMPLE_NODES)


def sample_count(variant) -> int:
    """The samples a seen hint of this game solves."""
    return SAMPLES_BY_FAMILY.get(variant.family, SAMPLES)


def seen_hint(session: Session, samples: int | None = None, nodes: int | None = None) -> int | None:
    """The action the seen hint names for ``session``, or None when the game is over."""
    if session.status != PLAYING:
        return None
    seen = seen_of(session)
    if not seen.hidden:
        variant = session.variant
        if variant.family in PLANNING_FAMILIES and variant.hidden_information:
            return _planned(session)
        from .hint import hint_action

        return hint_action(session)
    from .solver import working_copy

    state = working_copy(session)
    return _vote(session.variant, seen, _fresh(state, _attempt(session).reached(session, state)), samples, nodes)


def position_hint(position: Position, samples: int | None = None, nodes: int | None = None) -> int | None:
    """The seen hint for a position typed as text (its ``??`` allowed), or None when it is over."""
    seen = seen_of_position(position)
    state = position.with_order(sorted(position.unseen))
    if state.status != PLAYING:
        return None
    if not seen.hidden:
        from .hint import hint_action

        return hint_action(Session(position.variant, _Sampled(position, ()), state=state))
    return _vote(position.variant, seen, state.legal_actions(), samples, nodes)


class _Record:
    """What the seen hint keeps of one session between its calls, in two parts, each started
    afresh on its own:

    - what the player has seen (:func:`seen_of`): a copy of the session that has played its
      events so far (undone positions were seen too), and the fewest cards its stock has held
      since the last restart; started when first asked, afresh only when the session has fewer
      events than the copy played;
    - the attempt (:func:`_attempt`): the search keys of the positions it went through (worked
      out once each: a long game asked for them at every step), and, in a family of
      :data:`PLANNING_FAMILIES`, what its searches found (:func:`_planned`).  It holds while the
      attempt only goes on; an undo or a restart (the attempt's positions no longer those it
      holds) starts it afresh."""

    __slots__ = ("shadow", "done", "least", "snaps", "keys", "follow", "lost", "top")

    def __init__(self) -> None:
        self.shadow: Session | None = None  # (none until what the player has seen is asked)
        self.done = 0  # the session's events the shadow has played
        self.least = 0  # the fewest cards the shadow's stock has held since its last restart
        self.afresh()

    def afresh(self) -> None:
        """Start the attempt's part afresh (what the player has seen is kept)."""
        self.snaps: list = []  # the attempt's snapshots, as the session holds them (the same objects)
        self.keys: set = set()
        #: search key -> the action of a winning line found from an earlier position of the attempt
        self.follow: dict = {}
        #: search keys of positions from which no win avoids the attempt's positions
        self.lost: set = set()
        #: the most progress seen where a search at the full budget ended unknown (None: none did)
        self.top: int | None = None

    def fewest(self, session: Session) -> int:
        """The fewest cards the stock has held in this attempt, the session's events played."""
        events = session.events
        if self.shadow is None or self.done > len(events):
            self.shadow, self.done = Session(session.variant, session.deal), 0
            self.least = _stock_size(write(self.shadow.state))
        for action, clock_ms in events[self.done:]:
            self.shadow.act(action, clock_ms)
            size = _stock_size(write(self.shadow.state))
            self.least = size if action == RESTART else min(self.least, size)
        self.done = len(events)
        return self.least

    def goes_on(self, history: list) -> bool:
        """Whether ``history`` (the session's attempt snapshots) extends the attempt held."""
        snaps = self.snaps
        return len(history) >= len(snaps) and all(a is b for a, b in zip(snaps, history))

    def reached(self, session: Session, state: State) -> set:
        """The search keys of the attempt's positions, the present one (``state``'s) included."""
        from .hint import add_keys
        from .solver import _knowledge

        history = session.attempt_snapshots()
        key = _knowledge(state)[0]
        add_keys(self.keys, history[len(self.snaps):], state, key)
        self.snaps = history
        return self.keys | {key()}


_RECORDS: "weakref.WeakKeyDictionary[Session, _Record]" = weakref.WeakKeyDictionary()


def _record(session: Session) -> _Record:
    """The session's :class:`_Record` (a new one when it has none)."""
    held = _RECORDS.get(session)
    if held is None:
        held = _RECORDS[session] = _Record()
    return held


def _attempt(session: Session) -> _Record:
    """The session's record, its attempt part afresh when the attempt no longer goes on from it."""
    held = _record(session)
    if not held.goes_on(session.attempt_snapshots()):
        held.afresh()
    return held


def _fresh(state: State, reached: set) -> list[int]:
    """The legal actions that bring back no position of ``reached`` (the attempt's, by the
    family's search key, a State hook of core/game.py); all of them when every one does."""
    from .hint import fresh_actions
    from .solver import _knowledge

    legal = state.legal_actions()
    return fresh_actions(state, legal, _knowledge(state)[0], reached) or legal


def _planned(session: Session) -> int | None:
    """The seen hint where nothing is hidden any more in a game that hid something, in a family
    of :data:`PLANNING_FAMILIES`: the full hint (core/hint.py), which then sees no more than the
    player, with what its searches found earlier in the attempt remembered:

    - a winning line is followed to its end, not searched again at every step;
    - a position from which the search found no win avoiding the attempt's positions
      (``unwinnable``, the hint's search being given them as searched) is lost for a player
      who never goes back to one (the survey's players stop there), and so is the position the
      action named there leads to (its attempt holds the lost one): in both the simple player's
      action (core/autoplay.py) is named, the first fresh action when it would bring one back,
      at no search;
    - after a search at the full budget that ends unknown, the next ones get
      1/:data:`RETRY_SHARE` of it until the family's progress passes the most any of them saw.
    """
    from .autoplay import simple_action
    from .hint import hint_nodes, hint_search
    from .solver import UNWINNABLE, WON_RESULT, _knowledge, working_copy

    memo = _attempt(session)
    state = working_copy(session)
    reached = memo.reached(session, state)
    key, _safe, _actions, _dead, progress_of = _knowledge(state)
    here = key()
    fresh = _fresh(state, reached)
    planned = memo.follow.get(here)
    if planned is not None and planned in fresh:
        return planned
    if here not in memo.lost:
        full = hint_nodes(session.variant)
        progress = progress_of()
        retry = memo.top is not None and progress <= memo.top
        action, out = hint_search(session, full // RETRY_SHARE if retry else full, reached)
        if out.result == WON_RESULT and out.line and out.line[0] == action:
            start = state.snapshot()
            for step in out.line:  # each position of the line -> its action there
                memo.follow[key()] = step
                state.apply(step)
            state.restore(start)
            return action
        if out.result != UNWINNABLE:
            if not retry:
                memo.top = progress if memo.top is None else max(memo.top, progress)
            return action
        # sound: the search was given the attempt's positions and went through all the rest without a win
        memo.lost.add(here)
    # lost (see above): the simple player's action, and the position it leads to lost too
    action = simple_action(state)
    if action not in fresh:
        action = fresh[0]
    start = state.snapshot()
    state.apply(action)
    # sound: a win from there avoiding the attempt (which will hold this position) would be one from here
    memo.lost.add(key())
    state.restore(start)
    return action


def _vote(variant, seen: Seen, candidates: list[int], samples: int | None, nodes: int | None) -> int | None:
    if not candidates:
        return None
    if len(candidates) == 1:
        return candidates[0]
    nodes = sample_nodes(variant) if nodes is None else nodes
    samples = sample_count(variant) if samples is None else samples
    drawn = [(position, order, position.with_order(order)) for position, order in seen.samples(samples)]
    # an action the family calls safe (it never spoils a win: core/knowledge.py) in every sample
    safe = {None if state.safe_action is None else state.safe_action() for _, _, state in drawn}
    if len(safe) == 1 and (only := safe.pop()) in candidates:
        return only
    # the actions the family finds worth trying, in its order (core/game.py: one it leaves out
    # reaches the same position as one it keeps, e.g. a fill of another gap of the carpet)
    worth = getattr(drawn[0][2], "search_actions", None)
    if worth is not None:
        candidates = [a for a in worth() if a in candidates] or candidates
    if len(candidates) == 1:  # the vote could name no other (nor could its fall-back): no search
        return candidates[0]
    if variant.family in LOOKAHEAD_FAMILIES:
        return _look_ahead_vote(drawn, candidates, nodes)
    return _vote_each(drawn, candidates, nodes)


def _vote_each(drawn, candidates: list[int], nodes: int) -> int:
    """Each candidate action played in every sample and the position after it solved: the action
    winnable in most samples; ties to the first in the order of the candidates (the family's).
    A position after an action is first tried with the lines that won earlier samples after it
    (a replay costs its length, a search hundreds of nodes).  When no sample is won after any
    action: the simple player's action in the first sample (core/autoplay.py), which reads only
    the table and that sample's stock.  Weighing
    stops as soon as the answer is settled, which changes nothing: after an action won in every
    sample (a later one could only tie), and, within an action, when winning every sample left
    would only tie the best so far."""
    from .autoplay import simple_action

    best, best_wins, count = None, 0, len(drawn)
    for action in candidates:
        if best_wins == count:  # won in every sample: a later action can at most tie, and ties go first
            break
        lines: list[list[int]] = []
        wins = 0
        for done, (_, _, state) in enumerate(drawn):
            if wins + count - done <= best_wins:  # winning every sample left, it could only tie
                break
            start = state.snapshot()
            try:
                state.apply(action)
                wins += _solved(state, nodes, lines)[0] == "won"
            finally:
                state.restore(start)
        if wins > best_wins:
            best, best_wins = action, wins
    if best is None:
        simple = simple_action(drawn[0][2])
        best = simple if simple in candidates else candidates[0]
    return best


def _look_ahead_vote(drawn, candidates: list[int], nodes: int) -> int:
    """A family of :data:`LOOKAHEAD_FAMILIES` (the quilt): per candidate action, the samples in
    which the position after it is lost or a dead end by the family's own test (``dead_end``, a
    proof: core/game.py, "What a solver may use"), and only the actions with the fewest are kept;
    then the simple player's look-ahead (core/autoplay.py, ``best_action`` at ``nodes``) names an
    action in each of the first :data:`LOOKAHEAD_VOTES` samples, and the kept action named in most
    is the answer (ties, and no vote for any kept action, to the first in the candidates' order).
    The look-ahead wins, or else reaches the highest score, on its sample's stock: each vote is
    what a player who peeked would play were the stock that order, and the answer what most of
    the orders agree on.

    Counting and voting stop as soon as the answer is settled, which changes nothing: an action's
    count stops once it exceeds the fewest so far (it cannot be kept), and the vote once no
    other kept action can overtake the leader in the votes left (nor tie it from before it in
    the candidates' order)."""
    from .autoplay import best_action

    dead = {}
    fewest = len(drawn) + 1
    for action in candidates:
        count = 0
        for _, _, state in drawn:
            start = state.snapshot()
            state.apply(action)
            count += state.status == LOST or (state.status == PLAYING and state.dead_end())
            state.restore(start)
            if count > fewest:  # it cannot be kept: its true count is more still
                break
        dead[action] = count
        fewest = min(fewest, count)
    candidates = [action for action in candidates if dead[action] == fewest]
    if len(candidates) == 1:
        return candidates[0]
    votes = dict.fromkeys(candidates, 0)
    voters = drawn[:LOOKAHEAD_VOTES]
    for done, (_, _, state) in enumerate(voters, 1):
        named = best_action(state, nodes)
        if named in votes:
            votes[named] += 1
        if _settled(candidates, votes, len(voters) - done):
            break
    return max(candidates, key=votes.__getitem__)  # (max keeps the first of equals)


def _settled(candidates: list[int], votes: dict[int, int], left: int) -> bool:
    """Whether ``left`` more votes can change the first action with the most votes: no other
    could pass it, nor draw level from before it in ``candidates``."""
    leader = max(candidates, key=votes.__getitem__)
    ahead = True  # whether the action looked at comes before the leader
    for action in candidates:
        if action == leader:
            ahead = False
        elif votes[action] + left > votes[leader] or (ahead and votes[action] + left == votes[leader]):
            return False
    return True


def _solved(state: State, nodes: int, lines: list[list[int]]) -> tuple[str, int]:
    """(the result, the nodes searched) of ``state``, a position of a sample: won at no search
    when it is won or one of ``lines`` (those that won earlier samples) wins it, else searched
    as :func:`carpet.core.solver.solve` searches at ``nodes`` (the same answer: the search leaves
    the state as found, so it needs no copy of it), a winning line found added to ``lines``."""
    from .solver import WON_RESULT, _search

    if state.status == WON or any(_wins(state, line) for line in lines):
        return WON_RESULT, 0
    found = _search(state, nodes)
    if found.result == WON_RESULT:
        lines.append(found.line)
    return found.result, found.nodes


def _wins(state: State, line: list[int]) -> bool:
    """Whether ``line`` is legal from ``state`` and wins it (the state is left as found)."""
    start = state.snapshot()
    try:
        for action in line:
            state.apply(action)
        return state.status == WON
    except IllegalAction:
        return False
    finally:
        state.restore(start)


# --- the simple player on one drawn order ---------------------------------------------------
def simple_seen_action(session: Session) -> int | None:
    """The simple player's action (core/autoplay.py, ``simple_action``) in one order of the unseen
    cards drawn from what the player has seen (the first of :meth:`Seen.samples`, the seen hint's
    first order), or None when it has none.  Drawn afresh at every step from the seen position,
    so it depends on nothing the player has not seen.  Where nothing is hidden it is the simple
    player's action on the position itself.  Where the simple player reads nothing hidden (the
    carpet and grid families' ``auto_action``: the table, the waste and how many cards the stock
    holds) the drawn order changes nothing and this is the simple player's action; the quilt's
    look-ahead plays on the drawn order instead of the true one."""
    from .autoplay import simple_action

    if session.status != PLAYING:
        return None
    seen = seen_of(session)
    if not seen.hidden:
        return simple_action(session.state)
    (position, order), = seen.samples(1)
    return simple_action(position.with_order(order))


# --- chances from here ------------------------------------------------------------------------
@dataclass(frozen=True)
class Chances:
    """How the sampled orders came out: ``won`` + ``unwinnable`` + ``unknown`` == ``samples``."""

    samples: int
    won: int
    unwinnable: int
    unknown: int
    nodes: int
    #: 95 % Wilson interval of the share won, the unknown orders counted both ways
    interval: tuple[float, float]


def chances(seen: Seen, samples: int = CHANCE_SAMPLES, nodes: int = CHANCE_NODES) -> Chances:
    """Solve ``samples`` orders consistent with ``seen`` at ``nodes`` each (1 where nothing is
    hidden: there is one order).  A sample a line found earlier wins is won at no search."""
    from .survey import undecided_interval

    if not seen.hidden:
        samples = 1
    won = unwinnable = unknown = spent = 0
    lines: list[list[int]] = []
    source = seen.samples(samples) if seen.hidden else [(read(seen.text), ())]
    for position, order in source:
        result, used = _solved(position.with_order(order), nodes, lines)
        spent += used
        if result == "won":
            won += 1
        elif result == "unwinnable":
            unwinnable += 1
        else:
            unknown += 1
    return Chances(samples, won, unwinnable, unknown, spent, undecided_interval(won, unknown, samples))


__all__ = ["SAMPLES", "SAMPLE_NODES", "CHANCE_SAMPLES", "CHANCE_NODES", "Seen", "Chances", "seen_of",
           "seen_of_position", "seen_text", "seen_hint", "position_hint", "simple_seen_action", "chances"]
