"""The 六人斗地主 table and event details (engine/games/ddz6/table.py and describe.py, drawn by
dashboards/table.py) on seeded games of the three variants: sides as each viewer knew them, the dark mark, the kitty, bids, the multiplier,
escaping, the auditor; and the replay page on a small warehouse of ddz6 games."""

from __future__ import annotations

import re
from collections import Counter

import pytest

from dashboards.events import event_rows
from dashboards.table import card_html, describer, table_html, table_model
from engine.cards import format_face
from engine.events import Event
from engine.games.ddz6 import VARIANTS
from engine.games.ddz6.describe import describe
from engine.games.ddz6.table import table
from engine.log import write_log
from engine.replay import Replay
from engine.sim import simulate
from engine.table import TableModel
from tests.dashboards.test_replay_perspective import _replay

GAMES = ("ddz6_3v3", "ddz6_2v4", "ddz6_zhengfan")
FACE = re.compile(r'data-face="([^"]+)"')


def _panel(html: str, seat: int) -> str:
    """The HTML of one seat's panel (seats come in order 0-5, then the centre)."""
    start = html.index(f'data-seat="{seat}"')
    ends = [i for i in (html.find('data-seat="', start + 10), html.find("lj-centre", start))
            if i >= 0]
    return html[start:min(ends)]


def _centre(html: str) -> str:
    return html[html.index('class="lj-centre"'):]


def _side(panel: str) -> str | None:
    m = re.search(r'class="lj-badge[^"]*" data-side="([^"]+)"', panel)
    return m.group(1) if m else None


def _badge_tone(panel: str) -> str:
    """The tone of a seat's role badge ('' when it has none)."""
    m = re.search(r'class="lj-badge(?: lj-tone-(\w+))?"', panel)
    assert m, panel
    return m.group(1) or ""


def _drawn_as_lord(panel: str) -> bool:
    """True if the seat's panel has a landlord's coloured edge (a tone on the panel)."""
    m = re.match(r'data-seat="\d" class="([^"]*)"', panel)
    assert m, panel
    return "lj-tone-" in m.group(1)


def _kitty(html: str, seat: int) -> str:
    """The line of one kitty share in the centre ('' when the seat took none)."""
    m = re.search(rf'<div class="lj-info" data-kitty-seat="{seat}">.*?</div>', html)
    return m.group(0) if m else ""


def _html(rp: Replay, step: int, seat: int | None) -> tuple[dict, str]:
    s = rp.state_at(step)
    view = rp.game.view(s, seat)
    return view, table_html(rp.game_type, view, s.players)


@pytest.fixture(scope="module")
def games():
    """Six seeded games of each variant (sealed events), the same on every run."""
    return {g: [sim.events for sim in simulate(g, 6, seed=1)] for g in GAMES}


def _find(events_list, pred):
    found = next((ev for ev in events_list if pred(ev)), None)
    assert found is not None
    return found


def _index(events, kind: str) -> int:
    return next(i for i, e in enumerate(events) if e.kind == kind)


def test_every_variant_declares_the_ddz6_table_and_words(games):
    for game in GAMES:
        g = VARIANTS[game.removeprefix("ddz6_")]
        assert g.table is table and g.describe is describe and describer(game) is describe
        rp = Replay(games[game][0])
        s = rp.state_at(30)
        m = table_model(game, rp.game.view(s, 1), s.players)
        assert isinstance(m, TableModel) and m.game_id == s.game_id and m.perspective == 1
        assert [x.name for x in m.seats] == list(s.players)


def test_a_hidden_3v3_landlord_is_shown_to_himself_only_until_his_reveal(games):
    events = _find(games["ddz6_3v3"], lambda ev: any(e.kind == "REVEAL" for e in ev))
    rp = Replay(events)
    reveal = _index(events, "REVEAL")
    h = events[reveal].seat
    before = reveal - 1                              # his F play is on the table
    for seat in range(6):
        _, html = _html(rp, before, seat)
        panel = _panel(html, h)
        if seat == h:
            assert _side(panel) == "landlord" and "暗地主 hidden landlord" in panel
            assert "you are the hidden landlord (暗地主)" in panel
        else:
            assert _side(panel) is None and "side unknown" in panel, seat
            assert "hidden landlord" not in panel and not _drawn_as_lord(panel)
            assert "data-role=" not in panel and _badge_tone(panel) == "grey"
        _, html = _html(rp, reveal, seat)
        assert _side(_panel(html, h)) == "landlord", seat
        assert "revealed: played an F card" in _panel(html, h)
    _, html = _html(rp, before, None)
    assert _side(_panel(html, h)) == "landlord"
    assert "hidden landlord: known only to himself" in _panel(html, h)


def test_each_viewer_sees_the_sides_his_view_gives(games):
    """Every side shown is the view's, and every side the view gives is shown (all variants)."""
    seen = Counter()
    for game in GAMES:
        for events in games[game][:3]:
            rp = Replay(events)
            for step in range(0, len(events), 23):
                for seat in (None, step % 6):
                    view, html = _html(rp, step, seat)
                    for i in range(6):
                        assert _side(_panel(html, i)) == view["sides"][i], (game, step, seat, i)
                        seen[view["sides"][i] is None] += 1
    assert seen[True] and seen[False]


ROLE_TONES = {"landlord": "amber", "farmer": "green", "zheng": "blue", "fan": "red"}


def test_roles_have_their_colours_and_only_landlords_an_edge(games):
    """landlord amber, farmer green, 正 blue, 反 red, unknown grey (as the old table's CSS)."""
    seen = Counter()
    for game in GAMES:
        for events in games[game][:2]:
            rp = Replay(events)
            for step in range(0, len(events), 17):
                for seat in (None, step % 6):
                    view, html = _html(rp, step, seat)
                    for i in range(6):
                        panel, side, r = _panel(html, i), view["sides"][i], view["roles"][i]
                        tone = _badge_tone(panel)
                        if side is None and r is None:
                            assert tone == "grey", (game, step, seat, i)
                        elif side is not None:
                            assert tone == ROLE_TONES[side], (game, step, seat, i)
                        lord = r is not None and r != "farmer"
                        assert _drawn_as_lord(panel) == lord, (game, step, seat, i)
                        if lord:
                            assert f"lj-tone-{tone}" in panel.split(">", 1)[0]
                            assert f'data-role="{r}"' in panel.split(">", 1)[0]
                        seen[tone] += 1
    assert set(seen) == {"amber", "green", "blue", "red", "grey"}


def test_a_zhengfan_farmer_never_sees_another_farmers_side(games):
    events = _find(games["ddz6_zhengfan"], lambda ev: any(e.kind == "SIDES_END" for e in ev))
    rp = Replay(events)
    step = _index(events, "SIDES_END")
    view, html = _html(rp, step, None)
    lords = view["landlords"]
    farmers = [i for i in range(6) if i not in lords]
    for seat in farmers:
        _, html = _html(rp, step, seat)
        for other in farmers:
            assert (_side(_panel(html, other)) is None) == (other != seat)
        assert "正地主 positive landlord" in _panel(html, lords[0])
        assert "反地主 negative landlord" in _panel(html, lords[1])
    for seat in lords:
        _, html = _html(rp, step, seat)
        assert all(_side(_panel(html, i)) in ("zheng", "fan") for i in range(6))


def test_the_2v4_dark_mark_is_secret_until_the_first_landlord_is_fixed(games):
    events = games["ddz6_2v4"][0]
    rp = Replay(events)
    landlords = _index(events, "LANDLORDS")
    dm = events[landlords].target
    first = events[landlords].seat
    assert dm != first
    for step in range(1, landlords):
        for seat in range(6):
            _, html = _html(rp, step, seat)
            assert "holds the dark mark" not in html and "二地主" not in html, (step, seat)
            assert "dark mark: secret until the first landlord is fixed" in _centre(html)
            assert _side(_panel(html, dm)) is None
        _, html = _html(rp, step, None)
        assert "holds the dark mark" in _panel(html, dm) and f"dark mark at seat {dm}" in html
    for seat in (*range(6), None):
        _, html = _html(rp, landlords, seat)
        assert "二地主 second landlord" in _panel(html, dm)
        assert "大地主 big landlord" in _panel(html, first)
        assert "holds the dark mark" in _panel(html, dm)


@pytest.mark.parametrize("game", ["ddz6_2v4", "ddz6_zhengfan"])
def test_the_kitty_is_a_hidden_count_until_its_taker_or_the_end_shows_it(games, game):
    events = _find(games[game], lambda ev: sum(e.kind == "KITTY" for e in ev) == 2)
    rp = Replay(events)
    first = _index(events, "KITTY")
    kitties = [e for e in events if e.kind == "KITTY"]
    untaken = Counter(format_face(c) for c in rp.state_at(first - 1).kitty)
    for seat in (*range(6), None):
        view, html = _html(rp, first - 1, seat)
        centre = _centre(html)
        assert "data-kitty-seat" not in centre
        if seat is None:                     # the auditor sees the faces of the untaken kitty
            m = re.search(r'<div class="lj-info" data-kitty-untaken="12">kitty: not yet taken '
                          r'(.*?)</div>', centre)
            assert m and Counter(FACE.findall(m.group(1))) == untaken
            assert view["kitty"]["cards"] and "🂠 × 12" not in centre
        else:
            assert ('kitty: not yet taken <span class="lj-back" title="12 hidden cards">'
                    "🂠 × 12</span>") in centre                      # a card back, counted
            assert view["kitty"]["cards"] is None and "data-kitty-untaken" not in centre
    for e in kitties:
        faces = Counter(format_face(c) for c in e.cards)
        step = events.index(e)
        for seat in (*range(6), None):
            _, html = _html(rp, step, seat)
            share = _kitty(_centre(html), e.seat)
            if seat in (None, e.seat):
                assert Counter(FACE.findall(share)) == faces, (seat, share)
            else:
                assert not FACE.findall(share) and (
                    'took <span class="lj-back" title="6 hidden cards">🂠 × 6</span>'
                    in share), (seat, share)
    last = len(events) - 1
    for seat in range(6):
        _, html = _html(rp, last, seat)
        for e in kitties:
            assert Counter(FACE.findall(_kitty(_centre(html), e.seat))) == Counter(
                format_face(c) for c in e.cards)


def test_the_multiplier_shown_is_the_views(games):
    values = set()
    for game in GAMES:
        for events in games[game][:2]:
            rp = Replay(events)
            for step in range(1, len(events), 11):
                view, html = _html(rp, step, step % 7 if step % 7 < 6 else None)
                (n,) = re.findall(r'data-n="(\d+)"', html)
                assert int(n) == view["N"]
                assert (f'data-n="{n}">倍数 multiplier <span class="lj-strong">N = {view["N"]}'
                        '</span> · ') in html                     # N stands out
                assert f"base score S = {view['S'] if view['S'] else '?'}" in html
                values.add(view["N"])
            view, html = _html(rp, len(events) - 1, 0)
            parts = view["result"]["N_parts"]
            assert f"W = {view['result']['W']}" in html
            key = "doubles" if game == "ddz6_3v3" else "show_hand"
            word = "加倍 doubles" if key == "doubles" else "明牌加倍 show hand"
            assert f"{word} +{parts[key]}" in html
    assert len(values) > 2


def test_bids_appear_in_the_seats_and_the_centre(games):
    for game in ("ddz6_3v3", "ddz6_2v4"):
        events = _find(games[game], lambda ev: sum(e.kind == "BID" for e in ev) >= 2)
        rp = Replay(events)
        step = _index(events, "BID_END")
        for seat in (0, 3, None):
            view, html = _html(rp, step, seat)
            b = view["bidding"]
            assert b["bids"]
            for who, value in zip(b["order"], b["bids"], strict=False):
                text = "不叫 pass" if value == 0 else f"bids {value}"
                assert text in _panel(html, who)
                assert f"seat {who} {text}" in _centre(html)
            if b["winner"] is not None:
                assert f"winner seat {b['winner']} with {b['bid']}" in _centre(html)
                assert f"won the bidding with {b['bid']}" in _panel(html, b["winner"])


def test_a_shown_hand_is_face_up_for_every_seat(games):
    events = _find(games["ddz6_2v4"], lambda ev: any(
        e.kind == "SHOW_END" and e.target > 0 for e in ev))
    rp = Replay(events)
    step = _index(events, "SHOW_END")
    shown = [i for i in range(6) if events[step].target >> i & 1]
    for seat in range(6):
        view, html = _html(rp, step, seat)
        for i in range(6):
            cards = len(FACE.findall(_panel(html, i)))
            assert cards == (len(view["hands"][i]) if i in shown or i == seat else 0)
        for i in shown:
            assert "hand face up (明牌加倍)" in _panel(html, i)


def test_the_auditor_sees_everything(games):
    for game in GAMES:
        events = games[game][0]
        rp = Replay(events)
        for step in range(2, len(events), 37):
            view, html = _html(rp, step, None)
            s = rp.state_at(step)
            assert "auditor (all cards)" in html and "🂠 × " not in "".join(
                _panel(html, i) for i in range(6))
            for i in range(6):
                assert len(FACE.findall(_panel(html, i))) == len(s.hands[i])
            if game != "ddz6_3v3":
                assert f"dark mark at seat {s.dm}" in html
            for seat, share in enumerate(s.shares):
                assert Counter(FACE.findall(_kitty(_centre(html), seat))) == Counter(
                    format_face(c) for c in share)
    events = _find(games["ddz6_3v3"], lambda ev: any(e.kind == "CASE" and e.tag in ("A", "B1")
                                                     for e in ev))
    rp = Replay(events)
    view, html = _html(rp, _index(events, "CASE"), None)
    assert view["hidden"]
    for h in view["hidden"]:
        assert _side(_panel(html, h)) == "landlord"
        assert "hidden landlord: known only to himself" in _panel(html, h)


def test_the_settlement_is_shown_per_seat(games):
    for game in GAMES:
        events = games[game][1]
        rp = Replay(events)
        view, html = _html(rp, len(events) - 1, 2)
        r = view["result"]
        centre = _centre(html)
        assert "settlement:" in centre and "hand over:" in centre
        rows = re.findall(r'<tr data-settle-seat="(\d)" data-settle-side="(\w*)" '
                          r'data-settle-score="(-?\d+)">(.*?)</tr>', centre)
        assert [int(x[0]) for x in rows] == list(range(6))          # a row a seat, in order
        assert [x[1] for x in rows] == r["sides"]
        assert [int(x[2]) for x in rows] == r["scores"]
        for i, score in enumerate(r["scores"]):
            text = f"{score:+d}".replace("+0", "0").replace("-", "−")
            word = {"zheng": "正", "fan": "反"}.get(r["sides"][i], r["sides"][i])
            assert re.findall(r"<td>(.*?)</td>", rows[i][3]) == [str(i), word, text]
            assert f"score {text}" in _panel(html, i)


def test_hostile_strings_are_escaped(games):
    events = games["ddz6_2v4"][0]
    rp = Replay(events)
    s = rp.final
    view = rp.game.view(s, None)
    view["round"] = dict(view["round"], top={"seat": 1, "cards": ["<i>"], "combo": "<img src=x>"})
    view["open_mark"] = {"face": "<b>x</b>", "seat": 0}
    view["result"] = dict(view["result"], reason="<u>r</u>", winning_side="<s>w</s>",
                          sides=["<em>"] * 6)
    view["sides"] = ["<script>side</script>", *view["sides"][1:]]
    view["locked"] = "<q>"
    view["game"] = "<svg onload=alert(1)>"
    evil = ["<script>alert('p0')</script>", "a&b", "x", "y", "z", '"q"']
    html = table_html("ddz6_2v4", view, evil)
    for raw in ("<script>", "<img", "<b>x", "<u>", "<s>w", "<em>", "<q>", "<i>", "<svg"):
        assert raw not in html, raw
    assert "&lt;script&gt;alert(&#x27;p0&#x27;)" in html and "a&amp;b" in html
    assert "&quot;q&quot;" in html and "&lt;img src=x&gt;" in html


# ---------------------------------------------------------------- event details

@pytest.mark.parametrize(("event", "text"), [
    (Event("BID", 2, value=2), "bids 2"),
    (Event("BID", 2, value=0), "不叫 pass"),
    (Event("REVEAL", 4), "seat 4 played an F card: revealed as a landlord"),
    (Event("DOUBLE", 1, value=1), "加倍 doubles"),
    (Event("DOUBLE", 1), "decides on doubling (shown when all have decided)"),
    (Event("SHOW_HAND", 0, value=1), "明牌加倍 shows his hand"),
    (Event("SIDE_CHOICE", 3, value=1), "chooses 反"),
    (Event("SIDE_CHOICE", 4, value=0, tag="placed"), "placed on 正"),
    (Event("BID_END", 3, value=2), "seat 3 wins the bidding with 2"),
    (Event("LANDLORDS", 0, target=5, value=0, tag="bid"),
     "landlords: big seat 0 (won the bidding), second seat 5 (the dark mark)"),
    (Event("LANDLORDS", 2, target=2, value=1),
     "seat 2 holds both marks: 一打五, he plays alone and takes all 12 kitty cards"),
    (Event("ROUND_END", 1, target=4, value=3), "round 3 won by seat 4, seat 1 leads"),
    (Event("PASS", 5), "不出 passes"),
])
def test_event_details(event, text):
    assert describe(event) == text


def test_every_event_has_a_detail_for_every_viewer(games):
    kinds = set()
    for game in GAMES:
        for events in games[game][:3]:
            for perspective in ("auditor", 1, 4):
                for row in event_rows(events, perspective, []):
                    assert row["detail"] and "None" not in row["detail"], row
                    kinds.add(row["kind"])
    assert {"CASE", "BID", "BID_END", "DOUBLE", "LANDLORDS", "KITTY", "SIDE_CHOICE",
            "SIDES_END", "SHOW_HAND", "SHOW_END", "PLAY", "PASS", "ROUND_END", "HAND_END",
            "GAME_END"} <= kinds


# ---------------------------------------------------------------- the replay page

@pytest.fixture(scope="module")
def ddz6_db(tmp_path_factory, games):
    """A warehouse of one game per variant, built with ingest_paths."""
    from ingest import ingest_paths

    root = tmp_path_factory.mktemp("ddz6-warehouse")
    logs = root / "logs"
    logs.mkdir()
    picked = [games[g][0] for g in GAMES]
    write_log(logs / "ddz6.arrows", picked)
    db = root / "ddz6.duckdb"
    summary = ingest_paths([logs], db=db, progress=False)
    assert summary.loaded == len(picked) and summary.quarantined == 0, summary
    return db


def test_replay_page_draws_the_ddz6_table(ddz6_db, games, monkeypatch):
    monkeypatch.setenv("LIUJIA_DB", str(ddz6_db))
    events = games["ddz6_2v4"][0]
    step = _index(events, "SHOW_END")
    at = _replay(game=events[0].game_id, step=str(step), view="3")
    (html,) = [h.proto.body for h in at.html if "lj-table" in h.proto.body]
    assert 'class="lj-badge lj-tone-amber" data-side="landlord">大地主 big landlord' in html
    assert "倍数 multiplier" in html
    assert 'data-seat="3" class="lj-seat lj-me' in html


# ---------------------------------------------------------------- what the view now gives

def _acts_from_events(events, upto):
    """Each seat's last act in the current round, from the events up to ``upto``."""
    last = [None] * 6
    for e in events[:upto + 1]:
        if e.kind in ("ROUND_END", "SHOW_END", "SIDES_END", "GAME_START"):
            last = [None] * 6
        elif e.kind == "PASS":
            last[e.seat] = "pass"
        elif e.kind == "PLAY":
            last[e.seat] = sorted(format_face(c) for c in e.cards)
    return last


def test_each_seats_last_act_of_the_round_is_shown(games):
    checked = 0
    for game in GAMES:
        events = games[game][0]
        rp = Replay(events)
        for step in range(1, len(events), 5):
            want = _acts_from_events(events, step)
            for seat in (None, step % 6):
                view, html = _html(rp, step, seat)
                got = [a if a in (None, "pass") else sorted(a["cards"])
                       for a in view["round"]["last"]]
                assert got == want, (game, step)
                for i, a in enumerate(want):
                    panel = _panel(html, i)
                    if a is None:
                        assert f'data-last-seat="{i}"' not in panel
                    elif a == "pass":
                        assert f'data-last-seat="{i}">this round: 不出 passed' in panel
                    else:                # a group of its cards (not counted) and combination
                        last = view["round"]["last"][i]
                        cards = "".join(card_html(f, data=False) for f in last["cards"])
                        assert (f'<div class="lj-group" data-last-seat="{i}"><span '
                                f'class="lj-group-label">this round</span>{cards} <span '
                                f'class="lj-info">{last["combo"]}</span></div>') in panel
                        checked += 1
    assert checked


def test_the_parts_of_n_are_public_and_shown_during_play(games):
    shown = 0
    for game in GAMES:
        for events in games[game][:3]:
            rp = Replay(events)
            for step in range(1, len(events), 7):
                views = [rp.game.view(rp.state_at(step), seat) for seat in (None, *range(6))]
                parts = views[0]["N_parts"]
                assert all(v["N_parts"] == parts for v in views)          # public to all
                key = "doubles" if game == "ddz6_3v3" else "show_hand"
                assert parts["start"] + parts[key] + sum(parts["bombs"]) == views[0]["N"]
                if views[0]["phase"] == "play" and not views[0]["result"]:
                    html = table_html(game, views[1], rp.state_at(step).players)
                    bombs = " ".join(f"+{x}" for x in parts["bombs"]) or "none"
                    assert f"炸彈 bombs {bombs}" in html
                    shown += 1
    assert shown


def test_doubling_adds_nothing_to_the_parts_before_all_six_are_shown(games):
    events = games["ddz6_3v3"][0]
    rp = Replay(events)
    for step in range(len(events)):
        s = rp.state_at(step)
        if s.phase == "double":
            assert rp.game.view(s, 0)["N_parts"]["doubles"] == 0


def test_roles_come_from_the_view_not_the_order_of_landlords(games):
    events = games["ddz6_2v4"][0]
    rp = Replay(events)
    step = _index(events, "LANDLORDS")
    view, _ = _html(rp, step, 2)
    big, second = view["landlords"]
    assert view["roles"][big] == "big_landlord" and view["roles"][second] == "second_landlord"
    view["landlords"] = [second, big]                 # the order no longer decides the role
    html = table_html("ddz6_2v4", view, rp.final.players)
    assert "大地主 big landlord" in _panel(html, big)
    assert "二地主 second landlord" in _panel(html, second)
    for game in GAMES:
        for events in games[game][:2]:
            rp = Replay(events)
            for step in range(0, len(events), 19):
                for seat in (None, step % 6):
                    view = rp.game.view(rp.state_at(step), seat)
                    for i, r in enumerate(view["roles"]):
                        if game != "ddz6_zhengfan":
                            assert (r is None) == (view["sides"][i] is None)


def test_only_the_hidden_landlord_sees_his_role_before_the_reveal(games):
    events = _find(games["ddz6_3v3"], lambda ev: any(e.kind == "REVEAL" for e in ev))
    rp = Replay(events)
    reveal = _index(events, "REVEAL")
    h = events[reveal].seat
    for step in range(_index(events, "CASE"), reveal):
        s = rp.state_at(step)
        for seat in range(6):
            view, html = _html(rp, step, seat)
            if seat == h:
                assert view["roles"][h] == "hidden_landlord"
                assert "you are the hidden landlord" in _panel(html, h)
            else:
                assert view["roles"][h] is None
                assert "hidden landlord" not in _panel(html, h)
                if seat not in s.hidden:             # (in case A the other one sees himself)
                    assert "暗地主 hidden landlord" not in html, (step, seat)
                    assert "you are the hidden landlord" not in html
    for seat in range(6):
        view, html = _html(rp, reveal, seat)
        assert view["roles"][h] == "hidden_landlord"          # public once revealed
        assert "you are the hidden landlord" not in _panel(html, h)
        assert "暗地主 hidden landlord" in _panel(html, h)


def test_the_landlords_line_is_plain_once_the_hand_is_over(games):
    for game in GAMES:
        events = games[game][0]
        rp = Replay(events)
        _, html = _html(rp, len(events) - 1, 1)
        assert "地主 landlords: " in html and "(as this seat knows them)" not in html
        mid = next(i for i, e in enumerate(events) if e.kind == "PLAY")
        _, html = _html(rp, mid, 1)
        assert "地主 landlords (as this seat knows them): " in html


def test_the_lock_holder_is_public():
    from tests.games.ddz6.test_game_play import play, set_hands
    from tests.games.ddz6.test_game_setup import show_state
    from tests.games.ddz6.test_game_support import auto, autos, do, ev

    s = show_state()
    s = autos(do(do(s, ev(s, "SHOW_HAND", 0, value=0)), ev(s, "SHOW_HAND", 3, value=0)
                 ._replace(seq=s.seq + 1)))
    s = set_hands(s, {0: "BBBBRRR3", 1: "R4"})     # (a constructed position)
    s = do(s, play(s, 0, "BBBBRRR"))
    assert s.owed == ("LOCK",)
    s = auto(s)
    from engine.games.ddz6 import VARIANTS
    for seat in (None, *range(6)):
        view = VARIANTS["2v4"].view(s, seat)
        assert view["locked"] == "RJ" and view["locked_seat"] == 1
        html = table_html("ddz6_2v4", view, s.players)
        assert "(held by seat 1)" in _centre(html)
        assert "holds the locked RJ (七星聚 lock)" in _panel(html, 1)
