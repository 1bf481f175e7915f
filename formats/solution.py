"""What ``carpet solve --json`` prints (INTERFACE.md, "JSON"): one schema, here."""

from __future__ import annotations

import msgspec


class SolutionDocument(msgspec.Struct, omit_defaults=False):
    #: the game id and the canonical deal number
    game: str
    deal: str
    #: "won" (with ``line``), "unwinnable" (proven: the whole reachable space was searched)
    #: or "unknown" (the budget ran out first)
    result: str
    #: the winning line from the position solved, in canonical notation ([] unless won)
    line: list[str]
    #: counted moves and score at the end of the line (of the position solved when not won)
    moves: int
    score: int
    #: nodes searched (one node is one action tried) and CPU seconds spent
    nodes: int
    seconds: float
    #: "full": the solver saw what a player cannot (a face-down stock, seeded shuffles to
    #: come); "open": nothing is hidden in this game
    information: str
    #: with --best: whether no win from the position can score more (else null)
    best: bool | None
    #: the log solved from (null for GAME NUMBER) and the events it held
    file: str | None = None
    events: int = 0
    #: where the winning line was written with -o (else null)
    output: str | None = None


def solution_document(session, solution, *, line: list[str], seconds: float, file: str | None = None,
                      output: str | None = None) -> SolutionDocument:
    return SolutionDocument(game=session.variant.id, deal=session.deal.text, result=solution.result,
                            line=line, moves=solution.moves, score=solution.score, nodes=solution.nodes,
                            seconds=round(seconds, 3), information=solution.information,
                            best=solution.best, file=file, events=len(session.events), output=output)
