"""扑克六湖 winning hands: every split of a hand into groups and one pair, its hu points, the
best split, the threshold and the audit of a recorded split (rules LH-36 … LH-58, LH-5, LH-32,
LH-45, LH-46, LH-73).

Stands alone (only ``engine.cards`` and ``engine.errors``), so the game layer, the auditor and
the bots share one definition of a win. The search itself is in ``split.py``.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from operator import itemgetter
from typing import Any, NamedTuple

from engine.cards import RED_JOKER, format_face, parse_face
from engine.errors import InvalidEvent
from engine.games.liuhu.split import (
    AN_GANG_HU,
    MING_GANG_HU,
    ONE,
    PAIR_MATCHES,
    SPECIAL_SEQUENCES,
    TRIPLET_EXPOSED_HU,
    Part,
    Tables,
    clear_all,
    count_of,
    group_kind,
    is_pair,
    order_key,
    pair_value,
    special_value,
    tables,
)

WINS = ("zimo", "fangchong", "qianggang")
MELD_KINDS = ("chi", "peng", "ming_gang", "an_gang")
GROUP_KINDS = ("seq", "special", "triplet", "ming_gang", "an_gang")
ZIMO_BONUS = 3              # LH-55; 放铳 and 抢杠胡 add nothing (LH-56, LH-57)
BONUS_RULE = {"zimo": "LH-55", "fangchong": "LH-56", "qianggang": "LH-57"}
_MELD_GROUP_KIND = {"peng": "triplet", "ming_gang": "ming_gang", "an_gang": "an_gang"}


def _bad(message: str, field: str) -> InvalidEvent:
    return InvalidEvent(message, field=field)


@dataclass(frozen=True, slots=True)
class HandRules:
    """The options that decide a win and its value (section 4, LH-8 defaults)."""

    groups: int = 4
    pair_match: str = "rank"
    special_sequence: str = "any_suits"
    concealed_triplet_hu: int = 3
    min_hu: int = 15
    zimo_bonus_counts: bool = True

    def __post_init__(self) -> None:
        allowed: dict[str, tuple[Any, ...]] = {
            "groups": (4, 5), "pair_match": PAIR_MATCHES,
            "special_sequence": SPECIAL_SEQUENCES, "concealed_triplet_hu": (3, 6),
            "zimo_bonus_counts": (True, False),
        }
        for name, values in allowed.items():
            v = getattr(self, name)
            if v not in values or type(v) is not type(values[0]):
                raise _bad(f"option {name} is {v!r}; allowed: "
                           + ", ".join(repr(a) for a in values), name)
        if type(self.min_hu) is not int or not 0 <= self.min_hu <= 99:
            raise _bad(f"option min_hu is {self.min_hu!r}; allowed: an integer 0-99", "min_hu")

    @classmethod
    def of(cls, options: Any) -> HandRules:
        """The hand rules of an options object or dict (extra fields ignored; every field of
        HandRules must be there; zimo_bonus_counts may be "yes"/"no")."""
        values: dict[str, Any] = {}
        for name in cls.__slots__:  # type: ignore[attr-defined]
            if isinstance(options, dict):
                if name not in options:
                    raise _bad(f"options lack {name}", name)
                v = options[name]
            else:
                if not hasattr(options, name):
                    raise _bad(f"options lack {name}", name)
                v = getattr(options, name)
            if name == "zimo_bonus_counts" and isinstance(v, str):
                if v not in ("yes", "no"):
                    raise _bad(f"option zimo_bonus_counts is {v!r}; allowed: 'yes', 'no'", name)
                v = v == "yes"
            values[name] = v
        return cls(**values)


class Meld(NamedTuple):
    """A laid-down meld (LH-42: fixed, never rearranged); a 加杠 makes kind "ming_gang"."""

    kind: str                # "chi" | "peng" | "ming_gang" | "an_gang"
    cards: tuple[int, ...]   # face codes as laid down (3 or 4)


class Group(NamedTuple):
    """One group of a split with its exposure (LH-58) and value (LH-47..LH-52)."""

    kind: str                # "seq" | "special" | "triplet" | "ming_gang" | "an_gang"
    cards: tuple[int, ...]   # faces as scored, by rank then suit (an RJ as its face)
    exposed: bool
    value: int
    meld: bool
    wild: tuple[int, ...] = ()
    holds_winning: bool = False

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form, faces as text."""
        return {"kind": self.kind, "cards": [format_face(c) for c in self.cards],
                "exposed": self.exposed, "value": self.value, "meld": self.meld,
                "wild": [format_face(c) for c in self.wild],
                "holds_winning": self.holds_winning}


class Pair(NamedTuple):
    """The pair of a split (LH-41) and its value (LH-53, LH-54)."""

    cards: tuple[int, ...]
    value: int
    wild: tuple[int, ...] = ()
    holds_winning: bool = False

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form, faces as text."""
        return {"cards": [format_face(c) for c in self.cards], "value": self.value,
                "wild": [format_face(c) for c in self.wild],
                "holds_winning": self.holds_winning}


def _faces(value: Any, what: str) -> tuple[int, ...]:
    if not isinstance(value, list | tuple):
        raise _bad(f"{what} must be a list of faces, not {type(value).__name__}", "split")
    out = []
    for t in value:
        try:
            c = parse_face(t)
        except InvalidEvent:
            raise _bad(f"{what}: {t!r} is not a card face", "split") from None
        out.append(c)
    return tuple(out)


def _check_keys(d: Any, required: set[str], optional: set[str], what: str) -> None:
    if not isinstance(d, dict):
        raise _bad(f"{what} must be an object, not {type(d).__name__}", "split")
    missing = required - d.keys()
    extra = d.keys() - required - optional
    if missing or extra:
        raise _bad(f"{what}: missing {sorted(missing)}, unknown {sorted(map(str, extra))}",
                   "split")


def _int(v: Any, what: str) -> int:
    if type(v) is not int:
        raise _bad(f"{what} must be an integer, not {v!r}", "split")
    return v


def _bool(v: Any, what: str) -> bool:
    if type(v) is not bool:
        raise _bad(f"{what} must be true or false, not {v!r}", "split")
    return v


class Split(NamedTuple):
    """A winning split: the g groups (melds first), the pair, the bonus and the total (LH-58)."""

    groups: tuple[Group, ...]
    pair: Pair
    bonus: int
    total: int

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form for the ``hu`` event and the audit (faces as text)."""
        return {"groups": [g.to_dict() for g in self.groups], "pair": self.pair.to_dict(),
                "bonus": self.bonus, "total": self.total}

    @classmethod
    def from_dict(cls, d: Any) -> Split:
        """Inverse of to_dict; InvalidEvent(field="split") on anything malformed."""
        _check_keys(d, {"groups", "pair", "bonus", "total"}, set(), "split")
        if not isinstance(d["groups"], list):
            raise _bad("split groups must be a list", "split")
        groups = []
        for i, g in enumerate(d["groups"]):
            what = f"group {i}"
            _check_keys(g, {"kind", "cards", "exposed", "value", "meld"},
                        {"wild", "holds_winning"}, what)
            if g["kind"] not in GROUP_KINDS:
                raise _bad(f"{what}: kind {g['kind']!r} is not one of {GROUP_KINDS}", "split")
            groups.append(Group(g["kind"], _faces(g["cards"], what), _bool(g["exposed"], what),
                                _int(g["value"], what), _bool(g["meld"], what),
                                _faces(g.get("wild", []), what),
                                _bool(g.get("holds_winning", False), what)))
        p = d["pair"]
        _check_keys(p, {"cards", "value"}, {"wild", "holds_winning"}, "pair")
        pair = Pair(_faces(p["cards"], "pair"), _int(p["value"], "pair"),
                    _faces(p.get("wild", []), "pair"),
                    _bool(p.get("holds_winning", False), "pair"))
        return cls(tuple(groups), pair, _int(d["bonus"], "bonus"), _int(d["total"], "total"))


# ---------------------------------------------------------------------------------------------
# Normalising the inputs


_ONE_OR_RJ = (*ONE, 0, 0)      # face code -> its bit in the multiset; BJ and RJ add none


def _count(concealed: Sequence[int]) -> tuple[int, int]:
    """(bitfield of the suited cards, number of RJ) of the concealed cards (LH-5: at most one).

    Counted into one byte a face code and read as the bitfield at once; anything unusual (a
    code out of range, a black joker, two RJ, not an int) goes to ``_reference_count``,
    which raises as it always did."""
    counts = bytearray(54)
    try:
        for c in concealed:
            counts[c] += 1
        ok = not concealed or min(concealed) >= 0
    except (TypeError, IndexError, ValueError):
        ok = False
    if not ok or counts[52] or counts[53] > 1:
        return _reference_count(concealed)
    return int.from_bytes(counts[:52], "little"), counts[53]


def _reference_count(concealed: Sequence[int]) -> tuple[int, int]:
    """``_count`` as first written (a sum of one-card bitfields): the reference, and the
    one that raises on bad input."""
    try:
        x = sum(map(_ONE_OR_RJ.__getitem__, concealed))
        ok = not concealed or (min(concealed) >= 0 and RED_JOKER - 1 not in concealed)
    except (TypeError, IndexError):
        ok = False
    if not ok:
        bad = [c for c in concealed if type(c) is not int or not (0 <= c < 52 or c == RED_JOKER)]
        raise _bad(f"{bad[:1]!r} is not a suited face code or RJ", "cards")
    wild = concealed.count(RED_JOKER)
    if wild > 1:
        raise _bad(f"{wild} RJ among the concealed cards; the pack has at most one (LH-5)",
                   "cards")
    return x, wild


def _meld_group(meld: Meld, rules: HandRules) -> Group | None:
    """The group a meld scores as (LH-42, LH-47..LH-52, LH-58), None if its cards are not one."""
    if meld.kind not in MELD_KINDS:
        raise _bad(f"meld kind {meld.kind!r} is not one of {MELD_KINDS}", "melds")
    cards = tuple(meld.cards)
    for c in cards:
        if type(c) is not int or not (0 <= c < 52 or c == RED_JOKER):
            raise _bad(f"{c!r} is not a suited face code or RJ", "melds")
    if RED_JOKER in cards:                               # LH-32
        return None
    shown = tuple(sorted(cards, key=order_key))
    if meld.kind == "chi":
        kind = group_kind(shown, rules.special_sequence)
        if kind == "seq":
            return Group("seq", shown, True, 0, True)
        if kind == "special":
            return Group("special", shown, True, special_value(shown), True)
        return None
    size = 3 if meld.kind == "peng" else 4
    if len(cards) != size or len(set(cards)) != 1:
        return None
    value = {"peng": TRIPLET_EXPOSED_HU, "ming_gang": MING_GANG_HU, "an_gang": AN_GANG_HU}
    return Group(_MELD_GROUP_KIND[meld.kind], shown, meld.kind != "an_gang",
                 value[meld.kind], True)


@lru_cache(maxsize=4096)
def _melds_of(melds: tuple[Meld, ...], rules: HandRules) -> tuple[Group, ...] | None:
    groups = []
    for m in melds:
        g = _meld_group(m if isinstance(m, Meld) else Meld(*m), rules)
        if g is None:
            return None
        groups.append(g)
    return tuple(groups)


class _Hand(NamedTuple):
    table: Tables
    x: int
    wild: int
    meld_groups: tuple[Group, ...]
    w: int            # the winning face whose part counts as exposed, -1 for 自摸 (LH-43)


def _prepare(concealed: Sequence[int], melds: Sequence[Meld], rules: HandRules, win: str,
             winning_card: int | None) -> _Hand | None:
    """Validated inputs, or None when the cards cannot be a winning shape at all."""
    if win not in WINS:
        raise _bad(f"win {win!r} is not one of {WINS}", "win")
    x, wild = _count(concealed)
    meld_groups = _melds_of(tuple(melds), rules)
    w = -1
    if win != "zimo":
        if winning_card is None:
            raise _bad(f"a {win} win needs its winning card", "card")
        if winning_card == RED_JOKER:                  # LH-32: a discarded RJ is never won on
            return None
        if type(winning_card) is not int or not 0 <= winning_card < 52:
            raise _bad(f"{winning_card!r} is not a suited face code or RJ", "card")
        if not count_of(x, winning_card):              # LH-43: it is among the concealed cards
            return None
        w = winning_card
    if meld_groups is None:
        return None
    if len(concealed) != 3 * (rules.groups - len(meld_groups)) + 2:   # LH-36
        return None
    return _Hand(tables(rules.pair_match, rules.special_sequence), x, wild, meld_groups, w)


def _bonus(win: str) -> int:
    return ZIMO_BONUS if win == "zimo" else 0


# ---------------------------------------------------------------------------------------------
# Scoring


def _best(h: _Hand, cth: int) -> tuple[int, tuple[int, ...], int] | None:
    """(value of the concealed parts, their part ids, the part holding the winning card or -1)
    of the best split (LH-44), None if there is no split."""
    bump = cth - TRIPLET_EXPOSED_HU
    w = h.w if bump else -1
    b = h.table.best(h.x, h.wild, True, cth, w)
    if b is None:
        return None
    parts = h.table.parts
    value, dec, free = b.any_value, tuple(sorted(b.any_parts)), False
    if w >= 0:
        # The winning card's part counts as exposed (LH-43, LH-48, LH-58).
        value -= bump
        if b.free_value is not None and b.free_value >= value:
            value, dec, free = b.free_value, tuple(sorted(b.free_parts)), True
    holder = -1
    if h.w >= 0:
        holder = next(pid for pid in dec if parts[pid].real_count(h.w)
                      and not (free and parts[pid].kind == "triplet"))
    return value, dec, holder


def _group_of(p: Part, cth: int, holds: bool) -> Group | Pair:
    wild = (p.wild,) if p.wild >= 0 else ()
    if p.kind == "pair":
        return Pair(p.faces, p.value, wild, holds)
    value = cth if p.kind == "triplet" and not holds else p.value
    return Group(p.kind, p.faces, holds, value, False, wild, holds)


def _group_key(g: Group) -> tuple:
    return (tuple(order_key(c) for c in g.cards), g.kind, g.wild, g.holds_winning)


# (options of the table, part id, concealed_triplet_hu, holds) -> (sort key, Group or Pair):
# the parts are immutable, so each is built once.
_BUILT: dict[tuple[str, str, int, int, bool], tuple[tuple, Group | Pair]] = {}


def _built(table: Tables, pid: int, cth: int, holds: bool) -> tuple[tuple, Group | Pair]:
    key = (table.pair_match, table.special_sequence, pid, cth, holds)
    got = _BUILT.get(key)
    if got is None:
        g = _group_of(table.parts[pid], cth, holds)
        got = _BUILT[key] = (_group_key(g) if isinstance(g, Group) else (), g)
    return got


def _build(h: _Hand, dec: tuple[int, ...], holder: int, cth: int, bonus: int) -> Split:
    """The Split of sorted part ids ``dec``, one copy of part ``holder`` holding the winning
    card."""
    groups: list[tuple[tuple, Group]] = []
    pair = None
    value = bonus + sum(g.value for g in h.meld_groups)
    for i, pid in enumerate(dec):
        holds = pid == holder and (i == 0 or dec[i - 1] != pid)     # one copy only
        k, g = _built(h.table, pid, cth, holds)
        value += g.value
        if isinstance(g, Pair):
            pair = g
        else:
            groups.append((k, g))
    assert pair is not None
    groups.sort(key=itemgetter(0))
    return Split((*h.meld_groups, *(g for _, g in groups)), pair, bonus, value)


def _key(concealed: Sequence[int], melds: Sequence[Meld], rules: HandRules, win: str,
         winning_card: int | None) -> tuple:
    """The hashable form of a question (cache key of the functions below)."""
    mk = tuple(melds)
    for m in mk:
        if type(m) is not Meld or type(m.cards) is not tuple:
            mk = tuple(Meld(m[0], tuple(m[1])) for m in mk)
            break
    return (tuple(concealed), mk, rules, win, None if win == "zimo" else winning_card)


class _Answer(NamedTuple):
    hand: _Hand
    best: tuple[int, tuple[int, ...], int] | None    # see _best
    total: int | None                                # best total, bonus included


@lru_cache(maxsize=1 << 15)
def _answer(key: tuple) -> _Answer | None:
    """The analysis of one question, shared by best_split, best_total, is_win and splits."""
    h = _prepare(*key)
    if h is None:
        return None
    found = _best(h, key[2].concealed_triplet_hu)
    total = None if found is None else \
        found[0] + sum(g.value for g in h.meld_groups) + _bonus(key[3])
    return _Answer(h, found, total)


def _total_of(key: tuple) -> int | None:
    a = _answer(key)
    return None if a is None else a.total


@lru_cache(maxsize=1 << 15)
def _best_split_cached(key: tuple) -> Split | None:
    a = _answer(key)
    if a is None or a.best is None:
        return None
    return _build(a.hand, a.best[1], a.best[2], key[2].concealed_triplet_hu, _bonus(key[3]))


@lru_cache(maxsize=1 << 12)
def _splits_cached(key: tuple) -> tuple[Split, ...]:
    a = _answer(key)
    if a is None:
        return ()
    h = a.hand
    cth, bonus = key[2].concealed_triplet_hu, _bonus(key[3])
    parts = h.table.parts
    out: list[Split] = []
    for dec in h.table.decompose(h.x, h.wild, True):
        holders = [-1]
        if h.w >= 0:
            # Each distinct part that can hold the winning card is a distinct split (LH-43).
            holders = sorted({pid for pid in dec if parts[pid].real_count(h.w)})
        out.extend(_build(h, dec, holder, cth, bonus) for holder in holders)
    best = _best_split_cached(key)
    return tuple(sorted(out, key=lambda s: (-s.total, s != best)))


def clear_caches() -> None:
    """Forget every memoised answer (for cold-cache measurements and tests)."""
    for f in (_answer, _best_split_cached, _splits_cached, _could_win,
              _waits_cached, _melds_of):
        f.cache_clear()
    clear_all()


# ---------------------------------------------------------------------------------------------
# Public API


def splits(concealed: Sequence[int], melds: Sequence[Meld], rules: HandRules, *,
           win: str = "zimo", winning_card: int | None = None) -> list[Split]:
    """Every distinct split of concealed + melds into g groups + one pair, scored, best first
    (LH-36..LH-43, LH-46, LH-58)."""
    return list(_splits_cached(_key(concealed, melds, rules, win, winning_card)))


def best_split(concealed: Sequence[int], melds: Sequence[Meld], rules: HandRules, *,
               win: str = "zimo", winning_card: int | None = None) -> Split | None:
    """The split of highest total (LH-44), None if the cards make no winning shape."""
    return _best_split_cached(_key(concealed, melds, rules, win, winning_card))


def best_total(concealed: Sequence[int], melds: Sequence[Meld], rules: HandRules, *,
               win: str = "zimo", winning_card: int | None = None) -> int | None:
    """The highest total over all splits, bonus included (LH-44), None if no winning shape."""
    return _total_of(_key(concealed, melds, rules, win, winning_card))


def is_win(concealed: Sequence[int], melds: Sequence[Meld], rules: HandRules, *,
           win: str = "zimo", winning_card: int | None = None) -> bool:
    """A winning shape whose best total meets min_hu, the 自摸 bonus counting only with
    zimo_bonus_counts (LH-36, LH-44, LH-45)."""
    total = _total_of(_key(concealed, melds, rules, win, winning_card))
    if total is None:
        return False
    if not rules.zimo_bonus_counts and win == "zimo":
        total -= ZIMO_BONUS
    return total >= rules.min_hu


@lru_cache(maxsize=1 << 16)
def _could_win(key: tuple[int, ...], melds: tuple[Meld, ...], rules: HandRules, card: int,
               win: str) -> bool:
    return is_win((*key, card), melds, rules, win=win, winning_card=card)


@lru_cache(maxsize=1 << 14)
def _waits_cached(concealed: tuple[int, ...], melds: tuple[Meld, ...], rules: HandRules,
                  win: str) -> dict[int, tuple[int, int]] | None:
    """Face -> (highest, lowest) best total of concealed + that face, or None when the hand
    holds an RJ (then each face is asked on its own). The two differ only by the exposure of
    the winning card's part under concealed_triplet_hu = 6 (LH-48)."""
    x, wild = _count(concealed)
    if wild:
        return None
    meld_groups = _melds_of(melds, rules)
    if meld_groups is None or len(concealed) + 1 != 3 * (rules.groups - len(melds)) + 2:
        return {}
    cth = rules.concealed_triplet_hu
    extra = sum(g.value for g in meld_groups)
    if win == "zimo" and rules.zimo_bonus_counts:
        extra += ZIMO_BONUS
    bump = 0 if win == "zimo" else cth - TRIPLET_EXPOSED_HU
    found = tables(rules.pair_match, rules.special_sequence).waits(x, cth)
    return {face: (v + extra, v + extra - bump) for face, v in found.items()}


def could_win_with(concealed_without: Sequence[int], melds: Sequence[Meld], rules: HandRules,
                   card: int, *, win: str) -> bool:
    """Would adding ``card`` make a legal win (LH-27, LH-28, LH-29; a discarded or robbed RJ
    never, LH-32)? One search per (multiset, melds, rules, win) answers every card."""
    if win not in WINS:
        raise _bad(f"win {win!r} is not one of {WINS}", "win")
    if card == RED_JOKER and win != "zimo":
        return False
    if type(card) is not int or not (0 <= card < 52 or card == RED_JOKER):
        raise _bad(f"{card!r} is not a suited face code or RJ", "card")
    try:
        key = tuple(sorted(concealed_without))
    except TypeError:
        raise _bad(f"{list(concealed_without)!r} are not face codes", "cards") from None
    mk = _key((), melds, rules, "zimo", None)[1]
    waits = _waits_cached(key, mk, rules, win) if card != RED_JOKER else None
    if waits is not None:
        bounds = waits.get(card)
        if bounds is None or bounds[0] < rules.min_hu:
            return False
        if bounds[1] >= rules.min_hu:
            return True
    return _could_win(key, mk, rules, card, win)


_NO_FACES: frozenset[int] = frozenset()


def win_faces(concealed_without: Sequence[int], melds: Sequence[Meld], rules: HandRules, *,
              win: str) -> frozenset[int] | None:
    """The suited faces whose adding makes a legal win, as ``could_win_with`` answers them one
    by one (a claim window asks this once per hand); None when the hand holds an RJ (then ask
    ``could_win_with`` per card)."""
    return win_faces_by_win(concealed_without, melds, rules, (win,))[0]


def win_faces_by_win(concealed_without: Sequence[int], melds: Sequence[Meld],
                     rules: HandRules, wins: tuple[str, ...]) -> tuple[frozenset[int] | None, ...]:
    """``win_faces`` for each win type of ``wins`` in turn, the cards counted and searched
    once (a hand the claim windows ask about for 放铳 is asked for 自摸 at its next draw)."""
    for win in wins:
        if win not in WINS:
            raise _bad(f"win {win!r} is not one of {WINS}", "win")
    x, wild = _count(concealed_without)
    if wild:
        return (None,) * len(wins)
    mk = _key((), melds, rules, "zimo", None)[1] if melds else ()
    meld_groups = _melds_of(mk, rules) if mk else ()
    if meld_groups is None or len(concealed_without) + 1 != 3 * (rules.groups - len(mk)) + 2:
        return (_NO_FACES,) * len(wins)
    cth = rules.concealed_triplet_hu
    found = tables(rules.pair_match, rules.special_sequence).waits(x, cth)
    if not found:
        return (_NO_FACES,) * len(wins)
    # As _waits_cached: the melds' values and the counted 自摸 bonus on top, and the winning
    # card's part exposed (LH-48) lowering the total by at most the bump.
    base = rules.min_hu - sum(g.value for g in meld_groups)
    answers = []
    for win in wins:
        floor = base
        if win == "zimo" and rules.zimo_bonus_counts:
            floor -= ZIMO_BONUS
        bump = 0 if win == "zimo" else cth - TRIPLET_EXPOSED_HU
        out = [face for face, v in found.items() if v - bump >= floor]
        if bump:
            key = tuple(sorted(concealed_without))
            out += [face for face, v in found.items() if floor <= v < floor + bump
                    and _could_win(key, mk, rules, face, win)]
        answers.append(frozenset(out))
    return tuple(answers)


def _reference_win_faces(concealed_without: Sequence[int], melds: Sequence[Meld], rules: HandRules, *,
                         win: str) -> frozenset[int] | None:
    """``win_faces`` as first written, one win type a call (the reference)."""
    if win not in WINS:
        raise _bad(f"win {win!r} is not one of {WINS}", "win")
    x, wild = _count(concealed_without)
    if wild:
        return None
    mk = _key((), melds, rules, "zimo", None)[1] if melds else ()
    meld_groups = _melds_of(mk, rules) if mk else ()
    if meld_groups is None or len(concealed_without) + 1 != 3 * (rules.groups - len(mk)) + 2:
        return _NO_FACES
    cth = rules.concealed_triplet_hu
    found = tables(rules.pair_match, rules.special_sequence).waits(x, cth)
    if not found:
        return _NO_FACES
    # As _waits_cached: the melds' values and the counted 自摸 bonus on top, and the winning
    # card's part exposed (LH-48) lowering the total by at most the bump.
    floor = rules.min_hu - sum(g.value for g in meld_groups)
    if win == "zimo" and rules.zimo_bonus_counts:
        floor -= ZIMO_BONUS
    bump = 0 if win == "zimo" else cth - TRIPLET_EXPOSED_HU
    out = [face for face, v in found.items() if v - bump >= floor]
    if bump:
        key = tuple(sorted(concealed_without))
        out += [face for face, v in found.items() if floor <= v < floor + bump
                and _could_win(key, mk, rules, face, win)]
    return frozenset(out)


# ---------------------------------------------------------------------------------------------
# Audit of a recorded split (LH-73)


def _value_rule(kind: str, cards: tuple[int, ...]) -> str:
    if kind == "seq":
        return "LH-47"
    if kind == "triplet":
        return "LH-48"
    if kind == "ming_gang":
        return "LH-49"
    if kind == "an_gang":
        return "LH-50"
    return "LH-52" if special_value(cards) == 12 else "LH-51"


def _real(cards: tuple[int, ...], wild: tuple[int, ...]) -> Counter[int] | None:
    """The real cards of a part (its faces minus those an RJ stands for), None if a wild face is
    not among its faces."""
    c = Counter(cards)
    for f in wild:
        if c[f] == 0:
            return None
        c[f] -= 1
    return +c


def check_split(split: Split, concealed: Sequence[int], melds: Sequence[Meld],
                rules: HandRules, *, win: str, winning_card: int | None) -> str | None:
    """None if ``split`` is a valid split of these cards, its values and total right and its
    total the best (LH-44, LH-73); else the id of the rule it breaks. The threshold (LH-45) is
    is_win's business."""
    if win not in WINS:
        raise _bad(f"win {win!r} is not one of {WINS}", "win")
    if win != "zimo" and winning_card == RED_JOKER:
        return "LH-32"
    _, wild = _count(concealed)
    melds = tuple(m if isinstance(m, Meld) else Meld(*m) for m in melds)
    if any(RED_JOKER in m.cards for m in melds):
        return "LH-32"
    meld_groups = _melds_of(melds, rules)
    if meld_groups is None:
        return "LH-42"
    groups = tuple(split.groups)
    if len(groups) != rules.groups:
        return "LH-36"
    # Melds: exactly the laid-down groups, unchanged (LH-42).
    laid = [g for g in groups if g.meld]
    if Counter((g.kind, tuple(sorted(g.cards))) for g in laid) != \
            Counter((g.kind, tuple(sorted(g.cards))) for g in meld_groups):
        return "LH-42"
    if any(g.wild for g in laid):
        return "LH-32"
    if any(g.holds_winning for g in laid):
        return "LH-43"
    own = [g for g in groups if not g.meld]
    # Cards: the concealed parts use exactly the concealed cards (LH-36), RJ per LH-46.
    real: Counter[int] = Counter()
    n_wild = 0
    for cards, w in [(g.cards, g.wild) for g in own] + [(split.pair.cards, split.pair.wild)]:
        r = _real(tuple(cards), tuple(w))
        if r is None or len(w) > 1:
            return "LH-46"
        real += r
        n_wild += len(w)
    if n_wild != wild:
        return "LH-46"
    if real != Counter(c for c in concealed if c != RED_JOKER):
        return "LH-36"
    # Shapes.
    for g in own:
        if g.kind in ("ming_gang", "an_gang"):
            return "LH-40"
        shape = group_kind(tuple(g.cards), rules.special_sequence)
        if g.kind not in ("seq", "special", "triplet"):
            return "LH-36"
        if shape != g.kind:
            return {"seq": "LH-37", "special": "LH-38", "triplet": "LH-39"}[g.kind]
    if not is_pair(tuple(split.pair.cards), rules.pair_match):
        return "LH-41"
    # The winning card (LH-43) and exposure (LH-58).
    placed: list[Group | Pair] = [*own, split.pair]
    holders = [p for p in placed if p.holds_winning]
    if win == "zimo":
        if holders:
            return "LH-43"
    elif len(holders) != 1 or winning_card is None or \
            not (_real(tuple(holders[0].cards), tuple(holders[0].wild)) or Counter())[winning_card]:
        return "LH-43"
    for g in groups:
        exposed = (g.kind != "an_gang") if g.meld else g.holds_winning
        if g.exposed != exposed:
            return "LH-58"
    # Values.
    meld_value = {(m.kind, tuple(sorted(m.cards))): m.value for m in meld_groups}
    for g in groups:
        if g.meld:
            expected = meld_value[(g.kind, tuple(sorted(g.cards)))]
        elif g.kind == "triplet":
            expected = TRIPLET_EXPOSED_HU if g.exposed else rules.concealed_triplet_hu
        elif g.kind == "special":
            expected = special_value(tuple(g.cards))
        else:
            expected = 0
        if g.value != expected:
            return _value_rule(g.kind, tuple(g.cards))
    pv = pair_value(split.pair.cards[0])
    if split.pair.value != pv:
        return "LH-54" if pv else "LH-53"
    if split.bonus != _bonus(win):
        return BONUS_RULE[win]
    if split.total != sum(g.value for g in groups) + split.pair.value + split.bonus:
        return "LH-58"
    best = best_total(concealed, melds, rules, win=win, winning_card=winning_card)
    if best is None or split.total != best:
        return "LH-44"
    return None
