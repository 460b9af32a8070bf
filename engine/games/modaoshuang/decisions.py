"""摸到爽 decision points (docs/decisions.md): the option categories of a seat's choice, read
off the state before the event (MDS-12 to MDS-34).

On its turn a seat chooses between leading or following with a suited card, a joker (within
MDS-19, or against it under ``penalty``: MDS-20), drawing (诈摸 when it holds the round suit,
MDS-21) and not playing (MDS-29, MDS-32, MDS-34); a seat entitled to give (MDS-25) gives or
not. The report (报双, MDS-22, MDS-26) is a standing option, taken or missed.
"""

from __future__ import annotations

from engine.decisions import Decision, OptionSets
from engine.events import Event
from engine.games.modaoshuang.cards import MIN_HOLD, STRENGTH, has_suit
from engine.games.modaoshuang.plays import TURN
from engine.games.modaoshuang.state import PLAY, REPORT, MdsState

DECISIONS = (
    ("lead", "lead a suited card: its suit is the round's (MDS-12)"),
    ("follow", "play a card of the round suit (MDS-16, MDS-29; the final round MDS-34)"),
    ("joker", "play a joker within its limits (百搭, MDS-3, MDS-19)"),
    ("joker_violation", "play a joker against MDS-19, penalised as a missed report (MDS-20)"),
    ("feint", "诈摸: draw while holding the round suit (MDS-21)"),
    ("draw", "draw, lacking the round suit (MDS-17), or as a leader unable to lead (MDS-18)"),
    ("no_play", "do not play: lacking the suit in 收到爽 (MDS-29, MDS-30), no lead (MDS-32), "
                "the final round (MDS-34)"),
    ("gift", "give a card to the offender of a missed report (罚, MDS-25)"),
    ("no_gift", "give nothing (MDS-25)"),
    ("report", "the two-card report (报双, MDS-22; one card with mds_one_card_report, MDS-26)"),
    ("miss_report", "the report deadline passed: 漏报 (MDS-22, MDS-23)"),
)
STANDING = {"report": "miss_report"}
TAGS = (
    ("round1", "round 1, whose suit came from the suit draw (MDS-10, MDS-12)"),
    ("foe_one", "a lead while another seat holds one card: 点炮 danger (MDS-35)"),
    ("could_top", "the seat held a card it may play above the table's highest (MDS-13)"),
    ("tops", "the card played is above the table's highest so far (MDS-13)"),
)
PHASES = ("draw", "shou", "final")          # stock left; 收到爽 (MDS-28); final round (MDS-34)
REPORT_OPTIONS = frozenset(("report", "miss_report"))
GIFT_OPTIONS = frozenset(("gift", "no_gift"))


def opposite_seat(seat: int, n_seats: int) -> int:
    """摸到爽 has no opposite seat: each plays for himself (MDS-6)."""
    return -1


def _phase(s: MdsState) -> str:
    if s.winner >= 0:
        return "final"
    return "shou" if s.shou else "draw"


_INDEX = {c: i for i, (c, _) in enumerate(DECISIONS)}
BIT = {c: 1 << i for c, i in _INDEX.items()}
LEAD, FOLLOW, JOKER, VIOLATION, FEINT, DRAW, NO_PLAY = (
    BIT[c] for c in ("lead", "follow", "joker", "joker_violation", "feint", "draw", "no_play"))
_SETS = OptionSets(BIT)
_new = tuple.__new__


option_set = _SETS.__getitem__        # the categories of a mask of category bits, cached


def _joker_category(card: int, held: int, penalty: bool) -> str | None:
    if held >= MIN_HOLD[card]:
        return "joker"
    return "joker_violation" if penalty else None


def turn_mask(s: MdsState, hand: tuple[int, ...]) -> tuple[int, bool]:
    """The category bits of the turn actions of a seat holding ``hand`` (MDS-12, MDS-16 to
    MDS-21, MDS-29, MDS-32, MDS-34) and whether it could follow (held the round suit)."""
    suit = s.suit
    follows = suit >= 0 and has_suit(hand, suit)
    if s.winner >= 0:
        return (FOLLOW | NO_PLAY if follows else NO_PLAY), follows
    n = len(hand)
    penalty = s.options.mds_joker_violation == "penalty"
    mask = FOLLOW if follows else LEAD if suit < 0 and hand[0] < 52 else 0
    if hand[-1] >= 52:
        for j in hand[-2:]:
            if j >= 52:
                mask |= JOKER if n >= MIN_HOLD[j] else VIOLATION if penalty else 0
    lead_able = mask & (LEAD | JOKER | VIOLATION) if suit < 0 else 0
    if s.stock:                                          # MDS-17, MDS-18, MDS-21
        if suit < 0:
            mask |= 0 if lead_able else DRAW
        elif follows:
            mask |= FEINT if s.options.mds_zhamo else 0
        else:
            mask |= DRAW
    elif not (lead_able if suit < 0 else follows):       # MDS-29, MDS-32
        mask |= NO_PLAY
    return mask, follows


def turn_options(s: MdsState, seat: int) -> frozenset[str]:
    """The categories of the seat's turn actions."""
    return option_set(turn_mask(s, s.hands[seat])[0])


def play_category(s: MdsState, card: int, held: int) -> str | None:
    """The category of a played card by a seat holding ``held`` cards."""
    if s.winner >= 0:
        return "follow"
    if card >= 52:
        return _joker_category(card, held, s.options.mds_joker_violation == "penalty")
    return "lead" if s.suit < 0 else "follow"


def _follow_tags(s: MdsState, hand: tuple[int, ...], e: Event) -> tuple[tuple[str, ...], int]:
    """``could_top`` (the seat held a card it may play above the table's highest) and
    ``tops`` (its play is above it), and the seat of the table's highest card."""
    best, top = -1, -1
    for c, x in zip(s.table, s.table_seats, strict=True):
        if STRENGTH[c] > best:
            best, top = STRENGTH[c], x
    if best < 0 or s.winner >= 0:
        return (), top
    n, suit = len(hand), s.suit
    penalty = s.options.mds_joker_violation == "penalty"
    tags: tuple[str, ...] = ()
    for c in hand:
        if STRENGTH[c] > best and ((c < 52 and c // 13 == suit) or
                                   (c >= 52 and (penalty or n >= MIN_HOLD[c]))):
            tags = ("could_top",)
            break
    if e.kind == "PLAY" and STRENGTH[e.cards[0]] > best:
        tags += ("tops",)
    return tags, top


def _turn(s: MdsState, e: Event) -> Decision | None:
    seat = e.seat
    if s.phase != PLAY or s.pen_gifts or s.pen_draws or seat != (s.leader + s.turns) % s.n:
        return None
    kind = e.kind
    if kind == "DRAW" and e.tag != TURN:
        return None
    hand = s.hands[seat]
    mask, follows = turn_mask(s, hand)
    if not mask & (mask - 1):               # one category (or none): no choice between kinds
        return None
    if kind == "PLAY":
        if len(e.cards) != 1 or not 0 <= e.cards[0] < 54:
            return None
        chosen = play_category(s, e.cards[0], len(hand))
        if chosen is None:
            return None
    else:
        chosen = ("feint" if e.value == 1 else "draw") if kind == "DRAW" else "no_play"
    tags: tuple[str, ...]
    if s.suit < 0:
        tags, top = ("foe_one",) if any(len(h) == 1 for h in s.hands) else (), -1
    else:
        tags, top = _follow_tags(s, hand, e)
    if s.round_no == 1:
        tags += ("round1",)
    phase = "final" if s.winner >= 0 else "shou" if s.shou else "draw"
    return _new(Decision, (seat, _SETS[mask], chosen, tags,
                           e.cards if kind == "PLAY" else (), len(hand), phase, follows, top))


def _report(s: MdsState, e: Event) -> Decision | None:
    if e.seat != s.report_seat or e.seat < 0 or s.winner >= 0:
        return None
    return Decision(e.seat, REPORT_OPTIONS, "report", (), (), len(s.hands[e.seat]), _phase(s),
                    False, -1)


def _missed(s: MdsState, e: Event) -> Decision | None:
    if not s.missed or s.missed[0] != (e.seat, REPORT):
        return None
    return Decision(e.seat, REPORT_OPTIONS, "miss_report", (), (), len(s.hands[e.seat]),
                    _phase(s), False, -1)


def _gift(s: MdsState, e: Event) -> Decision | None:
    if not s.pen_gifts or e.seat != s.pen_gifts[0]:
        return None
    return Decision(e.seat, GIFT_OPTIONS, "gift" if e.cards else "no_gift", (), e.cards,
                    len(s.hands[e.seat]), _phase(s), False, -1)


# the decision of an event by its kind (the collector's fast path: other kinds decide nothing)
BY_KIND = {"PLAY": _turn, "DRAW": _turn, "NO_PLAY": _turn, "REPORT": _report,
           "MISSED_REPORT": _missed, "GIFT": _gift}
LAPSING: frozenset[str] = frozenset()


def decision(s: MdsState, e: Event) -> Decision | None:
    """The decision ``e`` makes in ``s`` (the state before it), or None (docs/decisions.md)."""
    h = BY_KIND.get(e.kind)
    return None if h is None else h(s, e)


def lapsed(s: MdsState, e: Event) -> tuple[Decision, ...]:
    """摸到爽 lets no standing option lapse silently: a missed report is its own event."""
    return ()


def action_category(s: MdsState, a: Event) -> str | None:
    """The category of a listed legal action, None for an automatic event."""
    k = a.kind
    if k == "PLAY":
        return play_category(s, a.cards[0], len(s.hands[a.seat]))
    if k == "DRAW":
        return ("feint" if a.value == 1 else "draw") if a.tag == TURN else None
    if k == "GIFT":
        return "gift" if a.cards else "no_gift"
    return {"NO_PLAY": "no_play", "REPORT": "report"}.get(k)
