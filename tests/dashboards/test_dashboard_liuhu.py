"""The 扑克六湖 table (engine/games/liuhu/table.py, drawn by dashboards/table.py) and event
details (``describe``) on seeded greedy games: melds
face up, a 暗杠's one public face, the pool in order, the wall, the claim window as each viewer
may know it, the winning split, hidden hands, escaping; and the replay page on a liuhu game."""

from __future__ import annotations

import re
from collections import Counter

import pytest

from dashboards.events import event_rows, ordinal
from dashboards.table import model_html, table_html
from engine.cards import format_face, parse_face, pretty_face
from engine.events import Event
from engine.games import liuhu as lh
from engine.games.liuhu.describe import GROUP_TEXT
from engine.games.liuhu.table import describe, table
from engine.log import write_log
from engine.replay import Replay
from engine.sim import simulate
from tests.dashboards.test_replay_perspective import _replay

FACE = re.compile(r'data-face="([^"]+)"')
VIEWERS = (None, 0, 1, 2, 3, 4, 5)


@pytest.fixture(scope="module")
def games():
    """Twelve seeded greedy hands (sealed events), the same on every run."""
    return [sim.events for sim in simulate("liuhu", 12, seed=1, policy_name="greedy")]


def _find(games, pred):
    found = next((ev for ev in games if pred(ev)), None)
    assert found is not None
    return found


def _index(events, kind: str) -> int:
    return next(i for i, e in enumerate(events) if e.kind == kind)


def _html(rp: Replay, step: int, seat: int | None, players=None) -> tuple[dict, str]:
    s = rp.state_at(step)
    view = rp.game.view(s, seat)
    return view, table_html("liuhu", view, players or s.players, style=False)


def _panel(html: str, seat: int) -> str:
    start = html.index(f'data-seat="{seat}"')
    ends = [i for i in (html.find('data-seat="', start + 10), html.find("lj-centre", start))
            if i >= 0]
    return html[start:min(ends)]


def _hand(panel: str) -> str:
    return re.search(r'<div class="lj-hand[^"]*">(.*?)</div>', panel).group(1)


def _centre(html: str) -> str:
    return html[html.index('class="lj-centre"'):]


def _melds(panel: str) -> list[tuple[str, list[str], int]]:
    """Each meld shown in a panel: (kind, faces, face-down cards); the face-down cards are
    drawn as card backs with their count (none when there are none)."""
    out = []
    for kind, down, body in re.findall(r'<div class="lj-group" data-meld="([^"]*)" '
                                       r'data-face-down="(\d+)">(.*?)</div>', panel):
        backs = re.findall(r'<span class="lj-back" title="(\d+) cards face down">🂠 × (\d+)'
                           r'</span>', body)
        assert backs == ([(down, down)] if int(down) else []), body
        assert body.count("lj-back") == len(backs) and "face down" not in re.sub(
            r'<span class="lj-back".*?</span>', "", body)        # no '+ 3 face down' note
        out.append((kind, FACE.findall(body), int(down)))
    return out


def _pool(centre: str) -> list[tuple[int, str, int]]:
    """The pool as drawn: (place in the pool, seat, face) from the per-seat lines."""
    out = []
    for seat, at, body in re.findall(r'data-pool-seat="(\d)" data-pool-at="([\d ]*)">(.*?)</div>',
                                     centre):
        faces = FACE.findall(body)
        places = [int(i) for i in at.split()]
        assert len(faces) == len(places)
        for i, f in zip(places, faces, strict=True):
            assert f"{pretty_face(parse_face(f))}</span>{i + 1}".translate(
                str.maketrans("0123456789", "⁰¹²³⁴⁵⁶⁷⁸⁹")) in body.translate(
                str.maketrans("0123456789", "⁰¹²³⁴⁵⁶⁷⁸⁹"))      # its place, drawn small
        out += [(i, int(seat), f) for i, f in zip(places, faces, strict=True)]
    return sorted(out)


def test_the_game_declares_the_liuhu_table(games):
    assert lh.GAME.table is table and lh.GAME.describe is describe
    rp = Replay(games[0])
    view = rp.game.view(rp.state_at(40), 2)
    assert table_html("liuhu", view) == model_html(table(view, None))


def test_melds_are_face_up_for_every_seat(games):
    events = games[1]
    rp = Replay(events)
    step = len(events) - 1
    seen = 0
    for viewer in VIEWERS:
        view, html = _html(rp, step, viewer)
        for i in range(6):
            want = [(m["kind"], m["cards"], 0) for m in view["melds"][i]]
            assert _melds(_panel(html, i)) == want, (viewer, i)
            seen += len(want)
    assert seen


def test_an_an_gang_shows_one_face_to_others_and_four_to_the_auditor(games):
    events = _find(games, lambda ev: any(e.kind == "AN_GANG" for e in ev))
    rp = Replay(events)
    step = _index(events, "AN_GANG")
    owner, face = events[step].seat, format_face(events[step].cards[0])
    for viewer in VIEWERS:
        _, html = _html(rp, step, viewer)
        (gang,) = [m for m in _melds(_panel(html, owner)) if m[0] == "an_gang"]
        if viewer is None or viewer == owner:
            assert gang == ("an_gang", [face] * 4, 0), viewer
        else:
            assert gang == ("an_gang", [face], 3), viewer


def test_the_pool_shows_the_discards_in_order(games):
    events = games[0]
    rp = Replay(events)
    for step in (20, 90, len(events) - 1):
        for viewer in (None, step % 6):
            view, html = _html(rp, step, viewer)
            shown = _pool(_centre(html))
            assert [i for i, _, _ in shown] == list(range(len(shown)))
            assert [(s, f) for _, s, f in shown] == [(p["seat"], p["card"]) for p in view["pool"]]
            assert len(view["pool"]) > 2
            last = len(shown) - 1
            latest = re.search(r'data-pool-latest="(\d+)">(.*?)</div>', _centre(html))
            assert latest.group(1) == str(last)
            assert pretty_face(parse_face(view["pool"][-1]["card"])) in latest.group(2)
            assert f"by seat {view['pool'][-1]['seat']}" in latest.group(2)


def test_the_wall_size_is_the_views(games):
    events = games[0]
    rp = Replay(events)
    sizes = set()
    for step in range(1, len(events), 29):
        for viewer in (None, 3):
            view, html = _html(rp, step, viewer)
            assert re.search(r'data-wall="(\d+)"', html).group(1) == str(view["wall_size"])
            sizes.add(view["wall_size"])
    assert len(sizes) > 3


def test_a_seat_sees_no_eligibility_but_its_own_the_auditor_all(games):
    events = _find(games, lambda ev: any(e.kind == "WINDOW" and e.payload for e in ev))
    rp = Replay(events)
    w = next(i for i, e in enumerate(events) if e.kind == "WINDOW" and e.payload)
    view, html = _html(rp, w, None)
    elig = view["window"]["eligible"]
    first = next(iter(elig))
    assert 'data-lh-eligible="1"' in html and f"eligible seat {first}: " in _centre(html)
    assert f"seat {int(first)} to answer the claim window" in html
    for seat in range(6):
        view, html = _html(rp, w, seat)
        centre = _centre(html)
        assert "data-lh-eligible" not in centre and "answers:" not in centre
        assert ("you may claim" in centre) == (str(seat) == first), seat
        for other in elig:
            if int(other) != seat:
                assert "lj-act" not in _panel(html, int(other)) and "to answer" not in html
    # once answered (the AWARD owed): the auditor sees the answer, the seats nothing yet
    ans = events[w + 1]
    assert ans.kind == "RESPOND"
    _, html = _html(rp, w + 1, None)
    assert f"answers: seat {ans.seat} " in html
    for seat in range(6):
        _, html = _html(rp, w + 1, seat)
        assert "answers:" not in html and "calls (public" not in html


def test_a_win_shows_the_recorded_split(games):
    import json

    events = _find(games, lambda ev: any(e.kind == "HU" for e in ev))
    hu = events[_index(events, "HU")]
    split = json.loads(hu.payload)["split"]
    rp = Replay(events)
    for viewer in VIEWERS:
        view, html = _html(rp, len(events) - 1, viewer)
        block = _centre(html)[_centre(html).index(f'data-win-seat="{hu.seat}"'):]
        grid = block[block.index('<table class="lj-grid"><caption>the split'):]
        grid = grid[:grid.index("</table>")]
        parts = [*split["groups"], {"kind": "pair", **split["pair"]}]
        facts = re.findall(r'<tr data-group="([^"]+)" data-cards="([^"]*)" '
                           r'data-value="(-?\d+)">', grid)        # each row's facts, as before
        assert facts == [(g["kind"], " ".join(g["cards"]), str(g["value"])) for g in parts]
        rows = re.findall(r"<tr[^>]*><td>([^<]*)</td><td>(.*?)</td><td>[^<]*</td><td>([^<]*)"
                          r"</td></tr>", grid)
        labels = {**GROUP_TEXT, "pair": "对子 pair"}
        assert [(label, re.findall(r'title="[^"]*">([^<]+)</span>', cards), value)
                for label, cards, value in rows[:len(parts)]] == [
            (labels[g["kind"]], [pretty_face(parse_face(f)) for f in g["cards"]],
             str(g["value"])) for g in parts]
        assert rows[len(parts)][0].startswith("bonus") and rows[len(parts)][2] == str(
            split["bonus"])
        assert rows[len(parts) + 1][0] == "total" and rows[len(parts) + 1][2] == f"{hu.value} hu"
        assert f'<tr data-bonus="{split["bonus"]}"><td>bonus' in grid
        assert f'<tr data-total="{hu.value}"><td>total</td>' in grid
        assert f'data-total="{hu.value}"' in block and f'data-bonus="{split["bonus"]}"' in block
        assert split["total"] == hu.value
        panel = _panel(html, hu.seat)
        assert Counter(FACE.findall(_hand(panel))) == Counter(view["hands"][hu.seat]), viewer
        assert Counter(FACE.findall(block)) == Counter(json.loads(hu.payload)["concealed"])
        assert "settlement (chips this hand" in block


def test_a_liuju_is_shown_as_such(games):
    events = _find(games, lambda ev: any(e.kind == "LIUJU" for e in ev))
    rp = Replay(events)
    _, html = _html(rp, len(events) - 1, 2)
    assert "流局" in _centre(html) and "data-win-seat" not in html
    assert all('data-result="draw"' in _panel(html, i) for i in range(6))


def test_no_other_seats_concealed_card_is_shown(games):
    for events in games[:3]:
        rp = Replay(events)
        for step in range(2, len(events), 17):
            s = rp.state_at(step)
            for seat in range(6):
                view, html = _html(rp, step, seat)
                winners = {w["seat"] for w in view["wins"]}
                for i in range(6):
                    if i != seat and i not in winners:
                        hand = _hand(_panel(html, i))
                        assert "data-face" not in hand and f"× {len(s.hands[i])}" in hand
                public = Counter(view["hands"][seat]) + Counter(p["card"] for p in view["pool"])
                for i, row in enumerate(view["melds"]):
                    for m in row:
                        public += Counter(m["cards"][:1] if m["kind"] == "an_gang" and i != seat
                                          else m["cards"])
                for w in view["wins"]:
                    public += Counter(w["concealed"]) + Counter(w["concealed"])
                assert not Counter(FACE.findall(html)) - public, (step, seat)


def test_hostile_strings_are_escaped(games):
    rp = Replay(games[1])
    view = rp.game.view(rp.final, None)
    bad = iter(f"<evil-{i} x='1'>" for i in range(40))
    view["melds"][0] = [{"kind": next(bad), "cards": [next(bad)], "from": 1, "card": next(bad)}]
    view["pool"] = [{"seat": 2, "card": next(bad)}]
    view["window"] = {"kind": next(bad), "card": next(bad), "from": 1,
                      "eligible": {next(bad): [[next(bad)]]}, "answers": [[next(bad), next(bad)]],
                      "calls": [f"{next(bad)} {next(bad)}"]}
    joker = next(bad)                                  # an RJ standing for a hostile face
    view["wins"] = [{"seat": 1, "type": next(bad), "card": next(bad), "total": next(bad),
                     "concealed": [next(bad)],
                     "split": {"groups": [{"kind": next(bad), "cards": [joker],
                                           "value": next(bad), "wild": [joker]}],
                               "pair": {"cards": [next(bad)], "value": next(bad)},
                               "bonus": next(bad), "total": next(bad)}}]
    view["game_id"] = next(bad)
    evil = ["<script>alert('p0')</script>", "a&b", "x", "y", "z", '"q"']
    html = table_html("liuhu", view, evil)
    assert "<evil-" not in html and "<script>" not in html
    assert "&lt;script&gt;alert(&#x27;p0&#x27;)" in html and "a&amp;b" in html
    assert "&quot;q&quot;" in html
    assert "RJ as" in html
    for i in range(24):
        assert f"&lt;evil-{i} x=&#x27;1&#x27;&gt;" in html, i


# ---------------------------------------------------------------- event details

@pytest.mark.parametrize(("event", "text"), [
    (Event("PENG", 3, cards=(parse_face("7h"),) * 3, target=2), "claims 碰 on 7h from seat 2"),
    (Event("CHI", 3, cards=(parse_face("5s"), parse_face("4s"), parse_face("6s")), target=2),
     "claims 吃 on 5s from seat 2"),
    (Event("HU", 4, target=-1, value=21, tag="zimo"), "自摸 — 21 hu"),
    (Event("HU", 3, cards=(parse_face("2s"),), target=2, value=21, tag="fangchong"),
     "放铳 on 2s from seat 2 — 21 hu"),
    (Event("DISCARD", 1, cards=(5,)), "discards"),
    (Event("RESPOND", 2, tag="pass"), "passes"),
    (Event("RESPOND", -1), "answers the window (hidden)"),
    (Event("RESPOND", 2, tag="hu"), "calls 胡 hu"),
    (Event("DRAW", 2, cards=(5,), tag="tail"), "replacement draw from the tail"),
    (Event("WINDOW", -1, cards=(5,), target=1, value=0b10100, tag="discard"),
     "claim window on 6s from seat 1: eligible seats 2, 4"),
    (Event("AWARD", -1, cards=(5,), target=4, tag="chi",
           payload='{"calls":[[4,"chi","5s","7s"]],"executed":[4]}'),
     "calls: seat 4 吃 chi; awarded to seat 4"),
    (Event("LIUJU"), "流局: the wall is empty, nobody wins"),
])
def test_event_details(event, text):
    assert describe(event) == text


def test_passes_are_told_only_to_the_auditor_and_the_passer(games):
    events = _find(games, lambda ev: any(e.kind == "RESPOND" and e.tag == "pass" for e in ev))
    passers = {e.seq: e.seat for e in events if e.kind == "RESPOND" and e.tag == "pass"}
    assert any(r["detail"] == "passes" for r in event_rows(events, "auditor", []))
    for seat in range(6):
        for row in event_rows(events, seat, []):
            assert row["detail"] and "None" not in row["detail"], row
            if row["detail"] == "passes":
                assert passers[row["at"]] == seat


# ---------------------------------------------------------------- the replay page

@pytest.fixture(scope="module")
def liuhu_db(tmp_path_factory, games):
    from ingest import ingest_paths

    root = tmp_path_factory.mktemp("liuhu-warehouse")
    (root / "logs").mkdir()
    write_log(root / "logs" / "liuhu.arrows", games[:1])
    db = root / "liuhu.duckdb"
    summary = ingest_paths([root / "logs"], db=db, progress=False)
    assert summary.loaded == 1 and summary.quarantined == 0, summary
    return db


def test_replay_page_draws_the_liuhu_table(liuhu_db, games, monkeypatch):
    monkeypatch.setenv("LIUJIA_DB", str(liuhu_db))
    events = games[0]
    at = _replay(game=events[0].game_id, step="40", view="2")
    (html,) = [h.proto.body for h in at.html if "lj-table" in h.proto.body]
    assert "data-pool-seat=" in html and "data-wall=" in html
    assert 'data-seat="2" class="lj-seat' in html and "lj-me" in _panel(html, 2)


def test_a_seat_on_the_replay_page_sees_no_hidden_answer(liuhu_db, games, monkeypatch):
    """At a step that is another seat's RESPOND, a seat's page shows the last event it saw
    (the current line and the list stop there) and never the answer; the last step works."""
    from engine.games import find_game
    monkeypatch.setenv("LIUJIA_DB", str(liuhu_db))
    events, g = games[0], find_game("liuhu")
    step, seat = next((e.seq, s) for e in events if e.kind == "RESPOND"
                      for s in range(6) if s != e.seat and g.event_hidden(e, s))
    saw = [e.seq for e in events[:step + 1] if not g.event_hidden(e, seat)]
    at = _replay(game=events[0].game_id, step=str(step), view=str(seat))
    assert not at.exception
    (line,) = [h.proto.body for h in at.html if "lj-now-line" in h.proto.body]
    assert f"seq {saw[-1]}</b>" in line and "RESPOND" not in line and " / " not in line, \
        line[-300:]
    assert f"the {ordinal(len(saw))} event seat {seat} saw" in line
    listed = at.dataframe[0].value
    assert list(listed["seq"]) == saw                    # the log's seqs of what it saw
    assert all(int(x) == seat for k, x in zip(listed["kind"], listed["seat"], strict=True)
               if k == "RESPOND")                       # its own answers only
    at = _replay(game=events[0].game_id, step=str(len(events) - 1), view=str(seat))
    assert not at.exception


def test_a_moment_has_one_number(liuhu_db, games, monkeypatch):
    """A seat's view of a moment after events hidden from it: the URL, the slider, the
    current event's line, the table's footer and the audit link all say the log's seq; the
    line and the footer add which of the seat's events it is."""
    from engine.games import find_game
    monkeypatch.setenv("LIUJIA_DB", str(liuhu_db))
    events, g = games[0], find_game("liuhu")
    seat = 2
    saw = [e.seq for e in events if not g.event_hidden(e, seat)]
    k = next(i for i, q in enumerate(saw) if q > i + 5 and i > 20)   # after hidden events
    step, nth = saw[k], ordinal(k + 1)
    at = _replay(game=events[0].game_id, step=str(step), view=str(seat))
    assert not at.exception
    assert at.query_params["step"] in (str(step), [str(step)])
    assert at.select_slider(key="rp_step").value == step
    (line,) = [h.proto.body for h in at.html if "lj-now-line" in h.proto.body]
    assert f"<b>seq {step}</b>" in line and f"(the {nth} event seat {seat} saw)" in line
    (table,) = [h.proto.body for h in at.html if "lj-table" in h.proto.body]
    foot = table[table.index('class="lj-perspective"'):]
    assert f"after seq {step} (the {nth} event seat {seat} saw)" in foot
    (link,) = [p for p in at.page_link if "audit" in p.proto.label]
    assert f"seq {step}" in link.proto.label and link.proto.query_string.endswith(
        f"seq={step}"), link.proto
    notes = "\n".join(h.proto.body for h in at.html)
    assert f"step={step}&amp;view={seat}" in notes
    at.button(key="rp_next").click().run()                # steps to its next seen event
    assert at.select_slider(key="rp_step").value == saw[k + 1]
