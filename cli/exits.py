"""The exit codes of every ``carpet`` command: the one table (README.md, "Exit codes").

Plain integers, and nothing imported: the entry point (cli/start.py) takes its code for Ctrl-C
from here before anything heavy is loaded.  Every error also says itself in one line on stderr.
"""

OK = 0  #: done as asked (a solver's "unknown" and "unwinnable" are answers too)
FAILED = 1  #: an illegal action, or a log that fails verification
UNUSABLE = 2  #: bad usage, or a file that cannot be read or written as asked
BUG = 3  #: anything else: a bug in carpet (the line asks for a report)
INTERRUPTED = 130  #: Ctrl-C (the line says what was recorded)
