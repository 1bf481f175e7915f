"""The ``carpet`` command line: parse, call the engine and the log format, draw with rich."""
