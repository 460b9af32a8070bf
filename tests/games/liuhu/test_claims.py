"""Claims and the claim window (sections 7, 8): 碰, 杠, 吃, 胡 on a discard, robbing a 加杠,
priority and several 胡 (LH-6, LH-17, LH-20 … LH-35, LH-37, LH-38)."""

from __future__ import annotations

import json

from engine.cards import parse_face
from engine.games import liuhu as lh
from tests.games.liuhu.conftest import act, auto, legal, play, rejected, table

# 13 cards waiting on the pair: any 8 completes it (pair_match rank), no bonus needed with
# min_hu 0
WAIT8 = "2s 3s 4s 5h 6h 7h 9c Tc Jc 3d 4d 5d 8s"
FILL14 = "As 4h 7c Th Kd 2h 5c 8d Jh Qs 3c 6d 9h Qd"   # the discarder's hand: no claims


def _window(s, seat, card):
    """Discard and apply the WINDOW."""
    return auto(lh.apply(s, act(s, "DISCARD", seat, card)))


def _eligible(s):
    return {seat: [c[0] if c[0] != "chi" else ("chi",) + c[1] for c in cl]
            for seat, cl in s.eligible}


def test_peng_needs_two_of_the_face_lh20_and_gang_three_lh21():
    s = table({0: "9s " + FILL14[3:], 3: "9s 9s 9s Ah 2h 5h Th 5c 6c 8c Jc Qc 3d",
               1: "8s Ts Ah 2h 5h 6d Th 5c 6c 8c Jc Qc 3d"})
    s = _window(s, 0, "9s")
    elig = _eligible(s)
    assert elig[3] == ["gang", "peng"]                              # LH-21: peng or gang
    assert elig[1] == [("chi", parse_face("8s"), parse_face("Ts"))]  # LH-26
    rejected(s, act(s, "RESPOND", 1, tag="peng"), "LH-20")
    rejected(s, act(s, "RESPOND", 1, tag="gang"), "LH-21")
    s = play(s, act(s, "RESPOND", 1, tag="pass"), act(s, "RESPOND", 3, tag="gang"))
    assert s.phase == "claim" and lh.to_move(s) == 3
    s = play(s, legal(s)[0])                                        # MING_GANG
    assert s.melds[3][0][0] == "ming_gang" and s.turn == 3 and s.phase == "turn"
    assert s.drawn >= 0                                             # LH-24 tail draw made


def test_turn_skips_to_the_claimer_lh17():
    s = table({0: "9s " + FILL14[3:], 3: "9s 9s Ah 2h 5h Th 5c 6c 8c Jc Qc 3d 3h"})
    s = _window(s, 0, "9s")
    s = play(s, act(s, "RESPOND", 3, tag="peng"))
    s = play(s, legal(s)[0])
    assert (s.turn, s.phase) == (3, "claimed")                      # seats 1, 2 skipped
    s = play(s, act(s, "DISCARD", 3, "Ah"))
    assert s.turn == 4                                              # the claimer's next


def test_chi_middle_end_any_lh26():
    hand1 = "4s 6s Ah Kh 5h Th 5c 6c 8c Jc Qc 3d 9d"
    for mode, card, ok in (("middle", "5s", True), ("middle", "7s", False),
                           ("end", "5s", False), ("end", "3s", False), ("any", "5s", True)):
        s = table({0: card + " " + FILL14[3:], 1: hand1}, options={"chi_card": mode})
        s = _window(s, 0, card)
        assert (1 in _eligible(s)) == ok, (mode, card)
    s = table({0: "7s " + FILL14[3:], 1: "5s 6s Ah 2h 5h Th 5c 6c 8c Jc Qc 3d 9d"},
              options={"chi_card": "end"})
    assert _eligible(_window(s, 0, "7s"))[1] == [("chi", parse_face("5s"), parse_face("6s"))]


def test_chi_only_from_the_previous_player_lh26():
    s = table({0: "5s " + FILL14[3:], 2: "4s 5s 5s 6s 2h 5h Th 5c 6c 8c Jc Qc 3d"})
    s = _window(s, 0, "5s")
    assert _eligible(s)[2] == ["peng"]
    rejected(s, act(s, "RESPOND", 2, "4s 6s", tag="chi"), "LH-26")


def test_special_sequences_and_no_wraparound_lh6_lh37_lh38():
    s = table({0: "7h " + FILL14[3:], 1: "2d Td Ah 3h 5h Kh 5c 6c 8c Jc Qc 3d 9d"})
    assert ("chi", parse_face("2d"), parse_face("Td")) in _eligible(_window(s, 0, "7h"))[1]
    s = table({0: "7h " + FILL14[3:], 1: "2d Td Ah 3h 5h Kh 5c 6c 8c Jc Qc 3d 9d"},
              options={"special_sequence": "same_suit"})
    assert 1 not in _eligible(_window(s, 0, "7h"))
    # Q-K-A is no sequence (an ace is 1): holding Qs Ks, an As cannot be taken
    s = table({0: "As " + FILL14[3:], 1: "Qs Ks Kh 5h Th 5c 6c 8c Jc Jd 9d 9h 9c"},
              options={"chi_card": "any"})
    assert 1 not in _eligible(_window(s, 0, "As"))


def test_respond_in_turn_order_and_once_lh34():
    s = table({0: "9s " + FILL14[3:], 3: "9s 9s Ah 2h 5h Th 5c 6c 8c Jc Qc 3d 3h",
               1: "8s Ts Ah 2h 5h 6d Th 5c 6c 8c Jc Qc 3d"})
    s = _window(s, 0, "9s")
    rejected(s, act(s, "RESPOND", 3, tag="peng"), "LH-34")        # seat 1 answers first
    rejected(s, act(s, "DISCARD", 1, "Ah"), "LH-34")
    w = table({0: "9s " + FILL14[3:], 3: "9s 9s Ah 2h 5h Th 5c 6c 8c Jc Qc 3d 3h"})
    w = lh.apply(w, act(w, "DISCARD", 0, "9s"))
    good = lh.auto_event(w)
    assert good.value == 1 << 3 and json.loads(good.payload) == {"eligible": {"3": [["peng"]]}}
    rejected(w, good._replace(value=1 << 4), "LH-34")


def test_priority_hu_over_peng_over_chi_lh33():
    s = table({0: "8c " + FILL14[3:], 1: "7c 9c Ah 2h 5h Th 5c 6c Jc Qc 3d 9d 9h",
               2: "8c 8c Ah 2h 5h Th 5d 6d Jd Qd 3s 9s Ks", 4: WAIT8},
              options={"min_hu": 0})
    s = _window(s, 0, "8c")
    assert set(_eligible(s)) == {1, 2, 4}
    s = play(s, act(s, "RESPOND", 1, "7c 9c", tag="chi"), act(s, "RESPOND", 2, tag="peng"),
             act(s, "RESPOND", 4, tag="hu"))
    assert s.pending == ((4, ("hu", ())),)
    award = [x for x in s.calls]
    assert [x for x, _ in award] == [1, 2, 4]                         # every call is public
    rejected(s, act(s, "PENG", 2, "8c 8c 8c", target=0), "LH-33")
    s = table({0: "8c " + FILL14[3:], 1: "7c 9c Ah 2h 5h Th 5c 6c Jc Qc 3d 9d 9h",
               2: "8c 8c Ah 2h 5h Th 5d 6d Jd Qd 3s 9s Ks"})
    s = _window(s, 0, "8c")
    s = play(s, act(s, "RESPOND", 1, "7c 9c", tag="chi"), act(s, "RESPOND", 2, tag="peng"))
    assert s.pending[0][0] == 2                                       # 碰 beats 吃
    rejected(s, act(s, "CHI", 1, "8c 7c 9c", target=0), "LH-33")


def test_several_hu_nearest_or_all_lh35():
    for mode, winners in (("nearest", [2]), ("all", [2, 4])):
        s = table({0: "8c " + FILL14[3:], 2: WAIT8, 4: WAIT8},
                  options={"min_hu": 0, "multi_win": mode})
        s = _window(s, 0, "8c")
        s = play(s, act(s, "RESPOND", 2, tag="hu"), act(s, "RESPOND", 4, tag="hu"))
        assert [x for x, _ in s.pending] == winners
        while s.phase == "claim":
            s = play(s, legal(s)[0])
        assert [h[0] for h in s.hus] == winners and s.phase == "over"
        res = lh.result(s)
        assert res["next_dealer"] == 2                                 # LH-66
        assert res["changes"][0] == -sum(h[4] for h in s.hus)          # LH-63


def test_pass_a_hu_and_win_later_lh30():
    """LH-30: passing a possible 胡 costs nothing; a later card of the same face may be won."""
    s = table({0: "8c " + FILL14[3:], 3: WAIT8}, options={"min_hu": 0}, front="Qh Qc")
    s = _window(s, 0, "8c")
    assert _eligible(s) == {3: ["hu"]}
    s = play(s, act(s, "RESPOND", 3, tag="pass"))
    assert s.phase == "turn" and s.turn == 1
    s = play(s, act(s, "DISCARD", 1, (s.drawn,)))
    s = play(s, act(s, "DISCARD", 2, (s.drawn,)))
    assert s.turn == 3
    s3 = table({0: "8h " + FILL14[3:], 3: WAIT8}, options={"min_hu": 0})
    assert _eligible(_window(s3, 0, "8h")) == {3: ["hu"]}            # same face again


def test_last_discard_only_for_hu_lh31():
    s = table({0: "8s " + FILL14[3:], 3: "8s 8s 5s 5s 2s 3s 4s 5h 6h 7h 9c Tc Jc"},
              options={"min_hu": 0}, wall_size=0)
    s = _window(s, 0, "8s")
    assert _eligible(s) == {3: ["hu"]}                                 # no peng any more
    rejected(s, act(s, "RESPOND", 3, tag="peng"), "LH-31")


def test_rob_a_jia_gang_lh29_lh62():
    s = table({0: "As 2c 3c 4c 5d 5d Jd Qd Kd 6s 8s",
               3: "2s 3s 5h 6h 7h 9c Tc Jc 3d 4d 5d 8h 8c"},
              melds={0: [("peng", "As As As", 5, "As")]}, options={"min_hu": 0})
    s = auto(lh.apply(s, act(s, "JIA_GANG", 0, "As")))
    assert s.w_kind == "rob" and _eligible(s) == {3: ["hu"]}
    rejected(s, act(s, "RESPOND", 3, tag="peng"), "LH-29")
    s = play(s, act(s, "RESPOND", 3, tag="hu"))
    hu = legal(s)[0]
    assert (hu.kind, hu.tag, hu.target) == ("HU", "qianggang", 0)
    s = play(s, hu)
    assert s.melds[0][0][0] == "peng" and len(s.melds[0][0][1]) == 3    # the kong is not made
    assert lh.result(s)["changes"][0] == -hu.value                       # LH-62


def test_rj_cannot_be_used_to_claim_lh32():
    s = table({0: "5s " + FILL14[3:], 1: "4s RJ 6s Ah 2h 5h Th 5c 6c 8c Jc Qc 3d"},
              options={"hunzi": 1})
    s = _window(s, 0, "5s")
    assert _eligible(s)[1] == [("chi", parse_face("4s"), parse_face("6s"))]
    rejected(s, act(s, "RESPOND", 1, "4s RJ", tag="chi"), "LH-32")


def test_eligible_of_keeps_only_its_last_answer():
    """``eligible_of`` answers a WINDOW state as worked out afresh (``_eligible``) in seeded
    random self-play under every conformance option set, asked twice as the engine does; a
    copy whose window differs but whose hands are the same objects gets its own answer."""
    from engine.games.liuhu import claims
    from engine.games.liuhu.rules import auto_event
    from engine.games.liuhu.state import WINDOW
    from tests.games.liuhu.conftest import playout

    windows = 0
    for k, opts in enumerate(lh.CONFORMANCE["option_sets"]):
        events, _ = playout(50 + k, opts)
        s = lh.initial_state(events[0])
        for e in events[1:]:
            if s.phase == WINDOW:
                want = claims._eligible(s)
                assert claims.eligible_of(s) == want == claims.eligible_of(s)
                other = s.copy()
                other.w_from = (s.w_from + 1) % 6
                assert claims.eligible_of(other) == claims._eligible(other)
                assert auto_event(s) == e
                windows += 1
            s = lh.apply(s, e)
    assert windows > 200
