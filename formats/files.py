"""Logs on disk: atomic writes, no silent overwrite, one writer at a time.

A write goes to a temporary file beside the target, is flushed to disk, then
renamed over it, so a crash or a full disk leaves the previous log whole.
Writers of the same log take an exclusive ``flock`` on it; a process that was
waiting finds the file replaced and locks the new one, so no update is lost.
"""

from __future__ import annotations

import contextlib
import os
from pathlib import Path

from .log import Log, LogError, decode, to_bytes

try:
    import fcntl
except ImportError:  # not POSIX: writes stay atomic, but are not serialised
    fcntl = None  # type: ignore[assignment]

MAX_LOG_BYTES = 256 * 1024 * 1024


def wants_json(path: Path) -> bool:
    return path.suffix.lower() == ".json"  # *.carpet.json and any *.json (docs/format.md, "File names")


def read_bytes(path: Path) -> bytes:
    try:
        with open(path, "rb") as f:
            data = f.read(MAX_LOG_BYTES + 1)
    except FileNotFoundError:
        raise LogError("no such file", unreadable=True) from None
    except IsADirectoryError:
        raise LogError("is a directory, not a log", unreadable=True) from None
    except OSError as exc:
        raise LogError(f"cannot read: {exc.strerror}", unreadable=True) from None
    if len(data) > MAX_LOG_BYTES:
        raise LogError("file too large to be a carpet log", unreadable=True)
    return data


def read_log(path: Path) -> Log:
    return decode(read_bytes(path))


def write_atomic(path: Path, data: bytes, *, overwrite: bool = True) -> None:
    """Write ``data`` to ``path`` whole or not at all.  With overwrite=False an existing file wins."""
    directory = path.parent if str(path.parent) else Path(".")
    tmp = directory / f".{path.name}.{os.getpid()}.tmp"
    try:
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
        try:
            view = memoryview(data)
            while view:
                view = view[os.write(fd, view):]
            os.fsync(fd)
        finally:
            os.close(fd)
        if overwrite:
            os.replace(tmp, path)
        else:
            os.link(tmp, path)  # fails if path exists: no race between check and write
            os.unlink(tmp)
    except FileExistsError:
        _remove(tmp)
        raise LogError("file exists (use --force to overwrite)", unreadable=True) from None
    except OSError as exc:
        _remove(tmp)
        kept = "; the previous file is unchanged" if path.exists() else ""
        raise LogError(f"cannot write: {exc.strerror or exc}{kept}", unreadable=True) from None
    except BaseException:  # interrupted: leave no temporary behind, the old file stands
        _remove(tmp)
        raise
    with contextlib.suppress(OSError):
        dir_fd = os.open(directory, os.O_RDONLY)
        try:
            os.fsync(dir_fd)
        finally:
            os.close(dir_fd)


def _remove(path: Path) -> None:
    with contextlib.suppress(OSError):
        os.unlink(path)


def write_log(path: Path, log: Log, *, overwrite: bool = True, form: str | None = None) -> None:
    """Write ``log`` in ``form`` (binary, json, text), by default the one the name says."""
    write_atomic(path, to_bytes(log, form=form or ("json" if wants_json(path) else "binary")), overwrite=overwrite)


@contextlib.contextmanager
def locked(path: Path):
    """Hold an exclusive lock on the log at ``path`` while reading, changing and rewriting it."""
    if fcntl is None:
        yield
        return
    while True:
        try:
            fd = os.open(path, os.O_RDONLY)
        except FileNotFoundError:
            raise LogError("no such file", unreadable=True) from None
        except OSError as exc:
            raise LogError(f"cannot open: {exc.strerror}", unreadable=True) from None
        fcntl.flock(fd, fcntl.LOCK_EX)
        try:
            same = os.fstat(fd).st_ino == os.stat(path).st_ino
        except FileNotFoundError:
            same = False
        if same:
            break
        os.close(fd)  # replaced while we waited: lock the new file
    try:
        yield
    finally:
        os.close(fd)
