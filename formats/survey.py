"""A survey on disk and on stdout: the results file (one JSON line per deal) and the summary document.

The results file is JSON Lines, one :class:`DealResult` per line, appended as each deal
finishes, every line written whole with one ``write`` on a file opened for appending.
Every line names its game, player and budget, so files can be concatenated (several
machines' results summarised together) and a file is never mixed up with another survey's.

Reading is forgiving only where an interruption can leave a mark: a last line without its
newline (the process was killed mid-write) is ignored, and cut off when a run resumes on
the file; a torn line found inside a file (one such file concatenated before another) is
skipped, and the whole line glued after it is recovered.  Anything else that is not a
result line is refused.  Fields are only ever appended; unknown fields are ignored.
"""

from __future__ import annotations

import contextlib
import math
import os
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Iterable, Iterator, Literal

import msgspec

from carpet.core import CarpetError
from carpet.core.survey import Spread as _Spread, Tally

try:
    import fcntl
except ImportError:  # not POSIX: appends stay whole lines, but two runs are not kept apart
    fcntl = None  # type: ignore[assignment]

Result = Literal["won", "lost", "unwinnable", "unknown"]
DealNumber = Annotated[int, msgspec.Meta(ge=1)]
Count = Annotated[int, msgspec.Meta(ge=0)]

#: how every result line starts (the first field), to tell a torn line from a foreign one
LINE_START = b'{"deal":'


class DealResult(msgspec.Struct):
    """One deal of a survey: a line of the results file."""

    deal: DealNumber
    result: Result
    #: counted moves and score at the end (the solver's: of its winning line)
    moves: Count
    score: int
    #: actions the player applied, and search nodes spent (0 for players that do not search)
    actions: Count
    nodes: Count
    #: CPU time of the deal in the worker (time.process_time), so other load hardly changes it
    seconds: float
    game: str
    player: str
    #: the solver's node budget per deal; null for players without one
    budget: int | None = None

    def outcome(self) -> tuple:
        """Everything but the time taken: the same deal under the same player always gives this."""
        return (self.result, self.moves, self.score, self.actions, self.nodes)


class Spread(msgspec.Struct):
    """How some counts spread (counted moves or score over the won deals or games)."""

    mean: float
    sd: float
    median: float
    min: int
    max: int


#: a win rate's 95 % Wilson interval, shared by the survey and ``carpet stats`` documents
Interval = Annotated[tuple[float, float], msgspec.Meta(
    description="95 % Wilson score interval of the rate: low and high; what is undecided (a survey's "
                "unknown deals, a record's games still playing) counted lost for the low bound, won "
                "for the high")]
CONFIDENCE = 0.95


def rate_fields(rate: float, interval: tuple[float, float]) -> dict:
    """``rate``, ``interval`` and ``confidence`` of a document, rounded as every document rounds them."""
    low, high = interval
    return {"rate": round(rate, 6), "interval": (round(low, 6), round(high, 6)), "confidence": CONFIDENCE}


def spread_of(counts) -> Spread | None:
    """The Spread document of some counts (value -> how many), None when there are none."""
    s = _Spread.of(counts)
    if s is None:
        return None
    return Spread(round(s.mean, 3), round(s.sd, 3), s.median, s.min, s.max)


class SurveyDocument(msgspec.Struct):
    """What ``carpet survey --json`` prints (its keys are a contract scripts rely on): the same
    for any number of jobs, a local or a Dask run, a resumed or an uninterrupted one."""

    game: str
    player: str
    budget: int | None
    deals: int
    #: the lowest and highest deal counted
    first: int | None
    last: int | None
    won: int
    #: the player failed (no proof: the deal may be winnable)
    lost: int
    #: proven unwinnable by the solver (counts as lost for the rate)
    unwinnable: int
    #: the solver's budget ran out first
    unknown: int
    #: won / deals
    rate: float
    #: 95 % Wilson; unknown deals counted lost for the low bound, won for the high one
    interval: Interval
    confidence: float
    #: counted moves and score over the won deals (null when none was won)
    moves: Spread | None
    score: Spread | None


def survey_document(tally: Tally, game: str, player: str, budget: int | None) -> SurveyDocument:
    c = tally.counts
    return SurveyDocument(game=game, player=player, budget=budget, deals=tally.deals, first=tally.first,
                          last=tally.last, won=c["won"], lost=c["lost"], unwinnable=c["unwinnable"],
                          unknown=c["unknown"], **rate_fields(tally.rate, tally.interval),
                          moves=spread_of(tally.moves), score=spread_of(tally.scores))


# --- the results file ------------------------------------------------------------------
class ResultsError(CarpetError):
    """A results file that cannot be used (one line, naming the file)."""


_encoder = msgspec.json.Encoder()
_decoder = msgspec.json.Decoder(DealResult)


def encode_line(result: DealResult) -> bytes:
    return _encoder.encode(result) + b"\n"


def describe(game: str, player: str, budget: int | None) -> str:
    """``carpet, player simple`` / ``carpet, player solve with 100000 nodes``."""
    return f"{game}, player {player}" + (f" with {budget} nodes" if budget is not None else "")


@dataclass
class Reading:
    """What reading a results file found besides its results."""

    path: Path
    #: torn lines skipped inside the file
    torn: int = 0
    #: the last line was cut short (no newline and not a whole result): ignored
    torn_tail: bool = False
    #: the last line is whole but has no newline
    unterminated: bool = False
    #: bytes up to the end of the last good line (where a resumed run appends)
    good_length: int = 0


def read_results(path: Path, reading: Reading | None = None) -> Iterator[DealResult]:
    """Every result in the file, in file order; ``reading`` (when given) learns of torn lines."""
    reading = reading if reading is not None else Reading(path)
    from .files import open_regular
    from .log_types import LogError

    try:  # a regular file only: a named pipe would hang the read, a device never end
        f = open(open_regular(path), "rb")
    except LogError as exc:
        raise ResultsError(f"{path}: {str(exc).replace('not a log file', 'not a results file')}") from None
    with f:
        offset = 0
        for number, raw in enumerate(f, 1):
            whole = raw.endswith(b"\n")
            line = raw.strip()
            end = offset + len(raw)
            offset = end
            if not line:
                if whole:
                    reading.good_length = end
                continue
            try:
                result = _decoder.decode(line)
            except msgspec.ValidationError as exc:  # well-formed JSON, but not a result
                raise ResultsError(f"{path} line {number}: not a survey result ({_why(exc)})") from None
            except RecursionError:  # a field the decoder skips, nested past what it walks
                raise ResultsError(f"{path} line {number}: not a survey result line (nested too deep)") from None
            except msgspec.DecodeError as exc:
                if not whole and _fragment(line):
                    reading.torn_tail = True  # killed mid-write: the last line, cut short
                    break
                glued = line.rfind(LINE_START)
                if glued <= 0 and _fragment(line):  # a torn line with its newline added
                    reading.torn += 1
                    reading.good_length = end
                    continue
                if glued <= 0 or not _fragment(line[:glued]):
                    raise ResultsError(f"{path} line {number}: not a survey result line ({_why(exc)})") from None
                try:  # a torn line with a whole one glued after it (files concatenated)
                    result = _decoder.decode(line[glued:])
                except (msgspec.DecodeError, msgspec.ValidationError) as exc2:
                    raise ResultsError(f"{path} line {number}: not a survey result line ({_why(exc2)})") from None
                reading.torn += 1
            _check_result(result, path, number)
            if not whole:
                reading.unterminated = True
            reading.good_length = end
            yield result


#: a player's name as the players are named (core/players.py): nothing a terminal would act on
_PLAYER = re.compile(r"[A-Za-z0-9_.+-]{1,60}")


def _check_result(result: DealResult, path: Path, number: int) -> None:
    """Refuse a line the schema lets through but no survey writes: an unknown game, a deal number the
    numbering has not, a player's name that is no name, a time that is no time."""
    from carpet.core import GAMES
    from carpet.core.numbering import MT_LIMIT

    if result.game not in GAMES:
        raise ResultsError(f"{path} line {number}: unknown game {result.game[:40]!r}")
    if result.deal >= MT_LIMIT:
        raise ResultsError(f"{path} line {number}: deal {result.deal} is beyond the numbering (below 10^20)")
    if _PLAYER.fullmatch(result.player) is None:
        raise ResultsError(f"{path} line {number}: {result.player[:40]!r} is not a player's name")
    if not (result.seconds >= 0 and math.isfinite(result.seconds)) or (result.budget is not None
                                                                        and result.budget < 1):
        raise ResultsError(f"{path} line {number}: a CPU time or node budget out of range")


def _fragment(line: bytes) -> bool:
    """Whether ``line`` may be the start of a result line cut short."""
    return line.startswith(LINE_START) or LINE_START.startswith(line)


def _why(exc: Exception) -> str:
    text = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
    return text[:120]


class ResultsWriter:
    """Appends result lines to a file, each whole in one write; one writer per file at a time."""

    def __init__(self, path: Path) -> None:
        self.path = path
        from .files import open_append
        from .log_types import LogError

        try:  # a regular file only (docs/format.md's file rules): never a pipe to hang on, or a device
            self.fd = open_append(path)
        except LogError as exc:
            raise ResultsError(f"{path}: {str(exc).replace('not a log file', 'not a results file')}") from None
        if fcntl is not None:
            try:
                fcntl.flock(self.fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except OSError:
                os.close(self.fd)
                raise ResultsError(f"{path}: another survey is writing to it") from None

    def repair(self, reading: Reading) -> None:
        """Cut off a torn last line, or end a whole last line that lacks its newline."""
        if reading.torn_tail:
            os.ftruncate(self.fd, reading.good_length)
        elif reading.unterminated:
            self._write(b"\n")

    def write(self, result: DealResult) -> None:
        self._write(encode_line(result))

    def _write(self, data: bytes) -> None:
        try:
            written = os.write(self.fd, data)
            while written < len(data):  # a short write only on a full disk: finish or fail
                written += os.write(self.fd, data[written:])
        except OSError as exc:
            raise ResultsError(f"{self.path}: cannot write: {exc.strerror}") from None

    def close(self) -> None:
        with contextlib.suppress(OSError):
            os.fsync(self.fd)
        os.close(self.fd)

    def __enter__(self) -> "ResultsWriter":
        return self

    def __exit__(self, *exc) -> None:
        self.close()


Identity = tuple[str, str, "int | None"]


class Collection:
    """Results gathered from files: of one survey only, each deal once.

    ``identity`` is (game, player, budget): the first result sets it when not given.  A deal
    found twice with the same outcome (overlapping ranges, or the same file twice) counts
    once; with different outcomes the files cannot be from the same engine and player.
    """

    def __init__(self, identity: Identity | None = None) -> None:
        self.identity = identity
        self._seen: dict[int, int] = {}  # deal -> hash of its outcome
        self.repeated = 0

    def add(self, result: DealResult, where: Path) -> bool:
        """Whether the result is new (False for a repeat); raises ResultsError for a foreign one."""
        identity = (result.game, result.player, result.budget)
        if self.identity is None:
            self.identity = identity
        elif identity != self.identity:
            raise ResultsError(f"{where}: holds results of {describe(*identity)}, not of "
                               f"{describe(*self.identity)}")
        outcome = hash(result.outcome())
        before = self._seen.get(result.deal)
        if before is None:
            self._seen[result.deal] = outcome
            return True
        if before != outcome:
            raise ResultsError(f"{where}: deal {result.deal} is there twice with different results "
                               "(results of different versions of carpet?)")
        self.repeated += 1
        return False

    def __contains__(self, deal: int) -> bool:
        return deal in self._seen

    def deals(self) -> Iterable[int]:
        return self._seen.keys()
