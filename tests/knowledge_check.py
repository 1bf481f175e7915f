"""Checked by mypy (tests/test_knowledge.py), never run: every family's state is a Knowledge
(core/knowledge.py), the family contract the solver reads."""

from carpet.core.carpet import CarpetState
from carpet.core.grid import GridState
from carpet.core.knowledge import Knowledge
from carpet.core.quilt import QuiltState


def families(carpet: CarpetState, grid: GridState, quilt: QuiltState) -> list[Knowledge]:
    return [carpet, grid, quilt]
