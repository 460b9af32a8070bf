"""六人斗地主 combinations and their comparison (rules file section 8: DDZ-40 … DDZ-70, with the
options ``wings_3v3``, ``airplane_order`` and ``qixingju_lock`` of section 3).

``classify`` reads a set of cards as the one combination it is (DDZ-40, DDZ-93) or None;
``play_rule`` names the rule that makes a set no combination; ``beats`` says why one
combination does not beat another (DDZ-41, DDZ-42, the ladders DDZ-54 / DDZ-69, DDZ-66).
Every check is closed-form on the rank counts: nothing enumerates sub-sets of the cards.
Each ``*_rule`` function returns None when its check passes, else the rule id it breaks.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, NamedTuple

from engine.games.ddz6.cards import (
    ACE_V,
    BJ,
    BJ_V,
    DECKS,
    N_VALUES,
    RJ,
    RJ_V,
    RUN_OF_3V3,
    RUN_OF_4DECK,
    RUNS_3V3,
    RUNS_4DECK,
    THREE,
    TWO_V,
    VALUE,
    Run,
    variant_name,
)
from engine.games.frame import OptionsBase

# DDZ-93 combination types.
SINGLE, PAIR, TRIO, TRIO_PAIR = "single", "pair", "trio", "trio_pair"
STRAIGHT, PAIR_SEQ, TRIO_SEQ, AIRPLANE = "straight", "pair_seq", "trio_seq", "airplane"
BOMB, JOKER_BOMB = "bomb", "joker_bomb"
KINDS = (SINGLE, PAIR, TRIO, TRIO_PAIR, STRAIGHT, PAIR_SEQ, TRIO_SEQ, AIRPLANE, BOMB, JOKER_BOMB)
SEQ_KIND = {1: STRAIGHT, 2: PAIR_SEQ, 3: TRIO_SEQ}     # width -> sequence type
SEQ_MIN = {1: 5, 2: 3, 3: 2}                           # DDZ-47/48/49, DDZ-60/61/62

# Section 3: the options that change combinations, their allowed values and defaults.
COMBO_OPTIONS: dict[str, tuple[str, ...]] = {
    "wings_3v3": ("any", "no_bomb"),           # DDZ-50 (3v3)
    "airplane_order": ("seed", "chain"),       # DDZ-66 (4-deck)
    "qixingju_lock": ("on", "off"),            # DDZ-70 (4-deck)
}


class Combo(NamedTuple):
    """A classified play (DDZ-93): type, cards, m, key and, for a bomb, its ladder level."""

    kind: str     # one of KINDS
    size: int     # number of cards
    m: int        # trios of an airplane body, ranks of a sequence; 0 for other types
    key: int      # DDZ-41 key; for a bomb its rank value; 0 for a joker bomb
    level: int    # bomb ladder level: a higher level beats a lower one; 0 for a non-bomb
    place: str    # joker-bomb ladder place of DDZ-93 ('J3-4' … / '1a' … '4'); else ''

    @property
    def is_bomb(self) -> bool:
        """True for regular and joker bombs."""
        return self.level > 0


# ---------------------------------------------------------------- bomb ladders

# DDZ-54 (3v3): a ladder tier per bomb size; level = 100 * tier + rank value.
TIER_3V3 = {4: 1, 5: 3, 6: 4, **{n: n - 1 for n in range(7, 13)}}
# DDZ-69 (4-deck).
TIER_4DECK = {4: 1, 5: 3, 6: 4, 7: 5, 8: 6, **{n: n - 1 for n in range(9, 17)}}
# Joker bombs: (BJ count, RJ count) -> (ladder place, level).
JOKER_BOMBS_3V3 = {
    **{(b, r): ("J3-4", 200) for b, r in ((3, 0), (0, 3), (3, 1), (2, 2), (1, 3))},
    **{(b, r): ("J5", 500) for b, r in ((3, 2), (2, 3))},
    (3, 3): ("J6", 1200),
}
JOKER_BOMBS_4DECK = {
    (3, 0): ("1a", 201), (3, 1): ("1b", 202), (2, 2): ("1b", 202), (1, 3): ("1b", 202),
    (0, 3): ("1c", 203), (4, 0): ("2a", 701), (4, 1): ("2a", 701),
    (4, 2): ("2b", 702), (3, 3): ("2b", 702), (2, 4): ("2b", 702),
    (0, 4): ("2c", 703), (1, 4): ("2c", 703),
    (4, 3): ("3", 1600), (3, 4): ("3", 1600), (4, 4): ("4", 1700),
}
QIXINGJU = "3"                                 # DDZ-69 ③


# ---------------------------------------------------------------- one table per variant

class ComboRules:
    """The combination rules of one variant with one set of options (built once, cached)."""

    __slots__ = ("variant", "four", "copies", "wings_any", "seed_order", "lock", "runs",
                 "run_of", "tier", "joker_bombs", "pair_values", "trio_values", "fallback",
                 "pack_rule_id", "ladder", "seq_rule", "joker_rule_id")

    def __init__(self, variant: str, wings: str, order: str, lock: str) -> None:
        self.variant = variant
        self.four = DECKS[variant] == 4
        self.copies = DECKS[variant]
        self.wings_any = wings == "any"
        self.seed_order = order == "seed"
        self.lock = lock == "on"
        four = self.four
        self.runs = RUNS_4DECK if four else RUNS_3V3
        self.run_of = RUN_OF_4DECK if four else RUN_OF_3V3
        self.tier = TIER_4DECK if four else TIER_3V3
        self.joker_bombs = JOKER_BOMBS_4DECK if four else JOKER_BOMBS_3V3
        # Pairs (DDZ-44 / DDZ-57: joker pairs in 4-deck only) and trios of a trio+pair
        # (DDZ-46 / DDZ-59: joker trios in 4-deck only).
        self.pair_values = tuple(range(THREE, (RJ_V if four else TWO_V) + 1))
        self.trio_values = self.pair_values
        self.fallback = "DDZ-40" if four else "DDZ-53"
        self.pack_rule_id = "DDZ-5" if four else "DDZ-4"
        self.ladder = "DDZ-69" if four else "DDZ-54"
        self.seq_rule = ({1: "DDZ-60", 2: "DDZ-61", 3: "DDZ-62"} if four
                         else {1: "DDZ-47", 2: "DDZ-48", 3: "DDZ-49"})
        self.joker_rule_id = "DDZ-68" if four else "DDZ-53"

    def airplane_key(self, body: Run) -> int:
        """DDZ-50: the body's top (3v3); DDZ-66: its start position, 2 first = 15 (seed)."""
        if not self.four:
            return body.top
        if self.seed_order and body.start == 2:
            return 15
        return body.start


_RULES: dict[tuple[str, str, str, str], ComboRules] = {}


def _option(options: Any, name: str) -> str:
    """One combination option from an options object, a mapping or None (the default)."""
    allowed = COMBO_OPTIONS[name]
    if options is None:
        return allowed[0]
    if isinstance(options, Mapping):
        v = options.get(name, allowed[0])
    else:
        v = getattr(options, name, allowed[0])
    if v not in allowed:
        raise ValueError(f"option {name}={v!r} is not allowed: must be one of "
                         f"{', '.join(allowed)}")
    return v


def combo_rules(variant: str, options: Any = None) -> ComboRules:
    """The cached ComboRules of a variant ('3v3', 'ddz6_2v4' …) and its options (an object
    with the section-3 option names as attributes, a mapping, or None for the defaults)."""
    global _LAST
    last_variant, last_options, t = _LAST
    if options is last_options and variant == last_variant:
        return t                         # the same options object as the last call
    try:
        t = _BY_OPTIONS[variant, options]
    except (KeyError, TypeError):        # not seen yet, or options that are no dict key
        t = _combo_rules(variant, options)
        if options is None or isinstance(options, OptionsBase):      # frozen: a safe key
            _BY_OPTIONS[variant, options] = t
    if options is None or isinstance(options, OptionsBase):
        _LAST = (variant, options, t)
    return t


# (variant, options object) -> table: the fast path of combo_rules for the frozen options
# of a state (no option is read again), and the last call's (one replay's options).
_BY_OPTIONS: dict[tuple[str, Any], ComboRules] = {}
_LAST: tuple[str, Any, ComboRules] = ("", object(), None)  # type: ignore[assignment]


def _combo_rules(variant: str, options: Any) -> ComboRules:
    key = (variant, _option(options, "wings_3v3"), _option(options, "airplane_order"),
           _option(options, "qixingju_lock"))
    t = _RULES.get(key)
    if t is None:
        t = _RULES[key] = ComboRules(variant_name(variant), *key[1:])
    return t


def bomb_combo(t: ComboRules, v: int, n: int) -> Combo:
    """The regular bomb of n cards of value v (DDZ-51, DDZ-67) on the variant's ladder."""
    return Combo(BOMB, n, 0, v, 100 * t.tier[n] + v, "")


def joker_bomb_combo(t: ComboRules, b: int, r: int) -> Combo | None:
    """The joker bomb of b BJ and r RJ (DDZ-52, DDZ-68), or None if they are not one."""
    got = t.joker_bombs.get((b, r))
    if got is None:
        return None
    return Combo(JOKER_BOMB, b + r, 0, 0, got[1], got[0])


# ---------------------------------------------------------------- the checks

def pack_rule(cards: tuple[int, ...] | list[int], t: ComboRules) -> str | None:
    """DDZ-40: a play has cards; DDZ-4 / DDZ-5: no face more often than the pack holds it."""
    if not cards:
        return "DDZ-40"
    if len(cards) > t.copies and any(cards.count(f) > t.copies for f in set(cards)):
        return t.pack_rule_id
    return None


def joker_set_rule(b: int, r: int, t: ComboRules) -> str | None:
    """Jokers alone (DDZ-43, DDZ-52, DDZ-53 / DDZ-56 … DDZ-59, DDZ-68): a single, a 4-deck
    pair, a 4-deck five-joker trio+pair or a joker bomb; BJ RJ is no pair (DDZ-57)."""
    if b + r == 1 or (b, r) in t.joker_bombs:
        return None
    if t.four:
        if (b, r) in ((2, 0), (0, 2), (3, 2), (2, 3)):
            return None
        return "DDZ-57" if (b, r) == (1, 1) else "DDZ-68"
    return "DDZ-53"


def mixed_joker_rule(c: list[int], vals: list[int], b: int, r: int,
                     t: ComboRules) -> str | None:
    """Jokers with other cards: never in 3v3 (DDZ-53); in 4-deck only a trio+pair (DDZ-59)
    or the BJ BJ RJ RJ wing of a two-trio airplane (DDZ-64); else DDZ-68."""
    if not t.four:
        return "DDZ-53"
    if len(vals) == 1 and ((c[vals[0]] == 3 and (b, r) in ((2, 0), (0, 2)))
                           or (c[vals[0]] == 2 and (b, r) in ((3, 0), (0, 3)))):
        return None
    trios = [v for v in vals if c[v] >= 3]
    n = sum(c[v] for v in vals) + b + r
    if n % 5 or n < 10 or len(trios) < 2:
        return "DDZ-68"
    if (b, r) != (2, 2) or n != 10:
        return "DDZ-64"
    return body_rule(c, vals, 2, t)


def body_rule(c: list[int], vals: list[int], m: int, t: ComboRules) -> str | None:
    """The non-joker part of a joker-winged airplane is a body: two trios on a run (DDZ-63)."""
    if len(vals) == m and all(c[v] == 3 for v in vals) and _mask(vals) in t.run_of:
        return None
    return "DDZ-63"


def sequence_rule(c: list[int], vals: list[int], w: int, t: ComboRules) -> str | None:
    """k ranks of w cards each: a straight, pair sequence or trio sequence on a run of the
    variant (DDZ-47/48/49: 3 … A; DDZ-55, DDZ-60/61/62: A low or high, A封顶, no AAA222)."""
    k = len(vals)
    mask = _mask(vals)
    run = t.run_of.get(mask)
    if run is not None and k >= SEQ_MIN[w]:
        if t.four and w == 3 and k == 2 and run.start == 1:
            return "DDZ-62"                      # exactly AAA222
        return None
    if k < SEQ_MIN[w]:
        if run is None or (not t.four and w == 2):
            return t.fallback                    # 3v3: "two consecutive pairs" (DDZ-53)
        return t.seq_rule[w]
    if t.four and _past_ace(mask, k):
        return "DDZ-55"
    return t.seq_rule[w]


def _past_ace(mask: int, k: int) -> bool:
    """True for ranks consecutive only if 2 sat above A (JQKA2, KKAA22: DDZ-55, A封顶)."""
    top = TWO_V
    return mask == ((1 << (top + 1)) - 1) ^ ((1 << (top + 1 - k)) - 1)


def airplane_body(c: list[int], m: int, t: ComboRules) -> Run | None:
    """The body of a would-be airplane of 5m cards: the run of m ranks holding at least three
    cards each whose leftovers are all pairs (at most one such run exists: a rank in one
    body and not the other would need an odd and an even count)."""
    for body in t.runs.get(m, ()):
        if all(c[v] >= 3 and not (c[v] - 3) % 2 for v in body.values):
            rest = body.mask
            if all(not c[v] % 2 for v in range(THREE, N_VALUES) if not rest >> v & 1):
                return body
    return None


def wings_rule(c: list[int], body: Run, m: int, t: ComboRules) -> str | None:
    """The wings of an airplane: 3v3 pairs (DDZ-50, option ``wings_3v3``); 4-deck a run of m
    pairs, AA22 excluded (DDZ-64), no rank shared with the body (DDZ-65)."""
    wing_vals = [v for v in range(THREE, N_VALUES) if c[v] and not body.mask >> v & 1]
    if not t.four:
        if t.wings_any:
            return None
        if any(c[v] != 3 for v in body.values) or any(c[v] != 2 for v in wing_vals):
            return "DDZ-50"
        return None
    if any(c[v] != 3 for v in body.values):
        return "DDZ-65"
    if any(c[v] != 2 for v in wing_vals):
        return "DDZ-64"
    run = t.run_of.get(_mask(wing_vals))
    if run is None or len(wing_vals) != m or (m == 2 and run.start == 1):
        return "DDZ-64"
    return None


def _mask(vals: list[int]) -> int:
    out = 0
    for v in vals:
        out |= 1 << v
    return out


# ---------------------------------------------------------------- classification

READ_CACHE = 8192        # card tuples whose reading is kept (singles, pairs … recur)
_READ: dict[tuple[tuple[int, ...], ComboRules], Combo | str] = {}


def read(cards: tuple[int, ...] | list[int], t: ComboRules) -> Combo | str:
    """The combination the cards are under these rules, or the rule id that makes them none
    (a pure function of the faces: the readings of recent card tuples are kept)."""
    if type(cards) is not tuple:
        return _read(cards, t)
    key = (cards, t)
    got = _READ.get(key)
    if got is None:
        if len(_READ) >= READ_CACHE:
            _READ.clear()
        got = _READ[key] = _read(cards, t)
    return got


def read_once(cards: tuple[int, ...] | list[int], t: ComboRules) -> Combo | str:
    """``read`` without keeping the reading (cards read once, such as a whole hand)."""
    return _read(cards, t)


def _read(cards: tuple[int, ...] | list[int], t: ComboRules) -> Combo | str:
    rule = pack_rule(cards, t)
    if rule:
        return rule
    c = [0] * N_VALUES
    for f in cards:
        c[VALUE[f]] += 1
    b, r = c[BJ_V], c[RJ_V]
    vals = [v for v in range(THREE, TWO_V + 1) if c[v]]
    n = len(cards)
    if b or r:
        if not vals:
            return _jokers(b, r, t)
        rule = mixed_joker_rule(c, vals, b, r, t)
        if rule:
            return rule
        if n == 5:
            return Combo(TRIO_PAIR, 5, 0, vals[0] if c[vals[0]] == 3 else
                         (BJ_V if b == 3 else RJ_V), 0, "")
        body = t.run_of[_mask(vals)]
        return Combo(AIRPLANE, 10, 2, t.airplane_key(body), 0, "")
    return _suited(c, vals, n, t)


def _jokers(b: int, r: int, t: ComboRules) -> Combo | str:
    rule = joker_set_rule(b, r, t)
    if rule:
        return rule
    if b + r == 1:
        return Combo(SINGLE, 1, 0, BJ_V if b else RJ_V, 0, "")
    bomb = joker_bomb_combo(t, b, r)
    if bomb is not None:
        return bomb
    if b + r == 2:
        return Combo(PAIR, 2, 0, BJ_V if b else RJ_V, 0, "")
    return Combo(TRIO_PAIR, 5, 0, BJ_V if b == 3 else RJ_V, 0, "")


_ONE_RANK = {1: SINGLE, 2: PAIR, 3: TRIO}


def _suited(c: list[int], vals: list[int], n: int, t: ComboRules) -> Combo | str:
    """Cards without jokers, by the shape of their rank counts."""
    k = len(vals)
    if k == 1:
        v = vals[0]
        if n >= 4:
            return bomb_combo(t, v, n)           # DDZ-40 (a), DDZ-51, DDZ-67
        return Combo(_ONE_RANK[n], n, 0, v, 0, "")
    w = c[vals[0]]
    if w <= 3 and all(c[v] == w for v in vals):
        rule = sequence_rule(c, vals, w, t)
        if rule:
            return rule
        return Combo(SEQ_KIND[w], n, k, t.run_of[_mask(vals)].top, 0, "")
    if k == 2 and {c[vals[0]], c[vals[1]]} == {2, 3}:
        trio = vals[0] if c[vals[0]] == 3 else vals[1]
        return Combo(TRIO_PAIR, 5, 0, trio, 0, "")
    if n % 5 == 0 and n >= 10 and sum(c[v] >= 3 for v in vals) >= 2:
        m = n // 5
        body = airplane_body(c, m, t)
        if body is None:
            return "DDZ-63" if t.four else "DDZ-50"
        rule = wings_rule(c, body, m, t)
        if rule:
            return rule
        return Combo(AIRPLANE, n, m, t.airplane_key(body), 0, "")
    if t.four and k == 13 and c[ACE_V] == 2 * w and all(c[v] == w for v in vals if v != ACE_V):
        return "DDZ-55"                          # A at both ends: A23456789TJQKA
    return t.fallback


def classify(cards: tuple[int, ...] | list[int], variant: str,
             options: Any = None) -> Combo | None:
    """The combination these faces form in the variant (DDZ-40, DDZ-93), or None."""
    got = read(cards, combo_rules(variant, options))
    return None if isinstance(got, str) else got


def play_rule(cards: tuple[int, ...] | list[int], variant: str,
              options: Any = None) -> str | None:
    """None if the faces are a combination of the variant, else the rule id that says not."""
    got = read(cards, combo_rules(variant, options))
    return got if isinstance(got, str) else None


# ---------------------------------------------------------------- comparison

def beats(a: Combo, b: Combo, variant: str, options: Any = None) -> str | None:
    """None if combination a beats the top combination b, else the rule id that says why not
    (DDZ-41 type, size or key; DDZ-42 bombs and equal bombs; DDZ-54 / DDZ-69 the ladder;
    DDZ-66 4-deck airplanes)."""
    return beats_rule(a, b, combo_rules(variant, options))


def beats_rule(a: Combo, b: Combo, t: ComboRules) -> str | None:
    """``beats`` under the rules table of a variant and its options."""
    if b.level:
        if not a.level or a.level == b.level:
            return "DDZ-42"
        return None if a.level > b.level else t.ladder
    if a.level:
        return None
    four = t.four
    if a.kind != b.kind or a.size != b.size:
        return "DDZ-66" if four and a.kind == b.kind == AIRPLANE else "DDZ-41"
    if a.key > b.key:
        return None
    return "DDZ-66" if four and a.kind == AIRPLANE else "DDZ-41"


def play_beats_rule(cards: tuple[int, ...] | list[int], top: Combo | None, variant: str,
                    options: Any = None) -> str | None:
    """The layered check of one play: a combination (DDZ-40 …), then one that beats the top
    play if there is one (DDZ-41, DDZ-42 …)."""
    got = read(cards, combo_rules(variant, options))
    if isinstance(got, str):
        return got
    return None if top is None else beats(got, top, variant, options)


# ---------------------------------------------------------------- 七星聚 (DDZ-70)

def locked_joker(cards: tuple[int, ...] | list[int], variant: str,
                 options: Any = None) -> int | None:
    """The face a played 七星聚 locks for the rest of the hand (the eighth joker: RJ after
    BJ×4 + RJ×3, BJ after BJ×3 + RJ×4), or None (not a 七星聚, or ``qixingju_lock`` off)."""
    t = combo_rules(variant, options)
    got = read(cards, t)
    return None if isinstance(got, str) else lock_face(got, cards, t)


def lock_face(c: Combo, cards: tuple[int, ...] | list[int], t: ComboRules) -> int | None:
    """``locked_joker`` of cards already read as the combination c under the table t."""
    if not t.lock or c.place != QIXINGJU or not t.four:
        return None
    return RJ if cards.count(BJ) == 4 else BJ


def lock_rule(cards: tuple[int, ...] | list[int], locked: int | None) -> str | None:
    """DDZ-70: a play holding the locked eighth joker is refused."""
    if locked is not None and locked in cards:
        return "DDZ-70"
    return None
