"""Section 8 comparison: same type, size and a higher key (DDZ-41), bombs (DDZ-42), the bomb
ladders (DDZ-54, DDZ-69), airplanes and ``airplane_order`` (DDZ-66), 七星聚 and
``qixingju_lock`` (DDZ-70)."""

from __future__ import annotations

import itertools

import pytest

from engine.cards import BLACK_JOKER, RED_JOKER
from engine.games.ddz6.combos import beats, classify, lock_rule, locked_joker, play_beats_rule
from engine.games.ddz6.moves import has_answer, legal_plays

from .reference import faces

RANKS = "3456789TJQKA2"


def c(text: str, variant: str = "3v3", **options):
    """The combination of rank characters (asserting it is one)."""
    got = classify(faces(text), variant, options)
    assert got is not None, text
    return got


def _chain(variant: str, texts: list[str], rule: str, **options) -> None:
    """Each combination beats every earlier one; none beats a later or itself."""
    combos = [c(t, variant, **options) for t in texts]
    for i, j in itertools.combinations(range(len(combos)), 2):
        assert beats(combos[j], combos[i], variant, options) is None, (texts[j], texts[i])
        assert beats(combos[i], combos[j], variant, options) == rule, (texts[i], texts[j])
    for x in combos:
        assert beats(x, x, variant, options) == rule


# ---------------------------------------------------------------- DDZ-41

@pytest.mark.parametrize("variant", ["3v3", "2v4"])
def test_ddz_41_same_type_same_size_higher_key(variant):
    """DDZ-41: a higher key of the same type and size beats; another type, size or an equal
    key does not."""
    assert beats(c("44", variant), c("33", variant), variant) is None
    assert beats(c("33", variant), c("4", variant), variant) == "DDZ-41"      # type
    assert beats(c("456789", variant), c("34567", variant), variant) == "DDZ-41"  # size
    assert beats(c("34567", variant), c("34567", variant), variant) == "DDZ-41"   # equal key
    assert beats(c("45678", variant), c("34567", variant), variant) is None
    assert beats(c("444555", variant), c("333444", variant), variant) is None
    assert beats(c("444555", variant), c("334455", variant), variant) == "DDZ-41"


@pytest.mark.parametrize("variant", ["3v3", "2v4"])
def test_ddz_41_trio_pair_compares_by_its_trio(variant):
    """DDZ-41: a trio+pair compares by the trio (the larger group), never by the pair."""
    assert beats(c("KKK33", variant), c("QQQAA", variant), variant) is None
    assert beats(c("33322", variant), c("44455", variant), variant) == "DDZ-41"


def test_ddz_41_sequences_compare_by_top():
    """DDZ-41 with DDZ-55 / DDZ-60 / DDZ-61: A2345 < 23456 < 34567 < … < TJQKA and
    AA2233 < 223344 < 334455 (4-deck); 34567 < … < TJQKA (3v3)."""
    straights = ["A2345", "23456"] + ["".join(RANKS[i:i + 5]) for i in range(0, 8)] \
        + ["TJQKA"]
    straights = list(dict.fromkeys(straights))
    _chain("2v4", straights, "DDZ-41")
    _chain("zhengfan", ["AA2233", "223344", "334455", "QQKKAA"], "DDZ-41")
    _chain("3v3", ["".join(RANKS[i:i + 5]) for i in range(0, 8)], "DDZ-41")


# ---------------------------------------------------------------- DDZ-42

@pytest.mark.parametrize("variant", ["3v3", "2v4"])
def test_ddz_42_any_bomb_beats_any_non_bomb(variant):
    """DDZ-42: the lowest bomb beats the highest non-bombs; no non-bomb beats a bomb."""
    low = c("3333", variant)
    for text in ("R", "22", "222", "22233", "TJQKA", "QQKKAA", "KKKAAA", "QQQKKKAAA+334455"):
        top = c(text, variant)
        assert beats(low, top, variant) is None
        assert beats(top, low, variant) == "DDZ-42"


def test_ddz_42_equal_places_do_not_beat():
    """DDZ-42: bombs at one ladder place (3v3 三王炸 = 四王炸; 4-deck ①b, ②b, ③) cannot
    beat each other, whatever their jokers."""
    for variant, group in (("3v3", ["BBB", "RRR", "BBRR", "BBBR", "BRRR"]),
                           ("3v3", ["BBBRR", "BBRRR"]),
                           ("2v4", ["BBBR", "BBRR", "BRRR"]),
                           ("2v4", ["BBBB", "BBBBR"]),
                           ("2v4", ["BBBBRR", "BBBRRR", "BBRRRR"]),
                           ("zhengfan", ["RRRR", "BRRRR"]),
                           ("zhengfan", ["BBBBRRR", "BBBRRRR"])):
        for a, b in itertools.product(group, repeat=2):
            assert beats(c(a, variant), c(b, variant), variant) == "DDZ-42", (a, b)


def _bombs(n: int) -> list[str]:
    return [ch * n for ch in RANKS]


def test_ddz_54_3v3_ladder():
    """DDZ-54: 4-card bombs < 三王/四王 < 5-card < 6-card < 五王 < 7- … 12-card < 六王; the
    seed's anchors 2222 < 三王 = 四王 < 33333 and 222222 < 五王 < 3333333."""
    groups = [[b] for b in _bombs(4)] + [["BBB", "RRR", "BBRR", "BBBR", "BRRR"]] \
        + [[b] for n in (5, 6) for b in _bombs(n)] + [["BBBRR", "BBRRR"]] \
        + [[b] for n in range(7, 13) for b in _bombs(n)] + [["BBBRRR"]]
    _ladder("3v3", groups, "DDZ-54")


def test_ddz_69_4deck_ladder():
    """DDZ-69: 4-card < ①a < ①b < ①c < 5- … 8-card < ②a < ②b < ②c < 9- … 16-card < ③ 七星聚
    < ④; the seed's anchors 2222 < BJ×3 < BJ×2+RJ×2 < RJ×3 < 33333 and
    22222222 < BJ×4 < BJ×3+RJ×3 < RJ×4 < 333333333."""
    groups = [[b] for b in _bombs(4)] + [["BBB"], ["BBBR", "BBRR", "BRRR"], ["RRR"]] \
        + [[b] for n in range(5, 9) for b in _bombs(n)] \
        + [["BBBB", "BBBBR"], ["BBBBRR", "BBBRRR", "BBRRRR"], ["RRRR", "BRRRR"]] \
        + [[b] for n in range(9, 17) for b in _bombs(n)] + [["BBBBRRR", "BBBRRRR"]] \
        + [["BBBBRRRR"]]
    for variant in ("2v4", "zhengfan"):
        _ladder(variant, groups, "DDZ-69")


def _ladder(variant: str, groups: list[list[str]], rule: str) -> None:
    combos = [[c(t, variant) for t in g] for g in groups]
    assert all(x.is_bomb for g in combos for x in g)
    for i, j in itertools.combinations(range(len(combos)), 2):
        for lo, hi in itertools.product(combos[i], combos[j]):
            assert beats(hi, lo, variant) is None
            assert beats(lo, hi, variant) == rule


# ---------------------------------------------------------------- DDZ-66 and 3v3 airplanes

def test_ddz_66_seed_order():
    """DDZ-66 ``seed``: AAA222+8899 < 333444+8899 < … < KKKAAA+2233 < 222333+8899, and
    likewise for m = 3 (AAA222333 < 333444555 < … < QQQKKKAAA < 222333444)."""
    m2 = ["AAA222+8899"] + [RANKS[i] * 3 + RANKS[i + 1] * 3 + ("+QQKK" if i < 7 else "+3344")
                            for i in range(0, 11)] + ["222333+8899"]
    _chain("2v4", m2, "DDZ-66")
    m3 = ["AAA222333+TTJJQQ", "333444555+TTJJQQ", "TTTJJJQQQ+334455", "QQQKKKAAA+334455",
          "222333444+TTJJQQ"]
    _chain("zhengfan", m3, "DDZ-66", airplane_order="seed")


def test_ddz_66_chain_order():
    """DDZ-66 ``chain``: the key is the start position, AAA222 < 222333 < 333444 < … <
    KKKAAA."""
    m2 = ["AAA222+8899", "222333+8899", "333444+8899", "QQQKKK+8899", "KKKAAA+2233"]
    _chain("2v4", m2, "DDZ-66", airplane_order="chain")
    m3 = ["AAA222333+TTJJQQ", "222333444+TTJJQQ", "333444555+TTJJQQ", "QQQKKKAAA+334455"]
    _chain("2v4", m3, "DDZ-66", airplane_order="chain")


def test_ddz_66_wings_never_matter_and_m_must_match():
    """DDZ-66: equal bodies with other wings do not beat; another m never compares."""
    assert beats(c("333444+TTJJ", "2v4"), c("333444+5566", "2v4"), "2v4") == "DDZ-66"
    assert beats(c("444555+6677", "2v4"), c("333444+TTJJ", "2v4"), "2v4") is None
    assert beats(c("444555666+778899", "2v4"), c("333444+TTJJ", "2v4"), "2v4") == "DDZ-66"


def test_ddz_50_3v3_airplanes_compare_by_body_top():
    """DDZ-50 with DDZ-41: 3v3 airplanes compare by the top of the body, wings ignored;
    another m is another size."""
    assert beats(c("444555+3333"), c("333444+AA22"), "3v3") is None
    assert beats(c("333444+AA22"), c("333444+5566"), "3v3") == "DDZ-41"
    assert beats(c("444555666+778899"), c("333444+5566"), "3v3") == "DDZ-41"


def test_layered_check_of_one_play():
    """A play is checked for its shape first, then against the top play."""
    top = c("34567", "2v4")
    assert play_beats_rule(faces("45678"), top, "2v4") is None
    assert play_beats_rule(faces("4567"), top, "2v4") == "DDZ-60"
    assert play_beats_rule(faces("3456"), None, "3v3") == "DDZ-47"
    assert play_beats_rule(faces("AAAA"), top, "2v4") is None
    assert play_beats_rule(faces("A2345"), top, "2v4") == "DDZ-41"


# ---------------------------------------------------------------- DDZ-70

def test_ddz_70_qixingju_locks_the_eighth_joker():
    """DDZ-70 ``on``: a 七星聚 of BJ×4 + RJ×3 locks the last RJ, of BJ×3 + RJ×4 the last BJ;
    ``off``, 3v3 and other plays lock nothing."""
    assert locked_joker(faces("BBBBRRR"), "2v4") == RED_JOKER
    assert locked_joker(faces("BBBRRRR"), "zhengfan") == BLACK_JOKER
    assert locked_joker(faces("BBBBRRR"), "2v4", {"qixingju_lock": "off"}) is None
    assert locked_joker(faces("BBBBRRRR"), "2v4") is None
    assert locked_joker(faces("BBBRRR"), "3v3") is None
    assert lock_rule(faces("RR"), RED_JOKER) == "DDZ-70"
    assert lock_rule(faces("BB"), RED_JOKER) is None
    assert lock_rule(faces("RR"), None) is None


def test_ddz_70_the_locked_joker_is_never_listed():
    """DDZ-70: the generator never plays the locked joker, alone or in a combination; a
    hand holding only it has no play, not even a lead."""
    hand = faces("R33344")
    plays = legal_plays(hand, None, "2v4", locked=RED_JOKER)
    assert plays and all(RED_JOKER not in p.cards for p in plays)
    assert len(plays) == len(legal_plays(faces("33344"), None, "2v4"))
    assert legal_plays(faces("R"), None, "2v4", locked=RED_JOKER) == []
    assert not has_answer(faces("R"), c("2", "2v4"), "2v4", locked=RED_JOKER)
    assert has_answer(faces("R"), c("2", "2v4"), "2v4")
