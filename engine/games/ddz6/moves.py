"""六人斗地主 move generation: every legal play of a hand, on a lead or against a top play,
worked out from the hand's rank counts (never from its card subsets), each distinct play once.

A play is distinct by the values it holds (suits never matter to combinations: DDZ-3); its
cards are chosen canonically, the first faces of each value in face-code order (suits
s h c d). ``legal_plays`` lists them with their classification, ``has_answer`` stops at the
first. A locked eighth joker (DDZ-70) is never part of a play.
"""

from __future__ import annotations

from collections.abc import Iterator
from itertools import chain, combinations
from typing import Any, NamedTuple

from engine.games.ddz6.cards import BJ_V, N_VALUES, RJ_V, THREE, TWO_V, VALUE, Run
from engine.games.ddz6.combos import (
    AIRPLANE,
    PAIR,
    PAIR_SEQ,
    SEQ_KIND,
    SEQ_MIN,
    SINGLE,
    STRAIGHT,
    TRIO,
    TRIO_PAIR,
    TRIO_SEQ,
    Combo,
    ComboRules,
    beats_rule,
    bomb_combo,
    combo_rules,
    read_once,
)


class Play(NamedTuple):
    """One legal play: its cards (canonical faces from the hand) and its combination."""

    cards: tuple[int, ...]
    combo: Combo


_SINGLE = {v: Combo(SINGLE, 1, 0, v, 0, "") for v in range(THREE, RJ_V + 1)}
_PAIR = {v: Combo(PAIR, 2, 0, v, 0, "") for v in range(THREE, RJ_V + 1)}
_TRIO = {v: Combo(TRIO, 3, 0, v, 0, "") for v in range(THREE, TWO_V + 1)}
_TRIO_PAIR = {v: Combo(TRIO_PAIR, 5, 0, v, 0, "") for v in range(THREE, RJ_V + 1)}
_SUITED = range(THREE, TWO_V + 1)
SEQ_WIDTH = {STRAIGHT: 1, PAIR_SEQ: 2, TRIO_SEQ: 3}      # sequence type -> cards a value


class _Hand:
    """A hand grouped by value: the faces of each value (face-code order) and availability
    masks (bit v set when the hand holds at least 1, 2, 3 cards of value v; worked out when
    first asked: a single, pair or trio needs none)."""

    __slots__ = ("g", "n", "_avail")

    def __init__(self, hand: tuple[int, ...] | list[int], locked: int | None) -> None:
        g: list[list[int]] = [[] for _ in range(N_VALUES)]
        if locked is None:
            for f in sorted(hand):
                g[VALUE[f]].append(f)
        else:
            for f in sorted(hand):
                if f != locked:
                    g[VALUE[f]].append(f)
        self.g = g
        self.n = len(hand) - (hand.count(locked) if locked is not None else 0)
        self._avail: list[int] | None = None

    @property
    def avail(self) -> list[int]:
        """The availability masks by width 1, 2, 3 (index 0 unused)."""
        avail = self._avail
        if avail is None:
            avail = self._avail = [0, 0, 0, 0]
            g = self.g
            for v in _SUITED:
                k = len(g[v])
                if k:
                    bit = 1 << v
                    avail[1] |= bit
                    if k >= 2:
                        avail[2] |= bit
                        if k >= 3:
                            avail[3] |= bit
        return avail

    def take(self, counts: list[tuple[int, int]]) -> tuple[int, ...]:
        """The canonical cards of (value, count) pairs."""
        g = self.g
        out: list[int] = []
        for v, k in counts:
            out += g[v][:k]
        return tuple(out)


# ---------------------------------------------------------------- one generator per type

def _singles(h: _Hand, above: int) -> Iterator[Play]:
    g = h.g
    for v in range(max(THREE, above + 1), RJ_V + 1):
        if g[v]:
            yield Play((g[v][0],), _SINGLE[v])


def _pairs(h: _Hand, t: ComboRules, above: int) -> Iterator[Play]:
    g = h.g
    for v in t.pair_values:
        if v > above and len(g[v]) >= 2:
            yield Play(tuple(g[v][:2]), _PAIR[v])


def _trios(h: _Hand, above: int) -> Iterator[Play]:
    g = h.g
    for v in _SUITED:
        if v > above and len(g[v]) >= 3:
            yield Play(tuple(g[v][:3]), _TRIO[v])


def _trio_pairs(h: _Hand, t: ComboRules, above: int) -> Iterator[Play]:
    """DDZ-46 / DDZ-59: a trio and a pair of another rank (4-deck: joker trios and pairs)."""
    g = h.g
    pairs = [v for v in t.pair_values if len(g[v]) >= 2]
    for r in t.trio_values:
        if r > above and len(g[r]) >= 3:
            trio = g[r][:3]
            combo = _TRIO_PAIR[r]
            for q in pairs:
                if q != r:
                    yield Play(tuple(trio + g[q][:2]), combo)


def _sequences(h: _Hand, t: ComboRules, w: int, top: Combo | None) -> Iterator[Play]:
    """Straights, pair sequences, trio sequences (w = 1, 2, 3) on the variant's runs."""
    for run in _sequence_runs(h, t, w, top):
        yield _sequence(h, w, run)


def _sequence_runs(h: _Hand, t: ComboRules, w: int, top: Combo | None) -> Iterator[Run]:
    """The runs of ``_sequences``' plays, in its order."""
    avail = h.avail[w]
    lengths = (top.m,) if top is not None else range(SEQ_MIN[w], h.n // w + 1)
    above = top.key if top is not None else -1
    no_aaa222 = t.four and w == 3
    for m in lengths:
        for run in t.runs.get(m, ()):
            if run.top > above and run.mask & avail == run.mask:
                if no_aaa222 and m == 2 and run.start == 1:
                    continue                    # DDZ-62: exactly AAA222
                yield run


def _sequence(h: _Hand, w: int, run: Run) -> Play:
    """The sequence of w cards a value on a run (w = 1, 2, 3: straight, pair or trio
    sequence)."""
    m = len(run.values)
    return Play(h.take([(v, w) for v in run.values]),
                Combo(SEQ_KIND[w], w * m, m, run.top, 0, ""))


def _bodies(h: _Hand, t: ComboRules, top: Combo | None) -> Iterator[tuple[Run, Combo]]:
    """Airplane bodies the hand holds (DDZ-50, DDZ-63) with the airplane's combination."""
    avail = h.avail[3]
    lengths = (top.m,) if top is not None else range(2, h.n // 5 + 1)
    above = top.key if top is not None else -1
    for m in lengths:
        for body in t.runs.get(m, ()):
            if body.mask & avail == body.mask:
                key = t.airplane_key(body)
                if key > above:
                    yield body, Combo(AIRPLANE, 5 * m, m, key, 0, "")


def _airplanes_3v3(h: _Hand, t: ComboRules, top: Combo | None) -> Iterator[Play]:
    """DDZ-50: a body and m pairs of any ranks 3 … 2; ``any``: pairs may repeat and share a
    body rank; ``no_bomb``: m different ranks outside the body."""
    for body, combo in _bodies(h, t, top):
        yield from _wings_3v3(h, t, body, combo)


def _wings_3v3(h: _Hand, t: ComboRules, body: Run, combo: Combo) -> Iterator[Play]:
    """The 3v3 airplanes of one body (``_airplanes_3v3``), in its order."""
    g = h.g
    m = combo.m
    inbody = body.mask
    if t.wings_any:
        cap = [(v, (len(g[v]) - (3 if inbody >> v & 1 else 0)) // 2) for v in _SUITED]
        cap = [(v, k) for v, k in cap if k]
        for wings in _multisets(cap, m):
            yield Play(_winged(h, body, wings), combo)
    else:
        free = [v for v in _SUITED if len(g[v]) >= 2 and not inbody >> v & 1]
        for pick in combinations(free, m):
            yield Play(_winged(h, body, [(v, 1) for v in pick]), combo)


def _winged(h: _Hand, body: Run, wings: list[tuple[int, int]]) -> tuple[int, ...]:
    """The cards of a body plus wings given as (value, number of pairs)."""
    counts = dict.fromkeys(body.values, 3)
    for v, k in wings:
        counts[v] = counts.get(v, 0) + 2 * k
    return h.take(sorted(counts.items()))


def _multisets(cap: list[tuple[int, int]], m: int) -> Iterator[list[tuple[int, int]]]:
    """Every way to choose m items from values with capacities, as (value, how many)."""
    if m == 0:
        yield []
        return
    if not cap:
        return
    (v, k), rest = cap[0], cap[1:]
    for use in range(min(k, m), -1, -1):
        for tail in _multisets(rest, m - use):
            yield [(v, use), *tail] if use else tail


def _airplanes_4deck(h: _Hand, t: ComboRules, top: Combo | None) -> Iterator[Play]:
    """DDZ-63 … DDZ-65: a body and a run of m pairs outside it (m = 2: not AA22, or the
    four jokers BJ BJ RJ RJ)."""
    for body, combo in _bodies(h, t, top):
        yield from _wings_4deck(h, t, body, combo)


def _wings_4deck(h: _Hand, t: ComboRules, body: Run, combo: Combo) -> Iterator[Play]:
    """The 4-deck airplanes of one body (``_airplanes_4deck``), in its order."""
    g = h.g
    avail2 = h.avail[2]
    m = combo.m
    body_counts = [(v, 3) for v in body.values]
    for wing in t.runs.get(m, ()):
        if wing.mask & avail2 == wing.mask and not wing.mask & body.mask \
                and not (m == 2 and wing.start == 1):
            yield Play(h.take(sorted(body_counts + [(v, 2) for v in wing.values])), combo)
    if m == 2 and len(g[BJ_V]) >= 2 and len(g[RJ_V]) >= 2:
        yield Play(h.take(body_counts + [(BJ_V, 2), (RJ_V, 2)]), combo)


def _bombs(h: _Hand, t: ComboRules, level: int) -> Iterator[Play]:
    """Regular bombs (DDZ-51, DDZ-67) and joker bombs (DDZ-52, DDZ-68) above a level."""
    g = h.g
    for v in _SUITED:
        k = len(g[v])
        for n in range(4, k + 1):
            combo = bomb_combo(t, v, n)
            if combo.level > level:
                yield Play(tuple(g[v][:n]), combo)
    b, r = len(g[BJ_V]), len(g[RJ_V])
    if b + r >= 3:
        for (bb, rr), (place, lv) in t.joker_bombs.items():
            if bb <= b and rr <= r and lv > level:
                yield Play(tuple(g[BJ_V][:bb] + g[RJ_V][:rr]),
                           Combo("joker_bomb", bb + rr, 0, 0, lv, place))


def _same_kind(h: _Hand, t: ComboRules, top: Combo | None, kind: str) -> Iterator[Play]:
    """The plays of one non-bomb type that beat the top play (every one on a lead)."""
    above = top.key if top is not None else -1
    if kind == SINGLE:
        return _singles(h, above)
    if kind == PAIR:
        return _pairs(h, t, above)
    if kind == TRIO:
        return _trios(h, above)
    if kind == TRIO_PAIR:
        return _trio_pairs(h, t, above)
    if kind == AIRPLANE:
        return (_airplanes_4deck if t.four else _airplanes_3v3)(h, t, top)
    return _sequences(h, t, SEQ_WIDTH[kind], top)


LEAD_KINDS = (SINGLE, PAIR, TRIO, TRIO_PAIR, STRAIGHT, PAIR_SEQ, TRIO_SEQ, AIRPLANE)


def iter_plays(hand: tuple[int, ...] | list[int], top: Combo | None, variant: str,
               options: Any = None, locked: int | None = None) -> Iterator[Play]:
    """Lazily, every legal play of the hand: any combination on a lead (top None), else one
    that beats the top (DDZ-41, DDZ-42, DDZ-72); never the locked joker (DDZ-70)."""
    t = combo_rules(variant, options)
    h = _Hand(hand, locked)
    if top is None:
        return chain(*(_same_kind(h, t, None, k) for k in LEAD_KINDS), _bombs(h, t, 0))
    if top.level:
        return _bombs(h, t, top.level)
    return chain(_same_kind(h, t, top, top.kind), _bombs(h, t, 0))


def iter_lead_plays(hand: tuple[int, ...] | list[int], kinds: tuple[str, ...], variant: str,
                    options: Any = None, *, bombs: bool = False) -> Iterator[Play]:
    """Lazily, the lead plays of the hand of the given non-bomb types (``LEAD_KINDS``), and
    the bombs if asked: the part of ``iter_plays(hand, None, …)`` a caller needs."""
    t = combo_rules(variant, options)
    h = _Hand(hand, None)
    its = [_same_kind(h, t, None, k) for k in kinds]
    return chain(*its, _bombs(h, t, 0)) if bombs else chain(*its)


def legal_plays(hand: tuple[int, ...] | list[int], top: Combo | None, variant: str,
                options: Any = None, locked: int | None = None) -> list[Play]:
    """Every legal play of the hand, each distinct set of values once (see iter_plays)."""
    return list(iter_plays(hand, top, variant, options, locked))


def has_answer(hand: tuple[int, ...] | list[int], top: Combo | None, variant: str,
               options: Any = None, locked: int | None = None) -> bool:
    """True if the hand holds a legal play against the top play (any play on a lead)."""
    return next(iter_plays(hand, top, variant, options, locked), None) is not None


# ---------------------------------------------------------------- a shedding player's plays

HAND_CACHE = 4096       # grouped hands kept: a seat that passed meets its hand again
_HANDS: dict[tuple[tuple[int, ...], int | None], _Hand] = {}


class HandPlays:
    """The plays a shedding player looks at, of one hand against one top play, worked out on
    demand from the grouped hand without listing the others: whether the whole hand is one
    legal play, the least non-bomb play and the lowest bomb, each the first such play of
    ``iter_plays``' order."""

    __slots__ = ("hand", "top", "t", "h", "locked")

    def __init__(self, hand: tuple[int, ...], top: Combo | None, variant: str,
                 options: Any = None, locked: int | None = None) -> None:
        self.hand, self.top, self.locked = hand, top, locked
        self.t = combo_rules(variant, options)
        key = (hand, locked)
        h = _HANDS.get(key)
        if h is None:
            if len(_HANDS) >= HAND_CACHE:
                _HANDS.clear()
            h = _HANDS[key] = _Hand(hand, locked)
        self.h = h

    def finishes(self) -> bool:
        """True if the whole hand is one legal play (a combination that beats the top play,
        if any; the locked joker never plays). Only the hands that can be such a play are
        read (``combos.read``'s cases): against a bomb, or a top of another size, a bomb (one
        value, or jokers alone); else a hand of at most 10 cards, of 5m cards (an airplane),
        or without jokers holding each value equally often (a sequence, a bomb)."""
        h, n, top = self.h, self.h.n, self.top
        if not n or n != len(self.hand):
            return False
        g = h.g
        jokers = len(g[BJ_V]) + len(g[RJ_V])
        if top is not None and (top.level or n != top.size):
            if jokers != n and (jokers or n < 4 or len(g[VALUE[self.hand[0]]]) != n):
                return False
        elif n > 10 and n % 5 and (jokers or len({len(x) for x in g if x}) != 1):
            return False
        c = read_once(self.hand, self.t)
        return not isinstance(c, str) and (top is None or beats_rule(c, top, self.t) is None)

    def shed(self) -> Play | None:
        """The first non-bomb play of ``iter_plays``' order with the lowest (key, -cards)
        (None: no legal non-bomb play). Each type's least play is taken in that type's order,
        then the types in ``LEAD_KINDS``' order, a later type's only if strictly less."""
        top = self.top
        if top is not None and top.level:
            return None
        best: Play | None = None
        best_key = (0, 0)
        for kind in LEAD_KINDS if top is None else (top.kind,):
            p = _least_of_kind(self.h, self.t, top, kind)
            if p is not None and (best is None or (p.combo.key, -len(p.cards)) < best_key):
                best, best_key = p, (p.combo.key, -len(p.cards))
        return best

    def least_bomb(self) -> Play | None:
        """The first bomb of ``iter_plays``' order with the lowest ladder level that beats
        the top play (None: no bomb does)."""
        top = self.top
        bombs = _bombs(self.h, self.t, top.level if top is not None else 0)
        return min(bombs, key=_level, default=None)


def _least_of_kind(h: _Hand, t: ComboRules, top: Combo | None, kind: str) -> Play | None:
    """The first play of one non-bomb type with the lowest (key, -cards). Singles, pairs,
    trios and trio+pairs have one size a type and come in rising key: their first play."""
    w = SEQ_WIDTH.get(kind)
    if w is not None:
        run = min(_sequence_runs(h, t, w, top), key=_run_order, default=None)
        return None if run is None else _sequence(h, w, run)
    if kind == AIRPLANE:
        wings = _wings_4deck if t.four else _wings_3v3
        for body, combo in sorted(_bodies(h, t, top), key=_body_order):   # stable
            p = next(wings(h, t, body, combo), None)
            if p is not None:
                return p
        return None
    return next(_same_kind(h, t, top, kind), None)


def _run_order(run: Run) -> tuple[int, int]:
    """A sequence's (key, -cards) order: its top, then the longest."""
    return run.top, -len(run.values)


def _body_order(bc: tuple[Run, Combo]) -> tuple[int, int]:
    """An airplane body's (key, -cards) order (every airplane of a body has both)."""
    return bc[1].key, -bc[1].size


def _level(p: Play) -> int:
    return p.combo.level
