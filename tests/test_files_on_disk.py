"""Issue 8, "nothing lost, nothing forked, nothing bricked": logs on disk under real-world abuse.

Each test names the case of the issue it reproduces; each failed on commit 778fb62.
Named pipes, sockets and device nodes are made in the test's own directory (CI
runs as root, so a regression replaces a node of ours, never one in /dev), and
read-only means the mode says so, which root would otherwise ignore.
"""

import os
import socket
import stat
import subprocess
import sys
import time

import pytest

from clitools import carpet, doc, events, one_line, run, temporaries

ROOT_ONLY = "needs root to make device nodes and give files away (CI runs as root)"


# --- "A symlinked log is replaced, not written through, so the game silently forks" ---------------------
def test_a_symlinked_log_is_written_through_and_stays_a_link(game, tmp_path):
    (tmp_path / "games").mkdir()
    link = tmp_path / "games" / "current.log"
    link.symlink_to("../g.log")
    assert run("play", link, "AD>a0", "-q").exit_code == 0
    assert run("hint", link, "-q").exit_code == 0
    assert link.is_symlink() and os.readlink(link) == "../g.log"
    assert events(game) == 2  # the real log received both
    assert temporaries(tmp_path) == [] and temporaries(tmp_path / "games") == []


def test_new_and_export_write_through_links_too(game, tmp_path):
    dangling = tmp_path / "next.log"
    dangling.symlink_to("made-by-new.log")
    assert run("new", "kovrik", "2", "-o", dangling).exit_code == 0
    assert dangling.is_symlink() and (tmp_path / "made-by-new.log").is_file()
    assert run("new", "kovrik", "3", "-o", dangling).exit_code == 2  # exists, through the link
    assert run("new", "kovrik", "3", "-o", dangling, "--force").exit_code == 0
    assert dangling.is_symlink() and doc(run("show", dangling, "--json"))["deal"] == "ms3"
    assert run("export", game, "-o", dangling, "--force").exit_code == 0
    assert dangling.is_symlink() and doc(run("show", tmp_path / "made-by-new.log", "--json"))["deal"] == "ms1"

# --- "As root, new --force -o /dev/full replaced the device node with a log file" -------------------------
@pytest.mark.skipif(os.geteuid() != 0, reason=ROOT_ONLY)
def test_force_never_replaces_a_device_a_socket_or_a_directory(game, tmp_path):
    full = tmp_path / "full"
    os.mknod(full, 0o666 | stat.S_IFCHR, os.makedev(1, 7))  # what /dev/full is
    sock = tmp_path / "sock"
    with socket.socket(socket.AF_UNIX) as s:
        s.bind(str(sock))
    folder = tmp_path / "folder"
    folder.mkdir()
    for target, kind in ((full, "character device"), (sock, "socket"), (folder, "directory")):
        for command in (["new", "kovrik", "1", "-o", target, "--force"], ["export", game, "-o", target, "--force"]):
            line = one_line(run(*command), 2)
            assert f"is a {kind}, not a log file" in line
    assert stat.S_ISCHR(os.stat(full).st_mode) and os.stat(full).st_rdev == os.makedev(1, 7)
    assert stat.S_ISSOCK(os.stat(sock).st_mode) and folder.is_dir()
    link = tmp_path / "to-full.log"
    link.symlink_to(full)
    assert "character device" in one_line(run("new", "kovrik", "1", "-o", link, "--force"), 2)
    assert stat.S_ISCHR(os.stat(full).st_mode) and link.is_symlink()
    assert temporaries(tmp_path) == []


@pytest.mark.skipif(os.geteuid() != 0, reason=ROOT_ONLY)
def test_a_device_is_refused_before_it_is_read(tmp_path):
    zero = tmp_path / "zero"
    os.mknod(zero, 0o666 | stat.S_IFCHR, os.makedev(1, 5))  # /dev/zero: reading it never ends by itself
    for command in (["show", zero], ["verify", zero], ["play", zero, "hint"], ["export", zero, "-o", tmp_path / "x"]):
        assert "is a character device, not a log file" in one_line(run(*command), 2)

# --- "A named pipe given as the log hangs until killed" -------------------------------------------------
def test_a_named_pipe_is_refused_at_once_never_waited_on(tmp_path):
    fifo = tmp_path / "pipe.log"
    os.mkfifo(fifo)
    for command in (["show", fifo], ["verify", fifo], ["play", fifo, "hint"], ["undo", fifo], ["moves", fifo],
                    ["new", "kovrik", "1", "-o", fifo, "--force"]):
        try:
            done = carpet(*command, timeout=15)
        except subprocess.TimeoutExpired:
            pytest.fail(f"carpet {command[0]} waited on a named pipe")
        assert done.returncode == 2 and done.stderr.count("\n") == 1
        assert "is a named pipe, not a log file" in done.stderr
    assert stat.S_ISFIFO(os.stat(fifo).st_mode)

# --- "Rewriting a log resets its mode (0600 becomes 0644)" ----------------------------------------------
def test_a_rewrite_keeps_the_mode(game):
    os.chmod(game, 0o600)
    assert run("hint", game, "-q").exit_code == 0
    assert stat.S_IMODE(os.stat(game).st_mode) == 0o600
    os.chmod(game, 0o640)
    assert run("new", "kovrik", "4", "-o", game, "--force").exit_code == 0
    assert stat.S_IMODE(os.stat(game).st_mode) == 0o640


@pytest.mark.skipif(os.geteuid() != 0, reason=ROOT_ONLY)
def test_a_rewrite_keeps_the_owner(game):
    os.chown(game, 12345, 23456)
    assert run("hint", game, "-q").exit_code == 0
    after = os.stat(game)
    assert (after.st_uid, after.st_gid) == (12345, 23456) and events(game) == 1


def test_a_log_that_cannot_keep_its_owner_is_left_alone(game, monkeypatch):
    # Decision: rather than silently take the file over (what a rename would do), refuse.
    before = game.read_bytes()
    real_fstat = os.fstat

    def someone_elses(fd):  # the new file comes out with an owner other than the log's
        st = real_fstat(fd)
        return os.stat_result((st.st_mode, st.st_ino, st.st_dev, st.st_nlink, st.st_uid + 1, st.st_gid,
                               st.st_size, st.st_atime, st.st_mtime, st.st_ctime))

    def refuse(fd, uid, gid):
        raise PermissionError(1, "Operation not permitted")
    monkeypatch.setattr(os, "fchown", refuse)
    monkeypatch.setattr("carpet.formats.files.os.fstat", someone_elses)
    line = one_line(run("hint", game, "-q"), 2)
    monkeypatch.undo()
    assert "which a rewrite by this user could not keep" in line and game.read_bytes() == before
    assert temporaries(game.parent) == []

# --- "a read-only (0444) log is rewritten anyway" --------------------------------------------------------
def test_a_read_only_log_is_refused_and_unchanged(game):
    os.chmod(game, 0o444)  # root may write it anyway: the mode, not EACCES, says read-only
    before = game.read_bytes()
    for command in (["hint", game], ["play", game, "AD>a0"], ["new", "kovrik", "2", "-o", game, "--force"]):
        line = one_line(run(*command), 2)
        assert "read-only (mode 0444)" in line
    assert game.read_bytes() == before and stat.S_IMODE(os.stat(game).st_mode) == 0o444
    assert run("show", game).exit_code == 0 and run("verify", game).exit_code == 0  # reading is fine

# --- "Four temporary files were left behind by the 281 kills and are never cleaned up" ----------------------
def test_a_temporary_file_of_a_killed_writer_is_removed_by_the_next_write(game):
    # A writer stuck in fsync (as on a slow disk) is killed -9 with its temporary file on disk.
    code = ("import os, sys, time\nos.fsync = lambda fd: time.sleep(120)\n"
            "from carpet.cli.app import main\nsys.argv[1:] = ['hint', sys.argv[1], '-q']\nmain()\n")
    p = subprocess.Popen([sys.executable, "-c", code, str(game)])
    deadline = time.monotonic() + 30
    while not temporaries(game.parent) and time.monotonic() < deadline:
        time.sleep(0.02)
    left = temporaries(game.parent)
    p.kill()
    p.wait()
    assert len(left) == 1 and left[0].startswith(".g.log.")
    assert temporaries(game.parent) == left  # nobody cleaned up after the killed one
    assert run("hint", game, "-q").exit_code == 0
    assert temporaries(game.parent) == []  # the next write did
    assert events(game) == 1  # the killed writer's hint never landed; the new one did


def test_temporary_files_are_recognisable_and_only_a_dead_writers_are_removed(tmp_path):
    import fcntl

    from carpet.formats.files import remove_stale_temps, temp_prefix

    dead = subprocess.Popen([sys.executable, "-c", "pass"])
    dead.wait()
    prefix = temp_prefix("g.log")
    assert prefix == ".g.log.carpet-"
    live = tmp_path / f"{prefix}{os.getpid()}-aaaaaa.tmp"  # a writer at work here
    gone = tmp_path / f"{prefix}{dead.pid}-bbbbbb.tmp"
    busy = tmp_path / f"{prefix}{dead.pid}-cccccc.tmp"  # pid gone here, lock held (a writer on another host)
    legacy = tmp_path / f".g.log.{dead.pid}.tmp"  # the name carpet used before
    other = tmp_path / f".other.log.carpet-{dead.pid}-dddddd.tmp"  # another log's
    for p in (live, gone, busy, legacy, other):
        p.write_bytes(b"partial")
    fd = os.open(busy, os.O_RDONLY)
    fcntl.flock(fd, fcntl.LOCK_EX)
    try:
        removed = remove_stale_temps(tmp_path, "g.log")
    finally:
        os.close(fd)
    assert sorted(removed) == sorted([gone.name, legacy.name])
    assert live.exists() and busy.exists() and other.exists()


def test_a_temporary_name_fits_beside_a_name_of_the_longest_length(tmp_path):
    name = "n" * 251 + ".log"  # 255 bytes, the most a name may have
    assert run("new", "kovrik", "1", "-o", tmp_path / name).exit_code == 0
    assert run("hint", tmp_path / name, "-q").exit_code == 0 and events(tmp_path / name) == 1


# --- a fork the issue did not name: a log with a second name (a hard link) ---------------------------------
def test_a_log_with_two_names_is_not_played_on(game, tmp_path):
    # Decision: a rewrite replaces one name; the other would keep the old game, a fork like the symlink's.
    other = tmp_path / "same-game.log"
    os.link(game, other)
    before = game.read_bytes()
    assert "has 2 names (hard links)" in one_line(run("hint", game), 2)
    assert game.read_bytes() == before and other.read_bytes() == before
    os.unlink(other)
    assert run("hint", game, "-q").exit_code == 0 and events(game) == 1


def test_a_file_system_without_locks_is_one_line(game, monkeypatch):
    import errno
    import fcntl

    def no_locks(fd, operation):
        raise OSError(errno.ENOLCK, "No locks available")
    monkeypatch.setattr(fcntl, "flock", no_locks)
    assert "cannot lock it for writing: No locks available" in one_line(run("hint", game), 2)
    assert run("new", "kovrik", "2", "-o", game.parent / "other.log").exit_code == 0  # a write needs no lock


def test_a_file_is_read_whole_and_a_file_past_the_bound_refused(tmp_path, monkeypatch):
    """read_bytes reads a file as its size says, a file that grows after its size was taken to its
    end, and refuses one past the bound (a sparse file: no disk used)."""
    from carpet.formats import files
    from carpet.formats.log import LogError

    small = tmp_path / "small"
    small.write_bytes(bytes(range(256)) * 40)
    assert files.read_bytes(small) == bytes(range(256)) * 40
    real_fstat = os.fstat

    def shrunk(fd):  # the size taken before the file grew
        found = real_fstat(fd)
        return os.stat_result((*found[:6], 10, *found[7:]))
    monkeypatch.setattr(files.os, "fstat", shrunk)
    assert files.read_bytes(small) == bytes(range(256)) * 40
    monkeypatch.undo()
    big = tmp_path / "big"
    with open(big, "wb") as f:
        f.truncate(files.MAX_LOG_BYTES + 1)
    with pytest.raises(LogError, match="too large"):
        files.read_bytes(big)
    r = run("verify", big)
    assert r.exit_code == 2 and "too large" in r.stderr
