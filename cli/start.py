"""The ``carpet`` command's entry point, light on purpose: Ctrl-C is one line and exit 130 from the first
instant of a run, the imports of start-up included (Typer and Rich take a quarter of a second to load;
an interrupt there used to be a Python traceback and a death by SIGINT).

The console script, ``python -m carpet`` and ``python -m carpet.cli`` all start here; the command itself
is :mod:`carpet.cli.app`, which says what an interrupt found recorded once it runs.

Start-up runs without the cyclic garbage collector: loading Typer, click and a command makes tens of
thousands of objects and no garbage, yet each collection on the way walks them all again.  When the
command's own work begins (:func:`collect_from_here`, called by the root group), what start-up made is
frozen (``gc.freeze``: never walked again) and collection resumes, so a long run (a survey, the screen,
the server) collects its garbage as usual; at the end everything is frozen once more, so that the
interpreter's exit does not walk it all a last time.  Together about a seventh of ``carpet show FILE
--json``'s instructions (docs/measurements.md, "How fast does carpet start?").
"""

import gc
import sys

from .exits import INTERRUPTED

#: whether this process's start-up turned the collector off (only :func:`main` does: a program that runs
#: the app itself, a test's runner, keeps its collector as it had it)
_held = False


def collect_from_here() -> None:
    """Start-up is over: freeze what it made and turn the collector back on (nothing unless :func:`main`
    turned it off)."""
    global _held
    if _held:
        _held = False
        gc.freeze()
        gc.enable()


def main() -> None:
    global _held
    if gc.isenabled():
        _held = True
        gc.disable()
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
    finally:
        gc.freeze()  # (the process ends here: the objects left are freed without one more walk over them)
