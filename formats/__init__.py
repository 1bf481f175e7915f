"""Sessions as bytes and back: the versioned game log, and the position as a JSON document."""

from .files import locked, read_log, write_log
from .log import FORMAT, VERSION, Log, LogError, decode, encode, new_header, record, replay, verify
from .report import position_document

__all__ = ["FORMAT", "VERSION", "Log", "LogError", "decode", "encode", "new_header", "record",
           "replay", "verify", "read_log", "write_log", "locked", "position_document"]
