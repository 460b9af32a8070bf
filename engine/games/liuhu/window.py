"""The claim window (LH-34): WINDOW (the eligible seats and their claims), one RESPOND per
eligible seat in turn order, AWARD (the executed claims, LH-33, LH-35, and every call made),
then the awarded CHI, PENG or MING_GANG (LH-20, LH-21, LH-26; 胡 is in ``scoring``).

Event encoding: WINDOW (system) cards the card, target the discarder or declarer, value the
bit mask of the eligible seats, tag ``discard`` or ``rob``, payload (when someone is
eligible) ``{"eligible": {seat: [[claim, faces…], …]}}``. RESPOND (the eligible seat) tag
``pass``, ``hu``, ``gang``, ``peng`` or ``chi`` (cards: the two concealed faces). AWARD (system)
cards the card, target the first executed claimer (-1 none), tag the executed claim (""
none), payload ``{"calls": [[seat, claim, faces…], …], "executed": [seats]}``. CHI, PENG,
MING_GANG (the claimer) cards the claimed card then the concealed cards used, target the
discarder.
"""

from __future__ import annotations

from operator import add
from typing import Any

from engine.cards import format_face
from engine.events import NONE, Event
from engine.games.common import remove_cards
from engine.games.frame import illegal, invalid
from engine.games.liuhu.cards import FACE_TEXT, SEATS
from engine.games.liuhu.claims import eligible_of, executed, refused_rule
from engine.games.liuhu.setup import action, clear_window, same_event
from engine.games.liuhu.state import (
    AWARD,
    CHI,
    CLAIM,
    CLAIM_KINDS,
    CLAIMED,
    GANG,
    HU,
    MING_GANG,
    PASS,
    PENG,
    RESPOND,
    TAIL,
    Claim,
    LhState,
)
from engine.games.liuhu.turns import add_meld, no_claim, set_hand

# per answering seat, 1 for each other seat (it does not see the answer, LH-70), 0 for itself
_OTHERS_SEE = tuple(tuple(int(x != seat) for x in range(SEATS)) for seat in range(SEATS))
CLAIM_EVENT = {CHI: "CHI", PENG: "PENG", GANG: "MING_GANG", HU: "HU"}
MELD_OF = {CHI: CHI, PENG: PENG, GANG: MING_GANG}
ANSWERS = (PASS, *CLAIM_KINDS)


def claim_json(c: Claim) -> list[str]:
    """A claim as JSON: ``["hu"]``, ``["peng"]``, ``["chi", "4s", "6s"]``."""
    return [c[0], *(format_face(x) for x in c[1])] if c[0] == CHI else [c[0]]


def _claim_text(c: Claim) -> str:
    """``claim_json(c)`` as canonical JSON text (kinds and faces are plain ASCII)."""
    if c[0] == CHI:
        return '["chi",' + ",".join(f'"{FACE_TEXT[x]}"' for x in c[1]) + "]"
    return f'["{c[0]}"]'


def window_payload(elig: tuple[tuple[int, tuple[Claim, ...]], ...]) -> str | None:
    """WINDOW's payload: the eligible seats' claims; None when nobody is eligible. The text is
    what ``json_text`` gives (keys sorted: seats 0-5 sort as their digits), built directly."""
    if not elig:
        return None
    rows = sorted(elig)
    return '{"eligible":{' + ",".join(
        f'"{seat}":[' + ",".join(map(_claim_text, claims)) + "]" for seat, claims in rows
    ) + "}}"


def window_event(s: LhState, elig: tuple | None = None) -> Event:
    """The WINDOW the engine owes now (LH-34)."""
    elig = eligible_of(s) if elig is None else elig
    if not elig:                                    # nobody eligible: mask 0, no payload
        return action(s, "WINDOW", NONE, (s.w_card,), s.w_from, 0, s.w_kind, None)
    mask = sum(1 << seat for seat, _ in elig)
    return action(s, "WINDOW", NONE, (s.w_card,), s.w_from, mask, s.w_kind,
                  window_payload(elig))


def step_window(s: LhState, e: Event) -> None:
    """WINDOW: the eligible seats of the card (LH-34); an empty window closes at once."""
    elig = eligible_of(s)
    if elig or e[1:7] != (NONE, (s.w_card,), s.w_from, 0, s.w_kind, None):
        exp = window_event(s, elig)
        if not same_event(s, e, exp):
            raise illegal(s, e, "LH-34", f"the window on {format_face(s.w_card)} has "
                          f"eligible seats mask {exp.value} with claims {exp.payload}")
    s.eligible = elig
    if s.eligible:
        s.phase = RESPOND
    else:
        no_claim(s)


def responder(s: LhState) -> int:
    """The eligible seat that answers next (turn order from the discarder + 1, LH-34)."""
    return s.eligible[len(s.answers)][0]


def respond_event(s: LhState, seat: int, claim: Claim) -> Event:
    """A RESPOND of the seat: pass or one claim."""
    return action(s, "RESPOND", seat, claim[1] if claim[0] == CHI else (), tag=claim[0])


def step_respond(s: LhState, e: Event) -> None:
    """RESPOND: the next eligible seat passes or makes one of its legal claims (LH-34)."""
    seat = responder(s)
    if e.seat != seat:
        raise illegal(s, e, "LH-34", f"seat {seat} answers the window now; each eligible "
                      "seat answers once, in turn order")
    if e.tag not in ANSWERS or e[3:5] != (NONE, NONE) or e.payload is not None:
        raise invalid(s, e, f"RESPOND's tag is one of {', '.join(ANSWERS)}", "tag")
    if e.tag == CHI and len(e.cards) != 2 or e.tag != CHI and e.cards:
        raise invalid(s, e, "a RESPOND carries the two concealed faces of a 吃 only", "cards")
    claims = dict(s.eligible)[seat]
    if e.tag == PASS:
        claim: Claim = (PASS, ())
    elif e.tag == CHI:
        claim = (CHI, tuple(sorted(e.cards)))
        if claim not in claims:
            rule, why = refused_rule(s, seat, claim)
            raise illegal(s, e, rule, why)
    else:
        found = [c for c in claims if c[0] == e.tag]
        if not found:
            rule, why = refused_rule(s, seat, (e.tag, ()))
            raise illegal(s, e, rule, why)
        claim = found[0]
    s.answers += ((seat, claim),)
    s.unseen = tuple(map(add, s.unseen, _OTHERS_SEE[seat]))             # LH-70
    if len(s.answers) == len(s.eligible):
        s.phase = AWARD


def award_payload(s: LhState, done: tuple[tuple[int, Claim], ...]) -> str:
    """AWARD's payload: every call made in the window and the seats whose claim executes (the
    text ``json_text`` gives, built directly)."""
    calls = ",".join(f"[{seat}," + _claim_text(c)[1:] for seat, c in s.answers if c[0] != PASS)
    return '{"calls":[' + calls + '],"executed":[' + ",".join(
        str(seat) for seat, _ in done) + "]}"


def award_event(s: LhState, done: tuple[tuple[int, Claim], ...] | None = None) -> Event:
    """The AWARD the engine owes now (LH-33, LH-35)."""
    done = executed(s) if done is None else done
    return action(s, "AWARD", NONE, (s.w_card,), done[0][0] if done else NONE, NONE,
                  done[0][1][0] if done else "", award_payload(s, done))


def step_award(s: LhState, e: Event) -> None:
    """AWARD: the highest claim executes (LH-33; several 胡 per LH-35); calls become public."""
    done = executed(s)
    exp = award_event(s, done)
    if not same_event(s, e, exp):
        rule = "LH-35" if len(done) > 1 or sum(c[0] == HU for _, c in s.answers) > 1 \
            else "LH-33"
        raise illegal(s, e, rule, f"the window executes {exp.payload}")
    s.calls = tuple((seat, c) for seat, c in s.answers if c[0] != PASS)
    if not done:
        s.unseen = tuple(n + 1 for n in s.unseen)          # nobody sees an empty AWARD (LH-70)
        no_claim(s)
        return
    s.pending, s.phase = done, CLAIM


def claim_event(s: LhState) -> Event:
    """The meld event of the awarded 吃, 碰 or 杠 (the 胡 is built by ``scoring``)."""
    seat, (kind, with_) = s.pending[0]
    return action(s, CLAIM_EVENT[kind], seat, (s.w_card, *with_), s.w_from)


def step_meld_claim(s: LhState, e: Event) -> None:
    """CHI, PENG or MING_GANG as awarded: the discard and the concealed cards are laid down;
    the claimer discards next (LH-17, LH-18) or, after a 杠, draws from the tail (LH-24)."""
    seat, (kind, with_) = s.pending[0]
    exp = claim_event(s)
    if e.kind != exp.kind or e.seat != seat:
        raise illegal(s, e, "LH-33", f"the window awarded {kind} to seat {seat}")
    if e[2:7] != exp[2:7]:
        rule = {CHI: "LH-26", PENG: "LH-20", GANG: "LH-21"}[kind]
        raise illegal(s, e, rule, f"the claim is {exp.describe()}")
    card = s.w_card
    set_hand(s, seat, remove_cards(s.hands[seat], with_))
    s.pool = s.pool[:-1]                            # the claimed discard leaves the pool
    add_meld(s, seat, (MELD_OF[kind], tuple(sorted((card, *with_))), s.w_from, card))
    clear_window(s)
    s.turn, s.drawn = seat, -1
    s.phase = TAIL if kind == GANG else CLAIMED


def eligible_json(s: LhState) -> dict[str, Any]:
    """The eligible map of the open window, for the auditor's view."""
    return {str(seat): [claim_json(c) for c in claims] for seat, claims in s.eligible}
