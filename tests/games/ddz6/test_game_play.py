"""六人斗地主 play (section 9), the events a play causes, the end (section 10) and the events'
legality (section 13), on positions built from a dealt hand whose hands are then set."""

from __future__ import annotations

import pytest

from engine.cards import parse_face
from engine.errors import InvalidEvent
from engine.games.ddz6 import VARIANTS
from engine.games.ddz6.cards import sort_hand
from engine.games.ddz6.combos import classify
from engine.games.ddz6.info import sides, view
from engine.games.ddz6.play import declare, play_event

from .reference import faces
from .test_game_setup import F, case_state, show_state, zhengfan_after_kitty
from .test_game_support import arrange, auto, autos, deal, do, ev, position, refused, start


def doubled(s, values=(0,) * 6):
    """Every seat declines (or doubles as given), in order from M."""
    for k, v in enumerate(values):
        s = do(s, ev(s, "DOUBLE", (s.om + k) % 6, value=v))
    return s


def a_play_state():
    """3v3 case A (M 0, H1 2, H2 4), every seat declined: seat 0 leads."""
    return doubled(case_state({0: 1, 2: 1, 4: 1}))


def set_hands(s, hands: dict[int, str | tuple[int, ...]]):
    """A copy of the state with these seats' hands replaced (a constructed position)."""
    t = s.copy()
    hs = list(t.hands)
    for seat, h in hands.items():
        hs[seat] = sort_hand(faces(h) if isinstance(h, str) else h)
    t.hands = tuple(hs)
    return t


def play(s, seat, text_or_cards, tag=None, value=None, target=-1):
    """The PLAY event of these cards, declared and valued as the engine would."""
    cards = faces(text_or_cards) if isinstance(text_or_cards, str) else tuple(text_or_cards)
    c = classify(cards, s.variant, s.options)
    e = play_event(s, seat, cards, c) if c is not None else ev(s, "PLAY", seat, cards, value=1)
    if tag is not None:
        e = e._replace(tag=tag)
    if value is not None:
        e = e._replace(value=value)
    return e._replace(target=target)


def passes(s, seats):
    for seat in seats:
        s = do(s, ev(s, "PASS", seat))
    return s


# ---------------------------------------------------------------- section 9

def test_ddz71_3v3_m_leads():
    s = a_play_state()
    assert VARIANTS["3v3"].to_move(s) == 0 and s.turn_rule == "DDZ-71"
    s = set_hands(s, {0: "345", 1: "66"})
    refused(s, play(s, 1, "66"), "DDZ-71")


def test_ddz71_2v4_big_landlord_leads():
    s = show_state()
    s = autos(do(do(s, ev(s, "SHOW_HAND", 0, value=0)), ev(s, "SHOW_HAND", 3, value=0)
                 ._replace(seq=s.seq + 1)))
    assert s.phase == "play" and s.turn == s.landlords[0] == 0


def test_ddz71_zhengfan_a_farmer_leads():
    from engine.games.ddz6.setup import deal_event
    g = VARIANTS["zhengfan"]
    for om, dm, lead in ((0, 3, 5), (3, 2, 1), (2, 2, 1)):
        s = start("zhengfan", seed=21, options={"no_bomb_autowin": "off"})
        s = autos(do(s, deal_event(s, om, dm if dm != om else dm + 6)))
        while s.phase != "play":
            s = g.apply(s, g.auto_event(s) or g.legal_actions(s)[0])
        assert s.turn == lead and s.turn not in s.landlords and s.turn_rule == "DDZ-71"
        refused(s, ev(s, "PASS", lead), "DDZ-72")


def test_ddz72_leader_may_not_pass_follower_must_beat():
    s = set_hands(a_play_state(), {0: "5577", 1: "4699"})
    refused(s, ev(s, "PASS", 0), "DDZ-72")
    s = do(s, play(s, 0, "5"))
    refused(s, play(s, 1, "4"), "DDZ-41")
    refused(s, play(s, 1, "99"), "DDZ-41")          # another type
    refused(s, ev(s, "PASS", 2), "DDZ-72")          # out of turn
    s = do(s, play(s, 1, "6"))
    assert s.top_seat == 1 and s.turn == 2


def test_ddz72_beat_a_partners_play_too():
    s = set_hands(a_play_state(), {0: "5577", 1: "8", 2: "4"})
    s = do(s, play(s, 0, "7"))
    s = do(s, ev(s, "PASS", 1))
    refused(s, play(s, 2, "4"), "DDZ-41")           # seat 2 is 0's partner: still must beat


# cites DDZ-73
def test_ddz73_a_pass_holds_for_that_turn_only():
    s = set_hands(a_play_state(), {0: "3456", 1: "9T", 2: "88", 3: "8", 4: "8", 5: "8"})
    s = do(s, play(s, 0, "3"))
    s = passes(s, [1])
    s = do(s, play(s, 2, "8"))
    s = passes(s, [3, 4, 5, 0])
    s = do(s, play(s, 1, "9"))                     # passed earlier, plays now
    assert s.top_seat == 1


def test_ddz74_five_passes_end_the_round_the_last_player_leads():
    s = set_hands(a_play_state(), {0: "3456", 1: "9T"})
    s = do(s, play(s, 0, "3"))
    s = do(s, play(s, 1, "9"))
    s = passes(s, [2, 3, 4, 5])
    refused(s, ev(s, "PASS", 1), "DDZ-72")           # seat 1 made the play
    s = do(s, ev(s, "PASS", 0))
    assert s.owed == ("ROUND_END",)
    refused(s, play(s, 1, "T"), "DDZ-92")
    e = VARIANTS["3v3"].auto_event(s)
    assert (e.seat, e.target, e.tag) == (1, 1, "")
    s = auto(s)
    assert s.top is None and s.turn == 1 and s.turn_rule == "DDZ-74"
    refused(s, play(s, 2, "4"), "DDZ-74")


def test_ddz75_a_default_mark_only_on_the_default_action():
    s = set_hands(a_play_state(), {0: "3456"})
    lowest = faces("3")
    refused(s, play(s, 0, "4", target=1), "DDZ-75")
    s2 = do(s, play(s, 0, lowest, target=1))
    assert s2.top_seat == 0
    s3 = do(s2, ev(s2, "PASS", 1, target=1))       # a follower's default is a pass
    assert s3.passes == 1
    b = case_state({0: 1, 3: 2})
    refused(b, ev(b, "BID", 4, value=2, target=1), "DDZ-75")
    assert do(b, ev(b, "BID", 4, value=0, target=1)).bids == (0,)


def test_ddz75_the_default_single_takes_the_lowest_suit_first():
    from engine.games.ddz6.play import default_play
    s = set_hands(a_play_state(), {0: (parse_face("3d"), parse_face("3s"), parse_face("4s"))})
    assert default_play(s, 0) == (parse_face("3s"),)


# ---------------------------------------------------------------- section 8 through play

def test_ddz40_cards_from_the_hand_only():
    s = set_hands(a_play_state(), {0: "3456"})
    refused(s, play(s, 0, "7"), "DDZ-40")
    refused(s, ev(s, "PLAY", 0, (), value=1, tag="single:3"), "DDZ-40")
    with pytest.raises(InvalidEvent):
        VARIANTS["3v3"].step(s.copy(), ev(s, "PLAY", 0, (99,), value=1))


def test_ddz53_a_set_that_is_no_combination_cites_its_rule():
    s = set_hands(a_play_state(), {0: "34BR"})
    refused(s, play(s, 0, "BR"), "DDZ-53")


def test_ddz93_the_declared_combination_must_be_the_classification():
    s = set_hands(a_play_state(), {0: "33345"})
    refused(s, play(s, 0, "333", tag="trio:4"), "DDZ-93")
    refused(s, play(s, 0, "333", tag="bomb:3:3"), "DDZ-93")
    assert declare(classify(faces("34567"), "3v3")) == "straight:5:7"
    assert declare(classify(faces("BBBRR"), "3v3")) == "joker_bomb:J5"
    assert do(s, play(s, 0, "333")).top_cards == faces("333")


def test_ddz42_only_a_bomb_beats_a_bomb():
    s = set_hands(a_play_state(), {0: "55557", 1: "22", 2: "6666"})
    s = do(s, play(s, 0, "5555"))
    refused(s, play(s, 1, "22"), "DDZ-42")
    s = do(s, ev(s, "PASS", 1))
    s = do(s, play(s, 2, "6666"))
    assert s.top_seat == 2


def test_ddz81_ddz83_n_after_a_play_must_be_recorded():
    s = set_hands(a_play_state(), {0: "666666"})
    refused(s, play(s, 0, "666666", value=1), "DDZ-83")
    s = do(s, play(s, 0, "666666"))
    assert s.mult == 2 and s.bomb_incs == (1,)


def test_ddz86_ddz87_4deck_n_after_bombs_and_none_in_solo():
    s = show_state()
    s = autos(do(do(s, ev(s, "SHOW_HAND", 0, value=0)), ev(s, "SHOW_HAND", 3, value=0)
                 ._replace(seq=s.seq + 1)))
    s = set_hands(s, {0: "99999999A"})
    refused(s, play(s, 0, "99999999", value=1), "DDZ-86")
    assert do(s, play(s, 0, "99999999")).mult == 3
    solo = s.copy()
    solo.solo, solo.landlords = True, (0,)
    refused(solo, play(solo, 0, "99999999", value=3), "DDZ-87")
    assert do(solo, play(solo, 0, "99999999")).mult == 1


def test_ddz70_the_eighth_joker_is_locked_and_the_lead_passes_on():
    s = show_state()
    s = autos(do(do(s, ev(s, "SHOW_HAND", 0, value=0)), ev(s, "SHOW_HAND", 3, value=0)
                 ._replace(seq=s.seq + 1)))
    s = set_hands(s, {0: "BBBBRRRR", 1: "BB3", 2: "RR4"})    # (a constructed position)
    s = do(s, play(s, 0, "BBBBRRR"))
    assert s.owed == ("LOCK",)
    e = VARIANTS["2v4"].auto_event(s)
    assert e.seat == 0 and e.cards == faces("R")             # in the player's own hand
    s = auto(s)
    assert s.locked == parse_face("RJ")
    s = passes(s, [1, 2, 3, 4, 5])
    e = VARIANTS["2v4"].auto_event(s)
    assert e.kind == "ROUND_END" and (e.seat, e.tag) == (1, "lock")
    s = auto(s)
    assert s.turn == 1 and s.turn_rule == "DDZ-70"
    refused(s, play(s, 0, "R"), "DDZ-70")
    s = do(s, play(s, 1, "3"))
    s = do(s, play(s, 2, "4"))
    refused(s, play(s, 2, "R"), "DDZ-72")
    s = passes(s, [3, 4, 5])
    refused(s, play(s, 0, "R"), "DDZ-70")                    # the holder cannot go out


def test_ddz70_lock_off_has_no_effect():
    s = deal(start("2v4", seed=14, options={"no_bomb_autowin": "off",
                                             "qixingju_lock": "off"}), 0, 3)
    s = autos(do(s, ev(s, "BID", 0, value=3)))
    s = autos(do(do(s, ev(s, "SHOW_HAND", 0, value=0)), ev(s, "SHOW_HAND", 3, value=0)
                 ._replace(seq=s.seq + 1)))
    s = set_hands(s, {0: "BBBBRRRR"})
    s = do(s, play(s, 0, "BBBBRRR"))
    assert s.owed == () and s.locked == -1


# ---------------------------------------------------------------- reveals (DDZ-26)

def test_ddz26_a_hidden_landlord_is_revealed_by_playing_an_f_card():
    s = a_play_state()
    s = set_hands(s, {0: (F, parse_face("3s"), parse_face("3h")), 1: "4",
                      2: (F, parse_face("8s"), parse_face("9s"))})
    s = do(s, play(s, 0, (F,)))                      # an open landlord: nothing
    assert s.owed == ()
    s = passes(s, [1])
    assert sides(s, 1)[2] is None
    s = do(s, play(s, 2, (parse_face("8s"),)))       # H1 without F: nothing
    assert s.owed == ()
    s = passes(s, [3, 4, 5, 0, 1])
    s = auto(s)                                      # ROUND_END: seat 2 leads
    s = do(s, play(s, 2, (F,)))
    assert s.owed == ("REVEAL",)
    refused(s, ev(s, "REVEAL", 4), "DDZ-26")
    refused(s, ev(s, "PASS", 3), "DDZ-92")
    s = auto(s)
    assert s.revealed == (2,) and sides(s, 1)[2] == "landlord"
    assert sides(s, 1)[4] is None                    # H2 still hidden
    assert view(s, 5)["landlords"] == [0, 2]


# ---------------------------------------------------------------- end (DDZ-76) and section 13

def test_ddz76_the_hand_ends_when_a_seat_plays_its_last_card():
    s = set_hands(a_play_state(), {0: "3", 1: "4"})
    s = do(s, play(s, 0, "3"))
    assert s.owed == ("HAND_END",) and s.win_side == 0
    err = refused(s, play(s, 1, "4"), "DDZ-76")       # nothing more is played (DDZ-76)
    assert err.also == ("DDZ-92",) and "seat 0 played his last card" in err.reason
    s = auto(s)
    for seat in range(6):
        assert view(s, seat)["hands"][1] == ["4s"]     # every hand public at the end
        assert None not in sides(s, seat)
    s = auto(s)
    g = VARIANTS["3v3"]
    assert g.is_over(s)
    r = g.result(s)
    assert r["scores"] == [3, -3, 3, -3, 3, -3] and r["W"] == 3
    assert [o.result for o in g.outcomes(s)] == ["win", "loss"] * 3
    refused(s, ev(s, "PASS", 1), "DDZ-76")             # the hand ended by DDZ-76


def test_ddz92_events_out_of_sequence_or_not_due_are_refused():
    s = a_play_state()
    with pytest.raises(InvalidEvent):
        VARIANTS["3v3"].step(s.copy(), ev(s, "PASS", 0)._replace(seq=s.seq + 1))
    refused(s, ev(s, "ROUND_END", 0), "DDZ-92")
    refused(s, ev(s, "GAME_START"), "DDZ-92")
    with pytest.raises(InvalidEvent):
        VARIANTS["3v3"].step(s.copy(), ev(s, "DRAW", 0))
    pre = start("3v3", seed=1)
    refused(pre, ev(pre, "CASE", 0), "DDZ-92")            # the deal comes first


def test_ddz92_a_rejected_event_leaves_the_same_seat_to_act():
    s = set_hands(a_play_state(), {0: "34", 1: "5"})
    before = VARIANTS["3v3"].to_move(s)
    refused(s, play(s, 0, "34"), "DDZ-47")
    assert VARIANTS["3v3"].to_move(s) == before == 0


def test_ddz92_seat_views_drop_the_record_only_marks():
    from engine.games.ddz6.info import seen_event
    s = set_hands(a_play_state(), {0: "3456"})
    e = play(s, 0, "3", target=1)
    assert seen_event(e, 2, "3v3").target == -1 and seen_event(e, None, "3v3").target == 1


# cites DDZ-11
def test_ddz11_a_4deck_marked_card_played_reveals_nothing():
    s = show_state()
    s = autos(do(do(s, ev(s, "SHOW_HAND", 0, value=0)), ev(s, "SHOW_HAND", 3, value=0)
                 ._replace(seq=s.seq + 1)))
    mark, dark = s.deck[s.mark_pos], s.deck[s.dark_pos]
    s = set_hands(s, {0: (mark, parse_face("3s")), 1: (dark, parse_face("4s"))})
    s = do(s, play(s, 0, (mark,)))
    assert s.owed == () and s.revealed == ()
    if classify((dark,), "2v4").key > classify((mark,), "2v4").key:
        s = do(s, play(s, 1, (dark,)))
        assert s.owed == ()


def test_ddz75_defaults_of_side_double_and_show():
    z = zhengfan_after_kitty()
    refused(z, ev(z, "SIDE_CHOICE", 1, value=1, target=1), "DDZ-75")
    assert do(z, ev(z, "SIDE_CHOICE", 1, value=0, target=1)).side_of[1] == 0
    a = case_state({0: 1, 2: 1, 4: 1})
    refused(a, ev(a, "DOUBLE", 0, value=1, target=1), "DDZ-75")
    sh = show_state()
    refused(sh, ev(sh, "SHOW_HAND", 0, value=1, target=1), "DDZ-75")
    assert do(sh, ev(sh, "SHOW_HAND", 0, value=0, target=1)).shows == (0,)


def test_ddz92_engine_events_after_a_play_come_in_order_reveal_then_hand_end():
    s = a_play_state()
    s = set_hands(s, {0: "33", 4: (F,)})
    s = do(s, play(s, 0, "3"))
    s = passes(s, [1, 2, 3])
    s = do(s, play(s, 4, (F,)))                      # H2 goes out with his F card
    assert s.owed == ("REVEAL", "HAND_END")
    s = auto(s)
    assert s.revealed == (4,) and s.owed == ("HAND_END",)
    bad = VARIANTS["3v3"].auto_event(s)._replace(value=1)
    refused(s, bad, "DDZ-76")
    s = auto(s)
    good = VARIANTS["3v3"].auto_event(s)
    refused(s, good._replace(payload='{"scores":[0,0,0,0,0,0]}'), "DDZ-81")
    s = auto(s)
    assert VARIANTS["3v3"].result(s)["winning_side"] == "landlord"


def test_ddz77_ddz78_a_wrong_auto_end_is_refused():
    d = arrange("3v3", {1: (F, F, F)})
    s = start("3v3", d)
    from engine.games.ddz6.setup import deal_event
    s = do(s, deal_event(s, position(d, 1, F), None))
    s = auto(s)                                       # CASE C
    e = VARIANTS["3v3"].auto_event(s)
    assert e.kind == "AUTO_END" and e.tag == "case_c" and e.seat == 1
    refused(s, e._replace(value=1), "DDZ-77")


@pytest.mark.parametrize("variant", ["3v3", "2v4", "zhengfan"])
def test_ddz1_seats_and_turns_go_round_zero_to_five(variant):
    """DDZ-1: seats 0–5; bids and plays go 0→1→…→5→0 — the next seat to act after seat i is
    i+1 (mod 6), passing over only seats whose hands are empty; a pass from the seat after the
    one to act is refused and changes nothing. Checked over seeded self-play of each variant."""
    from engine.errors import IllegalMove
    from tests.games.ddz6.test_game_support import playout

    g = VARIANTS[variant]
    turns = {"BID", "DOUBLE", "PLAY", "PASS"}
    for seed in range(4):
        events, _ = playout(variant, seed, "random")
        s = g.initial_state(events[0])
        assert g.seat_count(s.options) == 6
        prev = None
        for e in events[1:]:
            if e.kind in turns and prev is not None and prev[0] == e.kind.replace(
                    "PASS", "PLAY") and e.kind in ("PLAY", "PASS", "BID"):
                gap = [(prev[1] + k) % 6 for k in range(1, (e.seat - prev[1]) % 6)]
                assert all(not s.hands[x] for x in gap), (variant, seed, e.seq, prev, e.seat)
            if e.kind in turns:
                prev = (e.kind.replace("PASS", "PLAY"), e.seat)
            elif e.kind in ("ROUND_END", "BID_END", "CASE"):
                prev = None
            if e.kind == "PASS":
                wrong = e._replace(seat=(e.seat + 1) % 6)
                before = s.copy()
                with pytest.raises(IllegalMove):
                    g.step(s, wrong)
                assert s == before
            g.step(s, e)
