"""Setup of a hand (section 5) and GAME_START (LH-1, LH-4 … LH-13, LH-65, LH-68, LH-71):
the break and the deal against a literal reading of the rules, the wall pointers, refusals."""

from __future__ import annotations

import json
import random

import pytest

from engine.cards import RED_JOKER
from engine.errors import IllegalMove, InvalidEvent
from engine.games import liuhu as lh
from engine.games.liuhu.setup import break_index
from tests.games.liuhu.conftest import PLAYERS, act, auto, rejected, start, started


def _restart(e0, **changes):
    """GAME_START with payload fields changed."""
    p = json.loads(e0.payload)
    p.update(changes)
    return e0._replace(payload=json.dumps(p))


@pytest.mark.parametrize(("decks", "hunzi", "size"), [(4, 0, 208), (3, 0, 156), (2, 1, 105)])
def test_pack_size_lh4_lh5(decks, hunzi, size):
    e0 = start(3, decks=decks, hunzi=hunzi)
    assert len(e0.cards) == size                                      # LH-4, LH-5
    assert e0.cards.count(RED_JOKER) == hunzi and 52 not in e0.cards  # BJ never (LH-6)
    assert all(e0.cards.count(c) == decks for c in range(52))


def test_ring_that_is_not_the_pack_is_refused_lh4_lh5():
    e0 = start(3)
    with pytest.raises(IllegalMove) as info:
        lh.initial_state(e0._replace(cards=e0.cards[:-1] + (e0.cards[0],)))
    assert info.value.rule_id == "LH-4"
    with pytest.raises(IllegalMove) as info:
        lh.initial_state(e0._replace(cards=e0.cards[:-1] + (RED_JOKER,)))
    assert info.value.rule_id == "LH-5"


def test_six_players_lh1_and_dealer_seat_lh7():
    with pytest.raises(InvalidEvent):
        lh.start_event("g", PLAYERS[:5], random.Random(1))
    e0 = start(2)
    with pytest.raises(IllegalMove) as info:
        lh.initial_state(_restart(e0, players=PLAYERS[:5]))
    assert info.value.rule_id == "LH-1"
    with pytest.raises(IllegalMove) as info:
        lh.initial_state(_restart(e0, dealer=6, first_dealer=6)._replace(target=6))
    assert info.value.rule_id == "LH-7"
    assert lh.seat_count(lh.Options()) == 6


def test_options_recorded_in_full_and_validated_lh8():
    e0 = start(2, groups=5)
    assert json.loads(e0.payload)["options"] == lh.Options(groups=5).to_dict()
    opts = json.loads(e0.payload)["options"]
    for bad in ({**opts, "jokers": 1}, {k: v for k, v in opts.items() if k != "hands"},
                {**opts, "hands": 100}, {**opts, "concealed_triplet_hu": 4},
                {**opts, "min_hu": None}):
        with pytest.raises(IllegalMove) as info:
            lh.initial_state(_restart(e0, options=bad))
        assert info.value.rule_id == "LH-8"
    with pytest.raises(IllegalMove, match="LH-8"):
        lh.Options(decks=1)


@pytest.mark.parametrize("seed", [1, 2, 3, 4, 5, 6])
@pytest.mark.parametrize("groups", [4, 5])
def test_break_and_deal_follow_the_literal_rule_lh10_lh12(seed, groups):
    e0 = start(seed, groups=groups)
    p = json.loads(e0.payload)
    ring, n = e0.cards, len(e0.cards)
    d = sum(p["dice"])
    # LH-10, literally: S stacks per seat, count d seats from the dealer, skip d stacks.
    stacks = n // 12
    k = (d - 1) % 6
    b = (2 * (stacks * k + d)) % n
    assert p["break"] == b and 2 <= d <= 12
    w = [ring[(b + i) % n] for i in range(n)]
    s = auto(lh.initial_state(e0))
    assert list(s.wall) == w
    # LH-12, literally: rounds of 4 from the dealer, one round of 1 when H mod 4 = 1, the
    # dealer's extra card W[6H].
    h = 3 * groups + 1
    dealer = p["dealer"]
    want = {seat: [] for seat in range(6)}
    for j in range(h // 4):
        for i in range(6):
            want[(dealer + i) % 6] += w[24 * j + 4 * i: 24 * j + 4 * i + 4]
    if h % 4 == 1:
        for i in range(6):
            want[(dealer + i) % 6].append(w[24 * (h // 4) + i])
    want[dealer].append(w[6 * h])
    for seat in range(6):
        assert s.hands[seat] == tuple(sorted(want[seat]))
    # LH-11: front pointer after the deal, tail at the end; LH-13: the dealer acts first.
    assert (s.front, s.tail) == (6 * h + 1, n - 1) == ((79 if groups == 4 else 97), n - 1)
    assert s.turn == dealer and lh.to_move(s) == dealer and s.phase == "turn"
    assert len(s.hands[dealer]) == 3 * groups + 2


def test_wrong_break_or_dice_lh10():
    e0 = start(4)
    p = json.loads(e0.payload)
    with pytest.raises(IllegalMove) as info:
        lh.initial_state(_restart(e0, **{"break": (p["break"] + 2) % 208}))
    assert info.value.rule_id == "LH-10"
    with pytest.raises(IllegalMove) as info:
        lh.initial_state(_restart(e0, dice=[0, 7]))
    assert info.value.rule_id == "LH-10"
    assert break_index(208, 2) == (2 * (17 * 1 + 2)) % 208


def test_a_wrong_deal_is_refused_lh12():
    s = lh.initial_state(start(5))
    deal = lh.auto_event(s)
    swapped = deal._replace(cards=deal.cards[1:] + deal.cards[:1])
    rejected(s, swapped, "LH-12")
    rejected(s, act(s, "DISCARD", s.dealer, "As"), "LH-12")      # the deal comes first


def test_front_draws_lh11_lh14():
    s = started(6)
    front, tail = s.front, s.tail
    want = s.wall[front]
    s = lh.apply(s, act(s, "DISCARD", s.dealer, (s.hands[s.dealer][0],)))
    while lh.next_auto(s) != "DRAW":                 # let any claim window go
        s = lh.apply(s, lh.auto_event(s) or act(s, "RESPOND", lh.to_move(s), tag="pass"))
    assert s.phase == "draw" and (s.front, s.tail) == (front, tail)
    draw = lh.auto_event(s)
    assert draw.cards == (want,) and draw.tag == "front" and draw.seat == (s.dealer + 1) % 6
    rejected(s, draw._replace(cards=(s.wall[s.tail],)), "LH-11")
    rejected(s, draw._replace(tag="tail"), "LH-14")
    s = lh.apply(s, draw)
    assert (s.front, s.tail) == (front + 1, tail) and s.wall_size() == tail - front


def test_dealer_does_not_draw_first_lh13():
    s = started(7)
    rejected(s, act(s, "DRAW", s.dealer, (s.wall[s.front],), tag="front"), "LH-13")


def test_first_dealer_and_hand_number_lh65_lh68():
    e0 = start(8)
    p = json.loads(e0.payload)
    assert p["hand"] == 1 and p["dealer"] == p["first_dealer"] == e0.target
    other = (p["dealer"] + 1) % 6
    with pytest.raises(IllegalMove) as info:
        lh.initial_state(_restart(e0, dealer=other)._replace(target=other))
    assert info.value.rule_id == "LH-65"
    with pytest.raises(IllegalMove) as info:
        lh.initial_state(_restart(e0, hand=7)._replace(value=7, tag="next"))
    assert info.value.rule_id == "LH-68"
    dealers = {json.loads(start(seed).payload)["first_dealer"] for seed in range(30)}
    assert len(dealers) > 1                                           # chosen at random


def test_only_ring_dice_and_first_dealer_are_random_lh71():
    a, b = start(9), start(9)
    assert a == b
    s = lh.initial_state(a)
    assert lh.auto_event(s, random.Random(1)) == lh.auto_event(s, random.Random(2))
