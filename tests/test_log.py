"""The log format: compact, versioned, lossless, and every edit or corruption is found."""

import os

import msgspec
import pytest

from carpet.core import GAMES, RESTART, Session, get_game, parse_deal
from carpet.formats import LogError, decode, encode, new_header, record, verify
from carpet.formats.files import locked, read_log, write_atomic, write_log
from carpet.formats.log_v1_json import pack_events, unpack_events
from carpet.formats.log_verify import reseal

from playthrough import random_session

CREATED = "2026-11-29T12:00:00.000Z"


VERSIONS = (1, 2)


def sample(game="kovrik", seed=3, steps=60, version=2):
    session = random_session(GAMES[game], seed, steps, check=False)
    return record(session, new_header(session, created=CREATED, tool="test", version=version))


def rejects(data: bytes) -> bool:
    try:
        verify(decode(data))
    except LogError:
        return True
    return False


@pytest.mark.parametrize("version", VERSIONS)
def test_every_single_flipped_byte_is_detected(version):
    data = encode(sample(steps=25, version=version))
    for i in range(len(data)):
        for mask in (0x01, 0x80, 0xFF):
            bad = bytearray(data)
            bad[i] ^= mask
            assert rejects(bytes(bad)), f"flip {mask:#x} at byte {i} went unnoticed"


@pytest.mark.parametrize("version", VERSIONS)
def test_every_truncation_is_detected(version):
    for as_json in (False, True):
        data = encode(sample(steps=25, version=version), as_json=as_json)
        for n in range(len(data) - 1):  # JSON may lose its final newline harmlessly
            cut = data[:n]
            if as_json and cut.rstrip() == data.rstrip():
                continue
            assert rejects(cut), f"truncated to {n} bytes went unnoticed"


@pytest.mark.parametrize("version", VERSIONS)
@pytest.mark.parametrize("as_json", (False, True))
def test_a_raised_score_fails_with_a_clear_reason(version, as_json):
    log = sample(version=version)
    forged = msgspec.structs.replace(log, summary=msgspec.structs.replace(log.summary, score=log.summary.score + 15))
    # resealed (a digest computed afresh): the replay finds the score wrong
    with pytest.raises(LogError, match="score") as info:
        verify(decode(encode(reseal(forged), as_json=as_json)))
    assert not info.value.unreadable
    # as edited: version 1 checks the summary by replay, version 2's digest covers it too
    with pytest.raises(LogError, match="score" if version == 1 else "digest"):
        verify(decode(encode(forged, as_json=as_json)))


@pytest.mark.parametrize("version", VERSIONS)
def test_an_edited_clock_reading_breaks_the_digest(version):
    log = sample(version=version)
    events = list(log.events)
    action, clock = events[-1]
    events[-1] = (action, clock + 1)
    forged = msgspec.structs.replace(log, events=events,
                                     summary=msgspec.structs.replace(log.summary, elapsed_ms=log.summary.elapsed_ms + 1))
    for as_json in (False, True):
        with pytest.raises(LogError, match="digest"):
            verify(decode(encode(forged, as_json=as_json)))


@pytest.mark.parametrize("version", VERSIONS)
@pytest.mark.parametrize("as_json", (False, True))
def test_an_illegal_event_is_named(version, as_json):
    session = Session(get_game("kovrik"), parse_deal("1"))
    log = record(session, new_header(session, created=CREATED, tool="t", version=version))
    bad = reseal(msgspec.structs.replace(log, events=[(3 + 1 + 0 * 56 + 5, 10)]))  # A♣ to a5, which holds the 5♦
    with pytest.raises(LogError, match=r"event 1 \(AC>a5\): illegal: a5 is not empty") as info:
        verify(decode(encode(bad, as_json=as_json)))
    assert not info.value.unreadable


@pytest.mark.parametrize("version", VERSIONS)
def test_newer_version_and_unknown_game_are_unsupported(version):
    log = sample(version=version)
    if version == 2:
        newer = msgspec.structs.replace(log, header=msgspec.structs.replace(log.header, version=3))
        files = [encode(newer), encode(newer, as_json=True)]
    else:  # as version 1 lays them out, with 3 in the version field
        binary = encode(log)
        assert binary[13] == 1
        files = [binary[:13] + b"\x03" + binary[14:],
                 encode(log, as_json=True).replace(b'"version":1', b'"version":3')]
    for data in files:
        with pytest.raises(LogError, match="unsupported log version 3") as info:
            decode(data)
        assert info.value.unreadable
        assert "\n" not in str(info.value)
    data = encode(log, as_json=True).replace(b'"game":"kovrik"', b'"game":"klondike"')
    with pytest.raises(LogError, match="unknown game 'klondike'"):
        decode(data)
    if version == 2:  # the binary form names kovrik by its code (1): an unknown code is refused
        from carpet.formats import log_v2

        data = bytearray(encode(log))
        assert data[4] == 1
        data[4] = 99
        with pytest.raises(LogError, match="digest mismatch") as info:  # the digest is checked first
            decode(bytes(data))
        assert not info.value.unreadable
        start, end = log_v2._unext(bytes(data))
        payload = bytes(data[start:end - 8])
        with pytest.raises(LogError, match="unknown game"):  # sealed again: the field itself is refused
            decode(log_v2._ext(payload + log_v2._digest_v2(payload)))


@pytest.mark.parametrize("data", [b"", b"   ", b"\x00\x01", b"{}", b"[]", b"{\"header\": 5}", b"\x93\x01\x02\x03",
                                  b"not a log at all"])
def test_garbage_is_unreadable(data):
    with pytest.raises(LogError) as info:
        verify(decode(data))
    assert info.value.unreadable


def test_packing_is_lossless_across_restarts():
    events = [(5, 100), (0, 250), (RESTART, 900), (7, 0), (1, 40), (RESTART, 60), (9, 70)]
    assert unpack_events(pack_events(events, 1000), 1000) == events


@pytest.mark.parametrize("game", ["indian-carpet", "kovrik"])
def test_a_version_1_log_read_keeps_what_its_digest_hashes_until_an_event_changes(game):
    # the reader keeps the packed events as read (PackedEvents.packed): exactly what packing the
    # events again gives, across restarts; an edited event drops it, and the edit is found
    log = sample(game, seed=5, steps=300, version=1)
    assert RESTART in log.events.actions
    data = encode(log)
    read = decode(data)
    kept = read.events.packed
    assert kept == msgspec.msgpack.encode(pack_events(list(read.events), GAMES[game].action_count))
    assert verify(read).status == verify(decode(data)).status
    action, clock = read.events[3]
    read.events[3] = (action, clock + 1)
    assert read.events.packed is None
    with pytest.raises(LogError, match="digest mismatch"):
        verify(read)
    again = decode(data)
    again.events.append(again.events[-1])
    assert again.events.packed is None
    with pytest.raises(LogError):
        verify(again)


def test_a_move_costs_about_five_bytes_in_version_1():
    # A move every 0.1 s .. 4 s, like a person or a script pacing itself.
    long = sample("kovrik", seed=4, steps=2000, version=1)
    empty = record(Session(get_game("kovrik"), parse_deal(long.header.deal)), long.header)
    per_event = (len(encode(long)) - len(encode(empty))) / len(long.events)
    assert per_event <= 5.5
    assert len(encode(long)) / len(long.events) <= 8


def test_json_form_is_one_event_per_line_with_named_parts():
    text = encode(sample(steps=10), as_json=True).decode()
    doc = msgspec.json.decode(text)
    assert set(doc) == {"header", "events", "summary"}
    assert {"format", "version", "game", "deal"} <= set(doc["header"])
    assert {"status", "score", "moves"} <= set(doc["summary"])
    assert sum(1 for line in text.splitlines() if line.startswith('["')) == len(doc["events"])


def test_atomic_write_keeps_the_old_file_when_writing_fails(tmp_path, monkeypatch):
    path = tmp_path / "g.log"
    write_log(path, sample())
    before = path.read_bytes()

    def full_disk(fd, data):
        raise OSError(28, "No space left on device")
    monkeypatch.setattr(os, "write", full_disk)
    with pytest.raises(LogError, match="No space left"):
        write_log(path, sample(seed=9))
    monkeypatch.undo()
    assert path.read_bytes() == before
    assert [p.name for p in tmp_path.iterdir()] == ["g.log"]  # no temporary left behind


def test_no_overwrite_unless_asked(tmp_path):
    path = tmp_path / "g.log"
    write_atomic(path, b"first", overwrite=False)
    with pytest.raises(LogError, match="exists"):
        write_atomic(path, b"second", overwrite=False)
    assert path.read_bytes() == b"first"


def test_reading_errors_are_one_line(tmp_path):
    with pytest.raises(LogError, match="no such file"):
        read_log(tmp_path / "missing.log")
    with pytest.raises(LogError, match="directory"):
        read_log(tmp_path)
    with pytest.raises(LogError, match="no such file"):
        with locked(tmp_path / "missing.log"):
            pass


# --- never a traceback: whatever the bytes, the only failure is a LogError ----------------------
from hypothesis import given, settings
from hypothesis import strategies as st

_VALID = {(v, j): encode(sample(steps=30, version=v), as_json=j) for v in VERSIONS for j in (False, True)}


def _only_log_errors(data: bytes) -> None:
    try:
        verify(decode(data))
    except LogError:
        pass


@settings(max_examples=300, deadline=None)
@given(st.binary(max_size=400))
def test_arbitrary_bytes_fail_only_with_log_error(data):
    _only_log_errors(data)


@settings(max_examples=300, deadline=None)
@given(version=st.sampled_from(VERSIONS), as_json=st.booleans(),
       edits=st.lists(st.tuples(st.integers(0, 10**6), st.integers(0, 255)), min_size=1, max_size=4))
def test_edited_logs_fail_only_with_log_error(version, as_json, edits):
    data = bytearray(_VALID[version, as_json])
    for where, value in edits:
        data[where % len(data)] = value
    _only_log_errors(bytes(data))


@pytest.mark.parametrize("version", VERSIONS)
def test_huge_numbers_in_a_json_log_are_refused_cleanly(version):
    text = _VALID[version, True].decode()
    doc = msgspec.json.decode(text)
    doc["events"][0][1] = 10**30
    with pytest.raises(LogError):
        decode(msgspec.json.encode(doc))
    doc = msgspec.json.decode(text)
    doc["header"]["version"] = 10**30
    with pytest.raises(LogError):
        decode(msgspec.json.encode(doc))


# --- the reader's fast paths, pinned to what they stand for ----------------------------------
def test_the_deal_of_a_binary_header_is_parse_deals():
    """A binary header stores its deal as number << 1 | microsoft; the reader makes the Deal
    itself where the text is canonical, and leaves every other text to parse_deal's refusal."""
    from carpet.core.errors import BadDealNumber
    from carpet.core.numbering import MS_LIMIT, MT_LIMIT
    from carpet.formats.log_v2 import _deal_of

    numbers = [0, 1, 2, 127, 128, 31999, 32000, 32001, 123456789012, MS_LIMIT - 1, MS_LIMIT, MS_LIMIT + 1,
               MT_LIMIT - 1, MT_LIMIT, 10**40]
    for number in numbers:
        for microsoft in (0, 1):
            text = f"ms{number}" if microsoft else str(number)
            try:
                plain = parse_deal(text)
                if plain.text != text:
                    plain = None  # not canonical: the reader refuses it
            except BadDealNumber:
                plain = None
            assert _deal_of(number << 1 | microsoft) == plain, text


def test_the_creation_time_text_is_the_formatted_one():
    import random
    import time

    from carpet.formats.log_types import created_text
    rng = random.Random(5)
    values = [0, 1, 999, 1000, 86_399_999, 86_400_000, 2**47, 253402300799999, 253402300800000] + \
        [rng.randrange(0, 2**47 + 1) for _ in range(3000)]
    values += [ms + rng.randrange(-86_400_000, 86_400_000) for ms in values[:200]]  # days met again
    for ms in values + values[::-1]:  # each date worked out, then remembered
        if ms < 0:
            continue
        t = time.gmtime(ms // 1000)
        assert created_text(ms) == "%04d-%02d-%02dT%02d:%02d:%02d.%03dZ" % (*t[:6], ms % 1000), ms


def test_the_half_byte_layout_unpacks_as_the_general_way_does(monkeypatch):
    """Codes and delta highs in half-bytes (the commonest layout) are split straight into place:
    the same codes, deltas, escapes, position after them and refusals as the general way, over
    random planes, truncated ones, nonzero spare half-bytes and escapes of both kinds."""
    import random

    from carpet.formats import log_v2 as log
    from carpet.formats.playlog import PackedDeltas, unpacked

    def unpack(data, n):
        r = log._Reader(data, 2, len(data))
        try:
            codes, deltas, meta = log.unpack_planes(r, n)
        except LogError as exc:
            return "refused", str(exc)
        if isinstance(deltas, PackedDeltas):  # the deltas left packed: their sum as the unpacked ones'
            assert deltas.total() == sum(deltas.unpacked())
        deltas = unpacked(deltas)
        return type(codes), list(codes), deltas.typecode, list(deltas), bytes(meta), r.pos

    rng = random.Random(7)
    accepted = 0
    for _ in range(3000):
        n = rng.choice([0, 1, 2, 3, 5, 8, 13, 60, 61, 130, 131])
        size = max(0, 1 + 2 * ((n + 1) // 2) + n + rng.choice([0, 0, 0, 1, 3, 8, -1, -2]))
        body = bytearray(rng.getrandbits(8) for _ in range(size))
        if body:
            body[0] = 5 if rng.random() < 0.9 else rng.randrange(12)  # 5: the half-byte layout
        for k in range(1, len(body)):
            if rng.random() < 0.7:
                body[k] &= rng.choice([0x77, 0x3F, 0xEE, 0xFF])
        data = b"xx" + bytes(body) + bytes(rng.getrandbits(8) & rng.choice([0x7F, 0xFF])
                                          for _ in range(rng.randrange(12)))
        fast = unpack(data, n)
        with monkeypatch.context() as m:
            m.setattr(log, "_HALF_BYTES", -1)  # no layout is -1: the general way throughout
            general = unpack(data, n)
        assert fast == general, (n, data.hex())
        accepted += fast[0] != "refused"
    assert accepted > 500


def _common_shape_log(game: str, seed: int, steps: int) -> bytes:
    """A version-2 binary log as `carpet play` writes it (tool carpet M.m.p)."""
    session = random_session(GAMES[game], seed, steps, check=False)
    return encode(record(session, new_header(session, created=CREATED, tool="carpet 0.1.0")))


def _read(data: bytes):
    """The one reading of a version-2 binary log's bytes, as comparable values, or ("refused", why)."""
    from carpet.formats.log_v2 import decode_v2_binary

    try:
        header, summary, variant, codes, deltas, meta, deal = decode_v2_binary(data)
    except LogError as exc:
        return "refused", str(exc)
    return header, summary, variant.id, list(codes), deltas.typecode, list(deltas), bytes(meta), deal


@pytest.mark.parametrize("game", sorted(GAMES))
def test_the_common_shape_reads_back_what_was_written(game):
    """Logs of the common shape (the logs `play` writes, ext 8 and ext 16: 256 bytes and more) read
    back, in the one pass over the header, the header, summary, game, codes and deal written."""
    from carpet.formats.log_verify import codes_and_deltas

    for seed in range(6):
        session = random_session(GAMES[game], seed, 10 + 40 * seed, check=False)
        made = record(session, new_header(session, created=CREATED, tool="carpet 0.1.0"))
        header, summary, game_id, codes, _, _, _, deal = _read(encode(made))
        assert (header, summary, game_id) == (made.header, made.summary, game)
        assert codes == list(codes_and_deltas(made, GAMES[game])[0])
        assert deal == parse_deal(made.header.deal)


@pytest.mark.parametrize("steps", (30, 150))
def test_every_edit_of_a_common_shape_log_is_refused(steps):
    """Every flipped bit pattern at every byte and every truncation of a common-shape log (an ext 8
    and an ext 16): check() refuses every one with LogError, and the header reading, where it
    refuses, refuses as check() does."""
    from carpet.formats import check

    data = _common_shape_log("carpet", 4, steps)
    assert (len(data) < 256) == (steps == 30)  # an ext 8, an ext 16
    bad = []
    for i in range(len(data)):
        for mask in (0x01, 0x02, 0x10, 0x80, 0xFF):
            edited = bytearray(data)
            edited[i] ^= mask
            bad.append(bytes(edited))
    bad += [data[:n] for n in range(1, len(data))]
    for edited in bad:
        read = _read(edited)
        with pytest.raises(LogError) as refused:
            check(edited)
        if read[0] == "refused" and edited[:1] == data[:1]:  # (another first byte: another form's reader)
            assert str(refused.value) == read[1], edited.hex()


@settings(max_examples=400, deadline=None)
@given(game=st.sampled_from(sorted(GAMES)), seed=st.integers(0, 50),
       edits=st.lists(st.tuples(st.integers(0, 10**6), st.integers(0, 255)), max_size=3))
def test_edited_common_shape_logs_are_refused_unless_unchanged(game, seed, edits):
    from carpet.formats import check

    original = _common_shape_log(game, seed, 12)
    data = bytearray(original)
    for where, value in edits:
        data[where % len(data)] = value
    if bytes(data) == original:
        assert check(original)[0].header == _read(original)[0]
    else:
        with pytest.raises(LogError):
            check(bytes(data))


def test_the_shapes_past_the_one_byte_fields_read_too():
    """A creation time past 2^47 ms (refused), a skipped clock and a tool of another form (read by
    the varint forms of their fields): the one reading says each as it is."""
    from carpet.formats.log_types import created_text

    session = random_session(GAMES["carpet"], 1, 20, check=False)
    late = encode(record(session, new_header(session, created=created_text(2**47 + 1), tool="carpet 0.1.0")))
    assert _read(late) == ("refused", "corrupt log (creation time)")
    header = new_header(session, created=CREATED, tool="carpet 0.1.0")
    for made in (record(session, header, clock_jumps=2, clock_skipped_ms=700),
                 record(session, new_header(session, created=CREATED, tool="carpet 0.1.200")),
                 record(session, new_header(session, created=CREATED, tool="another tool"))):
        read = _read(encode(made))
        assert read[:2] == (made.header, made.summary)


def _with_last_code_escaped(game: str, value: int, monkeypatch, summary_of=None) -> bytes:
    """A log of a few moves (and an undo at the end in carpet) whose last code is written as an
    escape, its field all ones and ``value`` in the overflow, sealed with a good digest: what a
    writer never makes.  ``summary_of(log)``: the summary to seal instead of the log's own."""
    from carpet.core.game import UNDO
    from carpet.formats import log_v2 as log
    from carpet.formats.log_verify import codes_and_deltas

    variant = GAMES[game]
    session = Session(variant, parse_deal("5"))
    for k in range(5):
        session.act(session.legal_actions()[0], 500 * (k + 1))
    if game == "carpet":
        session.act(UNDO, 3000)
    made = record(session, new_header(session, created=CREATED, tool="carpet 0.1.0"))
    codes, deltas = codes_and_deltas(made, variant)
    real = log.pack_planes

    def escaping(codes, deltas):
        last = len(codes) - 1
        out = bytearray(real([min(c, 14) if i == last else c for i, c in enumerate(codes)], deltas))
        assert not any(c >= 15 for c in codes[:last]) or out[0] & 3 == 0  # nothing else escapes
        if out[0] & 3:  # codes in half-bytes
            out[1 + last // 2] |= 15 << 4 if last % 2 else 15
        else:
            out[1 + last] = 255
        log._put(out, value)
        return bytes(out)

    monkeypatch.setattr(log, "pack_planes", escaping)
    payload = log._payload_v2(made.header, codes, deltas, summary_of(made) if summary_of else made.summary)
    monkeypatch.undo()
    return log._ext(payload + log._digest_v2(payload))


def test_an_escaped_code_below_its_field_is_refused(monkeypatch):
    """An undo written as an escaped code (15, then 1) was read as a restart, and verified where
    the summary claimed a restart's result: such a code is now refused as corrupt."""
    from carpet.formats import check

    def restarted(made):
        fresh = Session(GAMES["carpet"], parse_deal("5"))
        return msgspec.structs.replace(made.summary, score=0, moves=0, position=fresh.state.digest()[:8])

    for summary_of in (None, restarted):
        data = _with_last_code_escaped("carpet", 1, monkeypatch, summary_of)
        with pytest.raises(LogError, match=r"corrupt log \(event 6: an escaped code, 1, below 15\)") as refused:
            check(data)
        assert refused.value.unreadable


@pytest.mark.parametrize("game", ("carpet", "kovrik", "persian-carpet"))
@pytest.mark.parametrize("value", (70_000, 2**40, 2**64 - 1, 2**64 + 5))
def test_an_escaped_code_past_every_action_is_an_illegal_event(game, value, monkeypatch):
    """Codes of any size a varint holds (64 bits) name no action past the last: refused at their
    event as illegal, in the words of any code that names no action (a code of 2^32 and more made
    an internal error); a varint beyond 64 bits is refused as corrupt, exit 2."""
    from carpet.formats import check

    data = _with_last_code_escaped(game, value, monkeypatch)
    if value >= 2**64:
        with pytest.raises(LogError, match=r"^corrupt log \(event code: number beyond 64 bits\)$") as refused:
            check(data)
        assert refused.value.unreadable
        return
    with pytest.raises(LogError, match=rf"^event \d+: illegal: no such {game} action here \(code {value}\)$") \
            as refused:
        check(data)
    assert not refused.value.unreadable


_RESEALABLE = [_common_shape_log(game, seed, steps) for game in ("carpet", "kovrik", "persian-carpet", "montana")
               for seed, steps in ((1, 40), (2, 150))]


@settings(max_examples=500, deadline=None)
@given(source=st.sampled_from(range(len(_RESEALABLE))),
       edits=st.lists(st.tuples(st.integers(0, 10**6), st.integers(0, 255), st.sampled_from("sid")),
                      min_size=1, max_size=3))
def test_resealed_edits_are_refused_or_read_coherently(source, edits):
    """An edit sealed again (a good digest and length) reaches everything after the digest check.
    The reader refuses it with LogError, or reads it coherently: the events as action indexes,
    re-played by the path that reads indexes, reach the summary it was read with
    (tests/stress/resealed.py: what is checked, and the long run)."""
    from carpet.formats.log_v2 import _unext
    from stress import resealed

    data = _RESEALABLE[source]
    start, end = _unext(data)
    payload = bytearray(data[start:end - 8])
    for where, value, kind in edits:
        where %= len(payload) + 1
        if kind == "s" and where < len(payload):
            payload[where] = value
        elif kind == "i":
            payload.insert(where, value)
        elif where < len(payload):
            del payload[where]
    assert resealed.one(resealed.sealed(bytes(payload))) in ("refused", "read")


def test_every_form_of_an_edited_game_gets_the_same_verdict():
    """Random games, edited (an action replaced, inserted or dropped, a clock moved), sealed and
    written in the four forms: each is read to the same summary and events in every form, or refused in
    every form at the same event (tests/stress/forms_agree.py: how, and the long run)."""
    from stress import forms_agree

    counts = forms_agree.run(400, seed=11)
    assert counts["read"] > 40 and counts["refused"] > 100 and counts["skipped"] > 10, counts


def test_a_checked_log_keeps_its_replay_without_a_reference_cycle():
    """check() keeps its replay on the events weakly: the caller holds the session, and
    log and session are freed by their reference counts (a cycle waits for the collector)."""
    import gc
    import weakref

    from carpet.formats import check, replay

    data = encode(sample("carpet", steps=80))
    log, checked = check(data)
    assert verify(log) is checked and replay(log) is checked  # the replay kept is used while held
    gc.disable()
    try:
        gone = weakref.ref(checked)
        del checked
        assert gone() is None  # freed at once: nothing held it in a cycle
        again = verify(log)  # replayed anew, and the same result
        assert (again.status, again.score, again.moves) == (log.summary.status, log.summary.score,
                                                             log.summary.moves)
        log2 = decode(data)
        held = weakref.ref(verify(log2))
        assert held() is not None and replay(log2) is held()  # decode() has no caller to hold it: its log does
        assert log2.events == held().events and log2.events is not held().events
        held().events.append((3, 10**9))  # played on: the log's events are its own
        assert len(log2.events) == len(held().events) - 1
        del log2
        assert held() is None  # and no cycle either
    finally:
        gc.enable()


@pytest.mark.parametrize("game", ["kovrik", "carpet-foster", "persian-carpet"])
def test_a_read_session_plays_on_as_the_recorded_one(game):
    """A session read from a log (its restart snapshot dealt again only when asked for, its clock
    readings left in the planes till read) plays on as the session that was recorded: the same
    readings, and a restart and more moves give the same position, counters and clock."""
    from carpet.formats import check

    for seed in range(4):
        played = random_session(GAMES[game], seed, 70, check=False)
        data = encode(record(played, new_header(played, created=CREATED, tool="test")))
        _, read = check(data)
        assert list(read.events) == list(played.events)
        assert (read.clock_ms, read.earlier_attempts_ms) == (played.clock_ms, played.earlier_attempts_ms)
        clock = max(played.clock_ms, 1) + 1000
        for session in (read, played):
            session.act(RESTART, clock)
            for k in range(5):
                legal = session.legal_actions()
                if legal:
                    session.act(legal[(seed + k) % len(legal)], 100 * (k + 1))
        assert read.state.digest() == played.state.digest()
        assert (read.moves, read.score, read.clock_ms, read.earlier_attempts_ms, list(read.events)) == \
            (played.moves, played.score, played.clock_ms, played.earlier_attempts_ms, list(played.events))


def test_a_log_made_in_code_with_a_clock_out_of_order_is_refused_by_the_writer_in_one_line():
    """Version 2 stores clock deltas and cannot hold a reading before the one before it: the
    writer says so (LogError, naming the event), never a ValueError; every form refuses it."""
    from carpet.core.session import Events
    from carpet.formats import check, to_bytes

    log = sample("carpet", steps=30)
    clocks = log.events.clocks[:]
    at = next(i for i in range(1, len(clocks)) if clocks[i] > clocks[i - 1] and log.events.actions[i - 1] != RESTART)
    clocks[at] = clocks[at - 1] - 1
    bad = msgspec.structs.replace(log, events=Events(actions=log.events.actions[:], clocks=clocks))
    with pytest.raises(LogError, match=rf"^event {at + 1}: clock reading .* before the previous one"):
        encode(bad)
    with pytest.raises(LogError, match=rf"^event {at + 1}: "):
        reseal(bad)
    for form in ("binary", "json", "text"):
        with pytest.raises(LogError, match="refusing to write a log that would not read back"):
            to_bytes(bad, form=form)
    with pytest.raises(LogError) as refused:
        check(encode(bad, as_json=True))  # the JSON form holds it; reading it refuses it at that event
    assert refused.value.event == at + 1


_WRITABLE = {v: sample("carpet", steps=25, version=v) for v in VERSIONS}
_ODD_INTS = st.sampled_from([-1, 0, 1, 3, 52, 10**6, 2**31, 2**32 - 1, 2**40, 2**40 + 1, 2**62, 2**63, 2**64, 2**70])
_ODD_TEXTS = st.sampled_from(["", "x", "nope", "kovrik", "carpet", "ms0", "ms5", "5", "-1", "abc", str(2**70),
                              "ms99999999999", "00000000", "zz", "0" * 16, "won", "lost", "playing",
                              "2026-13-01T00:00:00.000Z", "9999-12-31T23:59:59.999Z", "carpet 1.2", "é" * 3])
_HEADER_FIELDS = ("format", "version", "game", "rules", "numbering", "deal", "layout", "created", "tool")
_SUMMARY_FIELDS = ("status", "score", "moves", "redeals_left", "elapsed_ms", "position", "clock_jumps",
                   "clock_skipped_ms")


@settings(max_examples=250, deadline=None)
@given(version=st.sampled_from(VERSIONS), form=st.sampled_from(["binary", "json", "text"]),
       edits=st.lists(st.tuples(st.sampled_from(_HEADER_FIELDS + _SUMMARY_FIELDS + ("action", "clock")),
                                st.one_of(_ODD_INTS, _ODD_TEXTS), st.integers(0, 10**6)), min_size=1, max_size=3))
def test_the_writer_refuses_a_log_made_in_code_only_with_log_error(version, form, edits):
    """to_bytes, given any Log made in code (fields of the wrong type or out of range, unknown
    games and deals, actions and clocks out of range), writes what reads back the same or says
    why not with LogError: never another exception."""
    from carpet.core.session import Events
    from carpet.formats import check, to_bytes

    log = _WRITABLE[version]
    header, summary = log.header, log.summary
    actions, clocks = log.events.actions[:], log.events.clocks[:]
    for name, value, where in edits:
        if name in _HEADER_FIELDS:
            header = msgspec.structs.replace(header, **{name: value})
        elif name in _SUMMARY_FIELDS:
            summary = msgspec.structs.replace(summary, **{name: value})
        elif isinstance(value, int) and 0 <= value < 2**32 and actions:
            (actions if name == "action" else clocks)[where % len(actions)] = min(value, 2**62)
    made = msgspec.structs.replace(log, header=header, summary=summary,
                                   events=Events(actions=actions, clocks=clocks))
    try:
        data = to_bytes(made, form=form)
    except LogError:
        return
    back, _ = check(data)
    assert back.header == made.header and back.summary == made.summary


@settings(max_examples=300, deadline=None)
@given(st.lists(st.integers(0, 2**40), max_size=40), st.sampled_from([15, 255, 4095, 65535, 100, 2**14]))
def test_the_escapes_of_a_layout_cost_what_their_varints_take(values, limit):
    """pack_planes weighs each layout by its escapes, counted in one sorted copy: as many bytes as the
    varints of the values at or above the limit take (one a 7 bits)."""
    from carpet.formats.log_v2 import _escape_costs, _put

    def varints(vs):
        out = bytearray()
        for v in vs:
            _put(out, v)
        return len(out)

    peak, costs = _escape_costs(values, [limit])
    assert peak == max(values, default=0)
    assert costs[limit] == varints(v for v in values if v >= limit)
