"""Issue 48: an output file never follows a symlink another user planted (in a shared folder) into a file
nobody named; a link of the user's own is still written through (tests/test_files_on_disk.py)."""

import os

import pytest

from clitools import one_line, run, temporaries

ROOT_ONLY = "needs root to give a link to another user (CI runs as root)"
NOBODY = 65534


@pytest.fixture
def planted(tmp_path):
    """shared/out.carpet: a link owned by another user to a file outside the folder; and shared/mine.carpet,
    the user's own link to that link."""
    outside = tmp_path / "outside"
    outside.mkdir()
    victim = outside / "victim.carpet"
    victim.write_bytes(b"someone else's file")
    shared = tmp_path / "shared"
    shared.mkdir()
    link = shared / "out.carpet"
    link.symlink_to(victim)
    os.lchown(link, NOBODY, NOBODY)
    mine = shared / "mine.carpet"
    mine.symlink_to(link)
    return victim, link, mine


@pytest.mark.skipif(os.geteuid() != 0, reason=ROOT_ONLY)
def test_no_writer_follows_another_users_link(game, planted):
    victim, link, mine = planted
    for path in (link, mine):
        for command in (("export", game, "-o", path, "--force"), ("new", "kovrik", "2", "-o", path, "--force"),
                        ("import", game, "-o", path, "--force"), ("deal", "kovrik", "2", "--svg", path, "--force")):
            line = one_line(run(*command), 2)
            assert "owned by another user" in line, (command, line)
        assert victim.read_bytes() == b"someone else's file" and path.is_symlink()
    assert temporaries(victim.parent) == [] and temporaries(link.parent) == []


@pytest.mark.skipif(os.geteuid() != 0, reason=ROOT_ONLY)
def test_play_does_not_write_through_another_users_link(game, tmp_path):
    shared = tmp_path / "shared"
    shared.mkdir()
    link = shared / "g.log"
    link.symlink_to(game)
    os.lchown(link, NOBODY, NOBODY)
    before = game.read_bytes()
    assert "owned by another user" in one_line(run("play", link, "AC>a0", "-q"), 2)
    assert "owned by another user" in one_line(run("play", link, "-", "-q", input="AC>a0\n"), 2)
    assert game.read_bytes() == before
    os.lchown(link, 0, 0)  # the user's own link: written through, as before
    assert run("play", link, "AC>a0", "-q").exit_code == 0 and game.read_bytes() != before


def test_a_forced_write_over_a_file_with_other_names_replaces_this_name_only(game, tmp_path):
    """``new --force`` takes the lock as every writer does, but writes the name it was given, as asked
    (play refuses such a log: a rewrite would fork the game)."""
    other = tmp_path / "other-name.log"
    os.link(game, other)
    before = game.read_bytes()
    assert run("new", "kovrik", "2", "-o", game, "--force").exit_code == 0
    assert other.read_bytes() == before and game.read_bytes() != before
