"""The interactive screen (`carpet play FILE` on a terminal, cli/screen.py) and the live pipe (`play FILE -`).

Three ways in: Textual's own harness (``App.run_test`` and its Pilot: keys and clicks, then the
log on disk and the text the screen shows), the real command in a pseudo-terminal
(tests/ptyscreen.py: keys typed, the screen read, quit or kill -9, the log verified), and the
real command on a pipe, read one document at a time while the pipe stays open.
"""

import asyncio
import json
import os
import select
import shutil
import subprocess
import sys
import time
from pathlib import Path
from xml.etree import ElementTree

import pytest
from rich.cells import cell_len

from carpet.cli.live import LiveGame
from carpet.cli.screen import Board, Command, PlayScreen, nearest, Spot
from carpet.core import HINT, UNDO
from carpet.core.game import RESTART
from carpet.formats import LogError, locked, read_log, verify

from clitools import CARPET, doc, one_line, run
from ptyscreen import Terminal

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures"


# --- helpers -------------------------------------------------------------------------------------
def screen_text(app) -> str:
    """What the screen shows, line by line, read from Textual's own screenshot of it."""
    root = ElementTree.fromstring(app.export_screenshot())
    texts = [el for el in root.iter("{http://www.w3.org/2000/svg}text") if "line-" in el.get("clip-path", "")]
    sized = next(el for el in texts if (el.text or "").strip())
    column = float(sized.get("textLength")) / cell_len(sized.text)
    rows: dict[float, dict[int, str]] = {}
    for el in texts:
        row = rows.setdefault(float(el.get("y")), {})
        at = round(float(el.get("x")) / column)
        for char in (el.text or "").replace("\xa0", " "):
            row[at] = char
            at += cell_len(char)
    lines = []
    for _, row in sorted(rows.items()):
        lines.append("".join(row.get(i, " ") for i in range(max(row, default=-1) + 1)).rstrip())
    return "\n".join(lines)


def message(app) -> str:
    return str(app.query_one("#message").content)


async def hinted(app, pilot) -> None:
    """Wait for the hint key's search, which runs once the screen has said that it looks."""
    for _ in range(200):
        if not message(app).startswith("looking for the hint"):
            return
        await pilot.pause(0.05)
    raise AssertionError("the hint never came")


def recorded(path: Path) -> list[int]:
    """The actions of the log on disk, after checking that it verifies."""
    return list(verify(read_log(path)).events.actions)


def on_screen(path: Path, script, size: tuple[int, int] = (80, 24)):
    """Open the screen on ``path`` under Textual's harness (80 × 24) and run ``script(app, pilot)`` in it."""
    async def main():
        with locked(path, wait=False) as held:
            app = PlayScreen(LiveGame(path, held))
            async with app.run_test(size=size) as pilot:
                await pilot.pause()
                await script(app, pilot)
    asyncio.run(main())


def copy(tmp_path: Path, name: str) -> Path:
    target = tmp_path / name
    shutil.copyfile(FIXTURES / name, target)
    return target


@pytest.fixture
def kovrik(tmp_path):
    path = tmp_path / "k.carpet"
    assert run("new", "kovrik", "5", "-o", path).exit_code == 0
    return path


def _near_win(tmp_path: Path) -> tuple[Path, str]:
    """A carpet-auto game one action from its win (the fixture's own line), and that action."""
    won = FIXTURES / "carpet-auto-won.carpet"
    actions = [f["action"] for f in doc(run("replay", won, "--json"))["frames"][1:]]
    path = tmp_path / "near.carpet"
    assert run("new", "carpet-auto", "5", "-o", path).exit_code == 0
    assert run("play", path, *actions[:-1], "-q").exit_code == 0
    return path, actions[-1]


# --- Textual's harness ---------------------------------------------------------------------------
def test_arrows_and_enter_play_the_selected_card_and_record_it(kovrik):
    async def script(app, pilot):
        first = app.selected
        assert first is not None and all(s.text for s in app.spots)
        await pilot.press("right")
        chosen = app.selected
        assert chosen != first and chosen.line == first.line  # the next card along the same row
        await pilot.press("enter")
        assert recorded(kovrik) == [chosen.action]  # on disk before the screen says so
        canonical = app.game.session.variant.text(chosen.action)
        assert message(app) == f"played {canonical}"
        shown = screen_text(app)
        assert f"played {canonical}" in shown and "moves 1" in shown
    on_screen(kovrik, script)


def test_an_action_typed_is_played_and_an_illegal_one_changes_nothing(kovrik):
    async def script(app, pilot):
        await pilot.press(*"AH-b0", "enter")  # typing on the board goes to the input line
        assert app.query_one(Command).value == "" and message(app) == "played AH>b0"
        before = kovrik.read_bytes()
        await pilot.press(*"7H>a0", "enter")
        line = message(app)
        assert line.startswith("7H>a0: ") and "\n" not in line
        assert "7H>a0: " in screen_text(app)
        assert kovrik.read_bytes() == before and len(app.game.session.events) == 1
        assert app.query_one(Command).value == ""  # emptied for the next action; the refusal stays above it
        legal = app.game.session.variant.text(app.game.session.legal_actions()[0])
        await pilot.press(*legal, "enter")  # typed straight after the refusal: played alone
        assert message(app) == f"played {legal}" and app.query_one(Command).value == ""
    on_screen(kovrik, script)
    assert len(recorded(kovrik)) == 2


def test_several_actions_on_one_line_and_the_meta_words(kovrik):
    async def script(app, pilot):
        app.query_one(Command).focus()
        await pilot.press(*"AH AS hint undo", "enter")
        session = app.game.session
        assert [a for a, _ in session.events][2:] == [HINT, UNDO]
    on_screen(kovrik, script)
    assert recorded(kovrik)[2:] == [HINT, UNDO]


def test_a_click_plays_the_card_under_it(kovrik):
    async def script(app, pilot):
        spot = app.spots[-1]
        # the board has one column of padding on the left
        assert await pilot.click(Board, offset=(spot.start + 1, spot.line))
        assert recorded(kovrik) == [spot.action]
        await pilot.click(Board, offset=(1, 0))  # the status line: nothing to play
        assert "nothing to play there" in message(app) and len(recorded(kovrik)) == 1
    on_screen(kovrik, script)


def test_the_hint_key_records_the_hint_then_plays_it_and_ctrl_z_undoes(kovrik):
    async def script(app, pilot):
        await pilot.press("f2")
        await hinted(app, pilot)
        actions = recorded(kovrik)
        assert actions[0] == HINT and len(actions) == 2 and actions[1] >= 3
        assert message(app) == f"hint played: {app.game.session.variant.text(actions[1])}"
        app.query_one(Command).focus()  # F2 plays the hint from the input line too
        await pilot.press("f2")
        await hinted(app, pilot)
        assert len(recorded(kovrik)) == 4 and app.query_one(Command).value == ""
        await pilot.press("ctrl+z")
        assert recorded(kovrik)[-1] == UNDO and "moves" in screen_text(app)
    on_screen(kovrik, script)


def test_tab_completes_the_legal_actions(kovrik):
    async def script(app, pilot):
        command = app.query_one(Command)
        command.focus()
        await pilot.press(*"AH", "tab")
        assert command.value == "AH>"  # AH>a0, AH>b0, ... share this much
        listed = message(app).split()
        assert listed and all(t.startswith("AH>") for t in listed)
        legal = {app.game.session.variant.text(a) for a in app.game.session.legal_actions()}
        assert set(listed) == {t for t in legal if t.startswith("AH>")}
        await pilot.press("backspace", "backspace", "backspace", *"red", "tab")
        assert command.value == "redeal"
        await pilot.press("ctrl+u", *"qu", "tab")
        assert command.value == "quit"
    on_screen(kovrik, script)


def test_a_gap_that_one_action_fills_is_a_place_to_play_and_a_typed_hint_points_at_it(tmp_path):
    frames = doc(run("replay", FIXTURES / "carpet-gaps-open.log", "--json", "--to", "38"))["frames"]
    path = tmp_path / "gaps.carpet"
    assert run("new", "carpet", "57", "-o", path).exit_code == 0
    assert run("play", path, *[f["action"] for f in frames[1:]], "-q").exit_code == 0

    async def script(app, pilot):
        gaps = [s for s in app.spots if ">" in s.text]  # a fill's canonical text, w>a1 or s>a1
        assert gaps and all(app.game.session.variant.text(s.action) == s.text for s in gaps)
        await pilot.press(*"hint", "enter")
        hinted = recorded(path)[-1]
        assert hinted == HINT and message(app).startswith("hint: ")
        named = message(app).split()[1]
        assert app.selected.text == named  # the cursor is on the place the hint names
        await pilot.press("escape", "enter")
        assert app.game.session.variant.text(recorded(path)[-1]) == named
    on_screen(path, script)


def test_the_arrows_move_to_the_nearest_card_that_way():
    spots = [Spot(3, 8, 10, "a", 1), Spot(3, 30, 32, "b", 2), Spot(5, 9, 11, "c", 3), Spot(6, 40, 42, "d", 4)]
    assert nearest(spots, spots[0], "right") == spots[1]
    assert nearest(spots, spots[0], "down") == spots[2]
    assert nearest(spots, spots[0], "left") == spots[0]  # nothing that way: stay
    assert nearest(spots, spots[2], "right") == spots[3]  # the closest row first (6 before 3)
    assert nearest(spots, None, "up") == spots[0] and nearest([], None, "up") is None


def test_a_won_game_says_so_with_the_score_and_ctrl_r_restarts(tmp_path):
    path, last = _near_win(tmp_path)

    async def script(app, pilot):
        await pilot.press(*last.replace(">", "-"), "enter")
        session = app.game.session
        assert session.status == "won"
        line = message(app)
        assert line.startswith("You won!") and f"Score {session.score}" in line and "Ctrl+R" in line
        assert "You won!" in screen_text(app)
        await pilot.press("ctrl+r")
        assert recorded(path)[-1] == RESTART and app.game.session.status == "playing"
    on_screen(path, script)


def test_a_lost_game_says_so_and_ctrl_r_refuses_a_game_still_going(tmp_path):
    path = copy(tmp_path, "carpet-lost.log")

    async def script(app, pilot):
        assert message(app).startswith("The game is lost") and "Score" in message(app)
        await pilot.press("ctrl+z")  # out of the lost position
        assert recorded(path)[-1] == UNDO and app.game.session.status == "playing"
        await pilot.press("ctrl+r")
        assert "still going" in message(app) and recorded(path)[-1] == UNDO
    on_screen(path, script)


def test_the_live_clock_runs_and_the_next_action_reads_it(kovrik):
    async def script(app, pilot):
        game = app.game
        assert game.clock_now() >= 0 and game.readings.jumps == 0
        first = game.clock_now()
        await pilot.pause(0.05)
        assert game.clock_now() >= first
        await pilot.press(*"AH-b0", "enter")
        assert game.session.clock_ms >= first
    on_screen(kovrik, script)


def test_a_tick_of_the_clock_after_the_screen_closed_is_harmless(kovrik):
    """The board's clock redraws every second; a tick that comes as the screen closes (its widgets gone)
    must draw nothing and raise nothing (it was once NoMatches('Board') under a loaded machine)."""
    async def main():
        with locked(kovrik, wait=False) as held:
            app = PlayScreen(LiveGame(kovrik, held))
            async with app.run_test(size=(80, 24)) as pilot:
                await pilot.pause()
                drawn = str(app.board.render())
                assert "moves 0" in screen_text(app)
            assert not app.board.is_attached
            app.redraw()  # the late tick
            assert str(app.board.render()) == drawn
    asyncio.run(main())


FAMILIES = ("kovrik", "montana", "carpet", "carpet-foster", "crazy-quilt", "persian-carpet")


@pytest.mark.parametrize("size", [(80, 24), (60, 20)])
def test_every_family_fits_80_by_24_and_60_by_20(tmp_path, size):
    for game in FAMILIES:
        path = tmp_path / f"{game}.carpet"
        assert run("new", game, "7", "-o", path).exit_code == 0

        async def script(app, pilot):
            assert "F1 or ? help" in screen_text(app), game  # the first view says how to get help
            for _ in range(4):  # a few moves in: kovrik's run marks (A♥*), the quilt's reserves as in play
                session = app.game.session
                texts = [session.variant.text(a) for a in session.legal_actions()]
                await pilot.press(*max(texts, key=lambda t: (t.endswith("0"), ">" in t)), "enter")
            assert len(app.game.session.events) == 4, game
            board = app.query_one(Board)
            assert board.virtual_size.height <= board.size.height, game  # nothing scrolled out of sight
            assert board.virtual_size.width <= size[0], game
            shown = screen_text(app)
            assert "…" not in shown, game  # no card cut
            assert "redeals left" in shown and "Tab completes" in shown
            assert "f2 hint" in shown and "f3 new deal" in shown, game  # the footer's keys
            if game == "persian-carpet":
                assert all(f"r{k} " in shown for k in range(1, 9))
            assert all(len(line) <= size[0] for line in shown.splitlines())
        on_screen(path, script, size)


def test_the_help_opens_on_f1_or_question_mark_and_esc_closes_it(kovrik):
    async def script(app, pilot):
        for key in ("question_mark", "f1"):
            await pilot.press(key)
            assert "F3" in screen_text(app) and "a new deal" in screen_text(app)
            await pilot.press("f2")  # the keys of the game wait while the help is open
            assert len(recorded(kovrik)) == 0
            await pilot.press("escape")
            assert "a new deal" not in screen_text(app)
        app.query_one(Command).focus()
        await pilot.press("question_mark")  # from the input line too: no action holds a "?"
        assert "a new deal" in screen_text(app) and app.query_one(Command).value == ""
    on_screen(kovrik, script)


def test_the_new_deal_key_records_a_new_game_beside_and_plays_it(kovrik):
    async def script(app, pilot):
        await pilot.press("f3", *"77", "enter")
        made = kovrik.parent / "kovrik-ms77.carpet"
        assert app.game.file == made and "new deal" in message(app)
        await pilot.press("f3", "enter")  # Enter alone: a fresh deal
        assert len(app.created) == 2 and app.game.file == app.created[1] != made
        await pilot.press(*"AH-b0", "enter")
        assert len(recorded(app.created[1])) == 1 and recorded(made) == [] and recorded(kovrik) == []
        held = app.game.file
        await pilot.press("f3", *"zz", "enter")
        assert message(app).startswith("no new deal") and app.game.file == held
        await pilot.press("f3", "escape")
        assert app.game.file == held
    on_screen(kovrik, script)
    assert len(list(kovrik.parent.glob("*.carpet"))) == 3


def test_the_stats_key_shows_the_record_over_the_files_folder(kovrik):
    assert run("play", kovrik, "AH-b0", "-q").exit_code == 0

    async def script(app, pilot):
        await pilot.press("f4")
        for _ in range(100):
            if "kovrik: 1 game" in screen_text(app):
                break
            await pilot.pause(0.05)
        shown = screen_text(app)
        assert "kovrik: 1 game" in shown and "playing" in shown
        await pilot.press("escape")
        assert "kovrik: 1 game" not in screen_text(app)
    on_screen(kovrik, script)


# --- the log held -------------------------------------------------------------------------------
def test_a_second_writer_that_would_wait_is_refused_and_the_lock_follows_each_write(kovrik):
    with locked(kovrik) as held:
        with pytest.raises(LogError, match="another carpet process"):
            with locked(kovrik, wait=False):
                pass
        game = LiveGame(kovrik, held)
        game.play("AH>b0")
        game.save("recorded")
        assert recorded(kovrik) == [game.session.events[0][0]]
        with pytest.raises(LogError, match="another carpet process"):  # the new file is locked too
            with locked(kovrik, wait=False):
                pass
    with locked(kovrik, wait=False):
        pass


def test_a_writer_behind_a_screen_says_it_waits_then_plays_when_the_screen_is_done(kovrik):
    with locked(kovrik) as held:  # as an open screen holds it
        process = subprocess.Popen([*CARPET, "play", str(kovrik), "AS-a0", "-q"], stderr=subprocess.PIPE, text=True)
        try:
            line = _line(process, stream=process.stderr)
            assert "another carpet process is playing it" in line and "waiting" in line
            time.sleep(0.3)
            assert process.poll() is None and recorded(kovrik) == []  # still waiting
            game = LiveGame(kovrik, held)
            game.play("AH-b0")
            game.save("recorded")
        except BaseException:
            process.kill()
            raise
    assert process.wait(timeout=60) == 0
    assert process.stderr.read() == ""
    frames = doc(run("replay", kovrik, "--json"))["frames"]
    assert [f["action"] for f in frames[1:]] == ["AH>b0", "AS>a0"]  # the screen's action first, then the waiting writer's, on top of it


def test_the_screen_is_refused_on_a_log_another_holds(kovrik):
    with locked(kovrik):
        term = Terminal("play", kovrik)
        try:
            assert term.finish() == 2
        finally:
            term.close()
    assert "another carpet process" in term.text and "Traceback" not in term.text
    assert recorded(kovrik) == []


def test_no_actions_and_no_terminal_is_one_line_and_exit_2(kovrik):
    line = one_line(run("play", kovrik), 2)
    assert "no actions given" in line and "interactive screen" in line
    assert "no actions given" in one_line(run("play", kovrik, "--json"), 2)


def test_other_commands_do_not_load_textual(kovrik):
    code = ("import sys; from carpet.cli.app import main; sys.argv = ['carpet', 'show', sys.argv[1], '--json']\n"
            "try:\n    main()\nexcept SystemExit:\n    pass\n"
            "assert not [m for m in sys.modules if m.split('.')[0] == 'textual'], 'textual loaded'\n"
            "assert 'carpet.cli.screen' not in sys.modules\n"
            "assert 'typing_extensions' not in sys.modules, 'msgspec loaded typing_extensions (13 ms)'")
    result = subprocess.run([sys.executable, "-c", code, str(kovrik)], capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout)["game"] == "kovrik"


# --- the real command in a pseudo-terminal ---------------------------------------------------------
def test_the_real_screen_types_reads_quits_and_the_log_verifies(kovrik):
    term = Terminal("play", kovrik)
    try:
        shown = term.wait_for("Tab completes")
        assert "kovrik  deal ms5" in shown and "score 0  moves 0" in shown
        term.type("AH-b0\r")
        assert "moves 1" in term.wait_for("played AH>b0")
        term.type("zz\r")
        term.wait_for("zz: ")
        term.type("\x15hint\r")  # Ctrl+U clears the line
        term.wait_for("hint: ")
        term.type("\x15quit\r")
        assert term.finish() == 0
    finally:
        term.close()
    assert "2 actions played on the screen, every one recorded" in term.text  # (the refused one is not)
    assert recorded(kovrik)[1:] == [HINT] and len(recorded(kovrik)) == 2


def test_kill_9_in_the_middle_loses_nothing_the_screen_showed(kovrik):
    term = Terminal("play", kovrik)
    shown = []
    try:
        term.wait_for("Tab completes")
        for action in ("AH-b0", "AS-a0", "AD-c0"):
            term.type(action + "\r")
            term.wait_for(f"played {action.replace('-', '>')}")
            shown.append(action)
        os.write(term.master, b"\x1bOQ")  # F2, the hint key: its escape sequence in one write
        term.wait_for("hint played")
        shown.append("hint")
        term.kill()
    finally:
        term.close()
    actions = recorded(kovrik)
    assert len(actions) == 5 and actions[3] == HINT  # three typed, then the hint and its action
    # the next writer is not held up by the killed one
    assert run("play", kovrik, "undo", "-q").exit_code == 0


# --- the live pipe ------------------------------------------------------------------------------
def _line(process, timeout: float = 30, stream=None) -> str:
    stream = process.stdout if stream is None else stream
    ready, _, _ = select.select([stream], [], [], timeout)
    assert ready, "nothing came back"
    return stream.readline()


def test_a_pipe_gets_each_position_before_the_next_action_is_written(kovrik):
    deal = doc(run("show", kovrik, "--json"))["layout"]
    process = subprocess.Popen([*CARPET, "play", str(kovrik), "-", "--json"], stdin=subprocess.PIPE,
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, bufsize=1)
    try:
        positions = []
        for number, action in enumerate(("AH-b0", "hint", "undo"), 1):
            process.stdin.write(action + "\n")
            process.stdin.flush()
            position = json.loads(_line(process))
            positions.append(position)
            # the action is on disk already, while the pipe is still open
            assert position["events"] == number == len(recorded(kovrik)) and position["applied"] == number
        assert positions[1]["hint"] and "hint" not in positions[0]
        assert positions[0]["layout"] != deal and positions[2]["layout"] == deal  # the undo took AH back
        process.stdin.write("7H-z9 AH-b0\n")  # an illegal action ends the run: what came before stays
        process.stdin.flush()
        assert process.wait(timeout=30) == 2
        assert process.stdout.read() == ""
        assert "event 4 (7H-z9)" in process.stderr.read()
    finally:
        if process.poll() is None:
            process.kill()
        process.wait()
    assert len(recorded(kovrik)) == 3


def test_a_pipe_without_json_prints_hints_as_they_come_and_draws_at_the_end(kovrik):
    result = subprocess.run([*CARPET, "play", str(kovrik), "-"], input="AH-b0 hint\n", capture_output=True,
                            text=True, timeout=60)
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith("hint: ") and "kovrik  deal ms5" in result.stdout
    assert len(recorded(kovrik)) == 2


def test_an_empty_pipe_gives_the_position_as_it_stands(kovrik):
    r = run("play", kovrik, "-", "--json", input="")
    assert r.exit_code == 0 and doc(r)["applied"] == 0 and doc(r)["events"] == 0


def test_a_refusal_longer_than_the_line_is_shown_whole_in_place_of_the_legend(tmp_path):
    path = tmp_path / "c.carpet"
    assert run("new", "carpet", "7", "-o", path).exit_code == 0

    async def script(app, pilot):
        assert "dead gap" in screen_text(app)  # the legend
        await pilot.press(*"zz9", "enter")
        line = message(app)
        assert len(line) > 58 and line.startswith("zz9: ")
        shown = " ".join(screen_text(app).split())
        assert " ".join(line.split()) in shown and "dead gap" not in shown
        await pilot.press(*"turn", "enter")
        assert message(app) == "played turn" and "dead gap" in screen_text(app)
    on_screen(path, script, (60, 20))
