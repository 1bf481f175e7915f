"""Every JSON document the CLI prints, one Struct each (docs/format.md, "Documents the CLI prints").

The keys are the contract of docs/format.md; docs/schemas/*.schema.json are generated
from these Structs (``python -m carpet.formats.schemas``) and a test keeps them current.
A field left ``UNSET`` is left out of the document.
"""

from __future__ import annotations

from typing import Any

import msgspec
from msgspec import UNSET, UnsetType


class Doc(msgspec.Struct, omit_defaults=False):
    """Base of the documents: printed as one line of JSON."""


class AttemptResult(Doc):
    """What an earlier attempt of a recorded game came to: the events up to the restart that ended it."""

    #: "won", "lost", or "playing" for an attempt restarted before it was over
    status: str
    score: int
    moves: int
    #: the attempt's clock: the reading of the restart that ended it
    elapsed_ms: int


class Position(Doc):
    """``deal --json``, ``show --json``, ``play --json``, ``new --json``: the position."""

    game: str
    deal: str
    status: str
    score: int
    moves: int
    redeals_left: int | None
    elapsed_ms: int
    layout: dict[str, Any]
    events: int
    #: the position as one line of text (docs/format.md, "Positions as text")
    position: str | UnsetType = UNSET
    file: str | UnsetType = UNSET
    applied: int | UnsetType = UNSET
    hint: str | None | UnsetType = UNSET
    #: with ``hint``: what the hint looked at, "seen" (what the player has seen) or "full"
    #: (--peek: the whole position, face-down cards included)
    information: str | UnsetType = UNSET
    #: ``show``: what each earlier attempt (ended by a restart) came to, oldest first
    attempts: list[AttemptResult] | UnsetType = UNSET


class Game(Doc):
    id: str
    family: str
    source: str
    summary: str
    redeals: int | None


class Games(Doc):
    """``games --json``."""

    games: list[Game]


class Rules(Doc):
    """``rules GAME --json``."""

    game: str
    family: str
    source: str
    summary: str
    rules: str


class Moves(Doc):
    """``moves FILE --json``."""

    actions: list[str]
    undo: bool
    status: str


class VerifyResult(Doc):
    file: str
    ok: bool
    error: str | None
    events: int | None
    status: str | None
    score: int | None
    game: str | UnsetType = UNSET
    deal: str | UnsetType = UNSET
    version: int | UnsetType = UNSET
    #: false for a text-form game written by hand, with no Digest: checked move by move, not sealed
    sealed: bool | UnsetType = UNSET
    #: when ok: what each earlier attempt (ended by a restart) came to, oldest first; status and score
    #: are the attempt being played
    attempts: list[AttemptResult] | UnsetType = UNSET


class Verify(Doc):
    """``verify FILE... --json``."""

    results: list[VerifyResult]


class Export(Doc):
    """``export FILE -o OUT --json`` and ``import``."""

    file: str
    output: str
    form: str
    version: int
    events: int
    bytes: int


class Frame(Doc):
    event: int
    action: str | None
    position: Position


class Replay(Doc):
    """``replay FILE --json``."""

    file: str
    frames: list[Frame]


class Bench(Doc):
    """``bench --json``: the figures, as carpet bench measures them (benchmarks/bench.py)."""

    python: str
    verify: list[dict[str, Any]]
    startup: dict[str, Any]
    memory: dict[str, Any]


class Solve(Doc):
    """``solve GAME N --json`` and ``solve FILE --json``: what the solver found (core/solver.py)."""

    game: str
    deal: str
    #: "won" (with ``line``), "unwinnable" (proven: every reachable position was searched)
    #: or "unknown" (the budget ran out first)
    result: str
    #: the winning line from the position solved, in canonical notation ([] unless won)
    line: list[str]
    #: counted moves and score at the end of the line (of the position solved when not won)
    moves: int
    score: int
    #: nodes searched (a node is one action tried) and the CPU seconds it took
    nodes: int
    seconds: float
    #: "full": the solver saw what a player cannot (a face-down stock, what seeded shuffles
    #: will deal); "open": nothing is hidden in this game
    information: str
    #: with --best: whether the line is proven best as the game ranks wins: no win from the
    #: position scores more, or as much in fewer counted moves (else null)
    best: bool | None
    #: with --best: whether the score alone is proven highest (no win scores more), even
    #: where the fewest moves for it is not proven (else null)
    best_score: bool | None
    #: the log solved from (null for GAME N) and the events it held
    file: str | None
    events: int
    #: where -o wrote the winning line as a recorded game (else null)
    output: str | None
    #: the search ended at its memory bound (--memory), before its node budget: "unknown" then
    memory_full: bool = False
    #: the position solved, as one line of text (docs/format.md, "Positions as text")
    position: str | UnsetType = UNSET


class SolveSeen(Doc):
    """``solve ... --seen --json``: how the orders of the unseen cards consistent with what the
    player has seen come out (core/seen.py, ``chances``)."""

    game: str
    deal: str
    #: always "seen": the orders sampled are those consistent with what the player has seen
    information: str
    #: the orders sampled (1 where nothing is hidden) and how each came out; they add up
    samples: int
    won: int
    unwinnable: int
    unknown: int
    #: won / samples, and its 95 % Wilson interval, the unknown orders counted both ways
    rate: float
    interval: list[float]
    #: the solver's budget in each order, the nodes spent in all and the CPU seconds
    nodes_per_sample: int
    nodes: int
    seconds: float
    #: what the player has seen, as a position's text (``??`` for an unseen stock card, no generator)
    seen: str
    #: the log solved from (null for GAME N or --position) and the events it held
    file: str | None
    events: int


#: every document, by the name of its schema file
DOCUMENTS = {"position": Position, "games": Games, "rules": Rules, "moves": Moves, "verify": Verify,
             "export": Export, "replay": Replay, "bench": Bench, "solve": Solve,
             "solve-seen": SolveSeen}
