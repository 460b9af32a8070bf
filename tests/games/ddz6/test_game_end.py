"""六人斗地主 end without play (DDZ-77 … DDZ-80) and scoring (section 11): the seed's worked
figures, on the scoring functions and through the game."""

from __future__ import annotations

from engine.games.ddz6 import VARIANTS
from engine.games.ddz6.combos import classify
from engine.games.ddz6.scoring import bomb_increment, settle, show_increment

from .reference import faces
from .test_game_setup import case_state
from .test_game_support import arrange, auto, autos, deal, do, ev, start


def inc(text: str, variant: str, solo: bool = False) -> int:
    c = classify(faces(text), variant)
    assert c is not None, text
    return bomb_increment(c, variant != "3v3", solo)


# ---------------------------------------------------------------- 3v3 (DDZ-82 … DDZ-84)

def test_ddz83_3v3_bomb_increments():
    assert inc("5555", "3v3") == 0 and inc("55555", "3v3") == 0
    assert inc("666666", "3v3") == 1 and inc("999999999999", "3v3") == 1
    assert inc("BBB", "3v3") == 1 and inc("BBRR", "3v3") == 1
    assert inc("BBBRR", "3v3") == 3
    assert inc("BBBRRR", "3v3") == 5                  # its own line only, not also + 1
    assert inc("34567", "3v3") == 0


def test_ddz84_worked_example_1_case_b1():
    # S = 2, three doubles (N = 4), bombs +1 +0 +1: N = 6; a farmer goes out: W = 12
    n = 1 + 3 + inc("666666", "3v3") + inc("4444", "3v3") + inc("BBRR", "3v3")
    assert n == 6
    sides = [0, 1, 1, 0, 1, 0]                        # landlords 0, 3, 5
    st = settle("3v3", 2, n, sides, 1, (0, 3, 5), False, False)
    assert st.w == 12 and st.scores == (-12, 12, 12, -12, 12, -12)


def test_ddz84_worked_example_2_case_a():
    n = 1 + inc("BBBRR", "3v3")
    assert n == 4
    st = settle("3v3", 3, n, [0, 1, 0, 1, 0, 1], 0, (0, 2, 4), False, False)
    assert st.w == 12 and st.scores == (12, -12, 12, -12, 12, -12)


def test_ddz77_ddz84_worked_example_3_case_c_through_the_game():
    s = case_state({2: 3}, m=2)
    g = VARIANTS["3v3"]
    assert g.is_over(s)
    r = g.result(s)
    assert r["reason"] == "case_c" and r["S"] == 2
    assert r["scores"] == [-2, -2, 10, -2, -2, -2]
    assert [o.result for o in g.outcomes(s)] == ["loss", "loss", "win", "loss", "loss", "loss"]


def test_ddz82_case_a_base_three_b_the_bid():
    assert case_state({0: 1, 1: 1, 2: 1}).base == 3
    s = case_state({0: 1, 3: 2})
    s = do(s, ev(s, "BID", 4, value=2))
    for seat in (5, 1, 2):
        s = do(s, ev(s, "BID", seat, value=0))
    assert auto(s).base == 2


# ---------------------------------------------------------------- 4-deck (DDZ-85 … DDZ-90)

def test_ddz86_4deck_bomb_increments_each_bomb_its_own_line():
    assert [inc("4" * n, "2v4") for n in (4, 5, 6, 7, 8, 16)] == [0, 0, 0, 1, 2, 10]
    assert inc("BBB", "2v4") == inc("BBRR", "2v4") == inc("RRR", "2v4") == 0
    assert inc("BBBB", "2v4") == inc("BBBRRR", "2v4") == inc("RRRR", "2v4") == 3
    assert inc("BBBBRRR", "2v4") == 9 and inc("BBBBRRRR", "2v4") == 6
    assert bomb_increment(classify(faces("BBBRR"), "2v4"), True, False) == 0   # trio+pair


def test_ddz87_no_bomb_changes_n_in_a_solo_hand():
    assert inc("TTTTTTTTTT", "2v4", solo=True) == 0 and inc("BBBBRRR", "2v4", solo=True) == 0


def test_ddz39_show_increments():
    assert show_increment(0, False) == 0 and show_increment(1, False) == 3
    assert show_increment(2, False) == 6 and show_increment(1, True) == 9


# cites DDZ-88
def test_ddz88_worked_example_1_2v4():
    n = 1 + show_increment(1, False) + inc("88888888", "2v4") + inc("BBBRRR", "2v4")
    assert n == 9
    sides = [0, 1, 1, 0, 1, 1]                        # big 0, second 3
    st = settle("2v4", 1, n, sides, 0, (0, 3), False, False)
    assert st.scores == (27, -9, -9, 9, -9, -9)


def test_ddz88_worked_example_2_2v4_solo():
    n = 1 + show_increment(1, True) + inc("TTTTTTTTTT", "2v4", solo=True)
    assert n == 10
    st = settle("2v4", 1, n, [0, 1, 1, 1, 1, 1], 1, (0,), True, False)
    assert st.scores == (-50, 10, 10, 10, 10, 10)


# cites DDZ-89
def test_ddz89_worked_example_3_zhengfan():
    n = 1 + show_increment(2, False) + inc("7777777", "zhengfan")
    assert n == 8
    sides = [0, 0, 1, 1, 0, 1]                        # 正 0 (+1, 4), 反 3 (+2, 5)
    st = settle("zhengfan", 2, n, sides, 1, (0, 3), False, False)
    assert st.w == 16 and st.scores == (-32, -16, 16, 32, -16, 16)


def test_ddz89_zhengfan_solo_settles_as_2v4_solo():
    st = settle("zhengfan", 1, 2, [1, 1, 0, 1, 1, 1], 0, (2,), True, False)
    assert st.scores == (-2, -2, 10, -2, -2, -2)


def test_ddz90_worked_example_4_auto_win_pays_the_base_only():
    st = settle("2v4", 1, 7, [0, 1, 1, 0, 1, 1], 0, (0, 3), False, True)
    assert st.scores == (3, -1, -1, 1, -1, -1)
    st = settle("zhengfan", 2, 7, [0, 0, 1, 1, 0, 1], 1, (0, 3), False, True)
    assert st.scores == (-4, -2, 2, 4, -2, 2)


def test_ddz80_a_void_hand_scores_zero():
    assert settle("zhengfan", 5, 9, [0, 0, 1, 1, 0, 1], -1, (0, 3), False, True).scores \
        == (0,) * 6


def test_ddz81_settlement_is_zero_sum_for_every_shape():
    for variant, landlords, solo in (("3v3", (0, 1, 2), False), ("2v4", (0, 3), False),
                                     ("2v4", (4,), True), ("zhengfan", (0, 3), False)):
        sides = [0 if i in landlords else 1 for i in range(6)]
        if variant == "zhengfan":
            sides = [0, 0, 1, 1, 0, 1]
        for win in (0, 1):
            assert sum(settle(variant, 3, 5, sides, win, landlords, solo, False).scores) == 0


def test_ddz85_s_is_the_base_score_option():
    s = start("2v4", seed=1, options={"base_score": 7})
    assert s.base == 7


# ---------------------------------------------------------------- auto-wins (DDZ-78, DDZ-79)

NO_BOMB = "333444555666777888999TTTJJJQQQKKKA"      # 34 cards, no rank four times
ALL_BOMBS = "3333444455556666777788889999TTTTJJJJQQQQ"   # 40 cards: ten bombs


def big_landlord_2v4(hand34: str, kitty6: str, options: dict | None = None, seed: int = 0):
    """2v4: seat 0 (OM, DM 3) bids 3 and takes the first six kitty cards."""
    d = arrange("2v4", {0: hand34}, kitty=kitty6, seed=seed)
    s = start("2v4", d, options)
    s = deal(s, 0, 3)
    return autos(do(s, ev(s, "BID", 0, value=3)))


def test_ddz78a_a_landlord_without_a_bomb_wins_at_once():
    s = big_landlord_2v4(NO_BOMB, "AA222B")
    g = VARIANTS["2v4"]
    assert g.is_over(s)
    r = g.result(s)
    assert r["reason"] == "a" and r["winning_side"] == "landlord"
    assert r["scores"] == [3, -1, -1, 1, -1, -1]               # DDZ-90: N not applied


def test_ddz78a_reading_off_plays_on():
    s = big_landlord_2v4(NO_BOMB, "AA222B", {"no_bomb_autowin": "off"})
    assert s.phase == "show"


def test_ddz78b_all_bombs_wins():
    s = big_landlord_2v4(ALL_BOMBS[:34], ALL_BOMBS[34:])
    assert VARIANTS["2v4"].result(s)["reason"] == "b"


def test_ddz78c_a_thirteen_card_bomb_wins():
    s = big_landlord_2v4("3333333333333", "", {"no_bomb_autowin": "off"}, seed=3)
    r = VARIANTS["2v4"].result(s)
    assert r is not None and r["reason"] == "c" and r["scores"] == [3, -1, -1, 1, -1, -1]


def test_ddz78a_farmers_reading():
    farmers = {}
    for k, seat in enumerate((1, 2, 4, 5)):
        ranks = "3456789TJQKA2"
        skip = ranks[(3 * k) % 13], ranks[(3 * k + 1) % 13]
        text = "".join(r * 3 for r in ranks if r not in skip) + skip[0]
        farmers[seat] = text
    d = arrange("2v4", farmers, seed=5)
    s = start("2v4", d, {"no_bomb_autowin": "farmers"})
    s = deal(s, 0, 3)
    s = autos(do(s, ev(s, "BID", 0, value=3)))
    r = VARIANTS["2v4"].result(s)
    assert r is not None and r["reason"] == "a" and r["winning_side"] == "landlord"
    assert all(len(set(farmers[x])) >= 11 for x in farmers)


def zhengfan_hands(hands: dict[int, str], kitty: str = "", options: dict | None = None):
    """zhengfan, OM 0 and DM 3, after the kitty."""
    d = arrange("zhengfan", hands, kitty=kitty, seed=2)
    s = start("zhengfan", d, options)
    return deal(s, 0, 3)


def test_ddz79_zhengfan_checks_after_side_choosing_the_landlords_side_wins():
    s = zhengfan_hands({0: NO_BOMB}, kitty="AA222B")
    assert s.phase == "side" and not s.owed                   # not before side choosing
    for seat, v in ((1, 1), (2, 1)):
        s = do(s, ev(s, "SIDE_CHOICE", seat, value=v))
    s = autos(s)
    r = VARIANTS["zhengfan"].result(s)
    assert r["reason"] == "a" and r["winning_side"] == "zheng"
    assert r["scores"] == [2, -1, -1, -2, 1, 1]


def test_ddz79_ddz80_both_zhengfan_landlords_meet_a_condition_void():
    no_bomb_2 = "333444555666777888999TTTJJJQQQKKKA"
    s = zhengfan_hands({0: NO_BOMB, 3: no_bomb_2}, kitty="AA222BAA222R")
    for seat, v in ((1, 0), (2, 0)):
        s = do(s, ev(s, "SIDE_CHOICE", seat, value=v))
    s = autos(s)
    g = VARIANTS["zhengfan"]
    r = g.result(s)
    assert r["reason"] == "void" and r["scores"] == [0] * 6
    assert all(o.result == "draw" for o in g.outcomes(s))


def test_ddz79_farmers_reading_has_no_effect_in_zhengfan():
    s = zhengfan_hands({}, options={"no_bomb_autowin": "farmers"})
    assert s.phase == "side"
