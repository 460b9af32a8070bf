"""Information and positions (MDS-41, MDS-42): what each seat sees, the position JSON and its
checks, the terminal rendering."""

from __future__ import annotations

import json

import pytest

from engine.cards import parse_faces
from engine.errors import InvalidEvent
from engine.events import Event
from engine.games import modaoshuang as mds
from engine.replay import Replay
from engine.text import safe_text

from .conftest import draw, no_play, play, playout, pos, run, started

# ---------------------------------------------------------------- MDS-41 information

def test_mds_41_a_seat_sees_its_hand_and_counts_of_the_others():
    """MDS-41: own faces, other hands as counts (public), no stock order; the auditor sees all."""
    s = started(3, n=4)
    full = mds.view(s, None)
    assert full["perspective"] == "auditor" and full["stock"] and full["deck"]
    for seat in range(4):
        v = mds.view(s, seat)
        assert v["perspective"] == seat
        assert v["hands"] == [full["hands"][i] if i == seat else len(s.hands[i])
                              for i in range(4)]
        assert "stock" not in v and "deck" not in v and v["stock_size"] == len(s.stock)
        for key in ("round", "dead", "options", "to_act", "phase", "players", "sides",
                    "outcomes", "report", "penalty", "winner", "shoudaoshuang"):
            assert v[key] == full[key], key
        json.dumps(v)


def test_mds_41_the_suit_draw_face_is_the_drawers_alone():
    """MDS-41: the suit is public, the drawn face only the drawer's; the event's stock order
    nobody's."""
    s = started(5, n=3, first_leader=1)
    drawer = 0
    for seat in range(3):
        sd = mds.view(s, seat)["suit_draw"]
        assert sd["suit"] == "shcd"[s.first_suit] and sd["drawer"] == drawer
        assert ("cards" in sd) == (seat == drawer)
    e = Event("SUIT_DRAW", seat=drawer, cards=parse_faces("BJ 7h") + s.stock, value=1)
    assert [mds.cards_visible(e, k) for k in (0, 1, 2)] == [False, False, False]
    assert mds.seen_event(e, drawer).cards == parse_faces("BJ 7h")
    assert mds.seen_event(e, 1).cards == () and mds.seen_event(e, None) == e


def test_mds_41_a_drawn_face_and_the_held_flag_stay_private():
    """MDS-41: a draw's face is the drawer's; whether it held the suit is in the event only
    (auditors), never in a view."""
    s = pos(["2s 3s", "4h 5d", "6h 8d"], stock="Kc 9c", table=[(0, "5h")])
    e = draw(s, 1)
    assert [mds.cards_visible(e, k) for k in (0, 1, 2, None)] == [False, True, False, True]
    t = mds.apply(s, e)
    for seat in (0, 2):
        v = mds.view(t, seat)
        assert "Kc" not in json.dumps(v) and v["hands"][1] == 3
    assert mds.cards_visible(play(s, 1, "4h"), 0)
    deal = Event("DEAL", seat=2, cards=parse_faces("2s 3s"))
    assert [mds.cards_visible(deal, k) for k in (0, 1, 2)] == [False, False, True]
    assert not mds.cards_visible(Event("GAME_START", cards=tuple(range(54))), 0)


def test_mds_41_a_view_depends_only_on_what_the_seat_knows():
    """MDS-41: positions that differ only in another seat's hidden cards look the same."""
    a = pos(["2s 3s", "4h 5d 9c", "6h 8d"], stock="Kc 9d", table=[(0, "5h")])
    b = pos(["2s 3s", "4h 5d 9d", "6h 8d"], stock="Kc 9c", table=[(0, "5h")])
    for seat in (0, 2):
        assert mds.view(a, seat) == mds.view(b, seat)
    assert mds.view(a, 1) != mds.view(b, 1)


def test_mds_41_collected_cards_and_played_cards_are_public():
    """MDS-41: every played card and its player, the collector and what it takes."""
    s = pos(["5h 2s", "3d 4d", "8d 9d Td Jd", "7h 2c"], leader=0)
    s = run(s, play(s, 0, "5h"), lambda t: no_play(t, 1, "no_suit"),
            lambda t: no_play(t, 2, "no_suit"), lambda t: play(t, 3, "7h"))
    e = mds.auto_event(s)
    assert all(mds.cards_visible(e, k) for k in range(4))
    v = mds.view(s, 2)
    assert v["round"]["plays"] == [{"seat": 0, "card": "5h"}, {"seat": 3, "card": "7h"}]
    assert v["round"]["collector"] == 1


# ---------------------------------------------------------------- MDS-42 positions

def _round_trip(s):
    return mds.from_position(json.loads(json.dumps(mds.to_position(s))))


@pytest.mark.parametrize(("seed", "opts", "policy"), [
    (1, {"mds_players": 3}, "random"), (2, {"mds_players": 5}, "greedy"),
    (3, {"mds_players": 4, "mds_joker_violation": "illegal", "mds_one_card_report": True},
     "random")])
def test_mds_42_every_state_is_a_position_and_play_goes_on_from_it(seed, opts, policy):
    """MDS-42: any state written and read back is equal, and the game continues from the
    loaded position exactly as from the live state."""
    events, final = playout(seed, opts, policy)
    rep = Replay(events)
    for i, s in enumerate(rep.states()):
        p = mds.to_position(s)
        assert p["format"] == "liujia.modaoshuang.position/1" and p["game"] == "modaoshuang"
        t = _round_trip(s)
        assert t == s, i
        for e in events[i + 1:i + 4]:
            mds.step(t, e)
    assert _round_trip(final) == final and mds.result(final) == mds.result(_round_trip(final))


def _base():
    s = pos(["2s 3s 4s 5s", "4h 5d", "6h 8d 9d"], stock="Kc 9c", table=[(0, "5h")])
    return json.loads(json.dumps(mds.to_position(s)))


BREAKS = {  # field named in the error -> how the position is broken
    "format": lambda p: p.update(format="x"),
    "game_id": lambda p: p.update(game_id=3),
    "seq": lambda p: p.update(seq=0),
    "phase": lambda p: p.update(phase="bidding"),
    "players": lambda p: p["options"].update(mds_players=4),
    "options": lambda p: p["options"].update(mds_zhamo="yes"),
    "deck": lambda p: p.update(deck=p["deck"][:-1]),
    "hands": lambda p: p["hands"][0].append("Kc"),
    "shoudaoshuang": lambda p: p.update(shoudaoshuang=True),
    "round.plays": lambda p: (p["hands"][2].remove("6h"),
                              p["round"]["plays"].append({"seat": 2, "card": "6h"})),
    "round.collector": lambda p: p["round"].update(collector=0),
    "round.suit": lambda p: p["round"].update(suit="d"),
    "report": lambda p: p.update(report={"seat": 2, "count": 2}),
    "penalty": lambda p: p.update(penalty={"seat": 1, "cause": "report", "draws": 0,
                                           "gift_seats": []}),
    "winner": lambda p: p.update(winner=0),
    "to_act": lambda p: p.update(to_act=2),
    "result": lambda p: p.update(result={"winner": 0}),
    "out_pending": lambda p: p.update(out_pending=1),
    "missed_reports[0].cause": lambda p: p.update(missed_reports=[{"seat": 1, "cause": "x"}]),
    "suit_draw.cards": lambda p: p.update(suit_draw={"suit": "h", "cards": ["BJ"]}),
}


@pytest.mark.parametrize("name", sorted(BREAKS))
def test_mds_42_an_impossible_position_is_refused_naming_the_field(name):
    """MDS-42: from_position raises InvalidEvent naming the field, for anything no game can
    reach."""
    p = _base()
    assert mds.from_position(json.loads(json.dumps(p))) is not None
    BREAKS[name](p)
    with pytest.raises(InvalidEvent) as info:
        mds.from_position(p)
    assert info.value.field == name, info.value


def test_mds_42_a_missing_field_is_named():
    """MDS-42: a position lacking a field names it."""
    p = _base()
    del p["stock"]
    with pytest.raises(InvalidEvent) as info:
        mds.from_position(p)
    assert info.value.field == "stock"


# ---------------------------------------------------------------- rendering

def test_render_is_plain_text_with_untrusted_ids_escaped(monkeypatch):
    """Render: the table as text; control characters in player ids never reach the terminal
    (the engine refuses such ids on GAME_START; render escapes them all the same)."""
    events, final = playout(4, {"mds_players": 3})
    p = json.loads(events[0].payload)
    p["players"] = ["evil\x1b[31m", "p1\n", "玩家"]
    e0 = events[0]._replace(payload=json.dumps(p))
    with pytest.raises(InvalidEvent, match=r"player id of seat 0 'evil\\x1b\[31m' holds U\+001B"):
        Replay([e0, *events[1:]])
    monkeypatch.setattr("engine.games.common.id_problem", lambda value: None)
    rep = Replay([e0, *events[1:]])
    for i, s in enumerate(rep.states()):
        for seat in (None, 0):
            text = mds.GAME.render(s, seat)
            assert "\x1b" not in text and "p1\n" not in text and "玩家" in text
            if seat == 0 and i > 3:
                assert "hidden" in text
    final, w = mds.GAME.render(rep.final), rep.final.winner
    assert f"game over: seat {w} ({safe_text(rep.final.players[w])}) won" in final
