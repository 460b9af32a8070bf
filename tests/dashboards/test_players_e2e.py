"""In Chromium: a player's profile (``/players?player=ID``) served by ``liujia serve`` draws
every chart — results over time, by seat, by side, and the tendencies of each game played.

A warehouse of the twenty 六人坑 games and the seven 够级 games; the player played both, so the
profile has five Vega-Lite charts (at seat 0, one game's tendencies fewer if he sat there in
one game only). Each must be drawn by vega-embed: a canvas (or svg) of
non-zero size holding the marks of its data (for a canvas, painted pixels) and, for an svg,
its title. Then a seat filter is chosen in the page
and the charts are drawn again. ``LIUJIA_E2E_SCREENSHOT=FILE`` keeps a screenshot.
"""

from __future__ import annotations

import base64
import json
import os
from pathlib import Path
from urllib.parse import quote

import pytest

from engine.log import write_log
from tests.dashboards.browser import SCREENSHOT_ENV, DevTools, browser, served, wait
from warehouse.db import reader

assert browser               # the fixture of tests/dashboards/browser.py, used below

TITLES = {"net score over time", "results over time", "results by seat", "results by side",
          "tendencies · keng", "tendencies · gouji"}

# Per chart: what vega-embed drew (an svg or a canvas), its size, the marks of the data
# (vega's role-mark groups: points, rules, ticks, lines; for a canvas, its painted pixels)
# and the title.
CHARTS_JS = """JSON.stringify({
  busy: !!document.querySelector('[data-testid="stStatusWidget"]'),
  errors: document.querySelectorAll('[data-testid="stException"]').length,
  text: document.body ? document.body.innerText : '',
  charts: [...document.querySelectorAll('[data-testid="stVegaLiteChart"]')].map(el => {
    const c = el.querySelector('canvas'), s = el.querySelector('svg.marks');
    const g = c || s, r = g ? g.getBoundingClientRect() : {width: 0, height: 0};
    let marks = 0;
    if (s) marks = s.querySelectorAll('.role-mark > *').length;
    else if (c && c.width && c.height) {
      const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
      for (let i = 3; i < d.length; i += 4) if (d[i]) marks++;
    }
    const title = el.querySelector('.role-title-text');
    return {kind: c ? 'canvas' : s ? 'svg' : null, width: r.width, height: r.height, marks,
            title: title ? title.textContent : null,
            embed: el.classList.contains('vega-embed') || !!el.querySelector('.vega-embed')};
  })})"""


@pytest.fixture(scope="module")
def both_games_db(tmp_path_factory, dash_games, gouji_games) -> Path:
    """A warehouse of the twenty 六人坑 and the seven 够级 games."""
    from ingest import ingest_paths

    root = tmp_path_factory.mktemp("players-e2e")
    (root / "logs").mkdir()
    write_log(root / "logs" / "keng.arrows", dash_games)
    write_log(root / "logs" / "gouji.arrows", gouji_games)
    db = root / "both.duckdb"
    assert ingest_paths([root / "logs"], db=db, progress=False, workers=1).loaded == 27
    return db


def _both_games_player(db: Path) -> str:
    with reader(db) as con:
        return con.sql("SELECT s.player_id FROM seats s JOIN games g USING (game_id) "
                       "GROUP BY 1 HAVING count(DISTINCT g.game) = 2 "
                       "ORDER BY count(*) DESC, 1 LIMIT 1").fetchall()[0][0]


def _state(tab: DevTools) -> dict:
    return json.loads(tab.eval(CHARTS_JS) or "{}")


def _drawn(tab: DevTools, titles: set[str]) -> dict | None:
    """The page state once it is idle with each of these charts drawn, else None."""
    s = _state(tab)
    charts = s.get("charts", [])
    ok = (not s.get("busy") and len(charts) == len(titles)
          and all(c["kind"] and c["width"] > 0 and c["height"] > 0 and c["marks"] > 0
                  for c in charts))
    return s if ok else None


def _assert_drawn(tab: DevTools, what: str, titles: set[str] = TITLES) -> dict:
    try:
        state = wait(lambda: _drawn(tab, titles), 90, what, step=0.5)
    except AssertionError:
        raise AssertionError(f"{what}: {_state(tab).get('charts')}") from None
    assert state["errors"] == 0
    assert all(c["embed"] for c in state["charts"])
    shown = [c["title"] for c in state["charts"]]
    if all(c["kind"] == "svg" for c in state["charts"]):     # a canvas holds no text
        assert set(shown) == titles, shown
    return state


def test_player_profile_charts_render(both_games_db, browser, tmp_path):
    player = _both_games_player(both_games_db)
    with served(both_games_db, tmp_path) as base:
        browser.call("Page.navigate", url=f"{base}/players?player={quote(player)}")
        state = _assert_drawn(browser, f"the six charts of {player}'s profile")
        text = state["text"]
        for heading in ("Results", "Tendencies", "Partnerships", "Games"):
            assert heading in text
        shot = browser.call("Page.captureScreenshot", format="png",
                            captureBeyondViewport=True)["data"]
        out = Path(os.environ.get(SCREENSHOT_ENV) or tmp_path / "players.png")
        out.write_bytes(base64.b64decode(shot))

        # a seat filter from the page itself: the profile is drawn again, charts and all
        seat = "document.querySelector('input[aria-label=\"Seat\"]')"
        _click(browser, seat)
        wait(lambda: browser.eval("[...document.querySelectorAll('[role=option]')]"
                                  ".some(o => o.innerText.trim() === 'seat 0')"),
             15, "the seat options")
        _click(browser, "[...document.querySelectorAll('[role=option]')]"
                        ".find(o => o.innerText.trim() === 'seat 0')")
        wait(lambda: browser.eval(f"{seat}.value") == "seat 0", 30, "the seat filter")
        with reader(both_games_db) as con:
            n, games = con.sql("SELECT count(*), list(DISTINCT game) FROM seats JOIN games "
                               "USING (game_id) WHERE player_id = ? AND seat = 0",
                               params=[player]).fetchall()[0]
        games_note = f"of the {n} games in these filters"
        wait(lambda: games_note in (browser.eval("document.body.innerText") or ""), 60,
             "the profile of seat 0")
        _assert_drawn(browser, "the charts under the seat filter",
                      {t for t in TITLES if not t.startswith("tendencies")}
                      | {f"tendencies · {g}" for g in games})


def _click(tab: DevTools, element_js: str) -> None:
    """A real mouse click (DevTools input events) in the middle of an element."""
    box = json.loads(tab.eval(f"(() => {{ const r = ({element_js}).getBoundingClientRect(); "
                              "return JSON.stringify([r.x + r.width / 2, r.y + r.height / 2]);"
                              " })()"))
    for kind in ("mousePressed", "mouseReleased"):
        tab.call("Input.dispatchMouseEvent", type=kind, x=box[0], y=box[1], button="left",
                 clickCount=1)
