"""Going out, the final round, 点炮 and settlement (MDS-5, MDS-33 to MDS-35, MDS-37 to MDS-40)."""

from __future__ import annotations

import json

import pytest

from engine.cards import parse_faces
from engine.games import modaoshuang as mds
from engine.games.modaoshuang.cards import FACE_VALUE, hand_value
from engine.games.modaoshuang.scoring import settle

from .conftest import auto, draw, kinds, no_play, play, playout, pos, rejected, run

# ---------------------------------------------------------------- MDS-5 face values

def test_mds_5_face_values():
    """MDS-5: RJ 40, BJ 20, A 20, K 13, Q 12, J 11, 2-9 and T their number."""
    want = {"RJ": 40, "BJ": 20, "As": 20, "Kh": 13, "Qc": 12, "Jd": 11, "Ts": 10, "9h": 9,
            "2c": 2}
    for face, v in want.items():
        assert FACE_VALUE[parse_faces(face)[0]] == v
    assert hand_value(parse_faces("RJ BJ As Kh 2c")) == 95


# ---------------------------------------------------------------- MDS-33 going out

def test_mds_33_the_first_seat_to_play_its_last_card_wins():
    """MDS-33: the winner is fixed by its last card; the final round follows."""
    s = pos(["2s 3s", "4h", "6h 8d", "9h Td"], stock="Kc Qc", table=[(0, "5h")])
    s = mds.apply(s, play(s, 1, "4h"))
    assert s.winner == 1 and s.hands[1] == () and mds.to_move(s) == 2
    v = mds.view(s, None)
    assert v["winner"] == 1 and v["final_round"] is True


def test_mds_33_a_last_joker_is_no_way_out_under_illegal():
    """MDS-33 / MDS-19: a last card is never a joker (rejected under ``illegal``)."""
    s = pos(["2s 3s", "BJ", "6h 8d"], stock="Kc Qc", table=[(0, "5h")],
            options={"mds_joker_violation": "illegal"})
    assert rejected(s, play(s, 1, "BJ")).rule_id == "MDS-19"


# ---------------------------------------------------------------- MDS-34 final round

def _final():
    """Seat 1 of 4 went out following 5h (leader 0); seats 2 and 3 still to act."""
    s = pos(["2s 3s", "4h", "6h 8d BJ", "9h Td"], stock="Kc Qc", table=[(0, "5h")])
    return mds.apply(s, play(s, 1, "4h"))


def test_mds_34_the_final_round_only_suit_cards_or_not_playing():
    """MDS-34: each seat still to act plays one card of the suit, never a joker, or not."""
    s = _final()
    assert sorted((a.kind, a.cards) for a in mds.legal_actions(s)) == [
        ("NO_PLAY", ()), ("PLAY", parse_faces("6h"))]
    assert rejected(s, play(s, 2, "BJ")).rule_id == "MDS-34"
    assert rejected(s, play(s, 2, "8d")).rule_id == "MDS-34"
    assert rejected(s, draw(s, 2)).rule_id == "MDS-34"
    assert rejected(s, play(s, 0, "2s")).rule_id == "MDS-34"
    s = run(s, play(s, 2, "6h"), lambda t: no_play(t, 3, "final"))
    s, done = auto(s)
    assert kinds(done) == ["ROUND_END", "GAME_END"]
    assert done[0].tag == "final" and done[0].target == -1
    assert mds.is_over(s) and mds.legal_actions(s) == []


def test_mds_34_a_collector_of_the_final_round_collects_nothing():
    """MDS-34: a collector determined earlier in the final round collects nothing."""
    s = pos(["5h 2s", "3d 4d", "8h", "7h 2c"], leader=0)
    s = run(s, play(s, 0, "5h"), lambda t: no_play(t, 1, "no_suit"),
            lambda t: play(t, 2, "8h"))
    assert s.collector == 1 and s.winner == 2
    s = run(s, no_play(s, 3, "final"))
    e = mds.auto_event(s)
    assert (e.kind, e.target, e.cards, e.tag) == ("ROUND_END", -1, (), "final")
    s, _ = auto(s)
    r = mds.result(s)
    assert r["final_hands"] == [["2s"], ["3d", "4d"], [], ["7h", "2c"]]


def test_mds_34_no_event_after_the_game():
    """MDS-34 / MDS-33: once settled nothing more happens."""
    s, _ = auto(run(_final(), lambda t: no_play(t, 2, "final"),
                    lambda t: no_play(t, 3, "final")))
    assert rejected(s, play(s, 2, "6h")).rule_id == "MDS-33"


# ---------------------------------------------------------------- MDS-35 点炮

def _dianpao(mode, table, hands, round_no=2, leader=None):
    s = pos(hands, stock="Kc Qc", table=table[:-1], leader=table[0][0] if leader is None
            else leader, round_no=round_no, first_suit="h",
            suit="h" if round_no == 1 or len(table) > 1 else None,
            options={"mds_dianpao": mode})
    seat, card = table[-1]
    return mds.apply(s, play(s, seat, card)).dianpao


HANDS = ["2s 3s", "4s 5d", "6s 8d", "9h"]


def test_mds_35_dianpao_is_the_leader_or_the_preceding_seat():
    """MDS-35: winner seat 3 follows 7h: 点炮 is leader seat 1 (``leader``) or seat 2, the
    card before (``preceding``)."""
    table = [(1, "5h"), (2, "7h"), (3, "9h")]
    assert _dianpao("leader", table, HANDS) == 1
    assert _dianpao("preceding", table, HANDS) == 2
    assert _dianpao("leader", [(2, "7h"), (3, "9h")], HANDS) == 2
    assert _dianpao("preceding", [(2, "7h"), (3, "9h")], HANDS) == 2


def test_mds_35_no_dianpao_when_the_winner_leads_or_in_round_one():
    """MDS-35: none if the winner led its last card, or if the suit draw set the suit."""
    for mode in ("leader", "preceding"):
        assert _dianpao(mode, [(3, "9h")], HANDS) == -1
        assert _dianpao(mode, [(0, "5h"), (1, "7h"), (2, "8h"), (3, "9h")], HANDS,
                        round_no=1, leader=0) == -1


def test_mds_35_the_dianpao_seat_is_in_the_result():
    """MDS-35: GAME_END names the 点炮 seat."""
    s = pos(["2s 3s", "4s 5d", "6s 8d", "9h"], stock="Kc Qc", table=[(1, "5h"), (2, "7h")],
            leader=1)
    s, done = auto(run(s, play(s, 3, "9h"), lambda t: no_play(t, 0, "final")))
    assert done[-1].kind == "GAME_END" and done[-1].value == 1 and done[-1].target == 3
    assert mds.result(s)["dianpao"] == 1


# ---------------------------------------------------------------- MDS-37 to MDS-40 settlement

def test_mds_37_base_loss_is_twice_the_face_values_left():
    """MDS-37: every seat but the winner loses twice the face values in its hand."""
    s = pos(["2s 3s", "4s 5d", "6s 8d", "9h"], stock="Kc Qc",
            leader=3)
    s, _ = auto(run(s, play(s, 3, "9h"), lambda t: no_play(t, 0, "final"),
                    lambda t: no_play(t, 1, "final"), lambda t: no_play(t, 2, "final")))
    r = mds.result(s)
    assert r["winner"] == 3 and r["dianpao"] is None
    assert r["face_sums"] == [5, 9, 14, 0] and r["base_losses"] == [10, 18, 28, 0]
    assert r["payments"] == [10, 18, 28, 0] and r["scores"] == [-10, -18, -28, 0]


def test_mds_38_dianpao_pays_half_of_every_other_loss():
    """MDS-38: with 点炮 D the others pay half; D pays its base and half of theirs; the total
    is unchanged."""
    st = settle((5, 9, 14, 0), 3, 1, "negative")
    assert st.base_losses == (10, 18, 28, 0)
    assert st.payments == (5, 18 + 5 + 14, 14, 0)
    assert sum(st.payments) == sum(st.base_losses)
    assert settle((5, 9, 14, 0), 3, -1, "negative").payments == (10, 18, 28, 0)


@pytest.mark.parametrize(("mode", "scores"), [("negative", [0, -50, -60, -190]),
                                              ("chips", [300, -50, -60, -190])])
def test_mds_39_and_mds_40_the_seeds_worked_example(mode, scores):
    """MDS-39 / MDS-40: A wins; B 50, C 60, D 40 left; D is 点炮: B 50, C 60, D 190;
    ``negative`` A 0, ``chips`` A +300."""
    st = settle((0, 50, 60, 40), 0, 3, mode)
    assert st.base_losses == (0, 100, 120, 80) and st.payments == (0, 50, 60, 190)
    assert list(st.scores) == scores


@pytest.mark.parametrize(("mode", "scores"), [("negative", [0, -50, -60, -190]),
                                              ("chips", [300, -50, -60, -190])])
def test_mds_40_the_worked_example_played_out(mode, scores):
    """MDS-40: D (seat 3) leads Kh, A (seat 0) follows with its last card: D is 点炮; B and C do
    not play; the GAME_END carries the example's settlement."""
    s = pos(["2h", "Ks Qs Js Ts 4s", "As Ac Ad", "Kh RJ"], stock="Kc Qc", leader=3,
            options={"mds_settlement": mode})
    s = run(s, play(s, 3, "Kh"), lambda t: play(t, 0, "2h"),
            lambda t: no_play(t, 1, "final"), lambda t: no_play(t, 2, "final"))
    s, done = auto(s)
    r = mds.result(s)
    assert (r["winner"], r["dianpao"]) == (0, 3)
    assert r["face_sums"] == [0, 50, 60, 40] and r["base_losses"] == [0, 100, 120, 80]
    assert r["payments"] == [0, 50, 60, 190] and r["scores"] == scores
    assert json.loads(done[-1].payload) == r
    assert [o.score for o in mds.outcomes(s)] == scores
    assert [(o.place, o.result) for o in mds.outcomes(s)] == [(1, "win"), (None, "loss"),
                                                              (None, "loss"), (None, "loss")]


def test_mds_37_the_result_text_is_canonical_json():
    """MDS-37 to MDS-39: GAME_END's payload is the result as canonical JSON (sorted keys,
    no spaces), the text positions and replays compare."""
    for opts in ({"mds_players": 3}, {"mds_players": 5, "mds_settlement": "chips",
                                      "mds_dianpao": "preceding"}):
        for seed in range(6):
            _, s = playout(seed, opts)
            text = s.result
            assert text == json.dumps(json.loads(text), sort_keys=True, separators=(",", ":"))


def test_mds_37_a_false_game_end_is_refused():
    """MDS-37 to MDS-39: the GAME_END must carry the settlement exactly."""
    s = run(_final(), lambda t: no_play(t, 2, "final"), lambda t: no_play(t, 3, "final"))
    s = mds.apply(s, mds.auto_event(s))
    e = mds.auto_event(s)
    p = json.loads(e.payload)
    p["scores"][0] += 1
    assert rejected(s, e._replace(payload=json.dumps(p))).rule_id == "MDS-37"
    assert rejected(s, e._replace(target=2)).rule_id == "MDS-37"
    assert mds.apply(s, e._replace(payload=json.dumps(json.loads(e.payload), indent=1))) \
        == mds.apply(s, e)
