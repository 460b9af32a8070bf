"""The winning-hand analysis (LH-36 … LH-44, LH-47 … LH-58) against the ``mahjong`` package
(2.1.0, a test-only dependency), on the domain where 扑克六湖 and riichi mahjong coincide.

The domain: ``groups`` = 4, ``pair_match`` = ``face``, ``special_sequence`` = ``same_suit``, no
RJ, cards from a window of 9 consecutive ranks in 3 of the 4 suits (mapped onto man / pin / sou
1-9). The window is A-9, 3-J, 4-Q or 5-K, never 2-T, so no 2-7-T can occur; with the A-9
window a one-suit A-2-3 is our special 壹贰叁 (LH-37) and mahjong's chi 1-2-3: both are "a group
of those three cards", so splits are compared as multisets of card sets. Melds map chi → chi,
peng → pon, 明杠 → open kan, 暗杠 → closed kan. Mahjong's seven pairs are dropped (LH-42).

Checked on seeded hands: our set of splits equals ``HandDivider.divide_hand``; with no melds,
"is a winning shape" equals ``Shanten.calculate_shanten_for_regular_hand(...) == -1``; our best
total equals the best of mahjong's splits scored with section 10's table (written here).
"""

from __future__ import annotations

import random
from collections import Counter

import pytest

from engine.games.liuhu.hand import HandRules, Meld, best_split, clear_caches, splits

mahjong = pytest.importorskip("mahjong", reason="the mahjong package (dev extra) is needed")
from mahjong.hand_calculating.divider import HandDivider  # noqa: E402
from mahjong.meld import Meld as MjMeld  # noqa: E402
from mahjong.shanten import Shanten  # noqa: E402

WINDOWS = (0, 2, 3, 4)            # first rank index of the window: A-9, 3-J, 4-Q, 5-K
N_HANDS = 3000


class Domain:
    """One window and suit mapping: tile (0-26) <-> our face code."""

    def __init__(self, rng: random.Random) -> None:
        self.start = rng.choice(WINDOWS)
        self.suits = rng.sample(range(4), 3)        # our suit of man, pin, sou

    def face(self, tile: int) -> int:
        return 13 * self.suits[tile // 9] + self.start + tile % 9

    def tile(self, face: int) -> int:
        return 9 * self.suits.index(face // 13) + face % 13 - self.start


def _block(rng: random.Random) -> list[int]:
    """A random mahjong group (sequence or triplet) as tiles."""
    suit = rng.randrange(3)
    if rng.random() < 0.6:
        i = rng.randrange(7)
        return [9 * suit + i, 9 * suit + i + 1, 9 * suit + i + 2]
    return [9 * suit + rng.randrange(9)] * 3


def random_hand(rng: random.Random) -> tuple[Domain, list[int], list[tuple[str, list[int]]]]:
    """(domain, concealed tiles, melds as (our kind, tiles)); at most 4 copies of a tile;
    one concealed tile changed in a third of the hands."""
    while True:
        dom = Domain(rng)
        melds: list[tuple[str, list[int]]] = []
        for _ in range(rng.choice([0, 0, 0, 1, 1, 2])):
            kind = rng.choice(["chi", "peng", "ming_gang", "an_gang"])
            b = _block(rng)
            if kind == "chi":
                while b[0] == b[1]:
                    b = _block(rng)
                melds.append(("chi", b))
            else:
                t = rng.randrange(27)
                melds.append((kind, [t] * (3 if kind == "peng" else 4)))
        concealed: list[int] = []
        for _ in range(4 - len(melds)):
            concealed += _block(rng)
        concealed += [rng.randrange(27)] * 2
        if rng.random() < 0.33:
            concealed[rng.randrange(len(concealed))] = rng.randrange(27)
        counts = Counter(concealed) + Counter(t for _, ts in melds for t in ts)
        if max(counts.values()) <= 4:
            return dom, concealed, melds


def mahjong_melds(melds: list[tuple[str, list[int]]], used: Counter) -> list[MjMeld]:
    """Our melds as mahjong melds, each tile a distinct 136-format copy."""
    out = []
    kinds = {"chi": MjMeld.CHI, "peng": MjMeld.PON, "ming_gang": MjMeld.KAN,
             "an_gang": MjMeld.KAN}
    for kind, tiles in melds:
        t136 = []
        for t in sorted(tiles):
            t136.append(4 * t + used[t])
            used[t] += 1
        out.append(MjMeld(meld_type=kinds[kind], tiles=t136, opened=kind != "an_gang"))
    return out


def _cards_key(groups: list[tuple[int, ...]]) -> tuple:
    return tuple(sorted(tuple(sorted(g)) for g in groups))


def ours_as_tiles(dom: Domain, concealed: list[int], melds: list[tuple[str, list[int]]],
                  rules: HandRules) -> tuple[list[tuple], int | None]:
    faces = [dom.face(t) for t in concealed]
    our_melds = [Meld(k, tuple(dom.face(t) for t in ts)) for k, ts in melds]
    found = splits(faces, our_melds, rules)
    keys = [_cards_key([tuple(dom.tile(c) for c in g.cards) for g in s.groups]
                       + [tuple(dom.tile(c) for c in s.pair.cards)]) for s in found]
    best = best_split(faces, our_melds, rules)
    return keys, (best.total if best else None)


def score(dom: Domain, blocks: list[list[int]], melds: list[tuple[str, list[int]]],
          rules: HandRules) -> int:
    """A mahjong split scored by section 10's table (自摸, so +3 and nothing marked)."""
    rest = Counter(tuple(b) for b in blocks)
    total = 3                                                   # LH-55
    for kind, tiles in melds:
        key = tuple(sorted(tiles))
        assert rest[key] > 0
        rest[key] -= 1
        if kind == "chi":
            total += 12 if dom.start == 0 and key[0] % 9 == 0 else 0    # LH-52 / LH-47
        else:
            total += {"peng": 3, "ming_gang": 6, "an_gang": 9}[kind]    # LH-48 … LH-50
    for block, n in rest.items():
        for _ in range(n):
            if len(block) == 2:                                         # LH-53, LH-54
                total += 6 if (dom.start + block[0] % 9) in (1, 4, 7, 9) else 0
            elif block[0] == block[1]:
                total += rules.concealed_triplet_hu                     # LH-48 concealed
            elif dom.start == 0 and block[0] % 9 == 0:
                total += 12                                             # 壹贰叁 one suit
    return total


def test_splits_equal_hand_divider_and_shanten():
    """LH-36 … LH-44: on the shared domain our splits are mahjong's, our shape test is its
    shanten -1, and our best total is the best of its splits under our table."""
    rng = random.Random(424242)
    clear_caches()
    n_win = n_melded_win = 0
    for _ in range(N_HANDS):
        dom, concealed, melds = random_hand(rng)
        rules = HandRules(groups=4, pair_match="face", special_sequence="same_suit",
                          concealed_triplet_hu=rng.choice([3, 6]))
        ours, best = ours_as_tiles(dom, concealed, melds, rules)
        assert len(ours) == len(set(ours))
        used: Counter = Counter()
        mj_melds = mahjong_melds(melds, used)
        tiles_34 = [0] * 34
        for t in concealed + [t for _, ts in melds for t in ts]:
            tiles_34[t] += 1
        theirs = [d for d in HandDivider().divide_hand(tiles_34, mj_melds)
                  if not (len(d) == 7 and all(len(b) == 2 for b in d))]
        assert sorted(ours) == sorted(_cards_key(d) for d in theirs), (dom.start, concealed,
                                                                        melds)
        if not melds:
            only = [0] * 34
            for t in concealed:
                only[t] += 1
            assert (Shanten.calculate_shanten_for_regular_hand(only) == -1) == bool(ours)
        if theirs:
            n_win += 1
            n_melded_win += bool(melds)
            assert best == max(score(dom, d, melds, rules) for d in theirs)
        else:
            assert best is None
    assert n_win > N_HANDS // 3 and n_melded_win > N_HANDS // 20
