"""The JSON Schemas of docs/schemas/, generated from the Structs (``python -m carpet.formats.schemas``).

``carpet-log.schema.json`` is the JSON form of a log (formats/log.py, ``JsonLog``); the
others are the documents the CLI prints (formats/documents.py, formats/survey.py for
``survey --json`` and a line of its results file, formats/stats.py for ``stats --json``).  tests/test_docs.py
fails when a file here is not what this module generates.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import msgspec

from .documents import DOCUMENTS
from .log import JsonLog
from .stats import StatsDocument
from .survey import DealResult, SurveyDocument


def schemas() -> dict[str, bytes]:
    """File name -> the schema's bytes (sorted keys, two-space indent, a final newline)."""
    out = {}
    kinds = {"carpet-log": JsonLog, **DOCUMENTS, "survey": SurveyDocument, "survey-results-line": DealResult,
             "stats": StatsDocument}
    for name, struct in kinds.items():
        schema = msgspec.json.schema(struct)
        schema = {"$schema": "https://json-schema.org/draft/2020-12/schema", "title": f"carpet {name}", **schema}
        out[f"{name}.schema.json"] = (json.dumps(schema, indent=2, sort_keys=True, ensure_ascii=False) + "\n").encode()
    return out


def main(argv: list[str]) -> int:
    folder = Path(argv[0]) if argv else Path(__file__).resolve().parent.parent / "docs" / "schemas"
    folder.mkdir(parents=True, exist_ok=True)
    for name, data in schemas().items():
        (folder / name).write_bytes(data)
    print(f"wrote {len(schemas())} schemas to {folder}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
