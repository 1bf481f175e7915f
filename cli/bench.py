"""``carpet bench``: the figures the project promises, measured on this machine (README, "How fast").

The harness and the frozen copy of commit 778fb62's verify path it compares with live in the
checkout's top-level ``benchmarks/`` folder, outside the installed package (a yardstick is not
part of carpet): this command finds that folder beside the package's source (an editable
install) or in the working directory, and says so in one line where neither holds it.  Its
options are the harness's (``python benchmarks/bench.py`` takes the same).  ``--solve`` measures
the solver instead (cli/bench_solve.py: no copy of anything, so it stays with the command).
"""

import importlib.util
import sys
from pathlib import Path
from types import ModuleType
from typing import Annotated, Optional

import typer

from carpet.core import GAMES

from .common import UNUSABLE, Failure, JsonFlag, guard


def harness() -> ModuleType:
    """benchmarks/bench.py of the checkout this package runs from (or of the working directory)."""
    for root in (Path(__file__).resolve().parent.parent, Path.cwd()):
        path = root / "benchmarks" / "bench.py"
        if path.is_file():
            known = sys.modules.get("carpet_benchmarks")
            if known is not None and getattr(known, "__file__", None) == str(path):
                return known
            spec = importlib.util.spec_from_file_location("carpet_benchmarks", path)
            module = importlib.util.module_from_spec(spec)
            sys.modules["carpet_benchmarks"] = module
            spec.loader.exec_module(module)
            return module
    raise Failure("carpet bench: the benchmark harness is not installed: run it from a checkout of carpet "
                  "(its benchmarks/ folder), e.g. python benchmarks/bench.py", UNUSABLE)


SOLVE_GAMES = "kovrik,kovrik-hard,carpet,carpet-auto,carpet-foster,crazy-quilt,indian-carpet,persian-carpet"


def bench(games: Annotated[int, typer.Option("--games", min=1, max=10_000, help="Player's games per game id.")] = 20,
          random_events: Annotated[int, typer.Option("--random-events", min=100, max=10_000_000,
                                                     help="Events of each random game (two per game id).")] = 2000,
          rounds: Annotated[int, typer.Option("--rounds", min=1, max=1000, help="Interleaved timing rounds.")] = 5,
          startup_runs: Annotated[int, typer.Option("--startup-runs", min=0, max=10_000,
                                                    help="Paired start-up runs (0: verify only, no start-up "
                                                         "or memory).")] = 11,
          redeals: Annotated[int, typer.Option("--redeals", min=1, max=10_000_000,
                                               help="Events of the memory log (redeals).")] = 100_000,
          solve: Annotated[Optional[str], typer.Option(
              "--solve", metavar="GAMES", show_default=False,
              help=f"Measure the solver instead, on these game ids (comma separated, or 'all': {SOLVE_GAMES}): "
                   "answers, CPU time per deal (median, p90), nodes per second (cli/bench_solve.py).")] = None,
          deals: Annotated[str, typer.Option("--deals", help="With --solve: a range of deals.")] = "1-50",
          nodes: Annotated[int, typer.Option("--nodes", min=1, max=10**10, help="With --solve: the budget per deal.")] = 400_000,
          old_python: Annotated[Optional[str], typer.Option(
              "--old-python", metavar="PYTHON", show_default=False,
              help="Compare verify with another install of carpet itself (e.g. commit 778fb62 installed in a "
                   "venv of its own) instead of the copy of its reading path kept here: that interpreter reads "
                   "the version-1 files, this one the version-2 files, each timed in a process of its own.")
          ] = None,
          only: Annotated[Optional[str], typer.Option("--game", metavar="GAMES", show_default=False,
                                                      help="Only these game ids (comma separated).")] = None,
          as_json: JsonFlag = False) -> None:
    """Measure: verify speed against the previous format and replay, bytes per event, start-up, memory
    (or, with --solve, the solver)."""
    if solve is not None:
        from .bench_solve import run_solve_bench

        def run():
            try:
                first, _, last = deals.partition("-")
                numbers = range(int(first), int(last or first) + 1)
            except ValueError:
                raise Failure(f"carpet: --deals {deals!r}: use a range like 1-200", UNUSABLE) from None
            names = SOLVE_GAMES if solve.strip().lower() == "all" else solve
            run_solve_bench([g.strip() for g in names.split(",") if g.strip()], numbers, nodes, as_json)
        guard(run)
        return

    def run():
        picked = [g.strip() for g in only.split(",") if g.strip()] if only is not None else None
        unknown = [g for g in picked or () if g not in GAMES]
        if unknown or picked == []:
            named = ", ".join(g[:40] for g in unknown[:3]) or "none given"
            raise Failure(f"carpet bench: --game: not a game id ({named}); see carpet games", UNUSABLE)
        harness().run_bench(games, random_events, rounds, startup_runs, redeals, as_json, old_python, picked)
    guard(run)
