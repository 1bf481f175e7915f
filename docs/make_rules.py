"""Write docs/rules.md: the rules of every game, as `carpet rules GAME` prints them.

    python docs/make_rules.py           # (re)write docs/rules.md from the engine
    python docs/make_rules.py --check   # exit 1 if docs/rules.md is not what the engine says

Every game in ``carpet.core.GAMES`` gets a section, in the order ``carpet games`` lists them,
grouped by family; each section is the exact text ``carpet rules GAME`` prints, in a text
block, so the document can only say what the command says (tests/test_docs.py checks).
After adding a game, run the first command.
"""

from __future__ import annotations

import sys
from pathlib import Path

from carpet.cli.info import rules_text
from carpet.core import GAMES

TARGET = Path(__file__).resolve().parent / "rules.md"

INTRO = """\
# The rules of every game

<!-- Written by docs/make_rules.py from the engine; edit the rules in core/, then run
     `python docs/make_rules.py`. tests/test_docs.py checks that this file is current. -->

Each section below is exactly what `carpet rules GAME` prints: the rules in the project's own
words, with every decision taken where the original texts are silent or disagree marked
"decision". Deal numbers are PySolFC's: the same number deals the same cards there.
The code's comments cite these sections (`docs/rules.md`, "Carpet family" and so on).

A game may also start from a position given as one line of text instead of a deal number
(`docs/format.md`, "Positions as text"). Its rules are the game's; where redeals shuffle, the
generator is the one the position names or, where it names none, one seeded by the
position's text itself, so the same text always gives the same game.
"""


def family_title(family: str) -> str:
    return f"{family.capitalize()} family"


def anchor(title: str) -> str:
    """GitHub's anchor for a heading: lower case, spaces to dashes, other punctuation dropped."""
    return "".join(c for c in title.lower().replace(" ", "-") if c.isalnum() or c in "-_")


def rules_markdown() -> str:
    variants = list(GAMES.values())
    families: dict[str, list] = {}
    for variant in variants:
        families.setdefault(variant.family, []).append(variant)
    out = [INTRO, "| game | family | one line |", "|---|---|---|"]
    for variant in variants:
        out.append(f"| [`{variant.id}`](#{anchor(variant.id)}) | [{variant.family}]"
                   f"(#{anchor(family_title(variant.family))}) | {variant.summary} |")
    for family, members in families.items():
        out.append(f"\n## {family_title(family)}\n")
        out.append("Games: " + ", ".join(f"`{v.id}`" for v in members) + ".")
        for variant in members:
            out.append(f"\n### {variant.id}\n")
            out.append("```text\n" + rules_text(variant) + "```")
    return "\n".join(out) + "\n"


def main(argv: list[str]) -> int:
    text = rules_markdown()
    if "--check" in argv:
        if not TARGET.exists() or TARGET.read_text(encoding="utf-8") != text:
            print(f"{TARGET} is not current: run python docs/make_rules.py", file=sys.stderr)
            return 1
        return 0
    TARGET.write_text(text, encoding="utf-8")
    print(f"wrote {TARGET} ({len(GAMES)} games)")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
