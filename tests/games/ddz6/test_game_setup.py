"""六人斗地主 before the first play: options and the start (section 3, DDZ-6), the deal and its
marks (section 4), bidding (5), identities, kitty and side choosing (6), doubling and show
hand (7). Each test breaks or exercises one rule and checks the verdict."""

from __future__ import annotations

import json
import random

import pytest

from engine.cards import parse_face
from engine.errors import IllegalMove, InvalidEvent
from engine.games.ddz6 import VARIANTS
from engine.games.ddz6.info import seen_event, sides, view
from engine.games.ddz6.setup import deal_event

from .test_game_support import arrange, auto, autos, deal, do, ev, position, refused, start

F = parse_face("7h")          # the 3v3 marked face of these tests


def case_state(counts: dict[int, int], m: int = 0, seed: int = 0):
    """A 3v3 hand after the deal whose F cards lie as counts says; M = m."""
    d = arrange("3v3", {seat: (F,) * k for seat, k in counts.items()}, seed=seed)
    s = start("3v3", d)
    return deal(s, position(d, m, F))


# ---------------------------------------------------------------- section 3 and the start

def test_ddz6_start_records_every_option_with_defaults_written_out():
    for name, g in VARIANTS.items():
        e0 = g.start_event("g1", [f"p{i}" for i in range(6)], random.Random(1))
        opts = json.loads(e0.payload)["options"]
        assert opts == g.Options().to_dict()
        if name == "3v3":
            assert opts == {"wings_3v3": "any", "choice_seconds": 5}
        else:
            assert opts == {"base_score": 1, "airplane_order": "seed",
                            "no_bomb_autowin": "landlord", "qixingju_lock": "on",
                            "choice_seconds": 5}


def test_ddz6_options_out_of_range_cite_ddz6():
    with pytest.raises(IllegalMove) as exc:
        VARIANTS["2v4"].Options(base_score=0)
    assert exc.value.rule_id == "DDZ-6"
    with pytest.raises(IllegalMove):
        VARIANTS["3v3"].Options(choice_seconds=61)
    with pytest.raises(IllegalMove):
        VARIANTS["zhengfan"].Options(no_bomb_autowin="sometimes")


def test_ddz6_a_start_missing_an_option_is_refused():
    g = VARIANTS["2v4"]
    e0 = g.start_event("g1", [f"p{i}" for i in range(6)], random.Random(1))
    p = json.loads(e0.payload)
    del p["options"]["qixingju_lock"]
    with pytest.raises(IllegalMove) as exc:
        g.initial_state(e0._replace(payload=json.dumps(p)))
    assert exc.value.rule_id == "DDZ-6"


def test_ddz4_ddz5_the_deck_must_be_the_variant_pack():
    for name, rule, size in (("3v3", "DDZ-4", 162), ("2v4", "DDZ-5", 216)):
        g = VARIANTS[name]
        e0 = g.start_event("g1", [f"p{i}" for i in range(6)], random.Random(1))
        assert len(e0.cards) == size
        with pytest.raises(IllegalMove) as exc:
            g.initial_state(e0._replace(cards=e0.cards[:-1] + (e0.cards[0],)))
        assert exc.value.rule_id == rule


# ---------------------------------------------------------------- section 4: deal and marks

def test_ddz7_deal_follows_the_recorded_deck_order():
    s = start("2v4", seed=3)
    s2 = do(s, deal_event(s, 10, 20))
    for seat in range(6):
        assert sorted(s2.hands[seat]) == sorted(s.deck[seat:204:6])
    assert s2.kitty == s.deck[204:]
    assert s2.om == 10 % 6 and s2.dm == 20 % 6
    bad = deal_event(s, 10, 20)._replace(cards=s.deck[1:205])
    refused(s, bad, "DDZ-7")


def test_ddz8_the_3v3_mark_is_never_a_joker():
    s = start("3v3", seed=2)
    joker = next(i for i, c in enumerate(s.deck) if c >= 52)
    refused(s, deal_event(s, joker, None), "DDZ-8")
    refused(s, deal_event(s, 162, None), "DDZ-8")
    ok = next(i for i, c in enumerate(s.deck) if c < 52)
    s2 = do(s, deal_event(s, ok, None))
    assert s2.om == ok % 6 and s2.mark_face == s.deck[ok]


def test_ddz8_marked_face_and_m_are_shown_to_all():
    s = case_state({0: 1, 2: 1, 4: 1})
    for seat in range(6):
        v = view(s, seat)
        assert v["open_mark"] == {"face": "7h", "seat": 0}


# cites DDZ-9
def test_ddz9_only_m_and_the_counts_decide_the_case():
    # the three F cards in other deck positions and other seats' orders: same case
    a = case_state({0: 1, 2: 1, 4: 1}, seed=1)
    b = case_state({0: 1, 2: 1, 4: 1}, seed=7)
    assert a.case == b.case == "A" and a.hidden == b.hidden == (2, 4)


def test_ddz10_the_two_4deck_marks_are_different_dealt_cards_jokers_allowed():
    s = start("zhengfan", seed=4)
    refused(s, deal_event(s, 5, 5), "DDZ-10")
    refused(s, deal_event(s, 5, 204), "DDZ-10")
    joker = next(i for i, c in enumerate(s.deck[:204]) if c >= 52)
    s2 = do(s, deal_event(s, joker, (joker + 6) % 204))
    assert s2.om == s2.dm == joker % 6           # same seat allowed


def test_ddz11_playing_a_4deck_marked_card_reveals_nothing():
    s = start("2v4", seed=5)
    s = deal(s, 0, 1)
    assert s.hidden == () and s.revealed == ()


# cites DDZ-12
def test_ddz12_2v4_dark_mark_hidden_from_everyone_until_the_first_landlord():
    s = start("2v4", seed=6)
    e = deal_event(s, 0, 7)
    s = do(s, e)
    dm = 7 % 6
    for seat in range(6):
        assert view(s, seat)["dark_mark_seat"] is None      # the holder included
        assert seen_event(e, seat, "2v4").payload is None
        assert set(seen_event(e, seat, "2v4").cards) <= set(s.hands[seat]) | {s.deck[0]}
    assert view(s, None)["dark_mark_seat"] == dm
    for _seat in range(6):                        # everybody passes: OM is the first landlord
        s = do(s, ev(s, "BID", s.bid_order[len(s.bids)], value=0))
    s = auto(auto(s))                              # BID_END, LANDLORDS
    assert all(view(s, seat)["dark_mark_seat"] == dm for seat in range(6))   # DDZ-28


# cites DDZ-13
def test_ddz13_zhengfan_om_and_dm_public_at_the_deal():
    s = start("zhengfan", seed=6)
    e = deal_event(s, 2, 9)
    assert seen_event(e, 4, "zhengfan").payload == e.payload
    s = do(s, e)
    assert s.owed == ("LANDLORDS",)
    s = auto(s)
    for seat in range(6):
        v = view(s, seat)
        assert v["open_mark"]["seat"] == 2 and v["dark_mark_seat"] == 3
        assert sides(s, seat)[2] == "zheng" and sides(s, seat)[3] == "fan"


# ---------------------------------------------------------------- section 5: bidding

def test_ddz14_rising_bids_once_round_and_a_3_ends_it():
    s = deal(start("2v4", seed=8), 0, 1)           # OM = 0: seats 0 … 5 speak
    s = do(s, ev(s, "BID", 0, value=2))
    refused(s, ev(s, "BID", 1, value=2), "DDZ-14")
    refused(s, ev(s, "BID", 1, value=1), "DDZ-14")
    refused(s, ev(s, "BID", 1, value=4), "DDZ-14")
    refused(s, ev(s, "BID", 1, value=0, tag="forced"), "DDZ-16")   # only H's pass is forced
    with pytest.raises(InvalidEvent):
        VARIANTS["2v4"].step(s.copy(), ev(s, "BID", 1, value=0, target=5))
    s = do(s, ev(s, "BID", 1, value=3))
    assert s.owed == ("BID_END",)
    s = auto(s)
    assert (s.bid_winner, s.bid_value) == (1, 3)
    err = refused(s, ev(s, "BID", 2, value=0), "DDZ-14")   # a 3 ended the bidding
    assert err.also == ("DDZ-92",)                  # the engine owes LANDLORDS


def test_ddz14_a_bid_after_everyone_spoke_is_refused():
    s = case_state({0: 1, 3: 2})                    # B2: four bidders
    for seat in s.bid_order:
        s = do(s, ev(s, "BID", seat, value=0 if seat != s.bid_order[0] else 1))
    s = autos(s)
    assert s.phase == "double"
    refused(s, ev(s, "BID", 1, value=2), "DDZ-14")   # each eligible seat speaks once


def test_ddz15_3v3_bidding_starts_after_the_seat_with_two_f_cards():
    b1 = case_state({0: 2, 3: 1})
    assert b1.case == "B1" and b1.bid_order == (1, 2, 3, 4, 5)
    b2 = case_state({0: 1, 3: 2})
    assert b2.case == "B2" and b2.bid_order == (4, 5, 1, 2)
    refused(b2, ev(b2, "BID", 5, value=1), "DDZ-15")     # out of turn


def test_ddz15_no_bidding_in_case_a():
    s = case_state({0: 1, 2: 1, 4: 1})
    refused(s, ev(s, "BID", 1, value=1), "DDZ-15")


def test_ddz16_public_landlords_skipped_and_h_gets_a_recorded_pass():
    s = case_state({0: 1, 3: 2})                    # B2: M and P skipped openly
    refused(s, ev(s, "BID", 0, value=1), "DDZ-16")
    refused(s, ev(s, "BID", 3, value=1), "DDZ-16")
    s = case_state({0: 2, 3: 1})                    # B1: H = 3 stays in the order
    s = do(s, ev(s, "BID", 1, value=1))
    s = do(s, ev(s, "BID", 2, value=0))
    assert s.owed == ("BID",) and VARIANTS["3v3"].to_move(s) == -1
    refused(s, ev(s, "BID", 3, value=2), "DDZ-16")  # H cannot bid
    refused(s, ev(s, "BID", 3, value=0), "DDZ-16")  # his pass is the engine's (forced)
    for seat in (1, 2, 4, 5):
        assert view(s, seat)["to_act"] == 3          # his turn looks ordinary
    forced = VARIANTS["3v3"].auto_event(s)
    assert (forced.seat, forced.value, forced.tag) == (3, 0, "forced")
    for seat in range(6):
        assert seen_event(forced, seat, "3v3").tag == ""
    assert seen_event(forced, None, "3v3").tag == "forced"


# cites DDZ-17
def test_ddz17_the_bid_winner_is_an_open_landlord_and_his_bid_is_s():
    s = case_state({0: 2, 3: 1})
    for seat, v in ((1, 1), (2, 0)):
        s = do(s, ev(s, "BID", seat, value=v))
    s = auto(s)                                     # H's pass
    s = do(s, ev(s, "BID", 4, value=2))
    s = do(s, ev(s, "BID", 5, value=0))
    s = auto(s)                                     # BID_END
    assert s.bid_winner == 4 and s.base == 2 and 4 in s.landlords
    for seat in range(6):
        assert sides(s, seat)[4] == "landlord" and sides(s, seat)[0] == "landlord"


# cites DDZ-18
def test_ddz18_nobody_bids_the_hand_is_void():
    s = case_state({0: 1, 3: 2})
    for seat in s.bid_order:
        s = do(s, ev(s, "BID", seat, value=0))
    s = autos(s)
    g = VARIANTS["3v3"]
    assert g.is_over(s)
    r = g.result(s)
    assert r["reason"] == "void" and r["scores"] == [0] * 6
    assert all(o.result == "draw" for o in g.outcomes(s))


def test_ddz19_2v4_bidding_from_om_all_six_eligible():
    s = deal(start("2v4", seed=9), 3, 10)          # OM 3, DM 4
    assert s.bid_order == (3, 4, 5, 0, 1, 2)
    refused(s, ev(s, "BID", 4, value=1), "DDZ-19")
    s = do(s, ev(s, "BID", 3, value=0))
    s = do(s, ev(s, "BID", 4, value=1))            # the dark-mark holder may bid (DDZ-22)
    assert s.bids == (0, 1)


# cites DDZ-20, DDZ-21
def test_ddz20_ddz21_nobody_bids_om_is_first_landlord_bid_not_in_score():
    s = deal(start("2v4", seed=10, options={"base_score": 3}), 2, 9)
    for seat in s.bid_order:
        s = do(s, ev(s, "BID", seat, value=0))
    s = auto(s)
    e = VARIANTS["2v4"].auto_event(s)
    assert e.kind == "LANDLORDS" and e.seat == 2 and e.tag == "om"
    s = auto(s)
    assert s.landlords[0] == 2 and s.base == 3


def test_ddz21_the_winning_bid_does_not_change_s():
    s = deal(start("2v4", seed=10), 0, 9)
    s = do(s, ev(s, "BID", 0, value=3))
    s = autos(s)
    assert s.bid_value == 3 and s.base == 1


# cites DDZ-29
def test_ddz22_ddz29_dm_wins_the_bid_plays_solo_with_the_whole_kitty():
    s = deal(start("2v4", seed=11), 0, 1)          # OM 0, DM 1
    s = do(s, ev(s, "BID", 0, value=0))
    s = do(s, ev(s, "BID", 1, value=3))
    s = auto(auto(s))                               # BID_END, LANDLORDS
    assert s.solo and s.landlords == (1,)
    e = VARIANTS["2v4"].auto_event(s)
    assert e.kind == "KITTY" and e.seat == 1 and len(e.cards) == 12
    s = auto(s)
    assert len(s.hands[1]) == 46


def test_ddz23_no_bidding_in_zhengfan():
    s = deal(start("zhengfan", seed=3), 0, 1)
    refused(s, ev(s, "BID", 2, value=1), "DDZ-23")


# ---------------------------------------------------------------- section 6: identities

def test_ddz24_the_four_cases():
    a = case_state({0: 1, 2: 1, 4: 1})
    assert (a.case, a.landlords, a.hidden, a.base, a.phase) == ("A", (0, 2, 4), (2, 4), 3,
                                                                 "double")
    b1 = case_state({0: 2, 3: 1})
    assert (b1.case, b1.hidden, b1.phase) == ("B1", (3,), "bid")
    b2 = case_state({0: 1, 3: 2})
    assert (b2.case, b2.p_seat, b2.hidden, b2.landlords) == ("B2", 3, (), (0, 3))
    c = case_state({0: 3})
    assert c.case == "C" and c.solo and VARIANTS["3v3"].result(c)["reason"] == "case_c"


def test_ddz24_a_wrong_case_event_is_refused():
    d = arrange("3v3", {0: (F,), 2: (F,), 4: (F,)})
    s = start("3v3", d)
    s = do(s, deal_event(s, position(d, 0, F), None))
    good = VARIANTS["3v3"].auto_event(s)
    refused(s, good._replace(tag="B1"), "DDZ-24")


# cites DDZ-25, DDZ-27
def test_ddz25_ddz27_who_knows_what_in_case_a():
    s = case_state({0: 1, 2: 1, 4: 1})
    assert sides(s, 1) == ("landlord", "farmer", None, None, None, None)
    assert sides(s, 2) == ("landlord", None, "landlord", None, None, None)   # not H2
    assert sides(s, None) == ("landlord", "farmer", "landlord", "farmer", "landlord",
                              "farmer")
    assert view(s, 1)["landlords"] == [0]
    assert view(s, 2)["landlords"] == [0, 2]


def test_ddz25_ddz27_case_b2_every_role_known_after_bidding():
    s = case_state({0: 1, 3: 2})
    assert sides(s, 1)[3] == "landlord" and view(s, 5)["P"] == 3
    s = do(s, ev(s, "BID", 4, value=1))
    for seat in (5, 1, 2):
        s = do(s, ev(s, "BID", seat, value=0))
    s = auto(s)
    for seat in range(6):
        assert sides(s, seat) == ("landlord", "farmer", "farmer", "landlord", "landlord",
                                  "farmer")


def test_ddz27_b1_hidden_landlord_knows_everyone_farmers_do_not():
    s = case_state({0: 2, 3: 1})
    s = do(s, ev(s, "BID", 1, value=1))
    s = do(s, ev(s, "BID", 2, value=0))
    s = auto(s)
    s = do(s, ev(s, "BID", 4, value=0))
    s = do(s, ev(s, "BID", 5, value=0))
    s = auto(s)
    assert sides(s, 3) == ("landlord", "landlord", "farmer", "landlord", "farmer", "farmer")
    assert sides(s, 2) == ("landlord", "landlord", "farmer", None, None, None)


# cites DDZ-31
def test_ddz28_ddz30_ddz31_2v4_kitty_split_and_seen_by_its_taker_only():
    s = deal(start("2v4", seed=12), 0, 3)           # OM 0, DM 3
    s = do(s, ev(s, "BID", 0, value=0))
    s = do(s, ev(s, "BID", 1, value=2))
    for seat in (2, 3, 4, 5):
        s = do(s, ev(s, "BID", seat, value=0))
    s = auto(s)
    lz = VARIANTS["2v4"].auto_event(s)
    assert (lz.seat, lz.target, lz.value, lz.tag) == (1, 3, 0, "bid")
    kitty = s.kitty
    s = auto(s)
    k1 = VARIANTS["2v4"].auto_event(s)
    assert (k1.seat, k1.cards) == (1, kitty[:6])
    refused(s, k1._replace(cards=kitty[6:]), "DDZ-30")
    s = auto(s)
    k2 = VARIANTS["2v4"].auto_event(s)
    assert (k2.seat, k2.cards) == (3, kitty[6:])
    for seat in range(6):
        assert seen_event(k1, seat, "2v4").cards == (k1.cards if seat == 1 else ())
        assert VARIANTS["2v4"].cards_visible(k1, seat) == (seat == 1)
    s = auto(s)
    assert len(s.hands[1]) == len(s.hands[3]) == 40
    assert view(s, 1)["kitty"]["taken"][3] == 6 and view(s, 3)["kitty"]["taken"][3] != 6
    assert sides(s, 4) == ("farmer", "landlord", "farmer", "landlord", "farmer", "farmer")


def zhengfan_after_kitty(om: int = 0, dm: int = 3, seed: int = 13):
    s = start("zhengfan", seed=seed)
    pos, dark = om, dm if dm != om else dm + 6
    return autos(do(s, deal_event(s, pos, dark)))


# cites DDZ-32, DDZ-34
def test_ddz32_ddz34_zhengfan_landlords_and_kitty():
    s = zhengfan_after_kitty()
    assert s.landlords == (0, 3) and not s.solo
    assert s.shares[0] == s.deck[204:210] and s.shares[3] == s.deck[210:]
    assert s.farmer_order == (1, 2, 4, 5)


# cites DDZ-33
def test_ddz33_zhengfan_one_seat_with_both_marks_is_solo_no_side_choosing():
    s = zhengfan_after_kitty(om=2, dm=2)
    assert s.solo and s.landlords == (2,) and len(s.hands[2]) == 46
    assert s.phase in ("show", "start")             # no side choosing
    assert sides(s, 0) == ("farmer", "farmer", "landlord", "farmer", "farmer", "farmer")


def test_ddz35_f1_f2_agree_f3_f4_placed_on_the_other_side():
    s = zhengfan_after_kitty()
    refused(s, ev(s, "SIDE_CHOICE", 2, value=0), "DDZ-35")     # F1 = 1 first
    s = do(s, ev(s, "SIDE_CHOICE", 1, value=1))
    s = do(s, ev(s, "SIDE_CHOICE", 2, value=1))
    placed = VARIANTS["zhengfan"].auto_event(s)
    assert (placed.seat, placed.value, placed.tag) == (4, 0, "placed")
    refused(s, ev(s, "SIDE_CHOICE", 4, value=1), "DDZ-35")
    s = autos(s)
    assert s.side_of == (0, 1, 1, 1, 0, 0) and s.placed == (4, 5)


def test_ddz35_f1_f2_differ_f3_chooses_f4_placed():
    s = zhengfan_after_kitty()
    s = do(s, ev(s, "SIDE_CHOICE", 1, value=0))
    s = do(s, ev(s, "SIDE_CHOICE", 2, value=1))
    assert VARIANTS["zhengfan"].to_move(s) == 4
    s = do(s, ev(s, "SIDE_CHOICE", 4, value=1))
    e = VARIANTS["zhengfan"].auto_event(s)
    assert (e.seat, e.value, e.tag) == (5, 0, "placed")
    s = autos(s)
    assert [s.side_of[x] for x in (1, 2, 4, 5)] == [0, 1, 1, 0]
    assert sum(1 for x in s.side_of if x == 0) == 3


# cites DDZ-36
def test_ddz36_farmers_never_see_another_farmers_side():
    s = zhengfan_after_kitty()
    e1 = ev(s, "SIDE_CHOICE", 1, value=1)
    s = do(s, e1)
    assert seen_event(e1, 2, "zhengfan").value == -1
    assert seen_event(e1, 0, "zhengfan").value == -1      # landlords: at SIDES_END
    assert seen_event(e1, 1, "zhengfan").value == 1
    s = do(s, ev(s, "SIDE_CHOICE", 2, value=0))
    s = do(s, ev(s, "SIDE_CHOICE", 4, value=0))
    assert view(s, 1)["to_act"] is None                   # F3 asked: not shown to others
    s = auto(s)                                           # F4 placed
    end = VARIANTS["zhengfan"].auto_event(s)
    assert end.kind == "SIDES_END"
    assert seen_event(end, 0, "zhengfan").value == end.value
    assert seen_event(end, 3, "zhengfan").value == end.value
    assert seen_event(end, 1, "zhengfan").value == -1
    s = auto(s)
    assert sides(s, 1) == ("zheng", "fan", None, "fan", None, None)
    assert sides(s, 0)[1:] == ("fan", "zheng", "fan", "zheng", "fan")
    assert view(s, 5)["side_choosing"]["placed"] == [5]
    assert view(s, 4)["side_choosing"]["placed"] == []


# ---------------------------------------------------------------- section 7

def test_ddz37_every_seat_doubles_once_in_order_from_m_shown_together():
    s = case_state({1: 1, 2: 1, 4: 1}, m=1)
    assert s.phase == "double"
    refused(s, ev(s, "DOUBLE", 0, value=1), "DDZ-37")
    s = do(s, ev(s, "DOUBLE", 1, value=1))
    assert view(s, 2)["doubling"]["choices"] == {} and view(s, 1)["doubling"]["choices"] \
        == {"1": 1}
    assert s.mult == 1                                  # not shown yet
    for seat, v in ((2, 1), (3, 0), (4, 1), (5, 0)):
        s = do(s, ev(s, "DOUBLE", seat, value=v))
    s = do(s, ev(s, "DOUBLE", 0, value=0))
    assert s.mult == 4 and s.phase == "play"
    assert view(s, 3)["doubling"]["choices"] == {"0": 0, "1": 1, "2": 1, "3": 0, "4": 1,
                                                 "5": 0}
    refused(s, ev(s, "DOUBLE", 1, value=1), "DDZ-37")


def test_ddz37_no_doubling_in_the_4deck_variants():
    s = zhengfan_after_kitty(om=2, dm=2)
    if s.owed:
        pytest.skip("this seed's solo hand is an auto-win")
    refused(s, ev(s, "DOUBLE", 2, value=1), "DDZ-37")


def show_state(seed: int = 14):
    """A 2v4 hand at show hand (no auto-win), first landlord 0 by bid."""
    for k in range(seed, seed + 40):
        s = deal(start("2v4", seed=k, options={"no_bomb_autowin": "off"}), 0, 3)
        s = do(s, ev(s, "BID", 0, value=3))
        s = autos(s)
        if s.phase == "show":
            return s
    raise AssertionError("no seed without an auto-win")


def test_ddz38_only_landlords_show_big_first_decisions_hidden_until_both():
    s = show_state()
    assert s.landlords == (0, 3)
    refused(s, ev(s, "SHOW_HAND", 1, value=1), "DDZ-38")
    refused(s, ev(s, "SHOW_HAND", 3, value=1), "DDZ-38")
    first = ev(s, "SHOW_HAND", 0, value=1)
    s = do(s, first)
    assert seen_event(first, 3, "2v4").value == -1
    assert view(s, 3)["show_hand"]["choices"] == {} and view(s, 3)["N"] == 1
    s = do(s, ev(s, "SHOW_HAND", 3, value=0))
    end = VARIANTS["2v4"].auto_event(s)
    assert end.kind == "SHOW_END" and end.cards == s.hands[0] and end.target == 1
    s = auto(s)
    assert s.mult == 4 and s.shown == (0,)                  # DDZ-39: one of two, + 3
    assert view(s, 4)["hands"][0] == view(s, None)["hands"][0]
    assert isinstance(view(s, 4)["hands"][3], int)


def test_ddz38_show_hand_before_the_auto_win_check_is_refused():
    s = deal(start("2v4", seed=15), 0, 3)
    refused(s, ev(s, "SHOW_HAND", 0, value=1), "DDZ-38")


def test_ddz39_both_show_plus_six_solo_plus_nine():
    s = show_state()
    s = do(s, ev(s, "SHOW_HAND", 0, value=1))
    s = autos(do(s, ev(s, "SHOW_HAND", 3, value=1)))
    assert s.mult == 7 and s.shown == (0, 3)
    solo = deal(start("2v4", seed=16, options={"no_bomb_autowin": "off"}), 0, 6)  # OM = DM
    solo = autos(do(solo, ev(solo, "BID", 0, value=3)))
    assert solo.solo and solo.phase == "show" and solo.landlords == (0,)
    solo = autos(do(solo, ev(solo, "SHOW_HAND", 0, value=1)))
    assert solo.mult == 10 and solo.phase == "play"
