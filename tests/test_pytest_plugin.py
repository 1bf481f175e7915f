"""The pytest plugin: a folder of recorded games, run by pytest, one test per game."""

import csv
import re
import shutil
import subprocess
import sys
from importlib.metadata import entry_points

import pytest

from carpet.formats import encode, read_log, replay
from carpet.formats.log_verify import reseal

from conftest import ROOT

FIXTURES = ROOT / "fixtures"
GAMES = sorted(row["file"] for row in csv.DictReader((FIXTURES / "manifest.tsv").open(encoding="utf-8"),
                                                      delimiter="\t"))
PASSED = re.compile(r"^games/(\S+)::(\S+) PASSED", re.MULTILINE)


@pytest.fixture
def games(pytester):
    """A project with every fixture (and the folder's other files: make.py, manifest, recipes) in games/."""
    shutil.copytree(FIXTURES, pytester.path / "games")
    return pytester.path / "games"


def with_ini(pytester, folders="games"):
    pytester.makeini(f"[pytest]\ncarpet_games = {folders}\n")


# --- registration --------------------------------------------------------------------------
def test_registered_through_the_pytest11_entry_point():
    found = {ep.name: ep.value for ep in entry_points(group="pytest11")}
    assert found.get("carpet") == "carpet.cli.pytest_plugin"


def test_loading_the_plugin_imports_nothing_heavy():
    probe = ("import sys, carpet.cli.pytest_plugin\n"
             "print(sorted(m for m in sys.modules if m.split('.')[0] in ('rich', 'typer', 'msgspec')"
             " or m.startswith(('carpet.core', 'carpet.formats'))))")
    result = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True)
    assert result.stdout.strip() == "[]", result.stderr


@pytest.mark.parametrize("configured", [False, True])
@pytest.mark.parametrize("flag", ["--help", "--version"])
def test_help_and_version_work_with_or_without_folders(pytester, games, configured, flag):
    if configured:
        with_ini(pytester, "games nowhere")  # not even a missing folder stands in the way of --help
    result = pytester.runpytest_subprocess(flag)
    assert result.ret == pytest.ExitCode.OK, result.stderr.str()
    assert "Traceback" not in result.stderr.str()
    if flag == "--help":
        result.stdout.fnmatch_lines(["*--carpet-games=DIR*", "*carpet_games (paths):*"])


def test_off_until_folders_are_named(pytester, games):
    result = pytester.runpytest()
    assert result.ret == pytest.ExitCode.NO_TESTS_COLLECTED
    assert "carpet games" not in result.stdout.str()


# --- all pass --------------------------------------------------------------------------------
def test_one_item_per_game_named_after_its_file_all_pass(pytester, games):
    with_ini(pytester)
    result = pytester.runpytest("-v")
    assert result.ret == pytest.ExitCode.OK
    items = PASSED.findall(result.stdout.str())
    assert sorted(file for file, _ in items) == GAMES
    assert all(file == name for file, name in items)
    result.assert_outcomes(passed=len(GAMES))
    assert "carpet games: games" in result.stdout.str()  # the header says the plugin is on, and where


def test_a_version_2_binary_log_named_log_is_a_game_too(pytester, games):
    # a version-2 binary log names no format in its bytes: it is known by its first bytes
    shutil.copy(games / "station-won.carpet", games / "history.log")
    with_ini(pytester)
    result = pytester.runpytest("-v")
    result.assert_outcomes(passed=len(GAMES) + 1)
    assert "games/history.log::history.log PASSED" in result.stdout.str()


def test_the_command_line_flag_names_a_folder_too(pytester, games):
    result = pytester.runpytest("--carpet-games", "games")
    result.assert_outcomes(passed=len(GAMES))


def test_configured_folders_are_checked_whatever_paths_pytest_is_given(pytester, games):
    with_ini(pytester)
    pytester.makepyfile(test_other="def test_other():\n    pass\n")
    pytester.runpytest().assert_outcomes(passed=len(GAMES) + 1)  # no paths: the folder joins them
    pytester.runpytest("test_other.py").assert_outcomes(passed=len(GAMES) + 1)  # paths given: the folder too
    pytester.runpytest(f"games/{GAMES[0]}").assert_outcomes(passed=len(GAMES))  # (each game once)
    pytester.runpytest("test_other.py", "--carpet-games", "games").assert_outcomes(passed=len(GAMES) + 1)


def broken_project(pytester, where: str = "games") -> None:
    """A project whose tests pass, its configured folder of games ``games`` holding a broken game at
    ``where`` (a path under the project: the folder itself, or somewhere a link in it leads)."""
    tests = pytester.path / "tests"
    tests.mkdir()
    (tests / "test_fine.py").write_text("def test_fine():\n    pass\n")
    (pytester.path / "games").mkdir(exist_ok=True)
    shutil.copy(FIXTURES / "kovrik-won.carpet", pytester.path / "games" / "good.carpet")
    (pytester.path / where).mkdir(parents=True, exist_ok=True)
    (pytester.path / where / "broken.carpet").write_bytes(b"\x93\xa5hello")
    with_ini(pytester)


def test_pytest_given_a_path_still_fails_on_a_broken_game(pytester):
    broken_project(pytester)
    result = pytester.runpytest_subprocess("tests", "-p", "no:cacheprovider")
    assert result.ret == pytest.ExitCode.TESTS_FAILED, result.stdout.str()
    result.assert_outcomes(passed=2, failed=1)
    result.stdout.fnmatch_lines(["*games/broken.carpet: not a carpet log*"])


@pytest.mark.parametrize("link", ["file", "folder"])
def test_a_broken_game_linked_into_the_folder_fails(pytester, link):
    broken_project(pytester, where="elsewhere")
    if link == "file":  # a game that is a symlink to a file outside the folder
        (pytester.path / "games" / "linked.carpet").symlink_to(pytester.path / "elsewhere" / "broken.carpet")
    else:  # a symlinked sub-folder
        (pytester.path / "games" / "more").symlink_to(pytester.path / "elsewhere", target_is_directory=True)
    for args in ((), ("tests",)):
        result = pytester.runpytest_subprocess(*args, "-p", "no:cacheprovider")
        assert result.ret == pytest.ExitCode.TESTS_FAILED, result.stdout.str()
        result.assert_outcomes(passed=2, failed=1)
        shown = "games/linked.carpet" if link == "file" else "games/more/broken.carpet"
        result.stdout.fnmatch_lines([f"*{shown}: not a carpet log*"])


def test_a_linked_sub_folder_that_loops_fails_saying_so_and_the_run_ends(pytester):
    broken_project(pytester)
    (pytester.path / "games" / "broken.carpet").unlink()
    (pytester.path / "games" / "back").symlink_to("..", target_is_directory=True)  # games/back/games/back/...
    (pytester.path / "games" / "a").mkdir()
    (pytester.path / "games" / "b").mkdir()
    (pytester.path / "games" / "a" / "to-b").symlink_to("../b", target_is_directory=True)
    (pytester.path / "games" / "b" / "to-a").symlink_to("../a", target_is_directory=True)
    result = pytester.runpytest_subprocess("-p", "no:cacheprovider", timeout=120)
    assert result.ret == pytest.ExitCode.TESTS_FAILED, result.stdout.str()
    result.assert_outcomes(passed=2, failed=3)  # back, a/to-b/to-a, b/to-a/to-b: each a loop, never entered
    result.stdout.fnmatch_lines(["*games/back: a symlink to .., a folder it is inside: a loop*"])
    assert "Traceback" not in result.stdout.str() + result.stderr.str()


def test_sub_folders_count(pytester, games):
    (games / "more").mkdir()
    shutil.copy(games / GAMES[0], games / "more" / ("copy-" + GAMES[0]))
    with_ini(pytester)
    pytester.runpytest().assert_outcomes(passed=len(GAMES) + 1)


def test_a_missing_folder_is_one_clear_line(pytester):
    with_ini(pytester, "nowhere")
    result = pytester.runpytest()
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    assert "carpet games: no such folder" in result.stderr.str() and "Traceback" not in result.stderr.str()


# --- failing ---------------------------------------------------------------------------------
def tamper_event(path, event):
    """Make event N (from 1) an action the rules refuse there; the rest of the file stays as it was."""
    log = read_log(path)
    before = replay(log, event - 1)
    legal = set(before.legal_actions())
    variant = before.variant
    log.events[event - 1] = (next(a for a in range(3, variant.action_count)
                                  if variant.valid_index(a) and a not in legal), log.events[event - 1][1])
    write_tampered(path, log)


def write_tampered(path, log):
    """Write an edited log, sealed afresh (carpet's own writer refuses a log that does not verify)."""
    path.write_bytes(encode(reseal(log), as_json=path.name.endswith(".json")))


def test_a_tampered_copy_fails_naming_the_event_with_the_position_drawn(pytester, games):
    victim = next(name for name in GAMES if name.startswith("kovrik-won"))
    tampered = games / ("tampered-" + victim)
    shutil.copy(games / victim, tampered)
    tamper_event(tampered, 12)
    with_ini(pytester)
    result = pytester.runpytest()
    result.assert_outcomes(passed=len(GAMES), failed=1)
    out = result.stdout.str()
    report = out[out.index("carpet game tampered-"):out.index("short test summary")]
    assert re.search(r"games/tampered-\S+: event 12 \(\S+\): illegal: ", report)
    assert "event:    12 of 131" in report
    assert re.search(r"expected: a legal action here: (\S+>\S+ )+", report)
    assert re.search(r"found:    \S+ at \d+ ms, illegal: ", report)
    assert "position before event 12:" in report
    assert "kovrik  deal ms1 (= #1)  playing" in report  # the drawing's status line ...
    assert re.search(r"^ +a A♣\* ", report, re.MULTILINE)  # ... and its board
    assert "\x1b[" not in out and "Traceback" not in out


def test_a_raised_score_fails_saying_what_was_claimed_and_found(pytester, games):
    victim = next(name for name in GAMES if name.startswith("crazy-quilt-won"))
    log = read_log(games / victim)
    log.summary.score += 3
    write_tampered(games / victim, log)
    with_ini(pytester)
    result = pytester.runpytest()
    result.assert_outcomes(passed=len(GAMES) - 1, failed=1)
    result.stdout.fnmatch_lines(["*summary score says 99 but the replay gives 96*",
                                 "*at:       the end, after event 173*",
                                 "*expected: score 99  (the file says)*",
                                 "*found:    score 96  (the replay gives)*",
                                 "*position after event 173:*"])


def test_files_that_are_no_games_are_left_alone_or_reported_never_a_crash(pytester, games):
    (games / "notes.json").write_text('{"a": 1}')
    (games / "server.log").write_text("started\n")
    (games / "README.md").write_text("# games\n")
    (games / "broken.carpet").write_bytes(b"\x93\xa5hello")  # says it is a game: reported
    (games / "empty.carpet.json").write_bytes(b"")
    with_ini(pytester)
    result = pytester.runpytest()
    assert result.ret == pytest.ExitCode.TESTS_FAILED
    result.assert_outcomes(passed=len(GAMES), failed=2)
    result.stdout.fnmatch_lines([
        "*games/broken.carpet: not a carpet log, or truncated/corrupt*",
        "*games/empty.carpet.json: empty file, not a carpet log*",
        "carpet games: 2 file(s) left alone, not carpet logs: games/notes.json, games/server.log",
    ])
    assert "Traceback" not in result.stdout.str() + result.stderr.str()


@pytest.mark.parametrize("kind", ["dangling", "loop", "fifo"])
def test_a_game_that_cannot_be_read_fails_never_no_tests_ran(pytester, kind):
    """Issue 21: pytest passes over what is no regular file; the plugin collects it and fails it."""
    import os

    folder = pytester.path / "games"
    folder.mkdir()
    game = folder / "g.carpet"
    if kind == "dangling":
        game.symlink_to(folder / "gone.carpet")
    elif kind == "loop":
        game.symlink_to(game)
    else:
        os.mkfifo(game)
    with_ini(pytester)
    result = pytester.runpytest("-p", "no:cacheprovider")
    assert result.ret == pytest.ExitCode.TESTS_FAILED, result.stdout.str()
    result.assert_outcomes(failed=1)
    result.stdout.fnmatch_lines(["*games/g.carpet: *"])
    assert "Traceback" not in result.stdout.str() + result.stderr.str()
