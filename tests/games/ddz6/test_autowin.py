"""The hand tests of the 4-deck auto-win, DDZ-78 (a) no bomb, (b) all bombs after one play,
(c) a bomb of 13 or more cards, checked on examples and against brute force (every split of
small seeded hands into one combination and bombs, each bomb found by ``classify``)."""

from __future__ import annotations

import random
from collections import Counter
from functools import cache

import pytest

from engine.games.ddz6.autowin import (
    bombs_after_one_play,
    bombs_only,
    holds_big_bomb,
    holds_bomb,
)
from engine.games.ddz6.cards import VALUE, deck, value_counts
from engine.games.ddz6.combos import classify
from engine.games.ddz6.moves import iter_plays, legal_plays

from .reference import faces


@pytest.mark.parametrize(("text", "bomb"), [
    ("3334445556", False), ("33334", True), ("BBR", False), ("BRR", False), ("BBRR", True),
    ("BBB", True), ("RRR", True), ("BBRR33", True), ("BB RR", True), ("BR 22", False),
])
def test_ddz_78_a_holds_a_bomb(text, bomb):
    """DDZ-78 (a): a hand holds no bomb when no rank has 4+ cards and its jokers have b ≤ 2,
    r ≤ 2, b + r ≤ 3."""
    assert holds_bomb(faces(text)) is bomb


@pytest.mark.parametrize(("text", "yes"), [
    ("5555 6666 34567", True),          # a straight and two bombs
    ("5555 6666 77777", True),          # all bombs
    ("5555 33 44", False),              # two plays needed
    ("BBBRR 7777", True),               # 三二分 trio+pair, then a bomb
    ("BBRR 777", True),                 # a bomb and a trio
    ("BBR 7777", False),                # BJ BJ RJ is no play, and not bombs
    ("BBBBRRRR 3333 K", True),
    ("BB 3333 4444 5", False),
    ("AAA222+3344 99999", True),        # an airplane and a bomb
])
def test_ddz_78_b_all_bombs_after_one_play(text, yes):
    """DDZ-78 (b): the hand splits into one combination (any type) and bombs."""
    assert bombs_after_one_play(faces(text), "2v4") is yes


def test_ddz_78_c_a_bomb_of_13_or_more():
    """DDZ-78 (c) with section 14 #26: 13 or more cards of one rank (inclusive)."""
    assert holds_big_bomb(faces("7" * 13 + "3"))
    assert not holds_big_bomb(faces("7" * 12 + "BBBBRRRR"))


@cache
def _splits_into_bombs(vals: tuple[int, ...]) -> bool:
    """Brute force: the values are empty or one bomb plus values that split into bombs."""
    if not vals:
        return True
    cnt = Counter(vals)
    first = vals[0]
    for group in _groups(cnt, first):
        cards = _cards(group)
        got = classify(cards, "2v4")
        if got is not None and got.is_bomb:
            rest = cnt - Counter(group)
            if _splits_into_bombs(tuple(sorted(rest.elements()))):
                return True
    return False


def _groups(cnt: Counter, first: int):
    """Sub-multisets containing the value ``first`` (a bomb of it or of jokers with it)."""
    if first >= 16:
        for b in range(cnt[16] + 1):
            for r in range(cnt[17] + 1):
                if b + r >= 3:
                    yield (16,) * b + (17,) * r
    else:
        for n in range(4, cnt[first] + 1):
            yield (first,) * n


def _cards(vals: tuple[int, ...]) -> tuple[int, ...]:
    value_face = {v: next(f for f in range(54) if VALUE[f] == v) for v in set(vals)}
    used: Counter = Counter()
    out = []
    for v in vals:
        out.append(value_face[v] + (13 * (used[v] % 4) if v < 16 else 0))
        used[v] += 1
    return tuple(out)


def test_bombs_only_equals_brute_force():
    """bombs_only agrees with splitting by classify on every count vector of two ranks (0-9
    cards) and the jokers (0-4 each)."""
    checked = 0
    for a in range(10):
        for b in range(10):
            for bj in range(5):
                for rj in range(5):
                    vals = (3,) * a + (9,) * b + (16,) * bj + (17,) * rj
                    c = value_counts(_cards(vals))
                    assert bombs_only(c) == _splits_into_bombs(vals), vals
                    checked += 1
    assert checked == 2500


def test_bombs_after_one_play_equals_brute_force():
    """On seeded hands rich in long ranks and jokers: (b) holds iff some sub-multiset is a
    combination whose remainder splits into bombs."""
    rng = random.Random(78)
    pack = deck("2v4")
    hits = 0
    for _ in range(150):
        ranks = rng.sample(range(13), 3)
        pool = [f for f in pack if (f < 52 and f % 13 in ranks) or f >= 52]
        hand = tuple(rng.sample(pool, rng.randint(6, 11)))
        cnt = Counter(VALUE[f] for f in hand)
        want = _splits_into_bombs(tuple(sorted(cnt.elements())))
        for vals in _sub_multisets(cnt):
            if want:
                break
            if classify(_cards(vals), "2v4") is not None:
                rest = cnt - Counter(vals)
                want = _splits_into_bombs(tuple(sorted(rest.elements())))
        assert bombs_after_one_play(hand, "2v4") == want, hand
        hits += want
    assert 10 < hits < 140


def _sub_multisets(cnt: Counter):
    keys = sorted(cnt)

    def rec(i: int, acc: tuple[int, ...]):
        if i == len(keys):
            if acc:
                yield acc
            return
        for k in range(cnt[keys[i]] + 1):
            yield from rec(i + 1, acc + (keys[i],) * k)

    yield from rec(0, ())


def _every_lead_leaves_bombs(hand: tuple[int, ...], variant: str) -> bool:
    """(b) by listing every lead play of the hand (what bombs_after_one_play prunes)."""
    c = value_counts(hand)
    if bombs_only(c):
        return True
    for play in iter_plays(hand, None, variant):
        rest = c[:]
        for f in play.cards:
            rest[VALUE[f]] -= 1
        if bombs_only(rest):
            return True
    return False


@pytest.mark.parametrize("variant", ["2v4", "zhengfan", "3v3"])
def test_pruned_search_equals_every_lead_on_landlord_hands(variant):
    """On seeded landlord-size hands made of bombs, one lead play and a few stray cards (so
    that both answers occur), the pruned search (only sequences and airplanes can take three
    short ranks) gives the answer of trying every lead play."""
    rng = random.Random(780)
    pack = deck(variant)
    by_value: dict[int, list[int]] = {}
    for f in pack:
        by_value.setdefault(VALUE[f], []).append(f)
    hits = 0
    for _ in range(120):
        pool = list(pack)
        rng.shuffle(pool)
        hand: list[int] = []
        for v in rng.sample(sorted(by_value), rng.randint(3, 7)):
            hand += by_value[v][:rng.randint(4, 7)]
        extra = [f for f in pool[:80] if f not in hand]
        plays = legal_plays(tuple(extra[:rng.randint(8, 24)]), None, variant)
        kind = rng.choice(sorted({p.combo.kind for p in plays}))     # the type first
        hand += list(rng.choice([p for p in plays if p.combo.kind == kind]).cards)
        hand += extra[30:30 + rng.choice((0, 0, 1, 2, 3))]
        hand = tuple(hand)
        want = _every_lead_leaves_bombs(hand, variant)
        assert bombs_after_one_play(hand, variant) == want, hand
        hits += want
    assert 10 < hits < 110
