"""六人坑 facts (engine.facts, docs/facts.md): what happened to one seat in one game, as a strong
player searches for it — the deal, the function cards played (坑, 停, 拐, 挑, the jokers), 叠加,
duels won and lost, big draws taken, 抢, the last-card report, and how the game ended.

``after`` reads the event and the state after it, dispatching on the kind; it never lists
legal moves or copies the state. A play's draw before it is read back from the state after:
a K adds 2 a card and a lone RJ on no pending draw makes 4, so a larger P after the play
means the play was stacked on a pending draw (KENG-24, KENG-26, KENG-27).
"""

from __future__ import annotations

from engine.cards import BLACK_JOKER, RED_JOKER
from engine.events import Event
from engine.games.keng.cards import BJ, CLASS, RJ, J, K, Q
from engine.games.keng.state import N_SEATS, KengState

CONTINUED = "continued"     # the rest of a draw split by a reshuffle (keng.md section 13)
BIG_DRAW = 4                # a pending draw this large or larger, accepted, is a big draw

FACTS = (
    ("dealt_both_jokers", "dealt both jokers (大小王)",
     "the seat's DEAL held at least one BJ (小王) and at least one RJ (大王) (KENG-3, KENG-8)"),
    ("dealt_kings", "dealt two or more K (坑)",
     "the seat's DEAL held two or more K cards, of any suits (KENG-3, KENG-8, KENG-24)"),
    ("attacked_k", "played a K (坑)",
     "a turn play or valid snatch of one K or a pair of K made with no draw pending: the next "
     "seat faces a draw of 2 a card (KENG-24, KENG-35); counted per play, the start card "
     "(KENG-9) not included"),
    ("stacked", "stacked a draw (叠加)",
     "a K or RJ play (turn play or valid snatch) made while a draw was pending, so the next "
     "seat faces the sum (KENG-24, KENG-26, KENG-27, KENG-28); counted per play"),
    ("skipped", "played a Q (停)",
     "a turn play or valid snatch of one Q or a pair of Q: the next seat loses its turn "
     "(KENG-23, KENG-35); counted per play, the start card not included"),
    ("reversed", "played a J (拐)",
     "a turn play or valid snatch of one J or a pair of J, reversing the direction (KENG-22, "
     "KENG-35); counted per play, the start card not included"),
    ("named_suit", "played a joker naming a suit (大小王)",
     "a turn play of BJ or RJ (one, two or three cards), naming the suit to follow "
     "(KENG-20, KENG-25, KENG-26); counted per play, the start card not included"),
    ("multi_big_joker", "played two or three 大王 at once",
     "a turn play of two or three RJ in one play (KENG-16, KENG-26)"),
    ("challenged", "started a duel (挑)",
     "the seat's A or pair of A started a duel with its opposite seat: a DUEL_START after the "
     "seat's turn play (KENG-29, KENG-30); a duel started by the start card (KENG-9) not "
     "counted"),
    ("won_duel", "won a duel (单挑)",
     "the duel ended with the other duellist unable to play (DUEL_END): the seat was its "
     "opposite (KENG-30 steps 3-4), challenger or defender, the start card's duel included; a "
     "duel cut short by a duellist going out (KENG-30 step 6) is not counted"),
    ("lost_duel", "lost a duel (单挑)",
     "the seat was the duellist with no legal duel card and drew one card per duel card "
     "(DUEL_END, KENG-30 steps 3-4)"),
    ("took_big_draw", "took a draw of 4 or more (认罚)",
     "the seat accepted a pending draw of 4 or more instead of stacking (ACCEPT, KENG-11 step 1, "
     "KENG-27); the rest of a draw split by a reshuffle (KENG-43) is the same draw, not counted "
     "again"),
    ("snatched", "snatched (抢)",
     "a valid snatch by the seat: out of turn, a card identical to the top play's (KENG-34 to "
     "KENG-38); counted per snatch"),
    ("snatched_out", "went out by a snatch (抢出)",
     "a valid snatch emptied the seat's hand and won the game for its team (KENG-37, KENG-45, "
     "KENG-46)"),
    ("false_claim", "false 抢 call, banned (禁抢)",
     "the seat called 抢 falsely: it drew a penalty card and was banned from the next snatch "
     "(SNATCH judged 'false', KENG-38 case 5, KENG-39)"),
    ("reported_last_card", "reported the last card (报最后一张)",
     "the seat reported holding one card in time (LAST_CARD, KENG-33)"),
    ("forgot_report", "forgot to report (忘记报告)",
     "the seat held one card after its own play and another seat played or drew before it "
     "reported: it drew two (REPORT_PENALTY, KENG-33)"),
    ("went_out", "went out (走人)",
     "the seat played its last card and so won the game for its team (GAME_END reason "
     "'out', KENG-31, KENG-46)"),
    ("over_limit", "went over the hand limit (超限)",
     "the seat held more than keng_hand_limit cards after a draw and so lost the game for its "
     "team (GAME_END reason 'over_limit', KENG-47)"),
)
KINDS = ("DEAL", "PLAY", "SNATCH", "DUEL_START", "DUEL_END", "ACCEPT", "LAST_CARD",
         "REPORT_PENALTY", "GAME_END")

Pairs = tuple[tuple[int, str], ...]
_NONE: Pairs = ()
# every answer is built once: _ONE[fact][seat] is ((seat, fact),)
_ONE: dict[str, tuple[Pairs, ...]] = {
    name: tuple(((seat, name),) for seat in range(N_SEATS)) for name, _, _ in FACTS}
_STAKE: tuple[Pairs, ...] = ()      # a K or RJ play: stacked or not is judged from P
# per face, the answer of a play of it: None for the number cards and A (an A's duel is
# counted at DUEL_START), _STAKE for K and RJ, else the fact per seat
_PLAY: tuple[tuple[Pairs, ...] | None, ...] = tuple(
    {K: _STAKE, RJ: _STAKE, Q: _ONE["skipped"], J: _ONE["reversed"],
     BJ: _ONE["named_suit"]}.get(CLASS[f]) for f in range(len(CLASS)))
_DUEL_END: tuple[Pairs, ...] = tuple(
    ((seat, "lost_duel"), ((seat + 3) % N_SEATS, "won_duel")) for seat in range(N_SEATS))
_IS_K = tuple(int(c == K) for c in CLASS)
_END = {"out": _ONE["went_out"], "over_limit": _ONE["over_limit"]}


def after(s: KengState, e: Event) -> Pairs:
    """The (seat, fact) pairs this accepted event makes happen, from the state after it."""
    kind = e.kind
    if kind == "PLAY":
        p = _PLAY[e.cards[0]]
        if p is None:
            return _NONE
        return _stake(s, e) if p is _STAKE else p[e.seat]
    if kind == "ACCEPT":
        if e.value >= BIG_DRAW and e.tag != CONTINUED:
            return _ONE["took_big_draw"][e.seat]
        return _NONE
    if kind == "DEAL":
        return _deal(e)
    if kind == "LAST_CARD":
        return _ONE["reported_last_card"][e.seat]
    if kind == "DUEL_START":
        # a start card that started the duel stays the top play through DUEL_START (KENG-9)
        return _NONE if s.top_start else _ONE["challenged"][e.seat]
    if kind == "DUEL_END":
        # the duellists are opposite seats (KENG-29): the loser's opposite won
        return _NONE if e.tag == CONTINUED else _DUEL_END[e.seat]
    if kind == "SNATCH":
        if e.tag == "valid":
            return _snatch(s, e)
        return _ONE["false_claim"][e.seat] if e.tag == "false" else _NONE
    if kind == "REPORT_PENALTY":
        return _NONE if e.tag == CONTINUED else _ONE["forgot_report"][e.seat]
    if kind == "GAME_END":
        end = _END.get(e.tag)
        return _NONE if end is None else end[e.seat]
    return _NONE


def _stake(s: KengState, e: Event) -> Pairs:
    """Facts of a K or RJ play: P after it is P before plus the play's own draw, so a P larger
    than the play alone makes means it was stacked (KENG-24, KENG-26, KENG-27)."""
    n = len(e.cards)
    seat = e.seat
    if CLASS[e.cards[0]] == K:
        return _ONE["stacked" if s.pending > 2 * n else "attacked_k"][seat]
    alone = 4 if n == 1 else s.options.keng_rj_stack_value * n
    out = _ONE["named_suit"][seat]
    if n > 1:
        out += _ONE["multi_big_joker"][seat]
    return out + _ONE["stacked"][seat] if s.pending > alone else out


def _snatch(s: KengState, e: Event) -> Pairs:
    """Facts of a valid snatch: the snatch, its card's (a joker is never snatched, KENG-37),
    and 抢出 when it emptied the hand (KENG-46)."""
    seat = e.seat
    out = _ONE["snatched"][seat]
    p = _PLAY[e.cards[0]]
    if p is not None:
        out += _stake(s, e) if p is _STAKE else p[seat]
    return out + _ONE["snatched_out"][seat] if not s.hands[seat] else out


def _deal(e: Event) -> Pairs:
    """Facts of a seat's dealt hand (KENG-8)."""
    cards = e.cards
    out = _NONE
    if BLACK_JOKER in cards and RED_JOKER in cards:
        out = _ONE["dealt_both_jokers"][e.seat]
    if sum(map(_IS_K.__getitem__, cards)) >= 2:
        out += _ONE["dealt_kings"][e.seat]
    return out


__all__ = ["FACTS", "KINDS", "after"]
