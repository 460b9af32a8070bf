"""The search behind 扑克六湖 winning-hand analysis: face-count bitfields, the parts a hand can
split into (groups and pairs, LH-37..LH-41, with the 混子 stand-ins of LH-46) and the memoised
decomposition of a concealed multiset into groups and exactly one pair (LH-36, LH-42, LH-43).

A multiset of the 52 suited faces is one int, one byte per face code (`code = 13*suit+rank`):
byte ``c`` holds the number of copies of face ``c``. A search state adds byte 52 (RJ cards left)
and byte 53 (the pair still to be chosen). Removing a part is a subtraction of its mask, and
``state.to_bytes`` reads every count at once. The search always covers the lowest remaining
face, so every part is filed under the lowest of its real faces (an RJ stands for any member,
LH-46), and each part's presence is a few byte look-ups. The memos are keyed by the state, so
repeated questions about one hand (a replay, an audit, a claim window) are cheap.

This module depends only on ``engine.cards``; ``hand.py`` turns its part ids into groups.
"""

from __future__ import annotations

from itertools import product
from typing import Any, NamedTuple

from engine.cards import is_red

N_SUITED = 52
BITS = 8
ONE = tuple(1 << (BITS * c) for c in range(N_SUITED))
FIELD = (1 << BITS) - 1

# Rank indexes (0 = A … 12 = K) of the special sequences (LH-38).
YI_ER_SAN = (0, 1, 2)        # 壹贰叁: A, 2, 3
ER_QI_SHI = (1, 6, 9)        # 贰柒拾: 2, 7, T
SPECIAL_RANKS = (YI_ER_SAN, ER_QI_SHI)
SEQ_FIRST_RANK = 1           # ordinary sequences start at 2 (A-2-3 of one suit is 壹贰叁, LH-37)
SEQ_LAST_START = 10          # … up to J-Q-K; Q-K-A and K-A-2 do not exist (LH-6, LH-37)
LUCKY_PAIR_RANKS = frozenset({1, 4, 7, 9})   # 2, 5, 8, T (LH-54)

# Values in hu points (section 10).
SEQ_HU = 0                   # LH-47
TRIPLET_EXPOSED_HU = 3       # LH-48
MING_GANG_HU = 6             # LH-49
AN_GANG_HU = 9               # LH-50
SPECIAL_MIXED_HU = 6         # LH-51
SPECIAL_ONE_COLOUR_HU = 12   # LH-52
PAIR_PLAIN_HU = 0            # LH-53
PAIR_LUCKY_HU = 6            # LH-54

PAIR_MATCHES = ("rank", "face")
SPECIAL_SEQUENCES = ("any_suits", "same_colour", "same_suit")


def order_key(code: int) -> int:
    """Display order of faces inside a group: by rank, then suit (s h c d)."""
    return (code % 13) * 4 + code // 13


def mask_of(codes: tuple[int, ...] | list[int]) -> int:
    """The bitfield of a multiset of suited faces."""
    m = 0
    for c in codes:
        m += ONE[c]
    return m


def one_colour(codes: tuple[int, ...]) -> bool:
    """True if every face is red, or every face is black (全红 / 全黑, LH-52)."""
    reds = sum(is_red(c) for c in codes)
    return reds in (0, len(codes))


def special_allowed(codes: tuple[int, ...], special_sequence: str) -> bool:
    """Whether one card of each rank of a special sequence may form it in these suits (LH-38)."""
    if special_sequence == "same_suit":
        return len({c // 13 for c in codes}) == 1
    if special_sequence == "same_colour":
        return one_colour(codes)
    return True


def special_value(codes: tuple[int, ...]) -> int:
    """Value of a special sequence: 12 one colour (LH-52), 6 mixed (LH-51)."""
    return SPECIAL_ONE_COLOUR_HU if one_colour(codes) else SPECIAL_MIXED_HU


def pair_value(code: int) -> int:
    """Value of a pair of this face's rank: 6 for 2, 5, 8, T (LH-54), else 0 (LH-53)."""
    return PAIR_LUCKY_HU if code % 13 in LUCKY_PAIR_RANKS else PAIR_PLAIN_HU


def group_kind(codes: tuple[int, ...], special_sequence: str) -> str | None:
    """The kind of a 3-card group of concealed faces ("seq", "special", "triplet"), None if none.

    LH-37 (a one-suit A-2-3 is the special 壹贰叁), LH-38, LH-39."""
    if len(codes) != 3:
        return None
    if codes[0] == codes[1] == codes[2]:
        return "triplet"
    ranks = sorted(c % 13 for c in codes)
    if tuple(ranks) in SPECIAL_RANKS and special_allowed(codes, special_sequence):
        return "special"
    if len({c // 13 for c in codes}) == 1 and ranks[1] == ranks[0] + 1 == ranks[2] - 1 \
            and SEQ_FIRST_RANK <= ranks[0] <= SEQ_LAST_START:
        return "seq"
    return None


def is_pair(codes: tuple[int, ...], pair_match: str) -> bool:
    """Two cards of one rank (``rank``) or of one face (``face``) (LH-41)."""
    if len(codes) != 2:
        return False
    if pair_match == "face":
        return codes[0] == codes[1]
    return codes[0] % 13 == codes[1] % 13


class Part(NamedTuple):
    """A group or the pair of the concealed cards, as the search sees it."""

    kind: str                   # "seq" | "special" | "triplet" | "pair"
    faces: tuple[int, ...]      # the faces as scored, in display order (an RJ as its face)
    wild: int                   # the face an RJ stands for in this part, -1 if none (LH-46)
    mask: int                   # bitfield of the real (non-RJ) cards
    value: int                  # hu points; a triplet's is its exposed value (LH-48)

    def real_count(self, code: int) -> int:
        """Copies of ``code`` among the real cards of the part."""
        return self.faces.count(code) - (self.wild == code)


FM = tuple(FIELD << (BITS * c) for c in range(N_SUITED))     # the field of face c
XMASK = (1 << (BITS * N_SUITED)) - 1                        # every face field
WILD_FLAG = 1 << (BITS * N_SUITED)                          # byte 52: RJ cards left
PAIR_FLAG = 1 << (BITS * (N_SUITED + 1))                    # byte 53: the pair still needed
STATE_BYTES = N_SUITED + 2
MEMO_LIMIT = 1 << 17                                        # entries kept per memo table


def count_of(x: int, code: int) -> int:
    """Copies of face ``code`` in the multiset ``x``."""
    return (x >> (BITS * code)) & FIELD


class Best(NamedTuple):
    """The best split value of a multiset, with the part ids that reach it.

    ``free`` is the best over the splits where a part other than a triplet holds a real copy of
    the winning card (so its exposure costs nothing, LH-48), ``any`` the best over all splits;
    both count a concealed triplet at ``concealed_triplet_hu``."""

    any_value: int
    any_parts: tuple[int, ...]
    free_value: int | None
    free_parts: tuple[int, ...]


_MISSING = object()


class Tables:
    """Every part under one (pair_match, special_sequence) and the memoised searches.

    A search state is one int: the face bytes of the cards left, byte 52 the RJ cards left,
    byte 53 set while the pair is still to be chosen. A candidate part is (part id, delta): the
    state after it is ``state - delta``."""

    def __init__(self, pair_match: str, special_sequence: str) -> None:
        self.pair_match = pair_match
        self.special_sequence = special_sequence
        self.parts: list[Part] = []
        n = N_SUITED
        # Candidates are (part id, delta) pairs, filed under the lowest face f with the other
        # faces (and counts) they need: triplet; sequence (f+1, f+2, cand); pairs (g, count of
        # g needed, cand); specials {g: [(h, cand)]}.
        self._trip: list[tuple[int, int]] = [(0, 0)] * n
        self._seq: list[tuple[int, int, tuple[int, int]] | None] = [None] * n
        self._pairs: list[list[tuple[int, int, tuple[int, int]]]] = [[] for _ in range(n)]
        specials: list[dict[int, list[tuple[int, tuple[int, int]]]]] = [{} for _ in range(n)]
        # With the RJ, by the lowest real face f: groups (the other real face g, count of g
        # needed, cands), pairs cand.
        wgroups: list[list[tuple[int, int, tuple[int, int]]]] = [[] for _ in range(n)]
        wpairs: list[list[tuple[int, int]]] = [[] for _ in range(n)]
        for kind, faces, value in self._templates():
            pid = self._add(kind, faces, -1, value)
            f = min(faces)
            mask = mask_of(faces)
            if kind == "triplet":
                self._trip[f] = (pid, mask)
            elif kind == "seq":
                self._seq[f] = (f + 1, f + 2, (pid, mask))
            elif kind == "pair":
                g = max(faces)
                self._pairs[f].append((g, 2 if g == f else 1, (pid, mask + PAIR_FLAG)))
            else:
                g, h = sorted(faces)[1:]
                specials[f].setdefault(g, []).append((h, (pid, mask)))
            for wild in sorted(set(faces)):
                real = list(faces)
                real.remove(wild)
                wpid = self._add(kind, faces, wild, value)
                delta = mask_of(real) + WILD_FLAG + (PAIR_FLAG if kind == "pair" else 0)
                low = min(real)
                if kind == "pair":
                    wpairs[low].append((wpid, delta))
                else:
                    real.remove(low)
                    g = real[0]
                    wgroups[low].append((g, 2 if g == low else 1, (wpid, delta)))
        # Per lowest face f: ((second face g, ((third face h, cand), ...)), ...).
        self._specials = tuple(tuple((g, tuple(hs)) for g, hs in sorted(d.items()))
                               for d in specials)
        self._wgroups = tuple(self._by_other(x) for x in wgroups)
        self._wpairs = tuple(tuple(x) for x in wpairs)
        self.values = {cth: [p.value + (cth - TRIPLET_EXPOSED_HU) * (p.kind == "triplet")
                             for p in self.parts] for cth in (3, 6)}
        # Faces a part can hold the winning card with at no cost: the real cards of a part
        # that is not a triplet (LH-48).
        self._free = [frozenset() if p.kind == "triplet" else
                      frozenset(c for c in p.faces if p.real_count(c)) for p in self.parts]
        self._wild_of = [p.wild for p in self.parts]
        # The parts with an RJ by each of their real faces f: (the other real face or -1, the
        # copies of it needed with f's, cand) -- a waits search whose one isolated face must
        # share its part with the added card starts from these (see ``waits``).
        with_face: list[list[tuple[int, int, tuple[int, int]]]] = [[] for _ in range(n)]
        for pid, p in enumerate(self.parts):
            if p.wild < 0:
                continue
            real = list(p.faces)
            real.remove(p.wild)
            delta = p.mask + WILD_FLAG + (PAIR_FLAG if p.kind == "pair" else 0)
            for f in sorted(set(real)):
                rest = list(real)
                rest.remove(f)
                g = rest[0] if rest else -1
                with_face[f].append((g, 1 + (g == f), (pid, delta)))
        self._with_face = tuple(tuple(x) for x in with_face)
        self._needs, self._joins = self._isolation_tables()
        self._best_memo: dict[tuple[int, int], dict[int, Any]] = {}
        self._dec_memo: dict[int, tuple[tuple[int, ...], ...]] = {}
        self._wait_memo: dict[int, dict[int, dict[int, int]]] = {}
        self._value_memo: dict[int, dict[int, int]] = {}          # _value's, per cth
        self._wait_values: dict[int, dict[int, dict[int, int]]] = {}   # _waits_v's, per cth
        # waits' answers by multiset: [concealed_triplet_hu 6, concealed_triplet_hu 3]
        self._waits_of: tuple[dict[int, dict[int, int]], dict[int, dict[int, int]]] = ({}, {})

    @staticmethod
    def _by_other(cands: list[tuple[int, int, tuple[int, int]]]
                  ) -> tuple[tuple[int, int, tuple[tuple[int, int], ...]], ...]:
        """(g, need, cand) rows grouped by (g, need): one look-up of g serves them all."""
        grouped: dict[tuple[int, int], list[tuple[int, int]]] = {}
        for g, need, cand in cands:
            grouped.setdefault((g, need), []).append(cand)
        return tuple((g, need, tuple(c)) for (g, need), c in sorted(grouped.items()))

    def _templates(self) -> list[tuple[str, tuple[int, ...], int]]:
        out: list[tuple[str, tuple[int, ...], int]] = []
        for c in range(N_SUITED):                                   # LH-39
            out.append(("triplet", (c, c, c), TRIPLET_EXPOSED_HU))
        for s in range(4):                                          # LH-37
            for r in range(SEQ_FIRST_RANK, SEQ_LAST_START + 1):
                out.append(("seq", (13 * s + r, 13 * s + r + 1, 13 * s + r + 2), SEQ_HU))
        for ranks in SPECIAL_RANKS:                                 # LH-38
            for suits in product(range(4), repeat=3):
                faces = tuple(13 * s + r for s, r in zip(suits, ranks, strict=True))
                if special_allowed(faces, self.special_sequence):
                    out.append(("special", faces, special_value(faces)))
        for r in range(13):                                         # LH-41
            for a in range(4):
                for b in range(a, 4):
                    if a == b or self.pair_match == "rank":
                        out.append(("pair", (13 * a + r, 13 * b + r), pair_value(r)))
        return out

    def _add(self, kind: str, faces: tuple[int, ...], wild: int, value: int) -> int:
        real = list(faces)
        if wild >= 0:
            real.remove(wild)
        self.parts.append(Part(kind, tuple(sorted(faces, key=order_key)), wild, mask_of(real),
                               value))
        return len(self.parts) - 1

    def _isolation_tables(self) -> tuple[tuple[tuple[tuple[int, int], ...], ...],
                                         dict[tuple[int, int], tuple[int, ...]]]:
        """Per face f, what a multiset needs so that one copy of f is in some part with other
        cards of it: rows (A, B) of face-field masks, met when the multiset has a card in A and
        one in B (a second copy of f always does); and for two faces the third faces that make
        a 3-card group of distinct faces with them. Built from the parts, so exact."""
        singles = [0] * N_SUITED
        twos: list[dict[int, int]] = [{} for _ in range(N_SUITED)]
        joins: dict[tuple[int, int], set[int]] = {}
        for p in self.parts:
            if p.wild >= 0:
                continue
            for f in set(p.faces):
                rest = list(p.faces)
                rest.remove(f)
                if f in rest:
                    continue                      # a second copy of f: n[f] >= 2
                if len(rest) == 1:
                    singles[f] |= FM[rest[0]]
                else:
                    g, h = sorted(rest, key=lambda c: (c % 13, c // 13))
                    twos[f][g] = twos[f].get(g, 0) | FM[h]
            if p.kind in ("seq", "special") and len(set(p.faces)) == 3:
                for i, a in enumerate(p.faces):
                    for b in p.faces[i + 1:]:
                        third = next(c for c in p.faces if c not in (a, b))
                        joins.setdefault((min(a, b), max(a, b)), set()).add(third)
        needs = []
        for f in range(N_SUITED):
            by_h: dict[int, int] = {}
            for g, hm in twos[f].items():
                by_h[hm] = by_h.get(hm, 0) | FM[g]
            rows = [(singles[f], singles[f])] if singles[f] else []
            rows += [(gm, hm) for hm, gm in sorted(by_h.items())]
            needs.append(tuple(rows))
        return tuple(needs), {k: tuple(sorted(v)) for k, v in joins.items()}

    def isolated(self, x: int, limit: int = 3) -> list[int]:
        """The faces of the multiset ``x`` (no RJ) held once that are in no part with other
        cards of ``x``, in order, at most ``limit`` of them. Every split of ``x`` plus one card
        puts that card in the part of each of them."""
        n = x.to_bytes(N_SUITED, "little")
        needs = self._needs
        out: list[int] = []
        i = n.find(1)
        while i >= 0:
            for a, b in needs[i]:
                if x & a and x & b:
                    break
            else:
                out.append(i)
                if len(out) >= limit:
                    return out
            i = n.find(1, i + 1)
        return out

    def clear(self) -> None:
        """Forget every memoised result (for cold-cache measurements)."""
        self._best_memo.clear()
        self._dec_memo.clear()
        self._wait_memo.clear()
        self._value_memo.clear()
        self._wait_values.clear()
        for known in self._waits_of:
            known.clear()

    def candidates(self, s: int) -> list[tuple[int, int]]:
        """The parts that can hold the lowest remaining face of state ``s`` (which has one):
        (part id, delta)."""
        f = ((s & -s).bit_length() - 1) >> 3
        n = s.to_bytes(STATE_BYTES, "little")
        out: list[tuple[int, int]] = []
        add = out.append
        if n[f] >= 3:
            add(self._trip[f])
        seq = self._seq[f]
        if seq is not None and n[seq[0]] and n[seq[1]]:
            add(seq[2])
        for g, hs in self._specials[f]:
            if n[g]:
                for h, cand in hs:
                    if n[h]:
                        add(cand)
        pair = n[53]
        if pair:
            for g, need, cand in self._pairs[f]:
                if n[g] >= need:
                    add(cand)
        if n[52]:
            for g, need, cands in self._wgroups[f]:
                if n[g] >= need:
                    out.extend(cands)
            if pair:
                out.extend(self._wpairs[f])
        return out

    def decompose(self, x: int, wild: int, pair: bool = True) -> tuple[tuple[int, ...], ...]:
        """Every multiset of part ids (sorted tuples) that uses exactly the cards of ``x`` plus
        ``wild`` RJ cards, with one pair if ``pair``; the caller ensures the card count fits."""
        memo = self._dec_memo
        if len(memo) > MEMO_LIMIT:
            memo.clear()
        cands = self.candidates

        def rec(s: int) -> tuple[tuple[int, ...], ...]:
            r = memo.get(s)
            if r is not None:
                return r
            if not s & XMASK:
                r = ((),) if s == 0 else ()
            else:
                found = set()
                for pid, delta in cands(s):
                    for rest in rec(s - delta):
                        found.add(tuple(sorted((*rest, pid))))
                r = tuple(sorted(found))
            memo[s] = r
            return r

        return rec(x + wild * WILD_FLAG + (PAIR_FLAG if pair else 0))

    def best(self, x: int, wild: int, pair: bool, cth: int, w: int) -> Best | None:
        """The best split of ``x`` plus ``wild`` RJ cards (see Best), concealed triplets worth
        ``cth``; ``w`` is the winning face whose holder counts as exposed, -1 if none (自摸, or
        when exposure cannot change a value)."""
        memo = self._best_memo.get((cth, w))
        if memo is None or len(memo) > MEMO_LIMIT:
            memo = self._best_memo[(cth, w)] = {}
        s = x + wild * WILD_FLAG + (PAIR_FLAG if pair else 0)
        if w < 0:
            r = self._best_plain(s, memo, self.values[cth])
            return None if r is None else Best(r[0], r[1], None, ())
        rw = self._best_w(s, memo, self.values[cth], w)
        if rw is None:
            return None
        return Best(rw[0], rw[1], rw[2] if rw[2] >= 0 else None, rw[3])

    def _best_plain(self, s: int, memo: dict[int, Any], values: list[int]
                    ) -> tuple[int, tuple[int, ...]] | None:
        r = memo.get(s, _MISSING)
        if r is not _MISSING:
            return r
        if not s & XMASK:
            r = (0, ()) if s == 0 else None
        else:
            bv = -1
            bp: tuple[int, ...] = ()
            rec = self._best_plain
            get = memo.get
            for pid, delta in self.candidates(s):
                rest = get(s - delta, _MISSING)
                if rest is _MISSING:
                    rest = rec(s - delta, memo, values)
                if rest is not None and values[pid] + rest[0] > bv:
                    bv = values[pid] + rest[0]
                    bp = (*rest[1], pid)
            r = (bv, bp) if bv >= 0 else None
        memo[s] = r
        return r

    def _value(self, s: int, memo: dict[int, int], values: list[int]) -> int:
        """The best value of state ``s`` split whole (``_best_plain``'s value without its
        parts), -1 if it has no split: what ``waits`` needs."""
        r = memo.get(s)
        if r is not None:
            return r
        if not s & XMASK:
            r = 0 if s == 0 else -1
        else:
            r = -1
            get = memo.get
            rec = self._value
            for pid, delta in self.candidates(s):
                rest = get(s - delta)
                if rest is None:
                    rest = rec(s - delta, memo, values)
                if rest >= 0 and values[pid] + rest > r:
                    r = values[pid] + rest
        memo[s] = r
        return r

    def _best_w(self, s: int, memo: dict[int, Any], values: list[int], w: int
                ) -> tuple[int, tuple[int, ...], int, tuple[int, ...]] | None:
        r = memo.get(s, _MISSING)
        if r is not _MISSING:
            return r
        if not s & XMASK:
            r = (0, (), -1, ()) if s == 0 else None
        else:
            any_v, free_v = -1, -1
            any_p: tuple[int, ...] = ()
            free_p: tuple[int, ...] = ()
            free = self._free
            rec = self._best_w
            for pid, delta in self.candidates(s):
                rest = rec(s - delta, memo, values, w)
                if rest is None:
                    continue
                v = values[pid]
                if v + rest[0] > any_v:
                    any_v, any_p = v + rest[0], (*rest[1], pid)
                if w in free[pid]:
                    if v + rest[0] > free_v:
                        free_v, free_p = v + rest[0], (*rest[1], pid)
                elif rest[2] >= 0 and v + rest[2] > free_v:
                    free_v, free_p = v + rest[2], (*rest[3], pid)
            r = (any_v, any_p, free_v, free_p) if any_v >= 0 else None
        memo[s] = r
        return r


    def waits(self, x: int, cth: int) -> dict[int, int]:
        """For concealed cards one short of a split (``x``, no RJ): each face that completes
        them -> the best value of the concealed parts with it added, concealed triplets worth
        ``cth`` (the winning card's exposure is the caller's business). One search with the
        missing card as a stand-in (the RJ machinery of LH-46) answers all 52 faces. The
        answer is kept per multiset (a hand is asked again for 放铳, 抢杠胡 and 自摸); do not
        change it."""
        known = self._waits_of[cth == TRIPLET_EXPOSED_HU]
        r = known.get(x)
        if r is not None:
            return r
        if len(known) > MEMO_LIMIT:
            known.clear()
        r = known[x] = self._search_waits(x, cth)
        return r

    def _search_waits(self, x: int, cth: int) -> dict[int, int]:
        """``waits`` worked out (``_reference_waits`` with one more shortcut): the added card
        joins the part of every isolated face, so three or more isolated faces admit none; two
        share it only in a 3-card group (its third faces are tried); one is in a part with the
        added card, so the search starts from the parts of that face with a stand-in."""
        iso = self.isolated(x)
        if len(iso) >= 3:
            return {}
        plain = self._value_memo.get(cth)
        if plain is None or len(plain) > MEMO_LIMIT:
            plain = self._value_memo[cth] = {}
        values = self.values[cth]
        out: dict[int, int] = {}
        if len(iso) == 2:
            for c in self._joins.get((iso[0], iso[1]), ()):
                v = self._value(x + ONE[c] + PAIR_FLAG, plain, values)
                if v >= 0:
                    out[c] = v
            return out
        s = x + WILD_FLAG + PAIR_FLAG
        if len(iso) == 1:
            wild_of = self._wild_of
            for g, need, (pid, delta) in self._with_face[iso[0]]:
                if g >= 0 and (x >> (BITS * g)) & FIELD < need:
                    continue
                rest = self._value(s - delta, plain, values)
                if rest >= 0:
                    u = wild_of[pid]
                    v = values[pid] + rest
                    if v > out.get(u, -1):
                        out[u] = v
            return out
        memo = self._wait_values.get(cth)
        if memo is None or len(memo) > MEMO_LIMIT:
            memo = self._wait_values[cth] = {}
        return self._waits_v(s, memo, plain, values)

    def _waits_v(self, s: int, memo: dict[int, dict[int, int]], plain: dict[int, int],
                 values: list[int]) -> dict[int, int]:
        """``_waits`` on the value-only search (``_value``)."""
        r = memo.get(s)
        if r is not None:
            return r
        out: dict[int, int] = {}
        if s & XMASK:
            wild_of = self._wild_of
            for pid, delta in self.candidates(s):
                v = values[pid]
                u = wild_of[pid]
                if u >= 0:
                    rest = self._value(s - delta, plain, values)
                    if rest >= 0 and v + rest > out.get(u, -1):
                        out[u] = v + rest
                else:
                    for face, t in self._waits_v(s - delta, memo, plain, values).items():
                        if v + t > out.get(face, -1):
                            out[face] = v + t
        memo[s] = out
        return out

    def _reference_waits(self, x: int, cth: int) -> dict[int, int]:
        """``waits`` as first written (no memo of the answers, every hand with fewer than two
        isolated faces searched whole): the reference ``waits`` is tested against."""
        memo = self._wait_memo.get(cth)
        if memo is None or len(memo) > MEMO_LIMIT:
            memo = self._wait_memo[cth] = {}
        plain = self._best_memo.get((cth, -1))
        if plain is None or len(plain) > MEMO_LIMIT:
            plain = self._best_memo[(cth, -1)] = {}
        values = self.values[cth]
        # The added card joins the part of every isolated face: three or more cannot share
        # it; two share it only in a 3-card group, so only its third faces can complete them.
        iso = self.isolated(x)
        if len(iso) >= 3:
            return {}
        if len(iso) == 2:
            out: dict[int, int] = {}
            for c in self._joins.get((iso[0], iso[1]), ()):
                r = self._best_plain(x + ONE[c] + PAIR_FLAG, plain, values)
                if r is not None:
                    out[c] = r[0]
            return out
        return self._waits(x + WILD_FLAG + PAIR_FLAG, memo, plain, values)

    def _waits(self, s: int, memo: dict[int, dict[int, int]], plain: dict[int, Any],
               values: list[int]) -> dict[int, int]:
        r = memo.get(s)
        if r is not None:
            return r
        out: dict[int, int] = {}
        if s & XMASK:
            wild_of = self._wild_of
            for pid, delta in self.candidates(s):
                v = values[pid]
                u = wild_of[pid]
                if u >= 0:
                    rest = self._best_plain(s - delta, plain, values)
                    if rest is not None and v + rest[0] > out.get(u, -1):
                        out[u] = v + rest[0]
                else:
                    for face, t in self._waits(s - delta, memo, plain, values).items():
                        if v + t > out.get(face, -1):
                            out[face] = v + t
        memo[s] = out
        return out


_TABLES: dict[tuple[str, str], Tables] = {}


def clear_all() -> None:
    """Forget the memoised results of every table."""
    for t in _TABLES.values():
        t.clear()


def tables(pair_match: str, special_sequence: str) -> Tables:
    """The (cached) parts and search for these options."""
    key = (pair_match, special_sequence)
    t = _TABLES.get(key)
    if t is None:
        t = _TABLES[key] = Tables(pair_match, special_sequence)
    return t
