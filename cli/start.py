"""The ``carpet`` command's entry point, light on purpose: Ctrl-C is one line and exit 130 from the first
instant of a run, the imports of start-up included (Typer and Rich take a quarter of a second to load;
an interrupt there used to be a Python traceback and a death by SIGINT).

The console script, ``python -m carpet`` and ``python -m carpet.cli`` all start here; the command itself
is :mod:`carpet.cli.app`, which says what an interrupt found recorded once it runs.
"""

import sys

from .exits import INTERRUPTED


def main() -> None:
    try:
        from .app import main as run

        run()
    except KeyboardInterrupt:  # before the command's own handling began (or after it ended)
        from .outcome import current, one_line

        if sys.stderr is not None:
            try:
                print(one_line(f"carpet: interrupted; {current.recorded}"), file=sys.stderr)
            except (OSError, ValueError):
                pass
        sys.exit(INTERRUPTED)
