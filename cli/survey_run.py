"""Playing a survey's deals: in this process, on worker processes, or on a Dask cluster.

The deals still to play are cut into chunks, a pure function of the range, the deals
already done, the number of jobs, the player and the game (or ``--chunk``): each chunk is a
few runs of consecutive deal numbers, about a tenth of a second to a second of work, so
that handing a chunk to a process costs little beside it while an interruption loses
little.  A chunk's deals are played one after the other by :func:`play_chunk`, the same
function in this process, in a worker process or on a Dask worker, and every deal's
outcome depends on its number and the player alone, so the results are the same whatever
runs them and in whatever order chunks come back.
"""

from __future__ import annotations

import math
import os
import signal
import time
from concurrent.futures import FIRST_COMPLETED, Future, wait
from typing import Callable, Iterable, Iterator

from .exits import FAILED

#: (first, stop) runs of consecutive deal numbers, stop excluded
Runs = tuple[tuple[int, int], ...]
#: one deal's outcome as a worker sends it back: deal, result, moves, score, actions, nodes, seconds
Row = tuple[int, str, int, int, int, int, float]


def play_chunk(game: str, target: str, budget: int | None, runs: Runs) -> list[Row]:
    """Play every deal of ``runs`` with the player function ``target`` ("module:function")."""
    from importlib import import_module

    from carpet.core import Session, get_game, parse_deal

    variant = get_game(game)
    module, _, name = target.partition(":")
    player = getattr(import_module(module), name)
    rows: list[Row] = []
    clock = time.process_time  # CPU seconds of this worker: other work on a shared machine hardly moves it
    for first, stop in runs:
        for number in range(first, stop):
            started = clock()
            played = player(Session(variant, parse_deal(str(number))), budget)
            rows.append((number, *played, round(clock() - started, 6)))
    return rows


# --- the plan ----------------------------------------------------------------------------
def pending_runs(first: int, last: int, done: Iterable[int]) -> list[tuple[int, int]]:
    """The deals from ``first`` to ``last`` not in ``done``, as runs of consecutive numbers."""
    runs, start = [], first
    for deal in sorted(d for d in set(done) if first <= d <= last):
        if deal > start:
            runs.append((start, deal))
        start = deal + 1
    if start <= last:
        runs.append((start, last + 1))
    return runs


def chunk_size(pending: int, jobs: int, preferred: int) -> int:
    """The player's preferred size, but small enough for every job to get about four chunks."""
    return max(1, min(preferred, math.ceil(pending / (4 * jobs))))


def chunks(runs: list[tuple[int, int]], size: int) -> Iterator[Runs]:
    """Cut the runs into chunks of ``size`` deals (the last one may be smaller), in order."""
    chunk: list[tuple[int, int]] = []
    room = size
    for first, stop in runs:
        while first < stop:
            take = min(room, stop - first)
            chunk.append((first, first + take))
            first += take
            room -= take
            if room == 0:
                yield tuple(chunk)
                chunk, room = [], size
    if chunk:
        yield tuple(chunk)


# --- running -----------------------------------------------------------------------------
Task = tuple[str, str, "int | None", Runs]


def run_here(tasks: Iterable[Task], done: Callable[[list[Row]], None]) -> None:
    """One job: every chunk in this process."""
    for task in tasks:
        done(play_chunk(*task))


def run_pool(tasks: Iterable[Task], done: Callable[[list[Row]], None], jobs: int, preload: list[str]) -> None:
    """``jobs`` worker processes, started from a fork server that has imported the engine once."""
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor

    if "forkserver" in multiprocessing.get_all_start_methods():
        context = multiprocessing.get_context("forkserver")
        context.set_forkserver_preload(preload)
    else:
        context = multiprocessing.get_context("spawn")
    # the workers watch this pipe: when this process dies, even by kill -9, its end closes and
    # they stop (a pool's workers would otherwise wait for work for ever)
    alive_r, alive_w = context.Pipe(duplex=False)
    pool = ProcessPoolExecutor(max_workers=jobs, mp_context=context, initializer=_worker_start,
                               initargs=(alive_r,))
    def submit(*args):
        # the workers (and the fork server) are started here, with Ctrl-C blocked: they inherit the mask,
        # so an interrupt from the terminal reaches this process alone, which stops them (no traceback
        # of theirs, even while they start); one that came meanwhile is taken on unblocking
        if not hasattr(signal, "pthread_sigmask"):
            return pool.submit(*args)
        previous = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
        try:
            return pool.submit(*args)
        finally:
            signal.pthread_sigmask(signal.SIG_SETMASK, previous)

    try:
        _feed(submit, tasks, done, 2 * jobs)
    except BaseException:
        # Ctrl-C or a failure: the chunks in flight are lost, and the workers stop now
        for process in list(getattr(pool, "_processes", {}).values()):
            process.terminate()
        # and the pool's manager thread ends before this returns: left running, it could close the
        # pool's wake-up pipe just as Python's exit handler wrote to it (a traceback at exit, seen under load)
        pool.shutdown(wait=True, cancel_futures=True)
        raise
    else:
        pool.shutdown()
    finally:
        alive_w.close()
        alive_r.close()


def _worker_start(alive) -> None:
    # Ctrl-C is the parent's to handle: it stops the workers itself
    signal.signal(signal.SIGINT, signal.SIG_IGN)

    def watch() -> None:
        try:
            alive.poll(None)  # never written to: returns when the parent's end closes
        except (OSError, EOFError):
            pass
        os._exit(FAILED)  # (read by no one: the parent that would is gone)

    import threading

    threading.Thread(target=watch, name="parent watch", daemon=True).start()


def run_dask(tasks: Iterable[Task], done: Callable[[list[Row]], None], client) -> None:
    """The chunks as tasks of an existing Dask cluster (``client`` connected to its scheduler)."""
    executor = client.get_executor(pure=False)
    threads = sum(client.nthreads().values())
    try:
        _feed(executor.submit, tasks, done, max(2, 2 * threads))
    except BaseException:
        executor.shutdown(wait=False)
        raise


def _feed(submit: Callable[..., Future], tasks: Iterable[Task], done: Callable[[list[Row]], None],
          depth: int) -> None:
    """Keep ``depth`` chunks in flight; hand each finished chunk to ``done`` as it comes."""
    in_flight: set[Future] = set()
    try:
        for task in tasks:
            while len(in_flight) >= depth:
                finished, in_flight = wait(in_flight, return_when=FIRST_COMPLETED)
                for future in finished:
                    done(future.result())
            in_flight.add(submit(play_chunk, *task))
        while in_flight:
            finished, in_flight = wait(in_flight, return_when=FIRST_COMPLETED)
            for future in finished:
                done(future.result())
    finally:
        for future in in_flight:
            future.cancel()


def default_jobs() -> int:
    """Every core this process may run on."""
    try:
        return len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        return os.cpu_count() or 1
