"""``carpet survey``: a player's win rate over a range of deals, with its 95 % interval.

Runs on every core (or a Dask cluster), appends each deal's result to ``--out`` as it
finishes so an interrupted survey resumes where it stopped (``--resume``), and summarises
results files again, several machines' together (``--summary``).
"""

import sys
from pathlib import Path
from typing import Annotated, Optional

import typer

from .common import MOST_NODES, Failure, Force, JsonFlag, check_output, guard, print_json, say, seconds, settle, write_file
from .exits import UNUSABLE
from .outcome import interrupts_held, shown

#: seconds to wait for a Dask scheduler (and its first worker) to answer, by default
DASK_TIMEOUT = 5.0
#: the most worker processes a survey starts for each core (more only cost memory: each holds the engine)
JOBS_PER_CORE = 4


def survey(args: Annotated[Optional[list[str]], typer.Argument(
               metavar="GAME|FILE...", help="The game to survey (see `carpet games`); with --summary, "
               "results files to read.", show_default=False)] = None,
           deals: Annotated[Optional[str], typer.Option(
               "--deals", help="The deal numbers, a range like 1-100000 (or one number).",
               show_default=False)] = None,
           player: Annotated[str, typer.Option(
               "--player", metavar="[simple|hint|seen|solve|simple-seen]", autocompletion=lambda: _player_names(),
               help="simple (the built-in player), hint (follows the hint), seen (follows the hint that sees "
               "only what the player has seen), solve (the solver, --nodes per deal) or simple-seen (the "
               "built-in player, choosing on an order of the unseen cards drawn from what it has seen).")] = "simple",
           nodes: Annotated[Optional[int], typer.Option(
               "--nodes", min=1, max=MOST_NODES, help="The solver's node budget per deal (solve only; default: the "
               "solver's own).", show_default=False)] = None,
           jobs: Annotated[Optional[int], typer.Option(
               "--jobs", "-j", min=1, help=f"Processes to play on \\[default: every core; at most {JOBS_PER_CORE} "
               "a core].",
               show_default=False)] = None,
           out: Annotated[Optional[Path], typer.Option(
               "--out", "-o", help="Append each deal's result to this file (JSON lines) as it finishes.",
               show_default=False)] = None,
           resume: Annotated[bool, typer.Option(
               "--resume", help="Go on with --out FILE: skip the deals already there (the summary is of "
               "--deals alone).")] = False,
           dask: Annotated[Optional[str], typer.Option(
               "--dask", metavar="ADDRESS", help="Play on this Dask scheduler's workers (pip install "
               "'carpet\\[dask]'), e.g. tcp://scheduler:8786.", show_default=False)] = None,
           dask_timeout: Annotated[float, typer.Option(
               "--dask-timeout", callback=seconds(3600, 0.1), metavar="SECONDS", help="How long to wait for the Dask scheduler "
               "to answer.")] = DASK_TIMEOUT,
           chunk: Annotated[Optional[int], typer.Option(
               "--chunk", min=1, max=1_000_000, help="Deals handed out at a time \\[default: by player and game]; never "
               "changes the results.", show_default=False)] = None,
           summary: Annotated[bool, typer.Option(
               "--summary", help="Read results files (concatenations too) and print their summary.")] = False,
           html: Annotated[Optional[Path], typer.Option(
               "--html", help="Also write the summary as a self-contained HTML page with charts (a new file, "
               "or --force).", show_default=False)] = None,
           force: Force = False,
           as_json: JsonFlag = False) -> None:
    """Win rate of a player over a range of deals, with its 95 % interval, on every core.

    Examples: carpet survey carpet --deals 1-100000 --player simple -o carpet.jsonl;
    carpet survey carpet --deals 1-100000 -o carpet.jsonl --resume (after an interruption);
    carpet survey --summary a.jsonl b.jsonl --json.
    """
    def run():
        if html is not None:  # refused now (exists, a pipe, a directory...), not after the survey's work
            check_output(html, force)
        if summary:
            given = [name for name, value in (("--deals", deals), ("--nodes", nodes), ("--jobs", jobs),
                                              ("--out", out), ("--resume", resume), ("--dask", dask),
                                              ("--chunk", chunk)) if value]
            if given:
                raise Failure(f"carpet survey: --summary reads results files; {given[0]} is for running a "
                              "survey", UNUSABLE)
            if player != "simple":
                raise Failure("carpet survey: --summary reads results files; --player is for running a "
                              "survey (the files say whose results they are)", UNUSABLE)
            if not args:
                raise Failure("carpet survey: --summary needs results files", UNUSABLE)
            tally, identity = summarise([Path(a) for a in args])
        else:
            if not args or len(args) != 1:
                raise Failure("carpet survey: give one GAME (or --summary FILE...)", UNUSABLE)
            if deals is None:
                raise Failure("carpet survey: --deals is needed, e.g. --deals 1-1000", UNUSABLE)
            tally, identity = run_survey(args[0], deals, player=player, nodes=nodes, jobs=jobs, out=out,
                                         resume=resume, dask=dask, chunk=chunk,
                                         dask_timeout=dask_timeout)
        show(tally, identity, as_json=as_json, html=html, force=force)
    guard(run)


def _player_names() -> list[str]:
    """Shell completion of --player: the players core/players.py knows."""
    from carpet.core.players import PLAYERS

    return list(PLAYERS)


# --- running -----------------------------------------------------------------------------
def parse_range(text: str, what: str = "carpet survey: --deals") -> tuple[int, int]:
    """``A-B`` (or ``N``) -> (A, B), plain deal numbers from 1, A <= B; ``what`` starts an error's line."""
    from carpet.core import CarpetError, parse_deal

    first, dash, last = text.strip().partition("-")
    if not dash:
        last = first
    try:
        if not (first.strip().isascii() and first.strip().isdigit() and last.strip().isascii()
                and last.strip().isdigit()):
            raise ValueError(text)  # (int() would take 1_000, +5, and digits of other scripts)
        a, b = int(first), int(last)
    except ValueError:
        raise Failure(f"{what} {text!r}: use a range of deal numbers like 1-1000",
                      UNUSABLE) from None
    try:
        parse_deal(str(a)), parse_deal(str(b))
    except CarpetError as exc:
        raise Failure(f"{what} {text!r}: {exc}", UNUSABLE) from None
    if b < a:
        raise Failure(f"{what} {text!r} is empty: the first deal comes after the last "
                      f"(did you mean {b}-{a}?)", UNUSABLE)
    return a, b


def run_survey(game: str, deals: str, *, player: str = "simple", nodes: int | None = None,
               jobs: int | None = None, out: Path | None = None, resume: bool = False,
               dask: str | None = None, chunk: int | None = None, dask_timeout: float = DASK_TIMEOUT):
    """Play the deals not yet in ``out``; returns the tally of the whole range and its identity."""
    from carpet.core import CarpetError
    from carpet.core.families import FAMILY_OF
    from carpet.core.players import get_player
    from carpet.core.survey import Tally
    from carpet.formats.survey import DealResult, ResultsWriter

    from .common import game_and_deal
    from .survey_run import chunks

    variant, _ = game_and_deal(game, None)
    try:
        chosen = get_player(player)
    except CarpetError as exc:
        raise Failure(f"carpet survey: {exc}", UNUSABLE) from None
    first, last = parse_range(deals)
    budget = _budget(chosen, nodes)
    identity = (variant.id, chosen.name, budget)
    if resume and out is None:
        raise Failure("carpet survey: --resume goes on with a results file: give it with --out FILE", UNUSABLE)
    if dask is not None and jobs is not None:
        raise Failure("carpet survey: --jobs is for this machine; with --dask the cluster's workers play",
                      UNUSABLE)
    if out is not None and not resume and out.exists() and out.stat().st_size > 0:
        raise Failure(f"carpet survey: {out} exists: --resume to go on with it, or choose another --out",
                      UNUSABLE)
    client = _connect(dask, dask_timeout) if dask is not None else None

    tally = Tally()
    writer = None
    try:
        if out is not None:
            try:
                writer = ResultsWriter(out)
            except CarpetError as exc:
                raise Failure(f"carpet survey: {exc}", UNUSABLE) from None
            runs = _resume(out, resume, identity, first, last, tally, writer)
        else:
            runs = [(first, last + 1)]
        pending = sum(stop - start for start, stop in runs)
        workers, size = _workers(jobs, client, chunk or chosen.chunk_for(variant.family), pending, chunk)
        tasks = ((variant.id, chosen.target, budget, part) for part in chunks(runs, size))
        game_name, player_name = variant.id, chosen.name

        total = last - first + 1
        with _Progress(tally, total) as progress:
            def finished(rows) -> None:
                with interrupts_held():  # a chunk's lines and their count together: what Ctrl-C says is true
                    for deal, result, moves, score, actions, spent, cpu in rows:
                        if writer is not None:
                            writer.write(DealResult(deal, result, moves, score, actions, spent, cpu,
                                                    game_name, player_name, budget))
                        tally.add(deal, result, moves, score)
                    settle(recorded=_stopped(tally.deals, total, out))
                progress.update()

            try:
                if pending:
                    _play(tasks, finished, client, dask, workers, FAMILY_OF[variant.id].preload)
            except KeyboardInterrupt:  # the root group says it in one line: what settle() last noted
                progress.stop()
                settle(recorded=_stopped(tally.deals, total, out))
                raise
    finally:
        if writer is not None:
            writer.close()
        if client is not None:
            _disconnect(client)
    return tally, identity


def _play(tasks, finished, client, dask: str | None, workers: int, preload) -> None:
    """Hand the tasks to the cluster, to this process, or to a pool of worker processes."""
    from carpet.formats.survey import ResultsError

    from .survey_run import run_dask, run_here, run_pool

    try:
        if client is not None:
            run_dask(tasks, finished, client)
        elif workers == 1:
            run_here(tasks, finished)
        else:
            run_pool(tasks, finished, workers, ["carpet.cli.survey_run", "carpet.core.players", *preload])
    except ResultsError as exc:
        raise Failure(f"carpet survey: {exc}", UNUSABLE) from None
    except Exception as exc:
        if client is None:
            raise
        # carpet missing or different on the workers, a worker lost...: the cluster's, not ours
        why = str(exc).splitlines()[0] if str(exc) else ""
        raise Failure(f"carpet survey: --dask {dask}: a task failed on the cluster: "
                      f"{type(exc).__name__}: {why}", UNUSABLE) from None


def _resume(out: Path, resume: bool, identity, first: int, last: int, tally, writer) -> list[tuple[int, int]]:
    """The runs of deals still to play: with ``resume``, those in ``out`` counted into ``tally``
    and skipped (a torn last line dropped)."""
    from carpet.core import CarpetError
    from carpet.formats.survey import Collection, Reading, read_results

    from .survey_run import pending_runs

    done = Collection(identity)
    try:
        if resume:
            reading = Reading(out)
            for result in read_results(out, reading):
                if done.add(result, out) and first <= result.deal <= last:
                    tally.add(result.deal, result.result, result.moves, result.score)
            writer.repair(reading)
            if reading.torn_tail:
                say(f"{out}: dropped a torn last line (the run before was stopped mid-write)")
    except CarpetError as exc:
        raise Failure(f"carpet survey: {exc}", UNUSABLE) from None
    return pending_runs(first, last, done.deals())


def _workers(jobs: int | None, client, preferred: int, pending: int, chunk: int | None) -> tuple[int, int]:
    """How many workers play, and how many deals each task holds."""
    from .survey_run import chunk_size, default_jobs

    cores = default_jobs()
    workers = jobs or cores
    if workers > JOBS_PER_CORE * cores:
        say(f"carpet survey: --jobs {workers:,} capped at {JOBS_PER_CORE * cores} ({JOBS_PER_CORE} a core, "
            f"{cores} core{'s' * (cores > 1)} here)")
        workers = JOBS_PER_CORE * cores
    if client is not None:  # the cluster's threads play
        workers = max(1, sum(client.nthreads().values()))
    if client is None and pending <= preferred:
        workers = 1  # one chunk's work: less than starting worker processes would cost
    return workers, chunk or chunk_size(pending, workers, preferred)


def _stopped(deals: int, total: int, out: Path | None) -> str:
    """What an interrupted survey leaves, said truly."""
    if out is None:
        return f"the survey stopped after {deals:,} of {total:,} deals; no results file was given (--out), none kept"
    return f"the survey stopped after {deals:,} of {total:,} deals; their results are in {out}: add --resume to go on"


def _budget(chosen, nodes: int | None) -> int | None:
    if not chosen.budget:
        if nodes is not None:
            raise Failure(f"carpet survey: --nodes is the solver's budget; the {chosen.name} player has none",
                          UNUSABLE)
        return None
    if nodes is not None:
        return nodes
    try:
        from carpet.core.solver import DEFAULT_NODES
    except ImportError:
        raise Failure("carpet survey: this build of carpet has no solver", UNUSABLE) from None
    return DEFAULT_NODES


def _connect(address: str, timeout: float):
    """A client of the Dask scheduler at ``address``, with at least one worker; one line and exit 2 if not."""
    try:
        import logging

        from distributed import Client
    except ImportError:
        raise Failure("carpet survey: --dask needs Dask: pip install 'carpet[dask]'", UNUSABLE) from None
    # the scheduler's absence is told in one line below, not in distributed's log
    logging.getLogger("distributed").setLevel(logging.CRITICAL)
    _probe(address, timeout)
    try:
        client = Client(address, timeout=timeout, set_as_default=False)
    except Exception as exc:  # OSError, TimeoutError, ValueError for a malformed address...
        why = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
        raise Failure(f"carpet survey: --dask {address}: no Dask scheduler answers ({why})", UNUSABLE) from None
    try:
        client.wait_for_workers(1, timeout=timeout)
    except Exception:
        _disconnect(client)
        raise Failure(f"carpet survey: --dask {address}: the scheduler has no workers", UNUSABLE) from None
    return client


def _probe(address: str, timeout: float) -> None:
    """Refuse, in one line and within ``timeout``, an address that is malformed (before a Client is made:
    a half-made one prints a traceback when collected, 10 s later) or a tcp:// listener that does not speak
    as a scheduler does: one answers a connection with its handshake at once, unasked (distributed's
    comm/core.py); a listener that never answers would hold Client's connect far past ``timeout``."""
    import socket

    from distributed.comm import parse_address
    from distributed.comm.addressing import parse_host_port

    def refuse(why: str) -> Failure:
        return Failure(f"carpet survey: --dask {address}: no Dask scheduler answers ({why})", UNUSABLE)
    try:
        scheme, location = parse_address(address)
        if scheme != "tcp":
            return  # (tls://, ucx://, inproc://: the client's own connect says what is wrong)
        host, port = parse_host_port(location)
    except (ValueError, TypeError) as exc:
        raise refuse(str(exc).splitlines()[0] if str(exc) else type(exc).__name__) from None
    try:
        with socket.create_connection((host, port), timeout=timeout) as conn:
            conn.settimeout(timeout)
            if not conn.recv(1):
                raise refuse("it closed the connection")
    except socket.timeout:
        raise refuse(f"nothing came back within {timeout:g} s") from None
    except OSError as exc:
        raise refuse(exc.strerror or type(exc).__name__) from None


def _disconnect(client) -> None:
    try:
        client.close(timeout=5)
    except Exception:
        pass


class _Progress:
    """A Rich progress bar on stderr, only when stderr is a terminal: deals done, deals per
    second, the running win rate and its interval, and the time left."""

    def __init__(self, tally, total: int) -> None:
        self.tally = tally
        self.total = total
        self.bar = None

    def __enter__(self) -> "_Progress":
        if not sys.stderr.isatty():
            return self
        from rich.console import Console
        from rich.progress import (BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn,
                                   TimeRemainingColumn)

        self.bar = Progress(TextColumn("deals"), BarColumn(), MofNCompleteColumn(),
                            TextColumn("{task.fields[speed]}"), TextColumn("{task.fields[rate]}"),
                            TimeElapsedColumn(), TextColumn("left"), TimeRemainingColumn(),
                            console=Console(file=sys.stderr), transient=True)
        self.bar.start()
        self.task = self.bar.add_task("survey", total=self.total, completed=self.tally.deals,
                                      speed="", rate=self._rate())
        self.started_with = self.tally.deals
        import time
        self.clock = time.monotonic
        self.started = self.clock()
        return self

    def _rate(self) -> str:
        t = self.tally
        if not t.deals:
            return ""
        low, high = t.interval
        return f"won {100 * t.rate:.2f}% [{100 * low:.2f}–{100 * high:.2f}]"

    def update(self) -> None:
        if self.bar is None:
            return
        elapsed = max(1e-9, self.clock() - self.started)
        speed = (self.tally.deals - self.started_with) / elapsed
        self.bar.update(self.task, completed=self.tally.deals, speed=f"{speed:,.0f} deals/s",
                        rate=self._rate())

    def stop(self) -> None:
        if self.bar is not None:
            self.bar.stop()
            self.bar = None

    def __exit__(self, *exc) -> None:
        self.stop()


# --- reading results files ----------------------------------------------------------------
def summarise(paths: list[Path]):
    """The tally of every result in the files (each deal once) and their identity."""
    from carpet.core.survey import Tally
    from carpet.formats.survey import Collection, Reading, ResultsError, read_results

    tally = Tally()
    collection = Collection()
    try:
        for path in paths:
            reading = Reading(path)
            for result in read_results(path, reading):
                if collection.add(result, path):
                    tally.add(result.deal, result.result, result.moves, result.score)
            if reading.torn or reading.torn_tail:
                torn = reading.torn + reading.torn_tail
                say(f"{path}: skipped {torn} torn line{'s' * (torn > 1)} (a run stopped mid-write)")
    except ResultsError as exc:
        raise Failure(f"carpet survey: {exc}", UNUSABLE) from None
    if collection.identity is None:
        raise Failure(f"carpet survey: no results in {', '.join(map(str, paths))}", UNUSABLE)
    if collection.repeated:
        say(f"{collection.repeated} deals found more than once, each counted once")
    return tally, collection.identity


# --- showing ------------------------------------------------------------------------------
def show(tally, identity, *, as_json: bool, html: Path | None, force: bool = False) -> None:
    from carpet.formats.survey import survey_document

    doc = survey_document(tally, *identity)
    if html is not None:  # under the log's file rules: whole or not at all, a regular file, no overwrite
        from .survey_html import page

        try:
            write_file(html, page(doc, tally).encode("utf-8"), force)
        except Failure as exc:
            raise Failure(f"carpet survey: {str(exc).removeprefix('carpet: ')}", exc.code) from None
    if as_json:
        print_json(doc)
    else:
        from .common import console

        console().print(table(doc))


def table(doc):
    """The summary for people: counts, the rate with its interval, moves and score of won deals."""
    from rich.console import Group
    from rich.text import Text

    from carpet.formats.survey import describe

    from .tables import counts_table, rate_lines, spread_lines

    span = f"deal {doc.first}" if doc.first == doc.last else f"deals {doc.first:,}–{doc.last:,}"
    title = Text(shown(f"{describe(doc.game, doc.player, doc.budget)}: {span}"), style="bold")
    rows = [("won", doc.won), ("lost", doc.lost)]
    if doc.player == "solve" or doc.unwinnable or doc.unknown:
        rows += [("unwinnable", doc.unwinnable), ("unknown", doc.unknown)]
    lines = rate_lines(doc, "unknown deals" if doc.unknown else None) + spread_lines(doc, "won deals")
    return Group(title, counts_table(rows, doc.deals, "deals"), Text(""), Text("\n".join(lines)))
