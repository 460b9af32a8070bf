"""Claims on a discard or a 加杠 (section 7, 8): who is eligible for what (LH-20 … LH-32,
LH-34), the rule a refused claim breaks, and which claims a window executes (LH-33, LH-35).

Nothing here enumerates card subsets: 碰 and 杠 come from the count of the face, 吃 from the
few sequence shapes around the card (LH-26, LH-37, LH-38), 胡 from the hand module's
``could_win_with``.
"""

from __future__ import annotations

from typing import Any

from engine.games.liuhu import hand
from engine.games.liuhu.cards import RJ, SEATS, face_of, rank, red, suit
from engine.games.liuhu.state import (
    CHI,
    DISCARD_WINDOW,
    FANGCHONG,
    GANG,
    HU,
    PENG,
    PRIORITY,
    QIANGGANG,
    ZIMO,
    Claim,
    LhState,
)

SPECIALS = ((1, 2, 3), (2, 7, 10))      # 壹贰叁, 贰柒拾 (LH-38)
BOTH_WINS = (FANGCHONG, ZIMO)


# ---------------------------------------------------------------- the hand module

def hand_module() -> Any:
    """The winning-hand module (engine.games.liuhu.hand)."""
    return hand


_RULES: dict[int, tuple[Any, Any, dict[tuple, Any]]] = {}
_FACES: dict[Any, dict[tuple, Any]] = {}   # HandRules -> (hand, melds, win) -> faces
_MISSING = object()
MEMO_LIMIT = 1 << 15        # winning faces kept per options object


def _rules_entry(s: LhState) -> tuple[Any, Any, dict[tuple, Any]]:
    """(options, HandRules, memo of winning faces) of the state's options object."""
    found = _RULES.get(id(s.options))
    if found is None or found[0] is not s.options:
        if len(_RULES) > 256:
            _RULES.clear()
        rules = hand.HandRules.of(s.options)
        found = _RULES[id(s.options)] = (s.options, rules, _FACES.setdefault(rules, {}))
    return found


def clear_caches() -> None:
    """Forget the memoised winning faces and the hand module's answers (cold measurements)."""
    for memo in _FACES.values():
        memo.clear()
    _LAST_ELIGIBLE[0] = ((), (), None, (), ())
    hand.clear_caches()


def hand_rules(s: LhState) -> Any:
    """The hand module's HandRules of these options (cached per options object)."""
    return _rules_entry(s)[1]


def hand_melds(s: LhState, seat: int) -> tuple[Any, ...]:
    """The seat's melds as the hand module's Meld values."""
    laid = s.melds[seat]
    if not laid:
        return ()
    meld = hand.Meld
    return tuple(meld(kind, cards) for kind, cards, _, _ in laid)


def could_hu(s: LhState, seat: int, card: int, win: str) -> bool:
    """True if the seat may claim 胡 on the card (LH-27, LH-29; never on RJ, LH-32): the
    winning faces of its hand are found once per hand, melds and win type (memoised)."""
    if card == RJ:
        return False
    _, rules, memo = _rules_entry(s)
    return _could_hu(s, seat, card, win, rules, memo)


def _could_hu(s: LhState, seat: int, card: int, win: str, rules: Any,
              memo: dict[tuple, Any]) -> bool:
    """``could_hu`` with the options' HandRules and memo of winning faces at hand."""
    h = s.hands[seat]
    faces = _win_faces(s, seat, h, win, rules, memo)
    if faces is None:                        # the hand holds the RJ: asked card by card
        return hand.could_win_with(h, hand_melds(s, seat), rules, card, win=win)
    return card in faces


def _win_faces(s: LhState, seat: int, h: tuple[int, ...], win: str, rules: Any,
               memo: dict[tuple, Any]) -> Any:
    """``hand.win_faces`` of the concealed cards ``h`` with the seat's melds, memoised by
    (cards, melds, win)."""
    melds = s.melds[seat]
    faces = memo.get((h, melds, win), _MISSING)
    if faces is _MISSING:
        if len(memo) > MEMO_LIMIT:
            memo.clear()
        if win == QIANGGANG:
            faces = memo[(h, melds, win)] = hand.win_faces(h, hand_melds(s, seat), rules,
                                                           win=win)
        else:               # the hand is asked for 放铳 now and for 自摸 at its next draw
            fang, zimo = hand.win_faces_by_win(h, hand_melds(s, seat), rules, BOTH_WINS)
            memo[(h, melds, FANGCHONG)] = fang
            memo[(h, melds, ZIMO)] = zimo
            faces = fang if win == FANGCHONG else zimo
    return faces


def win_faces_of(s: LhState, seat: int, h: tuple[int, ...], win: str) -> Any:
    """The suited faces that would make concealed cards ``h`` (sorted) and the seat's melds a
    legal win of this type (``hand.win_faces``; None when ``h`` holds the RJ), from the memo
    the claim windows fill: the 自摸 after a draw asks the hand the windows asked."""
    _, rules, memo = _rules_entry(s)
    return _win_faces(s, seat, h, win, rules, memo)


# ---------------------------------------------------------------- 吃 shapes (LH-26)

def _suits_ok(cards: tuple[int, ...], mode: str) -> bool:
    if mode == "same_suit":
        return len({suit(c) for c in cards}) == 1
    if mode == "same_colour":
        return len({red(c) for c in cards}) == 1
    return True


def _position_ok(ranks: tuple[int, int, int], v: int, mode: str) -> bool:
    if mode == "any":
        return True
    middle = v == ranks[1]
    return middle if mode == "middle" else not middle


def _chi_shapes(card: int, mode: str, special_sequence: str) -> tuple[tuple[int, int], ...]:
    """Every pair of faces that makes an allowed 吃 with the card, sorted (LH-26, LH-37,
    LH-38): what ``chi_pairs`` filters by the hand."""
    v, u = rank(card), suit(card)
    out: set[tuple[int, int]] = set()
    for lo in (v - 2, v - 1, v):                 # ordinary sequences (LH-37)
        ranks = (lo, lo + 1, lo + 2)
        if lo < 1 or lo > 11 or ranks == (1, 2, 3) or not _position_ok(ranks, v, mode):
            continue
        a, b = (face_of(r, u) for r in ranks if r != v)
        out.add((a, b))
    for ranks in SPECIALS:                      # special sequences (LH-38)
        if v not in ranks or not _position_ok(ranks, v, mode):
            continue
        ra, rb = (r for r in ranks if r != v)
        for a in (face_of(ra, x) for x in range(4)):
            for b in (face_of(rb, x) for x in range(4)):
                if _suits_ok((card, a, b), special_sequence):
                    out.add((min(a, b), max(a, b)))
    return tuple(sorted(out))


_CHI_SHAPES: dict[tuple[int, str, str], tuple[tuple[int, int], ...]] = {}
# the same shapes by their lower face: ((a, (b, …)), …), both ascending
_CHI_BY_LOW: dict[tuple[int, str, str], tuple[tuple[int, tuple[int, ...]], ...]] = {}


def _shapes(key: tuple[int, str, str]) -> tuple[tuple[int, int], ...]:
    shapes = _CHI_SHAPES.get(key)
    if shapes is None:
        shapes = _CHI_SHAPES[key] = _chi_shapes(*key)
    return shapes


def chi_pairs(s: LhState, seat: int, card: int) -> tuple[tuple[int, int], ...]:
    """Every pair of concealed faces with which the seat could 吃 the card, sorted (LH-26,
    LH-37, LH-38; no RJ, LH-32): the shapes looked up by their lower face among the held
    ones (``_reference_chi_pairs`` tries every shape)."""
    if card == RJ:
        return ()
    key = (card, s.options.chi_card, s.options.special_sequence)
    by_low = _CHI_BY_LOW.get(key)
    if by_low is None:
        rows: dict[int, list[int]] = {}
        for a, b in _shapes(key):
            rows.setdefault(a, []).append(b)
        by_low = _CHI_BY_LOW[key] = tuple((a, tuple(bs)) for a, bs in sorted(rows.items()))
    held = set(s.hands[seat])
    out = []
    for a, bs in by_low:
        if a in held:
            for b in bs:
                if b in held:
                    out.append((a, b))
    return tuple(out)


def _reference_chi_pairs(s: LhState, seat: int, card: int) -> tuple[tuple[int, int], ...]:
    """``chi_pairs`` as first written, every shape tried (the reference)."""
    if card == RJ:
        return ()
    shapes = _shapes((card, s.options.chi_card, s.options.special_sequence))
    held = set(s.hands[seat])
    return tuple(p for p in shapes if p[0] in held and p[1] in held)


# ---------------------------------------------------------------- eligibility (LH-34)

def _claims(s: LhState, seat: int, card: int, hu: bool, melds_ok: bool, nxt: bool
            ) -> tuple[Claim, ...]:
    """The claims of a seat that may 胡 (``hu``) and, with ``melds_ok`` (a discard, the wall
    not empty: LH-29, LH-31), may 杠 or 碰 by its count and, as the next player (``nxt``),
    吃."""
    out: list[Claim] = [(HU, ())] if hu else []
    if melds_ok:
        k = s.hands[seat].count(card)
        if k >= 3:
            out.append((GANG, (card,) * 3))                     # LH-21, LH-25
        if k >= 2:
            out.append((PENG, (card,) * 2))                     # LH-20
        if nxt:
            out.extend((CHI, pair) for pair in chi_pairs(s, seat, card))
    return tuple(out)


def seat_claims(s: LhState, seat: int, kind: str, card: int, frm: int) -> tuple[Claim, ...]:
    """The seat's legal claims on the card of a window (hu, gang, peng, each chi pair)."""
    if card == RJ or seat == frm:
        return ()
    win = FANGCHONG if kind == DISCARD_WINDOW else QIANGGANG
    return _claims(s, seat, card, could_hu(s, seat, card, win),
                   kind == DISCARD_WINDOW and s.tail >= s.front, seat == (frm + 1) % SEATS)


_ANSWER_ORDER = tuple(tuple((frm + k) % SEATS for k in range(1, SEATS)) for frm in range(SEATS))


# the last answer of ``eligible_of``: (hands, melds, options, (window, card, from, wall not
# empty), eligible). Only what it reads: the tuples and the options are never changed, and
# holding them keeps their ids from being reused.
_LAST_ELIGIBLE: list[tuple[Any, ...]] = [((), (), None, (), ())]


def eligible_of(s: LhState) -> tuple[tuple[int, tuple[Claim, ...]], ...]:
    """The eligible seats of the open window and their claims, in turn order from the
    discarder (declarer) + 1 (LH-34); the last answer is kept, since the engine builds the
    owed WINDOW and then checks it against the same state."""
    last = _LAST_ELIGIBLE[0]
    window = (s.w_kind, s.w_card, s.w_from, s.tail >= s.front)
    if last[0] is s.hands and last[1] is s.melds and last[2] is s.options and \
            last[3] == window:
        return last[4]
    out = _eligible(s)
    _LAST_ELIGIBLE[0] = (s.hands, s.melds, s.options, window, out)
    return out


def _eligible(s: LhState) -> tuple[tuple[int, tuple[Claim, ...]], ...]:
    """``eligible_of`` worked out: ``seat_claims`` of each seat, the winning faces of each
    hand looked up once."""
    card, frm = s.w_card, s.w_from
    if card == RJ:                                          # LH-32
        return ()
    discard = s.w_kind == DISCARD_WINDOW
    win = FANGCHONG if discard else QIANGGANG
    melds_ok = discard and s.tail >= s.front
    _, rules, memo = _rules_entry(s)
    hands, melds = s.hands, s.melds
    nxt = (frm + 1) % SEATS
    out = []
    for seat in _ANSWER_ORDER[frm]:
        h = hands[seat]
        faces = memo.get((h, melds[seat], win), _MISSING)
        if faces is _MISSING or faces is None:
            hu = _could_hu(s, seat, card, win, rules, memo)
        else:
            hu = card in faces
        if hu or melds_ok and (seat == nxt or h.count(card) >= 2):
            claims = _claims(s, seat, card, hu, melds_ok, seat == nxt)
            if claims:
                out.append((seat, claims))
    return tuple(out)


def refused_rule(s: LhState, seat: int, claim: Claim) -> tuple[str, str]:
    """The rule (and a reason) a claim the seat may not make breaks."""
    kind, with_ = claim
    card = s.w_card
    if card == RJ or RJ in with_:
        return "LH-32", "an RJ can neither be claimed nor used to claim"
    if kind == HU:
        rule = "LH-27" if s.w_kind == DISCARD_WINDOW else "LH-29"
        hm = hand_module()
        win = FANGCHONG if s.w_kind == DISCARD_WINDOW else QIANGGANG
        split = hm.best_split(tuple(sorted(s.hands[seat] + (card,))), hand_melds(s, seat),
                              hand_rules(s), win=win, winning_card=card)
        if split is not None:
            return "LH-45", f"the hand is worth {split.total}, below min_hu " \
                f"{s.options.min_hu}"
        return rule, "the hand plus the card is no winning hand (LH-36)"
    if s.w_kind != DISCARD_WINDOW:
        return "LH-29", "a 加杠 can only be robbed by 胡"
    if s.wall_size() < 1:
        return "LH-31", "the wall is empty: the last discard can only be claimed for 胡"
    if kind == CHI:
        if seat != (s.w_from + 1) % SEATS:
            return "LH-26", "only the discarder's next player may 吃"
        return "LH-26", "the two cards and the discard make no sequence allowed by chi_card"
    if kind == GANG:
        return "LH-21", "杠 on a discard needs three cards of its face in hand"
    return "LH-20", "碰 needs two cards of the discard's face in hand"


def executed(s: LhState) -> tuple[tuple[int, Claim], ...]:
    """The claims a closing window executes (LH-33, LH-35): the 胡 claims (the nearest in turn
    order, or all with multi_win = all), else the 杠 or 碰, else the 吃; () if all passed."""
    calls = [(seat, c) for seat, c in s.answers if c[0] in PRIORITY]
    if not calls:
        return ()
    top = max(PRIORITY[c[0]] for _, c in calls)
    best = [(seat, c) for seat, c in calls if PRIORITY[c[0]] == top]
    if best[0][1][0] == HU and s.options.multi_win == "all":
        return tuple(best)
    return (best[0],)
