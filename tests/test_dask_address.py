"""--dask (issue 21): a malformed address is one line and nothing after it (no Client.__del__ traceback
10 s later); --dask-timeout is honoured against a listener that accepts and never answers."""

import socket
import subprocess
import threading
import time

from clitools import CARPET
from test_survey import needs_distributed


def test_a_malformed_address_is_one_line_and_nothing_after():
    needs_distributed()
    started = time.monotonic()
    r = subprocess.run([*CARPET, "survey", "carpet", "--deals", "1-3", "--dask", "nonsense"], capture_output=True,
                       text=True, timeout=60)
    assert r.returncode == 2, r.stderr
    assert r.stderr.splitlines() == ["carpet survey: --dask nonsense: no Dask scheduler answers (missing port "
                                     "number in address 'nonsense')"]
    assert time.monotonic() - started < 8


def test_a_listener_that_never_answers_is_given_up_after_the_timeout():
    needs_distributed()
    held = []
    with socket.socket() as listener:
        listener.bind(("127.0.0.1", 0))
        listener.listen(8)
        port = listener.getsockname()[1]

        def accept():
            try:
                while True:
                    held.append(listener.accept()[0])  # accepted, and never a word
            except OSError:
                pass
        threading.Thread(target=accept, daemon=True).start()
        started = time.monotonic()
        r = subprocess.run([*CARPET, "survey", "carpet", "--deals", "1-3", "--dask", f"tcp://127.0.0.1:{port}",
                            "--dask-timeout", "1"], capture_output=True, text=True, timeout=120)
        took = time.monotonic() - started
    for conn in held:
        conn.close()
    assert r.returncode == 2 and r.stderr.count("\n") == 1 and "nothing came back within 1 s" in r.stderr, r.stderr
    assert took < 15  # start-up and a second, not distributed's own 30 s or more
