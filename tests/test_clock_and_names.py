"""The clock rule of docs/format.md ("The clock"), hints after the end, file names, the writer's check."""

import msgspec
import pytest
from freezegun import freeze_time

from carpet.cli.clock import IDLE_MS, JUMP_MS, Clock
from carpet.core import GAMES, HINT, Session, parse_deal
from carpet.core.autoplay import play_out
from carpet.formats import LogError, check, decode, encode, new_header, record, verify, write_log

from clitools import doc, run

CREATED = "2026-11-29T12:00:00.000Z"


@pytest.fixture
def game(tmp_path):
    path = tmp_path / "g.carpet"
    with freeze_time("2026-11-29 10:00:00"):
        assert run("new", "kovrik", "1", "-o", path).exit_code == 0
    return path


# --- the clock ------------------------------------------------------------------------------
def test_a_log_created_while_the_clock_read_1970_stays_usable(tmp_path):
    path = tmp_path / "g.carpet"
    with freeze_time("1970-01-01 00:00:05"):
        assert run("new", "kovrik", "1", "-o", path).exit_code == 0
        assert run("play", path, "AD>a0").exit_code == 0
    with freeze_time("2026-11-29 10:00:00"):  # the clock corrected: 56 years later
        r = run("play", path, "AC", "--json")
        assert r.exit_code == 0, r.stderr
        assert doc(r)["elapsed_ms"] == 0  # the jump counts as no time
    with freeze_time("2026-11-29 10:00:03"):
        assert doc(run("play", path, "AS", "--json"))["elapsed_ms"] == 3000  # and the clock runs on from there
    for command in (["verify", path], ["show", path], ["restart", path, "-q"]):
        assert run(*command).exit_code == 0
    log = decode(path.read_bytes())
    assert log.summary.clock_jumps == 1 and log.summary.clock_skipped_ms > 50 * 365 * 86400 * 1000


def test_a_clock_set_back_counts_as_a_jump_and_never_runs_backwards(game):
    with freeze_time("2026-11-29 10:00:05"):
        assert doc(run("play", game, "AD>a0", "--json"))["elapsed_ms"] == 5000
    with freeze_time("2026-11-29 09:00:00"):
        assert doc(run("play", game, "AC", "--json"))["elapsed_ms"] == 5000
    with freeze_time("2026-11-29 09:00:02"):
        assert doc(run("play", game, "AS", "--json"))["elapsed_ms"] == 7000
    assert decode(game.read_bytes()).summary.clock_jumps == 1


def test_the_clock_rule_in_numbers():
    session = Session(GAMES["kovrik"], parse_deal("1"))
    clock = Clock(created_ms=1_000_000)
    assert clock.read(session, 1_004_000) == 4000
    session.act(3 + 1 + 0 * 56, 4000) if False else None
    assert clock.read(session, 1_000_000 + JUMP_MS + 1) == 0 and clock.jumps == 1
    assert clock.read(session, 1_000_000 + JUMP_MS + 2) == 1  # runs on from where the jump left it
    assert clock.read(session, 0) == 0 and clock.jumps == 2


def test_after_a_win_a_hint_is_answered_and_not_recorded(tmp_path):
    path = tmp_path / "won.carpet"
    session = Session(GAMES["carpet"], parse_deal("2"))
    play_out(session)
    assert session.status == "won"
    write_log(path, record(session, new_header(session, created=CREATED, tool="t")))
    before = path.read_bytes()
    r = run("hint", path, "--json")
    assert r.exit_code == 0 and doc(r)["hint"] is None
    assert "nothing to play" in run("hint", path).stdout
    assert path.read_bytes() == before  # nothing recorded, the clock did not move


def test_logs_already_written_with_hints_after_the_end_still_verify():
    session = Session(GAMES["carpet"], parse_deal("2"))
    play_out(session, 5000, lambda: 1000 * (len(session.events) + 1))
    session.act(HINT, session.clock_ms + 90_000_000)  # as the writer did before the rule
    for version in (1, 2):
        log = record(session, new_header(session, created=CREATED, tool="t", version=version))
        assert verify(decode(encode(log))).status == "won"


# --- the writer never writes what the reader refuses ---------------------------------------------
def test_a_log_that_would_not_read_back_is_never_written(tmp_path):
    path = tmp_path / "g.carpet"
    session = Session(GAMES["kovrik"], parse_deal("1"))
    good = record(session, new_header(session, created=CREATED, tool="t"))
    write_log(path, good)
    before = path.read_bytes()
    for bad in (msgspec.structs.replace(good, summary=msgspec.structs.replace(good.summary, score=99)),
                msgspec.structs.replace(good, header=msgspec.structs.replace(good.header, created="yesterday")),
                msgspec.structs.replace(good, events=[(3 + 1, 2**41)])):
        with pytest.raises(LogError, match="refusing to write"):
            write_log(path, bad)
        assert path.read_bytes() == before
    assert [p.name for p in tmp_path.iterdir()] == ["g.carpet"]


# --- file names ------------------------------------------------------------------------------------
def test_new_without_a_name_writes_game_deal_dot_carpet_and_never_overwrites(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    r = run("new", "kovrik", "1")
    assert r.exit_code == 0, r.stderr
    path = tmp_path / "kovrik-ms1.carpet"
    assert path.exists() and check(path.read_bytes())[0].header.version == 2
    before = path.read_bytes()
    r = run("new", "kovrik", "1")
    assert r.exit_code == 2 and "exists" in r.stderr and len(r.stderr.strip().splitlines()) == 1
    assert path.read_bytes() == before
    assert run("new", "kovrik", "1", "--force").exit_code == 0


#: the file-name patterns of GitHub's Python .gitignore (directories and dot-files left out)
PYTHON_GITIGNORE = ("*.py[cod]", "*$py.class", "*.so", "*.egg", "*.manifest", "*.spec", "pip-log.txt",
                    "pip-delete-this-directory.txt", ".coverage", ".coverage.*", "nosetests.xml", "coverage.xml",
                    "*.cover", "*.py,cover", "*,cover", "*.mo", "*.pot", "*.log", "local_settings.py", "db.sqlite3",
                    "db.sqlite3-journal", "*.sage.py", "celerybeat-schedule", "*.pdb", ".env")


def test_the_default_name_is_not_ignored_by_the_usual_python_gitignore():
    from fnmatch import fnmatch
    for name in ("kovrik-ms1.carpet", "carpet-ms5.carpet.json", "carpet-ms5.carpet.txt"):
        assert not any(fnmatch(name, p) for p in PYTHON_GITIGNORE), name
    assert any(fnmatch("kovrik-ms1.log", p) for p in PYTHON_GITIGNORE)  # why the first name had to go


@pytest.mark.parametrize("name,form", [("g.carpet", "binary"), ("g.carpet.json", "json"), ("g.json", "json"),
                                       ("g.carpet.txt", "text"), ("g.txt", "text"), ("g.log", "binary")])
def test_every_name_is_written_in_its_form_and_read_by_content(tmp_path, name, form):
    with freeze_time("2026-11-29 10:00:00"):
        assert run("new", "carpet", "2", "-o", tmp_path / name).exit_code == 0
    data = (tmp_path / name).read_bytes()
    assert {b"{": "json", b"[": "text"}.get(data[:1], "binary") == form
    renamed = tmp_path / "renamed.bin"
    renamed.write_bytes(data)
    with freeze_time("2026-11-29 10:00:01"):
        assert run("play", renamed, "turn").exit_code == 0  # the form is told by what the file holds
    assert {b"{": "json", b"[": "text"}.get(renamed.read_bytes()[:1], "binary") == form
    assert run("verify", renamed).exit_code == 0


# --- the clock of a game played from the shell ----------------------------------------------------
def test_at_most_a_minute_counts_between_two_actions_from_the_shell(game):
    with freeze_time("2026-11-29 10:00:20"):  # new at 10:00:00, 20 s to think: all of it counts
        assert doc(run("play", game, "AD>a0", "--json"))["elapsed_ms"] == 20_000
    with freeze_time("2026-11-29 10:20:20"):  # 20 minutes away: one counts
        assert doc(run("play", game, "AC", "--json"))["elapsed_ms"] == 80_000
    with freeze_time("2026-11-29 10:20:25"):
        assert doc(run("play", game, "AS", "--json"))["elapsed_ms"] == 85_000
    summary = decode(game.read_bytes()).summary
    assert summary.clock_jumps == 0 and summary.clock_skipped_ms == 19 * 60_000
    assert run("verify", game).exit_code == 0
    with freeze_time("2026-11-29 10:30:25"):  # and the next command reads on from there
        assert doc(run("show", game, "--json"))["elapsed_ms"] == 85_000
        assert doc(run("play", game, "undo", "--json"))["elapsed_ms"] == 145_000


def test_the_idle_rule_in_numbers():
    session = Session(GAMES["kovrik"], parse_deal("1"))
    clock = Clock(created_ms=1_000_000)
    assert clock.read(session, 1_000_000 + IDLE_MS) == IDLE_MS and clock.skipped_ms == 0
    assert clock.read(session, 1_000_000 + 5 * IDLE_MS) == IDLE_MS and clock.skipped_ms == 4 * IDLE_MS
    assert clock.jumps == 0


def test_an_old_log_whose_clock_ran_between_commands_keeps_it_and_verifies(tmp_path):
    """A log written before the idle rule: two actions 20 minutes apart, the whole 20 minutes read."""
    session = Session(GAMES["kovrik"], parse_deal("1"))
    first = session.legal_actions()[0]
    session.act(first, 5_000)
    session.act(session.legal_actions()[0], 1_205_000)
    path = tmp_path / "old.carpet"
    path.write_bytes(encode(record(session, new_header(session, created=CREATED, tool="carpet 0.1.0"))))
    assert run("verify", path).exit_code == 0
    assert doc(run("show", path, "--json"))["elapsed_ms"] == 1_205_000
