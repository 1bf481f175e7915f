"""The solver's plan: which searches run, in what order, with what share of the budget.

A plan is data, one per game, declared by its family (core/*/search.py, ``plan``) and read
by one loop (core/solver.py, ``_search``).  Its ``stages`` run in turn, each with 1/``share``
of the nodes the stages before it left, until one decides (a win, or a proof) or the budget
is spent.  A :class:`Search` stage is the depth-first search in one of the family's orders of
its actions, made of the plan's ``steps`` (:class:`Glance`, :class:`Brief`, :class:`Descents`,
:class:`Rounds`), each with its share of that search's budget; a :class:`Beam` stage plays the
stock one turn at a time (core/beam.py), finds wins and never proves.  ``carpet solve --plan
GAME`` prints a game's plan.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Union

#: the shares of the budget left that a pass may take in each round of the pass-by-pass search
#: (core/solver.py, ``_rounds``): a round whose passes all ran to their end proves its answer
ROUNDS = (64, 8, 1)
#: the nodes the descent's look-ahead spends at each step, shared among the actions there
LOOKAHEAD = 600
#: the nodes each position of a beam's stage gets for the actions that keep it in its stage
BEAM_REACH = 200
#: the share of a hint's budget its descent may take: the hint answers with the descent's first
#: choice where the rounds after it find no near win
HINT_DESCENT = 4


@dataclass(frozen=True)
class Glance:
    """The pass-by-pass search with the family's proof, 1/``share`` of the search's budget: where
    the proof prunes at once, a win near the root is found in a few hundred nodes."""
    share: int = 1024

    def describe(self, proof: bool = True) -> str:
        return f"glance: rounds, 1/{self.share} of the budget{_asks(proof)}"

    def run(self, search):
        return search.rounds(search.total // self.share, True)


@dataclass(frozen=True)
class Brief:
    """The pass-by-pass search, 1/``share`` of the search's budget, asking the family's proof only
    with ``proof`` (where it is dear, most deals are won without it)."""
    share: int = 8
    proof: bool = True

    def describe(self, proof: bool = True) -> str:
        return f"brief: rounds, 1/{self.share} of the budget{_asks(proof, self.proof)}"

    def run(self, search):
        return search.rounds(search.total // self.share, self.proof, give_up=True)


@dataclass(frozen=True)
class Descents:
    """A guided descent (core/descent.py) by each of the family's ``measures`` of progress in turn,
    each with 1/``share`` of the search's budget (1: all of it; a descent ends sooner where it is
    stuck), until one wins; the proof asked with ``proof``."""
    share: int = 1
    measures: tuple[int, ...] = (0,)
    proof: bool = True
    lookahead: int = LOOKAHEAD

    def describe(self, proof: bool = True) -> str:
        share = "the whole budget" if self.share == 1 else f"1/{self.share} of the budget"
        return (f"descents by progress measure(s) {', '.join(map(str, self.measures))}, up to {share} "
                f"each, look-ahead {self.lookahead} nodes a step{_asks(proof, self.proof)}")

    def run(self, search):
        return search.descents(self)


@dataclass(frozen=True)
class Rounds:
    """The pass-by-pass search with all the budget left and the proof, the descent's choices
    first: the step that proves."""

    def describe(self, proof: bool = True) -> str:
        return f"rounds, all that is left, a pass 1/{', then 1/'.join(map(str, ROUNDS))} of it{_asks(proof)}"

    def run(self, search):
        return search.rounds(search.total, True) or search.decided()


Step = Union[Glance, Brief, Descents, Rounds]


def _asks(proof: bool, asked: bool = True) -> str:
    """How a step's description says whether it asks the family's dead-end proof (``proof``:
    whether the proof applies in the game at all)."""
    return "" if not proof else ", with the proof" if asked else ", without the proof"


@dataclass(frozen=True)
class Search:
    """The depth-first search (the plan's ``steps``) in the family's order ``order`` of its actions."""
    order: int = 0
    share: int = 1

    def describe(self) -> str:
        return f"search in order {self.order}"

    def run(self, job, budget: int):
        return job.search(self.order, budget)


@dataclass(frozen=True)
class Beam:
    """A beam (core/beam.py): ``width`` positions a stage of the stock, ``reach`` nodes each for
    the actions that keep it in its stage; its ways ranked by the family's forecast first with
    ``foresee``; each position of its last pass searched with ``last`` nodes (0: beamed on);
    ranked by the family's ``progress(measure)``, its stages searched in order ``order``."""
    width: int
    reach: int = BEAM_REACH
    share: int = 1
    foresee: bool = True
    last: int = 0
    measure: int = 0
    order: int = 0

    def describe(self) -> str:
        last = f", last pass searched {self.last} nodes a position" if self.last else ""
        return (f"beam of {self.width}, {self.reach} nodes a position, progress measure {self.measure}, "
                f"order {self.order}{', forecast first' if self.foresee else ''}{last}")

    def run(self, job, budget: int):
        return job.beam(self, budget)


Stage = Union[Search, Beam]


@dataclass(frozen=True)
class Plan:
    """The stages in turn, each with 1/share of what is left, and the steps of each search.
    ``proof``: whether the family's ``dead_end`` can prove anything in this game (else never asked)."""
    stages: tuple[Stage, ...]
    steps: tuple[Step, ...]
    proof: bool = True

    def best(self) -> Plan:
        """The plan of ``carpet solve --best``: its searches alone (a beam finds any win, not the
        best), each the proving rounds alone (they rank every win they meet)."""
        return replace(self, stages=tuple(stage for stage in self.stages if isinstance(stage, Search)),
                       steps=(Rounds(),))

    def hint(self) -> Plan:
        """The plan of a hint: one search in the usual order, one descent by the usual measure with
        1/HINT_DESCENT of the budget (the hint's budget is small, its answer the descent's first choice)."""
        steps = tuple(Descents(share=HINT_DESCENT, proof=step.proof) if isinstance(step, Descents) else step
                      for step in self.steps)
        return replace(self, stages=(Search(),), steps=steps)

    def describe(self) -> list[str]:
        """The plan as lines of text (``carpet solve --plan``)."""
        lines = []
        for n, stage in enumerate(self.stages, 1):
            lines.append(f"{n}. {stage.describe()}, 1/{stage.share} of what is left")
            if isinstance(stage, Search) and n == 1:
                lines += [f"   - {step.describe(self.proof)}" for step in self.steps]
        return lines


def searches(orders: int, steps: tuple[Step, ...], proof: bool = True,
             beams: dict[int, tuple[Beam, ...]] | None = None) -> Plan:
    """A plan of one search in each of ``orders`` orders, each with an equal share of what is left,
    and ``beams[n]`` (each with its own share) after the first n searches."""
    stages: list[Stage] = []
    for order in range(orders):
        stages += (beams or {}).get(order, ())
        stages.append(Search(order, orders - order))
    return Plan(tuple(stages), steps, proof)

__all__ = ["Plan", "Search", "Beam", "Glance", "Brief", "Descents", "Rounds", "searches"]
