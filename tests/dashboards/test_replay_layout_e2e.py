"""In Chromium at 1400×900: the replay page shows every seat of the table without scrolling,
and the keyboard steps through the game (← / → one event, Home / End the first / last).

A warehouse of 六人坑, 够级 (a session of seven) and 5-seat 摸到爽 games is served with
``liujia serve`` on 127.0.0.1; each replay link is opened at the step where the hands are
largest (the deal of a 够级 game: 33 cards a seat) and at the last step (outcomes, result), and
every seat box's ``getBoundingClientRect()`` must lie inside the first viewport.
``LIUJIA_E2E_LAYOUT_SHOTS=DIR`` keeps a screenshot of each page there.
"""

from __future__ import annotations

import base64
import json
import os
import time
from pathlib import Path

import pytest

from engine.games import find_game
from engine.log import write_log
from engine.replay import Replay
from engine.sim import simulate
from tests.dashboards.browser import DevTools, chromium, served, wait, wait_still

WIDTH, HEIGHT = 1400, 900
SHOTS_ENV = "LIUJIA_E2E_LAYOUT_SHOTS"

SEATS_JS = """JSON.stringify({
  w: innerWidth, h: innerHeight, y: scrollY, url: location.href,
  busy: !!document.querySelector('[data-testid="stStatusWidget"]'),
  now: [...document.querySelectorAll('tr.lj-now')].map(e => e.dataset.seq),
  head: (document.querySelector('.lj-perspective') || {}).innerText || '',
  seats: [...document.querySelectorAll('.lj-table [data-seat]')].map(e => {
    const r = e.getBoundingClientRect();
    return {seat: +e.dataset.seat, top: r.top, left: r.left, bottom: r.bottom,
            right: r.right, width: r.width, height: r.height};
  })})"""


def _mds5() -> list:
    """Two seeded 5-seat 摸到爽 games (sealed events)."""
    g = find_game("modaoshuang")
    return [x.events for x in simulate("modaoshuang", 2, seed=45,
                                       options=g.Options(mds_players=5))]


@pytest.fixture(scope="module")
def games(dash_games, gouji_games) -> dict[str, list]:
    """The games the test opens, by name."""
    return {"keng": dash_games, "gouji": gouji_games, "mds5": _mds5()}


@pytest.fixture(scope="module")
def base(tmp_path_factory, games):
    """`liujia serve` over a warehouse of those games; yields the base URL."""
    from ingest import ingest_paths

    root = tmp_path_factory.mktemp("layout-warehouse")
    for name, events in games.items():
        write_log(root / f"{name}.arrows", events)
    db = root / "layout.duckdb"
    summary = ingest_paths(sorted(root.glob("*.arrows")), db=db, progress=False)
    assert summary.quarantined == 0, summary
    with served(db, root) as url:
        yield url


@pytest.fixture(scope="module")
def page(tmp_path_factory):
    """Headless Chromium with a 1400×900 window."""
    with chromium(tmp_path_factory.mktemp("layout-browser"), (WIDTH, HEIGHT)) as client:
        yield client


def _largest_hands(events: list) -> int:
    """The step at which the auditor sees the most cards in the hands."""
    rp = Replay(events)
    return max(range(len(rp)), key=lambda s: sum(
        len(h) for h in rp.game.view(rp.state_at(s), None)["hands"]))


def _state(page: DevTools) -> dict:
    return json.loads(page.eval(SEATS_JS) or "{}")


def _open(page: DevTools, url: str, seats: int, seq: int) -> dict:
    """Open a replay link and wait until its table has settled (all seats drawn, Streamlit
    idle, the same boxes at every look for half a second)."""
    page.call("Page.navigate", url=url)

    def ready(s: dict) -> bool:
        return (len(s.get("seats", [])) == seats and not s["busy"]
                and f"after seq {seq}" in s["head"])

    return wait_still(lambda: _state(page), ready, 90, f"the table of {url}")


def _shot(page: DevTools, name: str) -> None:
    folder = os.environ.get(SHOTS_ENV)
    if folder:
        data = page.call("Page.captureScreenshot", format="png")["data"]
        Path(folder, f"{name}.png").write_bytes(base64.b64decode(data))


CASES = [("keng", 15, "start"), ("keng", 15, "largest"), ("keng", 15, "last"), ("gouji", 0, "largest"),
         ("gouji", 1, "last"), ("gouji", 2, "last"), ("gouji", 3, "largest"),
         ("gouji", 3, "last"), ("mds5", 0, "largest"), ("mds5", 1, "last")]


def _assert_in_view(s: dict, seats: int, where: str) -> None:
    """Every seat box drawn and entirely inside the 1400×900 viewport, the page unscrolled."""
    assert (s["w"], s["h"], s["y"]) == (WIDTH, HEIGHT, 0)
    assert sorted(b["seat"] for b in s["seats"]) == list(range(seats))
    for b in s["seats"]:
        assert b["width"] > 150 and b["height"] > 30, (where, b)     # drawn, not squeezed
        assert b["top"] >= 0 and b["left"] >= 0, (where, b)
        assert b["bottom"] <= HEIGHT and b["right"] <= WIDTH, (where, b)


@pytest.mark.parametrize(("name", "index", "when"), CASES)
def test_every_seat_is_in_the_first_viewport(base, page, games, name, index, when):
    events = games[name][index]
    gid = events[0].game_id
    seats = len(Replay(events).final.players)
    step = {"start": 0, "largest": _largest_hands(events), "last": len(events) - 1}[when]
    s = _open(page, f"{base}/replay?game={gid}&step={step}&view=auditor", seats, step)
    _shot(page, f"{name}-{index}-{when}")
    _assert_in_view(s, seats, f"{gid} step {step}")


FOLDS_JS = """JSON.stringify([...document.querySelectorAll('details.lj-fold')].map(d => ({
  open: d.open, height: d.getBoundingClientRect().height,
  summary: d.querySelector('summary').innerText,
  faces: d.querySelectorAll('.lj-fold-all [data-face]').length,
  shown: [...d.querySelectorAll('.lj-fold-all [data-face]')]
           .filter(e => e.checkVisibility()).length})))"""


def test_the_deck_is_folded_and_opens_on_a_click(base, page, games):
    events = games["keng"][15]
    gid, deck = events[0].game_id, len(events[0].cards)
    s = _open(page, f"{base}/replay?game={gid}&step=0&view=auditor", 6, 0)
    _assert_in_view(s, 6, "the deck at step 0")          # the deck no longer pushes it down
    folds = json.loads(page.eval(FOLDS_JS))
    assert len(folds) == 2, folds                # the current event's line and its list row
    for f in folds:
        assert not f["open"] and f["height"] < 50 and f"deck: {deck} cards" in f["summary"], f
        assert f["faces"] == deck and f["shown"] == 0, f      # all there, none drawn yet
    page.eval("document.querySelector('details.lj-fold > summary').click()")
    opened = wait(lambda: [f for f in json.loads(page.eval(FOLDS_JS)) if f["open"]], 10,
                  "the deck to open")
    assert opened[0]["shown"] == deck and opened[0]["height"] > 150, opened
    _shot(page, "keng-deck-open")


def _press(page: DevTools, key: str, code: int) -> None:
    """One key press on the page (nothing focused, as after a click on the table)."""
    page.eval("document.activeElement && document.activeElement.blur()")
    for kind in ("rawKeyDown", "keyUp"):
        page.call("Input.dispatchKeyEvent", type=kind, key=key, code=key,
                  windowsVirtualKeyCode=code, nativeVirtualKeyCode=code)


def _at_step(page: DevTools, gid: str, seq: int) -> dict | None:
    s = _state(page)
    ok = (s.get("now") == [str(seq)] and f"game={gid}" in s.get("url", "")
          and f"step={seq}&" in s.get("url", "") and not s.get("busy"))
    return s if ok else None


def _press_until(page: DevTools, gid: str, key: str, code: int, at: int, want: int) -> None:
    """Press the key and wait for step ``want``; press again (at most twice more) only while
    the page is idle and still at step ``at``: a press that reaches a page still busy binding
    its shortcuts (a loaded machine) is lost, never doubled — a second press would go past
    ``want`` and fail."""
    for attempt in range(3):
        _press(page, key, code)
        try:
            wait(lambda: _at_step(page, gid, want), 10 if attempt < 2 else 30,
                 f"{key} to reach step {want}")
            return
        except AssertionError:
            if attempt == 2 or (at != want and not _at_step(page, gid, at)):
                raise


def test_the_keyboard_steps_through_the_game(base, page, games):
    events = games["keng"][4]
    gid, last = events[0].game_id, len(events) - 1
    _open(page, f"{base}/replay?game={gid}&step=10&view=auditor", 6, 10)
    at = 10
    for key, code, want in (("ArrowRight", 39, 11), ("ArrowRight", 39, 12),
                            ("ArrowLeft", 37, 11), ("End", 35, last), ("Home", 36, 0),
                            ("ArrowLeft", 37, 0), ("ArrowRight", 39, 1)):
        _press_until(page, gid, key, code, at, want)
        at = want
    # the buttons say which key does what
    help_text = page.eval("[...document.querySelectorAll('button')].map(b => b.innerText)"
                          ".join(' | ')")
    for symbol in ("←", "→", "Home", "End"):
        assert symbol in help_text, help_text


def _quick(page: DevTools, keys: list[tuple[str, int]]) -> None:
    """Key presses sent back to back, none waiting for the page (nothing focused)."""
    page.eval("document.activeElement && document.activeElement.blur()")
    for key, code in keys:
        for kind in ("rawKeyDown", "keyUp"):
            page.call("Input.dispatchKeyEvent", type=kind, key=key, code=key,
                      windowsVirtualKeyCode=code, nativeVirtualKeyCode=code)


def _settles_at(page: DevTools, gid: str, want: int) -> None:
    """The page reaches step ``want`` and stays there (no press applied late or twice)."""
    try:
        wait(lambda: _at_step(page, gid, want), 60, f"step {want}")
    except AssertionError:
        q = page.eval("JSON.stringify(window.__ljSteps)")
        raise AssertionError(f"not at step {want}: {_state(page)} {q}") from None
    time.sleep(1.5)
    assert _at_step(page, gid, want), _state(page)


RIGHT, LEFT, HOME, END = ("ArrowRight", 39), ("ArrowLeft", 37), ("Home", 36), ("End", 35)


def test_quick_presses_all_count(base, page, games):
    """Ten quick → move exactly ten steps, though the page reruns meanwhile: the presses are
    queued and sent together (dashboards/steps.py); mixed keys apply in order."""
    events = games["keng"][4]
    gid, last = events[0].game_id, len(events) - 1
    _open(page, f"{base}/replay?game={gid}&step=10&view=auditor", 6, 10)
    wait(lambda: page.eval("!!(window.__ljSteps && window.__ljSteps.listening)"), 30,
         "the step keys' handler")
    _quick(page, [RIGHT] * 10)
    _settles_at(page, gid, 20)
    _quick(page, [LEFT] * 7)
    _settles_at(page, gid, 13)
    _quick(page, [END, LEFT, LEFT, LEFT])
    _settles_at(page, gid, last - 3)
    _quick(page, [HOME, LEFT, RIGHT, RIGHT, RIGHT])     # ← at the first step stays there
    _settles_at(page, gid, 3)


COPY_JS = "(document.querySelector('.lj-copy') || {dataset: {}}).dataset"


def test_copy_link_copies_this_moment(base, page, games):
    """'copy link' copies the page's address with game, step and view; opened, it shows the
    same moment from the same perspective."""
    events = games["keng"][6]
    gid = events[0].game_id
    page.call("Browser.grantPermissions", origin=base,
              permissions=["clipboardReadWrite", "clipboardSanitizedWrite"])
    _open(page, f"{base}/replay?game={gid}&step=12&view=3", 6, 12)
    box = wait(lambda: page.eval("(() => { const b = document.querySelector('.lj-copy');"
                                 " if (!b || !b.dataset.url) return null;"
                                 " const r = b.getBoundingClientRect();"
                                 " return {x: r.left + r.width / 2, y: r.top + r.height / 2,"
                                 " bottom: r.bottom}; })()"), 30, "the copy-link button")
    assert box["bottom"] <= HEIGHT                      # in the first viewport
    for kind in ("mousePressed", "mouseReleased"):
        page.call("Input.dispatchMouseEvent", type=kind, x=box["x"], y=box["y"],
                  button="left", clickCount=1)
    url = wait(lambda: page.eval(f"{COPY_JS}.copied"), 10, "the link to be copied")
    assert url == page.eval(f"{COPY_JS}.url")
    assert url.startswith(f"{base}/replay?") and f"game={gid}" in url, url
    assert "step=12" in url and "view=3" in url, url
    clip = page.call("Runtime.evaluate", expression="navigator.clipboard.readText()",
                     awaitPromise=True, returnByValue=True).get("result", {}).get("value")
    assert clip in (None, url), clip          # when headless Chromium lets the page read it
    page.call("Page.navigate", url="about:blank")
    s = _open(page, url, 6, 12)
    assert s["now"] == ["12"] and "view: seat 3 (own cards only)" in s["head"], s


def test_keys_work_after_a_click_on_a_button(base, page, games):
    """A step button keeps the focus once clicked; the keys still step (a text box does not
    take them: typing ← there moves the caret, not the game)."""
    events = games["keng"][4]
    gid = events[0].game_id
    _open(page, f"{base}/replay?game={gid}&step=10&view=auditor", 6, 10)
    wait(lambda: page.eval("!!(window.__ljSteps && window.__ljSteps.listening)"), 30,
         "the step keys' handler")
    page.eval("[...document.querySelectorAll('button')].find(b => b.innerText.trim().startsWith('next →'))"
              ".focus()")
    for kind in ("rawKeyDown", "keyUp"):
        page.call("Input.dispatchKeyEvent", type=kind, key="ArrowRight", code="ArrowRight",
                  windowsVirtualKeyCode=39, nativeVirtualKeyCode=39)
    _settles_at(page, gid, 11)
    page.eval("document.querySelector('input[type=text], input:not([type])').focus()")
    for kind in ("rawKeyDown", "keyUp"):
        page.call("Input.dispatchKeyEvent", type=kind, key="ArrowRight", code="ArrowRight",
                  windowsVirtualKeyCode=39, nativeVirtualKeyCode=39)
    _settles_at(page, gid, 11)
