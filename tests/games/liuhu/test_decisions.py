"""Decision points of 扑克六湖 on positions (docs/decisions.md): the categories the bots rarely
choose with an alternative — a discard instead of a kong or 自摸, 暗杠 (LH-23), 加杠 (LH-22), 杠
on a discard (LH-21) — and the facts recorded."""

from __future__ import annotations

from engine.cards import parse_face
from engine.games import liuhu as lh
from engine.games.liuhu import decisions as dm
from tests.games.liuhu.conftest import act, auto, legal, table
from tests.games.liuhu.test_claims import FILL14

KONG_HAND = "9h 9h 9h 9h 2c 3c 4c 5d 5d Jd Qd Kd 6s 8s"


def _agrees(s, e):
    d = dm.decision(s, e)
    cats = {dm.action_category(s, a) for a in legal(s)} - {None}
    assert d is not None and d.options == cats and d.chosen == dm.action_category(s, e)
    return d


def test_discard_or_an_gang_lh23():
    s = table({0: KONG_HAND}, drawn="8s", dealer=0)
    d = _agrees(s, act(s, "DISCARD", 0, "8s"))
    assert d.options == {"discard", "an_gang"} and d.chosen == "discard"
    assert set(d.tags) == {"just_drawn", "dealer"} and d.phase == "post_draw"
    d = _agrees(s, act(s, "AN_GANG", 0, "9h"))
    assert d.chosen == "an_gang" and d.cards == (parse_face("9h"),)


def test_jia_gang_lh22():
    s = table({0: "As 2c 3c 4c 5d 5d Jd Qd Kd 6s 8s"},
              melds={0: [("peng", "As As As", 5, "As")]}, dealer=3)
    d = _agrees(s, act(s, "JIA_GANG", 0, "As"))
    assert d.options == {"discard", "jia_gang"} and "dealer" not in d.tags


def test_gang_peng_pass_on_a_discard_lh21():
    s = table({0: "9s " + FILL14[3:], 3: "9s 9s 9s Ah 2h 5h Th 5c 6c 8c Jc Qc 3d"},
              wall_size=10)
    s = auto(lh.apply(s, act(s, "DISCARD", 0, "9s")))
    d = _agrees(s, act(s, "RESPOND", 3, tag="gang"))
    assert d.options == {"pass", "peng", "gang"} and d.phase == "discard_window"
    assert d.top_seat == 0 and "wall_low" in d.tags and d.can_answer


def test_no_decision_without_a_choice_of_kinds_lh18():
    s = table({0: FILL14})
    assert dm.decision(s, act(s, "DISCARD", 0, "As")) is None
    assert dm.opposite_seat(2, 6) == -1 and dm.lapsed(s, act(s, "DISCARD", 0, "As")) == ()
