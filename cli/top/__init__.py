"""carpet: the engine (``carpet.core``), the log format (``carpet.formats``) and the command (``carpet.cli``),
and a small typed API for programs (docs/api.md):

- ``carpet.verify(data)``: the :class:`Verdict` on a recorded game in any form (bytes, its text or a
  path); never raises for bad data.
- ``carpet.new(game, deal)`` and ``carpet.open(path_or_bytes)``: a :class:`Game` to play in code.
- ``carpet.solve(game_or_position_text, nodes=...)``: the solver's :class:`Solution`.

Nothing is imported here until a name is used: ``import carpet`` costs nothing, ``import carpet.core``
loads the engine alone, and the pytest plugin (``carpet.cli.pytest_plugin``) costs a pytest run nothing
until used.
"""

TYPE_CHECKING = False  # (typing is not imported: `import carpet` stays free)

__all__ = ["verify", "new", "open", "solve", "Verdict", "Game", "Solution", "CarpetError", "__version__"]

if TYPE_CHECKING:
    from carpet.cli.api import Game, Solution, new, open, solve, verify
    from carpet.core import CarpetError, __version__
    from carpet.formats.verdict import Verdict

#: where each name of the API lives (loaded on first use)
_HOMES = {"verify": "carpet.cli.api", "new": "carpet.cli.api", "open": "carpet.cli.api", "solve": "carpet.cli.api",
          "Game": "carpet.cli.api", "Solution": "carpet.cli.api", "Verdict": "carpet.formats.verdict",
          "CarpetError": "carpet.core", "__version__": "carpet.core"}


def __getattr__(name: str):
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module 'carpet' has no attribute {name!r}")
    from importlib import import_module

    value = getattr(import_module(home), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))
