"""Tables of any seat count (3, 4, 5, 6), sides and outcomes from the view, the table registry
derived from the game registry, 摸到爽 (3–5 seats) in the table and on the replay page, draws
on the players page, and untrusted text (game and player ids holding Markdown) shown as plain
text."""

from __future__ import annotations

import json
import re
from html import escape, unescape
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from dashboards import table
from dashboards.events import event_rows
from dashboards.table import SEAT_AREAS, model_html, table_html
from dashboards.ui import outcome_label, result_label
from engine.cards import parse_face, pretty_face
from engine.events import seal_events
from engine.games import find_game
from engine.log import write_log
from engine.replay import Replay
from engine.sim import simulate

APP = str(Path(__file__).resolve().parents[2] / "dashboards" / "app.py")
EVIL_GAME = "keng-`x`-![x](http://127.0.0.1:9/a.png)-[link](http://evil)"
EVIL_PLAYER = "p-`y`-![y](http://127.0.0.1:9/b.png)-[link](http://evil)"


def _panel(html: str, seat: int) -> str:
    start = html.index(f'data-seat="{seat}"')
    ends = [i for i in (html.find('data-seat="', start + 10), html.find("lj-centre", start))
            if i >= 0]
    return html[start:min(ends)]


def _fake_view(n: int, perspective: int | str = "auditor", **extra) -> dict:
    """A view with only the common keys, for n seats."""
    view = {
        "game": "fake", "game_id": "fake-1", "seq": 5, "phase": "play",
        "players": [f"p{i}" for i in range(n)], "perspective": perspective,
        "hands": [["As", "Kh"] if perspective in ("auditor", i) else 2 for i in range(n)],
        "to_act": 1, "sides": [None] * n, "outcomes": None,
    }
    view.update(extra)
    return view


# ---------------------------------------------------------------- layout for 3-6 seats

@pytest.mark.parametrize("n", [3, 4, 5, 6])
def test_layout_for_each_seat_count(n):
    for viewer in ("auditor", *range(n)):
        html = table_html("fake", _fake_view(n, viewer))
        assert f'class="lj-table lj-n{n}" data-seats="{n}"' in html
        assert html.count('data-seat="') == n
        bottom = 0 if viewer == "auditor" else viewer
        areas = SEAT_AREAS[n]
        assert len(set(areas)) == n and areas[0] == "bottom"
        for k in range(n):           # the k-th seat after the bottom one, counter-clockwise
            seat = (bottom + k) % n
            assert f'style="grid-area:{areas[k]}"' in _panel(html, seat), (n, viewer, k)
        # every area the seats use is laid out by the CSS of this seat count
        css = re.search(rf"\.lj-table\.lj-n{n}\{{grid-template-areas:([^}}]*)\}}",
                        table.TABLE_CSS).group(1)
        assert all(a in css for a in areas) and "centre" in css
        if viewer != "auditor":
            panel = _panel(html, viewer)
            assert "lj-me" in panel and panel.count('class="lj-card') == 2
            assert all("lj-back" in _panel(html, s) for s in range(n) if s != viewer)
    assert "▶ seat 1 " in _panel(table_html("fake", _fake_view(n)), 1)


def test_more_seats_than_the_named_places_flow_under_the_centre():
    html = table_html("fake", _fake_view(8))
    assert 'class="lj-table lj-flow" data-seats="8"' in html and html.count('data-seat="') == 8


def test_sides_are_shown_only_when_the_view_gives_them():
    html = table_html("fake", _fake_view(4))
    assert "data-side" not in html and "lj-side" not in html.split("</style>")[1]
    html = table_html("fake", _fake_view(4, sides=["north", None, "north", None]))
    assert 'data-side="north"' in _panel(html, 0) and 'data-side="north"' in _panel(html, 2)
    assert "data-side" not in _panel(html, 1) and "data-side" not in _panel(html, 3)


def test_outcome_markers_place_and_score():
    outcomes = [{"place": 1, "score": 6, "result": "win"},
                {"place": 2, "score": -1, "result": "loss"},
                {"place": None, "score": 0, "result": "draw"}]
    html = table_html("fake", _fake_view(3, outcomes=outcomes, to_act=None, phase="over"))
    p0, p1, p2 = (_panel(html, s) for s in range(3))
    assert "lj-won" in p0 and 'data-result="win"' in p0 and "won · place 1 · score +6" in p0
    assert "lj-lost" in p1 and "lost · place 2 · score −1" in p1
    assert "lj-drew" in p2 and "drew · score 0" in p2 and "place" not in p2
    assert "game over: seat 0 (p0) won" in html
    assert "to act" not in html


def test_a_draw_is_a_draw():
    outcomes = [{"place": None, "score": 0, "result": "draw"}] * 4
    html = table_html("fake", _fake_view(4, outcomes=outcomes, sides=["even", "odd"] * 2),
                              style=False)
    assert "game over: draw" in html and html.count('data-result="draw"') == 4
    assert "lost" not in html and "no result" not in html
    won = [{"place": None, "score": 1, "result": r} for r in ("win", "loss", "win", "loss")]
    html = table_html("fake", _fake_view(4, outcomes=won, sides=["even", "odd"] * 2))
    assert "game over: even won" in html


def test_warehouse_result_labels():
    assert result_label("even", [0, 2, 4]) == "even won"
    assert result_label(None, []) == "draw"
    assert result_label(None, [2], ["a", "b", "player-07"]) == "seat 2 (player-07) won"
    assert result_label(None, [1, 3]) == "seats 1, 3 won"
    assert result_label(None, None) == ""
    assert [outcome_label(x) for x in ("odd", "draw", "player", None)] == [
        "odd won", "draw", "a player won", "no result"]


# ---------------------------------------------------------------- the table registry

def test_the_table_follows_the_game_registry():
    from engine import games

    view = _fake_view(6)
    generic_html = table_html("no-such-game", view)
    assert "phase: &quot;play&quot;" in generic_html                # the generic table: the view's keys
    keng = games.find_game("keng")                     # a registered id: its game's table
    assert table_html("keng", view) == model_html(keng.table(view, None))
    assert table_html("keng", view) != generic_html
    assert "snatch (抢) window" in table_html("keng", view)


# ---------------------------------------------------------------- 摸到爽

def _suit_span(letter: str) -> str:
    """A suit as the table draws it: its symbol, red for hearts and diamonds."""
    symbol = {"s": "♠", "h": "♥", "c": "♣", "d": "♦"}[letter]
    name = {"s": "spades", "h": "hearts", "c": "clubs", "d": "diamonds"}[letter]
    cls = "lj-suit-red" if letter in "hd" else "lj-suit"
    return f'<span class="{cls}" title="{name}">{symbol}</span>'


@pytest.fixture(scope="module")
def mds_games():
    """Seeded 摸到爽 games with 3, 4 and 5 players (two each)."""
    g = find_game("modaoshuang")
    out = []
    for n in (3, 4, 5):
        out += [x.events for x in simulate("modaoshuang", 2, seed=40 + n,
                                           options=g.Options(mds_players=n))]
    return out


def test_modaoshuang_has_its_table_module():
    from engine.games import modaoshuang as mds

    g = find_game("modaoshuang")
    assert g.table is mds.table and g.describe is mds.describe
    assert g.table.__module__ == g.describe.__module__ == "engine.games.modaoshuang.table"
    (sim,) = simulate("modaoshuang", 1, seed=3, options=g.Options(mds_players=4))
    rp = Replay(sim.events)
    for viewer in (None, 1):
        view = g.view(rp.state_at(20), viewer)
        assert table_html("modaoshuang", view, rp.final.players) == model_html(
            mds.table(view, rp.final.players))
    sd = g.view(rp.state_at(20), None)["suit_draw"]        # a seat that did not draw the suit
    other = (sd["drawer"] + 1) % 4                        # sees the suit, not the cards drawn
    html = table_html("modaoshuang", g.view(rp.state_at(20), other), rp.final.players)
    assert (f'<div class="lj-info">round 1 suit {_suit_span(sd["suit"])} drawn by seat '
            f'{sd["drawer"]}</div>') in html                 # the suit in its colour
    html = table_html("modaoshuang", g.view(rp.state_at(20), None), rp.final.players)
    assert f"drawn by seat {sd['drawer']} (" in html and sd["cards"]


def test_modaoshuang_tables_from_every_perspective(mds_games):
    seen = set()
    for events in mds_games:
        rp = Replay(events)
        n = len(rp.final.players)
        for step in range(0, len(rp), 3):
            s = rp.state_at(step)
            for viewer in (None, *range(n)):
                v = rp.game.view(s, viewer)
                html = table_html("modaoshuang", v, s.players)
                assert f"lj-n{n}" in html and html.count('data-seat="') == n
                assert "data-side" not in html                    # no sides in 摸到爽
                for seat in range(n):
                    panel = _panel(html, seat)
                    if viewer is None or viewer == seat:
                        assert panel.count('class="lj-card') == len(s.hands[seat])
                    else:
                        assert 'class="lj-card' not in panel and "lj-back" in panel
                        assert f"× {len(s.hands[seat])}" in panel
                if v["to_act"] is not None:
                    assert f"▶ seat {v['to_act']} " in _panel(html, v["to_act"])
                r = v["round"]
                if r["suit"] and v["phase"] == "play":
                    seen.add("suit")
                    assert f"round {r['number']} · suit {_suit_span(r['suit'])} · " in html
                if r["plays"] and v["phase"] == "play":
                    seen.add("plays")
                    played = pretty_face(parse_face(r["plays"][0]["card"]))
                    assert f"played {played} this round" in _panel(html, r["plays"][0]["seat"])
                    for p in r["plays"]:                   # each card with its seat beside it
                        assert (f'<span class="lj-small">seat {p["seat"]}</span> '
                                f'<span class="lj-card') in html
                if v["shoudaoshuang"]:
                    seen.add("shou")
                    assert "收到爽 phase" in html
                else:
                    assert f"stock {v['stock_size']}" in html
                if v["report"]:
                    seen.add("report")
                    assert f"must announce {v['report']['count']} cards left" in html
                if v["penalty"]:
                    seen.add("penalty")
                    assert "penalty in progress" in html
        final = rp.game.view(rp.final, 0)
        html = table_html("modaoshuang", final, rp.final.players)
        winner = final["result"]["winner"]
        assert f"game over: seat {winner} ({rp.final.players[winner]}) won" in html
        assert "won · place 1" in _panel(html, winner)
        for seat in range(n):
            if seat != winner:
                assert 'data-result="loss"' in _panel(html, seat)
                pay = final["result"]["payments"][seat]
                assert f"score {-pay:+d}".replace("-", "−").replace("+0", "0") in html
        if final["result"]["dianpao"] is not None:
            seen.add("dianpao")
            assert "点炮 (fed the winner)" in _panel(html, final["result"]["dianpao"])
    assert {"suit", "plays", "shou", "report", "penalty"} <= seen, seen


def test_modaoshuang_event_details_hide_what_a_draw_reveals(mds_games):
    describe = find_game("modaoshuang").describe
    assert describe is not None and table.describer("modaoshuang") is describe
    start = mds_games[0][0]
    assert describe(start).startswith("摸到爽, 3 players, first leader seat ")
    kinds = set()
    for events in mds_games:
        players = Replay(events).final.players
        for r in event_rows(events, 1, players):
            kinds.add(r["kind"])
            assert r["detail"] is not None and "value" not in r["detail"]
            if r["kind"] == "DRAW":
                assert r["detail"] in ("draws a card", "penalty draw")
            if r["kind"] == "GAME_END":
                assert " wins" in r["detail"] and "scores" in r["detail"]
    assert {"DEAL", "SUIT_DRAW", "PLAY", "DRAW", "ROUND_END", "REPORT", "GAME_END"} <= kinds


# ---------------------------------------------------------------- pages

def _page(page: str, **query: str) -> AppTest:
    at = AppTest.from_file(APP, default_timeout=60)
    at.query_params.update(query)
    at.run()
    if page != "overview":
        at.switch_page(f"views/{page}.py").run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def _markdown_texts(at: AppTest) -> list[str]:
    """Every text Streamlit renders as Markdown on the page."""
    parts = [m.value for m in at.markdown] + [c.value for c in at.caption]
    parts += [w.value for w in at.warning] + [i.value for i in at.info] + [e.value for e in at.error]
    parts += [s.value for s in at.subheader] + [t.value for t in at.title]
    return [str(p) for p in parts]


def _notes(at: AppTest) -> str:
    return "\n".join(h.proto.body for h in at.html if "lj-note" in h.proto.body)


@pytest.fixture(scope="module")
def mds_db(tmp_path_factory, mds_games):
    from ingest import ingest_paths

    root = tmp_path_factory.mktemp("mds-warehouse")
    write_log(root / "mds.arrows", mds_games)
    db = root / "mds.duckdb"
    summary = ingest_paths([root / "mds.arrows"], db=db, progress=False)
    assert summary.loaded == len(mds_games) and summary.quarantined == 0, summary
    return db


def test_replay_page_with_three_four_and_five_seats(mds_db, mds_games, monkeypatch):
    monkeypatch.setenv("LIUJIA_DB", str(mds_db))
    for events in mds_games[::2]:
        rp = Replay(events)
        n = len(rp.final.players)
        gid = events[0].game_id
        at = _page("replay", game=gid, step=str(len(events) - 1), view=str(n - 1))
        assert at.selectbox(key="rp_view").options == ["auditor (all cards)"] + [
            f"seat {i} · {p}" for i, p in enumerate(rp.final.players)]
        assert at.selectbox(key="rp_view").value == n - 1
        (body,) = [h.proto.body for h in at.html if "lj-table" in h.proto.body]
        assert f"lj-n{n}" in body and f"seat {n - 1} (own cards only)" in body
        winner = rp.final.winner
        label = at.selectbox(key="rp_game").format_func(gid)
        assert f"{n} seats" in label and f"seat {winner} won" in label
        assert f"Result: seat {winner} ({escape(rp.final.players[winner])}) won" in _notes(at)
        # a seat this game does not have: a warning and seat 0's view, never all the cards
        at = _page("replay", game=gid, step="3", view=str(n))
        assert at.selectbox(key="rp_view").value == 0
        assert f"This game has seats 0-{n - 1}, not seat {n}" in _notes(at)
        (body,) = [h.proto.body for h in at.html if "lj-table" in h.proto.body]
        assert "seat 0 (own cards only)" in body


def test_overview_results_by_side_shows_draws(gouji_app_db, gouji_games):
    at = _page("overview")
    results = at.dataframe[1].value
    draws = sum(Replay(g).final.result["result"] == "draw" for g in gouji_games)
    got = dict(zip(results["result"], results["games"], strict=True))
    assert draws and got["draw"] == draws
    assert "no result" not in got and "no team won" not in str(got)
    assert sum(got.values()) == len(gouji_games)


def test_players_page_counts_a_draw_as_a_draw(gouji_app_db, gouji_games):
    finals = [Replay(g).final for g in gouji_games]
    drawn = next(s for s in finals if s.result["result"] == "draw")
    player = drawn.players[0]
    mine = [(s, s.players.index(player)) for s in finals if player in s.players]
    want = {"win": 0, "loss": 0, "draw": 0}
    for s, seat in mine:
        r = s.result["result"]
        want["draw" if r == "draw" else "win" if r == ("even", "odd")[seat % 2] else "loss"] += 1
    assert want["draw"] >= 1
    at = _page("players", player=player)
    metrics = {m.label: m.value for m in at.metric}
    assert metrics["games"] == str(len(mine))
    assert (metrics["wins"], metrics["losses"], metrics["draws"]) == (
        str(want["win"]), str(want["loss"]), str(want["draw"]))
    decided = want["win"] + want["loss"]
    assert metrics["win rate"] == (f"{want['win'] / decided:.0%}" if decided else "–")
    (record,) = [d.value for d in at.dataframe if list(d.value.columns)[:3] == ["game", "seat", "side"]]
    assert {"side", "wins", "losses", "draws"} <= set(record.columns)
    assert int(record["draws"].sum()) == want["draw"]


# ---------------------------------------------------------------- untrusted text

@pytest.fixture(scope="module")
def evil_db(tmp_path_factory, dash_games):
    """A warehouse someone sent: one 六人坑 game whose game id and first player id hold
    Markdown. liujia's engine refuses such ids (engine.ids), so the file is written as a
    liujia without that check (or a hand with a DuckDB shell) would write it."""
    from ingest import ingest_paths

    events = dash_games[0]
    start = events[0]
    payload = json.loads(start.payload)
    payload["players"][0] = EVIL_PLAYER
    start = start._replace(payload=json.dumps(payload, sort_keys=True, separators=(",", ":")))
    renamed = [e._replace(game_id=EVIL_GAME) for e in [start, *events[1:]]]
    root = tmp_path_factory.mktemp("evil-warehouse")
    write_log(root / "evil.arrows", [seal_events(renamed)])
    db = root / "evil.duckdb"
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr("engine.games.common.id_problem", lambda value: None)
        summary = ingest_paths([root / "evil.arrows"], db=db, progress=False, workers=1)
    assert summary.loaded == 1, summary
    honest = ingest_paths([root / "evil.arrows"], db=root / "honest.duckdb", progress=False,
                          workers=1)
    (record,) = honest.issues
    assert (honest.loaded, record.code, record.seq) == (0, "invalid_event", 0), honest
    assert "game id" in record.reason and "U+0060" in record.reason and "field game_id" in \
        record.reason
    return db


def _assert_plain(at: AppTest, *values: str) -> None:
    for text in _markdown_texts(at):
        for v in values:
            assert v not in text, text
        assert "](http" not in text and "![" not in text, text
    for h in at.html:
        body = h.proto.body
        assert "<img" not in body and "<a " not in body and "http://evil\">" not in body


def test_markdown_in_ids_is_shown_as_plain_text(evil_db, monkeypatch):
    monkeypatch.setenv("LIUJIA_DB", str(evil_db))
    at = _page("replay", game=EVIL_GAME, step="5", view="0")
    assert at.selectbox(key="rp_game").value == EVIL_GAME
    _assert_plain(at, EVIL_GAME, EVIL_PLAYER)
    # the engine refuses to replay a game whose ids are not ids; the refusal is plain text
    notes = unescape(_notes(at))
    assert "The engine cannot replay this game: seq 0: game id 'keng-`x`-![x](http://127" \
        in notes and "field game_id" in notes, notes

    unknown = EVIL_GAME + "-nope"
    at = _page("replay", game=unknown)
    _assert_plain(at, unknown)
    assert f"Game {unknown} is not in the warehouse." in unescape(_notes(at))

    at = _page("players", player=EVIL_PLAYER)
    _assert_plain(at, EVIL_PLAYER)
    assert f"match {EVIL_PLAYER}." in unescape(_notes(at))
    at = _page("players", player=EVIL_PLAYER + "-nobody")
    _assert_plain(at, EVIL_PLAYER)
    assert f"No game of player {EVIL_PLAYER}-nobody in the warehouse." in unescape(_notes(at))


def test_the_table_shows_hostile_player_ids_as_text(dash_games):
    rp = Replay(dash_games[0])
    view = rp.game.view(rp.state_at(5), 0)
    players = [EVIL_PLAYER, *rp.final.players[1:]]
    body = table_html("keng", {**view, "game_id": EVIL_GAME, "players": players}, players)
    assert escape(EVIL_PLAYER) in body and "<img" not in body and "<a " not in body


def test_a_file_name_with_markdown_is_plain_text(tmp_path, monkeypatch):
    path = tmp_path / "![w](http:" / "x`[l](http:evil)`.duckdb"
    monkeypatch.setenv("LIUJIA_DB", str(path))
    at = _page("overview")
    _assert_plain(at, str(path))
    notes = unescape(_notes(at))
    assert f"No warehouse at {path}." in notes and f"warehouse: {path}" in notes


# ---------------------------------------------------------------- the views' common keys

COMMON_KEYS = ("game", "game_id", "seq", "phase", "players", "perspective", "hands", "to_act",
               "sides", "outcomes")


@pytest.mark.parametrize("game", ["keng", "gouji", "modaoshuang"])
def test_every_view_has_the_common_keys(game, dash_games, gouji_games, mds_games):
    corpus = {"keng": dash_games[:3], "gouji": gouji_games[:2], "modaoshuang": mds_games}[game]
    for events in corpus:
        rp = Replay(events)
        n = len(rp.final.players)
        for step in range(0, len(rp), 5):
            s = rp.state_at(step)
            for viewer in (None, *range(n)):
                v = rp.game.view(s, viewer)
                json.dumps(v)
                assert all(k in v for k in COMMON_KEYS), [k for k in COMMON_KEYS if k not in v]
                assert v["game"] == game and len(v["hands"]) == n == len(v["sides"])
                assert v["perspective"] == ("auditor" if viewer is None else viewer)
                assert v["to_act"] is None or 0 <= v["to_act"] < n
                assert (v["outcomes"] is None) == (not rp.game.is_over(s))
        final = rp.game.view(rp.final, None)
        assert final["to_act"] is None and len(final["outcomes"]) == n
        assert all(o["result"] in ("win", "loss", "draw") for o in final["outcomes"])
        expect = [None] * n if game == "modaoshuang" else ["even", "odd"] * (n // 2)
        assert final["sides"] == expect


def test_keng_views_show_who_is_due_without_revealing_a_duellists_hand(dash_games):
    """In a duel the due seat is the duellist to play; a DUEL_END owed because that seat's
    hidden hand has no card is seen by the auditor only."""
    found = 0
    for events in dash_games:
        rp = Replay(events)
        for step in range(len(rp)):
            s = rp.state_at(step)
            a = rp.game.view(s, None)
            if s.duel is not None and a["auto_due"] is None:
                assert a["to_act"] == s.duel.to_act
            if a["auto_due"] == "DUEL_END":
                found += 1
                assert a["to_act"] is None
                for seat in range(6):
                    v = rp.game.view(s, seat)
                    assert v["auto_due"] is None and v["to_act"] == s.duel.to_act
    assert found
