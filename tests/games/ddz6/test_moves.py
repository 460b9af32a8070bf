"""The move generator against brute force, and ``classify`` against the rules restated.

Brute force: every sub-multiset of the faces of hundreds of seeded random small hands per
variant and option set is classified; the plays the generator lists (by their values) must be
exactly the sets that classify and beat the top play, each once, its cards from the hand.
``classify`` itself is compared with ``reference.reference`` (the letter of section 8) on the
same sets and on seeded structured sets (runs, bodies, wings, then a card added, removed or
changed), so that long sequences and airplanes are covered too.
"""

from __future__ import annotations

import itertools
import random
from collections import Counter

import pytest

from engine.games.common import holds
from engine.games.ddz6.cards import BJ, MAX_HAND, RJ, VALUE, deck
from engine.games.ddz6.combos import KINDS, beats, classify
from engine.games.ddz6.moves import HandPlays, has_answer, iter_plays, legal_plays

from .reference import CHAR_VALUE, POS_3V3, POS_4DECK, faces, reference

CONFIGS = [
    ("3v3", {}),
    ("3v3", {"wings_3v3": "no_bomb"}),
    ("2v4", {}),
    ("zhengfan", {"airplane_order": "chain"}),
]
HANDS = 200


def _sig(cards) -> tuple[int, ...]:
    return tuple(sorted(VALUE[f] for f in cards))


def _subsets(hand: tuple[int, ...]):
    """Every non-empty sub-multiset of the hand's faces."""
    cnt = Counter(hand)
    fs = sorted(cnt)
    for ks in itertools.product(*(range(cnt[f] + 1) for f in fs)):
        out: list[int] = []
        for f, k in zip(fs, ks, strict=True):
            out += [f] * k
        if out:
            yield tuple(out)


def _hand(rng: random.Random, variant: str) -> tuple[int, ...]:
    """A small seeded hand: uniform, or few ranks (long counts: bombs, trios, airplanes), or
    rich in jokers."""
    d = list(deck(variant))
    style = rng.random()
    if style < 0.35:
        n = rng.randint(5, 10)
    elif style < 0.8:
        lo = rng.randrange(13)
        ranks = {(lo + i) % 13 for i in range(rng.randint(2, 4))}
        d = [f for f in d if (f < 52 and f % 13 in ranks) or (f >= 52 and rng.random() < 0.4)]
        n = rng.randint(8, 12)
    else:
        d = [f for f in d if f >= 52] * 1 + rng.sample([f for f in d if f < 52], 6)
        n = rng.randint(5, 10)
    return tuple(rng.sample(d, min(n, len(d))))


def _opt(options: dict, name: str, default: str) -> str:
    return options.get(name, default)


@pytest.mark.parametrize(("variant", "options"), CONFIGS,
                         ids=[f"{v}-{'-'.join(o.values()) or 'default'}" for v, o in CONFIGS])
def test_generator_equals_brute_force(variant, options):
    """Every listed play classifies as listed, is in the hand, beats the top, and is listed
    once; the listed value sets equal the brute-force set; has_answer agrees."""
    rng = random.Random(6000 + CONFIGS.index((variant, options)))
    four = variant != "3v3"
    wings, order = _opt(options, "wings_3v3", "any"), _opt(options, "airplane_order", "seed")
    pool: list = []
    kinds: Counter = Counter()
    compared = 0
    for _ in range(HANDS):
        hand = _hand(rng, variant)
        brute: dict[tuple[int, ...], object] = {}
        for s in _subsets(hand):
            got = classify(s, variant, options)
            sig = _sig(s)
            ref = reference(sig, four, wings, order)
            assert (None if got is None else (got.kind, got.size, got.m, got.key, got.place)) \
                == ref, (s, got, ref)
            if got is not None:
                assert brute.setdefault(sig, got) == got      # suits never matter
        kinds.update(x.kind for x in brute.values())
        pool += rng.sample(list(brute.values()), min(4, len(brute)))
        tops = [None] + rng.sample(pool, min(5, len(pool)))
        for top in tops:
            want = {k for k, x in brute.items() if top is None or beats(x, top, variant,
                                                                          options) is None}
            plays = legal_plays(hand, top, variant, options)
            sigs = [_sig(p.cards) for p in plays]
            assert len(sigs) == len(set(sigs)), (hand, top)
            assert set(sigs) == want, (hand, top, want.symmetric_difference(sigs))
            for p in plays:
                assert holds(hand, p.cards)
                assert classify(p.cards, variant, options) == p.combo
                assert top is None or beats(p.combo, top, variant, options) is None
            assert has_answer(hand, top, variant, options) == bool(want)
            compared += 1
    assert compared >= HANDS
    # the corpus reaches every type (4-deck: joker bombs too)
    assert set(kinds) >= set(KINDS) - ({"joker_bomb"} if not four else set()), kinds


def _structured(rng: random.Random, four: bool) -> tuple[int, ...]:
    """A seeded set built as a sequence or an airplane of the variant, then maybe changed by
    one or two cards (added, removed or replaced)."""
    pos = POS_4DECK if four else POS_3V3
    lo, hi = min(pos), max(pos)
    kind = rng.choice(("seq", "seq", "air"))
    if kind == "seq":
        w = rng.choice((1, 2, 3))
        m = rng.randint(2, min(13, 46 // w))
    else:
        w, m = 3, rng.randint(2, 6)
    m = min(m, hi - lo + 1)
    start = rng.randint(lo, hi - m + 1)
    vals = [pos[p] for p in range(start, start + m)] * w
    if kind == "air":
        wing_start = rng.randint(lo, hi - m + 1)
        wing = [pos[p] for p in range(wing_start, wing_start + m)]
        if rng.random() < 0.5:
            wing = [rng.choice(list(CHAR_VALUE.values())[:13]) for _ in range(m)]
        vals += wing * 2
    for _ in range(rng.choice((0, 0, 1, 2))):
        op = rng.random()
        if op < 0.35 and vals:
            vals.remove(rng.choice(vals))
        elif op < 0.7:
            vals.append(rng.randint(3, 17))
        elif vals:
            vals[rng.randrange(len(vals))] = rng.randint(3, 17)
    return tuple(sorted(vals))


@pytest.mark.parametrize(("variant", "options"), CONFIGS,
                         ids=[f"{v}-{'-'.join(o.values()) or 'default'}" for v, o in CONFIGS])
def test_classify_equals_the_rules_text_on_structured_sets(variant, options):
    """classify agrees with the restated rules on long sequences, airplanes and their near
    misses (one or two cards changed); no set reads as two types (DDZ-40 (c))."""
    rng = random.Random(7000 + CONFIGS.index((variant, options)))
    four = variant != "3v3"
    wings, order = _opt(options, "wings_3v3", "any"), _opt(options, "airplane_order", "seed")
    value_face = {v: next(f for f in range(54) if VALUE[f] == v) for v in range(3, 18)}
    cap = 4 if four else 3
    seen: Counter = Counter()
    for _ in range(3000):
        vals = _structured(rng, four)
        if not vals or max(Counter(vals).values()) > 4 * cap:
            continue
        # spread each value over suits so that no face exceeds the pack
        cards, used = [], Counter()
        for v in vals:
            f = value_face[v]
            face = f + 13 * (used[v] % 4) if v < 16 else f
            used[v] += 1
            cards.append(face)
        if max(Counter(cards).values()) > cap:
            continue
        got = classify(tuple(cards), variant, options)
        ref = reference(vals, four, wings, order)
        assert (None if got is None else (got.kind, got.size, got.m, got.key, got.place)) \
            == ref, (vals, got, ref)
        seen[got.kind if got else None] += 1
    assert seen["airplane"] > 50 and seen["straight"] > 50 and seen["pair_seq"] > 50
    assert seen["trio_seq"] > 50 and seen[None] > 300


@pytest.mark.parametrize("variant", ["3v3", "2v4", "zhengfan"])
def test_full_hands(variant):
    """Seeded full hands (27 cards; 46 for a 4-deck solo landlord): every lead and answer
    listed classifies, is held, beats the top and is listed once; every type a hand can lead
    is found (a trio whenever a rank has 3, a bomb whenever one has 4)."""
    rng = random.Random(8000)
    for _ in range(20):
        hand = tuple(rng.sample(deck(variant), MAX_HAND[variant]))
        leads = legal_plays(hand, None, variant)
        sigs = [_sig(p.cards) for p in leads]
        assert len(sigs) == len(set(sigs))
        counts = Counter(VALUE[f] for f in hand)
        assert any(p.combo.kind == "trio" for p in leads) == any(
            counts[v] >= 3 for v in range(3, 16))
        assert any(p.combo.kind == "bomb" for p in leads) == any(
            counts[v] >= 4 for v in range(3, 16))
        for top in rng.sample(leads, 8):
            answers = legal_plays(hand, top.combo, variant)
            assert has_answer(hand, top.combo, variant) == bool(answers)
            for p in answers:
                assert holds(hand, p.cards)
                assert classify(p.cards, variant) == p.combo
                assert beats(p.combo, top.combo, variant) is None


def test_canonical_cards_take_the_first_suits():
    """Cards are chosen canonically: the lowest face codes of each value (suits s h c d); so
    the first lead listed is DDZ-75's default lead, the lowest single, first suit first."""
    hand = (48, 9, 35, 22, 22)            # Td, Ts, Tc, Th, Th
    plays = {p.combo.kind: p.cards for p in legal_plays(hand, None, "3v3")}
    assert plays["single"] == (9,) and plays["pair"] == (9, 22) and plays["trio"] == (9, 22, 22)
    assert next(iter_plays(hand, None, "3v3")).cards == (9,)


def _rich_hand(rng: random.Random, variant: str) -> tuple[int, ...]:
    """A seeded hand for the shedding player's plays: a dealt hand (27, 34 or a solo
    landlord's 46 cards), or one of few ranks in long counts (trios, bodies, bombs), or a
    small hand (``_hand``)."""
    d = list(deck(variant))
    style = rng.random()
    if style < 0.4:
        return tuple(rng.sample(d, rng.choice((MAX_HAND[variant], 27, 34, 20, 12))))
    if style < 0.75:
        lo = rng.randrange(13)
        ranks = {(lo + i) % 13 for i in range(rng.randint(3, 8))}
        d = [f for f in d if (f < 52 and f % 13 in ranks) or (f >= 52 and rng.random() < 0.3)]
        return tuple(rng.sample(d, min(rng.randint(10, 30), len(d))))
    return _hand(rng, variant)


@pytest.mark.parametrize(("variant", "options"), CONFIGS,
                         ids=[f"{v}-{'-'.join(o.values()) or 'default'}" for v, o in CONFIGS])
def test_hand_plays_are_the_least_listed_plays(variant, options):
    """``HandPlays`` (worked out per type) equals the listing: ``shed`` the first non-bomb
    play of ``legal_plays`` with the lowest (key, -cards), ``least_bomb`` the first bomb with
    the lowest level, ``finishes`` whether a listed play holds the whole hand; on leads and
    against tops taken from other hands' plays, with a locked joker now and then, on hands
that are one play (or one play and a card)."""
    rng = random.Random(7000 + CONFIGS.index((variant, options)))
    pool: list = [None]
    checked = 0
    for _ in range(120):
        hand = _rich_hand(rng, variant)
        if rng.random() < 0.25:              # a hand that is one play, or one play and a card
            hand = rng.choice(legal_plays(hand, None, variant, options)).cards \
                + tuple(rng.sample(hand, rng.randint(0, 1)))
        jokers = [f for f in hand if f >= 52]
        locked = rng.choice(jokers) if jokers and variant != "3v3" and rng.random() < 0.2 \
            else None
        leads = legal_plays(hand, None, variant, options, locked)
        pool += [p.combo for p in rng.sample(leads, min(6, len(leads)))]
        whole = [p for p in leads if len(p.cards) == len(hand)]
        if whole and rng.random() < 0.5:
            pool.append(whole[0].combo)
        for top in [None, *rng.sample(pool, min(6, len(pool)))]:
            plays = legal_plays(hand, top, variant, options, locked)
            got = HandPlays(hand, top, variant, options, locked)
            small = [p for p in plays if not p.combo.level]
            assert got.shed() == min(small, key=lambda p: (p.combo.key, -len(p.cards)),
                                     default=None), (hand, top)
            assert got.least_bomb() == min((p for p in plays if p.combo.level),
                                           key=lambda p: p.combo.level, default=None)
            assert got.finishes() == any(len(p.cards) == len(hand) for p in plays)
            checked += 1
    assert checked > 500


@pytest.mark.parametrize("variant", ["3v3", "2v4"])
def test_hand_plays_finishes_with_jokers(variant):
    """``finishes`` on every hand of b BJs, r RJs and 0 … 4 threes (joker bombs up to the
    8-card 4-deck one, 七星聚, joker pairs and trio+pairs, and what is none of these): whether
    a listed lead holds the whole hand, with the 七星聚's locked joker held or not."""
    copies = 3 if variant == "3v3" else 4
    checked = 0
    for b, r, threes in itertools.product(range(copies + 1), range(copies + 1), range(5)):
        hand = (BJ,) * b + (RJ,) * r + faces("3" * threes)
        for locked in (None, BJ, RJ) if variant != "3v3" else (None,):
            if hand and (locked is None or locked in hand):
                plays = legal_plays(hand, None, variant, None, locked)
                want = any(len(p.cards) == len(hand) for p in plays)
                assert HandPlays(hand, None, variant, None, locked).finishes() == want, hand
                checked += want
    assert checked > 10
