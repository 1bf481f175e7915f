"""``carpet solve``: is this deal (or this recorded game's position) winnable, and how?

Exit codes: 0 for any answer the solver gives (won, unwinnable, unknown: each is honest);
2 for bad usage or an unusable file (the usual one line on stderr).
"""

import sys
import time
from pathlib import Path
from typing import Annotated, NamedTuple, Optional

import typer

from carpet.core import GAMES, CarpetError, Session, parse_deal
from carpet.core.seen import CHANCE_NODES, CHANCE_SAMPLES
from carpet.core.solver import DEFAULT_MEMORY, DEFAULT_NODES

from . import clock
from .common import (MOST_NODES, MOST_SECONDS, SOLVER_TOOL, Failure, Force, JsonFlag, PositionText, fail, game_and_deal, guard,
                     load, position_line, position_session, print_json, say, write_new)
from .exits import UNUSABLE
from .common import seconds as seconds_option

HELP = "\n\n".join((
    "Search a deal, or the position a recorded game has reached, for a win. `carpet solve GAME A-B` "
    "searches each deal from A to B in turn, in one process: a line a deal (--json: a document a line).",
    "Three answers, never a guess: won (with a winning line), unwinnable (every reachable position "
    "was searched: a proof) or unknown (the budget ran out first; the nodes searched are reported). "
    "A node is one action tried; the same deal and --nodes give the same answer and line on every "
    "machine. --time is the only machine-dependent option.",
    "Information: in the carpet and quilt families (Persian Carpet apart) the solver knows the order "
    "of the face-down stock, as the deal number fixes it, so a won answer may use what a player cannot "
    "see (\"full\" information, as Solvitaire solves). The grid games hide no cards (\"open\"), but "
    "where a redeal shuffles (kovrik-shuffle, kovrik-shuffle-2 and the Montana games but "
    "spaces-and-aces) the solver knows what each shuffle will deal, as the deal number fixes it "
    "(\"full\").",
    "--seen: the chances from here for a player who sees only the table: the orders of the unseen "
    "cards (what shuffles will deal, in the grid games) consistent with what the player has seen, "
    "--samples of them drawn from a generator seeded by that alone, each solved with --nodes "
    "(default 20,000): how many are won, unwinnable and unknown, with a 95 % interval. A position "
    "may then write its unseen cards ??.",
    "Exit code 0 for any of the three answers; 2 for bad usage or an unusable file.",
))


def solve(target: Annotated[Optional[str], typer.Argument(metavar="GAME|FILE",
                                                          help="A game id (then a deal number), or a game log "
                                                               "(or neither, with --position).",
                                                          show_default=False)] = None,
          number: Annotated[Optional[str], typer.Argument(metavar="N",
                                                          help="The deal number, with a game id; or a range A-B, each "
                                                               "deal from A to B, a line each.",
                                                          show_default=False)] = None,
          nodes: Annotated[Optional[int], typer.Option("--nodes", min=1, max=MOST_NODES,
                                                       show_default=f"{DEFAULT_NODES:,}; with --seen, "
                                                                    f"{CHANCE_NODES:,} per order",
                                                       help="Budget in nodes (actions tried).")] = None,
          memory: Annotated[int, typer.Option("--memory", min=1, max=1 << 20, metavar="MB",
                                              help="The most memory the search may hold, in MB; reaching it "
                                                   "ends the search with \"unknown\".")] = DEFAULT_MEMORY >> 20,
          seconds: Annotated[Optional[float], typer.Option("--time", callback=seconds_option(MOST_SECONDS),
                                                           show_default=False,
                                                           help="Also stop after this many seconds of CPU "
                                                                "time. Machine-dependent: the same deal "
                                                                "may be decided on one machine and not "
                                                                "on a slower one.")] = None,
          best: Annotated[bool, typer.Option("--best", help="After the first win, go on for the best "
                                                            "win as the game ranks it (the highest "
                                                            "score, then the fewest counted moves), "
                                                            "and say whether it is proven best.")] = False,
          output: Annotated[Optional[Path], typer.Option("-o", "--output", show_default=False,
                                                         help="Write the winning line as a recorded "
                                                              "game (`carpet verify` checks it).")] = None,
          force: Force = False,
          as_json: JsonFlag = False,
          position: PositionText = None,
          seen: Annotated[bool, typer.Option("--seen", help="The chances for a player who sees only what "
                                                            "they have seen: sampled orders of the unseen "
                                                            "cards, each solved.")] = False,
          samples: Annotated[int, typer.Option("--samples", min=1, max=100_000,
                                               help="With --seen: the orders sampled.")] = CHANCE_SAMPLES,
          plan: Annotated[bool, typer.Option("--plan", help="Print the solver's plan for GAME (its stages, in "
                                                            "order, with their shares of the budget).")] = False) -> None:
    def run():
        if plan:
            return _plan(target)
        if seen:
            if best or output is not None:
                raise Failure("carpet solve: --seen counts sampled orders; --best and -o are for one line", UNUSABLE)
            if number is not None and "-" in number:
                raise Failure("carpet solve: --seen takes one deal, not a range", UNUSABLE)
            return _seen(target, number, position, CHANCE_NODES if nodes is None else nodes, samples, as_json)
        budget = _Budget(DEFAULT_NODES if nodes is None else nodes, best, seconds, memory << 20)
        if number is not None and "-" in number:
            if output is not None or position is not None:
                raise Failure("carpet solve: a range of deals writes no file and takes no --position", UNUSABLE)
            return _solve_range(target, number, budget, as_json)
        session, log = _position(target, number, position)
        solution, spent = _search(session, budget)
        written = None
        if output is not None:
            if solution.result == "won":
                _write(output, session, log, solution.line, force)
                written = str(output)
            else:
                say(f"no winning line to write: {output} not written")
        _answer(session, solution, spent, budget, as_json, file=None if log is None else str(target), written=written)
    guard(run)


class _Budget(NamedTuple):
    """What one search may spend, and whether it goes on for the best win."""
    nodes: int
    best: bool
    seconds: float | None
    memory: int


def _search(session: Session, budget: _Budget):
    """(the solver's answer, the CPU seconds it took) for the position of ``session``."""
    from carpet.core.solver import solve as search

    stop = None
    started = time.process_time()
    if budget.seconds is not None:
        deadline = started + budget.seconds
        stop = lambda: time.process_time() >= deadline  # noqa: E731
    solution = search(session, nodes=budget.nodes, best=budget.best, stop=stop, memory=budget.memory)
    return solution, time.process_time() - started


def _solve_range(game: str | None, deals: str, budget: _Budget, as_json: bool) -> None:
    """``solve GAME A-B``: each deal from A to B searched in turn in this process, its answer a line
    (``--json``: a document a line) as soon as it is known."""
    from .survey import parse_range

    if game is None:
        raise Failure("carpet solve: a range of deals needs a game: carpet solve GAME A-B", UNUSABLE)
    first, last = parse_range(deals, "carpet solve: deals")
    variant, _ = game_and_deal(game, None)
    for number in range(first, last + 1):
        session = Session(variant, parse_deal(str(number)))
        solution, spent = _search(session, budget)
        _answer(session, solution, spent, budget, as_json, actions=False)
        sys.stdout.flush()  # (a line as soon as its deal is decided: a reader follows the run)


def _answer(session: Session, solution, spent: float, budget: _Budget, as_json: bool, file: str | None = None,
            written: str | None = None, actions: bool = True) -> None:
    """The answer for one position: its JSON document, or its line (and the winning line's actions)."""
    text = session.variant.text
    line = [text(a) for a in solution.line]
    if as_json:
        from carpet.formats.documents import Solve

        print_json(Solve(game=session.variant.id, deal=session.deal.text, result=solution.result,
                         line=line, moves=solution.moves, score=solution.score, nodes=solution.nodes,
                         seconds=round(spent, 3), information=solution.information,
                         best=solution.best, best_score=solution.best_score, file=file,
                         events=len(session.events), output=written, position=position_line(session),
                         memory_full=solution.memory_full))
        return
    _show(session, solution, line, spent, written, actions)
    if solution.memory_full:
        say(f"the search stopped at its memory bound ({budget.memory >> 20:,} MB, --memory) after "
            f"{solution.nodes:,} nodes")


solve.__doc__ = HELP


def _plan(target: str | None) -> None:
    """``solve --plan GAME``: the solver's plan for the game, one stage a line."""
    from carpet.core.numbering import parse_deal
    from carpet.core.solver import plan_of

    game = (target or "").strip().lower()
    if game not in GAMES:
        raise Failure(f"carpet solve: --plan takes a game id, not {target!r}", UNUSABLE)
    print(f"{game}:")
    print("\n".join(plan_of(GAMES[game].new_state(parse_deal("1"))).describe()))


def _seen(target: str | None, number: str | None, text: str | None, nodes: int, samples: int,
          as_json: bool) -> None:
    """``solve --seen``: the sampled orders consistent with what the player has seen, each solved."""
    from carpet.core.position import read
    from carpet.core.seen import chances, seen_of, seen_of_position

    started = time.process_time()
    if text is not None:
        if target is not None:
            raise Failure("carpet solve: give GAME NUMBER, a recorded game or --position TEXT, only one", UNUSABLE)
        try:
            typed = read(text)
        except CarpetError as exc:
            raise Failure(f"carpet: --position: {exc}", UNUSABLE) from None
        variant, deal, events, what, file = typed.variant, typed.text, 0, seen_of_position(typed), None
    else:
        session, log = _position(target, number, None)
        variant, deal, events = session.variant, session.deal.text, len(session.events)
        what, file = seen_of(session), None if log is None else str(target)
    found = chances(what, samples=samples, nodes=nodes)
    spent = time.process_time() - started
    rate = found.won / found.samples
    if as_json:
        from carpet.formats.documents import SolveSeen

        print_json(SolveSeen(game=variant.id, deal=deal, information="seen", samples=found.samples, won=found.won,
                             unwinnable=found.unwinnable, unknown=found.unknown, rate=round(rate, 6),
                             interval=[round(x, 6) for x in found.interval], nodes_per_sample=nodes,
                             nodes=found.nodes, seconds=round(spent, 3), seen=what.text, file=file, events=events))
        return
    low, high = found.interval
    orders = "order" if found.samples == 1 else "orders"
    print(f"won in {found.won} of {found.samples} {orders} ({100 * low:.0f}–{100 * high:.0f} %): {variant.id}, "
          f"what the player has seen; unwinnable {found.unwinnable}, unknown {found.unknown} "
          f"({found.nodes:,} nodes, {nodes:,} per order, {spent:.2f} s)")
    if not what.hidden:
        say("nothing is hidden here: one order, the position itself")


def _position(target: str | None, number: str | None, text: str | None):
    """(session, log or None): a fresh deal for GAME NUMBER, a position given as text, else the
    verified log's position."""
    if text is not None:
        if target is not None:
            raise Failure("carpet solve: give GAME NUMBER, a recorded game or --position TEXT, only one", UNUSABLE)
        return position_session(text), None
    if target is None:
        raise Failure("carpet solve: what to solve? carpet solve GAME NUMBER, carpet solve FILE or carpet solve "
                      "--position TEXT", UNUSABLE)
    if number is not None:
        variant, deal = game_and_deal(target, number)
        return Session(variant, deal), None
    if target.strip().lower() in GAMES and not Path(target).exists():
        raise Failure(f"carpet solve: {target} needs a deal number: carpet solve {target} NUMBER", UNUSABLE)
    log, session = load(Path(target))
    return session, log


def _write(path: Path, session: Session, log, line: list[int], force: bool) -> None:
    """The position's game with the winning line played on (each at the last clock reading)."""
    from carpet.formats import new_header, record, upgraded

    if log is None:
        played = Session(session.variant, session.deal)
        header = new_header(played, created=clock.now_iso(), tool=SOLVER_TOOL)
    else:
        import msgspec

        played = Session.replay(session.variant, session.deal, log.events)
        # written in the current version, as play writes a log back; its tool says the solver played on
        header = msgspec.structs.replace(upgraded(log.header), tool=SOLVER_TOOL)
    try:
        for action in line:
            played.act(action, played.clock_ms)
    except CarpetError as exc:  # a bug: the solver's line must be legal
        raise fail(path, exc) from None
    jumps = {} if log is None else {"clock_jumps": log.summary.clock_jumps,
                                    "clock_skipped_ms": log.summary.clock_skipped_ms}
    write_new(path, record(played, header, **jumps), force)


def _show(session: Session, solution, line: list[str], spent: float, written: str | None,
          actions: bool = True) -> None:
    where = f"{session.variant.id} {session.deal.both_forms}"
    if session.events:
        where += f" after {len(session.events)} events"
    searched = f"{solution.nodes:,} nodes, {spent:.2f} s"
    info = f"{solution.information} information"
    if solution.result == "won":
        best = ""
        if solution.best:
            best = ", proven best (no win scores more, or as much in fewer moves)"
        elif solution.best_score:
            best = (", the highest score (proven); the fewest moves for it best found within the budget, "
                    "not proven")
        elif solution.best is not None:
            best = ", best found within the budget (not proven best)"
        print(f"won: {where}, {len(line)} actions, {solution.moves} moves, score {solution.score}{best} "
              f"({searched}, {info})")
        if line and actions:
            print(" ".join(line))
        if written:
            say(f"wrote {written}")
    elif solution.result == "unwinnable":
        print(f"unwinnable: {where}: every reachable position searched, no win ({searched}, {info})")
    else:
        print(f"unknown: {where}: no win found and none ruled out within the budget ({searched}, {info})")
