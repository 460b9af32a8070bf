"""Sections 1-2 of ddz6.md: card values (DDZ-3), the packs (DDZ-4, DDZ-5), the sequence
positions of each variant (8.2, DDZ-55)."""

from __future__ import annotations

from collections import Counter

import pytest

from engine.cards import N_FACES, parse_face, parse_faces
from engine.games.ddz6 import cards
from engine.games.ddz6.cards import (
    RUN_OF_3V3,
    RUN_OF_4DECK,
    VALUE,
    deck,
    four_deck,
    sort_hand,
    value_counts,
    variant_name,
)
from engine.games.ddz6.combos import beats, classify


def test_ddz_3_values_and_single_order():
    """DDZ-3: 3 < 4 < … < K < A < 2 < BJ < RJ, values 3 … 17, whatever the suit."""
    order = "3s 4h 5c 6d 7s 8h 9c Td Js Qh Kc Ad 2s BJ RJ".split()
    assert [VALUE[parse_face(t)] for t in order] == list(range(3, 18))
    for variant in cards.VARIANTS:
        singles = [classify((parse_face(t),), variant) for t in order]
        for lo, hi in zip(singles, singles[1:], strict=False):
            assert beats(hi, lo, variant) is None
            assert beats(lo, hi, variant) == "DDZ-41"


def test_ddz_3_suits_never_matter():
    """DDZ-3: the four suits of a rank have the same value."""
    for rank in "A23456789TJQK":
        assert len({VALUE[parse_face(rank + s)] for s in "shcd"}) == 1


def test_ddz_4_three_decks():
    """DDZ-4: 3v3 uses three decks, 162 cards, three copies of each of the 54 faces, twelve
    cards of each rank 3 … 2, three BJ and three RJ; 27 cards to each of six seats."""
    d = deck("3v3")
    assert len(d) == 162 == 6 * cards.HAND_SIZE["3v3"]
    assert set(Counter(d).values()) == {3} and len(set(d)) == N_FACES
    per_value = Counter(VALUE[f] for f in d)
    assert all(per_value[v] == 12 for v in range(3, 16))
    assert per_value[16] == per_value[17] == 3
    assert cards.KITTY["3v3"] == 0


@pytest.mark.parametrize("variant", ["2v4", "zhengfan", "ddz6_2v4", "ddz6_zhengfan"])
def test_ddz_5_four_decks(variant):
    """DDZ-5: the 4-deck variants use 216 cards, four of each face, 16 of each rank, 4 BJ and
    4 RJ; 34 to each seat and a kitty of 12."""
    d = deck(variant)
    assert len(d) == 216 == 6 * cards.HAND_SIZE[variant_name(variant)] + 12
    assert set(Counter(d).values()) == {4}
    per_value = Counter(VALUE[f] for f in d)
    assert all(per_value[v] == 16 for v in range(3, 16))
    assert per_value[16] == per_value[17] == 4
    assert four_deck(variant) and not four_deck("ddz6_3v3")


def test_unknown_variant_is_refused():
    """Only the three variants exist."""
    with pytest.raises(ValueError, match="3v3, 2v4, zhengfan"):
        deck("4v2")


def test_hands_sort_by_value_then_suit():
    """Hands are kept by value, then face code (suit order s h c d)."""
    hand = parse_faces("RJ 2s 3d 3s As BJ Kh")
    assert sort_hand(hand) == parse_faces("3s 3d Kh As 2s BJ RJ")
    assert value_counts(hand)[3] == 2 and value_counts(hand)[17] == 1


def test_section_8_2_runs_use_3_to_a_only():
    """8.2: 3v3 sequences run over 3 … A (no 2, no joker), A only high."""
    tops = {r.top for r in RUN_OF_3V3.values()}
    assert min(tops) == 4 and max(tops) == 14
    assert all(15 not in r.values for r in RUN_OF_3V3.values())
    assert max(len(r.values) for r in RUN_OF_3V3.values()) == 12


def test_ddz_55_positions_a_low_or_high_and_a_caps():
    """DDZ-55: A low = 1, 2 = 2, 3 … K, A high = 14; no run holds A twice or passes A; the
    13-rank run reads 2 … A (top 14)."""
    by_values = {tuple(r.values): r for r in RUN_OF_4DECK.values()}
    assert by_values[(14, 15, 3, 4, 5)].top == 5          # A2345
    assert by_values[(10, 11, 12, 13, 14)].top == 14      # TJQKA
    assert (11, 12, 13, 14, 15) not in by_values          # JQKA2
    assert all(len(set(r.values)) == len(r.values) for r in RUN_OF_4DECK.values())
    full = [r for r in RUN_OF_4DECK.values() if len(r.values) == 13]
    assert len(full) == 1 and full[0].top == 14 and full[0].start == 2
