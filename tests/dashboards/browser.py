"""Shared helpers of the browser tests: `liujia serve` on a free port and headless Chromium
driven over the DevTools protocol (a websocket on 127.0.0.1).

Only 127.0.0.1 is contacted. ``chromium()`` skips the calling test, with the reason, when no
Chromium is installed. The ``browser`` fixture is a 1400×1800 window; ``chromium(tmp_path,
(w, h))`` opens one of another size.
"""

from __future__ import annotations

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
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, TypeVar

import pytest

T = TypeVar("T")

BROWSERS = ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable")
CHROME_FLAGS = ("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
                "--no-first-run", "--disable-background-networking",
                "--disable-component-update", "--disable-sync", "--disable-extensions",
                "--disable-default-apps", "--no-default-browser-check")
WINDOW = (1400, 1800)                        # the window of the ``browser`` fixture
SCREENSHOT_ENV = "LIUJIA_E2E_SCREENSHOT"     # save the page's screenshot there (optional)
ROOT = Path(__file__).resolve().parents[2]


def find_browser() -> str:
    """The path of an installed Chromium (or Chrome); skips the test when there is none."""
    for name in BROWSERS:
        path = shutil.which(name)
        if path:
            return path
    pytest.skip("no Chromium found: install Debian's `chromium` (apt-get install -y chromium) "
                "to run the browser end-to-end test")


def free_port() -> int:
    """A TCP port on 127.0.0.1 that is free right now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait(predicate: Callable[[], T], timeout: float, what: str, step: float = 0.25) -> T:
    """Poll ``predicate`` until it returns something true and return that; fail after
    ``timeout`` seconds naming ``what``."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = predicate()
        if value:
            return value
        time.sleep(step)
    raise AssertionError(f"timed out after {timeout:.0f} s waiting for {what}")


def wait_still(look: Callable[[], dict], ready: Callable[[dict], bool], timeout: float,
               what: str, still: float = 0.5, key: str = "seats") -> dict:
    """Look at the page every 0.1 s until it is ``ready`` and its ``key`` has been the same at
    every look for ``still`` seconds; return the last look. Fail after ``timeout`` seconds
    naming ``what``."""
    since: list[Any] = [0.0, None]           # the time from which every look saw since[1]

    def settled() -> dict:                   # {} (false) until then
        s = look()
        now = time.monotonic()
        if not ready(s) or s.get(key) != since[1]:
            since[:] = [now, s.get(key) if ready(s) else None]
            return {}
        return s if now - since[0] >= still else {}

    return wait(settled, timeout, what, step=0.1)


def http_get(url: str, timeout: float = 2.0) -> bytes | None:
    """The body at a local URL, or None when it cannot be fetched (yet)."""
    try:
        with urllib.request.urlopen(url, timeout=timeout) as r:   # 127.0.0.1 only
            return r.read()
    except OSError:
        return None


def stop(proc: subprocess.Popen) -> None:
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

    def call(self, method: str, **params: Any) -> dict:
        """Send one command and return its result (events in between are dropped)."""
        self.next_id += 1
        self.ws.send(json.dumps({"id": self.next_id, "method": method, "params": params}))
        while True:
            msg = json.loads(self.ws.recv(timeout=30))
            if msg.get("id") == self.next_id:
                if "error" in msg:
                    raise AssertionError(f"{method}: {msg['error']}")
                return msg.get("result", {})

    def eval(self, expression: str) -> Any:
        """The value of a JavaScript expression in the page (returned by value)."""
        r = self.call("Runtime.evaluate", expression=expression, returnByValue=True)
        return r.get("result", {}).get("value")

    def close(self) -> None:
        """Close the websocket."""
        self._stack.close()


@contextlib.contextmanager
def served(db: Path, tmp_path: Path) -> Iterator[str]:
    """`liujia serve --db DB --port P` running on 127.0.0.1 until exit; yields the base URL."""
    port = free_port()
    log = open(tmp_path / "serve.log", "wb")
    proc = subprocess.Popen(
        [sys.executable, "-m", "liujia", "serve", "--db", str(db), "--port", str(port)],
        stdout=log, stderr=subprocess.STDOUT, start_new_session=True, cwd=ROOT)
    base = f"http://127.0.0.1:{port}"
    try:
        wait(lambda: proc.poll() is not None or http_get(f"{base}/_stcore/health") == b"ok",
             60, "the Streamlit server")
        assert proc.poll() is None, (tmp_path / "serve.log").read_text()
        yield base
    finally:
        stop(proc)
        log.close()


@contextlib.contextmanager
def chromium(tmp_path: Path, window: tuple[int, int] = WINDOW) -> Iterator[DevTools]:
    """Headless Chromium with DevTools on a local port and a window of ``window`` (width,
    height) CSS pixels; yields a DevTools client of its page."""
    exe = find_browser()
    profile = tmp_path / "chromium-profile"
    proc = subprocess.Popen(
        [exe, *CHROME_FLAGS, f"--window-size={window[0]},{window[1]}",
         f"--user-data-dir={profile}", "--remote-debugging-address=127.0.0.1",
         "--remote-debugging-port=0", "about:blank"],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
    client = None
    try:
        active = profile / "DevToolsActivePort"
        wait(lambda: proc.poll() is not None or (active.is_file() and active.read_text()
                                                 .strip()), 30, "Chromium's DevTools port")
        assert proc.poll() is None, "Chromium exited at start"
        port = int(active.read_text().split()[0])
        targets = wait(lambda: json.loads(http_get(f"http://127.0.0.1:{port}/json/list") or "[]"),
                       15, "a page target")
        page = next(t for t in targets if t.get("type") == "page")
        client = DevTools(page["webSocketDebuggerUrl"])
        client.call("Page.enable")
        # the viewport exactly the window (a headless window has no browser frame around it)
        client.call("Emulation.setDeviceMetricsOverride", width=window[0], height=window[1],
                    deviceScaleFactor=1, mobile=False)
        yield client
    finally:
        if client is not None:
            client.close()
        stop(proc)


@pytest.fixture
def browser(tmp_path: Path) -> Iterator[DevTools]:
    """Headless Chromium (1400×1800) with DevTools on a local port; yields its page's client."""
    with chromium(tmp_path) as client:
        yield client
