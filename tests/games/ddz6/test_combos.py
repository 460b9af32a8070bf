"""Section 8 of ddz6.md: every combination type of 3v3 (DDZ-43 … DDZ-53) and of the 4-deck
variants (DDZ-55 … DDZ-68), DDZ-40's readings, the options ``wings_3v3`` and
``airplane_order``, and the pack limits of DDZ-4 / DDZ-5.

Each case names the rule it exercises or breaks and the verdict: the combination (type, key,
m or ladder place) or the rule id ``play_rule`` must return. Cards are rank characters
(``555666+4499KK``, ``B`` = BJ, ``R`` = RJ), see ``reference.faces``.
"""

from __future__ import annotations

import pytest

from engine.cards import BLACK_JOKER, parse_faces
from engine.games.ddz6.combos import KINDS, Combo, classify, combo_rules, play_rule

from .reference import faces

# (rule, variant, cards, options, verdict): verdict "kind key [m]" or "joker_bomb place", or
# the rule id of a set that is no combination.
CASES_3V3 = [
    ("DDZ-43", "3", {}, "single 3"),
    ("DDZ-43", "B", {}, "single 16"),
    ("DDZ-43", "R", {}, "single 17"),
    ("DDZ-44", "33", {}, "pair 3"),
    ("DDZ-44", "22", {}, "pair 15"),
    ("DDZ-44", "BB", {}, "DDZ-53"),
    ("DDZ-44", "RR", {}, "DDZ-53"),
    ("DDZ-44", "35", {}, "DDZ-53"),
    ("DDZ-45", "333", {}, "trio 3"),
    ("DDZ-45", "222", {}, "trio 15"),
    ("DDZ-45", "BBB", {}, "joker_bomb J3-4"),
    ("DDZ-46", "44466", {}, "trio_pair 4"),                 # the seed's example
    ("DDZ-46", "22233", {}, "trio_pair 15"),
    ("DDZ-46", "33322", {}, "trio_pair 3"),
    ("DDZ-46", "55555", {}, "bomb 5"),                      # q = r: five of a kind
    ("DDZ-46", "333BB", {}, "DDZ-53"),
    ("DDZ-47", "34567", {}, "straight 7 5"),
    ("DDZ-47", "TJQKA", {}, "straight 14 5"),
    ("DDZ-47", "3456789TJQKA", {}, "straight 14 12"),
    ("DDZ-47", "JQKA2", {}, "DDZ-47"),                      # no 2 in a sequence
    ("DDZ-47", "A2345", {}, "DDZ-47"),                      # A only high
    ("DDZ-47", "34568", {}, "DDZ-47"),
    ("DDZ-47", "3456", {}, "DDZ-47"),                       # m ≥ 5
    ("DDZ-47", "3456R", {}, "DDZ-53"),
    ("DDZ-48", "334455", {}, "pair_seq 5 3"),               # the seed's example
    ("DDZ-48", "QQKKAA", {}, "pair_seq 14 3"),
    ("DDZ-48", "33445566778899TTJJQQKKAA", {}, "pair_seq 14 12"),
    ("DDZ-48", "KKAA22", {}, "DDZ-48"),
    ("DDZ-48", "334466", {}, "DDZ-48"),
    ("DDZ-49", "333444", {}, "trio_seq 4 2"),               # the seed's example
    ("DDZ-49", "KKKAAA", {}, "trio_seq 14 2"),
    ("DDZ-49", "AAA222", {}, "DDZ-49"),
    ("DDZ-49", "333555", {}, "DDZ-49"),
    ("DDZ-50", "555666777+4499KK", {}, "airplane 7 3"),     # the seed's example
    ("DDZ-50", "555666+2233", {}, "airplane 6 2"),          # 2s may be wings
    ("DDZ-50", "KKKAAA+3322", {}, "airplane 14 2"),
    ("DDZ-50", "555666+5577", {}, "airplane 6 2"),          # any: a wing on a body rank
    ("DDZ-50", "555666+7777", {}, "airplane 6 2"),          # any: 7777 is two pairs
    ("DDZ-50", "555666+5577", {"wings_3v3": "no_bomb"}, "DDZ-50"),
    ("DDZ-50", "555666+7777", {"wings_3v3": "no_bomb"}, "DDZ-50"),
    ("DDZ-50", "555666+4499", {"wings_3v3": "no_bomb"}, "airplane 6 2"),
    ("DDZ-50", "AAA222+3344", {}, "DDZ-50"),                # the body runs 3 … A
    ("DDZ-50", "555777+3344", {}, "DDZ-50"),
    ("DDZ-50", "555666+4447", {}, "DDZ-50"),
    ("DDZ-50", "555666+BB77", {}, "DDZ-53"),                # no joker wings
    ("DDZ-51", "5555", {}, "bomb 5"),                       # the seed's examples
    ("DDZ-51", "777777", {}, "bomb 7"),
    ("DDZ-51", "JJJJJJJJ", {}, "bomb 11"),
    ("DDZ-51", "222222222222", {}, "bomb 15"),
    ("DDZ-52", "RRR", {}, "joker_bomb J3-4"),
    ("DDZ-52", "BBRR", {}, "joker_bomb J3-4"),
    ("DDZ-52", "BBBR", {}, "joker_bomb J3-4"),
    ("DDZ-52", "BRRR", {}, "joker_bomb J3-4"),
    ("DDZ-52", "BBBRR", {}, "joker_bomb J5"),
    ("DDZ-52", "BBRRR", {}, "joker_bomb J5"),
    ("DDZ-52", "BBBRRR", {}, "joker_bomb J6"),
    ("DDZ-53", "BR", {}, "DDZ-53"),
    ("DDZ-53", "BBR", {}, "DDZ-53"),
    ("DDZ-53", "3R", {}, "DDZ-53"),
    ("DDZ-53", "BBB33", {}, "DDZ-53"),                      # no joker trio+pair
    ("DDZ-53", "3335", {}, "DDZ-53"),                       # trio + single
    ("DDZ-53", "333345", {}, "DDZ-53"),                     # four + two
    ("DDZ-53", "33334455", {}, "DDZ-53"),
    ("DDZ-53", "3344", {}, "DDZ-53"),                       # two consecutive pairs
]

CASES_4DECK = [
    ("DDZ-55", "A2345", {}, "straight 5 5"),
    ("DDZ-55", "JQKA2", {}, "DDZ-55"),                      # A封頂
    ("DDZ-55", "KKAA22", {}, "DDZ-55"),
    ("DDZ-55", "QQQKKKAAA222", {}, "DDZ-55"),
    ("DDZ-55", "A23456789TJQKA", {}, "DDZ-55"),             # two aces
    ("DDZ-55", "23456789TJQKA", {}, "straight 14 13"),      # the seed: legal
    ("DDZ-55", "A23456789TJQK", {}, "straight 14 13"),      # the same set: top 14
    ("DDZ-56", "3", {}, "single 3"),
    ("DDZ-56", "R", {}, "single 17"),
    ("DDZ-57", "BB", {}, "pair 16"),
    ("DDZ-57", "RR", {}, "pair 17"),
    ("DDZ-57", "22", {}, "pair 15"),
    ("DDZ-57", "BR", {}, "DDZ-57"),
    ("DDZ-58", "222", {}, "trio 15"),
    ("DDZ-58", "BBB", {}, "joker_bomb 1a"),
    ("DDZ-59", "55577", {}, "trio_pair 5"),                 # the seed's example
    ("DDZ-59", "555RR", {}, "trio_pair 5"),
    ("DDZ-59", "BBB55", {}, "trio_pair 16"),
    ("DDZ-59", "RRR22", {}, "trio_pair 17"),
    ("DDZ-59", "BBBRR", {}, "trio_pair 16"),                # 三二分
    ("DDZ-59", "BBRRR", {}, "trio_pair 17"),
    ("DDZ-59", "BBBB5", {}, "DDZ-68"),
    ("DDZ-59", "5555B", {}, "DDZ-68"),
    ("DDZ-60", "23456", {}, "straight 6 5"),
    ("DDZ-60", "TJQKA", {}, "straight 14 5"),
    ("DDZ-60", "34579", {}, "DDZ-60"),
    ("DDZ-60", "3456", {}, "DDZ-60"),
    ("DDZ-60", "3456B", {}, "DDZ-68"),                      # no joker in a run
    ("DDZ-61", "AA2233", {}, "pair_seq 3 3"),
    ("DDZ-61", "223344", {}, "pair_seq 4 3"),
    ("DDZ-61", "334455", {}, "pair_seq 5 3"),
    ("DDZ-61", "3344", {}, "DDZ-61"),
    ("DDZ-61", "334466", {}, "DDZ-61"),
    ("DDZ-62", "555666", {}, "trio_seq 6 2"),               # the seed's examples
    ("DDZ-62", "555666777888", {}, "trio_seq 8 4"),
    ("DDZ-62", "222333", {}, "trio_seq 3 2"),
    ("DDZ-62", "AAA222333", {}, "trio_seq 3 3"),
    ("DDZ-62", "KKKAAA", {}, "trio_seq 14 2"),
    ("DDZ-62", "AAA222", {}, "DDZ-62"),
    ("DDZ-63", "555666+QQKK", {}, "airplane 5 2"),          # the seed's example
    ("DDZ-63", "AAA222+8899", {}, "airplane 1 2"),          # unlike DDZ-62, AAA222
    ("DDZ-63", "222333+8899", {}, "airplane 15 2"),
    ("DDZ-63", "555777+3344", {}, "DDZ-63"),
    ("DDZ-63", "555666+4447", {}, "DDZ-63"),
    ("DDZ-64", "JJJQQQKKK+AA2233", {}, "airplane 11 3"),    # the seed's example
    ("DDZ-64", "222333+BBRR", {}, "airplane 15 2"),         # the seed's four-joker wing
    ("DDZ-64", "555666777+8899TT", {}, "airplane 5 3"),
    ("DDZ-64", "555666+3399", {}, "DDZ-64"),
    ("DDZ-64", "555666+AA22", {}, "DDZ-64"),
    ("DDZ-64", "555666+22BB", {}, "DDZ-64"),
    ("DDZ-64", "555666+7777", {}, "DDZ-64"),
    ("DDZ-64", "555666777+8899JJ", {}, "DDZ-64"),
    ("DDZ-64", "555666777+88BBRR", {}, "DDZ-64"),
    ("DDZ-65", "888999+7788", {}, "DDZ-65"),                # the seed: a bomb inside
    ("DDZ-65", "KKKAAA+AA22", {}, "DDZ-65"),                # A low = A high as a rank
    ("DDZ-65", "555666+5566", {}, "DDZ-65"),
    ("DDZ-66", "AAA222+8899", {"airplane_order": "chain"}, "airplane 1 2"),
    ("DDZ-66", "222333+8899", {"airplane_order": "chain"}, "airplane 2 2"),
    ("DDZ-66", "222333444+AA5566", {"airplane_order": "chain"}, "DDZ-64"),
    ("DDZ-66", "222333444+556677", {}, "airplane 15 3"),
    ("DDZ-67", "66666", {}, "bomb 6"),                      # the seed's examples
    ("DDZ-67", "999999", {}, "bomb 9"),
    ("DDZ-67", "3333333333333333", {}, "bomb 3"),
    ("DDZ-68", "BRR", {}, "DDZ-68"),
    ("DDZ-68", "BBR", {}, "DDZ-68"),
    ("DDZ-68", "BBRR", {}, "joker_bomb 1b"),
    ("DDZ-68", "RRR", {}, "joker_bomb 1c"),
    ("DDZ-68", "BBBB", {}, "joker_bomb 2a"),
    ("DDZ-68", "BBBBR", {}, "joker_bomb 2a"),
    ("DDZ-68", "BBBRRR", {}, "joker_bomb 2b"),
    ("DDZ-68", "BRRRR", {}, "joker_bomb 2c"),
    ("DDZ-68", "BBBBRRR", {}, "joker_bomb 3"),
    ("DDZ-68", "BBBBRRRR", {}, "joker_bomb 4"),
    ("DDZ-68", "33BB", {}, "DDZ-68"),
    ("DDZ-40", "3579", {}, "DDZ-40"),                       # any other set is illegal
    ("DDZ-40", "", {}, "DDZ-40"),
]


def _verdict(got: Combo | None, rule: str | None) -> str:
    if got is None:
        return str(rule)
    if got.kind == "joker_bomb":
        return f"joker_bomb {got.place}"
    return f"{got.kind} {got.key}" + (f" {got.m}" if got.m else "")


def _check(variant: str, text: str, options: dict, verdict: str) -> None:
    cards = faces(text)
    got = classify(cards, variant, options)
    rule = play_rule(cards, variant, options)
    assert (got is None) == (rule is not None)
    assert _verdict(got, rule) == verdict
    if got is not None:
        assert got.size == len(cards) and got.kind in KINDS
        assert got.is_bomb == (got.kind in ("bomb", "joker_bomb"))


@pytest.mark.parametrize(("rule", "text", "options", "verdict"), CASES_3V3,
                         ids=[f"{c[0]}:{c[1]}" for c in CASES_3V3])
def test_3v3_combinations(rule, text, options, verdict):
    """DDZ-43 … DDZ-53: each 3v3 combination type, and the sets that are none."""
    _check("3v3", text, options, verdict)


@pytest.mark.parametrize(("rule", "text", "options", "verdict"), CASES_4DECK,
                         ids=[f"{c[0]}:{c[1]}" for c in CASES_4DECK])
@pytest.mark.parametrize("variant", ["2v4", "zhengfan"])
def test_4deck_combinations(variant, rule, text, options, verdict):
    """DDZ-55 … DDZ-68: each 4-deck combination type, and the sets that are none."""
    _check(variant, text, options, verdict)


def test_ddz_40_empty_is_no_play():
    """DDZ-40: a play is a non-empty set of cards."""
    for variant in ("3v3", "2v4"):
        assert play_rule((), variant) == "DDZ-40"


def test_ddz_40_a_a_bomb_is_nothing_else():
    """DDZ-40 (a): five of a kind is a bomb, not a trio+pair; BJ×4+RJ is a bomb, not a
    trio+pair (三二分 needs three and two)."""
    for variant in ("3v3", "2v4"):
        assert classify(faces("77777"), variant).kind == "bomb"
    assert classify(faces("BBBBR"), "2v4").kind == "joker_bomb"


def test_ddz_40_b_highest_key_reading():
    """DDZ-40 (b): a set with several readings in one type takes the highest key: all 13 ranks
    read 2 … A (14), never A … K (13), as singles, pairs or trios (DDZ-55)."""
    ranks = "A23456789TJQK"
    for w in (1, 2, 3):
        got = classify(faces("".join(ch * w for ch in ranks)), "2v4")
        assert (got.kind, got.key, got.m) == (("straight", "pair_seq", "trio_seq")[w - 1], 14, 13)


def test_ddz_4_and_ddz_5_no_more_copies_than_the_pack():
    """DDZ-4 / DDZ-5: a set holding a face more often than the pack is no play."""
    assert play_rule(faces("BBBB"), "3v3") == "DDZ-4"
    assert play_rule(parse_faces("5s 5s 5s 5s"), "3v3") == "DDZ-4"
    assert play_rule(parse_faces("5s 5s 5s 5s"), "2v4") is None
    assert play_rule((BLACK_JOKER,) * 5, "2v4") == "DDZ-5"
    assert play_rule(parse_faces("5s 5s 5s 5s 5s"), "zhengfan") == "DDZ-5"


def test_suits_never_change_a_reading():
    """DDZ-3: the same values in other suits read the same."""
    a = parse_faces("5s 5h 5c 6s 6h 6c 4s 4h 9s 9h")
    b = parse_faces("5d 5d 5h 6d 6c 6c 4d 4c 9d 9c")
    for variant in ("3v3", "2v4"):
        assert classify(a, variant) == classify(b, variant)


def test_ddz_93_declared_fields():
    """DDZ-93: type, number of cards, m, key; joker bombs carry their ladder place."""
    got = classify(faces("JJJQQQKKK+AA2233"), "2v4")
    assert got == Combo("airplane", 15, 3, 11, 0, "")
    assert classify(faces("BBBRRR"), "3v3").place == "J6"
    assert classify(faces("BBBRRR"), "2v4").place == "2b"
    assert classify(faces("777777"), "2v4")[:4] == ("bomb", 6, 0, 7)


def test_options_are_checked():
    """Section 3: an option value outside its allowed values is refused, naming them."""
    with pytest.raises(ValueError, match="any, no_bomb"):
        combo_rules("3v3", {"wings_3v3": "some"})
    with pytest.raises(ValueError, match="seed, chain"):
        classify(faces("3"), "2v4", {"airplane_order": "up"})

    class Opts:
        wings_3v3 = "no_bomb"

    assert combo_rules("3v3", Opts()).wings_any is False
    assert combo_rules("ddz6_3v3") is combo_rules("ddz6_3v3", {})
