"""``carpet serve`` under fuzzing, bounded for CI: 400 generated bodies to /verify and /games (cut,
flipped, spliced and deep-nested games, junk, bodies over 1 MB with and without Content-Length) and 100
odd paths, each a 2xx or a 4xx with one JSON line, never a 5xx (stress/fuzz_serve.py runs the long
version).  Derandomised: the same cases on every run."""

import pytest

from servetools import Server, need_serve_extra

need_serve_extra()

from stress import fuzz_serve  # noqa: E402


def test_fuzzed_requests_get_no_5xx(tmp_path):
    with Server(f"sqlite:///{tmp_path / 'fuzz.db'}", workers=1) as server:
        assert fuzz_serve.fuzz(server.port, 400) == 500
        errors = server.stop()
    assert "Traceback" not in errors, errors


@pytest.mark.parametrize("depth", [10_000, 300_000])
def test_deep_nesting_is_a_verdict_not_a_crash(depth):
    import carpet

    for body in (b"[" * depth, b'{"header":' * depth, b"\x91" * depth):
        verdict = carpet.verify(body)
        assert verdict.code == 2 and verdict.error
