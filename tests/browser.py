"""Headless Chromium for the replay-page tests, driven with the standard library alone.

Two ways in: :func:`dump_dom` runs ``chromium --headless --dump-dom URL`` (the DOM after the
page's script ran on load, e.g. with ``#K`` in the address), and :class:`Browser` speaks the
DevTools protocol over ``--remote-debugging-pipe`` (JSON messages ending in a NUL byte, on the
child's file descriptors 3 and 4) to click, press keys and read the page as a person would
use it.  The network is never needed: pages are opened from disk.
"""

from __future__ import annotations

import json
import os
import select
import shutil
import subprocess
import tempfile
import time

NAMES = ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable")
FLAGS = ("--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking",
         "--disable-component-update", "--disable-sync", "--disable-extensions", "--mute-audio",
         "--window-size=1280,900")


def find() -> str | None:
    for name in NAMES:
        path = shutil.which(name)
        if path:
            return path
    return None


def dump_dom(url: str, timeout: float = 60) -> str:
    chromium = find()
    assert chromium
    with tempfile.TemporaryDirectory(prefix="carpet-chromium-") as profile:
        done = subprocess.run([chromium, *FLAGS, f"--user-data-dir={profile}", "--dump-dom", url],
                              capture_output=True, text=True, timeout=timeout)
    assert done.returncode == 0, done.stderr[-2000:]
    return done.stdout


class BrowserError(Exception):
    pass


class Browser:
    """One headless Chromium; :meth:`open` gives a page to drive."""

    def __init__(self, timeout: float = 30) -> None:
        chromium = find()
        assert chromium
        self.timeout = timeout
        self.profile = tempfile.mkdtemp(prefix="carpet-chromium-")
        to_child_r, self._to_child = os.pipe()
        self._from_child, from_child_w = os.pipe()

        def wire():  # the child reads commands on fd 3 and writes answers on fd 4
            os.dup2(to_child_r, 3)
            os.dup2(from_child_w, 4)

        self.proc = subprocess.Popen([chromium, *FLAGS, f"--user-data-dir={self.profile}",
                                      "--remote-debugging-pipe", "about:blank"],
                                     stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                     stderr=subprocess.DEVNULL, preexec_fn=wire, pass_fds=(3, 4))
        os.close(to_child_r)
        os.close(from_child_w)
        self._buffer = b""
        self._next_id = 0

    def send(self, method: str, params: dict | None = None, session: str | None = None) -> dict:
        self._next_id += 1
        message = {"id": self._next_id, "method": method, "params": params or {}}
        if session:
            message["sessionId"] = session
        os.write(self._to_child, json.dumps(message).encode() + b"\0")
        while True:
            answer = self._read()
            if answer.get("id") == self._next_id:
                if "error" in answer:
                    raise BrowserError(f"{method}: {answer['error']}")
                return answer.get("result", {})

    def _read(self) -> dict:
        deadline = time.monotonic() + self.timeout
        while b"\0" not in self._buffer:
            left = deadline - time.monotonic()
            ready, _, _ = select.select([self._from_child], [], [], max(0.0, left))
            if not ready:
                raise BrowserError("chromium did not answer in time")
            chunk = os.read(self._from_child, 1 << 16)
            if not chunk:
                raise BrowserError("chromium closed the pipe")
            self._buffer += chunk
        message, _, self._buffer = self._buffer.partition(b"\0")
        return json.loads(message)

    def open(self, url: str) -> "Page":
        target = self.send("Target.createTarget", {"url": "about:blank"})["targetId"]
        session = self.send("Target.attachToTarget", {"targetId": target, "flatten": True})["sessionId"]
        page = Page(self, session)
        page.goto(url)
        return page

    def close(self) -> None:
        try:
            self.send("Browser.close")
        except (BrowserError, OSError):
            pass
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        for fd in (self._to_child, self._from_child):
            os.close(fd)
        shutil.rmtree(self.profile, ignore_errors=True)


class Page:
    def __init__(self, browser: Browser, session: str) -> None:
        self.browser = browser
        self.session = session

    def send(self, method: str, params: dict | None = None) -> dict:
        return self.browser.send(method, params, self.session)

    def goto(self, url: str) -> None:
        self.send("Page.navigate", {"url": url})
        self.wait_for("document.readyState === 'complete' && !!document.getElementById('slider')")

    def eval(self, expression: str):
        result = self.send("Runtime.evaluate", {"expression": expression, "returnByValue": True})
        if "exceptionDetails" in result:
            raise BrowserError(f"{expression}: {result['exceptionDetails']}")
        return result["result"].get("value")

    def wait_for(self, expression: str, timeout: float = 30) -> None:
        deadline = time.monotonic() + timeout
        while not self.eval(expression):
            if time.monotonic() > deadline:
                raise BrowserError(f"still false after {timeout} s: {expression}")
            time.sleep(0.05)

    def click(self, selector: str) -> None:
        """A real mouse click in the middle of the element (scrolled into view first)."""
        box = self.eval(f"(function () {{ var el = document.querySelector({json.dumps(selector)});"
                        " el.scrollIntoView({block: 'center'}); var r = el.getBoundingClientRect();"
                        " return [r.left + r.width / 2, r.top + r.height / 2]; })()")
        x, y = box
        for kind in ("mouseMoved", "mousePressed", "mouseReleased"):
            self.send("Input.dispatchMouseEvent", {"type": kind, "x": x, "y": y, "button": "left",
                                                   "clickCount": 1})

    KEYS = {"ArrowRight": 39, "ArrowLeft": 37, "Home": 36, "End": 35, " ": 32}

    def press(self, key: str) -> None:
        code = "Space" if key == " " else key
        common = {"key": key, "code": code, "windowsVirtualKeyCode": self.KEYS[key]}
        self.send("Input.dispatchKeyEvent", {"type": "keyDown", **common, **({"text": " "} if key == " " else {})})
        self.send("Input.dispatchKeyEvent", {"type": "keyUp", **common})

    def event(self) -> int:
        return int(self.eval("document.body.getAttribute('data-event')"))

    def picture(self) -> str:
        """The picture as the page shows it now, as XML."""
        return self.eval("new XMLSerializer().serializeToString(document.querySelector('svg.carpet-position'))")
