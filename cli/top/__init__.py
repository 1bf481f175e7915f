"""carpet: the engine (``carpet.core``), the log format (``carpet.formats``) and the command (``carpet.cli``).

Nothing is imported here: ``import carpet.core`` loads the engine alone, and the
pytest plugin (``carpet.cli.pytest_plugin``) costs a pytest run nothing until used.
"""
