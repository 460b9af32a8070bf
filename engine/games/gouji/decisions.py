"""够级 decision points (docs/decisions.md): the option categories of a seat's choice, read off
the state before the event in closed form — never by listing plays, which a 33-card lead has
hundreds of (GJ-12 to GJ-43).

A responder chooses between answering (管, GJ-14, GJ-20), burning (烧牌, GJ-39), passing
(GJ-22) and yielding (让牌, GJ-26); a leader between an ordinary lead, a lead that is a 够级
play (GJ-19), 开点 (GJ-36) and, as a burner, a lead without a joker (诈烧, GJ-43). 和点 is
agree or refuse (GJ-38); 宣点 is a standing option while the declaration window is open.
"""

from __future__ import annotations

from typing import cast

from engine.decisions import Decision
from engine.events import Event
from engine.games.gouji.cards import BJ_S, RJ_S, SHAPE_MIN, STRENGTH, THREE, TWO_S
from engine.games.gouji.state import JUDGED, N_SEATS, PLAY, GoujiState, PlayInfo, opposite
from engine.games.gouji.turns import (
    counts_out,
    gouji_now,
    may_answer_gouji,
    n_out_for_phase,
    responders,
)

DECISIONS = (
    ("lead", "an ordinary lead: not a 够级 play (GJ-21, GJ-19)"),
    ("lead_gouji", "a lead that is a 够级 play: only the opposite may answer it (GJ-19, GJ-20)"),
    ("kaidian", "开点: the lead of natural 4s after one's pure 够级 play stood (GJ-36)"),
    ("false_burn", "诈烧: a burner's lead without a joker, judged 拉客 (GJ-40, GJ-43)"),
    ("answer", "beat the top play (管), as the opposite, 没头 or on an ordinary play (GJ-14, "
               "GJ-20, GJ-30)"),
    ("burn", "烧牌: answer another's 够级 play when licensed, 反烧 included (GJ-39, GJ-41)"),
    ("pass", "pass (过牌): in the restricted phase it locks for the round (GJ-22, GJ-23)"),
    ("rang", "让牌: yield the opposite's play to the two seats after (GJ-26)"),
    ("agree", "和点: agree the opposite's 宣点, both are opened (GJ-38)"),
    ("refuse", "refuse the opposite's 宣点 (GJ-38)"),
    ("xuandian", "宣点: propose that the opposite pair does without 开点 (GJ-38)"),
    ("no_xuandian", "the declaration window closed without a 宣点 by the pair (GJ-38)"),
)
STANDING = {"xuandian": "no_xuandian"}
TAGS = (
    ("top_gouji", "the top play is a 够级 play now (GJ-19)"),
    ("top_burner", "the top play is the burner's (GJ-40, GJ-41)"),
    ("after_rang", "the seat acts again after its own 让牌 (GJ-26)"),
    ("burner", "the seat is the burner (GJ-39)"),
    ("meitou", "the seat is 没头: its opposite is out (GJ-30)"),
    ("opened", "the seat is opened: 开点 or 和点 (GJ-37)"),
    ("gouji", "the chosen play is a 够级 play (GJ-19, its annotation)"),
)
PHASES = ("restricted", "open")             # GJ-18, GJ-25
XUANDIAN_OPTIONS = frozenset(("xuandian", "no_xuandian"))
HEDIAN_OPTIONS = frozenset(("agree", "refuse"))
_COUNTS: dict[int, tuple[tuple[int, ...], list[int]]] = {}
_new = tuple.__new__
_RESPONSES = {  # (can answer as: "" / "answer" / "burn", may yield) -> the options
    (clause, rang): frozenset(("pass",) + ((clause,) if clause else ()) +
                              (("rang",) if rang else ()))
    for clause in ("", "answer", "burn") for rang in (False, True)}


def opposite_seat(seat: int, n_seats: int) -> int:
    """The opposite seat (对门, seat+3: an opponent, GJ-4)."""
    return (seat + 3) % n_seats if n_seats == N_SEATS else -1


def _phase(s: GoujiState) -> str:
    return "open" if s.open_phase else "restricted"


def strength_counts(hand: tuple[int, ...]) -> list[int]:
    """How many cards of each strength 0-17 the hand holds, then at index 18 + b the most
    natural cards of one strength from b to A (b = 0-14), so that ``can_beat`` needs no loop
    (cached by the hand's identity: a seat's hand is one immutable tuple until it changes,
    and often decides several times)."""
    hit = _COUNTS.get(id(hand))
    if hit is not None and hit[0] is hand:
        return hit[1]
    if len(_COUNTS) > 4096:
        _COUNTS.clear()
    cnt = [0] * 18
    for c in hand:
        cnt[STRENGTH[c]] += 1
    best = [0] * 16
    most = 0
    for b in range(TWO_S - 1, THREE - 1, -1):
        if cnt[b] > most:
            most = cnt[b]
        best[b] = most
    cnt += best
    _COUNTS[id(hand)] = (hand, cnt)
    return cnt


def can_beat(cnt: list[int], t: PlayInfo) -> bool:
    """GJ-14 in closed form: does a hand with these counts (``strength_counts``) hold a play
    that beats t? (equal count, at least t's BJs in RJs, a higher base: the bounds of
    answer_shapes)."""
    if t.nrj:
        return False
    n, need, base = t.n, t.nbj, t.base
    n2, nbj, nrj = cnt[TWO_S], cnt[BJ_S], cnt[RJ_S]
    if nrj < need:
        return False
    wild = n2 + nbj + nrj
    if n > need:
        if base < TWO_S - 1:                 # natural cards of a base above t's, 3s aside
            most = cnt[18 + max(base + 1, THREE + 1)]
            if most and most + wild >= n:
                return True
        if base < TWO_S and n2 and wild >= n:
            return True
    if base < BJ_S and nbj and max(1, n - nrj) <= min(nbj, n - need):
        return True
    return n <= nrj


def may_yield(s: GoujiState, seat: int) -> bool:
    """GJ-26: the top play is the opposite's, the seat has not yielded on it, and one of the
    two seats after it is a responder."""
    if s.top_seat != opposite(seat) or s.rang_seat == seat:
        return False
    r = responders(s)
    d = s.direction
    return bool(r >> ((seat + d) % N_SEATS) & 1 or r >> ((seat + 2 * d) % N_SEATS) & 1)


def respond_options(s: GoujiState, seat: int) -> tuple[frozenset[str], bool]:
    """A responder's categories (GJ-14, GJ-20, GJ-22, GJ-26, GJ-39) and whether it could
    answer (beat the top play and be allowed to)."""
    clause = _answer_clause(s, seat, gouji_now(s))
    return _RESPONSES[clause, may_yield(s, seat)], bool(clause)


def _answer_clause(s: GoujiState, seat: int, gouji: bool) -> str:
    """'answer' or 'burn' if GJ-20 lets the seat answer the top play and it can beat it
    (GJ-14), else ''."""
    if gouji:
        clause = may_answer_gouji(s, seat)
        if not clause:
            return ""
        clause = "burn" if clause == "burn" else "answer"
    else:
        clause = "answer"
    info = cast(PlayInfo, s.top_info)                # a seat answers the top play
    return clause if can_beat(strength_counts(s.hands[seat]), info) else ""


def _whole_hand(cnt: list[int], size: int, b: bool, k: bool, ge: bool) -> str | None:
    """The category of the lead of the whole hand, when it is one play (GJ-12)."""
    nat = [r for r in range(THREE, TWO_S) if cnt[r]]
    if len(nat) > 1:
        return None
    n2, jokers = cnt[TWO_S], cnt[BJ_S] + cnt[RJ_S]
    base = nat[0] if nat else TWO_S if n2 else BJ_S if cnt[BJ_S] else RJ_S
    if b and not jokers and not (size == 1 and base == THREE):
        return "false_burn"
    if k and base == 4 and n2 + jokers == 0:
        return "kaidian"
    return "lead_gouji" if (jokers or size >= SHAPE_MIN[base]) and ge else "lead"


def _partial_leads(cnt: list[int], size: int, b: bool, k: bool, shaped: str) -> set[str]:
    """Categories of the leads that leave cards in hand (GJ-12, GJ-16, GJ-28, GJ-36, GJ-43);
    ``shaped`` is the category of a 够级-shaped lead that is not void."""
    found: set[str] = set()
    top = size - 1                               # the most cards such a lead has
    n2, jokers = cnt[TWO_S], cnt[BJ_S] + cnt[RJ_S]
    if top < 1:
        return found
    if jokers:
        found.add(shaped)                        # a lone joker: shaped, never void
    nat = [r for r in range(THREE + 1, TWO_S) if cnt[r]]
    if cnt[THREE] and not nat and cnt[THREE] >= 2:   # 3s led only with only 3s left (GJ-28)
        found.add(shaped if jokers else "false_burn" if b else "lead")
    for r in nat:
        if b:
            found.add("false_burn")              # a lead without a joker (GJ-40)
        elif k and r == 4:
            found.add("kaidian")
            if n2 and min(cnt[r] + n2, top) >= 2:
                found.add("lead")                # 4s with an attached 2: not 开点
        else:
            found.add("lead")                    # one natural card is never 够级-shaped
            if min(cnt[r] + n2, top) >= SHAPE_MIN[r]:
                found.add(shaped)
    if n2:
        found.add("false_burn" if b else shaped)
    return found


def lead_options(s: GoujiState, seat: int) -> frozenset[str]:
    """A leader's categories: every legal lead (GJ-12, GJ-28) is a false burn if void (GJ-43),
    else 开点 (GJ-36), else a 够级 play or not (GJ-19) by whether it empties the hand."""
    hand = s.hands[seat]
    cnt = strength_counts(hand)
    size = len(hand)
    b, k = s.burner == seat, s.kd_cand == seat
    gc = not s.open_phase and not counts_out(s, opposite(seat))
    ge = gc and n_out_for_phase(s) + 1 < 2
    found = _partial_leads(cnt, size, b, k, "lead_gouji" if gc else "lead")
    whole = _whole_hand(cnt, size, b, k, ge)
    if whole is not None:
        found.add(whole)
    return frozenset(found)


def lead_category(tag: str) -> str:
    """The category of a lead from its annotation tag (GJ-48)."""
    parts = tag.split("+")
    if "void" in parts:
        return "false_burn"
    if "kaidian" in parts:
        return "kaidian"
    return "lead_gouji" if "gouji" in parts else "lead"


def _answer_category(s: GoujiState, seat: int) -> str:
    return "burn" if gouji_now(s) and may_answer_gouji(s, seat) == "burn" else "answer"


def _seat_tags(s: GoujiState, seat: int, e: Event) -> list[str]:
    """Tags of the seat: burner, 没头 (GJ-30), opened (GJ-37), and the chosen play's 够级."""
    tags = []
    if s.burner == seat:
        tags.append("burner")
    if not s.open_phase and counts_out(s, (seat + 3) % N_SEATS):
        tags.append("meitou")
    if s.opened >> seat & 1:
        tags.append("opened")
    if "+gouji" in e.tag:
        tags.append("gouji")
    return tags


def _respond(s: GoujiState, e: Event) -> Decision | None:
    """A responder's decision: ``respond_options`` and the tags, inlined (every PASS and
    answer of a game goes through here)."""
    seat, top = e.seat, s.top_seat
    info = cast(PlayInfo, s.top_info)                # a responder answers the top play
    out, how, open_phase = s.out_pos, s.out_how, s.open_phase
    judged = s.options.judged_counts_as_out
    o_top, o_me = (top + 3) % N_SEATS, (seat + 3) % N_SEATS
    gouji = info.shaped and not s.top_huiwu and not open_phase and not (
        out[o_top] and (judged or how[o_top] not in JUDGED))          # GJ-19
    meitou = not open_phase and out[o_me] != 0 and (judged or how[o_me] not in JUDGED)
    if not gouji or seat == o_top or meitou:                            # GJ-20
        clause = "answer"
    elif s.options.kaidian_effect != "burn_licence" or s.opened >> seat & 1:
        clause = "burn"                                                 # GJ-39
    else:
        clause = ""
    if clause and not can_beat(strength_counts(s.hands[seat]), info):
        clause = ""
    rang = top == o_me and may_yield(s, seat)
    if not clause and not rang:
        return None                         # only a pass
    kind = e.kind
    chosen = "pass" if kind == "PASS" else "rang" if kind == "RANG" else clause or "answer"
    tags = []
    if s.burner == seat:
        tags.append("burner")
    if meitou:
        tags.append("meitou")
    if s.opened >> seat & 1:
        tags.append("opened")
    if "+gouji" in e.tag:
        tags.append("gouji")
    if gouji:
        tags.append("top_gouji")
    if s.burner >= 0 and s.burner == top:
        tags.append("top_burner")
    if s.rang_seat == seat:
        tags.append("after_rang")
    return _new(Decision, (seat, _RESPONSES[clause, rang], chosen, tuple(tags),
                           e.cards if kind == "PLAY" else (), len(s.hands[seat]),
                           "open" if open_phase else "restricted", bool(clause), top))


def _turn(s: GoujiState, e: Event) -> Decision | None:
    seat = e.seat
    if seat != s.to_act or s.owed or s.stage != PLAY or s.huiwu_due or s.xd_pending >= 0 \
            or seat < 0:
        return None
    if s.top_seat >= 0:
        return _respond(s, e)
    if e.kind != "PLAY":
        return None
    options = lead_options(s, seat)
    if len(options) < 2:
        return None
    return _new(Decision, (seat, options, lead_category(e.tag), tuple(_seat_tags(s, seat, e)),
                           e.cards, len(s.hands[seat]), _phase(s), False, -1))


def _hedian(s: GoujiState, e: Event) -> Decision | None:
    if s.xd_pending < 0 or e.seat != opposite(s.xd_pending) or e.tag not in HEDIAN_OPTIONS:
        return None
    return Decision(e.seat, HEDIAN_OPTIONS, e.tag, (), (), len(s.hands[e.seat]), _phase(s),
                    False, -1)


def _xuandian(s: GoujiState, e: Event) -> Decision | None:
    if s.stage != PLAY or not s.window or s.xd_pending >= 0 or not 0 <= e.seat < N_SEATS \
            or s.xd_used >> (e.seat % 3) & 1:
        return None
    return Decision(e.seat, XUANDIAN_OPTIONS, "xuandian", (), (), len(s.hands[e.seat]),
                    _phase(s), False, -1)


# the decision of an event by its kind (the collector's fast path: other kinds decide nothing)
BY_KIND = {"PLAY": _turn, "PASS": _turn, "RANG": _turn, "HEDIAN": _hedian,
           "XUANDIAN": _xuandian}
LAPSING = frozenset(("PLAY", "HUIWU"))     # the first play closes the declaration window


def decision(s: GoujiState, e: Event) -> Decision | None:
    """The decision ``e`` makes in ``s`` (the state before it), or None (docs/decisions.md)."""
    h = BY_KIND.get(e.kind)
    return None if h is None else h(s, e)


def lapsed(s: GoujiState, e: Event) -> tuple[Decision, ...]:
    """The 宣点 let go: the first play of the game (the 会五 included) closes the declaration
    window (GJ-38); one row per seat of a pair that has not used its 宣点."""
    if not s.window or e.kind not in LAPSING or s.xd_pending >= 0 or s.owed:
        return ()
    return tuple(Decision(i, XUANDIAN_OPTIONS, "no_xuandian", (), (), len(s.hands[i]),
                          _phase(s), False, -1)
                 for i in range(N_SEATS) if not s.xd_used >> (i % 3) & 1)


def action_category(s: GoujiState, a: Event) -> str | None:
    """The category of a listed legal action, None for one that is no decision category
    (DIRECTION, HUIWU, DESIGNATE, a derived or chance event)."""
    k = a.kind
    if k == "PLAY":
        return lead_category(a.tag) if s.top_seat < 0 else _answer_category(s, a.seat)
    if k == "HEDIAN":
        return a.tag
    return {"PASS": "pass", "RANG": "rang", "XUANDIAN": "xuandian"}.get(k)
