"""What each everyday command imports: the list of carpet's modules it loads, pinned, and the heavy
modules it must never load (the solver, the screen, the pictures, Dask, a server).

Each command runs as a fresh process (``python -c PROBE ARGS``), and what ``sys.modules`` holds
when it exits is compared with its list.  A change that pulls a module into a command's start-up
fails here by name; when the module is needed, add it to the list (and say what it costs:
``python -X importtime -m carpet ...``, ``benchmarks/startup.py``).
"""

import json
import os
import subprocess
import sys

import pytest

#: written to a file at exit: the modules loaded (msgspec's deferred ones only once their code ran)
PROBE = """
import atexit, os, sys
def _dump():
    loaded = [name for name, module in sys.modules.items() if type(module).__name__ != "_Deferred"]
    with open(os.environ["CARPET_MODULES_OUT"], "w") as out:
        out.write("\\n".join(sorted(loaded)))
atexit.register(_dump)
sys.argv = ["carpet", *sys.argv[1:]]
from carpet.cli.start import main
main()
"""

#: never loaded by an everyday command: the screen, the solver and the searches, the pictures,
#: the replay page, Dask, a web server, typing_extensions (13 ms, formats/__init__.py) and
#: importlib.metadata (about 15 ms; --version prints carpet.core.__version__, which the metadata copies) and
#: hashlib (it loads OpenSSL, 10M instructions: the digests use the C module _blake2, core/game.py)
HEAVY = ("textual", "dask", "distributed", "http.server", "socketserver", "asyncio", "typing_extensions",
         "importlib.metadata", "hashlib", "_hashlib",
         "carpet.cli.screen", "carpet.core.solver", "carpet.core.seen", "carpet.core.beam", "carpet.core.descent",
         "carpet.core.players", "carpet.formats.svg", "carpet.formats.html", "carpet.formats.survey",
         "msgspec.inspect", "msgspec.toml", "msgspec.yaml")

START = {"carpet", "carpet.cli", "carpet.cli.start", "carpet.cli.exits", "carpet.cli.app", "carpet.cli.outcome",
         "carpet.cli.terminal", "carpet.core", "carpet.core.errors"}
CORE = {"carpet.core.families", "carpet.core.game", "carpet.core.games", "carpet.core.numbering",
        "carpet.core.session", "carpet.cli.common"}
JSON = {"carpet.formats", "carpet.formats.documents", "carpet.formats.report", "carpet.core.position"}
READ = {"carpet.formats", "carpet.formats.codec", "carpet.formats.files", "carpet.formats.log",
        "carpet.formats.log_types", "carpet.formats.log_v2", "carpet.formats.log_verify", "carpet.formats.playlog"}
GRID = {"carpet.core.cards", "carpet.core.grid", "carpet.core.grid.board", "carpet.core.grid.rules",
        "carpet.core.grid.search", "carpet.core.grid.variants"}
CARPET = {"carpet.core.cards", "carpet.core.carpet", "carpet.core.carpet.board", "carpet.core.carpet.rules",
          "carpet.core.carpet.search", "carpet.core.carpet.variants"}
QUILT = {"carpet.core.cards", "carpet.core.quilt", "carpet.core.quilt.board", "carpet.core.quilt.rules",
         "carpet.core.quilt.search", "carpet.core.quilt.variants"}

#: (arguments, the carpet modules loaded, what else must not be loaded); {k}, {c}, {q}: a kovrik, a carpet
#: and a crazy-quilt game just begun
COMMANDS = {
    "--version": (["--version"], START, ("rich", "msgspec", "carpet.cli.common")),
    "deal kovrik --json": (["deal", "kovrik", "1", "--json"],
                           START | CORE | JSON | GRID | {"carpet.cli.deal", "carpet.core.grid.position"},
                           ("rich",)),
    "deal carpet --json": (["deal", "carpet", "1", "--json"],
                           START | CORE | JSON | CARPET | {"carpet.cli.deal", "carpet.core.carpet.position"},
                           ("rich",)),
    "deal crazy-quilt": (["deal", "crazy-quilt", "1"],
                         START | CORE | QUILT | {"carpet.cli.deal", "carpet.cli.draw", "carpet.cli.draw_quilt",
                                                 "carpet.cli.cards_style"}, ("msgspec",)),
    "new --json": (["new", "kovrik", "2", "-o", "{dir}/new.carpet", "--json"],
                   START | CORE | JSON | READ | GRID | {"carpet.cli.deal", "carpet.cli.clock",
                                                        "carpet.core.grid.codes", "carpet.core.grid.position"},
                   ("rich",)),
    "show --json": (["show", "{k}", "--json"],
                    START | CORE | JSON | READ | GRID | {"carpet.cli.show", "carpet.core.grid.codes",
                                                         "carpet.core.grid.position"}, ("rich",)),
    "show --json carpet": (["show", "{c}", "--json"],
                           START | CORE | JSON | READ | CARPET | {"carpet.cli.show", "carpet.core.carpet.codes",
                                                                  "carpet.core.carpet.position"}, ("rich",)),
    "show --json crazy-quilt": (["show", "{q}", "--json"],
                                START | CORE | JSON | READ | QUILT | {"carpet.cli.show", "carpet.core.quilt.codes",
                                                                      "carpet.core.quilt.position"}, ("rich",)),
    "moves": (["moves", "{k}"], START | CORE | READ | GRID | {"carpet.cli.show", "carpet.core.grid.codes"},
              ("rich", "carpet.formats.documents")),
    "verify": (["verify", "{k}"], START | CORE | READ | GRID | {"carpet.cli.verify", "carpet.formats.documents",
                                                                "carpet.core.grid.codes", "carpet.formats.verdict",
                                                                "carpet.formats.report"}, ("rich",)),
    "play --json": (["play", "{k}", "AC>a0", "--json"],
                    START | CORE | JSON | READ | GRID | {"carpet.cli.play", "carpet.cli.live", "carpet.cli.clock",
                                                         "carpet.core.grid.codes", "carpet.core.grid.position"},
                    ("rich",)),
}


def loaded_by(args: list[str], tmp_path) -> set[str]:
    out = tmp_path / "modules.txt"
    env = {**os.environ, "CARPET_MODULES_OUT": str(out)}
    result = subprocess.run([sys.executable, "-c", PROBE, *args], capture_output=True, text=True, env=env,
                            timeout=120)
    assert result.returncode == 0, result.stderr
    return set(out.read_text().split())


@pytest.fixture(scope="module")
def games(tmp_path_factory):
    folder = tmp_path_factory.mktemp("games")
    from carpet.core import Session, get_game, parse_deal
    from carpet.formats import new_header, record, to_bytes

    paths = {}
    for key, game in (("k", "kovrik"), ("c", "carpet"), ("q", "crazy-quilt")):
        session = Session(get_game(game), parse_deal("1"))
        path = paths[key] = folder / f"{game}.carpet"
        path.write_bytes(to_bytes(record(session, new_header(session, created="2026-01-01T00:00:00.000Z",
                                                                 tool="carpet 0.1.0"))))
    return paths


@pytest.mark.parametrize("name", COMMANDS)
def test_each_everyday_command_loads_its_list_and_nothing_heavy(name, games, tmp_path):
    args, pinned, absent = COMMANDS[name]
    heavy_here = HEAVY + absent
    args = [a.format(dir=tmp_path, **{k: str(v) for k, v in games.items()}) for a in args]
    if name.startswith("play"):  # (a game of its own: play writes to it)
        (tmp_path / "k.carpet").write_bytes(games["k"].read_bytes())
        args[1] = str(tmp_path / "k.carpet")
    loaded = loaded_by(args, tmp_path)
    heavy = sorted(m for m in loaded if any(m == h or m.startswith(h + ".") for h in heavy_here))
    assert not heavy, f"carpet {name} loads {heavy}"
    ours = {m for m in loaded if m == "carpet" or m.startswith("carpet.")}
    assert ours == pinned, (f"carpet {name}: loads {sorted(ours - pinned)} beyond its list, and no longer "
                            f"{sorted(pinned - ours)}: update COMMANDS if that is meant")


def test_hint_loads_the_search_and_nothing_else_heavy(games, tmp_path):
    """``hint`` loads the search it runs, and up to it only what the other commands load."""
    path = tmp_path / "k.carpet"
    path.write_bytes(games["k"].read_bytes())
    loaded = loaded_by(["hint", str(path), "--json"], tmp_path)
    assert "carpet.core.hint" in loaded or "carpet.core.seen" in loaded
    for module in ("textual", "dask", "distributed", "http.server", "carpet.cli.screen", "carpet.formats.svg",
                   "carpet.formats.html", "carpet.formats.survey", "rich", "typing_extensions"):
        assert module not in loaded, module


def test_the_probe_sees_what_a_command_prints(games, tmp_path):
    """The probe runs the real command: its output is the command's own."""
    out = tmp_path / "modules.txt"
    result = subprocess.run([sys.executable, "-c", PROBE, "show", str(games["k"]), "--json"], capture_output=True,
                            text=True, env={**os.environ, "CARPET_MODULES_OUT": str(out)}, timeout=120)
    assert json.loads(result.stdout)["game"] == "kovrik" and "carpet.cli.show" in out.read_text().split()
