"""Sessions as bytes and back: the versioned game log, its one replay, and the documents the CLI prints.

Each name of the package is loaded from its module when first asked for (PEP 562): ``carpet deal
--json`` loads the documents and not the log's readers, ``carpet.formats.log_types`` the types alone.
"""

import sys
from importlib.machinery import PathFinder
from importlib.util import find_spec, module_from_spec
from types import ModuleType

from carpet.core import lazy_names


class _Deferred(ModuleType):
    """A module in sys.modules whose code runs when one of its attributes is first read."""

    def __getattr__(self, name: str):
        self.__class__ = ModuleType  # (from now on a plain module, its code run into it once)
        self.__spec__.loader.exec_module(self)
        return getattr(self, name)


def _load_msgspec() -> None:
    """Import msgspec without what carpet never asks of it at start-up.

    msgspec imports typing_extensions when it is installed (textual, for the screen, brings it), and that
    import costs about 13 ms of CPU, a tenth of a command's start-up. Python 3.10+ has what msgspec looks
    for there (get_type_hints, Required, NotRequired in 3.11) and carpet's Structs use typing alone, so
    msgspec is loaded as if it were absent; later imports of it (textual's) are not affected.

    msgspec also imports its ``inspect``, ``toml`` and ``yaml`` modules, 2 to 3 ms (a quarter of msgspec's
    import) that only a JSON schema (formats/schemas.py) uses: their code runs when one of their names is
    first read (:class:`_Deferred`), by whoever reads it.
    """
    if "msgspec" in sys.modules:
        return
    spec = find_spec("msgspec")  # (a top-level name: found, not imported)
    for name in ("inspect", "toml", "yaml") if spec is not None and spec.submodule_search_locations else ():
        sub = PathFinder.find_spec(f"msgspec.{name}", spec.submodule_search_locations)
        if sub is not None and sub.loader is not None and sub.name not in sys.modules:
            module = module_from_spec(sub)
            module.__class__ = _Deferred
            sys.modules[sub.name] = module
    if "typing_extensions" in sys.modules:
        import msgspec  # noqa: F401
        return
    sys.modules["typing_extensions"] = None  # type: ignore[assignment]  # (an import of it fails at once)
    try:
        import msgspec  # noqa: F401
    finally:
        del sys.modules["typing_extensions"]


_load_msgspec()

__getattr__ = lazy_names(__name__, {
    "locked": "files", "read_log": "files", "write_log": "files", "check": "log", "decode": "log", "encode": "log",
    "to_bytes": "log", "FORMAT": "log_types", "VERSION": "log_types", "Log": "log_types", "LogError": "log_types",
    "header_deal": "log_types", "new_header": "log_types", "upgraded": "log_types", "record": "log_verify",
    "replay": "log_verify", "verify": "log_verify", "position_document": "report"})

__all__ = ["FORMAT", "VERSION", "Log", "LogError", "check", "decode", "encode", "header_deal", "new_header", "record",
           "replay", "to_bytes", "upgraded", "verify", "read_log", "write_log", "locked", "position_document"]
