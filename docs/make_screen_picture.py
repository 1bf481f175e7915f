"""Make docs/pictures/screen.svg: the interactive screen (`carpet play FILE` on a terminal), 80 × 24.

Run from the repository's root: ``python docs/make_screen_picture.py``.  It replays the first
38 events of fixtures/carpet-gaps-open.log into a new log in a temporary folder, opens the screen
on it under Textual's test harness, asks for the hint (typed, so it is named and not played; the cursor goes
to the gap it fills) and saves Textual's own SVG screenshot.  Only the clock differs between two runs.
"""

import asyncio
import json
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
FIXTURE, EVENTS = ROOT / "fixtures" / "carpet-gaps-open.log", 38
OUT = ROOT / "docs" / "pictures" / "screen.svg"


def carpet(*args: str) -> str:
    return subprocess.run([sys.executable, "-m", "carpet.cli", *args], check=True, capture_output=True,
                          text=True).stdout


async def shoot(path: Path) -> str:
    from carpet.cli.live import LiveGame
    from carpet.cli.screen import PlayScreen
    from carpet.formats import locked

    with locked(path, wait=False) as held:
        app = PlayScreen(LiveGame(path, held))
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            await pilot.press(*"hint", "enter")
            await pilot.pause()
            return app.export_screenshot(title=f"carpet play {path.name}")


def main() -> None:
    frames = json.loads(carpet("replay", str(FIXTURE), "--json", "--to", str(EVENTS)))["frames"]
    header = json.loads(carpet("show", str(FIXTURE), "--json"))
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "game.carpet"
        carpet("new", header["game"], header["deal"], "-o", str(path))
        carpet("play", str(path), *[frame["action"] for frame in frames[1:]], "-q")
        OUT.write_text(asyncio.run(shoot(path)), encoding="utf-8")
    print(f"wrote {OUT.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
