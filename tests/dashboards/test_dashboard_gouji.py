"""The 够级 table and event details (engine/games/gouji/table.py and describe.py, drawn by
dashboards/table.py) on real simulated games, and the replay page on a small warehouse of 够级
games."""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from dashboards.events import event_rows
from dashboards.table import SEAT_AREAS, centre_html, describer, model_html, table_html
from engine.cards import parse_face
from engine.events import Event
from engine.games import gouji
from engine.games.gouji.describe import HOW_TEXT, describe
from engine.games.gouji.rules import POINTS, POSITION_NAMES
from engine.games.gouji.table import table
from engine.replay import Replay
from tests.dashboards.test_replay_perspective import _replay

APP = str(Path(__file__).resolve().parents[2] / "dashboards" / "app.py")
COUNT = re.compile(r"\b\d+ cards?\b")


def _panel(html: str, seat: int) -> str:
    """The HTML of one seat's panel (seats come in order 0-5, then the centre)."""
    start = html.index(f'data-seat="{seat}"')
    ends = [i for i in (html.find('data-seat="', start + 10), html.find("lj-centre", start))
            if i >= 0]
    return html[start:min(ends)]


def _centre(html: str) -> str:
    return html[html.index('class="lj-centre"'):]


def _codes(*faces: str) -> tuple[int, ...]:
    return tuple(parse_face(f) for f in faces)


@pytest.fixture(scope="module")
def gouji_states(gouji_games):
    """(game index, step, state) of every state of the seven games."""
    out = []
    for g, events in enumerate(gouji_games):
        for step, s in enumerate(Replay(events).states()):
            out.append((g, step, s))
    return out


def test_the_game_declares_its_table_and_words(gouji_states):
    assert gouji.GAME.table is table and gouji.GAME.describe is describe
    assert describer("gouji") is describe
    _, _, s = gouji_states[100]
    view = gouji.view(s, 2)
    assert table_html("gouji", view, s.players) == model_html(table(view, s.players))


def test_auditor_sees_every_hand_with_its_count(gouji_states):
    for _, _, s in gouji_states[::25]:
        html = table_html("gouji", gouji.view(s, None), s.players)
        assert "auditor (all cards)" in html
        for seat in range(6):
            panel = _panel(html, seat)
            assert panel.count('class="lj-card') == len(s.hands[seat])
            assert "lj-back" not in panel
            n = len(s.hands[seat])
            assert f"{n} card{'s' * (n != 1)}" in panel


@pytest.mark.parametrize("seat", range(6))
def test_seat_view_shows_no_other_cards_and_no_counts(gouji_states, seat):
    """GJ-47: a seat sees its own hand; the others are card backs without any count."""
    for _, step, s in gouji_states[seat::9]:
        html = table_html("gouji", gouji.view(s, seat), s.players)
        assert re.search(rf'data-seat="{seat}" class="[^"]*lj-me[^"]*" style="grid-area:bottom"',
                         html), step
        for other in range(6):
            panel = _panel(html, other)
            if other == seat:
                assert panel.count('class="lj-card') == len(s.hands[seat])
                continue
            assert 'class="lj-card' not in panel, (step, other)
            assert "lj-back" in panel and "dead" not in panel, (step, other)
            assert not COUNT.search(panel), (step, other, COUNT.search(panel))
            assert "×" not in panel, (step, other)


def test_layout_follows_the_direction_and_puts_the_opposite_across(gouji_states):
    _, _, s = gouji_states[100]
    for seat in range(6):
        for d in (1, -1):
            view = dict(gouji.view(s, seat), direction=d)
            html = table_html("gouji", view, s.players)
            for k in range(6):   # the k-th next player sits k places counter-clockwise
                other = (seat + k * d) % 6
                assert f'style="grid-area:{SEAT_AREAS[6][k]}"' in _panel(html, other)
            assert f"对门 seat {(seat + 3) % 6}" in _panel(html, seat)
            assert ("↺" if d == 1 else "↻") in _centre(html)


def test_teams_are_coloured_and_opposites_labelled(gouji_states):
    _, _, s = gouji_states[50]
    html = table_html("gouji", gouji.view(s, None), s.players)
    assert ".lj-seat.lj-tone-blue{" in html and ".lj-seat.lj-tone-red{" in html
    for seat in range(6):
        team = ("even", "odd")[seat % 2]
        tone = ("blue", "red")[seat % 2]
        panel = _panel(html, seat)
        assert re.search(rf'class="lj-seat lj-tone-{tone}[ "]', panel)
        assert (f'<span class="lj-badge lj-tone-{tone}" data-side="{team}">{team}</span>'
                in panel)
        assert f"对门 seat {(seat + 3) % 6}" in panel


def test_markers_appear_where_the_engine_has_them(gouji_states):
    """To act, locked / passed, 让牌, burner, opened, 没头, 宣点, 够级 and 会五 tops, places."""
    found: Counter[str] = Counter()
    for _, step, s in gouji_states:
        persp = None if step % 7 == 6 else step % 7
        v = gouji.view(s, persp)
        html = table_html("gouji", v, s.players)
        centre = _centre(html)
        panels = [_panel(html, i) for i in range(6)]
        if s.stage == "play" and not s.owed and s.xd_pending < 0 and not s.huiwu_due \
                and s.to_act >= 0:
            assert f"▶ seat {s.to_act} " in panels[s.to_act] and html.count("▶ seat") == 1
            found["to_act"] += 1
        for i in range(6):
            locked = "locked (passed, 过牌)" in panels[i]
            passed = "passed since the top play" in panels[i]
            assert locked == bool(s.passed >> i & 1 and not s.open_phase), (step, i)
            assert passed == bool(s.passed >> i & 1 and s.open_phase), (step, i)
            found["locked"] += locked
            found["passed"] += passed
            assert ("opened (开点)" in panels[i]) == bool(s.opened >> i & 1)
            assert ("没头" in panels[i]) == (i in v["meitou"])
            found["opened"] += bool(s.opened >> i & 1)
            found["meitou"] += i in v["meitou"]
            assert ("烧牌: burning" in panels[i]) == (s.burner == i)
            if s.out_pos[i]:
                pos = s.out_pos[i]
                assert f'data-position="{pos}"' in panels[i]
                assert POSITION_NAMES[pos] in panels[i]
                assert HOW_TEXT[s.out_how[i]] in panels[i]
                assert f"{POINTS[pos]:+d}".replace("+0", "0").replace("-", "−") in panels[i]
                found[f"out:{s.out_how[i]}"] += 1
            else:
                assert "data-position" not in panels[i]
        if s.burner >= 0:
            assert f"烧牌 in progress: seat {s.burner} is burning" in centre
            found["burner"] += 1
        if s.rang_seat >= 0:
            d = s.rang_seat
            assert "让牌: yielded" in panels[d] and f"让牌 by seat {d}" in centre
            for w in s.rang_wait:
                if w in v["responders"]:
                    assert f"让牌: to act before seat {d}" in panels[w]
            found["rang"] += 1
        if s.xd_pending >= 0:
            p = s.xd_pending
            assert "宣点 declared, awaits 和点" in panels[p]
            assert "to answer the 宣点 (和点)" in panels[(p + 3) % 6]
            found["xuandian"] += 1
        assert (">够级</span>" in centre) == v["top_is_gouji"], step
        found["gouji_top"] += v["top_is_gouji"]
        if s.top_huiwu:
            assert ">会五</span>" in centre
            found["huiwu_top"] += 1
        if s.huiwu_due:
            assert "会五 due: team" in centre
            found["huiwu_due"] += 1
        phase = "phase open" if s.open_phase else "phase restricted"
        assert phase in centre and f"game {s.game_no} " in centre
    for key in ("to_act", "locked", "passed", "opened", "meitou", "burner", "rang",
                "xuandian", "gouji_top", "huiwu_top", "huiwu_due", "out:finished", "out:men",
                "out:zhashao", "out:last", "out:designated"):
        assert found[key], (key, found)


def test_first_game_shows_the_cut_and_who_holds_the_cut_card(gouji_games):
    events = gouji_games[0]
    rp = Replay(events)
    cut = next(e for e in events if e.kind == "CUT" and e.cards[0] < 52)
    direction = next(i for i, e in enumerate(events) if e.kind == "DIRECTION")
    s = rp.state_at(direction - 1)                  # the first player is choosing
    html = table_html("gouji", gouji.view(s, None), s.players)
    assert "cut: seat" in _centre(html) and "data-face=" in _centre(html)
    assert f"▶ seat {s.first_player} " in _panel(html, s.first_player)
    assert "to choose the direction" in _panel(html, s.first_player)
    deal = next(i for i, e in enumerate(events) if e.kind == "DEAL")
    s = rp.state_at(deal)
    viewer = (s.cut_holder + 1) % 6
    html = table_html("gouji", gouji.view(s, viewer), s.players)
    assert "holds the face-up cut card" in _panel(html, s.cut_holder)
    assert html.count("holds the face-up cut card") == 1
    assert describe(cut).startswith(f"seat {cut.seat} cuts, counting")


def test_top_play_cards_and_maker(gouji_states):
    seen = 0
    for _, _, s in gouji_states[::11]:
        if s.top_seat < 0:
            continue
        centre = centre_html("gouji", gouji.view(s, (s.top_seat + 1) % 6))
        for face in gouji.view(s, None)["top"]["cards"]:
            assert f'data-face="{face}"' in centre
        assert f"by seat {s.top_seat} (对门 seat {(s.top_seat + 3) % 6})" in centre
        seen += 1
    assert seen


def test_finished_games_show_the_result(gouji_games):
    sweeps = 0
    for events in gouji_games:
        s = Replay(events).final
        r = s.result
        html = table_html("gouji", gouji.view(s, 0), s.players)
        centre = _centre(html)
        if r["result"] == "draw":
            assert "game over: draw" in centre
            for seat in range(6):
                assert 'data-result="draw"' in _panel(html, seat)
                assert "drew · place " in _panel(html, seat)
        else:
            assert f"game over: {r['result']} won" in centre
            for seat in range(6):
                won = ("even", "odd")[seat % 2] == r["result"]
                panel = _panel(html, seat)
                assert ("lj-won" in panel) == won and ("lj-lost" in panel) == (not won)
                word = "won" if won else "lost"
                assert (f"{word} · place {r['positions'][seat]} · score "
                        f"{r['points'][seat]:+d}".replace("+0", "0").replace("-", "−")) in panel
        totals = r["team_totals"]
        assert f"even {totals['even']:+d}".replace("-", "−").replace("+0", "0") in centre
        assert f"next game: seat {r['next_starter']} (拉客) starts" in centre
        assert "<caption>places</caption>" in centre and "<td>头客</td><td>seat " in centre
        if r["chuansanhu"]:
            assert f"串三户 by team {r['chuansanhu']}" in centre
            sweeps += 1
    assert sweeps


def test_player_names_and_view_text_are_escaped(gouji_games):
    s = Replay(gouji_games[2]).final
    view = gouji.view(s, None)
    view["result"] = dict(view["result"], result="<b>x</b>",
                          designation=["<img src=x onerror=alert(1)>"], chuansanhu="odd")
    view["cuts"] = [{"seat": 1, "card": "<i>", "count_dir": 1}]
    view["stage"] = "over"
    evil = ["<script>alert('p0')</script>", "a&b", "x", "y", "z", '"q"']
    html = table_html("gouji", view, evil)
    assert "<script>" not in html and "<img" not in html and "<b>x" not in html
    assert "&lt;script&gt;" in html and "a&amp;b" in html and "&quot;q&quot;" in html
    view["stage"] = "cut"
    assert "<i>" not in table_html("gouji", view, evil)


# ---------------------------------------------------------------- event details

@pytest.mark.parametrize(("event", "text"), [
    (Event("PLAY", 2, _codes("Ts", "Ts", "Th", "Tc", "Td"), -1, 10, "answer+shaped+pure+gouji"),
     "seat 2 plays 5×T (够级, pure)"),
    (Event("PLAY", 2, _codes("Ks", "Kh", "2s", "BJ"), -1, 13, "lead+shaped+gouji"),
     "seat 2 leads 4×K incl. 1×2, 1×BJ (够级)"),
    (Event("PLAY", 0, _codes("4s"), -1, 4, "lead+kaidian"), "seat 0 leads 1×4 (开点)"),
    (Event("PLAY", 1, _codes("5h", "5c"), -1, 5, "lead+void"), "seat 1 leads 2×5 (诈烧: void)"),
    (Event("BURN_START", 4, target=1, tag="burn"), "seat 4 burns seat 1's play (烧牌)"),
    (Event("BURN_START", 0, target=5, tag="counter"),
     "seat 0 burns seat 5's play (反烧, counter-burn)"),
    (Event("BURN_END", 4, tag="relieved"), "seat 4's burn ends: 解烧: the burner's 对门 answered"),
    (Event("OUT", 3, value=1, tag="finished"), "seat 3 out: 头客 (1st, +2) · went out"),
    (Event("OUT", 1, value=6, tag="men"), "seat 1 out: 拉客 (6th, −2) · 闷 (stifled)"),
    (Event("ROUND_END", 5, target=0, value=1, tag="passes"),
     "round won by seat 5 (all passed), seat 0 leads (接风)"),
    (Event("ROUND_END", -1, target=4, value=0, tag="fake_burn"), "round ends (诈烧), seat 4 leads"),
    (Event("RANG", 2), "seat 2 yields (让牌) on his 对门's play"),
    (Event("HEDIAN", 2, tag="agree"), "seat 2 agrees (和点)"),
    (Event("OPENED", 3, tag="hedian"), "seat 3 is opened (和点)"),
    (Event("DESIGNATE", 4, payload='{"order": [2, 0]}'),
     "seat 4 designates seats 2, 0 (best free position first)"),
])
def test_event_details(event, text):
    assert describe(event) == text


def test_every_corpus_event_has_a_detail(gouji_games):
    kinds = set()
    for events in gouji_games:
        for e in events:
            detail = describe(e)
            assert detail and "None" not in detail, e
            kinds.add(e.kind)
            if e.kind == "GAME_END":
                assert re.match(r"(team (even|odd) wins|draw \(平\)), even ", detail), detail
            if e.kind == "GAME_START" and e.value > 1:
                assert f"seat {e.target} (last 拉客) starts" in detail
    assert {"CUT", "DIRECTION", "DEAL", "HUIWU", "XUANDIAN", "PHASE_OPEN"} <= kinds


def test_event_rows_hide_the_deal_from_a_seat(gouji_games):
    events = gouji_games[0]
    seat_rows = event_rows(events, 3, [])
    auditor_rows = event_rows(events, "auditor", [])
    deal = next(i for i, e in enumerate(events) if e.kind == "DEAL")
    assert seat_rows[deal]["cards"] == [] and seat_rows[deal]["hidden"] == 196
    assert len(auditor_rows[deal]["cards"]) == 196
    assert seat_rows[deal]["detail"].startswith("196 cards dealt")


# ---------------------------------------------------------------- the replay page

_replay_page = _replay      # the replay page opened at ?query, no exception


def _table(at: AppTest) -> str:
    (body,) = [h.proto.body for h in at.html if "lj-table" in h.proto.body]
    return body


def test_replay_page_draws_the_gouji_table(gouji_app_db, gouji_games):
    events = next(g for g in gouji_games[1:]           # a later game ending in a 串三户
                  if Replay(g).final.result.get("chuansanhu"))
    gid = events[0].game_id
    rp = Replay(events)
    last = len(events) - 1
    at = _replay_page(game=gid, step=str(last), view="auditor")
    html = _table(at)
    assert 'class="lj-badge lj-tone-blue" data-side="even"' in html and "对门 seat 3" in html
    assert f"串三户 by team {rp.final.result['chuansanhu']}" in html
    assert "头客" in html and "拉客" in html
    events_html = "\n".join(h.proto.body for h in at.html if "lj-events" in h.proto.body)
    assert "designates" in events_html and "串三户 by team" in events_html

    step = next(i for i, e in enumerate(events) if e.kind == "BURN_START")
    at = _replay_page(game=gid, step=str(step), view="2")
    html = _table(at)
    s = rp.state_at(step)
    assert at.query_params["view"] == "2" and at.query_params["step"] == str(step)
    assert "烧牌 in progress" in html
    for seat in range(6):
        panel = _panel(html, seat)
        if seat == 2:
            assert panel.count('class="lj-card') == len(s.hands[2])
        else:
            assert 'class="lj-card' not in panel and not COUNT.search(panel)


def test_players_page_shows_how_a_player_plays_gouji(gouji_app_db, gouji_games):
    """The players page shows the player's 够级 tendencies (the catalog of docs/decisions.md)
    with what the player did out of what the player could, and the games played."""
    from warehouse import tendencies as wt
    from warehouse.db import reader

    player = Replay(gouji_games[0]).final.players[1]
    at = AppTest.from_file(APP, default_timeout=60)
    at.query_params.update(player=player)
    at.run()
    at.switch_page("views/players.py").run()
    assert not at.exception, [e.value for e in at.exception]
    assert any(s.value == "Tendencies" for s in at.subheader)
    assert any(m.value == "#### 够级 (gouji)" for m in at.markdown)
    labels = {m.label: m.value for m in at.metric}
    games = [g for g in gouji_games if player in Replay(g).final.players]
    assert labels["games"] == str(len(games))
    (shown,) = [d.value for d in at.dataframe if "did" in d.value.columns]
    with reader(gouji_app_db) as con:
        want = wt.player_tendencies(con, player, "gouji").to_pylist()
    named = wt.labels("gouji")             # shown by label ("burns a 够级 play (烧牌)")
    assert list(zip(shown["tendency"], shown["did"], shown["could"], strict=True)) == [
        (named[r["tendency"]], r["k"], r["n"]) for r in want]
