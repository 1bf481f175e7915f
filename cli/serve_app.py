"""The ASGI application of ``carpet serve`` (cli/serve.py): its routes, the bounded body, the pool of
verifying processes.  Loaded only by ``carpet serve``, with Starlette (the extra ``carpet[serve]``).
"""

from __future__ import annotations

import asyncio
import os
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool

import msgspec
from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from carpet.formats.verdict import UNUSABLE, BestGame, Judged, Kept, Verdict, judged

from .serve import MAX_BODY, MAX_LIMIT, MAX_NAME

#: the most of a refused body read (and dropped) before the answer
MAX_DRAINED = 16 * MAX_BODY
from .storage import StorageError


def _warm(server: int | None = None) -> None:
    """A worker's start: the check loaded before the first game comes, and, with ``server`` (its pid),
    a watch that ends the worker once the server is gone, however it ended (kill -9 included)."""
    import carpet.formats.verdict  # noqa: F401

    if server is not None:
        import threading

        threading.Thread(target=_watch, args=(server,), daemon=True).start()


def _watch(server: int) -> None:
    import time

    while os.getppid() == server:
        time.sleep(0.5)
    os._exit(0)


class Verifier:
    """Worker processes that verify games, started afresh (``spawn``: the server has threads to fork)."""

    def __init__(self, workers: int | None) -> None:
        self.workers = workers or os.cpu_count() or 1
        self._pool = self._new_pool()

    def _new_pool(self) -> ProcessPoolExecutor:
        import multiprocessing

        return ProcessPoolExecutor(self.workers, mp_context=multiprocessing.get_context("spawn"),
                                   initializer=_warm, initargs=(os.getpid(),))

    def warm(self) -> None:
        for future in [self._pool.submit(_warm) for _ in range(self.workers)]:
            future.result()

    async def judge(self, data: bytes) -> Judged:
        """The verdict on ``data``, from a worker; a pool whose worker died is made again, once."""
        loop = asyncio.get_running_loop()
        for _ in range(2):
            pool = self._pool
            try:
                return await loop.run_in_executor(pool, judged, data)
            except BrokenProcessPool:
                if pool is self._pool:
                    self._pool = self._new_pool()
        return Judged(Verdict(ok=False, code=UNUSABLE, error="the game could not be verified: its verifier stopped"))

    def close(self) -> None:
        self._pool.shutdown(wait=True, cancel_futures=True)


def _json(document, status: int = 200) -> Response:
    return Response(msgspec.json.encode(document), status_code=status, media_type="application/json")


def _refuse(status: int, line: str) -> HTTPException:
    return HTTPException(status, line)


async def _body(request: Request) -> bytes:
    """The request's body, at most MAX_BODY bytes: 413 as soon as it is known to be larger.  What is
    sent beyond the bound is read and dropped (up to MAX_DRAINED), so that the client, still sending,
    gets the answer rather than a broken connection."""
    length = request.headers.get("content-length")
    if length is not None and not length.isdigit():
        raise _refuse(400, "Content-Length is not a number")
    too_large = _refuse(413, f"the body is larger than {MAX_BODY:,} bytes")
    parts, total = [], 0
    chunks = request.stream()
    if length is None or int(length) <= MAX_BODY:
        async for chunk in chunks:
            total += len(chunk)
            if total > MAX_BODY:
                break
            parts.append(chunk)
        else:
            return b"".join(parts)
    if length is None or int(length) <= MAX_DRAINED:
        async for chunk in chunks:
            total += len(chunk)
            if total > MAX_DRAINED:
                break
    raise too_large


def _name(text: str | None, what: str) -> str:
    """A player's name: 1 to MAX_NAME characters, none of them a control character."""
    if text is None or not text.strip():
        raise _refuse(400, f"name the {what}: ?player=NAME" if what == "player" else f"name the {what}")
    if len(text) > MAX_NAME or any(ord(c) < 32 or 0x7F <= ord(c) < 0xA0 for c in text) or "\ufffd" in text:
        raise _refuse(400, f"a {what}'s name is 1 to {MAX_NAME} printable characters")
    return text


def make_app(storage, verifier: Verifier) -> Starlette:
    """The application over ``storage`` (cli/storage.py), verifying in ``verifier``'s processes."""
    tallies = Tallies()

    async def in_thread(call, *args):
        try:
            return await run_in_threadpool(call, *args)
        except StorageError as exc:
            raise _refuse(503, str(exc)) from None

    async def verify(request: Request) -> Response:
        found = await verifier.judge(await _body(request))
        return _json(found.verdict)

    async def games(request: Request) -> Response:
        player = _name(request.query_params.get("player"), "player")
        found = await verifier.judge(await _body(request))
        verdict = found.verdict
        if not verdict.ok:
            return _json(verdict, 422)
        stored = await in_thread(storage.keep, verdict, player, found.created, found.binary)
        return _json(Kept(**msgspec.structs.asdict(verdict), stored=stored), 201 if stored else 200)

    async def best(request: Request) -> Response:
        game, deal = _game_and_deal(request.path_params["game"], request.path_params["deal"])
        limit = _limit(request.query_params.get("limit"))
        rows = await in_thread(storage.best, game, deal, limit)
        return _json([BestGame(*row) for row in rows])

    async def stats(request: Request) -> Response:
        player = _name(request.path_params["name"], "player")
        # (off the event loop, with the queries)
        return _json(await in_thread(lambda: tallies.record(storage, player)))

    async def health(request: Request) -> Response:
        await in_thread(storage.ping)
        return _json({"ok": True})

    routes = [Route("/verify", verify, methods=["POST"]), Route("/games", games, methods=["POST"]),
              Route("/deals/{game}/{deal:path}/best", best, methods=["GET"]),
              Route("/players/{name}/stats", stats, methods=["GET"]), Route("/health", health, methods=["GET"])]
    handlers = {HTTPException: _http_error, Exception: _bug}
    return Starlette(routes=routes, exception_handlers=handlers)


def _game_and_deal(game: str, deal: str) -> tuple[str, str]:
    from carpet.core import CarpetError, get_game, parse_deal

    try:
        variant = get_game(game)
    except CarpetError as exc:
        raise _refuse(404, str(exc)) from None
    try:
        return variant.id, parse_deal(deal).text
    except CarpetError as exc:
        raise _refuse(400, str(exc)) from None


def _limit(text: str | None) -> int:
    if text is None:
        return 10
    if not text.isdigit() or not 1 <= int(text) <= MAX_LIMIT:
        raise _refuse(400, f"limit: a whole number from 1 to {MAX_LIMIT}")
    return int(text)


class Tallies:
    """A player's record, ``carpet stats --json``'s document over the games kept for them, counted as
    the command counts files (cli/stats.py), each game named by its digest.  A kept game never
    changes, so what counting it needs (its ``Tally``) is worked out from its bytes once and kept here,
    the most recent ``most`` of them: a request reads and replays only the player's games not met before."""

    def __init__(self, most: int = 100_000) -> None:
        import threading

        self.most = most
        self._kept: dict = {}
        self._lock = threading.Lock()

    def record(self, storage, player: str):
        from carpet.formats import check

        from .stats import record_of, tally

        digests = storage.played(player)
        with self._lock:
            found = {digest: self._kept.get(digest) for digest in digests}
        missing = [digest for digest, held in found.items() if held is None]
        for digest, data in storage.logs(missing):
            found[digest] = tally(digest, *check(data))
        with self._lock:
            self._kept.update((digest, found[digest]) for digest in missing if found[digest] is not None)
            if len(self._kept) > self.most:  # the oldest go first (a dict keeps its order of entry)
                for digest in list(self._kept)[:len(self._kept) - self.most]:
                    del self._kept[digest]
        return record_of(held for held in found.values() if held is not None)


async def _http_error(request: Request, exc: HTTPException) -> Response:
    return _json({"error": _one_line(exc.detail)}, exc.status_code)


async def _bug(request: Request, exc: Exception) -> Response:
    """Not bad input: a bug in carpet (the tests fail on any 500)."""
    import traceback

    traceback.print_exception(exc)
    return _json({"error": f"internal error, a bug in carpet: {type(exc).__name__}"}, 500)


def _one_line(text) -> str:
    lines = str(text).strip().splitlines()
    return lines[0][:300] if lines else "error"
