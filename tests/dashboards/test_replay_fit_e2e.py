"""In Chromium at 1400×900: at the end of a game of every registered game (each of its demo
option sets), from the auditor's view and from every seat's, the replay page shows every seat
of the table without scrolling — the viewer's own seat too, drawn at the bottom.

For each game and option set a few seeded games (the demo's policy) are simulated and the one
whose final table is the largest (the auditor's HTML) is served with ``liujia serve``; each
perspective's replay link is opened at its last step and every seat box's
``getBoundingClientRect()`` must lie inside the first viewport. The auditor's link is loaded
as a new page; the seats' links then replace it in the same tab as the browser's history
buttons do (the session reruns with the link's query), which spares Chromium booting the app
again for every seat (about 2 s of CPU a page). ``LIUJIA_E2E_FIT_SHOTS=DIR``
keeps a screenshot of each page there and ``LIUJIA_E2E_FIT_REPORT=FILE`` appends each page's
viewer-seat box (one JSON line per page).
"""

from __future__ import annotations

import base64
import json
import os
from pathlib import Path

import pytest

from dashboards.table import table_html
from engine.games import GAMES, find_game
from engine.log import write_log
from engine.replay import Replay
from engine.sim import simulate
from tests.dashboards.browser import DevTools, chromium, served, wait_still

WIDTH, HEIGHT = 1400, 900
SHOTS_ENV, REPORT_ENV = "LIUJIA_E2E_FIT_SHOTS", "LIUJIA_E2E_FIT_REPORT"
TRIES = 4            # seeded games per game and option set; the largest final table is kept

SEATS_JS = """JSON.stringify({
  w: innerWidth, h: innerHeight, y: scrollY, url: location.href,
  busy: !!document.querySelector('[data-testid="stStatusWidget"]'),
  foot: (document.querySelector('.lj-perspective') || {}).innerText || '',
  seats: [...document.querySelectorAll('.lj-table [data-seat]')].map(e => {
    const r = e.getBoundingClientRect();
    return {seat: +e.dataset.seat, me: e.classList.contains('lj-me'), top: r.top,
            left: r.left, bottom: r.bottom, right: r.right, width: r.width,
            height: r.height};
  })})"""


def _configs() -> list[tuple[str, int, dict]]:
    """(game, option set index, option set) of every registered game's demo option sets."""
    out = []
    for game in GAMES:
        sets = find_game(game).DEMO.get("option_sets") or [{}]
        out += [(game, i, dict(s)) for i, s in enumerate(sets)]
    return out


CONFIGS = _configs()


def _largest_final(game: str, options: dict, seed: int) -> list:
    """Of TRIES seeded games, the one whose final table (the auditor's) is the largest."""
    g = find_game(game)
    opts = g.Options(**options) if options else None
    sims = [s.events for s in simulate(game, TRIES, seed=seed, options=opts,
                                       policy_name=str(g.DEMO.get("policy", "random")))]

    def size(events: list) -> int:
        rp = Replay(events)
        return len(table_html(game, rp.game.view(rp.final, None), rp.final.players,
                              style=False))

    return max(sims, key=size)


@pytest.fixture(scope="module")
def games() -> dict[tuple[str, int], list]:
    """The largest-ending seeded game of each game and option set."""
    return {(game, i): _largest_final(game, options, 70 + i)
            for game, i, options in CONFIGS}


@pytest.fixture(scope="module")
def base(tmp_path_factory, games):
    """`liujia serve` over a warehouse of those games; yields the base URL."""
    from ingest import ingest_paths

    root = tmp_path_factory.mktemp("fit-warehouse")
    for (game, i), events in games.items():
        write_log(root / f"{game}-{i}.arrows", [events])
    db = root / "fit.duckdb"
    summary = ingest_paths(sorted(root.glob("*.arrows")), db=db, progress=False)
    assert summary.quarantined == 0, summary
    with served(db, root) as url:
        yield url


@pytest.fixture(scope="module")
def page(tmp_path_factory):
    """Headless Chromium with a 1400×900 window."""
    with chromium(tmp_path_factory.mktemp("fit-browser"), (WIDTH, HEIGHT)) as client:
        yield client


def _state(page: DevTools) -> dict:
    return json.loads(page.eval(SEATS_JS) or "{}")


def open_settled(page: DevTools, url: str, seats: int, view: str, *, fresh: bool = True) -> dict:
    """Open a replay link and wait until its table has settled (all seats drawn from this
    perspective, Streamlit idle, the same boxes at every look for half a second).

    ``fresh`` loads the link as a new page (a new Streamlit session); otherwise the tab's
    address changes as the browser's back and forward buttons change it (history entry and
    ``popstate``) and the open session reruns with the link's query."""
    if fresh:
        page.call("Page.navigate", url=url)
    else:
        page.eval(f"history.pushState(null, '', {json.dumps(url)});"
                  " dispatchEvent(new PopStateEvent('popstate'))")
    who = "auditor" if view == "auditor" else f"seat {view} "

    def ready(s: dict) -> bool:
        return (len(s.get("seats", [])) == seats and not s["busy"] and who in s["foot"]
                and s["url"] == url)

    return wait_still(lambda: _state(page), ready, 90, f"the table of {url}")


def _keep(page: DevTools, name: str, s: dict, view: str) -> None:
    folder = os.environ.get(SHOTS_ENV)
    if folder:
        data = page.call("Page.captureScreenshot", format="png")["data"]
        Path(folder, f"{name}.png").write_bytes(base64.b64decode(data))
    report = os.environ.get(REPORT_ENV)
    if report:
        me = 0 if view == "auditor" else int(view)
        box = next(b for b in s["seats"] if b["seat"] == me)
        with open(report, "a", encoding="utf-8") as f:
            f.write(json.dumps({"page": name, "viewer_top": round(box["top"]),
                                "viewer_bottom": round(box["bottom"]),
                                "lowest": round(max(b["bottom"] for b in s["seats"]))}) + "\n")


@pytest.mark.parametrize(("game", "index"), [(g, i) for g, i, _ in CONFIGS])
def test_every_perspective_fits_at_the_end(base, page, games, game, index):
    events = games[(game, index)]
    gid = events[0].game_id
    seats = len(Replay(events).final.players)
    last = len(events) - 1
    wrong = []
    for view in ["auditor", *map(str, range(seats))]:
        s = open_settled(page, f"{base}/replay?game={gid}&step={last}&view={view}", seats,
                         view, fresh=view == "auditor")
        _keep(page, f"{game}-{index}-{view}", s, view)
        wrong += [f"view {view}: {w}" for w in out_of_view(s, seats, view)]
    assert not wrong, (gid, wrong)


def out_of_view(s: dict, seats: int, view: str) -> list[str]:
    """What is wrong with a settled page: not 1400×900 or scrolled, a seat missing, the
    viewer not the marked seat, a seat box squeezed or not entirely in the viewport."""
    wrong = []
    if (s["w"], s["h"], s["y"]) != (WIDTH, HEIGHT, 0):
        wrong.append(f"window {s['w']}×{s['h']} scrolled to {s['y']}")
    if sorted(b["seat"] for b in s["seats"]) != list(range(seats)):
        wrong.append(f"seats drawn: {[b['seat'] for b in s['seats']]}")
    if view != "auditor" and [b["seat"] for b in s["seats"] if b["me"]] != [int(view)]:
        wrong.append("the viewer's seat is not marked as such")
    for b in s["seats"]:
        if b["width"] <= 150 or b["height"] <= 30:
            wrong.append(f"seat {b['seat']} squeezed to {b['width']:.0f}×{b['height']:.0f}")
        if b["top"] < 0 or b["left"] < 0 or b["bottom"] > HEIGHT or b["right"] > WIDTH:
            wrong.append(f"seat {b['seat']} at {b['left']:.0f},{b['top']:.0f}–"
                         f"{b['right']:.0f},{b['bottom']:.0f}, outside {WIDTH}×{HEIGHT}")
    return wrong
