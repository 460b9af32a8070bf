"""摸到爽 facts (engine.facts, docs/facts.md): what happened to each seat in a game, as a strong
player searches for it — the jokers (百搭) held, drawn, led, played against their limits or left
in hand, 诈摸, the draws to follow, the draw that starts 收到爽, collecting, reports and missed
reports, going out and 点炮, the heaviest payment (MDS-2 to MDS-39).

``after`` reads the state *after* each event and the event itself, dispatching on its kind;
it never lists legal moves or copies a state."""

from __future__ import annotations

from engine.events import Event
from engine.games.modaoshuang.cards import BJ, FACE_VALUE, RJ
from engine.games.modaoshuang.plays import TURN
from engine.games.modaoshuang.state import JOKER, MdsState

FACTS = (
    ("dealt_red_joker", "dealt the red joker (大王)",
     "the seat's DEAL held RJ, the highest card (MDS-2, MDS-4, MDS-9)"),
    ("dealt_black_joker", "dealt the black joker (小王)",
     "the seat's DEAL held BJ, the lowest card (MDS-2, MDS-4, MDS-9)"),
    ("held_both_jokers", "held both jokers (双王)",
     "the seat came to hold RJ and BJ at once, by its DEAL (MDS-9), a draw (MDS-15, MDS-17, "
     "MDS-24) or a gift (MDS-25) of one of them; counted each time it comes to hold both"),
    ("drew_joker", "drew a joker (摸到百搭)",
     "a DRAW of the seat, on its turn (MDS-17, MDS-21) or as a penalty (MDS-24), took a "
     "joker from the stock; counted per joker drawn"),
    ("played_joker", "played a joker (出百搭)",
     "the seat played RJ or BJ, led or following, within MDS-19 or as a violation (MDS-3, "
     "MDS-19, MDS-20); counted per joker"),
    ("led_joker", "led a joker naming a suit (百搭领出)",
     "the seat led RJ or BJ and named the round suit (MDS-3, MDS-12)"),
    ("joker_violation", "joker violation (违规)",
     "the seat played RJ from two cards or fewer or BJ as its last card and was penalised "
     "like a missed report (MDS-19, MDS-20); counted at the violation's MISSED_REPORT"),
    ("feint", "feint draw (诈摸)",
     "the seat drew on its turn while holding the round suit (MDS-21); counted per card"),
    ("drew_to_follow", "drew to follow (摸牌)",
     "the seat drew on its turn without holding the round suit (MDS-17), or as a leader "
     "with no card it may lead (MDS-18); counted per card"),
    ("emptied_stock", "drew the stock's last card (收到爽)",
     "the seat's draw (turn or penalty) took the stock's last card, so the 收到爽 phase "
     "began (MDS-15, MDS-28)"),
    ("collected", "collected a round (收牌)",
     "the seat was the round's collector in the 收到爽 phase (the first not to play) and "
     "took its non-joker cards into hand at ROUND_END (MDS-30, MDS-32); never in the final "
     "round, which collects nothing (MDS-34); counted per round"),
    ("reported", "reported two cards (报双)",
     "the seat made the two-card report, or the one-card report with "
     "mds_one_card_report on (MDS-22, MDS-26)"),
    ("missed_report", "missed a report (漏报)",
     "the seat's report deadline passed without its REPORT and it was penalised: two drawn "
     "cards, or gifts in 收到爽 (MDS-22 to MDS-25)"),
    ("went_out", "went out first and won (出完)",
     "the seat played its last card first and won the game (MDS-33), counted at GAME_END"),
    ("out_on_joker", "went out on a joker (百搭出完)",
     "the seat's joker violation emptied its hand and the penalty left it without a card "
     "(no eligible giver, or every gift declined), so it went out (MDS-20, MDS-25, MDS-33); "
     "counted at the event that ended the penalty"),
    ("dianpao", "fed the winner (点炮)",
     "the seat was the game's 点炮 seat and paid its own base loss plus half of every other "
     "loser's (MDS-35, MDS-38), counted at GAME_END"),
    ("stuck_with_joker", "stuck with a joker (百搭砸手里)",
     "a loser's hand at settlement held RJ (40) or BJ (20), which it may not play in the "
     "final round (MDS-5, MDS-34, MDS-37); counted per joker"),
    ("paid_most", "paid the most (最大输家)",
     "the seat's payment was the largest of the game, alone or tied (MDS-37, MDS-38), "
     "counted at GAME_END"),
)
KINDS = ("DEAL", "DRAW", "PLAY", "ROUND_END", "REPORT", "MISSED_REPORT", "GIFT", "GAME_END")

_NONE: tuple[tuple[int, str], ...] = ()
_BOTH = (BJ, RJ)


def _each_seat(*facts: str) -> tuple[tuple[tuple[int, str], ...], ...]:
    """Per seat (0-4, MDS-1), the pairs of these facts: the common answers, built once."""
    return tuple(tuple((seat, f) for f in facts) for seat in range(5))


_FEINT = _each_seat("feint")
_TO_FOLLOW = _each_seat("drew_to_follow")
_PLAYED = _each_seat("played_joker")
_LED = _each_seat("played_joker", "led_joker")
_COLLECTED = _each_seat("collected")
_REPORTED = _each_seat("reported")


def _draw(s: MdsState, e: Event) -> tuple[tuple[int, str], ...]:
    """A DRAW's rarer facts: a joker drawn, the stock emptied (the caller did the rest)."""
    seat = e.seat
    if e.tag == TURN:
        out = (_FEINT if e.value == 1 else _TO_FOLLOW)[seat]
    else:
        out = _NONE
    if e.cards[0] >= 52:
        out += ((seat, "drew_joker"),)
        if s.hands[seat][-2:] == _BOTH:
            out += ((seat, "held_both_jokers"),)
    if not s.stock:
        out += ((seat, "emptied_stock"),)
    return out


def _deal(s: MdsState, e: Event) -> tuple[tuple[int, str], ...]:
    """A DEAL: the jokers dealt to its seat."""
    seat, cards = e.seat, e.cards
    out: tuple[tuple[int, str], ...] = ()
    if RJ in cards:
        out += ((seat, "dealt_red_joker"),)
    if BJ in cards:
        out += ((seat, "dealt_black_joker"),)
    if len(out) == 2:
        out += ((seat, "held_both_jokers"),)
    return out


def _missed(s: MdsState, e: Event) -> tuple[tuple[int, str], ...]:
    """A MISSED_REPORT: a missed report or a joker violation; a violator left without a card
    and without givers has gone out (MDS-20)."""
    out: tuple[tuple[int, str], ...] = (
        (e.seat, "joker_violation" if e.tag == JOKER else "missed_report"),)
    if s.winner >= 0:
        out += ((s.winner, "out_on_joker"),)
    return out


def _gift(s: MdsState, e: Event) -> tuple[tuple[int, str], ...]:
    """A GIFT: a joker completing the offender's pair; the last gift declined left a violator
    without a card: it has gone out (MDS-20)."""
    out: tuple[tuple[int, str], ...] = ()
    if e.cards and e.cards[0] >= 52 and s.hands[e.target][-2:] == _BOTH:
        out = ((e.target, "held_both_jokers"),)
    if s.winner >= 0:
        out += ((s.winner, "out_on_joker"),)
    return out


def _game_end(s: MdsState, e: Event) -> tuple[tuple[int, str], ...]:
    """GAME_END: the winner, the 点炮 seat, jokers left in hand, the largest payment."""
    winner, dianpao, hands = s.winner, s.dianpao, s.hands
    out: list[tuple[int, str]] = [(winner, "went_out")]
    for seat, h in enumerate(hands):
        if h and h[-1] >= 52:
            out.append((seat, "stuck_with_joker"))
            if len(h) > 1 and h[-2] >= 52:
                out.append((seat, "stuck_with_joker"))
    if dianpao >= 0:
        # MDS-38: the 点炮 seat pays its own base loss (> 0: a loser holds a card) plus half
        # of every other loser's, each of whom pays only half of its own: it pays the most
        out += ((dianpao, "dianpao"), (dianpao, "paid_most"))
    else:
        # MDS-37, MDS-38: each loser pays twice its face sum
        sums = [sum(map(FACE_VALUE.__getitem__, h)) if x != winner else 0
                for x, h in enumerate(hands)]
        top = max(sums)
        if top > 0:
            out.extend((seat, "paid_most") for seat, v in enumerate(sums) if v == top)
    return tuple(out)


_RARE = {"DEAL": _deal, "MISSED_REPORT": _missed, "GIFT": _gift, "GAME_END": _game_end}


def after(s: MdsState, e: Event) -> tuple[tuple[int, str], ...]:
    """The (seat, fact) pairs this event makes happen, from the state after it."""
    kind = e.kind
    if kind == "PLAY":                        # the commonest event: only a joker counts
        if e.cards[0] < 52:
            return _NONE
        return (_LED if e.value >= 0 else _PLAYED)[e.seat]   # a led joker names its suit
    if kind == "DRAW":
        if e.cards[0] < 52 and s.stock and e.tag == TURN:     # the common draw
            return (_FEINT if e.value == 1 else _TO_FOLLOW)[e.seat]
        return _draw(s, e)
    if kind == "ROUND_END":
        return _COLLECTED[e.target] if e.target >= 0 else _NONE
    if kind == "REPORT":
        return _REPORTED[e.seat]
    return _RARE[kind](s, e)
