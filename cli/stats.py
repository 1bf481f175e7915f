"""``carpet stats``: a player's record over recorded games, per game id.

Every file is verified first, in this process (formats/log.py, ``check``): a file that does
not read or verify is named on stderr and not counted, and the exit code says so (1: it
failed verification, 2: it could not be read as a log, 2 winning over 1), so the record holds
only legal games that score what they claim.  Only games a person played from a numbered deal
count (the rest are listed apart, ``--all`` counts them), each once (:func:`same_game`), each of
its attempts as a game (core/stats.py).  The counting is core/stats.py's; the document is
formats/stats.py's; the tables are the survey's (cli/tables.py).
"""

import os
from pathlib import Path
from typing import Annotated, NamedTuple, Optional

import typer

from .common import MACHINE_MARKS, JsonFlag, error, fail, game_and_deal, guard, print_json, say, settle
from .exits import OK, UNUSABLE
from .outcome import shown


def stats(paths: Annotated[list[Path], typer.Argument(
              metavar="PATH...", help="Recorded games, or folders searched (sub-folders too) for *.carpet, "
              "*.carpet.json and *.carpet.txt files, and *.log and *.json files that hold a carpet log.",
              show_default=False)],
          game: Annotated[Optional[str], typer.Option(
              "--game", metavar="GAME", help="Only this game (see `carpet games`).", show_default=False)] = None,
          everything: Annotated[bool, typer.Option(
              "--all", help="Count the games set apart too: started from a position (their score counted from "
              "the position's), written by `carpet solve -o` or played by `carpet autoplay -o`.")] = False,
          as_json: JsonFlag = False) -> None:
    def run() -> int:
        wanted = game_and_deal(game, None)[0].id if game is not None else None
        reading = _Reading(everything)
        for path in reading.files(paths):
            reading.read(path, wanted)
        return _show(reading, as_json)
    guard(run)


stats.__doc__ = "\n\n".join((
    "Your record per game: games won, lost and still playing, the win rate with its 95 % interval, the best "
    "score, the fewest moves and fastest win, and winning streaks.",
    "Every file is verified first: one that fails is named on stderr and not counted (exit 1; exit 2 for a "
    "file that cannot be read as a recorded game). Each attempt of a game is a game of its own: one ended by "
    "a restart counts when it was won or lost (a won attempt is a win whatever came after it), one restarted "
    "while still being played does not.",
    "Each game counts once: files of the same game and deal whose first event is the same (its action and its "
    "clock reading, to the millisecond; files with no event yet, by game and deal alone) are one game in two "
    "forms, a copy, or a game copied mid-play, whatever their creation times say; the one played furthest (most "
    "events) counts. "
    "Games started from a position, written by the solver (`solve -o`) or played by the built-in player "
    "(`autoplay -o`) are listed apart and not counted unless --all.",
))

_WHY = {"position": "started from a position", "solver": "written by the solver",
        "player": "played by the built-in player"}


class Tally(NamedTuple):
    """What counting one verified game needs of it (its log and session are not kept)."""
    file: str
    game: str
    why: str | None  # set_apart
    key: tuple  # same_game
    rank: tuple  # of the copies of one game, the least is counted: the longest, then the oldest
    played: list  # attempts_played


def tally(file: str, log, session) -> Tally:
    why = set_apart(log.header)
    return Tally(file, log.header.game, why, same_game(log), (-len(log.events), log.header.created, file),
                 attempts_played(file, log, session, why == "position"))


class _Reading:
    """The files found and what each held: the games counted, the failures, the exit code."""

    def __init__(self, everything: bool = False, on_problem=None) -> None:
        #: where a file's problem is told: stderr and the exit code, unless another says (the screen)
        self.on_problem = on_problem
        self.code = OK
        self.found = 0
        self.everything = everything
        self.failed: list = []
        self.apart: list = []
        self.copies = 0
        self._seen: set = set()  # the files read, by device and inode
        #: what makes a game the same game -> (rank: the one kept is the least, its attempts as Played)
        self._games: dict = {}

    @property
    def played(self) -> list:
        return [played for _rank, attempts in self._games.values() for played in attempts]

    @property
    def counted(self) -> int:
        return len(self._games)

    def _problem(self, path: Path, why: str, code: int) -> None:
        if self.on_problem is not None:
            self.on_problem(f"{path}: {why}")
            return
        self.code = max(self.code, code)
        settle(self.code)
        if code == UNUSABLE:
            error(f"carpet stats: {path}: {why}")
        else:
            error(f"FAIL {path}: {why}")

    def files(self, paths: list[Path]):
        """(path, named): each file named, and each file under each folder named whose name may be a game."""
        from .recorded import walk

        for path in paths:
            try:
                folder = path.is_dir()
            except (OSError, ValueError):
                folder = False
            if folder:
                for found in walk(path, lambda where, why: self._problem(where, f"cannot read: {why}", UNUSABLE)):
                    yield found, False
            else:
                yield path, True

    def read(self, item: tuple, wanted: str | None) -> None:
        from carpet.core import CarpetError
        from carpet.formats.stats import Failed

        path, named = item
        try:
            st = os.stat(path)
            same_file = (st.st_dev, st.st_ino)
        except (OSError, ValueError):
            same_file = path  # reading it says what is wrong
        if same_file in self._seen:  # the same file named twice, inside a folder also named, or linked
            return
        self._seen.add(same_file)
        try:
            loaded = _load(path, named)
        except CarpetError as exc:  # a file that cannot be read counts as a game (it may be one)
            self.found += 1
            failure = fail(path, exc)
            self.failed.append(Failed(file=str(path), error=str(exc), unreadable=failure.code == UNUSABLE))
            self._problem(path, str(exc), failure.code)
            return
        if loaded is None:
            return
        self.take(str(path), *loaded, wanted)

    def take(self, file: str, log, session, wanted: str | None = None) -> None:
        """Count one verified game (its log and replayed session), named ``file``."""
        self.count(tally(file, log, session), wanted)

    def count(self, game: Tally, wanted: str | None = None) -> None:
        """Count one game: set apart, a copy of a game already counted, or a game of its own."""
        from carpet.formats.stats import Apart

        self.found += 1
        if wanted is not None and game.game != wanted:
            return
        if game.why is not None and not self.everything:
            self.apart.append(Apart(file=game.file, why=game.why))
            return
        held = self._games.get(game.key)
        if held is not None:
            self.copies += 1
            if held[0] <= game.rank:
                return
        self._games[game.key] = (game.rank, game.played)



def set_apart(header) -> str | None:
    """Why a game is not a player's game from a numbered deal ("position", "solver", "player"), or None."""
    if header.numbering != "pysol":
        return "position"
    return next((why for mark, why in MACHINE_MARKS if header.tool.endswith(mark)), None)


def same_game(log) -> tuple:
    """What makes two recorded games one: the game, the deal, and the first event, its action and
    clock reading (a copy shares them, whatever its creation time; two games played apart do not,
    their clocks to the millisecond); with no events, the game and deal alone."""
    from carpet.formats.playlog import first_reading

    header, events = log.header, log.events
    first = (events.actions[0], first_reading(events)) if len(events) else None
    return (header.game, header.numbering, header.deal, first)


def attempts_played(file: str, log, session, from_position: bool) -> list:
    """Each attempt of the game as core/stats.py counts it: those a restart ended, then the one being played.
    A game from a position scores what it gained from the position's score."""
    from carpet.core.session import deal_state
    from carpet.core.stats import RESTARTED, Played

    header = log.header
    base = deal_state(session.variant, session.deal).score if from_position else 0
    out = [Played(file=file, game=header.game, created=header.created,
                  status=RESTARTED if attempt.status == "playing" else attempt.status, score=attempt.score - base,
                  moves=attempt.moves, elapsed_ms=attempt.elapsed_ms, attempt=n)
           for n, attempt in enumerate(session.earlier_attempts(), 1)]
    out.append(Played(file=file, game=header.game, created=header.created, status=session.status,
                      score=session.score - base, moves=session.moves, elapsed_ms=log.summary.elapsed_ms,
                      attempt=session.attempt))
    return out


def _load(path: Path, named: bool):
    """(log, session) of the verified game in the file; None for a ``.log`` or ``.json`` file found in a
    folder that holds something else; CarpetError (formats/log_types.py's LogError) for one that does not read or verify."""
    from carpet.formats import check
    from carpet.formats.files import read_bytes

    from .recorded import looks_like_a_game, named_as_game

    data = read_bytes(path)
    if not named and not named_as_game(path.name) and not looks_like_a_game(data):
        return None
    return check(data)


def _document(reading: _Reading):
    from carpet.core.stats import records
    from carpet.formats.stats import StatsDocument, game_record

    found = records(reading.played)
    return StatsDocument(files=reading.found, counted=reading.counted, copies=reading.copies,
                         failed=reading.failed, games=[game_record(r) for r in found.values()], apart=reading.apart)


def record_of(games):
    """``carpet stats --json``'s document over games already verified, a ``Tally`` each, counted as the
    command counts the files it reads (the server's kept games, by digest)."""
    reading = _Reading()
    for game in games:
        reading.count(game)
    return _document(reading)


def folder_record(folder: Path):
    """The record over the games in ``folder`` as the screen shows it (its stats key): the tables of
    ``carpet stats FOLDER``, then a line for each file not counted."""
    from rich.console import Group
    from rich.text import Text

    problems: list[str] = []
    reading = _Reading(on_problem=problems.append)
    for path in reading.files([folder]):
        reading.read(path, None)
    doc = _document(reading)
    parts = [Text(f"carpet stats {folder}: {doc.files:,} recorded game{'s' * (doc.files != 1)} found, "
                  f"{doc.counted:,} counted", style="bold")]
    for entry in doc.games:
        parts += [Text(""), table(entry)]
    parts += [Text(f"not counted: {line}", style="red") for line in problems]
    return Group(*parts)


def _show(reading: _Reading, as_json: bool) -> int:
    doc = _document(reading)
    if as_json:
        print_json(doc)
    else:
        from .common import console

        out = console()
        for i, entry in enumerate(doc.games):
            if i:
                out.print()
            out.print(table(entry), soft_wrap=True)  # a file name stays whole on its line
        if not doc.games:
            print("no games counted")
        if doc.apart:
            print("\nnot counted (--all counts them):")
            for apart in doc.apart:
                print(f"  {shown(apart.file)}: {_WHY[apart.why]}")
    notes = [f"{doc.files:,} recorded game{'s' * (doc.files != 1)} found", f"{doc.counted:,} counted"]
    if doc.copies:
        notes.append(f"{doc.copies:,} cop{'ies' if doc.copies != 1 else 'y'} of a game counted once")
    if doc.apart:
        notes.append(f"{len(doc.apart):,} set apart (started from a position or played by a program)")
    if doc.failed:
        notes.append(f"{len(doc.failed):,} not counted (failed, named above)")
    say("carpet stats: " + ", ".join(notes))
    return reading.code


def table(entry):
    """One game's record for people: counts, the rate with its interval, bests and streaks."""
    from rich.console import Group
    from rich.text import Text

    from carpet.formats.svg import clock_text

    from .tables import counts_table, rate_lines, spread_lines

    title = Text(f"{entry.game}: {entry.games:,} game{'s' * (entry.games != 1)}", style="bold")
    rows = [("won", entry.won), ("lost", entry.lost), ("playing", entry.playing)]
    lines = rate_lines(entry, "games still playing" if entry.playing else None)
    for what, best, form in (("best score", entry.best_score, str),
                             ("fewest moves in a win", entry.fewest_moves, str),
                             ("fastest win", entry.fastest_ms, clock_text)):
        if best is not None:
            attempt = f", attempt {best.attempt}" if best.attempt > 1 else ""
            lines.append(f"{what}: {form(best.value)} ({shown(best.file)}{attempt})")
    if entry.restarted:
        lines.append(f"attempts restarted before they were over (not games): {entry.restarted}")
    lines.append(f"winning streak: current {entry.streak.current}, longest {entry.streak.longest}")
    lines += spread_lines(entry, "won games")
    return Group(title, counts_table(rows, entry.games, "games"), Text(""), Text("\n".join(lines)))
