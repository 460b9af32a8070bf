"""End to end: ``liujia serve`` on a free port, the replay page loaded in headless Chromium.

Chromium is driven over the DevTools protocol (a websocket on 127.0.0.1) so the test can wait
until Streamlit has rendered over its own websocket, then read the DOM and click a button.
Only 127.0.0.1 is contacted. Skipped, with the reason, when no Chromium is installed.
"""

from __future__ import annotations

import base64
import contextlib
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

BROWSERS = ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable")
CHROME_FLAGS = ("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
                "--no-first-run", "--disable-background-networking",
                "--disable-component-update", "--disable-sync", "--disable-extensions",
                "--disable-default-apps", "--no-default-browser-check",
                "--window-size=1400,1800")
SCREENSHOT_ENV = "LIUJIA_E2E_SCREENSHOT"     # save the page's screenshot there (optional)


def _browser() -> str:
    for name in BROWSERS:
        path = shutil.which(name)
        if path:
            return path
    pytest.skip("no Chromium found: install Debian's `chromium` (apt-get install -y chromium) "
                "to run the browser end-to-end test")


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _wait(predicate, timeout: float, what: str, step: float = 0.25):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = predicate()
        if value:
            return value
        time.sleep(step)
    raise AssertionError(f"timed out after {timeout:.0f} s waiting for {what}")


def _get(url: str, timeout: float = 2.0) -> bytes | None:
    try:
        with urllib.request.urlopen(url, timeout=timeout) as r:   # 127.0.0.1 only
            return r.read()
    except OSError:
        return None


def _stop(proc: subprocess.Popen) -> None:
    """Stop a process started here, with its process group (the server's Streamlit child)."""
    if proc.poll() is None:
        try:
            os.killpg(proc.pid, signal.SIGTERM)
        except ProcessLookupError:
            pass
        try:
            proc.wait(timeout=15)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait(timeout=5)


class DevTools:
    """A minimal DevTools-protocol client for one page target."""

    def __init__(self, ws_url: str) -> None:
        from websockets.sync.client import connect

        self._stack = contextlib.ExitStack()
        self.ws = self._stack.enter_context(connect(ws_url, max_size=64 << 20, open_timeout=10))
        self.next_id = 0

    def call(self, method: str, **params):
        self.next_id += 1
        self.ws.send(json.dumps({"id": self.next_id, "method": method, "params": params}))
        while True:
            msg = json.loads(self.ws.recv(timeout=30))
            if msg.get("id") == self.next_id:
                if "error" in msg:
                    raise AssertionError(f"{method}: {msg['error']}")
                return msg.get("result", {})

    def eval(self, expression: str):
        r = self.call("Runtime.evaluate", expression=expression, returnByValue=True)
        return r.get("result", {}).get("value")

    def close(self) -> None:
        self._stack.close()


@contextlib.contextmanager
def served(db: Path, tmp_path: Path):
    """`liujia serve --db DB --port P` running on 127.0.0.1 until exit; yields the base URL."""
    port = _free_port()
    log = open(tmp_path / "serve.log", "wb")
    proc = subprocess.Popen(
        [sys.executable, "-m", "liujia", "serve", "--db", str(db), "--port", str(port)],
        stdout=log, stderr=subprocess.STDOUT, start_new_session=True,
        cwd=Path(__file__).resolve().parents[2])
    base = f"http://127.0.0.1:{port}"
    try:
        _wait(lambda: proc.poll() is not None or _get(f"{base}/_stcore/health") == b"ok",
              60, "the Streamlit server")
        assert proc.poll() is None, (tmp_path / "serve.log").read_text()
        yield base
    finally:
        _stop(proc)
        log.close()


@pytest.fixture
def server(tiny_db, tmp_path):
    """`liujia serve --db tiny.duckdb` on 127.0.0.1; yields the base URL."""
    with served(tiny_db, tmp_path) as base:
        yield base


@pytest.fixture
def browser(tmp_path):
    """Headless Chromium with DevTools on a local port; yields a DevTools client of its page."""
    exe = _browser()
    profile = tmp_path / "chromium-profile"
    proc = subprocess.Popen(
        [exe, *CHROME_FLAGS, f"--user-data-dir={profile}", "--remote-debugging-address=127.0.0.1",
         "--remote-debugging-port=0", "about:blank"],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
    client = None
    try:
        active = profile / "DevToolsActivePort"
        _wait(lambda: proc.poll() is not None or (active.is_file() and active.read_text()
                                                  .strip()), 30, "Chromium's DevTools port")
        assert proc.poll() is None, "Chromium exited at start"
        port = int(active.read_text().split()[0])
        targets = _wait(lambda: json.loads(_get(f"http://127.0.0.1:{port}/json/list") or "[]"),
                        15, "a page target")
        page = next(t for t in targets if t.get("type") == "page")
        client = DevTools(page["webSocketDebuggerUrl"])
        client.call("Page.enable")
        yield client
    finally:
        if client is not None:
            client.close()
        _stop(proc)


def _dom_state(tab: DevTools) -> dict:
    return tab.eval("""JSON.stringify({
        html: document.body ? document.body.innerHTML : '',
        text: document.body ? document.body.innerText : '',
        faces: [...document.querySelectorAll('[data-face]')].map(e => e.dataset.face),
        red: document.querySelectorAll('.lj-card.lj-red').length,
        now: [...document.querySelectorAll('tr.lj-now')].map(e => e.dataset.seq),
        url: location.href})""") or "{}"


def test_replay_page_in_chromium(server, browser, dash_games, tmp_path):
    game = dash_games[4]
    gid = game[0].game_id
    url = f"{server}/replay?game={gid}&step=40&view=2"
    browser.call("Page.navigate", url=url)

    def rendered():
        state = json.loads(_dom_state(browser))
        return state if gid in state.get("text", "") and state.get("faces") else None

    state = _wait(rendered, 90, f"the replay page of {gid} to render", step=0.5)
    text = state["text"]
    assert "Replay" in text
    assert "seat 2 (own cards only)" in text
    assert any(sym in text for sym in "♠♥♣♦"), "card faces with suit symbols"
    assert state["red"] > 0 or not any(f[-1] in "hd" or f == "RJ" for f in state["faces"])
    assert state["now"] == ["40"]
    shot = browser.call("Page.captureScreenshot", format="png")["data"]
    out = Path(os.environ.get(SCREENSHOT_ENV) or tmp_path / "replay.png")
    out.write_bytes(base64.b64decode(shot))

    # one step forward with the page's own button: the table, highlight and URL follow. The
    # click waits for Streamlit to be idle (a click during a rerun may be dropped) and is
    # repeated only while the page still shows step 40, so it never steps twice.
    def idle():
        return browser.eval("!document.querySelector('[data-testid=\"stStatusWidget\"]')")

    def stepped():
        s = json.loads(_dom_state(browser))
        return s if s.get("now") == ["41"] and "step=41" in s.get("url", "") else None

    state = None
    for _ in range(4):
        _wait(idle, 30, "Streamlit to finish running the page", step=0.25)
        if json.loads(_dom_state(browser)).get("now") == ["40"]:
            browser.eval("[...document.querySelectorAll('button')]"
                         ".find(b => b.innerText.includes('next') && !b.innerText.includes('game')).click()")
        try:
            state = _wait(stepped, 15, "the page to move to step 41", step=0.5)
            break
        except AssertionError:
            assert json.loads(_dom_state(browser)).get("now") in (["40"], ["41"])
    assert state is not None, "the page never moved to step 41"
    assert f"game={gid}" in state["url"] and "view=2" in state["url"]
