"""The grid family's positions as text (docs/format.md, "Positions as text").

The cells field is the board, rows a, b, ... separated by ``/``, each row's cells from
column 0 (``..`` an empty cell).  Then, where the game has them:

- ``r:N``, the redeals left (games with a limited number of redeals);
- ``g:ms.X.H`` or ``g:mt.SEED.DRAWS``, the generator's state (games whose redeals shuffle
  and may still come); optional on input: without it the generator is the one seeded by the
  position text (core/position.py, :func:`~carpet.core.position.seeded_generator`);
- ``p:N``, the score (kovrik-shuffle and kovrik-shuffle-2, where it counts moves, not cards;
  optional on input: without it, 10 for each row's prefix, as if each were made by one move).

Elsewhere the score is what the board shows: the cards in the rows' prefixes, 15 points
each in the kovrik games, 1 in the Montana games.  Prefixes are found as the rules define them.
"""

from __future__ import annotations

from carpet.core.cards import ACE, CODES
from carpet.core.game import PLAYING
from carpet.core.position import (BadPosition, Position, count_cards, read_count, read_generator, read_rows,
                                  seeded_generator, take_fields, write_generator, write_rows)

from .rules import EMPTY, GridState
from .variants import GridVariant


def _fields(variant: GridVariant) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The game's fields after the cells: (required, optional)."""
    required = ("r",) if variant.redeals else ()
    optional = (("g",) if variant.shuffled and variant.redeals != 0 else ()) + (("p",) if variant.move_points else ())
    return required, optional


def write(state: GridState) -> str:
    v = state.variant
    required, optional = _fields(v)
    fields = [v.id, write_rows(state.cells, v.cols)]
    if "r" in required:
        fields.append(f"r:{state.redeals_left}")
    if "g" in optional:
        fields.append(f"g:{write_generator(state.rng)}")
    if "p" in optional:
        fields.append(f"p:{state.score}")
    return " ".join(fields)


def read(variant: GridVariant, cells_text: str, fields: dict[str, str]) -> Position:
    board = variant.board
    if board.decks != 1:  # pragma: no cover - no grid game has two decks
        raise BadPosition(f"{variant.id}: positions of two-deck boards are not supported")
    got = take_fields(variant, fields, *_fields(variant))
    cells = read_rows(cells_text, board.rows, board.cols, board.cell_name)
    count_cards([(c, board.cell_name(i)) for i, c in enumerate(cells) if c != EMPTY], 1, variant.cards_in_play)
    if variant.locking:
        for row in range(board.rows):
            card = cells[row * board.cols]
            if card != EMPTY and card % 13 != ACE:
                raise BadPosition(f"{CODES[card]} cannot lie in {board.cell_name(row * board.cols)}: column 0 "
                                  f"takes only aces")
    used = 0
    if got.get("r") is not None:
        used = variant.redeals - read_count(got["r"], "r:", variant.redeals)
    points = None if got.get("p") is None else read_count(got["p"], "p:", None)
    if got.get("g") is not None:
        generator = got["g"]
        read_generator(generator)  # (refused now if it is no generator)
        new_rng = lambda: read_generator(generator)  # noqa: E731
    else:  # docs/rules.md, its opening: a generator seeded by the text itself (without g:)
        probe = write(_made(variant, cells, used, points, lambda: seeded_generator("")))
        seed_text = " ".join(field for field in probe.split(" ") if not field.startswith("g:"))
        new_rng = lambda: seeded_generator(seed_text)  # noqa: E731

    def make(order: tuple[int, ...]) -> GridState:
        return _made(variant, cells, used, points, new_rng)

    return Position(variant, write(make(())), (), make)


def _made(variant: GridVariant, cells: list[int], used: int, points: int | None, new_rng) -> GridState:
    """The state (built as GridState.__init__ builds one), each with a generator of its own."""
    state = GridState.__new__(GridState)
    variant.build_tables()
    state.variant = variant
    state.rng = new_rng()
    state.rng_state = state.rng.getstate()
    state.cells = list(cells)
    state.score = 0
    state.redeals_used = used
    state.status = PLAYING
    state._index()
    state._find_prefixes()  # (scores each prefix as the rules do)
    if points is not None:
        _reachable_score(variant, state.prefix, points)
        state.score = points
    state.update_status()
    return state


def _reachable_score(variant: GridVariant, prefix: list[int], points: int) -> None:
    """``p:`` within what the cards allow: every point comes with a card joining a row's prefix,
    at most the move's points and the card's for each (the prefixes of these games never shrink)."""
    most = (variant.move_points + variant.card_points) * sum(prefix)
    if points > most:
        raise BadPosition(f"field p: {points} is more than the prefixes' {sum(prefix)} cards allow ({most}: "
                          f"{variant.move_points + variant.card_points} at most for each card that joined one)")


__all__ = ["read", "write"]
