"""Wins and settlement played through the engine: the worked examples of section 10, the
recorded split and total (LH-27, LH-28, LH-36 … LH-58, LH-73), settlement (LH-59 … LH-63),
the hand's end (LH-66 … LH-68)."""

from __future__ import annotations

import json

from engine.cards import parse_face
from engine.games import liuhu as lh
from engine.games.liuhu import claims
from engine.games.liuhu import hand as hm
from tests.games.liuhu.conftest import act, auto, legal, play, rejected, table
from tests.games.liuhu.test_claims import FILL14, WAIT8

SEAT4_MELDS = [("peng", "Qh Qh Qh", 2, "Qh"), ("chi", "2d 7h Td", 3, "7h")]
SEAT1 = "8c As 4h 7c Th Kd 2h 5c 8d Jh Qs 3c 6d 9h"


def _fangchong():
    """Worked example 1: seat 1 discards 8c, seat 4 has claimed 胡 and is awarded it."""
    s = table({1: SEAT1, 4: "4s 5s 6s 6c 7c 5h 5s"}, melds={4: SEAT4_MELDS}, turn=1)
    s = auto(lh.apply(s, act(s, "DISCARD", 1, "8c")))
    assert dict(s.eligible) == {4: (("hu", ()),)}
    return play(s, act(s, "RESPOND", 4, tag="hu"))


def _values(hu):
    split = json.loads(hu.payload)["split"]
    return sorted((g["kind"], g["value"], g["exposed"]) for g in split["groups"]), split


def test_worked_example_fangchong_21_paid_by_seat_1():
    s = _fangchong()
    hu = legal(s)[0]
    assert (hu.kind, hu.seat, hu.tag, hu.target, hu.value) == ("HU", 4, "fangchong", 1, 21)
    groups, split = _values(hu)
    assert groups == [("seq", 0, False), ("seq", 0, True),       # LH-47; the one with 8c
                      ("special", 12, True),                     # LH-52 贰柒拾 all red
                      ("triplet", 3, True)]                      # LH-48 碰 Qh
    assert split["pair"]["value"] == 6 and split["bonus"] == 0   # LH-54 pair 5; LH-56
    s = play(s, hu)
    assert lh.result(s)["changes"] == [0, -21, 0, 0, 21, 0]      # LH-59, LH-61
    assert lh.result(s)["next_dealer"] == 4                      # LH-66
    # the winner wins, the discarder loses, the four who paid nothing draw (LH-61)
    assert [o.result for o in lh.outcomes(s)] == ["draw", "loss", "draw", "draw", "win", "draw"]


def _zimo(**opts):
    """Worked example 2: seat 2 has a 暗杠 of Kd and has just drawn."""
    return table({2: "3h 3h 3h 9s Ts Js 4d 5d 6d 7c 7s"}, turn=2, drawn="7s",
                 melds={2: [("an_gang", "Kd Kd Kd Kd", None, None)]}, options=opts)


def test_worked_example_zimo_15_each_of_five_pays():
    s = _zimo()
    hu = [e for e in legal(s) if e.kind == "HU"][0]
    assert (hu.tag, hu.value, hu.cards) == ("zimo", 15, (parse_face("7s"),))
    groups, split = _values(hu)
    assert ("an_gang", 9, False) in groups                       # LH-50
    assert split["pair"]["value"] == 0 and split["bonus"] == 3   # LH-53, LH-55
    s = play(s, hu)
    assert lh.result(s)["changes"] == [-15, -15, 75, -15, -15, -15]   # LH-60
    assert [o.result for o in lh.outcomes(s)] == ["loss"] * 2 + ["win"] + ["loss"] * 3


def test_zimo_bonus_not_counting_makes_12_too_little_lh45():
    s = _zimo(zimo_bonus_counts="no")
    assert not any(e.kind == "HU" for e in legal(s))
    good = lh.legal_actions(_zimo())[0]
    rejected(s, good._replace(seq=s.seq), "LH-45")


def test_worked_example_12_on_a_discard_is_refused_lh45():
    s = table({1: "3h 4h 7c Th Qc 2h 5c 8d Jh Qs 3c 6d 9h Qd",
               2: "3h 3h 9s Ts Js 4d 5d 6d 7c 7s"}, turn=1,
              melds={2: [("an_gang", "Kd Kd Kd Kd", None, None)]})
    s = auto(lh.apply(s, act(s, "DISCARD", 1, "3h")))
    assert dict(s.eligible)[2] == (("peng", (parse_face("3h"),) * 2),)
    rejected(s, act(s, "RESPOND", 2, tag="hu"), "LH-45")


def test_best_split_triplets_over_sequences_lh44():
    s = table({0: "4d 4d 4d 5d 5d 5d 6d 6d 6d 2s 3s 4s 8h 8c"}, drawn="8c")
    hu = [e for e in legal(s) if e.kind == "HU"][0]
    assert hu.value == 3 + 3 + 3 + 6 + 3                         # LH-39 triplets, pair 8
    worse = [x for x in hm.splits(s.hands[0], (), claims.hand_rules(s), win="zimo",
                                  winning_card=parse_face("8c")) if x.total < hu.value][0]
    bad = hu._replace(payload=json.dumps({"concealed": json.loads(hu.payload)["concealed"],
                                          "split": worse.to_dict()}), value=worse.total)
    rejected(s, bad, "LH-44")
    rejected(s, hu._replace(value=hu.value + 3), "LH-73")        # a total not the split's
    p = json.loads(hu.payload)
    p["concealed"] = p["concealed"][1:]
    rejected(s, hu._replace(payload=json.dumps(p)), "LH-73")
    rejected(s, hu._replace(tag="fangchong"), "LH-73")


def test_split_marks_and_melds_are_checked_lh42_lh43_lh58():
    s = _fangchong()
    hu = legal(s)[0]
    p = json.loads(hu.payload)
    for g in p["split"]["groups"]:
        g["holds_winning"] = False
    rejected(s, hu._replace(payload=json.dumps(p)), "LH-43")
    p = json.loads(hu.payload)
    for g in p["split"]["groups"]:
        if g["holds_winning"]:
            g["exposed"] = False
    rejected(s, hu._replace(payload=json.dumps(p)), "LH-58")
    p = json.loads(hu.payload)
    meld = next(g for g in p["split"]["groups"] if g["meld"] and g["kind"] == "triplet")
    meld["cards"] = ["Qd", "Qd", "Qd"]
    rejected(s, hu._replace(payload=json.dumps(p)), "LH-42")


def test_no_winning_shape_lh28_lh36_and_not_after_a_claim_lh18():
    s = table({0: "2s 5s 9s Ah 3h 6h Jh 4c 8c Qc 2d 7d Td Kd"})
    fake = legal(_zimo())[0]
    rejected(s, fake._replace(seat=0, payload=fake.payload), "LH-73")
    s2 = table({0: "2s 5s 9s Ah 3h 6h Jh 4c 8c Qc 2d 7d Td Kd"}, drawn="Kd")
    h = act(s2, "HU", 0, "Kd", value=15, tag="zimo", payload=fake.payload)
    rejected(s2, h, "LH-28")                                     # no shape (LH-36)
    s3 = table({2: "3h 3h 3h 9s Ts Js 4d 5d 6d 7c 7s"}, turn=2, phase="claimed",
               melds={2: [("an_gang", "Kd Kd Kd Kd", None, None)]})
    rejected(s3, legal(_zimo())[0]._replace(cards=()), "LH-18")


def test_kept_four_split_as_triplet_and_more_lh40_and_wild_lh46():
    s = table({0: "9h 9h 9h 9h 7h 8h 2s 3s 4s 5c 6c 7c Kd Kc"}, drawn="Kc",
              options={"min_hu": 0})
    hu = [e for e in legal(s) if e.kind == "HU"][0]
    groups = json.loads(hu.payload)["split"]["groups"]
    assert {g["kind"] for g in groups if "9h" in g["cards"]} == {"triplet", "seq"}   # LH-40
    s = table({0: "RJ 2s 3s 4s 5h 6h 7h 9c Tc Jc 3d 4d 5d 8s"}, drawn="RJ",
              options={"min_hu": 0, "hunzi": 1})
    hu = [e for e in legal(s) if e.kind == "HU"][0]
    split = json.loads(hu.payload)["split"]
    assert split["pair"]["wild"] or any(g["wild"] for g in split["groups"])     # LH-46
    assert play(s, hu).phase == "over"


def test_pair_match_face_lh41():
    """LH-41: with pair_match = face an 8c does not pair an 8s."""
    for mode, wins in (("rank", True), ("face", False)):
        s = table({0: "8c " + FILL14[3:], 3: WAIT8}, options={"min_hu": 0, "pair_match": mode})
        s = auto(lh.apply(s, act(s, "DISCARD", 0, "8c")))
        assert (3 in dict(s.eligible)) == wins


def test_special_mixed_colour_6_lh51_and_ming_gang_6_lh49_and_rob_lh57():
    s = table({0: "Ah 2s 3h 4s 5s 6s 7c 8c 9c 5d 5d Jd Qd Kd"}, drawn="Kd",
              melds={}, options={"min_hu": 0})
    hu = [e for e in legal(s) if e.kind == "HU"][0]
    groups, _ = _values(hu)
    assert ("special", 6, False) in groups                       # LH-51: 杂色 壹贰叁
    s = table({0: "2s 3s 4s 5h 6h 7h 9c Tc Jc 8s 8c"}, drawn="8c",
              melds={0: [("ming_gang", "Qh Qh Qh Qh", 2, "Qh")]}, options={"min_hu": 0})
    groups, _ = _values([e for e in legal(s) if e.kind == "HU"][0])
    assert ("ming_gang", 6, True) in groups                      # LH-49
    s = table({0: "As 2c 3c 4c 5d 5d Jd Qd Kd 6s 8s",
               3: "2s 3s 5h 6h 7h 9c Tc Jc 3d 4d 5d 8h 8c"},
              melds={0: [("peng", "As As As", 5, "As")]}, options={"min_hu": 0})
    s = auto(lh.apply(s, act(s, "JIA_GANG", 0, "As")))
    s = play(s, act(s, "RESPOND", 3, tag="hu"))
    hu = legal(s)[0]
    assert json.loads(hu.payload)["split"]["bonus"] == 0         # LH-57: like 放铳
    s = lh.apply(s, hu)
    settle = lh.auto_event(s)
    rejected(s, settle._replace(payload='{"changes":[0,0,0,0,0,0]}'), "LH-62")


def test_settlement_refusals_lh60_lh61_lh63():
    s = lh.apply(_zimo(), legal(_zimo())[0])
    good = lh.auto_event(s)
    rejected(s, good._replace(payload='{"changes":[0,0,15,-15,0,0]}'), "LH-60")
    s = _fangchong()
    s = lh.apply(s, legal(s)[0])
    rejected(s, lh.auto_event(s)._replace(payload='{"changes":[-21,0,0,0,21,0]}'), "LH-61")
    s = table({0: "8c " + FILL14[3:], 2: WAIT8, 4: WAIT8},
              options={"min_hu": 0, "multi_win": "all"})
    s = auto(lh.apply(s, act(s, "DISCARD", 0, "8c")))
    s = play(s, act(s, "RESPOND", 2, tag="hu"), act(s, "RESPOND", 4, tag="hu"))
    s = lh.apply(s, legal(s)[0])
    s = lh.apply(s, legal(s)[0])
    rejected(s, lh.auto_event(s)._replace(payload='{"changes":[-3,0,3,0,0,0]}'), "LH-63")


def test_hand_end_next_dealer_and_balances_lh66_lh67_lh68():
    s = lh.apply(_fangchong(), legal(_fangchong())[0])
    s = lh.apply(s, lh.auto_event(s))
    end = lh.auto_event(s)
    assert end.target == 4
    rejected(s, end._replace(target=1), "LH-66")
    rejected(s, end._replace(payload=end.payload.replace('"hand":1', '"hand":2')), "LH-68")
    for mode, nd in (("stay", 3), ("next", 4)):
        s = table({0: FILL14}, options={"draw_dealer": mode}, dealer=3, wall_size=0)
        s = lh.apply(s, act(s, "DISCARD", 0, "As"))
        while lh.next_auto(s) != "GAME_END":
            s = lh.apply(s, lh.auto_event(s))
        end = lh.auto_event(s)
        assert end.target == nd and end.tag == "liuju"                 # LH-67
        rejected(s, end._replace(target=(nd + 1) % 6), "LH-67")
