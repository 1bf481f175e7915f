"""``carpet serve``: the referee over HTTP (docs/api.md, "Over HTTP").

Starlette on uvicorn (the optional extra ``carpet[serve]``): a small ASGI stack, its only other
dependency anyio, and the documents are msgspec's already (formats/verdict.py, formats/stats.py), so
a framework's own serialisation would only be in the way.  The server is stateless: every fact lives in
the database (cli/storage.py), and several servers may share one.

- Verification is the one check (formats/verdict.py, as ``carpet verify`` runs it), in a pool of
  worker processes: the CPU work never runs on the event loop.  The database calls run in threads.
- A body is at most 1 MB: a larger Content-Length is refused (413) before anything is read, and a
  body without one is read no further than the bound.
- Every answer is JSON; bad input is a 4xx with ``{"error": "<one line>"}``.
"""

import sys
from typing import Annotated, Optional

import typer

from .common import Failure, guard, say
from .exits import UNUSABLE

MAX_BODY = 1 << 20
MAX_LIMIT = 1000
MAX_NAME = 64


def serve(host: Annotated[str, typer.Option("--host", help="The address to listen on.")] = "127.0.0.1",
          port: Annotated[int, typer.Option("--port", min=0, max=65535, help="The port to listen on.")] = 8000,
          db: Annotated[Optional[str], typer.Option(
              "--db", metavar="URL", show_default=False,
              help="Where the kept games live: sqlite:///PATH (four slashes before an absolute path) or "
                   "postgresql://USER@HOST:PORT/NAME [default: sqlite:///carpet-games.db, in the current "
                   "folder].")] = None,
          workers: Annotated[Optional[int], typer.Option(
              "--workers", min=1, max=256, show_default=False,
              help="Processes that verify games [default: one per CPU].")] = None) -> None:
    """Verify the games players send over HTTP, and keep the good ones: per-deal records and each
    player's statistics, in SQLite or PostgreSQL (the extra: pip install 'carpet[serve]')."""
    guard(lambda: _serve(host, port, db, workers))


def _serve(host: str, port: int, db: Optional[str], workers: Optional[int]) -> None:
    try:
        import uvicorn
        from starlette.applications import Starlette  # noqa: F401
    except ImportError:
        raise Failure("carpet serve: needs the serve extra: pip install 'carpet[serve]'", UNUSABLE) from None
    from .storage import DEFAULT_URL, StorageError, open_storage

    url = db or DEFAULT_URL
    try:
        storage = open_storage(url)
    except StorageError as exc:
        raise Failure(f"carpet serve: {exc}", UNUSABLE) from None
    from .serve_app import Verifier, make_app

    listening = _listen(host, port)
    verifier = Verifier(workers)
    try:
        verifier.warm()  # (the first games do not wait for the workers to start)
        app = make_app(storage, verifier)
        say(f"carpet serve: http://{host}:{listening.getsockname()[1]} keeping games in {_shown_url(url)}, "
            f"{verifier.workers} verifying process{'es' * (verifier.workers != 1)}")
        config = uvicorn.Config(app, log_level="warning", access_log=False, lifespan="on", limit_concurrency=1024)
        _server_class(uvicorn)(config).run(sockets=[listening])
    finally:
        verifier.close()
        storage.close()
        listening.close()
    sys.stdout.flush()


def _server_class(uvicorn):
    """uvicorn's server, ended by SIGINT or SIGTERM as it is, but without raising the signal again
    afterwards, so that the verifying processes are stopped and the command exits 0."""
    import contextlib
    import signal

    class Server(uvicorn.Server):
        @contextlib.contextmanager
        def capture_signals(self):
            handled = (signal.SIGINT, signal.SIGTERM)
            before = {sig: signal.signal(sig, self.handle_exit) for sig in handled}
            try:
                yield
            finally:
                for sig, handler in before.items():
                    signal.signal(sig, handler)

    return Server


def _listen(host: str, port: int):
    """The server's socket, bound and listening: a port in use is one line here, before anything starts
    (``--port 0``: a free port, said in the line that says the server is up)."""
    import socket

    try:
        family = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)[0][0]
        listening = socket.socket(family, socket.SOCK_STREAM)
        listening.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        listening.bind((host, port))
        listening.listen(2048)
    except OSError as exc:
        raise Failure(f"carpet serve: cannot listen on {host}:{port}: {exc.strerror or exc}", UNUSABLE) from None
    return listening


def _shown_url(url: str) -> str:
    """The URL without a password."""
    import re

    return re.sub(r"(//[^/:@]*):[^/@]*@", r"\1:***@", url)
