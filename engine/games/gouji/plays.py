"""够级 plays: shape (GJ-12, GJ-13, GJ-16, GJ-17), the beat function (GJ-14), and the listing of
every legal play of a hand by base rank, count and attached wilds — never by card subsets.
"""

from __future__ import annotations

from engine.games.gouji.cards import BJ_S, RJ_S, SHAPE_MIN, STRENGTH, THREE, TWO_S
from engine.games.gouji.state import PlayInfo


def analyse(cards: tuple[int, ...]) -> PlayInfo | None:
    """The play's shape, or None when the cards are not a play (GJ-12: two natural ranks)."""
    if not cards:
        return None
    base = 99
    nat = 0
    n2 = nbj = nrj = 0
    for c in cards:
        v = STRENGTH[c]
        if v < TWO_S:
            if nat and v != nat:
                return None
            nat = v
        elif v == TWO_S:
            n2 += 1
        elif v == BJ_S:
            nbj += 1
        else:
            nrj += 1
        if v < base:
            base = v
    n = len(cards)
    return make_info(base, n, n2 if base < TWO_S else 0, nbj, nrj)


_INFO: dict[tuple[int, int, int, int, int], PlayInfo] = {}


def make_info(base: int, n: int, n2: int, nbj: int, nrj: int) -> PlayInfo:
    """The PlayInfo of a play with this base, count and attached wilds (cached: immutable)."""
    key = (base, n, n2, nbj, nrj)
    info = _INFO.get(key)
    if info is None:
        shaped = nbj + nrj > 0 or n >= SHAPE_MIN[base]
        pure = shaped and nbj + nrj == 0 and n2 == 0 and base < TWO_S
        info = _INFO[key] = PlayInfo(base, n, n2, nbj, nrj, shaped, pure)
    return info


def beats(a: PlayInfo, t: PlayInfo) -> bool:
    """GJ-14: equal count, position-by-position stronger profile (the closed form)."""
    return a.n == t.n and t.nrj == 0 and a.nrj >= t.nbj and a.base > t.base


def profile(cards: tuple[int, ...]) -> list[int]:
    """GJ-13: the card strengths of a play, high to low (an attached 2 has the base's)."""
    info = analyse(cards)
    if info is None:
        raise ValueError("not a play")
    out = [STRENGTH[c] if STRENGTH[c] > TWO_S or info.base >= TWO_S else info.base
           for c in cards]
    return sorted(out, reverse=True)


def groups(hand: tuple[int, ...]) -> list[list[int]]:
    """The hand's faces grouped by strength (index 0-17)."""
    g: list[list[int]] = [[] for _ in range(18)]
    for c in hand:
        g[STRENGTH[c]].append(c)
    return g


def answer_shapes(g: list[list[int]], t: PlayInfo) -> list[tuple[int, int, int, int, int]]:
    """Every play of the grouped hand that beats t (GJ-14): (base, naturals, 2s, BJs, RJs).

    For base 2, BJ and RJ plays 'naturals' counts the base's own cards.
    """
    if t.nrj:
        return []
    n = t.n
    n2, nbj, nrj = len(g[TWO_S]), len(g[BJ_S]), len(g[RJ_S])
    need_rj = t.nbj
    if nrj < need_rj:
        return []
    out: list[tuple[int, int, int, int, int]] = []
    for base in range(max(t.base + 1, THREE + 1), TWO_S):
        k_max = min(len(g[base]), n)
        for k in range(1, k_max + 1):
            rest = n - k
            for c in range(need_rj, min(nrj, rest) + 1):
                for b in range(min(nbj, rest - c) + 1):
                    a = rest - c - b
                    if a <= n2:
                        out.append((base, k, a, b, c))
    if t.base < TWO_S:
        for a in range(1, min(n2, n) + 1):
            for c in range(need_rj, min(nrj, n - a) + 1):
                b = n - a - c
                if b <= nbj:
                    out.append((TWO_S, a, 0, b, c))
    if t.base < BJ_S:
        for b in range(1, min(nbj, n) + 1):
            c = n - b
            if need_rj <= c <= nrj:
                out.append((BJ_S, b, 0, 0, c))
    if n <= nrj:
        out.append((RJ_S, n, 0, 0, 0))
    return out


def shape_cards(g: list[list[int]], shape: tuple[int, int, int, int, int]) -> tuple[int, ...]:
    """The faces of a play shape taken from the grouped hand (the first faces of each group)."""
    base, k, a, b, c = shape
    if base >= TWO_S:
        # base 2: k 2s + b BJ + c RJ; base BJ: k BJ + c RJ; base RJ: k RJ
        if base == TWO_S:
            return tuple(g[TWO_S][:k]) + tuple(g[BJ_S][:b]) + tuple(g[RJ_S][:c])
        if base == BJ_S:
            return tuple(g[BJ_S][:k]) + tuple(g[RJ_S][:c])
        return tuple(g[RJ_S][:k])
    return tuple(g[base][:k]) + tuple(g[TWO_S][:a]) + tuple(g[BJ_S][:b]) + tuple(g[RJ_S][:c])


def shape_info(shape: tuple[int, int, int, int, int]) -> PlayInfo:
    """The PlayInfo of a listed shape."""
    base, k, a, b, c = shape
    if base == TWO_S:
        return make_info(base, k + b + c, 0, b, c)
    if base == BJ_S:
        return make_info(base, k + c, 0, k, c)
    if base == RJ_S:
        return make_info(base, k, 0, 0, k)
    return make_info(base, k + a + b + c, a, b, c)
