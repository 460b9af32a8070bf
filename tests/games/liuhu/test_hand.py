"""Sections 9 and 10 of liuhu.md: the winning hand (LH-36 … LH-46), its value (LH-47 … LH-58),
the 混子 (LH-5, LH-32, LH-46), the options that change a win, the worked examples, an
independent brute-force enumerator compared with ``splits`` on seeded random hands, the audit
``check_split`` and the ``Split`` JSON round trip.

Cards are written as faces (``"4s 5s 6s"``, ``RJ``), see ``engine.cards.parse_faces``.
"""

from __future__ import annotations

import itertools
import random
from collections import Counter
from types import SimpleNamespace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.cards import RED_JOKER, format_face, is_red, parse_face, parse_faces
from engine.errors import InvalidEvent
from engine.games.liuhu.hand import (
    Group,
    HandRules,
    Meld,
    Pair,
    Split,
    best_split,
    best_total,
    check_split,
    clear_caches,
    could_win_with,
    is_win,
    splits,
    win_faces,
)

P = parse_faces
D = HandRules()


def F(text: str) -> int:
    return parse_face(text)


def cards_of(split: Split) -> list[str]:
    """Each group as 'kind:faces' and the pair as 'pair:faces', for readable asserts."""
    out = [f"{g.kind}:{' '.join(format_face(c) for c in g.cards)}" for g in split.groups]
    return [*out, "pair:" + " ".join(format_face(c) for c in split.pair.cards)]


def M(kind: str, text: str) -> Meld:
    return Meld(kind, P(text))


# ---------------------------------------------------------------------------------------------
# Section 10's worked examples


def test_worked_example_fangchong_21():
    """LH-43, LH-48, LH-52, LH-54, LH-58: seat 4 wins on 8c, total 21 = 3 + 12 + 0 + 0 + 6."""
    melds = [M("peng", "Qh Qh Qh"), M("chi", "2d 7h Td")]
    concealed = P("4s 5s 6s 6c 7c 5h 5s 8c")
    found = splits(concealed, melds, D, win="fangchong", winning_card=F("8c"))
    assert len(found) == 1
    s = found[0]
    assert best_split(concealed, melds, D, win="fangchong", winning_card=F("8c")) == s
    assert s.total == 21 and s.bonus == 0
    assert [g.value for g in s.groups] == [3, 12, 0, 0] and s.pair.value == 6
    assert cards_of(s) == ["triplet:Qh Qh Qh", "special:2d 7h Td", "seq:4s 5s 6s",
                           "seq:6c 7c 8c", "pair:5s 5h"]
    holder = [g for g in s.groups if g.holds_winning]
    assert holder == [s.groups[3]] and holder[0].exposed
    assert [g.exposed for g in s.groups] == [True, True, False, True]
    assert is_win(concealed, melds, D, win="fangchong", winning_card=F("8c"))
    assert check_split(s, concealed, melds, D, win="fangchong", winning_card=F("8c")) is None


def test_worked_example_zimo_at_threshold():
    """LH-45, LH-50, LH-55: 9 + 3 + 0 + 0 + 0 = 12, +3 = 15 — a legal 自摸; 12 < 15 on a
    discard (LH-27)."""
    melds = [M("an_gang", "Kd Kd Kd Kd")]
    concealed = P("3h 3h 3h 9s Ts Js 4d 5d 6d 7c 7s")
    s = best_split(concealed, melds, D)
    assert s is not None and s.total == 15 and s.bonus == 3
    assert [g.value for g in s.groups] == [9, 3, 0, 0] and s.pair.value == 0
    assert s.groups[0].kind == "an_gang" and not s.groups[0].exposed
    assert is_win(concealed, melds, D)
    d = best_split(concealed, melds, D, win="fangchong", winning_card=F("7c"))
    assert d is not None and d.total == 12 and d.pair.holds_winning
    assert not is_win(concealed, melds, D, win="fangchong", winning_card=F("7c"))
    without = list(concealed)
    without.remove(F("7c"))
    assert not could_win_with(without, melds, D, F("7c"), win="fangchong")
    assert could_win_with(without, melds, D, F("7c"), win="zimo")


def test_worked_example_triplets_beat_sequences():
    """LH-44: 4d×3 5d×3 6d×3 scores as three triplets (9), not three sequences (0)."""
    concealed = P("4d 4d 4d 5d 5d 5d 6d 6d 6d Jc Qc Kc 9h 9s")
    found = splits(concealed, [], D)
    assert sorted(s.total for s in found) == [3, 12]
    best = best_split(concealed, [], D)
    assert best.total == 12 == best_total(concealed, [], D)
    assert sorted(cards_of(best)) == ["pair:9s 9h", "seq:Jc Qc Kc", "triplet:4d 4d 4d",
                                      "triplet:5d 5d 5d", "triplet:6d 6d 6d"]
    worse = next(s for s in found if s.total == 3)
    assert check_split(worse, concealed, [], D, win="zimo", winning_card=None) == "LH-44"


# ---------------------------------------------------------------------------------------------
# One test per rule


def test_lh5_one_rj_at_most():
    """LH-5: the pack has at most one RJ; two in a hand are malformed; BJ never occurs."""
    with pytest.raises(InvalidEvent):
        splits(P("RJ RJ 4s 5s 6s 7s 8s 9s Th Jh Qh 2c 2c 2c"), [], D)
    with pytest.raises(InvalidEvent):
        splits(P("BJ 4s 5s 6s 7s 8s 9s Th Jh Qh 2c 2c 2c 3d"), [], D)


def test_lh6_ace_is_one():
    """LH-6, LH-37: Q-K-A and K-A-2 are no sequences; A-2-3 of one suit is 壹贰叁."""
    base = "4s 5s 6s 7h 8h 9h 2c 2c 2c 5d 5d"
    assert splits(P(base + " Qh Kh Ah"), [], D) == []
    assert splits(P(base + " Kh Ah 2h"), [], D) == []
    s = best_split(P(base + " Ah 2h 3h"), [], D)
    assert "special:Ah 2h 3h" in cards_of(s)


def test_lh27_lh29_could_win_with():
    """LH-27, LH-29: a claim window asks whether one card completes the hand at min_hu without
    the 自摸 bonus; the answer equals is_win on the hand with the card."""
    without = P("4s 5s 6s 6c 7c 5h 5s")
    melds = [M("peng", "Qh Qh Qh"), M("chi", "2d 7h Td")]
    wins = {c for c in range(52) if could_win_with(without, melds, D, c, win="fangchong")}
    assert wins == {F("5c"), F("8c")}        # 5c: 5c 6c 7c + pair 5h 5s, 21 as well
    for c in range(52):
        assert (c in wins) == is_win([*without, c], melds, D, win="qianggang", winning_card=c)


def test_lh32_rj_never_in_melds_nor_won_on():
    """LH-32: an RJ cannot sit in a meld, and a discarded or robbed RJ cannot be won on."""
    melds = [M("peng", "Qh Qh RJ")]
    concealed = P("4s 5s 6s 6c 7c 8c 9d 9d 9d 5h 5s")
    assert splits(concealed, melds, D) == []
    ok = best_split(concealed, [M("peng", "Qh Qh Qh")], D)
    assert check_split(ok, concealed, melds, D, win="zimo", winning_card=None) == "LH-32"
    without = P("4s 5s 6s 6c 7c 8c 9d 9d 9d 5h")
    assert not could_win_with(without, [M("peng", "Qh Qh Qh")], D, RED_JOKER, win="fangchong")
    assert could_win_with(without, [M("peng", "Qh Qh Qh")], D, RED_JOKER, win="zimo")
    assert splits([*without, RED_JOKER], [M("peng", "Qh Qh Qh")], D, win="fangchong",
                  winning_card=RED_JOKER) == []


def test_lh36_exact_shape():
    """LH-36: g groups (melds counted) + one pair, every card used."""
    full = P("4s 5s 6s 7h 8h 9h 2c 2c 2c Jd Qd Kd 5d 5d")
    assert splits(full, [], D)
    assert splits(full[:-1], [], D) == []                      # 13 cards
    assert splits([*full, F("5d"), F("5d"), F("5d")], [], D) == []
    assert splits(full[3:], [M("chi", "4s 5s 6s")], D)      # the meld is a group
    assert splits(full[3:], [M("chi", "4s 5s 6s"), M("peng", "Ah Ah Ah")], D) == []


def test_lh37_sequences():
    """LH-37: one suit, consecutive ranks, 2-3-4 … J-Q-K, value 0 (LH-47)."""
    rest = " 7h 8h 9h 2c 2c 2c Jd Qd Kd 5d 5d"
    assert best_split(P("2s 3s 4s" + rest), [], D).groups[0].kind == "seq"
    assert splits(P("2s 3h 4s" + rest), [], D) == []
    assert splits(P("2s 3s 5s" + rest), [], D) == []
    s = best_split(P("Js Qs Ks" + rest), [], D)
    assert [g.value for g in s.groups if g.kind == "seq"] == [0, 0, 0]


@pytest.mark.parametrize(("mode", "cards", "value"), [
    ("any_suits", "Ah 2d 3h", 12), ("any_suits", "As 2c 3s", 12), ("any_suits", "Ah 2s 3h", 6),
    ("any_suits", "2d 7h Td", 12), ("any_suits", "2d 7s Td", 6),
    ("same_colour", "Ah 2d 3h", 12), ("same_colour", "Ah 2s 3h", None),
    ("same_colour", "2s 7c Ts", 12), ("same_colour", "2d 7s Td", None),
    ("same_suit", "Ah 2h 3h", 12), ("same_suit", "Ah 2d 3h", None),
    ("same_suit", "2c 7c Tc", 12), ("same_suit", "2c 7s Tc", None),
])
def test_lh38_lh51_lh52_special_sequences(mode, cards, value):
    """LH-38 with each special_sequence value; LH-51 mixed colour 6, LH-52 one colour 12."""
    rules = HandRules(special_sequence=mode)
    concealed = P(cards + " 4s 5s 6s 8h 8h 8h Jd Qd Kd 9c 9c")
    s = best_split(concealed, [], rules)
    if value is None:
        assert s is None
        assert best_split(concealed[3:], [M("chi", cards)], rules) is None
    else:
        special = [g for g in s.groups if g.kind == "special"]
        assert len(special) == 1 and special[0].value == value
        assert s.total == value + 3 + 3                  # triplet 8h, 自摸
        m = best_split(concealed[3:], [M("chi", cards)], rules)
        assert m.groups[0].kind == "special" and m.groups[0].value == value


def test_lh39_triplet_needs_identical_faces():
    """LH-39: three identical faces; three of a rank in different suits are no triplet."""
    rest = " 4s 5s 6s 7h 8h 9h Jd Qd Kd 5d 5d"
    assert best_split(P("8c 8c 8c" + rest), [], D).total == 3 + 6 + 3
    assert splits(P("8c 8s 8c" + rest), [], D) == []


def test_lh40_four_concealed_are_not_a_kong():
    """LH-40: four identical concealed cards split freely (here a triplet + a sequence)."""
    concealed = P("6h 6h 6h 6h 7h 8h 2c 2c 2c Jd Qd Kd 9s 9s")
    s = best_split(concealed, [], D)
    assert sorted(cards_of(s)) == ["pair:9s 9s", "seq:6h 7h 8h", "seq:Jd Qd Kd",
                                   "triplet:2c 2c 2c", "triplet:6h 6h 6h"]
    kong = s._replace(groups=(Group("an_gang", P("6h 6h 6h 6h"), False, 9, False),
                              *s.groups[1:]))
    assert check_split(kong, concealed, [], D, win="zimo", winning_card=None) == "LH-36"
    bad = s._replace(groups=tuple(g._replace(kind="an_gang") if g.kind == "triplet" else g
                                  for g in s.groups))
    assert check_split(bad, concealed, [], D, win="zimo", winning_card=None) == "LH-40"
    assert splits(P("6h 6h 6h 6h 2c 2c 2c Jd Qd Kd 9s"), [], D) == []


@pytest.mark.parametrize(("match", "pair", "ok"), [
    ("rank", "9s 9h", True), ("rank", "9s 9s", True), ("rank", "9s Ts", False),
    ("face", "9s 9s", True), ("face", "9s 9h", False),
])
def test_lh41_pair_match(match, pair, ok):
    """LH-41: a pair is two cards of one rank (``rank``) or of one face (``face``)."""
    concealed = P("4s 5s 6s 7h 8h 9h 2c 2c 2c Jd Qd Kd " + pair)
    assert bool(splits(concealed, [], HandRules(pair_match=match))) is ok


def test_lh42_melds_are_fixed():
    """LH-42: a meld keeps its cards; the concealed cards cannot borrow from it."""
    melds = [M("chi", "4s 5s 6s")]
    # 4s 5s 6s 6s 7s 8s would split, but the concealed 6s 7s 8s + meld cannot be rearranged.
    assert splits(P("7s 8s 2c 2c 2c Jd Qd Kd 5d 5d 9h"), melds, D) == []
    good = P("6s 7s 8s 2c 2c 2c Jd Qd Kd 5d 5d")
    s = best_split(good, melds, D)
    assert s.groups[0] == Group("seq", P("4s 5s 6s"), True, 0, True)
    moved = s._replace(groups=(s.groups[0]._replace(cards=P("5s 6s 7s")), *s.groups[1:]))
    assert check_split(moved, good, melds, D, win="zimo", winning_card=None) == "LH-42"
    assert splits(good, [M("chi", "4s 5h 6s")], D) == []            # not a group at all
    assert splits(good, [M("peng", "4s 4s 4h")], D) == []


def test_lh43_winning_card_placement():
    """LH-43: the winning card may sit in any part holding its face; each choice is a split,
    and its part counts as exposed (LH-58), which lowers a triplet under the option 6."""
    concealed = P("5h 5h 5h 4h 6h 2c 2c 2c Jd Qd Kd 9s 9s 5h")
    three = splits(concealed, [], D, win="fangchong", winning_card=F("5h"))
    holders = sorted(next(g.kind for g in s.groups if g.holds_winning) for s in three)
    assert holders == ["seq", "triplet"] and {s.total for s in three} == {6}
    six = HandRules(concealed_triplet_hu=6)
    found = splits(concealed, [], six, win="fangchong", winning_card=F("5h"))
    assert sorted(s.total for s in found) == [9, 12]
    best = best_split(concealed, [], six, win="fangchong", winning_card=F("5h"))
    assert best.total == 12 and next(g for g in best.groups if g.holds_winning).kind == "seq"
    unmarked = best._replace(groups=tuple(g._replace(holds_winning=False, exposed=False)
                                          for g in best.groups))
    assert check_split(unmarked, concealed, [], six, win="fangchong",
                       winning_card=F("5h")) == "LH-43"
    assert check_split(best, concealed, [], six, win="zimo", winning_card=None) == "LH-43"
    # 自摸: nothing is marked, one split per shape.
    assert len(splits(concealed, [], D)) == 1
    # The winning card must be among the concealed cards.
    assert splits(concealed, [], D, win="fangchong", winning_card=F("8d")) == []


def test_lh44_best_split_wins():
    """LH-44: the highest total over all splits is the hand's value (here the 2-5-8 pair)."""
    # 2s 2s 2s 3s 4s is only 2s 3s 4s + the pair 2s 2s (6): 2s×3 would leave 3s 4s.
    concealed = P("2s 2s 2s 3s 4s 7h 8h 9h Jd Qd Kd 5c 6c 7c")
    found = splits(concealed, [], D)
    assert [s.total for s in found] == [9]
    concealed = P("8s 8s 8s 9s 9s 9s Ts Ts Ts 4h 5h 6h Jd Jd")
    found = splits(concealed, [], D)
    # three triplets + pair Jd (12), or 8-9-T ×3 + pair (3)
    assert sorted(s.total for s in found) == [3, 12]
    assert best_split(concealed, [], D).total == 12 == found[0].total


@pytest.mark.parametrize("counts", ["yes", "no"])
def test_lh45_threshold(counts):
    """LH-45: ≥ min_hu; the 自摸 +3 counts only with zimo_bonus_counts = yes."""
    rules = HandRules.of({**{f: getattr(D, f) for f in D.__slots__},
                          "zimo_bonus_counts": counts})
    melds = [M("an_gang", "Kd Kd Kd Kd")]
    concealed = P("3h 3h 3h 9s Ts Js 4d 5d 6d 7c 7s")       # 12 + 3
    assert is_win(concealed, melds, rules) is (counts == "yes")
    assert not is_win(concealed, melds, rules, win="fangchong", winning_card=F("7c"))
    r12 = HandRules(min_hu=12, zimo_bonus_counts=counts == "yes")
    assert is_win(concealed, melds, r12)
    assert is_win(concealed, melds, r12, win="fangchong", winning_card=F("7c"))
    assert not is_win(concealed, melds, HandRules(min_hu=16, zimo_bonus_counts=True))
    assert is_win(concealed, melds, HandRules(min_hu=0))


def test_lh46_wild_takes_the_best_face():
    """LH-46: an RJ stands for any face, recorded in ``wild``, the best choice counts (here the
    third 9h of a triplet beats a 5d for a 5d triplet, which leaves a pair of 9s)."""
    concealed = P("RJ 9h 9h 4s 5s 6s 7c 8c 9c Jd Qd Kd 5d 5d")
    s = best_split(concealed, [], D)
    trip = [g for g in s.groups if g.kind == "triplet"]
    assert trip and trip[0].wild == (F("9h"),) and trip[0].cards == P("9h 9h 9h")
    assert s.total == 3 + 6 + 3
    for sp in splits(concealed, [], D):
        assert sum(len(g.wild) for g in sp.groups) + len(sp.pair.wild) == 1
    # An RJ may stand for a fifth copy or a face seen elsewhere; it may complete a special.
    s = best_split(P("RJ 2d Td 4s 5s 6s 7c 8c 9c Jd Qd Kd 5d 5d"), [], D)
    special = next(g for g in s.groups if g.kind == "special")
    assert special.wild in ((F("7h"),), (F("7d"),)) and special.value == 12
    assert s.total == 12 + 6 + 3


@pytest.mark.parametrize(("kind", "cards", "value", "exposed"), [
    ("chi", "4s 5s 6s", 0, True), ("peng", "9c 9c 9c", 3, True),
    ("ming_gang", "9c 9c 9c 9c", 6, True), ("an_gang", "9c 9c 9c 9c", 9, False),
    ("chi", "Ah 2h 3h", 12, True), ("chi", "Ah 2s 3h", 6, True),
])
def test_lh47_to_lh52_meld_values(kind, cards, value, exposed):
    """LH-47 … LH-52, LH-58: the value and exposure of each kind of meld."""
    s = best_split(P("7h 8h 9h 2c 2c 2c Jd Qd Kd 5d 5d"), [M(kind, cards)], D)
    assert s.groups[0].value == value and s.groups[0].exposed is exposed and s.groups[0].meld
    assert s.total == value + 3 + 6 + 3


@pytest.mark.parametrize(("cth", "win", "value"), [
    (3, "zimo", 3), (6, "zimo", 6), (3, "fangchong", 3), (6, "fangchong", 6),
    (6, "qianggang", 6)])
def test_lh48_concealed_triplet_option(cth, win, value):
    """LH-48: a concealed triplet is worth concealed_triplet_hu unless it holds the winning
    card; a 碰 is always 3."""
    rules = HandRules(concealed_triplet_hu=cth)
    concealed = P("7h 8h 9h 2c 2c 2c Jd Qd Kd 5d 5d")
    wc = None if win == "zimo" else F("9h")
    s = best_split(concealed, [M("peng", "Ac Ac Ac")], rules, win=win, winning_card=wc)
    trip = next(g for g in s.groups if g.kind == "triplet" and not g.meld)
    assert trip.value == value and s.groups[0].value == 3
    if win != "zimo":
        hold = best_split(P("7h 8h 9h 2c 2c 2c Jd Qd Kd 5d 5d"), [M("peng", "Ac Ac Ac")], rules,
                          win=win, winning_card=F("2c"))
        t = next(g for g in hold.groups if g.kind == "triplet" and not g.meld)
        assert t.holds_winning and t.exposed and t.value == 3


@pytest.mark.parametrize(("pair", "value"), [
    ("2s 2h", 6), ("5c 5c", 6), ("8d 8s", 6), ("Th Td", 6),
    ("As Ah", 0), ("3c 3c", 0), ("9s 9h", 0), ("Kd Ks", 0), ("Jh Jh", 0)])
def test_lh53_lh54_pair_values(pair, value):
    """LH-53, LH-54: a pair of 2, 5, 8 or T is worth 6, any other 0."""
    s = best_split(P("4s 5s 6s 7h 8h 9h 6c 6c 6c Jd Qd Kd " + pair), [], D)
    assert s.pair.value == value and s.total == 3 + value + 3


@pytest.mark.parametrize(("win", "bonus"), [("zimo", 3), ("fangchong", 0), ("qianggang", 0)])
def test_lh55_lh56_lh57_bonus(win, bonus):
    """LH-55 自摸 +3, LH-56 放铳 +0, LH-57 抢杠胡 +0 (scored like 放铳)."""
    concealed = P("4s 5s 6s 7h 8h 9h 6c 6c 6c Jd Qd Kd 5h 5h")
    s = best_split(concealed, [], D, win=win, winning_card=F("4s"))
    assert s.bonus == bonus and s.total == 3 + 6 + bonus
    wrong = s._replace(bonus=3 - bonus, total=s.total + 3 - 2 * bonus)
    rule = {"zimo": "LH-55", "fangchong": "LH-56", "qianggang": "LH-57"}[win]
    assert check_split(wrong, concealed, [], D, win=win, winning_card=F("4s")) == rule


def test_lh58_total_and_exposure():
    """LH-58: total = groups + pair + bonus; exposure as recorded must follow the rule."""
    concealed = P("4s 5s 6s 7h 8h 9h 6c 6c 6c Jd Qd Kd 5h 5h")
    s = best_split(concealed, [], D)
    assert s.total == sum(g.value for g in s.groups) + s.pair.value + s.bonus
    off = s._replace(total=s.total + 3)
    assert check_split(off, concealed, [], D, win="zimo", winning_card=None) == "LH-58"
    shown = s._replace(groups=(s.groups[0]._replace(exposed=True), *s.groups[1:]))
    assert check_split(shown, concealed, [], D, win="zimo", winning_card=None) == "LH-58"
    concealed = P("7h 8h 9h 2c 2c 2c Jd Qd Kd 5d 5d")
    m = best_split(concealed, [M("an_gang", "9c 9c 9c 9c")], D)
    hidden = m._replace(groups=(m.groups[0]._replace(exposed=True), *m.groups[1:]))
    assert check_split(hidden, concealed, [M("an_gang", "9c 9c 9c 9c")], D, win="zimo",
                       winning_card=None) == "LH-58"


def test_groups_option_five():
    """LH-36 with ``groups`` = 5: 16 concealed cards + the winning card."""
    five = HandRules(groups=5)
    concealed = P("4s 5s 6s 7h 8h 9h 6c 6c 6c Jd Qd Kd 2s 3s 4s 5h 5h")
    assert best_split(concealed, [], five).total == 3 + 6 + 3
    assert splits(concealed, [], D) == []
    assert splits(concealed[:14], [], five) == []
    assert best_split(concealed[3:], [M("chi", "4s 5s 6s")], five).total == 12


def test_hand_rules_of_and_validation():
    """LH-8: HandRules from an options object or dict (extra fields ignored, yes/no accepted);
    a value out of range is rejected with the allowed values."""
    opts = SimpleNamespace(groups=5, pair_match="face", special_sequence="same_suit",
                           concealed_triplet_hu=6, min_hu=21, zimo_bonus_counts="no",
                           decks=4, chi_card="middle")
    r = HandRules.of(opts)
    assert r == HandRules(5, "face", "same_suit", 6, 21, False)
    assert HandRules.of({"groups": 4, "pair_match": "rank", "special_sequence": "any_suits",
                         "concealed_triplet_hu": 3, "min_hu": 15, "zimo_bonus_counts": True,
                         "hands": 6}) == D
    for bad in ({"groups": 6}, {"pair_match": "suit"}, {"special_sequence": "any"},
                {"concealed_triplet_hu": 4}, {"min_hu": 100}, {"min_hu": -1},
                {"zimo_bonus_counts": "maybe"}):
        with pytest.raises(InvalidEvent, match="allowed"):
            HandRules.of({**{f: getattr(D, f) for f in D.__slots__}, **bad})
    with pytest.raises(InvalidEvent):
        HandRules.of({"groups": 4})


# ---------------------------------------------------------------------------------------------
# The brute-force reference: every assignment of card indexes into parts


def _ref_group(cards: tuple[int, ...], mode: str) -> tuple[str, int] | None:
    """(kind, value as concealed with cth = 3) of three faces, written from LH-37 … LH-39."""
    a, b, c = sorted(cards)
    if a == b == c:
        return ("triplet", 3)
    ranks = sorted(x % 13 for x in cards)
    suits = {x // 13 for x in cards}
    reds = sum(is_red(x) for x in cards)
    if ranks in ([0, 1, 2], [1, 6, 9]):
        colour = reds in (0, 3)
        if mode == "any_suits" or (mode == "same_colour" and colour) or len(suits) == 1:
            return ("special", 12 if colour else 6)
        return None
    if len(suits) == 1 and ranks[0] >= 1 and ranks == [ranks[0], ranks[0] + 1, ranks[0] + 2]:
        return ("seq", 0)
    return None


def _ref_pair(cards: tuple[int, ...], match: str) -> int | None:
    a, b = cards
    if a == b or (match == "rank" and a % 13 == b % 13):
        return 6 if a % 13 in (1, 4, 7, 9) else 0
    return None


def _ref_meld(m: Meld, rules: HandRules) -> tuple | None:
    cards = tuple(sorted(m.cards))
    if RED_JOKER in cards:
        return None
    if m.kind == "chi":
        g = _ref_group(cards, rules.special_sequence)
        if g is None or g[0] == "triplet":
            return None
        return (g[0], cards, True, g[1])
    if len(set(cards)) != 1 or len(cards) != (3 if m.kind == "peng" else 4):
        return None
    kind = {"peng": "triplet", "ming_gang": "ming_gang", "an_gang": "an_gang"}[m.kind]
    return (kind, cards, m.kind != "an_gang", {"peng": 3, "ming_gang": 6, "an_gang": 9}[m.kind])


def reference_splits(concealed, melds, rules, win="zimo", winning_card=None) -> set:
    """Every split as a canonical tuple, by trying every way to put the card indexes into parts
    (itertools.combinations), every face for an RJ, and every holder of the winning card."""
    meld_parts = [_ref_meld(m, rules) for m in melds]
    if None in meld_parts or len(concealed) != 3 * (rules.groups - len(melds)) + 2:
        return set()
    if win != "zimo" and (winning_card == RED_JOKER or winning_card not in concealed):
        return set()
    rj = [i for i, c in enumerate(concealed) if c == RED_JOKER]
    shapes = set()
    for face in (range(52) if rj else [None]):
        cards = [face if c == RED_JOKER else c for c in concealed]

        def rec(left: tuple[int, ...], pair_used: bool, acc: tuple, cards=cards) -> None:
            if not left:
                if pair_used:
                    shapes.add(tuple(sorted(acc)))
                return
            i, rest = left[0], left[1:]
            for j, k in itertools.combinations(rest, 2):
                g = _ref_group((cards[i], cards[j], cards[k]), rules.special_sequence)
                if g:
                    wild = tuple(cards[x] for x in (i, j, k) if x in rj)
                    part = (g[0], tuple(sorted((cards[i], cards[j], cards[k]))), wild)
                    rec(tuple(x for x in rest if x not in (j, k)), pair_used, (*acc, part))
            if not pair_used:
                for j in rest:
                    if _ref_pair((cards[i], cards[j]), rules.pair_match) is not None:
                        wild = tuple(cards[x] for x in (i, j) if x in rj)
                        part = ("pair", tuple(sorted((cards[i], cards[j]))), wild)
                        rec(tuple(x for x in rest if x != j), True, (*acc, part))

        rec(tuple(range(len(cards))), False, ())
    out = set()
    bonus = 3 if win == "zimo" else 0
    for shape in shapes:
        holders = [None] if win == "zimo" else sorted(
            {p for p in shape if (Counter(p[1]) - Counter(p[2]))[winning_card]})
        for h in holders:
            parts = []
            marked = False
            for p in shape:
                holds = p == h and not marked
                marked = marked or holds
                if p[0] == "pair":
                    value = _ref_pair(p[1], rules.pair_match)
                elif p[0] == "triplet":
                    value = 3 if holds else rules.concealed_triplet_hu
                else:
                    value = _ref_group(p[1], rules.special_sequence)[1]
                parts.append((p[0], p[1], holds, value, p[2]))
            total = sum(p[3] for p in parts) + sum(m[3] for m in meld_parts) + bonus
            out.add((tuple(sorted(meld_parts)), tuple(sorted(parts)), total))
    return out


def canonical(s: Split) -> tuple:
    """A Split as the reference's canonical tuple."""
    melds = tuple(sorted((g.kind, tuple(sorted(g.cards)), g.exposed, g.value)
                         for g in s.groups if g.meld))
    parts = [(g.kind, tuple(sorted(g.cards)), g.holds_winning, g.value, g.wild)
             for g in s.groups if not g.meld]
    parts.append(("pair", tuple(sorted(s.pair.cards)), s.pair.holds_winning, s.pair.value,
                  s.pair.wild))
    return (melds, tuple(sorted(parts)), s.total)


def _random_group(rng: random.Random, rules: HandRules) -> tuple[int, ...]:
    while True:
        kind = rng.choices(["seq", "triplet", "special"], weights=[5, 3, 2])[0]
        s, r = rng.randrange(4), rng.randrange(13)
        if kind == "triplet":
            return (13 * s + r,) * 3
        if kind == "seq" and r <= 10:
            return tuple(13 * s + r + i for i in range(3))
        if kind == "special":
            ranks = rng.choice([(0, 1, 2), (1, 6, 9)])
            cards = tuple(13 * rng.randrange(4) + x for x in ranks)
            if _ref_group(cards, rules.special_sequence):
                return cards


def _random_pair(rng: random.Random, rules: HandRules) -> tuple[int, int]:
    r = rng.randrange(13)
    a = 13 * rng.randrange(4) + r
    return (a, a if rules.pair_match == "face" else 13 * rng.randrange(4) + r)


def random_case(rng: random.Random) -> tuple:
    """A seeded near-winning hand: random melds, groups and a pair, an RJ for one card
    sometimes, one card changed sometimes; win type and winning card at random."""
    rules = HandRules(groups=rng.choice([4, 4, 4, 5]), pair_match=rng.choice(["rank", "face"]),
                      special_sequence=rng.choice(["any_suits", "same_colour", "same_suit"]),
                      concealed_triplet_hu=rng.choice([3, 6]))
    n_melds = rng.choice([0, 1, 1, 2, 2, 3]) + (rules.groups == 5)
    melds = []
    for _ in range(n_melds):
        kind = rng.choice(["chi", "peng", "ming_gang", "an_gang"])
        if kind == "chi":
            g = _random_group(rng, rules)
            while g[0] == g[1]:
                g = _random_group(rng, rules)
            melds.append(Meld("chi", g))
        else:
            c = rng.randrange(52)
            melds.append(Meld(kind, (c,) * (3 if kind == "peng" else 4)))
    concealed = []
    for _ in range(rules.groups - n_melds):
        concealed += _random_group(rng, rules)
    concealed += _random_pair(rng, rules)
    if rng.random() < 0.25:
        concealed[rng.randrange(len(concealed))] = RED_JOKER
    if rng.random() < 0.3:
        concealed[rng.randrange(len(concealed))] = rng.randrange(52)
    rng.shuffle(concealed)
    win = rng.choice(["zimo", "fangchong", "qianggang"])
    real = [c for c in concealed if c != RED_JOKER]
    wc = rng.choice(real) if win != "zimo" else None
    return concealed, melds, rules, win, wc


CASES = [random_case(random.Random(7000 + i)) for i in range(300)]


@pytest.mark.parametrize("i", range(0, 300, 25))
def test_splits_match_brute_force(i):
    """LH-36 … LH-46, LH-58: ``splits`` equals the brute-force enumeration on seeded hands
    (as sets, without duplicates), and best_split / best_total / is_win agree with it."""
    clear_caches()
    wins = 0
    for concealed, melds, rules, win, wc in CASES[i:i + 25]:
        ref = reference_splits(concealed, melds, rules, win, wc)
        ours = splits(concealed, melds, rules, win=win, winning_card=wc)
        got = [canonical(s) for s in ours]
        assert len(got) == len(set(got))
        assert set(got) == ref, (concealed, melds, rules, win, wc)
        best = best_split(concealed, melds, rules, win=win, winning_card=wc)
        top = max((t for _, _, t in ref), default=None)
        assert (best.total if best else None) == top
        assert best_total(concealed, melds, rules, win=win, winning_card=wc) == top
        if best:
            assert best == ours[0] and canonical(best) in ref
            wins += 1
        need = rules.min_hu + (3 if win == "zimo" and not rules.zimo_bonus_counts else 0)
        assert is_win(concealed, melds, rules, win=win, winning_card=wc) == \
            (top is not None and top >= need)
    assert wins >= 5                       # the generator makes mostly winning shapes


def test_brute_force_sees_non_wins_too():
    """The seeded cases hold both shapes and non-shapes (so the comparison tests both)."""
    shapes = sum(bool(reference_splits(*c)) for c in CASES[:100])
    assert 40 <= shapes <= 95


# ---------------------------------------------------------------------------------------------
# check_split (LH-73)


def _mutations(s: Split) -> list[tuple[Split, set[str]]]:
    out: list[tuple[Split, set[str]]] = []
    own = [i for i, g in enumerate(s.groups) if not g.meld]
    if own:
        i = own[0]
        g = s.groups[i]
        groups = list(s.groups)
        groups[i] = g._replace(value=g.value + 3)
        out.append((s._replace(groups=tuple(groups), total=s.total + 3),
                    {"LH-47", "LH-48", "LH-51", "LH-52"}))
        groups = list(s.groups)
        groups[i] = g._replace(cards=g.cards[:2])
        out.append((s._replace(groups=tuple(groups)), {"LH-36", "LH-46"}))
    out.append((s._replace(total=s.total - 3), {"LH-58"}))
    out.append((s._replace(pair=s.pair._replace(value=6 - s.pair.value),
                           total=s.total + 6 - 2 * s.pair.value), {"LH-53", "LH-54"}))
    out.append((s._replace(groups=s.groups[:-1]), {"LH-36"}))
    return out


def test_check_split_accepts_best_and_rejects_mutations():
    """check_split passes every best split of ``splits``, names LH-44 for a valid worse one, and
    the broken rule for a wrong value, total, missing card or missing group."""
    seen_44 = 0
    for concealed, melds, rules, win, wc in CASES[:150]:
        found = splits(concealed, melds, rules, win=win, winning_card=wc)
        for s in found:
            verdict = check_split(s, concealed, melds, rules, win=win, winning_card=wc)
            if s.total == found[0].total:
                assert verdict is None
            else:
                assert verdict == "LH-44"
                seen_44 += 1
        if found:
            for bad, rules_broken in _mutations(found[0]):
                assert check_split(bad, concealed, melds, rules, win=win,
                                   winning_card=wc) in rules_broken
    assert seen_44 > 0


# ---------------------------------------------------------------------------------------------
# JSON round trip


def test_to_dict_from_dict_round_trip():
    """A split survives to_dict / from_dict; the dict holds faces as text."""
    n = 0
    for concealed, melds, rules, win, wc in CASES[:120]:
        for s in splits(concealed, melds, rules, win=win, winning_card=wc):
            d = s.to_dict()
            assert all(isinstance(c, str) for g in d["groups"] for c in g["cards"])
            assert Split.from_dict(d) == s
            n += 1
    assert n > 50
    d = best_split(P("RJ 9h 9h 4s 5s 6s 7c 8c 9c Jd Qd Kd 5d 5d"), [], D).to_dict()
    assert any(g["wild"] == ["9h"] for g in d["groups"])


@pytest.mark.parametrize("bad", [
    None, [], {}, {"groups": [], "pair": {}, "bonus": 0},
    {"groups": "x", "pair": {"cards": ["5s", "5s"], "value": 6}, "bonus": 0, "total": 6},
    {"groups": [{"kind": "kong", "cards": ["5s"], "exposed": False, "value": 0, "meld": False}],
     "pair": {"cards": ["5s", "5s"], "value": 6}, "bonus": 0, "total": 6},
    {"groups": [], "pair": {"cards": ["5x", "5s"], "value": 6}, "bonus": 0, "total": 6},
    {"groups": [], "pair": {"cards": ["5s", "5s"], "value": "6"}, "bonus": 0, "total": 6},
    {"groups": [], "pair": {"cards": ["5s", "5s"], "value": 6}, "bonus": True, "total": 6},
    {"groups": [], "pair": {"cards": ["5s", "5s"], "value": 6}, "bonus": 0, "total": 6, "x": 1},
])
def test_from_dict_rejects_garbage(bad):
    """Malformed split payloads raise InvalidEvent(field="split")."""
    with pytest.raises(InvalidEvent) as e:
        Split.from_dict(bad)
    assert e.value.field == "split"


_json = st.recursive(st.none() | st.booleans() | st.integers(-5, 60) | st.text(max_size=4)
                     | st.sampled_from(["5s", "Th", "RJ", "seq", "triplet", "pair"]),
                     lambda inner: st.lists(inner, max_size=4)
                     | st.dictionaries(st.sampled_from(["groups", "pair", "bonus", "total",
                                                        "kind", "cards", "exposed", "value",
                                                        "meld", "wild", "holds_winning"]),
                                       inner, max_size=6), max_leaves=12)


@settings(max_examples=150, deadline=None)
@given(_json)
def test_from_dict_fuzz(d):
    """Any JSON-like input either parses into a Split or raises InvalidEvent (field split)."""
    try:
        s = Split.from_dict(d)
    except InvalidEvent as e:
        assert e.field == "split"
    else:
        assert isinstance(s, Split) and isinstance(s.pair, Pair)
        assert Split.from_dict(s.to_dict()) == s


def test_check_split_names_shape_and_wild_rules():
    """check_split on hand-made splits: a broken sequence (LH-37), special (LH-38), triplet
    (LH-39), pair (LH-41), an RJ not recorded or recorded twice (LH-46)."""
    concealed = P("4s 5s 6s 7h 8h 9h 6c 6c 6c Jd Qd Kd 5h 5h")
    s = best_split(concealed, [], D)
    assert check_split(s, concealed, [], D, win="zimo", winning_card=None) is None
    seq = next(i for i, g in enumerate(s.groups) if g.cards == P("4s 5s 6s"))
    swapped = list(s.groups)
    swapped[seq] = swapped[seq]._replace(cards=P("4s 5h 6s"))      # same cards in the hand
    bad = s._replace(groups=tuple(swapped), pair=s.pair._replace(cards=P("5s 5h")))
    assert check_split(bad, concealed, [], D, win="zimo", winning_card=None) == "LH-37"
    relabel = list(s.groups)
    relabel[seq] = relabel[seq]._replace(kind="special")
    assert check_split(s._replace(groups=tuple(relabel)), concealed, [], D, win="zimo",
                       winning_card=None) == "LH-38"
    trip = next(i for i, g in enumerate(s.groups) if g.kind == "triplet")
    relabel = list(s.groups)
    relabel[trip] = relabel[trip]._replace(kind="seq")
    assert check_split(s._replace(groups=tuple(relabel)), concealed, [], D, win="zimo",
                       winning_card=None) == "LH-37"
    odd = P("Ts Js 9s 9s 9s Qd Qd Qd 4h 5h 6h 7c 7c 7c")
    groups = (Group("triplet", P("9s 9s 9s"), False, 3, False),
              Group("triplet", P("Qd Qd Qd"), False, 3, False),
              Group("seq", P("4h 5h 6h"), False, 0, False),
              Group("triplet", P("7c 7c 7c"), False, 3, False))
    fake = Split(groups, Pair(P("Ts Js"), 6), 3, 18)
    assert check_split(fake, odd, [], D, win="zimo", winning_card=None) == "LH-41"
    wild_hand = P("RJ 9h 9h 4s 5s 6s 7c 8c 9c Jd Qd Kd 5d 5d")
    w = best_split(wild_hand, [], D)
    assert check_split(w, wild_hand, [], D, win="zimo", winning_card=None) is None
    unrecorded = w._replace(groups=tuple(g._replace(wild=()) for g in w.groups))
    assert check_split(unrecorded, wild_hand, [], D, win="zimo", winning_card=None) == "LH-46"
    twice = w._replace(pair=w.pair._replace(wild=(F("5d"),)))
    assert check_split(twice, wild_hand, [], D, win="zimo", winning_card=None) == "LH-46"
    assert check_split(s._replace(pair=s.pair._replace(wild=(F("5h"),))), concealed, [], D,
                       win="zimo", winning_card=None) == "LH-46"
    # A wild face must be one of its group's faces.
    elsewhere = w._replace(groups=tuple(g._replace(wild=(F("As"),)) if g.wild else g
                                        for g in w.groups))
    assert check_split(elsewhere, wild_hand, [], D, win="zimo", winning_card=None) == "LH-46"


@pytest.mark.parametrize("i", range(0, 120, 40))
def test_could_win_with_equals_is_win(i):
    """LH-27, LH-28, LH-29, LH-32: could_win_with (one search for every card) answers exactly
    what is_win answers on the hand with the card, for every face, win type and threshold."""
    positives = 0
    for j, (concealed, melds, rules, _, _) in enumerate(CASES[i:i + 40]):
        rules = HandRules(groups=rules.groups, pair_match=rules.pair_match,
                          special_sequence=rules.special_sequence,
                          concealed_triplet_hu=rules.concealed_triplet_hu,
                          min_hu=(0, 6, 12, 15, 21)[j % 5], zimo_bonus_counts=j % 2 == 0)
        without = concealed[1:]
        for win in ("zimo", "fangchong", "qianggang"):
            faces = list(range(52)) + ([] if RED_JOKER in without else [RED_JOKER])
            for c in faces:
                want = (c != RED_JOKER or win == "zimo") and is_win(
                    [*without, c], melds, rules, win=win, winning_card=c)
                got = could_win_with(without, melds, rules, c, win=win)
                assert got == want, (without, melds, rules, c, win)
                positives += got
    assert positives > 0


@pytest.mark.parametrize("i", range(0, 120, 40))
def test_win_faces_equals_could_win_with(i):
    """LH-27, LH-29: win_faces (one search per hand, the claim window's question) is exactly
    the set of suited faces could_win_with accepts; None when the hand holds the RJ."""
    clear_caches()
    positives = 0
    for j, (concealed, melds, rules, _, _) in enumerate(CASES[i:i + 40]):
        rules = HandRules(groups=rules.groups, pair_match=rules.pair_match,
                          special_sequence=rules.special_sequence,
                          concealed_triplet_hu=rules.concealed_triplet_hu,
                          min_hu=(0, 6, 12, 15, 21)[j % 5], zimo_bonus_counts=j % 3 == 0)
        for cut in range(0, len(concealed), 3):
            without = concealed[:cut] + concealed[cut + 1:]
            for win in ("zimo", "fangchong", "qianggang"):
                got = win_faces(without, melds, rules, win=win)
                if RED_JOKER in without:
                    assert got is None
                    continue
                want = {c for c in range(52) if could_win_with(without, melds, rules, c, win=win)}
                assert got == want, (without, melds, rules, win)
                positives += len(got)
    assert positives > 0


def test_waits_isolation_filter_is_exact():
    """The isolated-face filter in front of the waits search (split.Tables.waits) changes no
    answer: the same faces and values as the unfiltered search, on near-winning and random
    hands of every size, under every pair_match / special_sequence and both triplet values."""
    from engine.games.liuhu.split import (
        PAIR_FLAG,
        PAIR_MATCHES,
        SPECIAL_SEQUENCES,
        WILD_FLAG,
        mask_of,
        tables,
    )
    rng = random.Random(4403)
    pack = [c for c in range(52) for _ in range(4)]
    hands = [[c for c in concealed if c != RED_JOKER][1:] for concealed, *_ in CASES]
    hands += [rng.sample(pack, n) for n in (13, 13, 10, 7, 4, 1) for _ in range(60)]
    filtered = 0
    for pm in PAIR_MATCHES:
        for ss in SPECIAL_SEQUENCES:
            t = tables(pm, ss)
            for cth in (3, 6):
                for h in hands:
                    x = mask_of(h)
                    t.clear()
                    got = t.waits(x, cth)
                    t.clear()
                    want = t._waits(x + WILD_FLAG + PAIR_FLAG, {}, {}, t.values[cth])
                    assert got == want, (pm, ss, cth, sorted(h))
                    filtered += len(t.isolated(x)) >= 2
    clear_caches()
    assert filtered > 0
