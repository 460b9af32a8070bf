"""六人坑 rules: checking and applying one event, and the automatic events the engine owes.

``step(state, event)`` validates the event completely before it changes anything, then
evolves the state in place; ``apply`` and ``check`` in game.py wrap it with a copy, so
neither ever changes a state handed to them.
"""

from __future__ import annotations

import json
from typing import cast

from engine.cards import format_face, format_faces
from engine.events import NONE, Event, payload_json
from engine.games.common import holds, remove_cards
from engine.games.frame import check_frame, result_diff
from engine.games.frame import illegal as _illegal
from engine.games.frame import invalid as _invalid
from engine.games.keng.actions import legal_now, next_auto
from engine.games.keng.cards import (
    CLASS,
    IS_JOKER,
    RJ,
    SUIT,
    A,
    J,
    K,
    Q,
)
from engine.games.keng.plays import (
    due_seat,
    duel_ok,
    form_rule,
    has_play,
    judge_claim,
    pass_rule,
    play_rule,
    snatch_rule,
)
from engine.games.keng.state import (
    N_SEATS,
    OVER,
    PLAYING,
    STARTING,
    Duel,
    KengState,
    team_of,
)

SUITS = "shcd"
TEAM_NAMES = ("even", "odd")
DRAW_KINDS = ("ACCEPT", "DRAW", "DUEL_END", "REPORT_PENALTY", "SNATCH_PENALTY")
AUTO_RULE = {
    "GAME_END": "KENG-46", "DEAL": "KENG-8", "RESHUFFLE": "KENG-43", "BAN_END": "KENG-39",
    "REPORT_PENALTY": "KENG-33", "SNATCH_PENALTY": "KENG-38", "DUEL_START": "KENG-29",
    "DUEL_END": "KENG-30", "ACCEPT": "KENG-43", "DRAW": "KENG-43",
}
TURN_DRAW_RULE = {"ACCEPT": "KENG-11", "DRAW": "KENG-12"}   # draws the seat to act makes
CONTINUED = "continued"


# ---------------------------------------------------------------- what is legal now

# ---------------------------------------------------------------- hands and draws

def _set_hand(s: KengState, seat: int, hand: tuple[int, ...]) -> None:
    hands = list(s.hands)
    hands[seat] = hand
    s.hands = tuple(hands)


def _draw(s: KengState, seat: int, n: int, kind: str) -> None:
    """Take up to n cards from the stock (KENG-43/44); schedule reshuffle, continuation, limit."""
    cards = s.stock[:n]
    s.stock = s.stock[len(cards):]
    if cards:
        _set_hand(s, seat, tuple(sorted(s.hands[seat] + cards)))
    remaining = n - len(cards)
    s.owed = None
    if not s.stock and s.table:
        s.reshuffle_due = True
        if remaining:
            s.owed = (seat, kind, remaining)
    if s.owed is None and len(s.hands[seat]) > s.options.keng_hand_limit:
        s.end_due = ("over_limit", seat, 1 - team_of(seat))


def _draw_rule(kind: str, tag: str) -> str:
    """The rule that says how many cards this draw takes and from where: the rest of a draw
    split by a reshuffle (KENG-43), else the draw's own rule (accepting P, drawing two, the duel
    loser's, the report and the false-call penalties)."""
    if tag == CONTINUED:
        return "KENG-43"
    return TURN_DRAW_RULE.get(kind) or AUTO_RULE[kind]


def _check_draw(s: KengState, e: Event, n: int, tag: str = "") -> None:
    expected = s.stock[:n]
    if e.value != n:
        raise _illegal(s, e, _draw_rule(e.kind, tag),
                       f"{e.kind} owes {n} cards, event says {e.value}")
    if e.cards != expected:
        # a short stock: the draw takes the cards there are, the rest after the reshuffle
        # (KENG-43), or only those when nothing can be reshuffled (KENG-44)
        short = "KENG-43" if s.table else "KENG-44"
        raise _illegal(s, e, short if len(expected) < n else _draw_rule(e.kind, tag),
                       f"the stock's next {len(expected)} cards are {format_faces(expected) or '-'}"
                       f", event has {format_faces(e.cards) or '-'}")
    if e.tag != tag:
        raise _invalid(s, e, f"tag must be {tag!r}, not {e.tag!r}", "tag")
    if e.target != NONE or e.payload is not None:
        raise _invalid(s, e, "a draw carries its cards and the number owed only",
                       "target" if e.target != NONE else "payload")


# ---------------------------------------------------------------- windows, bans, deadlines

def _close_window(s: KengState) -> None:
    if s.window:
        s.window = False
        if any(s.ban_armed):
            s.ban_end_due = s.ban_end_due + tuple(i for i, a in enumerate(s.ban_armed) if a)
            s.ban_armed = (False,) * N_SEATS


def _open_window(s: KengState) -> None:
    """A play in cycle 2+ opens a window (KENG-36) and arms bans it could end (KENG-39)."""
    if s.cycle < 2:
        return
    s.window = True
    if not any(s.banned):
        return
    card = s.top[0]
    if s.top_duel or IS_JOKER[card]:
        return
    armed = list(s.ban_armed)
    for b in range(N_SEATS):
        if (s.banned[b] and b not in s.ban_end_due and b != s.top_seat and b != s.to_act
                and card in s.hands[b] and not (s.cycle < 3 and len(s.hands[b]) == 1)):
            armed[b] = True
    s.ban_armed = tuple(armed)


def _deadline(s: KengState, actor: int) -> None:
    """Another seat's play or turn draw ends an open last-card obligation (KENG-33)."""
    if s.report_seat >= 0 and s.report_seat != actor:
        s.penalty_due = ("REPORT_PENALTY", s.report_seat)
        s.report_seat = -1


# ---------------------------------------------------------------- the automatic events

def result_payload(s: KengState) -> str:
    """The JSON result a GAME_END must carry (KENG-49)."""
    assert s.end_due is not None, "GAME_END is owed"
    reason, seat, team = s.end_due
    return json.dumps({
        "reason": reason,
        "deciding_seat": seat if seat >= 0 else None,
        "winning_team": TEAM_NAMES[team] if team >= 0 else None,
        "final_hands": [[format_face(c) for c in h] for h in s.hands],
    }, sort_keys=True, separators=(",", ":"))


def auto_event(s: KengState, kind: str, shuffled: tuple[int, ...] | None = None) -> Event:
    """The automatic event owed now (RESHUFFLE takes the new stock order from the caller)."""
    base = Event(kind, game_id=s.game_id, seq=s.seq)
    if kind == "GAME_END":
        assert s.end_due is not None, "GAME_END is owed"
        reason, seat, team = s.end_due
        return base._replace(seat=seat, value=team, tag=reason, payload=result_payload(s))
    if kind == "DEAL":
        h = s.options.keng_hand_size
        j = (s.to_act - s.opener) % N_SEATS
        return base._replace(seat=s.to_act, cards=s.deck[j:6 * h:6], value=len(s.deck) - 6 * h)
    if kind == "RESHUFFLE":
        return base._replace(cards=tuple(s.table) if shuffled is None else shuffled,
                             value=s.cycle + 1)
    if s.owed is not None and kind == s.owed[1]:
        seat, _, n = s.owed
        return base._replace(seat=seat, cards=s.stock[:n], value=n, tag=CONTINUED)
    if kind == "BAN_END":
        return base._replace(seat=s.ban_end_due[0])
    if kind in ("REPORT_PENALTY", "SNATCH_PENALTY"):
        assert s.penalty_due is not None, "a penalty is owed"
        seat = s.penalty_due[1]
        n = 2 if kind == "REPORT_PENALTY" else 1
        return base._replace(seat=seat, cards=s.stock[:n], value=n)
    if kind == "DUEL_START":
        assert s.duel_due is not None, "DUEL_START is owed"
        ch, de, _ = s.duel_due
        return base._replace(seat=ch, target=de)
    if kind == "DUEL_END":
        assert s.duel is not None, "DUEL_END ends a duel"
        n = len(s.duel.cards)
        return base._replace(seat=s.duel.to_act, cards=s.stock[:n], value=n)
    raise ValueError(f"{kind} is not an automatic event")


def _step_auto(s: KengState, e: Event, kind: str) -> None:
    if kind == "RESHUFFLE":
        if e.value != s.cycle + 1:
            raise _illegal(s, e, "KENG-42", f"the new cycle is {s.cycle + 1}, event says {e.value}")
        if sorted(e.cards) != sorted(s.table):
            raise _illegal(s, e, "KENG-43", "the new stock must be exactly the played cards "
                           f"under the top play ({len(s.table)} cards), got {len(e.cards)}")
        if e.seat != -1 or e.target != NONE or e.tag or e.payload is not None:
            raise _invalid(s, e, "RESHUFFLE carries only cards and value", "seat")
        s.stock = tuple(e.cards)
        s.table = ()
        s.cycle += 1
        s.count_used = (False,) * N_SEATS
        s.reshuffle_due = False
        return
    exp = auto_event(s, kind)
    if kind == "GAME_END":
        got = None if e.payload is None else payload_json(e)
        if (e.seat, e.value, e.tag) != (exp.seat, exp.value, exp.tag) or got is None or \
                got != json.loads(cast(str, exp.payload)):
            rule = {"out": "KENG-46", "over_limit": "KENG-47", "stalemate": "KENG-48"}[exp.tag]
            raise _illegal(s, e, rule, "the game's end differs from the engine's: "
                           + _end_diff(exp, e, got))
        if e.cards or e.target != NONE:
            raise _invalid(s, e, "GAME_END carries no cards and no target", "cards")
        s.phase = OVER
        s.result = got
        s.end_due = None
        return
    if kind in DRAW_KINDS or kind in ("REPORT_PENALTY", "SNATCH_PENALTY"):
        rest = s.owed is not None and kind == s.owed[1]
        if e.seat != exp.seat:
            raise _illegal(s, e, _draw_rule(kind, CONTINUED if rest else ""),
                           f"{kind} is owed by seat {exp.seat}")
        if rest:
            assert s.owed is not None, "the rest of a draw is owed"
            _check_draw(s, e, s.owed[2], CONTINUED)
            _draw(s, e.seat, s.owed[2], kind)
            return
        if kind == "DUEL_END":
            _check_draw(s, e, exp.value)
            assert s.duel is not None, "DUEL_END ends a duel"
            s.to_act = s.duel.next_seat
            s.turn_rule = "KENG-30"
            s.duel = None
            s.drawn = s.accepted = s.drew_cards = False
            _close_window(s)
            _draw(s, e.seat, exp.value, kind)
            return
        _check_draw(s, e, exp.value)
        s.penalty_due = None
        if kind == "SNATCH_PENALTY":
            s.banned = _with(s.banned, e.seat, True)
            s.ban_armed = _with(s.ban_armed, e.seat, False)
        _draw(s, e.seat, exp.value, kind)
        return
    if (e.seat, e.cards, e.target, e.value, e.tag, e.payload) != \
            (exp.seat, exp.cards, exp.target, exp.value, exp.tag, exp.payload):
        raise _illegal(s, e, AUTO_RULE[kind], f"expected {exp.describe()}")
    if kind == "DEAL":
        _set_hand(s, e.seat, tuple(sorted(e.cards)))
        s.to_act = (s.to_act + 1) % N_SEATS
        if s.to_act == s.opener:
            s.stock = s.deck[6 * s.options.keng_hand_size:]
            s.phase = STARTING
            s.to_act = (s.opener + 3) % N_SEATS
            s.turn_rule = "KENG-9"
    elif kind == "BAN_END":
        s.banned = _with(s.banned, e.seat, False)
        s.ban_armed = _with(s.ban_armed, e.seat, False)
        s.ban_end_due = s.ban_end_due[1:]
    elif kind == "DUEL_START":
        assert s.duel_due is not None, "DUEL_START is owed"
        ch, de, nxt = s.duel_due
        s.duel = Duel(ch, de, s.top, de, nxt)
        s.duel_due = None
        s.top_duel = True


def _end_diff(exp: Event, e: Event, got: object) -> str:
    """The fields in which a GAME_END differs from the one the engine owes (KENG-49)."""
    out = [f"{name} is {a!r}, event says {b!r}" for name, a, b in
           (("seat (deciding)", exp.seat, e.seat), ("value (winning team)", exp.value, e.value),
            ("tag (reason)", exp.tag, e.tag)) if a != b]
    diff = result_diff(json.loads(cast(str, exp.payload)), got)
    if diff:
        out.append(diff)
    return "; ".join(out)


def _with(t: tuple, i: int, v: object) -> tuple:
    lst = list(t)
    lst[i] = v
    return tuple(lst)


# ---------------------------------------------------------------- player events

# The rule a seat breaks by showing cards it does not hold: its turn is played from its own
# hand (KENG-11), a duellist plays one of his cards (KENG-30), a 抢 needs a card held (KENG-34).
HOLD_RULE = {"PLAY": "KENG-11", "DUEL_PLAY": "KENG-30", "SNATCH": "KENG-34"}


def _check_cards(s: KengState, e: Event, seat: int) -> None:
    if not holds(s.hands[seat], e.cards):
        for c in e.cards:
            if not isinstance(c, int) or not 0 <= c < 54:
                raise _invalid(s, e, f"card code {c!r} is not a face code 0-53", "cards")
        lacking = [c for c in set(e.cards) if s.hands[seat].count(c) < e.cards.count(c)]
        what = {"SNATCH": "a 抢 shows a card the seat holds, identical to the top play's",
                "DUEL_PLAY": "a duellist plays one of his own cards"}.get(
                    e.kind, "a seat plays cards from its own hand")
        raise _illegal(s, e, HOLD_RULE.get(e.kind, "KENG-11"),
                       f"seat {seat} does not hold {format_faces(sorted(lacking))}: {what}",
                       legal=legal_now(s) if e.kind != "SNATCH" else "")


def _check_suit(s: KengState, e: Event) -> int:
    """The named suit of a joker play (KENG-20); other plays name none."""
    if IS_JOKER[e.cards[0]]:
        if not 0 <= e.value <= 3:
            raise _illegal(s, e, "KENG-20", "a joker play must name a suit (value 0-3 = s h c d)")
        return e.value
    if e.value != NONE:
        raise _invalid(s, e, "only a joker play names a suit (value must be -1)", "value")
    return SUIT[e.cards[0]]


def _play(s: KengState, seat: int, cards: tuple[int, ...], suit: int, rule: str) -> None:
    """A play by seat (turn play, stack or valid snatch) and its effects (KENG-22 to KENG-35)."""
    _set_hand(s, seat, remove_cards(s.hands[seat], cards))
    if s.window:
        _close_window(s)
    if s.report_seat >= 0:
        _deadline(s, seat)
    s.table = s.table + s.top
    s.covered = s.top
    s.top = cards
    s.top_seat = seat
    s.top_suit = suit
    s.top_start = s.top_duel = False
    s.passes = 0
    s.drawn = s.accepted = s.drew_cards = False
    n = len(cards)
    cls = CLASS[cards[0]]
    each = s.options.keng_pair_action == "each"
    if cls == K:
        s.pending += 2 * n
        rule = "KENG-24"
    elif cls == RJ:
        v = s.options.keng_rj_stack_value
        s.pending = 4 if (s.pending == 0 and n == 1) else s.pending + v * n
        rule = "KENG-26"
    elif cls == J:
        if (n if each else 1) % 2:
            s.direction = -s.direction
        rule = "KENG-22"
    d = s.direction
    if cls == Q:
        skip = n if each else 1
        s.to_act = (seat + (1 + skip) * d) % N_SEATS
        s.turn_rule = "KENG-23"
    else:
        s.to_act = (seat + d) % N_SEATS
        s.turn_rule = rule
    if cls == A:
        s.duel_due = (seat, (seat + 3) % N_SEATS, s.to_act)
        s.top_duel = True
    if s.cycle >= 2:
        _open_window(s)
    left = len(s.hands[seat])
    if left == 0:
        s.end_due = ("out", seat, team_of(seat))
    elif left == 1:
        s.report_seat = seat


def _turn_seat(s: KengState, e: Event) -> None:
    if s.duel is not None or s.duel_due is not None:
        raise _illegal(s, e, "KENG-30", f"a duel is on: only seat {s.duel.to_act if s.duel else '-'}"
                       " may act, with DUEL_PLAY", legal=legal_now(s))
    if e.seat != s.to_act:
        raise _illegal(s, e, s.turn_rule, f"it is seat {s.to_act}'s turn", legal=legal_now(s))


def _step_play(s: KengState, e: Event) -> None:
    _turn_seat(s, e)
    if e.target != NONE or e.tag:
        raise _invalid(s, e, "PLAY carries cards and a named suit only", "target")
    if not e.cards or len(e.cards) > 3:
        raise _illegal(s, e, "KENG-16", "a play is one card, a pair, or two or three RJ")
    _check_cards(s, e, e.seat)
    rule = form_rule(e.cards)
    if rule:
        raise _illegal(s, e, rule, "a play is one card, a pair of identical cards, or two or "
                       "three RJ")
    suit = _check_suit(s, e)
    hand_len = len(s.hands[e.seat])
    rule = play_rule(s, e.cards, hand_len)
    if rule:
        raise _illegal(s, e, rule, _play_reason(s, rule, e.cards), legal=legal_now(s))
    _play(s, e.seat, e.cards, suit, "KENG-15")


def _top_text(s: KengState) -> str:
    t = format_faces(s.top)
    if IS_JOKER[s.top[0]] or len(s.top) > 1:
        t += f" (suit {SUITS[s.top_suit]})"
    return t


def _play_reason(s: KengState, rule: str, cards: tuple[int, ...]) -> str:
    offered = format_faces(cards)
    return {
        "KENG-17": f"matches neither the suit nor the rank of the top card {_top_text(s)}",
        "KENG-18": f"a pair may go only where one of its cards could: top is {_top_text(s)}",
        "KENG-19": f"on the pair {_top_text(s)} play its suit, a joker or a pair of its rank",
        "KENG-20": f"{offered} lacks the suit {SUITS[s.top_suit]} named for the joker play "
                   f"{format_faces(s.top)}: play a card of suit {SUITS[s.top_suit]} or a joker",
        "KENG-27": f"facing a pending draw of {s.pending}, only K or RJ may be stacked "
                   "(or ACCEPT)",
        "KENG-28": f"a K may not be stacked on the RJ play {_top_text(s)}",
        "KENG-29": f"an A cannot be played while a draw of {s.pending} is pending",
        "KENG-32": f"a joker play may empty the hand only on the same joker; top is {_top_text(s)}",
    }.get(rule, "illegal play")


def _step_accept(s: KengState, e: Event) -> None:
    _turn_seat(s, e)
    if s.pending <= 0:
        raise _illegal(s, e, "KENG-27", "there is no pending draw to accept")
    _check_draw(s, e, s.pending)
    n = s.pending
    s.pending = 0
    s.accepted = True
    s.drew_cards = s.drew_cards or bool(e.cards)
    _deadline(s, e.seat)
    _draw(s, e.seat, n, "ACCEPT")


def _step_draw(s: KengState, e: Event) -> None:
    _turn_seat(s, e)
    if s.pending > 0:
        raise _illegal(s, e, "KENG-27", f"facing a pending draw of {s.pending}: stack or ACCEPT")
    if s.drawn:
        raise _illegal(s, e, "KENG-12", "this seat has already drawn two this turn")
    if not s.options.keng_draw_when_able and has_play(s, e.seat):
        raise _illegal(s, e, "KENG-13", "a seat with a legal play must play (keng_draw_when_able "
                       "is off)")
    _check_draw(s, e, 2)
    s.drawn = True
    s.drew_cards = s.drew_cards or bool(e.cards)
    _deadline(s, e.seat)
    _draw(s, e.seat, 2, "DRAW")


def _pass_reason(s: KengState, rule: str) -> str:
    """Why the seat to act may not pass now (KENG-27, KENG-11, KENG-12)."""
    if rule == "KENG-27":
        return f"facing a pending draw of {s.pending} the seat stacks a K or RJ or accepts " \
               "(ACCEPT); it may not pass"
    did = "has accepted the draw and " if s.accepted else ""
    if rule == "KENG-11":
        also = " (or draws two: keng_draw_when_able)" if s.options.keng_draw_when_able else ""
        return f"the seat {did}holds a legal play: it must play{also}"
    return f"the seat {did}has no legal play: it draws two first, then plays or passes"


def _step_pass(s: KengState, e: Event) -> None:
    _turn_seat(s, e)
    if e.cards or e.value != NONE or e.target != NONE:
        raise _invalid(s, e, "PASS carries no cards or value", "cards")
    rule = pass_rule(s, e.seat)
    if rule:
        raise _illegal(s, e, rule, _pass_reason(s, rule), also=("KENG-12",),
                       legal=legal_now(s))
    # KENG-48 with section 14.19: only passes made with nothing to draw count
    s.passes = 0 if s.drew_cards else s.passes + 1
    _close_window(s)
    s.to_act = (e.seat + s.direction) % N_SEATS
    s.turn_rule = "KENG-14"
    s.drawn = s.accepted = s.drew_cards = False
    if s.passes >= 6 and not s.stock and not s.table:
        s.end_due = ("stalemate", -1, -1)


def _step_start_card(s: KengState, e: Event) -> None:
    flipper = (s.opener + 3) % N_SEATS
    if s.phase != STARTING:
        raise _illegal(s, e, "KENG-9", "the start card has already been turned")
    if e.seat != flipper:
        raise _illegal(s, e, "KENG-9", f"the flipper is seat {flipper}, opposite the opener")
    if e.cards != s.stock[:1]:
        raise _illegal(s, e, "KENG-9", f"the top card of the stock is {format_faces(s.stock[:1])}")
    if e.target != NONE:
        raise _invalid(s, e, "START_CARD carries the card and a named suit only", "target")
    suit = _check_suit(s, e)
    c = e.cards[0]
    s.stock = s.stock[1:]
    s.top = e.cards
    s.top_seat = flipper
    s.top_suit = suit
    s.top_start = True
    s.phase = PLAYING
    s.to_act = s.opener
    s.turn_rule = "KENG-9"
    cls = CLASS[c]
    if cls == K:
        s.pending = 2
    elif cls == RJ:
        s.pending = 4
    elif cls == Q:
        s.to_act = (s.opener + s.direction) % N_SEATS
    elif cls == J:
        s.direction = -s.direction
    elif cls == A:
        s.duel_due = (flipper, s.opener, s.opener)
        s.top_duel = True
    if not s.stock and s.table:
        s.reshuffle_due = True


def _step_duel_play(s: KengState, e: Event) -> None:
    if s.duel is None:
        raise _illegal(s, e, "KENG-30", "no duel is on")
    if e.seat != s.duel.to_act:
        raise _illegal(s, e, "KENG-30", f"duellist seat {s.duel.to_act} is to act")
    if len(e.cards) != 1:
        raise _illegal(s, e, "KENG-30", "a duel play is exactly one card")
    if e.value != NONE or e.target != NONE:
        raise _invalid(s, e, "DUEL_PLAY carries one card only", "value")
    _check_cards(s, e, e.seat)
    f = e.cards[0]
    if not duel_ok(s, f):
        last = format_face(s.duel.cards[-1])
        raise _illegal(s, e, "KENG-30", f"after {last} a duellist may play "
                       + ("an A or a number card of its suit" if CLASS[s.duel.cards[-1]] == A
                          else "a number card of its suit or rank"))
    seat = e.seat
    _set_hand(s, seat, remove_cards(s.hands[seat], e.cards))
    _close_window(s)
    _deadline(s, seat)
    s.table = s.table + s.top
    s.covered = s.top
    s.top = e.cards
    s.top_seat = seat
    s.top_suit = SUIT[f]
    s.top_start = False
    s.top_duel = True
    s.passes = 0
    d = s.duel
    other = d.defender if seat == d.challenger else d.challenger
    s.duel = Duel(d.challenger, d.defender, d.cards + e.cards, other, d.next_seat)
    _open_window(s)
    left = len(s.hands[seat])
    if left == 0:
        s.end_due = ("out", seat, team_of(seat))
    elif left == 1:
        s.report_seat = seat


def _step_snatch(s: KengState, e: Event) -> None:
    if e.seat == due_seat(s):
        raise _illegal(s, e, "KENG-37", "the seat due to act plays in turn; it does not snatch")
    if len(e.cards) > 1:
        raise _invalid(s, e, "a claim shows at most one card", "cards")
    if e.value != NONE or e.target != NONE:
        raise _invalid(s, e, "SNATCH carries one card and its outcome only", "value")
    if e.cards:
        _check_cards(s, e, e.seat)
    card = e.cards[0] if e.cards else None
    outcome = judge_claim(s, e.seat, card)
    if e.tag != outcome:
        why = snatch_rule(s, e.seat, card) if e.tag == "valid" else None
        if why is not None:     # recorded as a snatch: cite the rule that forbids this one
            raise _illegal(s, e, why[0], f"{why[1]}: the claim is judged {outcome!r}, "
                           "recorded 'valid'", also=("KENG-38",))
        raise _illegal(s, e, "KENG-38", f"the claim is judged {outcome!r}, recorded {e.tag!r}")
    if outcome == "valid":
        _play(s, e.seat, e.cards, SUIT[cast(int, card)], "KENG-35")
    elif outcome == "false":
        s.penalty_due = ("SNATCH_PENALTY", e.seat)


def _step_last_card(s: KengState, e: Event) -> None:
    if e.seat != s.report_seat:
        raise _illegal(s, e, "KENG-33", "this seat has no open last-card obligation")
    if len(s.hands[e.seat]) != 1:
        raise _illegal(s, e, "KENG-33", f"seat holds {len(s.hands[e.seat])} cards, not one")
    if e.cards or e.value != NONE or e.target != NONE:
        raise _invalid(s, e, "LAST_CARD carries nothing", "cards")
    s.report_seat = -1


def _step_count(s: KengState, e: Event) -> None:
    if s.count_used[e.seat]:
        raise _illegal(s, e, "KENG-41", f"seat {e.seat} has used its count right in cycle "
                       f"{s.cycle}")
    if e.cards:
        raise _invalid(s, e, "COUNT carries a target and the number reported only", "cards")
    t = e.target
    if not 0 <= t < N_SEATS or team_of(t) == team_of(e.seat):
        raise _illegal(s, e, "KENG-41", f"target {t} is not a seat of the other team")
    if e.value != len(s.hands[t]):
        raise _illegal(s, e, "KENG-41", f"seat {t} holds {len(s.hands[t])} cards, "
                       f"reported {e.value}")
    s.count_used = _with(s.count_used, e.seat, True)


_HANDLERS = {
    "PLAY": _step_play, "ACCEPT": _step_accept, "DRAW": _step_draw, "PASS": _step_pass,
    "START_CARD": _step_start_card, "DUEL_PLAY": _step_duel_play, "SNATCH": _step_snatch,
    "LAST_CARD": _step_last_card, "COUNT": _step_count,
}
TURN_KINDS = ("PLAY", "ACCEPT", "DRAW", "PASS", "DUEL_PLAY")  # wait for the start card (KENG-9)
AUTO_KINDS = ("GAME_END", "DEAL", "RESHUFFLE", "BAN_END", "REPORT_PENALTY", "SNATCH_PENALTY",
              "DUEL_START", "DUEL_END")


def step(s: KengState, e: Event) -> None:
    """Check one event against the state (raises, changing nothing), then apply it in place:
    the shared frame first (game id, seq, over: KENG-2), then the rules of the event."""
    if e.seq != s.seq or e.game_id != s.game_id or s.phase == OVER:
        check_frame(s, e, s.phase == OVER, "KENG-2")     # raises: the frame's checks first
    due = next_auto(s)
    if due is not None:
        if e.kind != due:
            if due == "DUEL_END" and s.duel is not None and e.kind in ("DUEL_PLAY", "PLAY"):
                raise _duel_lost(s, e)
            rest = " (the rest of the draw, after the reshuffle)" \
                if _owed_rule(s, due) == "KENG-43" and due != "RESHUFFLE" else ""
            raise _illegal(s, e, _owed_rule(s, due),
                           f"the engine owes {due}{rest} before any other event",
                           legal=legal_now(s))
        _step_auto(s, e, due)
    else:
        handler = _HANDLERS.get(e.kind)
        if handler is None:
            if e.kind in AUTO_KINDS:
                raise _illegal(s, e, AUTO_RULE[e.kind], f"{e.kind} is not due now")
            raise _invalid(s, e, f"unknown event kind {e.kind!r} for keng", "kind")
        if not 0 <= e.seat < N_SEATS:
            raise _invalid(s, e, f"seat {e.seat} is not a seat 0-5", "seat")
        if e.payload is not None:
            raise _invalid(s, e, "only GAME_START and GAME_END carry a payload", "payload")
        if s.phase == STARTING and e.kind in TURN_KINDS:
            raise _illegal(s, e, "KENG-9", "the start card must be turned first")
        if e.kind != "SNATCH" and e.tag:
            raise _invalid(s, e, f"{e.kind} carries no tag", "tag")
        handler(s, e)
    s.seq += 1


def _duel_lost(s: KengState, e: Event) -> Exception:
    """KENG-30 step 3: the duellist to act has no legal duel card: he has lost the duel."""
    d = s.duel
    assert d is not None, "a duel is on"
    last = format_face(d.cards[-1])
    n = len(d.cards)
    who = f"seat {d.to_act}" + (", to act," if e.seat != d.to_act else "")
    return _illegal(s, e, "KENG-30", f"{who} has no legal duel card after {last} and so has "
                    f"lost the duel: he draws {n} card{'s' * (n != 1)}, one for each duel card",
                    legal="the engine's DUEL_END (owed)")


def _owed_rule(s: KengState, due: str) -> str:
    """The rule of the automatic event owed now: the game's end, the rest of a draw split by a
    reshuffle (KENG-43: it continues from the new stock), else the event's own rule."""
    if due == "GAME_END":
        return _end_rule(s)
    if s.owed is not None and due == s.owed[1] and not s.reshuffle_due:
        return "KENG-43"
    return AUTO_RULE[due]


def _end_rule(s: KengState) -> str:
    assert s.end_due is not None, "the game has ended"
    return {"out": "KENG-46", "over_limit": "KENG-47", "stalemate": "KENG-48"}[s.end_due[0]]
