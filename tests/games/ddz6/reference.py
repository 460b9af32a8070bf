"""The combinations of section 8 restated from the rules text, independently of the engine.

``readings`` lists every reading of a multiset of values under the literal definitions of
DDZ-43 … DDZ-68 (enumerating runs, bodies and wing splits, as the text says them); the tests
compare ``engine.games.ddz6.combos.classify`` with it. Values are DDZ-3's (3 … 17); cards are
written as rank characters ``3456789TJQKA2`` plus ``B`` (BJ) and ``R`` (RJ).
"""

from __future__ import annotations

from collections import Counter
from functools import cache

from engine.cards import BLACK_JOKER, RED_JOKER

CHAR_VALUE = {ch: i + 3 for i, ch in enumerate("3456789TJQKA2")} | {"B": 16, "R": 17}
RANK_INDEX = {ch: i for i, ch in enumerate("A23456789TJQK")}     # CONVENTIONS.md rank order


def faces(text: str) -> tuple[int, ...]:
    """Faces of rank characters ('555666+4499KK', 'BBRR'): the i-th card of a rank takes suit
    i mod 4 (s h c d); '+' and spaces are ignored."""
    seen: Counter[str] = Counter()
    out = []
    for ch in text:
        if ch in "+ ":
            continue
        if ch == "B":
            out.append(BLACK_JOKER)
        elif ch == "R":
            out.append(RED_JOKER)
        else:
            out.append(13 * (seen[ch] % 4) + RANK_INDEX[ch])
            seen[ch] += 1
    return tuple(out)


def values(text: str) -> tuple[int, ...]:
    """Sorted values of rank characters."""
    return tuple(sorted(CHAR_VALUE[ch] for ch in text if ch not in "+ "))


# ---------------------------------------------------------------- the text

# 8.2: 3v3 sequences on 3 … A (values 3 … 14, A only high). DDZ-55: 4-deck positions.
POS_3V3 = {v: v for v in range(3, 15)}
POS_4DECK = {1: 14, 2: 15, **{v: v for v in range(3, 14)}, 14: 14}

# DDZ-52 / DDZ-54 (3v3) and DDZ-68 / DDZ-69 (4-deck): joker bombs as (BJ, RJ) -> place.
JOKER_BOMB_3V3 = {(3, 0): "J3-4", (0, 3): "J3-4", (3, 1): "J3-4", (2, 2): "J3-4",
                  (1, 3): "J3-4", (3, 2): "J5", (2, 3): "J5", (3, 3): "J6"}
JOKER_BOMB_4DECK = {(3, 0): "1a", (3, 1): "1b", (2, 2): "1b", (1, 3): "1b", (0, 3): "1c",
                    (4, 0): "2a", (4, 1): "2a", (4, 2): "2b", (3, 3): "2b", (2, 4): "2b",
                    (0, 4): "2c", (1, 4): "2c", (4, 3): "3", (3, 4): "3", (4, 4): "4"}


def _runs(pos: dict[int, int], m: int) -> list[tuple[int, list[int]]]:
    """(start position, values) of every m consecutive positions using no rank twice."""
    out = []
    for start in range(min(pos), max(pos) - m + 2):
        vals = [pos[p] for p in range(start, start + m)]
        if len(set(vals)) == m:
            out.append((start, vals))
    return out


def _pairs_ok(vals: list[int], four: bool) -> bool:
    """Values that pair (DDZ-44: 3 … 2; DDZ-57: BJ BJ and RJ RJ too)."""
    return all(v <= (17 if four else 15) for v in vals)


def readings(vals: tuple[int, ...], four: bool, wings: str = "any",
             order: str = "seed") -> list[tuple]:
    """Every (kind, size, m, key, place) reading of the values by the letter of section 8."""
    n = len(vals)
    cnt = Counter(vals)
    jok = (cnt[16], cnt[17])
    suited = [v for v in vals if v <= 15]
    out: list[tuple] = []
    if n == 1:
        out.append(("single", 1, 0, vals[0], ""))
    if len(cnt) == 1 and vals[0] <= 15 and n >= 4:
        out.append(("bomb", n, 0, vals[0], ""))
    if not suited and n >= 3:
        place = (JOKER_BOMB_4DECK if four else JOKER_BOMB_3V3).get(jok)
        if place:
            out.append(("joker_bomb", n, 0, 0, place))
    if n == 2 and len(cnt) == 1 and _pairs_ok([vals[0]], four):
        out.append(("pair", 2, 0, vals[0], ""))
    if n == 3 and len(cnt) == 1 and vals[0] <= 15:
        out.append(("trio", 3, 0, vals[0], ""))
    if n == 5 and sorted(cnt.values()) == [2, 3]:
        trio = next(v for v, k in cnt.items() if k == 3)
        pair = next(v for v, k in cnt.items() if k == 2)
        if (trio <= 15 or four) and _pairs_ok([pair], four):
            out.append(("trio_pair", 5, 0, trio, ""))
    out += _sequences(vals, cnt, four)
    out += _airplanes(vals, cnt, four, wings, order)
    return out


def _sequences(vals: tuple[int, ...], cnt: Counter, four: bool) -> list[tuple]:
    out = []
    pos = POS_4DECK if four else POS_3V3
    for w, kind, least in ((1, "straight", 5), (2, "pair_seq", 3), (3, "trio_seq", 2)):
        if len(vals) % w or set(cnt.values()) != {w}:
            continue
        m = len(vals) // w
        if m < least:
            continue
        for start, run in _runs(pos, m):
            if Counter(run * w) == cnt and not (four and w == 3 and run == [14, 15]):
                out.append((kind, len(vals), m, start + m - 1, ""))
    return out


def _airplanes(vals: tuple[int, ...], cnt: Counter, four: bool, wings: str,
               order: str) -> list[tuple]:
    n = len(vals)
    if n % 5 or n < 10:
        return []
    m = n // 5
    out = []
    for start, body in _runs(POS_4DECK if four else POS_3V3, m):
        rest = cnt - Counter(body * 3)
        if sum(rest.values()) != 2 * m or Counter(body * 3) - cnt:
            continue
        if four:
            ok = _wings_4deck(rest, body, m)
            key = 15 if order == "seed" and start == 2 else start
        else:
            ok = _wings_3v3(rest, body, m, wings)
            key = start + m - 1
        if ok:
            out.append(("airplane", n, m, key, ""))
    return out


def _wings_3v3(rest: Counter, body: list[int], m: int, wings: str) -> bool:
    """DDZ-50: m pairs (2s, no jokers); ``no_bomb``: m different ranks, none in the body."""
    if any(k % 2 or v > 15 for v, k in rest.items()):
        return False
    if wings == "no_bomb":
        return len(rest) == m and not set(rest) & set(body)
    return True


def _wings_4deck(rest: Counter, body: list[int], m: int) -> bool:
    """DDZ-64, DDZ-65: a run of m pairs (not AA22) or, for m = 2, BJ BJ RJ RJ; no body rank."""
    if set(rest) & set(body):
        return False
    if m == 2 and rest == Counter({16: 2, 17: 2}):
        return True
    for _start, run in _runs(POS_4DECK, m):
        if Counter(run * 2) == rest and not (m == 2 and run == [14, 15]):
            return True
    return False


@cache
def reference(vals: tuple[int, ...], four: bool, wings: str = "any",
              order: str = "seed") -> tuple | None:
    """The one reading DDZ-40 gives: a bomb over any other (a), the highest key within the
    type (b); None if no reading. Raises if readings of two non-bomb types exist (c)."""
    got = readings(vals, four, wings, order)
    bombs = [r for r in got if r[0] in ("bomb", "joker_bomb")]
    if bombs:
        return bombs[0]
    kinds = {r[0] for r in got}
    if len(kinds) > 1:
        raise AssertionError(f"{vals} reads as {sorted(kinds)}: DDZ-40 (c) broken")
    return max(got, key=lambda r: r[3]) if got else None
