"""六人斗地主 move-generation benchmarks: every legal play of a lead and of an answer, and
``has_answer``, on seeded random hands (46 cards: a 4-deck solo landlord after the kitty; 34:
a 4-deck farmer; 27: a 3v3 hand).

Run: ``.venv/bin/pytest tests/bench/test_ddz6_moves_bench.py --benchmark-enable``. Targets: a
lead from a 46-card hand ≤ 2 ms median, an answer ≤ 200 µs. Each reports in ``extra_info``
its median in µs, calls per second and ``ratio_to_chess`` (``conftest.chess_rate``).
"""

from __future__ import annotations

import random

import pytest

from engine.games.ddz6.cards import deck
from engine.games.ddz6.moves import has_answer, legal_plays
from tests.bench.chess_baseline import record_latency

N_HANDS = 300
LEAD_TARGET_US = 2000
ANSWER_TARGET_US = 200
CASES = [("2v4", 46), ("2v4", 34), ("3v3", 27)]


def _hands(variant: str, size: int) -> list[tuple[int, ...]]:
    rng = random.Random(9000 + size)
    pack = deck(variant)
    return [tuple(rng.sample(pack, size)) for _ in range(N_HANDS)]


def _answers(variant: str, size: int) -> list[tuple]:
    """(hand, top) pairs: the top is a play of another seeded hand, its type drawn first
    (uniformly among the types that hand can lead), then the play."""
    rng = random.Random(9100 + size)
    hands = _hands(variant, size)
    out = []
    for hand in hands:
        plays = legal_plays(rng.choice(hands), None, variant)
        kind = rng.choice(sorted({p.combo.kind for p in plays}))
        top = rng.choice([p for p in plays if p.combo.kind == kind]).combo
        out.append((hand, top))
    return out


def _bench(benchmark, chess_rate, fn, items, target_us: int) -> None:
    it = iter(items * 20)
    benchmark.pedantic(lambda: fn(*next(it)), rounds=4000, warmup_rounds=200)
    record_latency(benchmark, chess_rate)
    benchmark.extra_info["target_median_us"] = target_us


@pytest.mark.parametrize(("variant", "size"), CASES, ids=[f"{v}-{n}" for v, n in CASES])
def test_ddz6_lead_plays(benchmark, chess_rate, variant, size):
    """legal_plays on a lead: every combination the hand holds."""
    hands = _hands(variant, size)
    _bench(benchmark, chess_rate, lambda h: legal_plays(h, None, variant), [(h,) for h in hands],
           LEAD_TARGET_US)
    counts = [len(legal_plays(h, None, variant)) for h in hands]
    benchmark.extra_info["plays_mean"] = round(sum(counts) / len(counts))
    benchmark.extra_info["plays_max"] = max(counts)


@pytest.mark.parametrize(("variant", "size"), CASES, ids=[f"{v}-{n}" for v, n in CASES])
def test_ddz6_answer_plays(benchmark, chess_rate, variant, size):
    """legal_plays against a top play: the same type beating it, and the bombs."""
    items = _answers(variant, size)
    _bench(benchmark, chess_rate, lambda h, t: legal_plays(h, t, variant), items,
           ANSWER_TARGET_US)
    counts = [len(legal_plays(h, t, variant)) for h, t in items]
    benchmark.extra_info["plays_mean"] = round(sum(counts) / len(counts), 1)


@pytest.mark.parametrize(("variant", "size"), CASES, ids=[f"{v}-{n}" for v, n in CASES])
def test_ddz6_has_answer(benchmark, chess_rate, variant, size):
    """has_answer against a top play (stops at the first answer)."""
    items = _answers(variant, size)
    _bench(benchmark, chess_rate, lambda h, t: has_answer(h, t, variant), items,
           ANSWER_TARGET_US)
    benchmark.extra_info["answerable"] = sum(has_answer(h, t, variant) for h, t in items)
