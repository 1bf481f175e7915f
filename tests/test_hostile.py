"""Hostile files and neighbours (issue 48): every form (binary version 1 and 2, JSON, text) nested
deeper than it needs, with a key twice, with a number past its field, refused by every command that
reads a file with one line and exit 2 (a multi-file command going on); stderr that cannot be written
keeps the exit code; a wound generator is read without winding it; positions no play reaches.
tests/stress/fuzz_forms.py runs the long campaign of these kinds."""

from __future__ import annotations

import random
import subprocess
from pathlib import Path

import msgspec
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from carpet.cli.explain import check as explain
from carpet.core import get_game
from carpet.core.numbering import TwisterRandom
from carpet.core.position import BadPosition, read, write
from carpet.formats import LogError, check, encode, read_log
from carpet.formats import log_v2
from carpet.formats.log_verify import codes_and_deltas
from clitools import CARPET, run

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures"
JSON = (FIXTURES / "kovrik-shuffle-restart.json").read_bytes()  # version 1
JSON2 = encode(read_log(FIXTURES / "carpet-won.log"), as_json=True)  # version 2
V1 = (FIXTURES / "carpet-won.log").read_bytes()
assert V1[:1] == b"\x93"  # a version-1 binary log: [header, events, summary]


def _v2_payload(delta: int | None = None, score: int | None = None) -> tuple[bytes, bytes]:
    """A version-2 log of carpet-won.log with its first clock delta or its score replaced: (payload,
    its good digest)."""
    log = read_log(FIXTURES / "carpet-won.log")
    header = msgspec.structs.replace(log.header, version=2, layout=log.header.layout[:8])
    summary = msgspec.structs.replace(log.summary, position=log.summary.position[:8], digest="")
    if score is not None:
        summary = msgspec.structs.replace(summary, score=score)
    codes, deltas = codes_and_deltas(msgspec.structs.replace(log, header=header), get_game(header.game))
    deltas = list(deltas)
    if delta is not None:
        deltas[0] = delta
    payload = log_v2._payload_v2(header, codes, deltas, summary)
    return payload, log_v2._digest_v2(payload)


def _v2(delta=None, score=None, *, sealed=True) -> bytes:
    payload, digest = _v2_payload(delta, score)
    return log_v2._ext(payload + (digest if sealed else bytes(8)))


def _deep(n: int, open_: bytes = b"[", close: bytes = b"]") -> bytes:
    return open_ * n + close * n


HOSTILE = {  # name -> (file name, bytes): each must be refused as unusable, exit 2
    "json deep in the header": ("a.carpet.json", JSON.replace(b'"header":{', b'"header":{"x":' + _deep(1000) + b",", 1)),
    "json deep at the top": ("a.carpet.json", JSON.replace(b'{"header"', b'{"x":' + _deep(20, b'{"a":', b"}")[:-20]
                                                    + b"1" + b"}" * 20 + b',"header"', 1)),
    "json deep in an event": ("a.carpet.json", JSON.replace(b'["AC>a0",1519]', b'[[[["AC>a0"]]],1519]', 1)),
    "json 4 levels, 4 KB": ("a.carpet.json", JSON2.replace(b'"summary":{', b'"summary":{"x":' + _deep(2000) + b",")),
    "json status twice": ("a.carpet.json", JSON2.replace(b'"summary":{', b'"summary":{"status":"lost","score":12,')),
    "json events twice": ("a.carpet.json", JSON2.replace(b'"summary":', b'"events":[],"summary":')),
    "json key twice, unknown object": ("a.carpet.json", JSON2.replace(b'"header":{', b'"header":{"x":{"a":1,"a":2},')),
    "json score past 2^63": ("a.carpet.json", JSON2.replace(b'"score":48', b'"score":' + str(2**64).encode())),
    "json clock past 2^40": ("a.carpet.json", JSON.replace(b'["AC>a0",1519]', b'["AC>a0",' + str(2**41).encode() + b"]")),
    "v1 deep after its fields": ("a.carpet", b"\x94" + V1[1:] + _deep(1000, b"\x91", b"")[:-1] + b"\x90"),
    "v1 a field more, shallow": ("a.carpet", b"\x94" + V1[1:] + b"\x91\x91\x90"),
    "v2 huge delta, wrong digest": ("a.carpet", _v2(delta=2**64 - 1, sealed=False)),
    "v2 huge delta, resealed": ("a.carpet", _v2(delta=2**64 - 1)),
    "v2 score past 2^63, resealed": ("a.carpet", _v2(score=-(2**63))),
    "text score past 2^63": ("a.carpet.txt", (FIXTURES / "carpet-foster-from-position.carpet.txt").read_bytes()
                             .replace(b'[Score "', b'[Score "99999999999999999999')),
    "text tag twice": ("a.carpet.txt", (FIXTURES / "carpet-foster-from-position.carpet.txt").read_bytes()
                       .replace(b'[Result "', b'[Result "lost"]\n[Result "', 1)),
}
EXIT_1 = {"v2 huge delta, wrong digest"}  # a damaged log: its digest says so first (fails verification)


def test_the_hostile_files_are_what_they_say():
    """Each case is the good file changed only as named: the good ones read."""
    for data in (JSON, JSON2, V1, _v2()):
        check(data)
    assert b"status" in HOSTILE["json status twice"][1]
    assert HOSTILE["text tag twice"][1].count(b"[Result ") == 2


@pytest.mark.parametrize("name", sorted(HOSTILE))
def test_every_reader_refuses_it_with_one_line(name):
    _, data = HOSTILE[name]
    with pytest.raises(LogError) as refused:
        check(data)
    assert refused.value.unreadable == (name not in EXIT_1)
    assert "\n" not in str(refused.value)


COMMANDS = {  # command -> arguments around the file
    "verify": lambda f, d: ["verify", f], "show": lambda f, d: ["show", f], "replay": lambda f, d: ["replay", f],
    "export": lambda f, d: ["export", f, "-o", d / "out.carpet.json"], "moves": lambda f, d: ["moves", f],
    "hint": lambda f, d: ["hint", f], "play": lambda f, d: ["play", f, "hint", "-q"],
    "solve": lambda f, d: ["solve", f], "undo": lambda f, d: ["undo", f],
}


@pytest.mark.parametrize("command", sorted(COMMANDS))
@pytest.mark.parametrize("name", sorted(HOSTILE))
def test_every_command_refuses_it_with_one_line_and_its_code(name, command, tmp_path):
    file_name, data = HOSTILE[name]
    path = tmp_path / file_name
    path.write_bytes(data)
    result = run(*COMMANDS[command](path, tmp_path))
    assert result.exit_code == (1 if name in EXIT_1 else 2), (result.exit_code, result.output)
    assert "internal error" not in result.output and "Traceback" not in result.output
    assert len(result.stderr.splitlines()) == 1, result.stderr
    assert path.read_bytes() == data  # nothing written over it
    assert not (tmp_path / "out.carpet.json").exists()


@pytest.mark.parametrize("name", [n for n in sorted(HOSTILE) if HOSTILE[n][0].endswith(".txt")])
def test_import_refuses_a_hostile_text(name, tmp_path):
    path = tmp_path / HOSTILE[name][0]
    path.write_bytes(HOSTILE[name][1])
    result = run("import", path, "-o", tmp_path / "out.carpet")
    assert result.exit_code == 2 and len(result.stderr.splitlines()) == 1, result.output
    assert not (tmp_path / "out.carpet").exists()


def test_verify_goes_on_to_the_next_file_and_the_plugin_explains(tmp_path):
    good = tmp_path / "good.carpet"
    good.write_bytes(V1)
    paths = []
    for i, name in enumerate(sorted(HOSTILE)):
        path = tmp_path / f"{i}-{HOSTILE[name][0]}"
        path.write_bytes(HOSTILE[name][1])
        paths.append(path)
        report = explain(path)  # what the pytest plugin says of a game
        assert report is not None and "internal error" not in report
    result = run("verify", *paths, good)
    assert result.exit_code == 2, result.output
    assert result.stdout.count("ok ") == 1 and str(good) in result.stdout
    assert len(result.stderr.splitlines()) == len(paths)


def test_stats_over_a_folder_with_hostile_files_counts_the_rest(tmp_path):
    for i, name in enumerate(sorted(HOSTILE)):
        (tmp_path / f"{i}-{HOSTILE[name][0]}").write_bytes(HOSTILE[name][1])
    (tmp_path / "good.carpet").write_bytes(V1)
    result = run("stats", tmp_path, "--json")
    assert result.exit_code in (0, 2), result.output
    assert "internal error" not in result.output and "Traceback" not in result.output
    assert "carpet" in result.stdout  # the good game's record is printed


@settings(max_examples=60, deadline=None)
@given(depth=st.integers(4, 3000), where=st.sampled_from([b'"header":{', b'"summary":{', b'"events":[']),
       brackets=st.sampled_from([(b"[", b"]"), (b'{"k":', b"}")]))
def test_json_nested_past_three_levels_is_refused_at_any_depth(depth, where, brackets):
    open_, close = brackets
    nested = open_ * depth + (b"1" if open_ != b"[" else b"") + close * depth
    extra = b'"x":' + nested + b"," if where != b'"events":[' else nested + b","
    data = JSON2.replace(where, where + extra, 1)
    with pytest.raises(LogError, match="nested deeper") as refused:
        check(data)
    assert refused.value.unreadable


@settings(max_examples=40, deadline=None)
@given(key=st.sampled_from(["format", "version", "game", "deal", "status", "score", "moves", "digest"]),
       value=st.sampled_from(['"x"', "1", "null", "[]"]), first=st.booleans())
def test_json_with_any_key_twice_is_refused(key, value, first):
    part = b'"header":{' if key in ("format", "version", "game", "deal") else b'"summary":{'
    given = f'"{key}":{value}'.encode()
    if first:  # before the key it repeats
        data = JSON2.replace(part, part + given + b",", 1)
    elif part == b'"summary":{':  # after it, last in the summary
        end = JSON2.rindex(b"}}")
        data = JSON2[:end] + b"," + given + JSON2[end:]
    else:  # after it, before the header's last key
        data = JSON2.replace(b'"tool":', given + b',"tool":', 1)
    assert data != JSON2
    with pytest.raises(LogError, match="twice") as refused:
        check(data)
    assert refused.value.unreadable


# --- stderr that cannot be written -----------------------------------------------------------
def _full(*args, cwd: Path) -> int:
    with open("/dev/full", "w") as full:
        return subprocess.run([*CARPET, *map(str, args)], stdout=subprocess.DEVNULL, stderr=full, cwd=cwd,
                              timeout=60).returncode


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="no /dev/full on this system")
def test_exit_codes_hold_when_stderr_is_full(tmp_path):
    assert _full("verify", "missing", cwd=tmp_path) == 2
    assert _full("new", "kovrik", "5", "-o", tmp_path / "g.carpet", "-q", cwd=tmp_path) == 0
    assert (tmp_path / "g.carpet").exists()
    assert _full("play", tmp_path / "g.carpet", "8S>a5", "-q", cwd=tmp_path) == 1  # refused: 8S fits no gap
    assert _full("export", tmp_path / "g.carpet", "-o", tmp_path / "g.carpet.json", cwd=tmp_path) == 0
    assert (tmp_path / "g.carpet.json").exists()
    assert _full("solve", "kovrik", "5", "-o", tmp_path / "s.carpet", cwd=tmp_path) == 0
    check((tmp_path / "s.carpet").read_bytes())


# --- generators and positions ------------------------------------------------------------------
def _reference(seed: int, draws: int) -> int:
    twister = random.Random(seed)
    for _ in range(draws):
        twister.random()
    return int(twister.random() * 1000)


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**64 - 1), draws=st.integers(0, 3000), back=st.integers(0, 3000))
def test_a_twister_wound_in_bulk_draws_as_one_wound_a_draw_at_a_time(seed, draws, back):
    rng = TwisterRandom(seed, draws)
    assert rng._mt is None  # nothing wound until it draws
    assert rng.randint(0, 999) == _reference(seed, draws)
    rng.setstate(back)  # back (or on) to any count: from where it was first made, or the seed
    assert rng.randint(0, 999) == _reference(seed, back)
    assert rng.getstate() == back + 1


def _kovrik_shuffle(deal="40000") -> str:
    from carpet.core import parse_deal

    return write(get_game("kovrik-shuffle").new_state(parse_deal(deal)))


def test_a_wound_generator_is_read_without_winding_and_its_undo_does_not_wind_again():
    text = _kovrik_shuffle().split(" g:")[0] + " g:mt.1.10000000 p:0"
    position = read(text)
    assert position.text == text
    state = position.state()
    assert state.rng._mt is None  # read, listed, hinted: never wound
    snap = state.snapshot()
    state.apply(state.legal_actions()[-1])  # the redeal: wound once, here
    base = state.rng._base
    assert base is not None and base[0] == 10**7
    state.restore(snap)
    state.apply(state.legal_actions()[-1])  # again: made from the state kept at 10^7, not the seed
    assert state.rng._base is base


def test_a_generator_past_its_bound_is_refused():
    text = _kovrik_shuffle().split(" g:")[0] + " g:mt.1.10000001 p:0"
    with pytest.raises(BadPosition, match="10\\^7"):
        read(text)


def test_a_score_the_prefixes_do_not_allow_is_refused():
    text = _kovrik_shuffle()
    assert " p:0" in text
    with pytest.raises(BadPosition, match="field p: 999999999 is more than"):
        read(text.replace(" p:0", " p:999999999"))


def test_a_persian_carpet_reserve_of_32_cards_is_refused():
    from carpet.core import parse_deal

    text = write(get_game("persian-carpet").new_state(parse_deal("1")))
    cells, rest = text.split(" res:")
    piles = rest.split("/")
    assert all(len(p) == 8 for p in piles)  # four cards each
    heap = "/".join(["".join(piles)] + ["-"] * 7)
    with pytest.raises(BadPosition, match="reserve 1: no play leaves 32 cards"):
        read(f"{cells} res:{heap}")


def test_a_game_already_won_is_refused_as_a_position(tmp_path):
    from carpet.formats import verify

    session = verify(read_log(FIXTURES / "carpet-won.log"))
    assert session.state.status == "won"
    with pytest.raises(BadPosition, match="already won"):
        read(write(session.state))
    result = run("moves", "--position", write(session.state))
    assert result.exit_code == 2 and "already won" in result.stderr


@pytest.mark.parametrize("extra", [b'"x":[1,"a\\"]b"]', b'"x":{"a":1,"b":null}', b'"x":{}', b'"x":"{[[[["'])
def test_unknown_fields_within_three_levels_are_read(extra):
    """A field this reader does not know, within the format's depth, is ignored, as before."""
    for part in (b'"header":{', b'"summary":{'):
        log, _ = check(JSON2.replace(part, part + extra + b",", 1))
        assert log.summary.status == "won"


def test_a_text_game_written_by_hand_from_a_position_is_sealed():
    """No Digest tag, numbering "position": read and sealed (it was an error of another kind than a
    log's, out of formats.check)."""
    data = (FIXTURES / "carpet-foster-from-position.carpet.txt").read_bytes()
    hand = b"\n".join(line for line in data.split(b"\n") if not line.startswith(b"[Digest"))
    log, _ = check(hand)
    assert not log.sealed and log.header.numbering == "position" and log.summary.status == "won"
    with pytest.raises(LogError, match="layout digest 00000000 does not match its starting position"):
        check(hand.replace(b'[Layout "7aac29bf"]', b'[Layout "00000000"]'))


def test_a_survey_results_line_nested_deep_is_refused(tmp_path):
    from carpet.formats.survey import ResultsError, read_results

    path = tmp_path / "r.jsonl"
    path.write_bytes(b'{"deal":1,"x":' + _deep(5000) + b"}\n")
    with pytest.raises(ResultsError, match="nested too deep"):
        list(read_results(path))


def test_the_pytest_plugin_fails_each_hostile_game_as_a_test(pytester):
    """One failed item a hostile file, never an internal error or a collection error."""
    folder = pytester.path / "games"
    folder.mkdir()
    names = []
    for i, name in enumerate(sorted(HOSTILE)):
        file_name = f"{i}-{HOSTILE[name][0]}"
        (folder / file_name).write_bytes(HOSTILE[name][1])
        names.append(file_name)
    (folder / "good.carpet").write_bytes(V1)
    pytester.makeini("[pytest]\ncarpet_games = games\n")
    result = pytester.runpytest("-q", "-p", "no:cacheprovider")
    assert result.ret == pytest.ExitCode.TESTS_FAILED, result.stdout.str()
    result.assert_outcomes(passed=1, failed=len(names))
    assert "INTERNALERROR" not in result.stdout.str()


@pytest.mark.parametrize("as_json", [False, True])
def test_a_log_recorded_from_a_won_position_still_reads_and_verifies(as_json):
    """Typed positions refuse a game already won, but a log whose header starts from one (carpet
    wrote such files before it refused them) is still read and verified: every file ever written."""
    from carpet.core import Session
    from carpet.core.position import Start
    from carpet.formats import new_header, record, verify

    won = verify(read_log(FIXTURES / "carpet-won.log"))
    session = Session(won.variant, Start(write(won.state)))
    data = encode(record(session, new_header(session, created="2026-01-01T00:00:00.000Z", tool="carpet test")),
                  as_json=as_json)
    log, replayed = check(data)
    assert log.header.numbering == "position" and replayed.status == "won" and not log.events
