"""The JSON Schemas of docs/schemas/, generated from the Structs (``python -m carpet.formats.schemas``).

``carpet-log.schema.json`` is the JSON form of a log (formats/log_types.py, ``JsonLog``); the
others are the documents the CLI prints (formats/documents.py, formats/survey.py for
``survey --json`` and a line of its results file, formats/stats.py for ``stats --json``, formats/verdict.py
for ``carpet.verify`` and the answers of ``carpet serve``).  tests/test_docs.py
fails when a file here is not what this module generates.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import msgspec

from .documents import DOCUMENTS
from .log_types import JsonLog
from .stats import StatsDocument
from .survey import DealResult, SurveyDocument
from .verdict import BestGame, Kept, Verdict


def _enums() -> dict[str, list]:
    """Fields whose values are a closed set, by name, wherever they appear: what a reader refuses besides."""
    from carpet.core import GAMES

    from .log_types import NUMBERING, STATUSES, FORMAT, RULES_VERSION, VERSION

    return {"status": list(STATUSES), "game": list(GAMES), "format": [FORMAT], "numbering": [NUMBERING],
            "rules": [RULES_VERSION], "version": list(range(1, VERSION + 1)), "information": ["full", "open"],
            "form": ["binary", "json", "text", "html"]}


#: a field's value set where its name alone does not fix it: (schema, field) -> values
_ENUMS_OF = {("solve", "result"): ["won", "unwinnable", "unknown"]}


def _comments(struct) -> dict[str, str]:
    """A Struct's ``#:`` comments, by the field they stand above (the project documents fields so)."""
    import inspect
    import re

    found: dict[str, str] = {}
    for cls in reversed(struct.__mro__):
        if not isinstance(cls, type) or not issubclass(cls, msgspec.Struct) or cls is msgspec.Struct:
            continue
        try:
            lines = inspect.getsource(cls).splitlines()
        except (OSError, TypeError):
            continue
        comment: list[str] = []
        for line in lines:
            text = line.strip()
            if text.startswith("#:"):
                comment.append(text[2:].strip())
                continue
            m = re.match(r"([a-z_][a-z0-9_]*)\s*:", text)
            if m and comment:
                found[m.group(1)] = " ".join(comment)
            comment = []
    return found


def _complete(node, name: str, structs: dict, enums: dict) -> None:
    """Enums and descriptions added to a schema's objects: a value outside its set no longer validates."""
    if isinstance(node, dict):
        props = node.get("properties")
        if isinstance(props, dict):
            notes = _comments(structs[node["title"]]) if node.get("title") in structs else {}
            for field, sub in props.items():
                values = _ENUMS_OF.get((name, field), enums.get(field))
                if values is not None and isinstance(sub, dict) and "enum" not in sub and "anyOf" not in sub:
                    kind = {"string": str, "integer": int}.get(sub.get("type"))
                    if kind is not None and all(type(v) is kind for v in values):  # ("rules" is text in one)
                        sub["enum"] = values
                if isinstance(sub, dict) and "description" not in sub and field in notes:
                    sub["description"] = notes[field]
        for value in node.values():
            _complete(value, name, structs, enums)
    elif isinstance(node, list):
        for value in node:
            _complete(value, name, structs, enums)


def _structs(struct, found: dict) -> dict:
    """Every Struct reachable from ``struct``'s fields, by name."""
    import typing

    if isinstance(struct, type) and issubclass(struct, msgspec.Struct) and struct.__name__ not in found:
        found[struct.__name__] = struct
        for hint in typing.get_type_hints(struct, include_extras=True).values():
            for arg in _args(hint):
                _structs(arg, found)
    return found


def _args(hint) -> list:
    import typing

    out, todo = [], [hint]
    while todo:
        h = todo.pop()
        out.append(h)
        todo.extend(typing.get_args(h))
    return out


def schemas() -> dict[str, bytes]:
    """File name -> the schema's bytes (sorted keys, two-space indent, a final newline)."""
    out = {}
    kinds = {"carpet-log": JsonLog, **DOCUMENTS, "survey": SurveyDocument, "survey-results-line": DealResult,
             "stats": StatsDocument, "verdict": Verdict, "kept": Kept, "best-game": BestGame}
    enums = _enums()
    for name, struct in kinds.items():
        schema = msgspec.json.schema(struct)
        _complete(schema, name, _structs(struct, {}), enums)
        schema = {"$schema": "https://json-schema.org/draft/2020-12/schema", "title": f"carpet {name}", **schema}
        out[f"{name}.schema.json"] = (json.dumps(schema, indent=2, sort_keys=True, ensure_ascii=False) + "\n").encode()
    return out


def main(argv: list[str]) -> None:
    folder = Path(argv[0]) if argv else Path(__file__).resolve().parent.parent / "docs" / "schemas"
    folder.mkdir(parents=True, exist_ok=True)
    for name, data in schemas().items():
        (folder / name).write_bytes(data)
    print(f"wrote {len(schemas())} schemas to {folder}")


if __name__ == "__main__":
    main(sys.argv[1:])
