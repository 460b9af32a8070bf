"""六人斗地主 facts (engine.facts, docs/facts.md): one catalog per variant — what the deal gave
each seat (bombs, big bombs, joker bombs), the combinations it played (bombs, joker bombs,
airplanes, straights, 七星聚), its role (landlord, farmer, and the variant's own: the 3v3
hidden landlord and his reveal, the 2v4 big and second landlord, the 正反 landlords and side
choosing, a solo hand), its choices (bid, doubling, show hand) and how the hand ended (went
out, won, lost, won without play).

``hooks(variant)`` builds the variant's ``FactHooks``. ``after`` reads the state after an
accepted event and the event itself, dispatching on the event kind: no move generation, no
state copies (it runs on every event at ingest).
"""

from __future__ import annotations

from collections.abc import Callable

from engine.events import Event
from engine.games.base import Fact, FactHooks
from engine.games.ddz6.cards import BJ_V, RJ_V, THREE, TWO_V, four_deck, value_counts
from engine.games.ddz6.combos import AIRPLANE, BOMB, JOKER_BOMB, QIXINGJU, STRAIGHT
from engine.games.ddz6.play import side_code
from engine.games.ddz6.state import OUT, DdzState

Pairs = tuple[tuple[int, str], ...]
Handler = Callable[[DdzState, Event], Pairs]

BIG_BOMB = {"3v3": 6, "2v4": 7, "zhengfan": 7}   # the smallest bomb that raises N (DDZ-83/86)
EARLY_ROUND = 3                                  # revealed_early: before the third round
QIXINGJU_TAG = f"{JOKER_BOMB}:{QIXINGJU}"        # the declared 七星聚 (DDZ-69 ③, DDZ-93)

# ---------------------------------------------------------------- the catalogs

_DEALT = (
    Fact("dealt_bomb", "dealt a bomb (炸彈)",
         "the seat's DEAL gave it 4 or more cards of one rank 3…2 (a bomb: DDZ-51, DDZ-67), "
         "counted once per such rank; 4-deck: the 34 dealt cards, before the kitty (DDZ-5)"),
    Fact("dealt_big_bomb", "dealt a big bomb (大炸彈)",
         "the seat's DEAL gave it a bomb that raises N when played: 6 or more cards of one "
         "rank in 3v3 (DDZ-83), 7 or more in the 4-deck variants (DDZ-86), counted once per "
         "such rank"),
    Fact("dealt_joker_bomb", "dealt a joker bomb (王炸)",
         "the seat's DEAL gave it jokers that make a joker bomb: three of one colour or four "
         "or more jokers (DDZ-52; 4-deck DDZ-68), once per hand"),
)
_PLAYED = (
    Fact("played_bomb", "played a bomb (炸彈)",
         "the seat played a bomb of one rank (DDZ-51, DDZ-67), counted per play"),
    Fact("played_joker_bomb", "played a joker bomb (王炸)",
         "the seat played a joker bomb (DDZ-52, DDZ-68; a five-joker trio+pair of DDZ-59 is "
         "not one), counted per play"),
    Fact("played_airplane", "played an airplane (飛機帶翅膀)",
         "the seat played an airplane with wings (DDZ-50, DDZ-63), counted per play"),
    Fact("played_straight", "played a straight (順子)",
         "the seat played a straight of 5 or more single cards (DDZ-47, DDZ-60), counted per "
         "play"),
)
_END = (
    Fact("went_out", "went out first (出完牌)",
         "the seat played its last card, which ends the hand and wins it for its side "
         "(DDZ-76)"),
    Fact("won", "won the hand (獲勝)",
         "the seat was on the winning side when the hand ended, by going out or without play "
         "(DDZ-76 … DDZ-78); a void hand (DDZ-18, DDZ-80) has no winner"),
    Fact("lost", "lost the hand (輸)",
         "the seat was on the losing side when the hand ended (DDZ-76 … DDZ-78); a void hand "
         "(DDZ-80) has no loser"),
    Fact("landlord", "landlord (地主)",
         "the seat became a landlord, counted at the event that made it one: 3v3 CASE for M, "
         "P and the hidden landlords, BID_END for the bid winner (DDZ-17, DDZ-24); 4-deck "
         "LANDLORDS (DDZ-28, DDZ-29, DDZ-32, DDZ-33)"),
    Fact("farmer", "farmer (農民)",
         "the seat became a farmer, counted when every role is fixed: 3v3 CASE in cases A "
         "and C, BID_END after a winning bid (DDZ-24; nobody is a farmer in a void hand, "
         "DDZ-18); 4-deck LANDLORDS (DDZ-31, DDZ-32)"),
)
_AUTO_WIN_3V3 = Fact(
    "auto_win", "won without play (不打自贏)",
    "case C: M received all three cards of the marked face and wins alone against five "
    "without play (DDZ-24, DDZ-77); counted at AUTO_END")
_AUTO_WIN_4 = Fact(
    "auto_win", "won without play (不打自贏)",
    "the auto-win check found a landlord's hand without a bomb, all bombs after one play or "
    "with a bomb of 13 or more cards (DDZ-78, DDZ-79); counted at AUTO_END for every seat "
    "of the winning side (a void both-landlords hand in 正反 counts for nobody)")
_SHOWED = Fact(
    "showed_hand", "showed the hand (明牌加倍)",
    "the landlord chose to play with his hand face up (DDZ-38), N + 3, + 6 both, + 9 solo "
    "(DDZ-39); counted at the SHOW_HAND decision")
_QIXINGJU = Fact(
    "qixingju", "played seven jokers (七星聚)",
    "the seat played seven jokers, 七星聚 (DDZ-69 ③), N + 9 outside a solo hand (DDZ-86, "
    "DDZ-87); with qixingju_lock on, the eighth joker is locked (DDZ-70)")

_SHARED = (*_DEALT, *_PLAYED, *_END)

FACTS: dict[str, tuple[Fact, ...]] = {
    "3v3": (*_SHARED, _AUTO_WIN_3V3,
            Fact("hidden_landlord", "hidden landlord (暗地主)",
                 "the seat held a lone card of the marked face and was a landlord known "
                 "only to itself: H1 and H2 in case A, H in case B1 (DDZ-24, DDZ-27); "
                 "counted at CASE"),
            Fact("revealed", "revealed as hidden landlord (暗地主)",
                 "the hidden landlord played a combination holding a card of the marked "
                 "face and was revealed to all (DDZ-26); counted at REVEAL"),
            Fact("revealed_early", "revealed before round 3 (暗地主)",
                 "the hidden landlord was revealed (DDZ-26) in the first or second round of "
                 "play (a round: a lead and the plays after it, DDZ-74); counted at REVEAL"),
            Fact("stayed_hidden", "hidden landlord never revealed (暗地主)",
                 "a hidden landlord (DDZ-24) was never revealed (DDZ-26) before the hand "
                 "ended by a seat going out (DDZ-76); counted at HAND_END"),
            Fact("won_bid", "won the bidding (叫分)",
                 "the seat won the bidding in case B1 or B2 and became an open landlord "
                 "with its bid as S (DDZ-14, DDZ-17, DDZ-82); counted at BID_END"),
            Fact("doubled", "doubled (加倍)",
                 "the seat chose to double, N + 1 (DDZ-37); a default decline is not one "
                 "(DDZ-75)"),
            ),
    "2v4": (*_SHARED, _AUTO_WIN_4, _SHOWED, _QIXINGJU,
            Fact("big_landlord", "big landlord (大地主)",
                 "the seat became the first landlord: the bid winner, or OM when nobody bid "
                 "(DDZ-19, DDZ-20), a solo landlord included; counted at LANDLORDS"),
            Fact("second_landlord", "second landlord (二地主, 暗牌)",
                 "the seat held the dark mark and was not the first landlord, so it became "
                 "the second landlord (DDZ-22, DDZ-28, DDZ-30); counted at LANDLORDS"),
            Fact("solo", "alone against five (獨打, 一打五)",
                 "the first landlord held the dark mark himself and played alone against "
                 "five with all 12 kitty cards (DDZ-29); counted at LANDLORDS"),
            ),
    "zhengfan": (*_SHARED, _AUTO_WIN_4, _SHOWED, _QIXINGJU,
                 Fact("zheng_landlord", "正 landlord (正地主, 明地主)",
                      "the seat held the open mark and was the 正 landlord against a 反 "
                      "landlord (DDZ-32); counted at LANDLORDS"),
                 Fact("fan_landlord", "反 landlord (反地主, 暗地主)",
                      "the seat held the dark mark and was the 反 landlord against a 正 "
                      "landlord (DDZ-32); counted at LANDLORDS"),
                 Fact("solo", "alone against five (獨打, 一打五)",
                      "the seat held both marks and played alone against five with all 12 "
                      "kitty cards, no side choosing (DDZ-33); counted at LANDLORDS"),
                 Fact("joined_fan", "chose the 反 side (站隊)",
                      "a farmer asked to choose (F1, F2, or F3 when they differ) joined the "
                      "反 (dark-mark) landlord (DDZ-35); placed farmers did not choose"),
                 ),
}

# The event kinds each variant's ``after`` may return pairs for.
KINDS: dict[str, frozenset[str]] = {
    "3v3": frozenset({"DEAL", "CASE", "BID_END", "DOUBLE", "PLAY", "REVEAL", "AUTO_END",
                      "HAND_END"}),
    "2v4": frozenset({"DEAL", "LANDLORDS", "SHOW_HAND", "PLAY", "AUTO_END", "HAND_END"}),
    "zhengfan": frozenset({"DEAL", "LANDLORDS", "SIDE_CHOICE", "SHOW_HAND", "PLAY",
                           "AUTO_END", "HAND_END"}),
}

NONE: Pairs = ()


# ---------------------------------------------------------------- shared handlers

def _deal(s: DdzState, e: Event) -> Pairs:
    """dealt_bomb, dealt_big_bomb, dealt_joker_bomb from each seat's dealt hand."""
    big = BIG_BOMB[s.variant]
    out: list[tuple[int, str]] = []
    for seat, hand in enumerate(s.hands):
        c = value_counts(hand)
        for n in c[THREE:TWO_V + 1]:
            if n >= 4:
                out.append((seat, "dealt_bomb"))
                if n >= big:
                    out.append((seat, "dealt_big_bomb"))
        b, r = c[BJ_V], c[RJ_V]
        if b >= 3 or r >= 3 or b + r >= 4:
            out.append((seat, "dealt_joker_bomb"))
    return tuple(out)


_PLAY_FACT = {BOMB: "played_bomb", JOKER_BOMB: "played_joker_bomb",
              AIRPLANE: "played_airplane", STRAIGHT: "played_straight"}
# 4-deck or not -> declared tag -> the facts of a play so declared (filled as tags come)
_TAG_FACTS: dict[bool, dict[str, tuple[str, ...]]] = {False: {}, True: {}}


def tag_facts(four: bool, tag: str) -> tuple[str, ...]:
    """The facts a play declared as ``tag`` (DDZ-93) makes happen: its combination type
    and, 4-deck, 七星聚 (DDZ-69 ③); worked out once per tag."""
    got = _TAG_FACTS[four].get(tag)
    if got is None:
        fact = _PLAY_FACT.get(tag.partition(":")[0])
        got = () if fact is None else (fact,)
        if four and tag == QIXINGJU_TAG:
            got += ("qixingju",)
        _TAG_FACTS[four][tag] = got
    return got


def _play(s: DdzState, e: Event) -> Pairs:
    """The combination type played (DDZ-93's declared tag) and going out (DDZ-76)."""
    seat = e.seat
    facts = tag_facts(s.four, e.tag)
    if s.hands[seat]:
        return tuple((seat, f) for f in facts) if facts else NONE
    return tuple((seat, f) for f in facts) + ((seat, "went_out"),)


def _hand_end(s: DdzState, e: Event) -> Pairs:
    """won and lost for every seat with a side; 3v3: hidden landlords never revealed."""
    win = s.win_side
    out: list[tuple[int, str]] = []
    if win >= 0:
        for seat in range(len(s.hands)):
            code = side_code(s, seat)
            if code >= 0:
                out.append((seat, "won" if code == win else "lost"))
    if s.hidden and s.end_reason == OUT:
        out.extend((x, "stayed_hidden") for x in s.hidden if x not in s.revealed)
    return tuple(out)


def _auto_end(s: DdzState, e: Event) -> Pairs:
    """auto_win for every seat of the winning side (none when void)."""
    win = e.value
    if win < 0:
        return NONE
    return tuple((seat, "auto_win") for seat in range(len(s.hands))
                 if side_code(s, seat) == win)


def _farmers(s: DdzState) -> Pairs:
    """Every seat that is not a landlord, once the roles are fixed."""
    return tuple((x, "farmer") for x in range(len(s.hands)) if x not in s.landlords)


# ---------------------------------------------------------------- 3v3

def _case(s: DdzState, e: Event) -> Pairs:
    """The landlords the case makes (M, P, hidden) and, in cases A and C, the farmers."""
    lords = ((s.om,) if s.p_seat < 0 else (s.om, s.p_seat)) + s.hidden
    out = tuple((x, "landlord") for x in lords)
    out += tuple((x, "hidden_landlord") for x in s.hidden)
    if s.fixed:
        out += _farmers(s)
    return out


def _bid_end(s: DdzState, e: Event) -> Pairs:
    """The bid winner becomes a landlord (DDZ-17): every role is fixed."""
    if e.seat < 0:
        return NONE
    return ((e.seat, "won_bid"), (e.seat, "landlord"), *_farmers(s))


def _double(s: DdzState, e: Event) -> Pairs:
    return ((e.seat, "doubled"),) if e.value == 1 else NONE


def _reveal(s: DdzState, e: Event) -> Pairs:
    if s.round_no < EARLY_ROUND:
        return ((e.seat, "revealed"), (e.seat, "revealed_early"))
    return ((e.seat, "revealed"),)


# ---------------------------------------------------------------- 4-deck

def _landlords_2v4(s: DdzState, e: Event) -> Pairs:
    first = e.seat
    out: Pairs = ((first, "big_landlord"), (first, "landlord"))
    if s.solo:
        out += ((first, "solo"),)
    else:
        out += ((e.target, "second_landlord"), (e.target, "landlord"))
    return out + _farmers(s)


def _landlords_zhengfan(s: DdzState, e: Event) -> Pairs:
    first = e.seat
    if s.solo:
        out: Pairs = ((first, "landlord"), (first, "solo"))
    else:
        out = ((first, "landlord"), (first, "zheng_landlord"), (e.target, "landlord"),
               (e.target, "fan_landlord"))
    return out + _farmers(s)


def _show(s: DdzState, e: Event) -> Pairs:
    return ((e.seat, "showed_hand"),) if e.value == 1 else NONE


def _side_choice(s: DdzState, e: Event) -> Pairs:
    return ((e.seat, "joined_fan"),) if e.value == 1 and not e.tag else NONE


_SHARED_BY_KIND: dict[str, Handler] = {"DEAL": _deal, "PLAY": _play, "AUTO_END": _auto_end,
                                       "HAND_END": _hand_end}
BY_KIND: dict[str, dict[str, Handler]] = {
    "3v3": {**_SHARED_BY_KIND, "CASE": _case, "BID_END": _bid_end, "DOUBLE": _double,
            "REVEAL": _reveal},
    "2v4": {**_SHARED_BY_KIND, "LANDLORDS": _landlords_2v4, "SHOW_HAND": _show},
    "zhengfan": {**_SHARED_BY_KIND, "LANDLORDS": _landlords_zhengfan, "SHOW_HAND": _show,
                 "SIDE_CHOICE": _side_choice},
}


def after(s: DdzState, e: Event) -> Pairs:
    """The facts this event makes happen, from the state after it (any variant)."""
    h = BY_KIND[s.variant].get(e.kind)
    return NONE if h is None else h(s, e)


def hooks(variant: str) -> FactHooks:
    """The fact catalog of one variant ('3v3', '2v4', 'zhengfan') as its ``FactHooks``."""
    table = BY_KIND[variant]
    four = four_deck(variant)
    cache = _TAG_FACTS[four]

    def find(s: DdzState, e: Event) -> Pairs:
        """The facts this event makes happen, from the state after it (a play, the most
        frequent kind, without a further call unless it makes something happen)."""
        kind = e.kind
        if kind == "PLAY":
            # most plays make nothing happen: a known tag of no fact, and nothing owed after
            # it (a seat that goes out owes HAND_END)
            if not s.owed and cache.get(e.tag) == ():
                return NONE
            return _play(s, e)
        h = table.get(kind)
        return NONE if h is None else h(s, e)

    return FactHooks(FACTS=FACTS[variant], after=find, KINDS=KINDS[variant])
