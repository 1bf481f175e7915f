"""The kept games of ``carpet serve``: one table in SQLite (the default, a file) or PostgreSQL (psycopg 3).

- One row a game, its primary key the game's digest (formats/verdict.py: the same for every form of one
  game).  A game is kept by ``INSERT ... ON CONFLICT (digest) DO NOTHING``: the database alone decides
  which of several posts of one game stores it, however many servers share it; no check-then-insert.
- The game's bytes are kept in the binary form, so that a newer carpet can verify every record again.
- The schema's version is the one row of ``carpet_schema``; the tables are made on first start (under a
  lock: several servers may start at once).  A database of a newer schema than this carpet knows is
  refused in one line.
- SQLite: WAL (readers do not wait for the writer), a busy timeout, ``synchronous=FULL`` (a kept game
  survives a power cut, as it does in PostgreSQL); a connection per thread.  PostgreSQL: a small pool.

Plain SQL: six statements, the same for both databases but for the placeholder and two column
types; an ORM would add more than it saves.  Every call blocks: the server runs them in its threads.
"""

from __future__ import annotations

import threading
import time
from pathlib import Path

from carpet.core import CarpetError

SCHEMA_VERSION = 1

_SCHEMA = """
CREATE TABLE IF NOT EXISTS kept_games (
    digest TEXT PRIMARY KEY,
    player TEXT NOT NULL,
    game TEXT NOT NULL,
    deal TEXT NOT NULL,
    created TEXT NOT NULL,
    status TEXT NOT NULL,
    score {int} NOT NULL,
    moves {int} NOT NULL,
    elapsed_ms {int} NOT NULL,
    kept_ms {int} NOT NULL,
    log {blob} NOT NULL
);
CREATE INDEX IF NOT EXISTS kept_games_best ON kept_games (game, deal, status, score DESC, moves, elapsed_ms);
CREATE INDEX IF NOT EXISTS kept_games_player ON kept_games (player)
"""

_KEEP = ("INSERT INTO kept_games (digest, player, game, deal, created, status, score, moves, elapsed_ms, kept_ms, log) "
         "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (digest) DO NOTHING")
_BEST = ("SELECT player, score, moves, elapsed_ms, digest FROM kept_games WHERE game = ? AND deal = ? AND status = 'won' "
         "ORDER BY score DESC, moves, elapsed_ms, kept_ms, digest LIMIT ?")
_PLAYED = "SELECT digest FROM kept_games WHERE player = ? ORDER BY digest"
_LOGS = "SELECT digest, log FROM kept_games WHERE digest IN ({})"
_LOGS_AT_ONCE = 500  # digests a query asks for (SQLite allows 32,766 parameters, PostgreSQL 65,535)

DEFAULT_URL = "sqlite:///carpet-games.db"


class StorageError(CarpetError):
    """The database cannot be used as asked: one line."""


class Storage:
    """The kept games in one database; the SQL is the same for both kinds (``?`` placeholders)."""

    def keep(self, verdict, player: str, created: str, binary: bytes) -> bool:
        """Keep a verified game; True if this call stored it, False if a game of its digest was kept."""
        row = (verdict.digest, player, verdict.game, verdict.deal, created, verdict.status, verdict.score,
               verdict.moves, verdict.elapsed_ms, int(time.time() * 1000), binary)
        return self._execute(_KEEP, row).rowcount == 1

    def best(self, game: str, deal: str, limit: int) -> list[tuple]:
        """(player, score, moves, elapsed_ms, digest) of the won games of a deal, best first."""
        return self._execute(_BEST, (game, deal, limit)).fetchall()

    def played(self, player: str) -> list[str]:
        """The digest of each game kept for ``player``."""
        return [digest for digest, in self._execute(_PLAYED, (player,)).fetchall()]

    def logs(self, digests: list[str]):
        """(digest, the game's bytes in the binary form) of each kept game of ``digests``."""
        for at in range(0, len(digests), _LOGS_AT_ONCE):
            some = digests[at:at + _LOGS_AT_ONCE]
            for digest, data in self._execute(_LOGS.format(", ".join("?" * len(some))), tuple(some)).fetchall():
                yield digest, bytes(data)

    def ping(self) -> None:
        self._execute("SELECT 1", ()).fetchall()

    def _create(self, run) -> None:
        """The schema, made if missing, ``run(sql, params)`` executing in one locked transaction."""
        run("CREATE TABLE IF NOT EXISTS carpet_schema (id INTEGER PRIMARY KEY CHECK (id = 1), "
            "version INTEGER NOT NULL)", ())
        found = run("SELECT version FROM carpet_schema", ()).fetchall()
        if found and found[0][0] > SCHEMA_VERSION:
            raise StorageError(f"the database holds schema version {found[0][0]}, newer than this carpet's "
                               f"({SCHEMA_VERSION}): serve it with a newer carpet")
        for statement in _SCHEMA.format(**self._types).split(";"):
            run(statement, ())
        if not found:
            run("INSERT INTO carpet_schema (id, version) VALUES (1, ?)", (SCHEMA_VERSION,))


class SqliteStorage(Storage):
    _types = {"int": "INTEGER", "blob": "BLOB"}

    def __init__(self, path: str) -> None:
        import sqlite3

        self._sqlite = sqlite3
        self.path = path
        self._local = threading.local()
        connection = self._connection()
        try:
            connection.execute("BEGIN IMMEDIATE")
            self._create(connection.execute)
            connection.execute("COMMIT")
        except sqlite3.Error as exc:
            raise StorageError(f"{path}: {exc}") from None
        except StorageError:
            connection.execute("ROLLBACK")
            raise

    def _connection(self):
        connection = getattr(self._local, "connection", None)
        if connection is None:
            sqlite3 = self._sqlite
            try:
                connection = sqlite3.connect(self.path, timeout=30, isolation_level=None, check_same_thread=False)
                connection.execute("PRAGMA journal_mode=WAL")
                connection.execute("PRAGMA synchronous=FULL")
            except sqlite3.Error as exc:
                raise StorageError(f"{self.path}: {exc}") from None
            self._local.connection = connection
        return connection

    def _execute(self, sql: str, params: tuple):
        try:
            return self._connection().execute(sql, params)
        except self._sqlite.Error as exc:
            raise StorageError(f"the database: {exc}") from None

    def close(self) -> None:
        connection = getattr(self._local, "connection", None)
        if connection is not None:
            connection.close()


class PostgresStorage(Storage):
    _types = {"int": "BIGINT", "blob": "BYTEA"}

    def __init__(self, url: str, *, size: int = 4) -> None:
        import psycopg
        from psycopg_pool import ConnectionPool

        self._psycopg = psycopg
        try:
            self._pool = ConnectionPool(url, min_size=1, max_size=size, kwargs={"autocommit": True}, open=True,
                                        timeout=30)
            self._pool.wait(timeout=30)
        except (psycopg.Error, Exception) as exc:  # (the pool's PoolTimeout is not a psycopg.Error)
            raise StorageError(f"cannot reach the database: {_one_line(exc)}") from None
        try:
            with self._pool.connection() as connection, connection.transaction():
                connection.execute("SELECT pg_advisory_xact_lock(2049)")  # one server makes the schema at a time
                self._create(lambda sql, params: connection.execute(sql.replace("?", "%s"), params))
        except psycopg.Error as exc:
            self._pool.close()
            raise StorageError(f"the database: {_one_line(exc)}") from None
        except StorageError:
            self._pool.close()
            raise

    def _execute(self, sql: str, params: tuple):
        psycopg = self._psycopg
        try:
            with self._pool.connection() as connection:
                cursor = connection.execute(sql.replace("?", "%s"), params)
                return _Fetched(cursor.rowcount, cursor.fetchall() if cursor.description else [])
        except psycopg.Error as exc:
            raise StorageError(f"the database: {_one_line(exc)}") from None

    def close(self) -> None:
        self._pool.close()


class _Fetched:
    """A PostgreSQL cursor's answer, read before its connection went back to the pool."""

    def __init__(self, rowcount: int, rows: list) -> None:
        self.rowcount, self.rows = rowcount, rows

    def fetchall(self) -> list:
        return self.rows


def _one_line(exc: Exception) -> str:
    text = str(exc).strip().splitlines()
    return text[0] if text else type(exc).__name__


def open_storage(url: str) -> Storage:
    """The storage a ``--db`` URL names: ``sqlite:///PATH`` (relative; four slashes for an absolute path) or
    ``postgresql://...``; the schema made or checked.  StorageError (one line) for anything else."""
    if url.startswith("sqlite:///"):
        path = url[len("sqlite:///"):]
        if not path:
            raise StorageError(f"--db {url}: name the file, sqlite:///PATH")
        if Path(path).is_dir():
            raise StorageError(f"--db {url}: {path} is a directory")
        return SqliteStorage(path)
    if url.startswith(("postgresql://", "postgres://")):
        try:
            import psycopg  # noqa: F401
            import psycopg_pool  # noqa: F401
        except ImportError:
            raise StorageError("PostgreSQL needs psycopg 3: pip install 'carpet[serve]'") from None
        return PostgresStorage(url)
    raise StorageError(f"--db {url[:80]!r}: sqlite:///PATH or postgresql://...")
