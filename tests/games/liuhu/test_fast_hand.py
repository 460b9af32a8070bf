"""The faster hand analysis of 扑克六湖 rollouts gives exactly the answers of the code it
replaced, kept beside it as the reference: ``split.Tables.waits`` (memo by multiset, the
one-isolated-face start, the value-only search) against ``_reference_waits``, ``hand._count``
against ``_reference_count``, ``hand.win_faces`` / ``win_faces_by_win`` against
``_reference_win_faces``, ``claims.chi_pairs`` against ``_reference_chi_pairs``, the greedy discard scoring
``bots.most_isolated_sorted`` against ``most_isolated``. Compared over the hands of seeded greedy and random self-play under
every conformance option set (each seat's concealed cards, with and without each card) and
over random and one- or two-suit hands, under every pair_match / special_sequence and both
concealed-triplet values."""

from __future__ import annotations

import random
from functools import cache

import pytest

from engine.games import liuhu
from engine.games.liuhu.bots import face_counts, most_isolated, most_isolated_sorted
from engine.games.liuhu.cards import pack
from engine.games.liuhu.claims import _reference_chi_pairs, chi_pairs, hand_melds
from engine.games.liuhu.hand import (
    HandRules,
    _count,
    _reference_count,
    _reference_win_faces,
    clear_caches,
    win_faces,
    win_faces_by_win,
)
from engine.games.liuhu.split import PAIR_MATCHES, SPECIAL_SEQUENCES, mask_of, tables

from ...policy_pairs import decision_states

OPTION_SETS = liuhu.CONFORMANCE["option_sets"]
RJ = 53


@cache
def selfplay_states(k: int) -> tuple:
    """The decision states of seeded greedy and random self-play under option set k."""
    return tuple(s for driver in ("greedy", "random")
                 for s in decision_states("liuhu", OPTION_SETS[k], driver, games=3,
                                          seed=700 + k))


@cache
def selfplay_hands(k: int) -> tuple[tuple[int, ...], ...]:
    """Every distinct concealed hand met in those states, and each of them less one card (the
    hands a claim window and 自摸 ask about)."""
    out: set[tuple[int, ...]] = set()
    for s in selfplay_states(k):
        for h in s.hands:
            out.add(h)
            out.update(h[:i] + h[i + 1:] for i in range(len(h)))
    return tuple(sorted(out))


def random_hands(seed: int) -> list[list[int]]:
    """Random hands of 1-16 suited cards from four decks, and hands from one or two suits
    (near wins: sequences, triplets and pairs are common there)."""
    rng = random.Random(seed)
    pack = [c for c in range(52) for _ in range(4)]
    hands = [rng.sample(pack, n) for n in (13, 13, 16, 10, 7, 4, 1) for _ in range(150)]
    for _ in range(1500):
        suits = rng.sample(range(4), rng.choice((1, 2)))
        pool = [13 * u + r for u in suits for r in range(13) for _ in range(4)]
        hands.append(rng.sample(pool, rng.choice((13, 10, 7, 16))))
    return hands


def _same_waits(hands: list[list[int]] | tuple[tuple[int, ...], ...]) -> int:
    """Assert waits == _reference_waits for the suited cards of every hand under every table
    and both triplet values, from cold memos and then warm; the number of non-empty answers."""
    found = 0
    for pm in PAIR_MATCHES:
        for ss in SPECIAL_SEQUENCES:
            t = tables(pm, ss)
            t.clear()
            for h in hands:
                x = mask_of([c for c in h if c != RJ])
                for cth in (3, 6):
                    got = t.waits(x, cth)
                    want = t._reference_waits(x, cth)
                    assert got == want, (pm, ss, cth, sorted(h))
                    assert t.waits(x, cth) == want          # the memo's answer
                    found += bool(got)
            t.clear()
    return found


@pytest.mark.parametrize("k", range(len(OPTION_SETS)))
def test_waits_equal_the_reference_on_selfplay_hands(k):
    """waits over every hand (and hand less a card) of self-play under option set k."""
    hands = selfplay_hands(k)
    assert len(hands) > 1000
    assert _same_waits(hands) > 50


@pytest.mark.parametrize("seed", [1, 2])
def test_waits_equal_the_reference_on_random_hands(seed):
    """waits over random hands and one- or two-suit hands (many waits among them)."""
    assert _same_waits(random_hands(seed)) > 1000


def _outcome(f, cards):
    try:
        return "ok", f(cards)
    except Exception as e:          # noqa: BLE001 -- the same exception, message and field
        return type(e).__name__, str(e), getattr(e, "field", None)


def test_count_equals_the_reference():
    """_count (one byte a face) answers or raises exactly as _reference_count: random hands
    with and without the RJ, and bad input (codes out of range, a black joker, two RJ,
    non-ints, a face more than 255 times)."""
    odd = [[], [RJ], [RJ, RJ], [52], [-1], [54], [1.0], ["As"], [True, 3], (5,) * 300,
           [None], [0, 51, RJ], [3, -2, RJ], (7,) * 255]
    rng = random.Random(9)
    pack = [*range(52)] * 4 + [RJ]
    cases: list = list(odd)
    for _ in range(20_000):
        h = rng.sample(pack, rng.randrange(0, 20))
        if rng.random() < 0.05:
            h.append(rng.choice([52, RJ, -1, 54, 60, 2.0]))
        cases.append(tuple(sorted(h, key=str)) if rng.random() < 0.5 else h)
    for k in range(len(OPTION_SETS)):
        cases.extend(selfplay_hands(k)[::7])
    for h in cases:
        assert _outcome(_count, h) == _outcome(_reference_count, h), h


@pytest.mark.parametrize("k", range(len(OPTION_SETS)))
def test_win_faces_equal_the_reference(k):
    """win_faces (and win_faces_by_win over every win type at once) against
    _reference_win_faces: each seat's hand less each card, with its melds, in every state of
    self-play under option set k, and under the same rules with other thresholds, 自摸 bonus
    counting and concealed-triplet values."""
    wins = ("fangchong", "zimo", "qianggang")
    base = HandRules.of(liuhu.Options(**OPTION_SETS[k]))
    variants = [base] + [HandRules(groups=base.groups, pair_match=base.pair_match,
                                   special_sequence=base.special_sequence,
                                   concealed_triplet_hu=cth, min_hu=m, zimo_bonus_counts=z)
                         for cth, m, z in ((3, 0, True), (6, 12, False), (6, 21, True))]
    asked: set = set()
    positives = 0
    clear_caches()
    for s in selfplay_states(k):
        for seat, h in enumerate(s.hands):
            melds = hand_melds(s, seat)
            for i in range(len(h)):
                cut = h[:i] + h[i + 1:]
                if (cut, melds) in asked:
                    continue
                asked.add((cut, melds))
                for rules in variants:
                    want = tuple(_reference_win_faces(cut, melds, rules, win=w) for w in wins)
                    assert win_faces_by_win(cut, melds, rules, wins) == want, (cut, melds)
                    assert win_faces_by_win(cut, melds, rules, wins[1::-1]) == want[1::-1]
                    for w, faces in zip(wins, want, strict=True):
                        assert win_faces(cut, melds, rules, win=w) == faces
                        positives += bool(faces)
    assert len(asked) > 1000 and positives > 20


@pytest.mark.parametrize("k", range(len(OPTION_SETS)))
def test_chi_pairs_equal_the_reference(k):
    """chi_pairs (shapes by their lower face) is _reference_chi_pairs for every seat and every
    face (and the RJ) in every state of self-play under option set k."""
    n = 0
    for s in selfplay_states(k)[::3]:
        for seat in range(6):
            for card in (*range(52), RJ):
                got = chi_pairs(s, seat, card)
                assert got == _reference_chi_pairs(s, seat, card), (s.hands[seat], card)
                n += bool(got)
    assert n > 1000


def test_most_isolated_sorted_is_most_isolated():
    """The greedy discard scoring over a sorted hand (faces taken in the hand's order) is
    ``most_isolated`` for random sorted hands of 2-4 decks with and without the RJ and for
    every hand of self-play under every option set."""
    rng = random.Random(11)
    hands = []
    for _ in range(10_000):
        cards = list(pack(rng.choice((2, 3, 4)), rng.randrange(2)))
        hands.append(tuple(sorted(rng.sample(cards, rng.randrange(1, 18)))))
    for k in range(len(OPTION_SETS)):
        hands.extend(h for h in selfplay_hands(k) if h)
    for h in hands:
        cnt = face_counts(h)
        assert most_isolated_sorted(h, cnt) == most_isolated(h, cnt), h
