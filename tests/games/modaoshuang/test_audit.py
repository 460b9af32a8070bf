"""Independent audit of the 摸到爽 engine against rules/modaoshuang.md (MDS-1 … MDS-42).

Every expectation here is derived from the rules text (and the readings of docs/modaoshuang.md
where the rules leave room), not from the engine's helpers. Two parts:

- scenarios in unusual positions, each citing the rule(s) it checks; the set of actions a seat
  may take is computed by brute force (``accepted``: every candidate event that ``check``
  accepts) and compared with the set the rules allow;
- a brute-force conformance check over seeded self-play states of every option set of
  ``CONFORMANCE`` and over the scenario positions: the candidates ``check`` accepts are exactly
  those ``legal_actions`` lists, and every refused candidate is refused with a plausible rule.
"""

from __future__ import annotations

import random

import pytest

from engine.cards import format_faces, parse_faces
from engine.errors import IllegalMove, InvalidEvent
from engine.events import Event
from engine.games import modaoshuang as mds

from .conftest import draw, gift, hand, no_play, play, playout, pos, rejected, report, run, started

PEN = {"mds_joker_violation": "penalty"}
ILL = {"mds_joker_violation": "illegal"}

# ---------------------------------------------------------------- brute force


def _key(e: Event) -> tuple:
    return (e.kind, e.seat, tuple(e.cards), e.value, e.tag, e.target)


def candidates(s) -> list[Event]:
    """Every event a seat could send now (and the owed automatic event, if any): each seat ×
    each kind × each card of its hand or none × values (a joker each named suit) × tags ×
    targets."""
    out = []
    a = mds.auto_event(s)
    if a is not None:
        out.append(a)

    def ev(kind, seat, cards=(), value=-1, tag="", target=-1):
        return Event(kind, seat=seat, cards=tuple(cards), value=value, tag=tag, target=target,
                     game_id=s.game_id, seq=s.seq)

    for seat in range(s.n):
        h = s.hands[seat]
        for c in h:
            for v in ((-1, 0, 1, 2, 3) if c >= 52 else (-1, 0)):
                out.append(ev("PLAY", seat, (c,), v))
        for v in (-1, 0, 1):
            out.append(ev("DRAW", seat, s.stock[:1], v, "turn"))
        out.append(ev("DRAW", seat, s.stock[:1], -1, "penalty"))
        for t in ("no_suit", "no_lead", "final"):
            out.append(ev("NO_PLAY", seat, tag=t))
        for v in (1, 2):
            out.append(ev("REPORT", seat, value=v))
        for tgt in range(s.n):
            if tgt != seat:
                out.extend(ev("GIFT", seat, (c,), target=tgt) for c in h)
                out.append(ev("GIFT", seat, (), target=tgt))
    return out


# the rules a refusal of each kind may plausibly cite (besides an owed event's rule)
PLAUSIBLE = {
    "PLAY": {"MDS-3", "MDS-11", "MDS-12", "MDS-16", "MDS-17", "MDS-19", "MDS-20", "MDS-25",
             "MDS-29", "MDS-32", "MDS-34"},
    "DRAW": {"MDS-11", "MDS-15", "MDS-17", "MDS-18", "MDS-21", "MDS-24", "MDS-25", "MDS-28",
             "MDS-34"},
    "NO_PLAY": {"MDS-11", "MDS-12", "MDS-17", "MDS-18", "MDS-25", "MDS-29", "MDS-32", "MDS-34"},
    "REPORT": {"MDS-22", "MDS-26", "MDS-27"},
    "GIFT": {"MDS-25"},
}
OWED = {"MDS-9", "MDS-10", "MDS-11", "MDS-13", "MDS-20", "MDS-23", "MDS-24", "MDS-28",
        "MDS-30", "MDS-34", "MDS-37"}


def accepted(s) -> set[tuple]:
    """The candidates ``check`` accepts; asserts each refusal is an IllegalMove citing a
    plausible rule, or an InvalidEvent (malformed field)."""
    owed = mds.next_auto(s)
    acc = set()
    for e in candidates(s):
        try:
            mds.check(s, e)
        except IllegalMove as x:
            ok = x.rule_id in (OWED if owed else PLAUSIBLE.get(e.kind, set()))
            assert ok, (e, x)
        except InvalidEvent:
            assert owed is None, e          # an owed event is refused with its rule first
        else:
            acc.add(_key(e))
    return acc


def conform(s) -> set[tuple]:
    """Assert check and legal_actions agree on this state; return the accepted set."""
    acc = accepted(s)
    listed = {_key(e) for e in mds.legal_actions(s)}
    assert acc == listed, (sorted(acc - listed), sorted(listed - acc))
    return acc


def acts(s) -> set[tuple]:
    """The accepted actions, readable: (kind, seat, cards text, value, tag[, target])."""
    out = set()
    for kind, seat, cards, value, tag, target in conform(s):
        row = (kind, seat, format_faces(cards), value, tag)
        out.add(row + ((target,) if kind == "GIFT" else ()))
    return out


def hs(s, seat=None) -> set[str]:
    """A hand (state and seat) or a text as a set of faces."""
    return set((s if seat is None else hand(s, seat)).split())


def P(seat, card, v=-1):
    return ("PLAY", seat, card, v, "")


def D(seat, held):
    return ("DRAW", seat, "*", held, "turn")


def _norm(rows):
    """Replace a DRAW's card by '*' (the stock's top card)."""
    return {(r[0], r[1], "*") + r[3:] if r[0] == "DRAW" else r for r in rows}


def NP(seat, tag):
    return ("NO_PLAY", seat, "", -1, tag)


def R(seat, count=2):
    return ("REPORT", seat, "", count, "")


def joker_leads(seat, card):
    return {P(seat, card, v) for v in range(4)}


# ---------------------------------------------------------------- following (MDS-16, 17, 21)

def test_mds_16_17_follower_with_the_suit_and_zhamo_on():
    """MDS-16/17/21: holding the suit, a follower plays a suit card or a joker, or (诈摸 on)
    draws; an off-suit card is refused; the drawn flag says it held the suit."""
    s = pos(["2s 3s", "4h 9h 5d BJ", "6h 8d"], stock="Kc Qc", table=[(0, "5h")])
    assert _norm(acts(s)) == {P(1, "4h"), P(1, "9h"), P(1, "BJ"), D(1, 1)}
    assert rejected(s, play(s, 1, "5d")).rule_id == "MDS-16"
    assert rejected(s, play(s, 1, "BJ", suit="d")).rule_id == "MDS-3"


def test_mds_21_zhamo_off_forbids_drawing_with_the_suit_but_not_without():
    """MDS-21: with 诈摸 off a follower holding the suit may not draw; MDS-17: lacking the
    suit but holding a joker it may still draw."""
    o = {"mds_zhamo": False}
    s = pos(["2s 3s", "4h 5d BJ", "6h 8d"], stock="Kc Qc", table=[(0, "5h")], options=o)
    assert acts(s) == {P(1, "4h"), P(1, "BJ")}
    assert rejected(s, draw(s, 1, 1)).rule_id == "MDS-21"
    s = pos(["2s 3s", "4c 5d BJ", "6h 8d"], stock="Kc Qc", table=[(0, "5h")], options=o)
    assert _norm(acts(s)) == {P(1, "BJ"), D(1, 0)}


def test_mds_17_follower_without_suit_or_joker_must_draw_and_then_may_play_the_drawn_card():
    """MDS-17: holding neither the suit nor a joker it may play, it must draw; a drawn card of
    the suit may then be played (or, 诈摸 on, it may draw again)."""
    s = pos(["2s 3s", "4c 5d", "6h 8d"], stock="Th Qc", table=[(0, "5h")])
    assert _norm(acts(s)) == {D(1, 0)}
    assert rejected(s, play(s, 1, "4c")).rule_id == "MDS-16"    # the follow rule, not the draw
    assert rejected(s, no_play(s, 1, "no_suit")).rule_id == "MDS-17"
    s = run(s, draw(s, 1, 0))
    assert _norm(acts(s)) == {P(1, "Th"), D(1, 1)}


def test_mds_17_rj_becomes_playable_once_the_hand_grows_to_three_under_illegal():
    """MDS-17/19/20 (illegal): an RJ from two cards is refused; after one draw (three cards) it
    may be played (先摸一张牌，然后出大王)."""
    s = pos(["2s 3s", "RJ 5d", "6h 8d"], stock="Qc Kc", table=[(0, "5h")], options=ILL)
    assert _norm(acts(s)) == {D(1, 0)}
    assert rejected(s, play(s, 1, "RJ")).rule_id == "MDS-19"
    s = run(s, draw(s, 1, 0))
    assert _norm(acts(s)) == {P(1, "RJ"), D(1, 0)}


def test_mds_20_penalty_rj_from_two_cards_is_a_play_and_costs_two_draws():
    """MDS-19/20 (penalty): an RJ from two cards stands, wins the round, and its player at once
    draws two cards (MISSED_REPORT cause joker, then two penalty DRAWs)."""
    s = pos(["2s 3s", "RJ 5d", "6h 8d"], stock="Qc Kc 2d", table=[(0, "5h")], options=PEN)
    assert _norm(acts(s)) == {P(1, "RJ"), D(1, 0)}
    s = run(s, play(s, 1, "RJ"))
    e = mds.auto_event(s)
    assert (e.kind, e.seat, e.tag) == ("MISSED_REPORT", 1, "joker")
    s = run(s, e)
    for card in ("Qc", "Kc"):
        e = mds.auto_event(s)
        assert (e.kind, e.seat, e.tag, format_faces(e.cards)) == ("DRAW", 1, "penalty", card)
        s = run(s, e)
    assert hs(s, 1) == hs("5d Qc Kc") and mds.next_auto(s) is None and mds.to_move(s) == 2


def test_mds_19_bj_as_last_card_illegal_refused_penalty_allowed():
    """MDS-19/20: a BJ as the last card is refused under illegal, a violation under penalty;
    under illegal the lone-BJ follower must draw (MDS-17)."""
    s = pos(["2s 3s", "BJ", "6h 8d"], stock="Qc Kc", table=[(0, "5h")], options=ILL)
    assert _norm(acts(s)) == {D(1, 0)}
    assert rejected(s, play(s, 1, "BJ")).rule_id == "MDS-19"
    s = pos(["2s 3s", "BJ", "6h 8d"], stock="Qc Kc", table=[(0, "5h")], options=PEN)
    assert _norm(acts(s)) == {P(1, "BJ"), D(1, 0)}


def test_mds_20_violation_emptying_the_hand_in_shou_without_givers_goes_out():
    """MDS-20/25/33: a BJ as last card in the 收到爽 phase, nobody holding four cards to give:
    the penalty gives nothing and the seat has gone out; the final round follows (MDS-34)."""
    s = pos(["2s 3s", "BJ", "6h 8d 9h", "Ts"], table=[(0, "5h")], options=PEN)
    s = run(s, play(s, 1, "BJ"))
    e = mds.auto_event(s)
    assert (e.kind, e.seat, e.tag) == ("MISSED_REPORT", 1, "joker")
    s = run(s, e)
    assert s.winner == 1
    # final round: seat 2 may play a heart (never a joker) or not play; seat 3 then too
    assert acts(s) == {P(2, "6h"), P(2, "9h"), NP(2, "final")}


def test_mds_20_violation_emptying_the_hand_with_a_gift_does_not_go_out():
    """MDS-20/25: with a seat holding four cards, its gift (optional) decides: given, the
    violator is not out."""
    s = pos(["2s 3s", "BJ", "6h 8d 9d Td", "Ts"], table=[(0, "5h")], options=PEN)
    s = run(s, play(s, 1, "BJ"), mds.auto_event)
    assert s.pen_gifts == (2,) and mds.to_move(s) == 2
    a = acts(s)
    assert a == {("GIFT", 2, c, -1, "", 1) for c in ("6h", "8d", "9d", "Td", "")}
    s = run(s, gift(s, 2, "8d"))
    assert s.winner == -1 and hs(s, 1) == hs("8d") and mds.to_move(s) == 2


# ---------------------------------------------------------------- leaders (MDS-12, 18, 21)

def test_mds_12_21_the_first_leader_of_round_one_follows_the_drawn_suit():
    """MDS-12/21: in round 1 the first leader plays to the drawn suit like a follower: it may
    诈摸 (its draw carries held=1), its joker names no suit."""
    s = pos(["4h 5d BJ", "2s 3s", "6h 8d"], stock="Kc Qc", leader=0, round_no=1, suit="h",
            first_suit="h")
    assert _norm(acts(s)) == {P(0, "4h"), P(0, "BJ"), D(0, 1)}
    assert rejected(s, play(s, 0, "5d")).rule_id == "MDS-16"
    assert rejected(s, play(s, 0, "BJ", suit="h")).rule_id == "MDS-3"


def test_mds_18_a_later_leader_does_not_draw():
    """MDS-18/21: after round 1 the leader leads any card (a joker with each named suit) and
    may not draw, even with 诈摸 on."""
    s = pos(["4h 5d BJ", "2s 3s", "6h 8d"], stock="Kc Qc", leader=0)
    assert acts(s) == {P(0, "4h"), P(0, "5d")} | joker_leads(0, "BJ")
    assert rejected(s, draw(s, 0, -1)).rule_id == "MDS-18"
    with pytest.raises((IllegalMove, InvalidEvent)):
        mds.apply(s, play(s, 0, "BJ"))           # a led joker must name its suit (MDS-12)


def test_mds_18_lone_rj_leader_penalty_leads_it_illegal_draws():
    """MDS-18/20: under penalty a lone RJ can be led (a violation); under illegal the leader
    draws one card (value -1) and then leads."""
    s = pos(["RJ", "2s 3s", "6h 8d"], stock="Kc Qc", leader=0, options=PEN)
    assert acts(s) == joker_leads(0, "RJ")
    s = pos(["RJ", "2s 3s", "6h 8d"], stock="Kc Qc", leader=0, options=ILL)
    assert _norm(acts(s)) == {D(0, -1)}
    s = run(s, draw(s, 0, -1))
    assert acts(s) == {P(0, "Kc")}            # RJ from two cards is still refused


# ---------------------------------------------------------------- the 收到爽 phase

def test_mds_28_phase_begins_mid_turn_by_a_zhamo_draw():
    """MDS-28/29: a 诈摸 that empties the stock starts the phase at once; the rest of the turn
    is MDS-29 (must play the suit held; no more drawing)."""
    s = pos(["2s 3s", "4h 5d", "6h 8d"], stock="Kc", table=[(0, "5h")])
    s = run(s, draw(s, 1, 1))
    assert mds.auto_event(s).kind == "PHASE_SHOUDAOSHUANG"
    conform(s)
    s = run(s, mds.auto_event(s))
    assert acts(s) == {P(1, "4h")}


def test_mds_28_30_phase_begun_mid_round_collects_the_cards_played_before_it():
    """MDS-28/30: the stock empties during a follower's draws; the next seat lacking the suit
    does not play and collects every non-joker of the round, also those played before the
    phase and after the collector; jokers stay dead."""
    s = pos(["2s 6h", "4c 5d", "8d 9d", "BJ 7c Tc"], stock="Jh", table=[(0, "5h")])
    s = run(s, draw(s, 1, 0), mds.auto_event)
    assert s.shou and acts(s) == {P(1, "Jh")}
    s = run(s, play(s, 1, "Jh"))
    assert acts(s) == {NP(2, "no_suit"), R(1)}
    s = run(s, report(s, 1))
    assert acts(s) == {NP(2, "no_suit")}
    s = run(s, no_play(s, 2, "no_suit"))
    assert acts(s) == {P(3, "BJ"), NP(3, "no_suit")}
    s = run(s, play(s, 3, "BJ"))
    e = mds.auto_event(s)
    assert (e.kind, e.seat, e.target, format_faces(e.cards)) == ("ROUND_END", 1, 2, "5h Jh")
    s = run(s, e)
    assert hs(s, 2) == hs("5h Jh 8d 9d") and 52 in s.dead and s.leader == 1


def test_mds_28_penalty_draws_cut_short_start_the_phase():
    """MDS-24/28: a missed-report penalty with one card in the stock draws it, the phase
    begins, the rest of the penalty is dropped (no gifts instead)."""
    s = pos(["2s 3s Qh", "4h 5h 6h", "7h 8d 9d Td"], stock="Kc", leader=1, round_no=3)
    s = run(s, play(s, 1, "4h"))
    assert s.report_seat == 1
    s = run(s, play(s, 2, "7h"))              # the next card: seat 1 missed its report
    e = mds.auto_event(s)
    assert (e.kind, e.seat, e.tag) == ("MISSED_REPORT", 1, "report")
    s = run(s, e)
    e = mds.auto_event(s)
    assert (e.kind, e.seat, e.tag, format_faces(e.cards)) == ("DRAW", 1, "penalty", "Kc")
    s = run(s, e)
    assert mds.auto_event(s).kind == "PHASE_SHOUDAOSHUANG"
    s = run(s, mds.auto_event(s))
    assert s.pen_seat == -1 and not s.pen_gifts and hs(s, 1) == hs("5h 6h Kc")
    assert acts(s) == {P(0, "Qh")}


def test_mds_32_stuck_leader_and_passed_seat_no_lead_then_collection():
    """MDS-32: in the phase a lone-BJ leader (illegal) does not play and is the collector; a
    lone-RJ seat is passed over too; the next seat leads and the others follow; the collector
    takes the non-jokers."""
    s = pos(["BJ", "RJ", "5h 6s", "7s 2c"], leader=0, options=ILL)
    assert acts(s) == {NP(0, "no_lead")}
    s = run(s, no_play(s, 0, "no_lead"))
    assert acts(s) == {NP(1, "no_lead")}
    s = run(s, no_play(s, 1, "no_lead"))
    assert acts(s) == {P(2, "5h"), P(2, "6s")}
    s = run(s, play(s, 2, "6s"))
    assert acts(s) == {P(3, "7s")}
    s = run(s, play(s, 3, "7s"))
    e = mds.auto_event(s)
    assert (e.seat, e.target, format_faces(e.cards)) == (3, 0, "6s 7s")


def test_mds_32_before_the_phase_a_stuck_leader_must_draw():
    """MDS-18/32: before the phase a stuck leader may not decline; it draws."""
    s = pos(["BJ", "RJ 2h", "5h 6s", "7s 2c"], stock="3d", leader=0, options=ILL)
    assert _norm(acts(s)) == {D(0, -1)}
    assert rejected(s, no_play(s, 0, "no_lead")).rule_id == "MDS-18"


# ---------------------------------------------------------------- reports and penalties

def test_mds_22_draws_do_not_end_the_deadline_the_next_card_does():
    """MDS-22/23: after seat 0's play leaves two cards, seat 1's draws do not end the deadline
    and seat 0 may still report out of turn; seat 1's card ends it and the penalty follows."""
    s = pos(["5h 2s 3s", "4c 5d", "6h 8d"], stock="Qc Kc Ac 2d 3d", leader=0)
    s = run(s, play(s, 0, "5h"))
    assert R(0) in acts(s)
    s = run(s, draw(s, 1, 0), lambda t: draw(t, 1, 0))
    assert R(0) in acts(s) and s.report_seat == 0
    r = run(s, report(s, 0))
    assert r.report_seat == -1 and R(0) not in acts(r)
    s = run(s, draw(s, 1, 0), lambda t: draw(t, 1, 0))     # Ac 2d: still no heart
    assert R(0) in acts(s)


def test_mds_22_the_reporters_own_next_lead_ends_the_deadline():
    """MDS-22: the last seat of a round leaves two cards and wins; its own lead ends its
    deadline: penalty before the next turn."""
    s = pos(["2h 9c", "3h 8c", "Ah 2s 3s"], stock="4d 5d 6d", leader=0, round_no=3)
    s = run(s, play(s, 0, "2h"), lambda t: play(t, 1, "3h"), lambda t: play(t, 2, "Ah"))
    s = run(s, mds.auto_event(s))                         # ROUND_END, seat 2 leads
    assert s.report_seat == 2 and R(2) in acts(s)
    s = run(s, play(s, 2, "2s"))
    e = mds.auto_event(s)
    assert (e.kind, e.seat, e.tag) == ("MISSED_REPORT", 2, "report")


def test_mds_26_one_card_report_on_and_off():
    """MDS-26: a play leaving one card owes a report only with the option on."""
    for on in (False, True):
        s = pos(["5h 2s", "4h 5d", "6h 8d"], stock="Qc Kc", leader=0,
                options={"mds_one_card_report": on})
        s = run(s, play(s, 0, "5h"))
        assert (R(0, 1) in acts(s)) == on and R(0, 2) not in acts(s)


def test_mds_25_gifts_from_seats_with_four_cards_in_order_from_the_offenders_next_seat():
    """MDS-25: in the phase the penalty is gifts: every other seat holding at least four cards
    when it applies, in turn order from the offender's next seat, each optional."""
    hands = ["7h 8h 9h Th", "2c", "5h 2s 3s", "4h 3c 4c 5c 6c", "2d 3d"]
    s = pos(hands, leader=2, round_no=4)
    s = run(s, play(s, 2, "5h"), lambda t: play(t, 3, "4h"))
    e = mds.auto_event(s)
    assert (e.kind, e.seat) == ("MISSED_REPORT", 2)
    s = run(s, e)
    assert s.pen_gifts == (3, 0) and mds.to_move(s) == 3
    assert {a[0] for a in acts(s)} == {"GIFT"}
    s = run(s, gift(s, 3))                                # declines
    assert mds.to_move(s) == 0
    rejected(s, play(s, 4, "2d"), "MDS-25")
    s = run(s, gift(s, 0, "Th"))
    assert hs(s, 2) == hs("Th 2s 3s") and hs(s, 0) == hs("7h 8h 9h") and mds.to_move(s) == 4


def test_mds_27_no_penalty_for_a_deadline_ended_by_the_winning_card():
    """MDS-27: seat 0 leaves two cards unreported; seat 1's last card wins the game: no
    MISSED_REPORT, the final round follows."""
    s = pos(["5h 2s 3s", "6h", "7h 8d", "9d Td"], stock="Qc Kc", leader=0)
    s = run(s, play(s, 0, "5h"), lambda t: play(t, 1, "6h"))
    assert s.winner == 1 and mds.next_auto(s) is None
    assert acts(s) == {P(2, "7h"), NP(2, "final")}
    rejected(s, report(s, 0), "MDS-27")


# ---------------------------------------------------------------- the final round and 点炮

def test_mds_34_final_round_no_jokers_no_draw_no_collection():
    """MDS-34: after the winner's card, later seats may play a suit card (never a joker) or
    not play, even holding the suit; a collector already determined collects nothing."""
    s = pos(["2s 5h", "3d 4d", "6h", "BJ 7h 2c"], leader=0)
    s = run(s, play(s, 0, "5h"), lambda t: no_play(t, 1, "no_suit"),
            lambda t: play(t, 2, "6h"))
    assert s.winner == 2 and s.collector == 1
    assert acts(s) == {P(3, "7h"), NP(3, "final")}
    rejected(s, play(s, 3, "BJ"), "MDS-34")
    s = run(s, no_play(s, 3, "final"))
    e = mds.auto_event(s)
    assert (e.kind, e.seat, e.target, e.cards, e.tag) == ("ROUND_END", 2, -1, (), "final")
    s = run(s, e)
    assert hs(s, 1) == hs("3d 4d") and mds.auto_event(s).kind == "GAME_END"


@pytest.mark.parametrize("mode", ["leader", "preceding"])
def test_mds_35_dianpao_by_mode(mode):
    """MDS-35: the winner follows with its last card: 点炮 is the leader (leader) or the seat of
    the card just before (preceding)."""
    s = pos(["9c 2d", "Ks 3c", "4c Th", "5c"], leader=1, options={"mds_dianpao": mode})
    s = run(s, play(s, 1, "3c"), lambda t: play(t, 2, "4c"), lambda t: play(t, 3, "5c"))
    assert s.winner == 3 and s.dianpao == (1 if mode == "leader" else 2)


def test_mds_35_no_dianpao_when_the_winner_leads_or_in_round_one():
    """MDS-35: no 点炮 if the winner led its last card, or in round 1 (suit drawn)."""
    s = pos(["9c 2d", "3c", "4c Th", "5c 6c"], leader=1)
    assert run(s, play(s, 1, "3c")).dianpao == -1
    s = pos(["9c 2d", "3c", "4c Th"], leader=0, round_no=1, suit="c", first_suit="c",
            stock="Ks Qs")
    s = run(s, play(s, 0, "9c"), lambda t: play(t, 1, "3c"))
    assert s.winner == 1 and s.dianpao == -1


@pytest.mark.parametrize("mode,scores", [("negative", [0, -50, -60, -190]),
                                         ("chips", [300, -50, -60, -190])])
def test_mds_37_to_40_the_worked_example(mode, scores):
    """MDS-37/38/39/40: A (seat 0) wins; B 50, C 60, D 40 left; D led the final round (点炮).
    Base 100/120/80; payments 50/60/190."""
    s = pos(["3h", "As Kc Qd 5s", "Ac Ad Ts Tc", "2h Ks Qc 5d Td"], leader=3,
            options={"mds_settlement": mode})
    s = run(s, play(s, 3, "2h"), lambda t: play(t, 0, "3h"))
    assert s.winner == 0 and s.dianpao == 3
    s = run(s, no_play(s, 1, "final"), lambda t: no_play(t, 2, "final"))
    s = run(s, mds.auto_event(s), lambda t: mds.auto_event(t))
    r = mds.result(s)
    assert r["face_sums"][1:] == [50, 60, 40]
    assert r["base_losses"] == [0, 100, 120, 80] and r["payments"] == [0, 50, 60, 190]
    assert r["scores"] == scores and r["dianpao"] == 3


def test_mds_38_halves_without_dianpao_each_pays_its_base():
    """MDS-37/38: without 点炮 each loser pays twice its face sum."""
    s = pos(["3h", "As", "2c 3c", "4h"], leader=0, options={"mds_settlement": "chips"})
    s = run(s, play(s, 0, "3h"), lambda t: no_play(t, 1, "final"),
            lambda t: no_play(t, 2, "final"), lambda t: play(t, 3, "4h"))
    s = run(s, mds.auto_event(s), lambda t: mds.auto_event(t))
    r = mds.result(s)
    assert r["payments"] == [0, 40, 10, 0] and r["scores"] == [50, -40, -10, 0]


# ---------------------------------------------------------------- sessions, information

def test_mds_8_36_the_winner_leads_the_next_game():
    """MDS-8/36: the next game's first leader is the previous winner, recorded 'previous'."""
    ev0, final = playout(7, {"mds_players": 4})
    kw = mds.session_start(final)
    assert kw == {"first_leader": final.winner}
    e = mds.start_event("g2", ["a", "b", "c", "d"], random.Random(1), {"mds_players": 4},
                        previous_game=final.game_id, **kw)
    assert mds.check_session(e, final) is None
    assert mds.initial_state(e).first_leader == final.winner
    other = (final.winner + 1) % 4
    bad = mds.start_event("g2", ["a", "b", "c", "d"], random.Random(1), {"mds_players": 4},
                          previous_game=final.game_id, first_leader=other)
    assert mds.check_session(bad, final).rule_id == "MDS-36"


def test_mds_41_views_never_show_other_faces_drawn_faces_or_the_held_flag():
    """MDS-41: a seat's view shows its own faces only, counts of others, no stock; another
    seat's DRAW is seen without its card and without the held-the-suit value."""
    s = pos(["2s 3s", "4h 5d", "6h 8d"], stock="Kc Qc", table=[(0, "5h")])
    e = draw(s, 1, 1)
    t = run(s, e)
    for seat in range(3):
        v = mds.view(t, seat)
        assert "stock" not in v and "deck" not in v
        for i, h in enumerate(v["hands"]):
            assert (set(h) == hs(t, i)) if i == seat else h == len(t.hands[i])
        text = repr({k: x for k, x in v.items() if k not in ("hands", "dead")})
        seen = mds.seen_event(e, seat)
        if seat != 1:
            assert "Kc" not in text and seen.cards == () and seen.value == -1
        else:
            assert seen.cards == parse_faces("Kc")


# ---------------------------------------------------------------- brute force over self-play

def _selfplay_states():
    for oi, o in enumerate(mds.CONFORMANCE["option_sets"]):
        for seed in range(2):
            rng = random.Random(1000 * oi + seed)
            opts = mds.Options(**o)
            s = mds.initial_state(mds.start_event(
                f"audit-{oi}-{seed}", [f"p{i}" for i in range(opts.mds_players)], rng, opts))
            pol = mds.POLICIES["random"]()
            k = 0
            while not mds.is_over(s):
                if s.phase == "play" and (k % 2 == 0 or mds.next_auto(s) is None and (
                        s.pen_gifts or s.report_seat >= 0 or s.winner >= 0)):
                    yield s
                k += 1
                s = mds.apply(s, pol.choose(s, rng))


def test_brute_force_check_equals_legal_actions_over_self_play():
    """For sampled self-play states of every CONFORMANCE option set (every state with gifts,
    an open report or in the final round): check accepts exactly what legal_actions lists."""
    n = 0
    for s in _selfplay_states():
        conform(s)
        n += 1
    assert n > 500


def test_mds_41_suit_draw_face_and_gift_faces_stay_private():
    """MDS-41/10/25: the suit-draw face is seen by the drawer alone (others see the suit); a
    gift's face by giver and receiver only."""
    s = started(seed=3, n=4)
    drawer = (s.first_leader - 1) % 4
    for seat in range(4):
        sd = mds.view(s, seat)["suit_draw"]
        assert sd["suit"] == "shcd"[s.first_suit]
        assert ("cards" in sd) == (seat == drawer)
    s = pos(["2s 3s", "BJ", "6h 8d 9d Td", "Ts"], table=[(0, "5h")], options=PEN)
    s = run(s, play(s, 1, "BJ"), mds.auto_event)
    g = gift(s, 2, "9d")
    for seat in range(4):
        assert mds.cards_visible(g, seat) == (seat in (1, 2))
        assert mds.seen_event(g, seat).cards == (g.cards if seat in (1, 2) else ())


def test_mds_20_25_out_pending_violator_goes_out_when_the_only_giver_declines():
    """MDS-20/25/33/35: the BJ violation emptied seat 2's hand; the only eligible giver
    declines: seat 2 has gone out, 点炮 the leader (seat 1)."""
    s = pos(["6h 8d 9d Td", "5h 2s 3s", "BJ", "7h 8h"], leader=1, options=PEN)
    s = run(s, play(s, 1, "5h"), lambda t: play(t, 2, "BJ"))
    kinds_ = []
    while (e := mds.auto_event(s)) is not None:
        kinds_.append((e.kind, e.seat, e.tag))
        s = run(s, e)
    # seat 1's deadline (two cards left) was ended by seat 2's card: its penalty first
    # (gifts: seat 0 only holds four), then the violation's own
    assert kinds_ == [("MISSED_REPORT", 1, "report")]
    assert s.pen_gifts == (0,)
    s = run(s, gift(s, 0))
    e = mds.auto_event(s)
    assert (e.kind, e.seat, e.tag) == ("MISSED_REPORT", 2, "joker")
    s = run(s, e)
    assert s.pen_gifts == (0,)
    s = run(s, gift(s, 0))
    assert s.winner == 2 and s.dianpao == 1
    assert acts(s) == {P(3, "7h"), P(3, "8h"), NP(3, "final")}


def _random_positions(count: int):
    r = random.Random(2024)
    made = 0
    while made < count:
        n = r.choice([3, 4, 5])
        deck = list(range(54))
        r.shuffle(deck)
        hands = [format_faces([deck.pop() for _ in range(r.choice([1, 2, 3, 4, 5]))])
                 for _ in range(n)]
        stock = format_faces([deck.pop() for _ in range(r.choice([0, 1, 2, 3, 5]))])
        opts = {"mds_joker_violation": r.choice(["penalty", "illegal"]),
                "mds_zhamo": r.random() < 0.5, "mds_one_card_report": r.random() < 0.5,
                "mds_dianpao": r.choice(["leader", "preceding"])}
        try:
            s = pos(hands, stock=stock, leader=r.randrange(n), options=opts)
        except InvalidEvent:
            continue
        made += 1
        yield s, r


def test_brute_force_over_random_unusual_positions_played_on():
    """Random short hands, short stocks (the phase begun or about to), every option: play on
    with random legal actions, comparing check with legal_actions at every state."""
    n = 0
    for s, r in _random_positions(60):
        for _ in range(25):
            if mds.is_over(s):
                break
            conform(s)
            n += 1
            s = mds.apply(s, r.choice(mds.legal_actions(s)))
    assert n > 800
