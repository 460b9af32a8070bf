"""六人斗地主 rules: checking and applying one event, and the automatic events the engine owes.

``step(state, event)`` validates the event completely before it changes anything (DDZ-92: a
rejected event changes nothing and the same seat is still to act), then evolves the state in
place; ``apply`` and ``check`` in game.py run it on a copy. The automatic events are queued in
``state.owed`` and checked field by field against the one the engine builds; the deal's marks
are chance, checked for consistency (DDZ-7, DDZ-8, DDZ-10).

The events of section 13 in the one event schema (kind: seat, cards, target, value, tag):

- ``GAME_START`` (hand_start): cards the shuffled deck; payload game, rules version, options,
  players. ``DEAL``: cards d[0] … d[dealt − 1]; value the mark's (open mark's) deck position;
  4-deck payload ``{"dark": position}``. ``CASE`` (3v3): seat M, target P, tag the case,
  payload ``{"hidden": [...], "order": [...]}``.
- ``BID``: value 0 (pass) or 1-3; tag ``forced`` for H's recorded pass. ``BID_END``: seat and
  value the winner and bid, or tag ``all_pass``. ``LANDLORDS``: seat the first (正) landlord,
  target DM, value 1 if solo, 2v4 tag ``bid`` / ``om``. ``KITTY``: seat the taker, his cards,
  value their count.
- ``SIDE_CHOICE``: value 0 zheng / 1 fan, tag ``placed`` when the engine places the farmer.
  ``SIDES_END``: seat and target the 正 and 反 landlords, value the bit mask of the 反 seats.
  ``AUTO_END``: seat the landlord meeting the condition (-1 none), tag ``case_c``, ``a``,
  ``b``, ``c`` or ``void``, value the winning side (0 landlords / 正, 1 farmers / 反, -1).
- ``DOUBLE`` / ``SHOW_HAND``: value 1 yes, 0 no. ``SHOW_END`` (the show-hand decisions shown
  together, DDZ-38): target the bit mask of the shown seats, cards their hands, value N.
- ``PLAY``: cards, tag the declared combination (DDZ-93, ``play.declare``), value N after.
  ``PASS``. ``REVEAL``: seat the hidden landlord. ``LOCK``: seat the holder, cards the joker.
  ``ROUND_END``: seat the next leader, target the round's winner, value the round, tag
  ``lock`` when the lead passes on (DDZ-70).
- ``HAND_END``: seat the seat that went out (-1), cards every remaining hand seat by seat,
  value the winning side, tag ``out`` / ``auto`` / ``void``, payload hand sizes and sides.
  ``GAME_END`` (settlement): payload the result (S, N and its parts, W, scores, sides).
- Marks (record only, DDZ-92): ``target`` 1 on an action event the engine supplied as the
  default (DDZ-75); ``forced`` and ``placed`` tags. Seat views drop them (``info.seen_event``).
"""

from __future__ import annotations

import random
from collections.abc import Callable

from engine.cards import BLACK_JOKER, RED_JOKER
from engine.errors import IllegalMove, InvalidEvent
from engine.events import Event
from engine.games.ddz6 import play, setup
from engine.games.ddz6.state import BID, DOUBLE, OUT, OVER, PLAY, SHOW, SIDE, VOID, DdzState
from engine.games.frame import check_frame, check_seat, illegal, invalid

Step = Callable[[DdzState, Event], None]

AUTO_STEP: dict[str, Step] = {
    "DEAL": setup.step_deal, "CASE": setup.step_case, "BID": setup.step_bid,
    "BID_END": setup.step_bid_end, "LANDLORDS": setup.step_landlords,
    "KITTY": setup.step_kitty, "SIDE_CHOICE": setup.step_side_choice,
    "SIDES_END": setup.step_sides_end, "AUTO_END": setup.step_auto_end,
    "SHOW_END": setup.step_show_end, "REVEAL": play.step_reveal, "LOCK": play.step_lock,
    "ROUND_END": play.step_round_end, "HAND_END": play.step_hand_end,
    "GAME_END": play.step_game_end,
}
SEAT_STEP: dict[str, Step] = {
    "BID": setup.step_bid, "SIDE_CHOICE": setup.step_side_choice,
    "DOUBLE": setup.step_choice, "SHOW_HAND": setup.step_choice,
    "PLAY": play.step_play, "PASS": play.step_pass,
}
ENGINE_KINDS = frozenset(AUTO_STEP) - {"BID", "SIDE_CHOICE"} | {"GAME_START"}


def next_auto(s: DdzState) -> str | None:
    """The kind of the automatic event the engine owes now, or None."""
    return s.owed[0] if s.owed else None


def expected(s: DdzState, kind: str) -> Event:
    """The automatic event owed now as the engine builds it (for DEAL, the deterministic
    representative: the first non-joker card marked, or the first two cards in 4-deck)."""
    if kind == "DEAL":
        if s.four:
            return setup.deal_event(s, 0, 1)
        pos = next(i for i, c in enumerate(s.deck) if c not in (BLACK_JOKER, RED_JOKER))
        return setup.deal_event(s, pos, None)
    if kind == "BID":
        return setup.action(s, "BID", setup.bidder(s), value=0, tag=setup.FORCED)
    if kind == "SIDE_CHOICE":
        seat, side = setup.side_facts(s)
        return setup.action(s, "SIDE_CHOICE", seat, value=side, tag=setup.PLACED)
    builders: dict[str, Callable[[DdzState], Event]] = {
        "CASE": setup.case_event, "BID_END": setup.bid_end_event,
        "LANDLORDS": setup.landlords_event, "KITTY": setup.kitty_event,
        "SIDES_END": setup.sides_end_event, "AUTO_END": setup.auto_end_event,
        "SHOW_END": setup.show_end_event, "LOCK": play.lock_event,
        "ROUND_END": play.round_end_event, "HAND_END": play.hand_end_event,
        "GAME_END": lambda x: setup.action(x, "GAME_END", payload=play.result_payload(x)),
        "REVEAL": lambda x: setup.action(x, "REVEAL", x.top_seat),
    }
    return builders[kind](s)


def chance_deal(s: DdzState, rng: random.Random) -> Event:
    """The DEAL with its marks drawn from rng: 3v3 uniformly among the dealt non-joker cards
    (DDZ-8); 4-deck two different dealt cards, open then dark (DDZ-10)."""
    n = setup.dealt(s)
    if s.four:
        pos, dark = rng.sample(range(n), 2)
        return setup.deal_event(s, pos, dark)
    choices = [i for i in range(n) if s.deck[i] not in (BLACK_JOKER, RED_JOKER)]
    return setup.deal_event(s, rng.choice(choices), None)


PHASE_OF = {"BID": BID, "SIDE_CHOICE": SIDE, "DOUBLE": DOUBLE, "SHOW_HAND": SHOW}
# The phase each seat action needs.
WANT_PHASE = {**PHASE_OF, "PLAY": PLAY, "PASS": PLAY}


def phase_rule(s: DdzState, kind: str) -> str:
    """The rule an action breaks when its phase is not on: DDZ-23 (no zhengfan bidding),
    DDZ-15 (3v3 bidding in cases B1, B2 only), DDZ-14 (once round); a side choice DDZ-24
    (3v3) or DDZ-31 (2v4), whose sides need none, DDZ-33 (zhengfan solo: no side choosing),
    else DDZ-35; DDZ-37, DDZ-38; a play before doubling or show hand is over cites those;
    else DDZ-92."""
    if kind == "BID":
        if s.variant == "zhengfan":
            return "DDZ-23"
        return "DDZ-15" if s.variant == "3v3" and s.case in ("A", "C") else "DDZ-14"
    if kind == "SIDE_CHOICE":      # sides by the marks and bids (3v3, 2v4), a solo landlord
        return {"3v3": "DDZ-24", "2v4": "DDZ-31"}.get(
            s.variant, "DDZ-33" if s.solo else "DDZ-35")
    if kind == "DOUBLE":
        return "DDZ-37"
    if kind == "SHOW_HAND":
        return "DDZ-38"
    return {DOUBLE: "DDZ-37", SHOW: "DDZ-38"}.get(s.phase, "DDZ-92")


END_KINDS = ("AUTO_END", "HAND_END", "GAME_END")


def end_rule(s: DdzState) -> str:
    """The rule by which the hand has ended (or ends without another action): DDZ-76 a seat
    went out, DDZ-77 3v3 case C, DDZ-78 a 4-deck auto-win, DDZ-18 (3v3 nobody bid) or DDZ-79
    (both zhengfan landlords) a void hand; DDZ-92 if none applies."""
    if s.end_reason == OUT:
        return "DDZ-76"
    reason = s.auto[0] if s.auto else ""
    if reason == VOID:
        return "DDZ-18" if s.variant == "3v3" else "DDZ-79"
    if reason:
        return "DDZ-77" if reason == "case_c" else "DDZ-78"
    return "DDZ-92"


def _end_text(s: DdzState) -> str:
    """How the hand ended, for messages."""
    if s.end_reason == OUT:
        return f"the hand is over: seat {s.out_seat} played his last card"
    reason = s.auto[0] if s.auto else ""
    if reason == VOID:
        return "the hand is void"
    return f"the hand ends without play ({'case C' if reason == 'case_c' else 'auto-win'})"


def _owed_refusal(s: DdzState, e: Event, due: str) -> IllegalMove:
    """The refusal of a seat's action sent while the engine owes an event: the rule it breaks
    once the engine's events are recorded — the hand's end when they end it (DDZ-76 …), or
    whatever the action breaks then (a phase, a turn, a play that does not beat) — DDZ-92
    named too; DDZ-92 alone when the action would then be legal, or before the deal."""
    if e.kind in SEAT_STEP and due != "DEAL":
        t = s.copy()
        for _ in range(16):                         # a handful of events at most
            if not t.owed or t.owed[0] in END_KINDS:
                break
            x = expected(t, t.owed[0])
            AUTO_STEP[x.kind](t, x)
            t.seq += 1
        if t.owed and t.owed[0] in END_KINDS:
            return illegal(s, e, end_rule(t), f"{_end_text(t)}; nothing more is done in it",
                           also=("DDZ-92",))
        if not t.owed:
            t.seq = e.seq
            try:
                step(t, e)
            except IllegalMove as err:
                return IllegalMove(err.rule_id, err.cause, game_id=s.game_id, seq=e.seq,
                                   seat=e.seat, event=e, also=(*err.also, "DDZ-92"))
            except InvalidEvent:
                pass
    return illegal(s, e, "DDZ-92", f"the engine owes {due} before any other event")


def step(s: DdzState, e: Event) -> None:
    """Check one event against the state (raises, changing nothing), then apply it in place."""
    if e.seq != s.seq or e.game_id != s.game_id or s.phase == OVER:
        over = end_rule(s) if e.kind in SEAT_STEP else "DDZ-92"   # a seat acts after the end
        check_frame(s, e, s.phase == OVER, over)     # raises, naming the first broken
    if s.owed:
        due = s.owed[0]
        if e.kind != due:
            raise _owed_refusal(s, e, due)
        AUTO_STEP[due](s, e)
    else:
        handler = SEAT_STEP.get(e.kind)
        if handler is None:
            if e.kind in ENGINE_KINDS:
                raise illegal(s, e, "DDZ-92", f"{e.kind} is not due now")
            raise invalid(s, e, f"unknown event kind {e.kind!r} for 六人斗地主", "kind")
        if not 0 <= e.seat < len(s.players):
            check_seat(s, e)
        if s.phase != WANT_PHASE[e.kind]:
            raise illegal(s, e, phase_rule(s, e.kind), f"{e.kind} is not legal now "
                          f"(phase {s.phase})")
        handler(s, e)
    s.seq += 1
