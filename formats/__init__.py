"""Sessions as bytes and back: the versioned game log, its one replay, and the documents the CLI prints."""

import sys

# msgspec imports typing_extensions when it is installed (textual, for the screen, brings it), and that
# import costs about 13 ms of CPU, a tenth of a command's start-up. Python 3.10+ has what msgspec looks
# for there (get_type_hints, Required, NotRequired in 3.11) and carpet's Structs use typing alone, so
# msgspec is loaded as if it were absent; later imports of it (textual's) are not affected.
if "typing_extensions" not in sys.modules and "msgspec" not in sys.modules:
    sys.modules["typing_extensions"] = None  # type: ignore[assignment]  # (an import of it fails at once)
    try:
        import msgspec  # noqa: F401
    finally:
        del sys.modules["typing_extensions"]

from .files import locked, read_log, write_log  # noqa: E402
from .log import check, decode, encode, to_bytes
from .log_types import FORMAT, VERSION, Log, LogError, header_deal, new_header, upgraded
from .log_verify import record, replay, verify
from .report import position_document

__all__ = ["FORMAT", "VERSION", "Log", "LogError", "check", "decode", "encode", "header_deal", "new_header", "record",
           "replay", "to_bytes", "upgraded", "verify", "read_log", "write_log", "locked", "position_document"]
