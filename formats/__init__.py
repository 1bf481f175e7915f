"""Sessions as bytes and back: the versioned game log, its one replay, and the documents the CLI prints."""

from .files import locked, read_log, write_log
from .log import (FORMAT, VERSION, Log, LogError, check, decode, encode, header_deal, new_header, record, replay,
                  to_bytes, upgraded, verify)
from .report import position_document

__all__ = ["FORMAT", "VERSION", "Log", "LogError", "check", "decode", "encode", "header_deal", "new_header", "record",
           "replay", "to_bytes", "upgraded", "verify", "read_log", "write_log", "locked", "position_document"]
