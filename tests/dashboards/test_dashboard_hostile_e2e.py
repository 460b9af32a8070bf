"""End to end in Chromium: hostile ids in a warehouse and hostile links render as plain text
and make the browser fetch nothing. A listener on 127.0.0.1 stands in for the attacker's
server; every image and link of the hostile text points at it, and it must see no request."""

from __future__ import annotations

import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import quote

import pytest

from engine.events import seal_events
from engine.log import write_log
from tests.dashboards.test_dashboard_e2e import _wait, browser, served

__all__ = ["browser"]          # the Chromium fixture, shared with the replay test


@pytest.fixture
def listener():
    """An HTTP server on 127.0.0.1 recording every request it gets; yields (base, hits)."""
    hits: list[str] = []

    class Record(BaseHTTPRequestHandler):
        def do_GET(self):  # noqa: N802 (http.server's name)
            hits.append(self.path)
            self.send_response(200)
            self.send_header("Content-Type", "image/png")
            self.end_headers()

        def log_message(self, *args):
            pass

    srv = ThreadingHTTPServer(("127.0.0.1", 0), Record)
    thread = threading.Thread(target=srv.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{srv.server_address[1]}", hits
    finally:
        srv.shutdown()
        srv.server_close()


def _hostile(bait: str) -> tuple[str, str]:
    game = (f"g`x`![a]({bait}/game-md.png)<img src={bait}/game-html.png>"
            f"[link]({bait}/game-link)\u202egnp.exe")
    player = f"p`y`![b]({bait}/player-md.png)<img src='{bait}/player-html.png'>\x1b[2J"
    return game, player


@pytest.fixture
def hostile_server(tmp_path, dash_games, listener):
    """`liujia serve` over a warehouse someone sent, whose game id and player id hold
    Markdown, HTML and control characters pointing at the listener."""
    from ingest import ingest_paths

    bait, _ = listener
    game, player = _hostile(bait)
    events = dash_games[0]
    payload = json.loads(events[0].payload)
    payload["players"][0] = player
    start = events[0]._replace(payload=json.dumps(payload, sort_keys=True,
                                                  separators=(",", ":")))
    write_log(tmp_path / "sent.arrows",
              [seal_events([e._replace(game_id=game) for e in [start, *events[1:]]])])
    db = tmp_path / "sent.duckdb"
    with pytest.MonkeyPatch.context() as mp:      # as a liujia without the id check wrote it
        mp.setattr("engine.games.common.id_problem", lambda value: None)
        assert ingest_paths([tmp_path / "sent.arrows"], db=db, progress=False,
                            workers=1).loaded == 1
    with served(db, tmp_path) as base:
        yield base, game, player


def _page(tab, url: str, expect: str) -> dict:
    tab.call("Page.navigate", url=url)
    seen: list[dict] = [{}]

    def rendered():
        state = json.loads(tab.eval("""JSON.stringify({
            text: document.body ? document.body.innerText : '',
            imgs: [...document.querySelectorAll('img')].map(i => i.src),
            links: [...document.querySelectorAll('a')].map(a => a.href)})""") or "{}")
        seen[0] = state
        return state if expect in state.get("text", "") else None

    try:
        return _wait(rendered, 90, f"{url} to show {expect!r}", step=0.5)
    except AssertionError as exc:
        raise AssertionError(f"{exc}; the page shows: {seen[0].get('text', '')[:2000]!r}") \
            from None


def test_hostile_ids_and_links_render_as_text_and_fetch_nothing(hostile_server, browser,
                                                                  listener):
    base, game, player = hostile_server
    bait, hits = listener
    link_text = f"nope`![c]({bait}/link-md.png)<img src={bait}/link-html.png>"
    visits = [
        (f"{base}/replay?game={quote(game)}", "The engine cannot replay this game"),
        (f"{base}/replay?game={quote(link_text)}", f"Game {link_text} is not in the warehouse"),
        (f"{base}/players?player={quote(player)}", f"match {player[:10]}"),
        (f"{base}/players?player={quote(link_text)}", f"No game of player {link_text}"),
        (f"{base}/quarantine", "Quarantine"),
        (f"{base}/", "Recent games"),
    ]
    for url, expect in visits:
        state = _page(browser, url, expect)
        assert not [s for s in state["imgs"] if s.startswith(bait)], (url, state["imgs"])
        assert not [h for h in state["links"] if h.startswith(bait)], (url, state["links"])
    _page(browser, f"{base}/players?player={quote(player)}", "Games")
    assert hits == [], f"the browser fetched {hits} from the attacker's server"
