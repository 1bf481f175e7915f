"""``carpet play FILE`` on a terminal: the interactive screen (Textual).

The only module that imports Textual, and it is imported only on this path, so every other
command starts as fast as before.  The screen draws the position with the same renderables as
``carpet show`` (cli/draw.py), with a live clock; it holds no rules: every action goes through
:class:`~carpet.cli.live.LiveGame`, which parses it, plays it and records it.

- Each action is written to the log (atomically, under the log's lock, held while the screen is
  open) before the screen shows it played: a kill -9 or a closed terminal loses nothing shown.
- The input line takes any action text of the command line, several separated by spaces, and
  ``quit``; Tab completes the legal actions.  An illegal action is explained on one line and
  changes nothing.
- The board: the arrow keys move a cursor over the places that play an action now (a card
  alone, the "click" of docs/rules.md; a gap only one legal action fills; the stock, where it
  turns), Enter or Space plays it, a mouse click plays the place clicked.  Any other typing goes
  to the input line.
- The keys, as the footer lists them: F1 (or ``?``) the help, F2 plays the hint (the hint is
  recorded, then the action it names), F3 a new deal (a number asked, or a fresh one; recorded
  to a new file beside this one, which the screen then plays), F4 the player's record over the
  games in this file's folder (``carpet stats FOLDER``), Ctrl+Z undoes, Ctrl+R restarts a
  finished game, Ctrl+Q (or Ctrl+C, or ``quit``) leaves.  The first view says how to get help.
- A refused action is said on the line above the input, and the input is emptied for the next.
"""

from __future__ import annotations

import contextlib
import io
import re
from pathlib import Path
from typing import NamedTuple

from rich.cells import cell_len
from rich.console import Console
from rich.text import Text
from textual import events
from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.containers import Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Footer, Input, Static

from carpet.core import HINT, CarpetError
from carpet.core.cards import RANKS, SUIT_SYMBOLS
from carpet.core.game import LOST, WON
from carpet.formats import LogError, locked

from .common import Failure, draw, fail, say
from .draw import legend_of, position
from .exits import OK
from .live import LiveGame

#: a card as the drawing writes it (``7♥``), not inside a longer word
CARD = re.compile(rf"(?<![0-9A-Za-z])[{RANKS}][{SUIT_SYMBOLS}](?![0-9A-Za-z])")
#: an empty place of the drawing that a card can fill now
GAP = re.compile(r"\[\]")
#: the word the drawing writes before the stock's count: a click on it turns the stock
STOCK = re.compile(r"\bstock\b")
QUIT_WORDS = ("quit", "exit", "q")
#: the words of the input line besides the legal actions, for Tab
WORDS = ("hint", "undo", "restart", "quit")
SELECTED = "bold black on bright_cyan"
#: the key that opens the help, on the board and in the input line alike (no action holds it)
HELP_KEY = "?"
#: the first view's line: how to get help, and how to play
FIRST_LINE = "F1 or ? help; arrows and Enter, or a click, play a card"
HELP = """\
[b]Playing[/b]
  arrows       a card (gap, stock) that plays now
  Enter Space  play it; a click plays the card clicked
  typing       an action, as `carpet moves` prints
               them (several: spaces between); Tab
               completes; also hint undo restart quit

[b]Keys[/b]
  F1 or ?      this help (Esc closes it)
  F2           the hint: recorded, then played
  F3           a new deal (a number, or a fresh one),
               recorded in GAME-DEAL.carpet beside
               this file and played here
  F4           your record over this file's folder
  Ctrl+Z       undo
  Ctrl+R       restart a finished game
  Ctrl+Q       quit (every action is already recorded)
"""


class Spot(NamedTuple):
    """A place on the drawn board that plays an action when chosen: its text (what the input line would take)."""

    line: int
    start: int  # first column
    end: int  # column after it
    text: str
    action: int


def board_lines(renderable, width: int) -> list[Text]:
    """A Rich renderable as lines of styled text ``width`` columns wide (where the spots are found)."""
    console = Console(width=width, file=io.StringIO(), force_terminal=True, color_system="truecolor",
                      highlight=False, legacy_windows=False)
    lines = []
    for segments in console.render_lines(renderable, console.options.update(width=width), pad=False):
        line = Text()
        for segment in segments:
            if not segment.control:
                line.append(segment.text, segment.style)
        lines.append(line)
    return lines


def find_spots(lines: list[Text], game: LiveGame) -> list[Spot]:
    """The places drawn on ``lines`` that play a legal action now: a card that plays alone, a gap
    that exactly one legal action fills, the stock if it turns."""
    session = game.session
    legal = set(session.legal_actions())
    filling: dict[str, list[int]] = {}  # a place's name -> the legal actions ending on it ("w>b3", "7H>b5")
    for action in legal:
        filling.setdefault(session.variant.text(action).rpartition(">")[2], []).append(action)
    spots, columns = [], {}
    for number, line in enumerate(lines):
        plain = line.plain
        words = plain.split()
        if len(words) > 2 and all(w.isdigit() for w in words):  # a board's column labels
            columns = {cell_len(plain[:m.start()]): m.group() for m in re.finditer(r"\d+", plain)}
            continue
        found = [(m.start(), m.group(), None) for m in CARD.finditer(plain)]
        found += [(m.start(), "turn", None) for m in STOCK.finditer(plain)]
        if words and columns:  # a board's row: its name first, then its cells under the labels
            for m in GAP.finditer(plain):
                label = columns.get(cell_len(plain[:m.start()]))
                fills = filling.get(f"{words[0]}{label}", []) if label else []
                if len(fills) == 1:
                    found.append((m.start(), session.variant.text(fills[0]), fills[0]))
        for index, text, action in sorted(found):
            if action is None:
                try:
                    action = session.parse(text)
                except CarpetError:
                    continue
            if action in legal:
                start = cell_len(plain[:index])
                width = 5 if text == "turn" else 2
                spots.append(Spot(number, start, start + width, text, action))
    return spots


def nearest(spots: list[Spot], current: Spot | None, direction: str) -> Spot | None:
    """The spot an arrow key moves to from ``current``: the closest one that way, else stay."""
    if not spots:
        return None
    if current is None:
        return spots[0]
    dx, dy = {"left": (-1, 0), "right": (1, 0), "up": (0, -1), "down": (0, 1)}[direction]

    def ahead(spot: Spot) -> bool:
        return (spot.start - current.start) * dx > 0 if dx else (spot.line - current.line) * dy > 0

    def distance(spot: Spot) -> tuple[int, int]:
        along = abs(spot.start - current.start) if dx else abs(spot.line - current.line)
        across = abs(spot.line - current.line) if dx else abs(spot.start - current.start)
        return (across, along) if dx else (along, across)

    candidates = [s for s in spots if ahead(s)]
    return min(candidates, key=distance) if candidates else current


class Board(Static, can_focus=True):
    """The position, drawn as ``show`` draws it, with a cursor on a card that can be played."""

    def on_key(self, event: events.Key) -> None:
        app: PlayScreen = self.app  # type: ignore[assignment]
        command = app.query_one(Command)
        if event.key in ("up", "down", "left", "right"):
            app.move(event.key)
        elif event.key in ("enter", "space") and not command.value:
            app.play_selected()
        elif event.key == "enter":  # typed faster than the focus moved: the typing is the action
            command.focus()
            app.submit(command)
        elif event.is_printable and event.character:  # typing: it goes to the input line
            command.focus()
            command.insert_text_at_cursor(event.character)
        else:
            return
        event.stop()
        event.prevent_default()

    def on_click(self, event: events.Click) -> None:
        offset = event.get_content_offset(self)
        if offset is not None:
            self.app.play_at(offset.x, offset.y)  # type: ignore[attr-defined]


class Command(Input):
    """The input line: any action text, several separated by spaces; Tab completes."""

    BINDINGS = [Binding("tab", "complete", "complete", show=False),
                Binding("escape", "board", "to the board", show=False),
                Binding("up", "board_move('up')", show=False), Binding("down", "board_move('down')", show=False)]

    def check_consume_key(self, key: str, character: str | None) -> bool:
        return character != HELP_KEY and super().check_consume_key(key, character)  # "?" is in no action

    def action_complete(self) -> None:
        self.app.complete(self)  # type: ignore[attr-defined]

    def action_board(self) -> None:
        self.app.query_one(Board).focus()

    def action_board_move(self, direction: str) -> None:
        self.action_board()
        self.app.move(direction)  # type: ignore[attr-defined]


class PlayScreen(App):
    """The screen of one game; ``game`` holds the log's lock for as long as the screen is open."""

    CSS = """
    Screen { layout: vertical; }
    #board { height: 1fr; overflow-y: auto; padding: 0 1; }
    #bottom { dock: bottom; height: auto; }
    #legend { height: 1; padding: 0 1; color: $text-muted; }
    #message { height: auto; max-height: 2; padding: 0 1; }
    #message.bad { color: $error; }
    #message.over { text-style: bold; color: $success; }
    Command { border: none; height: 1; padding: 0 1; }
    """
    BINDINGS = [
        Binding("f1", "help", "help", priority=True),
        Binding("question_mark", "help", "help", show=False, priority=True),
        Binding("f2", "hint", "hint", priority=True),
        Binding("f3", "new_deal", "new deal", priority=True),
        Binding("f4", "stats", "stats", priority=True),
        Binding("ctrl+z", "undo", "undo", priority=True),
        Binding("ctrl+r", "restart", "restart", show=False, priority=True),
        Binding("ctrl+q", "quit", "quit", priority=True),
        Binding("ctrl+c", "quit", "quit", show=False, priority=True),
    ]
    ENABLE_COMMAND_PALETTE = False

    def __init__(self, game: LiveGame, locks: contextlib.ExitStack | None = None) -> None:
        super().__init__()
        self.game = game
        #: the lock of the log played now (a new deal's log takes its place)
        self.locks = locks if locks is not None else contextlib.ExitStack()
        #: the logs a new deal created, in order
        self.created: list[Path] = []
        self.spots: list[Spot] = []
        self.selected: Spot | None = None
        self.played = 0  # actions recorded by this screen

    def check_action(self, action: str, parameters) -> bool | None:
        """While the help, the new deal's question or the record is open, only quitting acts on the game."""
        return action == "quit" or not isinstance(self.screen, ModalScreen)

    # --- layout and drawing ----------------------------------------------------------
    def compose(self) -> ComposeResult:
        self.board = Board(id="board")  # held, not queried: the clock's last tick may come as the screen closes
        yield self.board
        with Vertical(id="bottom"):
            yield Static(legend_of(self.game.session) or "", id="legend")
            yield Static(id="message")
            yield Command(placeholder="an action (Tab completes), or quit", id="command", select_on_focus=False)
            yield Footer(compact=True)

    def on_mount(self) -> None:
        self.title = f"carpet play {self.game.file}"
        self.changed()
        self.say(self.over_line() or FIRST_LINE)
        self.board.focus()
        self.set_interval(1.0, self.redraw)

    def lines(self) -> list[Text]:
        session = self.game.session
        board = self.board
        width = max(40, (board.content_size.width or self.size.width - 2))
        return board_lines(position(session, clock_ms=self.game.clock_now(), legend=False), width)

    def changed(self) -> None:
        """The position changed: find the spots again, keep the cursor on the same card if it is still one."""
        self.spots = find_spots(self.lines(), self.game)
        old = self.selected
        same = [s for s in self.spots if old is not None and s.text == old.text]
        self.selected = same[0] if same else (self.spots[0] if self.spots else None)
        self.redraw()

    def redraw(self) -> None:
        if not self.board.is_attached:  # the screen is closing (a tick of the clock after its widgets went)
            return
        lines = self.lines()
        spot = self.selected
        if spot is not None and spot.line < len(lines):
            line = lines[spot.line]
            start = _index_of_column(line.plain, spot.start)
            end = _index_of_column(line.plain, spot.end)
            line.stylize(SELECTED, start, end)
        self.board.update(Text("\n").join(lines))

    def say(self, line: str, kind: str = "") -> None:
        """A line above the input; one too long for the width takes the legend's line as its second."""
        message = self.query_one("#message", Static)
        message.set_classes(kind)
        message.update(Text(line))
        self.query_one("#legend").display = cell_len(line) <= max(1, self.size.width - 2)

    def over_line(self) -> str | None:
        session = self.game.session
        if session.status == WON:
            return (f"You won! Score {session.score} in {session.moves} moves. "
                    f"Ctrl+R plays the deal again, Ctrl+Q leaves.")
        if session.status == LOST:
            return (f"The game is lost: no move is left. Score {session.score}. "
                    f"Ctrl+Z undoes, Ctrl+R plays the deal again.")
        return None

    # --- playing ---------------------------------------------------------------------
    def play_texts(self, texts: list[str]) -> bool:
        """Play and record each text in order; stop at the first refused one. True if all were played."""
        note, done = "", []
        session = self.game.session
        for text in texts:
            try:
                played = self.game.play(text)
                self.record()
            except LogError as exc:  # the write failed: the game is as the log on disk has it
                self.refused(f"not recorded, so not played: {text}: {exc}")
                return False
            except CarpetError as exc:
                self.refused(f"{text}: {exc}")
                return False
            done.append(session.variant.text(played.action))
            if played.action == HINT:
                note = self.hint_note(played.hint)
        self.changed()
        if note:  # the cursor goes to what the hint names, where it is a place on the board
            self.selected = next((s for s in self.spots if s.action == played.hint), self.selected)
            self.redraw()
        self.say(self.over_line() or note or f"played {' '.join(done)}", "over" if self.over_line() else "")
        return True

    def record(self) -> None:
        before = self.game.unsaved
        try:
            self.game.save(f"{self.game.file}: every action played on the screen was recorded")
        except CarpetError:
            self.game.reload()
            self.changed()
            raise
        self.played += before

    def refused(self, line: str) -> None:
        self.changed()
        self.say(line, "bad")

    def hint_note(self, hint: int | None) -> str:
        session = self.game.session
        if hint is None:
            return f"hint: nothing to play (the game is {session.status})"
        text = session.variant.text(hint)
        return f"hint: {text}   (F2 plays the hint)"

    def play_selected(self) -> None:
        if self.selected is None:
            self.say("no card plays alone now: type an action (Tab lists them), or F2 for the hint", "bad")
            return
        self.play_texts([self.selected.text])

    def play_at(self, x: int, y: int) -> None:
        """A click: the spot under it, or beside it by one column."""
        near = [s for s in self.spots if s.line == y and s.start - 1 <= x <= s.end]
        if not near:
            self.say("nothing to play there: click a card that has a move now", "bad")
            return
        self.selected = min(near, key=lambda s: abs((s.start + s.end) / 2 - x))
        self.play_texts([self.selected.text])

    def move(self, direction: str) -> None:
        self.selected = nearest(self.spots, self.selected, direction)
        self.redraw()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        self.submit(event.input)

    def submit(self, command: Input) -> None:
        texts = command.value.split()
        if not texts:
            self.play_selected()
            return
        if len(texts) == 1 and texts[0].lower() in QUIT_WORDS:
            self.exit()
            return
        command.value = ""  # played or refused (the refusal is on the line above): the input is ready for the next
        self.play_texts(texts)

    def complete(self, command: Command) -> None:
        typed = command.value.split(" ")
        word = typed[-1]
        session = self.game.session
        choices = [session.variant.text(a) for a in session.legal_actions()] + list(WORDS)
        matches = list(dict.fromkeys(c for c in choices if c.lower().startswith(word.lower())))
        if not matches:
            self.say(f"no legal action begins {word!r}" if word else "no legal action now", "bad")
            return
        common = matches[0]
        for other in matches[1:]:
            while not other.lower().startswith(common.lower()):
                common = common[:-1]
        completed = matches[0] if len(matches) == 1 else (common if len(common) > len(word) else word)
        command.value = " ".join([*typed[:-1], completed])
        command.cursor_position = len(command.value)
        if len(matches) > 1:
            self.say(" ".join(matches))

    def action_hint(self) -> None:
        """Ask the hint (recorded) and play the action it names, both in one write."""
        self.say("looking for the hint…")  # the search can take a second: shown before it starts
        self.call_after_refresh(self.play_hint)

    def play_hint(self) -> None:
        try:
            played = self.game.act(HINT)
            if played.hint is not None:
                self.game.act(played.hint)  # a legal action: the hint names nothing else
            self.record()
        except CarpetError as exc:
            self.refused(f"hint: {exc}")
            return
        session = self.game.session
        self.changed()
        if played.hint is None:
            self.say(self.hint_note(None) + ("; Ctrl+Z undoes" if session.can_undo() else ""), "bad")
        else:
            self.say(self.over_line() or f"hint played: {session.variant.text(played.hint)}",
                     "over" if self.over_line() else "")

    def action_undo(self) -> None:
        self.play_texts(["undo"])

    def action_restart(self) -> None:
        if self.game.session.status not in (WON, LOST):
            self.say("the game is still going: type restart to play the deal again from the start", "bad")
            return
        self.play_texts(["restart"])


    # --- the help, a new deal, the record -------------------------------------------------
    def action_help(self) -> None:
        self.push_screen(HelpScreen())

    def action_new_deal(self) -> None:
        self.push_screen(DealScreen(self.game.session.variant.id), self.new_deal)

    def new_deal(self, number: str | None) -> None:
        """Record a new deal of this game (``carpet new``'s path) beside this file, and play it here."""
        from .deal import default_path, new_session, record_new

        if number is None:
            self.say("no new deal: the game goes on")
            return
        try:
            session = new_session(self.game.session.variant.id, number or None)
            path = default_path(session.variant.id, session.deal.text, self.game.file.parent)
            record_new(session, path)
            fresh = contextlib.ExitStack()
            try:
                game = open_game(path, fresh)
            except BaseException:
                fresh.close()
                raise
        except (CarpetError, Failure) as exc:
            self.say(f"no new deal: {str(exc).removeprefix('carpet: ')}", "bad")
            return
        self.locks.pop_all().close()  # this log's lock goes; the new log's is held in its place
        self.locks.enter_context(fresh)
        self.game = game
        self.created.append(path)
        self.title = f"carpet play {path}"
        self.changed()
        self.say(f"new deal, recorded in {path.name}")

    def action_stats(self) -> None:
        self.push_screen(StatsScreen(self.game.file.parent))


class HelpScreen(ModalScreen):
    """The keys and the input line, over the board; Esc, F1, ? or q closes it."""

    BINDINGS = [Binding("escape,f1,question_mark,q", "dismiss", "close", priority=True)]
    CSS = """
    HelpScreen { align: center middle; }
    #help { width: 60; max-width: 100%; height: auto; max-height: 100%; border: round $accent;
            padding: 0 1; background: $surface; }
    """

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="help"):
            yield Static(HELP + "\n[dim]Esc closes this help[/dim]")


class DealScreen(ModalScreen):
    """Asks the number of the new deal: Enter alone takes a fresh one; Esc changes nothing."""

    BINDINGS = [Binding("escape", "dismiss", "cancel", priority=True)]
    CSS = """
    DealScreen { align: center middle; }
    #deal { width: 56; max-width: 100%; height: auto; border: round $accent; padding: 0 1;
            background: $surface; }
    #deal Input { border: none; height: 1; padding: 0; }
    """

    def __init__(self, game: str) -> None:
        super().__init__()
        self.game = game

    def compose(self) -> ComposeResult:
        with Vertical(id="deal"):
            yield Static(f"A new deal of {self.game}: its number (N or msN), or Enter alone for a fresh "
                         f"one; Esc cancels.")
            yield Input(placeholder="deal number, or Enter", id="number")

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        self.dismiss(event.value.strip())


class StatsScreen(ModalScreen):
    """The player's record over the games of a folder (``carpet stats FOLDER``), scrolled; Esc closes."""

    BINDINGS = [Binding("escape,f4,q", "dismiss", "close", priority=True)]
    CSS = """
    StatsScreen { align: center middle; }
    #stats { width: 100%; height: 100%; border: round $accent; padding: 0 1; background: $surface; }
    """

    def __init__(self, folder: Path) -> None:
        super().__init__()
        self.folder = folder

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="stats"):
            yield Static(f"reading the games in {self.folder}…", id="record")

    def on_mount(self) -> None:
        self.call_after_refresh(self.show_record)

    def show_record(self) -> None:
        from rich.console import Group

        from .stats import folder_record

        self.query_one("#record", Static).update(Group(folder_record(self.folder),
                                                       Text("\nEsc closes; arrows scroll", style="dim")))
        self.query_one("#stats").focus()


def _index_of_column(plain: str, column: int) -> int:
    """The index in ``plain`` of the character that begins at ``column``."""
    width = 0
    for index, char in enumerate(plain):
        if width >= column:
            return index
        width += cell_len(char)
    return len(plain)


def open_game(file: Path, locks: contextlib.ExitStack) -> LiveGame:
    """The game of the log at ``file``, its lock taken (not waited for) and held by ``locks``; a log
    that could not be written back is refused before anything is shown."""
    from carpet.formats.files import check_target

    held = locks.enter_context(locked(file, wait=False))
    check_target(file)
    return LiveGame(file, held)


def run_screen(file: Path) -> int:
    """Open the screen on the log at ``file``; the log stays locked until the screen closes (or a new
    deal's log takes its place)."""
    try:
        with contextlib.ExitStack() as locks:
            screen = PlayScreen(open_game(file, locks), locks)
            screen.run()
            locks = screen.locks  # (a new deal's lock, when one was taken)
    except LogError as exc:
        raise fail(file, exc) from None
    game = screen.game
    draw(game.session)
    created = "".join(f"; new deal recorded in {path}" for path in screen.created)
    say(f"{file}: {screen.played} action{'' if screen.played == 1 else 's'} played on the screen, every one "
        f"recorded{created}")
    return OK


__all__ = ["PlayScreen", "run_screen"]
