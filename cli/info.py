"""``carpet games`` and ``carpet rules``: what the engine plays."""

from carpet.core import GAMES

from .common import GameId, JsonFlag, game_and_deal, guard, print_json


def games(as_json: JsonFlag = False) -> None:
    """List the variants: id, family, source, one-line rule.

    The source is the rules text a game follows: 000 Carpet (English, with Foster's 1914 variant), 001 Коврик as one site plays it, 002 Aisleriot's Carpet, 003 Crazy Quilt (Spanish), 004 Коврик easy and hard as another site plays them; PySol N is PySolFC's game number N. `carpet rules GAME` says more.
    """
    from carpet.formats.documents import Game, Games

    rows = [Game(id=v.id, family=v.family, source=v.source, summary=v.summary, redeals=v.redeals)
            for v in GAMES.values()]
    if as_json:
        print_json(Games(games=rows))
        return
    width = max(len(r.id) for r in rows)
    for r in rows:
        print(f"{r.id:<{width}}  {r.family:<6}  {r.source:<9}  {r.summary}")


def rules(game: GameId, as_json: JsonFlag = False) -> None:
    """The variant's rules in our own words, with every decision made where the sources are silent."""
    def run():
        variant, _ = game_and_deal(game, None)
        if as_json:
            from carpet.formats.documents import Rules
            print_json(Rules(game=variant.id, family=variant.family, source=variant.source,
                             summary=variant.summary, rules=variant.rules))
        else:
            print(rules_text(variant), end="")
    guard(run)


def rules_text(variant) -> str:
    """What ``carpet rules GAME`` prints; docs/rules.md is made of it (docs/make_rules.py)."""
    return f"{variant.id} — {variant.summary}\n\n{variant.rules.rstrip()}\n"
