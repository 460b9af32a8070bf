"""Wins and settlement: 胡 (自摸 LH-28, 放铳 LH-27, 抢杠胡 LH-29) with its split and total checked
against the hand module (LH-44, LH-45, LH-73), SETTLE (LH-59 … LH-63), LIUJU (LH-64) and the
hand's GAME_END with the next dealer (LH-66, LH-67) and the balances so far (LH-68).

Event encoding: HU (the winner) tag ``zimo``, ``fangchong`` or ``qianggang``; cards the winning
card (none on the dealer's first turn); target the payer (-1 for 自摸); value the total;
payload ``{"concealed": [...], "split": Split.to_dict()}``. SETTLE (system) payload
``{"changes": [six chip changes]}``. LIUJU (system) nothing. GAME_END (system) target the next
dealer, value the hand number, tag ``win`` or ``liuju``, payload the result.
"""

from __future__ import annotations

import json
from typing import Any

from engine.cards import format_face
from engine.errors import EngineError
from engine.events import NONE, Event, payload_json
from engine.games.common import faces
from engine.games.frame import illegal, invalid, result_diff
from engine.games.liuhu.cards import SEATS
from engine.games.liuhu.claims import hand_melds, hand_module, hand_rules
from engine.games.liuhu.setup import action, json_text, same_event
from engine.games.liuhu.state import (
    CLAIMED,
    DISCARD_WINDOW,
    END,
    FANGCHONG,
    HU,
    OVER,
    QIANGGANG,
    SETTLE,
    ZIMO,
    LhState,
)

WIN, LIUJU = "win", "liuju"


# ---------------------------------------------------------------- 胡

def hu_facts(s: LhState, seat: int) -> tuple[str, int, int, tuple[int, ...]]:
    """(type, winning card or -1, payer or -1, concealed cards with the winning card) of a 胡
    by the seat now: a claimed one while a 胡 is awarded, else 自摸."""
    if s.pending:
        kind = FANGCHONG if s.w_kind == DISCARD_WINDOW else QIANGGANG
        return kind, s.w_card, s.w_from, tuple(sorted(s.hands[seat] + (s.w_card,)))
    return ZIMO, s.drawn, NONE, s.hands[seat]


def best_split(s: LhState, seat: int) -> Any:
    """The best split of the seat's 胡 now (LH-44), or None."""
    kind, card, _, concealed = hu_facts(s, seat)
    return hand_module().best_split(concealed, hand_melds(s, seat), hand_rules(s), win=kind,
                                    winning_card=None if card < 0 else card)


def can_zimo(s: LhState) -> bool:
    """True if the seat on turn may declare 自摸 now (LH-28, LH-45)."""
    kind, card, _, concealed = hu_facts(s, s.turn)
    return hand_module().is_win(concealed, hand_melds(s, s.turn), hand_rules(s), win=kind,
                                winning_card=None if card < 0 else card)


def hu_event(s: LhState, seat: int, split: Any = None) -> Event:
    """The HU of the seat now with its best split (or the given one)."""
    kind, card, payer, concealed = hu_facts(s, seat)
    split = split if split is not None else best_split(s, seat)
    payload = json_text({"concealed": faces(concealed), "split": split.to_dict()})
    return action(s, "HU", seat, () if card < 0 else (card,), payer, split.total, kind,
                  payload)


def _hu_turn(s: LhState, e: Event) -> None:
    """Whose 胡 this may be: the awarded claimer, or 自摸 by the seat on turn (LH-28)."""
    if s.pending:
        seat, claim = s.pending[0]
        if claim[0] != HU or e.seat != seat:
            raise illegal(s, e, "LH-33", f"the window awarded {claim[0]} to seat {seat}")
        return
    if s.phase == CLAIMED:
        raise illegal(s, e, "LH-18", "after 吃 or 碰 the claimer only discards: no 自摸")
    if e.seat != s.turn:
        raise illegal(s, e, "LH-28", f"自摸 is declared in one's own post-draw phase; it is "
                      f"seat {s.turn}'s")


def _read_split(s: LhState, e: Event) -> tuple[Any, list[Any]]:
    p = payload_json(e)
    split_d, concealed = p.get("split"), p.get("concealed")
    if not isinstance(split_d, dict) or not isinstance(concealed, list) or set(p) != {
            "split", "concealed"}:
        raise invalid(s, e, "HU's payload is {concealed, split}", "payload")
    try:
        split = hand_module().Split.from_dict(split_d)
    except (EngineError, ValueError, TypeError, KeyError, AttributeError, IndexError) as exc:
        raise invalid(s, e, f"the split cannot be read: {str(exc)[:80]}", "payload") from None
    return split, concealed


def step_hu(s: LhState, e: Event) -> None:
    """HU: a legal win (LH-27 … LH-29, LH-45) whose recorded split is valid and best (LH-44)
    and whose total is the split's (LH-73)."""
    _hu_turn(s, e)
    seat = e.seat
    kind, card, payer, concealed = hu_facts(s, seat)
    cards = () if card < 0 else (card,)
    if (e.tag, e.cards, e.target) != (kind, cards, payer):
        raise illegal(s, e, "LH-73", f"this 胡 is {kind} on "
                      f"{format_face(card) if card >= 0 else 'no card'} paid by {payer}")
    hm, rules, melds = hand_module(), hand_rules(s), hand_melds(s, seat)
    win_card = None if card < 0 else card
    if kind == ZIMO and not hm.is_win(concealed, melds, rules, win=kind, winning_card=win_card):
        best = hm.best_split(concealed, melds, rules, win=kind, winning_card=win_card)
        if best is not None:
            raise illegal(s, e, "LH-45", f"the hand is worth {best.total}, below min_hu "
                          f"{s.options.min_hu}")
        raise illegal(s, e, "LH-28", "the concealed hand and melds are no winning hand")
    split, recorded = _read_split(s, e)
    if recorded != faces(concealed):
        raise illegal(s, e, "LH-73", "concealed must be the winner's concealed cards with "
                      "the winning card")
    rule = hm.check_split(split, concealed, melds, rules, win=kind, winning_card=win_card)
    if rule is not None:
        raise illegal(s, e, rule, "the recorded split is not a valid best split of the hand")
    if e.value != split.total:
        raise illegal(s, e, "LH-73", f"the split is worth {split.total}, not {e.value}")
    s.hus += ((seat, kind, card, payer, split.total, concealed, json_text(split.to_dict())),)
    s.pending = s.pending[1:]
    if not s.pending:
        s.phase = SETTLE


# ---------------------------------------------------------------- settlement

def settlement(s: LhState) -> tuple[int, ...]:
    """Each seat's chip change (LH-59 … LH-63): 自摸 each other seat pays T; 放铳 the discarder,
    抢杠胡 the declarer pays each winner T."""
    ch = [0] * SEATS
    for seat, kind, _, payer, total, _, _ in s.hus:
        payers = [x for x in range(SEATS) if x != seat] if kind == ZIMO else [payer]
        for x in payers:
            ch[x] -= total
            ch[seat] += total
    return tuple(ch)


def settle_event(s: LhState) -> Event:
    """The SETTLE the engine owes (LH-59 … LH-63)."""
    return action(s, "SETTLE", payload=json_text({"changes": list(settlement(s))}))


def step_settle(s: LhState, e: Event) -> None:
    """SETTLE after the last 胡; the first winner deals next (LH-66)."""
    exp = settle_event(s)
    if not same_event(s, e, exp):
        kind = s.hus[0][1]
        rule = "LH-63" if len(s.hus) > 1 else {ZIMO: "LH-60", FANGCHONG: "LH-61",
                                                QIANGGANG: "LH-62"}[kind]
        raise illegal(s, e, rule, f"the settlement is {list(settlement(s))}")
    s.changes = settlement(s)
    s.next_dealer = s.hus[0][0]
    s.phase = END


def liuju_event(s: LhState) -> Event:
    """The LIUJU owed when the seat to draw faces an empty wall (LH-64)."""
    return action(s, "LIUJU")


def step_liuju(s: LhState, e: Event) -> None:
    """LIUJU: no winner, nobody pays (LH-64); the dealer stays or passes on (LH-67)."""
    if e[1:7] != liuju_event(s)[1:7]:
        raise illegal(s, e, "LH-64", "LIUJU carries nothing")
    s.changes = (0,) * SEATS
    s.next_dealer = s.dealer if s.options.draw_dealer == "stay" else (s.dealer + 1) % SEATS
    s.phase = END


# ---------------------------------------------------------------- the hand's end

def result_of(s: LhState) -> dict[str, Any]:
    """The hand's result: reason, hand, dealer, next dealer, wins, chip changes, balances."""
    bal = [b + c for b, c in zip(s.balances, s.changes, strict=True)]
    return {
        "reason": WIN if s.hus else LIUJU, "hand": s.hand_no, "hands": s.options.hands,
        "dealer": s.dealer, "next_dealer": s.next_dealer,
        "wins": [{"seat": seat, "type": kind, "total": total,
                  "payer": None if payer < 0 else payer}
                 for seat, kind, _, payer, total, _, _ in s.hus],
        "changes": list(s.changes), "balances": bal,
        "game_over": s.hand_no == s.options.hands,
    }


def end_event(s: LhState) -> Event:
    """The GAME_END (hand_end + balances) the engine owes (LH-66 … LH-68)."""
    return action(s, "GAME_END", NONE, (), s.next_dealer, s.hand_no,
                  WIN if s.hus else LIUJU, json_text(result_of(s)))


def end_difference(exp: Event, e: Event) -> str:
    """What differs between the GAME_END owed and the one logged, field by field."""
    out = [f"next dealer is {exp.target}, event says {e.target}"] if e.target != exp.target \
        else []
    try:
        got = json.loads(e.payload) if e.payload is not None else None
    except ValueError:
        got = "(not JSON)"
    if got != json.loads(exp.payload or "null"):
        out.append(result_diff(json.loads(exp.payload or "null"), got))
    return "; ".join(out) or f"the engine owes {exp.describe()}"


def step_end(s: LhState, e: Event) -> None:
    """GAME_END of the hand: next dealer (LH-66, LH-67) and balances (LH-68) as computed."""
    exp = end_event(s)
    if not same_event(s, e, exp):
        rule = "LH-68"
        if e.target != exp.target:
            rule = "LH-66" if s.hus else "LH-67"
        raise illegal(s, e, rule, "the hand's end differs from the engine's: "
                      + end_difference(exp, e))
    s.result = exp.payload
    s.phase = OVER

