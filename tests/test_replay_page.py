"""The replay page in a real browser (headless Chromium): reached through its own controls and
its address, the picture it shows is the engine's position, as ``carpet show --at K`` gives it.

Skipped only where no chromium can be found; CI installs it (.ci/run), and under CI a missing
chromium fails instead of skipping.
"""

from __future__ import annotations

import os
import shutil

import pytest

import browser
import pictures
from clitools import doc, run
from conftest import ROOT

CHROMIUM = browser.find()
needs_chromium = pytest.mark.skipif(CHROMIUM is None,
                                    reason="chromium not found (Debian's chromium package; .ci/run installs it)")

#: one recorded game of each family and board: (fixture, an event to open at by the address)
GAMES = {
    "grid": ("kovrik-won.log", 57),  # hints counted, locks, the bonus at the end
    "carpet": ("carpet-restart.log", 61),  # a restart: the clock starts again
    "quilt": ("indian-carpet-hint-undo.log", 105),  # hints, undos, redeals undone and played again
    "reserves": ("persian-carpet-reserves.json", 20),  # the JSON form, reserves
}


def test_ci_has_chromium():
    if os.environ.get("CI") and CHROMIUM is None:
        pytest.fail("CI must run the browser tests: .ci/run installs chromium")


@pytest.fixture(scope="module")
def pages(tmp_path_factory):
    """Each game's log and its replay page, made by `carpet export`."""
    folder = tmp_path_factory.mktemp("pages")
    made = {}
    for family, (name, _) in GAMES.items():
        log = folder / name
        shutil.copy(ROOT / "fixtures" / name, log)
        page = folder / f"{family}.html"
        result = run("export", log, "-o", page)
        assert result.exit_code == 0, result.stderr
        made[family] = (log, page)
    return made


class Expected:
    """``carpet show --at K``, as JSON and as SVG, for one log (cached)."""

    def __init__(self, log, folder) -> None:
        self.log, self.folder, self.cache = log, folder, {}

    def __call__(self, k: int):
        if k not in self.cache:
            shown = doc(run("show", self.log, "--at", k, "--json"))
            svg = self.folder / f"at-{k}.svg"
            assert run("show", self.log, "--at", k, "--svg", svg).exit_code == 0
            self.cache[k] = (shown, pictures.parse(svg.read_text(encoding="utf-8")))
        return self.cache[k]

    def check(self, svg_text: str, k: int) -> None:
        shown, drawn = self(k)
        root = pictures.parse(svg_text)
        pictures.check(root, shown)  # the cards, piles and caption are the engine's
        assert pictures.drawing(root) == pictures.drawing(drawn)  # and drawn as `show --svg` draws them


@needs_chromium
@pytest.mark.parametrize("family", GAMES)
def test_the_address_opens_the_page_at_an_event(family, pages, tmp_path):
    log, page = pages[family]
    k = GAMES[family][1]
    dom = browser.dump_dom(f"{page.as_uri()}#{k}")
    assert f'data-event="{k}"' in dom
    Expected(log, tmp_path).check(pictures.svg_from_page(dom), k)


@pytest.fixture(scope="module")
def chromium():
    b = browser.Browser()
    yield b
    b.close()


@needs_chromium
@pytest.mark.parametrize("family", GAMES)
def test_the_controls_step_through_the_game(family, pages, chromium, tmp_path):
    log, page = pages[family]
    expected = Expected(log, tmp_path)
    last = doc(run("show", log, "--json"))["events"]
    p = chromium.open(page.as_uri())

    def at(k: int) -> None:
        assert p.event() == k
        expected.check(p.picture(), k)

    at(0)
    p.press("ArrowRight")
    p.press("ArrowRight")
    at(2)
    p.click("#next")
    at(3)
    p.click("#prev")
    at(2)
    middle = last // 2
    p.click(f'#actions li[data-k="{middle}"]')  # jump by clicking the action
    at(middle)
    assert p.eval("location.hash") == f"#{middle}"  # the address follows, so a link names the position
    p.eval("document.getElementById('slider').focus()")
    p.press("End")  # the slider's own key
    at(last)
    p.click("#first")
    at(0)
    p.press("End")  # the page's key (focus is on the button, not the slider)
    at(last)
    p.press("Home")
    at(0)
    p.eval(f"location.hash = '#event={last - 3}'")
    p.wait_for(f"document.body.getAttribute('data-event') === '{last - 3}'")
    at(last - 3)
    p.eval("document.getElementById('speed').value = '20'")
    p.click("#play")  # plays to the end at 20 times the recorded pace, then stops
    assert p.eval("document.body.hasAttribute('data-playing')")
    p.wait_for("!document.body.hasAttribute('data-playing')")
    at(last)
    assert p.eval("document.getElementById('now').textContent").startswith(f"event {last} of {last}: ")


def test_a_log_too_long_for_a_page_is_refused_in_one_line(tmp_path, monkeypatch):
    """A replay page holds at most PAGE_EVENTS events: a longer log is refused before the page is made
    (one line, exit 2, nothing written), a log at the bound still makes its page."""
    from carpet.formats import html

    source = ROOT / "fixtures" / "kovrik-won.log"
    events = doc(run("verify", source, "--json"))["results"][0]["events"]
    monkeypatch.setattr(html, "PAGE_EVENTS", events - 1)
    page = tmp_path / "game.html"
    result = run("export", source, "-o", page)
    assert result.exit_code == 2 and not page.exists()
    assert f"at most {events - 1:,} events" in result.stderr and len(result.stderr.strip().splitlines()) == 1
    monkeypatch.setattr(html, "PAGE_EVENTS", events)
    assert run("export", source, "-o", page).exit_code == 0 and page.stat().st_size > 0
