"""In Chromium: the card table of every registered game, as the auditor and as a seat, at the
step with the largest hands and at the last step, is drawn without anything spilling over.

Each table (``dashboards.table.table_html``, the one HTML renderer over the game's table model)
is written into a page with the shipped CJK font and opened in headless Chromium at 1400×1100.
Then, from the boxes the browser laid out: every seat panel is drawn (not squeezed) inside the
window, no two seat panels and no panel and the centre overlap, every card, card back, badge
and line lies inside its seat panel or the centre (a centre capped in height scrolls: inside
its scrolled height), and nothing needs a horizontal scroll bar.
``LIUJIA_E2E_TABLE_SHOTS=DIR`` keeps a screenshot of each picture there (named
``<game>-<step>-<perspective>.png``), for comparing versions by eye.
"""

from __future__ import annotations

import base64
import json
import os
from pathlib import Path

import pytest

from dashboards.table import table_html
from dashboards.ui import font_css
from engine.games import GAMES, find_game
from engine.replay import Replay
from engine.sim import simulate
from tests.dashboards.browser import DevTools, chromium, wait
from tests.options import options_for

WIDTH, HEIGHT = 1400, 1100
SHOTS_ENV = "LIUJIA_E2E_TABLE_SHOTS"
SEED = 7
SLACK = 1.5          # CSS pixels of rounding allowed at a box's edge

BOXES_JS = """(() => {
  const box = e => { const r = e.getBoundingClientRect();
    return {top: r.top, left: r.left, bottom: r.bottom, right: r.right,
            width: r.width, height: r.height}; };
  const inner = sel => c => [...c.querySelectorAll(sel)].map(e => ({
    what: e.className + ' ' + (e.innerText || '').slice(0, 40), ...box(e)}));
  const parts = '.lj-card, .lj-back, .lj-badge, .lj-info, .lj-pending, .lj-top, .lj-box, ' +
                '.lj-group, .lj-seatnote, .lj-flags, .lj-grid, .lj-outcome';
  const holders = [...document.querySelectorAll('.lj-table > [data-seat], .lj-centre')];
  return JSON.stringify({
    ready: document.readyState === 'complete' && document.fonts.status === 'loaded',
    w: innerWidth, foot: (document.querySelector('.lj-perspective') || {}).innerText || '',
    holders: holders.map(c => ({name: c.dataset.seat === undefined ? 'centre' : 'seat ' +
      c.dataset.seat, scroll: c.scrollWidth - c.clientWidth,
      vscroll: getComputedStyle(c).overflowY === 'auto' ? c.scrollHeight - c.clientHeight : 0,
      ...box(c), parts: inner(parts)(c)}))
  });
})()"""


def _step_of_largest_hands(rp: Replay) -> int:
    """The step at which the auditor sees the most cards in the hands."""
    def cards(step: int) -> int:
        hands = rp.game.view(rp.state_at(step), None).get("hands") or []
        return sum(len(h) for h in hands if isinstance(h, list))
    return max(range(len(rp)), key=cards)


@pytest.fixture(scope="module")
def page(tmp_path_factory):
    """Headless Chromium with a 1400×1100 window."""
    with chromium(tmp_path_factory.mktemp("pictures-browser"), (WIDTH, HEIGHT)) as client:
        yield client


@pytest.fixture(scope="module")
def replays() -> dict[str, Replay]:
    """One seeded game of every registered game id."""
    return {gid: Replay(next(iter(simulate(gid, 1, seed=SEED, options=options_for(gid))))
                        .events) for gid in sorted(GAMES)}


def _overlap(a: dict, b: dict) -> float:
    w = min(a["right"], b["right"]) - max(a["left"], b["left"])
    h = min(a["bottom"], b["bottom"]) - max(a["top"], b["top"])
    return max(0.0, w) * max(0.0, h)


def _inside(part: dict, holder: dict) -> bool:
    """The part lies inside the holder — for a holder that scrolls vertically (the centre,
    capped so that the viewer's seat stays in a 1400×900 window), inside its scrolled
    height."""
    bottom = holder["bottom"] + max(0.0, holder.get("vscroll", 0))
    return (part["left"] >= holder["left"] - SLACK and part["right"] <= holder["right"] + SLACK
            and part["top"] >= holder["top"] - SLACK
            and part["bottom"] <= bottom + SLACK)


def _open(page: DevTools, path: Path) -> dict:
    page.call("Page.navigate", url=path.as_uri())
    return wait(lambda: (lambda s: s if s.get("ready") and s.get("holders") else None)(
        json.loads(page.eval(BOXES_JS) or "{}")), 30, f"the picture {path.name}")


def _shot(page: DevTools, name: str) -> None:
    folder = os.environ.get(SHOTS_ENV)
    if folder:
        data = page.call("Page.captureScreenshot", format="png")["data"]
        Path(folder, f"{name}.png").write_bytes(base64.b64decode(data))


def _check(boxes: dict, seats: int, where: str) -> None:
    holders = boxes["holders"]
    panels = [h for h in holders if h["name"] != "centre"]
    assert len(panels) == seats and len(holders) == seats + 1, where
    for h in holders:
        assert h["scroll"] <= 0, (where, h["name"], "needs a horizontal scroll bar")
        for p in h["parts"]:
            assert _inside(p, h), (where, h["name"], "spills over", p)
    for p in panels:
        assert p["width"] > 150 and p["height"] > 30, (where, p["name"], "squeezed")
        assert p["left"] >= 0 and p["right"] <= boxes["w"], (where, p["name"], "off the page")
    for i, a in enumerate(holders):
        for b in holders[i + 1:]:
            assert _overlap(a, b) <= SLACK * 10, (where, a["name"], b["name"], "overlap")


@pytest.mark.parametrize("when", ["largest", "last"])
@pytest.mark.parametrize("who", ["auditor", "seat1"])
@pytest.mark.parametrize("gid", sorted(GAMES))
def test_each_table_is_drawn_without_spilling(page, replays, tmp_path, gid, who, when):
    rp = replays[gid]
    step = _step_of_largest_hands(rp) if when == "largest" else len(rp) - 1
    state = rp.state_at(step)
    seat = None if who == "auditor" else 1
    body = table_html(gid, find_game(gid).view(state, seat), list(state.players))
    html = (f"<!doctype html><html><head><meta charset=utf-8>{font_css()}<style>body"
            f"{{margin:8px;background:#fff}}</style></head><body>{body}</body></html>")
    path = tmp_path / f"{gid}-{when}-{who}.html"
    path.write_text(html, encoding="utf-8")
    boxes = _open(page, path)
    _shot(page, path.stem)
    want = "auditor (all cards)" if seat is None else "seat 1 (own cards only)"
    assert want in boxes["foot"]
    if seat is None:                 # a seat counts only the events it saw (LH-70)
        assert f"after seq {step}" in boxes["foot"]
    _check(boxes, len(state.players), f"{gid} step {step} {who}")
