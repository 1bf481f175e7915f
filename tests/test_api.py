"""The Python API of ``import carpet`` (docs/api.md, whose examples run here) and ``carpet verify -``."""

import doctest
import os
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings, strategies as st

import carpet

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = ROOT / "fixtures"
WON = FIXTURES / "carpet-won.log"
CARPET = [sys.executable, "-m", "carpet.cli"]


def test_the_examples_of_docs_api_md_run(monkeypatch):
    monkeypatch.chdir(ROOT)
    result = doctest.testfile(str(ROOT / "docs" / "api.md"), module_relative=False, optionflags=doctest.ELLIPSIS)
    assert result.attempted >= 20 and result.failed == 0


def test_verify_on_every_kind_of_source(tmp_path):
    data = WON.read_bytes()
    by_path, by_str, by_bytes = carpet.verify(WON), carpet.verify(str(WON)), carpet.verify(data)
    assert by_path == by_str == by_bytes and by_path.ok and by_path.code == 0
    text = carpet.open(data).to_bytes("text").decode()
    assert carpet.verify(text).digest == by_path.digest  # a str holding the text form
    assert carpet.verify(bytearray(data)) == by_bytes
    for bad, code in ((b"", 2), (b"\x00" * 10, 2), (data[: len(data) // 2], 2), (tmp_path, 2),
                      (tmp_path / "missing.carpet", 2), (data[:-1] + bytes([data[-1] ^ 1]), 1)):
        verdict = carpet.verify(bad)
        assert (verdict.ok, verdict.code) == (False, code) and verdict.error and "\n" not in verdict.error
        assert verdict.digest is None


@settings(max_examples=150, deadline=None)
@given(st.binary(max_size=300) | st.text(max_size=200))
def test_verify_never_raises_for_bad_data(junk):
    verdict = carpet.verify(b"{" + junk if isinstance(junk, bytes) else "[" + junk)
    assert verdict.code in (1, 2) and not verdict.ok and verdict.error


def test_every_form_and_version_of_a_game_shares_its_digest():
    from carpet.cli.verify import _in_version
    from carpet.formats import check, to_bytes

    for path in sorted(FIXTURES.glob("*")):
        if not path.is_file() or not carpet.verify(path).ok:
            continue
        log, session = check(path.read_bytes())
        digests = {carpet.verify(path).digest}
        for version in (1, 2):
            if version == 1 and log.summary.clock_jumps:
                continue  # version 1 holds no clock jumps
            for form in ("binary", "json", "text"):
                digests.add(carpet.verify(to_bytes(_in_version(log, session, version), form=form)).digest)
        assert len(digests) == 1, path.name


def test_games_that_differ_have_different_digests():
    one, two = carpet.new("carpet", 1), carpet.new("carpet", 1)
    two.play("a2>F")
    assert carpet.verify(one.to_bytes()).digest != carpet.verify(two.to_bytes()).digest


def test_new_open_play_and_solve():
    game = carpet.new("crazy-quilt", "5")
    assert game.game == "crazy-quilt" and game.deal == "ms5" and game.status == "playing"
    first = game.legal_moves()[0]
    game.play(first + " undo " + first)
    assert game.moves >= 1
    again = carpet.open(game.to_bytes("json"))
    assert again.position() == game.position() and again.moves == game.moves
    with pytest.raises(carpet.CarpetError):
        game.play("nonsense")
    with pytest.raises(carpet.CarpetError):
        carpet.open(b"junk")
    with pytest.raises(carpet.CarpetError):
        carpet.new("no-such-game", 1)
    assert isinstance(game.play("hint"), (str, type(None)))
    answer = carpet.solve(carpet.new("carpet", 2).position(), nodes=50)
    assert answer.result in ("won", "unknown") and answer.nodes <= 50 + 100
    with pytest.raises(TypeError):
        carpet.solve(42)


def test_the_stable_names_and_py_typed():
    assert sorted(carpet.__all__) == sorted(["verify", "new", "open", "solve", "Verdict", "Game", "Solution",
                                             "CarpetError", "__version__"])
    for name in carpet.__all__:
        assert getattr(carpet, name) is not None
    with pytest.raises(AttributeError):
        carpet.check  # noqa: B018  (nothing internal leaks through)
    assert (ROOT / "cli" / "top" / "py.typed").is_file()
    assert '"carpet" = ["py.typed"]' in (ROOT / "pyproject.toml").read_text()


def test_import_carpet_loads_nothing_heavy():
    code = ("import sys, carpet; carpet.verify(b'x'); "
            "print(sorted(m for m in ('typer', 'rich', 'click', 'textual', 'starlette') if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert out.stdout.strip() == "[]", out.stderr


@pytest.mark.parametrize("name", ["carpet-won.log", "crazy-quilt-from-position.carpet.json",
                                  "montana-redeals.carpet.txt", "tampered", "junk", "empty"])
def test_verify_dash_exits_as_verify_file(name, tmp_path):
    path = FIXTURES / name
    if not path.exists():
        data = WON.read_bytes()
        path = tmp_path / name
        path.write_bytes({"tampered": data[:-1] + bytes([data[-1] ^ 1]), "junk": b"junk\n", "empty": b""}[name])
    by_file = subprocess.run([*CARPET, "verify", str(path)], capture_output=True, text=True, timeout=60)
    by_stdin = subprocess.run([*CARPET, "verify", "-"], stdin=path.open("rb"), capture_output=True, text=True,
                              timeout=60)
    assert by_stdin.returncode == by_file.returncode
    assert by_stdin.stdout.replace(" -:", "") == by_file.stdout.replace(f" {path}:", "").replace(f" {path.name}:", "")
    assert by_stdin.stderr.replace(" -:", "") == by_file.stderr.replace(f" {path}:", "")
    assert carpet.verify(path).code == by_file.returncode


def test_verify_dash_with_json(tmp_path):
    import json

    done = subprocess.run([*CARPET, "verify", "-", "--json"], stdin=WON.open("rb"), capture_output=True, text=True,
                          timeout=60, env={**os.environ, "COLUMNS": "200"})
    doc = json.loads(done.stdout)
    assert done.returncode == 0 and doc["results"][0]["file"] == "-" and doc["results"][0]["ok"]
