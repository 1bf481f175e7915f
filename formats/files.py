"""Logs on disk: atomic writes, no silent overwrite, one writer at a time, nothing but regular files.

- A write goes to a temporary file beside the log, is flushed to disk, then
  renamed over it, so a crash or a full disk leaves the previous log whole.
- A symlink is written through: the temporary file sits beside the link's
  final target and replaces the target; the link itself stays a link.  Only
  links of this user's own are followed so: a link owned by another user (one
  planted in a shared folder) is refused, so that a write never lands in a file
  nobody named.  Nothing is ever opened for writing through a link: the new
  file is made by name (``O_EXCL``) and renamed into place.
- Only regular files are logs.  A directory, named pipe, socket or device is
  refused before it is opened for reading or writing (``--force`` included), so
  a pipe never hangs a command and a device node is never replaced.
- A rewrite keeps the log's mode and owner.  A read-only log (no write bit, or
  not writable by this user) is refused and left as it is, even for root.
- Temporary files are named ``.NAME.carpet-PID-TOKEN.tmp`` and locked
  (``flock``) by their writer while it writes.  One left behind by a writer that
  died (its pid gone and its lock free) is removed by the next write beside it.
- Writers of the same log take an exclusive ``flock`` on it; a process that was
  waiting finds the file replaced and locks the new one, so no update is lost.
  A writer that keeps a log open for many writes (the interactive screen, a
  pipe of actions) holds the lock from write to write: each new file is locked
  before its rename, so no other writer gets in between.  ``locked(wait=False)``
  refuses a log another writer holds (:class:`Busy`) instead of waiting: the
  screen does not open on a log that is being played elsewhere.
  A log with several names (hard links) is not played on: a rewrite would
  replace one name and leave the others with the old game.
- A command that writes a whole new file over a log (``new --force``, ``export
  --force``, ``solve -o``...) takes the same lock first (``locked(new_ok=True)``):
  it waits for a writer that holds the log and then replaces what that writer
  left, so that no writer puts an older game back over it.
"""

from __future__ import annotations

import contextlib
import errno
import os
import stat
from pathlib import Path

from .log import decode, to_bytes
from .log_types import Log, LogError

try:
    import fcntl
except ImportError:  # not POSIX: writes stay atomic, but are not serialised
    fcntl = None  # type: ignore[assignment]

MAX_LOG_BYTES = 256 * 1024 * 1024

_O_EXTRA = getattr(os, "O_CLOEXEC", 0) | getattr(os, "O_NOCTTY", 0)
#: opening a named pipe for reading with O_NONBLOCK returns at once instead of waiting for a writer
_O_READ = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | _O_EXTRA

#: how much of a log's name its temporary files repeat (a name may use all 255 bytes itself)
_NAME_IN_TEMP = 40
_KINDS = ((stat.S_ISDIR, "a directory"), (stat.S_ISFIFO, "a named pipe"), (stat.S_ISSOCK, "a socket"),
          (stat.S_ISCHR, "a character device"), (stat.S_ISBLK, "a block device"))


def wants_json(path: Path) -> bool:
    return path.suffix.lower() == ".json"  # *.carpet.json and any *.json (docs/format.md, "File names")


# --- refusing what is not a log file ---------------------------------------------------
def _not_a_file(mode: int) -> LogError:
    kind = next((name for test, name in _KINDS if test(mode)), "not a regular file")
    return LogError(f"is {kind}, not a log file", unreadable=True)


def _os_error(exc: OSError, doing: str) -> LogError:
    if isinstance(exc, FileNotFoundError):
        return LogError("no such file", unreadable=True)
    return LogError(f"cannot {doing}: {exc.strerror or exc}", unreadable=True)


def _bad_name(exc: ValueError) -> LogError:
    # an embedded NUL, or text that has no bytes on this system
    return LogError(f"not a usable file name ({str(exc).splitlines()[0][:80]})", unreadable=True)


def _open_regular(path: Path, doing: str) -> int:
    """A descriptor on the regular file at ``path`` (symlinks followed), checked before and after opening."""
    try:
        before = os.stat(path)
    except OSError as exc:
        raise _os_error(exc, doing) from None
    except ValueError as exc:
        raise _bad_name(exc) from None
    if not stat.S_ISREG(before.st_mode):
        raise _not_a_file(before.st_mode)
    try:
        fd = os.open(path, _O_READ)
    except OSError as exc:
        raise _os_error(exc, doing) from None
    after = os.fstat(fd)
    if not stat.S_ISREG(after.st_mode):  # swapped for something else in between
        os.close(fd)
        raise _not_a_file(after.st_mode)
    return fd


def open_regular(path: Path, doing: str = "read") -> int:
    """A read-only descriptor on the regular file at ``path``; LogError for anything else (a pipe never hangs)."""
    return _open_regular(path, doing)


def open_append(path: Path) -> int:
    """A descriptor appending to the regular file at ``path`` (made if missing); a named pipe, a device, a
    directory refused (never hung on: the open does not wait for a reader), the file as it was."""
    target_of(path)  # (another user's link refused)
    try:
        fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT | getattr(os, "O_NONBLOCK", 0) | _O_EXTRA, 0o644)
    except OSError as exc:
        try:
            mode = os.stat(path).st_mode
        except (OSError, ValueError):
            raise _os_error(exc, "write") from None
        raise (_not_a_file(mode) if not stat.S_ISREG(mode) else _os_error(exc, "write")) from None
    except ValueError as exc:
        raise _bad_name(exc) from None
    mode = os.fstat(fd).st_mode
    if not stat.S_ISREG(mode):
        os.close(fd)
        raise _not_a_file(mode)
    if hasattr(os, "set_blocking"):
        os.set_blocking(fd, True)
    return fd


# --- reading -------------------------------------------------------------------------
def read_bytes(path: Path) -> bytes:
    """The whole file, up to the bound of a log.  One ``os.read`` of the size the file has (and one
    more byte, to see it end) where it keeps that size: a buffered read of the bound itself would
    allocate 256 MB for every file (measured: 49 against 6 us a small file, most of what
    ``carpet verify`` spent a file outside the replay)."""
    fd = _open_regular(path, "read")
    try:
        want = min(os.fstat(fd).st_size, MAX_LOG_BYTES) + 1
        data = os.read(fd, want)
        if len(data) == want:  # it grew since (or is too large): read on to its end, up to the bound
            parts, total = [data], want
            while total <= MAX_LOG_BYTES:
                part = os.read(fd, min(1 << 20, MAX_LOG_BYTES + 1 - total))
                if not part:
                    break
                parts.append(part)
                total += len(part)
            data = b"".join(parts)
    except OSError as exc:
        raise _os_error(exc, "read") from None
    finally:
        os.close(fd)
    if len(data) > MAX_LOG_BYTES:
        raise LogError("file too large to be a carpet log", unreadable=True)
    return data


def read_log(path: Path) -> Log:
    return decode(read_bytes(path))


# --- writing -------------------------------------------------------------------------
def target_of(path: Path) -> Path:
    """Where a write to ``path`` lands: the end of its chain of symlinks (``path`` itself if none).
    LogError for a chain with a link another user owns (a write never follows one)."""
    try:
        if not os.path.islink(path):
            return path
        _check_link_owners(path)
        return Path(os.path.realpath(path))
    except ValueError as exc:
        raise _bad_name(exc) from None


#: how many links a chain may have before it is taken for a loop (Linux's own bound)
_MOST_LINKS = 40


def _check_link_owners(path: Path) -> None:
    """Refuse a chain of symlinks from ``path`` that holds a link another user owns (root too follows
    only its own): another user's link may lead anywhere that user chose."""
    me = os.geteuid() if hasattr(os, "geteuid") else None
    link = os.fspath(path)
    for _ in range(_MOST_LINKS):
        try:
            st = os.lstat(link)
        except OSError:
            return  # gone, or a name a write will refuse by itself
        if not stat.S_ISLNK(st.st_mode):
            return
        if me is not None and st.st_uid != me:
            which = "is a symlink" if link == os.fspath(path) else "leads through a symlink"
            raise LogError(f"{which} owned by another user (uid {st.st_uid}): a write never follows another "
                           f"user's link; write to its target by name, or remove the link", unreadable=True)
        link = os.path.join(os.path.dirname(link), os.readlink(link))


def temp_prefix(name: str) -> str:
    """The start of the names of the temporary files of the log called ``name``."""
    return f".{name[:_NAME_IN_TEMP]}.carpet-"


def check_target(path: Path, *, overwrite: bool = True) -> tuple[Path, os.stat_result | None]:
    """Where a write to ``path`` would land and what is there now; LogError if the write is to be refused.

    Callers with work to do before writing ask first, so that they fail before the work.
    """
    target = target_of(path)
    try:
        existing = os.stat(target)
    except FileNotFoundError:
        existing = None
    except OSError as exc:
        raise _os_error(exc, "write") from None
    except ValueError as exc:
        raise _bad_name(exc) from None
    if existing is not None:
        if not stat.S_ISREG(existing.st_mode):
            raise _not_a_file(existing.st_mode)
        if not overwrite:
            raise LogError("file exists (use --force to overwrite)", unreadable=True)
        if not existing.st_mode & 0o222 or not os.access(target, os.W_OK):
            raise LogError(f"is read-only (mode {stat.S_IMODE(existing.st_mode):04o}); it was left as it was",
                           unreadable=True)
    return target, existing


def write_atomic(path: Path, data: bytes, *, overwrite: bool = True, keep_locked: bool = False) -> int | None:
    """Write ``data`` to ``path`` whole or not at all.  With overwrite=False an existing file wins.

    A symlink is written through to its target; the target keeps its mode and owner.
    With ``keep_locked`` the new file's descriptor is returned open, its lock (taken
    before the rename) still held: the caller owns it (see :class:`Held`).
    """
    target, existing = check_target(path, overwrite=overwrite)
    directory = target.parent if str(target.parent) else Path(".")
    remove_stale_temps(directory, target.name)
    tmp = directory / f"{temp_prefix(target.name)}{os.getpid()}-{os.urandom(3).hex()}.tmp"
    fd = kept = None
    try:
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | _O_EXTRA, 0o600)
        if fcntl is not None:
            with contextlib.suppress(OSError):  # no locks on this file system: the pid still marks us
                fcntl.flock(fd, fcntl.LOCK_EX)  # held until the rename: the mark of a live writer
        _take_over(fd, existing)
        view = memoryview(data)
        while view:
            view = view[os.write(fd, view):]
        os.fsync(fd)
        if overwrite:
            os.replace(tmp, target)
        else:
            _link_new(tmp, target)
        if keep_locked:
            kept, fd = fd, None
    except FileExistsError:
        _remove(tmp)
        raise LogError("file exists (use --force to overwrite)", unreadable=True) from None
    except LogError:
        _remove(tmp)
        raise
    except OSError as exc:
        _remove(tmp)
        kept = "; the previous file is unchanged" if existing is not None else ""
        raise LogError(f"cannot write: {exc.strerror or exc}{kept}", unreadable=True) from None
    except BaseException:  # interrupted: leave no temporary behind, the old file stands
        _remove(tmp)
        raise
    finally:
        if fd is not None:
            os.close(fd)
    with contextlib.suppress(OSError):
        dir_fd = os.open(directory, os.O_RDONLY | _O_EXTRA)
        try:
            os.fsync(dir_fd)
        finally:
            os.close(dir_fd)
    return kept


def _take_over(fd: int, existing: os.stat_result | None) -> None:
    """Give the new file the old one's owner and mode (a new log: the usual mode, 0666 less the umask)."""
    if existing is None:
        os.fchmod(fd, 0o666 & ~_umask())
        return
    mine = os.fstat(fd)
    if (mine.st_uid, mine.st_gid) != (existing.st_uid, existing.st_gid):
        try:
            os.fchown(fd, existing.st_uid, existing.st_gid)
        except PermissionError:
            raise LogError(f"is owned by {existing.st_uid}:{existing.st_gid}, which a rewrite by this user could "
                           f"not keep; it was left as it was", unreadable=True) from None
    os.fchmod(fd, stat.S_IMODE(existing.st_mode))  # after the chown, which may clear set-id bits


def _umask() -> int:
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


def _link_new(tmp: Path, target: Path) -> None:
    """Put ``tmp`` in place at ``target`` only if nothing is there (no race between check and write)."""
    try:
        os.link(tmp, target)
    except OSError as exc:
        if exc.errno not in (errno.EPERM, errno.EOPNOTSUPP, errno.ENOTSUP, errno.EMLINK):
            raise
        # no hard links here (some file systems): claim the name, then rename over the empty claim
        os.close(os.open(target, os.O_WRONLY | os.O_CREAT | os.O_EXCL | _O_EXTRA, 0o600))
        os.replace(tmp, target)
        return
    os.unlink(tmp)


def _remove(path: Path) -> None:
    with contextlib.suppress(OSError):
        os.unlink(path)


def remove_stale_temps(directory: Path, name: str) -> list[str]:
    """Remove the temporary files of log ``name`` whose writer is gone; return their names.

    A writer is gone when its pid is no longer alive here and nobody holds the
    file's lock (the pid alone could be a namesake; the lock alone is taken a
    moment after the file appears).  Also removes the ``.NAME.PID.tmp`` files of
    carpet versions before the lock, by their pid alone.
    """
    prefix, legacy = temp_prefix(name), f".{name}."
    removed = []
    try:
        entries = list(os.scandir(directory))
    except (OSError, ValueError):
        return removed
    for entry in entries:
        if entry.name.startswith(prefix) and entry.name.endswith(".tmp"):
            pid, _, _ = entry.name[len(prefix):-len(".tmp")].partition("-")
            locked_too = True
        elif entry.name.startswith(legacy) and entry.name.endswith(".tmp"):
            pid, locked_too = entry.name[len(legacy):-len(".tmp")], False
        else:
            continue
        if not pid.isdigit() or _alive(int(pid)):
            continue
        with contextlib.suppress(OSError):
            if not entry.is_file(follow_symlinks=False):
                continue
            if _unlink_if_unlocked(entry.path, locked_too):
                removed.append(entry.name)
    return removed


def _alive(pid: int) -> bool:
    if pid <= 0:
        return True  # not a pid we wrote: leave the file alone
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except (PermissionError, OverflowError):
        return True  # another user's live process, or a number no pid of ours can be
    return True


def _unlink_if_unlocked(path: str, check_lock: bool) -> bool:
    if fcntl is None or not check_lock:
        os.unlink(path)
        return True
    fd = os.open(path, _O_READ | getattr(os, "O_NOFOLLOW", 0))
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            return False  # a writer (perhaps on another machine) is at work
        os.unlink(path)
        return True
    finally:
        os.close(fd)


def write_log(path: Path, log: Log, *, overwrite: bool = True, form: str | None = None) -> None:
    """Write ``log`` in ``form`` (binary, json, text), by default the one the name says."""
    write_atomic(path, to_bytes(log, form=form or ("json" if wants_json(path) else "binary")), overwrite=overwrite)


# --- one writer at a time ------------------------------------------------------------
class Busy(LogError):
    """The log is held by another writer, and the caller would not wait (``locked(wait=False)``)."""

    def __init__(self) -> None:
        super().__init__("is being played by another carpet process (one writer at a time); close that one first",
                         unreadable=True)


class Held:
    """A log locked by :func:`locked`: :meth:`write` rewrites it and keeps the lock on the new file."""

    __slots__ = ("path", "fd")

    def __init__(self, path: Path, fd: int | None) -> None:
        self.path, self.fd = path, fd

    def write(self, log: Log, form: str, *, read_back: bool = True) -> None:
        """Write ``log`` atomically in ``form``; the new file is locked before it takes the log's name.
        ``read_back``: :func:`carpet.formats.log.to_bytes`'s."""
        self.replace(to_bytes(log, form=form, read_back=read_back))

    def replace(self, data: bytes) -> None:
        """Write ``data`` atomically in place of the file; the lock is kept on the new file."""
        fd = write_atomic(self.path, data, keep_locked=self.fd is not None)
        if fd is not None:
            old, self.fd = self.fd, fd
            os.close(old)  # a writer waiting on the old file wakes, finds it replaced, and waits on the new one


@contextlib.contextmanager
def locked(path: Path, *, wait: bool = True, new_ok: bool = False):
    """Hold an exclusive lock on the log at ``path`` while reading, changing and rewriting it.

    Yields a :class:`Held`.  With ``wait=False`` a log another writer holds is refused
    (:class:`Busy`) instead of waited for.  ``new_ok``: for a writer of a whole new file
    (``--force``), a missing file is no error (nothing to lock: the Held has no descriptor),
    and one with other names (hard links) is written as asked, this name alone.
    """
    if new_ok and not _exists(path):
        yield Held(path, None)
        return
    if fcntl is None:
        _check_regular(path)
        yield Held(path, None)
        return
    while True:
        fd = _open_regular(path, "open")
        try:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX if wait else fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                raise Busy() from None
            mine = os.fstat(fd)
            now = os.stat(path)
            same = (mine.st_dev, mine.st_ino) == (now.st_dev, now.st_ino)
        except FileNotFoundError:
            same = False
        except OSError as exc:  # a file system without locks (ENOLCK): better no play than a lost one
            os.close(fd)
            raise LogError(f"cannot lock it for writing: {exc.strerror or exc}", unreadable=True) from None
        except BaseException:
            os.close(fd)
            raise
        if same:
            break
        os.close(fd)  # replaced while we waited: lock the new file
    held = Held(path, fd)
    try:
        if mine.st_nlink > 1 and not new_ok:
            _refuse_hard_links(path, mine)
        yield held
    finally:
        os.close(held.fd)


def _exists(path: Path) -> bool:
    """Whether a write to ``path`` would replace a file (a dangling link makes a new one)."""
    try:
        os.stat(path)
    except FileNotFoundError:
        return False
    except (OSError, ValueError):
        return True  # (the lock's own open says what is wrong)
    return True


def _refuse_hard_links(path: Path, st: os.stat_result) -> None:
    """A rewrite replaces one name: a log with other names (hard links) would fork, the others keeping the old game."""
    target = target_of(path)
    if remove_stale_temps(target.parent if str(target.parent) else Path("."), target.name):
        st = os.stat(path)  # one was a killed writer's, linked to the log for a moment
    if st.st_nlink > 1:
        raise LogError(f"has {st.st_nlink} names (hard links), and a rewrite would leave the others with the old "
                       f"game; play on a copy, or a symlink", unreadable=True)


def _check_regular(path: Path) -> None:
    os.close(_open_regular(path, "open"))
