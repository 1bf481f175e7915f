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

## What a hint may look at

By default a hint (`carpet hint`, `play FILE hint`) sees what the player has seen: every card
face up now, and every card face up earlier in this attempt (a player's perfect memory, an
undone position included), never the order of the cards still face down (the carpet and quilt
stocks) nor what a seeded shuffle will deal next (the grid games whose redeals shuffle). Its
`--json` says `"information": "seen"`. `hint --peek` is the hint each game's section describes
below, which searches the whole position as the solver does (`"information": "full"`). Where
nothing is hidden (the grid games without shuffles, a shuffle game with no redeal left, Persian
Carpet, a stock all seen) the two name the same action, and the hint still says "seen": it
looked at no more than the player sees **(decision)**. What a hint costs does not depend on which
it is. One exception **(decision)**: in a shuffle game with no redeal left, the seen hint
remembers its searches within the attempt: it follows a winning line it found to its end; from a
position where its search found no win that avoids the attempt's positions, and from each
position its own advice leads to from there, it names the built-in player's action without a
search (the game is lost for a player who never goes back); and after a search that ends unknown, the next ones
get a 64th of the budget until the cards in the rows' runs pass the most seen at a full search
(`core/seen.py`, ``_planned``; the README, "Fair win rates", has the cost it saves).

How the seen hint chooses **(decision)**: it writes down what the player has seen (the position
as text, `??` for each stock card never face up in the attempt, the generator left out) and
deals 8 orders consistent with it (2 in the grid games, 16 in the quilt family), from a generator
seeded by that text alone: the unseen cards shuffled, or in a grid game a generator drawn afresh.
Then, in the carpet family and the grid games, it plays each legal action that brings back no
position of the attempt in every one of them and solves the position after it (`carpet solve`,
1,000 nodes per order; 100 in the grid games), and names the action after which most orders are
won. Where only one action is
worth trying it is named without a vote. Only the actions the family finds
worth trying are weighed (the solver's own list: a fill of one of the carpet's gaps stands for
them all), and ties go to the first in the family's order of them. An action every order's position calls safe (a card to its
foundation that cannot spoil a win) is named without a search. When no order is won after any
action, it names the built-in player's action in the first order. The quilt family solves no
order: it plays each such action in each of the 16 orders and keeps the actions after which the
fewest orders are lost or a dead end by the family's own test (a proof that no win is left, the
solver's; one such action alone is named), then asks the built-in player's look-ahead (600 nodes)
in each of the first 4 orders and names the kept action it picks in most of them (ties to the
first in the family's order); the counting and the vote stop as soon as the answer is settled
(an action whose count already exceeds the fewest cannot be kept; a vote no other kept action can
still win or tie from before it in the family's order), which changes no answer. So the answer depends only
on what the player has seen: two positions that differ only in the order of unseen cards get
the same hint, and a position typed with its stock's cards named or written `??` gets the same
hint (a typed position has no attempt behind it: its whole stock counts as unseen). Why these
numbers: solving every action in every order is what "the action that wins in most orders"
means, and it plays far better than crediting each order to one winning line; 8 orders of
1,000 nodes keep a game of Carpet within 0.7 s of CPU at the median (README, "Fair win rates").
The grid figures keep a grid game near 2 s of CPU at the median, so that 1,000 deals of a game
fit in an hour of one core: on a dozen deals the bigger budgets tried (up to 8 orders of 500
nodes in montana) won no more, at up to ten times the cost (`core/seen.py`, the comment at
`SAMPLES`). In the quilt family the solver's vote (2 orders of 60 nodes, up to 4 of 300 tried)
was nearly always empty in the first pass, the only one with cards unseen: a quilt deal is
rarely won within a small search from there. Its fall-back, the look-ahead on one guessed order,
played the first pass badly: in crazy-quilt deals 3007-3036 it won 3, and the look-ahead on one
guessed order alone (a simple player that does not peek) 3, where the built-in player, whose
look-ahead reads the true stock, won 11. Counting dead ends over 16 orders won 6 of those 30
deals, and adding the look-ahead's vote in 4 orders 7; over crazy-quilt 3001-3083 it won 20
where the built-in player won 27, at about 4 s of CPU a game at the median (the README, "Fair
win rates", has the surveys).

The fair yardstick **(decision)**: the survey's `simple` player is the built-in one (`carpet
autoplay`, kept as it was so that recorded games replay byte for byte). In the carpet and grid
families it reads the table, the waste and how many cards the stock holds, never the stock's
order nor what a shuffle will deal; in the quilt family it is a look-ahead (600 nodes) played on
the true position, which turns the true stock: it peeks. `carpet survey GAME --player
simple-seen` is that player seeing only what the player has seen: at every step it draws one
order of the unseen cards consistent with the seen position (the first of the seen hint's
orders, from the same generator seeded by what was seen) and makes the simple player's choice
in it; with nothing hidden, the choice on the position itself. Where the simple player reads
nothing hidden the drawn order changes nothing and it plays exactly as `simple` (tested on the
carpet family and on grid games with and without shuffles), so it differs only in the quilt
family, during the first pass, and there it is the yardstick a seen player is to beat: it
knows what a player knows and plays as simply as the built-in player. On crazy-quilt deals
3001-3100 it won 8, the seen player 22 and the built-in player 31; on indian-carpet 3001-3100
61, 82 and 87 (the README, "Fair win rates").
`carpet solve --seen` counts the orders won, unwinnable and unknown over 100 sampled orders
(20,000 nodes each), with a 95 % Wilson interval.
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
