"""End to end: ``liujia serve`` on a free port, the replay page loaded in headless Chromium.

Chromium is driven over the DevTools protocol (a websocket on 127.0.0.1) so the test can wait
until Streamlit has rendered over its own websocket, then read the DOM and click a button.
Only 127.0.0.1 is contacted. Skipped, with the reason, when no Chromium is installed.
"""

from __future__ import annotations

import base64
import json
import os
from pathlib import Path

import pytest

from tests.dashboards.browser import SCREENSHOT_ENV, DevTools, browser, served
from tests.dashboards.browser import free_port as _free_port
from tests.dashboards.browser import http_get as _get
from tests.dashboards.browser import wait as _wait

# the shared helpers, also imported from here by the hostile-text and serve tests
__all__ = ["browser", "served", "_free_port", "_get", "_wait"]


@pytest.fixture
def server(tiny_db, tmp_path):
    """`liujia serve --db tiny.duckdb` on 127.0.0.1; yields the base URL."""
    with served(tiny_db, tmp_path) as base:
        yield base


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
        # the table and the event list arrive in separate deltas: wait for both
        return state if gid in state.get("text", "") and state.get("faces") \
            and state.get("now") else None

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
