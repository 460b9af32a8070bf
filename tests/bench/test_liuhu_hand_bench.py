"""扑克六湖 winning-hand benchmarks (engine/games/liuhu/hand.py): ``best_split`` + ``is_win`` on
seeded 14-card hands, and ``could_win_with`` on a 13-card hand against all 52 faces (a claim
window's question for every possible discard).

Run: ``.venv/bin/pytest tests/bench/test_liuhu_hand_bench.py --benchmark-enable``. Target:
``best_split`` + ``is_win`` on a 14-card hand ≤ 50 µs median. The hands are a seeded mix: half
winning shapes (4 groups drawn as sequence / triplet / special with weights 6 : 2.5 : 1.5, and a
pair), a quarter of them with one card changed, a quarter random deals from the 208-card pack.
"cold" times every hand once, with the memo cleared before the run (hands still share
sub-multisets, as real ones do); "repeat" asks about the same 300 hands again and again, as a
replay or an auditor does. Each reports in ``extra_info`` its median in µs, calls per second
and ``ratio_to_chess`` (``conftest.chess_rate``).
"""

from __future__ import annotations

import random

from engine.games.liuhu.hand import HandRules, best_split, clear_caches, could_win_with, is_win
from engine.games.liuhu.split import tables
from tests.bench.chess_baseline import record_latency

RULES = HandRules()
TARGET_US = 50
N_COLD = 4000
WARMUP = 200
WEIGHTS = {"seq": 6, "triplet": 2.5, "special": 1.5}
PACK = [c for c in range(52) for _ in range(4)]


def _winning(rng: random.Random, n_groups: int = 4) -> list[int]:
    parts = [p for p in tables(RULES.pair_match, RULES.special_sequence).parts if p.wild < 0]
    by_kind = {k: [p for p in parts if p.kind == k] for k in (*WEIGHTS, "pair")}
    while True:
        cards: list[int] = []
        for _ in range(n_groups):
            kind = rng.choices(list(WEIGHTS), weights=list(WEIGHTS.values()))[0]
            cards += rng.choice(by_kind[kind]).faces
        cards += rng.choice(by_kind["pair"]).faces
        if max(cards.count(c) for c in cards) <= 4:
            rng.shuffle(cards)
            return cards


def hands_14(n: int, seed: int = 4401) -> list[list[int]]:
    """n seeded 14-card hands: 1/2 winning shapes, 1/4 near misses, 1/4 random deals."""
    rng = random.Random(seed)
    out = []
    for i in range(n):
        if i % 4 < 2:
            out.append(_winning(rng))
        elif i % 4 == 2:
            h = _winning(rng)
            h[rng.randrange(14)] = rng.randrange(52)
            out.append(h)
        else:
            out.append(rng.sample(PACK, 14))
    return out


def _bench(benchmark, chess_rate, fn, items: list, rounds: int) -> None:
    it = iter(items)
    benchmark.pedantic(lambda: fn(next(it)), rounds=rounds, warmup_rounds=WARMUP)
    record_latency(benchmark, chess_rate)
    benchmark.extra_info["target_median_us"] = TARGET_US


def _best_and_win(h: list[int]) -> bool:
    best_split(h, (), RULES)
    return is_win(h, (), RULES)


def test_liuhu_best_split_is_win_cold(benchmark, chess_rate):
    """best_split + is_win, each hand asked once (memo cleared first)."""
    hands = hands_14(N_COLD + WARMUP)
    clear_caches()
    _bench(benchmark, chess_rate, _best_and_win, hands, N_COLD)
    clear_caches()
    benchmark.extra_info["wins"] = sum(_best_and_win(h) for h in hands[:1000])
    benchmark.extra_info["shapes"] = sum(best_split(h, (), RULES) is not None
                                         for h in hands[:1000])


def test_liuhu_best_split_is_win_repeat(benchmark, chess_rate):
    """best_split + is_win on the same 300 hands over and over (memo hits)."""
    hands = hands_14(300)
    _bench(benchmark, chess_rate, _best_and_win, hands * 15, 4000)


def test_liuhu_could_win_with_52(benchmark, chess_rate):
    """could_win_with for every face on a fresh 13-card hand (a hand one card short of the
    mix above), 52 questions per call; memo cleared first."""
    hands = [h[:13] for h in hands_14(600 + WARMUP, seed=4402)]
    clear_caches()

    def all_faces(h: list[int]) -> int:
        return sum(could_win_with(h, (), RULES, c, win="fangchong") for c in range(52))

    _bench(benchmark, chess_rate, all_faces, hands, 600)
    benchmark.extra_info["per_face_us"] = round(benchmark.extra_info["median_us"] / 52, 2)
